"""Server-Sent Events for job progress, driven by LISTEN/NOTIFY (no polling).

Triggers on ``documents`` and ``jobs`` (migration 0004) notify ``pagemill_job_events``
with the job id whenever a status changes; the stream re-reads progress from the rows,
so every event carries counts derived from terminal documents, never increments.
"""

from __future__ import annotations

import json
import select
import time
from collections.abc import Callable, Iterator
from typing import Any

import psycopg

from app.config import to_libpq_url
from app.jobs import TERMINAL_JOB_STATES

CHANNEL = "pagemill_job_events"
KEEPALIVE_SECONDS = 15.0


def _event(name: str, data: dict[str, Any]) -> str:
    return f"event: {name}\ndata: {json.dumps(data, default=str)}\n\n"


def job_event_stream(
    database_url: str,
    job_id: str,
    read_progress: Callable[[], dict[str, Any] | None],
    max_seconds: float = 3600.0,
) -> Iterator[str]:
    """Yield SSE frames: ``progress`` on every change, ``end`` when the job is terminal."""
    with psycopg.connect(to_libpq_url(database_url), autocommit=True) as listener:
        # LISTEN before the first read: a change between the two is then not missed.
        listener.execute(f"LISTEN {CHANNEL}")
        last: dict[str, Any] | None = None
        deadline = time.monotonic() + max_seconds
        while time.monotonic() < deadline:
            progress = read_progress()
            if progress is None:
                yield _event("error", {"code": "not_found"})
                return
            if progress != last:
                yield _event("progress", progress)
                last = progress
            if progress["status"] in TERMINAL_JOB_STATES:
                yield _event("end", {"status": progress["status"]})
                return
            woke = _wait_for(listener, job_id, KEEPALIVE_SECONDS)
            if not woke:
                yield ": keep-alive\n\n"


def _wait_for(listener: psycopg.Connection[Any], job_id: str, timeout: float) -> bool:
    """True once a notification for ``job_id`` arrives, False after ``timeout``."""
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return False
        ready, _, _ = select.select([listener.fileno()], [], [], left)
        if ready and any(n.payload == job_id for n in listener.notifies(timeout=0)):
            return True
