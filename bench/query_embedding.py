"""The query embedder on its own, as an API process runs it: one short query per call, from
one or several threads of one process at once, with the model's own thread pool at a given size.

    .venv/bin/python -m bench.query_embedding --torch-threads 1 --threads 4

Prints queries/s over 400 queries of 3 words (after one warm-up call) and the p50/p95 of a call.
"""

from __future__ import annotations

import argparse
import threading
import time

from bench.search_load import percentile


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--torch-threads", type=int, default=0, help="0: the library's choice")
    parser.add_argument("--threads", type=int, default=1, help="calling threads at once")
    parser.add_argument("--embedder", default="torch")
    args = parser.parse_args()
    from pathlib import Path

    from indexing import embedding

    embedding.configure(args.embedder, Path.home() / ".cache" / "pagemill-bench", args.torch_threads)
    embedding.embed(["warm up"])
    queries = [f"t{i} t{i * 7} t{i * 13}" for i in range(400)]
    times: list[float] = []

    def work(part: list[str]) -> None:
        for query in part:
            started = time.perf_counter()
            embedding.embed([query])
            times.append((time.perf_counter() - started) * 1000)

    threads = [threading.Thread(target=work, args=(queries[i::args.threads],)) for i in range(args.threads)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    import torch

    print(f"{args.embedder}, model threads {torch.get_num_threads()}, {args.threads} calling thread(s): "
          f"{len(queries) / elapsed:.0f} queries/s, p50 {percentile(times, .5):.1f} ms, "
          f"p95 {percentile(times, .95):.1f} ms")


if __name__ == "__main__":
    main()
