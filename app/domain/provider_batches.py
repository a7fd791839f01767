"""SQL for documents handed to a remote OCR provider's batch API.

A job batch whose job asks for a provider becomes one ``provider_batches`` row; its documents
move to ``waiting`` in the same transaction.  The row remembers the provider's job id once
known, how often it was checked and until when checking may go on, so that any worker can
resume the work where the last one stopped.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection

from app.domain.jobs import WorkDocument
from app.domain.rows import from_row
from app.domain.statements import provider_batches as sql


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
    conn.execute(sql.PARK_DOCUMENTS, {"ids": document_ids})
    row = conn.execute(sql.UPSERT_BATCH, {
        "job": job_id, "batch": batch_no, "provider": provider, "window": window_seconds}).one()
    return str(row.id)


def get(conn: Connection, batch_id: str, lock: bool = False) -> ProviderBatch | None:
    row = conn.execute(sql.batch(lock), {"id": batch_id}).mappings().one_or_none()
    return from_row(ProviderBatch, row) if row else None


def waiting_documents(conn: Connection, job_id: str, batch_no: int) -> list[WorkDocument]:
    rows = conn.execute(sql.WAITING_DOCUMENTS, {"job": job_id, "batch": batch_no}).mappings().all()
    return [WorkDocument.from_row(r) for r in rows]


def record_submission_attempt(conn: Connection, batch_id: str, error: str | None) -> int:
    return int(conn.execute(sql.RECORD_SUBMISSION_ATTEMPT, {"id": batch_id, "error": error}).scalar_one())


def mark_submitted(conn: Connection, batch_id: str, provider_job_id: str, input_file_id: str | None,
                   first_check_seconds: float) -> None:
    conn.execute(sql.MARK_SUBMITTED, {
        "id": batch_id, "job": provider_job_id, "file": input_file_id, "delay": first_check_seconds})


def record_check(conn: Connection, batch_id: str, provider_status: str, next_in_seconds: float) -> None:
    conn.execute(sql.RECORD_CHECK, {"id": batch_id, "status": provider_status, "delay": next_in_seconds})


def claim_collection(conn: Connection, batch_id: str, lease_seconds: float) -> bool:
    """Only one worker downloads and commits a finished batch; a crashed one's claim lapses."""
    row = conn.execute(sql.CLAIM_COLLECTION, {"id": batch_id, "lease": lease_seconds}).one_or_none()
    return row is not None


def finish(conn: Connection, batch_id: str, status: str, provider_status: str | None,
           error: str | None = None, raw_output_key: str | None = None) -> None:
    conn.execute(sql.FINISH_BATCH, {"id": batch_id, "status": status, "pstatus": provider_status,
                                    "error": error, "raw": raw_output_key})


def fail_waiting(conn: Connection, job_id: str, batch_no: int, code: str, message: str) -> int:
    return conn.execute(sql.FAIL_WAITING, {
        "job": job_id, "batch": batch_no, "code": code, "message": message[:2000]}).rowcount


def overdue(conn: Connection, grace_seconds: float) -> list[tuple[str, str]]:
    """(id, status) of open batches whose next step is overdue: their scheduled task was lost."""
    rows = conn.execute(sql.OVERDUE_BATCHES, {"grace": grace_seconds}).all()
    return [(str(r.id), str(r.status)) for r in rows]
