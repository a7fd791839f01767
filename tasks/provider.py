"""Remote batch OCR (Mistral): submit once, poll without holding a worker, commit per line.

Plain functions (``submit``, ``check``) do the work and are tested directly; the Celery
tasks below only schedule them.  Polling is a task that re-schedules itself with a countdown,
so a batch that runs for hours occupies no worker between checks; ``next_check_at`` in the
database lets the reconciler re-schedule a check whose task was lost.

Submission is never blindly retried: every attempt first asks the provider for a batch
tagged with our batch id, so a submission that was accepted but whose response was lost is
adopted instead of being sent again.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass
from typing import Any

from celery import Task
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError

from app.config import Config
from app.domain import jobs, provider_batches
from app.infra.storage import Storage
from app.services.processing import index_prepared, load_bytes, prepare_result
from extractors import mistral
from extractors.base import ExtractionError, ExtractionResult
from extractors.sniff import sniff
from tasks.celery import app
from tasks.runtime import get_runtime

log = logging.getLogger(__name__)

# How long one worker may take to download and commit a finished batch before another may.
COLLECT_LEASE_SECONDS = 600.0


@dataclass(frozen=True)
class CheckOutcome:
    state: str  # "running" (check again later) or the batch row's terminal status
    completed: int = 0
    failed: int = 0


def _schema(engine: Engine, job_id: str) -> dict[str, Any] | None:
    with engine.connect() as conn:
        options = jobs.job_options(conn, job_id)
    schema = options.get("annotation_schema")
    return schema if isinstance(schema, dict) else None


def submit(engine: Engine, storage: Storage, config: Config, batch_id: str) -> str | None:
    """Submit the batch's waiting documents once.  Returns the provider job id (``None`` when
    nothing was left to submit).  Raises on a provider error; calling again is safe."""
    with engine.connect() as conn:
        batch = provider_batches.get(conn, batch_id)
        if batch is None or batch.status != "submitting":
            return batch.provider_job_id if batch else None
        docs = provider_batches.waiting_documents(conn, batch.job_id, batch.batch_no)
    settings = config.mistral_settings()
    schema = _schema(engine, batch.job_id)
    requests = []
    for doc in docs:
        try:
            data = load_bytes(storage, doc)
        except ExtractionError as exc:
            with engine.begin() as conn:
                jobs.fail_document(conn, doc.id, exc.code, exc.message)
            continue
        mime = sniff(data, filename=doc.filename, declared=doc.mime_type) or "application/pdf"
        requests.append((doc.id, mistral.request_body(data, mime, settings.model, schema)))
    if not requests:
        with engine.begin() as conn:
            provider_batches.finish(conn, batch_id, "failed", None, "no document left to submit")
        return None
    provider_job_id, input_file, created = mistral.submit_batch(settings, batch_id,
                                                                mistral.batch_file(requests))
    with engine.begin() as conn:
        provider_batches.mark_submitted(conn, batch_id, provider_job_id, input_file,
                                        config.ocr_provider.poll_seconds)
    log.info("provider batch submitted" if created else "provider batch adopted",
             extra={"job_id": batch.job_id, "provider_batch": batch_id,
                    "provider_job_id": provider_job_id, "documents": len(requests)})
    return provider_job_id


def check(engine: Engine, storage: Storage, config: Config, batch_id: str) -> CheckOutcome:
    """One status check; on success download, validate and commit each line's document."""
    with engine.connect() as conn:
        batch = provider_batches.get(conn, batch_id)
    if batch is None or batch.status != "submitted":
        return CheckOutcome(state=batch.status if batch else "missing")
    job_id, batch_no = batch.job_id, batch.batch_no
    assert batch.provider_job_id is not None, "a submitted batch has its provider's job id"
    settings = config.mistral_settings()
    remote = mistral.get_batch(settings, batch.provider_job_id)
    status = str(remote.status)
    if status in mistral.RUNNING_STATES:
        if batch.expired:
            with engine.begin() as conn:
                failed = provider_batches.fail_waiting(
                    conn, job_id, batch_no, "provider_timeout",
                    f"the provider batch was still {status} when the polling window closed")
                provider_batches.finish(conn, batch_id, "timed_out", status)
            return CheckOutcome(state="timed_out", failed=failed)
        with engine.begin() as conn:
            provider_batches.record_check(conn, batch_id, status, config.ocr_provider.poll_seconds)
        return CheckOutcome(state="running")
    if status in mistral.FAILED_STATES or status != "SUCCESS":
        errors = "; ".join(e.message for e in (remote.errors or [])) or "no detail given"
        with engine.begin() as conn:
            failed = provider_batches.fail_waiting(
                conn, job_id, batch_no, "provider_error", f"provider batch ended {status}: {errors}")
            provider_batches.finish(conn, batch_id, "failed", status, errors)
        return CheckOutcome(state="failed", failed=failed)
    return _collect(engine, storage, config, batch_id, job_id, batch_no, remote)


def _collect(engine: Engine, storage: Storage, config: Config, batch_id: str, job_id: str,
             batch_no: int, remote: Any) -> CheckOutcome:
    with engine.begin() as conn:
        if not provider_batches.claim_collection(conn, batch_id, COLLECT_LEASE_SECONDS):
            return CheckOutcome(state="running")  # another worker is committing this batch
    settings = config.mistral_settings()
    raw = mistral.download(settings, remote.output_file) if remote.output_file else b""
    if remote.error_file:
        raw += mistral.download(settings, remote.error_file)
    # Raw provider output is kept in object storage, not in a row: it can be large.
    raw_key = f"provider/{batch_id}/output.jsonl"
    storage.put(raw_key, raw)
    with engine.connect() as conn:
        docs = {d.id: d for d in provider_batches.waiting_documents(conn, job_id, batch_no)}
    mimes = {doc_id: doc.mime_type or "application/pdf" for doc_id, doc in docs.items()}
    outcomes = mistral.parse_output(raw, mimes, _schema(engine, job_id))
    prepared, failed = [], 0
    for doc_id, doc in docs.items():
        outcome: ExtractionResult | ExtractionError = outcomes.get(doc_id) or ExtractionError(
            "provider_error", "the provider's output has no result for this document")
        if isinstance(outcome, ExtractionResult):
            try:
                prepared.append(prepare_result(doc, outcome, config))
                continue
            except ExtractionError as exc:
                outcome = exc
        report = {"attempts": [asdict(a) for a in outcome.attempts]} if outcome.attempts else None
        with engine.begin() as conn:
            jobs.fail_document(conn, doc_id, outcome.code, outcome.message, report)
        failed += 1
    completed, _ = index_prepared(engine, config, prepared)
    with engine.begin() as conn:
        provider_batches.finish(conn, batch_id, "succeeded", "SUCCESS", raw_output_key=raw_key)
    log.info("provider batch committed", extra={"job_id": job_id, "provider_batch": batch_id,
                                                "completed": completed, "failed": failed})
    return CheckOutcome(state="succeeded", completed=completed, failed=failed)


def _finalize(engine: Engine, job_id: str) -> str | None:
    with engine.begin() as conn:
        return jobs.finalize_job(conn, job_id)


@app.task(name="pagemill.provider_submit", bind=True, autoretry_for=(OperationalError,),
          retry_backoff=True, max_retries=8)
def provider_submit(self: Task, batch_id: str) -> str | None:
    runtime = get_runtime()
    config = runtime.config
    try:
        provider_job = submit(runtime.engine, runtime.storage, config, batch_id)
    except Exception as exc:
        with runtime.engine.begin() as conn:
            error = f"{type(exc).__name__}: {exc}"
            attempts = provider_batches.record_submission_attempt(conn, batch_id, error)
            batch = provider_batches.get(conn, batch_id)
            if attempts >= config.ocr_provider.submit_attempts and batch is not None:
                provider_batches.fail_waiting(
                    conn, batch.job_id, batch.batch_no, "provider_error",
                    f"submission to the provider failed {attempts} times: {error}")
                provider_batches.finish(conn, batch_id, "failed", None, error)
        if attempts >= config.ocr_provider.submit_attempts:
            if batch is not None:
                _finalize(runtime.engine, batch.job_id)
            return None
        log.warning("provider submission failed; will look for it before trying again",
                    extra={"provider_batch": batch_id, "task_id": self.request.id, "attempts": attempts})
        provider_submit.apply_async((batch_id,), countdown=config.ocr_provider.poll_seconds)
        return None
    if provider_job is not None:
        provider_check.apply_async((batch_id,), countdown=config.ocr_provider.poll_seconds)
    return provider_job


@app.task(name="pagemill.provider_check", bind=True, autoretry_for=(OperationalError,),
          retry_backoff=True, max_retries=8)
def provider_check(self: Task, batch_id: str) -> str:
    runtime = get_runtime()
    try:
        outcome = check(runtime.engine, runtime.storage, runtime.config, batch_id)
    except Exception as exc:  # the provider unreachable for a moment: check again later
        log.warning("provider check failed: %s", exc, extra={"provider_batch": batch_id,
                                                             "task_id": self.request.id})
        provider_check.apply_async((batch_id,), countdown=runtime.config.ocr_provider.poll_seconds)
        return "error"
    if outcome.state == "running":
        provider_check.apply_async((batch_id,), countdown=runtime.config.ocr_provider.poll_seconds)
    else:
        with runtime.engine.connect() as conn:
            batch = provider_batches.get(conn, batch_id)
        if batch is not None:
            _finalize(runtime.engine, batch.job_id)
    return json.dumps(asdict(outcome))
