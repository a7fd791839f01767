"""The boundary fields bound for the work in hand, which every log record then carries
(app/infra/logs.py merges them): ``request_id`` and ``tenant_id`` for an API request,
``task_id``, ``request_id`` and ``job_id`` for a Celery task.

They live in context variables (structlog's), which are per thread and per task: a thread of
the API's pool serves one request at a time and a worker process one task at a time, and each
starts by clearing what the previous one bound.
"""

from __future__ import annotations

from typing import Any

import structlog


def start(**fields: Any) -> None:
    """Begin a unit of work (a request, a task, a command): forget what was bound, bind these."""
    structlog.contextvars.clear_contextvars()
    bind(**fields)


def bind(**fields: Any) -> None:
    """Add fields to the unit of work's context (``None`` values are left out)."""
    structlog.contextvars.bind_contextvars(**{k: v for k, v in fields.items() if v is not None})


def end() -> None:
    structlog.contextvars.clear_contextvars()


def current(name: str) -> Any:
    """A bound field's value, or ``None``."""
    return structlog.contextvars.get_contextvars().get(name)
