"""Tables of pagemill's durable broker transport (tasks/broker): messages with their leases,
exchanges and bindings shared by every process, queues with expiry, dead letters.

Frozen: the DDL as this revision created it (``IF NOT EXISTS``, because before this revision
the transport created the same tables itself on first connect).  Later changes are later
revisions: 0010 adds ``broker_messages.expires_at``.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

UPGRADE = """
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


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute("DROP TABLE IF EXISTS broker_dead_letters, broker_queues, broker_bindings, "
               "broker_exchanges, broker_messages")
