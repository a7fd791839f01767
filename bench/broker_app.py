"""The Celery app the broker benchmark runs: one task that records when it started."""

from __future__ import annotations

import json
import os
import time

import psycopg
from celery import Celery
from kombu.transport import TRANSPORT_ALIASES

TRANSPORT_ALIASES.setdefault("pagemill", "tasks.broker:Transport")

app = Celery("bench", broker=os.environ["BENCH_BROKER_URL"], set_as_current=False)
app.conf.update(
    task_acks_late=True,
    worker_prefetch_multiplier=4,
    task_default_queue="bench",
    broker_transport_options=json.loads(os.environ.get("BENCH_TRANSPORT_OPTIONS", "{}")),
    broker_connection_retry_on_startup=True,
    worker_hijack_root_logger=False,
)

_conn: psycopg.Connection | None = None


@app.task(name="bench.touch")
def touch(label: str, n: int, published: float) -> None:
    global _conn
    started = time.time()
    if _conn is None:
        _conn = psycopg.connect(os.environ["BENCH_RESULTS_DSN"], autocommit=True)
    _conn.execute("INSERT INTO bench_runs (label, n, published, started) VALUES (%s, %s, %s, %s)",
                  (label, n, published, started))
