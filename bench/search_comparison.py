"""``bench/search.py --peers/--json``: pagemill's BM25, dense and hybrid search and the peers
(``bench/search_peers.py``) measured alike on one corpus, with one set of queries, in one run.

Per system: single-client p50/p95/p99 (each system after its own warm-up), queries/s and p95 of
4 concurrent clients over a fixed duration (``bench/search_load.py``), the bytes its index
takes, and its agreement with the exact answer (``bench/search_corpus.py``):

- BM25 systems (pagemill-bm25, tantivy, bm25s): tie-aware top-10 overlap with exact BM25 at
  pagemill's k1/b (``indexing/ranking.py``); ``agreement_own_params`` also against exact BM25
  at the engine's own fixed k1/b where it cannot take pagemill's;
- dense systems (pagemill-dense, usearch, usearch-f16): recall@10 against brute-force cosine
  search over the same vectors;
- hybrid systems: top-10 overlap with their own fusion recomputed from exact branches
  (pagemill: weighted min-max over the top-100 candidates, alpha 0.5; LanceDB: RRF K=60 over
  each branch's top-10, its BM25 at k1 1.2, b 0.75).

Index bytes of pagemill (``index_parts`` names each term):
- BM25: everything its search reads but the final rows: ``pg_total_relation_size`` (heap, TOAST,
  free-space and visibility maps, every index) of ``bm25_blocks``, ``bm25_top`` (the
  champions), ``bm25_delta``, ``bm25_dead``, ``bm25_terms`` and ``bm25_stats``.  Each corpus
  size has its own database, so these hold this corpus alone.
- dense: the vectors' share of ``chunks`` (``sum(pg_column_size(embedding))``: the stored
  datums, no tuple headers) plus ``pg_total_relation_size`` of the HNSW index.
- hybrid: the two added.
Peers: the bytes of every file in their index directory (tantivy stores no text, only the
chunk id as a fast field; bm25s without its corpus, plus the chunk ids as .npy; usearch's one
file holds vectors and graph; LanceDB's directory holds the table -- ids, text, vectors -- and its
FTS and vector indexes, the two given apart in ``index_parts``).
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np
from sqlalchemy import Engine, text

from bench.search_corpus import Corpus, Oracle, agreement, read_corpus, rrf_fusion, weighted_fusion
from bench.search_load import Query, concurrent, latency_summary, timed
from bench.search_peers import (
    EF_LADDER,
    FIXED_BM25,
    INSTALL,
    LANCEDB_RRF_K,
    Spec,
    build,
    directory_bytes,
    missing,
    open_searcher,
    tune_ef,
    versions,
)
from indexing.ranking import DEFAULTS

CLIENTS = 4
PAGEMILL = {"pagemill-bm25": "bm25", "pagemill-dense": "dense", "pagemill-hybrid": "hybrid"}

#: What BM25 and dense search keep on disk, by structure (see the module's docstring).
_SIZES = text("""
    SELECT pg_total_relation_size('bm25_blocks') - pg_indexes_size('bm25_blocks') AS blocks_heap,
           pg_indexes_size('bm25_blocks') AS blocks_indexes,
           pg_total_relation_size('bm25_top') AS champions,
           pg_total_relation_size('bm25_delta') + pg_total_relation_size('bm25_dead') AS writes,
           pg_total_relation_size('bm25_terms') AS terms,
           pg_total_relation_size('bm25_stats') AS stats,
           (SELECT sum(pg_column_size(embedding)) FROM chunks WHERE tenant_id = :t) AS embeddings,
           pg_total_relation_size('chunks_embedding_hnsw') AS hnsw""")


def pagemill_sizes(engine: Engine, tenant: str) -> dict[str, dict[str, int]]:
    with engine.connect() as conn:
        s = conn.execute(_SIZES, {"t": tenant}).one()._mapping
    bm25 = {"bm25_blocks (heap, TOAST, maps)": s["blocks_heap"], "bm25_blocks key": s["blocks_indexes"],
            "bm25_top (champions)": s["champions"], "bm25_delta + bm25_dead": s["writes"],
            "bm25_terms": s["terms"],
            "bm25_stats": s["stats"]}
    dense = {"chunks.embedding (sum of pg_column_size)": int(s["embeddings"]),
             "chunks_embedding_hnsw": s["hnsw"]}
    return {"pagemill-bm25": bm25, "pagemill-dense": dense, "pagemill-hybrid": {**bm25, **dense}}


class Exact:
    """The exact answers every system is checked against, per query."""

    def __init__(self, corpus: Corpus, queries: list[Query]) -> None:
        oracle = Oracle(corpus)
        self.corpus = corpus
        self.bm25 = [oracle.bm25(t, DEFAULTS.k1, DEFAULTS.b) for t, _ in queries]
        self.fixed_bm25 = [oracle.bm25(t, *FIXED_BM25["tantivy"]) for t, _ in queries]
        self.dense = [oracle.dense(v) for _, v in queries]
        self.weighted = [weighted_fusion(b, d, DEFAULTS.alpha, DEFAULTS.candidates, DEFAULTS.normalisation)
                         for b, d in zip(self.bm25, self.dense, strict=True)]
        self.rrf = [rrf_fusion(b, d, 10, LANCEDB_RRF_K)
                    for b, d in zip(self.fixed_bm25, self.dense, strict=True)]

    def judge(self, system: str, answers: list[list[int]]) -> dict[str, Any]:
        def share(exact: list[np.ndarray], matching: bool = False) -> float:
            return agreement(self.corpus, answers, exact, matching=matching)

        if system in ("pagemill-bm25", "tantivy", "bm25s"):
            against = f"exact BM25 top-10, k1 {DEFAULTS.k1}, b {DEFAULTS.b}"
            out: dict[str, Any] = {"agreement": share(self.bm25, True), "agreement_against": against}
            if system in FIXED_BM25:
                out["agreement_own_params"] = share(self.fixed_bm25, True)
            return out
        if system in ("pagemill-dense", "usearch", "usearch-f16"):
            return {"agreement": share(self.dense), "agreement_against": "exact cosine top-10 (recall@10)"}
        if system == "pagemill-hybrid":
            fusion = f"weighted fusion (alpha {DEFAULTS.alpha}, {DEFAULTS.normalisation})"
            return {"agreement": share(self.weighted), "agreement_against":
                    f"{fusion} of exact BM25 and exact cosine top-{DEFAULTS.candidates}"}
        return {"agreement": share(self.rrf),
                "agreement_against": "RRF (K 60) of exact BM25 (k1 1.2, b 0.75) and exact cosine top-10"}


def compare(engine: Engine, tenant: str, home: Path, queries_text: list[tuple[str, np.ndarray]],
            warm_text: list[tuple[str, np.ndarray]], pagemill: dict[str, tuple[list[float], list[list[int]]]],
            depth: int, peers: tuple[str, ...], duration: float, postings: int) -> dict[str, Any]:
    """The report of one corpus size; ``pagemill`` holds the timings and answers of the
    single-client pass bench/search.py has just made."""
    if peers and missing():
        raise SystemExit(f"peers not installed ({', '.join(missing())}): {INSTALL}")
    queries: list[Query] = [(t.split(), v) for t, v in queries_text]
    warm: list[Query] = [(t.split(), v) for t, v in warm_text]
    started = time.monotonic()
    corpus = read_corpus(engine, tenant)
    exact = Exact(corpus, queries)
    print(f"  corpus read back and exact answers: {time.monotonic() - started:.0f} s", flush=True)
    report: dict[str, Any] = {"chunks": corpus.size, "postings": postings, "queries": len(queries),
                              "clients": CLIENTS, "duration_s": duration,
                              "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    if peers:
        report["versions"] = versions()
    sizes = pagemill_sizes(engine, tenant)
    url = engine.url.render_as_string(hide_password=False)
    for system, mode in PAGEMILL.items():
        times, answers = pagemill[mode]
        spec = Spec(system, url, {"tenant": tenant, "depth": depth})
        report[system] = {**latency_summary(times), **concurrent(spec, queries, CLIENTS, duration),
                          "index_bytes": sum(sizes[system].values()), "index_parts": sizes[system],
                          **exact.judge(system, answers), "clients_are": "processes, one connection each"}
        print(f"  {system}: {_line(report[system])}", flush=True)
    if peers:
        for system in peers:
            report[system] = _peer(system, corpus, exact, home / f"peers-{corpus.size}", queries, warm,
                                   report["pagemill-dense"]["agreement"], duration)
            print(f"  {system}: {_line(report[system])}", flush=True)
    return report


def _peer(system: str, corpus: Corpus, exact: Exact, where: Path, queries: list[Query], warm: list[Query],
          dense_recall: float, duration: float) -> dict[str, Any]:
    shutil.rmtree(where / system, ignore_errors=True)
    started = time.monotonic()
    spec = build(system, corpus, where, DEFAULTS.k1, DEFAULTS.b)
    built = time.monotonic() - started
    extra: dict[str, Any] = {"build_s": built, **spec.options}
    if system.startswith("usearch"):
        ef, recalls = tune_ef(spec, [v for _, v in queries], exact.dense, corpus, dense_recall)
        spec = Spec(spec.system, spec.location, {"ef": ef})
        extra.update(ef_search=ef, recall_by_ef={str(k): v for k, v in recalls.items()},
                     ef_ladder=list(EF_LADDER), recall_target=dense_recall)
    location = Path(spec.location)
    size = directory_bytes(location)  # before any query (LanceDB adds files as it is read)
    searcher = open_searcher(spec)
    times, answers = timed(searcher, queries, warm)
    del searcher
    result = {**latency_summary(times), **concurrent(spec, queries, CLIENTS, duration),
              "index_bytes": size, **exact.judge(system, answers), **extra,
              "clients_are": "processes"}
    if system == "lancedb-hybrid":
        fts_index = sum(directory_bytes(p) for p in location.rglob("_indices"))
        result["index_parts"] = {"indexes (_indices: FTS, vector)": fts_index,
                                 "table (ids, text, vectors)": size - fts_index}
        _, fts = timed(open_searcher(Spec("lancedb-fts", spec.location)), queries, [])
        result["fts_agreement"] = agreement(corpus, fts, exact.bm25, matching=True)
        result["fts_agreement_own_params"] = agreement(corpus, fts, exact.fixed_bm25, matching=True)
    return result


def _line(r: dict[str, Any]) -> str:
    return (f"p50 {r['p50_ms']:.2f} / p95 {r['p95_ms']:.2f} / p99 {r['p99_ms']:.2f} ms, "
            f"4 clients {r['qps_4_clients']:.0f} q/s p95 {r['p95_4_clients_ms']:.1f} ms, "
            f"{r['index_bytes']:,} bytes, agreement {r['agreement']:.4f}")
