"""The statements of app/domain/search_reads.py: WAL positions of the primary and its replicas."""

from __future__ import annotations

from sqlalchemy import text

#: How far this server has replayed the primary's WAL ('X/Y': the end of the last record
#: applied, so every commit before it is visible to the next statement's snapshot); NULL on a
#: server that never ran recovery (a primary named as a replica).
REPLAY_LSN = text("SELECT CAST(pg_last_wal_replay_lsn() AS text)")

#: How far the primary has made its WAL durable: what a replica can have received.  Sampled
#: with the time it was read, to turn a replica's replay position into an age.
FLUSH_LSN = text("SELECT CAST(pg_current_wal_flush_lsn() AS text)")
