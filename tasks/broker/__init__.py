"""pagemill's durable kombu transport on PostgreSQL: leases, ``SKIP LOCKED`` and ``LISTEN/NOTIFY``.

Features
========
* Type: Virtual
* Supports Direct: Yes
* Supports Topic: Yes
* Supports Fanout: Yes
* Supports Priority: Yes -- higher numbers first, as with AMQP; first in, first out within
  a priority
* Supports Queue TTL: Yes (``x-expires``, kombu's ``Queue(expires=...)``)
* Supports Message TTL: Yes (the ``expiration`` property, Celery's ``expires``; and a
  queue's ``x-message-ttl``, kombu's ``Queue(message_ttl=...)``)

Connection String
=================
Everything after ``pagemill+`` is a SQLAlchemy URL for psycopg 3; its query parameters are
libpq's (``connect_timeout``, ``sslmode``, ``host`` for a Unix socket directory, ...) and apply
to the pooled connections and to the LISTEN connection alike.  kombu's ``connect_timeout``
(``Connection(connect_timeout=...)``, default 5 s; Celery's ``broker_connection_timeout``)
bounds every new connection, rounded up to whole seconds (libpq waits at least 2), unless the
URL has its own ``?connect_timeout=``, which then wins:

.. code-block::

    pagemill+postgresql+psycopg://[USER[:PASSWORD]@]HOST[:PORT]/DATABASE[?PARAMETERS]
    pagemill+postgresql+psycopg://USER@/DATABASE?host=/SOCKET/DIRECTORY

Importing ``tasks.broker`` registers the alias ``pagemill`` with kombu
(``TRANSPORT_ALIASES["pagemill"] = "tasks.broker:Transport"``) and does nothing else: it imports
no part of pagemill's application or Celery app, configures no logging and starts nothing, so
any Celery app can use the transport (``import tasks.broker`` before the first connection,
``broker_url = "pagemill+postgresql+psycopg://..."``).  The database must have been
migrated: the transport creates no tables, and connecting to a database without them raises
:class:`BrokerTablesMissing`, one of the transport's connection errors (so a worker started
before the migration retries, saying why).  ``pagemill migrate`` migrates ``DATABASE_URL``; a
broker on a database of its own is migrated with ``DATABASE_URL=<the broker's database URL>
pagemill migrate`` (all of pagemill's migrations, so pgvector must be available there too),
the command the exception's message spells out.

Transport Options
=================
Celery's ``broker_transport_options``, kombu's ``Connection(transport_options=...)``:

* ``visibility_timeout``: (float) Seconds a claimed message stays invisible to other
  consumers; the holder's lease keeper renews it every ``visibility_timeout / 3`` seconds
  (every 3 s if that is sooner) while the process lives.  Defaults to ``60``.
* ``max_deliveries``: (int) Deliveries a message may have; the next claim moves it to
  ``broker_dead_letters`` instead.  Defaults to ``10``.
* ``fetch_limit``: (int) Most messages one claim (one round trip) leases, within the room the
  prefetch limit leaves.  Without a prefetch limit a claim leases one message (``basic_get``
  asks for one), yet ``drain_events`` still delivers every ready message, up to 100 per call,
  one claim each; set ``prefetch_count`` to receive one at a time.  Defaults to ``32``.
* ``polling_interval``: (float) Seconds between the safety-net polls of an idle consumer,
  which find messages whose leases expired (no NOTIFY announces those).  Defaults to ``2``.
* ``body_encoding``: kombu's virtual-transport option.  Defaults to ``base64``.
* ``deadletter_queue``, kombu's other virtual-transport option (a queue for messages that
  match no binding), is not supported and is ignored: such a message is dropped (and logged
  for a direct exchange).  Messages that fail go to ``broker_dead_letters`` instead (see
  ``max_deliveries``).

Options given as strings (read from the environment, say) are converted to numbers.

Queue Arguments
===============
* ``x-expires``: (int) Milliseconds a queue may go unused (nobody consuming or declaring
  it) before it is deleted with its bindings and messages: Celery's reply and event queues.
* ``x-message-ttl``: (int) Milliseconds after which a queue's messages that were never
  delivered are dropped (by housekeeping, within a few seconds): control queues.
* ``x-max-priority`` is accepted and has no effect: every queue orders by priority.

Guarantees
==========
* **Nothing lost.**  A fetched message stays in ``broker_messages`` with a lease
  (``visible_at`` in the future, ``deliveries`` counted, ``consumer`` recorded).  Ack
  deletes the row; reject with requeue, or a warm shutdown, makes it visible again at
  once.  A worker killed with SIGKILL simply stops renewing its leases, and its
  messages, started or only prefetched, are delivered again when the lease expires.
* **A redelivery says so.**  ``message.delivery_info['redelivered']`` (Celery's
  ``task.request.delivery_info['redelivered']``) is True when the message was handed out
  before -- rejected with requeue, restored by a closing connection or a warm shutdown, or
  left by a worker whose lease expired -- and False on a first delivery, as on RabbitMQ and
  Redis (messages claimed into a channel's buffer but never handed out do not count; a
  message requeued from the dead letters starts afresh).  The payload's top-level
  ``redelivered``, where kombu's virtual transports put it, is set as well.
* **A publish is stored or fails, never vanishes.**  Properties JSON cannot hold (kombu passes
  every unknown keyword of ``Producer.publish`` as one; a ``before_task_publish`` handler
  republishing with its ``**kwargs`` passes the signal object) are dropped, with a warning
  naming each, as py-amqp drops the properties it cannot send; a header JSON cannot hold
  raises ``TypeError`` to the publisher.
* **Long tasks are not redelivered while their worker lives.**  A thread in each
  consuming process renews the leases of every message it holds every
  ``visibility_timeout / 3`` seconds.
* **No contention, no table growth.**  Consumers claim with ``FOR UPDATE SKIP LOCKED``
  along an index on ``(queue, priority DESC, id)``, as many messages per round trip as
  the prefetch limit leaves room for (at most ``fetch_limit``); consumed rows are deleted.
  An ack is written with the consumer's next claim, or when it goes idle, at the end of a
  Celery event-loop iteration, by the lease keeper within 3 s, or on close: a crash in
  between means one more delivery, never a loss, as with an AMQP ack.
* **Instant wake-up.**  Publishing sends ``NOTIFY pagemill_broker`` in the same
  transaction; an idle consumer waits on its ``LISTEN`` socket rather than sleeping,
  with a slow poll (``polling_interval``) as the safety net for expired leases.
* **Poison messages end.**  A message delivered more than ``max_deliveries`` times, or
  rejected without requeue, is moved to ``broker_dead_letters`` (see ``pagemill broker
  dead-letters``, :func:`dead_letters`, :func:`requeue_dead_letters`).
* **Routing is shared.**  Exchanges and bindings are rows (``broker_exchanges``,
  ``broker_bindings``), so direct, topic and fanout routing is the same from every process:
  ``celery inspect``/``control`` (fanout to every worker's pidbox queue) and worker events
  (topic) work.  A message to a direct exchange that matches no binding is dropped (logged).
* **Monitoring does not fill the database.**  Queues declared with ``x-expires`` (reply and
  event queues) disappear with their bindings and messages once unused that long;
  undelivered messages older than a queue's ``x-message-ttl`` are dropped; a message past
  its own ``expiration`` is never delivered and housekeeping deletes it.
* **An unreachable database fails the connection.**  Establishing a kombu connection runs
  one catalog query, so ``Connection.connect()`` (and Celery's start-up retry) sees a broker
  that is down, or a database not migrated, within ``connect_timeout``.
* **A lost LISTEN connection is re-established.**  A consumer reconnects it (``drain_events``
  before it waits again, Celery's loop when the socket reports the loss) and claims once more,
  as NOTIFYs sent meanwhile reached nobody; while ``drain_events`` cannot reconnect, it sleeps
  through each wait, polling every ``polling_interval``, rather than spinning.

With Celery the transport runs in the worker's event loop (``implements.asynchronous``):
the LISTEN socket is registered as a reader, so the worker uses its async loop and
AsynPool.  Plain kombu consumers use ``drain_events``, which waits on the same socket and,
like an AMQP broker pushing to a consumer, delivers every message that is ready within the
prefetch limit (at most 100 per call).

Modules: :mod:`~tasks.broker.transport` (the kombu classes), :mod:`~tasks.broker.leases`
(the lease keeper thread), :mod:`~tasks.broker.statements` (every SQL statement),
:mod:`~tasks.broker.database` (engines, the table check), :mod:`~tasks.broker.admin`
(dead letters).  Tables: migrations 0002 and 0010.
"""

from kombu.transport import TRANSPORT_ALIASES

from tasks.broker.admin import dead_letters, requeue_dead_letters
from tasks.broker.database import BrokerTablesMissing, check_tables, engine_for
from tasks.broker.leases import LeaseKeeper
from tasks.broker.statements import NOTIFY_CHANNEL
from tasks.broker.transport import Channel, QoS, Transport

# Broker URLs of the form pagemill+postgresql+psycopg://... select this package's Transport.
TRANSPORT_ALIASES.setdefault("pagemill", "tasks.broker:Transport")

__all__ = [
    "NOTIFY_CHANNEL",
    "BrokerTablesMissing",
    "Channel",
    "LeaseKeeper",
    "QoS",
    "Transport",
    "check_tables",
    "dead_letters",
    "engine_for",
    "requeue_dead_letters",
]
