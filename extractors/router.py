"""Routing: the sniffed type picks a row of the routing table (:mod:`extractors.routes`), the
row's pipeline runs its engines, and the quality score decides when to escalate.  Every
engine run is recorded as an Attempt; attachments a pipeline lists are read here, each
through the router as a document of its own."""

from __future__ import annotations

from typing import Any

from extractors.base import ExtractionError, ExtractionResult, ExtractOptions, Page
from extractors.engine import Request, Route
from extractors.quality import assess
from extractors.routes import route_for
from extractors.sniff import sniff
from extractors.zip_limits import ZipLimits, check_zip_package


def extract(data: bytes, filename: str | None = None, declared: str | None = None,
            options: ExtractOptions | None = None, depth: int = 0) -> ExtractionResult:
    """The Markdown and report of one document; ExtractionError (with a code) when it fails."""
    options = options or ExtractOptions()
    if not data:
        raise ExtractionError("empty", "document is empty (0 bytes)")
    # Before sniffing too: telling DOCX from XLSX already opens the package.
    check_zip_package(data, options.zip_limits or ZipLimits())
    mime = sniff(data, filename=filename, declared=declared)
    route = route_for(mime)
    if route is not None and route.unwrap is not None:
        data = route.unwrap(data, options)
        mime = sniff(data, filename=filename, declared=declared)
        route = route_for(mime)
    if mime is None or route is None:
        kind = mime or "unrecognised binary content"
        hint = " (audio and video are read as MP3, M4A, WAV, FLAC, Ogg/Opus, MP4, MOV, WebM or MKV)" \
            if mime and mime.startswith(("audio/", "video/")) else ""
        raise ExtractionError("unsupported", f"cannot parse {kind}{hint}")
    result = _run(route, Request(data, mime, filename, depth), options)
    _read_attachments(result, options, depth)
    return _finish(result, mime)


def _run(route: Route, request: Request, options: ExtractOptions) -> ExtractionResult:
    if route.pipeline is None:  # a container inside a container of its own kind: opened once only
        raise ExtractionError("unsupported", f"no engine is configured for {request.mime_type}")
    return route.pipeline(request, route, options)


def _read_attachments(result: ExtractionResult, options: ExtractOptions, depth: int) -> None:
    """Each attachment the pipeline listed through the router, kept as a document of its own;
    the message lists their names (so that searching for a file name finds the message too)."""
    report: list[dict[str, Any]] = []
    for attachment in result.attachments:
        try:
            child = extract(attachment.data, filename=attachment.name, options=options, depth=depth + 1)
        except ExtractionError as exc:
            report.append({"name": attachment.name, "status": "failed", "error_code": exc.code})
            attachment.error_code, attachment.error_message = exc.code, exc.message
            continue
        report.append({"name": attachment.name, "status": "completed", "extractor": child.extractor,
                       "quality": child.quality})
        attachment.result = child
    if report:
        result.signals["attachments"] = report
        listing = "\n".join(f"- {item['name']}" for item in report)
        result.pages.append(Page(f"## Attachments\n\n{listing}", engine=result.extractor))


def _finish(result: ExtractionResult, mime: str) -> ExtractionResult:
    text = result.markdown
    if not text.strip():
        raise ExtractionError("no_text", f"no text could be extracted from this {mime} "
                              f"({'; '.join(result.warnings) or 'no engine found any'})", result.attempts)
    # The PDF path already detected the document's language: no second detection.
    quality = assess(text, result.signals.get("language"))
    result.quality = quality.score
    result.language = quality.language
    result.mime_type = mime
    result.signals.setdefault("chars", quality.chars)
    if result.page_count is None and any(p.number for p in result.pages):
        result.page_count = len(result.pages)
    return result
