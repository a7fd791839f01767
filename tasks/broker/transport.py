"""The transport's kombu classes: :class:`QoS` (what a channel holds unacknowledged),
:class:`Channel` (queues, exchanges and bindings as rows) and :class:`Transport` (the consuming
loop on the LISTEN socket).  The contract -- features, URL, options, guarantees -- is the
package's docstring (tasks/broker/__init__.py)."""

from __future__ import annotations

import json
import logging
import os
import select
import socket
import threading
import uuid
from collections import deque
from math import ceil
from queue import Empty
from time import monotonic, sleep
from typing import Any, cast

import psycopg
from kombu.transport import virtual
from kombu.transport.base import to_rabbitmq_queue_arguments
from psycopg.conninfo import make_conninfo
from sqlalchemy import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, OperationalError

from tasks.broker import statements as sql
from tasks.broker.database import BrokerTablesMissing, check_tables, engine_for
from tasks.broker.leases import LeaseKeeper

log = logging.getLogger(__name__)

#: Most messages delivered by one drain_events call or one event-loop wake-up, so that a deep
#: queue cannot starve the rest of the loop.
DRAIN_BOUND = 100


def _publish_params(message: dict[str, Any]) -> dict[str, Any]:
    """Priority, payload and time to live (kombu's ``expiration`` property, in ms) of a publish."""
    properties = message.get("properties", {})
    expiration = properties.get("expiration")
    return {"priority": int(properties.get("priority") or 0), "payload": _serialise(message),
            "ttl_ms": max(0, int(float(expiration))) if expiration not in (None, "") else None,
            "channel": sql.NOTIFY_CHANNEL}


def _serialise(message: dict[str, Any]) -> str:
    """The message as stored, without the properties JSON cannot hold (dropped, logged).

    kombu passes every keyword of ``Producer.publish`` it does not know as a property, so
    objects end up there: a ``before_task_publish`` handler republishing with its ``**kwargs``
    passes the signal itself.  py-amqp sends only the AMQP properties and drops the rest, so
    such a publish works on RabbitMQ; here ``json.dumps`` raised, and Celery, which swallows
    exceptions in signal handlers (and callers that do not check), lost the message without a
    word.  Dropping them, as py-amqp does, delivers the message -- nothing reads an object
    property on the consuming side, which could only have received it as a string anyway --
    and the warning names what went.  The body is already serialised by kombu; an
    unserialisable header still raises (headers are the task's own, dropping one would change
    what runs; py-amqp refuses them too), so that publish fails loudly rather than vanish.
    """
    try:
        return json.dumps(message)
    except (TypeError, ValueError):
        pass
    properties = message.get("properties")
    if isinstance(properties, dict):
        for name, value in list(properties.items()):
            try:
                json.dumps(value)
            except (TypeError, ValueError):
                # In place: a fanout or topic publish serialises the message once per queue,
                # and should warn once.
                del properties[name]
                log.warning("message property %r (%s) is not JSON-serialisable: dropped, as "
                            "py-amqp drops properties it cannot send", name,
                            type(value).__name__)
    return json.dumps(message)


def _as_delivered(payload: dict[str, Any], deliveries: int) -> dict[str, Any]:
    """A stored message as handed out: ``redelivered`` where Celery and kombu look for it.

    kombu's virtual Message reads ``delivery_info`` from the properties and never looks at the
    payload's top-level ``redelivered`` (which kombu's own ``_restore`` sets), so a task that
    rejects itself with requeue until ``request.delivery_info['redelivered']`` says otherwise
    would reject forever.  A message is redelivered when this row was handed out before
    (``deliveries`` counts claims): after a reject with requeue, a lease that expired with its
    worker, a connection closed with the message unacknowledged.  As on RabbitMQ, the flag is
    always there, False on a first delivery; a re-published restore (kombu's ``_restore``
    fallback) keeps its top-level flag.
    """
    redelivered = deliveries > 1 or bool(payload.get("redelivered"))
    if redelivered:
        payload["redelivered"] = True  # kombu's virtual transports' own place for it
    properties = payload.setdefault("properties", {})
    delivery_info = properties.get("delivery_info")
    if not isinstance(delivery_info, dict):
        delivery_info = properties["delivery_info"] = {}
    delivery_info["redelivered"] = redelivered
    return payload


def _connect_timeout(client: Any, url: str) -> int | None:
    """kombu's ``connect_timeout`` (Celery's ``broker_connection_timeout``) as libpq's whole
    seconds, for the pool and the LISTEN connection; None when the URL sets its own
    ``connect_timeout`` (which then applies) or kombu's is unset or 0 (no limit)."""
    if "connect_timeout" in make_url(url).query:
        return None
    timeout = getattr(client, "connect_timeout", None)
    if not timeout:
        return None
    # libpq counts whole seconds (and waits at least 2): round up, never wait less than asked.
    return ceil(float(timeout))


class QoS(virtual.QoS):
    """The messages one channel holds unacknowledged: each delivery tag's row, leased (and
    renewed by the lease keeper) until it is acked, rejected or released.

    Ack does not delete the row at once: it joins ``acked`` and is deleted with the channel's
    next claim (one round trip instead of two), when the consumer goes idle (before it waits
    for a NOTIFY), at the end of a Celery event-loop iteration, by the lease keeper within a
    few seconds, and on close.  A crash in between only means the message is delivered again,
    as an AMQP ack lost with its connection would be.  Reject without requeue moves the row to
    the dead letters; reject with requeue, and kombu's restore of unacked messages (close, warm
    shutdown), make it visible again at once -- never a re-publish.
    """

    def __init__(self, channel: Channel, prefetch_count: int = 0) -> None:
        super().__init__(channel, prefetch_count)
        self._transport: Transport = channel.connection
        # delivery tag -> row id of every message handed out and not yet acked or released.
        self._rows: dict[str, int] = {}
        # Acknowledged rows not deleted yet; the lease keeper's thread flushes them too.
        self._acked: list[int] = []
        self._acked_lock = threading.Lock()

    def hold(self, delivery_tag: str, row_id: int) -> None:
        """The message handed out under ``delivery_tag`` is row ``row_id``."""
        self._rows[delivery_tag] = row_id

    def ack(self, delivery_tag: str) -> None:
        row_id = self._forget(delivery_tag)
        if row_id is not None:
            with self._acked_lock:
                self._acked.append(row_id)
        super().ack(delivery_tag)

    def reject(self, delivery_tag: str, requeue: bool = False) -> None:
        row_id = self._forget(delivery_tag)
        if row_id is None:
            super().reject(delivery_tag, requeue=requeue)
            return
        with self.channel.engine.begin() as conn:
            if requeue:
                conn.execute(sql.RELEASE, {"id": row_id, "channel": sql.NOTIFY_CHANNEL})
            else:
                conn.execute(sql.BURY, {"id": row_id, "reason": "rejected by consumer"})
        super().ack(delivery_tag)  # off kombu's delivered list, as kombu's redis QoS does

    def release(self, delivery_tag: str) -> bool:
        """Make a held message visible again now; False if this channel does not hold it."""
        row_id = self._forget(delivery_tag)
        if row_id is None:
            return False
        with self.channel.engine.begin() as conn:
            conn.execute(sql.RELEASE, {"id": row_id, "channel": sql.NOTIFY_CHANNEL})
        return True

    def _forget(self, delivery_tag: str) -> int | None:
        row_id = self._rows.pop(delivery_tag, None)
        if row_id is not None:
            self._transport.lease_keeper.release(row_id)
            self._transport.capacity_freed = True  # room under the prefetch limit again
        return row_id

    def delete_acked(self, conn: Connection) -> None:
        """Delete the acknowledged rows within ``conn``'s transaction (a claim's, or a flush's)."""
        with self._acked_lock:
            ids, self._acked = self._acked, []
        if not ids:
            return
        try:
            conn.execute(sql.ACK, {"ids": ids})
        except BaseException:
            # The statement failed: keep them to retry with the next claim or flush.
            with self._acked_lock:
                self._acked[:0] = ids
            raise

    def flush_acks(self) -> None:
        if self._acked:
            with self.channel.engine.begin() as conn:
                conn.execute(sql.RELAXED)
                self.delete_acked(conn)


# In Channel's body ``QoS`` names the class attribute ``Channel.QoS = QoS`` (kombu's hook for
# the class a channel instantiates), which a type checker treats as a variable, not as a type:
# annotations written there use this alias.
_QoS = QoS


class Channel(virtual.Channel):
    """A channel whose queues are rows of ``broker_messages`` and whose exchanges and
    bindings are rows too, so that routing is the same from every process."""

    QoS = QoS

    supports_fanout = True

    # Turn kombu's Queue(expires=..., message_ttl=...) into x-expires / x-message-ttl, as
    # py-amqp does; the virtual base would silently drop them.
    prepare_queue_arguments = staticmethod(to_rabbitmq_queue_arguments)

    #: Seconds a claimed message stays invisible to other consumers; the lease keeper renews
    #: it while this process lives, so only a dead (or hung) consumer's messages come back.
    visibility_timeout: float = 60.0
    #: Deliveries a message may have; one more and it goes to ``broker_dead_letters``.
    max_deliveries: int = 10
    #: Most messages one claim leases, within the room the prefetch limit leaves.
    fetch_limit: int = 32

    # Not kombu's ``deadletter_queue``: it would only name a queue for messages that match no
    # binding, and this transport drops those (see the package docstring), so it is ignored.
    # (kombu's tuple is inferred as a pair, hence the ignore.)
    from_transport_options = (  # type: ignore[assignment]
        "body_encoding", "visibility_timeout", "max_deliveries", "fetch_limit")

    def __init__(self, connection: Transport, **kwargs: Any) -> None:
        super().__init__(connection, **kwargs)
        # kombu sets the options as given: strings, if they were read from the environment,
        # which the claim's arithmetic and comparisons cannot use.
        self.visibility_timeout = float(self.visibility_timeout)
        self.max_deliveries = int(self.max_deliveries)
        self.fetch_limit = int(self.fetch_limit)
        self.consumer_id = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        # Claimed in a batch, not yet handed to the consumer: (row id, payload, deliveries).
        self._buffer: dict[str, deque[tuple[int, str, int]]] = {}
        # Queues consumed without acknowledgement: their messages are taken, not leased.
        self._no_ack_queues: set[str] = set()

    @property
    def qos(self) -> _QoS:
        return cast(_QoS, super().qos)

    @property
    def engine(self) -> Engine:
        return self.transport.engine

    @property
    def consumed_queues(self) -> list[str]:
        return list(self._active_queues)

    @property
    def transport(self) -> Transport:
        return cast(Transport, self.connection)

    # -- consuming -----------------------------------------------------------------------

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

    def basic_ack(self, delivery_tag: str, multiple: bool = False) -> None:
        if multiple:
            raise NotImplementedError("basic_ack(multiple=True) is not supported by this transport")
        super().basic_ack(delivery_tag)

    def _take(self, queue: str) -> dict[str, Any]:
        with self.engine.begin() as conn:
            row = conn.execute(sql.TAKE, {"queue": queue}).one_or_none()
        if row is None:
            raise Empty()
        return _as_delivered(json.loads(row.payload), row.deliveries)

    def _get(self, queue: str, timeout: float | None = None) -> dict[str, Any]:
        buffered = self._buffer.get(queue)
        if not buffered:
            quiet = self.transport.quiet_queues
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
        payload = _as_delivered(json.loads(raw), deliveries)
        self.qos.hold(payload["properties"]["delivery_tag"], row_id)
        return payload

    def _claim(self, queue: str) -> list[tuple[int, str, int]]:
        """Lease as many messages as the prefetch limit allows, in one round trip that also
        deletes the rows acked since the last one."""
        # Without a prefetch limit, claim one: basic_get (kombu's Queue.get, SimpleQueue's
        # get_nowait) asks for a single message, and the rest of a batch would sit leased in
        # the buffer of a consumer that may never ask again.  drain_events still delivers every
        # ready message (up to DRAIN_BOUND), one claim each.
        room = self.qos.can_consume_max_estimate()
        limit = max(1, min(room if room is not None else 1, self.fetch_limit))
        with self.engine.begin() as conn:
            conn.execute(sql.RELAXED)
            self.qos.delete_acked(conn)
            rows = conn.execute(sql.CLAIM, {"queue": queue, "lease": self.visibility_timeout,
                                            "consumer": self.consumer_id, "limit": limit}).all()
            claimed = []
            for row in sorted(rows, key=lambda r: (-r.priority, r.id)):
                if row.deliveries > self.max_deliveries:
                    conn.execute(sql.BURY, {"id": row.id, "reason": f"delivered {row.deliveries - 1}"
                                            " times without acknowledgement"})
                    log.error("message moved to dead letters",
                              extra={"queue": queue, "message_id": row.id})
                else:
                    claimed.append((row.id, row.payload, row.deliveries))
        for row_id, _, _ in claimed:
            self.transport.lease_keeper.hold(row_id)
        return claimed

    def _restore(self, message: Any) -> None:
        """Make a held message visible again (warm shutdown, requeue); never re-publish it."""
        if not self.qos.release(message.delivery_tag):
            super()._restore(message)

    def flush_acks(self) -> None:
        if self._qos is not None:
            self.qos.flush_acks()

    def close(self) -> None:
        if not self.closed:
            try:
                self.flush_acks()
            except (OperationalError, DBAPIError):
                log.warning("could not delete acknowledged messages; they will be delivered again",
                            exc_info=True)
            self._release_buffered()
        super().close()

    def _release_buffered(self) -> None:
        """Leased but never handed out: make them visible again rather than wait for expiry."""
        pending = [row_id for buffered in self._buffer.values() for row_id, _, _ in buffered]
        self._buffer.clear()
        if not pending:
            return
        try:
            with self.engine.begin() as conn:
                for row_id in pending:
                    # Never handed out: this claim was no delivery (not redelivered next time,
                    # not counted against max_deliveries).
                    conn.execute(sql.UNCLAIM, {"id": row_id, "consumer": self.consumer_id,
                                               "channel": sql.NOTIFY_CHANNEL})
                    self.transport.lease_keeper.release(row_id)
        except (OperationalError, DBAPIError):
            log.warning("could not release buffered messages; their leases will expire",
                        exc_info=True)

    # -- queues --------------------------------------------------------------------------

    def _put(self, queue: str, message: dict[str, Any], **kwargs: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(sql.PUT, {"queue": queue, **_publish_params(message)})

    def _size(self, queue: str) -> int:
        with self.engine.begin() as conn:
            return int(conn.execute(sql.SIZE, {"queue": queue}).scalar_one())

    def _purge(self, queue: str) -> int:
        with self.engine.begin() as conn:
            return int(conn.execute(sql.PURGE, {"queue": queue}).rowcount)

    def _new_queue(self, queue: str, **kwargs: Any) -> None:
        arguments = kwargs.get("arguments") or {}
        expires, ttl = arguments.get("x-expires"), arguments.get("x-message-ttl")
        with self.engine.begin() as conn:
            conn.execute(sql.DECLARE_QUEUE, {"name": queue,
                                             "expires": int(expires) if expires else None,
                                             "ttl": int(ttl) if ttl else None})

    def _has_queue(self, queue: str, **kwargs: Any) -> bool:
        with self.engine.begin() as conn:
            return bool(conn.execute(sql.HAS_QUEUE, {"queue": queue}).scalar_one())

    def _delete(self, queue: str, *args: Any, **kwargs: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(sql.DROP_QUEUE, {"queue": queue})

    def queue_delete(self, queue: str, if_unused: bool = False, if_empty: bool = False,
                     **kwargs: Any) -> None:
        if if_empty and self._size(queue):
            return
        self._delete(queue)
        self.state.queue_bindings_delete(queue)

    # -- exchanges and bindings ----------------------------------------------------------
    # They live in the database: a publish in any process sees the bindings declared by
    # every other process (fanout for remote control, topic for events).

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
            conn.execute(sql.DECLARE_EXCHANGE, {"name": name, "type": type})

    def _stored_type(self, exchange: str) -> str | None:
        with self.engine.begin() as conn:
            return conn.execute(sql.EXCHANGE_TYPE, {"name": exchange}).scalar_one_or_none()

    def typeof(self, exchange: str, default: str = "direct") -> Any:
        if exchange in self.state.exchanges:
            return super().typeof(exchange, default)
        return self.exchange_types[self._stored_type(exchange) or default]

    def get_table(self, exchange: str) -> list[tuple[str, str | None, str]]:
        with self.engine.begin() as conn:
            return [(row.routing_key, row.pattern, row.queue)
                    for row in conn.execute(sql.BINDINGS, {"exchange": exchange})]

    def queue_bind(self, queue: str, exchange: str | None = None, routing_key: str = "",
                   arguments: dict[str, Any] | None = None, **kwargs: Any) -> None:
        exchange = exchange or "amq.direct"
        self.state.binding_declare(queue, exchange, routing_key, arguments)
        key, pattern, _ = self.typeof(exchange).prepare_bind(queue, exchange, routing_key,
                                                             arguments)
        with self.engine.begin() as conn:
            conn.execute(sql.BIND, {"exchange": exchange, "routing_key": key, "pattern": pattern,
                                    "queue": queue})

    def queue_unbind(self, queue: str, exchange: str | None = None, routing_key: str = "",
                     arguments: dict[str, Any] | None = None, **kwargs: Any) -> None:
        self.state.binding_delete(queue, exchange, routing_key)
        with self.engine.begin() as conn:
            conn.execute(sql.UNBIND, {"exchange": exchange or "amq.direct",
                                      "routing_key": routing_key, "queue": queue})

    def basic_publish(self, message: dict[str, Any], exchange: str, routing_key: str,
                      **kwargs: Any) -> Any:
        """Direct exchanges route in the INSERT itself: one round trip per publish."""
        if not exchange or self.typeof(exchange).type != "direct":
            return super().basic_publish(message, exchange, routing_key, **kwargs)
        self._inplace_augment_message(message, exchange, routing_key)
        with self.engine.begin() as conn:
            routed = conn.execute(sql.PUT_DIRECT, {
                "exchange": exchange, "routing_key": routing_key, **_publish_params(message)}).all()
        if not routed:
            log.warning("message to exchange %r with routing key %r matched no queue: dropped",
                        exchange, routing_key)
        return None

    def _put_fanout(self, exchange: str, message: dict[str, Any], routing_key: str,
                    **kwargs: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(sql.PUT_FANOUT, {"exchange": exchange, **_publish_params(message)})


# How often the event loop wakes, at least, so that prefork children are handed their next
# message promptly (register_with_event_loop).
HANDOFF_WAKE_SECONDS = 0.1


def _wake() -> None:
    """Nothing: the timer's firing is the point."""


class Transport(virtual.Transport):
    Channel = Channel

    can_parse_url = True
    # kombu declares these as None and a 1-tuple, so the checker infers those types.
    default_port = 5432  # type: ignore[assignment]
    connection_errors = (OperationalError, psycopg.OperationalError,  # type: ignore[assignment]
                         BrokerTablesMissing)
    channel_errors = (DBAPIError,)
    # Not "sql": Celery disables events for transports of that driver type.
    driver_type = "postgresql"
    driver_name = "pagemill-postgresql"
    #: Seconds between the safety-net polls of an idle consumer (a NOTIFY wakes it sooner):
    #: they find messages whose leases expired, which no NOTIFY announces.
    polling_interval = 2.0

    # asynchronous: Celery runs its event loop (and the AsynPool) with this transport,
    # waking on the LISTEN socket instead of polling.
    implements = virtual.Transport.implements.extend(
        asynchronous=True, exchange_type=frozenset(["direct", "topic", "fanout"]))

    def __init__(self, client: Any, **kwargs: Any) -> None:
        super().__init__(client, **kwargs)
        self.sqlalchemy_url: str = client.hostname
        if not self.sqlalchemy_url or "://" not in self.sqlalchemy_url:
            raise ValueError("pagemill broker URL must look like pagemill+postgresql+psycopg://...")
        # kombu sets polling_interval as given: a string, if it was read from the environment.
        self.polling_interval = float(self.polling_interval)
        self.connect_timeout = _connect_timeout(client, self.sqlalchemy_url)
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

    @property
    def engine(self) -> Engine:
        """This process's pool for the broker's database."""
        return engine_for(self.sqlalchemy_url, self.connect_timeout)

    def establish_connection(self) -> Any:
        # An unreachable database, or one without the broker's tables, fails here: the only
        # moment kombu's (and Celery's start-up) connection retry can tell the broker is down.
        check_tables(self.engine)
        return super().establish_connection()

    def close_connection(self, connection: Any) -> None:
        self.lease_keeper.stop()
        self._close_listener()
        super().close_connection(connection)

    # -- plain kombu consumers -----------------------------------------------------------
    # Where the stock virtual transport sleeps between empty polls, wait on the LISTEN
    # socket, so that a publish wakes the consumer at once.

    def drain_events(self, connection: Any, timeout: float | None = None, **kwargs: Any) -> None:
        """Deliver every message that is ready (within the prefetch limit, at most
        ``DRAIN_BOUND``), as an AMQP broker pushes them; while none is, wait for a NOTIFY, up
        to ``timeout`` seconds (then raise ``socket.timeout``)."""
        started = last_poll = monotonic()
        # LISTEN before the first claim, so that nothing published after it goes unannounced.
        self._listen()
        self.lease_keeper.start()
        while True:
            if monotonic() - last_poll >= self.polling_interval:
                self.quiet_queues.clear()
                last_poll = monotonic()
            if self._drain_ready():
                return
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

    def _wait_for_notify(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for a NOTIFY on the LISTEN connection.

        A lost LISTEN connection is re-established here, and the caller claims again at once
        (NOTIFYs sent while nobody listened are gone).  While it cannot be, the wait is slept
        through: the consumer falls back to polling instead of spinning.
        """
        if self._listener is None or self._listener.closed:
            if not self._listen():
                sleep(timeout)
                self.quiet_queues.clear()  # a poll, as after a wait with no NOTIFY
            return
        try:
            ready, _, _ = select.select([self._listener.fileno()], [], [], timeout)
            if ready:
                self._read_notifies()
            else:
                self.quiet_queues.clear()  # the slow poll: look at every queue again
        except (psycopg.Error, OSError, ValueError):
            log.warning("LISTEN connection lost; reconnecting", exc_info=True)
            self._close_listener()

    # -- Celery's event loop -------------------------------------------------------------
    # A readable LISTEN socket, a freed prefetch slot, or the slow safety-net timer
    # triggers a fetch of whatever the prefetch limit allows.

    def register_with_event_loop(self, connection: Any, loop: Any) -> None:
        self._loop = loop
        self.lease_keeper.start()
        self._register_listener()
        loop.call_repeatedly(self.polling_interval, self._poll_all)
        # A wake-up of the loop, no query: a message received right after the task before it
        # ended reached the idle prefork child only when the loop next woke (measured: the
        # hand-over waited for the poll timer, 1 s a batch on average at 2 s, 0.25 s at 0.5 s;
        # 6 ms with this 0.1 s wake-up).
        loop.call_repeatedly(HANDOFF_WAKE_SECONDS, _wake)
        loop.on_tick.add(self._on_tick)

    def _register_listener(self) -> None:
        self._ensure_listener()
        assert self._listener is not None
        self._listener_fd = self._listener.fileno()
        self._loop.add_reader(self._listener_fd, self._on_readable)

    def _poll_all(self) -> None:
        self.quiet_queues.clear()
        self._drain_ready()

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

    def _on_tick(self) -> None:
        if self.capacity_freed:
            self.capacity_freed = False
            self._drain_ready()
        self.flush_acks()

    # -- shared by both loops ------------------------------------------------------------

    def _drain_ready(self) -> int:
        """Deliver the messages ready now, at most ``DRAIN_BOUND``; returns how many."""
        cycle = self.cycle
        assert cycle is not None
        for delivered in range(DRAIN_BOUND):
            try:
                cycle.get(self._deliver, timeout=0)
            except Empty:
                return delivered
        return DRAIN_BOUND

    def flush_acks(self) -> None:
        for channel in list(self.channels):
            try:
                channel.flush_acks()
            except (OperationalError, DBAPIError):
                log.warning("could not delete acknowledged messages; retrying", exc_info=True)

    def _ensure_listener(self) -> None:
        if self._listener is not None and not self._listener.closed:
            return
        self._listener = None
        # libpq's URI: the SQLAlchemy URL without its driver (``postgresql+psycopg`` -> ``postgresql``).
        url = make_url(self.sqlalchemy_url).set(drivername="postgresql")
        conninfo = url.render_as_string(hide_password=False)
        if self.connect_timeout is not None:
            conninfo = make_conninfo(conninfo, connect_timeout=self.connect_timeout)
        listener = psycopg.connect(conninfo, autocommit=True)
        try:
            listener.execute(f"LISTEN {sql.NOTIFY_CHANNEL}")
        except BaseException:
            listener.close()
            raise
        self._listener = listener
        # Whatever was published while nobody listened was announced to no one.
        self.quiet_queues.clear()

    def _listen(self) -> bool:
        """Establish the LISTEN connection unless it is up; False (logged) if that fails.

        A claim would fail too if the database were down; when only LISTEN does (say, the
        server's connection limit), drain_events polls until it is back.
        """
        try:
            self._ensure_listener()
        except (psycopg.Error, OSError):
            log.warning("cannot establish the LISTEN connection; polling every %.1f s",
                        self.polling_interval, exc_info=True)
            return False
        return True

    def _read_notifies(self) -> None:
        assert self._listener is not None
        for notify in self._listener.notifies(timeout=0):
            self.quiet_queues.discard(notify.payload)

    def _close_listener(self) -> None:
        if self._listener is not None:
            try:
                self._listener.close()
            finally:
                self._listener = None
