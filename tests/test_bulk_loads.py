"""Bulk loads (app/domain/bulk_loads.py): a job adding a large share of the index ingests with the HNSW
graph dropped, and the graph is built once when the last bulk load ends.

On a database of their own: these tests drop and build the one HNSW index of the database."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import Engine, text

from app.domain import bulk_loads, jobs
from app.domain.auth import ensure_tenant
from app.infra.db import get_engine
from indexing.hnsw_options import DEFAULT_GRAPH, GraphOptions
from indexing.vector_index import build_hnsw, drop_hnsw, graph_options, hnsw_state
from tests.conftest import ROOT, start_worker, stop_worker, wait_for

POLICY = bulk_loads.BulkPolicy(share=0.03, min_chunks=2000)
# A policy that records any job as a bulk load, for the tests whose load is not the policy's
# question: the policy's estimate reads the planner's row counts, which autovacuum may refresh
# after another test of the module indexed chunks in the same database (CI runs saw 1,200
# documents estimated under 2,000 chunks, the tests' order varying with the workers).
ANY_JOB = bulk_loads.BulkPolicy(share=1e-9, min_chunks=1)


@pytest.fixture(scope="module")
def own_engine(database_url: str) -> Iterator[Engine]:
    from tests.conftest import private_database_url

    with private_database_url(database_url) as url:
        yield get_engine(url)


def _job(engine: Engine, documents: int) -> str:
    docs = [jobs.NewDocument(external_id=f"d{i}", source="record", object_key=None, mime_type=None,
                             size_bytes=None, sha256=None) for i in range(documents)]
    with engine.begin() as conn:
        tenant = ensure_tenant(conn, f"bulk-{uuid.uuid4().hex[:8]}")
        job_id, _ = jobs.create_job(conn, tenant, docs, 50)
    return job_id


def test_what_counts_as_a_bulk_load() -> None:
    # An empty index: any job of at least min_chunks expected chunks (2 per document).
    assert bulk_loads.expected_chunks(1500, 0, 0) == 3000
    assert bulk_loads.is_bulk(3000, 0, POLICY) and not bulk_loads.is_bulk(1000, 0, POLICY)
    # 1M chunks indexed at 10 per document: 3,001 documents is over 3 %, 2,000 is not.
    assert bulk_loads.is_bulk(bulk_loads.expected_chunks(3001, 1e6, 1e5), 1e6, POLICY)
    assert not bulk_loads.is_bulk(bulk_loads.expected_chunks(2000, 1e6, 1e5), 1e6, POLICY)
    assert not bulk_loads.is_bulk(1e9, 0, bulk_loads.BulkPolicy(share=0, min_chunks=0))  # off


def test_loads_begin_once_and_the_last_to_end_is_due_for_the_build(own_engine: Engine) -> None:
    big, other, small = _job(own_engine, 1200), _job(own_engine, 1100), _job(own_engine, 10)
    with own_engine.begin() as conn:
        assert bulk_loads.begin(conn, big, POLICY)
        assert not bulk_loads.begin(conn, big, POLICY)  # a redelivered first batch
        assert bulk_loads.begin(conn, other, POLICY)
        assert not bulk_loads.begin(conn, small, POLICY)  # 20 expected chunks
        assert bulk_loads.running(conn) == 2
    with own_engine.begin() as conn:
        assert not bulk_loads.end(conn, big)  # the other one still loads
        assert not bulk_loads.end(conn, big)  # ended already
    with own_engine.begin() as conn:
        conn.execute(text("UPDATE jobs SET status = 'cancelled' WHERE id = CAST(:j AS uuid)"), {"j": other})
        assert bulk_loads.settle(conn)  # the cancelled job's load ended by the reconciler: due
    drop_hnsw(own_engine)
    assert bulk_loads.rebuild(own_engine) is not None and hnsw_state(own_engine) == "ready"
    with own_engine.begin() as conn:
        assert not bulk_loads.settle(conn)  # built after both: nothing due
        built = conn.execute(text("SELECT count(*) FROM vector_index_loads "
                                  "WHERE built_at IS NOT NULL")).scalar()
    assert built == 2


def test_cancelled_jobs_and_re_ingests_are_no_bulk_loads(own_engine: Engine) -> None:
    from indexing.chunking import Chunk
    from indexing.ranking import DEFAULTS
    from indexing.store import IndexedDocument, replace_document

    cancelled = _job(own_engine, 1500)
    with own_engine.begin() as conn:
        conn.execute(text("UPDATE jobs SET status = 'cancelled' WHERE id = CAST(:j AS uuid)"),
                     {"j": cancelled})
        assert not bulk_loads.begin(conn, cancelled, POLICY)
    # A job of 1,500 documents of which 1,000 are indexed already: 500 new ones, 1,000 chunks.
    again = _job(own_engine, 1500)
    with own_engine.begin() as conn:
        tenant = conn.execute(text("SELECT tenant_id::text FROM jobs WHERE id = CAST(:j AS uuid)"),
                              {"j": again}).scalar_one()
        vector = np.full((1, 384), 0.05, dtype=np.float32)
        for n in range(1000):
            replace_document(conn, IndexedDocument(tenant, f"d{n}", None, None, "x", None, None, "{}"),
                             [Chunk("text", (), None, None, 1)], vector, k1=DEFAULTS.k1, b=DEFAULTS.b)
        assert not bulk_loads.begin(conn, again, POLICY)


def test_a_drop_never_throws_a_running_build_away_and_failed_builds_wait(own_engine: Engine) -> None:
    job = _job(own_engine, 1200)
    with own_engine.begin() as conn:
        assert bulk_loads.begin(conn, job, ANY_JOB)
    with own_engine.connect().execution_options(isolation_level="AUTOCOMMIT") as holder:
        holder.execute(text("SELECT pg_advisory_lock(:k)"), {"k": bulk_loads.BUILD_LOCK})
        assert not bulk_loads.drop_graph(own_engine)  # a build "runs": its graph stays
        holder.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": bulk_loads.BUILD_LOCK})
    assert hnsw_state(own_engine) == "ready"
    assert bulk_loads.drop_graph(own_engine) and hnsw_state(own_engine) == "absent"
    with own_engine.begin() as conn:
        assert not bulk_loads.awaiting_build(conn, job)  # still loading
        assert bulk_loads.end(conn, job)
        assert bulk_loads.awaiting_build(conn, job)
        # A build was tried a minute ago and failed: the reconciler leaves it for now.
        conn.execute(text("UPDATE vector_index_loads SET build_attempted_at = now() - interval '1 minute' "
                          "WHERE job_id = CAST(:j AS uuid)"), {"j": job})
        assert not bulk_loads.settle(conn)
        conn.execute(text("UPDATE vector_index_loads SET build_attempted_at = now() - interval '1 hour' "
                          "WHERE job_id = CAST(:j AS uuid)"), {"j": job})
        assert bulk_loads.settle(conn)
    assert bulk_loads.rebuild(own_engine, "64MB") is not None and hnsw_state(own_engine) == "ready"
    with own_engine.begin() as conn:
        assert not bulk_loads.awaiting_build(conn, job)


def test_a_build_waits_for_running_loads_and_for_another_build(own_engine: Engine) -> None:
    job = _job(own_engine, 1200)
    with own_engine.begin() as conn:
        assert bulk_loads.begin(conn, job, ANY_JOB)
    drop_hnsw(own_engine)
    assert bulk_loads.rebuild(own_engine) is None and hnsw_state(own_engine) == "absent"
    with own_engine.begin() as conn:
        assert bulk_loads.end(conn, job)
    with own_engine.connect().execution_options(isolation_level="AUTOCOMMIT") as holder:
        holder.execute(text("SELECT pg_advisory_lock(:k)"), {"k": bulk_loads.BUILD_LOCK})
        assert bulk_loads.rebuild(own_engine) is None  # another session is building
        holder.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": bulk_loads.BUILD_LOCK})
    assert bulk_loads.rebuild(own_engine) is not None and hnsw_state(own_engine) == "ready"
    build_hnsw(own_engine)


def _definition(engine: Engine) -> str:
    with engine.connect() as conn:
        return conn.execute(text("SELECT pg_get_indexdef('chunks_embedding_hnsw'::regclass)")).scalar_one()


def _leftovers(engine: Engine) -> int:
    with engine.connect() as conn:
        leftover = text("SELECT count(*) FROM pg_class WHERE relname LIKE 'chunks_embedding_hnsw_cc%'")
        return conn.execute(leftover).scalar_one()


def test_the_graph_is_rebuilt_beside_itself_with_the_configured_options(own_engine: Engine) -> None:
    build_hnsw(own_engine)
    assert graph_options(own_engine) == DEFAULT_GRAPH
    wider = GraphOptions(m=16, ef_construction=128)
    assert bulk_loads.reshape(own_engine, wider) is not None
    assert graph_options(own_engine) == wider and hnsw_state(own_engine) == "ready"
    assert "ef_construction='128'" in _definition(own_engine) and _leftovers(own_engine) == 0
    assert bulk_loads.reshape(own_engine, wider) is None  # already built so: nothing to do
    # An interrupted REINDEX CONCURRENTLY leaves its copy (and maybe options the graph was not
    # built with): the next rebuild happens even though the stored options match, and drops it.
    with own_engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text("CREATE INDEX chunks_embedding_hnsw_ccnew ON chunks (id)"))
    assert bulk_loads.reshape(own_engine, wider) is not None and _leftovers(own_engine) == 0
    # No graph at all: it is built with the options.
    drop_hnsw(own_engine)
    assert bulk_loads.reshape(own_engine, DEFAULT_GRAPH) is not None
    assert graph_options(own_engine) == DEFAULT_GRAPH


def test_a_rebuild_waits_for_another_build_and_for_bulk_loads(own_engine: Engine) -> None:
    build_hnsw(own_engine)
    wider = GraphOptions(m=16, ef_construction=100)
    with own_engine.connect().execution_options(isolation_level="AUTOCOMMIT") as holder:
        holder.execute(text("SELECT pg_advisory_lock(:k)"), {"k": bulk_loads.BUILD_LOCK})
        with pytest.raises(bulk_loads.GraphBusy, match="another build"):
            bulk_loads.reshape(own_engine, wider)
        holder.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": bulk_loads.BUILD_LOCK})
    job = _job(own_engine, 1200)
    with own_engine.begin() as conn:
        assert bulk_loads.begin(conn, job, ANY_JOB)
    with pytest.raises(bulk_loads.GraphBusy, match="bulk load"):
        bulk_loads.reshape(own_engine, wider)
    with own_engine.begin() as conn:
        bulk_loads.end(conn, job)
    assert graph_options(own_engine) == DEFAULT_GRAPH  # untouched


def test_graph_options_outside_pgvectors_bounds_are_refused() -> None:
    with pytest.raises(ValueError, match="at least twice m"):
        GraphOptions(m=48, ef_construction=64)
    with pytest.raises(ValueError, match="m must be 2 to 100"):
        GraphOptions(m=1)


@pytest.mark.system
def test_pagemill_hnsw_rebuild_applies_the_configured_options(test_env: dict[str, str],
                                                              own_engine: Engine) -> None:
    build_hnsw(own_engine)
    env = {**test_env, "DATABASE_URL": own_engine.url.render_as_string(hide_password=False),
           "PAGEMILL_HNSW_EF_CONSTRUCTION": "96"}

    def rebuild() -> str:
        done = subprocess.run([sys.executable, "-m", "app.cli", "hnsw", "rebuild"], env=env, cwd=ROOT,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert "rebuilt with m 16, ef_construction 96" in rebuild()
    assert graph_options(own_engine) == GraphOptions(m=16, ef_construction=96)
    assert "already has m 16, ef_construction 96" in rebuild()
    bulk_loads.reshape(own_engine, DEFAULT_GRAPH)


@pytest.mark.system
def test_a_bulk_job_through_the_worker_drops_the_graph_and_builds_it_once_done(
        test_env: dict[str, str], own_engine: Engine, tmp_path: Path) -> None:
    records = tmp_path / "records.jsonl"
    records.write_text("".join(json.dumps({"_id": f"r{i}", "title": f"Record {i}",
                                           "text": f"enzyme {i} binds the receptor of cell type {i % 7}"})
                               + "\n" for i in range(40)))
    env = {**test_env, "DATABASE_URL": own_engine.url.render_as_string(hide_password=False),
           "PAGEMILL_HNSW_BULK_MIN_CHUNKS": "10", "PAGEMILL_HNSW_EF_CONSTRUCTION": "40"}
    tenant = f"bulk-{uuid.uuid4().hex[:8]}"
    assert hnsw_state(own_engine) == "ready"
    worker = start_worker(env, own_engine)
    try:
        done = subprocess.run([sys.executable, "-m", "app.cli", "ingest", "--jsonl", str(records),
                               "--tenant", tenant, "--batch-size", "10", "--wait"],
                              env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        with own_engine.connect() as conn:
            job_id = conn.execute(text("SELECT j.id::text FROM jobs j JOIN tenants t ON t.id = j.tenant_id "
                                       "WHERE t.name = :t"), {"t": tenant}).scalar_one()

        def built() -> bool:
            with own_engine.connect() as conn:
                return conn.execute(text("SELECT built_at IS NOT NULL FROM vector_index_loads "
                                         "WHERE job_id = CAST(:j AS uuid)"), {"j": job_id}).scalar() is True

        began = time.monotonic()
        wait_for(built, timeout=120, what="the graph built after the bulk load")
        print(f"graph built {time.monotonic() - began:.1f} s after the job ended")
    finally:
        stop_worker(worker)
    assert hnsw_state(own_engine) == "ready"
    with own_engine.connect() as conn:
        row = conn.execute(text("SELECT expected_chunks, ended_at IS NOT NULL AS ended "
                                "FROM vector_index_loads WHERE job_id = CAST(:j AS uuid)"),
                           {"j": job_id}).one()
        indexed = conn.execute(text("SELECT count(*) FROM chunks c JOIN tenants t ON t.id = c.tenant_id "
                                    "WHERE t.name = :t"), {"t": tenant}).scalar()
    assert row.ended and row.expected_chunks >= 10 and indexed == 40
    # The worker built the graph with the configured options.
    assert graph_options(own_engine) == GraphOptions(m=16, ef_construction=40)
    bulk_loads.reshape(own_engine, DEFAULT_GRAPH)
