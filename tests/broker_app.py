"""A small Celery app on pagemill's broker transport, for the broker's failure tests.

``record(n, seconds)`` notes its start, sleeps, then notes its completion in
``broker_test_runs``; the tests count what ran and what was lost.
``reject_until_redelivered(run)`` is Celery's own integration case: it rejects its message
with requeue unless the request says it was redelivered.
"""

from __future__ import annotations

import os
import time

from celery import Celery
from celery.exceptions import Reject
from kombu.transport import TRANSPORT_ALIASES
from sqlalchemy import create_engine, text

TRANSPORT_ALIASES.setdefault("pagemill", "tasks.broker:Transport")

DATABASE_URL = os.environ["DATABASE_URL"]

# Not the current app: pagemill's own tasks in the test process must keep theirs.
app = Celery("broker_test", broker="pagemill+" + DATABASE_URL, set_as_current=False)
app.conf.update(
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=int(os.environ.get("BROKER_TEST_PREFETCH", "4")),
    broker_transport_options={
        "visibility_timeout": float(os.environ.get("BROKER_TEST_VISIBILITY", "3")),
    },
    task_default_queue=os.environ.get("BROKER_TEST_QUEUE", "broker-test"),
    broker_connection_retry_on_startup=True,
    worker_hijack_root_logger=False,
)

_engine = None


def _db():
    global _engine
    if _engine is None:
        _engine = create_engine(DATABASE_URL, pool_size=1)
    return _engine


def _note(run: str, n: int, phase: str) -> None:
    with _db().begin() as conn:
        conn.execute(text("INSERT INTO broker_test_runs (run, n, phase, pid) "
                          "VALUES (:run, :n, :phase, :pid)"),
                     {"run": run, "n": n, "phase": phase, "pid": os.getpid()})


@app.task(name="broker_test.record")
def record(run: str, n: int, seconds: float) -> int:
    _note(run, n, "start")
    time.sleep(seconds)
    _note(run, n, "done")
    return n


@app.task(name="broker_test.reject_until_redelivered", bind=True)
def reject_until_redelivered(self, run: str) -> bool:
    """Celery's ``test_reject_with_requeue_redelivers_and_succeeds``: without the flag where
    Celery reads it, this rejects itself until the broker dead-letters it."""
    redelivered = bool((self.request.delivery_info or {}).get("redelivered"))
    _note(run, 0, "redelivered" if redelivered else "first")
    if not redelivered:
        raise Reject("not redelivered yet", requeue=True)
    _note(run, 0, "done")
    return True
