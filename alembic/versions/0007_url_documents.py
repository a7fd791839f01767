"""Documents submitted by URL: fetched by a worker, then stored like uploads.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-30
"""

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE documents ADD COLUMN url text")


def downgrade() -> None:
    op.execute("ALTER TABLE documents DROP COLUMN url")
