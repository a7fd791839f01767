"""Search latency at scale: pagemill's BM25, dense and hybrid top-10 side by side with
PostgreSQL full-text search (tsvector + GIN + ts_rank_cd) and rank_bm25 in memory, on
synthetic corpora, plus the ingest rate with and without the HNSW index.

    .venv/bin/python -m bench.search --sizes 200000,1000000 --queries 200

Corpus (generated inside PostgreSQL, one chunk per document): 60-139 terms per chunk drawn
log-uniformly (Zipf, s=1) from a 50,000-term vocabulary, common terms kept (about 78
postings per chunk); 384-d vectors around 256 random centroids.  It is bulk-loaded the way
that measured fastest: rows first, then the postings' keys and the HNSW graph built once.
Each size lives in its own database of one embedded server (default home
/tmp/pagemill-bench-search) and is reused by later runs.  Queries draw 2-5 terms from the
same distribution and a vector near a random centroid; every system answers the same
queries in the same run, one system at a time after its own warm-up pass (over the first
of those queries, or with --distinct-warmup over as many others).
"""

from __future__ import annotations

import argparse
import gc
import random
import resource
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
from sqlalchemy import Engine, text

from bench.database import add_home_argument, bench_tenant, drop_unused_terms, enter_vocabulary
from bench.search_load import percentile, write_report
from indexing import bm25_merge
from indexing.chunking import Chunk
from indexing.hnsw_options import DEFAULT_GRAPH, GraphOptions
from indexing.ranking import DEFAULTS
from indexing.search import SearchParams, bm25_path, search
from indexing.store import IndexedDocument, delete_document, replace_document
from indexing.vector_index import HNSW_DEFINITION, build_hnsw, drop_hnsw, graph_options, reshape_hnsw

VOCABULARY = 50_000
CENTROIDS = 256
DIMENSIONS = 384

# The corpus's vectors: CENTROIDS random centroids in [-0.5, 0.5)^d, and each chunk's vector
# its centroid (row id mod CENTROIDS) plus uniform noise of width 0.6 per dimension.  Shared
# with bench/dense_recall.py, which loads these vectors alone.
CENTROIDS_SQL = """
    INSERT INTO bench_centroids
    SELECT c, (SELECT array_agg(random() - 0.5) FROM generate_series(1, :d) WHERE c >= 0)
    FROM generate_series(0, :n - 1) c"""
#: A LATERAL subquery giving ``vec`` for the row whose id is ``{row}`` (binds :d, :centroids).
VECTOR_SQL = """
    SELECT CAST(array_agg(c.v[i] + (random() - 0.5) * 0.6 ORDER BY i) AS vector) AS vec
    FROM bench_centroids c CROSS JOIN generate_series(1, :d) i
    WHERE c.id = {row} % :centroids"""

# The bulk load drops what each row insert would otherwise maintain one row at a time: it puts
# every posting into the delta without its keys, then cuts the blocks and champions from it in
# one pass (bm25_merge.rebuild, which empties the delta) and restores the delta's keys.
_DELTA_KEYS = [
    ("bm25_delta_pkey",
     "ALTER TABLE bm25_delta ADD CONSTRAINT bm25_delta_pkey PRIMARY KEY (term_id, chunk_id)"),
    ("bm25_delta_chunk", "CREATE INDEX bm25_delta_chunk ON bm25_delta (chunk_id)"),
]

# Not concurrent: nothing else runs during a bulk load, and a plain build is faster.
_HNSW = "CREATE INDEX " + HNSW_DEFINITION

_BULK_SESSION = ("SET maintenance_work_mem = '4GB'; SET work_mem = '256MB'; "
                 "SET max_parallel_maintenance_workers = 1")


def _timed(label: str, timings: dict[str, float], fn: Callable[[], object]) -> None:
    started = time.monotonic()
    fn()
    timings[label] = time.monotonic() - started
    print(f"  {label}: {timings[label]:.0f} s", flush=True)


def _generate(engine: Engine, tenant: str, chunks: int, step: int = 50_000,
              graph: GraphOptions = DEFAULT_GRAPH) -> dict[str, float]:
    timings: dict[str, float] = {}
    with engine.begin() as conn:
        conn.execute(text("DROP INDEX IF EXISTS chunks_embedding_hnsw"))
        conn.execute(text("ALTER TABLE bm25_delta DROP CONSTRAINT IF EXISTS bm25_delta_pkey"))
        conn.execute(text("DROP INDEX IF EXISTS bm25_delta_chunk"))
        conn.execute(text("CREATE TABLE IF NOT EXISTS bench_centroids "
                          "(id int PRIMARY KEY, v float8[] NOT NULL); TRUNCATE bench_centroids"))
        conn.execute(text(CENTROIDS_SQL), {"d": DIMENSIONS, "n": CENTROIDS})
        conn.execute(text("""
            INSERT INTO search_documents (tenant_id, external_id, content_sha256, chunk_count)
            SELECT :t, 'doc' || g, 'synthetic', 1 FROM generate_series(1, :n) g"""),
                     {"t": tenant, "n": chunks})

    def load_chunks() -> None:
        with engine.begin() as conn:
            conn.execute(text(_BULK_SESSION))
            conn.execute(text(f"""
                INSERT INTO chunks (tenant_id, search_document_id, chunk_no, text, heading_path,
                                    token_count, bm25_length, embedding)
                SELECT :t, sd.id, 0, w.body, '{{}}', w.len, w.len, v.vec
                FROM search_documents sd
                CROSS JOIN LATERAL (
                    SELECT string_agg('t' || floor(exp(random() * ln(:v)))::int, ' ') AS body,
                           count(*)::int AS len
                    FROM generate_series(1, 60 + floor(random() * 80)::int + 0 * sd.id)
                ) w
                CROSS JOIN LATERAL ({VECTOR_SQL.format(row="sd.id")}) v
                WHERE sd.tenant_id = :t"""),
                         {"t": tenant, "v": VOCABULARY, "d": DIMENSIONS, "centroids": CENTROIDS})
            conn.execute(text("""
                UPDATE bm25_stats SET impact_avgdl = total_length::float8 / chunk_count,
                                      impact_k1 = :k1, impact_b = :b WHERE tenant_id = :t"""),
                         {"t": tenant, "k1": DEFAULTS.k1, "b": DEFAULTS.b})

    def load_postings() -> None:
        with engine.begin() as conn:
            low, high = conn.execute(text("SELECT min(id), max(id) FROM chunks WHERE tenant_id = :t"),
                                     {"t": tenant}).one()
            enter_vocabulary(conn, tenant, VOCABULARY)
        for start in range(low, high + 1, step):
            with engine.begin() as conn:
                conn.execute(text(_BULK_SESSION))
                conn.execute(text("""
                    INSERT INTO bm25_delta (term_id, chunk_id, tf, doc_length)
                    SELECT w.term_id, c.id, w.tf, c.bm25_length
                    FROM chunks c
                    CROSS JOIN LATERAL (
                        SELECT t.id AS term_id, count(*)::int AS tf
                        FROM regexp_split_to_table(c.text, ' ') AS x(word)
                        JOIN bm25_terms t ON t.tenant_id = :t AND t.term = x.word
                        GROUP BY t.id
                    ) w
                    WHERE c.tenant_id = :t AND c.id >= :lo AND c.id < :hi"""),
                             {"t": tenant, "lo": start, "hi": start + step})
        with engine.begin() as conn:
            drop_unused_terms(conn, tenant)

    def build(statements: list[str]) -> Callable[[], None]:
        def run() -> None:
            with engine.begin() as conn:
                conn.execute(text(_BULK_SESSION))
                for statement in statements:
                    conn.execute(text(statement))
        return run

    _timed("chunks + vectors (no index)", timings, load_chunks)
    _timed("BM25 postings (no keys)", timings, load_postings)
    _timed("BM25 blocks + champions", timings, lambda: _blocks(engine, tenant))
    _timed("HNSW build", timings, build([_HNSW.format(m=graph.m, ef_construction=graph.ef_construction)]))
    _timed("FTS tsvector + GIN", timings, build([
        "DROP TABLE IF EXISTS bench_fts",
        "CREATE TABLE bench_fts AS SELECT id AS chunk_id, to_tsvector('simple', text) AS tsv FROM chunks",
        "ALTER TABLE bench_fts ADD PRIMARY KEY (chunk_id)",
        "CREATE INDEX bench_fts_tsv ON bench_fts USING gin (tsv)",
    ]))
    _vacuum(engine)
    return timings


def _blocks(engine: Engine, tenant: str) -> None:
    """The delta's postings cut into blocks and champions, then the delta's keys back -- over
    the emptied delta, after VACUUM has cut its heap down: built in the rebuild's own
    transaction, the keys indexed every deleted row (the rebuild's own deletes are not yet
    dead to it) and kept 630 MB at 200k chunks that VACUUM frees but never gives back."""
    with engine.begin() as conn:
        conn.execute(text(_BULK_SESSION))
        bm25_merge.rebuild(conn, tenant)
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text("VACUUM bm25_delta"))
    with engine.begin() as conn:
        for _, statement in _DELTA_KEYS:
            conn.execute(text(statement))


def _vacuum(engine: Engine) -> None:
    """VACUUM marks the loaded pages all-visible, which index-only scans need (autovacuum
    would get there on its own, later)."""
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text("VACUUM (ANALYZE)"))


def _ingest_rate(engine: Engine, tenant: str, documents: int, per_document: int) -> float:
    """Chunks/s through the service's own write path (replace_document), vectors given."""
    rng = np.random.default_rng(7)
    words = random.Random(7)
    prepared = []
    for d in range(documents):
        chunks = [Chunk(text=" ".join(f"t{int(VOCABULARY ** words.random())}" for _ in range(100)),
                        heading_path=(), page_start=None, page_end=None, token_count=100)
                  for _ in range(per_document)]
        vectors = rng.standard_normal((per_document, DIMENSIONS)).astype(np.float32)
        doc = IndexedDocument(tenant, f"ingest-{d}", None, None, f"sha-{d}", "text/plain", None, "{}")
        prepared.append((doc, chunks, vectors))
    started = time.monotonic()
    for doc, chunks, vectors in prepared:
        with engine.begin() as conn:
            replace_document(conn, doc, chunks, vectors, k1=DEFAULTS.k1, b=DEFAULTS.b)
    elapsed = time.monotonic() - started
    with engine.begin() as conn:
        for doc, _, _ in prepared:
            delete_document(conn, tenant, doc.external_id)
    return documents * per_document / elapsed


_pct = percentile


def _overlap(got: list[list[int]], reference: list[list[int]]) -> float:
    """Mean share of the reference top-10 found in the top-10 (recall@10 against exact)."""
    return float(np.mean([len(set(g) & set(r)) / len(r) if r else 1.0
                          for g, r in zip(got, reference, strict=True)]))


def _queries(engine: Engine, count: int, seed: int = 42) -> list[tuple[str, np.ndarray]]:
    with engine.connect() as conn:
        centroids = [np.array(v) for (v,) in conn.execute(text("SELECT v FROM bench_centroids ORDER BY id"))]
    rng = random.Random(seed)
    noise = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        terms = " ".join(f"t{int(VOCABULARY ** rng.random())}" for _ in range(rng.randint(2, 5)))
        vector = centroids[rng.randrange(CENTROIDS)] + (noise.random(DIMENSIONS) - 0.5) * 0.6
        out.append((terms, (vector / np.linalg.norm(vector)).astype(np.float32)))
    return out


def _rank_bm25(engine: Engine, tenant: str, queries: list[tuple[str, np.ndarray]]) -> dict[str, float]:
    from rank_bm25 import BM25Okapi

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT id, text FROM chunks WHERE tenant_id = :t ORDER BY id"),
                            {"t": tenant}).all()
    ids = np.array([r.id for r in rows])
    model = BM25Okapi([r.text.split() for r in rows])
    del rows
    gc.collect()
    build = time.monotonic() - started
    times = []
    for terms, _ in queries:
        t0 = time.perf_counter()
        scores = model.get_scores(terms.split())
        top = np.argpartition(-scores, 10)[:10]
        ids[top[np.argsort(-scores[top])]]
        times.append((time.perf_counter() - t0) * 1000)
    rss_gib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 2**20
    del model
    gc.collect()
    return {"p50": _pct(times, .5), "p95": _pct(times, .95), "build_s": build, "rss_gib": rss_gib}


def _compare(engine: Engine, tenant: str, home: Path, queries: list[tuple[str, np.ndarray]],
             warm: list[tuple[str, np.ndarray]], results: dict[str, list[float]],
             answers: dict[str, list[list[int]]], depth: int, peers: tuple[str, ...], duration: float,
             postings: int) -> dict[str, object]:
    from bench.search_comparison import compare

    return compare(engine, tenant, home, queries, warm,
                   {mode: (results[mode], answers[mode]) for mode in ("bm25", "dense", "hybrid")},
                   depth, peers, duration, postings)


def _prepare(engine: Engine, tenant: str, chunks: int, have: bool, graph: GraphOptions) -> dict[str, float]:
    """The corpus generated (its load's timings) or, when it exists, vacuumed and its graph
    given ``graph``'s options."""
    if not have:
        return _generate(engine, tenant, chunks, graph=graph)
    _vacuum(engine)  # a no-op unless the corpus changed (or predates index-only scans)
    if graph_options(engine) != graph:
        seconds = reshape_hnsw(engine, graph, "4GB") or 0.0
        print(f"  HNSW graph rebuilt with m {graph.m}, ef_construction {graph.ef_construction}: "
              f"{seconds:.0f} s", flush=True)
    return {}


def run_size(home: Path, chunks: int, query_count: int, rank_bm25_queries: int,
             ingest_documents: int, depth: int, warmup: int, rebuild_hnsw: bool = False,
             systems: tuple[str, ...] = ("dense", "bm25", "bm25-bounded", "hybrid", "hybrid-bounded", "fts"),
             distinct_warmup: bool = False, seed: int = 42, peers: tuple[str, ...] = (),
             report: bool = False, duration: float = 30.0, graph: GraphOptions = DEFAULT_GRAPH,
             ef_search: int = DEFAULTS.ef_search) -> dict[str, object] | None:
    """Measures one corpus size and prints its tables; with ``report`` also returns the JSON
    report of bench/search_comparison.py (the peers' too with ``peers``), for which ``systems``
    must include bm25, dense and hybrid.  ``graph``: the HNSW graph's build options (a corpus
    built with others gets its graph rebuilt so, as `pagemill hnsw rebuild` does);
    ``ef_search``: the dense branch's."""
    engine, tenant, have = bench_tenant(home / "pgdata", f"pagemill_bench_{chunks}", f"search-{chunks}")
    print(f"\n## {chunks:,} chunks", flush=True)
    timings = _prepare(engine, tenant, chunks, bool(have), graph)
    with engine.connect() as conn:
        postings = conn.execute(text("SELECT sum(df) FROM bm25_terms WHERE tenant_id = :t"),
                                {"t": tenant}).scalar_one()
        sizes = conn.execute(text("""
            SELECT pg_size_pretty(pg_relation_size('chunks_embedding_hnsw')) AS hnsw,
                   pg_size_pretty(pg_total_relation_size('bm25_blocks')
                                  + pg_total_relation_size('bm25_top')) AS postings,
                   pg_size_pretty(pg_total_relation_size('bench_fts')) AS fts""")).one()

    queries = _queries(engine, query_count, seed)
    # Warm-up queries drawn apart from the measured ones (another seed), so that a warm cache
    # holds what such queries touch, not the very pages the measured ones will read.
    warm = _queries(engine, warmup, seed=seed + 1) if distinct_warmup else queries[:warmup]
    # The service's defaults: weighted fusion, alpha 0.5, ef_search 100, one hit per document.
    exact = SearchParams(fusion="weighted", alpha=0.5, bm25_depth=depth, ef_search=ef_search)
    bounded = replace(exact, bm25_exact=False)
    paths: Counter[str] = Counter()

    def run(conn, system: str, terms: str, vector: np.ndarray) -> list[int]:
        if system == "fts":
            return [r.chunk_id for r in conn.execute(text("""
                SELECT f.chunk_id, ts_rank_cd(f.tsv, q) AS r
                FROM bench_fts f, to_tsquery('simple', :q) q
                WHERE f.tsv @@ q ORDER BY r DESC LIMIT 10"""), {"q": " | ".join(terms.split())})]
        mode, _, bound = system.partition("-")
        hits = search(conn, tenant, terms, k=10, mode=mode, params=bounded if bound else exact,
                      query_vector=vector, snippets=False)
        return [h.chunk_id for h in hits]

    # One system at a time, each after a warm-up pass of its own, so that no system's
    # latency includes reading back pages another one evicted (hybrid reads both sides).
    results: dict[str, list[float]] = {}
    answers: dict[str, list[list[int]]] = {}
    with engine.begin() as conn:
        # The HNSW graph read into shared buffers first, as an operator would after a restart
        # (without it, the first few hundred queries read graph pages from disk one by one).
        conn.execute(text("CREATE EXTENSION IF NOT EXISTS pg_prewarm"))
        conn.execute(text("SELECT pg_prewarm('chunks_embedding_hnsw')"))
    # One committed transaction per query on a pooled connection, as the API runs them: a
    # rollback would make psycopg drop its prepared statements, which the service keeps.
    for system in systems:
        for terms, vector in warm:
            with engine.begin() as conn:
                run(conn, system, terms, vector)
        times, got = [], []
        for terms, vector in queries:
            t0 = time.perf_counter()
            with engine.begin() as conn:
                got.append(run(conn, system, terms, vector))
            times.append((time.perf_counter() - t0) * 1000)
        results[system], answers[system] = times, got
    with engine.begin() as conn:
        for terms, _ in queries:
            paths[bm25_path(conn, tenant, terms, params=bounded)] += 1
    compared = _compare(engine, tenant, home, queries, warm, results, answers, depth, peers, duration,
                        int(postings)) if report else None
    in_memory = _rank_bm25(engine, tenant, queries[:rank_bm25_queries]) if rank_bm25_queries else None

    with_index = _ingest_rate(engine, tenant, ingest_documents, 10) if ingest_documents else None

    print(f"\n{chunks:,} chunks, {postings:,} postings; HNSW {sizes.hnsw}, postings+indexes "
          f"{sizes.postings}, FTS {sizes.fts}; {query_count} queries of 2-5 Zipf terms, "
          f"BM25 paths taken: {dict(paths)}")
    print("| top-10 | p50 ms | p95 ms | top-10 overlap with exact |")
    print("|---|---:|---:|---:|")
    for label, key in (("pagemill BM25 (exact)", "bm25"), ("pagemill BM25 (bounded)", "bm25-bounded"),
                       (f"pagemill dense (HNSW, ef_search {ef_search})", "dense"),
                       ("pagemill hybrid (weighted, one statement, BM25 exact)", "hybrid"),
                       ("pagemill hybrid (weighted, one statement, BM25 bounded)", "hybrid-bounded"),
                       ("PostgreSQL FTS ts_rank_cd (OR of the terms, GIN)", "fts")):
        if key in results:
            reference = answers.get(key.partition("-")[0]) if key.endswith("-bounded") else None
            overlap = (f"{_overlap(answers[key], reference):.4f}" if reference else "-")
            print(f"| {label} | {_pct(results[key], .5):.1f} | {_pct(results[key], .95):.1f} | {overlap} |")
    if in_memory:
        print(f"| rank_bm25 in memory ({rank_bm25_queries} queries; build {in_memory['build_s']:.0f} s, "
              f"+{in_memory['rss_gib']:.1f} GiB) | {in_memory['p50']:.1f} | {in_memory['p95']:.1f} |")
    if timings:
        print("\n| bulk load step | seconds | chunks/s |")
        print("|---|---:|---:|")
        for label, seconds in timings.items():
            print(f"| {label} | {seconds:.0f} | {chunks / max(seconds, 1e-9):,.0f} |")
        print(f"| all | {sum(timings.values()):.0f} | {chunks / sum(timings.values()):,.0f} |")
    if with_index:
        print(f"\nincremental ingest through replace_document into the {chunks:,}-chunk index "
              f"(HNSW kept): {with_index:.0f} chunks/s")
    if with_index and rebuild_hnsw:
        # The other way to load: without the graph, then rebuild it (what a bulk load does).
        drop_hnsw(engine)
        without = _ingest_rate(engine, tenant, ingest_documents, 10)
        rebuild = build_hnsw(engine)  # what `pagemill hnsw build` does
        print(f"incremental ingest with the HNSW index dropped: {without:.0f} chunks/s; rebuilding "
              f"the graph over {chunks:,} chunks then takes {rebuild:.0f} s")
        n = ingest_documents * 10
        per_chunk = 1 / with_index - 1 / without
        print(f"-> HNSW maintenance costs {per_chunk * 1000:.1f} ms per chunk inserted; a rebuild "
              f"pays for itself when a load adds more than {rebuild / per_chunk:,.0f} chunks "
              f"({rebuild / per_chunk / chunks:.0%} of the index) -- measured on {n} chunks")
    return compared


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="200000,1000000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rank-bm25-queries", type=int, default=20)
    parser.add_argument("--ingest-documents", type=int, default=100,
                        help="documents of 10 chunks written through replace_document")
    parser.add_argument("--systems", default="dense,bm25,bm25-bounded,hybrid,hybrid-bounded,fts",
                        help="which of dense, bm25, bm25-bounded, hybrid, hybrid-bounded, fts to time")
    parser.add_argument("--rebuild-hnsw", action="store_true",
                        help="also time ingest with the HNSW index dropped, and its rebuild")
    parser.add_argument("--warmup", type=int, default=50, help="untimed queries per system first")
    parser.add_argument("--distinct-warmup", action="store_true",
                        help="warm up on other queries than the measured ones (else on the first of them)")
    parser.add_argument("--depth", type=int, default=SearchParams().bm25_depth,
                        help="postings read per query term before the bound is checked")
    parser.add_argument("--seed", type=int, default=42,
                        help="draws the measured queries (the distinct warm-up uses seed + 1); a new "
                             "seed gives queries whose pages no earlier run has read")
    parser.add_argument("--peers", nargs="?", const="all", default="", metavar="LIST",
                        help="also measure tantivy, bm25s, usearch and LanceDB hybrid on the same corpus "
                             "(pip install -r bench/requirements-peers.txt); LIST: some of them, "
                             "comma-separated (bm25s needs over 20 GB at 1M chunks)")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="write every system's latencies, 4-client throughput, index bytes and "
                             "agreement to FILE (one size: at the top level; several: keyed by size)")
    parser.add_argument("--duration", type=float, default=30.0,
                        help="seconds each system's 4-client throughput test runs")
    add_home_argument(parser)
    parser.add_argument("--ef-construction", type=int, default=DEFAULT_GRAPH.ef_construction,
                        help="the HNSW graph's ef_construction (an existing corpus's graph is rebuilt)")
    parser.add_argument("--ef-search", type=int, default=DEFAULTS.ef_search, help="hnsw.ef_search")
    args = parser.parse_args()
    graph = GraphOptions(m=DEFAULT_GRAPH.m, ef_construction=args.ef_construction)
    from bench.search_peers import INSTALL, PEERS, missing

    peers = PEERS if args.peers == "all" else tuple(p for p in args.peers.split(",") if p)
    unknown = set(peers) - set(PEERS)
    if unknown:
        parser.error(f"unknown peers {sorted(unknown)}; choose from {', '.join(PEERS)}")
    if peers and missing():  # before a long corpus build, not after it
        parser.error(f"--peers needs {', '.join(missing())}; install the peers with: {INSTALL}")
    report = bool(peers) or args.json is not None
    systems = tuple(args.systems.split(","))
    if report:  # the report's pagemill systems are always timed
        systems = tuple(dict.fromkeys((*systems, "bm25", "dense", "hybrid")))
    reports = {}
    for size in (int(s) for s in args.sizes.split(",")):
        reports[size] = run_size(Path(args.home), size, args.queries, args.rank_bm25_queries,
                                 args.ingest_documents, args.depth, args.warmup, args.rebuild_hnsw,
                                 systems, args.distinct_warmup, args.seed, peers, report,
                                 args.duration, graph, args.ef_search)
        if args.json:  # after each size, so that a later size's failure keeps the earlier ones
            write_report(args.json, {n: r for n, r in reports.items() if r is not None})


if __name__ == "__main__":
    main()
