"""The HNSW graph over chunk vectors: dropped and rebuilt around bulk loads.

Inserting a vector into a large HNSW graph costs milliseconds; building the graph once over
every vector is many times cheaper per vector (docs/BENCHMARKS.md).  So a load that adds a
large share of the index is faster with the graph dropped first and rebuilt afterwards.
Search stays correct in between (dense search scans every vector, exactly, but slowly).
"""

from __future__ import annotations

import time

from sqlalchemy import Engine, text

# As migration 0027 builds it: half-precision vectors (the column is halfvec), cosine distance.
# The one definition every rebuild uses (bulk loads, `pagemill hnsw build`, bench/search.py).
HNSW_DEFINITION = ("chunks_embedding_hnsw ON chunks USING hnsw (embedding halfvec_cosine_ops) "
                   "WITH (m = 16, ef_construction = 64)")
#: The graph built without blocking writes (ingest and search go on).
_CREATE = text(f"CREATE INDEX CONCURRENTLY {HNSW_DEFINITION}")
#: Whether the graph exists, and whether it is valid (a failed concurrent build leaves it not).
_STATE = text("""
SELECT i.indisvalid FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
WHERE c.relname = 'chunks_embedding_hnsw' AND c.relkind = 'i'
""")
#: The graph dropped without blocking writes.
_DROP = text("DROP INDEX CONCURRENTLY IF EXISTS chunks_embedding_hnsw")
#: The build's memory, for this session (the graph is built far faster when it fits).
_SET_BUILD_MEMORY = text("SELECT set_config('maintenance_work_mem', :m, false)")


def hnsw_state(engine: Engine) -> str:
    """'ready', 'invalid' (a concurrent build that failed) or 'absent'."""
    with engine.connect() as conn:
        valid = conn.execute(_STATE).scalar_one_or_none()
    return "absent" if valid is None else ("ready" if valid else "invalid")


def drop_hnsw(engine: Engine) -> bool:
    """Drop the graph without blocking writers; ``False`` if there was none."""
    present = hnsw_state(engine) != "absent"
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(_DROP)
    return present


def build_hnsw(engine: Engine, maintenance_work_mem: str | None = None) -> float:
    """Build the graph (concurrently: ingest and search go on); returns the seconds taken.
    A leftover invalid index from an interrupted build is dropped first.
    ``maintenance_work_mem`` (e.g. "1GB"): the build's memory; a graph larger than it is
    built far more slowly, on disk."""
    state = hnsw_state(engine)
    if state == "ready":
        return 0.0
    started = time.monotonic()
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        if maintenance_work_mem:
            conn.execute(_SET_BUILD_MEMORY, {"m": maintenance_work_mem})
        if state == "invalid":
            conn.execute(_DROP)
        conn.execute(_CREATE)
    return time.monotonic() - started
