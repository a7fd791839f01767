"""The statements of app/domain/worker_heartbeats.py: one row per live worker."""

from __future__ import annotations

from sqlalchemy import text

#: A worker says it is alive: its row created, or its pid and time refreshed.
BEAT = text("""
    INSERT INTO worker_heartbeats (hostname, pid) VALUES (:host, :pid)
    ON CONFLICT (hostname) DO UPDATE SET pid = excluded.pid, last_seen_at = now()
""")

#: A worker's row removed: it shut down, or its supervisor saw it die.
FORGET = text("DELETE FROM worker_heartbeats WHERE hostname = :h")

#: The workers whose last beat is younger than :stale seconds.
LIVE_WORKERS = text("""
    SELECT hostname FROM worker_heartbeats
    WHERE last_seen_at > now() - make_interval(secs => :stale)
""")
