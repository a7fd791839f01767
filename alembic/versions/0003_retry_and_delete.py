"""Job retries and deleted documents.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        ALTER TABLE jobs ADD COLUMN retries integer NOT NULL DEFAULT 0;
        ALTER TABLE documents ADD COLUMN deleted_at timestamptz;
    """)


def downgrade() -> None:
    op.execute("""
        ALTER TABLE documents DROP COLUMN deleted_at;
        ALTER TABLE jobs DROP COLUMN retries;
    """)
