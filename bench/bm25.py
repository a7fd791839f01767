"""BM25 top-k latency at scale: the plain scan over every posting against pagemill's
early-terminating search (impact-ordered candidates, exact re-scoring, proven bound,
fallback to the scan), side by side in one run on one synthetic corpus.

    .venv/bin/python -m bench.bm25 --chunks 200000 --queries 200

The corpus is generated inside PostgreSQL: chunk lengths 60-139 terms, terms drawn from a
log-uniform (Zipf, s=1) distribution over a 50,000-term vocabulary, common terms kept --
about 78 postings per chunk (15.6M at 200k chunks).  Queries draw 2-5 terms from the same
distribution.  The embedded server lives in its own home (default /tmp/pagemill-bench-bm25);
its HNSW index is dropped there because only BM25 is measured.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from sqlalchemy import text

from bench.database import add_home_argument, bench_tenant, drop_unused_terms, enter_vocabulary
from indexing import bm25_merge
from indexing.ranking import DEFAULTS
from indexing.search import SearchParams, bind_parameters, build_sql

VOCABULARY = 50_000

def _generate(engine, tenant: str, chunks: int) -> None:
    zero = "[" + ",".join(["0.1"] * 384) + "]"
    with engine.begin() as conn:
        conn.execute(text("DROP INDEX IF EXISTS chunks_embedding_hnsw"))
        conn.execute(text("""
            INSERT INTO search_documents (tenant_id, external_id, content_sha256, chunk_count)
            SELECT :t, 'doc' || g, 'synthetic', 1 FROM generate_series(1, :n) g"""),
                     {"t": tenant, "n": chunks})
        conn.execute(text("""
            INSERT INTO chunks (tenant_id, search_document_id, chunk_no, text, heading_path, token_count,
                                bm25_length, embedding)
            SELECT :t, sd.id, 0, '', '{}', 0, 60 + floor(random() * 80)::int, CAST(:vec AS vector)
            FROM search_documents sd WHERE sd.tenant_id = :t"""), {"t": tenant, "vec": zero})
        conn.execute(text("""
            UPDATE bm25_stats SET impact_avgdl = total_length::float8 / chunk_count,
                                  impact_k1 = :k1, impact_b = :b WHERE tenant_id = :t"""),
                     {"t": tenant, "k1": DEFAULTS.k1, "b": DEFAULTS.b})
        enter_vocabulary(conn, tenant, VOCABULARY)
        conn.execute(text("""
            INSERT INTO bm25_delta (term_id, chunk_id, tf, doc_length)
            SELECT t.id, c.id, count(*), c.bm25_length
            FROM chunks c
            CROSS JOIN LATERAL (
                SELECT floor(exp(random() * ln(:v)))::int AS r FROM generate_series(1, c.bm25_length)
            ) x
            JOIN bm25_terms t ON t.tenant_id = :t AND t.term = 't' || x.r
            WHERE c.tenant_id = :t
            GROUP BY c.id, c.bm25_length, t.id"""),
            {"t": tenant, "v": VOCABULARY})
        drop_unused_terms(conn, tenant)
        bm25_merge.rebuild(conn, tenant)  # the delta cut into blocks and champions
        conn.execute(text("ANALYZE bm25_blocks; ANALYZE bm25_top; ANALYZE bm25_terms; ANALYZE chunks"))


def _query(rng: random.Random) -> list[str]:
    return [f"t{int(VOCABULARY ** rng.random())}" for _ in range(rng.randint(2, 5))]


def _time(conn, sql: str, bind: dict) -> tuple[float, list]:
    started = time.perf_counter()
    rows = conn.execute(text(sql), bind).all()
    return (time.perf_counter() - started) * 1000, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=200_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--depth", type=int, default=SearchParams().bm25_depth)
    add_home_argument(parser, "/tmp/pagemill-bench-bm25")
    args = parser.parse_args()

    engine, tenant, have = bench_tenant(Path(args.home) / "pgdata", "pagemill_bench", f"bm25-{args.chunks}")
    if not have:
        started = time.monotonic()
        _generate(engine, tenant, args.chunks)
        print(f"generated {args.chunks} chunks in {time.monotonic() - started:.0f} s")
    with engine.connect() as conn:
        postings = conn.execute(text("SELECT sum(df) FROM bm25_terms WHERE tenant_id = :t"),
                                {"t": tenant}).scalar_one()
    params = SearchParams(candidates=100, bm25_depth=args.depth)
    ours = build_sql("bm25", collapse=False)
    rng = random.Random(42)
    plain_ms, ours_ms, mismatches, scanned = [], [], 0, []
    with engine.connect() as conn:
        for _ in range(args.queries):
            terms = _query(rng)
            scanned.append(conn.execute(text(
                "SELECT coalesce(sum(df), 0) FROM bm25_terms WHERE tenant_id = :t AND term = ANY(:terms)"),
                {"t": tenant, "terms": terms}).scalar_one())
            bind = bind_parameters(tenant, terms, 10, False, params)
            # The same statement with the plain path forced: below `scan_below` postings the
            # candidate phase never runs (a CASE keeps it unevaluated), only the scan does.
            ms_plain, plain = _time(conn, ours, {**bind, "scan_below": 10**15})
            ms_ours, mine = _time(conn, ours, {**bind, "scan_below": params.bm25_scan_below})
            plain_ms.append(ms_plain)
            ours_ms.append(ms_ours)
            if [r.chunk_id for r in plain[:10]] != [r.chunk_id for r in mine[:10]]:
                mismatches += 1

    def pct(values: list[float], q: float) -> float:
        return sorted(values)[min(len(values) - 1, int(q * len(values)))]

    print(f"\n{args.chunks} chunks, {postings:,} postings; {args.queries} queries of 2-5 Zipf terms; "
          f"postings per query p50 {statistics.median(scanned):,.0f}")
    print("| BM25 top-10 | p50 ms | p95 ms | top-10 equal to the plain scan |")
    print("|---|---:|---:|---:|")
    print(f"| plain scan (every posting of every term) | {pct(plain_ms, .5):.1f} "
          f"| {pct(plain_ms, .95):.1f} | - |")
    print(f"| pagemill (depth {args.depth}, {params.bm25_rounds} rounds, MaxScore) | {pct(ours_ms, .5):.1f} "
          f"| {pct(ours_ms, .95):.1f} | {args.queries - mismatches}/{args.queries} |")
    print(f"| speed-up (p50) | {pct(plain_ms, .5) / pct(ours_ms, .5):.1f}x | | |")


if __name__ == "__main__":
    main()
