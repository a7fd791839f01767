"""Tables of pagemill's durable broker transport (tasks/broker.py).

The transport also creates them idempotently on first connect, so that a broker on a
database without pagemill's schema works; here they are under version control.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from alembic import op
from tasks.broker import SCHEMA

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(SCHEMA)


def downgrade() -> None:
    op.execute("DROP TABLE IF EXISTS broker_dead_letters, broker_queues, broker_bindings, "
               "broker_exchanges, broker_messages")
