"""``jobs.published_at`` becomes ``jobs.handed_at``.

Since admission (migration 0018) a job is not published: it is *handed to admission*, and its
batches are published one by one as slots free up (``batches.published_at``).  The job's
column kept the old name and so meant something else than the batch's column of the same
name; it is renamed to say what it records.  The API's job answer keeps its field
``published_at`` (clients read it), filled from this column.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-03
"""

from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE jobs RENAME COLUMN published_at TO handed_at")


def downgrade() -> None:
    op.execute("ALTER TABLE jobs RENAME COLUMN handed_at TO published_at")
