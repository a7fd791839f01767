"""The PDF route: the text layer first, OCR for the pages it fails, docling's layout model
when every page is good and the model is installed.

Routes recorded on the result: ``pdf-fast`` (text layer only), ``pdf-ocr`` (every page OCRed),
``pdf-mixed`` (some pages OCRed), ``pdf-layout`` (the quality track's engine was kept).
"""

from __future__ import annotations

import time
import unicodedata
from collections import Counter
from dataclasses import replace
from typing import Any

from extractors import ocr
from extractors.base import Attempt, EngineUnavailable, ExtractionResult, ExtractOptions, Page
from extractors.engine import Engine, Request, Route
from extractors.mime import MIME_PDF
from extractors.pdf_text import open_pdf, render_pages
from extractors.pipelines import timed
from extractors.quality import assess, detect_language
from extractors.text_repair import join_hyphenated

# Tesseract language packs that read Latin script; others (ara, heb, chi_sim, ...) read theirs.
_LATIN_OCR = {"eng", "deu", "fra", "spa", "ita", "por", "nld", "dan", "swe", "nor", "fin", "pol",
              "ces", "slk", "hun", "ron", "tur", "cat", "lat", "osd"}


def run(request: Request, route: Route, options: ExtractOptions) -> ExtractionResult:
    """``route.fast`` is the text-layer engine; ``route.quality`` the layout engines."""
    started = time.monotonic()
    (text_layer,) = route.fast
    layer = text_layer.extract(request, options)
    # One language per document: detecting it per page costs more than reading the page.
    layer_text = "\n".join(p.markdown for p in layer.pages)
    language = detect_language(layer_text[:5000])
    for page in layer.pages:
        page.markdown = join_hyphenated(page.markdown, language)
        # (A page left holding only rows written on an earlier page has no text to judge.)
        page.quality = None if _rows_written_before(page) else assess(page.markdown, language).score
    signals = dict(layer.signals)
    signals["language"] = language
    attempts = [Attempt(text_layer.name, round(time.monotonic() - started, 3),
                        pages=[p.number for p in layer.pages if p.number is not None],
                        score=_mean([p.quality or 0.0 for p in layer.pages if not _rows_written_before(p)]))]
    layout = _ready(route.quality, options, signals)
    weak = _weak_pages(layer.pages, layer_text, language, options, signals)
    if layout and not weak:
        kept = _quality_track(layout, request, options, attempts, signals)
        if kept is not None:
            return kept
    pages = layer.pages
    warnings = list(layer.warnings)
    if weak:
        pages = _ocr_weak_pages(request, layer.pages, weak, options, attempts, warnings)
    name = "pdf-fast" if not weak else ("pdf-ocr" if len(weak) == len(layer.pages) else "pdf-mixed")
    from_layer = {p.number for p in pages if p.engine == text_layer.name}
    return ExtractionResult(pages=pages, extractor=ocr.mark_chosen(pages, attempts) or text_layer.name,
                            mime_type=MIME_PDF, tables=[t for t in layer.tables if t.page in from_layer],
                            title=layer.title, page_count=len(pages), warnings=warnings,
                            attempts=attempts, route=name, signals=signals)


def _ready(engines: tuple[Engine, ...], options: ExtractOptions, signals: dict[str, Any]) -> list[Engine]:
    """The quality-track engines that can run here; why not is kept in ``layout_model``."""
    ready = []
    for engine in engines:
        try:
            engine.check(options)
        except EngineUnavailable as exc:
            signals["layout_model"] = str(exc)
        else:
            ready.append(engine)
    return ready


def _weak_pages(pages: list[Page], layer_text: str, language: str | None, options: ExtractOptions,
                signals: dict[str, Any]) -> list[int]:
    """Pages without a text layer, or with one too poor to keep when OCR can read its script."""
    ocr_reads_language = _ocr_covers(layer_text, options.ocr_languages)
    weak = [p.number for p in pages if p.number is not None and not _rows_written_before(p) and (
        _visible(p.markdown) < options.min_chars_per_page
        or ((p.quality or 0) < options.quality_threshold and ocr_reads_language))]
    signals["weak_pages"] = weak
    if not ocr_reads_language:
        # OCR in other languages would replace a poor text layer with worse Latin garbage.
        signals["ocr_skipped"] = f"text is {language}; OCR languages are {options.ocr_languages}"
    return weak


def _rows_written_before(page: Page) -> bool:
    """A page whose body is only the rest of a table begun on an earlier page: its rows are
    in that page's Markdown (see extractors/pdf_table_stitch.py), its own is empty on purpose."""
    return not page.markdown.strip() and any(block.get("kind") == "table_continued" for block in page.blocks)


def _quality_track(engines: list[Engine], request: Request, options: ExtractOptions,
                   attempts: list[Attempt], signals: dict[str, Any]) -> ExtractionResult | None:
    """docling's layout model recovers headings, reading order and tables: its result, when
    it scores well enough."""
    for engine in engines:
        result, attempt, _ = timed(engine, request, options)
        attempts.append(attempt)
        if result is not None and (attempt.score or 0) >= options.quality_threshold:
            attempt.chosen = True
            result.attempts, result.route, result.signals = attempts, "pdf-layout", signals
            return result
    return None


def _ocr_weak_pages(request: Request, pages: list[Page], weak: list[int], options: ExtractOptions,
                    attempts: list[Attempt], warnings: list[str]) -> list[Page]:
    """The weak pages rendered and OCRed; a page's text layer stays if no engine beats it."""
    # A page whose text layer no engine beats keeps it as it was: structure, boxes and all.
    baseline = {p.number: replace(p, quality=p.quality if _visible(p.markdown) >= options.min_chars_per_page
                                  else 0.0)
                for p in pages if p.number is not None and p.number in weak}
    images = render_pages(request.data, weak, options.ocr_dpi, options.password, options.max_image_pixels)
    ocred, ocr_attempts, ocr_warnings = ocr.ocr_pages(images, options, baseline,
                                                      _page_widths(request, weak, options))
    attempts.extend(ocr_attempts)
    warnings.extend(ocr_warnings)
    replaced = {p.number: p for p in ocred}
    return [replaced.get(p.number, p) for p in pages]


def _page_widths(request: Request, numbers: list[int], options: ExtractOptions) -> dict[int, float]:
    """Each page's width in points as displayed (rotation applied), as rendered for OCR: the
    OCR boxes' scale from pixels to points, whatever dpi or down-scaling the render used."""
    with open_pdf(request.data, options.password) as pdf:
        return {number: float(pdf[number - 1].get_size()[0]) for number in numbers}


def _ocr_covers(text: str, ocr_languages: str) -> bool:
    """False when the text layer is mostly in a script the OCR languages cannot read.

    Script, not detected language: a garbled layer's language is a guess, but its letters
    still show whether it was written in Latin script."""
    if not set(ocr_languages.split("+")) <= _LATIN_OCR:
        return True
    # (Each distinct letter named once, with its count.)
    letters = {ch: n for ch, n in Counter(text[:20000]).items() if ch.isalpha()}
    total = sum(letters.values())
    if total < 50:
        return True
    latin = sum(n for ch, n in letters.items() if unicodedata.name(ch, "").startswith("LATIN"))
    return latin / total >= 0.3


def _visible(text: str) -> int:
    return len(text) - sum(n for ch, n in Counter(text).items() if ch.isspace())


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4) if values else 0.0
