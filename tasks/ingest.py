"""Celery tasks of the ingestion pipeline: thin wrappers over :mod:`tasks.processing`."""

from __future__ import annotations

import logging

from celery import Task
from celery.signals import worker_ready
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError

from app.config import Config
from app.domain import admission, bulk_loads, jobs
from app.runtime import Runtime
from app.services.dispatch import dispatch, publish_admitted
from tasks.celery import app
from tasks.processing import process_batch
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
    """One batch; then the job is finalised if this was its last work, and the slot this batch
    held goes to the next waiting batch (app/domain/admission.py)."""
    runtime = get_runtime()
    log.info("ingest_batch", extra={"job_id": job_id, "batch_id": f"{job_id}:{batch_no}",
                                    "task_id": self.request.id})
    if batch_no == 0:
        begin_bulk_load(runtime.engine, runtime.config, job_id)
    outcome = process_batch(runtime.engine, runtime.storage, runtime.config, job_id, batch_no,
                            extractor=runtime.extractor)
    if outcome.provider_batch is not None:
        from tasks.provider import provider_submit

        provider_submit.delay(outcome.provider_batch)
    with runtime.engine.begin() as conn:
        status = jobs.finalize_job(conn, job_id)
    if status is not None:
        log.info("job finalised", extra={"job_id": job_id, "status": status})
        with runtime.engine.begin() as conn:
            due = bulk_loads.end(conn, job_id)
        if due:
            build_vector_index.delay()
    dispatch(runtime)
    return {"completed": outcome.completed, "failed": outcome.failed,
            "unchanged": outcome.unchanged, "waiting": outcome.waiting}


def begin_bulk_load(engine: Engine, config: Config, job_id: str) -> bool:
    """A job that will add a large share of the index drops the HNSW graph first
    (app/domain/bulk_loads.py); ``True`` when this job became a bulk load here."""
    with engine.begin() as conn:
        began = bulk_loads.begin(conn, job_id, bulk_loads.BulkPolicy.from_config(config))
    if began:
        dropped = bulk_loads.drop_graph(engine)
        log.info("bulk load: the HNSW graph is rebuilt after this job, not maintained during it",
                 extra={"job_id": job_id, "dropped": dropped})
    return began


@app.task(name="pagemill.build_vector_index", autoretry_for=(OperationalError,), max_retries=3,
          soft_time_limit=bulk_loads.BUILD_TIME_LIMIT, time_limit=bulk_loads.BUILD_TIME_LIMIT + 60)
def build_vector_index() -> float | None:
    """Build the HNSW graph once the bulk loads are over (at most one build at a time)."""
    runtime = get_runtime()
    seconds = bulk_loads.rebuild(runtime.engine, runtime.config.hnsw_build_memory)
    if seconds is not None:
        log.info("HNSW graph rebuilt after bulk loads", extra={"seconds": round(seconds, 1)})
    return seconds


@app.task(
    name="pagemill.finalize_job",
    bind=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=8,
)
def finalize_job(self: Task, _results: object, job_id: str) -> str | None:
    """The chord callback of jobs published before admission (migration 0018): such messages
    may still be in a broker after an upgrade.  Batches now finalise their job themselves."""
    runtime = get_runtime()
    with runtime.engine.begin() as conn:
        status = jobs.finalize_job(conn, job_id)
    log.info("job finalised", extra={"job_id": job_id, "task_id": self.request.id,
                                     "status": status})
    return status


# A job younger than this may still be in the hands of its submitter, about to publish.
PUBLISH_GRACE_SECONDS = 30.0
# A provider batch whose next step is this late lost its scheduled task.
PROVIDER_GRACE_SECONDS = 120.0


def reconcile(runtime: Runtime) -> dict[str, int]:
    """Re-publish jobs that were written but never published, and finalise jobs whose
    documents are all terminal.  Safe to run at any time and in several places at once:
    task ids are deterministic and document state decides what is left to do."""
    engine = runtime.engine
    with engine.connect() as conn:
        unpublished = jobs.unpublished_jobs(conn, PUBLISH_GRACE_SECONDS)
        unsettled = jobs.unsettled_jobs(conn, PUBLISH_GRACE_SECONDS)
        lost = admission.admitted_unpublished(conn, PUBLISH_GRACE_SECONDS)
    for job_id, _batches, _retry in unpublished:
        log.warning("handing a job to admission that was never handed", extra={"job_id": job_id})
        with engine.begin() as conn:
            jobs.mark_published(conn, job_id)
    if lost:
        log.warning("re-publishing %d admitted batches whose publish was lost", len(lost))
    republished = publish_admitted(runtime, lost)
    # Slots freed without a dispatch (a worker that died after its batch): give them out.
    admitted = dispatch(runtime)
    for job_id in unsettled:
        with engine.begin() as conn:
            status = jobs.finalize_job(conn, job_id)
        log.warning("finalised a job whose callback never ran",
                    extra={"job_id": job_id, "status": status})
    with engine.begin() as conn:  # bulk loads of jobs that ended without a batch ending them
        due = bulk_loads.settle(conn)
    if due:
        build_vector_index.delay()
    from tasks.provider import reschedule_overdue

    rescheduled = reschedule_overdue(engine, PROVIDER_GRACE_SECONDS)
    return {"republished": len(unpublished) + republished, "admitted": admitted,
            "finalised": len(unsettled), "provider_rescheduled": rescheduled}


@app.task(name="pagemill.reconcile_jobs", autoretry_for=(OperationalError,), max_retries=3)
def reconcile_jobs() -> dict[str, int]:
    return reconcile(get_runtime())
