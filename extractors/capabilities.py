"""What this machine can parse with, and why not when it cannot: checked once, at start-up
of a worker (logged) or on demand (`pagemill doctor`)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass

from extractors import docling, easyocr, mistral, rapidocr, tesseract
from extractors.base import EngineUnavailable, ExtractOptions
from extractors.engine import Engine, OcrEngine

# The engines that need something beyond their Python package (a binary, model files, a key).
ENGINES: tuple[Engine | OcrEngine, ...] = (
    tesseract.ENGINE, rapidocr.ENGINE, easyocr.ENGINE, docling.PDF_LAYOUT, mistral.ENGINE)


@dataclass(frozen=True)
class Capability:
    engine: str
    available: bool
    detail: str


def check_all(options: ExtractOptions) -> list[Capability]:
    found = [_check(engine, options) for engine in ENGINES]
    office = shutil.which("soffice")
    found.append(Capability("LibreOffice (legacy .doc/.ppt)", office is not None,
                            office or "soffice not installed: legacy .doc and .ppt are unsupported"))
    return found


def _check(engine: Engine | OcrEngine, options: ExtractOptions) -> Capability:
    label = engine.label or engine.name
    try:
        engine.check(options)
    except EngineUnavailable as exc:
        return Capability(label, False, str(exc))
    except Exception as exc:  # a broken install is reported, not raised
        return Capability(label, False, f"{type(exc).__name__}: {exc}")
    return Capability(label, True, "ready")
