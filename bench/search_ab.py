"""Two versions of the search statement's files taking turns on the bench's corpus, beside LanceDB.

    git archive <commit> indexing/sql | tar -x -C /tmp/base     # the baseline's statement files
    .venv/bin/python -m bench.search_ab /tmp/base/indexing/sql --mode hybrid [--current DIR]

For a change to ``indexing/sql/`` alone (the same binds, the same ``indexing/search.py``): the
baseline's files are rendered by this tree's ``indexing/search.py``.  Uses the corpus, the
queries and the LanceDB index that ``python -m bench.search --peers lancedb-hybrid`` builds and
keeps in its home.

- Single client: every query run by both versions in one process, alternately first,
  ``--repeat`` times each, the best time of each kept (after a warm-up of each); every column of
  every hit compared between the versions.
- ``--clients`` clients (processes, bench/search_load.py): rounds of the baseline, this tree
  and LanceDB hybrid, ``--duration`` seconds each, the order turned each round, so that the
  load the machine carries from elsewhere falls on all three alike.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import astuple
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from sqlalchemy import TextClause, text

from bench.database import add_home_argument, search_corpus
from bench.search_load import Query, load, percentile
from bench.search_peers import LANCEDB_EF, LANCEDB_VECTOR_INDEX, Spec
from indexing import search

BASELINE, CURRENT = "baseline", "current"


def statement_renderer(directory: Path) -> Any:
    """``indexing.search._statement``'s stand-in rendering the files of ``directory``."""
    environment = search._SQL.overlay(loader=jinja2.FileSystemLoader(directory))

    @lru_cache(maxsize=128)
    def statement(mode: search.Mode, collapse: bool, filtered: bool, fusion: search.Fusion, rounds: int,
                  norm: str) -> TextClause:
        return text(environment.get_template("search.sql").render(
            search._context(rounds, collapse, filtered), mode=mode, fusion=fusion, norm=norm))
    return statement


def use_statements(directory: str | None) -> None:
    """From now on, this process's searches run the statement of ``directory``'s files (None:
    this tree's); called by the bench's pagemill searcher given the option ``sql``."""
    if directory:
        search._statement = statement_renderer(Path(directory))


def _single(engine: Any, tenant: str, mode: str, baseline: Path, against: Path | None,
            queries: list[tuple[str, Any]], warmup: int, repeat: int) -> None:
    current = search._statement
    versions = {BASELINE: statement_renderer(baseline),
                CURRENT: statement_renderer(against) if against else current}
    params = search.SearchParams()  # the service's defaults

    def run(name: str, terms: str, vector: Any) -> tuple[float, list[tuple[Any, ...]]]:
        search._statement = versions[name]
        started = time.perf_counter()
        with engine.begin() as conn:
            hits = search.search(conn, tenant, terms, k=10, mode=mode, params=params,  # type: ignore[arg-type]
                                 query_vector=vector, snippets=False)
        elapsed = (time.perf_counter() - started) * 1000
        return elapsed, [astuple(h) for h in hits]

    for terms, vector in queries[:warmup]:
        for name in versions:
            run(name, terms, vector)
    times: dict[str, list[float]] = {name: [] for name in versions}
    differ = []
    for i, (terms, vector) in enumerate(queries):
        best: dict[str, float] = {}
        answers: dict[str, list[tuple[Any, ...]]] = {}
        for r in range(repeat):
            for name in ((BASELINE, CURRENT) if (i + r) % 2 else (CURRENT, BASELINE)):
                elapsed, answers[name] = run(name, terms, vector)
                best[name] = min(best.get(name, elapsed), elapsed)
        for name in versions:
            times[name].append(best[name])
        if answers[BASELINE] != answers[CURRENT]:
            differ.append(i)
    search._statement = current
    print(f"\nsingle client, {mode}, {len(queries)} queries, best of {repeat} each, taking turns")
    print("| version | p50 ms | p90 | p95 | p99 | mean |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, values in times.items():
        print(f"| {name} | {percentile(values, .5):.2f} | {percentile(values, .9):.2f} | "
              f"{percentile(values, .95):.2f} | {percentile(values, .99):.2f} | "
              f"{sum(values) / len(values):.2f} |")
    print(f"answers differing (any column of any hit): {len(differ)} of {len(queries)} {differ[:20]}",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline", type=Path, help="a directory of the statement's files (indexing/sql)")
    parser.add_argument("--current", type=Path, help="the other version's files (default: this tree's)")
    parser.add_argument("--size", type=int, default=200_000)
    parser.add_argument("--mode", default="hybrid", choices=search.MODES)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=2, help="single client: runs of each query per version")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=4, help="rounds of the concurrency test (0: none)")
    parser.add_argument("--duration", type=float, default=15.0)
    parser.add_argument("--no-lancedb", action="store_true", help="leave LanceDB out of the rounds")
    add_home_argument(parser)
    args = parser.parse_args()

    from bench.search import _queries

    engine, tenant, _ = search_corpus(Path(args.home), args.size)
    queries = _queries(engine, args.queries)
    print(f"{time.strftime('%H:%M:%S', time.gmtime())} UTC: {args.size:,} chunks, baseline {args.baseline}, "
          f"current {args.current or 'this tree'}", flush=True)
    _single(engine, tenant, args.mode, args.baseline, args.current, queries, args.warmup, args.repeat)
    if not args.rounds:
        return

    url = engine.url.render_as_string(hide_password=False)
    system = f"pagemill-{args.mode}"
    specs = {BASELINE: Spec(system, url, {"tenant": tenant, "sql": str(args.baseline)}),
             CURRENT: Spec(system, url, {"tenant": tenant, "sql": str(args.current or "")})}
    lancedb = Path(args.home) / f"peers-{args.size}" / "lancedb-hybrid"
    if not args.no_lancedb:
        if not lancedb.exists():
            sys.exit(f"no LanceDB index at {lancedb}: run python -m bench.search --peers "
                     "lancedb-hybrid first")
        specs["lancedb-hybrid"] = Spec("lancedb-hybrid", str(lancedb),
                                       {"vector_index": LANCEDB_VECTOR_INDEX, "ef": LANCEDB_EF})
    split: list[Query] = [(t.split(), v) for t, v in queries]
    measured: dict[str, list[dict[str, float]]] = {name: [] for name in specs}
    names = list(specs)
    print(f"\n{args.clients} clients, {args.duration:.0f} s each, {args.rounds} rounds "
          f"({time.strftime('%H:%M:%S', time.gmtime())} UTC)")
    for r in range(args.rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            result = load(specs[name], split, args.clients, args.duration, args.warmup)
            measured[name].append(result)
            print(f"  round {r + 1} {name}: {result['qps']:.1f} q/s, p50 {result['p50_ms']:.1f} "
                  f"p95 {result['p95_ms']:.1f} ms", flush=True)
    print(f"\n({time.strftime('%H:%M:%S', time.gmtime())} UTC)")
    print("| system | q/s per round | mean q/s | mean p95 ms |")
    print("|---|---|---:|---:|")
    for name, rounds in measured.items():
        qps = [m["qps"] for m in rounds]
        print(f"| {name} | {' / '.join(f'{q:.1f}' for q in qps)} | {sum(qps) / len(qps):.1f} | "
              f"{sum(m['p95_ms'] for m in rounds) / len(rounds):.1f} |")
    base, cur = measured[BASELINE], measured[CURRENT]
    ratios = [c["qps"] / b["qps"] for b, c in zip(base, cur, strict=True)]
    print(f"current / baseline q/s, round by round: {' / '.join(f'{x:.3f}' for x in ratios)}; "
          f"on means {sum(c['qps'] for c in cur) / sum(b['qps'] for b in base):.3f}")
    if "lancedb-hybrid" in measured:
        lance = sum(m["qps"] for m in measured["lancedb-hybrid"])
        print(f"against LanceDB hybrid on means: baseline {sum(b['qps'] for b in base) / lance:.3f}x, "
              f"current {sum(c['qps'] for c in cur) / lance:.3f}x")


if __name__ == "__main__":
    main()
