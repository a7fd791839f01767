"""Prometheus metrics: what the processes record, and what a scrape of ``/metrics`` adds up.

Process side (every process on the machine, in prometheus_client's multiprocess mode; where
the samples live: :mod:`app.infra.metrics.directory`): ``pagemill_documents_total{outcome,extractor}``,
``pagemill_stage_seconds{stage}``, ``pagemill_http_request_seconds{route,status}`` and
``pagemill_search_reads_total{served_by,reason}``, recorded
through the functions below.  Database side, computed when scraped
(:mod:`app.domain.database_gauges`): queue depth and age, dead letters, documents by status, the
webhook backlog.  The scrape itself: :mod:`app.infra.metrics.exposition`.

Importing this package touches nothing: the metric objects (:mod:`app.infra.metrics.series`) are
imported, and this process's sample directory claimed, on the first thing recorded.  Recording
never raises: a metric must not fail a document or a request.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Iterable
from types import ModuleType

from extractors.base import Attempt

log = logging.getLogger(__name__)

_lock = threading.Lock()
_warned = False
_ready = False


def series_module() -> ModuleType:
    """:mod:`app.infra.metrics.series`, imported after this process's sample directory is claimed
    (an inherited one, or its own under ``PAGEMILL_METRICS_DIR``)."""
    global _ready
    with _lock:
        if not _ready:  # once: a directory that cannot be written is not tried on every sample
            from app.config import Config
            from app.infra.metrics import directory

            if directory.current() is None:
                directory.claim(Config.from_env().metrics_samples_dir)
            if directory.current() is not None and "prometheus_client" in sys.modules:
                _files_from_now_on()
            _ready = True
        from app.infra.metrics import series

        return series


def _files_from_now_on() -> None:
    """prometheus_client picks memory or files when first imported, and something imported it
    before the directory was claimed (Celery's command line loads Flower's plugin, which
    does): pick again, as prometheus_client's own tests do, for the metrics made from now on
    (pagemill's are made after this)."""
    from prometheus_client import values

    if values.ValueClass is values.MutexValue:
        values.ValueClass = values.get_value_class()


def _recording_failed() -> None:
    global _warned
    if not _warned:  # once per process: a full disk would otherwise log on every document
        _warned = True
        log.warning("could not record a metric", exc_info=True)


def count_document(outcome: str, extractor: str | None) -> None:
    """A document reached ``outcome`` (completed, failed), read by ``extractor``."""
    try:
        series_module().DOCUMENTS.labels(outcome=outcome, extractor=extractor or "none").inc()
    except Exception:
        _recording_failed()


def observe_stage(stage: str, seconds: float) -> None:
    """One document spent ``seconds`` in ``stage`` (one of series.STAGES)."""
    try:
        series_module().STAGE_SECONDS.labels(stage=stage).observe(seconds)
    except Exception:
        _recording_failed()


def observe_ocr(attempts: Iterable[Attempt], ocr_engines: Iterable[str]) -> None:
    """The OCR engines' share of one extraction, from its attempts: one observation when
    any OCR engine ran (the time is also part of that extraction's ``extract``)."""
    engines = set(ocr_engines)
    seconds = [a.seconds for a in attempts if a.engine in engines]
    if seconds:
        observe_stage("ocr", sum(seconds))


def observe_request(route: str, status: int, seconds: float) -> None:
    """The API answered ``route`` (a URL rule) with ``status`` after ``seconds``."""
    try:
        series_module().HTTP_REQUEST_SECONDS.labels(route=route, status=str(status)).observe(seconds)
    except Exception:
        _recording_failed()


def count_search_read(served_by: str, reason: str) -> None:
    """A search was answered by ``served_by`` (the primary or a replica) for ``reason``."""
    try:
        series_module().SEARCH_READS.labels(served_by=served_by, reason=reason).inc()
    except Exception:
        _recording_failed()
