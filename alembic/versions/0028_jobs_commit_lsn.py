"""``jobs.commit_lsn``: where in the primary's WAL a job's outcome was complete.

Set when the job becomes terminal (finalised or cancelled) to the primary's WAL insert
position, which lies past the commit records of every index transaction of the job; cleared
when a retry reopens the job.  A search asked to see the job (``after_job``) is served by a
streaming replica only once that replica has replayed this far (app/domain/search_reads.py);
``NULL`` (a job still running, or finished before this migration) sends it to the primary.

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-03
"""

from alembic import op

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE jobs ADD COLUMN commit_lsn pg_lsn")


def downgrade() -> None:
    op.execute("ALTER TABLE jobs DROP COLUMN commit_lsn")
