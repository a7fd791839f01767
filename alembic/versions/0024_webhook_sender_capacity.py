"""Webhook deliveries on their own capacity: attempts in flight are visible, and an endpoint
that keeps timing out is paused (tasks/webhook_sender.py).

``webhook_deliveries.leased_until``: set when a sender claims the delivery (the end of the
attempt's deadline plus a margin), cleared when the attempt is recorded.  Rows with a live
lease are the attempts in flight; the claim counts them per tenant and per endpoint so that no
tenant holds more than its share of the senders, and no endpoint more than its own.

``webhook_endpoints.consecutive_failures`` / ``paused_until``: the breaker.  Every attempt that
got no HTTP answer (a timeout, a refused connection) adds one; any answer resets it.  From
``BREAKER_THRESHOLD`` on, the endpoint is paused (its deliveries are not claimed) for the next
delay of the retry schedule, then half-open: one attempt at a time until one is answered.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-02
"""

from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        ALTER TABLE webhook_deliveries ADD COLUMN leased_until timestamptz;
        -- The attempts in flight, counted at every claim.
        CREATE INDEX webhook_deliveries_in_flight ON webhook_deliveries (endpoint_id)
            WHERE leased_until IS NOT NULL;
        -- Each endpoint's earliest due deliveries, read at every claim.
        CREATE INDEX webhook_deliveries_endpoint_due ON webhook_deliveries (endpoint_id, next_attempt_at)
            WHERE status = 'pending';
        ALTER TABLE webhook_endpoints
            ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0,
            ADD COLUMN paused_until timestamptz;
    """)


def downgrade() -> None:
    op.execute("""
        DROP INDEX webhook_deliveries_in_flight;
        DROP INDEX webhook_deliveries_endpoint_due;
        ALTER TABLE webhook_deliveries DROP COLUMN leased_until;
        ALTER TABLE webhook_endpoints DROP COLUMN consecutive_failures, DROP COLUMN paused_until;
    """)
