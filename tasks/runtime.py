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

    @cached_property
    def database_url(self) -> str:
        return resolve_database_url(self.config)

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
_migrated = False


def get_runtime(config: Config | None = None) -> Runtime:
    """The process's runtime, built on first use from ``config`` (by default the environment);
    later calls get the same one."""
    global _runtime
    with _lock:
        if _runtime is None:
            _runtime = Runtime(config or Config.from_env())
        return _runtime


def prepared_runtime(config: Config | None = None) -> Runtime:
    """The process's runtime with its database reachable and, when it is the embedded server
    (which pagemill owns), migrated to the newest schema.  A server given by ``DATABASE_URL``
    is migrated by its operator (``pagemill migrate``, the Procfile's ``release``).  Raises
    :class:`app.embedded.DatabaseUnavailable` with what to do when there is no database."""
    global _migrated
    runtime = get_runtime(config)
    url = runtime.database_url
    with _lock:
        if runtime.config.uses_embedded_database and not _migrated:
            upgrade_schema(url)
            _migrated = True
    return runtime
