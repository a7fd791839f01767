"""``jobs.traceparent``: the trace a job's tasks join.

The W3C ``traceparent`` of the span that wrote the job (the API request's), stored when the
submitting process traces (app/infra/traces.py).  A job's batches are published when admission
lets them through, possibly much later and from another process, and each publish is made in
this trace, so the request, the publishes and the tasks are one trace.  ``NULL`` when the
submitter did not trace (and for jobs written before this migration).

Revision ID: 0029
Revises: 0028
Create Date: 2026-12-04
"""

from alembic import op

revision = "0029"
down_revision = "0028"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE jobs ADD COLUMN traceparent text")


def downgrade() -> None:
    op.execute("ALTER TABLE jobs DROP COLUMN traceparent")
