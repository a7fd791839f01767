"""Each Celery task's log context: bound when the task starts, cleared when it ends.

``task_id`` is Celery's, ``request_id`` comes from the message's headers (tasks/publisher.py
sets it to the API request that created the job), and ``job_id`` from the
arguments of the pipeline's tasks (``ingest_batch``'s first, ``finalize_job``'s second).  As
django-structlog's Celery receivers do, at ``task_prerun``, so that Celery's own records of the
task (retries, failures) carry them too.
"""

from __future__ import annotations

from typing import Any

from celery.signals import task_postrun, task_prerun

from app.infra import log_context


def _header(task: Any, name: str) -> Any:
    """A custom message header: Celery puts protocol 2 headers on the request itself."""
    request = getattr(task, "request", None)
    value = getattr(request, name, None)
    if value is None:
        headers = getattr(request, "headers", None) or {}
        value = headers.get(name)
    return value


@task_prerun.connect
def bind_task_context(task_id: str | None = None, task: Any = None, args: Any = None,
                      **_: Any) -> None:
    name = getattr(task, "name", None)
    job_id = None
    if name == "pagemill.ingest_batch" and args:
        job_id = args[0]
    elif name == "pagemill.finalize_job" and args and len(args) > 1:
        job_id = args[1]  # (results of the chord's header, job id)
    log_context.start(task_id=task_id, request_id=_header(task, "request_id"),
                      job_id=job_id if isinstance(job_id, str) else None)


@task_postrun.connect
def clear_task_context(**_: Any) -> None:
    log_context.end()
