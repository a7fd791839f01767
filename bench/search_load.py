"""Latency percentiles, the concurrency test and the JSON report of ``bench/search.py``.

Concurrency: N clients (default 4), each a process of its own (spawned, so none inherits
another's connections or engine threads) with its own connection (pagemill) or its own handle on
the peer's index files, every one of them, so that no Python binding that holds the GIL makes
its clients queue behind one another.  Each client warms up on its own, all start together,
and each runs the same queries (starting at its own offset) back to back for a fixed duration.
"""

from __future__ import annotations

import json
import multiprocessing
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench.search_peers import Spec, open_searcher

Query = tuple[list[str], np.ndarray]
KEYS = ("p50_ms", "p95_ms", "p99_ms", "qps_4_clients", "p95_4_clients_ms", "index_bytes", "agreement")


def percentile(values: list[float], q: float) -> float:
    """The value at rank ``int(q * n)`` of the sorted values (the bench's convention)."""
    if not values:
        return float("nan")
    return sorted(values)[min(len(values) - 1, int(q * len(values)))]


def latency_summary(times_ms: list[float]) -> dict[str, float]:
    return {"p50_ms": percentile(times_ms, .5), "p95_ms": percentile(times_ms, .95),
            "p99_ms": percentile(times_ms, .99)}


def timed(searcher: Any, queries: list[Query], warmup: list[Query]) -> tuple[list[float], list[list[int]]]:
    """One client: a warm-up pass, then each query timed (ms) with its answer."""
    for terms, vector in warmup:
        searcher(terms, vector)
    times, answers = [], []
    for terms, vector in queries:
        started = time.perf_counter()
        answers.append(searcher(terms, vector))
        times.append((time.perf_counter() - started) * 1000)
    return times, answers


def _client(spec: Spec, queries: list[Query], offset: int, warmup: int, duration: float,
            ready: Any, start: Any, out: Any, done: Any) -> None:
    searcher = open_searcher(spec)
    for i in range(warmup):
        terms, vector = queries[(offset + i) % len(queries)]
        searcher(terms, vector)
    ready.release()
    start.wait()
    times: list[float] = []
    cpu = time.process_time()
    began = time.perf_counter()
    deadline = began + duration
    i = offset
    while True:
        terms, vector = queries[i % len(queries)]
        t0 = time.perf_counter()
        searcher(terms, vector)
        t1 = time.perf_counter()
        times.append((t1 - t0) * 1000)
        i += 1
        if t1 >= deadline:
            break
    # The client's own CPU seconds: on a small machine the clients take cores from the server.
    out.put((times, t1 - began, time.process_time() - cpu))
    # Connections (and their database backends) kept until the parent has read the machine.
    done.wait()


def concurrent(spec: Spec, queries: list[Query], clients: int = 4, duration: float = 30.0,
               warmup: int = 50) -> dict[str, float]:
    """Queries/s of ``clients`` processes together and the p95 of their latencies."""
    measured = load(spec, queries, clients, duration, warmup)
    return {"qps_4_clients" if clients == 4 else f"qps_{clients}_clients": measured["qps"],
            "p95_4_clients_ms" if clients == 4 else f"p95_{clients}_clients_ms": measured["p95_ms"]}


def load(spec: Spec, queries: list[Query], clients: int, duration: float = 30.0,
         warmup: int = 50, on_start: Any = None) -> dict[str, float]:
    """``clients`` processes together: their queries/s, latency percentiles and own CPU
    seconds.  ``on_start`` is called as they start, and what it returns once they are done;
    the dict that gives is added (what the machine did meanwhile, bench/search_throughput.py)."""
    context = multiprocessing.get_context("spawn")
    ready, start, out, done = context.Semaphore(0), context.Event(), context.Queue(), context.Event()
    workers = [context.Process(target=_client, args=(spec, queries, c * len(queries) // clients,
                                                     warmup, duration, ready, start, out, done))
               for c in range(clients)]
    for worker in workers:
        worker.start()
    waiting = len(workers)
    deadline = time.monotonic() + 900
    while waiting:
        if ready.acquire(timeout=1):
            waiting -= 1
        elif time.monotonic() > deadline or any(w.exitcode not in (None, 0) for w in workers):
            for worker in workers:
                worker.kill()
            raise RuntimeError(f"a client of {spec.system} did not get ready")
    finish = on_start() if on_start is not None else None
    start.set()
    results = [out.get(timeout=duration + 900) for _ in workers]
    machine = finish() if finish is not None else {}
    done.set()
    for worker in workers:
        worker.join()
    latencies = [t for times, _, _ in results for t in times]
    rate = sum(len(times) / elapsed for times, elapsed, _ in results)
    return {"qps": rate, **latency_summary(latencies), "queries": len(latencies),
            "client_cpu_s": sum(cpu for _, _, cpu in results), **machine}


def write_report(path: Path, runs: dict[int, dict[str, Any]]) -> None:
    """One size: its report at the top level; several: keyed by chunk count."""
    body = next(iter(runs.values())) if len(runs) == 1 else {str(n): r for n, r in runs.items()}
    path.write_text(json.dumps(body, indent=2, sort_keys=False, default=_plain) + "\n")


def _plain(value: object) -> object:
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")
