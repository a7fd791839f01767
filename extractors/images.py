"""The image route: raster images decoded safely (pixel caps against decompression bombs,
multi-page TIFF), each frame OCRed as a page."""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING

from extractors import ocr
from extractors.base import ExtractionError, ExtractionResult, ExtractOptions
from extractors.engine import Request, Route

if TYPE_CHECKING:
    from PIL.Image import Image

MAX_FRAMES = 2000


def run(request: Request, route: Route, options: ExtractOptions) -> ExtractionResult:
    """Every frame through OCR escalation (the engines of ``options.ocr_engines``)."""
    frames = open_frames(request.data, options.max_image_pixels)
    pages, attempts, notes = ocr.ocr_pages(frames, options)
    return ExtractionResult(pages=pages, extractor=ocr.mark_chosen(pages, attempts) or "ocr",
                            mime_type=request.mime_type, page_count=len(pages), warnings=notes,
                            attempts=attempts, route=route.name, signals={"frames": len(pages)})


def open_frames(data: bytes, max_pixels: int, max_frames: int = MAX_FRAMES) -> Iterator[tuple[int, Image]]:
    """Each frame (page) of an image as an RGB PIL image, numbered from 1."""
    from PIL import Image, ImageSequence, UnidentifiedImageError

    # PIL only warns between its limit and twice it; pagemill's cap is a hard error.
    Image.MAX_IMAGE_PIXELS = max_pixels
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            for index, frame in enumerate(ImageSequence.Iterator(image)):
                if index >= max_frames:
                    raise ExtractionError("too_large", f"image has more than {max_frames} frames")
                width, height = frame.size
                if width * height > max_pixels:
                    raise ExtractionError("too_large", f"frame {index + 1} is {width}x{height} pixels; "
                                          f"the limit is {max_pixels} pixels")
                yield index + 1, frame.convert("RGB")
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ExtractionError("too_large", f"image exceeds the pixel limit: {exc}") from exc
    except UnidentifiedImageError as exc:
        raise ExtractionError("corrupt", f"image cannot be decoded: {exc}") from exc
    except (OSError, SyntaxError, ValueError) as exc:
        raise ExtractionError("corrupt", f"image is truncated or malformed: {exc}") from exc
