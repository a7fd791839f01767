"""Fair admission of batches: how many batch tasks of one API key run at once, enforced in
PostgreSQL across every worker process and machine.

A job's batches are written without a slot (``admitted_at IS NULL``) and wait once the job is
handed to admission (``jobs.handed_at`` set, by app/services/dispatch.py's ``hand_to_admission``).
:func:`admit` gives free slots to waiting batches and returns them; the caller publishes their
tasks and marks them published. A key holds one slot per admitted batch until the batch is
done; it may hold ``PAGEMILL_KEY_CONCURRENCY`` slots (its own ``api_keys.concurrency`` if
set), of which at most ``PAGEMILL_KEY_CONCURRENCY_HEAVY`` for heavy batches (remote OCR, audio
and video). Work that has no slot is never handed to a worker: no worker process waits on it
and no prefetch buffer fills with it, so one key's backlog of 200 batches queues ahead of
nobody -- another key's single batch is admitted, and published, at once (its key has free
slots), and sits behind at most the slots of the other keys in the broker.

Slots are given round-robin across keys (Hatchet's GROUP_ROUND_ROBIN): every key's first
waiting batch before any key's second, and within a key by priority (sync parse first), then
by job age and batch number.  Admission runs after a job is written, after every batch
finishes (in the task that finished it), and from the reconciler as a safety net; each run
is serialised by a transaction-scoped advisory lock, so two runs never give the same slot.

A slot is held by a batch, not by a worker: when a worker dies holding one, the broker's lease
gives the batch's task to another worker, which runs it in the same slot.  A slot given but
never published (the publisher died between the two) is published again by the reconciler.

The statements are in app/domain/statements/admission.py, one per step, each documented;
tests/test_admission.py runs them against hand-made rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection

from app.domain.statements import admission as sql

# Remote OCR providers' batch APIs: a job asking for one is of the heavy kind.
HEAVY_PROVIDERS = frozenset({"mistral-batch"})
# pg_advisory_xact_lock key of admission runs ('pgma').
ADMISSION_LOCK = 0x70676D61


def slot_key(api_key_id: str | None, tenant_id: str) -> str:
    """The concurrency group of a job: the API key that submitted it, else its tenant (CLI)."""
    return api_key_id if api_key_id else f"tenant:{tenant_id}"


@dataclass(frozen=True)
class AdmittedBatch:
    job_id: str
    batch_no: int
    retry: int  # the job's retry number: its task id is <job>:<batch>[:r<retry>]
    priority: int
    request_id: str | None  # of the request that created the job, for the task's logs
    media_documents: int = 0  # audio and video in it: the media queue, a longer time limit
    # The trace the job's tasks join (app/infra/traces.py); None when its submitter did not trace.
    traceparent: str | None = None


def admit(conn: Connection, limit: int, heavy_limit: int, max_batches: int = 500) -> list[AdmittedBatch]:
    """Give free slots to waiting batches (in this transaction); the caller publishes them
    after the commit and then calls :func:`mark_published`."""
    conn.execute(sql.TAKE_ADMISSION_LOCK, {"lock": ADMISSION_LOCK})
    rows = conn.execute(sql.ADMIT_BATCHES,
                        {"limit": limit, "heavy_limit": heavy_limit, "max": max_batches}).all()
    return [_admitted(r) for r in rows]


def _admitted(row: Any) -> AdmittedBatch:
    return AdmittedBatch(str(row.job_id), int(row.batch_no), int(row.retries), int(row.priority),
                         row.request_id, int(row.media_documents), row.traceparent)


def mark_published(conn: Connection, batches: Sequence[AdmittedBatch]) -> None:
    if batches:
        conn.execute(sql.MARK_BATCHES_PUBLISHED, {"jobs": [b.job_id for b in batches],
                                       "numbers": [b.batch_no for b in batches]})


def admitted_unpublished(conn: Connection, older_than_seconds: float) -> list[AdmittedBatch]:
    rows = conn.execute(sql.ADMITTED_UNPUBLISHED, {"age": older_than_seconds}).all()
    return [_admitted(r) for r in rows]
