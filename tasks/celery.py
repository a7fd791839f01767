"""The Celery application, pagemill's only one: ``celery -A tasks`` finds it here (Celery looks
in a package's ``celery`` module when the package itself has no app), and importing ``tasks`` or
``tasks.broker`` does not build it.

Broker and result backend default to the pagemill database, through pagemill's durable
transport (tasks/broker/).  They are resolved lazily through ``add_defaults``: the embedded
PostgreSQL server is started when Celery first needs a connection, not at import, and its
database created and migrated then (tasks/runtime.py), so that ``celery -A tasks worker``,
``beat`` or ``flower`` can each be the first process on a fresh home.
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING, Any

from celery import Celery
from celery.signals import celeryd_init, setup_logging, worker_process_init, worker_process_shutdown

import tasks.broker  # noqa: F401 - registers the pagemill+postgresql:// transport with kombu
from app.config import Config, LoggingConfig

if TYPE_CHECKING:
    from app.runtime import Runtime


def _database_defaults(runtime: Runtime) -> dict[str, Any]:
    config: Config = runtime.config
    url = runtime.database_url
    defaults: dict[str, Any] = {"broker_url": config.broker_url_for(url),
                                "result_backend": config.result_backend_for(url)}
    if config.broker.visibility_timeout is not None and not config.broker.url:
        # How long a dead worker's task stays leased before the next worker gets it.
        defaults["broker_transport_options"] = {"visibility_timeout": config.broker.visibility_timeout}
    return defaults


@setup_logging.connect
def _configure_logging(loglevel: Any = None, **_: Any) -> None:
    """``celery -A tasks worker|beat|flower`` log through pagemill's formatter (escaped values,
    one record per line) instead of Celery's own: connecting this signal is how Celery is told
    to leave logging alone."""
    from app.infra import logs

    level = loglevel if isinstance(loglevel, str) else logging.getLevelName(loglevel or logging.INFO)
    logs.configure(str(level).upper(), LoggingConfig.from_env().format)


@celeryd_init.connect
def _claim_metrics_directory(**_: Any) -> None:
    """A worker's main process owns the Prometheus samples of its pool (app/infra/metrics/directory.py),
    claimed before the pool forks, so that every pool process writes there too."""
    from app.infra.metrics import directory

    directory.claim(Config.from_env().metrics_samples_dir)


@celeryd_init.connect
def _start_traces(**_: Any) -> None:
    """A worker traces when OTEL_EXPORTER_OTLP_ENDPOINT says so (app/infra/traces.py): started
    in the main process before the pool forks (its webhook sender's deliveries are traced there;
    the exporter's thread starts again in each pool process)."""
    from app.infra import traces
    from tasks.runtime import get_runtime

    traces.start(get_runtime().config.tracing, "worker")


@worker_process_init.connect
def _load_embedder_early(**_: Any) -> None:
    """A pool process loads the configured embedder as it starts, in the background: the model
    load (about 5 s for torch) then overlaps the wait for the first task and that task's
    extraction instead of following them.  The first embedding waits for this load (the model
    cache has a lock), never loads a second copy; a failure is logged and the first embedding
    loads, or fails its documents, as it would have.  ``PAGEMILL_PRELOAD_EMBEDDERS=0``: not."""
    import threading

    from tasks.runtime import get_runtime

    if not get_runtime().config.embedding.preload:
        return

    def load() -> None:
        from indexing import embedding

        try:
            embedding.embedder_in_use()
        except Exception:
            logging.getLogger(__name__).warning("loading the embedder at start failed", exc_info=True)

    threading.Thread(target=load, name="pagemill-embedder-load", daemon=True).start()


@worker_process_shutdown.connect
def _mark_pool_process_dead(**_: Any) -> None:
    """prometheus_client's bookkeeping for a pool process that exits (its live gauges' files);
    its counters and histograms stay counted."""
    from app.infra.metrics import directory

    if directory.current() is not None:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(os.getpid())


def create_celery(runtime: Runtime | None = None) -> Celery:
    """A Celery app whose broker and result backend are ``runtime``'s (by default the
    process's, tasks/runtime.py), resolved when Celery first reads its configuration."""

    def defaults() -> dict[str, Any]:
        if runtime is not None:
            return _database_defaults(runtime)
        from tasks.runtime import get_runtime

        return _database_defaults(get_runtime())

    celery = Celery("pagemill", include=["tasks.task_context", "tasks.ingest", "tasks.heartbeat",
                                         "tasks.provider", "tasks.webhooks"])
    celery.config_from_object("celeryconfig")
    celery.add_defaults(defaults)
    return celery


app = create_celery()
