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
  along an index on ``(queue, priority DESC, id)``, as many messages per round trip as
  the prefetch limit leaves room for (at most ``fetch_limit``); consumed rows are deleted.
* **Instant wake-up.**  Publishing sends ``NOTIFY pagemill_broker`` in the same
  transaction; an idle consumer waits on its ``LISTEN`` socket rather than sleeping,
  with a slow poll (``polling_interval``) as the safety net for expired leases.
* **Poison messages end.**  A message delivered more than ``max_deliveries`` times is
  moved to ``broker_dead_letters`` (see ``pagemill broker dead-letters``).

With Celery the transport runs in the worker's event loop (``implements.asynchronous``):
the LISTEN socket is registered as a reader, so the worker uses its async loop and
AsynPool; plain kombu consumers use ``drain_events``, which waits on the same socket.

* **Routing is shared.**  Exchanges and bindings are rows (``broker_exchanges``,
  ``broker_bindings``), so direct, topic and fanout routing is the same from every process:
  ``celery inspect``/``control`` (fanout to every worker's pidbox queue) and worker events
  (topic) work.  Queues declared with ``x-expires`` (reply and event queues) disappear
  with their bindings and messages once unused that long, and undelivered messages older
  than a queue's ``x-message-ttl`` are dropped, so monitoring does not fill the database.
"""

from __future__ import annotations

import json
import logging
import os
import select
import socket
import threading
import uuid
from collections import deque
from collections.abc import Iterable
from queue import Empty
from time import monotonic
from typing import Any

import psycopg
from kombu.transport import virtual
from kombu.transport.base import to_rabbitmq_queue_arguments
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import DBAPIError, OperationalError

log = logging.getLogger(__name__)

NOTIFY_CHANNEL = "pagemill_broker"
DEFAULT_VISIBILITY_TIMEOUT = 60.0
DEFAULT_MAX_DELIVERIES = 10
DEFAULT_FETCH_LIMIT = 32

SCHEMA = """
CREATE TABLE IF NOT EXISTS broker_messages (
    id          bigserial PRIMARY KEY,
    queue       text NOT NULL,
    priority    smallint NOT NULL DEFAULT 0,
    payload     text NOT NULL,
    visible_at  timestamptz NOT NULL DEFAULT now(),
    deliveries  integer NOT NULL DEFAULT 0,
    consumer    text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    -- From the message's `expiration` property (Celery's `expires`): never delivered after.
    expires_at  timestamptz
);
ALTER TABLE broker_messages ADD COLUMN IF NOT EXISTS expires_at timestamptz;
CREATE INDEX IF NOT EXISTS broker_messages_fetch ON broker_messages (queue, priority DESC, id);
CREATE INDEX IF NOT EXISTS broker_messages_expiry ON broker_messages (expires_at)
    WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS broker_exchanges (
    name        text PRIMARY KEY,
    type        text NOT NULL
);
CREATE TABLE IF NOT EXISTS broker_bindings (
    exchange     text NOT NULL,
    routing_key  text NOT NULL,
    pattern      text,
    queue        text NOT NULL,
    PRIMARY KEY (exchange, routing_key, queue)
);
CREATE INDEX IF NOT EXISTS broker_bindings_queue ON broker_bindings (queue);
-- Queues with x-expires (reply and event queues) and x-message-ttl (control queues).
CREATE TABLE IF NOT EXISTS broker_queues (
    name            text PRIMARY KEY,
    expires_ms      bigint,
    message_ttl_ms  bigint,
    last_used_at    timestamptz NOT NULL DEFAULT now()
);
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
    INSERT INTO broker_messages (queue, priority, payload, expires_at)
    -- NULL ttl: NULL expiry.
    VALUES (:queue, :priority, :payload, now() + CAST(:ttl_ms AS bigint) * interval '1 millisecond')
    RETURNING id
)
SELECT pg_notify(:channel, :queue) FROM msg
""")

# Claims the next visible message; a message past its delivery budget is moved to the
# dead letters by the same statement instead of being handed out again.
_CLAIM = text("""
WITH next AS (
    SELECT id FROM broker_messages
    WHERE queue = :queue AND visible_at <= now() AND (expires_at IS NULL OR expires_at > now())
    ORDER BY priority DESC, id
    LIMIT :limit
    FOR UPDATE SKIP LOCKED
)
UPDATE broker_messages m
SET visible_at = now() + make_interval(secs => :lease), deliveries = m.deliveries + 1,
    consumer = :consumer
FROM next WHERE m.id = next.id
RETURNING m.id, m.payload, m.deliveries, m.priority
""")

# Consumers that do not acknowledge (kombu pidbox and event receivers) take the message
# outright: there is nothing to lease.
_TAKE = text("""
DELETE FROM broker_messages
WHERE id = (
    SELECT id FROM broker_messages
    WHERE queue = :queue AND visible_at <= now() AND (expires_at IS NULL OR expires_at > now())
    ORDER BY priority DESC, id
    LIMIT 1
    FOR UPDATE SKIP LOCKED
)
RETURNING id, payload, deliveries + 1 AS deliveries
""")

_BURY = text("""
WITH gone AS (DELETE FROM broker_messages WHERE id = :id RETURNING *)
INSERT INTO broker_dead_letters (id, queue, priority, payload, deliveries, reason, created_at)
SELECT id, queue, priority, payload, deliveries, :reason, created_at FROM gone
ON CONFLICT (id) DO NOTHING
""")

_ACK = text("DELETE FROM broker_messages WHERE id = ANY(CAST(:ids AS bigint[]))")

# Acks, claims and lease renewals may be lost in a server crash without losing a message
# (the message is delivered again), so they need not wait for the WAL flush; publishes do.
_RELAXED = text("SET LOCAL synchronous_commit TO off")

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

_PUT_FANOUT = text("""
WITH targets AS (SELECT DISTINCT queue FROM broker_bindings WHERE exchange = :exchange),
ins AS (
    INSERT INTO broker_messages (queue, priority, payload, expires_at)
    SELECT queue, :priority, :payload, now() + CAST(:ttl_ms AS bigint) * interval '1 millisecond'
    FROM targets RETURNING queue
)
SELECT pg_notify(:channel, queue) FROM ins
""")

_PUT_DIRECT = text("""
WITH targets AS (
    SELECT DISTINCT queue FROM broker_bindings
    WHERE exchange = :exchange AND routing_key = :routing_key
), ins AS (
    INSERT INTO broker_messages (queue, priority, payload, expires_at)
    SELECT queue, :priority, :payload, now() + CAST(:ttl_ms AS bigint) * interval '1 millisecond'
    FROM targets RETURNING queue
)
SELECT pg_notify(:channel, queue) FROM ins
""")

_DECLARE_EXCHANGE = text("""
INSERT INTO broker_exchanges (name, type) VALUES (:name, :type) ON CONFLICT (name) DO NOTHING
""")
_EXCHANGE_TYPE = text("SELECT type FROM broker_exchanges WHERE name = :name")
_BIND = text("""
INSERT INTO broker_bindings (exchange, routing_key, pattern, queue)
VALUES (:exchange, :routing_key, :pattern, :queue) ON CONFLICT DO NOTHING
""")
_UNBIND = text("""
DELETE FROM broker_bindings WHERE exchange = :exchange AND routing_key = :routing_key
    AND queue = :queue
""")
_TABLE = text("SELECT routing_key, pattern, queue FROM broker_bindings WHERE exchange = :exchange")
_DECLARE_QUEUE = text("""
INSERT INTO broker_queues (name, expires_ms, message_ttl_ms) VALUES (:name, :expires, :ttl)
ON CONFLICT (name) DO UPDATE SET expires_ms = excluded.expires_ms,
    message_ttl_ms = excluded.message_ttl_ms, last_used_at = now()
""")
_HAS_QUEUE = text("""
SELECT EXISTS (SELECT 1 FROM broker_queues WHERE name = :queue)
    OR EXISTS (SELECT 1 FROM broker_bindings WHERE queue = :queue)
""")
_DROP_QUEUE = text("""
WITH b AS (DELETE FROM broker_bindings WHERE queue = :queue),
     q AS (DELETE FROM broker_queues WHERE name = :queue)
DELETE FROM broker_messages WHERE queue = :queue
""")
_TOUCH_QUEUES = text("""
UPDATE broker_queues SET last_used_at = now() WHERE name = ANY(CAST(:queues AS text[]))
""")
# Queues unused for longer than their x-expires vanish with their bindings and messages;
# messages older than their queue's x-message-ttl that were never delivered are dropped.
_EXPIRE = text("""
WITH gone AS (
    DELETE FROM broker_queues
    WHERE expires_ms IS NOT NULL AND last_used_at + expires_ms * interval '1 millisecond' < now()
    RETURNING name
), b AS (
    DELETE FROM broker_bindings WHERE queue IN (SELECT name FROM gone)
), m AS (
    DELETE FROM broker_messages WHERE queue IN (SELECT name FROM gone)
)
DELETE FROM broker_messages msg USING broker_queues q
WHERE msg.queue = q.name AND q.message_ttl_ms IS NOT NULL AND msg.deliveries = 0
  AND msg.created_at + q.message_ttl_ms * interval '1 millisecond' < now()
""")
# Messages past their own expiry are never delivered; this removes them.
_EXPIRE_MESSAGES = text("DELETE FROM broker_messages WHERE expires_at < now()")

_SIZE = text("SELECT count(*) FROM broker_messages WHERE queue = :queue AND visible_at <= now()")
_PURGE = text("DELETE FROM broker_messages WHERE queue = :queue AND visible_at <= now()")
_DELETE_QUEUE = text("DELETE FROM broker_messages WHERE queue = :queue")


def _publish_params(message: dict[str, Any]) -> dict[str, Any]:
    """Priority, payload and time to live (kombu's ``expiration`` property, in ms) of a publish."""
    properties = message.get("properties", {})
    expiration = properties.get("expiration")
    return {"priority": int(properties.get("priority") or 0), "payload": json.dumps(message),
            "ttl_ms": max(0, int(float(expiration))) if expiration not in (None, "") else None,
            "channel": NOTIFY_CHANNEL}


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
                # No pre-ping: it would double the round trips of every fetch and ack; a dead
                # connection raises OperationalError, which kombu treats as connection loss.
                engine = create_engine(url, pool_size=4, max_overflow=8, pool_recycle=3600)
                install_schema(engine)
                cls._engines[key] = engine
            return engine


class Channel(virtual.Channel):
    """A channel whose queues are rows of ``broker_messages`` and whose exchanges and
    bindings are rows too, so that routing is the same from every process."""

    supports_fanout = True

    # Turn kombu's Queue(expires=..., message_ttl=...) into x-expires / x-message-ttl, as
    # py-amqp does; the virtual base would silently drop them.
    prepare_queue_arguments = staticmethod(to_rabbitmq_queue_arguments)

    def __init__(self, connection: Any, **kwargs: Any) -> None:
        super().__init__(connection, **kwargs)
        options = connection.client.transport_options
        self.visibility_timeout = float(options.get("visibility_timeout", DEFAULT_VISIBILITY_TIMEOUT))
        self.max_deliveries = int(options.get("max_deliveries", DEFAULT_MAX_DELIVERIES))
        self.consumer_id = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        # delivery tag -> row id of every message this channel holds unacknowledged.
        self._held: dict[str, int] = {}
        # Claimed in a batch, not yet handed to the consumer: (row id, payload, deliveries).
        self._buffer: dict[str, deque[tuple[int, str, int]]] = {}
        self.fetch_limit = int(options.get("fetch_limit", DEFAULT_FETCH_LIMIT))
        self._no_ack_queues: set[str] = set()
        # Acknowledged rows not deleted yet.  An ack rides along with the next claim (one
        # round trip instead of two); it is flushed on its own when the consumer goes idle
        # (before it waits for a NOTIFY), at the end of a Celery event-loop iteration, by the
        # lease keeper within a few seconds, and on close.  A crash in between only means the
        # message is delivered again, as an AMQP ack lost with its connection would be.
        # Guarded by a lock: the lease keeper's thread flushes too.
        self._acked: list[int] = []
        self._acked_lock = threading.Lock()

    def basic_consume(self, queue: str, no_ack: bool, *args: Any, **kwargs: Any) -> Any:
        if no_ack:
            self._no_ack_queues.add(queue)
        return super().basic_consume(queue, no_ack, *args, **kwargs)

    def basic_cancel(self, consumer_tag: str) -> Any:
        queue = self._tag_to_queue.get(consumer_tag)
        result = super().basic_cancel(consumer_tag)
        if queue is not None and queue not in self._active_queues:
            self._no_ack_queues.discard(queue)
        return result

    def basic_get(self, queue: str, no_ack: bool = False, **kwargs: Any) -> Any:
        if not no_ack:
            return super().basic_get(queue, no_ack=False, **kwargs)
        try:
            return self.Message(self._take(queue), channel=self)
        except Empty:
            return None

    def _take(self, queue: str) -> dict[str, Any]:
        with self.engine.begin() as conn:
            row = conn.execute(_TAKE, {"queue": queue}).one_or_none()
        if row is None:
            raise Empty()
        return json.loads(row.payload)

    @property
    def engine(self) -> Engine:
        return _Engines.get(self.connection.sqlalchemy_url)

    def _put(self, queue: str, message: dict[str, Any], **kwargs: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(_PUT, {"queue": queue, **_publish_params(message)})

    def _get(self, queue: str, timeout: float | None = None) -> dict[str, Any]:
        buffered = self._buffer.get(queue)
        if not buffered:
            quiet = self.connection.quiet_queues
            if queue in quiet:
                raise Empty()  # found empty, and no NOTIFY for it since: skip the round trip
            if queue in self._no_ack_queues:
                try:
                    return self._take(queue)
                except Empty:
                    quiet.add(queue)
                    raise
            buffered = self._buffer[queue] = deque(self._claim(queue))
            if not buffered:
                quiet.add(queue)
                raise Empty()
        row_id, raw, deliveries = buffered.popleft()
        payload = json.loads(raw)
        properties = payload.setdefault("properties", {})
        if deliveries > 1:
            payload["redelivered"] = True
        self._held[properties["delivery_tag"]] = row_id
        return payload

    def _claim(self, queue: str) -> list[tuple[int, str, int]]:
        """Lease as many messages as the prefetch limit allows, in one round trip."""
        # Without a prefetch limit (plain kombu consumers) take one: a batch would sit leased
        # in a consumer that may never ask for it.
        room = self.qos.can_consume_max_estimate()
        limit = max(1, min(room if room is not None else 1, self.fetch_limit))
        with self.engine.begin() as conn:
            conn.execute(_RELAXED)
            self._delete_acked(conn)
            rows = conn.execute(_CLAIM, {"queue": queue, "lease": self.visibility_timeout,
                                         "consumer": self.consumer_id, "limit": limit}).all()
            claimed = []
            for row in sorted(rows, key=lambda r: (-r.priority, r.id)):
                if row.deliveries > self.max_deliveries:
                    conn.execute(_BURY, {"id": row.id, "reason": f"delivered {row.deliveries - 1}"
                                         " times without acknowledgement"})
                    log.error("message moved to dead letters",
                              extra={"queue": queue, "message_id": row.id})
                else:
                    claimed.append((row.id, row.payload, row.deliveries))
        for row_id, _, _ in claimed:
            self.connection.lease_keeper.hold(row_id)
        return claimed

    def close(self) -> None:
        try:
            self.flush_acks()
        except (OperationalError, DBAPIError):
            log.warning("could not delete acknowledged messages; they will be delivered again",
                        exc_info=True)
        # Leased but never handed out: make them visible again rather than wait for expiry.
        pending = [row_id for buffered in self._buffer.values() for row_id, _, _ in buffered]
        self._buffer.clear()
        if pending:
            try:
                with self.engine.begin() as conn:
                    for row_id in pending:
                        conn.execute(_RELEASE, {"id": row_id, "channel": NOTIFY_CHANNEL})
                        self.connection.lease_keeper.release(row_id)
            except (OperationalError, DBAPIError):
                log.warning("could not release buffered messages; their leases will expire",
                            exc_info=True)
        super().close()

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
            with self._acked_lock:
                self._acked.append(row_id)
        super().basic_ack(delivery_tag)

    def _delete_acked(self, conn: Any) -> None:
        with self._acked_lock:
            ids, self._acked = self._acked, []
        if not ids:
            return
        try:
            conn.execute(_ACK, {"ids": ids})
        except BaseException:
            # The statement failed: keep them to retry with the next claim or flush.
            with self._acked_lock:
                self._acked[:0] = ids
            raise

    def flush_acks(self) -> None:
        if self._acked:
            with self.engine.begin() as conn:
                conn.execute(_RELAXED)
                self._delete_acked(conn)

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
        arguments = kwargs.get("arguments") or {}
        expires, ttl = arguments.get("x-expires"), arguments.get("x-message-ttl")
        with self.engine.begin() as conn:
            conn.execute(_DECLARE_QUEUE, {"name": queue,
                                          "expires": int(expires) if expires else None,
                                          "ttl": int(ttl) if ttl else None})

    def _has_queue(self, queue: str, **kwargs: Any) -> bool:
        with self.engine.begin() as conn:
            return bool(conn.execute(_HAS_QUEUE, {"queue": queue}).scalar_one())

    def _delete(self, queue: str, *args: Any, **kwargs: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(_DROP_QUEUE, {"queue": queue})

    def queue_delete(self, queue: str, if_unused: bool = False, if_empty: bool = False,
                     **kwargs: Any) -> None:
        if if_empty and self._size(queue):
            return
        self._delete(queue)
        self.state.queue_bindings_delete(queue)

    # Exchanges and bindings live in the database: a publish in any process sees the
    # bindings declared by every other process (fanout for remote control, topic for events).
    def exchange_declare(self, exchange: str | None = None, type: str = "direct",
                         durable: bool = False, auto_delete: bool = False,
                         arguments: dict[str, Any] | None = None, nowait: bool = False,
                         passive: bool = False) -> None:
        type = type or "direct"
        name = exchange or f"amq.{type}"
        if passive:
            if name not in self.state.exchanges and self._stored_type(name) is None:
                super().exchange_declare(name, type, passive=True)  # raises NOT_FOUND
            return
        super().exchange_declare(name, type, durable, auto_delete, arguments, nowait)
        with self.engine.begin() as conn:
            conn.execute(_DECLARE_EXCHANGE, {"name": name, "type": type})

    def _stored_type(self, exchange: str) -> str | None:
        with self.engine.begin() as conn:
            return conn.execute(_EXCHANGE_TYPE, {"name": exchange}).scalar_one_or_none()

    def typeof(self, exchange: str, default: str = "direct") -> Any:
        if exchange in self.state.exchanges:
            return super().typeof(exchange, default)
        return self.exchange_types[self._stored_type(exchange) or default]

    def get_table(self, exchange: str) -> list[tuple[str, str | None, str]]:
        with self.engine.begin() as conn:
            return [tuple(row) for row in conn.execute(_TABLE, {"exchange": exchange})]  # type: ignore[misc]

    def queue_bind(self, queue: str, exchange: str | None = None, routing_key: str = "",
                   arguments: dict[str, Any] | None = None, **kwargs: Any) -> None:
        exchange = exchange or "amq.direct"
        self.state.binding_declare(queue, exchange, routing_key, arguments)
        key, pattern, _ = self.typeof(exchange).prepare_bind(queue, exchange, routing_key,
                                                             arguments)
        with self.engine.begin() as conn:
            conn.execute(_BIND, {"exchange": exchange, "routing_key": key, "pattern": pattern,
                                 "queue": queue})

    def queue_unbind(self, queue: str, exchange: str | None = None, routing_key: str = "",
                     arguments: dict[str, Any] | None = None, **kwargs: Any) -> None:
        self.state.binding_delete(queue, exchange, routing_key)
        with self.engine.begin() as conn:
            conn.execute(_UNBIND, {"exchange": exchange or "amq.direct",
                                   "routing_key": routing_key, "queue": queue})

    def basic_publish(self, message: dict[str, Any], exchange: str, routing_key: str,
                      **kwargs: Any) -> Any:
        """Direct exchanges route in the INSERT itself: one round trip per publish."""
        if not exchange or self.typeof(exchange).type != "direct":
            return super().basic_publish(message, exchange, routing_key, **kwargs)
        self._inplace_augment_message(message, exchange, routing_key)
        with self.engine.begin() as conn:
            routed = conn.execute(_PUT_DIRECT, {
                "exchange": exchange, "routing_key": routing_key, **_publish_params(message)}).all()
        if not routed:
            log.warning("message to exchange %r with routing key %r matched no queue: dropped",
                        exchange, routing_key)
        return None

    def _put_fanout(self, exchange: str, message: dict[str, Any], routing_key: str,
                    **kwargs: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(_PUT_FANOUT, {"exchange": exchange, **_publish_params(message)})


class LeaseKeeper:
    """Renews the leases of every message held by this process until it is acked; also
    marks the queues this process consumes as used and expires abandoned ones."""

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
        self.start()

    def start(self) -> None:
        with self._lock:
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
        # Often enough for the shortest x-expires Celery uses (10 s for reply queues).
        interval = min(lease / 3, 3.0)
        while not self._stop.wait(interval):
            with self._lock:
                ids = sorted(self._ids)
            queues = sorted({q for ch in list(self.transport.channels)
                             for q in getattr(ch, "_active_queues", [])})
            # A consumer busy between fetches (or one that stopped calling drain_events)
            # still has its acks written before their leases could expire.
            self.transport.flush_acks()
            try:
                with _Engines.get(self.transport.sqlalchemy_url).begin() as conn:
                    conn.execute(_RELAXED)
                    if ids:
                        conn.execute(_RENEW, {"ids": ids, "lease": lease})
                    if queues:
                        conn.execute(_TOUCH_QUEUES, {"queues": queues})
                    conn.execute(_EXPIRE)
                    conn.execute(_EXPIRE_MESSAGES)
            except (OperationalError, DBAPIError):
                log.warning("broker housekeeping failed", exc_info=True)


class Transport(virtual.Transport):
    Channel = Channel

    can_parse_url = True
    default_port = 5432
    # Not "sql": Celery disables events for transports of that driver type.
    driver_type = "postgresql"
    driver_name = "pagemill-postgresql"
    polling_interval = 2.0
    connection_errors = (OperationalError, psycopg.OperationalError)
    channel_errors = (DBAPIError,)

    # asynchronous: Celery runs its event loop (and the AsynPool) with this transport,
    # waking on the LISTEN socket instead of polling.
    implements = virtual.Transport.implements.extend(asynchronous=True,
                                                     exchange_type=frozenset(["direct", "topic", "fanout"]))

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
        # Queues found empty with no NOTIFY for them since; cleared by every safety-net poll
        # (expired leases make messages visible without a NOTIFY).
        self.quiet_queues: set[str] = set()

    def driver_version(self) -> str:
        return psycopg.__version__

    # The consuming loop: where the stock virtual transport sleeps between empty polls,
    # wait on the LISTEN socket so that a publish wakes the consumer at once.
    def drain_events(self, connection: Any, timeout: float | None = None) -> None:
        started = monotonic()
        self._ensure_listener()
        self.lease_keeper.start()
        last_poll = monotonic()
        while True:
            if monotonic() - last_poll >= self.polling_interval:
                self.quiet_queues.clear()
                last_poll = monotonic()
            try:
                self.cycle.get(self._deliver, timeout=timeout)
                return
            except Empty:
                pass
            remaining = self.polling_interval
            if timeout is not None:
                left = timeout - (monotonic() - started)
                if left <= 0:
                    self.flush_acks()
                    raise TimeoutError()
                remaining = min(remaining, left)
            # Going idle: what was acked need not wait for the next claim.
            self.flush_acks()
            self._wait_for_notify(remaining)

    # Celery's event loop: a readable LISTEN socket, a freed prefetch slot, or the slow
    # safety-net timer triggers a fetch of whatever the prefetch limit allows.
    def register_with_event_loop(self, connection: Any, loop: Any) -> None:
        self._loop = loop
        self.lease_keeper.start()
        self._register_listener()
        loop.call_repeatedly(self.polling_interval, self._poll_all)
        loop.on_tick.add(self._on_tick)

    def _register_listener(self) -> None:
        self._ensure_listener()
        assert self._listener is not None
        self._listener_fd = self._listener.fileno()
        self._loop.add_reader(self._listener_fd, self._on_readable)

    def _poll_all(self) -> None:
        self.quiet_queues.clear()
        self._drain_ready()

    def _read_notifies(self) -> None:
        assert self._listener is not None
        for notify in self._listener.notifies(timeout=0):
            self.quiet_queues.discard(notify.payload)

    def _on_readable(self) -> None:
        try:
            self._read_notifies()
        except (psycopg.Error, OSError, AssertionError):
            log.warning("LISTEN connection lost; reconnecting", exc_info=True)
            if self._listener_fd is not None:
                self._loop.remove_reader(self._listener_fd)
            self._close_listener()
            self._register_listener()
        self._drain_ready()

    def flush_acks(self) -> None:
        for channel in list(self.channels):
            try:
                channel.flush_acks()
            except (OperationalError, DBAPIError):
                log.warning("could not delete acknowledged messages; retrying", exc_info=True)

    def _on_tick(self) -> None:
        if self.capacity_freed:
            self.capacity_freed = False
            self._drain_ready()
        self.flush_acks()

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
                self._read_notifies()
            else:
                self.quiet_queues.clear()  # the slow poll: look at every queue again
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
