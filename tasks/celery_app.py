"""The Celery application.

Broker and result backend default to the pagemill database, through pagemill's durable
transport (tasks/broker/).  They are resolved lazily through ``add_defaults``: the embedded
PostgreSQL server is started when Celery first needs a connection, not at import, and its
database created and migrated then (tasks/runtime.py), so that ``celery -A tasks worker``,
``beat`` or ``flower`` can each be the first process on a fresh home.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Celery
from celery.signals import setup_logging
from kombu.transport import TRANSPORT_ALIASES

from app.config import Config

# Broker URLs of the form pagemill+postgresql+psycopg://... select tasks/broker/ (its Transport).
TRANSPORT_ALIASES.setdefault("pagemill", "tasks.broker:Transport")


def _database_defaults() -> dict[str, str]:
    from tasks.runtime import get_runtime

    runtime = get_runtime()
    config: Config = runtime.config
    url = runtime.database_url
    return {"broker_url": config.broker_url_for(url),
            "result_backend": config.result_backend_for(url)}


@setup_logging.connect
def _configure_logging(loglevel: Any = None, **_: Any) -> None:
    """``celery -A tasks worker|beat|flower`` log through pagemill's formatter (escaped values,
    one record per line) instead of Celery's own: connecting this signal is how Celery is told
    to leave logging alone."""
    from app import logs

    level = loglevel if isinstance(loglevel, str) else logging.getLevelName(loglevel or logging.INFO)
    logs.configure(str(level).upper())


def create_celery() -> Celery:
    celery = Celery("pagemill", include=["tasks.ingest", "tasks.heartbeat", "tasks.provider"])
    celery.config_from_object("celeryconfig")
    celery.add_defaults(_database_defaults)
    return celery


app = create_celery()
