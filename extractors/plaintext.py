"""Plain text and Markdown: decoded and passed through (Markdown is already the target format)."""

from __future__ import annotations

from extractors.base import ExtractionError, ExtractionResult, Page
from extractors.sniff import MIME_MARKDOWN, decode_text


def extract_text(data: bytes, mime_type: str) -> ExtractionResult:
    text = decode_text(data)
    if text is None:
        raise ExtractionError("corrupt", "content is not decodable text")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise ExtractionError("empty", "document contains no text")
    title = None
    if mime_type == MIME_MARKDOWN:
        for line in text.splitlines():
            if line.startswith("# "):
                title = line[2:].strip()
                break
    name = "markdown" if mime_type == MIME_MARKDOWN else "plaintext"
    return ExtractionResult(pages=[Page(text)], extractor=name, mime_type=mime_type, title=title)
