"""Mistral batch OCR against a local server speaking its wire format: per-line outcomes,
long-running batches, lost responses, terminal failures, structured annotations."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sqlalchemy import text

from app.domain import jobs
from app.services.processing import process_batch
from app.services.staging import stage_document
from extractors.base import ExtractOptions
from extractors.mistral import MistralSettings
from tasks import provider
from tests.conftest import ROOT, wait_for
from tests.corpus import CORPUS, needs_corpus
from tests.fake_mistral import IMAGE_TEXT

SAMPLE = ROOT / "samples" / "maintenance-report.pdf"


@pytest.fixture
def fake(fake_mistral):
    # Each test sets the knobs it needs on the session's server; restore the defaults.
    yield fake_mistral
    fake_mistral.statuses = ["QUEUED", "RUNNING", "SUCCESS"]
    fake_mistral.fail_ids = set()
    fake_mistral.drop_after_create = False
    fake_mistral.annotation = {"title": "Fake", "pages": 1}


def _job(engine, storage, tenant, files, options=None):
    """A job handed to the provider, without publishing it (the functions are driven here)."""
    docs = [stage_document(storage, tenant, name, data, source="upload", filename=name)
            for name, data in files.items()]
    with engine.begin() as conn:
        job_id, _ = jobs.create_job(conn, tenant, docs, 50, {"provider": "mistral-batch", **(options or {})},
                                    None, None)
    return job_id


def _documents(engine, job_id):
    with engine.connect() as conn:
        return {r.external_id: r for r in conn.execute(text("""
            SELECT id, external_id, status, error_code, error_message, extractor, chunk_count,
                   annotation FROM documents WHERE job_id = :j"""), {"j": job_id})}


def _batch_row(engine, batch_id):
    with engine.connect() as conn:
        return conn.execute(text("SELECT * FROM provider_batches WHERE id = :id"), {"id": batch_id}).one()


def _run_until_done(engine, storage, config, batch_id, limit=20):
    for _ in range(limit):
        outcome = provider.check(engine, storage, config, batch_id)
        if outcome.state != "running":
            return outcome
    raise AssertionError("provider batch never finished")


def _pdfs():
    data = SAMPLE.read_bytes()
    second = (CORPUS / "docling" / "pdf" / "sources" / "multi_page.pdf").read_bytes()
    third = (CORPUS / "docling" / "pdf" / "sources" / "amt_handbook_sample.pdf").read_bytes()
    return {"report.pdf": data, "multi.pdf": second, "handbook.pdf": third}


@needs_corpus
def test_one_failed_line_fails_one_document_and_the_others_commit(engine, storage, config, tenant, fake):
    job_id = _job(engine, storage, tenant, _pdfs())
    outcome = process_batch(engine, storage, config, job_id, 0)
    assert outcome.waiting == 3 and outcome.provider_batch
    docs = _documents(engine, job_id)
    assert {d.status for d in docs.values()} == {"waiting"}
    fake.fail_ids = {str(docs["multi.pdf"].id)}
    fake.statuses = ["RUNNING", "SUCCESS"]
    provider.submit(engine, storage, config, outcome.provider_batch)
    result = _run_until_done(engine, storage, config, outcome.provider_batch)
    assert (result.state, result.completed, result.failed) == ("succeeded", 2, 1)
    docs = _documents(engine, job_id)
    assert docs["report.pdf"].status == "completed" and docs["report.pdf"].extractor == "mistral"
    assert docs["report.pdf"].chunk_count >= 1
    assert docs["multi.pdf"].error_code == "provider_error" and "422" in docs["multi.pdf"].error_message
    with engine.begin() as conn:
        assert jobs.finalize_job(conn, job_id) == "completed_with_errors"
    row = _batch_row(engine, outcome.provider_batch)
    assert row.status == "succeeded" and storage.exists(row.raw_output_key)


def test_a_long_running_batch_resumes_with_earlier_steps_intact(engine, storage, config, tenant, fake):
    job_id = _job(engine, storage, tenant, {"report.pdf": SAMPLE.read_bytes()})
    batch_id = process_batch(engine, storage, config, job_id, 0).provider_batch
    fake.statuses = ["QUEUED", "RUNNING", "RUNNING", "RUNNING", "SUCCESS"]
    jobs_before = len(fake.jobs)
    provider_job = provider.submit(engine, storage, config, batch_id)
    for expected_checks in range(1, 5):
        assert provider.check(engine, storage, config, batch_id).state == "running"
        row = _batch_row(engine, batch_id)
        assert row.checks == expected_checks and row.provider_job_id == provider_job
        # A duplicate submit task (redelivery) changes nothing.
        assert provider.submit(engine, storage, config, batch_id) == provider_job
    assert provider.check(engine, storage, config, batch_id).state == "succeeded"
    assert len(fake.jobs) == jobs_before + 1
    assert _documents(engine, job_id)["report.pdf"].status == "completed"


def test_accepted_submission_with_a_lost_response_is_adopted_not_repeated(engine, storage, config, tenant,
                                                                           fake):
    job_id = _job(engine, storage, tenant, {"report.pdf": SAMPLE.read_bytes()})
    batch_id = process_batch(engine, storage, config, job_id, 0).provider_batch
    jobs_before = len(fake.jobs)
    fake.drop_after_create = True
    with pytest.raises(Exception):  # noqa: B017 - the SDK's transport error type is its own
        provider.submit(engine, storage, config, batch_id)
    assert len(fake.jobs) == jobs_before + 1  # the provider did create it
    assert _batch_row(engine, batch_id).status == "submitting"
    fake.drop_after_create = False
    provider_job = provider.submit(engine, storage, config, batch_id)
    assert len(fake.jobs) == jobs_before + 1  # found by its metadata, not sent again
    assert fake.jobs[provider_job]["metadata"] == {"pagemill_batch": batch_id}
    assert _run_until_done(engine, storage, config, batch_id).state == "succeeded"


@pytest.mark.parametrize("final", ["FAILED", "TIMEOUT_EXCEEDED", "CANCELLED"])
def test_terminal_failure_states_fail_the_documents_with_the_reason(engine, storage, config, tenant, fake,
                                                                    final):
    job_id = _job(engine, storage, tenant, {"report.pdf": SAMPLE.read_bytes()})
    batch_id = process_batch(engine, storage, config, job_id, 0).provider_batch
    fake.statuses = ["RUNNING", final]
    provider.submit(engine, storage, config, batch_id)
    assert _run_until_done(engine, storage, config, batch_id).state == "failed"
    doc = _documents(engine, job_id)["report.pdf"]
    assert doc.status == "failed" and doc.error_code == "provider_error" and final in doc.error_message


def test_polling_stops_when_the_window_closes(engine, storage, config, tenant, fake):
    job_id = _job(engine, storage, tenant, {"report.pdf": SAMPLE.read_bytes()})
    short = config.with_overrides(ocr_provider={"window_seconds": 0.0})
    batch_id = process_batch(engine, storage, short, job_id, 0).provider_batch
    fake.statuses = ["RUNNING"]
    provider.submit(engine, storage, short, batch_id)
    outcome = provider.check(engine, storage, short, batch_id)
    assert outcome.state == "timed_out"
    assert _documents(engine, job_id)["report.pdf"].error_code == "provider_timeout"


def test_structured_annotation_is_validated_and_stored(engine, storage, config, tenant, fake):
    schema = {"type": "object", "properties": {"title": {"type": "string"}, "pages": {"type": "integer"}},
              "required": ["title", "pages"]}
    job_id = _job(engine, storage, tenant, {"good.pdf": SAMPLE.read_bytes()},
                  {"annotation_schema": schema})
    batch_id = process_batch(engine, storage, config, job_id, 0).provider_batch
    provider.submit(engine, storage, config, batch_id)
    _run_until_done(engine, storage, config, batch_id)
    assert _documents(engine, job_id)["good.pdf"].annotation == {"title": "Fake", "pages": 1}

    fake.annotation = {"title": 7}
    job_id = _job(engine, storage, tenant, {"bad.pdf": SAMPLE.read_bytes()}, {"annotation_schema": schema})
    batch_id = process_batch(engine, storage, config, job_id, 0).provider_batch
    provider.submit(engine, storage, config, batch_id)
    _run_until_done(engine, storage, config, batch_id)
    doc = _documents(engine, job_id)["bad.pdf"]
    assert doc.error_code == "provider_error" and "schema" in doc.error_message


@needs_corpus
def test_sync_mistral_ocr_is_the_last_escalation_step(fake):
    from extractors import extract

    settings = MistralSettings(api_key="k", server_url=fake.url)
    image = (CORPUS / "unstructured" / "img" / "example.jpg").read_bytes()  # local OCR reads nothing
    options = replace(ExtractOptions(), ocr_engines=("tesseract", "mistral"), mistral=settings)
    result = extract(image, options=options)
    assert result.extractor == "mistral" and IMAGE_TEXT in result.markdown
    # Without a key the step is skipped with its reason, and the document fails cleanly.
    options = replace(options, mistral=MistralSettings(api_key=None))
    with pytest.raises(Exception) as info:
        extract(image, options=options)
    assert info.value.code == "no_text"


def test_batch_ocr_job_end_to_end_through_the_worker(engine, storage, tenant, worker, fake, runtime):
    """The real chain: API-style submit -> batch task hands over -> submit task -> checks
    re-scheduled by countdown -> commit -> job finalised."""
    from app.services.submission import submit_job

    fake.statuses = ["QUEUED", "RUNNING", "RUNNING", "SUCCESS"]
    docs = [stage_document(storage, tenant, "report.pdf", SAMPLE.read_bytes(), source="upload",
                           filename="report.pdf")]
    job_id = submit_job(runtime, tenant, docs, batch_size=10, options={"provider": "mistral-batch"})

    def finished():
        with engine.connect() as conn:
            progress = jobs.job_progress(conn, job_id, tenant)
        return progress if progress.status in jobs.TERMINAL_JOB_STATES else None

    progress = wait_for(finished, timeout=120, what="provider job")
    assert progress.status == "completed"
    assert _documents(engine, job_id)["report.pdf"].extractor == "mistral"
