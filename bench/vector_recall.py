"""Dense search's recall@10 against exact search on the same vectors, and what the vectors and
their HNSW graph take on disk, on a corpus that ``python -m bench.search`` built.

    .venv/bin/python -m bench.vector_recall --size 200000 --save /tmp/float32.json
    .venv/bin/python -m bench.vector_recall --size 200000 --reference /tmp/float32.json

Each query (bench/search.py's generator and seed) runs twice in one transaction: the
service's dense statement (the HNSW graph, ``hnsw.ef_search`` from the
ranking defaults), then the same ORDER BY distance with index scans off, which leaves a scan of
every vector of the tenant, i.e. the exact top-10 of the vectors as stored. ``--save`` keeps
the exact answers; a later run given them as ``--reference`` (after migration 0027 rounded the
stored vectors to half precision, say) also reports its graph's and its exact answers' overlap
with them, i.e. with exact search on the vectors before the change. Opening the corpus migrates
it first: the time that takes is printed.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from sqlalchemy import Engine, text

from bench.database import add_home_argument, search_corpus
from bench.search import _overlap, _pct, _queries
from indexing.search import search
from indexing.store import vector_literal

_SIZES = text("""
    SELECT format_type(a.atttypid, a.atttypmod) AS column_type,
           pg_relation_size('chunks_embedding_hnsw') AS graph,
           (SELECT sum(pg_column_size(embedding)) FROM chunks) AS vectors,
           pg_table_size('chunks') AS heap_and_toast
    FROM pg_attribute a WHERE a.attrelid = 'chunks'::regclass AND a.attname = 'embedding'""")


def _binary(engine: Engine, tenant: str, queries: list[tuple[str, np.ndarray]], exact: list[list[int]],
            column_type: str, candidates: list[int]) -> None:
    """Binary-quantised HNSW with re-ranking (pgvector's binary_quantize and bit_hamming_ops):
    recall@10 against ``exact`` and the graph's size; the graph is dropped again afterwards."""
    dimensions = int(column_type.partition("(")[2].rstrip(")"))
    bits = f"CAST(binary_quantize(embedding) AS bit({dimensions}))"
    started = time.monotonic()
    with engine.begin() as conn:
        conn.execute(text("SET LOCAL maintenance_work_mem = '1GB'"))
        conn.execute(text(f"CREATE INDEX bench_binary_hnsw ON chunks USING hnsw (({bits}) bit_hamming_ops) "
                          "WITH (m = 16, ef_construction = 64)"))
        size = conn.execute(text("SELECT pg_relation_size('bench_binary_hnsw')")).scalar_one()
    print(f"binary graph built in {time.monotonic() - started:.0f} s: {size:,} bytes")
    reranked = text(f"""
        SELECT id FROM (
            SELECT id, embedding FROM chunks WHERE tenant_id = :t
            ORDER BY {bits} <~> CAST(binary_quantize(CAST(:q AS {column_type})) AS bit({dimensions}))
            LIMIT :n) c
        ORDER BY embedding <=> CAST(:q AS {column_type}), id LIMIT 10""")
    try:
        for n in candidates:
            got, times = [], []
            for _, vector in queries:
                t0 = time.perf_counter()
                with engine.begin() as conn:
                    conn.execute(text("SELECT set_config('hnsw.ef_search', :e, true)"),
                                 {"e": str(max(100, n))})
                    got.append(list(conn.execute(reranked, {"t": tenant, "q": vector_literal(vector),
                                                            "n": n}).scalars()))
                times.append((time.perf_counter() - t0) * 1000)
            print(f"binary HNSW, {n} candidates re-ranked: recall@10 {_overlap(got, exact):.4f}, "
                  f"p50 {_pct(times, .5):.1f} ms")
    finally:
        with engine.begin() as conn:
            conn.execute(text("DROP INDEX bench_binary_hnsw"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=200_000, help="the bench.search corpus to open")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--save", type=Path, help="write the exact answers (and the graph's) here")
    parser.add_argument("--reference", type=Path, help="exact answers of an earlier run to compare with")
    parser.add_argument("--binary", default="",
                        help="also try binary quantisation: a temporary HNSW graph over the vectors' "
                             "sign bits, re-ranked by the stored vectors, for each of these candidate "
                             "counts (e.g. 40,100,200)")
    add_home_argument(parser)
    args = parser.parse_args()

    started = time.monotonic()
    engine, tenant, have = search_corpus(Path(args.home), args.size)
    print(f"opened (server start + migrations) in {time.monotonic() - started:.1f} s")
    with engine.connect() as conn:
        sizes = conn.execute(_SIZES).one()
    queries = _queries(engine, args.queries, args.seed)
    # A statement of its own, never run with index scans on: psycopg prepares a statement run
    # often, and a prepared plan is not planned again when a setting changes.
    exact_top = text(f"""SELECT id FROM chunks WHERE tenant_id = :t
                         ORDER BY embedding <=> CAST(:q AS {sizes.column_type}), id LIMIT 10""")
    graph: list[list[int]] = []
    exact: list[list[int]] = []
    for terms, vector in queries:
        with engine.begin() as conn:
            graph.append([h.chunk_id for h in search(conn, tenant, terms, k=10, mode="dense", collapse=False,
                                                     query_vector=vector, snippets=False)])
            conn.execute(text("SET LOCAL enable_indexscan = off"))
            exact.append(list(conn.execute(exact_top, {"t": tenant, "q": vector_literal(vector)}).scalars()))

    print(f"{have:,} chunks, embedding {sizes.column_type}: HNSW graph {sizes.graph:,} bytes, "
          f"vectors {int(sizes.vectors):,} bytes (sum of pg_column_size), table with TOAST "
          f"{sizes.heap_and_toast:,} bytes; graph + vectors {sizes.graph + int(sizes.vectors):,} bytes")
    print(f"recall@10 of the graph against exact search on the same vectors: {_overlap(graph, exact):.4f} "
          f"({len(queries)} queries)")
    if args.reference:
        before = json.loads(args.reference.read_text())
        print(f"against the reference's exact answers ({before['column_type']}): graph "
              f"{_overlap(graph, before['exact']):.4f}, exact {_overlap(exact, before['exact']):.4f}")
    if args.binary:
        _binary(engine, tenant, queries, exact, sizes.column_type, [int(n) for n in args.binary.split(",")])
    if args.save:
        args.save.write_text(json.dumps({"column_type": sizes.column_type, "exact": exact, "graph": graph,
                                         "mean_exact_size": float(np.mean([len(e) for e in exact]))}))


if __name__ == "__main__":
    main()
