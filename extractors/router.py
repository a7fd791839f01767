"""Routing: the sniffed type picks the engines, complexity signals pick the track, and the
quality score decides when to escalate.  Every engine run is recorded as an Attempt."""

from __future__ import annotations

import io
import time
from collections.abc import Callable

from extractors import docling, ocr, unstructured
from extractors.attachments import is_encrypted_mail, list_attachments
from extractors.base import (
    Attachment,
    Attempt,
    EngineUnavailable,
    ExtractionError,
    ExtractionResult,
    ExtractOptions,
    Page,
)
from extractors.images import open_frames
from extractors.pdf_text import read_text_layer, render_pages
from extractors.plaintext import extract_text
from extractors.quality import assess, detect_language
from extractors.record import extract_record
from extractors.sniff import (
    IMAGE_TYPES,
    LONG_TAIL_TYPES,
    MIME_EML,
    MIME_ENCRYPTED_OFFICE,
    MIME_PDF,
    MIME_RECORD,
    PARSEABLE,
    TEXT_TYPES,
    decode_text,
    sniff,
)
from extractors.text_repair import join_hyphenated

Engine = Callable[[], ExtractionResult]
# Attachments inside attachments inside mail: deep enough for forwards, bounded for bombs.
MAX_DEPTH = 3


def _timed(name: str, run: Engine) -> tuple[ExtractionResult | None, Attempt, Exception | None]:
    started = time.monotonic()
    try:
        result = run()
    except (ExtractionError, EngineUnavailable) as exc:
        code = exc.code if isinstance(exc, ExtractionError) else "engine_unavailable"
        return None, Attempt(name, round(time.monotonic() - started, 3), error_code=code,
                             error=str(exc)), exc
    except Exception as exc:  # an engine bug fails over to the next engine, recorded
        return None, Attempt(name, round(time.monotonic() - started, 3), error_code="engine_error",
                             error=f"{type(exc).__name__}: {exc}"), exc
    score = assess(result.markdown).score
    return result, Attempt(name, round(time.monotonic() - started, 3), score=score), None


def _chain(engines: list[tuple[str, Engine]], options: ExtractOptions, route: str) -> ExtractionResult:
    """Run engines in order until one yields text of acceptable quality; keep the best."""
    attempts: list[Attempt] = []
    best: tuple[float, ExtractionResult, Attempt] | None = None
    last_error: Exception | None = None
    for name, run in engines:
        result, attempt, error = _timed(name, run)
        attempts.append(attempt)
        if result is None:
            last_error = error
            continue
        score = attempt.score or 0.0
        if not result.markdown.strip():
            attempt.error_code, attempt.error = "no_text", f"{name} returned no text"
            continue
        if best is None or score > best[0]:
            best = (score, result, attempt)
        if score >= options.quality_threshold:
            break
    if best is None:
        if isinstance(last_error, ExtractionError) and last_error.code != "no_text":
            raise ExtractionError(last_error.code, last_error.message, attempts)
        if isinstance(last_error, EngineUnavailable):
            raise ExtractionError("unsupported", str(last_error), attempts)
        raise ExtractionError("no_text", "no engine extracted any text from the document", attempts)
    _, result, attempt = best
    attempt.chosen = True
    result.attempts = attempts
    result.route = route
    return result


def _pdf(data: bytes, options: ExtractOptions) -> ExtractionResult:
    started = time.monotonic()
    layer = read_text_layer(data, options.password, options.max_pages)
    # One language per document: detecting it per page costs more than reading the page.
    layer_text = "\n".join(p.markdown for p in layer.pages)
    language = detect_language(layer_text[:5000])
    for page in layer.pages:
        page.markdown = join_hyphenated(page.markdown, language)
        page.quality = assess(page.markdown, language).score
    signals = dict(layer.signals)
    signals["language"] = language
    attempts = [Attempt("pdfium-text", round(time.monotonic() - started, 3),
                        pages=[p.number for p in layer.pages if p.number is not None],
                        score=_mean([p.quality or 0.0 for p in layer.pages]))]
    try:
        docling.check_pdf_models(options.docling_artifacts_path)
        layout_ready = True
    except EngineUnavailable as exc:
        layout_ready = False
        signals["layout_model"] = str(exc)

    ocr_reads_language = _ocr_covers(layer_text, options.ocr_languages)
    weak = [p.number for p in layer.pages if p.number is not None and (
        _visible(p.markdown) < options.min_chars_per_page
        or ((p.quality or 0) < options.quality_threshold and ocr_reads_language))]
    signals["weak_pages"] = weak
    if not ocr_reads_language:
        # OCR in other languages would replace a poor text layer with worse Latin garbage.
        signals["ocr_skipped"] = f"text is {language}; OCR languages are {options.ocr_languages}"
    warnings = list(layer.warnings)
    if layout_ready and not weak:
        # Quality track: docling's layout model recovers headings, reading order and tables.
        result, attempt, _ = _timed(docling.NAME, lambda: docling.convert(
            data, MIME_PDF, artifacts_path=options.docling_artifacts_path))
        attempts.append(attempt)
        if result is not None and (attempt.score or 0) >= options.quality_threshold:
            attempt.chosen = True
            result.attempts, result.route, result.signals = attempts, "pdf-layout", signals
            return result
    pages = layer.pages
    if weak:
        baseline = {p.number: Page(p.markdown, p.number, p.engine,
                                   p.quality if _visible(p.markdown) >= options.min_chars_per_page else 0.0)
                    for p in layer.pages if p.number in weak}
        images = render_pages(data, weak, options.ocr_dpi, options.password, options.max_image_pixels)
        ocred, ocr_attempts, ocr_warnings = ocr.ocr_pages(images, options, baseline)
        attempts.extend(ocr_attempts)
        warnings.extend(ocr_warnings)
        replaced = {p.number: p for p in ocred}
        pages = [replaced.get(p.number, p) for p in layer.pages]
    route = "pdf-fast" if not weak else ("pdf-ocr" if len(weak) == len(layer.pages) else "pdf-mixed")
    return ExtractionResult(pages=pages, extractor=_mark_chosen(pages, attempts) or "pdfium-text",
                            mime_type=MIME_PDF,
                            title=layer.title, page_count=len(pages), warnings=warnings,
                            attempts=attempts, route=route, signals=signals)


def _image(data: bytes, mime: str, options: ExtractOptions) -> ExtractionResult:
    pages, attempts, warnings = ocr.ocr_pages(open_frames(data, options.max_image_pixels), options)
    return ExtractionResult(pages=pages, extractor=_mark_chosen(pages, attempts) or "ocr", mime_type=mime,
                            page_count=len(pages), warnings=warnings, attempts=attempts, route="ocr",
                            signals={"frames": len(pages)})


def _mark_chosen(pages: list[Page], attempts: list[Attempt]) -> str:
    """Flag the attempts whose text was kept; their engines, joined, name the extractor."""
    engines = sorted({p.engine for p in pages if p.engine and p.markdown})
    for attempt in attempts:
        attempt.chosen = attempt.engine in engines
    return "+".join(engines)


def _decrypt_office(data: bytes, options: ExtractOptions) -> bytes:
    if not options.password:
        raise ExtractionError("encrypted", "Office file is password-protected; pass options.password")
    import msoffcrypto

    try:
        office = msoffcrypto.OfficeFile(io.BytesIO(data))
        office.load_key(password=options.password)
        plain = io.BytesIO()
        office.decrypt(plain)
    except Exception as exc:
        raise ExtractionError("encrypted", f"Office file could not be decrypted: {exc}") from exc
    return plain.getvalue()


# Tesseract language packs that read Latin script; others (ara, heb, chi_sim, ...) read theirs.
_LATIN_OCR = {"eng", "deu", "fra", "spa", "ita", "por", "nld", "dan", "swe", "nor", "fin", "pol",
              "ces", "slk", "hun", "ron", "tur", "cat", "lat", "osd"}


def _ocr_covers(text: str, ocr_languages: str) -> bool:
    """False when the text layer is mostly in a script the OCR languages cannot read.

    Script, not detected language: a garbled layer's language is a guess, but its letters
    still show whether it was written in Latin script."""
    if not set(ocr_languages.split("+")) <= _LATIN_OCR:
        return True
    import unicodedata

    letters = [ch for ch in text[:20000] if ch.isalpha()]
    if len(letters) < 50:
        return True
    latin = sum(1 for ch in letters if unicodedata.name(ch, "").startswith("LATIN"))
    return latin / len(letters) >= 0.3


def _visible(text: str) -> int:
    return sum(1 for ch in text if not ch.isspace())


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4) if values else 0.0


def _as_utf8(data: bytes) -> bytes:
    """Text formats re-encoded as UTF-8 (engines mis-read UTF-16 mail and XML)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = decode_text(data)
        if text is not None:
            return text.encode("utf-8")
    return data


def _extract_attachments(result: ExtractionResult, attachments: list[tuple[str, bytes]],
                         options: ExtractOptions, depth: int) -> None:
    """Each attachment through the router, kept as a document of its own; the message lists
    their names (so that searching for a file name finds the message too)."""
    report = []
    for name, data in attachments:
        try:
            child = extract(data, filename=name, options=options, depth=depth + 1)
        except ExtractionError as exc:
            report.append({"name": name, "status": "failed", "error_code": exc.code})
            result.attachments.append(Attachment(name, data, error_code=exc.code, error_message=exc.message))
            continue
        report.append({"name": name, "status": "completed", "extractor": child.extractor,
                       "quality": child.quality})
        result.attachments.append(Attachment(name, data, result=child))
    if report:
        result.signals["attachments"] = report
        listing = "\n".join(f"- {item['name']}" for item in report)
        result.pages.append(Page(f"## Attachments\n\n{listing}", engine=result.extractor))


def extract(data: bytes, filename: str | None = None, declared: str | None = None,
            options: ExtractOptions | None = None, depth: int = 0) -> ExtractionResult:
    options = options or ExtractOptions()
    if not data:
        raise ExtractionError("empty", "document is empty (0 bytes)")
    mime = sniff(data, filename=filename, declared=declared)
    if mime == MIME_ENCRYPTED_OFFICE:
        data = _decrypt_office(data, options)
        mime = sniff(data, filename=filename, declared=declared)
    if mime is None or mime not in PARSEABLE:
        kind = mime or "unrecognised binary content"
        hint = " (audio and video need a transcription provider; none is configured)" \
            if mime and mime.startswith(("audio/", "video/")) else ""
        raise ExtractionError("unsupported", f"cannot parse {kind}{hint}")
    if mime == MIME_RECORD:
        result = extract_record(data)
        result.route = "record"
    elif mime in TEXT_TYPES:
        result = extract_text(data, mime)
        result.route = "text"
    elif mime == MIME_PDF:
        result = _pdf(data, options)
    elif mime in IMAGE_TYPES:
        result = _image(data, mime, options)
    elif mime in docling.SUPPORTED:
        result = _chain([(docling.NAME, lambda: docling.convert(data, mime, filename)),
                         (unstructured.NAME, lambda: unstructured.partition(data, mime, filename))],
                        options, route="docling")
    elif mime in LONG_TAIL_TYPES:
        payload = _as_utf8(data)
        if mime == MIME_EML and is_encrypted_mail(payload):
            raise ExtractionError("encrypted", "the e-mail is encrypted (PGP/MIME or S/MIME)")
        attachments = list_attachments(payload, mime) if depth < MAX_DEPTH else []
        try:
            result = _chain([(unstructured.NAME, lambda: unstructured.partition(payload, mime, filename))],
                            options, route="unstructured")
        except ExtractionError:
            if not attachments:
                raise
            # A mail with no body text is still worth its attachments.
            result = ExtractionResult(pages=[], extractor=unstructured.NAME, mime_type=mime,
                                      route="unstructured")
        _extract_attachments(result, attachments, options, depth)
    else:  # PARSEABLE and the branches above must agree
        raise ExtractionError("unsupported", f"no engine is configured for {mime}")
    return _finish(result, mime)


def _finish(result: ExtractionResult, mime: str) -> ExtractionResult:
    text = result.markdown
    if not text.strip():
        raise ExtractionError("no_text", f"no text could be extracted from this {mime} "
                              f"({'; '.join(result.warnings) or 'no engine found any'})", result.attempts)
    # The PDF path already detected the document's language: no second langdetect run.
    quality = assess(text, result.signals.get("language"))
    result.quality = quality.score
    result.language = quality.language
    result.mime_type = mime
    result.signals.setdefault("chars", quality.chars)
    if result.page_count is None and any(p.number for p in result.pages):
        result.page_count = len(result.pages)
    return result
