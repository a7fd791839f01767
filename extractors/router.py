"""Choose the engine for a document from its sniffed type."""

from __future__ import annotations

from extractors.base import ExtractionError, ExtractionResult
from extractors.pdf_text import extract_pdf_text
from extractors.plaintext import extract_text
from extractors.record import extract_record
from extractors.sniff import MIME_MARKDOWN, MIME_PDF, MIME_RECORD, MIME_TEXT, sniff


def extract(data: bytes, filename: str | None = None, declared: str | None = None) -> ExtractionResult:
    if not data:
        raise ExtractionError("empty", "document is empty (0 bytes)")
    mime = sniff(data, filename=filename, declared=declared)
    if mime == MIME_RECORD:
        return extract_record(data)
    if mime == MIME_PDF:
        return extract_pdf_text(data)
    if mime in (MIME_TEXT, MIME_MARKDOWN):
        return extract_text(data, mime)
    raise ExtractionError("unsupported", "content type not supported yet: only PDF (with a text "
                          "layer), plain text and Markdown are parsed in this version")
