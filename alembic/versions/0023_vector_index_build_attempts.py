"""When the HNSW graph was last tried to be built after bulk loads: ``build_attempted_at``.

The reconciler starts a build when ended bulk loads were not built after (app/domain/bulk_loads.py);
a build that fails (killed, out of memory) is tried again only once
``BUILD_RETRY_SECONDS`` have passed since the last attempt, not every 30 s.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-01
"""

from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE vector_index_loads ADD COLUMN build_attempted_at timestamptz")


def downgrade() -> None:
    op.execute("ALTER TABLE vector_index_loads DROP COLUMN build_attempted_at")
