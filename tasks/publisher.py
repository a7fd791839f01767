"""Celery's implementation of :class:`app.domain.publisher.Publisher`: an admitted batch becomes a
``pagemill.ingest_batch`` message on the broker its runtime's configuration names, a vector
index build a ``pagemill.build_vector_index`` one, a provider batch's next step a
``pagemill.provider_submit`` or ``pagemill.provider_check`` one.

A runtime built by the API or the CLI gets a Celery app of its own, configured from that
runtime (tasks/celery.py's ``create_celery``), used only to send: a job is then dispatched
with the same configuration it was written with, whatever the environment says.  A worker's
runtime publishes through the worker's own app (tasks/runtime.py).
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

import celeryconfig
from app.domain.admission import AdmittedBatch
from app.infra import traces

if TYPE_CHECKING:
    from celery import Celery

    from app.config import Config
    from app.runtime import Runtime

# The tasks the workflow asks for (tasks/ingest.py, tasks/provider.py).
INGEST_BATCH = "pagemill.ingest_batch"
BUILD_VECTOR_INDEX = "pagemill.build_vector_index"
PROVIDER_SUBMIT = "pagemill.provider_submit"
PROVIDER_CHECK = "pagemill.provider_check"
# The queue of audio and video batches, declared in celeryconfig.task_queues.
MEDIA_QUEUE = "pagemill.media"
# A media batch's hard time limit is its soft one plus this: time for the soft limit's
# exception to fail the document and settle the batch.
MEDIA_HARD_LIMIT_MARGIN = 60.0


def batch_task_id(job_id: str, batch_no: int, retry: int) -> str:
    """Deterministic: ``<job>:<batch>``, ``<job>:<batch>:r<n>`` for the n-th retry (so a
    retry never meets the results of the first run)."""
    return f"{job_id}:{batch_no}" + (f":r{retry}" if retry else "")


def _routing(batch: AdmittedBatch, config: Config) -> dict[str, Any]:
    """Queue and time limits of a batch's task: a batch with audio or video waits on the media
    queue, and its soft limit is celeryconfig's plus ``PAGEMILL_MEDIA_TIME_LIMIT`` per
    recording in it; any other batch runs under celeryconfig's limits."""
    if not batch.media_documents:
        return {}
    soft = celeryconfig.task_soft_time_limit + batch.media_documents * config.media.time_limit
    return {"queue": MEDIA_QUEUE, "soft_time_limit": soft, "time_limit": soft + MEDIA_HARD_LIMIT_MARGIN}


class CeleryPublisher:
    """Publishes through ``celery_app``, by default one built from ``runtime`` alone."""

    def __init__(self, runtime: Runtime, celery_app: Celery | None = None) -> None:
        self._runtime = runtime
        self._given = celery_app

    @cached_property
    def celery_app(self) -> Celery:
        if self._given is not None:
            return self._given
        from tasks.celery import create_celery

        return create_celery(self._runtime)

    def publish(self, batch: AdmittedBatch) -> None:
        """Each message carries the job's ``request_id`` header (tasks/task_context.py binds
        it for the task's log lines) and the batch's priority."""
        headers = {"request_id": batch.request_id} if batch.request_id else {}
        # In the job's trace, wherever this runs: Celery's instrumentation makes the publish
        # span there and puts its context in the message's headers (app/infra/traces.py).
        with traces.attached(batch.traceparent):
            self.celery_app.send_task(INGEST_BATCH, (batch.job_id, batch.batch_no), priority=batch.priority,
                                      task_id=batch_task_id(batch.job_id, batch.batch_no, batch.retry),
                                      headers=headers, **_routing(batch, self._runtime.config))

    def build_vector_index(self) -> None:
        self.celery_app.send_task(BUILD_VECTOR_INDEX)

    def resume_provider_batch(self, batch_id: str, submitting: bool) -> None:
        self.celery_app.send_task(PROVIDER_SUBMIT if submitting else PROVIDER_CHECK, (batch_id,))
