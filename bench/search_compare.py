"""Interleaved latency comparison of two versions of ``indexing/search.py`` on one corpus.

    git show c86c724:indexing/search.py > /tmp/search_before.py
    .venv/bin/python -m bench.search_compare /tmp/search_before.py --size 1000000 --mode bm25

Every query is run by both versions, alternately first, each in its own committed
transaction on the pooled engine (as the API runs searches), after a warm-up; on a shared,
noisy machine the ratio of the two is what a run can tell.  Uses the corpora that
``python -m bench.search`` builds and keeps.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

from bench.database import add_home_argument, search_corpus
from bench.search import _pct, _queries
from indexing import search as current


def _load(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("search_baseline", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline", help="path to another version of indexing/search.py")
    parser.add_argument("--size", type=int, default=200_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--mode", default="bm25", choices=["bm25", "dense", "hybrid"])
    add_home_argument(parser)
    args = parser.parse_args()

    engine, tenant, _ = search_corpus(Path(args.home), args.size)
    versions = {"baseline": _load(args.baseline), "current": current}
    times: dict[str, list[float]] = {name: [] for name in versions}
    queries = _queries(engine, args.queries)
    differ = 0
    for i, (terms, vector) in enumerate(queries[:args.warmup] + queries):
        answers: dict[str, list[tuple[int, float]]] = {}
        for name in (("baseline", "current") if i % 2 else ("current", "baseline")):
            module = versions[name]
            params = module.SearchParams(fusion="weighted", alpha=0.5)  # the service's defaults
            started = time.perf_counter()
            with engine.begin() as conn:
                hits = module.search(conn, tenant, terms, k=10, mode=args.mode, params=params,
                                     query_vector=vector, snippets=False)
            if i >= args.warmup:
                times[name].append((time.perf_counter() - started) * 1000)
            answers[name] = [(h.chunk_id, round(h.score, 6)) for h in hits]
        if i >= args.warmup:
            differ += answers["baseline"] != answers["current"]

    print(f"\n{args.size:,} chunks, {args.mode}, {args.queries} queries interleaved\n")
    print("| version | p50 ms | p95 ms | mean ms |")
    print("|---|---:|---:|---:|")
    for name, values in times.items():
        print(f"| {name} | {_pct(values, .5):.1f} | {_pct(values, .95):.1f} | "
              f"{sum(values) / len(values):.1f} |")
    base, cur = times["baseline"], times["current"]
    print(f"| speed-up | {_pct(base, .5) / _pct(cur, .5):.2f} | {_pct(base, .95) / _pct(cur, .95):.2f} | "
          f"{sum(base) / sum(cur):.2f} |")
    print(f"\nqueries whose top-10 differs between the versions (ids or scores): {differ}")


if __name__ == "__main__":
    main()
