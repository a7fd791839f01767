"""Gunicorn hooks for the API server (app/web_server.py sets them; a plain ``gunicorn -c
python:app.gunicorn_conf "app.api:create_app()"`` can use them too): the Prometheus bookkeeping
of prometheus_client's multiprocess mode, and loading the embedders before the first search.

``on_starting`` runs in the master before the first fork: it claims the directory the workers
write their samples to (app/infra/metrics/directory.py), so that a scrape of ``/metrics`` answered by
any worker adds up all of them.  ``child_exit``: a dead worker's live-gauge files go (its
counters and histograms stay counted, as a replaced worker's must).

``post_worker_init`` runs in each worker after the fork and the app's loading: it starts
loading the embedders searches need (app/services/embedder_warm_up.py), in the background.

Gunicorn reads this module's globals as settings: only hook names are defined at top level, and
imports happen inside them.
"""

from __future__ import annotations

from typing import Any


def on_starting(server: Any) -> None:
    from app.config import Config
    from app.infra.metrics import directory

    directory.claim(Config.from_env().metrics_samples_dir)


def child_exit(server: Any, worker: Any) -> None:
    from app.infra.metrics import directory

    if directory.current() is not None:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)


def post_worker_init(worker: Any) -> None:
    from app.api.context import EXTENSION
    from app.services.embedder_warm_up import start_warm_up

    # The API application, also when served inside the MCP endpoint (app/mcp/http_endpoint.py).
    api = getattr(worker.wsgi, "api", worker.wsgi)
    runtime = getattr(api, "extensions", {}).get(EXTENSION)
    if runtime is not None and runtime.config.embedding.preload:
        start_warm_up(runtime)
