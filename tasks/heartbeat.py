"""Workers record a heartbeat row so other processes can tell whether one is running.

The stock SQLAlchemy transport has no remote control (``celery inspect`` gets no reply),
so the database is where liveness is visible.
"""

from __future__ import annotations

import logging
import os
import threading

from celery.signals import worker_ready, worker_shutdown
from sqlalchemy import Connection, text

from tasks.runtime import get_runtime

log = logging.getLogger(__name__)

INTERVAL_SECONDS = 5.0
STALE_AFTER_SECONDS = 20

_stop = threading.Event()


def beat(conn: Connection, hostname: str, pid: int) -> None:
    conn.execute(text("""
        INSERT INTO worker_heartbeats (hostname, pid) VALUES (:host, :pid)
        ON CONFLICT (hostname) DO UPDATE SET pid = excluded.pid, last_seen_at = now()
    """), {"host": hostname, "pid": pid})


def forget(conn: Connection, hostname: str) -> None:
    """Remove a worker's row: it shut down, or its supervisor saw it die."""
    conn.execute(text("DELETE FROM worker_heartbeats WHERE hostname = :h"), {"h": hostname})


def live_workers(conn: Connection) -> list[str]:
    """Workers whose last heartbeat is under STALE_AFTER_SECONDS old (they beat every
    INTERVAL_SECONDS, so a live one is never counted out by a late beat or two)."""
    rows = conn.execute(text("""
        SELECT hostname FROM worker_heartbeats
        WHERE last_seen_at > now() - make_interval(secs => :stale)
    """), {"stale": STALE_AFTER_SECONDS})
    return [r.hostname for r in rows]


def _loop(hostname: str) -> None:
    engine = get_runtime().engine
    while not _stop.is_set():
        try:
            with engine.begin() as conn:
                beat(conn, hostname, os.getpid())
        except Exception:  # the database may restart; keep beating
            log.warning("heartbeat failed", exc_info=True)
        _stop.wait(INTERVAL_SECONDS)


@worker_ready.connect
def _start(sender: object = None, **_: object) -> None:
    hostname = getattr(sender, "hostname", None) or f"worker-{os.getpid()}"
    threading.Thread(target=_loop, args=(hostname,), name="pagemill-heartbeat", daemon=True).start()


@worker_shutdown.connect
def _stop_beating(sender: object = None, **_: object) -> None:
    _stop.set()
    hostname = getattr(sender, "hostname", None)
    if hostname:
        try:
            with get_runtime().engine.begin() as conn:
                forget(conn, hostname)
        except Exception:
            log.warning("could not remove heartbeat", exc_info=True)
