"""The pipeline end to end, with a real worker process, and its failure paths."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import text

from app.domain import jobs
from app.services.processing import MAX_ATTEMPTS, process_batch
from app.services.staging import stage_document
from app.services.submission import stage_record, submit_job
from tests.conftest import ROOT, wait_for
from tests.corpus import needs_corpus


def _cli(env, *args, timeout=300):
    return subprocess.run([sys.executable, "-m", "app.cli", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def _tenant_name(engine, tenant):
    with engine.connect() as conn:
        return conn.execute(text("SELECT name FROM tenants WHERE id = :t"), {"t": tenant}).scalar_one()


def _wait_job(engine, job_id, tenant):
    def done():
        with engine.connect() as conn:
            p = jobs.job_progress(conn, job_id, tenant)
        return p if p.status in jobs.TERMINAL_JOB_STATES else None

    return wait_for(done, timeout=180, what=f"job {job_id}")


def test_ingesting_a_folder_twice_keeps_one_set_of_chunks(engine, tenant, test_env, worker):
    name = _tenant_name(engine, tenant)
    for _ in range(2):
        result = _cli(test_env, "ingest", "samples", "--tenant", name, "--wait")
        assert result.returncode == 0, result.stderr
        assert "completed (4 completed, 0 failed)" in result.stderr
    with engine.connect() as conn:
        per_doc = conn.execute(text("""
            SELECT sd.external_id, count(c.id) AS n, sd.chunk_count
            FROM search_documents sd JOIN chunks c ON c.search_document_id = sd.id
            WHERE sd.tenant_id = :t GROUP BY sd.id ORDER BY 1"""), {"t": tenant}).all()
        jobs_done = conn.execute(text(
            "SELECT count(*) FROM jobs WHERE tenant_id = :t AND status = 'completed'"),
            {"t": tenant}).scalar_one()
    assert [r.external_id for r in per_doc] == [
        "samples/durable-queues.md", "samples/http-semantics.md",
        "samples/maintenance-report.pdf", "samples/vector-search-notes.txt"]
    assert all(r.n == r.chunk_count for r in per_doc)
    assert jobs_done == 2

    search = _cli(test_env, "search", "RFC 7231", "--tenant", name, "--json", "--k", "3")
    assert search.returncode == 0, search.stderr
    results = json.loads(search.stdout)["results"]
    assert results[0]["document_id"] == "samples/http-semantics.md"
    assert len({r["document_id"] for r in results}) == len(results)


def test_one_bad_document_fails_alone(engine, storage, tenant, worker, runtime):
    good = stage_record(storage, tenant, {"id": "good", "title": "Kinase inhibitors",
                                          "text": "Imatinib inhibits BCR-ABL.", "metadata": {}})
    # Bytes that sniff as PDF but are not one: the job must finish, this document failed.
    bad = stage_document(storage, tenant, "broken.pdf", b"%PDF-1.4\n garbage", source="upload",
                         filename="broken.pdf")
    job_id = submit_job(runtime, tenant, [good, bad], batch_size=1)
    progress = _wait_job(engine, job_id, tenant)
    assert progress.status == "completed_with_errors"
    assert (progress.completed_documents, progress.failed_documents) == (1, 1)
    with engine.connect() as conn:
        row = conn.execute(text("SELECT error_code, error_message FROM documents "
                                "WHERE job_id = :j AND external_id = 'broken.pdf'"),
                           {"j": job_id}).one()
    assert row.error_code == "corrupt" and row.error_message


def _job_without_publishing(engine, storage, tenant, n=2):
    docs = [stage_record(storage, tenant, {"id": f"r{i}", "title": f"Title {i}",
                                           "text": f"Body number {i} about enzymes.",
                                           "metadata": {}}) for i in range(n)]
    with engine.begin() as conn:
        job_id, _ = jobs.create_job(conn, tenant, docs, batch_size=10)
    return job_id


def test_duplicate_delivery_repeats_no_finished_work(engine, storage, config, tenant):
    job_id = _job_without_publishing(engine, storage, tenant)
    first = process_batch(engine, storage, config, job_id, 0)
    assert (first.completed, first.failed) == (2, 0)
    with engine.connect() as conn:
        chunk_ids = conn.execute(text("SELECT id FROM chunks WHERE tenant_id = :t ORDER BY id"),
                                 {"t": tenant}).scalars().all()
    again = process_batch(engine, storage, config, job_id, 0)
    assert (again.completed, again.failed) == (0, 0)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT id FROM chunks WHERE tenant_id = :t ORDER BY id"),
                            {"t": tenant}).scalars().all() == chunk_ids
        attempts = conn.execute(text("SELECT attempts FROM documents WHERE job_id = :j"),
                                {"j": job_id}).scalars().all()
    assert attempts == [1, 1]


def test_a_batch_past_the_merge_threshold_is_merged_into_the_blocks(engine, storage, config, tenant):
    from dataclasses import replace

    low = replace(config, processing=replace(config.processing, bm25_merge_at=0))
    pending = text("""SELECT delta_postings, (SELECT count(*) FROM bm25_blocks b JOIN bm25_terms t
                                             ON t.id = b.term_id WHERE t.tenant_id = :t) AS blocks
                      FROM bm25_stats WHERE tenant_id = :t""")
    process_batch(engine, storage, config, _job_without_publishing(engine, storage, tenant), 0)
    with engine.connect() as conn:
        waiting = conn.execute(pending, {"t": tenant}).one()
    assert waiting.delta_postings > 0 and waiting.blocks == 0  # the default threshold is far
    outcome = process_batch(engine, storage, low, _job_without_publishing(engine, storage, tenant, n=3), 0)
    assert outcome.completed == 3
    with engine.connect() as conn:
        merged = conn.execute(pending, {"t": tenant}).one()
    assert merged.delta_postings == 0 and merged.blocks > 0


def test_a_document_left_processing_by_a_crash_is_retried_then_given_up(
        engine, storage, config, tenant):
    job_id = _job_without_publishing(engine, storage, tenant)
    with engine.begin() as conn:
        # r0 was being processed by a worker that died; r1 has crashed it MAX_ATTEMPTS times.
        conn.execute(text("UPDATE documents SET status = 'processing', attempts = 1 "
                          "WHERE job_id = :j AND external_id = 'r0'"), {"j": job_id})
        conn.execute(text("UPDATE documents SET status = 'processing', attempts = :n "
                          "WHERE job_id = :j AND external_id = 'r1'"),
                     {"j": job_id, "n": MAX_ATTEMPTS})
    outcome = process_batch(engine, storage, config, job_id, 0)
    assert outcome.completed == 1
    with engine.begin() as conn:
        rows = dict(conn.execute(text("SELECT external_id, error_code FROM documents "
                                      "WHERE job_id = :j"), {"j": job_id}).all())
        assert jobs.finalize_job(conn, job_id) == "completed_with_errors"
    assert rows == {"r0": None, "r1": "worker_crashed"}


def test_reingesting_unchanged_content_reuses_the_index(engine, storage, config, tenant):
    first = _job_without_publishing(engine, storage, tenant)
    process_batch(engine, storage, config, first, 0)
    second = _job_without_publishing(engine, storage, tenant)
    outcome = process_batch(engine, storage, config, second, 0)
    assert (outcome.completed, outcome.unchanged) == (2, 2)
    with engine.connect() as conn:
        owners = conn.execute(text("SELECT DISTINCT job_id FROM search_documents "
                                   "WHERE tenant_id = :t"), {"t": tenant}).scalars().all()
    assert [str(o) for o in owners] == [second]


def test_reconciler_publishes_a_job_whose_publish_was_lost(engine, storage, tenant, worker, runtime):
    from app.services.reconciliation import reconcile

    job_id = _job_without_publishing(engine, storage, tenant)  # as if the API died here
    with engine.begin() as conn:
        conn.execute(text("UPDATE jobs SET created_at = now() - interval '5 minutes', "
                          "updated_at = now() - interval '5 minutes' WHERE id = :j"),
                     {"j": job_id})
    outcome = reconcile(runtime)
    assert outcome["republished"] >= 1
    progress = _wait_job(engine, job_id, tenant)
    assert progress.status == "completed" and progress.completed_documents == 2
    with engine.connect() as conn:
        assert job_id not in [j for j, _, _ in jobs.unhanded_jobs(conn, 0)]


def test_reconciler_settles_a_job_whose_callback_was_lost(engine, storage, config, tenant, runtime):
    from app.services.reconciliation import reconcile

    job_id = _job_without_publishing(engine, storage, tenant)
    process_batch(engine, storage, config, job_id, 0)  # work done, but no chord callback
    with engine.begin() as conn:
        conn.execute(text("UPDATE jobs SET handed_at = now(), "
                          "updated_at = now() - interval '5 minutes' WHERE id = :j"), {"j": job_id})
    reconcile(runtime)
    with engine.connect() as conn:
        assert jobs.job_progress(conn, job_id, tenant).status == "completed"


@contextmanager
def _fresh_home(prefix: str) -> Iterator[tuple[Path, dict[str, str]]]:
    """A PAGEMILL_HOME of its own on the embedded default (no DATABASE_URL, no STORAGE_URL),
    and the environment for CLI processes using it.  Afterwards every process still running
    on it (a server or worker left by a failed test) is killed and the folder removed."""
    import psutil

    home = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "STORAGE_URL")}
    env["PAGEMILL_HOME"] = str(home)
    try:
        yield home, env
    finally:
        for proc in psutil.process_iter(["cmdline"]):
            if str(home) in " ".join(proc.info["cmdline"] or []):
                try:
                    proc.send_signal(signal.SIGKILL)
                except psutil.Error:
                    pass
        shutil.rmtree(home, ignore_errors=True)


@pytest.mark.system
def test_embedded_default_needs_nothing_started():
    """The quick-start path: no DATABASE_URL, no worker. The CLI starts the embedded server
    (creating and tuning it, which restarts it), a worker joins it for the job, and the CLI,
    the last to leave, stops it at exit (the quick start's `pagemill demo` used to leave it
    running). Search starts it again, finds the document, and stops it too."""
    with _fresh_home("pm-e2e-") as (home, env):
        ingest = _cli(env, "ingest", "samples/http-semantics.md", "--wait")
        assert ingest.returncode == 0, ingest.stderr
        assert "starting one for this job" in ingest.stderr
        wait_for(lambda: not (home / "pgdata" / "postmaster.pid").exists(), timeout=30,
                 what="embedded server stopped by the process that created it")
        found = _cli(env, "search", "Idempotency-Key retries", "--json", "--k", "1")
        assert found.returncode == 0, found.stderr
        assert json.loads(found.stdout)["results"][0]["document_id"] == "samples/http-semantics.md"
        # Every client has exited: the shared server must be gone.
        wait_for(lambda: not (home / "pgdata" / "postmaster.pid").exists(), timeout=60,
                 what="embedded server stopped")


@pytest.mark.system
def test_a_worker_started_by_the_cli_stops_when_the_cli_is_killed():
    import psutil

    with _fresh_home("pm-orphan-") as (home, env):
        cli = subprocess.Popen([sys.executable, "-m", "app.cli", "ingest", "samples", "--wait"],
                               env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
        try:
            def spawned_worker():
                for child in psutil.Process(cli.pid).children():
                    try:
                        if "worker" in child.cmdline():
                            return child
                    except psutil.Error:  # a short-lived helper (pg_ctl, ...) exiting or a zombie
                        continue
                return None

            worker = wait_for(spawned_worker, timeout=120, what="the CLI to start a worker")
            cli.kill()  # no cleanup possible in the CLI itself
            cli.wait()
            # Warm shutdown lets a batch in progress finish first, hence the generous limits.
            psutil.wait_procs([worker], timeout=180)
            assert not worker.is_running(), "orphaned worker kept running"
            pids = home / "pgdata" / ".handle_pids.json"
            wait_for(lambda: not (home / "pgdata" / "postmaster.pid").exists(), timeout=90,
                     what=f"embedded server stopped (clients: {pids.read_text() if pids.exists() else '-'})")
        finally:
            if cli.poll() is None:
                cli.kill()


@needs_corpus
def test_scans_office_and_mail_are_indexed_with_their_extraction_report(engine, storage, tenant, worker,
                                                                       runtime):
    from tests.corpus import CORPUS

    files = {"scan.pdf": CORPUS / "docling" / "ocr" / "sources" / "ocr_test.pdf",
             "tables.docx": CORPUS / "docling" / "docx" / "sources" / "word_tables.docx",
             "mail.eml": CORPUS / "docling" / "email" / "sources" / "eml_simple.eml",
             "locked.pdf": CORPUS / "docling" / "pdf_password" / "sources" / "2206.01062_pg3.pdf"}
    docs = [stage_document(storage, tenant, name, path.read_bytes(), source="upload", filename=name)
            for name, path in files.items()]
    job_id = submit_job(runtime, tenant, docs, batch_size=2)
    progress = _wait_job(engine, job_id, tenant)
    assert (progress.completed_documents, progress.failed_documents) == (3, 1)
    with engine.connect() as conn:
        rows = {r.external_id: r for r in conn.execute(text("""
            SELECT external_id, status, extractor, quality, error_code, extraction, chunk_count
            FROM documents WHERE job_id = :j"""), {"j": job_id})}
    scan = rows["scan.pdf"]
    assert scan.extractor == "tesseract" and scan.extraction["route"] == "pdf-ocr"
    assert scan.quality > 0.5 and scan.chunk_count >= 1
    assert [a["engine"] for a in scan.extraction["attempts"]][:2] == ["pdfium-text", "tesseract"]
    assert rows["tables.docx"].extractor == "docling" and rows["tables.docx"].extraction["tables"] > 0
    assert rows["mail.eml"].extractor == "unstructured"
    assert rows["locked.pdf"].error_code == "encrypted"


@needs_corpus
@pytest.mark.system
def test_reingesting_an_unchanged_scan_does_not_ocr_it_again(engine, storage, config, tenant):
    from extractors.isolation import InProcessExtractor
    from tests.corpus import CORPUS

    class Counting(InProcessExtractor):
        calls = 0

        def extract(self, *args, **kwargs):
            Counting.calls += 1
            return super().extract(*args, **kwargs)

    scan = (CORPUS / "docling" / "ocr" / "sources" / "ocr_test.pdf").read_bytes()
    ids = []
    for _ in range(2):
        doc = stage_document(storage, tenant, "scan.pdf", scan, source="upload", filename="scan.pdf")
        with engine.begin() as conn:
            job_id, _ = jobs.create_job(conn, tenant, [doc], 10, {}, None, None)
        ids.append(job_id)
        process_batch(engine, storage, config, job_id, 0, extractor=Counting())
    assert Counting.calls == 1
    with engine.connect() as conn:
        rows = conn.execute(text("""SELECT job_id, status, extractor, quality, extraction->>'route' AS route,
                                    chunk_count FROM documents WHERE job_id = ANY(CAST(:j AS uuid[]))"""),
                            {"j": ids}).all()
    first, second = sorted(rows, key=lambda r: ids.index(str(r.job_id)))
    assert second.status == "completed" and second.extractor == first.extractor == "tesseract"
    assert (second.route, second.quality, second.chunk_count) == (first.route, first.quality,
                                                                  first.chunk_count)


def test_cancelling_a_document_being_processed_keeps_it_out_of_the_index(engine, storage, config, tenant):
    from extractors.isolation import InProcessExtractor

    doc = stage_document(storage, tenant, "slow.md", b"# Cancelled\n\nThis text must never be indexed.",
                         source="upload", filename="slow.md")
    with engine.begin() as conn:
        job_id, _ = jobs.create_job(conn, tenant, [doc], 10, {}, None, None)

    class CancelledMidway(InProcessExtractor):
        def extract(self, *args, **kwargs):
            with engine.begin() as conn:  # the user cancels while the document is parsed
                assert jobs.cancel_job(conn, tenant, job_id) == "cancelled"
            return super().extract(*args, **kwargs)

    outcome = process_batch(engine, storage, config, job_id, 0, extractor=CancelledMidway())
    assert outcome.completed == 0
    with engine.connect() as conn:
        status, message = conn.execute(text("SELECT status, error_message FROM documents WHERE job_id = :j"),
                                       {"j": job_id}).one()
        indexed = conn.execute(text("SELECT count(*) FROM search_documents WHERE tenant_id = :t "
                                    "AND external_id = 'slow.md'"), {"t": tenant}).scalar_one()
    assert (status, message) == ("cancelled", "cancelled while processing")
    assert indexed == 0


def test_a_120_document_job_with_10_corrupt_files(engine, storage, tenant, worker, runtime):
    docs = [stage_record(storage, tenant, {"id": f"record-{i:03d}", "title": f"Record {i}",
                                           "text": f"Finding number {i} about kinase inhibition.",
                                           "metadata": {}}) for i in range(110)]
    docs += [stage_document(storage, tenant, f"corrupt-{i}.pdf", b"%PDF-1.4\n%broken " + bytes([i]) * 40,
                            source="upload", filename=f"corrupt-{i}.pdf") for i in range(10)]
    job_id = submit_job(runtime, tenant, docs, batch_size=50)
    progress = _wait_job(engine, job_id, tenant)
    assert progress.status == "completed_with_errors"
    assert (progress.total_documents, progress.completed_documents,
            progress.failed_documents) == (120, 110, 10)
    with engine.connect() as conn:
        failed = conn.execute(text("""SELECT external_id, error_code FROM documents
                                      WHERE job_id = :j AND status = 'failed' ORDER BY 1"""),
                              {"j": job_id}).all()
    assert [(r.external_id, r.error_code) for r in failed] == [(f"corrupt-{i}.pdf", "corrupt")
                                                               for i in range(10)]


def test_a_failure_inside_the_final_commit_then_a_replay_leaves_nothing_duplicated(engine, storage, config,
                                                                                    tenant):
    """A fault injected by a real trigger at the commit of one document's index transaction
    (twice: for the batch's documents written together, then for its own transaction; a sequence
    is not transactional); the batch is replayed like a redelivery."""
    import psycopg
    import pytest as _pytest
    from sqlalchemy.exc import DBAPIError

    name = f"boom-{tenant[:8]}"
    docs = [stage_record(storage, tenant, {"id": i, "title": i, "text": f"text of {i}", "metadata": {}})
            for i in ("alpha", name, "omega")]
    with engine.begin() as conn:
        job_id, _ = jobs.create_job(conn, tenant, docs, 10, {}, None, None)
        conn.execute(text(f"""
            CREATE SEQUENCE "fault_{tenant[:8]}";
            CREATE FUNCTION "fault_{tenant[:8]}"() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.external_id = '{name}' AND NEW.status = 'completed'
                   AND nextval('"fault_{tenant[:8]}"') <= 2 THEN
                    RAISE EXCEPTION 'injected failure at commit';
                END IF;
                RETURN NEW;
            END $$;
            CREATE TRIGGER "fault_{tenant[:8]}" BEFORE UPDATE ON documents
                FOR EACH ROW EXECUTE FUNCTION "fault_{tenant[:8]}"();"""))
    try:
        with _pytest.raises(DBAPIError) as info:
            process_batch(engine, storage, config, job_id, 0)
        assert isinstance(info.value.orig, psycopg.Error) and "injected" in str(info.value.orig)
        process_batch(engine, storage, config, job_id, 0)  # the redelivery
    finally:
        with engine.begin() as conn:
            conn.execute(text(f'DROP TRIGGER "fault_{tenant[:8]}" ON documents; '
                              f'DROP FUNCTION "fault_{tenant[:8]}"(); DROP SEQUENCE "fault_{tenant[:8]}"'))
    with engine.connect() as conn:
        progress = jobs.job_progress(conn, job_id, tenant)
        per_id = conn.execute(text("""
            SELECT sd.external_id, count(DISTINCT sd.id) AS identities, count(c.id) AS chunks, sd.chunk_count
            FROM search_documents sd JOIN chunks c ON c.search_document_id = sd.id
            WHERE sd.tenant_id = :t GROUP BY sd.external_id, sd.chunk_count"""), {"t": tenant}).all()
        stats = conn.execute(text("SELECT chunk_count FROM bm25_stats WHERE tenant_id = :t"),
                             {"t": tenant}).scalar_one()
        chunks = conn.execute(text("SELECT count(*) FROM chunks WHERE tenant_id = :t"),
                              {"t": tenant}).scalar_one()
    assert progress.completed_documents == 3 and progress.failed_documents == 0
    assert sorted(r.external_id for r in per_id) == sorted(["alpha", name, "omega"])
    assert all(r.identities == 1 and r.chunks == r.chunk_count for r in per_id)
    assert stats == chunks  # BM25 statistics match the rows: nothing counted twice


def _mail_with_attachments() -> bytes:
    from email.message import EmailMessage

    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "a@example.org", "b@example.org", "Lab results"
    message.set_content("Please find the assay notes attached.")
    message.add_attachment(b"Zebrafish assay notes: kinase activity doubled after treatment.",
                           maintype="text", subtype="plain", filename="notes.txt")
    message.add_attachment(b"\x00\x01 not any known format \xff" * 20, maintype="application",
                           subtype="octet-stream", filename="blob.bin")
    return message.as_bytes()


def test_attachments_are_documents_of_their_own(engine, storage, config, tenant):
    from indexing.search import search

    mail = stage_document(storage, tenant, "results.eml", _mail_with_attachments(), source="upload",
                          filename="results.eml")
    with engine.begin() as conn:
        job_id, _ = jobs.create_job(conn, tenant, [mail], batch_size=10)
    outcome = process_batch(engine, storage, config, job_id, 0)
    assert (outcome.completed, outcome.failed) == (1, 0)

    def children() -> dict[str, tuple[str, str | None, int | None]]:
        with engine.connect() as conn:
            rows = conn.execute(text("""
                SELECT c.external_id, c.status, c.error_code, c.chunk_count FROM documents c
                JOIN documents p ON p.id = c.parent_id
                WHERE p.job_id = :j AND p.external_id = 'results.eml'"""), {"j": job_id}).all()
        return {r.external_id: (r.status, r.error_code, r.chunk_count) for r in rows}

    first = children()
    assert first["results.eml#notes.txt"][:2] == ("completed", None)
    assert first["results.eml#blob.bin"][:2] == ("failed", "unsupported")  # fails alone
    with engine.begin() as conn:
        assert jobs.finalize_job(conn, job_id) == "completed"  # what the chord callback does
        progress = jobs.job_progress(conn, job_id, tenant)
        parent = next(d for d in jobs.list_documents(conn, tenant, job_id, None, 50, 0))
        detail = jobs.get_document(conn, tenant, str(parent.id))
        hits = search(conn, tenant, "zebrafish kinase assay", k=3, mode="bm25")
    # Job counts are the submitted documents; the attachments are listed under the mail.
    assert (progress.status, progress.total_documents, progress.completed_documents) == \
        ("completed", 1, 1)
    assert sorted(a.document_id for a in detail.attachments) == \
        ["results.eml#blob.bin", "results.eml#notes.txt"]
    assert "- notes.txt" in detail.markdown and "Zebrafish" not in detail.markdown
    assert hits[0].document_id == "results.eml#notes.txt"

    # A replay after the child rows exist (as a crash before the parent's commit leaves them)
    # converges on the same rows and the same index.
    with engine.begin() as conn:
        conn.execute(text("UPDATE documents SET status = 'processing' WHERE job_id = :j "
                          "AND external_id = 'results.eml'"), {"j": job_id})
        conn.execute(text("UPDATE jobs SET status = 'running', finished_at = NULL WHERE id = :j"),
                     {"j": job_id})
    process_batch(engine, storage, config, job_id, 0)
    assert children() == first
    with engine.connect() as conn:
        indexed = conn.execute(text("SELECT external_id, chunk_count FROM search_documents "
                                    "WHERE tenant_id = :t ORDER BY external_id"), {"t": tenant}).all()
    assert [r.external_id for r in indexed] == ["results.eml", "results.eml#notes.txt"]


def test_the_pipeline_indexes_a_new_tenant_with_the_configured_k1_and_b(engine, storage, config, tenant):
    """index_prepared hands the configured k1 and b to the writer: a fresh tenant's impacts are
    computed with them, so the early-terminating path (not the plain scan) answers searches
    run with them."""

    from indexing.ranking import DEFAULTS
    from indexing.search import bm25_path

    tuned = config.with_overrides(search={"k1": 1.5, "b": 0.75})
    assert (tuned.search.k1, tuned.search.b) != (DEFAULTS.k1, DEFAULTS.b)
    job_id = _job_without_publishing(engine, storage, tenant, n=3)
    outcome = process_batch(engine, storage, tuned, job_id, 0)
    assert (outcome.completed, outcome.failed) == (3, 0)
    with engine.connect() as conn:
        stats = conn.execute(text("SELECT impact_k1, impact_b FROM bm25_stats WHERE tenant_id = :t"),
                             {"t": tenant}).one()
        # No scan threshold, so only the impacts' k1 and b decide the path.
        path = bm25_path(conn, tenant, "enzymes body", k=2, collapse=False,
                         params=tuned.search_params(bm25_scan_below=0))
    assert (stats.impact_k1, stats.impact_b) == (1.5, 0.75)
    assert path != "scan", path


class _RecordingPublisher:
    """Records what the workflow asks of the workers (the Celery publisher's sends are tested
    in tests/test_runtime.py)."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, ...]] = []

    def publish(self, batch) -> None:
        self.asked.append(("publish", batch.job_id, str(batch.batch_no)))

    def build_vector_index(self) -> None:
        self.asked.append(("build_vector_index",))

    def resume_provider_batch(self, batch_id: str, submitting: bool) -> None:
        self.asked.append(("resume", batch_id, "submit" if submitting else "check"))


def test_reconciler_resumes_overdue_provider_batches_through_the_runtimes_publisher(
        engine, storage, tenant, config):
    from app.domain import provider_batches
    from app.runtime import Runtime
    from app.services.reconciliation import PROVIDER_GRACE_SECONDS, reconcile

    recorder = _RecordingPublisher()
    runtime = Runtime(config, publisher_factory=lambda _: recorder)
    job_id = _job_without_publishing(engine, storage, tenant)
    with engine.begin() as conn:
        documents = conn.execute(text("SELECT id::text FROM documents WHERE job_id = :j ORDER BY id"),
                                 {"j": job_id}).scalars().all()
        lost = provider_batches.hand_over(conn, job_id, 0, documents, "mistral", 60.0)
        conn.execute(text("UPDATE provider_batches SET next_check_at = now() - make_interval(secs => :s) "
                          "WHERE id = :b"), {"s": PROVIDER_GRACE_SECONDS + 60, "b": lost})
    reconcile(runtime)
    assert ("resume", lost, "submit") in recorder.asked
    with engine.begin() as conn:  # not this test's leftovers for the next reconciler
        conn.execute(text("UPDATE provider_batches SET status = 'failed' WHERE id = :b"), {"b": lost})
