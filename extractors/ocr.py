"""OCR escalation: each page goes through the configured engines in order until one reads it
well enough; the best-scoring text per page is kept and every run is recorded."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from extractors import easyocr, mistral, rapidocr, tesseract
from extractors.base import Attempt, EngineUnavailable, ExtractOptions, Page
from extractors.engine import OcrEngine
from extractors.quality import Quality, assess

if TYPE_CHECKING:
    from PIL.Image import Image

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


def _read(engine: OcrEngine, image: Image, options: ExtractOptions) -> tuple[str, Quality, float]:
    started = time.monotonic()
    text = engine.recognise(image, options).strip()
    return text, assess(text), time.monotonic() - started


def _read_upright(engine: OcrEngine, image: Image, options: ExtractOptions, number: int,
                  warnings: list[str]) -> tuple[str, Quality, float]:
    """One engine's read of a page; a poor read is retried turned upright when the engine can
    tell the page's orientation (a poor read of a scan is most often a sideways page)."""
    text, quality, seconds = _read(engine, image, options)
    if quality.score < options.quality_threshold:
        angle = engine.rotation(image)
        if angle:
            turned = image.rotate(-angle, expand=True)
            text2, quality2, seconds2 = _read(engine, turned, options)
            seconds += seconds2
            if quality2.score > quality.score:
                text, quality = text2, quality2
                warnings.append(f"page {number}: rotated {angle} degrees for OCR")
    return text, quality, seconds


def ocr_pages(images: Iterable[tuple[int, Image]], options: ExtractOptions,
              baseline: dict[int, Page] | None = None) -> tuple[list[Page], list[Attempt], list[str]]:
    """OCR each ``(number, image)``; a page of ``baseline`` (its text layer) is kept if no
    engine beats it.  Returns pages, attempts and warnings."""
    unavailable: set[str] = set()
    recorder = _Recorder()
    warnings: list[str] = []
    pages: list[Page] = []
    for number, image in images:
        best = (baseline or {}).get(number)
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
                text, quality, seconds = _read_upright(engine, image, options, number, warnings)
            except EngineUnavailable as exc:
                unavailable.add(name)
                recorder.failed(name, number, "engine_unavailable", str(exc))
                continue
            except Exception as exc:  # one engine's crash on one page must not end the document
                recorder.failed(name, number, "engine_error", f"{type(exc).__name__}: {exc}")
                continue
            recorder.ran(name, number, seconds, quality.score)
            if best is None or quality.score > (best.quality or 0.0):
                best = Page(text, number=number, engine=name, quality=quality.score)
        pages.append(best if best is not None else Page("", number=number, engine=None, quality=0.0))
    return pages, list(recorder.attempts.values()), warnings


def mark_chosen(pages: list[Page], attempts: list[Attempt]) -> str:
    """Flag the attempts whose text was kept; their engines, joined, name the extractor."""
    engines = sorted({p.engine for p in pages if p.engine and p.markdown})
    for attempt in attempts:
        attempt.chosen = attempt.engine in engines
    return "+".join(engines)
