"""How a ``POST /v1/jobs`` request becomes documents to submit: multipart uploads or a JSON
body of text records, URLs and direct-upload keys, each refused (4xx) before anything is
stored or queued; and the request's fingerprint, which ``Idempotency-Key`` replays compare."""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from flask import request
from marshmallow import ValidationError

from app.api.errors import ApiError
from app.api.requests import JobOptionsSchema, JobRequestSchema, load_json
from app.config import Config
from app.jobs import NewDocument, UnsupportedDocument, stage_document
from app.storable import storable
from app.submission import stage_record, stage_url

if TYPE_CHECKING:
    from tasks.runtime import Runtime

MAX_FILENAME = 512


def idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key", "").strip() or None
    if key is not None and (len(key) > 255 or not all(" " < c < "\x7f" for c in key)):
        raise ApiError(400, "validation_error", "Idempotency-Key must be 1-255 visible ASCII characters")
    return key


def fingerprint() -> str:
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


def check_filenames(names: list[str]) -> None:
    for name in names:
        try:
            storable(name)
        except ValidationError as exc:
            raise ApiError(400, "validation_error", "invalid filename", {"files": exc.messages}) from exc
        if len(name) > MAX_FILENAME:
            raise ApiError(400, "validation_error", f"filenames are limited to {MAX_FILENAME} characters")


def check_count(config: Config, n: int) -> None:
    if n > config.max_documents_per_job:
        raise ApiError(413, "too_many_documents",
                       f"{n} documents; at most {config.max_documents_per_job} per job")


def staged_request(runtime: Runtime, tenant_id: str) -> tuple[dict[str, Any], list[NewDocument]]:
    """The job options and the documents of the request, staged (bytes stored) and checked."""
    if request.files:
        return _multipart_options(), _stage_uploads(runtime, tenant_id)
    payload = request.get_json(silent=True)
    if payload is None:
        raise ApiError(400, "invalid_request", "send JSON {\"documents\": [...]} or multipart file uploads")
    data = load_json(JobRequestSchema(), payload)
    check_count(runtime.config, len(data["documents"]))
    _check_urls(runtime.config, data["documents"])
    uploads = _check_uploads(runtime, tenant_id, data["documents"])
    documents = [stage_url(d["id"], d["url"], d["metadata"]) if "url" in d
                 else uploads[d["id"]] if "object_key" in d
                 else stage_record(runtime.storage, tenant_id, {**d}) for d in data["documents"]]
    return data["options"], documents


def _multipart_options() -> dict[str, Any]:
    """Job options of a multipart upload: a form field ``options`` holding JSON."""
    raw = request.form.get("options")
    if not raw:
        return {}
    try:
        options: dict[str, Any] = JobOptionsSchema().load(json.loads(raw))
    except (ValueError, ValidationError) as exc:
        messages = exc.messages if isinstance(exc, ValidationError) else str(exc)
        raise ApiError(400, "validation_error", "invalid options", {"options": messages}) from exc
    return options


def _stage_uploads(runtime: Runtime, tenant_id: str) -> list[NewDocument]:
    config = runtime.config
    uploads = [f for name in request.files for f in request.files.getlist(name)]
    check_count(config, len(uploads))
    ids = [f.filename or "" for f in uploads]
    if any(not i for i in ids) or len(set(ids)) != len(ids):
        raise ApiError(400, "validation_error", "every upload needs a unique filename", {"files": ids})
    check_filenames(ids)
    blobs: list[tuple[str, bytes]] = []
    too_large = []
    for name, upload in zip(ids, uploads, strict=True):
        data = upload.read(config.max_file_bytes + 1)
        if len(data) > config.max_file_bytes:
            too_large.append(name)
        blobs.append((name, data))
    if too_large:
        raise ApiError(413, "file_too_large", f"files over {config.max_file_bytes} bytes",
                       {"files": too_large})
    # Sniff everything before storing anything: a 415 writes and queues nothing.
    from extractors.sniff import parseable

    unsupported = [name for name, data in blobs if parseable(data, filename=name) is None]
    if unsupported:
        raise ApiError(415, "unsupported_media_type", "content type not supported", {"files": unsupported})
    try:
        return [stage_document(runtime.storage, tenant_id, name, data, source="upload", filename=name)
                for name, data in blobs]
    except UnsupportedDocument as exc:
        raise ApiError(415, "unsupported_media_type", str(exc)) from exc


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


def _check_uploads(runtime: Runtime, tenant_id: str,
                   documents: list[dict[str, Any]]) -> dict[str, NewDocument]:
    """Direct uploads must exist (400) and fit the document size limit (413) before a job is
    written.  Keys are resolved inside the caller's tenant, so no other tenant's object can be
    named."""
    found: dict[str, NewDocument] = {}
    missing: dict[str, dict[str, list[str]]] = {}
    too_large = []
    for index, document in enumerate(documents):
        if "object_key" not in document:
            continue
        key = f"{tenant_id}/{document['object_key']}"
        size = runtime.storage.size(key)
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
