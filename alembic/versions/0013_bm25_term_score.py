"""BM25's term contribution as one SQL function, ``bm25_term_score``, written once.

``bm25_term_score(weight, tf, doc_length, avgdl, k1, b)`` is one posting's contribution to a
chunk's Okapi BM25 score: ``weight * tf * (k1 + 1) / (tf + k1 * (1 - b + b * doc_length /
avgdl))``, with ``weight`` the term's IDF times its count in the query.  Search calls it in
every path (rounds, completions, lead passes, MaxScore, the plain scan), so that they cannot
disagree about a score; the index writers (indexing/store.py) call it at weight 1 to store a
posting's *impact*.  Before this, the formula was written out in search and in both writers.

It is an SQL-language function, IMMUTABLE, with a one-expression SQL-standard body and no
SET clause, so that PostgreSQL inlines it: plans show the arithmetic, not a function call, and
it costs what the written-out expression cost (tests/test_search_sql.py checks the plan).  The
expression is evaluated in float8 in the order search always used (weight times tf first), so
scores and stored impacts are bit for bit what they were.

Needs PostgreSQL 14 or later: the SQL-standard body (``RETURN expression`` instead of a quoted
``AS '...'`` string) arrived in 14; earlier servers reject the statement with a syntax error.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01
"""

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE FUNCTION bm25_term_score(weight float8, tf integer, doc_length integer,
                                        avgdl float8, k1 float8, b float8)
            RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE
            RETURN weight * tf * (k1 + 1.0::float8)
                   / (tf + k1 * (1.0::float8 - b + b * doc_length / avgdl));
        COMMENT ON FUNCTION bm25_term_score(float8, integer, integer, float8, float8, float8) IS
            'One posting''s Okapi BM25 contribution; at weight 1, its stored impact (migration 0013)';
    """)


def downgrade() -> None:
    op.execute("DROP FUNCTION bm25_term_score(float8, integer, integer, float8, float8, float8)")
