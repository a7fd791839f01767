"""Chunk vectors in half precision: ``chunks.embedding`` becomes ``halfvec(384)``, and the HNSW
graph ``chunks_embedding_hnsw`` is rebuilt over it with ``halfvec_cosine_ops`` (issue 33).

A 384-d ``vector`` takes 1,544 bytes per chunk, a ``halfvec`` 776: the heap and the graph (which
keeps a copy of every vector in its nodes) shrink to about half, so twice the chunks fit in
shared buffers.  The embedder's float32 output is rounded to float16 when written (11
significant bits); queries are cast to ``halfvec`` too, so that the operator is
``halfvec <=> halfvec``, the one the graph answers.  Measured on 2026-12-03 by converting
ingested indexes in place (issue 33): nDCG@10 on SciFact test unchanged in every mode (BM25
0.6793, dense 0.6542, hybrid 0.7302), on Cranfield BM25 and hybrid unchanged, dense 0.3719 ->
0.3723.  On bench/search.py's 200,000-chunk corpus (bench/vector_recall.py): graph + vectors
717.9 MB -> 389.3 MB; the graph's recall@10 against exact search on the same vectors 0.963
(vector) -> 0.951 as this migration builds it (parallel) and 0.958 built as the bench builds it
(build-to-build variance); exact search over halfvec agrees with exact over float32 at 0.9995.

The column is converted in place (the table is rewritten once, under an ACCESS EXCLUSIVE lock),
then the graph is built again over the converted vectors: the old graph's operator class
cannot index ``halfvec``, so it is dropped first.  A graph that was absent (dropped during a
bulk load) stays absent: the load's end builds it, with the new definition.  On a large index
the build is most of the migration's time.  The downgrade converts back (float16 values are
exact in float32, so nothing is lost twice) and rebuilds the ``vector`` graph as migration 0001
made it.

``halfvec`` and HNSW over it need pgvector 0.7.0 or later; an older installed extension is
updated to the newest the server offers, and the migration stops with what to do when that is
still older.  (The embedded server ships 0.8.6.)

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-03
"""

from sqlalchemy import text

from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None

_MINIMUM = (0, 7)
_INSTALLED = text("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
_GRAPH = text("SELECT 1 FROM pg_class WHERE relname = 'chunks_embedding_hnsw' AND relkind = 'i'")


def _version(value: str) -> tuple[int, ...]:
    return tuple(int(part) for part in value.split(".")[:2])


def _require_halfvec() -> None:
    conn = op.get_bind()
    if _version(conn.execute(_INSTALLED).scalar_one()) >= _MINIMUM:
        return
    op.execute("ALTER EXTENSION vector UPDATE")
    installed = conn.execute(_INSTALLED).scalar_one()
    if _version(installed) < _MINIMUM:
        raise RuntimeError(
            f"pgvector {installed} has no halfvec type: migration 0027 needs pgvector 0.7.0 or "
            "later. Install a newer pgvector on the database server, then run `pagemill migrate`.")


def _convert(column_type: str, operator_class: str) -> None:
    """The column to ``column_type``; the graph rebuilt over it unless it was absent (dropped
    for a bulk load, whose end builds it with indexing/vector_index.py's definition)."""
    had_graph = op.get_bind().execute(_GRAPH).first() is not None
    op.execute(f"""
        DROP INDEX IF EXISTS chunks_embedding_hnsw;
        ALTER TABLE chunks ALTER COLUMN embedding TYPE {column_type} USING embedding::{column_type};
    """)
    if had_graph:
        op.execute(f"CREATE INDEX chunks_embedding_hnsw ON chunks USING hnsw (embedding {operator_class}) "
                   "WITH (m = 16, ef_construction = 64)")


def upgrade() -> None:
    _require_halfvec()
    _convert("halfvec(384)", "halfvec_cosine_ops")


def downgrade() -> None:
    _convert("vector(384)", "vector_cosine_ops")
