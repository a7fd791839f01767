"""BM25 impacts: each posting's term-frequency part of the score, for early termination.

``impact = tf (k1 + 1) / (tf + k1 (1 - b + b dl / avgdl))`` at the tenant's ``impact_k1``,
``impact_b`` and ``impact_avgdl``, stored in bm25_stats.  Ordering a term's postings by impact
lets search read only the best postings of common terms, then prove (or fall back when it
cannot) that no other chunk could enter the top N (indexing/search.py).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-30
"""

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        ALTER TABLE bm25_stats ADD COLUMN impact_avgdl float8;
        ALTER TABLE bm25_stats ADD COLUMN impact_k1 float8;
        ALTER TABLE bm25_stats ADD COLUMN impact_b float8;
        ALTER TABLE bm25_postings ADD COLUMN impact real;

        UPDATE bm25_stats SET impact_avgdl = total_length::float8 / greatest(chunk_count, 1),
                              impact_k1 = 0.9, impact_b = 0.4;
        UPDATE bm25_postings p SET impact = p.tf * (s.impact_k1 + 1)
            / (p.tf + s.impact_k1 * (1 - s.impact_b + s.impact_b * p.doc_length / s.impact_avgdl))
        FROM bm25_stats s WHERE s.tenant_id = p.tenant_id;

        CREATE INDEX bm25_postings_impact ON bm25_postings (tenant_id, term, impact DESC, chunk_id);
    """)


def downgrade() -> None:
    op.execute("""
        DROP INDEX bm25_postings_impact;
        ALTER TABLE bm25_postings DROP COLUMN impact;
        ALTER TABLE bm25_stats DROP COLUMN impact_b;
        ALTER TABLE bm25_stats DROP COLUMN impact_k1;
        ALTER TABLE bm25_stats DROP COLUMN impact_avgdl;
    """)
