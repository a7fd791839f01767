from pathlib import Path

import pytest

from extractors import ExtractionError, extract
from extractors.sniff import MIME_RECORD

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"


def test_pdf_text_layer_page_by_page():
    result = extract((ROOT / "samples" / "maintenance-report.pdf").read_bytes())
    assert result.extractor == "pdfium-text"
    assert result.page_count == 2
    assert "1.2 million pages" in result.pages[0].markdown
    assert "No job was lost" in result.pages[1].markdown
    assert [p.number for p in result.pages] == [1, 2]


def test_markdown_keeps_headings_and_title():
    result = extract(b"# Title\n\nBody", filename="a.md")
    assert result.extractor == "markdown" and result.title == "Title"


def test_type_comes_from_bytes_not_name():
    # A PDF named .txt is parsed as a PDF.
    data = (ROOT / "samples" / "maintenance-report.pdf").read_bytes()
    assert extract(data, filename="notes.txt").extractor == "pdfium-text"


@pytest.mark.parametrize("data, code", [
    (b"", "empty"),
    (b"   \n ", "empty"),
    (bytes(range(256)) * 20, "unsupported"),
])
def test_bad_input_fails_with_a_code(data, code):
    with pytest.raises(ExtractionError) as info:
        extract(data, filename="x.bin")
    assert info.value.code == code


def test_record_title_becomes_heading():
    result = extract(b'{"id": "1", "title": "T", "text": "body"}', declared=MIME_RECORD)
    assert result.markdown == "# T\n\nbody"


@pytest.mark.skipif(not (CORPUS / "docling" / "pdf_password").exists(), reason="corpus absent")
def test_encrypted_pdf_is_reported_as_encrypted():
    pdf = next((CORPUS / "docling" / "pdf_password").rglob("*.pdf"))
    with pytest.raises(ExtractionError) as info:
        extract(pdf.read_bytes())
    assert info.value.code == "encrypted"


@pytest.mark.skipif(not (CORPUS / "qpdf-malformed-pdfs").exists(), reason="corpus absent")
def test_malformed_pdfs_never_crash():
    for pdf in sorted((CORPUS / "qpdf-malformed-pdfs").glob("*.pdf")):
        data = pdf.read_bytes()
        if not data.startswith(b"%PDF"):
            continue  # bad1.pdf is the text "oops": not a PDF at all
        try:
            result = extract(data)
        except ExtractionError as exc:
            assert exc.code in {"corrupt", "no_text", "empty", "encrypted"}, pdf.name
        else:
            assert result.page_count and result.page_count >= 1
