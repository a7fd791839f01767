"""Jobs: submit a batch of documents, follow its progress (polling or Server-Sent Events),
list its documents' outcomes, cancel it, retry its failures."""

from __future__ import annotations

from flask import Response, jsonify, request
from sqlalchemy.exc import IntegrityError

from app.api.auth import keyed_blueprint
from app.api.context import principal, runtime, tenant_id
from app.api.errors import ApiError
from app.api.job_requests import fingerprint, idempotency_key, staged_request
from app.api.openapi import Answer, documented, upload_body
from app.api.requests import DocumentPageQuery, JobPageQuery, JobRequestSchema, Page, load_query
from app.api.responses import DocumentPageSchema, JobPageSchema, JobSchema
from app.domain import jobs
from app.domain.jobs import JobProgress
from app.domain.secret_options import SecretKeyUnavailable
from app.services import job_control
from app.services.submission import submit_job

blueprint = keyed_blueprint("jobs", __name__, url_prefix="/v1/jobs")

_JOB = JobSchema()
_IDEMPOTENCY_HEADER = {"name": "Idempotency-Key", "in": "header",
                       "schema": {"type": "string", "maxLength": 255}}
_LAST_EVENT_ID_HEADER = {"name": "Last-Event-ID", "in": "header", "schema": {"type": "string"},
                         "description": "the id of the last progress event received: when the job "
                                        "is still in that state, it is not sent again"}


def job_response(progress: JobProgress, status: int = 200) -> tuple[Response, int]:
    return jsonify(_JOB.dump(progress)), status


def _progress(job_id: str) -> JobProgress:
    with runtime().engine.connect() as conn:
        progress = jobs.job_progress(conn, job_id, tenant_id())
    if progress is None:
        raise ApiError(404, "not_found", f"job {job_id} not found")
    return progress


def _replay(key: str, request_sha: str) -> tuple[Response, int] | None:
    """The answer to a repeated request with the same ``Idempotency-Key``: the original job
    (200), or 409 when the key was used for another body."""
    with runtime().engine.begin() as conn:
        found = jobs.find_idempotent_job(conn, tenant_id(), key)
        if found is None:
            return None
        job_id, original_sha = found
        if original_sha != request_sha:
            raise ApiError(409, "idempotency_key_reused",
                           "this Idempotency-Key was used with a different request body", {"job_id": job_id})
        progress = jobs.job_progress(conn, job_id, tenant_id())
    assert progress is not None
    return job_response(progress, 200)


@blueprint.post("")
@documented("Submit 1-{jobs.max_documents_per_job} documents", headers=[_IDEMPOTENCY_HEADER],
            body={"application/json": JobRequestSchema, "multipart/form-data": upload_body(many=True)},
            responses={202: Answer(JobSchema, "accepted"),
                       200: Answer(JobSchema, "replay of an earlier request")},
            errors=(400, 409, 413, 415))
def create_job() -> tuple[Response, int]:
    key = idempotency_key()
    request_sha = fingerprint()
    if key is not None and (replay := _replay(key, request_sha)) is not None:
        return replay
    options, documents = staged_request(runtime(), tenant_id())
    try:
        job_id = submit_job(runtime(), tenant_id(), documents, runtime().config.jobs.batch_size,
                            options, key, request_sha, api_key_id=principal().key_id)
    except SecretKeyUnavailable as exc:
        raise ApiError(400, "secret_key_missing", str(exc)) from None
    except IntegrityError:
        # The same key won a race with us: answer as a replay of that request.
        replay = _replay(key or "", request_sha)
        if replay is None:
            raise
        return replay
    return job_response(_progress(job_id), 202)


@blueprint.get("")
@documented("The caller's jobs, newest first", query=JobPageQuery,
            responses={200: Answer(JobPageSchema, "a page of jobs")}, errors=(400,))
def list_jobs() -> Response:
    page: Page = load_query(JobPageQuery())
    with runtime().engine.connect() as conn:
        rows = jobs.list_jobs(conn, tenant_id(), page.status, page.limit, page.offset)
    return jsonify(JobPageSchema().dump({"jobs": rows, "next_offset": page.next_offset(len(rows))}))


@blueprint.get("/<job_id>")
@documented("A job's status and progress", responses={200: Answer(JobSchema, "the job")}, errors=(404,))
def get_job(job_id: str) -> tuple[Response, int]:
    return job_response(_progress(job_id))


@blueprint.get("/<job_id>/events")
@documented("Progress as Server-Sent Events until the job ends", headers=[_LAST_EVENT_ID_HEADER],
            responses={200: Answer({"type": "string"}, "event stream", "text/event-stream")},
            errors=(404, 503))
def job_events(job_id: str) -> Response:
    """The stream holds no database connection (app/domain/events.py): one listener per process
    wakes it, and each read borrows a pooled connection for one query.  It ends when the
    job does, or at the next read after the caller's key is revoked."""
    from app.api.errors import error_response
    from app.domain.auth import key_is_live
    from app.domain.events import (
        RETRY_AFTER_SECONDS,
        StreamEnded,
        StreamLimitReached,
        hub_for,
        job_event_stream,
    )

    job_id = _progress(job_id).id  # as notifications spell it
    current, tenant, key_id = runtime(), tenant_id(), principal().key_id
    try:
        subscription = hub_for(current.database_url).subscribe(job_id, current.config.api.max_event_streams)
    except StreamLimitReached as exc:
        refused = error_response(503, "too_many_streams", str(exc), {"limit": exc.limit})
        refused.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return refused

    def read() -> dict[str, object] | None:
        with current.engine.connect() as conn:
            if key_id is not None and not key_is_live(conn, key_id):
                raise StreamEnded("unauthorized")
            progress = jobs.job_progress(conn, job_id, tenant)
        return _JOB.dump(progress) if progress else None

    # A reconnecting client names the state it has; it is not sent again.
    frames = job_event_stream(subscription, read, current.config.api.event_keepalive_seconds,
                              last_event_id=request.headers.get("Last-Event-ID"))
    response = Response(frames, mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    # The server closes the response when the client goes, even if the stream never started.
    response.call_on_close(subscription.close)
    return response


@blueprint.get("/<job_id>/documents")
@documented("A job's documents and their outcomes", query=DocumentPageQuery,
            responses={200: Answer(DocumentPageSchema, "a page of documents")}, errors=(400, 404))
def list_job_documents(job_id: str) -> Response:
    page: Page = load_query(DocumentPageQuery())
    _progress(job_id)
    with runtime().engine.connect() as conn:
        rows = jobs.list_documents(conn, tenant_id(), job_id, page.status, page.limit, page.offset)
    return jsonify(DocumentPageSchema().dump({"documents": rows, "next_offset": page.next_offset(len(rows))}))


@blueprint.post("/<job_id>/cancel")
@documented("Cancel every unfinished document",
            responses={200: Answer(JobSchema, "the job after cancelling")}, errors=(404,))
def cancel_job(job_id: str) -> tuple[Response, int]:
    if job_control.cancel(runtime(), tenant_id(), job_id) is None:
        raise ApiError(404, "not_found", f"job {job_id} not found")
    return job_response(_progress(job_id))


@blueprint.post("/<job_id>/retry")
@documented("Re-run the failed documents", responses={202: Answer(JobSchema, "re-queued")},
            errors=(404, 409))
def retry_job(job_id: str) -> tuple[Response, int]:
    try:
        reopened = job_control.retry(runtime(), tenant_id(), job_id)
    except job_control.NothingToRetry as exc:
        raise ApiError(409, "nothing_to_retry", str(exc)) from exc
    if reopened is None:
        raise ApiError(404, "not_found", f"job {job_id} not found")
    return job_response(_progress(job_id), 202)
