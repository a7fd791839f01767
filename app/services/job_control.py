"""A caller's commands on a job once it is submitted: cancel what is unfinished, retry what
failed.  Called by the API's views (app/api/jobs.py); each step changes rows in one
transaction, and what the workers must learn they learn from those rows (a cancelled document
is skipped or stopped at its next checkpoint) or from the dispatch that follows."""

from __future__ import annotations

from app.domain import jobs
from app.runtime import Runtime
from app.services.dispatch import hand_to_admission


class NothingToRetry(Exception):
    """The job is still running, or none of its documents failed."""


def cancel(runtime: Runtime, tenant_id: str, job_id: str) -> str | None:
    """Cancel the job's unfinished documents (app/domain/jobs.py's ``cancel_job``); the job's
    status afterwards, ``None`` when it is not the tenant's."""
    with runtime.engine.begin() as conn:
        return jobs.cancel_job(conn, tenant_id, job_id)


def retry(runtime: Runtime, tenant_id: str, job_id: str) -> int | None:
    """Put a finished job's failed documents back to pending and hand the job to admission
    again, so its reopened batches wait for slots like new ones; the retry's number, ``None``
    when the job is not the tenant's.  Raises :class:`NothingToRetry`."""
    try:
        with runtime.engine.begin() as conn:
            reopened = jobs.reopen_failed(conn, tenant_id, job_id)
    except ValueError as exc:
        raise NothingToRetry(str(exc)) from exc
    if reopened is None:
        return None
    hand_to_admission(runtime, job_id)
    return reopened[0]
