"""One scrape: every process's samples on this machine, added up (prometheus_client's
multiprocess merge over :func:`app.infra.metrics.directory.sample_files`), and the database-side
gauges, in Prometheus's text format.

Import this module only through :func:`scrape`'s caller after
:func:`app.infra.metrics.series_module` has run (app/api/metrics.py): prometheus_client must not be
imported before this process's sample directory is claimed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest, values
from prometheus_client.core import Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from app.infra.metrics import directory, series_module

CONTENT_TYPE = CONTENT_TYPE_LATEST


class MachineSamples(Collector):
    """The samples of every process on the machine that has a directory under ``base``."""

    def __init__(self, base: Path) -> None:
        self.base = base

    def collect(self) -> Iterator[Metric]:
        try:
            merged = MultiProcessCollector.merge(directory.sample_files(self.base), accumulate=True)
        except FileNotFoundError:  # an owner's directory removed between listing and reading
            merged = MultiProcessCollector.merge(directory.sample_files(self.base), accumulate=True)
        yield from merged


def scrape(base: Path, database: Collector | None) -> bytes:
    """The text a ``/metrics`` scrape answers."""
    series = series_module()
    registry = CollectorRegistry(auto_describe=False)
    registry.register(MachineSamples(base))
    if values.ValueClass is values.MutexValue:
        # This process keeps its samples in memory (no directory could be claimed, or
        # prometheus_client was imported before the claim): add its own.
        registry.register(series.REGISTRY)
    if database is not None:
        registry.register(database)
    return generate_latest(registry)
