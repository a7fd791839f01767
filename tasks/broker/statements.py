"""Every SQL statement of the broker, named.  Data only: the tables themselves are created by
the Alembic migrations (0002, 0010), never by the transport.

Tables: ``broker_messages`` (one row per message and queue; ``visible_at`` is the lease),
``broker_exchanges`` and ``broker_bindings`` (routing shared by every process),
``broker_queues`` (queues declared with ``x-expires`` / ``x-message-ttl``) and
``broker_dead_letters``.
"""

from __future__ import annotations

from sqlalchemy import text

#: The channel every publish notifies (payload: the queue); idle consumers LISTEN on it.
NOTIFY_CHANNEL = "pagemill_broker"

# -- schema check ------------------------------------------------------------------------

#: The tables, and the columns later migrations added, that the statements below need.
REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    "broker_messages": ("expires_at",),  # 0010
    "broker_exchanges": (),
    "broker_bindings": (),
    "broker_queues": (),
    "broker_dead_letters": (),
}

#: Which of REQUIRED_COLUMNS this database lacks (as "table" or "table.column"), resolved on
#: the connection's search_path as every other statement is.  One round trip, no DDL.
MISSING_TABLES = text("""
SELECT r.tbl || coalesce('.' || r.col, '') AS missing
FROM unnest(CAST(:tables AS text[]), CAST(:columns AS text[])) AS r(tbl, col)
WHERE to_regclass(r.tbl) IS NULL
   OR (r.col IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM pg_attribute a
        WHERE a.attrelid = to_regclass(r.tbl) AND a.attname = r.col AND NOT a.attisdropped))
ORDER BY 1
""")

# -- publishing --------------------------------------------------------------------------
# Every publish inserts and notifies in one statement, so the NOTIFY is sent exactly when
# the row commits.  :ttl_ms is the message's `expiration` (NULL: never expires).

#: A message to one queue (the anonymous exchange, and kombu's virtual routing).
PUT = text("""
WITH msg AS (
    INSERT INTO broker_messages (queue, priority, payload, expires_at)
    VALUES (:queue, :priority, :payload, now() + CAST(:ttl_ms AS bigint) * interval '1 millisecond')
    RETURNING id
)
SELECT pg_notify(:channel, :queue) FROM msg
""")

#: A message to a direct exchange, routed in the INSERT itself: one round trip per publish.
#: Returns one row per queue reached (none: the message matched no binding).
PUT_DIRECT = text("""
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

#: A message to every queue bound to a fanout exchange (remote control's broadcast).
PUT_FANOUT = text("""
WITH targets AS (SELECT DISTINCT queue FROM broker_bindings WHERE exchange = :exchange),
ins AS (
    INSERT INTO broker_messages (queue, priority, payload, expires_at)
    SELECT queue, :priority, :payload, now() + CAST(:ttl_ms AS bigint) * interval '1 millisecond'
    FROM targets RETURNING queue
)
SELECT pg_notify(:channel, queue) FROM ins
""")

# -- consuming ---------------------------------------------------------------------------

#: Acks, claims and lease renewals may be lost in a server crash without losing a message
#: (the message is delivered again), so they need not wait for the WAL flush; publishes do.
RELAXED = text("SET LOCAL synchronous_commit TO off")

#: Lease up to :limit visible, unexpired messages of a queue, highest priority first, skipping
#: rows other consumers hold: the claim of an acknowledging consumer.
CLAIM = text("""
WITH next AS (
    SELECT id FROM broker_messages
    WHERE queue = :queue AND visible_at <= now() AND (expires_at IS NULL OR expires_at > now())
    ORDER BY priority DESC, id
    LIMIT :limit
    FOR UPDATE SKIP LOCKED
)
UPDATE broker_messages m
SET visible_at = now() + make_interval(secs => CAST(:lease AS double precision)),
    deliveries = m.deliveries + 1, consumer = :consumer
FROM next WHERE m.id = next.id
RETURNING m.id, m.payload, m.deliveries, m.priority
""")

#: Consumers that do not acknowledge (kombu pidbox and event receivers) take the message
#: outright: there is nothing to lease.
TAKE = text("""
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

#: Acknowledged messages: their rows go.
ACK = text("DELETE FROM broker_messages WHERE id = ANY(CAST(:ids AS bigint[]))")

#: A held message made visible again at once (requeue, warm shutdown, close), and announced.
RELEASE = text("""
WITH m AS (
    UPDATE broker_messages SET visible_at = now(), consumer = NULL WHERE id = :id RETURNING queue
)
SELECT pg_notify(:channel, queue) FROM m
""")

#: A claimed message never handed out (left in a closing channel's buffer) made visible again,
#: its claim uncounted: it was not delivered, so its next delivery is no redelivery.  Only while
#: :consumer still holds it: a lease that expired meanwhile may be another consumer's now.
UNCLAIM = text("""
WITH m AS (
    UPDATE broker_messages SET visible_at = now(), consumer = NULL,
        deliveries = greatest(deliveries - 1, 0)
    WHERE id = :id AND consumer = :consumer RETURNING queue
)
SELECT pg_notify(:channel, queue) FROM m
""")

#: The lease keeper's renewal of every message its process holds.
RENEW = text("""
UPDATE broker_messages
SET visible_at = now() + make_interval(secs => CAST(:lease AS double precision))
WHERE id = ANY(CAST(:ids AS bigint[]))
""")

#: A message moved to the dead letters (delivery budget spent, or rejected without requeue).
BURY = text("""
WITH gone AS (DELETE FROM broker_messages WHERE id = :id RETURNING *)
INSERT INTO broker_dead_letters (id, queue, priority, payload, deliveries, reason, created_at)
SELECT id, queue, priority, payload, deliveries, :reason, created_at FROM gone
ON CONFLICT (id) DO NOTHING
""")

# -- queues, exchanges, bindings ---------------------------------------------------------

#: Ready messages of a queue (leased ones are not counted, as AMQP counts ready messages).
SIZE = text("SELECT count(*) FROM broker_messages WHERE queue = :queue AND visible_at <= now()")

#: queue_purge: the ready messages go; leased ones stay with their holders.
PURGE = text("DELETE FROM broker_messages WHERE queue = :queue AND visible_at <= now()")

#: A queue declared (again): its x-expires / x-message-ttl, and its use now.
DECLARE_QUEUE = text("""
INSERT INTO broker_queues (name, expires_ms, message_ttl_ms) VALUES (:name, :expires, :ttl)
ON CONFLICT (name) DO UPDATE SET expires_ms = excluded.expires_ms,
    message_ttl_ms = excluded.message_ttl_ms, last_used_at = now()
""")

#: A queue exists once declared or bound by any process.
HAS_QUEUE = text("""
SELECT EXISTS (SELECT 1 FROM broker_queues WHERE name = :queue)
    OR EXISTS (SELECT 1 FROM broker_bindings WHERE queue = :queue)
""")

#: queue_delete: the queue with its bindings and every message, held ones included.
DROP_QUEUE = text("""
WITH b AS (DELETE FROM broker_bindings WHERE queue = :queue),
     q AS (DELETE FROM broker_queues WHERE name = :queue)
DELETE FROM broker_messages WHERE queue = :queue
""")

#: exchange_declare: recorded once, so every process routes by the same type.
DECLARE_EXCHANGE = text("""
INSERT INTO broker_exchanges (name, type) VALUES (:name, :type) ON CONFLICT (name) DO NOTHING
""")

#: The type of an exchange declared by any process (NULL: unknown).
EXCHANGE_TYPE = text("SELECT type FROM broker_exchanges WHERE name = :name")

#: queue_bind: a queue receives what the exchange routes with this key (or pattern).
BIND = text("""
INSERT INTO broker_bindings (exchange, routing_key, pattern, queue)
VALUES (:exchange, :routing_key, :pattern, :queue) ON CONFLICT DO NOTHING
""")

#: queue_unbind: the binding removed; messages already delivered stay.
UNBIND = text("""
DELETE FROM broker_bindings WHERE exchange = :exchange AND routing_key = :routing_key
    AND queue = :queue
""")

#: An exchange's bindings as kombu's exchange types read them: (routing key, pattern, queue).
BINDINGS = text("SELECT routing_key, pattern, queue FROM broker_bindings WHERE exchange = :exchange")

# -- housekeeping (the lease keeper, every few seconds) ----------------------------------

#: The queues this process consumes are in use.
TOUCH_QUEUES = text("""
UPDATE broker_queues SET last_used_at = now() WHERE name = ANY(CAST(:queues AS text[]))
""")

#: Queues unused for longer than their x-expires vanish with their bindings and messages;
#: messages older than their queue's x-message-ttl that were never delivered are dropped.
EXPIRE_QUEUES = text("""
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

#: Messages past their own expiry are never delivered (every fetch skips them); this removes them.
EXPIRE_MESSAGES = text("DELETE FROM broker_messages WHERE expires_at < now()")

# -- dead letters (``pagemill broker dead-letters``) -------------------------------------

#: The newest dead letters, with the Celery task name and id read from the payload.
DEAD_LETTERS = text("""
SELECT id, queue, deliveries, reason, created_at, died_at,
       payload::jsonb -> 'headers' ->> 'task' AS task,
       payload::jsonb -> 'headers' ->> 'id' AS task_id
FROM broker_dead_letters ORDER BY died_at DESC LIMIT :limit
""")

#: Dead letters (all, or those of :ids) back on their queues with a fresh delivery budget.
REQUEUE_DEAD_LETTERS = text("""
WITH back AS (
    DELETE FROM broker_dead_letters
    WHERE CAST(:ids AS bigint[]) IS NULL OR id = ANY(CAST(:ids AS bigint[]))
    RETURNING queue, priority, payload
), ins AS (
    INSERT INTO broker_messages (queue, priority, payload)
    SELECT queue, priority, payload FROM back RETURNING queue
)
SELECT queue, pg_notify(:channel, queue) FROM ins
""")
