"""A worker's heartbeat: a thread of its main process writes its row
(app/domain/worker_heartbeats.py) every few seconds from ``worker_ready`` on, and removes it
at ``worker_shutdown``, so other processes can tell whether a worker is running."""

from __future__ import annotations

import logging
import os
import threading

from celery.signals import worker_ready, worker_shutdown

from app.domain.worker_heartbeats import INTERVAL_SECONDS, beat, forget
from tasks.runtime import get_runtime

log = logging.getLogger(__name__)

_stop = threading.Event()


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
