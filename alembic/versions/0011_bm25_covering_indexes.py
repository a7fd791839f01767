"""BM25 postings indexes carry tf and length, so search reads postings by index-only scans.

Every read of the postings table needs a posting's tf and chunk length besides its key: the
impact-ordered reads of early termination, the lookups that complete candidates and
MaxScore's full reads.  With both in the index, PostgreSQL answers them from the index alone
(once VACUUM has marked the pages all-visible) instead of visiting the table for each posting.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-30
"""

from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        ALTER TABLE bm25_postings DROP CONSTRAINT bm25_postings_pkey,
            ADD CONSTRAINT bm25_postings_pkey PRIMARY KEY (tenant_id, term, chunk_id)
                INCLUDE (tf, doc_length);
        DROP INDEX bm25_postings_impact;
        CREATE INDEX bm25_postings_impact ON bm25_postings (tenant_id, term, impact DESC, chunk_id)
            INCLUDE (tf, doc_length);
    """)


def downgrade() -> None:
    op.execute("""
        ALTER TABLE bm25_postings DROP CONSTRAINT bm25_postings_pkey,
            ADD CONSTRAINT bm25_postings_pkey PRIMARY KEY (tenant_id, term, chunk_id);
        DROP INDEX bm25_postings_impact;
        CREATE INDEX bm25_postings_impact ON bm25_postings (tenant_id, term, impact DESC, chunk_id);
    """)
