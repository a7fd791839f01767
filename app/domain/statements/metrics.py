"""The statements of app/domain/database_gauges.py: the gauges read from the database when
``/metrics`` is scraped, each cheap and bounded by an index (see that module)."""

from __future__ import annotations

from sqlalchemy import TextClause, text

#: Per task queue: its ready messages (visible and unexpired: what a consumer would get now,
#: as AMQP counts a queue's depth) and the age in seconds of the oldest of them (0: none).
#: A queue with no messages is listed too (the LEFT JOIN), with 0 and 0.
QUEUE_DEPTH = text("""
SELECT q.queue,
       count(m.id) AS depth,
       coalesce(extract(epoch FROM now() - min(m.created_at)), 0) AS oldest_seconds
FROM unnest(CAST(:queues AS text[])) AS q(queue)
LEFT JOIN broker_messages m
       ON m.queue = q.queue AND m.visible_at <= now()
      AND (m.expires_at IS NULL OR m.expires_at > now())
GROUP BY q.queue
ORDER BY q.queue
""")


#: Messages moved to the dead letters (delivery budget spent, or rejected) and still there
#: (``pagemill broker dead-letters`` lists and requeues them).
DEAD_LETTERS = text("SELECT count(*) FROM broker_dead_letters")


#: Document rows by status.
DOCUMENTS_BY_STATUS = text("SELECT status, count(*) FROM documents GROUP BY status")


#: Whether this database has webhooks (migration 0016); without them there is no backlog.
HAS_WEBHOOKS = text("SELECT to_regclass('webhook_deliveries') IS NOT NULL")


#: Webhook deliveries not yet made (due now or waiting for a retry).
WEBHOOK_BACKLOG = text("SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'")


def statement_timeout(milliseconds: int) -> TextClause:
    """The rest of this transaction's statements are abandoned after ``milliseconds``.  SET
    takes no bind parameter, so the number is formatted in (an int of ours, never input)."""
    return text(f"SET LOCAL statement_timeout = {milliseconds}")
