"""Webhook delivery throughput: events per second sent to a local receiver, and what the
fan-out adds to the transaction that writes an event.

    python bench/webhooks.py [--events 2000] [--endpoints 1]

On a fresh embedded PostgreSQL in a temporary home: one tenant with ``--endpoints`` endpoints
subscribed to ``job.completed``, ``--events`` job events written the way a job's status change
writes them (the trigger of migration 0016, one UPDATE per job), then one delivery loop
(tasks.webhooks.deliver_due: claims of 10 with SKIP LOCKED, 10 requests in flight) drains them
to a threaded HTTP receiver on 127.0.0.1 (its own process) answering 200.  Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import tempfile
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import text  # noqa: E402

from app.config import Config  # noqa: E402
from app.domain.auth import ensure_tenant  # noqa: E402
from app.domain.secret_options import fernet  # noqa: E402
from app.infra.db import get_engine, upgrade_schema  # noqa: E402
from app.infra.embedded import start_embedded, stop_embedded  # noqa: E402
from app.infra.webhook_signing import new_secret  # noqa: E402
from tasks.webhooks import deliver_due  # noqa: E402


def _serve(port: Any, received: Any) -> None:
    """The receiver, in a process of its own: sharing the sender's interpreter lock, its
    threads would measure the lock's hand-offs, not the delivery."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with received.get_lock():
                received.value += 1
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_: Any) -> None:
            pass

    class Server(ThreadingHTTPServer):
        # socketserver's backlog of 5 drops the SYNs of 10 concurrent senders (a 1 s retry).
        request_queue_size = 128
        daemon_threads = True

    server = Server(("127.0.0.1", 0), Handler)
    port.value = server.server_address[1]
    server.serve_forever()


def _receiver() -> tuple[multiprocessing.Process, Any, int]:
    port, received = multiprocessing.Value("i", 0), multiprocessing.Value("i", 0)
    process = multiprocessing.Process(target=_serve, args=(port, received), daemon=True)
    process.start()
    while not port.value:
        time.sleep(0.05)
    return process, received, int(port.value)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--endpoints", type=int, default=1)
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="pm-wh-"))
    url = start_embedded(home / "pgdata", database="pagemill")
    try:
        upgrade_schema(url)
        engine = get_engine(url)
        from cryptography.fernet import Fernet

        config = Config.from_env({"PAGEMILL_HOME": str(home)}).with_overrides(
            database={"url": url}, urls={"allow_http": True, "allow_loopback": True},
            secrets={"key": Fernet.generate_key().decode()})
        server, received, port = _receiver()
        hook_url = f"http://127.0.0.1:{port}/hook"
        token = fernet(config).encrypt(new_secret().encode()).decode()
        with engine.begin() as conn:
            tenant = ensure_tenant(conn, "bench")
            for _ in range(args.endpoints):
                conn.execute(text("""
                    INSERT INTO webhook_endpoints (tenant_id, url, events, secret)
                    VALUES (:t, :u, ARRAY['job.completed'], :s)"""), {"t": tenant, "u": hook_url, "s": token})
            ids = [str(uuid.uuid4()) for _ in range(args.events)]
            conn.execute(text("""
                INSERT INTO jobs (id, tenant_id, total_documents, batch_size, options, status)
                SELECT CAST(i AS uuid), :t, 0, 1, '{}', 'running' FROM unnest(CAST(:ids AS text[])) i
            """), {"t": tenant, "ids": ids})
        started = time.perf_counter()
        for job_id in ids:  # one transaction per status change, as a finalising task makes it
            with engine.begin() as conn:
                conn.execute(text("UPDATE jobs SET status = 'completed' WHERE id = CAST(:j AS uuid)"),
                             {"j": job_id})
        written = time.perf_counter() - started
        expected = args.events * args.endpoints
        started = time.perf_counter()
        while received.value < expected:
            deliver_due(engine, config, run_seconds=60.0)
        sent = time.perf_counter() - started
        print("| events | endpoints | status change + event + fan-out, per job | deliveries/s |")
        print("|---|---|---|---|")
        print(f"| {args.events} | {args.endpoints} | {written / args.events * 1000:.2f} ms | "
              f"{expected / sent:.0f} |")
        server.terminate()
        engine.dispose()
    finally:
        stop_embedded(home / "pgdata")


if __name__ == "__main__":
    main()
