"""Celery tasks of the ingestion pipeline: thin wrappers over the workflow steps of
:mod:`app.services` (processing a batch, completing it, reconciling)."""

from __future__ import annotations

import logging

from celery import Task
from celery.signals import worker_ready
from sqlalchemy.exc import OperationalError

from app.domain import bulk_loads, jobs
from app.services.batch_completion import begin_bulk_load, finish_batch
from app.services.processing import process_batch
from app.services.reconciliation import reconcile
from tasks.celery import app
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
    """One batch (app/services/processing.py), between the steps of
    app/services/batch_completion.py: a bulk load begun before the first batch; after each,
    the job finalised if this was its last work and the freed slot dispatched."""
    runtime = get_runtime()
    log.info("ingest_batch", extra={"job_id": job_id, "batch_id": f"{job_id}:{batch_no}",
                                    "task_id": self.request.id})
    if batch_no == 0:
        begin_bulk_load(runtime, job_id)
    outcome = process_batch(runtime.engine, runtime.storage, runtime.config, job_id, batch_no,
                            extractor=runtime.extractor)
    if outcome.provider_batch is not None:
        runtime.publisher.resume_provider_batch(outcome.provider_batch, submitting=True)
    finish_batch(runtime, job_id)
    return {"completed": outcome.completed, "failed": outcome.failed,
            "unchanged": outcome.unchanged, "waiting": outcome.waiting}


@app.task(name="pagemill.build_vector_index", autoretry_for=(OperationalError,), max_retries=3,
          soft_time_limit=bulk_loads.BUILD_TIME_LIMIT, time_limit=bulk_loads.BUILD_TIME_LIMIT + 60)
def build_vector_index() -> float | None:
    """Build the HNSW graph once the bulk loads are over (at most one build at a time)."""
    runtime = get_runtime()
    seconds = bulk_loads.rebuild(runtime.engine, runtime.config.bulk_loads.build_memory,
                                 runtime.config.graph_options())
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


@app.task(name="pagemill.reconcile_jobs", autoretry_for=(OperationalError,), max_retries=3)
def reconcile_jobs() -> dict[str, int]:
    return reconcile(get_runtime())
