"""The text layer of born-digital PDFs, page by page, with pypdfium2 (PDFium)."""

from __future__ import annotations

import pypdfium2 as pdfium

from extractors.base import ExtractionError, ExtractionResult, Page
from extractors.sniff import MIME_PDF

# PDFium's error text for a password-protected file.
_PASSWORD_ERRORS = ("password", "security")


def extract_pdf_text(data: bytes) -> ExtractionResult:
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        message = str(exc)
        if any(word in message.lower() for word in _PASSWORD_ERRORS):
            raise ExtractionError("encrypted", f"PDF is password-protected: {message}") from exc
        raise ExtractionError("corrupt", f"PDF cannot be opened: {message}") from exc
    try:
        pages: list[Page] = []
        warnings: list[str] = []
        for index in range(len(pdf)):
            try:
                page = pdf[index]
                textpage = page.get_textpage()
                text = textpage.get_text_bounded()
            except pdfium.PdfiumError as exc:
                warnings.append(f"page {index + 1}: text layer unreadable ({exc})")
                text = ""
            text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
            pages.append(Page(text.strip(), number=index + 1))
        title = None
        try:
            title = (pdf.get_metadata_value("Title") or "").strip() or None
        except (pdfium.PdfiumError, KeyError):
            pass
    finally:
        pdf.close()
    if not pages:
        raise ExtractionError("empty", "PDF has no pages")
    if not any(p.markdown for p in pages):
        raise ExtractionError("no_text_layer", f"PDF has {len(pages)} page(s) but no text layer "
                              "(a scan?); OCR is not configured in this build")
    empty = [p.number for p in pages if not p.markdown]
    if empty:
        warnings.append(f"pages without text layer: {empty}")
    return ExtractionResult(pages=pages, extractor="pdfium-text", mime_type=MIME_PDF, title=title,
                            page_count=len(pages), warnings=warnings)
