"""Decoding raster images safely: pixel caps against decompression bombs, multi-page TIFF."""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterator
from typing import Any

from extractors.base import ExtractionError

MAX_FRAMES = 2000


def open_frames(data: bytes, max_pixels: int, max_frames: int = MAX_FRAMES) -> Iterator[tuple[int, Any]]:
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
