"""Where the API is, the key, and the retry policy: resolved once per client."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass

from pagemill_client._core import DEFAULT_BASE_URL, RetryPolicy

VERSION = "0.1.0"


@dataclass(frozen=True)
class Settings:
    base_url: str
    headers: dict[str, str]
    timeout: float
    retry: RetryPolicy

    @classmethod
    def resolve(cls, base_url: str | None, api_key: str | None, timeout: float,
                retry: RetryPolicy | None) -> Settings:
        url = (base_url or os.environ.get("PAGEMILL_URL") or DEFAULT_BASE_URL).rstrip("/")
        key = api_key if api_key is not None else os.environ.get("PAGEMILL_API_KEY")
        headers = {"User-Agent": f"pagemill-client/{VERSION}"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return cls(url, headers, timeout, retry or RetryPolicy())

    def url(self, path: str) -> str:
        return self.base_url + path

    def reconnect_delay(self, failures: int, retry_ms: int | None) -> float:
        """Before reopening an event stream: the server's ``retry:`` if it sent one, else the
        policy's backoff (capped at 5 s: a restarting server is usually back within it)."""
        if retry_ms is not None:
            return retry_ms / 1000
        return random.uniform(0, min(5.0, self.retry.backoff * 2 ** failures))
