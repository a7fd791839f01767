"""Broker transports side by side, in one run on this machine.

    python bench/broker.py [--messages 2000] [--latency-samples 100] [--transport-only]

Compares kombu's stock SQLAlchemy transport, kombu's PGMQ transport, pagemill's
transport (tasks/broker) and Redis (when a server answers on localhost:6379), all on
the same embedded PostgreSQL.  For each: enqueue rate (one publisher), drain rate of a
backlog with one worker of 2 processes (first to last task start), and publish-to-start
latency of tasks sent one at a time to an idle worker.  Prints a Markdown table.

``--transport-only`` measures the transports without Celery: plain kombu publishing, then two
consumer processes (prefetch 8, ack per message) draining the backlog -- the transport's own
capacity, which a Celery worker's per-task overhead otherwise hides.
"""

from __future__ import annotations

import argparse
import importlib
import json
import multiprocessing
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kombu.transport import TRANSPORT_ALIASES  # noqa: E402

from app.config import to_libpq_url  # noqa: E402
from app.infra.db import upgrade_schema  # noqa: E402
from app.infra.embedded import start_embedded  # noqa: E402

# Plain kombu connections (--transport-only) find pagemill's transport by its URL scheme.
TRANSPORT_ALIASES.setdefault("pagemill", "tasks.broker:Transport")


def _redis_available() -> bool:
    try:
        import redis  # noqa: F401
    except ImportError:
        return False
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
        return True
    except OSError:
        return False


def _pgmq_available(dsn: str) -> bool:
    try:
        from pgmq.install import install_pgmq_from_sql
    except ImportError:
        return False
    with psycopg.connect(dsn) as conn:
        installed = conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = 'pgmq'").fetchone()
        if not installed:
            install_pgmq_from_sql(conn=conn)
            conn.commit()
    return True


def _worker(env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "bench.broker_app", "worker", "--concurrency=2",
         "--loglevel=ERROR", "--without-gossip", "--without-mingle", "--without-heartbeat",
         f"--hostname=bench-{os.getpid()}@%h"],
        env=env, cwd=ROOT, start_new_session=True, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _count(dsn: str, label: str) -> int:
    with psycopg.connect(dsn) as conn:
        return conn.execute("SELECT count(*) FROM bench_runs WHERE label = %s",
                            (label,)).fetchone()[0]


def _wait(dsn: str, label: str, n: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if _count(dsn, label) >= n:
            return True
        time.sleep(0.2)
    return False


def run_one(name: str, broker_url: str, options: dict, dsn: str, messages: int,
            samples: int) -> dict[str, float | str]:
    env = {**os.environ, "BENCH_BROKER_URL": broker_url, "BENCH_RESULTS_DSN": dsn,
           "BENCH_TRANSPORT_OPTIONS": json.dumps(options), "PYTHONPATH": str(ROOT)}
    os.environ.update({k: env[k] for k in ("BENCH_BROKER_URL", "BENCH_TRANSPORT_OPTIONS",
                                            "BENCH_RESULTS_DSN")})
    # A fresh module per transport: the app reads its broker URL at import.
    broker_app = importlib.reload(importlib.import_module("bench.broker_app"))

    label = f"{name}-{time.time_ns()}"
    with broker_app.app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=3)
        producer = broker_app.app.amqp.Producer(conn)
        broker_app.touch.apply_async((label, -1, time.time()), producer=producer)  # warm-up
        started = time.perf_counter()
        for n in range(messages):
            broker_app.touch.apply_async((label, n, time.time()), producer=producer)
        enqueue_rate = messages / (time.perf_counter() - started)

    worker = _worker(env)
    try:
        if not _wait(dsn, label, messages + 1, timeout=600):
            return {"transport": name, "error": "backlog not drained in 600 s"}
        with psycopg.connect(dsn) as db:
            first, last = db.execute(
                "SELECT min(started), max(started) FROM bench_runs WHERE label = %s AND n >= 0",
                (label,)).fetchone()
        drain_rate = messages / max(last - first, 1e-9)

        latency_label = label + "-lat"
        with broker_app.app.connection_for_write() as conn:
            producer = broker_app.app.amqp.Producer(conn)
            for n in range(samples):
                broker_app.touch.apply_async((latency_label, n, time.time()), producer=producer)
                time.sleep(0.05)
        if not _wait(dsn, latency_label, samples, timeout=120):
            return {"transport": name, "error": "latency tasks not all run"}
        with psycopg.connect(dsn) as db:
            lat = [r[0] * 1000 for r in db.execute(
                "SELECT started - published FROM bench_runs WHERE label = %s",
                (latency_label,))]
    finally:
        _stop(worker)
    left = "-"
    if name == "pagemill":
        with psycopg.connect(dsn) as db:
            left = str(db.execute("SELECT count(*) FROM broker_messages").fetchone()[0])
    lat.sort()
    return {"transport": name, "enqueue/s": enqueue_rate, "drain/s": drain_rate,
            "p50 ms": statistics.median(lat), "p95 ms": lat[int(len(lat) * 0.95) - 1],
            "rows left": left}


def _consume(url: str, options: dict, queue: str, report: multiprocessing.Queue) -> None:
    """One consumer process: drain `queue`, ack each message, then report what it saw."""
    from kombu import Connection, Consumer, Queue

    seen: list[int] = []
    times: list[float] = []

    def on_message(body: dict, message) -> None:
        times.append(time.time())
        seen.append(body["n"])
        message.ack()

    with Connection(url, transport_options=options) as conn:
        with Consumer(conn.default_channel, queues=[Queue(queue, routing_key=queue)],
                      callbacks=[on_message], prefetch_count=8, accept=["json"]):
            idle_since = time.monotonic()
            while time.monotonic() - idle_since < 3:
                try:
                    conn.drain_events(timeout=0.5)
                    idle_since = time.monotonic()
                except TimeoutError:
                    pass
    report.put({"count": len(seen), "sum": sum(seen), "distinct": len(set(seen)),
                "first": min(times, default=0), "last": max(times, default=0)})


def run_transport_only(name: str, url: str, options: dict, messages: int,
                       consumers: int = 2) -> dict[str, float | str]:
    from kombu import Connection, Exchange, Producer, Queue

    queue_name = f"raw-{time.time_ns()}"
    queue = Queue(queue_name, Exchange(queue_name, type="direct"), routing_key=queue_name)
    with Connection(url, transport_options=options) as conn:
        producer = Producer(conn.default_channel)
        queue(conn.default_channel).declare()
        started = time.perf_counter()
        for n in range(messages):
            producer.publish({"n": n}, exchange=queue.exchange, routing_key=queue_name,
                             serializer="json", declare=[queue] if n == 0 else None)
        enqueue_rate = messages / (time.perf_counter() - started)
    # Fresh interpreters, as workers would be: nothing of the publisher's connection is shared.
    spawn = multiprocessing.get_context("spawn")
    report = spawn.Queue()
    procs = [spawn.Process(target=_consume, args=(url, options, queue_name, report))
             for _ in range(consumers)]
    for proc in procs:
        proc.start()
    results = [report.get(timeout=900) for _ in procs]
    for proc in procs:
        proc.join()
    got = [r for r in results if r["count"]]
    count = sum(r["count"] for r in results)
    exactly_once = (count == messages and sum(r["distinct"] for r in results) == messages
                    and sum(r["sum"] for r in results) == messages * (messages - 1) // 2)
    span = max(r["last"] for r in got) - min(r["first"] for r in got) if got else 0.0
    return {"transport": name, "enqueue/s": enqueue_rate, "drain/s": count / max(span, 1e-9),
            "delivered": f"{count}/{messages}" + ("" if exactly_once else " (duplicates or gaps)")}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--latency-samples", type=int, default=100)
    parser.add_argument("--only", default="", help="comma-separated subset of transports")
    parser.add_argument("--transport-only", action="store_true",
                        help="plain kombu consumers instead of a Celery worker")
    args = parser.parse_args()

    home = Path(tempfile.mkdtemp(prefix="pm-bench-", dir="/tmp"))
    url = start_embedded(home / "pgdata", database="bench")
    upgrade_schema(url)  # pagemill's transport creates no tables: they come from the migrations
    dsn = to_libpq_url(url)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS bench_runs (label text, n int, "
                     "published float8, started float8)")

    candidates = [
        ("stock sqlalchemy", "sqla+" + url, {}),
        # pgmq-py ignores ?host= in URIs: give it libpq key=value form.
        ("pgmq (kombu)", "pgmq://postgres@localhost/bench",
         {"conn_string": f"host={dsn.split('host=', 1)[1]} dbname=bench user=postgres",
          "init_extension": False}),
        ("pagemill", "pagemill+" + url, {}),
        ("redis", "redis://127.0.0.1:6379/15", {}),
    ]
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    rows = []
    for name, broker_url, options in candidates:
        if only and not any(o in name for o in only):
            continue
        if name == "redis" and not _redis_available():
            print(f"skipping {name}: no server on localhost:6379 or no redis package",
                  file=sys.stderr)
            continue
        if name.startswith("pgmq") and not _pgmq_available(dsn):
            print(f"skipping {name}: pip install 'kombu[pgmq]'", file=sys.stderr)
            continue
        print(f"running {name} ...", file=sys.stderr, flush=True)
        if args.transport_only:
            rows.append(run_transport_only(name, broker_url, options, args.messages))
        else:
            rows.append(run_one(name, broker_url, options, dsn, args.messages, args.latency_samples))

    if args.transport_only:
        print(f"\n{args.messages} messages, plain kombu: 1 publisher, then 2 consumer processes "
              "(prefetch 8, one ack per message)\n")
        print("| transport | enqueue/s | drain/s | delivered exactly once |")
        print("|---|---|---|---|")
        for row in rows:
            print(f"| {row['transport']} | {row['enqueue/s']:.0f} | {row['drain/s']:.0f} | "
                  f"{row['delivered']} |")
        return

    print(f"\n{args.messages} messages, 1 publisher, 1 worker x 2 processes (prefetch 4), "
          f"{args.latency_samples} latency samples\n")
    print("| transport | enqueue/s | drain/s | p50 publish→start ms | p95 ms | rows left |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        if "error" in row:
            print(f"| {row['transport']} | {row['error']} | | | | |")
            continue
        print(f"| {row['transport']} | {row['enqueue/s']:.0f} | {row['drain/s']:.0f} | "
              f"{row['p50 ms']:.1f} | {row['p95 ms']:.1f} | {row['rows left']} |")


if __name__ == "__main__":
    main()
