"""The asynchronous client: the same operations as :class:`~pagemill_client.Client`, awaited."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from datetime import date
from pathlib import Path
from typing import Any

import httpx

from pagemill_client import operations as ops
from pagemill_client._core import (
    ApiError,
    Call,
    JobFailed,
    RetryPolicy,
    SseParser,
    StreamState,
    WaitTimeout,
)
from pagemill_client._settings import Settings
from pagemill_client.models import (
    ChunkWindow,
    DocumentDetail,
    DocumentPage,
    Health,
    IndexedDocumentPage,
    Job,
    JobEvent,
    JobOptions,
    JobPage,
    MarkdownWindow,
    Parsed,
    ParsePending,
    SearchFilters,
    SearchResults,
    TextDocument,
    Upload,
    Usage,
    Webhook,
    WebhookDeliveryPage,
    WebhookPage,
    WebhookSecret,
)


class AsyncClient:
    """pagemill's API over httpx, asynchronously (``async with AsyncClient(...) as client``).

    ``AsyncClient("http://127.0.0.1:8000", api_key="pm_...")``; without arguments the URL and the
    key come from ``PAGEMILL_URL`` and ``PAGEMILL_API_KEY``.  Refusals raise
    :class:`~pagemill_client.ApiError`; 429s (and, for calls safe to repeat, 503s and dropped
    connections) are retried per ``retry`` (:class:`~pagemill_client.RetryPolicy`).  Pass
    ``http_client`` to bring an ``httpx.AsyncClient`` of your own (proxies, TLS, event hooks).
    """

    def __init__(self, base_url: str | None = None, api_key: str | None = None, *,
                 timeout: float = 60.0, retry: RetryPolicy | None = None,
                 http_client: httpx.AsyncClient | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.settings = Settings.resolve(base_url, api_key, timeout, retry)
        self._http = http_client or httpx.AsyncClient(timeout=timeout)
        self._owns_http = http_client is None
        self._sleep = sleep

    async def close(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    # --- the request loop ---------------------------------------------------------------

    async def _run(self, call: Call) -> Any:
        attempt = 0
        while True:
            try:
                response = await self._send(call)
            except httpx.TransportError as exc:
                delay = self.settings.retry.delay(attempt, None) if call.retriable_error(exc) else None
                if delay is None:
                    raise
            else:
                if response.status_code in call.ok:
                    return call.parse(response)
                error = ApiError.from_response(response)
                delay = (self.settings.retry.delay(attempt, error.retry_after)
                         if call.retriable_status(response.status_code) else None)
                if delay is None:
                    raise error
            await self._sleep(delay)
            attempt += 1

    async def _send(self, call: Call) -> httpx.Response:
        kwargs = call.request_kwargs()
        headers = {**self.settings.headers, **kwargs.pop("headers")}
        files = call.files() if call.files else None
        try:
            return await self._http.request(call.method, self.settings.url(call.path), headers=headers,
                                      files=files, **kwargs)
        finally:
            for _, (_, handle, _) in files or ():
                handle.close()

    # --- health -------------------------------------------------------------------------

    async def health(self) -> Health:
        return await self._run(ops.health())  # type: ignore[no-any-return]

    async def ready(self) -> Health:
        return await self._run(ops.ready())  # type: ignore[no-any-return]

    # --- jobs ---------------------------------------------------------------------------

    async def submit(self, documents: Sequence[TextDocument | dict[str, Any]],
               options: JobOptions | dict[str, Any] | None = None,
               idempotency_key: str | None = None) -> Job:
        return await self._run(ops.submit(documents, options, idempotency_key))  # type: ignore[no-any-return]

    async def upload(self, paths: Iterable[str | Path], options: JobOptions | dict[str, Any] | None = None,
               idempotency_key: str | None = None) -> Job:
        return await self._run(ops.upload(paths, options, idempotency_key))  # type: ignore[no-any-return]

    async def list_jobs(self, status: str | None = None, limit: int | None = None,
                  offset: int | None = None) -> JobPage:
        return await self._run(ops.list_jobs(status, limit, offset))  # type: ignore[no-any-return]

    async def get_job(self, job_id: str) -> Job:
        return await self._run(ops.get_job(job_id))  # type: ignore[no-any-return]

    async def list_documents(self, job_id: str, status: str | None = None, limit: int | None = None,
                       offset: int | None = None) -> DocumentPage:
        page: DocumentPage = await self._run(ops.list_documents(job_id, status, limit, offset))
        return page

    async def cancel_job(self, job_id: str) -> Job:
        return await self._run(ops.cancel_job(job_id))  # type: ignore[no-any-return]

    async def retry_job(self, job_id: str) -> Job:
        return await self._run(ops.retry_job(job_id))  # type: ignore[no-any-return]

    def events(self, job_id: str, *, reconnect_for: float = 120.0,
               read_timeout: float = 60.0) -> AsyncIterator[JobEvent]:
        """The job's events until it ends: ``progress`` (each change, ``event.job``), then
        ``end``.  A dropped connection (a restarted server, a proxy's idle timeout, the
        server's hour-long stream limit) is reopened, with ``Last-Event-ID`` when the server
        gave event ids, for up to ``reconnect_for`` seconds without a connection; the state a
        new connection starts with is not repeated when it is the one already reported.  A
        stream silent for ``read_timeout`` seconds (the server sends a keep-alive every 15 s
        by default) counts as dropped."""
        return self._events(job_id, reconnect_for, read_timeout, None)

    async def _events(self, job_id: str, reconnect_for: float, read_timeout: float,
                      deadline: float | None) -> AsyncIterator[JobEvent]:
        state, call, failures, down_since = StreamState(job_id), ops.events(job_id), 0, None
        while not state.ended:
            parser = SseParser()
            delay: float | None
            timeout = httpx.Timeout(self.settings.timeout, read=_bounded(read_timeout, deadline))
            try:
                request_headers = {**self.settings.headers, **state.headers()}
                async with self._http.stream("GET", self.settings.url(call.path), timeout=timeout,
                                             headers=request_headers) as response:
                    if response.status_code != 200:
                        await response.aread()
                        error = ApiError.from_response(response)
                        delay = (self.settings.retry.delay(failures, error.retry_after)
                                 if call.retriable_status(response.status_code) else None)
                        if delay is None:
                            raise error
                    else:
                        failures, down_since = 0, None
                        async for line in response.aiter_lines():
                            for event in state.events(iter((line,)), parser):
                                yield event
                            if state.ended:
                                break
                        # Closed without its end (the server's limit on a stream's length,
                        # a proxy): reopen it after a short pause, never in a tight loop.
                        delay = self.settings.reconnect_delay(0, parser.retry_ms)
            except httpx.TransportError:
                now = time.monotonic()
                down_since = down_since if down_since is not None else now
                if now - down_since > reconnect_for:
                    raise
                delay = self.settings.reconnect_delay(failures, parser.retry_ms)
            if state.ended:
                return
            if deadline is not None and time.monotonic() >= deadline:
                raise WaitTimeout(job_id, 0)
            failures += 1
            assert delay is not None
            await self._sleep(delay)

    async def wait(self, job_id: str, on_progress: Callable[[Job], None] | None = None, *,
                   timeout: float | None = None, raise_on_failure: bool = False) -> Job:
        """Follow the job's events until it is terminal and return it; ``on_progress(job)``
        is called on every change (counts, status).  ``timeout``: raise
        :class:`~pagemill_client.WaitTimeout` after that many seconds;
        ``raise_on_failure``: raise :class:`~pagemill_client.JobFailed` if it ended
        ``failed`` or ``cancelled``."""
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            async for event in self._events(job_id, 120.0, 60.0, deadline):
                if event.event == "progress" and event.job is not None and on_progress is not None:
                    on_progress(event.job)
        except (httpx.ReadTimeout, WaitTimeout):
            if deadline is not None and time.monotonic() >= deadline:
                raise WaitTimeout(job_id, timeout or 0) from None
            raise
        job = await self.get_job(job_id)
        if raise_on_failure and job.status in ("failed", "cancelled"):
            raise JobFailed(job)
        return job

    # --- documents ----------------------------------------------------------------------

    async def get_markdown(self, document_uuid: str, offset: int | None = None,
                     max_chars: int | None = None) -> MarkdownWindow:
        return await self._run(ops.get_markdown(document_uuid, offset, max_chars))  # type: ignore[no-any-return]

    async def list_indexed_documents(self, limit: int | None = None, after: str | None = None,
                               prefix: str | None = None,
                               mime_type: str | None = None) -> IndexedDocumentPage:
        return await self._run(ops.list_indexed_documents(limit, after, prefix, mime_type))  # type: ignore[no-any-return]

    async def get_document(self, document_uuid: str) -> DocumentDetail:
        return await self._run(ops.get_document(document_uuid))  # type: ignore[no-any-return]

    async def get_chunks(self, document_uuid: str, start: int | None = None, count: int | None = None,
                   around: int | None = None) -> ChunkWindow:
        window: ChunkWindow = await self._run(ops.get_chunks(document_uuid, start, count, around))
        return window

    async def delete_document(self, document_uuid: str) -> None:
        await self._run(ops.delete_document(document_uuid))

    # --- search, uploads, parse, usage --------------------------------------------------

    async def search(self, query: str, k: int | None = None, mode: str | None = None,
               collapse: bool | None = None, filters: SearchFilters | dict[str, Any] | None = None,
               fusion: str | None = None, alpha: float | None = None, ef_search: int | None = None,
               bm25_exact: bool | None = None, after_job: str | None = None,
               normalisation: str | None = None, expand: bool | None = None,
               rerank: bool | None = None, rerank_depth: int | None = None) -> SearchResults:
        return await self._run(ops.search(query, k, mode, collapse, filters, fusion, alpha,  # type: ignore[no-any-return]
                                    ef_search, bm25_exact, after_job, normalisation,
                                    expand, rerank, rerank_depth))

    async def create_upload(self) -> Upload:
        return await self._run(ops.create_upload())  # type: ignore[no-any-return]

    async def parse(self, path: str | Path) -> Parsed | ParsePending:
        return await self._run(ops.parse(path))  # type: ignore[no-any-return]

    async def usage(self, from_: date | str, to: date | str) -> Usage:
        return await self._run(ops.usage(from_, to))  # type: ignore[no-any-return]

    # --- webhooks -----------------------------------------------------------------------

    async def create_webhook(self, url: str, events: Sequence[str],
                                   description: str | None = None) -> WebhookSecret:
        return await self._run(ops.create_webhook(url, events, description))  # type: ignore[no-any-return]

    async def list_webhooks(self, limit: int | None = None, offset: int | None = None) -> WebhookPage:
        return await self._run(ops.list_webhooks(limit, offset))  # type: ignore[no-any-return]

    async def get_webhook(self, webhook_id: str) -> Webhook:
        return await self._run(ops.get_webhook(webhook_id))  # type: ignore[no-any-return]

    async def delete_webhook(self, webhook_id: str) -> None:
        await self._run(ops.delete_webhook(webhook_id))

    async def rotate_webhook_secret(self, webhook_id: str) -> WebhookSecret:
        return await self._run(ops.rotate_webhook_secret(webhook_id))  # type: ignore[no-any-return]

    async def list_deliveries(self, webhook_id: str, status: str | None = None, limit: int | None = None,
                        offset: int | None = None) -> WebhookDeliveryPage:
        page: WebhookDeliveryPage = await self._run(ops.list_deliveries(webhook_id, status, limit, offset))
        return page

    async def redeliver(self, webhook_id: str, event_id: str) -> None:
        await self._run(ops.redeliver(webhook_id, event_id))


def _bounded(read_timeout: float, deadline: float | None) -> float:
    if deadline is None:
        return read_timeout
    return max(0.05, min(read_timeout, deadline - time.monotonic()))
