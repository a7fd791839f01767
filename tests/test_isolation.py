"""Parsing runs in a child process: a crash or a hang fails one document, never the worker."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace

import pytest

from extractors import ExtractionError
from extractors.base import ExtractOptions
from extractors.isolation import IsolatedExtractor
from tests.corpus import CORPUS, ROOT, needs_corpus

SAMPLE_PDF = (ROOT / "samples" / "maintenance-report.pdf").read_bytes()


@pytest.fixture
def isolated():
    extractor = IsolatedExtractor()
    yield extractor
    extractor.close()


@pytest.mark.system
def test_results_cross_the_process_boundary(isolated):
    result = isolated.extract(SAMPLE_PDF, filename="r.pdf", timeout=60)
    assert result.page_count == 2 and "No job was lost" in result.markdown
    with pytest.raises(ExtractionError) as info:
        isolated.extract(b"", timeout=60)
    assert info.value.code == "empty"


@pytest.mark.system
@needs_corpus
def test_killed_parser_fails_only_its_document(isolated):
    scan = (CORPUS / "tesseract-ocr-test" / "8087_054.3B.tif").read_bytes()  # a few seconds of OCR
    isolated.extract(SAMPLE_PDF, timeout=60)  # child is up
    victim = isolated.pid
    errors: list[ExtractionError] = []

    def run() -> None:
        try:
            isolated.extract(scan, timeout=120)
        except ExtractionError as exc:
            errors.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    time.sleep(1.0)
    os.kill(victim, signal.SIGKILL)  # what a segfault or the OOM killer does
    thread.join(60)
    assert errors and errors[0].code == "extractor_crashed" and "SIGKILL" in errors[0].message
    # The next document gets a fresh child.
    assert isolated.extract(SAMPLE_PDF, timeout=60).page_count == 2
    assert isolated.pid != victim


@pytest.mark.system
@needs_corpus
def test_hard_time_limit_kills_the_parser(isolated):
    scan = (CORPUS / "tesseract-ocr-test" / "8087_054.3B.tif").read_bytes()
    isolated.extract(SAMPLE_PDF, timeout=60)
    first = isolated.pid
    started = time.monotonic()
    with pytest.raises(ExtractionError) as info:
        isolated.extract(scan, timeout=0.5)
    assert info.value.code == "timeout"
    assert time.monotonic() - started < 10
    assert isolated.extract(SAMPLE_PDF, timeout=60).page_count == 2 and isolated.pid != first


@pytest.mark.system
@needs_corpus
def test_soft_time_limit_stops_ocr_escalation_but_keeps_the_document(isolated):
    options = replace(ExtractOptions(), soft_deadline=time.monotonic() - 1)
    scan = (CORPUS / "docling" / "ocr" / "sources" / "ocr_test.pdf").read_bytes()
    with pytest.raises(ExtractionError) as info:
        isolated.extract(scan, options=options, timeout=60)
    assert info.value.code == "no_text"
    text_pdf = isolated.extract(SAMPLE_PDF, options=options, timeout=60)
    assert text_pdf.page_count == 2  # a text layer needs no OCR: unaffected


@pytest.mark.system
def test_memory_limit_turns_a_runaway_parse_into_a_document_error():
    extractor = IsolatedExtractor(memory_limit_bytes=3 * 1024**3)
    try:
        # A 3,000 x 3,000 page at 2,400 dpi renders to a bitmap far over the 3 GiB limit.
        import pypdfium2 as pdfium

        pdf = pdfium.PdfDocument.new()
        pdf.new_page(3000, 3000)
        import io

        buffer = io.BytesIO()
        pdf.save(buffer)
        options = replace(ExtractOptions(), ocr_dpi=2400, max_image_pixels=10**12)
        with pytest.raises(ExtractionError) as info:
            extractor.extract(buffer.getvalue(), options=options, timeout=120)
        assert info.value.code == "too_large"
        assert extractor.extract(SAMPLE_PDF, timeout=60).page_count == 2
    finally:
        extractor.close()


@pytest.mark.system
@needs_corpus
def test_every_corpus_document_ends_in_a_terminal_state(tmp_path):
    """`pagemill parse` over every document of the corpus (all but the retrieval
    collections): text or a failure code for each, and the parser process never dies."""
    folders = ["docling", "unstructured", "icdar2013-tables-via-tabula-java", "tesseract-ocr-test",
               "qpdf-malformed-pdfs", "audio-jfk"]
    files = sorted(str(p) for folder in folders for p in (CORPUS / folder).rglob("*") if p.is_file())
    assert len(files) > 400
    proc = subprocess.run([sys.executable, "-m", "app.cli", "parse", "--json", "--jobs", "2", *files],
                          capture_output=True, text=True, timeout=900, cwd=ROOT)
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["path"] for r in rows] == files
    by_path = {r["path"]: r for r in rows}
    for row in rows:
        assert row["status"] in {"completed", "failed"}
        if row["status"] == "failed":
            assert row["error_code"] != "extractor_crashed", row
            assert row["error_code"] and row["error_message"]
        else:
            assert row["markdown"].strip()
            # A structure bug keeps the text but loses the document's structure: none may fail.
            assert not any("structure stage failed" in warning for warning in row["warnings"]), row["path"]
    qpdf = [r for p, r in by_path.items() if "qpdf-malformed-pdfs" in p and p.endswith(".pdf")]
    assert len(qpdf) >= 19
    for row in qpdf:  # a damaged PDF is read, or refused for what is wrong with it
        if row["status"] == "failed":
            assert row["error_code"] in {"corrupt", "no_text", "empty", "encrypted", "unsupported"}, row
        elif row["mime_type"] == "application/pdf":  # not every file named .pdf there is one
            assert row["page_count"] and row["page_count"] >= 1, row
    encrypted = by_path[str(CORPUS / "docling" / "pdf_password" / "sources" / "2206.01062_pg3.pdf")]
    assert encrypted["error_code"] == "encrypted"
    scan = by_path[str(CORPUS / "docling" / "ocr" / "sources" / "nemotron_multipage.pdf")]
    assert scan["route"] == "pdf-ocr" and scan["page_count"] == 4
    assert proc.returncode == 1  # some files failed, and the exit status says so


@pytest.mark.system
def test_parse_with_several_parsers_answers_in_argument_order(tmp_path):
    """``--jobs``: files parsed at once by parsers of their own, printed in the order given,
    a failure still attributed to its file and reflected in the exit status."""
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n" + b"\x00" * 64)
    files = [str(ROOT / "samples" / "maintenance-report.pdf"), str(broken),
             str(ROOT / "samples" / "durable-queues.md"), str(ROOT / "samples" / "vector-search-notes.txt")]
    proc = subprocess.run([sys.executable, "-m", "app.cli", "parse", "--json", "--jobs", "3", *files],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [(r["path"], r["status"]) for r in rows] == [
        (files[0], "completed"), (files[1], "failed"), (files[2], "completed"), (files[3], "completed")]
    assert rows[0]["page_count"] == 2 and rows[1]["error_code"]
    assert proc.returncode == 1


@pytest.mark.system
def test_the_parser_process_is_replaced_after_its_document_quota():
    extractor = IsolatedExtractor(max_documents=2)
    try:
        pids = []
        for _ in range(5):
            assert extractor.extract(SAMPLE_PDF, timeout=60).page_count == 2
            pids.append(extractor.pid)
        assert pids[0] == pids[1] != pids[2] == pids[3] != pids[4]
    finally:
        extractor.close()
