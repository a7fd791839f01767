"""Every API operation the client makes, one function each, building its :class:`Call`.

Each is registered with the route it calls (:func:`operation`): the method and path, the
component its JSON body's fields come from (the function takes them as arguments), its query
arguments, headers, multipart fields and the component of each answer.  ``Client`` and
``AsyncClient`` expose each under the same name and signature.  ``tests/test_python_client.py``
compares this registry and the models with the live ``/openapi.json``: a route, argument,
field or answer the client does not declare fails the test, which is how "hand-written against
the spec" stays true.  ``NOT_COVERED`` lists the routes left out on purpose, with why.
"""

from __future__ import annotations

import json as jsonlib
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, ParamSpec, TypeVar
from urllib.parse import quote

import httpx

from pagemill_client._core import Call, files_of, model, no_body
from pagemill_client.models import (
    ChunkWindow,
    DocumentDetail,
    DocumentPage,
    Health,
    IndexedDocumentPage,
    Job,
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
    dump,
)

P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    function: str
    # The component whose properties are the function's arguments (a JSON body).
    body: str | None = None
    query: tuple[str, ...] = ()
    headers: tuple[str, ...] = ()
    # Multipart fields, each to the function argument that fills it.
    multipart: dict[str, str] = field(default_factory=dict)
    # Status to component (None: no JSON body).
    responses: dict[int, str | None] = field(default_factory=dict)


OPERATIONS: list[Operation] = []

NOT_COVERED: dict[tuple[str, str], str] = {
    ("GET", "/"): "the web page, for browsers",
    ("GET", "/web/page.css"): "the web page's files",
    ("GET", "/web/page.js"): "the web page's files",
    ("GET", "/metrics"): "Prometheus's text format, for Prometheus",
}


def operation(method: str, path: str, *, body: str | None = None, query: tuple[str, ...] = (),
              headers: tuple[str, ...] = (), multipart: dict[str, str] | None = None,
              responses: dict[int, str | None]) -> Callable[[Callable[P, R]], Callable[P, R]]:
    def register(function: Callable[P, R]) -> Callable[P, R]:
        OPERATIONS.append(Operation(method, path, function.__name__, body, query, headers,
                                    multipart or {}, responses))
        return function

    return register


def _q(value: str) -> str:
    """A path argument, escaped (ids never contain a slash or a query)."""
    return quote(str(value), safe="")


def _json_document(document: TextDocument | dict[str, Any]) -> dict[str, Any]:
    return dump(document) if isinstance(document, TextDocument) else dict(document)


def _options(options: JobOptions | dict[str, Any] | None) -> dict[str, Any] | None:
    if options is None:
        return None
    return dump(options) if isinstance(options, JobOptions) else dict(options)


def _job(response: httpx.Response) -> Job:
    return model(Job)(response)  # type: ignore[no-any-return]


# --- health -------------------------------------------------------------------------------

@operation("GET", "/healthz", responses={200: "Health"})
def health() -> Call:
    """Liveness: the API answers and reaches its database."""
    # A 503 here is the answer (unhealthy), not a reason to wait and ask again.
    return Call("GET", "/healthz", model(Health), idempotent=False)


@operation("GET", "/readyz", responses={200: "Health"})
def ready() -> Call:
    """Readiness: database, schema, broker, model files and a live worker (503 names what fails)."""
    return Call("GET", "/readyz", model(Health), idempotent=False)


# --- jobs ---------------------------------------------------------------------------------

@operation("POST", "/v1/jobs", body="JobRequest", headers=("Idempotency-Key",),
           responses={200: "Job", 202: "Job"})
def submit(documents: Sequence[TextDocument | dict[str, Any]],
           options: JobOptions | dict[str, Any] | None = None,
           idempotency_key: str | None = None) -> Call:
    """Submit texts, URLs or direct uploads' object keys as one job.  An ``Idempotency-Key``
    is made when none is given and kept for every retry of this call, so a retried submission
    answers with the job the first attempt made."""
    body: dict[str, Any] = {"documents": [_json_document(d) for d in documents]}
    if (opts := _options(options)) is not None:
        body["options"] = opts
    return Call("POST", "/v1/jobs", _job, json=body,
                headers={"Idempotency-Key": idempotency_key or str(uuid.uuid4())})


@operation("POST", "/v1/jobs", multipart={"file": "paths", "options": "options"},
           headers=("Idempotency-Key",), responses={200: "Job", 202: "Job"})
def upload(paths: Iterable[str | Path], options: JobOptions | dict[str, Any] | None = None,
           idempotency_key: str | None = None) -> Call:
    """Upload files, and folders (recursively), as one job; each document's id is its file
    name, or for a folder's files the folder's name and the path inside it."""
    found = files_of(paths)
    form = {"options": jsonlib.dumps(opts)} if (opts := _options(options)) is not None else None

    def files() -> list[tuple[str, tuple[str, Any, str]]]:
        return [("file", (name, path.open("rb"), "application/octet-stream")) for path, name in found]

    return Call("POST", "/v1/jobs", _job, files=files, data=form,
                headers={"Idempotency-Key": idempotency_key or str(uuid.uuid4())})


@operation("GET", "/v1/jobs", query=("status", "limit", "offset"), responses={200: "JobPage"})
def list_jobs(status: str | None = None, limit: int | None = None, offset: int | None = None) -> Call:
    """The caller's jobs, newest first (``next_offset`` is None on the last page)."""
    return Call("GET", "/v1/jobs", model(JobPage),
                params={"status": status, "limit": limit, "offset": offset})


@operation("GET", "/v1/jobs/{job_id}", responses={200: "Job"})
def get_job(job_id: str) -> Call:
    return Call("GET", f"/v1/jobs/{_q(job_id)}", _job)


@operation("GET", "/v1/jobs/{job_id}/documents", query=("status", "limit", "offset"),
           responses={200: "DocumentPage"})
def list_documents(job_id: str, status: str | None = None, limit: int | None = None,
                   offset: int | None = None) -> Call:
    """A job's documents and their outcomes."""
    return Call("GET", f"/v1/jobs/{_q(job_id)}/documents", model(DocumentPage),
                params={"status": status, "limit": limit, "offset": offset})


@operation("GET", "/v1/jobs/{job_id}/events", headers=("Last-Event-ID",), responses={200: None})
def events(job_id: str) -> Call:
    """The job's Server-Sent Events (read by ``Client.events``, which reconnects, sending
    ``Last-Event-ID``)."""
    return Call("GET", f"/v1/jobs/{_q(job_id)}/events", no_body)


@operation("POST", "/v1/jobs/{job_id}/cancel", responses={200: "Job"})
def cancel_job(job_id: str) -> Call:
    # Cancelling twice is cancelling once: safe to repeat.
    return Call("POST", f"/v1/jobs/{_q(job_id)}/cancel", _job)


@operation("POST", "/v1/jobs/{job_id}/retry", responses={202: "Job"})
def retry_job(job_id: str) -> Call:
    """Re-run the failed documents of a finished job (409 ``nothing_to_retry`` if none)."""
    return Call("POST", f"/v1/jobs/{_q(job_id)}/retry", _job, idempotent=False)


# --- documents ----------------------------------------------------------------------------

@operation("GET", "/v1/documents", query=("limit", "after", "prefix", "mime_type"),
           responses={200: "IndexedDocumentPage"})
def list_indexed_documents(limit: int | None = None, after: str | None = None,
                           prefix: str | None = None, mime_type: str | None = None) -> Call:
    """The caller's indexed documents by id (``next_after`` is None on the last page)."""
    return Call("GET", "/v1/documents", model(IndexedDocumentPage),
                params={"limit": limit, "after": after, "prefix": prefix, "mime_type": mime_type})


@operation("GET", "/v1/documents/{document_uuid}", responses={200: "DocumentDetail"})
def get_document(document_uuid: str) -> Call:
    """One document: Markdown, chunks, extractor, quality, extraction report, attachments."""
    return Call("GET", f"/v1/documents/{_q(document_uuid)}", model(DocumentDetail))


@operation("GET", "/v1/documents/{document_uuid}/markdown", query=("offset", "max_chars"),
           responses={200: "MarkdownWindow"})
def get_markdown(document_uuid: str, offset: int | None = None, max_chars: int | None = None) -> Call:
    """Some of a document's Markdown from character ``offset`` (``next_offset`` continues)."""
    return Call("GET", f"/v1/documents/{_q(document_uuid)}/markdown", model(MarkdownWindow),
                params={"offset": offset, "max_chars": max_chars})


@operation("GET", "/v1/documents/{document_uuid}/chunks", query=("start", "count", "around"),
           responses={200: "ChunkWindow"})
def get_chunks(document_uuid: str, start: int | None = None, count: int | None = None,
               around: int | None = None) -> Call:
    """A window of a document's chunks: from ``start``, or centred on a hit's ``chunk_id``."""
    return Call("GET", f"/v1/documents/{_q(document_uuid)}/chunks", model(ChunkWindow),
                params={"start": start, "count": count, "around": around})


@operation("DELETE", "/v1/documents/{document_uuid}", responses={204: None})
def delete_document(document_uuid: str) -> Call:
    return Call("DELETE", f"/v1/documents/{_q(document_uuid)}", no_body)


# --- search, uploads, parse, usage ----------------------------------------------------------

@operation("POST", "/v1/search", body="SearchRequest",
           responses={200: "SearchResults"})
def search(query: str, k: int | None = None, mode: str | None = None, collapse: bool | None = None,
           filters: SearchFilters | dict[str, Any] | None = None, fusion: str | None = None,
           alpha: float | None = None, ef_search: int | None = None, bm25_exact: bool | None = None,
           after_job: str | None = None, normalisation: str | None = None, expand: bool | None = None,
           rerank: bool | None = None, rerank_depth: int | None = None) -> Call:
    """Hybrid (default), BM25 or dense search; unset arguments take the server's defaults."""
    body = {"query": query, "k": k, "mode": mode, "collapse": collapse, "fusion": fusion,
            "alpha": alpha, "ef_search": ef_search, "bm25_exact": bm25_exact, "after_job": after_job,
            "normalisation": normalisation, "expand": expand, "rerank": rerank,
            "rerank_depth": rerank_depth,
            "filters": dump(filters) if isinstance(filters, SearchFilters) else filters}
    # A search changes nothing: repeating it is always safe.
    return Call("POST", "/v1/search", model(SearchResults),
                json={k_: v for k_, v in body.items() if v is not None})


@operation("POST", "/v1/uploads", responses={201: "Upload"})
def create_upload() -> Call:
    """A presigned URL to PUT one document's bytes into object storage (S3 storage only)."""
    return Call("POST", "/v1/uploads", model(Upload), idempotent=False)


@operation("POST", "/v1/parse", multipart={"file": "path"},
           responses={200: "Parsed", 202: "ParsePending"})
def parse(path: str | Path) -> Call:
    """Parse one small file synchronously: Markdown and chunks (200), the document's error
    (422, raised), or the job still running after the server's deadline (202)."""
    file_path = Path(path)

    def answer(response: httpx.Response) -> Parsed | ParsePending:
        answered: Parsed | ParsePending = (model(ParsePending) if response.status_code == 202
                                           else model(Parsed))(response)
        return answered

    return Call("POST", "/v1/parse", answer, idempotent=False,
                files=lambda: [("file", (file_path.name, file_path.open("rb"), "application/octet-stream"))])


@operation("GET", "/v1/usage", query=("from", "to"), responses={200: "Usage"})
def usage(from_: date | str, to: date | str) -> Call:
    """Documents, pages, bytes and transcription seconds per key and UTC day (both included)."""
    return Call("GET", "/v1/usage", model(Usage), params={"from": str(from_), "to": str(to)})


# --- webhooks -----------------------------------------------------------------------------

@operation("POST", "/v1/webhooks", body="WebhookRequest", responses={201: "WebhookSecret"})
def create_webhook(url: str, events: Sequence[str], description: str | None = None) -> Call:
    """A webhook endpoint; the answer's ``secret`` (``whsec_...``) is shown this once."""
    body: dict[str, Any] = {"url": url, "events": list(events)}
    if description is not None:
        body["description"] = description
    return Call("POST", "/v1/webhooks", model(WebhookSecret), json=body, idempotent=False)


@operation("GET", "/v1/webhooks", query=("limit", "offset"), responses={200: "WebhookPage"})
def list_webhooks(limit: int | None = None, offset: int | None = None) -> Call:
    return Call("GET", "/v1/webhooks", model(WebhookPage), params={"limit": limit, "offset": offset})


@operation("GET", "/v1/webhooks/{webhook_id}", responses={200: "Webhook"})
def get_webhook(webhook_id: str) -> Call:
    return Call("GET", f"/v1/webhooks/{_q(webhook_id)}", model(Webhook))


@operation("DELETE", "/v1/webhooks/{webhook_id}", responses={204: None})
def delete_webhook(webhook_id: str) -> Call:
    return Call("DELETE", f"/v1/webhooks/{_q(webhook_id)}", no_body)


@operation("POST", "/v1/webhooks/{webhook_id}/rotate-secret", responses={200: "WebhookSecret"})
def rotate_webhook_secret(webhook_id: str) -> Call:
    """A new signing secret (shown once); the old one also signs for 24 h."""
    return Call("POST", f"/v1/webhooks/{_q(webhook_id)}/rotate-secret", model(WebhookSecret),
                idempotent=False)


@operation("GET", "/v1/webhooks/{webhook_id}/deliveries", query=("status", "limit", "offset"),
           responses={200: "WebhookDeliveryPage"})
def list_deliveries(webhook_id: str, status: str | None = None, limit: int | None = None,
                    offset: int | None = None) -> Call:
    return Call("GET", f"/v1/webhooks/{_q(webhook_id)}/deliveries", model(WebhookDeliveryPage),
                params={"status": status, "limit": limit, "offset": offset})


@operation("POST", "/v1/webhooks/{webhook_id}/deliveries/{event_id}/redeliver",
           responses={202: None})
def redeliver(webhook_id: str, event_id: str) -> Call:
    return Call("POST", f"/v1/webhooks/{_q(webhook_id)}/deliveries/{_q(event_id)}/redeliver", no_body,
                idempotent=False)
