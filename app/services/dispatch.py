"""Handing written jobs to admission and publishing what admission lets through: the step
between a job's rows (app/services/submission.py) and the workers, used by the API, the CLI, the
workers after each batch and the reconciler alike, each with its own runtime.

A publish that fails leaves its batch admitted but unpublished: :func:`publish_admitted`
logs it and goes on, and the reconciler (tasks/ingest.py) publishes it again later.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from app.domain import admission, jobs

if TYPE_CHECKING:
    from app.runtime import Runtime

log = logging.getLogger(__name__)


def hand_to_admission(runtime: Runtime, job_id: str) -> int:
    """Hand a written job to admission, then publish whatever admission lets through now (its
    batches and any other key's that were waiting); how many batches were published.  Its
    batches get slots as they free up: this key's limit is never exceeded, and other keys'
    work is not queued behind it."""
    with runtime.engine.begin() as conn:
        jobs.mark_handed(conn, job_id)
    return dispatch(runtime)


def dispatch(runtime: Runtime) -> int:
    """Admit what has a free slot and publish it; how many batches were published."""
    config = runtime.config
    with runtime.engine.begin() as conn:
        admitted = admission.admit(conn, config.limits.concurrency, config.limits.concurrency_heavy)
    return publish_admitted(runtime, admitted)


def publish_admitted(runtime: Runtime, batches: list[admission.AdmittedBatch]) -> int:
    """Publish admitted batches through the runtime's publisher and record which went out;
    how many did."""
    published = []
    for batch in batches:
        try:
            runtime.publisher.publish(batch)
        except Exception:  # the broker down: the reconciler publishes it later
            log.warning("could not publish an admitted batch; the reconciler will", exc_info=True,
                        extra={"job_id": batch.job_id, "batch_id": f"{batch.job_id}:{batch.batch_no}"})
            continue
        published.append(batch)
    with runtime.engine.begin() as conn:
        admission.mark_published(conn, published)
    return len(published)
