"""Retrieval quality of the three search modes on a BEIR collection, side by side.

Usage (after ingesting the corpus with `pagemill ingest --jsonl corpus.jsonl --wait`):

    python bench/retrieval_eval.py ../shared/corpus/beir-scifact --split train

Prints a table of nDCG@10, Recall@10, Recall@100 and median query time per mode.
Tune only on the train split; the test split is for reporting.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import statistics
import time
from collections import defaultdict
from pathlib import Path

from app.config import Config
from app.domain.auth import ensure_tenant
from app.infra.db import upgrade_schema
from app.runtime import Runtime
from indexing import tenant_embedders
from indexing.embedding import embed
from indexing.search import search


def load_qrels(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = defaultdict(dict)
    with path.open() as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            qrels[row["query-id"]][row["corpus-id"]] = int(row["score"])
    return qrels


def ndcg_at(ranked: list[str], rels: dict[str, int], k: int) -> float:
    dcg = sum((2 ** rels.get(d, 0) - 1) / math.log2(i + 2) for i, d in enumerate(ranked[:k]))
    ideal = sorted(rels.values(), reverse=True)[:k]
    idcg = sum((2**r - 1) / math.log2(i + 2) for i, r in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at(ranked: list[str], rels: dict[str, int], k: int) -> float:
    relevant = {d for d, r in rels.items() if r > 0}
    return len(relevant & set(ranked[:k])) / len(relevant) if relevant else 0.0


def score_run(run: Path, qrels: dict[str, dict[str, int]]) -> None:
    ndcgs, r10 = [], []
    with run.open() as fh:
        for line in fh:
            row = json.loads(line)
            if row["query_id"] not in qrels:
                continue
            ranked = [r["document_id"] for r in row["results"]]
            ndcgs.append(ndcg_at(ranked, qrels[row["query_id"]], 10))
            r10.append(recall_at(ranked, qrels[row["query_id"]], 10))
    print(f"{run}: {len(ndcgs)} judged queries, nDCG@10 {statistics.mean(ndcgs):.4f}, "
          f"Recall@10 {statistics.mean(r10):.4f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("collection", type=Path)
    parser.add_argument("--split", default="train")
    parser.add_argument("--tenant", default=None)
    parser.add_argument("--modes", default="bm25,dense,hybrid")
    parser.add_argument("--limit", type=int, default=0, help="evaluate only the first N queries")
    parser.add_argument("--k", type=int, default=100,
                        help="results asked for (default 100; nDCG@10 scores the first 10, and the "
                             "candidates each branch fuses over grow with k: see docs/BENCHMARKS.md)")
    parser.add_argument("--fusion", choices=["rrf", "weighted"], default=None,
                        help="default: the configuration's (PAGEMILL_FUSION)")
    parser.add_argument("--alpha", type=float, default=None, help="dense weight with --fusion weighted")
    parser.add_argument("--expand", action="store_true", help="BM25 query expansion (RM3) on")
    parser.add_argument("--normalisation", choices=["minmax", "zscore"], default=None,
                        help="weighted fusion's scaling (default: PAGEMILL_FUSION_NORMALISATION)")
    parser.add_argument("--run", type=Path, default=None,
                        help="score the output of `pagemill search --queries ... --json` instead")
    args = parser.parse_args()

    qrels = load_qrels(args.collection / "qrels" / f"{args.split}.tsv")
    queries = []
    with (args.collection / "queries.jsonl").open() as fh:
        for line in fh:
            q = json.loads(line)
            if q["_id"] in qrels:
                queries.append((q["_id"], q["text"]))
    if args.limit:
        queries = queries[: args.limit]
    if args.run:
        score_run(args.run, qrels)
        return

    runtime = Runtime(Config.from_env())
    upgrade_schema(runtime.database_url)
    cfg = runtime.config
    params = cfg.search_params(fusion=args.fusion or cfg.search.fusion,
                               alpha=cfg.search.alpha if args.alpha is None else args.alpha,
                               normalisation=args.normalisation or cfg.search.normalisation,
                               expansion=args.expand or cfg.search.expansion)
    with runtime.engine.begin() as conn:
        tenant_id = ensure_tenant(conn, args.tenant or cfg.jobs.default_tenant)
    with runtime.engine.connect() as conn:  # queries embedded as the tenant's chunks were
        embedder = tenant_embedders.pinned(conn, tenant_id)
    vectors = embed([t for _, t in queries], embedder=embedder)

    print(f"{args.collection.name} {args.split}: {len(queries)} queries, "
          f"k1={params.k1} b={params.b} rrf_k={params.rrf_k} fusion={params.fusion} alpha={params.alpha} "
          f"normalisation={params.normalisation} expansion={params.expansion} k={args.k} "
          f"candidates={params.candidates}")
    print("| mode | nDCG@10 | Recall@10 | Recall@100 | p50 ms |")
    print("|---|---|---|---|---|")
    for mode in args.modes.split(","):
        ndcgs, r10, r100, times = [], [], [], []
        for (qid, text_), vec in zip(queries, vectors, strict=True):
            started = time.perf_counter()
            with runtime.engine.begin() as conn:
                # Snippets off: this measures retrieval, and 100 snippets per query would
                # dominate the time column.
                hits = search(conn, tenant_id, text_, k=args.k, mode=mode,
                              params=params, query_vector=vec, snippets=False)
            times.append((time.perf_counter() - started) * 1000)
            ranked = [h.document_id for h in hits]
            ndcgs.append(ndcg_at(ranked, qrels[qid], 10))
            r10.append(recall_at(ranked, qrels[qid], 10))
            r100.append(recall_at(ranked, qrels[qid], 100))
        print(f"| {mode} | {statistics.mean(ndcgs):.4f} | {statistics.mean(r10):.4f} | "
              f"{statistics.mean(r100):.4f} | {statistics.median(times):.1f} |")


if __name__ == "__main__":
    main()
