"""How each document was extracted: quality score, language, route, signals and attempts.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        ALTER TABLE documents ADD COLUMN quality real;
        ALTER TABLE documents ADD COLUMN language text;
        -- The router's decision, its signals and every engine attempt (see extractors.base).
        ALTER TABLE documents ADD COLUMN extraction jsonb;
    """)


def downgrade() -> None:
    op.execute("""
        ALTER TABLE documents DROP COLUMN extraction;
        ALTER TABLE documents DROP COLUMN language;
        ALTER TABLE documents DROP COLUMN quality;
    """)
