"""A durable kombu transport on PostgreSQL: leases, ``SKIP LOCKED`` and ``LISTEN/NOTIFY``.

URL: ``pagemill+postgresql+psycopg://user@host/db`` (the part after ``pagemill+`` is a
SQLAlchemy URL).

How it keeps its promises:

* **Nothing lost.**  A fetched message stays in ``broker_messages`` with a lease
  (``visible_at`` in the future, ``deliveries`` counted, ``consumer`` recorded).  Ack
  deletes the row; reject with requeue, or a warm shutdown, makes it visible again at
  once.  A worker killed with SIGKILL simply stops renewing its leases, and its
  messages, started or only prefetched, are delivered again when the lease expires.
* **Long tasks are not redelivered while their worker lives.**  A thread in each
  consuming process renews the leases of every message it holds every
  ``visibility_timeout / 3`` seconds.
* **No contention, no table growth.**  Consumers claim with ``FOR UPDATE SKIP LOCKED``
  along an index on ``(queue, priority DESC, id)``; consumed rows are deleted.
* **Instant wake-up.**  Publishing sends ``NOTIFY pagemill_broker`` in the same
  transaction; an idle consumer waits on its ``LISTEN`` socket rather than sleeping,
  with a slow poll (``polling_interval``) as the safety net for expired leases.
* **Poison messages end.**  A message delivered more than ``max_deliveries`` times is
  moved to ``broker_dead_letters`` (see ``pagemill broker dead-letters``).

With Celery the transport runs in the worker's event loop (``implements.asynchronous``):
the LISTEN socket is registered as a reader, so the worker uses its async loop and
AsynPool; plain kombu consumers use ``drain_events``, which waits on the same socket.

Exchanges and bindings still live in process memory, as in kombu's virtual base: direct
routing works across processes, fanout does not yet.
"""

from __future__ import annotations

import json
import logging
import os
import select
import socket
import threading
import uuid
from collections.abc import Iterable
from queue import Empty
from time import monotonic
from typing import Any

import psycopg
from kombu.transport import virtual
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import DBAPIError, OperationalError

log = logging.getLogger(__name__)

NOTIFY_CHANNEL = "pagemill_broker"
DEFAULT_VISIBILITY_TIMEOUT = 60.0
DEFAULT_MAX_DELIVERIES = 10

SCHEMA = """
CREATE TABLE IF NOT EXISTS broker_messages (
    id          bigserial PRIMARY KEY,
    queue       text NOT NULL,
    priority    smallint NOT NULL DEFAULT 0,
    payload     text NOT NULL,
    visible_at  timestamptz NOT NULL DEFAULT now(),
    deliveries  integer NOT NULL DEFAULT 0,
    consumer    text,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS broker_messages_fetch ON broker_messages (queue, priority DESC, id);
CREATE TABLE IF NOT EXISTS broker_dead_letters (
    id          bigint PRIMARY KEY,
    queue       text NOT NULL,
    priority    smallint NOT NULL,
    payload     text NOT NULL,
    deliveries  integer NOT NULL,
    reason      text NOT NULL,
    created_at  timestamptz NOT NULL,
    died_at     timestamptz NOT NULL DEFAULT now()
);
"""

_PUT = text("""
WITH msg AS (
    INSERT INTO broker_messages (queue, priority, payload) VALUES (:queue, :priority, :payload)
    RETURNING id
)
SELECT pg_notify(:channel, :queue) FROM msg
""")

# Claims the next visible message; a message past its delivery budget is moved to the
# dead letters by the same statement instead of being handed out again.
_CLAIM = text("""
WITH next AS (
    SELECT id FROM broker_messages
    WHERE queue = :queue AND visible_at <= now()
    ORDER BY priority DESC, id
    LIMIT 1
    FOR UPDATE SKIP LOCKED
)
UPDATE broker_messages m
SET visible_at = now() + make_interval(secs => :lease), deliveries = m.deliveries + 1,
    consumer = :consumer
FROM next WHERE m.id = next.id
RETURNING m.id, m.payload, m.deliveries
""")

_BURY = text("""
WITH gone AS (DELETE FROM broker_messages WHERE id = :id RETURNING *)
INSERT INTO broker_dead_letters (id, queue, priority, payload, deliveries, reason, created_at)
SELECT id, queue, priority, payload, deliveries, :reason, created_at FROM gone
ON CONFLICT (id) DO NOTHING
""")

_ACK = text("DELETE FROM broker_messages WHERE id = :id")

_RELEASE = text("""
WITH m AS (
    UPDATE broker_messages SET visible_at = now(), consumer = NULL WHERE id = :id RETURNING queue
)
SELECT pg_notify(:channel, queue) FROM m
""")

_RENEW = text("""
UPDATE broker_messages SET visible_at = now() + make_interval(secs => :lease)
WHERE id = ANY(CAST(:ids AS bigint[]))
""")

_SIZE = text("SELECT count(*) FROM broker_messages WHERE queue = :queue AND visible_at <= now()")
_PURGE = text("DELETE FROM broker_messages WHERE queue = :queue AND visible_at <= now()")
_DELETE_QUEUE = text("DELETE FROM broker_messages WHERE queue = :queue")


def install_schema(engine: Engine) -> None:
    """Create the broker tables if missing (idempotent; serialised by an advisory lock)."""
    with engine.begin() as conn:
        conn.execute(text("SELECT pg_advisory_xact_lock(7261002)"))
        conn.exec_driver_sql(SCHEMA)


class _Engines:
    """One SQLAlchemy engine per (URL, process): a pool must never cross a fork."""

    _lock = threading.Lock()
    _engines: dict[tuple[str, int], Engine] = {}

    @classmethod
    def get(cls, url: str) -> Engine:
        key = (url, os.getpid())
        with cls._lock:
            engine = cls._engines.get(key)
            if engine is None:
                engine = create_engine(url, pool_pre_ping=True, pool_size=4, max_overflow=8)
                install_schema(engine)
                cls._engines[key] = engine
            return engine


class Channel(virtual.Channel):
    """A channel whose queues are rows of ``broker_messages``."""

    def __init__(self, connection: Any, **kwargs: Any) -> None:
        super().__init__(connection, **kwargs)
        options = connection.client.transport_options
        self.visibility_timeout = float(options.get("visibility_timeout", DEFAULT_VISIBILITY_TIMEOUT))
        self.max_deliveries = int(options.get("max_deliveries", DEFAULT_MAX_DELIVERIES))
        self.consumer_id = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        # delivery tag -> row id of every message this channel holds unacknowledged.
        self._held: dict[str, int] = {}

    @property
    def engine(self) -> Engine:
        return _Engines.get(self.connection.sqlalchemy_url)

    def _put(self, queue: str, message: dict[str, Any], **kwargs: Any) -> None:
        priority = message.get("properties", {}).get("priority") or 0
        with self.engine.begin() as conn:
            conn.execute(_PUT, {"queue": queue, "priority": int(priority),
                                "payload": json.dumps(message), "channel": NOTIFY_CHANNEL})

    def _get(self, queue: str, timeout: float | None = None) -> dict[str, Any]:
        while True:
            with self.engine.begin() as conn:
                row = conn.execute(_CLAIM, {"queue": queue, "lease": self.visibility_timeout,
                                            "consumer": self.consumer_id}).one_or_none()
                if row is None:
                    raise Empty()
                if row.deliveries > self.max_deliveries:
                    conn.execute(_BURY, {"id": row.id, "reason": f"delivered {row.deliveries - 1}"
                                         f" times without acknowledgement"})
                    log.error("message moved to dead letters", extra={"queue": queue,
                                                                      "message_id": row.id})
                    continue
            payload = json.loads(row.payload)
            properties = payload.setdefault("properties", {})
            if row.deliveries > 1:
                payload["redelivered"] = True
            self._held[properties["delivery_tag"]] = row.id
            self.connection.lease_keeper.hold(row.id)
            return payload

    def _forget(self, delivery_tag: str) -> int | None:
        row_id = self._held.pop(delivery_tag, None)
        if row_id is not None:
            self.connection.lease_keeper.release(row_id)
            self.connection.capacity_freed = True
        return row_id

    def basic_ack(self, delivery_tag: str, multiple: bool = False) -> None:
        if multiple:
            raise NotImplementedError("basic_ack(multiple=True) is not supported by this transport")
        row_id = self._forget(delivery_tag)
        if row_id is not None:
            with self.engine.begin() as conn:
                conn.execute(_ACK, {"id": row_id})
        super().basic_ack(delivery_tag)

    def basic_reject(self, delivery_tag: str, requeue: bool = False) -> None:
        if requeue:
            # qos.reject calls _restore_at_beginning, which makes the row visible again.
            super().basic_reject(delivery_tag, requeue=True)
            return
        row_id = self._forget(delivery_tag)
        if row_id is not None:
            with self.engine.begin() as conn:
                conn.execute(_BURY, {"id": row_id, "reason": "rejected by consumer"})
        super().basic_reject(delivery_tag, requeue=False)

    def _restore(self, message: Any) -> None:
        """Make a held message visible again (warm shutdown, requeue); never re-publish it."""
        row_id = self._forget(message.delivery_tag)
        if row_id is None:
            super()._restore(message)
            return
        with self.engine.begin() as conn:
            conn.execute(_RELEASE, {"id": row_id, "channel": NOTIFY_CHANNEL})

    def _size(self, queue: str) -> int:
        with self.engine.begin() as conn:
            return int(conn.execute(_SIZE, {"queue": queue}).scalar_one())

    def _purge(self, queue: str) -> int:
        with self.engine.begin() as conn:
            return int(conn.execute(_PURGE, {"queue": queue}).rowcount)

    def _delete(self, queue: str, *args: Any, **kwargs: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(_DELETE_QUEUE, {"queue": queue})

    def _new_queue(self, queue: str, **kwargs: Any) -> None:
        """Queues are implicit: a queue is the set of rows that name it."""

    def _has_queue(self, queue: str, **kwargs: Any) -> bool:
        return True


class LeaseKeeper:
    """Renews the leases of every message held by this process until it is acked."""

    def __init__(self, transport: Transport) -> None:
        self.transport = transport
        self._ids: set[int] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pid = os.getpid()

    def hold(self, row_id: int) -> None:
        with self._lock:
            self._ids.add(row_id)
            if self._thread is None or self._pid != os.getpid():
                self._pid = os.getpid()
                self._thread = threading.Thread(target=self._run, name="pagemill-broker-lease",
                                                daemon=True)
                self._thread.start()

    def release(self, row_id: int) -> None:
        with self._lock:
            self._ids.discard(row_id)

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        lease = self.transport.visibility_timeout
        while not self._stop.wait(lease / 3):
            with self._lock:
                ids = sorted(self._ids)
            if not ids:
                continue
            try:
                with _Engines.get(self.transport.sqlalchemy_url).begin() as conn:
                    conn.execute(_RENEW, {"ids": ids, "lease": lease})
            except (OperationalError, DBAPIError):
                log.warning("could not renew broker leases", exc_info=True)


class Transport(virtual.Transport):
    Channel = Channel

    can_parse_url = True
    default_port = 5432
    driver_type = "sql"
    driver_name = "pagemill-postgresql"
    polling_interval = 2.0
    connection_errors = (OperationalError, psycopg.OperationalError)
    channel_errors = (DBAPIError,)

    # asynchronous: Celery runs its event loop (and the AsynPool) with this transport,
    # waking on the LISTEN socket instead of polling.
    implements = virtual.Transport.implements.extend(asynchronous=True,
                                                     exchange_type=frozenset(["direct", "topic"]))

    def __init__(self, client: Any, **kwargs: Any) -> None:
        super().__init__(client, **kwargs)
        options = client.transport_options
        self.visibility_timeout = float(options.get("visibility_timeout", DEFAULT_VISIBILITY_TIMEOUT))
        self.sqlalchemy_url = client.hostname
        if not self.sqlalchemy_url or "://" not in self.sqlalchemy_url:
            raise ValueError("pagemill broker URL must look like pagemill+postgresql+psycopg://...")
        self.lease_keeper = LeaseKeeper(self)
        self._listener: psycopg.Connection[Any] | None = None
        self._loop: Any = None
        self._listener_fd: int | None = None
        # Set when a held message is acked or released: there is room to fetch again.
        self.capacity_freed = False

    def driver_version(self) -> str:
        return psycopg.__version__

    # The consuming loop: where the stock virtual transport sleeps between empty polls,
    # wait on the LISTEN socket so that a publish wakes the consumer at once.
    def drain_events(self, connection: Any, timeout: float | None = None) -> None:
        started = monotonic()
        self._ensure_listener()
        while True:
            try:
                self.cycle.get(self._deliver, timeout=timeout)
                return
            except Empty:
                pass
            remaining = self.polling_interval
            if timeout is not None:
                left = timeout - (monotonic() - started)
                if left <= 0:
                    raise TimeoutError()
                remaining = min(remaining, left)
            self._wait_for_notify(remaining)

    # Celery's event loop: a readable LISTEN socket, a freed prefetch slot, or the slow
    # safety-net timer triggers a fetch of whatever the prefetch limit allows.
    def register_with_event_loop(self, connection: Any, loop: Any) -> None:
        self._loop = loop
        self._register_listener()
        loop.call_repeatedly(self.polling_interval, self._drain_ready)
        loop.on_tick.add(self._on_tick)

    def _register_listener(self) -> None:
        self._ensure_listener()
        assert self._listener is not None
        self._listener_fd = self._listener.fileno()
        self._loop.add_reader(self._listener_fd, self._on_readable)

    def _on_readable(self) -> None:
        try:
            assert self._listener is not None
            for _ in self._listener.notifies(timeout=0):
                pass
        except (psycopg.Error, OSError, AssertionError):
            log.warning("LISTEN connection lost; reconnecting", exc_info=True)
            if self._listener_fd is not None:
                self._loop.remove_reader(self._listener_fd)
            self._close_listener()
            self._register_listener()
        self._drain_ready()

    def _on_tick(self) -> None:
        if self.capacity_freed:
            self.capacity_freed = False
            self._drain_ready()

    def _drain_ready(self) -> None:
        # Bounded, so that a deep queue cannot starve the rest of the event loop.
        for _ in range(100):
            try:
                self.cycle.get(self._deliver, timeout=0)
            except Empty:
                return

    def _ensure_listener(self) -> None:
        if self._listener is not None and not self._listener.closed:
            return
        url = self.sqlalchemy_url.split("://", 1)[1]
        self._listener = psycopg.connect("postgresql://" + url, autocommit=True)
        self._listener.execute(f"LISTEN {NOTIFY_CHANNEL}")

    def _wait_for_notify(self, timeout: float) -> None:
        listener = self._listener
        if listener is None:
            return
        try:
            ready, _, _ = select.select([listener.fileno()], [], [], timeout)
            if ready:
                # Drain every pending notification; which queue woke us does not matter,
                # the fair cycle will look at all of them.
                for _ in listener.notifies(timeout=0):
                    pass
        except (psycopg.Error, OSError, ValueError):
            log.warning("LISTEN connection lost; reconnecting", exc_info=True)
            self._close_listener()

    def _close_listener(self) -> None:
        if self._listener is not None:
            try:
                self._listener.close()
            finally:
                self._listener = None

    def close_connection(self, connection: Any) -> None:
        self.lease_keeper.stop()
        self._close_listener()
        super().close_connection(connection)


def dead_letters(engine: Engine, limit: int = 100) -> Iterable[Any]:
    with engine.connect() as conn:
        return conn.execute(text("""
            SELECT id, queue, deliveries, reason, created_at, died_at,
                   payload::jsonb -> 'headers' ->> 'task' AS task,
                   payload::jsonb -> 'headers' ->> 'id' AS task_id
            FROM broker_dead_letters ORDER BY died_at DESC LIMIT :limit
        """), {"limit": limit}).all()


def requeue_dead_letters(engine: Engine, ids: list[int] | None = None) -> int:
    """Put dead letters back on their queue with a fresh delivery budget."""
    install_schema(engine)
    with engine.begin() as conn:
        rows = conn.execute(text("""
            WITH back AS (
                DELETE FROM broker_dead_letters
                WHERE CAST(:ids AS bigint[]) IS NULL OR id = ANY(CAST(:ids AS bigint[]))
                RETURNING queue, priority, payload
            ), ins AS (
                INSERT INTO broker_messages (queue, priority, payload)
                SELECT queue, priority, payload FROM back RETURNING queue
            )
            SELECT queue, pg_notify(:channel, queue) FROM ins
        """), {"ids": ids, "channel": NOTIFY_CHANNEL}).all()
    return len(rows)
