"""The statements of app/domain/provider_batches.py: documents handed to a remote OCR provider's batch
API, and the ``provider_batches`` rows that let any worker resume polling where the last stopped."""

from __future__ import annotations

from sqlalchemy import TextClause, text

#: Claimed documents :ids wait for the provider's batch (only those this worker is processing).
PARK_DOCUMENTS = text("""
        UPDATE documents SET status = 'waiting', updated_at = now()
        WHERE id = ANY(CAST(:ids AS uuid[])) AND status = 'processing'
    """)


#: The provider batch row of job batch (:job, :batch), created with its polling deadline
#: (:window seconds from now) and checked at once; a second hand-over returns the existing row.
UPSERT_BATCH = text("""
        INSERT INTO provider_batches (job_id, batch_no, provider, deadline, next_check_at)
        VALUES (:job, :batch, :provider, now() + make_interval(secs => :window), now())
        ON CONFLICT (job_id, batch_no) DO UPDATE SET job_id = EXCLUDED.job_id
        RETURNING id
    """)


def batch(lock: bool) -> TextClause:
    """Provider batch :id and whether its polling window has closed; ``lock``: FOR UPDATE, for
    a worker about to change it (the row lock orders it after any other)."""
    return text(f"""
        SELECT id, job_id, batch_no, provider, status, provider_job_id, input_file_id,
               provider_status, checks, submit_attempts, deadline, deadline < now() AS expired
        FROM provider_batches WHERE id = CAST(:id AS uuid) {'FOR UPDATE' if lock else ''}
    """)


#: The documents of job batch (:job, :batch) waiting for the provider, as work documents.
WAITING_DOCUMENTS = text("""
        SELECT id, tenant_id, job_id, external_id, object_key, filename, mime_type, sha256, metadata,
               attempts, url, source, status
        FROM documents WHERE job_id = :job AND batch_no = :batch AND status = 'waiting'
        ORDER BY external_id
    """)


#: Count one more submission attempt of batch :id and its error (NULL: none); returns the count.
RECORD_SUBMISSION_ATTEMPT = text("""
        UPDATE provider_batches SET submit_attempts = submit_attempts + 1, error = :error
        WHERE id = CAST(:id AS uuid) RETURNING submit_attempts
    """)


#: The provider accepted batch :id as its job :job (input file :file): first checked in :delay
#: seconds.  Only from 'submitting', so a late duplicate cannot undo a later state.
MARK_SUBMITTED = text("""
        UPDATE provider_batches SET status = 'submitted', provider_job_id = :job,
               input_file_id = :file, submitted_at = coalesce(submitted_at, now()), error = NULL,
               next_check_at = now() + make_interval(secs => :delay)
        WHERE id = CAST(:id AS uuid) AND status = 'submitting'
    """)


#: One more status check of batch :id: the provider's status, and the next check in :delay seconds.
RECORD_CHECK = text("""
        UPDATE provider_batches SET checks = checks + 1, provider_status = :status,
               next_check_at = now() + make_interval(secs => :delay)
        WHERE id = CAST(:id AS uuid)
    """)


#: Claim finished batch :id for collection for :lease seconds: one worker downloads and
#: commits it, and a crashed worker's claim lapses (next_check_at is the lease).  No row: taken.
CLAIM_COLLECTION = text("""
        UPDATE provider_batches SET provider_status = 'COLLECTING',
               next_check_at = now() + make_interval(secs => :lease)
        WHERE id = CAST(:id AS uuid) AND status = 'submitted'
          AND (provider_status IS DISTINCT FROM 'COLLECTING' OR next_check_at < now())
        RETURNING id
    """)


#: Batch :id ends in :status; the provider's status, raw output key kept when not given.
FINISH_BATCH = text("""
        UPDATE provider_batches SET status = :status, provider_status = coalesce(:pstatus, provider_status),
               error = :error, raw_output_key = coalesce(:raw, raw_output_key),
               finished_at = now(), next_check_at = NULL
        WHERE id = CAST(:id AS uuid)
    """)


#: The documents of job batch (:job, :batch) still waiting fail with :code and :message.
FAIL_WAITING = text("""
        UPDATE documents SET status = 'failed', error_code = :code, error_message = :message,
               finished_at = now(), updated_at = now()
        WHERE job_id = :job AND batch_no = :batch AND status = 'waiting'
    """)


#: Open batches whose next step is :grace seconds overdue (their scheduled task was lost),
#: most overdue first, at most 100 a run.
OVERDUE_BATCHES = text("""
        SELECT id, status FROM provider_batches
        WHERE status IN ('submitting', 'submitted')
          AND next_check_at < now() - make_interval(secs => :grace)
        ORDER BY next_check_at LIMIT 100
    """)
