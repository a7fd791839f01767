"""Search throughput under concurrency: 1, 4 and 16 clients, directly and through the HTTP API.

    .venv/bin/python -m bench.search_throughput --clients 1,4,16 --modes bm25,dense,hybrid

On the corpus of ``bench/search.py`` (built by it first, in its home) and its queries.  Paths:

- ``direct``: each client a process calling ``indexing.search.search`` on its own connection
  (bench/search_load.py), with the corpus's query vector, as ``bench/search.py --json`` does;
- ``direct-embed``: the same, the query's vector made by the embedder in the client (what the
  API adds to a dense or hybrid search before its statement);
- ``http``: a real ``pagemill serve --no-worker`` (gunicorn, as configured by the environment:
  PAGEMILL_WEB_WORKERS, PAGEMILL_WEB_THREADS) on the bench's database, each client a process
  POSTing ``/v1/search`` over one keep-alive connection with an API key of the bench's tenant
  (a rate limit of its own, high enough never to refuse, so the limiter's write still runs).

Every client warms up, all start together and run the queries back to back (each from its own
offset) for ``--duration`` seconds.  Beside q/s and p50/p95/p99, each row says what the
machine did meanwhile: its CPU busy share (of all cores), the load average, and the CPU seconds
of the clients, the API server's processes and the database's backends.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from http.client import HTTPConnection, RemoteDisconnected
from pathlib import Path
from typing import Any

import numpy as np
import psutil

from bench.search_load import Query, load
from bench.search_peers import Searcher, Spec

PATHS = ("direct", "direct-embed", "http")


def http_searcher(spec: Spec) -> Searcher:
    """``POST /v1/search`` on one keep-alive connection; the answer's chunk ids."""
    host, _, port = spec.location.partition(":")
    connection = HTTPConnection(host, int(port), timeout=600)
    headers = {"Authorization": f"Bearer {spec.options['key']}", "Content-Type": "application/json"}
    mode = spec.system.removeprefix("http-")

    def post(body: str) -> tuple[int, bytes]:
        connection.request("POST", "/v1/search", body, headers)
        response = connection.getresponse()
        return response.status, response.read()

    def run(terms: list[str], _vector: np.ndarray) -> list[int]:
        body = json.dumps({"query": " ".join(terms), "mode": mode, "k": 10})
        try:
            status, answer = post(body)
        except (BrokenPipeError, ConnectionResetError, RemoteDisconnected):
            # gunicorn closes a keep-alive connection idle for 2 s (a client waiting for the
            # others to warm up): open another, as any HTTP client does.
            connection.close()
            status, answer = post(body)
        if status != 200:
            raise RuntimeError(f"/v1/search answered {status}: {answer[:300]!r}")
        return [hit["chunk_id"] for hit in json.loads(answer)["results"]]
    return run


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(url: str, port: int, log: Path, root: Path | None = None,
                 settings: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """``pagemill serve --no-worker`` on the bench's database, once it answers /healthz; from
    the source tree ``root`` (another commit's worktree, to compare two) and with ``settings``
    in its environment."""
    env = {**os.environ, "DATABASE_URL": url,
           "PAGEMILL_HOME": tempfile.mkdtemp(prefix="pagemill-throughput-"), **(settings or {})}
    if root is not None:
        env["PYTHONPATH"] = str(root)
    server = subprocess.Popen([sys.executable, "-m", "app.cli", "serve", "--no-worker",
                               "--port", str(port)], env=env, stdout=log.open("ab"),
                              stderr=subprocess.STDOUT, cwd=root)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"pagemill serve exited with {server.returncode}; see {log}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return server
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"pagemill serve did not answer in 300 s; see {log}")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    try:
        server.wait(60)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def _tree(pid: int) -> list[psutil.Process]:
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def _cpu_seconds(processes: list[psutil.Process]) -> dict[int, float]:
    seconds = {}
    for process in processes:
        try:
            times = process.cpu_times()
            seconds[process.pid] = times.user + times.system
        except psutil.NoSuchProcess:
            continue
    return seconds


def _sessions(engine: Any) -> int:
    """Sessions the bench's database has had since its statistics were reset (PostgreSQL 14+):
    a pool that closes and reopens connections under load shows here."""
    from sqlalchemy import text

    with engine.connect() as conn:
        return int(conn.execute(text(
            "SELECT sessions FROM pg_stat_database WHERE datname = current_database()")).scalar_one())


def machine_meter(server_pid: int | None, postmaster_pid: int,
                  engine: Any) -> Callable[[], Callable[[], dict[str, float]]]:
    """What the machine does between two calls: CPU busy share of all cores, load average,
    the CPU seconds of the API server's processes and of the database's, and the database
    sessions opened."""
    def begin() -> Callable[[], dict[str, float]]:
        sessions = _sessions(engine)
        cpu = psutil.cpu_times()
        server = _cpu_seconds(_tree(server_pid)) if server_pid else {}
        database = _cpu_seconds(_tree(postmaster_pid))
        began = time.monotonic()

        def end() -> dict[str, float]:
            after = psutil.cpu_times()
            idle = (after.idle + after.iowait) - (cpu.idle + cpu.iowait)
            total = sum(after) - sum(cpu)
            server_now = _cpu_seconds(_tree(server_pid)) if server_pid else {}
            database_now = _cpu_seconds(_tree(postmaster_pid))
            return {"busy": 1 - idle / total if total else float("nan"),
                    "load1": os.getloadavg()[0], "elapsed_s": time.monotonic() - began,
                    "server_cpu_s": sum(v - server.get(p, 0.0) for p, v in server_now.items()),
                    "db_cpu_s": sum(v - database.get(p, 0.0) for p, v in database_now.items()),
                    "sessions_opened": _sessions(engine) - sessions}
        return end
    return begin


def profiled(meter: Callable[[], Callable[[], dict[str, float]]], server_pid: int, out: str,
             duration: float) -> Callable[[], Callable[[], dict[str, float]]]:
    """The meter, with py-spy sampling the API's gunicorn worker (the newest process of the
    server's tree) meanwhile; PY_SPY_ARGS adds py-spy's options (``--gil``: only the thread
    holding the GIL, i.e. the process's Python CPU)."""
    def begin() -> Callable[[], dict[str, float]]:
        worker = max(_tree(server_pid), key=lambda p: p.create_time()).pid
        spy = subprocess.Popen([os.environ.get("PY_SPY", "py-spy"), "record", "-p", str(worker), "-r", "50",
                                "-d", str(int(duration)), "-f", "raw", "-o", out, "--nonblocking",
                                *os.environ.get("PY_SPY_ARGS", "").split()],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = meter()

        def finish() -> dict[str, float]:
            measured = end()
            spy.wait()
            return measured
        return finish
    return begin


def _postmaster(pgdata: Path) -> int:
    return int((pgdata / "postmaster.pid").read_text().split()[0])


def _bench_key(engine: Any, tenant_name: str) -> str:
    from app.domain.auth import create_key

    with engine.begin() as conn:
        return create_key(conn, tenant_name, name="bench-throughput", rate_limit_per_minute=100_000_000)


def _row(label: str, clients: int, m: dict[str, float]) -> str:
    cores = psutil.cpu_count() or 1
    return (f"| {label} | {clients} | {m['qps']:.1f} | {m['p50_ms']:.1f} | {m['p95_ms']:.1f} | "
            f"{m['p99_ms']:.1f} | {m['busy'] * 100:.0f} % | {m['load1']:.1f} | "
            f"{m['client_cpu_s'] / m['elapsed_s'] / cores * 100:.0f} % | "
            f"{m['server_cpu_s'] / m['elapsed_s'] / cores * 100:.0f} % | "
            f"{m['db_cpu_s'] / m['elapsed_s'] / cores * 100:.0f} % | {m['sessions_opened']:.0f} |")


HEADER = ("| path / mode | clients | q/s | p50 ms | p95 ms | p99 ms | CPU busy | load1 | "
          "clients' CPU | API's CPU | database's CPU | sessions opened |\n"
          "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")


def main() -> None:
    from bench.database import add_home_argument, search_corpus
    from bench.search import _queries

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=200_000, help="the corpus (built by bench/search.py)")
    parser.add_argument("--clients", default="1,4,16")
    parser.add_argument("--modes", default="bm25,dense,hybrid")
    parser.add_argument("--paths", default="direct,http", help=f"of {', '.join(PATHS)}")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--duration", type=float, default=15.0, help="seconds of each measurement")
    parser.add_argument("--warmup", type=int, default=20, help="untimed queries of each client first")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the rows to FILE")
    parser.add_argument("--label", default="", help="said in each row (which variant this run measures)")
    parser.add_argument("--server-root", type=Path, help="serve the API from this source tree "
                        "(a worktree of another commit); default: this one")
    parser.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting of the API server's environment (repeatable)")
    parser.add_argument("--py-spy", metavar="PREFIX",
                        help="profile the API's worker process during each http measurement with "
                             "py-spy (collapsed stacks to PREFIX-<mode>-<clients>.txt)")
    add_home_argument(parser)
    args = parser.parse_args()
    home = Path(args.home)
    tenant_name = f"search-{args.size}"
    engine, tenant, _ = search_corpus(home, args.size)
    url = engine.url.render_as_string(hide_password=False)
    queries: list[Query] = [(t.split(), v) for t, v in _queries(engine, args.queries)]
    postmaster = _postmaster(home / "pgdata")
    rows: list[dict[str, Any]] = []
    print(f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}: {args.size:,} chunks, "
          f"{len(queries)} queries, {args.duration:.0f} s each, {psutil.cpu_count()} cores; "
          f"CPU shares are of all cores", flush=True)
    print(HEADER, flush=True)
    server = None
    try:
        for path in args.paths.split(","):
            if path == "http":
                port = _free_port()
                settings = dict(item.split("=", 1) for item in args.server_env)
                log = Path(tempfile.gettempdir()) / f"pagemill-throughput-{port}.log"
                server = start_server(url, port, log, args.server_root, settings)
                key = _bench_key(engine, tenant_name)
                # The worker loads the embedder in the background as it starts (seconds of CPU):
                # one dense search waits for it, so that no measurement runs beside the loading.
                http_searcher(Spec("http-dense", f"127.0.0.1:{port}", {"key": key}))(["t1"], queries[0][1])
            for mode in args.modes.split(","):
                for clients in (int(c) for c in args.clients.split(",")):
                    if path == "http":
                        spec = Spec(f"http-{mode}", f"127.0.0.1:{port}", {"key": key})
                    else:
                        spec = Spec(f"pagemill-{mode}", url,
                                    {"tenant": tenant, "embed": path == "direct-embed"})
                    meter = machine_meter(server.pid if server else None, postmaster, engine)
                    if args.py_spy and server is not None:
                        meter = profiled(meter, server.pid, f"{args.py_spy}-{mode}-{clients}.txt",
                                         args.duration)
                    measured = load(spec, queries, clients, args.duration, args.warmup, meter)
                    rows.append({"label": args.label, "path": path, "mode": mode, "clients": clients,
                                 **measured})
                    print(_row(f"{args.label} {path} {mode}".strip(), clients, measured), flush=True)
            if server is not None:
                stop_server(server)
                server = None
    finally:
        if server is not None:
            stop_server(server)
    if args.json:  # appended: alternating runs of two variants go to one file
        earlier = json.loads(args.json.read_text()) if args.json.exists() else []
        args.json.write_text(json.dumps(earlier + rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
