"""The statements of app/domain/admission.py: fair admission of batches, one statement per step,
serialised by a transaction-scoped advisory lock."""

from __future__ import annotations

from sqlalchemy import text

#: Serialises admission runs until the transaction ends (:lock is app.domain.admission.ADMISSION_LOCK),
#: so two runs never give the same slot.
TAKE_ADMISSION_LOCK = text("SELECT pg_advisory_xact_lock(:lock)")


#: Gives free slots to waiting batches and returns them.  ``live``: the slots each key holds
#: (admitted batches not done), and how many of them heavy.  ``limits``: each key's limits,
#: its own (api_keys.concurrency) or the default; heavy never above the key's total.
#: ``heavy_ranked``: a key's waiting heavy batches in admission order; only those that fit
#: the heavy limit are candidates (so a heavy backlog never hides the light batches behind
#: it).  ``ranked``: the candidates in admission order per key; those that fit the key's total
#: limit are admitted, round-robin (every key's first before any key's second) up to :max.
#: Serialised by ADMISSION_LOCK (taken first, in the same transaction).
ADMIT_BATCHES = text("""
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
    WHERE b.admitted_at IS NULL AND b.status = 'queued' AND j.handed_at IS NOT NULL
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
RETURNING b.job_id, b.batch_no, j.retries, b.priority, j.request_id, j.traceparent, b.media_documents
""")


#: The tasks of these admitted batches are in the broker.
MARK_BATCHES_PUBLISHED = text("""
UPDATE batches b SET published_at = now()
FROM unnest(CAST(:jobs AS uuid[]), CAST(:numbers AS int[])) AS p(job_id, batch_no)
WHERE b.job_id = p.job_id AND b.batch_no = p.batch_no
""")


#: Slots given but never published (the publisher died between commit and publish, or the
#: broker was down): older than :age, of jobs still running.
ADMITTED_UNPUBLISHED = text("""
SELECT b.job_id, b.batch_no, j.retries, b.priority, j.request_id, j.traceparent, b.media_documents
FROM batches b JOIN jobs j ON j.id = b.job_id
WHERE b.admitted_at IS NOT NULL AND b.published_at IS NULL AND b.status = 'queued'
  AND b.admitted_at < now() - make_interval(secs => :age)
  AND j.status IN ('queued', 'running')
ORDER BY b.admitted_at
LIMIT 500
""")
