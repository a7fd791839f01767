"""Tesseract OCR (Debian ``tesseract-ocr``) through pytesseract, with orientation detection."""

from __future__ import annotations

import os
import shutil
from typing import TYPE_CHECKING

from extractors.base import EngineUnavailable, ExtractOptions
from extractors.engine import OcrEngine
from extractors.ocr_layout import layout_from_data

if TYPE_CHECKING:
    from PIL.Image import Image

    from extractors.pdf_words import PageLayout

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

    def recognise_layout(self, image: Image, options: ExtractOptions, number: int,
                         points_per_pixel: float = 1.0) -> tuple[str, PageLayout | None]:
        """One tesseract run writing both its plain text and its word boxes (TSV): the text
        is byte for byte what ``image_to_string`` gives, in the same time (measured on the
        tesseract-ocr test pages: 2.34 s against 2.48 s for a dense page)."""
        import pytesseract

        _require_binary()
        os.environ.setdefault("OMP_THREAD_LIMIT", "1")
        text, tsv = pytesseract.run_and_get_multiple_output(image, ["txt", "tsv"], lang=options.ocr_languages)
        try:
            data = pytesseract.pytesseract.file_to_dict(tsv, "\t", -1)  # what image_to_data(DICT) does
            layout = layout_from_data(data, number, image.size, points_per_pixel)
        except (KeyError, ValueError, TypeError, IndexError):
            layout = None  # a malformed TSV costs the page its structure, never its text
        return str(text), layout

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
