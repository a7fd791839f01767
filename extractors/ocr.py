"""OCR escalation: each page goes through the configured engines in order until one reads it
well enough; the best-scoring text per page is kept and every run is recorded.

Pages whose kept read came with word boxes (Tesseract's) then go through the PDF structure
stage (:func:`extractors.pdf_structure.structure`) together, as a text layer's pages do:
running headers are found by recurring on several pages, and the body size is the whole
document's.  Their Markdown becomes structured and they get blocks and running lines; the
quality score stays that of the plain text.  Block boxes are in PDF points of the page as
displayed for rendered PDF pages (``page_widths``), in pixels for standalone images.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from extractors import easyocr, mistral, rapidocr, tesseract
from extractors.base import Attempt, EngineUnavailable, ExtractOptions, Page
from extractors.engine import OcrEngine
from extractors.ocr_layout import reading_order_kept
from extractors.pdf_structure import structure
from extractors.pdf_text import MAX_BLOCKS_PER_PAGE
from extractors.quality import Quality, assess

if TYPE_CHECKING:
    from PIL.Image import Image

    from extractors.pdf_words import PageLayout

# Structured Markdown is kept when it follows at least this share of the OCR engine's own
# line order (see ocr_layout.reading_order_kept); below, the page keeps the plain text.
MIN_READING_ORDER_KEPT = 0.9
# Pages structured together: enough for running lines to recur, few enough that a
# 2,000-page scan does not hold every page's words until its end.
STRUCTURE_WINDOW = 50

# Every OCR engine by name; ExtractOptions.ocr_engines picks which run, in which order.
ENGINES: dict[str, OcrEngine] = {engine.name: engine for engine in (
    tesseract.ENGINE, rapidocr.ENGINE, easyocr.ENGINE, mistral.ENGINE)}


class _Recorder:
    """One Attempt per engine, accumulating the pages it ran on."""

    def __init__(self) -> None:
        self.attempts: dict[str, Attempt] = {}
        self._scores: dict[str, list[float]] = {}

    def ran(self, engine: str, page: int, seconds: float, score: float) -> None:
        attempt = self.attempts.setdefault(engine, Attempt(engine=engine, seconds=0.0, pages=[]))
        attempt.seconds = round(attempt.seconds + seconds, 3)
        assert attempt.pages is not None
        attempt.pages.append(page)
        scores = self._scores.setdefault(engine, [])
        scores.append(score)
        attempt.score = round(sum(scores) / len(scores), 4)

    def failed(self, engine: str, page: int, code: str, message: str) -> None:
        attempt = self.attempts.setdefault(engine, Attempt(engine=engine, seconds=0.0, pages=[]))
        attempt.error_code, attempt.error = code, message
        if attempt.pages is not None and page not in attempt.pages:
            attempt.pages.append(page)


@dataclass
class _Read:
    """One engine's read of a page image."""

    text: str
    quality: Quality
    seconds: float
    # Its words with boxes, on the image as read (turned by ``angle`` degrees clockwise).
    layout: PageLayout | None = None
    angle: int = 0


def _read(engine: OcrEngine, image: Image, options: ExtractOptions, number: int,
          points_per_pixel: float) -> _Read:
    started = time.monotonic()
    text, layout = engine.recognise_layout(image, options, number, points_per_pixel)
    text = text.strip()
    return _Read(text, assess(text), time.monotonic() - started, layout)


def _read_upright(engine: OcrEngine, image: Image, options: ExtractOptions, number: int,
                  points_per_pixel: float, warnings: list[str]) -> _Read:
    """One engine's read of a page; a poor read is retried turned upright when the engine can
    tell the page's orientation (a poor read of a scan is most often a sideways page)."""
    read = _read(engine, image, options, number, points_per_pixel)
    if read.quality.score < options.quality_threshold:
        angle = engine.rotation(image)
        if angle:
            turned = _read(engine, image.rotate(-angle, expand=True), options, number, points_per_pixel)
            turned.seconds += read.seconds
            turned.angle = angle
            if turned.quality.score > read.quality.score:
                warnings.append(f"page {number}: rotated {angle} degrees for OCR")
                return turned
            read.seconds = turned.seconds
    return read


def ocr_pages(images: Iterable[tuple[int, Image]], options: ExtractOptions,
              baseline: dict[int, Page] | None = None,
              page_widths: dict[int, float] | None = None) -> tuple[list[Page], list[Attempt], list[str]]:
    """OCR each ``(number, image)``; a page of ``baseline`` (its text layer) is kept if no
    engine beats it.  ``page_widths`` holds the width in points of each page as displayed
    when the images are rendered PDF pages: block boxes are then in points, else in
    pixels.  Returns pages, attempts and warnings."""
    unavailable: set[str] = set()
    recorder = _Recorder()
    warnings: list[str] = []
    pages: list[Page] = []
    layouts: dict[int, tuple[PageLayout, int, Page]] = {}
    for number, image in images:
        width = (page_widths or {}).get(number)
        points_per_pixel = width / image.width if width and image.width else 1.0
        best = (baseline or {}).get(number)
        best_read: _Read | None = None
        for name in options.ocr_engines:
            if best is not None and (best.quality or 0.0) >= options.quality_threshold:
                break
            if options.past_soft_deadline():
                warnings.append(f"page {number}: soft time limit reached, OCR escalation stopped")
                break
            engine = ENGINES.get(name)
            if engine is None or name in unavailable:
                continue
            try:
                engine.check(options)
                read = _read_upright(engine, image, options, number, points_per_pixel, warnings)
            except EngineUnavailable as exc:
                unavailable.add(name)
                recorder.failed(name, number, "engine_unavailable", str(exc))
                continue
            except Exception as exc:  # one engine's crash on one page must not end the document
                recorder.failed(name, number, "engine_error", f"{type(exc).__name__}: {exc}")
                continue
            recorder.ran(name, number, read.seconds, read.quality.score)
            if best is None or read.quality.score > (best.quality or 0.0):
                best = Page(read.text, number=number, engine=name, quality=read.quality.score)
                best_read = read
        page = best if best is not None else Page("", number=number, engine=None, quality=0.0)
        pages.append(page)
        if best_read is not None and best_read.layout is not None and best_read.text:
            layouts[number] = (best_read.layout, best_read.angle, page)
        if len(layouts) >= STRUCTURE_WINDOW:
            _structure(layouts, warnings)
            layouts = {}
    if layouts:
        _structure(layouts, warnings)
    return pages, list(recorder.attempts.values()), warnings


def _structure(layouts: dict[int, tuple[PageLayout, int, Page]], warnings: list[str]) -> None:
    """The structure stage over pages read with word boxes, together (running lines recur
    across pages; the body size is the document's); a failure keeps the plain text."""
    try:
        # (Tables are not joined across pages here: a page whose structure is not kept
        # would keep its OCR text beside rows already written on the page before.)
        found = structure([layout for layout, _, _ in layouts.values()], join_tables=False)
    except Exception as exc:  # a structure bug must not cost the pages their text
        warnings.append(f"OCR structure stage failed, plain text kept ({type(exc).__name__}: {exc})")
        return
    for (layout, angle, page), page_structure in zip(layouts.values(), found, strict=True):
        if not page_structure.blocks:
            continue
        kept = reading_order_kept(layout, page_structure)
        if kept < MIN_READING_ORDER_KEPT:
            # Magazine layouts (narrow gutters, captions between columns): the structure
            # stage reads across what the OCR engine's page segmentation kept apart.
            warnings.append(f"page {page.number}: OCR structure not kept, it follows {kept:.0%} "
                            "of the OCR line order; plain text kept")
            continue
        page.running = page_structure.running
        page.blocks = []
        for block in page_structure.blocks[:MAX_BLOCKS_PER_PAGE]:
            block.box = _displayed(block.box, angle, layout.width, layout.height)
            page.blocks.append(block.report())
        turned = angle in (90, 270)
        page.size = (layout.height, layout.width) if turned else (layout.width, layout.height)
        if page_structure.markdown.strip():
            page.markdown = page_structure.markdown


def _displayed(box: tuple[float, float, float, float], angle: int, width: float,
               height: float) -> tuple[float, float, float, float]:
    """A box on the image turned ``angle`` degrees clockwise for OCR (``width`` by ``height``)
    as a box on the page as it was given."""
    x0, top, x1, bottom = box
    if angle == 90:  # the page was ``height`` wide and ``width`` tall
        return top, width - x1, bottom, width - x0
    if angle == 180:
        return width - x1, height - bottom, width - x0, height - top
    if angle == 270:
        return height - bottom, x0, height - top, x1
    return box


def mark_chosen(pages: list[Page], attempts: list[Attempt]) -> str:
    """Flag the attempts whose text was kept; their engines, joined, name the extractor."""
    engines = sorted({p.engine for p in pages if p.engine and p.markdown})
    for attempt in attempts:
        attempt.chosen = attempt.engine in engines
    return "+".join(engines)
