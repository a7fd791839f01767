"""What this machine can parse with, and why not when it cannot: checked once, at start-up
of a worker (logged) or on demand (`pagemill doctor`)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass

from extractors import docling, easyocr, rapidocr, tesseract
from extractors.base import EngineUnavailable, ExtractOptions


@dataclass(frozen=True)
class Capability:
    engine: str
    available: bool
    detail: str


def check_all(options: ExtractOptions) -> list[Capability]:
    checks = [
        ("tesseract", tesseract.check),
        ("rapidocr", rapidocr.check),
        ("easyocr", lambda: easyocr.check(options.easyocr_model_dir)),
        ("docling PDF layout model", lambda: docling.check_pdf_models(options.docling_artifacts_path)),
        ("mistral OCR", lambda: (options.mistral.check() if options.mistral is not None
                                 else _missing("MISTRAL_API_KEY is not set"))),
    ]
    found = []
    for name, check in checks:
        try:
            check()
        except EngineUnavailable as exc:
            found.append(Capability(name, False, str(exc)))
        except Exception as exc:  # a broken install is reported, not raised
            found.append(Capability(name, False, f"{type(exc).__name__}: {exc}"))
        else:
            found.append(Capability(name, True, "ready"))
    office = shutil.which("soffice")
    found.append(Capability("LibreOffice (legacy .doc/.ppt)", office is not None,
                            office or "soffice not installed: legacy .doc and .ppt are unsupported"))
    return found


def _missing(reason: str) -> None:
    raise EngineUnavailable(reason)
