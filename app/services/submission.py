"""Submitting a job: rows first, in one transaction, then admission (app/domain/admission.py), which
publishes the batches that have a slot.

If the submitter dies after the commit and before handing the job to admission, the job
stays with ``handed_at IS NULL`` where the reconciler finds it; if a publish fails, its batch
stays admitted but unpublished, found the same way.  Nothing is silently lost.  Every job
(API, CLI, sync parse) is written here, so this is where secret options are encrypted
(:mod:`app.domain.secret_options`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from app.domain import jobs, secret_options
from app.domain.jobs import NewDocument
from app.infra import log_context, traces
from app.infra.request_ids import new_request_id
from app.infra.storage import Storage
from app.runtime import Runtime
from app.services.dispatch import hand_to_admission
from app.services.staging import UnsupportedDocument, stage_document
from extractors.sniff import MIME_RECORD

log = logging.getLogger(__name__)


def submit_job(
    runtime: Runtime,
    tenant_id: str,
    documents: Sequence[NewDocument],
    batch_size: int,
    options: dict[str, Any] | None = None,
    idempotency_key: str | None = None,
    request_sha256: str | None = None,
    priority: int = 0,
    api_key_id: str | None = None,
    request_id: str | None = None,
) -> str:
    """Write the job and hand it to admission (app/services/dispatch.py), both with ``runtime``; its
    id.  The runtime's configuration gives the key that encrypts secret options: without
    one, options holding a secret raise :class:`~app.domain.secret_options.SecretKeyUnavailable`
    before anything is written.
    ``api_key_id``: the API key submitting it, recorded for usage per key.  ``request_id``:
    by default the one bound for the request in hand (app/infra/log_context.py), else a new one; it
    is stored with the job and travels with its tasks, as does the current trace context when the
    process traces (app/infra/traces.py)."""
    # A job from the CLI has no request: it gets an id of its own, as an API request would.
    request_id = request_id or log_context.current("request_id") or new_request_id()
    stored = secret_options.seal(runtime.config, options or {})
    with runtime.engine.begin() as conn:
        job_id, _ = jobs.create_job(conn, tenant_id, documents, batch_size, stored,
                                    idempotency_key, request_sha256, api_key_id, request_id,
                                    priority, traces.current_traceparent())
    log.info("job created", extra={"job_id": job_id, "tenant_id": tenant_id,
                                   "documents": len(documents)})
    hand_to_admission(runtime, job_id)
    return job_id


def iter_files(paths: Iterable[str]) -> Iterator[tuple[str, Path]]:
    """(external id, file) for each file under ``paths``; the id is the path as given."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                if child.is_file() and not any(part.startswith(".") for part in
                                               child.relative_to(path).parts):
                    yield str(Path(raw) / child.relative_to(path)), child
        elif path.is_file():
            yield raw, path
        else:
            raise FileNotFoundError(f"no such file or directory: {raw}")


def stage_files(
    storage: Storage, tenant_id: str, paths: Iterable[str]
) -> tuple[list[NewDocument], list[UnsupportedDocument]]:
    staged: list[NewDocument] = []
    skipped: list[UnsupportedDocument] = []
    for external_id, path in iter_files(paths):
        try:
            staged.append(stage_document(storage, tenant_id, external_id, path.read_bytes(),
                                         source="path", filename=path.name))
        except UnsupportedDocument as exc:
            skipped.append(exc)
    return staged, skipped


def parse_record(line: str, line_no: int) -> dict[str, Any]:
    """One JSONL text record: ``id`` (or BEIR's ``_id``), ``title``, ``text``, ``metadata``."""
    try:
        record = json.loads(line)
    except ValueError as exc:
        raise ValueError(f"line {line_no}: not valid JSON ({exc})") from exc
    if not isinstance(record, dict):
        raise ValueError(f"line {line_no}: a record must be a JSON object")
    record_id = record.get("id", record.get("_id"))
    if record_id is None or str(record_id) == "":
        raise ValueError(f"line {line_no}: record has no 'id' (or '_id')")
    metadata = record.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise ValueError(f"line {line_no}: 'metadata' must be an object")
    return {"id": str(record_id), "title": record.get("title") or "",
            "text": record.get("text") or "", "metadata": metadata}


def stage_url(external_id: str, url: str, metadata: dict[str, Any]) -> NewDocument:
    """A document a worker will fetch (checked against the URL policy by the caller)."""
    return NewDocument(external_id=external_id, source="url", object_key=None, mime_type=None,
                       size_bytes=None, sha256=None, metadata=metadata, url=url)


def stage_record(storage: Storage, tenant_id: str, record: dict[str, Any]) -> NewDocument:
    body = json.dumps({"id": record["id"], "title": record["title"], "text": record["text"]},
                      ensure_ascii=False, sort_keys=True).encode()
    return stage_document(storage, tenant_id, record["id"], body, source="record",
                          declared_mime=MIME_RECORD, metadata=record["metadata"])
