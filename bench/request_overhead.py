"""Per-request cost of the API's own layers (hooks, logging, error handling), in process.

    python -m bench.request_overhead LABEL

Times 7 rounds of 1,000 requests to a path no route has (a JSON 404 through every hook and the
JSON log handler, writing to /dev/null) with the Flask test client, after 300 to warm up, and
prints the median microseconds per request.  Run it on two commits alternately to compare
them (docs/BENCHMARKS.md: traces off against no traces).
"""

from __future__ import annotations

import logging
import os
import statistics
import sys
import tempfile
import time


def main() -> None:
    from app.api import create_app
    from app.config import Config
    from app.infra import logs

    logs.configure("INFO", "json")
    handler = logging.getLogger().handlers[0]
    assert isinstance(handler, logging.StreamHandler)
    handler.setStream(open(os.devnull, "w"))  # noqa: SIM115 - for the process's life
    app = create_app(Config.from_env({"PAGEMILL_HOME": tempfile.mkdtemp(prefix="pagemill-overhead-")}))
    client = app.test_client()
    for _ in range(300):
        client.get("/no-such-route")
    rounds = []
    for _ in range(7):
        began = time.perf_counter()
        for _ in range(1000):
            client.get("/no-such-route")
        rounds.append((time.perf_counter() - began) / 1000 * 1e6)
    label = sys.argv[1] if len(sys.argv) > 1 else "this commit"
    print(f"{label}: median {statistics.median(rounds):.1f} us/request, rounds "
          f"{[round(r) for r in rounds]}")


if __name__ == "__main__":
    main()
