"""OpenTelemetry traces, off unless configured: one trace from ``POST /v1/jobs`` to the chunks.

Configured with the standard variables (``OTEL_EXPORTER_OTLP_ENDPOINT`` or
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``; ``app.config.TracingConfig``), :func:`start` gives the
process a tracer provider that exports over OTLP/HTTP (protobuf) in the background, and
instruments Flask (the API's requests) and Celery (a task's publish and its run, with the W3C
trace context carried in the message's headers beside the request id).  pagemill's own spans
(:func:`span`) cover what the instrumentations cannot see: extraction and each engine attempt,
chunking, embedding, index writes and webhook deliveries.

A job is published when admission lets it through, which may be long after the request that
wrote it and from another process (a worker's dispatch after a batch, the reconciler), so the
request's trace context is stored with the job (``jobs.traceparent``) and attached around each
of its publishes (:func:`attached`): the job's tasks join the request's trace wherever they
are published from.

Extraction runs in a child process (extractors/isolation.py) that knows nothing of traces; its
engine attempts come back with their durations, and :func:`record_attempts` turns them into
spans under the extraction's, laid end to end from its start (the attempts of one document run
one after another).

Off, nothing is imported and every helper here is a shared null context or ``None``: a
request pays one global read per span site.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

    from app.config import TracingConfig

TRACER = "pagemill"
SERVICE_NAME = "pagemill"
# The W3C header that carries a trace context (traceparent: version-trace-span-flags).
TRACEPARENT = "traceparent"

_lock = threading.Lock()
_started = False
# pagemill's tracer, made once when tracing starts (spans are made per document and request).
_tracer: Any = None
_NULL: AbstractContextManager[None] = contextlib.nullcontext()


def start(config: TracingConfig, role: str) -> bool:
    """Trace this process when ``config`` says so (once per process); whether it does.
    ``role`` ("api", "worker") is recorded on every span's resource."""
    global _started, _tracer
    if not config.enabled:
        return False
    with _lock:
        if _started:
            return True
        import os

        from opentelemetry import trace
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.instrumentation.celery import CeleryInstrumentor
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor

        attributes: dict[str, str] = {"pagemill.process": role}
        if not os.environ.get("OTEL_SERVICE_NAME"):
            attributes["service.name"] = SERVICE_NAME
        # The batch processor exports from a thread of its own and starts it again in a
        # child after fork (the API server's and the worker's pools fork).
        provider = TracerProvider(resource=Resource.create(attributes))
        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
        trace.set_tracer_provider(provider)
        # Signals of every Celery app in the process: the publish span and the context in the
        # message headers on the sending side, the run span on the worker's.
        CeleryInstrumentor().instrument(tracer_provider=provider)
        _tracer = trace.get_tracer(TRACER)
        _started = True
    return True


def started() -> bool:
    return _started


def instrument_flask(app: Flask) -> None:
    """A server span per request of ``app``, when this process traces."""
    if _started:
        from opentelemetry.instrumentation.flask import FlaskInstrumentor

        FlaskInstrumentor().instrument_app(app)


def span(name: str, **attributes: Any) -> AbstractContextManager[Any]:
    """A span around the block, child of the current one, with ``attributes`` (None values
    left out); a null context when this process does not trace."""
    if not _started:
        return _NULL
    return _tracer.start_as_current_span(
        name, attributes={k: v for k, v in attributes.items() if v is not None})


def set_attributes(target: Any, **attributes: Any) -> None:
    """Attributes learnt inside a span (``with span(...) as target``); nothing when off."""
    if target is not None:
        target.set_attributes({k: v for k, v in attributes.items() if v is not None})


def current_traceparent() -> str | None:
    """The current span's context as a ``traceparent`` value, to store with a job; None when
    this process does not trace or no span is current."""
    if not _started:
        return None
    from opentelemetry.propagate import inject

    carrier: dict[str, str] = {}
    inject(carrier)
    return carrier.get(TRACEPARENT)


@contextlib.contextmanager
def attached(traceparent: str | None) -> Iterator[None]:
    """The block runs in the trace ``traceparent`` names (a job's, around its publish)."""
    if not _started or not traceparent:
        yield
        return
    from opentelemetry import context
    from opentelemetry.propagate import extract

    token = context.attach(extract({TRACEPARENT: traceparent}))
    try:
        yield
    finally:
        context.detach(token)


def record_attempts(attempts: Iterable[Any], began_ns: int, **attributes: Any) -> None:
    """A span per engine attempt (extractors.base.Attempt: engine, seconds, pages, error_code,
    chosen) under the current span, the first starting at ``began_ns`` (``time.time_ns()``) and
    each after the one before."""
    if not _started:
        return
    from opentelemetry.trace import Status, StatusCode

    extra = {k: v for k, v in attributes.items() if v is not None}
    at = began_ns
    for attempt in attempts:
        end = at + int(attempt.seconds * 1e9)
        recorded = _tracer.start_span(f"pagemill.extract.{attempt.engine}", start_time=at, attributes={
            **extra, "pagemill.engine": attempt.engine, "pagemill.chosen": bool(attempt.chosen),
            "pagemill.pages": len(attempt.pages) if attempt.pages else 0,
            "pagemill.outcome": attempt.error_code or "ok"})
        if attempt.error_code:
            recorded.set_status(Status(StatusCode.ERROR, attempt.error_code))
        recorded.end(end_time=end)
        at = end


def log_fields() -> Mapping[str, str]:
    """``trace_id`` and ``span_id`` of the current span for a log line (hex, as trace viewers
    show them); empty when this process does not trace or no span is current."""
    if not _started:
        return {}
    from opentelemetry import trace

    context = trace.get_current_span().get_span_context()
    if not context.is_valid:
        return {}
    return {"trace_id": f"{context.trace_id:032x}", "span_id": f"{context.span_id:016x}"}
