"""Sync mode: one small document through the same pipeline as every job, at the broker's
highest priority.  The answer holds its Markdown and chunks, or 202 with the job id when the
deadline passes first (the job goes on; poll it)."""

from __future__ import annotations

import time

from flask import Response, jsonify, request

from app.api.auth import keyed_blueprint
from app.api.context import config, principal, runtime, tenant_id
from app.api.errors import ApiError
from app.api.job_requests import check_filenames
from app.api.openapi import Answer, documented, upload_body
from app.api.responses import ParsedSchema, ParsePendingSchema
from app.domain import jobs
from app.services.staging import stage_document
from app.services.submission import submit_job

blueprint = keyed_blueprint("parse", __name__, url_prefix="/v1/parse")

# Sync parses jump the queue: the broker fetches by (priority DESC, id).
SYNC_PRIORITY = 9
POLL_SECONDS = 0.1


def _pdf_page_count(data: bytes) -> int | None:
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError:
        return None  # encrypted or corrupt: the pipeline reports it per document
    try:
        return len(pdf)
    finally:
        pdf.close()


def _read_one_file() -> tuple[str, bytes]:
    uploads = [f for name in request.files for f in request.files.getlist(name)]
    if len(uploads) != 1 or not uploads[0].filename:
        raise ApiError(400, "validation_error", "send exactly one file (multipart, with a filename)")
    name = uploads[0].filename
    check_filenames([name])
    limit = config().parse.max_bytes
    data = uploads[0].read(limit + 1)
    if len(data) > limit:
        raise ApiError(413, "file_too_large", f"sync parsing takes files up to {limit} bytes; "
                       "submit larger ones to POST /v1/jobs")
    return name, data


def _check_parseable(name: str, data: bytes) -> None:
    from extractors.sniff import MIME_PDF, parseable

    mime = parseable(data, filename=name)
    if mime is None:
        raise ApiError(415, "unsupported_media_type", "content type not supported")
    if mime == MIME_PDF:
        pages = _pdf_page_count(data)
        limit = config().parse.max_pages
        if pages is not None and pages > limit:
            raise ApiError(413, "too_many_pages", f"{pages} pages; sync parsing takes at most {limit}; "
                           "submit it to POST /v1/jobs")


def _finished(job_id: str) -> bool:
    """Wait for the job until the deadline; whether it ended."""
    deadline = time.monotonic() + config().parse.deadline_seconds
    while time.monotonic() < deadline:
        with runtime().engine.connect() as conn:
            progress = jobs.job_progress(conn, job_id, tenant_id())
        if progress is not None and progress.status in jobs.TERMINAL_JOB_STATES:
            return True
        time.sleep(POLL_SECONDS)
    return False


@blueprint.post("")
@documented("Parse one small document now (up to {parse.max_pages} pages, {parse.max_bytes} bytes)",
            body={"multipart/form-data": upload_body(many=False)},
            responses={200: Answer(ParsedSchema, "parsed"),
                       202: Answer(ParsePendingSchema, "not done within the deadline")},
            errors=(400, 413, 415, 422))
def parse_now() -> Response | tuple[Response, int]:
    name, data = _read_one_file()
    _check_parseable(name, data)
    document = stage_document(runtime().storage, tenant_id(), name, data, source="upload", filename=name)
    job_id = submit_job(runtime(), tenant_id(), [document], 1, {"sync": True}, priority=SYNC_PRIORITY,
                        api_key_id=principal().key_id)
    if not _finished(job_id):
        response = jsonify(ParsePendingSchema().dump({
            "job_id": job_id, "status": "running",
            "message": f"not done within {config().parse.deadline_seconds:g} s; poll /v1/jobs/{job_id}"}))
        response.headers["Location"] = f"/v1/jobs/{job_id}"
        return response, 202
    with runtime().engine.connect() as conn:
        rows = jobs.list_documents(conn, tenant_id(), job_id, None, 1, 0)
        doc = jobs.get_document(conn, tenant_id(), str(rows[0].id))
    assert doc is not None
    if doc.status == "failed":
        raise ApiError(422, doc.error_code or "failed", doc.error_message or "parsing failed",
                       {"job_id": job_id, "document": str(doc.id)})
    return jsonify(ParsedSchema().dump({"job_id": job_id, "document": doc}))
