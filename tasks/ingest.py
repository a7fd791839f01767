"""Celery tasks of the ingestion pipeline: thin wrappers over :mod:`tasks.pipeline`."""

from __future__ import annotations

import logging

from celery import Task, chord
from celery.signals import worker_ready
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError

from app import jobs
from tasks.celery_app import app
from tasks.pipeline import process_batch
from tasks.runtime import get_runtime

log = logging.getLogger(__name__)


@worker_ready.connect
def log_capabilities(**_: object) -> None:
    """Say once, at start-up, which engines this worker lacks and why (fallbacks follow)."""
    from extractors.capabilities import check_all

    for capability in check_all(get_runtime().config.extract_options()):
        log.log(logging.INFO if capability.available else logging.WARNING,
                "extraction engine %s: %s", capability.engine, capability.detail,
                extra={"engine": capability.engine, "available": capability.available})


@app.task(
    name="pagemill.ingest_batch",
    bind=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=8,
)
def ingest_batch(self: Task, job_id: str, batch_no: int) -> dict[str, int]:
    runtime = get_runtime()
    log.info("ingest_batch", extra={"job_id": job_id, "batch_id": f"{job_id}:{batch_no}",
                                    "task_id": self.request.id})
    outcome = process_batch(runtime.engine, runtime.storage, runtime.config, job_id, batch_no,
                            extractor=runtime.extractor)
    if outcome.provider_batch is not None:
        from tasks.provider import provider_submit

        provider_submit.delay(outcome.provider_batch)
    return {"completed": outcome.completed, "failed": outcome.failed,
            "unchanged": outcome.unchanged, "waiting": outcome.waiting}


@app.task(
    name="pagemill.finalize_job",
    bind=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=8,
)
def finalize_job(self: Task, _results: object, job_id: str) -> str | None:
    runtime = get_runtime()
    with runtime.engine.begin() as conn:
        status = jobs.finalize_job(conn, job_id)
    log.info("job finalised", extra={"job_id": job_id, "task_id": self.request.id,
                                     "status": status})
    return status


def publish_job(job_id: str, batch_count: int, batches: list[int] | None = None,
                retry: int = 0, priority: int = 0) -> None:
    """Enqueue a job as a chord: one task per batch, with deterministic task ids
    ``<job>:<batch>`` (``<job>:<batch>:r<n>`` for the n-th retry, so a retry never meets
    the results of the first run), and a callback that finalises the job."""
    suffix = f":r{retry}" if retry else ""
    numbers = batches if batches is not None else list(range(batch_count))
    header = [ingest_batch.si(job_id, n).set(task_id=f"{job_id}:{n}{suffix}", priority=priority)
              for n in numbers]
    chord(header)(finalize_job.s(job_id).set(task_id=f"{job_id}:finalize{suffix}", priority=priority))
    runtime = get_runtime()
    with runtime.engine.begin() as conn:
        jobs.mark_published(conn, job_id)


# A job younger than this may still be in the hands of its submitter, about to publish.
PUBLISH_GRACE_SECONDS = 30.0
# A provider batch whose next step is this late lost its scheduled task.
PROVIDER_GRACE_SECONDS = 120.0


def reconcile(engine: Engine) -> dict[str, int]:
    """Re-publish jobs that were written but never published, and finalise jobs whose
    documents are all terminal.  Safe to run at any time and in several places at once:
    task ids are deterministic and document state decides what is left to do."""
    with engine.connect() as conn:
        unpublished = jobs.unpublished_jobs(conn, PUBLISH_GRACE_SECONDS)
        unsettled = jobs.unsettled_jobs(conn, PUBLISH_GRACE_SECONDS)
    for job_id, batches, retry in unpublished:
        log.warning("re-publishing a job that was never published", extra={"job_id": job_id})
        publish_job(job_id, batches, retry=retry)
    for job_id in unsettled:
        with engine.begin() as conn:
            status = jobs.finalize_job(conn, job_id)
        log.warning("finalised a job whose callback never ran",
                    extra={"job_id": job_id, "status": status})
    from tasks.provider import reschedule_overdue

    rescheduled = reschedule_overdue(engine, PROVIDER_GRACE_SECONDS)
    return {"republished": len(unpublished), "finalised": len(unsettled),
            "provider_rescheduled": rescheduled}


@app.task(name="pagemill.reconcile_jobs", autoretry_for=(OperationalError,), max_retries=3)
def reconcile_jobs() -> dict[str, int]:
    return reconcile(get_runtime().engine)
