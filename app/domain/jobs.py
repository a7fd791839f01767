"""Jobs, batches and documents: the SQL of submission, progress and per-document outcomes.

Progress is always derived from document rows, never incremented, so replays cannot
make it drift.  Every statement that reads a job for a caller filters by tenant.
"""

from __future__ import annotations

import json
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Self

from sqlalchemy import Connection

from app.domain import admission
from app.domain.rows import from_row, row_values
from app.domain.statements import jobs as sql
from extractors.mime import MAIL_TYPES

JOB_STATES = ("queued", "running", "completed", "completed_with_errors", "failed", "cancelled")
TERMINAL_JOB_STATES = ("completed", "completed_with_errors", "failed", "cancelled")
# "waiting": handed to a remote provider's batch API (tasks/provider.py).
DOCUMENT_STATES = ("pending", "processing", "waiting", "completed", "failed", "cancelled")


@dataclass(frozen=True)
class NewDocument:
    """A document about to join a job: stored bytes, or a URL a worker will fetch."""

    external_id: str
    source: str
    object_key: str | None
    mime_type: str | None
    size_bytes: int | None
    sha256: str | None
    filename: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    url: str | None = None


@dataclass(frozen=True)
class JobProgress:
    """A job's status and counts, derived from its document rows (never incremented)."""

    id: str
    tenant_id: str
    status: str
    total_documents: int
    batch_size: int
    options: dict[str, Any]
    retries: int
    created_at: datetime
    updated_at: datetime
    handed_at: datetime | None
    finished_at: datetime | None
    completed_documents: int
    failed_documents: int
    cancelled_documents: int
    processing_documents: int
    pending_documents: int
    total_batches: int
    done_batches: int
    # Attachments the mail limits left unread (extractors/attachments.py), over the submitted
    # documents' whole attachment trees, and how many submitted documents lost any: a mail
    # that lost some is still "completed", so these counts are where a job shows it.
    attachments_dropped: int
    documents_with_dropped_attachments: int

    @property
    def settled(self) -> int:
        """Documents that reached a terminal state."""
        return self.completed_documents + self.failed_documents + self.cancelled_documents


@dataclass(frozen=True)
class WorkDocument:
    """A document as a worker handles it: who it belongs to, where its bytes are (or the URL
    to fetch them from), and what the client said about it."""

    id: str
    tenant_id: str
    job_id: str
    external_id: str
    object_key: str | None
    filename: str | None
    mime_type: str | None
    sha256: str | None
    metadata: dict[str, Any]
    attempts: int
    url: str | None
    # upload, path, record, url, object (a direct upload) or attachment.
    source: str
    status: str

    @classmethod
    def from_row(cls, row: Mapping[Any, Any]) -> Self:
        return cls(**{**row_values(cls, row), "metadata": row["metadata"] or {}})


@dataclass(frozen=True)
class DocumentOutcome:
    """One document's outcome, as a job's document listing shows it."""

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
    annotation: Any
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    parent_id: str | None


@dataclass(frozen=True)
class IndexedChunk:
    id: int
    chunk_no: int
    text: str
    heading_path: list[str]
    page_start: int | None
    page_end: int | None
    boxes: list[dict[str, Any]] | None
    start_s: float | None
    end_s: float | None
    token_count: int


@dataclass(frozen=True)
class AttachmentOutcome:
    id: str
    document_id: str
    filename: str | None
    mime_type: str | None
    status: str
    error_code: str | None
    error_message: str | None
    chunk_count: int | None


@dataclass(frozen=True)
class DocumentDetail(DocumentOutcome):
    """A document with its Markdown, extraction report, chunks (when its content is the one
    indexed) and attachments."""

    markdown: str | None = None
    extraction: dict[str, Any] | None = None
    chunks: list[IndexedChunk] = field(default_factory=list)
    indexed: bool = False
    attachments: list[AttachmentOutcome] = field(default_factory=list)


@dataclass(frozen=True)
class DeletedDocument:
    """What a caller must still remove after marking a document deleted."""

    external_id: str
    # Its content is the version indexed under its external id.
    indexed: bool
    # None when another document shares the bytes.
    object_key: str | None


def create_job(
    conn: Connection,
    tenant_id: str,
    documents: Sequence[NewDocument],
    batch_size: int,
    options: dict[str, Any] | None = None,
    idempotency_key: str | None = None,
    request_sha256: str | None = None,
    api_key_id: str | None = None,
    request_id: str | None = None,
    priority: int = 0,
    traceparent: str | None = None,
) -> tuple[str, int]:
    """Write a job, its batches and its documents; returns (job id, number of batches).
    ``api_key_id`` is the API key that submitted it (None from the CLI): usage is told by it,
    and its batches share that key's slots (app/domain/admission.py); ``request_id`` the request (or
    command) that created it, which its logs carry; ``priority`` its tasks' broker priority;
    ``traceparent`` the trace its tasks join (app/infra/traces.py).

    Nothing is published here: the caller publishes after this transaction commits.  A
    concurrent job with the same idempotency key makes this raise ``IntegrityError``.
    """
    if not documents:
        raise ValueError("a job needs at least one document")
    ids = [d.external_id for d in documents]
    if len(set(ids)) != len(ids):
        dupes = sorted(i for i, n in Counter(ids).items() if n > 1)
        raise ValueError(f"document ids must be unique within a job; repeated: {dupes[:10]}")
    job_id = str(uuid.uuid4())
    batch_count = (len(documents) + batch_size - 1) // batch_size
    conn.execute(sql.INSERT_JOB, {
        "id": job_id, "tenant": tenant_id, "total": len(documents), "batch_size": batch_size,
        "options": json.dumps(options or {}), "key": idempotency_key, "sha": request_sha256,
        "api_key_id": api_key_id, "request_id": request_id, "traceparent": traceparent})
    conn.execute(sql.INSERT_BATCHES, {
        "job": job_id, "count": batch_count, "slot": admission.slot_key(api_key_id, tenant_id),
        "heavy": (options or {}).get("provider") in admission.HEAVY_PROVIDERS,
        "priority": priority})
    conn.execute(sql.INSERT_DOCUMENTS, {
        "tenant": tenant_id, "job": job_id, "batch_size": batch_size,
        "external_ids": ids,
        "sources": [d.source for d in documents],
        "keys": [d.object_key for d in documents],
        "filenames": [d.filename for d in documents],
        "mimes": [d.mime_type for d in documents],
        "sizes": [d.size_bytes for d in documents],
        "shas": [d.sha256 for d in documents],
        "metas": [json.dumps(d.metadata) for d in documents],
        "urls": [d.url for d in documents],
    })
    # A batch holding audio or video (transcribed by a remote provider, minutes per file) is of
    # the heavy kind too: its key's stricter limit holds it (app/domain/admission.py); and its task
    # goes to the media queue, under the media time limit (tasks/ingest.py).
    conn.execute(sql.MARK_MEDIA_BATCHES, {"job": job_id})
    return job_id, batch_count


def mark_handed(conn: Connection, job_id: str) -> None:
    """The job is handed to admission: its batches now wait for slots (app/domain/admission.py)."""
    conn.execute(sql.MARK_JOB_HANDED, {"id": job_id})


# Only a mail's report can count dropped attachments: reading the extraction report (jsonb,
# large for long PDFs) of every other document on each progress read would cost the most
# polled query of the API for nothing.
_MAIL_TYPES = sorted(MAIL_TYPES)


def job_progress(conn: Connection, job_id: str, tenant_id: str | None) -> JobProgress | None:
    """Job status and counts derived from its document rows; ``None`` if not the caller's."""
    if not is_uuid(job_id):
        return None
    statement = sql.JOB_PROGRESS_OF_TENANT if tenant_id else sql.JOB_PROGRESS
    row = conn.execute(statement, {"job": job_id, "tenant": tenant_id,
                                   "mail_types": _MAIL_TYPES}).mappings().one_or_none()
    return from_row(JobProgress, row) if row else None


class UnknownJob(LookupError):
    """No job of that id belongs to the tenant."""


def commit_lsn(conn: Connection, tenant_id: str, job_id: str) -> str | None:
    """Where the job's outcome ends in the primary's WAL ('X/Y', migration 0028): ``None``
    while the job runs (or when it finished before that migration).  Raises
    :class:`UnknownJob` when the job is not the tenant's."""
    row = conn.execute(sql.JOB_COMMIT_LSN, {"job": job_id, "tenant": tenant_id}).one_or_none() \
        if is_uuid(job_id) else None
    if row is None:
        raise UnknownJob(job_id)
    return row.commit_lsn if row.status in TERMINAL_JOB_STATES else None


def lock_job(conn: Connection, job_id: str) -> None:
    """The job row lock, taken first by every transaction that changes several of a job's
    documents (claim, cancel, delete), so that they queue on it instead of locking document
    rows in different orders and deadlocking."""
    conn.execute(sql.LOCK_JOB, {"job": job_id})


def lock_job_of_document(conn: Connection, tenant_id: str, document_uuid: str) -> None:
    """:func:`lock_job` for the job a document belongs to (nothing for an unknown id)."""
    if is_uuid(document_uuid):
        conn.execute(sql.LOCK_JOB_OF_DOCUMENT, {"id": document_uuid, "tenant": tenant_id})


def start_batch(conn: Connection, job_id: str, batch_no: int) -> int:
    """Mark the batch running; how many recordings it was published with (its task then runs
    on the media queue, under the media time limit: tasks/ingest.py)."""
    lock_job(conn, job_id)  # before claim_batch_documents, in the same transaction
    media = conn.execute(sql.START_BATCH, {"job": job_id, "batch": batch_no}).scalar()
    conn.execute(sql.START_JOB, {"job": job_id})
    return int(media or 0)


def finish_batch(conn: Connection, job_id: str, batch_no: int) -> None:
    conn.execute(sql.FINISH_BATCH, {"job": job_id, "batch": batch_no})


def claim_batch_documents(
    conn: Connection, job_id: str, batch_no: int, max_attempts: int
) -> list[WorkDocument]:
    """Take the unfinished documents of a batch.

    Terminal documents are never touched again, so a duplicate delivery of the batch repeats
    no finished work.  A document still ``processing`` was left by a crashed delivery; one
    that has already used ``max_attempts`` fails as ``worker_crashed`` instead of looping.
    """
    conn.execute(sql.FAIL_CRASHED_DOCUMENTS, {"job": job_id, "batch": batch_no, "max_attempts": max_attempts})
    rows = conn.execute(sql.CLAIM_BATCH_DOCUMENTS, {"job": job_id, "batch": batch_no}).mappings().all()
    return sorted((WorkDocument.from_row(r) for r in rows), key=lambda r: r.external_id)


@dataclass(frozen=True)
class Completion:
    """What a document completed with."""

    document_id: str
    extractor: str
    markdown: str | None
    page_count: int | None
    chunk_count: int
    report: dict[str, Any] | None = None


def complete_documents(conn: Connection, completions: Sequence[Completion]) -> set[str]:
    """Mark documents completed in one statement; the ids of those that were (the others are
    no longer in progress: cancelled or deleted)."""
    if not completions:
        return set()
    reports = [c.report or {} for c in completions]
    annotations = [(r.get("signals") or {}).get("annotation") for r in reports]
    rows = conn.execute(sql.COMPLETE_DOCUMENTS, {
        "ids": [c.document_id for c in completions], "extractors": [c.extractor for c in completions],
        "markdowns": [c.markdown for c in completions], "pages": [c.page_count for c in completions],
        "chunks": [c.chunk_count for c in completions],
        "qualities": [r.get("quality") for r in reports], "languages": [r.get("language") for r in reports],
        "reports": [json.dumps(r) if r else None for r in reports],
        "annotations": [json.dumps(a) if a is not None else None for a in annotations],
    })
    return {str(r.id) for r in rows}


def complete_document(conn: Connection, completion: Completion) -> bool:
    """Mark a document completed; ``False`` when it is no longer in progress (cancelled)."""
    return completion.document_id in complete_documents(conn, [completion])


def lock_for_commit(conn: Connection, document_id: str) -> bool:
    """Take the document's row lock for the rest of the transaction; ``True`` when it, and
    every document above it (the mail an attachment came in), is still in progress (not
    cancelled, not deleted), so that it may be committed into the index.

    An index transaction calls this before its first write: a cancel or delete that commits
    first is seen here, and one that comes later waits for the lock, then finds the document
    finished, so a document is never indexed after it was cancelled or deleted.  Ancestors
    are checked because an attachment's row can be created just after its parent was
    cancelled (its insert read the parent before the cancel committed).
    """
    locked = conn.execute(sql.LOCK_DOCUMENT_FOR_COMMIT, {"id": document_id}).first() is not None
    return locked and document_id in live_documents(conn, [document_id])


def lock_for_commit_unheld(conn: Connection, document_ids: Sequence[str]) -> set[str]:
    """:func:`lock_for_commit` for many documents at once, without waiting: the ids whose
    row lock this transaction now holds and that may be committed into the index.  A row
    someone else holds (a cancel or delete committing right now) is skipped, never waited
    for, so that this lock on many rows cannot deadlock with a cancel locking them in
    another order; its document is left for :func:`lock_for_commit`, which waits."""
    if not document_ids:
        return set()
    locked = [str(r.id) for r in conn.execute(sql.LOCK_DOCUMENTS_NOT_HELD, {"ids": list(document_ids)})]
    return live_documents(conn, locked)


def live_documents(conn: Connection, document_ids: Sequence[str]) -> set[str]:
    """Those of ``document_ids`` still in progress, ancestors included: the worker's
    checkpoint between stages, so that a cancelled or deleted document stops costing it work
    within seconds."""
    if not document_ids:
        return set()
    return {str(r) for r in conn.execute(sql.LIVE_DOCUMENTS, {"ids": list(document_ids)}).scalars()}


def end_orphans(conn: Connection, document_ids: Sequence[str]) -> int:
    """End those of ``document_ids`` still marked in progress although a document above them
    was cancelled or deleted (an attachment created while its parent was being cancelled):
    cancelled, and deleted too when an ancestor was, so that the job can finish.  Returns
    how many were ended."""
    if not document_ids:
        return 0
    return conn.execute(sql.END_ORPHANS, {"ids": list(document_ids)}).rowcount


def record_fetch(conn: Connection, document_id: str, new: NewDocument) -> bool:
    """A URL document's bytes were fetched and stored: it now has them like an upload.
    ``False`` when the document was cancelled or deleted meanwhile: the caller removes the
    bytes it stored unless another document uses them (:func:`object_in_use`)."""
    return conn.execute(sql.RECORD_FETCH, {
        "id": document_id, "key": new.object_key, "sha": new.sha256, "size": new.size_bytes,
        "mime": new.mime_type, "filename": new.filename}).rowcount == 1


def object_in_use(conn: Connection, object_key: str, besides: str | None = None) -> bool:
    """Whether a document not deleted (other than ``besides``) refers to the stored object."""
    return conn.execute(sql.OBJECT_IN_USE, {"key": object_key, "besides": besides}).first() is not None


def complete_from(conn: Connection, document_id: str, source_document_id: str, chunk_count: int) -> bool:
    """Complete a document with the outcome of an earlier document of the same content (a
    re-ingest of unchanged bytes): no extraction, OCR or embedding is repeated."""
    row = conn.execute(sql.COMPLETE_FROM, {
        "id": document_id, "source": source_document_id, "chunks": chunk_count}).one_or_none()
    return row is not None


def fail_document(conn: Connection, document_id: str, code: str, message: str,
                  report: dict[str, Any] | None = None) -> bool:
    """Mark a document failed; ``False`` when it is no longer in progress (cancelled)."""
    return conn.execute(sql.FAIL_DOCUMENT, {
        "id": document_id, "code": code, "message": message[:2000],
        "report": json.dumps(report) if report else None}).rowcount == 1


def job_options(conn: Connection, job_id: str) -> dict[str, Any]:
    """The options a job was submitted with (``{}`` for an unknown job)."""
    row = conn.execute(sql.JOB_OPTIONS, {"job": job_id}).one_or_none()
    return dict(row.options or {}) if row else {}


def finalize_job(conn: Connection, job_id: str) -> str | None:
    """Set the job's terminal status from its documents; ``None`` while some are unfinished.
    Its event (``job.completed``, ...) is written by a trigger, in this transaction (migration
    0016), as are those of documents that become completed or failed."""
    row = conn.execute(sql.FINALIZE_JOB, {"job": job_id}).one_or_none()
    if row is None:
        current = conn.execute(sql.JOB_STATUS, {"job": job_id})
        status = current.scalar_one_or_none()
        return status if status in TERMINAL_JOB_STATES else None
    return str(row.status)


def unhanded_jobs(conn: Connection, older_than_seconds: float) -> list[tuple[str, int, int]]:
    """Jobs written (or reopened for a retry) but never handed to admission, because their
    submitter died between the two: (job id, number of batches, retry number), oldest first."""
    rows = conn.execute(sql.UNHANDED_JOBS, {"age": older_than_seconds}).all()
    return [(str(r.id), int(r.batches), int(r.retries)) for r in rows]


def unsettled_jobs(conn: Connection, older_than_seconds: float) -> list[str]:
    """Jobs whose documents are all terminal but which were never finalised (a lost chord
    callback)."""
    rows = conn.execute(sql.UNSETTLED_JOBS, {"age": older_than_seconds}).all()
    return [str(r.id) for r in rows]


IDEMPOTENCY_WINDOW_HOURS = 24


def find_idempotent_job(conn: Connection, tenant_id: str, key: str) -> tuple[str, str] | None:
    """(job id, request hash) of the job created with ``key`` in the last 24 hours.

    An older use of the key is released, so that the key can name a new job.
    """
    conn.execute(sql.RELEASE_OLD_IDEMPOTENCY_KEY, {
        "tenant": tenant_id, "key": key, "window": IDEMPOTENCY_WINDOW_HOURS})
    row = conn.execute(sql.FIND_IDEMPOTENT_JOB, {"tenant": tenant_id, "key": key}).one_or_none()
    return (str(row.id), str(row.request_sha256)) if row else None


def list_jobs(conn: Connection, tenant_id: str, status: str | None, limit: int,
              offset: int) -> list[JobProgress]:
    """The caller's jobs with their progress, newest first, in one query."""
    rows = conn.execute(sql.LIST_JOBS, {"tenant": tenant_id, "status": status, "limit": limit,
                                        "offset": offset, "mail_types": _MAIL_TYPES}).mappings().all()
    return [from_row(JobProgress, r) for r in rows]


def list_documents(conn: Connection, tenant_id: str, job_id: str, status: str | None,
                   limit: int, offset: int) -> list[DocumentOutcome]:
    rows = conn.execute(sql.LIST_DOCUMENTS, {
        "tenant": tenant_id, "job": job_id, "status": status, "limit": limit,
        "offset": offset}).mappings().all()
    return [from_row(DocumentOutcome, r) for r in rows]


@dataclass(frozen=True)
class IndexedEntry:
    """A document as search sees it: its id, the row of the version indexed, what it holds."""

    document_id: str
    document_uuid: str | None
    job_id: str | None
    title: str | None
    mime_type: str | None
    metadata: dict[str, Any]
    chunk_count: int
    indexed_at: datetime


def list_indexed(conn: Connection, tenant_id: str, after: str | None, limit: int,
                 prefix: str | None = None, mime_type: str | None = None) -> list[IndexedEntry]:
    """A page of the tenant's indexed documents by external id, after ``after``."""
    rows = conn.execute(sql.LIST_INDEXED_DOCUMENTS, {
        "tenant": tenant_id, "after": after, "limit": limit, "prefix": prefix or None,
        "mime_type": mime_type}).mappings().all()
    return [from_row(IndexedEntry, r) for r in rows]


def failed_documents(conn: Connection, tenant_id: str, job_id: str, limit: int) -> list[DocumentOutcome]:
    """A job's failed documents, attachments included (a failed attachment is worth telling
    about too), by external id."""
    rows = conn.execute(sql.FAILED_DOCUMENTS, {
        "tenant": tenant_id, "job": job_id, "limit": limit}).mappings().all()
    return [from_row(DocumentOutcome, r) for r in rows]


def get_document(conn: Connection, tenant_id: str, document_uuid: str) -> DocumentDetail | None:
    """One document's outcome, Markdown and (when its content is the one indexed) chunks."""
    if not is_uuid(document_uuid):
        return None
    row = conn.execute(sql.GET_DOCUMENT, {"tenant": tenant_id, "id": document_uuid}).mappings().one_or_none()
    if row is None:
        return None
    chunks = conn.execute(sql.CHUNK_WINDOW, {"tenant": tenant_id, "id": document_uuid, "start": 0,
                                             "count": None}).mappings().all()
    attachments = conn.execute(sql.ATTACHMENTS_OF_DOCUMENT, {"id": document_uuid}).mappings().all()
    return DocumentDetail(
        **row_values(DocumentDetail, row),
        chunks=[IndexedChunk(**{**c, "heading_path": list(c["heading_path"] or [])}) for c in chunks],
        indexed=bool(chunks),
        attachments=[from_row(AttachmentOutcome, a) for a in attachments])


@dataclass(frozen=True)
class MarkdownWindow(DocumentOutcome):
    """A document's outcome and some of its Markdown: ``markdown`` from character ``offset``."""

    markdown: str = ""
    offset: int = 0
    total_chars: int = 0
    next_offset: int | None = None
    indexed: bool = False


def markdown_window(conn: Connection, tenant_id: str, document_uuid: str, offset: int,
                    chars: int) -> MarkdownWindow | None:
    """``chars`` characters of a document's Markdown from ``offset``, read in the database (a
    500-page document's Markdown is never loaded whole for a page of it)."""
    if not is_uuid(document_uuid):
        return None
    row = conn.execute(sql.GET_DOCUMENT_MARKDOWN, {"tenant": tenant_id, "id": document_uuid,
                                                   "offset": offset, "chars": chars}).mappings().one_or_none()
    if row is None:
        return None
    total = int(row["total_chars"])
    start = min(offset, total)
    end = min(total, start + chars)
    return MarkdownWindow(**{**row_values(MarkdownWindow, row), "markdown": row["markdown"] or "",
                             "offset": start, "next_offset": end if end < total else None})


@dataclass(frozen=True)
class ChunkWindow:
    """Some of a document's indexed chunks, in order: ``start`` is the first one's position."""

    document_id: str
    total_chunks: int
    start: int
    chunks: list[IndexedChunk]

    @property
    def next_start(self) -> int | None:
        """Where the next window begins; ``None`` after the last chunk."""
        end = self.start + len(self.chunks)
        return end if end < self.total_chunks else None


class UnknownChunk(LookupError):
    """The chunk a window was to be centred on is not one of the document's indexed chunks."""


def chunk_window(conn: Connection, tenant_id: str, document_uuid: str, start: int, count: int,
                 around: int | None = None) -> ChunkWindow | None:
    """``count`` of the document's indexed chunks from position ``start``, or centred on chunk
    ``around`` (a hit's chunk id), without reading its Markdown or its other chunks; ``None``
    when the document is not the tenant's.  Raises :class:`UnknownChunk`."""
    if not is_uuid(document_uuid):
        return None
    bounds = conn.execute(sql.CHUNK_WINDOW_BOUNDS, {"tenant": tenant_id, "id": document_uuid,
                                                    "chunk": around}).one_or_none()
    if bounds is None:
        return None
    if around is not None:
        if not bounds.has_chunk:
            raise UnknownChunk(f"chunk {around} is not one of document {document_uuid}'s indexed chunks")
        start = max(0, bounds.position - count // 2)
    start = min(start, bounds.total_chunks)
    rows = conn.execute(sql.CHUNK_WINDOW, {"tenant": tenant_id, "id": document_uuid, "start": start,
                                           "count": count}).mappings().all()
    chunks = [IndexedChunk(**{**c, "heading_path": list(c["heading_path"] or [])}) for c in rows]
    return ChunkWindow(bounds.document_id, bounds.total_chunks, start, chunks)


def upsert_attachment(conn: Connection, parent: WorkDocument, external_id: str, name: str,
                      new: NewDocument | None, error: tuple[str, str] | None) -> WorkDocument | None:
    """The child row of one attachment of ``parent``: ``processing`` (its caller indexes it
    next) or ``failed`` with ``error``.  Replays converge on the same row; ``None`` when that
    row is already terminal (or the id belongs to a document the client submitted)."""
    metadata = {**parent.metadata, "attachment_of": parent.external_id}
    row = conn.execute(sql.UPSERT_ATTACHMENT, {
        "parent": parent.id, "external_id": external_id, "name": name,
        "key": new.object_key if new else None, "mime": new.mime_type if new else None,
        "size": new.size_bytes if new else None, "sha": new.sha256 if new else None,
        "metadata": json.dumps(metadata), "code": error[0] if error else None,
        "message": error[1][:2000] if error else None}).mappings().one_or_none()
    return WorkDocument.from_row(row) if row else None


def attachment_ids(conn: Connection, tenant_id: str, document_uuid: str) -> list[str]:
    """Every attachment below a document (attachments of attachments included)."""
    return [str(r) for r in conn.execute(sql.ATTACHMENT_IDS, {
        "id": document_uuid, "tenant": tenant_id}).scalars()]


def cancel_job(conn: Connection, tenant_id: str, job_id: str) -> str | None:
    """Cancel the job's unfinished documents.  A document being processed is cancelled too:
    its worker sees that at its next checkpoint and stops, and its index transaction (which
    locks the row first, :func:`lock_for_commit`) finds it no longer in progress.

    The job becomes ``cancelled`` only when this cancelled something.  If every document had
    already ended (cancel racing completion), the job keeps its real outcome: it is finalised
    here instead.  Returns the job's status afterwards, ``None`` if it is not the caller's.
    """
    if not is_uuid(job_id):
        return None
    # The job row lock orders concurrent cancels, deletes, claims and the finalising callback.
    job = conn.execute(sql.LOCK_JOB_OF_TENANT, {"job": job_id, "tenant": tenant_id}).one_or_none()
    if job is None:
        return None
    if job.status in TERMINAL_JOB_STATES:
        return str(job.status)
    cancelled = conn.execute(sql.CANCEL_DOCUMENTS, {"job": job_id}).rowcount
    if not cancelled:
        return finalize_job(conn, job_id) or str(job.status)
    # The job.cancelled event is written by a trigger, in this transaction (migration 0016).
    conn.execute(sql.CANCEL_JOB, {"job": job_id})
    return "cancelled"


def reopen_failed(conn: Connection, tenant_id: str, job_id: str) -> tuple[int, list[int]] | None:
    """Put a finished job's failed documents back to pending.

    Returns (retry number, batches to run again); ``None`` if the job is not the caller's.
    Raises ``ValueError`` when the job is still running or has nothing to retry.
    """
    job = conn.execute(sql.LOCK_JOB_OF_TENANT, {
        "job": job_id, "tenant": tenant_id}).one_or_none() if is_uuid(job_id) else None
    if job is None:
        return None
    if job.status in ("queued", "running"):
        raise ValueError("the job is still running")
    batches = conn.execute(sql.REOPEN_FAILED_DOCUMENTS, {"job": job_id}).scalars().all()
    if not batches:
        raise ValueError("the job has no failed documents")
    retry = conn.execute(sql.REOPEN_JOB, {"job": job_id}).scalar_one()
    conn.execute(sql.REQUEUE_BATCHES, {"job": job_id, "batches": sorted(set(batches))})
    return int(retry), sorted(set(batches))


def is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True


def mark_document_deleted(conn: Connection, tenant_id: str, document_uuid: str) -> DeletedDocument | None:
    """Mark a document deleted; returns what the caller must still remove (its external id,
    whether it is the indexed version, and its object key if no other document shares it)."""
    if not is_uuid(document_uuid):
        return None
    row = conn.execute(sql.MARK_DOCUMENT_DELETED, {"id": document_uuid, "tenant": tenant_id}).one_or_none()
    if row is None:
        return None
    indexed = conn.execute(sql.DOCUMENT_IS_INDEXED, {
        "tenant": tenant_id, "id": document_uuid}).first() is not None
    shared = row.object_key is None or object_in_use(conn, row.object_key, besides=document_uuid)
    return DeletedDocument(external_id=row.external_id, indexed=indexed,
                           object_key=None if shared else row.object_key)
