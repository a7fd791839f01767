"""What pagemill's API answers and accepts, as dataclasses (field names as on the wire).

Each class names the ``/openapi.json`` component it mirrors in ``SCHEMA``;
``tests/test_python_client.py`` compares every such class with the live description, field by
field (name, required, nullable), so a change to the API that the client does not follow
fails there.  Responses are read with :func:`load`, which ignores fields it does not know:
a newer server never breaks an older client.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, ClassVar, Literal, TypeVar, Union

JobStatus = Literal["queued", "running", "completed", "completed_with_errors", "failed", "cancelled"]
DocumentStatus = Literal["pending", "processing", "waiting", "completed", "failed", "cancelled"]
SearchMode = Literal["hybrid", "bm25", "dense"]
TERMINAL_JOB_STATES = frozenset({"completed", "completed_with_errors", "failed", "cancelled"})

Model = TypeVar("Model")


@dataclass(frozen=True, kw_only=True)
class Box:
    """Where some of a chunk's text is drawn: PDF points from the page's top-left corner."""

    SCHEMA: ClassVar[str] = "Box"
    page: int
    x0: float
    top: float
    x1: float
    bottom: float
    width: float
    height: float


@dataclass(frozen=True, kw_only=True)
class Chunk:
    SCHEMA: ClassVar[str] = "Chunk"
    id: int
    chunk_no: int
    text: str
    heading_path: list[str]
    page_start: int | None
    page_end: int | None
    boxes: list[Box] | None
    start_s: float | None
    end_s: float | None
    token_count: int


@dataclass(frozen=True, kw_only=True)
class ChunkWindow:
    """Some of a document's chunks, in order (``GET /v1/documents/<uuid>/chunks``)."""

    SCHEMA: ClassVar[str] = "ChunkWindow"
    document_id: str
    total_chunks: int
    start: int
    next_start: int | None
    chunks: list[Chunk]


@dataclass(frozen=True, kw_only=True)
class Attachment:
    SCHEMA: ClassVar[str] = "Attachment"
    id: str
    document_id: str
    filename: str | None
    mime_type: str | None
    status: str
    error_code: str | None
    error_message: str | None
    chunk_count: int | None


@dataclass(frozen=True, kw_only=True)
class Document:
    """One document's outcome, as a job's document listing shows it."""

    SCHEMA: ClassVar[str] = "Document"
    id: str
    job_id: str
    document_id: str
    status: str
    error_code: str | None
    error_message: str | None
    filename: str | None
    mime_type: str | None
    size_bytes: int | None
    sha256: str | None
    source: str
    url: str | None
    extractor: str | None
    page_count: int | None
    chunk_count: int | None
    attempts: int
    metadata: dict[str, Any]
    quality: float | None
    language: str | None
    annotation: Any | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    parent_id: str | None


@dataclass(frozen=True, kw_only=True)
class DocumentDetail(Document):
    """A document with its Markdown, chunks, extraction report and attachments."""

    SCHEMA: ClassVar[str] = "DocumentDetail"
    markdown: str | None
    extraction: Any | None
    chunks: list[Chunk]
    indexed: bool
    attachments: list[Attachment]


@dataclass(frozen=True, kw_only=True)
class MarkdownWindow(Document):
    """A document's outcome and some of its Markdown, from character ``offset``."""

    SCHEMA: ClassVar[str] = "MarkdownWindow"
    markdown: str
    offset: int
    total_chars: int
    next_offset: int | None
    indexed: bool


@dataclass(frozen=True, kw_only=True)
class DocumentPage:
    SCHEMA: ClassVar[str] = "DocumentPage"
    documents: list[Document]
    next_offset: int | None


@dataclass(frozen=True, kw_only=True)
class Job:
    """A job's status and counts."""

    SCHEMA: ClassVar[str] = "Job"
    id: str
    status: str
    total_documents: int
    completed_documents: int
    failed_documents: int
    cancelled_documents: int
    processing_documents: int
    pending_documents: int
    total_batches: int
    done_batches: int
    attachments_dropped: int
    documents_with_dropped_attachments: int
    batch_size: int
    retries: int
    options: dict[str, Any]
    secret_options: list[str]
    created_at: datetime
    updated_at: datetime
    published_at: datetime | None
    finished_at: datetime | None

    @property
    def done(self) -> bool:
        """Whether the job is terminal (nothing more will change unless it is retried)."""
        return self.status in TERMINAL_JOB_STATES

    @property
    def finished_documents(self) -> int:
        return self.completed_documents + self.failed_documents + self.cancelled_documents


@dataclass(frozen=True, kw_only=True)
class JobPage:
    SCHEMA: ClassVar[str] = "JobPage"
    jobs: list[Job]
    next_offset: int | None


@dataclass(frozen=True, kw_only=True)
class JobOptions:
    """Per-job options (``password`` is write-only: never returned)."""

    SCHEMA: ClassVar[str] = "JobOptions"
    provider: Literal["mistral-batch"] | None = None
    annotation_schema: dict[str, Any] | None = None
    password: str | None = None


@dataclass(frozen=True, kw_only=True)
class TextDocument:
    """A document of a JSON job: exactly one of ``text``, ``url`` or ``object_key``."""

    SCHEMA: ClassVar[str] = "TextRecord"
    id: str
    text: str | None = None
    url: str | None = None
    object_key: str | None = None
    title: str | None = None
    metadata: dict[str, Any] | None = None


@dataclass(frozen=True, kw_only=True)
class SearchFilters:
    SCHEMA: ClassVar[str] = "SearchFilters"
    document_ids: list[str] | None = None
    job_id: str | None = None
    metadata: dict[str, Any] | None = None
    mime_types: list[str] | None = None
    indexed_after: datetime | str | None = None
    indexed_before: datetime | str | None = None


@dataclass(frozen=True, kw_only=True)
class IndexedDocument:
    """A document as search sees it (``GET /v1/documents``)."""

    SCHEMA: ClassVar[str] = "IndexedDocument"
    document_id: str
    document_uuid: str | None
    job_id: str | None
    title: str | None
    mime_type: str | None
    metadata: dict[str, Any]
    chunk_count: int
    indexed_at: datetime


@dataclass(frozen=True, kw_only=True)
class IndexedDocumentPage:
    SCHEMA: ClassVar[str] = "IndexedDocumentPage"
    documents: list[IndexedDocument]
    next_after: str | None


@dataclass(frozen=True, kw_only=True)
class SearchHit:
    SCHEMA: ClassVar[str] = "SearchHit"
    document_id: str
    document_uuid: str | None
    chunk_id: int
    score: float
    text: str
    heading_path: list[str]
    page_start: int | None
    page_end: int | None
    boxes: list[Box] | None
    start_s: float | None
    end_s: float | None
    dense_rank: int | None
    dense_score: float | None
    bm25_rank: int | None
    bm25_score: float | None
    title: str | None
    mime_type: str | None
    snippet: str | None
    # Present only when the server's reranker ordered this hit (``score`` stays the search's).
    rerank_score: float | None = None


@dataclass(frozen=True, kw_only=True)
class Ranking:
    """How a search's results were made: fusion, normalisation, expansion, the reranker."""

    SCHEMA: ClassVar[str] = "Ranking"
    fusion: str
    alpha: float
    normalisation: str
    rrf_k: int
    bm25_path: str | None
    expansion: bool
    reranker: str | None
    rerank_depth: int | None
    reranked: int | None
    rerank_ms: float | None


@dataclass(frozen=True, kw_only=True)
class SearchResults:
    SCHEMA: ClassVar[str] = "SearchResults"
    query: str
    mode: str
    fusion: str
    bm25_path: str | None
    ranking: Ranking
    results: list[SearchHit]


@dataclass(frozen=True, kw_only=True)
class Upload:
    """Where to PUT one document's bytes (``POST /v1/uploads``, S3 storage only)."""

    SCHEMA: ClassVar[str] = "Upload"
    object_key: str
    upload_url: str
    method: str
    expires_in: int
    max_bytes: int


@dataclass(frozen=True, kw_only=True)
class Parsed:
    SCHEMA: ClassVar[str] = "Parsed"
    job_id: str
    document: DocumentDetail


@dataclass(frozen=True, kw_only=True)
class ParsePending:
    """``POST /v1/parse`` did not finish within its deadline: the job goes on."""

    SCHEMA: ClassVar[str] = "ParsePending"
    job_id: str
    status: str
    message: str


@dataclass(frozen=True, kw_only=True)
class UsageCounts:
    SCHEMA: ClassVar[str] = "UsageCounts"
    documents_completed: int
    documents_failed: int
    pages: int
    bytes: int
    transcription_seconds: float


@dataclass(frozen=True, kw_only=True)
class KeyDayUsage(UsageCounts):
    SCHEMA: ClassVar[str] = "KeyDayUsage"
    day: date
    api_key_id: str | None
    key_prefix: str | None
    key_name: str | None


@dataclass(frozen=True, kw_only=True)
class Usage:
    SCHEMA: ClassVar[str] = "Usage"
    # "from" is a keyword in Python: the wire name is kept in the field's metadata.
    from_: date = field(metadata={"wire": "from"})
    to: date
    usage: list[KeyDayUsage]
    totals: UsageCounts


@dataclass(frozen=True, kw_only=True)
class Webhook:
    SCHEMA: ClassVar[str] = "Webhook"
    id: str
    url: str
    events: list[str]
    description: str | None
    created_at: datetime
    updated_at: datetime
    disabled_at: datetime | None
    disabled_reason: str | None
    previous_secret_expires_at: datetime | None


@dataclass(frozen=True, kw_only=True)
class WebhookSecret(Webhook):
    """A webhook endpoint with its signing secret, shown once (creation, rotation)."""

    SCHEMA: ClassVar[str] = "WebhookSecret"
    secret: str


@dataclass(frozen=True, kw_only=True)
class WebhookPage:
    SCHEMA: ClassVar[str] = "WebhookPage"
    webhooks: list[Webhook]
    next_offset: int | None


@dataclass(frozen=True, kw_only=True)
class WebhookAttempt:
    SCHEMA: ClassVar[str] = "WebhookAttempt"
    attempted_at: datetime
    status_code: int | None
    error: str | None
    duration_ms: int


@dataclass(frozen=True, kw_only=True)
class WebhookDelivery:
    SCHEMA: ClassVar[str] = "WebhookDelivery"
    event_id: str
    type: str
    status: str
    attempt_count: int
    next_attempt_at: datetime | None
    last_status_code: int | None
    last_error: str | None
    created_at: datetime
    delivered_at: datetime | None
    attempts: list[WebhookAttempt]


@dataclass(frozen=True, kw_only=True)
class WebhookDeliveryPage:
    SCHEMA: ClassVar[str] = "WebhookDeliveryPage"
    deliveries: list[WebhookDelivery]
    next_offset: int | None


@dataclass(frozen=True, kw_only=True)
class Health:
    SCHEMA: ClassVar[str] = "Health"
    status: str


@dataclass(frozen=True, kw_only=True)
class ErrorDetail:
    SCHEMA: ClassVar[str] = "ErrorDetail"
    code: str
    message: str
    details: Any | None = None


@dataclass(frozen=True, kw_only=True)
class JobEvent:
    """One event of a job's stream: ``progress`` (with the job), ``end`` (the job is
    terminal; ``job`` is the last progress seen) or ``error`` (``data["code"]``)."""

    event: str
    data: dict[str, Any]
    job: Job | None


# Every model mirroring a component of /openapi.json, by component name.
MODELS: dict[str, type] = {cls.SCHEMA: cls for cls in (
    Box, Chunk, ChunkWindow, Attachment, Document, DocumentDetail, MarkdownWindow, DocumentPage, Job, JobPage,
    JobOptions, TextDocument, SearchFilters, IndexedDocument, IndexedDocumentPage, SearchHit, Ranking,
    SearchResults, Upload, Parsed,
    ParsePending, UsageCounts, KeyDayUsage, Usage, Webhook, WebhookSecret, WebhookPage,
    WebhookAttempt, WebhookDelivery, WebhookDeliveryPage, Health, ErrorDetail)}


def wire_name(f: dataclasses.Field[Any]) -> str:
    return str(f.metadata.get("wire", f.name))


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def load(cls: type[Model], data: Any) -> Model:
    """``data`` (a decoded JSON object) as an instance of the dataclass ``cls``; nested models,
    lists, datetimes and dates converted by the field's type, unknown keys ignored."""
    if not isinstance(data, dict):
        raise TypeError(f"expected a JSON object for {cls.__name__}, got {type(data).__name__}")
    hints = _hints(cls)
    values = {f.name: _convert(hints[f.name], data[wire_name(f)])
              for f in dataclasses.fields(cls)  # type: ignore[arg-type]
              if wire_name(f) in data}
    return cls(**values)


def _convert(kind: Any, value: Any) -> Any:
    if value is None or kind is Any:
        return value
    origin = typing.get_origin(kind)
    if origin in (Union, types.UnionType):
        options = [a for a in typing.get_args(kind) if a is not type(None)]
        # datetime | str (a filter) and the like: the first that fits.
        for option in options:
            try:
                return _convert(option, value)
            except (TypeError, ValueError):
                continue
        return value
    if origin is list:
        (item,) = typing.get_args(kind)
        return [_convert(item, v) for v in value]
    if origin is dict or kind is dict:
        return dict(value)
    if origin is Literal:
        return value
    if dataclasses.is_dataclass(kind):
        return load(kind, value)  # type: ignore[arg-type]
    if kind is datetime:
        return datetime.fromisoformat(value) if isinstance(value, str) else value
    if kind is date:
        return date.fromisoformat(value) if isinstance(value, str) else value
    if kind is float and isinstance(value, int):
        return float(value)
    if kind is str and not isinstance(value, str):
        raise TypeError(f"expected a string, got {value!r}")
    return value


def dump(model: Any) -> Any:
    """A request model as JSON: unset (None) optional fields left out, datetimes as ISO 8601."""
    if dataclasses.is_dataclass(model) and not isinstance(model, type):
        return {wire_name(f): dump(getattr(model, f.name)) for f in dataclasses.fields(model)
                if getattr(model, f.name) is not None}
    if isinstance(model, (datetime, date)):
        return model.isoformat()
    if isinstance(model, (list, tuple)):
        return [dump(v) for v in model]
    if isinstance(model, dict):
        return {k: dump(v) for k, v in model.items()}
    return model
