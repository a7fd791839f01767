"""RapidOCR (ONNX Runtime): the offline second OCR engine; its models ship inside the wheel."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from extractors.base import EngineUnavailable, ExtractOptions
from extractors.engine import OcrEngine

if TYPE_CHECKING:
    from PIL.Image import Image

NAME = "rapidocr"


@lru_cache(maxsize=1)
def _engine() -> Any:
    try:
        from rapidocr import RapidOCR
    except ImportError as exc:
        raise EngineUnavailable(f"rapidocr is not installed ({exc})") from exc
    # The text-direction classifier garbles horizontal English (CER 40 % measured); off.
    return RapidOCR(params={"Global.use_cls": False, "Global.log_level": "warning"})


def _lines(boxes: Any, texts: tuple[str, ...]) -> str:
    """Boxes to reading-order lines: group by vertical centre, then sort left to right."""
    items = []
    for box, text in zip(boxes, texts, strict=True):
        ys = [point[1] for point in box]
        xs = [point[0] for point in box]
        items.append(((min(ys) + max(ys)) / 2, min(xs), max(ys) - min(ys), text))
    items.sort()
    lines: list[list[tuple[float, float, float, str]]] = []
    for item in items:
        if lines and abs(item[0] - lines[-1][0][0]) < 0.5 * max(item[2], lines[-1][0][2]):
            lines[-1].append(item)
        else:
            lines.append([item])
    return "\n".join(" ".join(t for _, _, _, t in sorted(line, key=lambda i: i[1])) for line in lines)


class RapidOcrEngine(OcrEngine):
    name = NAME

    def check(self, options: ExtractOptions) -> None:
        _engine()

    def recognise(self, image: Image, options: ExtractOptions) -> str:
        import numpy as np

        result = _engine()(np.asarray(image.convert("RGB")))
        if result.boxes is None or not result.txts:
            return ""
        return _lines(result.boxes, result.txts)


ENGINE = RapidOcrEngine()
