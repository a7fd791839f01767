"""SQL for documents handed to a remote OCR provider's batch API.

A job batch whose job asks for a provider becomes one ``provider_batches`` row; its documents
move to ``waiting`` in the same transaction.  The row remembers the provider's job id once
known, how often it was checked and until when checking may go on, so that any worker can
resume the work where the last one stopped.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, text

from app.jobs import WorkDocument
from app.rows import from_row


@dataclass(frozen=True)
class ProviderBatch:
    id: str
    job_id: str
    batch_no: int
    provider: str
    # submitting -> submitted -> succeeded | failed | timed_out
    status: str
    provider_job_id: str | None
    input_file_id: str | None
    provider_status: str | None
    checks: int
    submit_attempts: int
    # The polling window has closed.
    expired: bool


def hand_over(conn: Connection, job_id: str, batch_no: int, document_ids: list[str], provider: str,
              window_seconds: float) -> str:
    """Move claimed documents to ``waiting`` and return the batch row's id (existing or new)."""
    conn.execute(text("""
        UPDATE documents SET status = 'waiting', updated_at = now()
        WHERE id = ANY(CAST(:ids AS uuid[])) AND status = 'processing'
    """), {"ids": document_ids})
    row = conn.execute(text("""
        INSERT INTO provider_batches (job_id, batch_no, provider, deadline, next_check_at)
        VALUES (:job, :batch, :provider, now() + make_interval(secs => :window), now())
        ON CONFLICT (job_id, batch_no) DO UPDATE SET job_id = EXCLUDED.job_id
        RETURNING id
    """), {"job": job_id, "batch": batch_no, "provider": provider, "window": window_seconds}).one()
    return str(row.id)


def get(conn: Connection, batch_id: str, lock: bool = False) -> ProviderBatch | None:
    row = conn.execute(text(f"""
        SELECT id, job_id, batch_no, provider, status, provider_job_id, input_file_id,
               provider_status, checks, submit_attempts, deadline, deadline < now() AS expired
        FROM provider_batches WHERE id = CAST(:id AS uuid) {'FOR UPDATE' if lock else ''}
    """), {"id": batch_id}).mappings().one_or_none()
    return from_row(ProviderBatch, row) if row else None


def waiting_documents(conn: Connection, job_id: str, batch_no: int) -> list[WorkDocument]:
    rows = conn.execute(text("""
        SELECT id, tenant_id, job_id, external_id, object_key, filename, mime_type, sha256, metadata,
               attempts, url, source, status
        FROM documents WHERE job_id = :job AND batch_no = :batch AND status = 'waiting'
        ORDER BY external_id
    """), {"job": job_id, "batch": batch_no}).mappings().all()
    return [WorkDocument.from_row(r) for r in rows]


def record_submission_attempt(conn: Connection, batch_id: str, error: str | None) -> int:
    return int(conn.execute(text("""
        UPDATE provider_batches SET submit_attempts = submit_attempts + 1, error = :error
        WHERE id = CAST(:id AS uuid) RETURNING submit_attempts
    """), {"id": batch_id, "error": error}).scalar_one())


def mark_submitted(conn: Connection, batch_id: str, provider_job_id: str, input_file_id: str | None,
                   first_check_seconds: float) -> None:
    conn.execute(text("""
        UPDATE provider_batches SET status = 'submitted', provider_job_id = :job,
               input_file_id = :file, submitted_at = coalesce(submitted_at, now()), error = NULL,
               next_check_at = now() + make_interval(secs => :delay)
        WHERE id = CAST(:id AS uuid) AND status = 'submitting'
    """), {"id": batch_id, "job": provider_job_id, "file": input_file_id, "delay": first_check_seconds})


def record_check(conn: Connection, batch_id: str, provider_status: str, next_in_seconds: float) -> None:
    conn.execute(text("""
        UPDATE provider_batches SET checks = checks + 1, provider_status = :status,
               next_check_at = now() + make_interval(secs => :delay)
        WHERE id = CAST(:id AS uuid)
    """), {"id": batch_id, "status": provider_status, "delay": next_in_seconds})


def claim_collection(conn: Connection, batch_id: str, lease_seconds: float) -> bool:
    """Only one worker downloads and commits a finished batch; a crashed one's claim lapses."""
    row = conn.execute(text("""
        UPDATE provider_batches SET provider_status = 'COLLECTING',
               next_check_at = now() + make_interval(secs => :lease)
        WHERE id = CAST(:id AS uuid) AND status = 'submitted'
          AND (provider_status IS DISTINCT FROM 'COLLECTING' OR next_check_at < now())
        RETURNING id
    """), {"id": batch_id, "lease": lease_seconds}).one_or_none()
    return row is not None


def finish(conn: Connection, batch_id: str, status: str, provider_status: str | None,
           error: str | None = None, raw_output_key: str | None = None) -> None:
    conn.execute(text("""
        UPDATE provider_batches SET status = :status, provider_status = coalesce(:pstatus, provider_status),
               error = :error, raw_output_key = coalesce(:raw, raw_output_key),
               finished_at = now(), next_check_at = NULL
        WHERE id = CAST(:id AS uuid)
    """), {"id": batch_id, "status": status, "pstatus": provider_status, "error": error,
           "raw": raw_output_key})


def fail_waiting(conn: Connection, job_id: str, batch_no: int, code: str, message: str) -> int:
    return conn.execute(text("""
        UPDATE documents SET status = 'failed', error_code = :code, error_message = :message,
               finished_at = now(), updated_at = now()
        WHERE job_id = :job AND batch_no = :batch AND status = 'waiting'
    """), {"job": job_id, "batch": batch_no, "code": code, "message": message[:2000]}).rowcount


def overdue(conn: Connection, grace_seconds: float) -> list[tuple[str, str]]:
    """(id, status) of open batches whose next step is overdue: their scheduled task was lost."""
    rows = conn.execute(text("""
        SELECT id, status FROM provider_batches
        WHERE status IN ('submitting', 'submitted')
          AND next_check_at < now() - make_interval(secs => :grace)
        ORDER BY next_check_at LIMIT 100
    """), {"grace": grace_seconds}).all()
    return [(str(r.id), str(r.status)) for r in rows]
