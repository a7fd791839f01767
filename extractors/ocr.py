"""OCR escalation: each page goes through the configured engines in order until one reads it
well enough; the best-scoring text per page is kept and every run is recorded."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from extractors import easyocr, mistral, rapidocr, tesseract
from extractors.base import Attempt, EngineUnavailable, ExtractOptions, Page
from extractors.quality import Quality, assess


def _engines(options: ExtractOptions) -> dict[str, tuple[Callable[[], None], Callable[[Any], str]]]:
    return {
        tesseract.NAME: (tesseract.check, lambda image: tesseract.recognise(image, options.ocr_languages)),
        rapidocr.NAME: (rapidocr.check, rapidocr.recognise),
        easyocr.NAME: (lambda: easyocr.check(options.easyocr_model_dir),
                       lambda image: easyocr.recognise(image, options.easyocr_model_dir)),
        mistral.NAME: (lambda: (options.mistral or mistral.MistralSettings(api_key=None)).check(),
                       lambda image: mistral.ocr_image(options.mistral, image)),
    }


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


def _read(engine: str, recognise: Callable[[Any], str], image: Any) -> tuple[str, Quality, float]:
    started = time.monotonic()
    text = recognise(image).strip()
    return text, assess(text), time.monotonic() - started


def ocr_pages(images: Iterable[tuple[int, Any]], options: ExtractOptions,
              baseline: dict[int, Page] | None = None) -> tuple[list[Page], list[Attempt], list[str]]:
    """OCR each ``(number, image)``; a page of ``baseline`` (its text layer) is kept if no
    engine beats it.  Returns pages, attempts and warnings."""
    engines = _engines(options)
    unavailable: dict[str, str] = {}
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
            if name in unavailable or name not in engines:
                continue
            check, recognise = engines[name]
            try:
                check()
                text, quality, seconds = _read(name, recognise, image)
                if name == tesseract.NAME and quality.score < options.quality_threshold:
                    # A poor read of a scan is most often a sideways or upside-down page.
                    angle = tesseract.rotation(image)
                    if angle:
                        turned = image.rotate(-angle, expand=True)
                        text2, quality2, seconds2 = _read(name, recognise, turned)
                        seconds += seconds2
                        if quality2.score > quality.score:
                            text, quality = text2, quality2
                            warnings.append(f"page {number}: rotated {angle} degrees for OCR")
            except EngineUnavailable as exc:
                unavailable[name] = str(exc)
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
