"""Tesseract OCR (Debian ``tesseract-ocr``) through pytesseract, with orientation detection."""

from __future__ import annotations

import os
import shutil
from typing import Any

from extractors.base import EngineUnavailable

NAME = "tesseract"


def check() -> None:
    if shutil.which("tesseract") is None:
        raise EngineUnavailable("the tesseract binary is not installed (apt-get install tesseract-ocr)")


def recognise(image: Any, languages: str = "eng") -> str:
    import pytesseract

    check()
    # Tesseract's OpenMP threads fight each other on small machines: one thread per process
    # measured 3.0-3.5 s per dense page against 12 s with the default on 2 cores.
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    return pytesseract.image_to_string(image, lang=languages)


def rotation(image: Any) -> int:
    """Degrees (clockwise) the page must be turned to be upright; 0 when unsure."""
    import pytesseract

    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    try:
        osd = pytesseract.image_to_osd(image, output_type=pytesseract.Output.DICT)
    except pytesseract.TesseractError:
        return 0  # too little text to tell: leave the page as it is
    if float(osd.get("orientation_conf", 0)) < 1.0:
        return 0
    return int(osd.get("rotate", 0)) % 360
