"""Plain text and Markdown: decoded and passed through (Markdown is already the target format)."""

from __future__ import annotations

from extractors.base import ExtractionError, ExtractionResult, ExtractOptions, Page
from extractors.engine import Engine, Request
from extractors.mime import MIME_MARKDOWN, TEXT_TYPES
from extractors.text_decoding import decode_text


class PlainTextEngine(Engine):
    name = "plaintext"
    accepts = TEXT_TYPES

    def extract(self, request: Request, options: ExtractOptions) -> ExtractionResult:
        text = decode_text(request.data)
        if text is None:
            raise ExtractionError("corrupt", "content is not decodable text")
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        if not text.strip():
            raise ExtractionError("empty", "document contains no text")
        title = None
        if request.mime_type == MIME_MARKDOWN:
            for line in text.splitlines():
                if line.startswith("# "):
                    title = line[2:].strip()
                    break
        name = "markdown" if request.mime_type == MIME_MARKDOWN else self.name
        return ExtractionResult(pages=[Page(text)], extractor=name, mime_type=request.mime_type,
                                title=title)


ENGINE = PlainTextEngine()
