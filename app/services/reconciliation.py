"""Reconciling: finding the work whose next step was lost and taking it.

A step can be lost between two commits: a job written whose submitter died before handing it
to admission, an admitted batch whose message the broker never took, a worker that died after
its batch and before giving its slot on, a job whose documents are all terminal but which was
never finalised, a provider batch whose scheduled check vanished with its worker.  Each is
found from the rows alone and its step taken again; every step is idempotent (deterministic
task ids; document state decides what is left), so reconciling is safe at any time and in
several places at once.  Celery beat runs it every minute (tasks/ingest.py's
``pagemill.reconcile_jobs``); ``pagemill jobs reconcile`` runs it by hand.
"""

from __future__ import annotations

import logging

from app.domain import admission, bulk_loads, jobs, provider_batches
from app.runtime import Runtime
from app.services.dispatch import dispatch, publish_admitted

log = logging.getLogger(__name__)

# A job younger than this may still be in the hands of its submitter, about to publish.
PUBLISH_GRACE_SECONDS = 30.0
# A provider batch whose next step is this late lost its scheduled task.
PROVIDER_GRACE_SECONDS = 120.0


def reconcile(runtime: Runtime) -> dict[str, int]:
    """Hand to admission the jobs never handed, re-publish admitted batches whose message was
    lost, give out freed slots, finalise jobs whose documents are all terminal, settle bulk
    loads and resume overdue provider batches; the counts of each."""
    engine = runtime.engine
    with engine.connect() as conn:
        unhanded = jobs.unhanded_jobs(conn, PUBLISH_GRACE_SECONDS)
        unsettled = jobs.unsettled_jobs(conn, PUBLISH_GRACE_SECONDS)
        lost = admission.admitted_unpublished(conn, PUBLISH_GRACE_SECONDS)
    for job_id, _batches, _retry in unhanded:
        log.warning("handing a job to admission that was never handed", extra={"job_id": job_id})
        with engine.begin() as conn:
            jobs.mark_handed(conn, job_id)
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
        runtime.publisher.build_vector_index()
    rescheduled = resume_overdue_provider_batches(runtime, PROVIDER_GRACE_SECONDS)
    return {"republished": len(unhanded) + republished, "admitted": admitted,
            "finalised": len(unsettled), "provider_rescheduled": rescheduled}


def resume_overdue_provider_batches(runtime: Runtime, grace_seconds: float) -> int:
    """Ask again for the next step of provider batches whose submission or check is overdue
    (the worker that held the scheduled task died in between); how many."""
    with runtime.engine.connect() as conn:
        overdue = provider_batches.overdue(conn, grace_seconds)
    for batch_id, status in overdue:
        runtime.publisher.resume_provider_batch(batch_id, submitting=status == "submitting")
    return len(overdue)
