"""Which workers are alive: each worker's main process writes a heartbeat row every
``INTERVAL_SECONDS`` (tasks/heartbeat.py); the API's readiness check and the CLI read them.

The stock SQLAlchemy transport has no remote control (``celery inspect`` gets no reply), so
the database is where liveness is visible.  Statements in statements/worker_heartbeats.py.
"""

from __future__ import annotations

from sqlalchemy import Connection

from app.domain.statements import worker_heartbeats as sql

INTERVAL_SECONDS = 5.0
STALE_AFTER_SECONDS = 20


def beat(conn: Connection, hostname: str, pid: int) -> None:
    conn.execute(sql.BEAT, {"host": hostname, "pid": pid})


def forget(conn: Connection, hostname: str) -> None:
    """Remove a worker's row: it shut down, or its supervisor saw it die."""
    conn.execute(sql.FORGET, {"h": hostname})


def live_workers(conn: Connection) -> list[str]:
    """Workers whose last heartbeat is under STALE_AFTER_SECONDS old (they beat every
    INTERVAL_SECONDS, so a live one is never counted out by a late beat or two)."""
    return [r.hostname for r in conn.execute(sql.LIVE_WORKERS, {"stale": STALE_AFTER_SECONDS})]
