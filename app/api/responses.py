"""What the API answers, as marshmallow schemas: every JSON body a route returns is dumped
through one of these, and ``/openapi.json`` describes the responses from the same schemas, so
the description cannot drift from what is sent.

Dumping only ever emits the fields declared here: a column added to a query stays private
until it is declared.  ``required`` marks what every body carries; ``allow_none`` what may be
``null``.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, post_dump, validate

from app.domain.jobs import DOCUMENT_STATES, JOB_STATES
from app.domain.secret_options import public_options, secret_names
from app.domain.webhooks import DELIVERY_STATES, EVENT_TYPES
from extractors.attachments import MAX_ATTACHMENTS, MAX_DEPTH
from indexing.ranking import FUSIONS, NORMALISATIONS


class ErrorDetailSchema(Schema):
    code = fields.String(required=True, metadata={"description": "stable, machine-readable"})
    message = fields.String(required=True)
    details = fields.Raw(metadata={"description": "per-field errors, offending files, ids, ..."})


class ErrorSchema(Schema):
    error = fields.Nested(ErrorDetailSchema, required=True)


class HealthSchema(Schema):
    status = fields.String(required=True, validate=validate.OneOf(["ok"]))


class PublicOptions(fields.Dict):
    """A job's options without its secret ones, whose values are write-only."""

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return super()._serialize(None if value is None else public_options(value), attr, obj, **kwargs)


class SecretOptionNames(fields.List):
    """The names of the secret options a job was given (never their values)."""

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return super()._serialize(None if value is None else secret_names(value), attr, obj, **kwargs)


class JobSchema(Schema):
    """A job's status and counts, derived from its document rows (never incremented)."""

    id = fields.UUID(required=True)
    status = fields.String(required=True, validate=validate.OneOf(JOB_STATES))
    total_documents = fields.Integer(required=True)
    completed_documents = fields.Integer(required=True)
    failed_documents = fields.Integer(required=True)
    cancelled_documents = fields.Integer(required=True)
    processing_documents = fields.Integer(required=True)
    pending_documents = fields.Integer(required=True)
    total_batches = fields.Integer(required=True)
    done_batches = fields.Integer(required=True)
    attachments_dropped = fields.Integer(required=True, metadata={
        "description": f"e-mail attachments not read (nested more than {MAX_DEPTH} deep, or after a "
                       f"message's {MAX_ATTACHMENTS}th), over the submitted documents; each such "
                       "document's extraction signal attachments_dropped says how many and why"})
    documents_with_dropped_attachments = fields.Integer(required=True, metadata={
        "description": "submitted documents with attachments_dropped: completed, but not whole"})
    batch_size = fields.Integer(required=True)
    retries = fields.Integer(required=True)
    # Secret options (password) are write-only: never in an answer, an event or a log;
    # secret_options says which were given (app/domain/secret_options.py).
    options = PublicOptions(required=True, metadata={
        "description": "the options as submitted, without secret ones (see secret_options)"})
    secret_options = SecretOptionNames(
        fields.String(), attribute="options", dump_only=True, required=True, metadata={
            "description": "names of the secret options given (e.g. password): stored encrypted, "
                           "used by the worker, never returned"})
    created_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)
    # When the job was handed to admission (jobs.handed_at); the name kept for clients.
    published_at = fields.DateTime(required=True, allow_none=True, attribute="handed_at")
    finished_at = fields.DateTime(required=True, allow_none=True)


class JobPageSchema(Schema):
    jobs = fields.List(fields.Nested(JobSchema), required=True)
    next_offset = fields.Integer(required=True, allow_none=True,
                                 metadata={"description": "offset of the next page; null on the last"})


class DocumentSchema(Schema):
    """One document's outcome, as a job's document listing shows it."""

    id = fields.UUID(required=True)
    job_id = fields.UUID(required=True)
    document_id = fields.String(required=True, metadata={"description": "the id the client gave"})
    status = fields.String(required=True, validate=validate.OneOf(DOCUMENT_STATES))
    error_code = fields.String(required=True, allow_none=True)
    error_message = fields.String(required=True, allow_none=True)
    filename = fields.String(required=True, allow_none=True)
    mime_type = fields.String(required=True, allow_none=True)
    size_bytes = fields.Integer(required=True, allow_none=True)
    sha256 = fields.String(required=True, allow_none=True)
    source = fields.String(required=True)
    url = fields.String(required=True, allow_none=True)
    extractor = fields.String(required=True, allow_none=True)
    page_count = fields.Integer(required=True, allow_none=True)
    chunk_count = fields.Integer(required=True, allow_none=True)
    attempts = fields.Integer(required=True)
    metadata = fields.Dict(required=True)
    quality = fields.Float(required=True, allow_none=True)
    language = fields.String(required=True, allow_none=True)
    annotation = fields.Raw(required=True, allow_none=True,
                            metadata={"description": "the provider's structured annotation"})
    created_at = fields.DateTime(required=True)
    started_at = fields.DateTime(required=True, allow_none=True)
    finished_at = fields.DateTime(required=True, allow_none=True)
    parent_id = fields.UUID(required=True, allow_none=True,
                            metadata={"description": "the mail an attachment came from"})


class IndexedDocumentSchema(Schema):
    """A document as search sees it (app/domain/jobs.py's ``IndexedEntry``)."""

    document_id = fields.String(required=True, metadata={"description": "the id given at ingest"})
    document_uuid = fields.String(required=True, allow_none=True, metadata={
        "description": "the row of the version indexed (GET /v1/documents/<uuid>); null once purged"})
    job_id = fields.String(required=True, allow_none=True)
    title = fields.String(required=True, allow_none=True)
    mime_type = fields.String(required=True, allow_none=True)
    metadata = fields.Dict(required=True)
    chunk_count = fields.Integer(required=True)
    indexed_at = fields.DateTime(required=True)


class IndexedDocumentPageSchema(Schema):
    documents = fields.List(fields.Nested(IndexedDocumentSchema), required=True)
    next_after = fields.String(required=True, allow_none=True, metadata={
        "description": "pass as `after` for the next page; null on the last"})


class DocumentPageSchema(Schema):
    documents = fields.List(fields.Nested(DocumentSchema), required=True)
    next_offset = fields.Integer(required=True, allow_none=True)


class UsageCountsSchema(Schema):
    """Documents, pages and bytes processed, seconds transcribed (app/domain/usage.py says what
    counts)."""

    documents_completed = fields.Integer(required=True)
    documents_failed = fields.Integer(required=True)
    pages = fields.Integer(required=True)
    bytes = fields.Integer(required=True, metadata={"description": "bytes submitted (an "
                                                    "attachment's are in its e-mail's)"})
    transcription_seconds = fields.Float(required=True, metadata={
        "description": "seconds of audio and video sent for transcription, by the day each "
                       "recording started (one in progress counts its probed duration)"})


class KeyDayUsageSchema(UsageCountsSchema):
    """What one API key had processed on one UTC day."""

    day = fields.Date(required=True)
    api_key_id = fields.UUID(required=True, allow_none=True, metadata={
        "description": "null: jobs submitted without a key (the CLI) or before usage was recorded"})
    key_prefix = fields.String(required=True, allow_none=True)
    key_name = fields.String(required=True, allow_none=True)


class UsageSchema(Schema):
    first = fields.Date(data_key="from", required=True)
    last = fields.Date(data_key="to", required=True)
    usage = fields.List(fields.Nested(KeyDayUsageSchema), required=True, metadata={
        "description": "a row per UTC day and key that processed anything, by day then key"})
    totals = fields.Nested(UsageCountsSchema, required=True)


class BoxSchema(Schema):
    """Where some of a chunk's text is drawn: PDF points from the page's top-left corner."""

    page = fields.Integer(required=True)
    x0 = fields.Float(required=True)
    top = fields.Float(required=True)
    x1 = fields.Float(required=True)
    bottom = fields.Float(required=True)
    width = fields.Float(required=True, metadata={"description": "the page's width in points"})
    height = fields.Float(required=True, metadata={"description": "the page's height in points"})


class ChunkSchema(Schema):
    id = fields.Integer(required=True)
    chunk_no = fields.Integer(required=True)
    text = fields.String(required=True)
    heading_path = fields.List(fields.String(), required=True)
    page_start = fields.Integer(required=True, allow_none=True)
    page_end = fields.Integer(required=True, allow_none=True)
    boxes = fields.List(fields.Nested(BoxSchema), required=True, allow_none=True,
                        metadata={"description": "the boxes of the source blocks the text "
                                  "came from (PDFs); null when the source has no positions"})
    start_s = fields.Float(required=True, allow_none=True,
                           metadata={"description": "audio and video: where the chunk starts, in seconds"})
    end_s = fields.Float(required=True, allow_none=True,
                         metadata={"description": "audio and video: where the chunk ends, in seconds"})
    token_count = fields.Integer(required=True)


class AttachmentSchema(Schema):
    id = fields.UUID(required=True)
    document_id = fields.String(required=True)
    filename = fields.String(required=True, allow_none=True)
    mime_type = fields.String(required=True, allow_none=True)
    status = fields.String(required=True, validate=validate.OneOf(DOCUMENT_STATES))
    error_code = fields.String(required=True, allow_none=True)
    error_message = fields.String(required=True, allow_none=True)
    chunk_count = fields.Integer(required=True, allow_none=True)


class DocumentDetailSchema(DocumentSchema):
    """A document with its Markdown, chunks, extraction report and attachments."""

    markdown = fields.String(required=True, allow_none=True)
    extraction = fields.Raw(required=True, allow_none=True,
                            metadata={"description": "route, signals and every engine attempt"})
    chunks = fields.List(fields.Nested(ChunkSchema), required=True)
    indexed = fields.Boolean(required=True, metadata={"description": "its chunks are the ones searched"})
    attachments = fields.List(fields.Nested(AttachmentSchema), required=True)


class MarkdownWindowSchema(DocumentSchema):
    """A document's outcome and some of its Markdown."""

    markdown = fields.String(required=True, metadata={"description": "from character `offset`"})
    offset = fields.Integer(required=True)
    total_chars = fields.Integer(required=True, metadata={"description": "the whole Markdown's length"})
    next_offset = fields.Integer(required=True, allow_none=True, metadata={
        "description": "offset of the rest; null when this reaches the end"})
    indexed = fields.Boolean(required=True, metadata={"description": "its chunks are the ones searched"})


class ChunkWindowSchema(Schema):
    """Some of a document's chunks, in order."""

    document_id = fields.String(required=True, metadata={"description": "the id given at ingest"})
    total_chunks = fields.Integer(required=True)
    start = fields.Integer(required=True, metadata={"description": "position of the first chunk here"})
    next_start = fields.Integer(required=True, allow_none=True, metadata={
        "description": "start of the next window; null after the last chunk"})
    chunks = fields.List(fields.Nested(ChunkSchema), required=True)


class ParsedSchema(Schema):
    job_id = fields.UUID(required=True)
    document = fields.Nested(DocumentDetailSchema, required=True)


class ParsePendingSchema(Schema):
    job_id = fields.UUID(required=True)
    status = fields.String(required=True)
    message = fields.String(required=True)


class UploadSchema(Schema):
    object_key = fields.String(required=True)
    upload_url = fields.String(required=True)
    method = fields.String(required=True, validate=validate.OneOf(["PUT"]))
    expires_in = fields.Integer(required=True, metadata={"description": "seconds"})
    max_bytes = fields.Integer(required=True)


class SearchHitSchema(Schema):
    document_id = fields.String(required=True)
    document_uuid = fields.String(required=True, allow_none=True, metadata={
        "description": "the document's id in GET /v1/documents/<uuid> (its Markdown and chunks)"})
    chunk_id = fields.Integer(required=True)
    score = fields.Float(required=True)
    text = fields.String(required=True)
    heading_path = fields.List(fields.String(), required=True)
    page_start = fields.Integer(required=True, allow_none=True)
    page_end = fields.Integer(required=True, allow_none=True)
    boxes = fields.List(fields.Nested(BoxSchema), required=True, allow_none=True,
                        metadata={"description": "the boxes of the source blocks the text "
                                  "came from (PDFs); null when the source has no positions"})
    start_s = fields.Float(required=True, allow_none=True,
                           metadata={"description": "seconds into the recording the text starts "
                                     "(audio and video); null for other sources"})
    end_s = fields.Float(required=True, allow_none=True,
                         metadata={"description": "seconds into the recording the text ends"})
    dense_rank = fields.Integer(required=True, allow_none=True)
    dense_score = fields.Float(required=True, allow_none=True)
    bm25_rank = fields.Integer(required=True, allow_none=True)
    bm25_score = fields.Float(required=True, allow_none=True)
    title = fields.String(required=True, allow_none=True)
    mime_type = fields.String(required=True, allow_none=True)
    snippet = fields.String(required=True, allow_none=True,
                            metadata={"description": "the matching terms in **bold**"})
    rerank_score = fields.Float(metadata={
        "description": "the reranker's score, present only when the reranking stage ordered "
                       "this hit (`score` stays the search's own)"})

    @post_dump
    def _rerank_score_only_when_reranked(self, data: dict[str, Any], **_: object) -> dict[str, Any]:
        # Absent rather than null: results without the stage stay as they were before it existed.
        if data.get("rerank_score") is None:
            data.pop("rerank_score", None)
        return data


class RankingSchema(Schema):
    """How the results were made (app/services/search_request.py's ``Ranking``)."""

    fusion = fields.String(required=True, validate=validate.OneOf(FUSIONS))
    alpha = fields.Float(required=True, metadata={"description": "the dense weight of weighted fusion"})
    normalisation = fields.String(required=True, validate=validate.OneOf(NORMALISATIONS), metadata={
        "description": "how weighted fusion scaled each branch's scores"})
    rrf_k = fields.Integer(required=True)
    bm25_path = fields.String(required=True, allow_none=True)
    expansion = fields.Boolean(required=True, metadata={
        "description": "whether the BM25 query was expanded from its first results (RM3)"})
    reranker = fields.String(required=True, allow_none=True, metadata={
        "description": "the cross-encoder that reordered the first results; null when the "
                       "reranking stage did not run"})
    rerank_depth = fields.Integer(required=True, allow_none=True)
    reranked = fields.Integer(required=True, allow_none=True,
                              metadata={"description": "how many results the reranker scored"})
    rerank_ms = fields.Float(required=True, allow_none=True,
                             metadata={"description": "the reranking stage's wall time"})


class SearchResultsSchema(Schema):
    query = fields.String(required=True)
    mode = fields.String(required=True, validate=validate.OneOf(["hybrid", "bm25", "dense"]))
    fusion = fields.String(required=True, validate=validate.OneOf(["rrf", "weighted"]))
    bm25_path = fields.String(required=True, allow_none=True, metadata={
        "description": "which BM25 path ranked the candidates: scan, exact<n>, maxscore or "
                       "budget; null in dense mode"})
    ranking = fields.Nested(RankingSchema, required=True)
    results = fields.List(fields.Nested(SearchHitSchema), required=True)


class WebhookSchema(Schema):
    """A webhook endpoint (its signing secret is shown once, when it is made or rotated)."""

    id = fields.UUID(required=True)
    url = fields.String(required=True)
    events = fields.List(fields.String(validate=validate.OneOf(EVENT_TYPES)), required=True)
    description = fields.String(required=True, allow_none=True)
    created_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)
    disabled_at = fields.DateTime(required=True, allow_none=True, metadata={
        "description": "when deliveries stopped (the receiver answered 410 Gone)"})
    disabled_reason = fields.String(required=True, allow_none=True)
    previous_secret_expires_at = fields.DateTime(required=True, allow_none=True, metadata={
        "description": "after a rotation, until when the previous secret signs too"})


class WebhookSecretSchema(WebhookSchema):
    secret = fields.String(required=True, metadata={
        "description": "whsec_ and base64 of 32 bytes: shown this once, stored encrypted"})


class WebhookPageSchema(Schema):
    webhooks = fields.List(fields.Nested(WebhookSchema), required=True)
    next_offset = fields.Integer(required=True, allow_none=True)


class WebhookAttemptSchema(Schema):
    attempted_at = fields.DateTime(required=True)
    status_code = fields.Integer(required=True, allow_none=True,
                                 metadata={"description": "null when no answer came"})
    error = fields.String(required=True, allow_none=True)
    duration_ms = fields.Integer(required=True)


class WebhookDeliverySchema(Schema):
    """One event's delivery to one endpoint, with every attempt."""

    event_id = fields.String(required=True, metadata={
        "description": "the webhook-id header of every attempt: receivers deduplicate on it"})
    type = fields.String(required=True, validate=validate.OneOf(EVENT_TYPES))
    status = fields.String(required=True, validate=validate.OneOf(DELIVERY_STATES))
    attempt_count = fields.Integer(required=True)
    next_attempt_at = fields.DateTime(required=True, allow_none=True)
    last_status_code = fields.Integer(required=True, allow_none=True)
    last_error = fields.String(required=True, allow_none=True)
    created_at = fields.DateTime(required=True)
    delivered_at = fields.DateTime(required=True, allow_none=True)
    attempts = fields.List(fields.Nested(WebhookAttemptSchema), required=True)


class WebhookDeliveryPageSchema(Schema):
    deliveries = fields.List(fields.Nested(WebhookDeliverySchema), required=True)
    next_offset = fields.Integer(required=True, allow_none=True)
