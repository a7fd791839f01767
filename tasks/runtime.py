"""The runtime of a worker, beat or Flower process: built once from the environment, on first
use, and publishing through the process's Celery app (tasks/celery.py) -- the one runtime of
a process that Celery starts, where there is no caller to pass one."""

from __future__ import annotations

import threading

from app.config import Config
from app.runtime import Runtime, prepare
from tasks.publisher import CeleryPublisher

_lock = threading.Lock()
_runtime: Runtime | None = None


def _worker_publisher(runtime: Runtime) -> CeleryPublisher:
    from tasks.celery import app

    return CeleryPublisher(runtime, app)


def get_runtime(config: Config | None = None) -> Runtime:
    """The process's runtime, built on first use from ``config`` (by default the environment);
    later calls get the same one."""
    global _runtime
    with _lock:
        if _runtime is None:
            _runtime = Runtime(config or Config.from_env(), publisher_factory=_worker_publisher)
        return _runtime


def prepared_runtime(config: Config | None = None) -> Runtime:
    """The process's runtime with its database reachable and, when it is the embedded server,
    migrated.  Raises :class:`app.infra.embedded.DatabaseUnavailable` with what to do."""
    return prepare(get_runtime(config))
