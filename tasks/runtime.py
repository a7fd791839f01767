"""Per-process resources of a worker or CLI: configuration, database engine, storage.

Built on first use (never at import time) and cached for the life of the process.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cached_property

from sqlalchemy import Engine

from app.config import Config
from app.db import get_engine, upgrade_schema
from app.embedded import resolve_database_url
from app.storage import Storage, open_storage
from extractors.isolation import InProcessExtractor, IsolatedExtractor


@dataclass
class Runtime:
    config: Config

    def __post_init__(self) -> None:
        from indexing import embedding

        # The embedder the configuration names (PAGEMILL_EMBEDDER), for this process's
        # embeddings: indexing reads no configuration of its own.
        embedding.configure(self.config.embedder, self.config.home)

    @cached_property
    def database_url(self) -> str:
        """The database's URL.  The embedded server (which pagemill owns) is started or
        joined, and its database created and migrated to the newest schema, by whichever
        process needs it first -- CLI, worker, beat, Flower or API -- so that any of them can
        be the first on a fresh home, even several at the same instant.  A server given by
        ``DATABASE_URL`` is migrated by its operator (``pagemill migrate``, the Procfile's
        ``release``).  Raises :class:`app.embedded.DatabaseUnavailable` with what to do."""
        url = resolve_database_url(self.config)
        if self.config.uses_embedded_database:
            _migrate_once(url)
        return url

    @cached_property
    def engine(self) -> Engine:
        return get_engine(self.database_url)

    @cached_property
    def storage(self) -> Storage:
        return open_storage(self.config.storage_url, self.config.s3_endpoint_url,
                            self.config.s3_region)

    @cached_property
    def extractor(self) -> IsolatedExtractor | InProcessExtractor:
        if self.config.extract_isolation:
            return IsolatedExtractor(memory_limit_bytes=self.config.extract_memory_limit)
        return InProcessExtractor()


_lock = threading.Lock()
_runtime: Runtime | None = None
_migrated: set[str] = set()


def _migrate_once(url: str) -> None:
    """``alembic upgrade head`` once per process and database (an API's several runtimes, a
    CLI's and its app's, share it); concurrent processes wait for one another on the
    migrations' advisory lock (alembic/env.py) and the later ones find nothing to do."""
    with _lock:
        if url not in _migrated:
            upgrade_schema(url)
            _migrated.add(url)


def get_runtime(config: Config | None = None) -> Runtime:
    """The process's runtime, built on first use from ``config`` (by default the environment);
    later calls get the same one."""
    global _runtime
    with _lock:
        if _runtime is None:
            _runtime = Runtime(config or Config.from_env())
        return _runtime


def prepared_runtime(config: Config | None = None) -> Runtime:
    """The process's runtime with its database reachable and, when it is the embedded server,
    migrated (see :attr:`Runtime.database_url`).  Raises
    :class:`app.embedded.DatabaseUnavailable` with what to do when there is no database."""
    runtime = get_runtime(config)
    runtime.database_url  # noqa: B018 - started (and on the embedded default migrated) now
    return runtime
