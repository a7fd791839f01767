"""Tesseract OCR (Debian ``tesseract-ocr``) through pytesseract, with orientation detection."""

from __future__ import annotations

import os
import shutil
from typing import TYPE_CHECKING

from extractors.base import EngineUnavailable, ExtractOptions
from extractors.engine import OcrEngine

if TYPE_CHECKING:
    from PIL.Image import Image

NAME = "tesseract"


def _require_binary() -> None:
    if shutil.which("tesseract") is None:
        raise EngineUnavailable("the tesseract binary is not installed (apt-get install tesseract-ocr)")


class TesseractEngine(OcrEngine):
    name = NAME

    def check(self, options: ExtractOptions) -> None:
        _require_binary()

    def recognise(self, image: Image, options: ExtractOptions) -> str:
        import pytesseract

        _require_binary()
        # Tesseract's OpenMP threads fight each other on small machines: one thread per process
        # measured 3.0-3.5 s per dense page against 12 s with the default on 2 cores.
        os.environ.setdefault("OMP_THREAD_LIMIT", "1")
        text: str = pytesseract.image_to_string(image, lang=options.ocr_languages)
        return text

    def rotation(self, image: Image) -> int:
        import pytesseract

        os.environ.setdefault("OMP_THREAD_LIMIT", "1")
        try:
            osd = pytesseract.image_to_osd(image, output_type=pytesseract.Output.DICT)
        except pytesseract.TesseractError:
            return 0  # too little text to tell: leave the page as it is
        if float(osd.get("orientation_conf", 0)) < 1.0:
            return 0
        return int(osd.get("rotate", 0)) % 360


ENGINE = TesseractEngine()
