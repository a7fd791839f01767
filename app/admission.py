"""Fair admission of batches: how many batch tasks of one API key run at once, enforced in
PostgreSQL across every worker process and machine.

A job's batches are written without a slot (``admitted_at IS NULL``) and wait once the job is
handed to admission (``jobs.published_at`` set, by app/dispatch.py's ``hand_to_admission``).
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

The statements are written out below, one per step, each documented; tests/test_admission.py
runs them against hand-made rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, text

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


# name: admit_batches
# Gives free slots to waiting batches and returns them.  ``live``: the slots each key holds
# (admitted batches not done), and how many of them heavy.  ``limits``: each key's limits,
# its own (api_keys.concurrency) or the default; heavy never above the key's total.
# ``heavy_ranked``: a key's waiting heavy batches in admission order; only those that fit
# the heavy limit are candidates (so a heavy backlog never hides the light batches behind
# it).  ``ranked``: the candidates in admission order per key; those that fit the key's total
# limit are admitted, round-robin (every key's first before any key's second) up to :max.
# Serialised by ADMISSION_LOCK (taken first, in the same transaction).
_ADMIT = text("""
WITH live AS (
    SELECT slot_key, count(*) AS used, count(*) FILTER (WHERE heavy) AS used_heavy
    FROM batches
    WHERE admitted_at IS NOT NULL AND status <> 'done'
    GROUP BY slot_key
),
waiting AS (
    SELECT b.job_id, b.batch_no, b.slot_key, b.heavy, b.priority, j.created_at, j.retries
    FROM batches b
    JOIN jobs j ON j.id = b.job_id
    WHERE b.admitted_at IS NULL AND b.status = 'queued' AND j.published_at IS NOT NULL
      AND j.status IN ('queued', 'running')
),
limits AS (
    SELECT w.slot_key,
           coalesce(k.concurrency, CAST(:limit AS int)) AS total,
           least(coalesce(k.concurrency, CAST(:limit AS int)), CAST(:heavy_limit AS int)) AS heavy
    FROM (SELECT DISTINCT slot_key FROM waiting) w
    LEFT JOIN api_keys k ON CAST(k.id AS text) = w.slot_key
),
heavy_ranked AS (
    SELECT w.job_id, w.batch_no,
           row_number() OVER (PARTITION BY w.slot_key
                              ORDER BY w.priority DESC, w.created_at, w.job_id, w.batch_no) AS place
    FROM waiting w WHERE w.heavy
),
candidates AS (
    SELECT w.* FROM waiting w
    LEFT JOIN heavy_ranked h ON h.job_id = w.job_id AND h.batch_no = w.batch_no
    LEFT JOIN live l ON l.slot_key = w.slot_key
    JOIN limits m ON m.slot_key = w.slot_key
    WHERE NOT w.heavy OR h.place + coalesce(l.used_heavy, 0) <= m.heavy
),
ranked AS (
    SELECT c.job_id, c.batch_no, c.retries, c.priority, c.slot_key,
           row_number() OVER (PARTITION BY c.slot_key
                              ORDER BY c.priority DESC, c.created_at, c.job_id, c.batch_no) AS place
    FROM candidates c
),
chosen AS (
    SELECT r.job_id, r.batch_no
    FROM ranked r
    LEFT JOIN live l ON l.slot_key = r.slot_key
    JOIN limits m ON m.slot_key = r.slot_key
    WHERE r.place + coalesce(l.used, 0) <= m.total
    ORDER BY r.place, r.priority DESC, r.slot_key
    LIMIT :max
)
UPDATE batches b SET admitted_at = now()
FROM chosen c, jobs j
WHERE b.job_id = c.job_id AND b.batch_no = c.batch_no AND j.id = b.job_id
RETURNING b.job_id, b.batch_no, j.retries, b.priority, j.request_id, b.media_documents
""")

# name: mark_batches_published
# The tasks of these admitted batches are in the broker.
_MARK_PUBLISHED = text("""
UPDATE batches b SET published_at = now()
FROM unnest(CAST(:jobs AS uuid[]), CAST(:numbers AS int[])) AS p(job_id, batch_no)
WHERE b.job_id = p.job_id AND b.batch_no = p.batch_no
""")

# name: admitted_unpublished
# Slots given but never published (the publisher died between commit and publish, or the
# broker was down): older than :age, of jobs still running.
_UNPUBLISHED = text("""
SELECT b.job_id, b.batch_no, j.retries, b.priority, j.request_id, b.media_documents
FROM batches b JOIN jobs j ON j.id = b.job_id
WHERE b.admitted_at IS NOT NULL AND b.published_at IS NULL AND b.status = 'queued'
  AND b.admitted_at < now() - make_interval(secs => :age)
  AND j.status IN ('queued', 'running')
ORDER BY b.admitted_at
LIMIT 500
""")

def admit(conn: Connection, limit: int, heavy_limit: int, max_batches: int = 500) -> list[AdmittedBatch]:
    """Give free slots to waiting batches (in this transaction); the caller publishes them
    after the commit and then calls :func:`mark_published`."""
    conn.execute(text("SELECT pg_advisory_xact_lock(:lock)"), {"lock": ADMISSION_LOCK})
    rows = conn.execute(_ADMIT, {"limit": limit, "heavy_limit": heavy_limit, "max": max_batches}).all()
    return [_admitted(r) for r in rows]


def _admitted(row: Any) -> AdmittedBatch:
    return AdmittedBatch(str(row.job_id), int(row.batch_no), int(row.retries), int(row.priority),
                         row.request_id, int(row.media_documents))


def mark_published(conn: Connection, batches: Sequence[AdmittedBatch]) -> None:
    if batches:
        conn.execute(_MARK_PUBLISHED, {"jobs": [b.job_id for b in batches],
                                       "numbers": [b.batch_no for b in batches]})


def admitted_unpublished(conn: Connection, older_than_seconds: float) -> list[AdmittedBatch]:
    rows = conn.execute(_UNPUBLISHED, {"age": older_than_seconds}).all()
    return [_admitted(r) for r in rows]
