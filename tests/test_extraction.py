"""Routing, engines, OCR escalation and hostile input, on real files from the corpus."""

import io
import random
import shutil
from dataclasses import replace

import pytest

from bench.fidelity import bag_of_words, cer
from extractors import ExtractionError, extract
from extractors.base import ExtractOptions
from extractors.quality import assess
from extractors.sniff import (
    MIME_DOCX,
    MIME_EML,
    MIME_HTML,
    MIME_MSG,
    MIME_PDF,
    MIME_PPTX,
    MIME_RTF,
    MIME_XLSX,
    parseable,
    sniff,
)
from extractors.text_repair import join_hyphenated
from tests.corpus import CORPUS, needs_corpus

pytestmark = needs_corpus
DOCLING = CORPUS / "docling"
TESSERACT = CORPUS / "tesseract-ocr-test"
OPTIONS = ExtractOptions()


def _extract(path, **overrides):
    options = replace(OPTIONS, **overrides)
    return extract(path.read_bytes(), filename=path.name, options=options)


@pytest.mark.parametrize("relative, mime", [
    ("docling/docx/sources/word_tables.docx", MIME_DOCX),
    ("docling/pptx/sources/powerpoint_sample.pptx", MIME_PPTX),
    ("docling/xlsx/sources/xlsx_01.xlsx", MIME_XLSX),
    ("docling/html/sources/wiki_duck.html", MIME_HTML),
    ("docling/email/sources/eml_simple.eml", MIME_EML),
    ("unstructured/eml/fake-email-utf-16.eml", MIME_EML),
    ("docling/email/sources/msg_simple.msg", MIME_MSG),
    ("unstructured/fake-doc.rtf", MIME_RTF),
    ("docling/tiff/sources/2206.01062.tif", "image/tiff"),
    ("docling/webp/sources/webp-test.webp", "image/webp"),
])
def test_sniffing_reads_bytes_not_names(relative, mime):
    data = (CORPUS / relative).read_bytes()
    assert sniff(data, filename=relative) == mime
    # A misleading name changes nothing.
    assert sniff(data, filename="renamed.pdf") == mime


@pytest.mark.system
def test_audio_without_a_transcriber_fails_naming_what_to_set():
    data = (CORPUS / "audio-jfk" / "jfk.wav").read_bytes()
    assert sniff(data).startswith("audio/")
    assert parseable(data) is not None
    with pytest.raises(ExtractionError) as info:
        extract(data)  # no provider in the default options
    assert info.value.code == "no_transcriber" and "GROQ_API_KEY" in info.value.message


def test_quality_separates_prose_from_garbage():
    prose = (TESSERACT / "phototest.txt").read_text()
    garbled = ("Abdo)! Ayo)! JUS Laine! 4qso gi) 4ypaod! dogSoJ! Ylo auleg WOU! Yo s3 G1d25 LLe Joal "
               "lad dygaood! Quy su! a5: Lgl Gail wuly Ac Guaodl Yuu! cly alo gidg clay Jc")
    assert assess(prose).score > 0.9
    assert assess(garbled).score < OPTIONS.quality_threshold
    assert assess("(cid:12)(cid:7)(cid:44) " * 30).score < OPTIONS.quality_threshold
    assert assess("").score == 0.0
    # Dot leaders of a table of contents are layout, not noise.
    toc = "\n".join(f"Chapter {i} introduction . . . . . . . . . . . . . . {i * 7}" for i in range(30))
    assert assess(toc).score >= OPTIONS.quality_threshold


@pytest.mark.system
def test_docx_through_docling_keeps_text_and_tables():
    source = DOCLING / "docx" / "sources" / "word_tables.docx"
    result = _extract(source)
    assert result.extractor == "docling" and result.route == "docling"
    truth = (DOCLING / "docx" / "groundtruth" / "word_tables.docx.md").read_text()
    recall, precision = bag_of_words(result.markdown, truth)
    assert recall >= 0.95 and precision >= 0.9
    assert result.tables and all(t.cells and t.markdown.startswith("|") for t in result.tables)
    assert result.attempts[0].engine == "docling" and result.attempts[0].chosen


@pytest.mark.system
def test_email_keeps_headers_and_lists_its_attachments():
    result = _extract(CORPUS / "unstructured" / "eml" / "fake-email-attachment.eml")
    assert result.extractor == "unstructured"
    assert "**Subject:**" in result.markdown
    assert "## Attachments" in result.markdown and result.attachments[0].result is not None


@pytest.mark.system
def test_scanned_pdf_is_ocred_page_by_page():
    result = _extract(DOCLING / "ocr" / "sources" / "ocr_test.pdf")
    assert result.route == "pdf-ocr" and result.extractor == "tesseract"
    assert result.signals["weak_pages"] == [1]
    truth = (DOCLING / "ocr" / "groundtruth" / "tesseract" / "full_page" / "ocr_test.tesseract.full_page.md")
    assert cer(result.markdown, truth.read_text()) <= 0.05
    engines = [a.engine for a in result.attempts]
    assert engines[:2] == ["pdfium-text", "tesseract"]


@pytest.mark.system
def test_upside_down_scan_is_turned_before_ocr():
    upright = _extract(DOCLING / "ocr" / "sources" / "ocr_test.pdf").markdown
    result = _extract(DOCLING / "ocr" / "sources" / "ocr_test_rotated_180.pdf")
    assert cer(result.markdown, upright) <= 0.05


def test_tesseract_page_character_error_rate():
    result = _extract(TESSERACT / "phototest.tif")
    assert result.route == "ocr"
    assert cer(result.markdown, (TESSERACT / "phototest.txt").read_text()) <= 0.05


def test_missing_engines_fall_through_and_are_recorded(tmp_path, monkeypatch):
    # No EasyOCR models here and no tesseract on PATH: RapidOCR reads the page.
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    monkeypatch.setenv("PATH", str(fake_bin))
    result = _extract(TESSERACT / "phototest.tif", ocr_engines=("easyocr", "tesseract", "rapidocr"))
    by_engine = {a.engine: a for a in result.attempts}
    assert by_engine["easyocr"].error_code == "engine_unavailable"
    assert "EASYOCR_MODEL_DIR" in by_engine["easyocr"].error
    assert by_engine["tesseract"].error_code == "engine_unavailable"
    assert result.extractor == "rapidocr" and by_engine["rapidocr"].chosen
    assert cer(result.markdown, (TESSERACT / "phototest.txt").read_text()) <= 0.05


@pytest.mark.system
def test_easyocr_with_incomplete_model_dir_reports_missing_files(tmp_path):
    result = _extract(TESSERACT / "phototest.tif", ocr_engines=("easyocr", "tesseract"),
                      easyocr_model_dir=str(tmp_path))
    easy = next(a for a in result.attempts if a.engine == "easyocr")
    assert easy.error_code == "engine_unavailable" and "missing" in easy.error
    assert result.extractor == "tesseract"


def test_docling_layout_model_absence_is_recorded(tmp_path):
    result = _extract(DOCLING / "pdf" / "sources" / "multi_page.pdf", docling_artifacts_path=str(tmp_path))
    assert result.route == "pdf-fast" and result.extractor == "pdfium-text"
    assert "docling-layout-heron" in result.signals["layout_model"]
    assert result.signals["page_count"] == result.page_count == 5


def test_no_ocr_engine_at_all_fails_the_scan_with_a_code():
    with pytest.raises(ExtractionError) as info:
        _extract(DOCLING / "ocr" / "sources" / "ocr_test.pdf", ocr_engines=())
    assert info.value.code == "no_text"


@pytest.mark.parametrize("relative, password, phrase", [
    ("docling/pdf_password/sources/2206.01062_pg3.pdf", "1234", "DocLayNet"),
    ("unstructured/pdf/password.pdf", "password", "File with password"),
])
def test_encrypted_pdf_needs_its_password(relative, password, phrase):
    path = CORPUS / relative
    with pytest.raises(ExtractionError) as info:
        _extract(path)
    assert info.value.code == "encrypted"
    with pytest.raises(ExtractionError) as info:
        _extract(path, password="wrong")
    assert info.value.code == "encrypted" and "wrong" in info.value.message
    assert phrase in _extract(path, password=password).markdown


def test_page_limit():
    with pytest.raises(ExtractionError) as info:
        _extract(DOCLING / "pdf" / "sources" / "multi_page.pdf", max_pages=2)
    assert info.value.code == "too_large" and "5 pages" in info.value.message


def test_decompression_bomb_is_refused():
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("1", (12_000, 12_000)).save(buffer, format="PNG")  # 144 Mpx in a few KB
    assert len(buffer.getvalue()) < 100_000
    with pytest.raises(ExtractionError) as info:
        extract(buffer.getvalue(), options=replace(OPTIONS, max_image_pixels=50_000_000))
    assert info.value.code == "too_large"


@pytest.mark.parametrize("mutate, codes", [
    (lambda b: b[: len(b) // 3], {"corrupt", "no_text"}),            # truncated
    (lambda b: b[:2000] + random.Random(7).randbytes(5000) + b[-1000:], {"corrupt", "no_text"}),  # fuzzed
])
def test_truncated_and_fuzzed_office_files_fail_cleanly(mutate, codes):
    data = mutate((DOCLING / "docx" / "sources" / "word_tables.docx").read_bytes())
    with pytest.raises(ExtractionError) as info:
        extract(data, filename="x.docx")
    assert info.value.code in codes


def test_legacy_word_without_libreoffice_is_unsupported_with_the_reason():
    if shutil.which("soffice"):
        pytest.skip("LibreOffice is installed here")
    with pytest.raises(ExtractionError) as info:
        _extract(CORPUS / "unstructured" / "fake.doc")
    assert info.value.code == "unsupported" and "LibreOffice" in info.value.message


def test_born_digital_pdf_recall_against_ground_truth():
    result = _extract(DOCLING / "pdf" / "sources" / "multi_page.pdf")
    truth = (DOCLING / "pdf" / "groundtruth" / "multi_page.md").read_text()
    recall, _ = bag_of_words(result.markdown, truth)
    assert recall >= 0.95
    assert sniff((DOCLING / "pdf" / "sources" / "multi_page.pdf").read_bytes()) == MIME_PDF


def test_arabic_ligatures_are_put_back_in_logical_order():
    # PDFium writes a lam-alef ligature as alef-then-lam; "productivity" and "problems" must
    # come out spelled as in the ground truth, and Latin words apart from Arabic ones.
    result = _extract(DOCLING / "pdf" / "sources" / "right_to_left_01.pdf")
    assert "الإنتاجية" in result.markdown and "للمشكلات" in result.markdown
    assert "اإلنتاجية" not in result.markdown
    assert "Python من" in result.markdown
    truth = (DOCLING / "pdf" / "groundtruth" / "right_to_left_01.md").read_text()
    assert bag_of_words(result.markdown, truth)[0] >= 0.95


def test_words_hyphenated_across_lines_are_joined():
    result = _extract(DOCLING / "pdf" / "sources" / "table_mislabeled_as_picture.pdf")
    assert "appointments" in result.markdown and "appoint-" not in result.markdown
    assert join_hyphenated("the appoint-\nments of well-\nknown state-\nof-the-art zzqv-\nxxjq") == \
        "the appointments of well-known state-of-the-art zzqv-\nxxjq"


def test_a_word_broken_by_typesetting_is_joined_though_its_pieces_are_common_words():
    """wordfreq rates a hyphenated pair by its parts ("con-texts" above "contexts"); a line-end
    hyphen mostly breaks a word, so the compound wins only when it is far the more frequent;
    and the joined word's line break does not land before the punctuation that follows it."""
    assert join_hyphenated("pairs of question and con-\ntexts. Dense methods") == \
        "pairs of question and contexts. Dense methods"
    assert join_hyphenated("with-\nout additional pretraining; exception-\nally strong") == \
        "without additional pretraining; exceptionally strong"
    assert join_hyphenated("a long-\nterm, real-\ntime and well-\nknown plan") == \
        "a long-term, real-time and well-known plan"


@pytest.mark.system
def test_slide_comments_and_sheet_names_are_kept():
    slides = _extract(DOCLING / "pptx" / "sources" / "powerpoint_comments.pptx")
    first = next(p for p in slides.pages if p.number == 1).markdown
    assert ("[author: John Reviewer (JR), time: 2026-01-01T00:00:00]: "
            "This is a sample reviewer comment") in first
    assert "I need to try this out!" in next(p for p in slides.pages if p.number == 3).markdown
    sheets = _extract(DOCLING / "xlsx" / "sources" / "xlsx_03_chartsheet.xlsx")
    assert [p.markdown.splitlines()[0] for p in sheets.pages] == ["## Duck Observations", "## Duck Chart"]


def test_poor_text_layer_in_a_script_ocr_cannot_read_is_kept():
    # The Arabic text layer is imperfect, but English OCR would only produce Latin garbage.
    result = _extract(DOCLING / "pdf" / "sources" / "right_to_left_02.pdf")
    assert result.route == "pdf-fast" and "OCR languages" in result.signals["ocr_skipped"]
    truth = (DOCLING / "pdf" / "groundtruth" / "right_to_left_02.md").read_text()
    assert bag_of_words(result.markdown, truth)[0] >= 0.8


@pytest.mark.system
def test_garbled_text_layer_is_replaced_by_ocr():
    # A PDF whose text layer is glyph garbage (as broken font encodings give) over the
    # scanned image of a page of real text.
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c
    from PIL import Image

    page_image = Image.open(TESSERACT / "phototest.tif").convert("RGB")
    pdf = pdfium.PdfDocument.new()
    width, height = page_image.size[0] * 72 / 200, page_image.size[1] * 72 / 200
    page = pdf.new_page(width, height)
    image = pdfium.PdfImage.new(pdf)
    image.set_bitmap(pdfium.PdfBitmap.from_pil(page_image))
    image.set_matrix(pdfium.PdfMatrix().scale(width, height))
    page.insert_obj(image)
    garbage = "Abdo)! Ayo)! JUS Laine! 4qso gi) 4ypaod! dogSoJ! Ylo auleg WOU! Yo s3 G1d25 LLe Joal "
    for line in range(12):
        text = pdfium_c.FPDFPageObj_NewTextObj(pdf.raw, b"Helvetica", ctypes.c_float(9))
        encoded = (garbage + "\0").encode("utf-16-le")
        buffer16 = ctypes.create_string_buffer(encoded, len(encoded))
        pdfium_c.FPDFText_SetText(text, ctypes.cast(buffer16, ctypes.POINTER(ctypes.c_ushort)))
        # Invisible, as the text layers of scanned PDFs are.
        pdfium_c.FPDFTextObj_SetTextRenderMode(text, pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE)
        pdfium_c.FPDFPageObj_Transform(text, 1, 0, 0, 1, 10, height - 20 - line * 12)
        pdfium_c.FPDFPage_InsertObject(page.raw, text)
    page.gen_content()
    buffer = io.BytesIO()
    pdf.save(buffer)
    scanned = buffer.getvalue()
    layer = extract(scanned, options=replace(OPTIONS, ocr_engines=()))
    assert "Ayo" in layer.markdown and layer.quality < OPTIONS.quality_threshold
    result = extract(scanned, options=OPTIONS)
    assert result.route == "pdf-ocr" and result.pages[0].engine == "tesseract"
    assert "Ayo" not in result.markdown
    assert cer(result.markdown, (TESSERACT / "phototest.txt").read_text()) <= 0.05


@pytest.mark.system
def test_attachments_go_through_the_router_each_as_a_document():
    mail = _extract(CORPUS / "unstructured" / "fake-email-attachment.msg")
    assert "## Attachments\n\n- fake-attachment.txt" in mail.markdown
    assert mail.signals["attachments"][0]["status"] == "completed"
    attachment = mail.attachments[0]
    assert attachment.name == "fake-attachment.txt" and attachment.result is not None
    assert attachment.result.markdown.strip() and attachment.result.markdown not in mail.markdown
    # An image attached to a mail is OCRed like any image.
    with_image = _extract(CORPUS / "unstructured" / "eml" / "email-with-image.eml")
    attached = with_image.signals["attachments"][0]
    assert attached["name"] == "unstructured_logo.png" and attached["extractor"] == "tesseract"
    # A digest's messages are documents inside the digest.
    digest = _extract(CORPUS / "unstructured" / "eml" / "mime-multipart-digest.eml")
    assert len(digest.signals["attachments"]) >= 2


def test_encrypted_mail_is_reported_as_encrypted():
    with pytest.raises(ExtractionError) as info:
        _extract(CORPUS / "unstructured" / "eml" / "fake-encrypted.eml")
    assert info.value.code == "encrypted"
