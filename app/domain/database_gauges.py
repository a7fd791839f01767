"""Gauges read from the database when ``/metrics`` is scraped: a prometheus_client custom
Collector, in the scraping process only (multiprocess mode cannot carry custom collectors,
and these are facts of the database, not of a process).  Imports prometheus_client: import it
after :func:`app.infra.metrics.series_module` (app/infra/metrics/exposition.py does).

Each statement is named (app/domain/statements/metrics.py), cheap and bounded: the queue statements
read the broker's tables through its ``(queue, priority, id)`` index (migrations 0002 and
0010), the webhook backlog the partial index of pending deliveries (0016), and the documents
by status one grouped count.  A reading is reused for ``ttl`` seconds, so that several scrapers
(or a dashboard's refresh) cost one round of queries, and runs under a statement timeout.  A
failed reading leaves its gauges out of the scrape (logged), never a wrong number; so do the
queue gauges when the broker is not pagemill's PostgreSQL transport
(``BROKER_URL=redis://...``): its messages are not in this database.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import Connection, Engine

from app.domain.jobs import DOCUMENT_STATES
from app.domain.statements import metrics as sql

log = logging.getLogger(__name__)
_T = TypeVar("_T")

#: Every status a document row can have (app/domain/jobs.py's list, ``waiting`` on a provider
#: included): each is exported, 0 when no document has it, so that a series does not vanish
#: when its count falls to zero.
DOCUMENT_STATUSES = DOCUMENT_STATES

#: A reading that takes longer is abandoned (its gauges are left out of that scrape).
STATEMENT_TIMEOUT_MS = 5000
_TIMEOUT = sql.statement_timeout(STATEMENT_TIMEOUT_MS)


def task_queue_names() -> tuple[str, ...]:
    """The queues pagemill's tasks are sent to, from the static Celery settings (reading the
    Celery app's own configuration would resolve the broker, and start a database)."""
    import celeryconfig

    names = [celeryconfig.task_default_queue]
    names += [getattr(q, "name", q) for q in getattr(celeryconfig, "task_queues", None) or ()]
    return tuple(dict.fromkeys(str(n) for n in names))


def read_queues(conn: Connection, queues: tuple[str, ...]) -> list[Metric]:
    depth = GaugeMetricFamily("pagemill_queue_depth", "Messages ready for a worker, by queue",
                              labels=["queue"])
    oldest = GaugeMetricFamily("pagemill_queue_oldest_seconds", "Age of the oldest message "
                               "ready for a worker, by queue (0: none)", labels=["queue"])
    for queue, count, seconds in conn.execute(sql.QUEUE_DEPTH, {"queues": list(queues)}):
        depth.add_metric([queue], float(count))
        oldest.add_metric([queue], float(seconds))
    dead = GaugeMetricFamily("pagemill_dead_letters", "Broker messages in the dead letters",
                             value=float(conn.execute(sql.DEAD_LETTERS).scalar_one()))
    return [depth, oldest, dead]


def read_documents(conn: Connection) -> list[Metric]:
    counts = {status: 0 for status in DOCUMENT_STATUSES}
    counts.update({status: int(n) for status, n in conn.execute(sql.DOCUMENTS_BY_STATUS)})
    family = GaugeMetricFamily("pagemill_documents", "Document rows by status", labels=["status"])
    for status, n in counts.items():
        family.add_metric([status], float(n))
    families: list[Metric] = [family]
    if conn.execute(sql.HAS_WEBHOOKS).scalar_one():
        families.append(GaugeMetricFamily(
            "pagemill_webhook_backlog", "Webhook deliveries not yet made (due or awaiting a retry)",
            value=float(conn.execute(sql.WEBHOOK_BACKLOG).scalar_one())))
    return families


@dataclass
class _Reading:
    at: float
    families: list[Metric]


class DatabaseGauges(Collector):
    """The database-side gauges.  ``engine`` gives pagemill's database; ``broker`` the
    broker transport's (None: the broker is not pagemill's transport, no queue gauges)."""

    def __init__(self, engine: Callable[[], Engine], broker: Callable[[], Engine | None],
                 queues: tuple[str, ...], ttl: float = 5.0) -> None:
        self._engine, self._broker, self._queues, self._ttl = engine, broker, queues, ttl
        self._lock = threading.Lock()
        self._reading: _Reading | None = None

    def collect(self) -> Iterator[Metric]:
        with self._lock:  # concurrent scrapes wait for one reading instead of each making one
            if self._reading is None or time.monotonic() - self._reading.at >= self._ttl:
                self._reading = _Reading(time.monotonic(), self._read())
            families = self._reading.families
        yield from families

    def _read(self) -> list[Metric]:
        families: list[Metric] = []
        broker = self._guarded("broker", self._broker)
        if broker is not None:
            families += self._guarded("broker queues", lambda: _in_transaction(
                broker, lambda conn: read_queues(conn, self._queues))) or []
        families += self._guarded("documents", lambda: _in_transaction(
            self._engine(), read_documents)) or []
        return families

    @staticmethod
    def _guarded(what: str, read: Callable[[], _T]) -> _T | None:
        try:
            return read()
        except Exception as exc:  # a scrape reports what it can
            log.warning("metrics: could not read the %s gauges: %s", what, exc)
            return None


def _in_transaction(engine: Engine, read: Callable[[Connection], list[Metric]]) -> list[Metric]:
    with engine.begin() as conn:
        conn.execute(_TIMEOUT)
        return read(conn)
