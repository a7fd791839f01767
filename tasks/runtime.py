"""Per-process resources of a worker or CLI: configuration, database engine, storage.

Built on first use (never at import time) and cached for the life of the process.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cached_property

from sqlalchemy import Engine

from app.config import Config
from app.db import get_engine
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


def get_runtime() -> Runtime:
    global _runtime
    with _lock:
        if _runtime is None:
            _runtime = Runtime(Config.from_env())
        return _runtime
