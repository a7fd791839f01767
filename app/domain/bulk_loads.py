"""Bulk loads: a job that adds a large share of the index ingests with the HNSW graph dropped.

Inserting a vector into the HNSW graph costs milliseconds per chunk; building the graph once
over every vector is many times cheaper per vector, and pays for itself when a load adds more
than about 3 % of the index (docs/BENCHMARKS.md, issue 5).  So when a job's first batch starts,
:func:`begin` estimates how many chunks the job will add (its documents times the index's
mean chunks per document) and, when that is more than ``PAGEMILL_HNSW_BULK_SHARE`` of the
chunks indexed (and at least ``PAGEMILL_HNSW_BULK_MIN_CHUNKS``), records the job as a bulk
load; the caller then drops the graph.  Dense search stays exact meanwhile (it scans the
tenant's vectors).  When a bulk load ends (:func:`end`, from the task that finalised the job;
:func:`settle`, from the reconciler, for jobs that ended otherwise) and no other is running,
the graph is built once, concurrently (tasks/ingest.py's ``build_vector_index``).

The graph is one index over every tenant's chunks, so the share is of the whole index.
Rows stay as history (``ended_at``, ``built_at``).  The statements are named and documented
in app/domain/statements/bulk_loads.py; tests/test_bulk_loads.py runs them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine

from app.domain.statements import bulk_loads as sql
from indexing.hnsw_options import DEFAULT_GRAPH, GraphOptions

if TYPE_CHECKING:
    from app.config import Config

# A job's chunks per document before anything is indexed (SciFact's records make 1.9).
DEFAULT_CHUNKS_PER_DOCUMENT = 2.0


@dataclass(frozen=True)
class BulkPolicy:
    """When a job counts as a bulk load (app/config.py reads both from the environment)."""

    share: float  # of the chunks indexed; 0 turns bulk loads off
    min_chunks: int

    @classmethod
    def from_config(cls, config: Config) -> BulkPolicy:
        return cls(share=config.bulk_loads.share, min_chunks=config.bulk_loads.min_chunks)


def expected_chunks(job_documents: int, chunks: float, documents: float) -> float:
    per_document = chunks / documents if documents > 0 and chunks > 0 else DEFAULT_CHUNKS_PER_DOCUMENT
    return job_documents * per_document


def is_bulk(expected: float, chunks: float, policy: BulkPolicy) -> bool:
    return policy.share > 0 and expected >= policy.min_chunks and expected > policy.share * chunks


def begin(conn: Connection, job_id: str, policy: BulkPolicy) -> bool:
    """Record the job as a bulk load if it is one; ``True`` when this call recorded it (the
    caller then drops the graph)."""
    size = conn.execute(sql.INDEX_SIZE, {"job": job_id}).one_or_none()
    if size is None:
        return False  # cancelled or over before its first batch
    expected = expected_chunks(int(size.job_documents), float(size.chunks), float(size.documents))
    if not is_bulk(expected, float(size.chunks), policy):
        return False
    return conn.execute(sql.BEGIN_BULK_LOAD, {"job": job_id, "expected": int(expected),
                                 "indexed": int(size.chunks)}).first() is not None


def end(conn: Connection, job_id: str) -> bool:
    """End the job's bulk load, if it had one; ``True`` when the graph should be built now
    (this call ended a bulk load and none is running)."""
    ended = conn.execute(sql.END_BULK_LOAD, {"job": job_id}).first() is not None
    return ended and running(conn) == 0


def settle(conn: Connection) -> bool:
    """End the bulk loads of jobs that ended otherwise; ``True`` when the graph is due (ended
    loads not built after, none running)."""
    conn.execute(sql.SETTLE_BULK_LOADS)
    if running(conn):
        return False
    return int(conn.execute(sql.UNBUILT_BULK_LOADS, {"retry": BUILD_RETRY_SECONDS}).scalar_one()) > 0


def running(conn: Connection) -> int:
    return int(conn.execute(sql.RUNNING_BULK_LOADS).scalar_one())


def mark_built(conn: Connection, started: object) -> None:
    """The graph built by a build that started at ``started`` (a database timestamp)."""
    conn.execute(sql.MARK_BUILT, {"started": started})


# pg_try_advisory_lock key of graph builds ('pmvi'): one build at a time, held by the builder's
# session for the build (autocommit: no transaction stays open meanwhile), and by a bulk
# load's drop (a drop would wait for a running build, then throw its work away).
BUILD_LOCK = 0x706D7669
# A failed build is tried again by the reconciler after this long, not every 30 s.
BUILD_RETRY_SECONDS = 600.0
# The build task's own time limit (tasks/ingest.py): a graph over millions of chunks takes
# many minutes, far past an ordinary batch's limit.
BUILD_TIME_LIMIT = 6 * 3600.0


def rebuild(engine: Engine, maintenance_work_mem: str | None = None,
            options: GraphOptions = DEFAULT_GRAPH) -> float | None:
    """Build the graph if no bulk load is running and no other build is; the seconds taken,
    or ``None`` when it was not this call's to build."""
    from indexing.vector_index import build_hnsw

    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        if not conn.execute(sql.TRY_BUILD_LOCK, {"key": BUILD_LOCK}).scalar():
            return None  # another build is running; it covers the loads ended before it
        try:
            if running(conn):
                return None  # the last of them to end builds
            started = conn.execute(sql.DATABASE_NOW).scalar_one()
            conn.execute(sql.MARK_BUILD_ATTEMPTED)
            seconds = build_hnsw(engine, maintenance_work_mem, options)
            mark_built(conn, started)
            return seconds
        finally:
            conn.execute(sql.RELEASE_BUILD_LOCK, {"key": BUILD_LOCK})


class GraphBusy(Exception):
    """A build or a bulk load holds the graph: its options cannot change now."""


def reshape(engine: Engine, options: GraphOptions, maintenance_work_mem: str | None = None) -> float | None:
    """Give the graph ``options`` (indexing/vector_index.py's ``reshape_hnsw``: rebuilt beside
    the live one), under the build lock and never during a bulk load (its graph is dropped and
    built when it ends, with the options configured then); the seconds taken, ``None`` when
    the graph already has them.  Raises :class:`GraphBusy`."""
    from indexing.vector_index import reshape_hnsw

    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        if not conn.execute(sql.TRY_BUILD_LOCK, {"key": BUILD_LOCK}).scalar():
            raise GraphBusy("another build of the HNSW graph is running")
        try:
            if running(conn):
                raise GraphBusy("a bulk load is running; its graph is built with the configured "
                                "options when it ends")
            return reshape_hnsw(engine, options, maintenance_work_mem)
        finally:
            conn.execute(sql.RELEASE_BUILD_LOCK, {"key": BUILD_LOCK})


def drop_graph(engine: Engine) -> bool:
    """Drop the graph for a bulk load, unless a build is running (then the graph it makes
    stays, and the load inserts into it); ``True`` when the graph was dropped."""
    from indexing.vector_index import drop_hnsw

    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        if not conn.execute(sql.TRY_BUILD_LOCK, {"key": BUILD_LOCK}).scalar():
            return False
        try:
            return drop_hnsw(engine)
        finally:
            conn.execute(sql.RELEASE_BUILD_LOCK, {"key": BUILD_LOCK})


def awaiting_build(conn: Connection, job_id: str) -> bool:
    """The job was a bulk load that ended and no running load stands in the way of its
    build, which has not happened yet (``pagemill ingest --wait`` waits for it)."""
    row = conn.execute(sql.LOAD_OF_JOB, {"job": job_id}).one_or_none()
    return row is not None and row.ended and not row.built and running(conn) == 0


