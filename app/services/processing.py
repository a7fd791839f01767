"""Processing one batch of a job: plain functions, callable and testable without Celery.

For every unfinished document of the batch: read bytes from storage by reference,
extract, chunk, then embed all chunks of the batch together, and index the batch's
documents in one transaction that also marks them completed, so a document's chunks are
visible if and only if it is completed.  A document that cannot join that transaction, or
every document when it fails, is indexed in a transaction of its own, so that a failure is
recorded on its document and never stops the others.

Cancel and delete are states the worker respects: before each document, every second
while its parser runs, and before each embedding window, the worker asks which of its
documents are still in progress and drops the others; the index transaction locks the
document row and checks again before it writes.  Each document also has a time budget
(extraction, chunking and embedding together) and limits on its text and chunks.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np
from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError

from app.config import Config
from app.domain import admission, jobs, provider_batches, provider_cooldowns, secret_options
from app.domain.jobs import WorkDocument
from app.infra import metrics, traces, url_fetch
from app.infra.storage import ObjectNotFound, Storage
from app.services import staging, transcription_metering
from extractors import ExtractionError, ExtractionResult
from extractors.attachments import roll_up_dropped
from extractors.isolation import InProcessExtractor, IsolatedExtractor
from extractors.mime import MEDIA_TYPES
from extractors.sniff import MIME_EML, MIME_MSG, MIME_RECORD
from indexing import bm25_merge, store, tenant_embedders
from indexing.chunking import Chunk, chunk_markdown, chunk_transcript
from indexing.embedding import embed, embedder_in_use
from indexing.provenance import page_regions, with_boxes
from indexing.semantic import similarity_breaks

log = logging.getLogger(__name__)

# Part of every indexed document's content hash: bump it when extraction or chunking
# changes, so that re-ingesting unchanged bytes re-indexes instead of adopting old chunks.
PIPELINE_VERSION = "30"
MAX_ATTEMPTS = 3
# Job option "provider" values that send a job's documents to a remote batch OCR API.
REMOTE_PROVIDERS = admission.HEAVY_PROVIDERS

Extractor = IsolatedExtractor | InProcessExtractor


@dataclass
class Prepared:
    """A document ready to be indexed: its extraction result, chunks and index identity."""

    doc: WorkDocument
    result: ExtractionResult
    chunks: list[Chunk]
    indexed: store.IndexedDocument


@dataclass(frozen=True)
class BatchOutcome:
    completed: int
    failed: int
    unchanged: int
    waiting: int = 0
    provider_batch: str | None = None


@dataclass
class DocumentClock:
    """Wall time each document has cost this delivery, held against the per-document budget
    (``PAGEMILL_DOCUMENT_TIME_BUDGET``): extraction, chunking and its share of embedding."""

    budget: float
    spent: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    stages: dict[tuple[str, str], float] = field(default_factory=lambda: defaultdict(float))
    # Documents allowed more than ``budget`` (recordings: PAGEMILL_MEDIA_TIME_LIMIT).
    longer: dict[str, float] = field(default_factory=dict)
    # The batch's task runs under the media time limit (it was published with recordings):
    # only then may a recording take the media limit.  A URL found to be a recording once
    # fetched runs in an ordinary batch, under the ordinary limits.
    media_batch: bool = False

    def allow(self, doc_id: str, budget: float) -> None:
        self.longer[doc_id] = max(budget, self.budget)

    def budget_of(self, doc_id: str) -> float:
        return self.longer.get(doc_id, self.budget)

    def add(self, doc_id: str, seconds: float, stage: str) -> None:
        self.spent[doc_id] += seconds
        self.stages[(doc_id, stage)] += seconds

    def by_stage(self, doc_id: str) -> str:
        """Where the document's time went, e.g. "extraction 2.1 s, embedding 14.0 s"."""
        return ", ".join(f"{stage} {seconds:.1f} s" for (doc, stage), seconds in self.stages.items()
                         if doc == doc_id)

    def remaining(self, doc_id: str) -> float:
        return max(0.0, self.budget_of(doc_id) - self.spent[doc_id])

    def over(self, doc_id: str) -> bool:
        return self.spent[doc_id] > self.budget_of(doc_id)


def wanted(engine: Engine, doc_ids: list[str]) -> set[str]:
    """The checkpoint: which of these documents are still in progress (not cancelled, not
    deleted, nor under a parent that is)?  The others are dropped by the caller; those left
    marked in progress under an ended parent are ended here, so that their job can finish."""
    with engine.begin() as conn:
        live = jobs.live_documents(conn, doc_ids)
        jobs.end_orphans(conn, [d for d in doc_ids if d not in live])
    return live


# How often the batch loop asks which of its documents are still wanted (_live_or_all).
LIVENESS_SECONDS = 1.0
_IN_PROCESS = InProcessExtractor()


def _live_or_all(engine: Engine, doc_ids: list[str]) -> set[str]:
    """:func:`wanted` for these documents; all of them when the check fails (the database
    unreachable for a moment): the commit's own check (``jobs.lock_for_commit``) decides."""
    try:
        return wanted(engine, doc_ids)
    except Exception:
        log.warning("could not check which documents are still wanted", exc_info=True)
        return set(doc_ids)


def still_wanted(engine: Engine, doc_id: str) -> bool:
    """:func:`wanted` for one document; a failing check (database unreachable for a moment)
    counts as wanted: the commit's own check (``jobs.lock_for_commit``) still decides."""
    try:
        return doc_id in wanted(engine, [doc_id])
    except Exception:
        log.warning("could not check whether the document is still wanted", exc_info=True,
                    extra={"document_uuid": doc_id})
        return True


def content_hash(sha256: str, config: Config) -> str:
    recipe = (f"{sha256}|{PIPELINE_VERSION}|{config.chunking.max_tokens}|{config.chunking.overlap_tokens}"
              f"|{config.chunking.chunker}|{config.media.window_seconds}|{config.media.window_overlap_seconds}")
    return hashlib.sha256(recipe.encode()).hexdigest()


def _fields(doc: WorkDocument) -> dict[str, str]:
    return {"job_id": doc.job_id, "document_id": doc.external_id, "document_uuid": doc.id}


def _fail(engine: Engine, doc: WorkDocument, code: str, message: str,
          report: dict[str, Any] | None = None) -> bool:
    """Record the failure; ``False`` when the document had ended meanwhile (cancelled,
    deleted), which then counts as no failure of this batch."""
    with engine.begin() as conn:
        failed = jobs.fail_document(conn, doc.id, code, message, report)
    if failed:
        metrics.count_document("failed", None)
        log.warning("document failed: %s: %s", code, message, extra={**_fields(doc), "error_code": code})
    return failed


def load_bytes(storage: Storage, doc: WorkDocument) -> bytes:
    """A document's stored bytes, checked against the hash recorded at submission."""
    if doc.object_key is None:
        raise ExtractionError("object_missing", "the document has no stored bytes")
    try:
        data = storage.get(doc.object_key)
    except ObjectNotFound as exc:
        raise ExtractionError("object_missing", f"stored bytes not found: {doc.object_key}") from exc
    if hashlib.sha256(data).hexdigest() != doc.sha256:
        raise ExtractionError("object_corrupt", "stored bytes do not match their SHA-256")
    return data


def _store_bytes(engine: Engine, storage: Storage, doc: WorkDocument, data: bytes, source: str,
                 filename: str | None, where: str = "") -> WorkDocument:
    """Bytes obtained by the worker (URL, direct upload) stored content-addressed like an
    upload and recorded on the document; returns the document as it now is."""
    try:
        new = staging.stage_document(storage, doc.tenant_id, doc.external_id, data,
                                  source=source, filename=filename)
    except staging.UnsupportedDocument as exc:
        raise ExtractionError("unsupported", exc.reason + where) from exc
    with engine.begin() as conn:
        recorded = jobs.record_fetch(conn, doc.id, new)
    if not recorded:
        _discard_unused(engine, storage, new.object_key)
        raise ExtractionError("cancelled", "the document was cancelled or deleted while its bytes "
                              "were fetched")
    return replace(doc, object_key=new.object_key, sha256=new.sha256, mime_type=new.mime_type,
                   filename=doc.filename or new.filename)


def _discard_unused(engine: Engine, storage: Storage, object_key: str | None) -> None:
    """Remove bytes the worker stored for a document that ended meanwhile, unless another
    document uses them (content addressing shares identical bytes)."""
    if object_key is None:
        return
    with engine.connect() as conn:
        in_use = jobs.object_in_use(conn, object_key)
    if not in_use:
        storage.delete(object_key)


def _fetch(engine: Engine, storage: Storage, doc: WorkDocument,
           config: Config) -> tuple[WorkDocument, bytes]:
    """A URL document's bytes, fetched under the SSRF policy and stored like an upload."""
    assert doc.url is not None
    try:
        fetched = url_fetch.fetch(doc.url, url_fetch.UrlPolicy.from_config(config))
    except url_fetch.FetchError as exc:
        raise ExtractionError(exc.code, exc.message) from exc
    doc = _store_bytes(engine, storage, doc, fetched.data, "url", doc.filename or fetched.filename,
                       f" (from {fetched.final_url})")
    log.info("document fetched", extra={**_fields(doc), "bytes": len(fetched.data)})
    return doc, fetched.data


def _adopt_upload(engine: Engine, storage: Storage, doc: WorkDocument) -> tuple[WorkDocument, bytes]:
    """A direct upload (``object_key`` document): stored content-addressed like any upload,
    then the upload object is removed, in that order, so a crash in between loses nothing."""
    upload_key = doc.object_key
    assert upload_key is not None
    try:
        data = storage.get(upload_key)
    except ObjectNotFound as exc:
        raise ExtractionError("object_missing", f"the uploaded object is gone: {upload_key}") from exc
    doc = _store_bytes(engine, storage, doc, data, "object", doc.filename)
    if doc.object_key != upload_key:
        storage.delete(upload_key)
    return doc, data


def _prepare(engine: Engine, storage: Storage, doc: WorkDocument, config: Config,
             extractor: Extractor, job_options: dict[str, Any],
             clock: DocumentClock) -> list[Prepared]:
    """The document's attachments (documents of their own), then the document itself."""
    began = time.monotonic()
    if doc.object_key is None and doc.url:
        doc, data = _fetch(engine, storage, doc, config)
    elif doc.sha256 is None and doc.source == "object":
        doc, data = _adopt_upload(engine, storage, doc)
    else:
        data = load_bytes(storage, doc)
    metrics.observe_stage("fetch", time.monotonic() - began)
    # Decrypted here, where it is used, and nowhere else.
    password = secret_options.reveal(config, job_options, "password")
    recording = doc.mime_type in MEDIA_TYPES
    cooling = None
    reservation = None
    if recording:  # minutes per piece at a provider: the shared cool-downs, the media limit
        if clock.media_batch:
            clock.allow(doc.id, config.media.time_limit)
        with engine.connect() as conn:
            cooling = {c.provider: c.until for c in provider_cooldowns.active(conn)}
        # Its seconds against the key's daily limit, before any provider hears it.
        reservation = transcription_metering.reserve(engine, doc, data, config)
    options = config.extract_options(password=password if isinstance(password, str) else None,
                                     cooling_until=cooling,
                                     transcribe_at_most=reservation.seconds if reservation else None)
    limit = config.media.time_limit if recording and clock.media_batch else config.extraction.hard_timeout
    if doc.mime_type == MIME_RECORD:
        # A record is JSON this service staged: parsing it runs no native code and no
        # third-party parser, so a child process would isolate nothing (and cost a round trip).
        extractor = _IN_PROCESS
    began = time.monotonic()
    with traces.span("pagemill.extract", **_span_fields(doc)) as extracting:
        began_ns = time.time_ns()
        try:
            result = extractor.extract(data, filename=doc.filename, declared=doc.mime_type,
                                       options=options, timeout=min(limit, clock.remaining(doc.id)),
                                       should_stop=lambda: not still_wanted(engine, doc.id))
        except ExtractionError as exc:
            traces.set_attributes(extracting, **{"pagemill.outcome": exc.code})
            traces.record_attempts(exc.attempts, began_ns, **_span_fields(doc))
            _record_cooldowns(engine, doc, exc.attempts)
            transcription_metering.settle(engine, doc, reservation, exc)
            raise
        traces.set_attributes(extracting, **{"pagemill.outcome": "ok", "pagemill.route": result.route,
                                             "pagemill.extractor": result.extractor})
        traces.record_attempts(result.attempts, began_ns, **_span_fields(doc))
    _record_cooldowns(engine, doc, result.attempts)
    metrics.observe_stage("extract", time.monotonic() - began)
    metrics.observe_ocr(result.attempts, config.extraction.ocr_engines)
    transcription_metering.settle(engine, doc, reservation, result)
    transcription_metering.charge_attachments(engine, doc, result)
    log.info("document extracted", extra={**_fields(doc), "extractor": result.extractor,
                                          "route": result.route, "quality": result.quality})
    # Attachments a limit dropped anywhere under this document are counted on it (and so in
    # its job's counts), not only on the nested attachment where the limit struck.
    roll_up_dropped(result)
    item = prepare_result(doc, result, config)
    return [*_prepare_attachments(engine, storage, doc, result, config), item]


def _record_cooldowns(engine: Engine, doc: WorkDocument, attempts: list[Any]) -> None:
    """Providers this document met rate-limited go on the cool-down every worker reads.  A
    failure to record one is logged, never the document's failure: the cool-down only saves
    other documents a refused call."""
    if not any(getattr(a, "error_code", None) == "rate_limited" for a in attempts):
        return
    try:
        with engine.begin() as conn:
            cooled = provider_cooldowns.record(conn, attempts)
    except Exception:
        log.warning("could not record a provider cool-down", exc_info=True, extra=_fields(doc))
        return
    log.warning("transcription providers on cool-down: %s", ", ".join(cooled),
                extra={**_fields(doc), "providers": cooled})


def _attachment_id(parent_id: str, name: str, used: set[str]) -> str:
    external_id = f"{parent_id}#{name}"
    n = 1
    while external_id in used:
        n += 1
        external_id = f"{parent_id}#{n}-{name}"
    used.add(external_id)
    return external_id


def _prepare_attachments(engine: Engine, storage: Storage, parent: WorkDocument,
                         result: ExtractionResult, config: Config) -> list[Prepared]:
    """Each attachment becomes a child row of ``parent`` with its own bytes in storage, its
    own outcome and index entry (``<parent id>#<file name>``); a failed attachment fails
    alone.  Attachments of attachments follow, depth first."""
    items: list[Prepared] = []
    used: set[str] = set()
    for attachment in result.attachments:
        external_id = _attachment_id(parent.external_id, attachment.name, used)
        new: jobs.NewDocument | None = None
        error: tuple[str, str] | None = None
        try:
            new = staging.stage_document(storage, parent.tenant_id, external_id, attachment.data,
                                      source="attachment", filename=attachment.name)
        except staging.UnsupportedDocument as exc:
            error = ("unsupported", exc.reason)
        if attachment.result is None:
            error = (attachment.error_code or "unsupported", attachment.error_message or "not parsed")
        with engine.begin() as conn:
            child = jobs.upsert_attachment(conn, parent, external_id, attachment.name, new, error)
        if child is None and new is not None:
            _discard_unused(engine, storage, new.object_key)  # its parent ended meanwhile
        if child is None or child.status != "processing" or attachment.result is None:
            continue  # finished by an earlier delivery, or failed and recorded as such
        try:
            items.extend(_prepare_attachments(engine, storage, child, attachment.result, config))
            items.append(prepare_result(child, attachment.result, config))
        except ExtractionError as exc:
            _fail(engine, child, exc.code, exc.message)
    return items


def _span_fields(doc: WorkDocument) -> dict[str, str | None]:
    """A document's attributes on its spans (app/infra/traces.py)."""
    return {"pagemill.job_id": doc.job_id, "pagemill.document_id": doc.external_id,
            "pagemill.document_row": doc.id, "pagemill.mime_type": doc.mime_type}


def prepare_result(doc: WorkDocument, result: ExtractionResult, config: Config) -> Prepared:
    """Chunks and index identity for an extraction result (local or from a provider)."""
    with traces.span("pagemill.chunk", **_span_fields(doc)) as chunking:
        prepared = _chunked(doc, result, config)
        traces.set_attributes(chunking, **{"pagemill.chunks": len(prepared.chunks)})
    return prepared


def _chunked(doc: WorkDocument, result: ExtractionResult, config: Config) -> Prepared:
    began = time.monotonic()
    chars = sum(len(page.markdown) for page in result.pages)
    if chars > config.processing.max_text_chars:
        raise ExtractionError("too_large", f"the document's text has {chars} characters; the "
                              f"limit is {config.processing.max_text_chars} (PAGEMILL_MAX_TEXT_CHARS)")
    timed = result.signals.get("segments") if result.route == "media" else None
    if timed:  # a transcript: whole segments in time windows, each chunk with its times
        chunks = chunk_transcript([(float(t["start"]), float(t["end"]), str(t["text"])) for t in timed],
                                  config.media.window_seconds, config.media.window_overlap_seconds,
                                  config.chunking.max_tokens)
    else:
        segments = [(page.markdown, page.number) for page in result.pages]
        breaker = similarity_breaks if config.chunking.chunker == "semantic" else None
        chunks = chunk_markdown(segments, max_tokens=config.chunking.max_tokens,
                                overlap_tokens=config.chunking.overlap_tokens, breaker=breaker)
    if not chunks:
        raise ExtractionError("empty", "no text could be extracted from the document")
    regions = {page.number: page_regions(page.markdown, page.number, page.size, page.blocks)
               for page in result.pages if page.number is not None and page.blocks}
    chunks = with_boxes(chunks, {n: r for n, r in regions.items() if r})
    if len(chunks) > config.processing.max_chunks:
        raise ExtractionError("too_large", f"the document makes {len(chunks)} chunks; the limit "
                              f"is {config.processing.max_chunks} (PAGEMILL_MAX_CHUNKS)")
    assert doc.sha256 is not None, "a document is prepared only once its bytes are stored"
    indexed = store.IndexedDocument(
        tenant_id=doc.tenant_id, external_id=doc.external_id, source_document_id=doc.id,
        job_id=doc.job_id, content_sha256=content_hash(doc.sha256, config), mime_type=result.mime_type,
        title=result.title, metadata_json=json.dumps(doc.metadata),
    )
    metrics.observe_stage("chunk", time.monotonic() - began)
    return Prepared(doc, result, chunks, indexed)


def process_batch(
    engine: Engine, storage: Storage, config: Config, job_id: str, batch_no: int,
    extractor: Extractor | None = None,
) -> BatchOutcome:
    extractor = extractor or InProcessExtractor()
    with engine.begin() as conn:
        media_batch = jobs.start_batch(conn, job_id, batch_no) > 0
        docs = jobs.claim_batch_documents(conn, job_id, batch_no, MAX_ATTEMPTS)
        job_options = jobs.job_options(conn, job_id)
        if job_options.get("provider") in REMOTE_PROVIDERS and docs:
            # Remote batch OCR: the documents wait for the provider; tasks/provider.py
            # submits the batch and polls it without holding this worker.
            provider_batch = provider_batches.hand_over(
                conn, job_id, batch_no, [d.id for d in docs], str(job_options["provider"]),
                config.ocr_provider.window_seconds)
            jobs.finish_batch(conn, job_id, batch_no)
            log.info("batch handed to provider", extra={"job_id": job_id, "provider_batch": provider_batch,
                                                        "batch_id": f"{job_id}:{batch_no}"})
            return BatchOutcome(completed=0, failed=0, unchanged=0, waiting=len(docs),
                                provider_batch=provider_batch)
    log.info("batch started", extra={"job_id": job_id, "batch_id": f"{job_id}:{batch_no}",
                                     "documents": len(docs)})
    failed = unchanged = 0
    prepared: list[Prepared] = []
    clock = DocumentClock(config.processing.document_time_budget, media_batch=media_batch)
    # What is indexed under these ids already, read once: only a document whose content is
    # there pays for the adoption's transaction (a first ingest has none).
    with engine.connect() as conn:
        indexed = store.indexed_hashes(conn, docs[0].tenant_id, [d.external_id for d in docs]) if docs else {}
    live: set[str] = set()
    checked = -LIVENESS_SECONDS
    for k, doc in enumerate(docs):
        if time.monotonic() - checked >= LIVENESS_SECONDS:
            # The checkpoint before each document, for the rest of the batch in one query,
            # at most once a second: a cancel is seen within a second (and the index write's
            # own lock_for_commit decides in the end).
            live = _live_or_all(engine, [d.id for d in docs[k:]])
            checked = time.monotonic()
        if doc.id not in live:
            log.info("document cancelled before processing", extra=_fields(doc))
            continue
        if doc.sha256 is not None and indexed.get(doc.external_id) == content_hash(doc.sha256, config) \
                and _adopt_unchanged(engine, doc, config):
            unchanged += 1
            continue
        started = time.monotonic()
        try:
            items = _prepare(engine, storage, doc, config, extractor, job_options, clock)
        except ExtractionError as exc:
            if exc.code == "cancelled":
                log.info("document cancelled during extraction", extra=_fields(doc))
                continue
            report = {"attempts": [asdict(a) for a in exc.attempts]} if exc.attempts else None
            metrics.observe_ocr(exc.attempts, config.extraction.ocr_engines)
            failed += _fail(engine, doc, exc.code, exc.message, report)
            continue
        except Exception as exc:  # an engine bug must fail its document, not the batch
            log.exception("extraction crashed", extra=_fields(doc))
            failed += _fail(engine, doc, "internal_error", f"{type(exc).__name__}: {exc}")
            continue
        finally:
            clock.add(doc.id, time.monotonic() - started, "fetching, parsing and chunking")
        # Attachments come first: a parent is completed only after its attachments are.
        for item in items:
            known = indexed.get(item.indexed.external_id, "") if item.doc.id == doc.id else None
            if known is not None and known != item.indexed.content_sha256:
                prepared.append(item)  # nothing of this content indexed under its id
                continue
            try:
                with engine.begin() as conn:
                    if not jobs.lock_for_commit(conn, item.doc.id):
                        continue  # cancelled or deleted meanwhile
                    count = store.adopt_if_unchanged(conn, item.indexed)
                    if count is not None:
                        if not jobs.complete_document(conn, _completion(item, count)):
                            raise _NoLongerInProgress
                        metrics.count_document("completed", item.result.extractor)
                        unchanged += item is items[-1]
                        continue
            except _NoLongerInProgress:
                continue  # cancelled meanwhile: the adoption is rolled back
            prepared.append(item)

    completed, timed_out = index_prepared(engine, config, prepared, clock)
    with engine.begin() as conn:
        jobs.finish_batch(conn, job_id, batch_no)
    return BatchOutcome(completed=completed + unchanged, failed=failed + timed_out,
                        unchanged=unchanged)


def _adopt_unchanged(engine: Engine, doc: WorkDocument, config: Config) -> bool:
    """Complete a document whose exact content is already indexed under its id, before any
    extraction: a replay or re-ingest of unchanged bytes costs two UPDATEs, not an OCR run."""
    if doc.sha256 is None:
        return False  # a URL not fetched yet: its content is unknown
    if doc.mime_type in (MIME_EML, MIME_MSG):
        return False  # its attachments need rows in this job too: extract it (cheap for mail)
    with engine.begin() as conn:
        indexed = store.find_unchanged(conn, doc.tenant_id, doc.external_id, content_hash(doc.sha256, config))
        if indexed is None or indexed.source_document_id is None:
            return False
        if indexed.source_document_id == doc.id:
            return False  # our own earlier attempt: let the normal path finish it
        if not jobs.complete_from(conn, doc.id, indexed.source_document_id, indexed.chunk_count):
            return False
        store.adopt(conn, indexed, doc.id, doc.job_id, json.dumps(doc.metadata))
    metrics.count_document("completed", "unchanged")
    log.info("document unchanged: adopted", extra=_fields(doc))
    return True


class _NoLongerInProgress(Exception):
    """Raised inside an index transaction to roll it back."""


# Seconds of embedding between two checkpoints: how soon a cancelled document stops
# costing the worker.  Windows are sized from the throughput just measured (a loaded machine
# embeds fewer texts per second), within [EMBED_MIN_WINDOW, EMBED_MAX_WINDOW] texts; the
# model takes each window in batches of PAGEMILL_EMBEDDING_BATCH_SIZE.
CHECKPOINT_SECONDS = 2.0
EMBED_MIN_WINDOW = 4
EMBED_MAX_WINDOW = 256


def _checkpoint(engine: Engine, prepared: list[Prepared], owners: set[int], dropped: set[int],
                clock: DocumentClock | None) -> int:
    """Drop from ``owners`` the documents cancelled or deleted meanwhile, and fail as
    ``timeout`` those past their budget; returns how many submitted documents timed out."""
    timed_out = 0
    live = wanted(engine, [prepared[i].doc.id for i in owners])
    for i in sorted(owners):
        doc = prepared[i].doc
        if doc.id not in live:
            log.info("document cancelled during embedding; not indexed", extra=_fields(doc))
            dropped.add(i)
        elif clock is not None and clock.over(doc.id):
            setting = ("PAGEMILL_MEDIA_TIME_LIMIT" if doc.id in clock.longer
                       else "PAGEMILL_DOCUMENT_TIME_BUDGET")
            if _fail(engine, doc, "timeout", f"processing took over the document time budget of "
                     f"{clock.budget_of(doc.id):.0f} s ({setting}) before embedding ended "
                     f"({clock.by_stage(doc.id)})"):
                timed_out += doc.source != "attachment"
            dropped.add(i)
    return timed_out


def tenant_embedders_of(engine: Engine, tenant_ids: set[str]) -> dict[str, str]:
    """The embedder each tenant's chunks are embedded with: its pin, or this worker's own
    (``PAGEMILL_EMBEDDER``, as it runs here) for a tenant with none yet, which its first
    document written then pins (indexing/tenant_embedders.py)."""
    own = embedder_in_use()
    with engine.connect() as conn:
        return {tenant: tenant_embedders.pinned(conn, tenant) or own for tenant in sorted(tenant_ids)}


def _fail_unavailable(engine: Engine, doc: WorkDocument, embedder: str) -> bool:
    """Fail a document whose tenant is pinned to an embedder this worker cannot run; ``True``
    when it counts as a failure of the batch (a submitted document, not an attachment)."""
    return _fail(engine, doc, "embedder_unavailable", f"this tenant's index is built with the "
                 f"{embedder} embedder, which this worker cannot run (see its start-up log); run "
                 "the worker with it available, or move the tenant: pagemill reembed --tenant NAME "
                 "--embedder torch") and doc.source != "attachment"


def _embed_wanted(engine: Engine, config: Config, prepared: list[Prepared], clock: DocumentClock | None,
                  embedders: dict[str, str]) -> tuple[dict[int, np.ndarray], int]:
    """Vectors of the prepared documents still wanted, keyed by position in ``prepared``,
    and how many documents failed their time budget.  Texts are embedded longest first
    (as sentence-transformers orders a call, so padding stays low), in windows of about
    :data:`CHECKPOINT_SECONDS` of work; before each window, a checkpoint (:func:`_checkpoint`;
    one query, noise beside the window) drops what was cancelled or deleted meanwhile."""
    used = {i: embedders[item.doc.tenant_id] for i, item in enumerate(prepared)}
    # One embedder per window (a batch's documents share a tenant, so nearly always one).
    texts = sorted(((i, n, c.embed_text) for i, item in enumerate(prepared)
                    for n, c in enumerate(item.chunks)), key=lambda entry: (used[entry[0]], -len(entry[2])))
    parts: dict[int, list[tuple[int, np.ndarray]]] = defaultdict(list)
    dropped: set[int] = set()
    timed_out = start = 0
    batch = max(1, config.embedding.batch_size)
    step = max(EMBED_MIN_WINDOW, batch // 2)  # the first window: the throughput is not known yet
    while start < len(texts):
        embedder = used[texts[start][0]]
        span = [entry for entry in texts[start:start + step] if used[entry[0]] == embedder]
        owners = {i for i, _, _ in span} - dropped
        timed_out += _checkpoint(engine, prepared, owners, dropped, clock)
        window = [entry for entry in span if entry[0] not in dropped]
        start += len(span)
        if not window:
            continue
        began = time.monotonic()
        with traces.span("pagemill.embed", **{
                "pagemill.embedder": embedder, "pagemill.chunks": len(window),
                "pagemill.document_ids": sorted({prepared[i].indexed.external_id for i, _, _ in window})}):
            vectors = embed([t for _, _, t in window], batch_size=batch, embedder=embedder)
        took = max(time.monotonic() - began, 1e-3)
        step = min(EMBED_MAX_WINDOW, max(EMBED_MIN_WINDOW, int(len(window) / took * CHECKPOINT_SECONDS)))
        if clock is not None:  # each document pays for its share of the window
            for i, _, _ in window:
                clock.add(prepared[i].doc.id, took / len(window), "embedding")
        for (i, n, _), vector in zip(window, vectors, strict=True):
            parts[i].append((n, vector))
    out = {i: np.vstack([v for _, v in sorted(pieces, key=lambda p: p[0])])
           for i, pieces in parts.items() if i not in dropped}
    return out, timed_out


def index_prepared(engine: Engine, config: Config, prepared: list[Prepared],
                   clock: DocumentClock | None = None) -> tuple[int, int]:
    """Embed the chunks of every document still wanted, then index them: each tenant's
    documents together in one transaction (:func:`_index_together`), any left over each in
    its own (:func:`_index_one`); a transaction locks the documents' rows, checks they are
    still in progress and marks them completed.  Each tenant's chunks are embedded with the
    tenant's embedder (:func:`tenant_embedders_of`).  Returns (documents indexed, documents
    that failed here: time budget, embedder)."""
    embedders = tenant_embedders_of(engine, {item.doc.tenant_id for item in prepared})
    unavailable = {t: e for t, e in embedders.items() if embedder_in_use(e) != e}
    timed_out = 0
    for item in [item for item in prepared if item.doc.tenant_id in unavailable]:
        timed_out += _fail_unavailable(engine, item.doc, unavailable[item.doc.tenant_id])
    prepared = [item for item in prepared if item.doc.tenant_id not in unavailable]
    vectors, late = _embed_wanted(engine, config, prepared, clock, embedders)
    timed_out += late
    ready = [i for i in range(len(prepared)) if i in vectors]
    together, seconds_each = _index_together(engine, config, prepared, vectors, ready, embedders)
    completed = 0
    for i in ready:
        item = prepared[i]
        if clock is not None:  # its share of the embedding windows (_embed_wanted)
            metrics.observe_stage("embed", clock.stages.get((item.doc.id, "embedding"), 0.0))
        began = time.monotonic()
        if i not in together:
            indexed, failed = _index_one(engine, config, item, vectors[i], embedders[item.doc.tenant_id])
            timed_out += failed
            if not indexed:
                continue
        metrics.observe_stage("index", seconds_each if i in together else time.monotonic() - began)
        metrics.count_document("completed", item.result.extractor)
        completed += item.doc.source != "attachment"  # count what the client submitted
        log.info("document indexed", extra={**_fields(item.doc), "chunks": len(item.chunks),
                                            "extractor": item.result.extractor})
    # The indexing transactions have committed: merge the BM25 delta of any tenant past the
    # threshold, each in its own transaction (errors are logged; the documents stay indexed).
    bm25_merge.merge_due(engine, {prepared[i].doc.tenant_id for i in ready}, config.processing.bm25_merge_at)
    return completed, timed_out


def _index_together(engine: Engine, config: Config, prepared: list[Prepared], vectors: dict[int, np.ndarray],
                    ready: list[int], embedders: dict[str, str]) -> tuple[set[int], float]:
    """Index the ready documents of each tenant in one transaction: one set of statements
    for all of them (store.replace_documents, jobs.complete_documents), about half the cost
    of writing them one by one (docs/BENCHMARKS.md, issue 23, third session).  Returns the
    positions indexed and the seconds per document.

    What this leaves is written by :func:`_index_one`, which attributes any failure to its
    own document: a document whose row a cancel or delete holds right now (never waited for
    here, so that locking many rows cannot deadlock with it), a second document under an
    external id already in the set, and all of a tenant's documents when their transaction
    fails (a statement's error, or the tenant moved to another embedder meanwhile)."""
    done: set[int] = set()
    began = time.monotonic()
    by_tenant: dict[str, list[int]] = defaultdict(list)
    for i in ready:
        by_tenant[prepared[i].doc.tenant_id].append(i)
    for tenant, positions in sorted(by_tenant.items()):
        if len(positions) < 2:
            continue
        chosen: list[int] = []
        try:
            with traces.span("pagemill.index_write", **{
                    "pagemill.documents": len(positions),
                    "pagemill.document_ids": [prepared[i].indexed.external_id for i in positions]}), \
                    engine.begin() as conn:
                locked = jobs.lock_for_commit_unheld(conn, [prepared[i].doc.id for i in positions])
                names: set[str] = set()
                for i in positions:
                    name = prepared[i].indexed.external_id
                    if prepared[i].doc.id in locked and name not in names:
                        names.add(name)
                        chosen.append(i)
                writes = [store.DocumentWrite(prepared[i].indexed, prepared[i].chunks, vectors[i])
                          for i in chosen]
                store.replace_documents(conn, writes, k1=config.search.k1, b=config.search.b,
                                        embedder=embedders[tenant])
                completions = [_completion(prepared[i]) for i in chosen]
                if jobs.complete_documents(conn, completions) != {prepared[i].doc.id for i in chosen}:
                    raise _NoLongerInProgress  # not under the row locks; rolled back all the same
        except (DBAPIError, tenant_embedders.EmbedderChanged, _NoLongerInProgress, store.ChunkTooLong) as exc:
            log.warning("writing a batch's documents together failed; writing them one by one",
                        extra={"tenant_id": tenant, "documents": len(chosen), "error": repr(exc)[:500]})
            continue
        done.update(chosen)
    return done, (time.monotonic() - began) / max(1, len(done))


def _completion(item: Prepared, chunk_count: int | None = None) -> jobs.Completion:
    """What a prepared document completes with once its chunks are indexed (``chunk_count``:
    those of the index entry it adopted instead)."""
    return jobs.Completion(item.doc.id, item.result.extractor, item.result.markdown, item.result.page_count,
                           len(item.chunks) if chunk_count is None else chunk_count, item.result.report())


def _index_one(engine: Engine, config: Config, item: Prepared, vectors: np.ndarray,
               embedder: str) -> tuple[bool, int]:
    """Index one document in its own transaction: (indexed, failures to count).  A document
    whose tenant was moved to another embedder meanwhile is embedded again with the new
    one, never written with the old vectors."""
    try:
        for again in (False, True):
            try:
                with traces.span("pagemill.index_write", **{
                        **_span_fields(item.doc), "pagemill.documents": 1,
                        "pagemill.chunks": len(item.chunks)}), engine.begin() as conn:
                    if not jobs.lock_for_commit(conn, item.doc.id):
                        raise _NoLongerInProgress
                    store.replace_document(conn, item.indexed, item.chunks, vectors,
                                           k1=config.search.k1, b=config.search.b, embedder=embedder)
                    if not jobs.complete_document(conn, _completion(item)):
                        raise _NoLongerInProgress
                return True, 0
            except tenant_embedders.EmbedderChanged as moved:
                if again or embedder_in_use(moved.pinned) != moved.pinned:
                    raise
                # `pagemill reembed` moved the tenant meanwhile.
                embedder = moved.pinned
                vectors = embed([c.embed_text for c in item.chunks], embedder=embedder)
    except tenant_embedders.EmbedderChanged as moved:
        if embedder_in_use(moved.pinned) != moved.pinned:
            return False, _fail_unavailable(engine, item.doc, moved.pinned)
        # moved twice while it was written
        return False, _fail(engine, item.doc, "embedder_changed",
                            f"{moved}; ingest it again") and item.doc.source != "attachment"
    except store.ChunkTooLong as exc:
        return False, _fail(engine, item.doc, "too_large", str(exc)) and item.doc.source != "attachment"
    except _NoLongerInProgress:
        log.info("document cancelled or deleted during processing; not indexed", extra=_fields(item.doc))
        wanted(engine, [item.doc.id])  # an attachment of an ended parent ends too
        return False, 0
    return False, 0  # not reached: the loop returns or raises
