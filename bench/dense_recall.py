"""Dense recall@10 and latency of the HNSW graph alone, against exact search, on the vectors
of bench/search.py (its generator, its queries), without the postings the full bench loads.

    .venv/bin/python -m bench.dense_recall load --size 1000000
    .venv/bin/python -m bench.dense_recall exact --size 1000000
    .venv/bin/python -m bench.dense_recall build --size 1000000 --m 16 --ef-construction 64
    .venv/bin/python -m bench.dense_recall measure --size 1000000 --ef 100,200,400,800

Each size is its own database (dense_<size>) of one embedded server (default home
/tmp/pagemill-dense-recall): a table of (id, tenant_id, embedding halfvec(384)) shaped like
``chunks``, searched by the statement shape of indexing/sql/dense.sql (tenant filter, cosine
distance, iterative relaxed-order scan).  The exact top-10 of each query (a sequential scan,
no index) is computed once and kept beside the database; the graph is built as the bulk load
builds it (bench/search.py's session settings), and ``measure`` runs every ef_search over the
same queries in one process, one pass each after a warm-up pass, so ratios are side by side.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from sqlalchemy import Engine, text

from app.infra.db import get_engine
from app.infra.embedded import start_embedded
from bench.search import _BULK_SESSION, CENTROIDS, CENTROIDS_SQL, DIMENSIONS, VECTOR_SQL, _queries
from bench.search_load import percentile

TENANT = "00000000-0000-0000-0000-000000000001"
_DENSE = text("""
    SELECT id FROM bench_vectors WHERE tenant_id = :t
    ORDER BY embedding <=> CAST(:q AS halfvec) LIMIT :k""")
_SETTINGS = text("""
    SELECT set_config('hnsw.ef_search', :ef, true),
           set_config('hnsw.iterative_scan', 'relaxed_order', true)""")


def _engine(home: Path, size: int) -> Engine:
    home.mkdir(parents=True, exist_ok=True)
    return get_engine(start_embedded(home / "pgdata", database=f"dense_{size}"))


def _literal(vector: np.ndarray) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in vector) + "]"


def load(engine: Engine, size: int, step: int = 100_000) -> float:
    started = time.monotonic()
    with engine.begin() as conn:
        conn.execute(text("CREATE EXTENSION IF NOT EXISTS vector"))
        conn.execute(text("DROP TABLE IF EXISTS bench_vectors"))
        conn.execute(text("CREATE TABLE IF NOT EXISTS bench_centroids "
                          "(id int PRIMARY KEY, v float8[] NOT NULL); TRUNCATE bench_centroids"))
        conn.execute(text(CENTROIDS_SQL), {"d": DIMENSIONS, "n": CENTROIDS})
        conn.execute(text("CREATE TABLE bench_vectors (id bigint PRIMARY KEY, tenant_id uuid "
                          "NOT NULL, embedding halfvec(384) NOT NULL)"))
    for start in range(1, size + 1, step):
        with engine.begin() as conn:
            conn.execute(text(_BULK_SESSION))
            conn.execute(text(f"""
                INSERT INTO bench_vectors (id, tenant_id, embedding)
                SELECT g, CAST(:t AS uuid), v.vec FROM generate_series(:lo, :hi) g
                CROSS JOIN LATERAL ({VECTOR_SQL.format(row="g")}) v"""),
                         {"t": TENANT, "lo": start, "hi": min(size, start + step - 1),
                          "d": DIMENSIONS, "centroids": CENTROIDS})
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text("VACUUM (ANALYZE) bench_vectors"))
    return time.monotonic() - started


def exact(engine: Engine, count: int) -> list[list[int]]:
    """Each query's exact top-10 by a sequential scan (index scans off)."""
    out = []
    for _, vector in _queries(engine, count):
        with engine.begin() as conn:
            conn.execute(text("SET LOCAL enable_indexscan = off"))
            conn.execute(text("SET LOCAL enable_bitmapscan = off"))
            out.append([r for (r,) in conn.execute(_DENSE, {"t": TENANT, "q": _literal(vector),
                                                            "k": 10})])
    return out


def build(engine: Engine, m: int, ef_construction: int) -> tuple[float, int]:
    with engine.begin() as conn:
        conn.execute(text("DROP INDEX IF EXISTS bench_vectors_hnsw"))
    started = time.monotonic()
    with engine.begin() as conn:
        conn.execute(text(_BULK_SESSION))
        conn.execute(text(f"CREATE INDEX bench_vectors_hnsw ON bench_vectors USING hnsw "
                          f"(embedding halfvec_cosine_ops) WITH (m = {m}, "
                          f"ef_construction = {ef_construction})"))
    seconds = time.monotonic() - started
    with engine.connect() as conn:
        size = conn.execute(text("SELECT pg_relation_size('bench_vectors_hnsw')")).scalar_one()
    return seconds, int(size)


def measure(engine: Engine, count: int, efs: list[int], reference: list[list[int]],
            k: int) -> list[dict[str, float]]:
    queries = [_literal(v) for _, v in _queries(engine, count)]

    def run(ef: int) -> tuple[list[float], list[list[int]]]:
        times, got = [], []
        with engine.connect() as conn:
            for q in queries:
                with conn.begin():
                    conn.execute(_SETTINGS, {"ef": str(ef)})
                    started = time.perf_counter()
                    ids = [r for (r,) in conn.execute(_DENSE, {"t": TENANT, "q": q, "k": k})]
                    times.append((time.perf_counter() - started) * 1000)
                got.append(ids[:10])
        return times, got

    run(max(efs))  # warm-up: the graph's pages into the cache
    rows = []
    for ef in efs:
        times, got = run(ef)
        recall = float(np.mean([len(set(g) & set(r)) / len(r) for g, r in zip(got, reference, strict=True)]))
        rows.append({"ef_search": ef, "recall@10": round(recall, 4),
                     "p50_ms": round(percentile(times, 0.5), 2),
                     "p95_ms": round(percentile(times, 0.95), 2)})
        print(json.dumps(rows[-1]), flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=("load", "exact", "build", "measure"))
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--home", type=Path, default=Path("/tmp/pagemill-dense-recall"))
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--m", type=int, default=16)
    parser.add_argument("--ef-construction", type=int, default=64)
    parser.add_argument("--ef", default="100,200,400,800")
    parser.add_argument("--limit", type=int, default=10,
                        help="rows each dense query asks for (the service's hybrid asks 100)")
    args = parser.parse_args()
    engine = _engine(args.home, args.size)
    truth = args.home / f"exact_{args.size}_{args.queries}.json"
    if args.step == "load":
        print(f"load {args.size}: {load(engine, args.size):.0f} s")
    elif args.step == "exact":
        started = time.monotonic()
        truth.write_text(json.dumps(exact(engine, args.queries)))
        print(f"exact {args.size}: {time.monotonic() - started:.0f} s -> {truth}")
    elif args.step == "build":
        seconds, size = build(engine, args.m, args.ef_construction)
        print(json.dumps({"size": args.size, "m": args.m, "ef_construction": args.ef_construction,
                          "build_s": round(seconds, 1), "graph_bytes": size}))
    else:
        efs = [int(e) for e in args.ef.split(",")]
        measure(engine, args.queries, efs, json.loads(truth.read_text()), args.limit)


if __name__ == "__main__":
    main()
