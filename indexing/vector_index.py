"""The HNSW graph over chunk vectors: dropped and rebuilt around bulk loads.

Inserting a vector into a large HNSW graph costs milliseconds; building the graph once over
every vector is many times cheaper per vector (docs/BENCHMARKS.md).  So a load that adds a
large share of the index is faster with the graph dropped first and rebuilt afterwards.
Search stays correct in between (dense search scans every vector, exactly, but slowly).

The graph's build options (indexing/hnsw_options.py) come from the configuration, and every
build uses them; :func:`reshape_hnsw` rebuilds a live graph whose options differ, beside it
(``REINDEX CONCURRENTLY``: search keeps reading the old graph until the new one replaces it).
"""

from __future__ import annotations

import time

from sqlalchemy import Connection, Engine, TextClause, text

from indexing.hnsw_options import DEFAULT_GRAPH, GraphOptions

#: The graph as migration 0027 builds it (half-precision vectors, cosine distance), the one
#: definition every build uses (bulk loads, `pagemill hnsw build`); the options are filled in
#: by _with_options (DDL takes no bind parameters).
HNSW_DEFINITION = ("chunks_embedding_hnsw ON chunks USING hnsw (embedding halfvec_cosine_ops) "
                   "WITH (m = {m}, ef_construction = {ef_construction})")
#: The graph built without blocking writes (ingest and search go on).
_CREATE = "CREATE INDEX CONCURRENTLY " + HNSW_DEFINITION
#: The options a rebuild gives the live graph (REINDEX builds with the index's own).
_SET_OPTIONS = "ALTER INDEX chunks_embedding_hnsw SET (m = {m}, ef_construction = {ef_construction})"


def _with_options(statement: str, options: GraphOptions) -> TextClause:
    """``statement`` with the options filled in, as integers (GraphOptions checked their range)."""
    return text(statement.format(m=int(options.m), ef_construction=int(options.ef_construction)))


#: The live graph's build options, as stored with the index (an option absent: pgvector's default).
_OPTIONS = text("""
SELECT option_name, option_value::int AS value
FROM pg_class c CROSS JOIN LATERAL pg_options_to_table(c.reloptions)
WHERE c.relname = 'chunks_embedding_hnsw' AND c.relkind = 'i' AND option_name IN ('m', 'ef_construction')
""")
#: The graph rebuilt beside the live one, which serves until the new one replaces it.
_REINDEX = text("REINDEX INDEX CONCURRENTLY chunks_embedding_hnsw")
#: Whether an interrupted REINDEX CONCURRENTLY left its copy: an invalid index every write
#: still updates (and a live graph whose stored options may not be the ones it was built with).
_LEFTOVER = text("SELECT count(*) FROM pg_class WHERE relname = 'chunks_embedding_hnsw_ccnew'")
#: That copy dropped without blocking writes.
_DROP_LEFTOVER = text("DROP INDEX CONCURRENTLY IF EXISTS chunks_embedding_hnsw_ccnew")
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


def graph_options(engine: Engine) -> GraphOptions | None:
    """The live graph's build options; ``None`` when there is no graph."""
    if hnsw_state(engine) == "absent":
        return None
    with engine.connect() as conn:
        return _stored_options(conn)


def _stored_options(conn: Connection) -> GraphOptions:
    stored = {row.option_name: row.value for row in conn.execute(_OPTIONS)}
    return GraphOptions(m=stored.get("m", DEFAULT_GRAPH.m),
                        ef_construction=stored.get("ef_construction", DEFAULT_GRAPH.ef_construction))


def build_hnsw(engine: Engine, maintenance_work_mem: str | None = None,
               options: GraphOptions = DEFAULT_GRAPH) -> float:
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
        conn.execute(_with_options(_CREATE, options))
    return time.monotonic() - started


def reshape_hnsw(engine: Engine, options: GraphOptions,
                 maintenance_work_mem: str | None = None) -> float | None:
    """Give the live graph ``options``: rebuilt beside it (REINDEX CONCURRENTLY; dense search
    reads the old graph meanwhile, ingest goes on) when its own differ, built when there is
    none.  The seconds taken; ``None`` when the graph already has them."""
    if hnsw_state(engine) != "ready":
        return build_hnsw(engine, maintenance_work_mem, options)
    with engine.connect() as conn:
        current = _stored_options(conn)
        interrupted = bool(conn.execute(_LEFTOVER).scalar_one())
    if current == options and not interrupted:
        return None
    started = time.monotonic()
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        if maintenance_work_mem:
            conn.execute(_SET_BUILD_MEMORY, {"m": maintenance_work_mem})
        conn.execute(_DROP_LEFTOVER)
        # The options are stored first (REINDEX builds with the index's own); a failed rebuild
        # puts back the ones the live graph was built with.
        conn.execute(_with_options(_SET_OPTIONS, options))
        try:
            conn.execute(_REINDEX)
        except Exception:
            if not interrupted:
                conn.execute(_with_options(_SET_OPTIONS, current))
            raise
    return time.monotonic() - started
