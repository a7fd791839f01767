"""The HTTP API: a Flask application factory.

Errors answer with an HTTP status and a machine-readable body
``{"error": {"code", "message", "details"?}}``.  Every query filters by the caller's
tenant; another tenant's job answers 404.
"""

from __future__ import annotations

import hashlib
import json
import time
from functools import wraps
from typing import Any

from flask import Flask, Response, current_app, g, jsonify, request
from marshmallow import ValidationError
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from app import jobs
from app.auth import authenticate
from app.config import Config
from app.jobs import NewDocument, UnsupportedDocument, stage_document
from app.schemas import JobOptionsSchema, JobRequestSchema, SearchRequestSchema, storable
from app.submission import stage_record, stage_url, submit_job


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, details: Any = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, details


def _error(status: int, code: str, message: str, details: Any = None) -> Response:
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    response = jsonify({"error": body})
    response.status_code = status
    return response


def _runtime():  # type: ignore[no-untyped-def]
    return current_app.extensions["pagemill"]


def require_key(view):  # type: ignore[no-untyped-def]
    @wraps(view)
    def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
        header = request.headers.get("Authorization", "")
        scheme, _, key = header.partition(" ")
        if scheme.lower() != "bearer" or not key.strip():
            raise ApiError(401, "unauthorized", "missing API key: send 'Authorization: Bearer <key>'")
        with _runtime().engine.begin() as conn:
            principal = authenticate(conn, key.strip())
        if principal is None:
            raise ApiError(401, "unauthorized", "invalid or revoked API key")
        g.principal = principal
        return view(*args, **kwargs)

    return wrapper


_SEARCH_OVERRIDES = ("ef_search", "fusion", "alpha", "bm25_exact")


def _check_filenames(names: list[str]) -> None:
    for name in names:
        try:
            storable(name)
        except ValidationError as exc:
            raise ApiError(400, "validation_error", "invalid filename", {"files": exc.messages}) from exc
        if len(name) > 512:
            raise ApiError(400, "validation_error", "filenames are limited to 512 characters")


def _check_urls(config: Config, documents: list[dict[str, Any]]) -> None:
    """Refuse URLs the workers would refuse to fetch, before anything is written."""
    from app.url_fetch import FetchError, check_url

    errors: dict[str, dict[str, list[str]]] = {}
    policy = config.url_policy()
    for index, document in enumerate(documents):
        if "url" in document:
            try:
                check_url(document["url"], policy)
            except FetchError as exc:
                errors[str(index)] = {"url": [exc.message]}
    if errors:
        raise ApiError(400, "validation_error", "invalid request", {"documents": errors})


_SWAGGER_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>pagemill API</title>
<link rel="stylesheet" href="/docs/static/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/static/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({url: "/openapi.json", dom_id: "#ui", persistAuthorization: true});</script>
</body></html>
"""

# Pages further than this are refused (PostgreSQL's OFFSET is a bigint; nobody pages this far).
MAX_OFFSET = 1_000_000_000

# Sync parses jump the queue: the broker fetches by (priority DESC, id).
SYNC_PRIORITY = 9


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


def _check_uploads(runtime: Any, tenant_id: str, documents: list[dict[str, Any]]) -> dict[str, NewDocument]:
    """Direct uploads must exist (400) and fit the document size limit (413) before a job is
    written.  Keys are resolved inside the caller's tenant, so no other tenant's object can be
    named."""
    found: dict[str, NewDocument] = {}
    missing: dict[str, dict[str, list[str]]] = {}
    too_large = []
    storage = runtime.storage
    for index, document in enumerate(documents):
        if "object_key" not in document:
            continue
        key = f"{tenant_id}/{document['object_key']}"
        size = storage.size(key) if hasattr(storage, "size") else (0 if storage.exists(key) else None)
        if size is None:
            missing[str(index)] = {"object_key": ["no such upload (PUT it to the upload_url first)"]}
        elif size > runtime.config.max_file_bytes:
            too_large.append(document["id"])
        else:
            found[document["id"]] = NewDocument(
                external_id=document["id"], source="object", object_key=key, mime_type=None,
                size_bytes=size, sha256=None, metadata=document["metadata"])
    if missing:
        raise ApiError(400, "validation_error", "invalid request", {"documents": missing})
    if too_large:
        raise ApiError(413, "file_too_large", f"uploads over {runtime.config.max_file_bytes} bytes",
                       {"documents": too_large})
    return found


def _multipart_options() -> dict[str, Any]:
    """Job options of a multipart upload: a form field ``options`` holding JSON."""
    raw = request.form.get("options")
    if not raw:
        return {}
    try:
        return JobOptionsSchema().load(json.loads(raw))
    except (ValueError, ValidationError) as exc:
        messages = exc.messages if isinstance(exc, ValidationError) else str(exc)
        raise ApiError(400, "validation_error", "invalid options", {"options": messages}) from exc


def create_app(config: Config | None = None) -> Flask:
    from tasks.runtime import Runtime

    config = config or Config.from_env()
    app = Flask("pagemill")
    app.config["MAX_CONTENT_LENGTH"] = config.max_request_bytes
    app.extensions["pagemill"] = Runtime(config)

    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError) -> Response:
        return _error(exc.status, exc.code, exc.message, exc.details)

    @app.errorhandler(RequestEntityTooLarge)
    def _too_large(_: RequestEntityTooLarge) -> Response:
        return _error(413, "request_too_large",
                      f"request exceeds {config.max_request_bytes} bytes")

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Response:
        code = (exc.name or "error").lower().replace(" ", "_")
        return _error(exc.code or 500, code, exc.description or exc.name)

    @app.get("/healthz")
    def healthz() -> Response:
        try:
            with _runtime().engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        except Exception as exc:  # report, do not crash the probe
            return _error(503, "database_unavailable", str(exc).splitlines()[0])
        return jsonify({"status": "ok"})

    @app.get("/openapi.json")
    def openapi() -> Response:
        from app.openapi import build_spec

        if "openapi" not in app.extensions:
            app.extensions["openapi"] = build_spec(config)
        return jsonify(app.extensions["openapi"])

    @app.get("/docs")
    def docs() -> Response:
        """Interactive API docs: Swagger UI from the swagger-ui-bundle wheel (no CDN), reading
        /openapi.json; "Authorize" takes the API key."""
        return Response(_SWAGGER_PAGE, mimetype="text/html")

    @app.get("/docs/static/<path:name>")
    def docs_static(name: str) -> Response:
        from flask import send_from_directory
        from swagger_ui_bundle import swagger_ui_path

        return send_from_directory(swagger_ui_path, name, max_age=3600)

    @app.post("/v1/jobs")
    @require_key
    def create_job() -> tuple[Response, int]:
        runtime = _runtime()
        tenant_id = g.principal.tenant_id
        key = request.headers.get("Idempotency-Key", "").strip() or None
        if key is not None and (len(key) > 255 or not all(" " < c < "\x7f" for c in key)):
            raise ApiError(400, "validation_error",
                           "Idempotency-Key must be 1-255 visible ASCII characters")
        request_sha = _request_fingerprint()
        if key is not None:
            replay = _replay(runtime, tenant_id, key, request_sha)
            if replay is not None:
                return replay
        if request.files:
            options: dict[str, Any] = _multipart_options()
            documents = _stage_uploads(runtime, tenant_id)
        else:
            payload = request.get_json(silent=True)
            if payload is None:
                raise ApiError(400, "invalid_request",
                               "send JSON {\"documents\": [...]} or multipart file uploads")
            try:
                data = JobRequestSchema().load(payload)
            except ValidationError as exc:
                raise ApiError(400, "validation_error", "invalid request", exc.messages) from exc
            _check_count(len(data["documents"]))
            _check_urls(runtime.config, data["documents"])
            uploads = _check_uploads(runtime, tenant_id, data["documents"])
            documents = [stage_url(d["id"], d["url"], d["metadata"]) if "url" in d
                         else uploads[d["id"]] if "object_key" in d
                         else stage_record(runtime.storage, tenant_id, {**d}) for d in data["documents"]]
            options = data["options"]
        try:
            job_id = submit_job(runtime.engine, tenant_id, documents, runtime.config.batch_size,
                                options, key, request_sha)
        except IntegrityError:
            # The same key won a race with us: answer as a replay of that request.
            replay = _replay(runtime, tenant_id, key or "", request_sha)
            if replay is None:
                raise
            return replay
        with runtime.engine.connect() as conn:
            progress = jobs.job_progress(conn, job_id, tenant_id)
        return jsonify(_job_body(progress)), 202

    def _replay(runtime, tenant_id: str, key: str, request_sha: str):  # type: ignore[no-untyped-def]
        with runtime.engine.begin() as conn:
            found = jobs.find_idempotent_job(conn, tenant_id, key)
            if found is None:
                return None
            job_id, original_sha = found
            if original_sha != request_sha:
                raise ApiError(409, "idempotency_key_reused",
                               "this Idempotency-Key was used with a different request body",
                               {"job_id": job_id})
            progress = jobs.job_progress(conn, job_id, tenant_id)
        return jsonify(_job_body(progress)), 200

    def _request_fingerprint() -> str:
        """SHA-256 of what the request asks for: the JSON body in canonical form, or every
        upload's field, filename and content hash."""
        digest = hashlib.sha256()
        if request.files:
            for name in sorted(request.files):
                for upload in request.files.getlist(name):
                    data = upload.read()
                    upload.seek(0)
                    digest.update(f"{name}\0{upload.filename}\0".encode())
                    digest.update(hashlib.sha256(data).digest())
        else:
            payload = request.get_json(silent=True)
            digest.update(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode())
        return digest.hexdigest()

    def _check_count(n: int) -> None:
        if n > config.max_documents_per_job:
            raise ApiError(413, "too_many_documents",
                           f"{n} documents; at most {config.max_documents_per_job} per job")

    def _stage_uploads(runtime, tenant_id: str) -> list[jobs.NewDocument]:  # type: ignore[no-untyped-def]
        uploads = [f for name in request.files for f in request.files.getlist(name)]
        _check_count(len(uploads))
        ids = [f.filename or "" for f in uploads]
        if any(not i for i in ids) or len(set(ids)) != len(ids):
            raise ApiError(400, "validation_error", "every upload needs a unique filename",
                           {"files": ids})
        _check_filenames(ids)
        blobs = []
        too_large = []
        for upload in uploads:
            data = upload.read(config.max_file_bytes + 1)
            if len(data) > config.max_file_bytes:
                too_large.append(upload.filename)
            blobs.append((upload.filename, data))
        if too_large:
            raise ApiError(413, "file_too_large",
                           f"files over {config.max_file_bytes} bytes", {"files": too_large})
        # Sniff everything before storing anything: a 415 writes and queues nothing.
        from extractors.sniff import parseable

        unsupported = [name for name, data in blobs if parseable(data, filename=name) is None]
        if unsupported:
            raise ApiError(415, "unsupported_media_type",
                           "content type not supported", {"files": unsupported})
        try:
            return [stage_document(runtime.storage, tenant_id, name, data, source="upload",
                                   filename=name) for name, data in blobs]
        except UnsupportedDocument as exc:
            raise ApiError(415, "unsupported_media_type", str(exc)) from exc

    @app.post("/v1/parse")
    @require_key
    def parse_now() -> tuple[Response, int] | Response:
        """Sync mode: one small document through the same pipeline, at high priority.  The
        answer holds its Markdown and chunks, or 202 with the job id when the deadline passes
        first (the job goes on; poll it)."""
        runtime = _runtime()
        tenant_id = g.principal.tenant_id
        uploads = [f for name in request.files for f in request.files.getlist(name)]
        if len(uploads) != 1 or not uploads[0].filename:
            raise ApiError(400, "validation_error", "send exactly one file (multipart, with a filename)")
        upload = uploads[0]
        _check_filenames([upload.filename])
        data = upload.read(config.parse_max_bytes + 1)
        if len(data) > config.parse_max_bytes:
            raise ApiError(413, "file_too_large", f"sync parsing takes files up to {config.parse_max_bytes} "
                           "bytes; submit larger ones to POST /v1/jobs")
        from extractors.sniff import MIME_PDF, parseable

        mime = parseable(data, filename=upload.filename)
        if mime is None:
            raise ApiError(415, "unsupported_media_type", "content type not supported")
        if mime == MIME_PDF:
            pages = _pdf_page_count(data)
            if pages is not None and pages > config.parse_max_pages:
                raise ApiError(413, "too_many_pages", f"{pages} pages; sync parsing takes at most "
                               f"{config.parse_max_pages}; submit it to POST /v1/jobs")
        document = stage_document(runtime.storage, tenant_id, upload.filename, data, source="upload",
                                  filename=upload.filename)
        job_id = submit_job(runtime.engine, tenant_id, [document], 1, {"sync": True},
                            priority=SYNC_PRIORITY)
        deadline = time.monotonic() + config.parse_deadline_seconds
        while time.monotonic() < deadline:
            with runtime.engine.connect() as conn:
                progress = jobs.job_progress(conn, job_id, tenant_id)
            if progress is not None and progress["status"] in jobs.TERMINAL_JOB_STATES:
                break
            time.sleep(0.1)
        else:
            response = jsonify({"job_id": job_id, "status": "running",
                                "message": f"not done within {config.parse_deadline_seconds:g} s; "
                                           f"poll /v1/jobs/{job_id}"})
            response.headers["Location"] = f"/v1/jobs/{job_id}"
            return response, 202
        with runtime.engine.connect() as conn:
            rows = jobs.list_documents(conn, tenant_id, job_id, None, 1, 0)
            doc = jobs.get_document(conn, tenant_id, str(rows[0]["id"]))
        assert doc is not None
        if doc["status"] == "failed":
            raise ApiError(422, doc["error_code"] or "failed", doc["error_message"] or "parsing failed",
                           {"job_id": job_id, "document": str(doc["id"])})
        return jsonify({"job_id": job_id, "document": _plain(doc)})

    @app.post("/v1/uploads")
    @require_key
    def create_upload() -> tuple[Response, int]:
        """A presigned URL to PUT one document's bytes straight into object storage; name
        the returned ``object_key`` in a job afterwards.  Large files skip the API's limits on
        request size, never its limit on document size."""
        import uuid as uuid_module

        storage = _runtime().storage
        if not hasattr(storage, "presign_put"):
            raise ApiError(409, "direct_upload_unavailable", "direct uploads need S3 storage "
                           "(STORAGE_URL=s3://...); upload through POST /v1/jobs")
        object_key = f"uploads/{uuid_module.uuid4().hex}"
        expires_in = 900
        url = storage.presign_put(f"{g.principal.tenant_id}/{object_key}", expires_in)
        return jsonify({"object_key": object_key, "upload_url": url, "method": "PUT",
                        "expires_in": expires_in, "max_bytes": config.max_file_bytes}), 201

    @app.get("/v1/jobs/<job_id>")
    @require_key
    def get_job(job_id: str) -> Response:
        with _runtime().engine.connect() as conn:
            progress = jobs.job_progress(conn, job_id, g.principal.tenant_id)
        if progress is None:
            raise ApiError(404, "not_found", f"job {job_id} not found")
        return jsonify(_job_body(progress))

    def _page() -> tuple[str | None, int, int]:
        status = request.args.get("status") or None
        try:
            limit = int(request.args.get("limit", 50))
            offset = int(request.args.get("offset", 0))
        except ValueError as exc:
            raise ApiError(400, "validation_error", "limit and offset must be integers") from exc
        if not 1 <= limit <= 500 or not 0 <= offset <= MAX_OFFSET:
            raise ApiError(400, "validation_error", f"limit must be 1..500 and offset 0..{MAX_OFFSET}")
        return status, limit, offset

    @app.get("/v1/jobs")
    @require_key
    def list_jobs() -> Response:
        status, limit, offset = _page()
        with _runtime().engine.connect() as conn:
            rows = jobs.list_jobs(conn, g.principal.tenant_id, status, limit, offset)
        return jsonify({"jobs": [_job_body(r) for r in rows],
                        "next_offset": offset + limit if len(rows) == limit else None})

    @app.get("/v1/jobs/<job_id>/events")
    @require_key
    def job_events(job_id: str) -> Response:
        from app.events import job_event_stream

        runtime = _runtime()
        tenant_id = g.principal.tenant_id
        with runtime.engine.connect() as conn:
            if jobs.job_progress(conn, job_id, tenant_id) is None:
                raise ApiError(404, "not_found", f"job {job_id} not found")

        def read() -> dict[str, Any] | None:
            with runtime.engine.connect() as conn:
                progress = jobs.job_progress(conn, job_id, tenant_id)
            return _job_body(progress) if progress else None

        stream = job_event_stream(runtime.database_url, job_id, read)
        return Response(stream, mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    @app.get("/v1/jobs/<job_id>/documents")
    @require_key
    def list_job_documents(job_id: str) -> Response:
        status, limit, offset = _page()
        tenant_id = g.principal.tenant_id
        with _runtime().engine.connect() as conn:
            if jobs.job_progress(conn, job_id, tenant_id) is None:
                raise ApiError(404, "not_found", f"job {job_id} not found")
            rows = jobs.list_documents(conn, tenant_id, job_id, status, limit, offset)
        return jsonify({"documents": [_plain(r) for r in rows],
                        "next_offset": offset + limit if len(rows) == limit else None})

    @app.get("/v1/documents/<document_uuid>")
    @require_key
    def get_document(document_uuid: str) -> Response:
        with _runtime().engine.connect() as conn:
            doc = jobs.get_document(conn, g.principal.tenant_id, document_uuid)
        if doc is None:
            raise ApiError(404, "not_found", f"document {document_uuid} not found")
        return jsonify(_plain(doc))

    @app.post("/v1/jobs/<job_id>/cancel")
    @require_key
    def cancel_job(job_id: str) -> Response:
        with _runtime().engine.begin() as conn:
            status = jobs.cancel_job(conn, g.principal.tenant_id, job_id)
            if status is None:
                raise ApiError(404, "not_found", f"job {job_id} not found")
            progress = jobs.job_progress(conn, job_id, g.principal.tenant_id)
        return jsonify(_job_body(progress))

    @app.post("/v1/jobs/<job_id>/retry")
    @require_key
    def retry_job(job_id: str) -> tuple[Response, int]:
        from tasks.ingest import publish_job

        runtime = _runtime()
        try:
            with runtime.engine.begin() as conn:
                reopened = jobs.reopen_failed(conn, g.principal.tenant_id, job_id)
        except ValueError as exc:
            raise ApiError(409, "nothing_to_retry", str(exc)) from exc
        if reopened is None:
            raise ApiError(404, "not_found", f"job {job_id} not found")
        retry, batches = reopened
        publish_job(job_id, len(batches), batches, retry=retry)
        with runtime.engine.connect() as conn:
            progress = jobs.job_progress(conn, job_id, g.principal.tenant_id)
        return jsonify(_job_body(progress)), 202

    @app.delete("/v1/documents/<document_uuid>")
    @require_key
    def delete_document(document_uuid: str) -> tuple[str, int]:
        from indexing.store import delete_document as unindex

        runtime = _runtime()
        tenant_id = g.principal.tenant_id
        with runtime.engine.begin() as conn:
            gone = jobs.mark_document_deleted(conn, tenant_id, document_uuid)
            if gone is None:
                raise ApiError(404, "not_found", f"document {document_uuid} not found")
            # Its attachments go with it.
            children = jobs.attachment_ids(conn, tenant_id, document_uuid)
            removed = [gone, *filter(None, (jobs.mark_document_deleted(conn, tenant_id, child)
                                            for child in children))]
            for item in removed:
                if item["indexed"]:
                    unindex(conn, tenant_id, item["external_id"])
        # Bytes go after the commit: a failure here leaves an orphan object, never a row
        # that points at nothing.
        for item in removed:
            if item["object_key"]:
                runtime.storage.delete(item["object_key"])
        return "", 204

    @app.post("/v1/search")
    @require_key
    def search() -> Response:
        from indexing.search import Filters
        from indexing.search import search as run_search

        try:
            data = SearchRequestSchema().load(request.get_json(silent=True) or {})
        except ValidationError as exc:
            raise ApiError(400, "validation_error", "invalid request", exc.messages) from exc
        cfg = _runtime().config
        # What the request sets overrides the server's configuration.
        params = cfg.search_params(**{name: data[name] for name in _SEARCH_OVERRIDES if name in data})
        with _runtime().engine.begin() as conn:
            f = data["filters"]
            after, before = f.get("indexed_after"), f.get("indexed_before")
            filters = Filters(document_ids=f.get("document_ids"),
                              job_id=str(f["job_id"]) if f.get("job_id") else None,
                              metadata=f.get("metadata"), mime_types=f.get("mime_types"),
                              indexed_after=after.isoformat() if after else None,
                              indexed_before=before.isoformat() if before else None)
            hits = run_search(conn, g.principal.tenant_id, data["query"], k=data["k"],
                              mode=data["mode"], collapse=data["collapse"], params=params,
                              filters=filters)
        results = [h.as_dict() for h in hits]
        # One BM25 path per search: said once, beside the results.
        bm25_path = results[0]["bm25_path"] if results else None
        for result in results:
            del result["bm25_path"]
        return jsonify({"query": data["query"], "mode": data["mode"], "fusion": params.fusion,
                        "bm25_path": bm25_path, "results": results})

    return app


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    """A row as JSON-ready values (uuids and timestamps as strings)."""
    return json.loads(json.dumps(row, default=lambda v: v.isoformat()
                                 if hasattr(v, "isoformat") else str(v)))


def _job_body(progress: dict[str, Any] | None) -> dict[str, Any]:
    assert progress is not None
    body = {k: v for k, v in progress.items() if k != "tenant_id"}
    body["id"] = str(body["id"])
    for key in ("created_at", "updated_at", "published_at", "finished_at"):
        if body.get(key) is not None:
            body[key] = body[key].isoformat()
    return json.loads(json.dumps(body, default=str))
