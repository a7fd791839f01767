"""EasyOCR, supported when its model files are provided in a configured directory.

EasyOCR downloads its weights on first use and needs a torchvision that imports beside the
installed torch; neither holds on an offline CPU machine, so it is an optional engine that
reports why it is unavailable and lets OCR fall through to the next one.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from extractors.base import EngineUnavailable, ExtractOptions
from extractors.engine import OcrEngine

if TYPE_CHECKING:
    from PIL.Image import Image

NAME = "easyocr"
_MODEL_FILES = ("craft_mlt_25k.pth", "english_g2.pth")


def _ready_reader(model_dir: str | None) -> Any:
    """The reader for ``model_dir``, or EngineUnavailable saying what is missing."""
    if not model_dir:
        raise EngineUnavailable("EASYOCR_MODEL_DIR is not set (EasyOCR cannot download models here)")
    missing = [name for name in _MODEL_FILES if not (Path(model_dir) / name).is_file()]
    if missing:
        raise EngineUnavailable(f"EasyOCR model files missing in {model_dir}: {', '.join(missing)}")
    return _reader(model_dir)


@lru_cache(maxsize=1)
def _reader(model_dir: str) -> Any:
    try:
        import easyocr
    except Exception as exc:  # ImportError, or torchvision's operator registration error
        raise EngineUnavailable(f"easyocr cannot be imported: {type(exc).__name__}: {exc}") from exc
    return easyocr.Reader(["en"], gpu=False, model_storage_directory=model_dir,
                          download_enabled=False, verbose=False)


class EasyOcrEngine(OcrEngine):
    name = NAME

    def check(self, options: ExtractOptions) -> None:
        _ready_reader(options.easyocr_model_dir)

    def recognise(self, image: Image, options: ExtractOptions) -> str:
        import numpy as np

        reader = _ready_reader(options.easyocr_model_dir)
        lines = reader.readtext(np.asarray(image.convert("RGB")), detail=0, paragraph=True)
        return "\n".join(lines)


ENGINE = EasyOcrEngine()
