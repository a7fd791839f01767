"""Per-message expiry in the broker (kombu's ``expiration``, Celery's ``expires``): a message
past its ``expires_at`` is never delivered, and housekeeping deletes it.

``IF NOT EXISTS``: transports of that time applied the same statements themselves on connect.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-30
"""

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        ALTER TABLE broker_messages ADD COLUMN IF NOT EXISTS expires_at timestamptz;
        CREATE INDEX IF NOT EXISTS broker_messages_expiry ON broker_messages (expires_at)
            WHERE expires_at IS NOT NULL;
    """)


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS broker_messages_expiry; "
               "ALTER TABLE broker_messages DROP COLUMN IF EXISTS expires_at;")
