"""Jobs, batches and documents: the SQL of submission, progress and per-document outcomes.

Progress is always derived from document rows, never incremented, so replays cannot
make it drift.  Every statement that reads a job for a caller filters by tenant.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Self

from sqlalchemy import Connection, text

from app import admission
from app.rows import from_row, row_values
from app.storage import Storage
from extractors.mime import MAIL_TYPES
from extractors.sniff import PARSEABLE, sniff

JOB_STATES = ("queued", "running", "completed", "completed_with_errors", "failed", "cancelled")
TERMINAL_JOB_STATES = ("completed", "completed_with_errors", "failed", "cancelled")
# "waiting": handed to a remote provider's batch API (tasks/provider.py).
DOCUMENT_STATES = ("pending", "processing", "waiting", "completed", "failed", "cancelled")


class UnsupportedDocument(ValueError):
    def __init__(self, external_id: str, reason: str) -> None:
        super().__init__(f"{external_id}: {reason}")
        self.external_id = external_id
        self.reason = reason


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
    published_at: datetime | None
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


def object_key_for(tenant_id: str, sha256: str) -> str:
    # Content-addressed: re-uploading the same bytes (a client retry) rewrites the same object.
    return f"{tenant_id}/sha256/{sha256[:2]}/{sha256}"


def stage_document(
    storage: Storage,
    tenant_id: str,
    external_id: str,
    data: bytes,
    source: str,
    filename: str | None = None,
    declared_mime: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> NewDocument:
    """Sniff and store the bytes of one document; raise :class:`UnsupportedDocument` first."""
    mime = sniff(data, filename=filename, declared=declared_mime)
    if mime is None or mime not in PARSEABLE:
        raise UnsupportedDocument(external_id, f"content type not supported: {mime or 'unrecognised'}")
    digest = hashlib.sha256(data).hexdigest()
    key = object_key_for(tenant_id, digest)
    if not storage.exists(key):
        storage.put(key, data)
    return NewDocument(external_id=external_id, source=source, object_key=key, mime_type=mime,
                       size_bytes=len(data), sha256=digest, filename=filename,
                       metadata=metadata or {})


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
) -> tuple[str, int]:
    """Write a job, its batches and its documents; returns (job id, number of batches).
    ``api_key_id`` is the API key that submitted it (None from the CLI): usage is told by it,
    and its batches share that key's slots (app/admission.py); ``request_id`` the request (or
    command) that created it, which its logs carry; ``priority`` its tasks' broker priority.

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
    conn.execute(text("""
        INSERT INTO jobs (id, tenant_id, total_documents, batch_size, options, idempotency_key,
                          request_sha256, api_key_id, request_id)
        VALUES (:id, :tenant, :total, :batch_size, CAST(:options AS jsonb), :key, :sha,
                CAST(:api_key_id AS uuid), :request_id)
    """), {"id": job_id, "tenant": tenant_id, "total": len(documents), "batch_size": batch_size,
           "options": json.dumps(options or {}), "key": idempotency_key, "sha": request_sha256,
           "api_key_id": api_key_id, "request_id": request_id})
    conn.execute(text("""
        INSERT INTO batches (job_id, batch_no, task_id, slot_key, heavy, priority)
        SELECT CAST(:job AS uuid), n, CAST(:job AS text) || ':' || n, :slot, :heavy, :priority
        FROM generate_series(0, :count - 1) AS n
    """), {"job": job_id, "count": batch_count, "slot": admission.slot_key(api_key_id, tenant_id),
           "heavy": (options or {}).get("provider") in admission.HEAVY_PROVIDERS,
           "priority": priority})
    conn.execute(text("""
        INSERT INTO documents (tenant_id, job_id, external_id, batch_no, source, object_key,
                               filename, mime_type, size_bytes, sha256, metadata, url)
        SELECT :tenant, :job, u.external_id, (u.ord - 1) / :batch_size, u.source, u.object_key,
               u.filename, u.mime, u.size, u.sha, CAST(u.meta AS jsonb), u.url
        FROM unnest(CAST(:external_ids AS text[]), CAST(:sources AS text[]),
                    CAST(:keys AS text[]), CAST(:filenames AS text[]), CAST(:mimes AS text[]),
                    CAST(:sizes AS bigint[]), CAST(:shas AS text[]), CAST(:metas AS text[]),
                    CAST(:urls AS text[]))
             WITH ORDINALITY AS u(external_id, source, object_key, filename, mime, size, sha, meta,
                                  url, ord)
    """), {
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
    # the heavy kind too: its key's stricter limit holds it (app/admission.py); and its task
    # goes to the media queue, under the media time limit (tasks/ingest.py).
    conn.execute(text("""
        UPDATE batches b SET heavy = true, media_documents = m.n
        FROM (SELECT batch_no, count(*) AS n FROM documents
              WHERE job_id = CAST(:job AS uuid)
                AND (mime_type LIKE 'audio/%' OR mime_type LIKE 'video/%')
              GROUP BY batch_no) m
        WHERE b.job_id = CAST(:job AS uuid) AND b.batch_no = m.batch_no
    """), {"job": job_id})
    return job_id, batch_count


def mark_published(conn: Connection, job_id: str) -> None:
    conn.execute(text("UPDATE jobs SET published_at = now() WHERE id = :id"), {"id": job_id})


# Only a mail's report can count dropped attachments: reading the extraction report (jsonb,
# large for long PDFs) of every other document on each progress read would cost the most
# polled query of the API for nothing.
_MAIL_TYPES = sorted(MAIL_TYPES)

_PROGRESS = """
SELECT j.id, j.tenant_id, j.status, j.total_documents, j.batch_size, j.options, j.retries,
       j.created_at,
       j.updated_at, j.published_at, j.finished_at,
       count(d.id) FILTER (WHERE d.status = 'completed') AS completed_documents,
       count(d.id) FILTER (WHERE d.status = 'failed') AS failed_documents,
       count(d.id) FILTER (WHERE d.status = 'cancelled') AS cancelled_documents,
       count(d.id) FILTER (WHERE d.status = 'processing') AS processing_documents,
       count(d.id) FILTER (WHERE d.status = 'pending') AS pending_documents,
       (SELECT count(*) FROM batches b WHERE b.job_id = j.id) AS total_batches,
       (SELECT count(*) FROM batches b WHERE b.job_id = j.id AND b.status = 'done') AS done_batches,
       coalesce(sum(CAST(d.extraction -> 'signals' -> 'attachments_dropped' ->> 'total' AS int))
                FILTER (WHERE d.mime_type = ANY(CAST(:mail_types AS text[]))), 0) AS attachments_dropped,
       count(d.id) FILTER (WHERE d.mime_type = ANY(CAST(:mail_types AS text[]))
                           AND d.extraction -> 'signals' -> 'attachments_dropped' IS NOT NULL)
           AS documents_with_dropped_attachments
FROM jobs j LEFT JOIN documents d ON d.job_id = j.id AND d.parent_id IS NULL
WHERE {where}
GROUP BY j.id
{order}
"""


def job_progress(conn: Connection, job_id: str, tenant_id: str | None) -> JobProgress | None:
    """Job status and counts derived from its document rows; ``None`` if not the caller's."""
    if not is_uuid(job_id):
        return None
    where = "j.id = CAST(:job AS uuid)" + (" AND j.tenant_id = :tenant" if tenant_id else "")
    sql = _PROGRESS.format(where=where, order="")
    row = conn.execute(text(sql), {"job": job_id, "tenant": tenant_id,
                                   "mail_types": _MAIL_TYPES}).mappings().one_or_none()
    return from_row(JobProgress, row) if row else None


def lock_job(conn: Connection, job_id: str) -> None:
    """The job row lock, taken first by every transaction that changes several of a job's
    documents (claim, cancel, delete), so that they queue on it instead of locking document
    rows in different orders and deadlocking."""
    conn.execute(text("SELECT 1 FROM jobs WHERE id = CAST(:job AS uuid) FOR UPDATE"), {"job": job_id})


def lock_job_of_document(conn: Connection, tenant_id: str, document_uuid: str) -> None:
    """:func:`lock_job` for the job a document belongs to (nothing for an unknown id)."""
    if is_uuid(document_uuid):
        conn.execute(text("""
            SELECT 1 FROM jobs j JOIN documents d ON d.job_id = j.id
            WHERE d.id = CAST(:id AS uuid) AND d.tenant_id = :tenant FOR UPDATE OF j
        """), {"id": document_uuid, "tenant": tenant_id})


def start_batch(conn: Connection, job_id: str, batch_no: int) -> int:
    """Mark the batch running; how many recordings it was published with (its task then runs
    on the media queue, under the media time limit: tasks/ingest.py)."""
    lock_job(conn, job_id)  # before claim_batch_documents, in the same transaction
    media = conn.execute(text("""
        UPDATE batches SET status = 'running', deliveries = deliveries + 1,
               started_at = coalesce(started_at, now())
        WHERE job_id = :job AND batch_no = :batch
        RETURNING media_documents
    """), {"job": job_id, "batch": batch_no}).scalar()
    conn.execute(text("""
        UPDATE jobs SET status = 'running', updated_at = now()
        WHERE id = :job AND status = 'queued'
    """), {"job": job_id})
    return int(media or 0)


def finish_batch(conn: Connection, job_id: str, batch_no: int) -> None:
    conn.execute(text("""
        UPDATE batches SET status = 'done', finished_at = now()
        WHERE job_id = :job AND batch_no = :batch
    """), {"job": job_id, "batch": batch_no})


def claim_batch_documents(
    conn: Connection, job_id: str, batch_no: int, max_attempts: int
) -> list[WorkDocument]:
    """Take the unfinished documents of a batch.

    Terminal documents are never touched again, so a duplicate delivery of the batch repeats
    no finished work.  A document still ``processing`` was left by a crashed delivery; one
    that has already used ``max_attempts`` fails as ``worker_crashed`` instead of looping.
    """
    conn.execute(text("""
        UPDATE documents SET status = 'failed', error_code = 'worker_crashed',
               error_message = 'processing was interrupted ' || attempts || ' times (worker '
                               'killed or out of memory?); giving up on this document',
               finished_at = now(), updated_at = now()
        WHERE job_id = :job AND batch_no = :batch AND status = 'processing'
          AND attempts >= :max_attempts
    """), {"job": job_id, "batch": batch_no, "max_attempts": max_attempts})
    rows = conn.execute(text("""
        UPDATE documents SET status = 'processing', attempts = attempts + 1,
               started_at = now(), updated_at = now()
        WHERE job_id = :job AND batch_no = :batch AND status IN ('pending', 'processing')
        RETURNING id, tenant_id, job_id, external_id, object_key, filename, mime_type, sha256,
                  metadata, attempts, url, source, status
    """), {"job": job_id, "batch": batch_no}).mappings().all()
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


# name: complete_documents
# Documents still in progress marked completed with what they were made into; the ids of those
# that were (a cancelled or deleted one is left as it is).
_COMPLETE_DOCUMENTS = text("""
UPDATE documents d SET status = 'completed', extractor = u.extractor, markdown = u.markdown,
       page_count = u.pages, chunk_count = u.chunks, error_code = NULL, error_message = NULL,
       quality = u.quality, language = u.language, extraction = CAST(u.report AS jsonb),
       annotation = CAST(u.annotation AS jsonb), finished_at = now(), updated_at = now()
FROM unnest(CAST(:ids AS uuid[]), CAST(:extractors AS text[]), CAST(:markdowns AS text[]),
            CAST(:pages AS int[]), CAST(:chunks AS int[]), CAST(:qualities AS real[]),
            CAST(:languages AS text[]), CAST(:reports AS text[]), CAST(:annotations AS text[]))
     AS u(id, extractor, markdown, pages, chunks, quality, language, report, annotation)
WHERE d.id = u.id AND d.status IN ('processing', 'waiting') AND d.deleted_at IS NULL
RETURNING d.id
""")


def complete_documents(conn: Connection, completions: Sequence[Completion]) -> set[str]:
    """Mark documents completed in one statement; the ids of those that were (the others are
    no longer in progress: cancelled or deleted)."""
    if not completions:
        return set()
    reports = [c.report or {} for c in completions]
    annotations = [(r.get("signals") or {}).get("annotation") for r in reports]
    rows = conn.execute(_COMPLETE_DOCUMENTS, {
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
    locked = conn.execute(text("""
        SELECT 1 FROM documents
        WHERE id = CAST(:id AS uuid) AND status IN ('processing', 'waiting') AND deleted_at IS NULL
        FOR UPDATE
    """), {"id": document_id}).first() is not None
    return locked and document_id in live_documents(conn, [document_id])


# name: lock_documents_not_held
# The row locks of those of :ids still in progress that nobody else holds (SKIP LOCKED).
_LOCK_DOCUMENTS_NOT_HELD = text("""
SELECT id FROM documents
WHERE id = ANY(CAST(:ids AS uuid[])) AND status IN ('processing', 'waiting') AND deleted_at IS NULL
ORDER BY id
FOR UPDATE SKIP LOCKED
""")


def lock_for_commit_unheld(conn: Connection, document_ids: Sequence[str]) -> set[str]:
    """:func:`lock_for_commit` for many documents at once, without waiting: the ids whose
    row lock this transaction now holds and that may be committed into the index.  A row
    someone else holds (a cancel or delete committing right now) is skipped, never waited
    for, so that this lock on many rows cannot deadlock with a cancel locking them in
    another order; its document is left for :func:`lock_for_commit`, which waits."""
    if not document_ids:
        return set()
    locked = [str(r.id) for r in conn.execute(_LOCK_DOCUMENTS_NOT_HELD, {"ids": list(document_ids)})]
    return live_documents(conn, locked)


# Documents of :ids whose own row and every ancestor's are in progress and not deleted.
_LIVE_DOCUMENTS = """
WITH RECURSIVE chain AS (
    SELECT d.id AS document_id, d.id AS node_id, d.parent_id
    FROM documents d WHERE d.id = ANY(CAST(:ids AS uuid[]))
    UNION ALL
    SELECT c.document_id, p.id, p.parent_id
    FROM chain c JOIN documents p ON p.id = c.parent_id
)
SELECT c.document_id FROM chain c JOIN documents n ON n.id = c.node_id
GROUP BY c.document_id
HAVING bool_and(n.status IN ('processing', 'waiting') AND n.deleted_at IS NULL)
"""


def live_documents(conn: Connection, document_ids: Sequence[str]) -> set[str]:
    """Those of ``document_ids`` still in progress, ancestors included: the worker's
    checkpoint between stages, so that a cancelled or deleted document stops costing it work
    within seconds."""
    if not document_ids:
        return set()
    return {str(r) for r in conn.execute(text(_LIVE_DOCUMENTS),
                                         {"ids": list(document_ids)}).scalars()}


def end_orphans(conn: Connection, document_ids: Sequence[str]) -> int:
    """End those of ``document_ids`` still marked in progress although a document above them
    was cancelled or deleted (an attachment created while its parent was being cancelled):
    cancelled, and deleted too when an ancestor was, so that the job can finish.  Returns
    how many were ended."""
    if not document_ids:
        return 0
    return conn.execute(text("""
        WITH RECURSIVE above AS (
            SELECT d.id AS document_id, d.parent_id FROM documents d
            WHERE d.id = ANY(CAST(:ids AS uuid[]))
            UNION ALL
            SELECT a.document_id, p.parent_id FROM above a JOIN documents p ON p.id = a.parent_id
        ), ended AS (
            SELECT a.document_id, bool_or(p.deleted_at IS NOT NULL) AS deleted
            FROM above a JOIN documents p ON p.id = a.parent_id
            WHERE p.status NOT IN ('processing', 'waiting') OR p.deleted_at IS NOT NULL
            GROUP BY a.document_id
        )
        UPDATE documents d SET status = 'cancelled', finished_at = now(), updated_at = now(),
               error_code = CASE WHEN e.deleted THEN 'deleted' ELSE d.error_code END,
               error_message = 'ended with the document it is attached to',
               deleted_at = CASE WHEN e.deleted THEN now() ELSE d.deleted_at END
        FROM ended e
        WHERE d.id = e.document_id AND d.status IN ('processing', 'waiting')
    """), {"ids": list(document_ids)}).rowcount


def record_fetch(conn: Connection, document_id: str, new: NewDocument) -> bool:
    """A URL document's bytes were fetched and stored: it now has them like an upload.
    ``False`` when the document was cancelled or deleted meanwhile: the caller removes the
    bytes it stored unless another document uses them (:func:`object_in_use`)."""
    return conn.execute(text("""
        UPDATE documents SET object_key = :key, sha256 = :sha, size_bytes = :size,
               mime_type = :mime, filename = coalesce(filename, :filename), updated_at = now()
        WHERE id = :id AND status IN ('processing', 'waiting') AND deleted_at IS NULL
    """), {"id": document_id, "key": new.object_key, "sha": new.sha256, "size": new.size_bytes,
           "mime": new.mime_type, "filename": new.filename}).rowcount == 1


def object_in_use(conn: Connection, object_key: str, besides: str | None = None) -> bool:
    """Whether a document not deleted (other than ``besides``) refers to the stored object."""
    return conn.execute(text("""
        SELECT 1 FROM documents
        WHERE object_key = :key AND deleted_at IS NULL
          AND (CAST(:besides AS uuid) IS NULL OR id <> CAST(:besides AS uuid))
        LIMIT 1
    """), {"key": object_key, "besides": besides}).first() is not None


def complete_from(conn: Connection, document_id: str, source_document_id: str, chunk_count: int) -> bool:
    """Complete a document with the outcome of an earlier document of the same content (a
    re-ingest of unchanged bytes): no extraction, OCR or embedding is repeated."""
    row = conn.execute(text("""
        UPDATE documents d SET status = 'completed', extractor = s.extractor, markdown = s.markdown,
               page_count = s.page_count, chunk_count = :chunks, quality = s.quality,
               language = s.language, extraction = s.extraction, annotation = s.annotation,
               error_code = NULL, error_message = NULL, finished_at = now(), updated_at = now()
        FROM documents s
        WHERE d.id = :id AND s.id = CAST(:source AS uuid) AND s.status = 'completed'
          AND d.status IN ('processing', 'waiting') AND d.deleted_at IS NULL
        RETURNING d.id
    """), {"id": document_id, "source": source_document_id, "chunks": chunk_count}).one_or_none()
    return row is not None


def fail_document(conn: Connection, document_id: str, code: str, message: str,
                  report: dict[str, Any] | None = None) -> bool:
    """Mark a document failed; ``False`` when it is no longer in progress (cancelled)."""
    return conn.execute(text("""
        UPDATE documents SET status = 'failed', error_code = :code, error_message = :message,
               extraction = COALESCE(CAST(:report AS jsonb), extraction),
               finished_at = now(), updated_at = now()
        WHERE id = :id AND status IN ('processing', 'waiting')
    """), {"id": document_id, "code": code, "message": message[:2000],
           "report": json.dumps(report) if report else None}).rowcount == 1


def job_options(conn: Connection, job_id: str) -> dict[str, Any]:
    """The options a job was submitted with (``{}`` for an unknown job)."""
    row = conn.execute(text("SELECT options FROM jobs WHERE id = CAST(:job AS uuid)"),
                       {"job": job_id}).one_or_none()
    return dict(row.options or {}) if row else {}


def finalize_job(conn: Connection, job_id: str) -> str | None:
    """Set the job's terminal status from its documents; ``None`` while some are unfinished.
    Its event (``job.completed``, ...) is written by a trigger, in this transaction (migration
    0016), as are those of documents that become completed or failed."""
    row = conn.execute(text("""
        WITH counts AS (
            -- The outcome is the submitted documents' (attachments are listed under them);
            -- nothing is final while any row, attachments included, is unfinished.
            SELECT count(*) FILTER (WHERE status = 'completed' AND parent_id IS NULL) AS completed,
                   count(*) FILTER (WHERE status = 'failed' AND parent_id IS NULL) AS failed,
                   count(*) FILTER (WHERE status NOT IN ('completed', 'failed', 'cancelled'))
                       AS unfinished
            FROM documents WHERE job_id = :job
        )
        UPDATE jobs j SET
            status = CASE WHEN c.failed = 0 AND c.completed = 0 THEN 'cancelled'
                          WHEN c.failed = 0 THEN 'completed'
                          WHEN c.completed = 0 THEN 'failed'
                          ELSE 'completed_with_errors' END,
            finished_at = now(), updated_at = now()
        FROM counts c
        WHERE j.id = :job AND c.unfinished = 0 AND j.status IN ('queued', 'running')
        RETURNING j.status, j.tenant_id
    """), {"job": job_id}).one_or_none()
    if row is None:
        current = conn.execute(text("SELECT status FROM jobs WHERE id = :job"), {"job": job_id})
        status = current.scalar_one_or_none()
        return status if status in TERMINAL_JOB_STATES else None
    return str(row.status)


def unpublished_jobs(conn: Connection, older_than_seconds: float) -> list[tuple[str, int, int]]:
    """Jobs written (or reopened for a retry) but never published, because the publisher died
    or the broker was down: (job id, number of batches, retry number), oldest first."""
    rows = conn.execute(text("""
        SELECT j.id, j.retries, (SELECT count(*) FROM batches b WHERE b.job_id = j.id) AS batches
        FROM jobs j
        WHERE j.published_at IS NULL AND j.status IN ('queued', 'running')
          AND j.updated_at < now() - make_interval(secs => :age)
        ORDER BY j.created_at
        LIMIT 100
    """), {"age": older_than_seconds}).all()
    return [(str(r.id), int(r.batches), int(r.retries)) for r in rows]


def unsettled_jobs(conn: Connection, older_than_seconds: float) -> list[str]:
    """Jobs whose documents are all terminal but which were never finalised (a lost chord
    callback)."""
    rows = conn.execute(text("""
        SELECT j.id FROM jobs j
        WHERE j.status IN ('queued', 'running')
          AND j.updated_at < now() - make_interval(secs => :age)
          AND NOT EXISTS (SELECT 1 FROM documents d WHERE d.job_id = j.id
                          AND d.status NOT IN ('completed', 'failed', 'cancelled'))
        LIMIT 100
    """), {"age": older_than_seconds}).all()
    return [str(r.id) for r in rows]


IDEMPOTENCY_WINDOW_HOURS = 24


def find_idempotent_job(conn: Connection, tenant_id: str, key: str) -> tuple[str, str] | None:
    """(job id, request hash) of the job created with ``key`` in the last 24 hours.

    An older use of the key is released, so that the key can name a new job.
    """
    conn.execute(text("""
        UPDATE jobs SET idempotency_key = NULL
        WHERE tenant_id = :tenant AND idempotency_key = :key
          AND created_at < now() - make_interval(hours => :window)
    """), {"tenant": tenant_id, "key": key, "window": IDEMPOTENCY_WINDOW_HOURS})
    row = conn.execute(text("""
        SELECT id, request_sha256 FROM jobs WHERE tenant_id = :tenant AND idempotency_key = :key
    """), {"tenant": tenant_id, "key": key}).one_or_none()
    return (str(row.id), str(row.request_sha256)) if row else None


def list_jobs(conn: Connection, tenant_id: str, status: str | None, limit: int,
              offset: int) -> list[JobProgress]:
    """The caller's jobs with their progress, newest first, in one query."""
    sql = _PROGRESS.format(
        where="j.tenant_id = :tenant AND (CAST(:status AS text) IS NULL OR j.status = :status)",
        order="ORDER BY j.created_at DESC, j.id LIMIT :limit OFFSET :offset")
    rows = conn.execute(text(sql), {"tenant": tenant_id, "status": status, "limit": limit,
                                    "offset": offset, "mail_types": _MAIL_TYPES}).mappings().all()
    return [from_row(JobProgress, r) for r in rows]


_DOCUMENT_FIELDS = """
    d.id, d.job_id, d.external_id AS document_id, d.status, d.error_code, d.error_message,
    d.filename, d.mime_type, d.size_bytes, d.sha256, d.source, d.url, d.extractor, d.page_count,
    d.chunk_count, d.attempts, d.metadata, d.quality, d.language, d.annotation, d.created_at,
    d.started_at, d.finished_at, d.parent_id
"""


def list_documents(conn: Connection, tenant_id: str, job_id: str, status: str | None,
                   limit: int, offset: int) -> list[DocumentOutcome]:
    rows = conn.execute(text(f"""
        SELECT {_DOCUMENT_FIELDS} FROM documents d
        WHERE d.tenant_id = :tenant AND d.job_id = CAST(:job AS uuid) AND d.deleted_at IS NULL
          AND d.parent_id IS NULL AND (CAST(:status AS text) IS NULL OR d.status = :status)
        ORDER BY d.batch_no, d.external_id
        LIMIT :limit OFFSET :offset
    """), {"tenant": tenant_id, "job": job_id, "status": status, "limit": limit,
           "offset": offset}).mappings().all()
    return [from_row(DocumentOutcome, r) for r in rows]


def failed_documents(conn: Connection, tenant_id: str, job_id: str, limit: int) -> list[DocumentOutcome]:
    """A job's failed documents, attachments included (a failed attachment is worth telling
    about too), by external id."""
    rows = conn.execute(text(f"""
        SELECT {_DOCUMENT_FIELDS} FROM documents d
        WHERE d.tenant_id = :tenant AND d.job_id = CAST(:job AS uuid) AND d.status = 'failed'
          AND d.deleted_at IS NULL
        ORDER BY d.external_id
        LIMIT :limit
    """), {"tenant": tenant_id, "job": job_id, "limit": limit}).mappings().all()
    return [from_row(DocumentOutcome, r) for r in rows]


def get_document(conn: Connection, tenant_id: str, document_uuid: str) -> DocumentDetail | None:
    """One document's outcome, Markdown and (when its content is the one indexed) chunks."""
    if not is_uuid(document_uuid):
        return None
    row = conn.execute(text(f"""
        SELECT {_DOCUMENT_FIELDS}, d.markdown, d.extraction FROM documents d
        WHERE d.tenant_id = :tenant AND d.id = CAST(:id AS uuid) AND d.deleted_at IS NULL
    """), {"tenant": tenant_id, "id": document_uuid}).mappings().one_or_none()
    if row is None:
        return None
    chunks = conn.execute(text("""
        SELECT c.id, c.chunk_no, c.text, c.heading_path, c.page_start, c.page_end, c.boxes,
               c.start_s, c.end_s, c.token_count
        FROM search_documents sd JOIN chunks c ON c.search_document_id = sd.id
        WHERE sd.tenant_id = :tenant AND sd.source_document_id = CAST(:id AS uuid)
        ORDER BY c.chunk_no
    """), {"tenant": tenant_id, "id": document_uuid}).mappings().all()
    attachments = conn.execute(text("""
        SELECT id, external_id AS document_id, filename, mime_type, status, error_code, error_message,
               chunk_count
        FROM documents WHERE parent_id = CAST(:id AS uuid) AND deleted_at IS NULL
        ORDER BY external_id
    """), {"id": document_uuid}).mappings().all()
    return DocumentDetail(
        **row_values(DocumentDetail, row),
        chunks=[IndexedChunk(**{**c, "heading_path": list(c["heading_path"] or [])}) for c in chunks],
        indexed=bool(chunks),
        attachments=[from_row(AttachmentOutcome, a) for a in attachments])


def upsert_attachment(conn: Connection, parent: WorkDocument, external_id: str, name: str,
                      new: NewDocument | None, error: tuple[str, str] | None) -> WorkDocument | None:
    """The child row of one attachment of ``parent``: ``processing`` (its caller indexes it
    next) or ``failed`` with ``error``.  Replays converge on the same row; ``None`` when that
    row is already terminal (or the id belongs to a document the client submitted)."""
    metadata = {**parent.metadata, "attachment_of": parent.external_id}
    row = conn.execute(text("""
        INSERT INTO documents AS d (tenant_id, job_id, external_id, batch_no, source, object_key,
                                    filename, mime_type, size_bytes, sha256, metadata, status,
                                    error_code, error_message, attempts, started_at, finished_at,
                                    parent_id)
        SELECT p.tenant_id, p.job_id, :external_id, p.batch_no, 'attachment', :key, :name, :mime,
               :size, :sha, CAST(:metadata AS jsonb),
               CASE WHEN CAST(:code AS text) IS NULL THEN 'processing' ELSE 'failed' END,
               :code, :message, 1, now(), CASE WHEN CAST(:code AS text) IS NULL THEN NULL ELSE now() END,
               p.id
        -- Only under a parent still being processed: a cancelled mail gets no new attachments.
        FROM documents p WHERE p.id = CAST(:parent AS uuid) AND p.status = 'processing'
        ON CONFLICT (job_id, external_id) DO UPDATE SET
            object_key = excluded.object_key, mime_type = excluded.mime_type,
            size_bytes = excluded.size_bytes, sha256 = excluded.sha256, status = excluded.status,
            error_code = excluded.error_code, error_message = excluded.error_message,
            attempts = d.attempts + 1, started_at = now(), finished_at = excluded.finished_at,
            updated_at = now()
        WHERE d.parent_id = excluded.parent_id AND d.status NOT IN ('completed', 'failed', 'cancelled')
        RETURNING id, tenant_id, job_id, external_id, object_key, filename, mime_type, sha256,
                  metadata, attempts, url, source, status
    """), {"parent": parent.id, "external_id": external_id, "name": name,
           "key": new.object_key if new else None, "mime": new.mime_type if new else None,
           "size": new.size_bytes if new else None, "sha": new.sha256 if new else None,
           "metadata": json.dumps(metadata), "code": error[0] if error else None,
           "message": error[1][:2000] if error else None}).mappings().one_or_none()
    return WorkDocument.from_row(row) if row else None


def attachment_ids(conn: Connection, tenant_id: str, document_uuid: str) -> list[str]:
    """Every attachment below a document (attachments of attachments included)."""
    return [str(r) for r in conn.execute(text("""
        WITH RECURSIVE below AS (
            SELECT id FROM documents WHERE parent_id = CAST(:id AS uuid) AND tenant_id = :tenant
            UNION ALL
            SELECT d.id FROM documents d JOIN below b ON d.parent_id = b.id
        )
        SELECT id FROM below
    """), {"id": document_uuid, "tenant": tenant_id}).scalars()]


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
    job = conn.execute(text("""
        SELECT status FROM jobs WHERE id = CAST(:job AS uuid) AND tenant_id = :tenant FOR UPDATE
    """), {"job": job_id, "tenant": tenant_id}).one_or_none()
    if job is None:
        return None
    if job.status in TERMINAL_JOB_STATES:
        return str(job.status)
    cancelled = conn.execute(text("""
        UPDATE documents SET status = 'cancelled', finished_at = now(), updated_at = now(),
               error_message = CASE WHEN status = 'pending' THEN NULL
                                    ELSE 'cancelled while ' || status END
        WHERE job_id = :job AND status IN ('pending', 'processing', 'waiting')
    """), {"job": job_id}).rowcount
    if not cancelled:
        return finalize_job(conn, job_id) or str(job.status)
    # The job.cancelled event is written by a trigger, in this transaction (migration 0016).
    conn.execute(text("""
        UPDATE jobs SET status = 'cancelled', finished_at = now(), updated_at = now()
        WHERE id = :job
    """), {"job": job_id})
    return "cancelled"


def reopen_failed(conn: Connection, tenant_id: str, job_id: str) -> tuple[int, list[int]] | None:
    """Put a finished job's failed documents back to pending.

    Returns (retry number, batches to run again); ``None`` if the job is not the caller's.
    Raises ``ValueError`` when the job is still running or has nothing to retry.
    """
    job = conn.execute(text("""
        SELECT status FROM jobs WHERE id = CAST(:job AS uuid) AND tenant_id = :tenant FOR UPDATE
    """), {"job": job_id, "tenant": tenant_id}).one_or_none() if is_uuid(job_id) else None
    if job is None:
        return None
    if job.status in ("queued", "running"):
        raise ValueError("the job is still running")
    batches = conn.execute(text("""
        UPDATE documents SET status = 'pending', error_code = NULL, error_message = NULL,
               finished_at = NULL, updated_at = now()
        WHERE job_id = :job AND status = 'failed' AND deleted_at IS NULL
        RETURNING batch_no
    """), {"job": job_id}).scalars().all()
    if not batches:
        raise ValueError("the job has no failed documents")
    retry = conn.execute(text("""
        UPDATE jobs SET status = 'running', retries = retries + 1, finished_at = NULL,
               published_at = NULL, updated_at = now()
        WHERE id = :job RETURNING retries
    """), {"job": job_id}).scalar_one()
    conn.execute(text("""
        UPDATE batches SET status = 'queued', finished_at = NULL, admitted_at = NULL,
               published_at = NULL
        WHERE job_id = :job AND batch_no = ANY(CAST(:batches AS int[]))
    """), {"job": job_id, "batches": sorted(set(batches))})
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
    row = conn.execute(text("""
        UPDATE documents SET deleted_at = now(), markdown = NULL, updated_at = now(),
               -- An unfinished document ends here, whoever is working on it: its worker
               -- stops at its next checkpoint and can no longer commit it (lock_for_commit).
               status = CASE WHEN status IN ('pending', 'processing', 'waiting') THEN 'cancelled'
                             ELSE status END,
               error_code = CASE WHEN status IN ('pending', 'processing', 'waiting') THEN 'deleted'
                                 ELSE error_code END,
               error_message = CASE WHEN status IN ('pending', 'processing', 'waiting')
                                    THEN 'deleted while ' || status ELSE error_message END,
               finished_at = CASE WHEN status IN ('pending', 'processing', 'waiting') THEN now()
                                  ELSE finished_at END
        WHERE id = CAST(:id AS uuid) AND tenant_id = :tenant AND deleted_at IS NULL
        RETURNING external_id, object_key
    """), {"id": document_uuid, "tenant": tenant_id}).one_or_none()
    if row is None:
        return None
    indexed = conn.execute(text("""
        SELECT 1 FROM search_documents
        WHERE tenant_id = :tenant AND source_document_id = CAST(:id AS uuid)
    """), {"tenant": tenant_id, "id": document_uuid}).first() is not None
    shared = row.object_key is None or object_in_use(conn, row.object_key, besides=document_uuid)
    return DeletedDocument(external_id=row.external_id, indexed=indexed,
                           object_key=None if shared else row.object_key)
