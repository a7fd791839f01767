"""Text records (``{"id", "title", "text", "metadata"}``) submitted as JSON."""

from __future__ import annotations

import json

from extractors.base import ExtractionError, ExtractionResult, ExtractOptions, Page
from extractors.engine import Engine, Request
from extractors.mime import MIME_RECORD


class RecordEngine(Engine):
    name = "record"
    accepts = frozenset({MIME_RECORD})

    def extract(self, request: Request, options: ExtractOptions) -> ExtractionResult:
        try:
            record = json.loads(request.data)
        except ValueError as exc:
            raise ExtractionError("corrupt", f"record is not valid JSON: {exc}") from exc
        title = (record.get("title") or "").strip() or None
        text = (record.get("text") or "").strip()
        if not text and not title:
            raise ExtractionError("empty", "record has neither title nor text")
        # The title becomes the top heading so that every chunk carries it in its heading path.
        markdown = f"# {title}\n\n{text}" if title else text
        return ExtractionResult(pages=[Page(markdown)], extractor=self.name, mime_type=MIME_RECORD,
                                title=title)


ENGINE = RecordEngine()
