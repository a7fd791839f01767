"""What a process works with, built from one configuration: the database engine (and the search
replicas' engines), storage, the parser and the publisher that sends admitted work to the workers.

The API (``create_app(config)``), the CLI (its context) and a worker (tasks/runtime.py) each
build one from their configuration and pass it on; nothing here is a module-level global, so
no part of a process can write a job with one configuration and dispatch it with another.
Each resource is built on first use (never at import time) and cached for the runtime's life.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from sqlalchemy import Engine

from app.config import Config
from app.domain.publisher import Publisher
from app.domain.search_reads import Replica, ReplicaPolicy, SearchReads
from app.infra.db import get_engine, get_replica_engine, upgrade_schema
from app.infra.embedded import resolve_database_url
from app.infra.storage import Storage, open_storage
from extractors.isolation import InProcessExtractor, IsolatedExtractor

# The publisher a runtime uses unless it is given one: Celery's, named rather than imported so
# that app/ stays below tasks/ (the worker packages implement app's interface, as a Celery
# backend is named in Celery's configuration).
DEFAULT_PUBLISHER = "tasks.publisher:CeleryPublisher"


def _default_publisher(runtime: Runtime) -> Publisher:
    module, _, name = DEFAULT_PUBLISHER.partition(":")
    factory: Callable[[Runtime], Publisher] = getattr(importlib.import_module(module), name)
    return factory(runtime)


@dataclass
class Runtime:
    config: Config
    # Builds this runtime's publisher on first use; a worker passes one bound to its Celery app.
    publisher_factory: Callable[[Runtime], Publisher] = field(default=_default_publisher, repr=False)

    def __post_init__(self) -> None:
        from indexing import embedding

        # The embedder the configuration names (PAGEMILL_EMBEDDER), for this process's
        # embeddings: indexing reads no configuration of its own.
        embedding.configure(self.config.embedding.embedder, self.config.home,
                            self.config.embedding.torch_threads)

    @cached_property
    def database_url(self) -> str:
        """The database's URL.  The embedded server (which pagemill owns) is started or
        joined, and its database created and migrated to the newest schema, by whichever
        process needs it first -- CLI, worker, beat, Flower or API -- so that any of them can
        be the first on a fresh home, even several at the same instant.  A server given by
        ``DATABASE_URL`` is migrated by its operator (``pagemill migrate``, the Procfile's
        ``release``).  Raises :class:`app.infra.embedded.DatabaseUnavailable` with what to do."""
        url = resolve_database_url(self.config)
        if self.config.uses_embedded_database:
            _migrate_once(url)
        return url

    @cached_property
    def engine(self) -> Engine:
        return get_engine(self.database_url)

    @cached_property
    def search_reads(self) -> SearchReads:
        """Where this runtime's searches read: the replicas of PAGEMILL_SEARCH_DATABASE_URLS
        (their engines built here, connecting on first use), else the primary."""
        db = self.config.database
        replicas = [Replica(f"replica-{i}", get_replica_engine(url)) for i, url in enumerate(db.search_urls)]
        return SearchReads(self.engine, replicas, ReplicaPolicy(
            max_lag=db.search_replica_max_lag, wait=db.search_replica_wait, retry=db.search_replica_retry))

    @cached_property
    def storage(self) -> Storage:
        return open_storage(self.config.storage_url, self.config.storage.endpoint_url,
                            self.config.storage.region)

    @cached_property
    def publisher(self) -> Publisher:
        """Sends admitted batches to the broker this runtime's configuration names."""
        return self.publisher_factory(self)

    @cached_property
    def extractor(self) -> IsolatedExtractor | InProcessExtractor:
        if self.config.extraction.isolation:
            return IsolatedExtractor(memory_limit_bytes=self.config.extraction.memory_limit)
        return InProcessExtractor()


_lock = threading.Lock()
_migrated: set[str] = set()


def _migrate_once(url: str) -> None:
    """``alembic upgrade head`` once per process and database (an API's several runtimes, a
    CLI's and its app's, share it); concurrent processes wait for one another on the
    migrations' advisory lock (alembic/env.py) and the later ones find nothing to do."""
    with _lock:
        if url not in _migrated:
            upgrade_schema(url)
            _migrated.add(url)


def prepare(runtime: Runtime) -> Runtime:
    """``runtime`` with its database reachable and, when it is the embedded server, migrated
    (see :attr:`Runtime.database_url`).  Raises :class:`app.infra.embedded.DatabaseUnavailable`
    with what to do when there is no database."""
    runtime.database_url  # noqa: B018 - started (and on the embedded default migrated) now
    return runtime
