"""Server-Sent Events for job progress, driven by LISTEN/NOTIFY, on a budget of connections.

Triggers on ``documents`` and ``jobs`` (migration 0004) notify ``pagemill_job_events`` with the
job id whenever a status changes; a stream then re-reads progress from the rows, so every
event carries counts derived from terminal documents, never increments.

Database connections are the scarce resource, not streams:

- a process has **one** LISTEN connection, owned by a background thread (a
  :class:`JobEventHub`, made by the first stream and stopped when no stream has needed it for a
  minute) that fans notifications out in memory to the streams of that job;
- a stream holds no connection: it reads progress through the engine's pool for one query at
  a time, and at most ``STREAM_READ_SLOTS`` streams read at once, so the pool always keeps
  connections for ordinary requests;
- the streams open in a process are capped (``PAGEMILL_MAX_EVENT_STREAMS``): the next one is
  refused with :class:`StreamLimitReached` (the API answers 503 with ``Retry-After``).

A notification can be lost (the listener's connection drops; NOTIFYs sent while nobody listens
are gone): the listener reconnects with backoff and then wakes every stream to re-read, and a
stream re-reads at least every keep-alive interval anyway (``PAGEMILL_EVENT_KEEPALIVE_SECONDS``),
when it also sends its keep-alive comment.  A lost notification delays an event; it never hangs a stream.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import select
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import psycopg

from app.config import to_libpq_url
from app.domain.jobs import TERMINAL_JOB_STATES

log = logging.getLogger(__name__)

CHANNEL = "pagemill_job_events"
# The listener's thread name; its connection's application_name is this and the process id,
# which tells it apart in pg_stat_activity (and says which API process holds it).
LISTENER_NAME = "pagemill-job-events"
# What a stream refused over the limit is told to wait (Retry-After).
RETRY_AFTER_SECONDS = 10
# A stream re-reads at most this often however busy its job is (a job of thousands of small
# documents notifies hundreds of times a second); changes in between are coalesced.
MIN_READ_INTERVAL_SECONDS = 0.25
# Streams reading progress at the same moment; below app/infra/db.py's pool (5 + 5 overflow), so
# that a wake-up of every stream (after a reconnect) cannot take every pooled connection.
STREAM_READ_SLOTS = 3
# Between listener reconnection attempts: doubling from the first to the last.
RECONNECT_SECONDS = (0.5, 10.0)
# With no notification for this long the listener checks that its connection is alive.
LISTENER_CHECK_SECONDS = 30.0
# The listener closes its connection after this long without a stream (a new one reopens it).
LISTENER_IDLE_SECONDS = 60.0


class StreamLimitReached(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(f"this server already has {limit} event streams open, its limit; "
                         "retry later or poll GET /v1/jobs/<id>")
        self.limit = limit


class StreamEnded(Exception):
    """Raised by a stream's ``read_progress`` to end it with an ``error`` event of ``code``
    (say, the caller's key was revoked while the stream was open)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class Subscription:
    """One stream's interest in one job: a wake-up flag the listener sets on a notification.
    A flag, not a queue: a stream re-reads the whole state, so any number of notifications
    since its last read mean the same thing."""

    def __init__(self, hub: JobEventHub, job_id: str) -> None:
        self.hub = hub
        self.job_id = job_id
        self._woken = threading.Event()

    def wake(self) -> None:
        self._woken.set()

    def wait(self, timeout: float) -> bool:
        """True if woken within ``timeout`` seconds.  The flag is cleared before the caller's
        next read, so a notification arriving during that read wakes the next wait."""
        woken = self._woken.wait(max(0.0, timeout))
        self._woken.clear()
        return woken

    def close(self) -> None:
        """Give the stream's slot back (idempotent)."""
        self.hub.unsubscribe(self)


class JobEventHub:
    """The process's LISTEN connection and the streams it serves (see the module docstring)."""

    def __init__(self, database_url: str) -> None:
        self.pid = os.getpid()
        self._conninfo = to_libpq_url(database_url)
        self._lock = threading.Lock()
        self._by_job: dict[str, set[Subscription]] = {}
        self._count = 0
        self._idle_since = time.monotonic()
        self._thread: threading.Thread | None = None
        self.read_slots = threading.BoundedSemaphore(STREAM_READ_SLOTS)

    @property
    def active_streams(self) -> int:
        with self._lock:
            return self._count

    def subscribe(self, job_id: str, limit: int) -> Subscription:
        """A subscription to ``job_id``'s notifications, or StreamLimitReached when ``limit``
        streams are already open in this process."""
        with self._lock:
            if self._count >= limit:
                raise StreamLimitReached(limit)
            subscription = Subscription(self, job_id)
            self._by_job.setdefault(job_id, set()).add(subscription)
            self._count += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=LISTENER_NAME, daemon=True)
                self._thread.start()
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            streams = self._by_job.get(subscription.job_id)
            if streams is None or subscription not in streams:
                return
            streams.discard(subscription)
            if not streams:
                del self._by_job[subscription.job_id]
            self._count -= 1
            if self._count == 0:
                self._idle_since = time.monotonic()

    def _wake(self, job_id: str | None) -> None:
        """Wake the streams of ``job_id``, or every stream when None."""
        with self._lock:
            if job_id is None:
                woken = [s for streams in self._by_job.values() for s in streams]
            else:
                woken = list(self._by_job.get(job_id, ()))
        for subscription in woken:
            subscription.wake()

    def _stop_if_idle(self, for_seconds: float | None = None) -> bool:
        """True (and this thread is forgotten: the next stream starts another) when no stream
        has been open for ``for_seconds`` (by default LISTENER_IDLE_SECONDS)."""
        idle = LISTENER_IDLE_SECONDS if for_seconds is None else for_seconds
        with self._lock:
            if self._count == 0 and time.monotonic() - self._idle_since >= idle:
                self._thread = None
                return True
            return False

    def _run(self) -> None:
        delay = RECONNECT_SECONDS[0]
        while not self._stop_if_idle():
            try:
                with psycopg.connect(self._conninfo, autocommit=True, connect_timeout=10,
                                     application_name=f"{LISTENER_NAME} {os.getpid()}") as listener:
                    listener.execute(f"LISTEN {CHANNEL}")
                    delay = RECONNECT_SECONDS[0]
                    # Whatever changed while nobody listened was announced to no one.
                    self._wake(None)
                    if self._listen(listener):
                        return
            except Exception:  # noqa: BLE001 - whatever it was, the streams need a listener back
                if self._stop_if_idle(0.0):
                    log.debug("job events: LISTEN connection lost with no stream open", exc_info=True)
                    return
                log.warning("job events: LISTEN connection lost or refused; retrying in %.1f s",
                            delay, exc_info=True)
            # Until it is back, streams still re-read at every keep-alive.
            time.sleep(delay)
            delay = min(delay * 2, RECONNECT_SECONDS[1])

    def _listen(self, listener: psycopg.Connection[Any]) -> bool:
        """Fan notifications out until the connection fails (raises) or the hub is idle
        (True)."""
        while True:
            ready, _, _ = select.select([listener.fileno()], [], [], LISTENER_CHECK_SECONDS)
            if ready:
                for notify in listener.notifies(timeout=0):
                    self._wake(notify.payload)
            else:
                # A dead peer may leave the socket silent rather than readable.
                listener.execute("SELECT 1")
            if self._stop_if_idle():
                return True


_hubs: dict[str, JobEventHub] = {}
_hubs_lock = threading.Lock()


def hub_for(database_url: str) -> JobEventHub:
    """This process's hub for ``database_url`` (a fresh one in a forked child: a thread and a
    connection do not survive a fork)."""
    with _hubs_lock:
        hub = _hubs.get(database_url)
        if hub is None or hub.pid != os.getpid():
            hub = _hubs[database_url] = JobEventHub(database_url)
        return hub


def _event(name: str, data: dict[str, Any], event_id: str | None = None) -> str:
    # The id last: a field's place in the frame means nothing to SSE, and readers that take
    # the data from the second line keep working.
    tail = f"id: {event_id}\n" if event_id is not None else ""
    return f"event: {name}\ndata: {json.dumps(data, default=str)}\n{tail}\n"


def progress_id(progress: dict[str, Any]) -> str:
    """A ``progress`` event's id: a digest of the state it carries.  Events are states, not
    a log: a client that reconnects with ``Last-Event-ID`` (as EventSource and pagemill's
    client do) is not sent the state it already has again, and nothing is kept per stream to
    answer it, on this API process or any other."""
    canonical = json.dumps(progress, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:20]


def job_event_stream(
    subscription: Subscription,
    read_progress: Callable[[], dict[str, Any] | None],
    reread_seconds: float,
    max_seconds: float = 3600.0,
    last_event_id: str | None = None,
) -> Iterator[str]:
    """Yield SSE frames: ``progress`` on every change (with its :func:`progress_id`; the
    first is left out when it is the state ``last_event_id`` names), ``end`` when the job is
    terminal, and a keep-alive comment after ``reread_seconds`` without one (when it also
    re-reads).
    ``read_progress`` must hold its connection only for its own query; it returns None when
    the job is gone, or raises StreamEnded.  The subscription is closed when the stream ends
    (the caller also closes it if the stream never starts)."""
    try:
        last: dict[str, Any] | None = None
        deadline = time.monotonic() + max_seconds
        while time.monotonic() < deadline:
            read_at = time.monotonic()
            try:
                with subscription.hub.read_slots:
                    progress = read_progress()
            except StreamEnded as ended:
                yield _event("error", {"code": ended.code})
                return
            if progress is None:
                yield _event("error", {"code": "not_found"})
                return
            if progress != last:
                event_id = progress_id(progress)
                if last is not None or event_id != last_event_id:
                    yield _event("progress", progress, event_id)
                else:  # something to send now: the response (its status, headers) goes with it
                    yield ": unchanged since Last-Event-ID\n\n"
                last = progress
            if progress["status"] in TERMINAL_JOB_STATES:
                yield _event("end", {"status": progress["status"]})
                return
            if not subscription.wait(min(reread_seconds, deadline - time.monotonic())):
                yield ": keep-alive\n\n"
            time.sleep(max(0.0, read_at + MIN_READ_INTERVAL_SECONDS - time.monotonic()))
    finally:
        subscription.close()
