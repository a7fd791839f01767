"""How a ``POST /v1/jobs`` request becomes documents to submit: multipart uploads or a JSON
body of text records, URLs and direct-upload keys, each refused (4xx) before anything is
stored or queued; and the request's fingerprint, which ``Idempotency-Key`` replays compare."""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from flask import request
from marshmallow import ValidationError

from app.api.context import config
from app.api.errors import ApiError
from app.api.requests import JobOptionsSchema, JobRequestSchema, load_json, parse_json
from app.config import Config
from app.domain.jobs import NewDocument
from app.domain.secret_options import SecretKeyUnavailable, blind
from app.domain.storable import storable
from app.services.staging import UnsupportedDocument, stage_document
from app.services.submission import stage_record, stage_url

if TYPE_CHECKING:
    from app.runtime import Runtime

MAX_FILENAME = 512
# Host-name lookups of one request's URL documents in flight at once.
URL_CHECKS_AT_ONCE = 16


def idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key", "").strip() or None
    if key is not None and (len(key) > 255 or not all(" " < c < "\x7f" for c in key)):
        raise ApiError(400, "validation_error", "Idempotency-Key must be 1-255 visible ASCII characters")
    return key


def fingerprint() -> str:
    """SHA-256 of what the request asks for: the JSON body in canonical form, or every
    upload's field, filename and content hash followed by the form's other fields (``options``
    in canonical form), so that the same files with other options are another request.  A
    JSON body over the document limit is refused here (413), before it is serialised.

    Secret options are hashed as keyed digests (:func:`app.domain.secret_options.blind`): the stored
    fingerprint must not let anyone test guesses of a password offline.  Without a key to
    make them, the request is refused here (400), before any upload is stored."""
    digest = hashlib.sha256()
    if request.files:
        # A multipart part without a name has the key None: order it first, do not crash.
        for name in sorted(request.files, key=lambda n: n or ""):
            for upload in request.files.getlist(name):
                data = upload.read()
                upload.seek(0)
                digest.update(f"{name}\0{upload.filename}\0".encode("utf-8", "surrogatepass"))
                digest.update(hashlib.sha256(data).digest())
        # Nothing is added without form fields: files-only requests hash as they always did.
        for name in sorted(request.form, key=lambda n: n or ""):
            for value in request.form.getlist(name):
                digest.update(f"\0form\0{name}\0".encode("utf-8", "surrogatepass"))
                digest.update(hashlib.sha256(_canonical_field(name, value)).digest())
    else:
        payload = _json_payload()
        if isinstance(payload, dict) and "options" in payload:
            payload = {**payload, "options": _blinded(payload["options"])}
        digest.update(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode())
    return digest.hexdigest()


def _blinded(options: Any) -> Any:
    if not isinstance(options, dict):
        return options  # refused as invalid options once the request is loaded
    try:
        return blind(config(), options)
    except SecretKeyUnavailable as exc:
        raise ApiError(400, "secret_key_missing", str(exc)) from None


def _canonical_field(name: str, value: str) -> bytes:
    """A form field as the fingerprint sees it: ``options`` as canonical JSON when it is JSON
    (spacing and key order are not a different request), anything else as sent."""
    if name == "options":
        try:
            parsed = parse_json(value, config().api.max_json_depth)
        except ValueError:
            pass  # refused as invalid options once the request is staged
        else:
            return json.dumps(_blinded(parsed), sort_keys=True, separators=(",", ":")).encode()
    return value.encode("utf-8", "surrogatepass")


def _json_payload() -> Any:
    """The JSON body (``None`` when there is none), its document list counted before anything
    looks at the documents: a list over the limit costs one parse, not a validation of each."""
    payload = request.get_json(silent=True)
    if isinstance(payload, dict) and isinstance(payload.get("documents"), list):
        check_count(config(), len(payload["documents"]))
    return payload


def check_filenames(names: list[str]) -> None:
    for name in names:
        try:
            storable(name)
        except ValidationError as exc:
            raise ApiError(400, "validation_error", "invalid filename", {"files": exc.messages}) from exc
        if len(name) > MAX_FILENAME:
            raise ApiError(400, "validation_error", f"filenames are limited to {MAX_FILENAME} characters")


def check_count(config: Config, n: int) -> None:
    if n > config.jobs.max_documents_per_job:
        raise ApiError(413, "too_many_documents",
                       f"{n} documents; at most {config.jobs.max_documents_per_job} per job")


def staged_request(runtime: Runtime, tenant_id: str) -> tuple[dict[str, Any], list[NewDocument]]:
    """The job options and the documents of the request, staged (bytes stored) and checked."""
    if request.files:
        return _multipart_options(), _stage_uploads(runtime, tenant_id)
    payload = _json_payload()
    if payload is None:
        raise ApiError(400, "invalid_request", "send JSON {\"documents\": [...]} or multipart file uploads")
    data = load_json(JobRequestSchema(), payload)
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
        options: dict[str, Any] = JobOptionsSchema().load(parse_json(raw, config().api.max_json_depth))
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
        data = upload.read(config.jobs.max_file_bytes + 1)
        if len(data) > config.jobs.max_file_bytes:
            too_large.append(name)
        blobs.append((name, data))
    if too_large:
        raise ApiError(413, "file_too_large", f"files over {config.jobs.max_file_bytes} bytes",
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
    """Refuse URLs the workers would refuse to fetch, before anything is written.  Checking
    resolves each host name: distinct URLs are checked concurrently, so that a job of many
    URLs on slow resolvers waits for the slowest lookups, not for their sum."""
    from concurrent.futures import ThreadPoolExecutor

    from app.infra.url_fetch import FetchError, UrlPolicy, check_url

    policy = UrlPolicy.from_config(config)
    urls = list(dict.fromkeys(d["url"] for d in documents if "url" in d))
    if not urls:
        return

    def refusal(url: str) -> str | None:
        try:
            check_url(url, policy)
        except FetchError as exc:
            return exc.message
        return None

    with ThreadPoolExecutor(max_workers=min(URL_CHECKS_AT_ONCE, len(urls))) as pool:
        refused = dict(zip(urls, pool.map(refusal, urls), strict=True))
    errors = {str(index): {"url": [reason]} for index, document in enumerate(documents)
              if "url" in document and (reason := refused[document["url"]]) is not None}
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
        elif size > runtime.config.jobs.max_file_bytes:
            too_large.append(document["id"])
        else:
            found[document["id"]] = NewDocument(
                external_id=document["id"], source="object", object_key=key, mime_type=None,
                size_bytes=size, sha256=None, metadata=document["metadata"])
    if missing:
        raise ApiError(400, "validation_error", "invalid request", {"documents": missing})
    if too_large:
        raise ApiError(413, "file_too_large", f"uploads over {runtime.config.jobs.max_file_bytes} bytes",
                       {"documents": too_large})
    return found
