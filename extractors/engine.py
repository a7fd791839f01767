"""What the router runs: engines, OCR engines, and the routes that lead to them.

- An :class:`Engine` reads a whole document of the types it accepts into an
  :class:`~extractors.base.ExtractionResult` (docling, unstructured, the PDF text layer, ...).
- An :class:`OcrEngine` reads one page image into text (Tesseract, RapidOCR, EasyOCR, Mistral).
- A :class:`Route` is one row of the routing table (:mod:`extractors.routes`): the types it
  takes, the pipeline that runs them, and its engines in order.

Each engine module holds one engine object (``ENGINE``); the router, OCR escalation and
``pagemill doctor`` all go through the same methods, so an engine's requirements are stated
once, in its ``check``.  ``extract`` and ``recognise`` raise ``EngineUnavailable`` too when
they find they cannot run: a caller need not ``check`` first.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from extractors.base import ExtractionResult, ExtractOptions

if TYPE_CHECKING:
    from PIL.Image import Image

    from extractors.pdf_words import PageLayout


@dataclass(frozen=True)
class Request:
    """One document as the router hands it to a pipeline and its engines."""

    data: bytes
    mime_type: str  # sniffed from ``data``, never taken from the name
    filename: str | None = None
    # How deep among attachments the document is: 0 when it was submitted itself.
    depth: int = 0


class _Runnable(ABC):
    # Recorded in Attempt.engine and Page.engine.
    name: str
    # What ``pagemill doctor`` calls the engine, when that is not its name.
    label: str = ""

    def check(self, options: ExtractOptions) -> None:
        """Raise EngineUnavailable with the reason when the engine cannot run here (most
        engines need nothing beyond their package)."""
        return None


class Engine(_Runnable):
    """Bytes of one document in, an ExtractionResult out."""

    accepts: frozenset[str]

    @abstractmethod
    def extract(self, request: Request, options: ExtractOptions) -> ExtractionResult:
        """Raise ExtractionError for a failure of this document, EngineUnavailable when the
        engine cannot run here; any other exception is an engine bug (recorded, next engine)."""


class OcrEngine(_Runnable):
    """One page image in, its text out."""

    @abstractmethod
    def recognise(self, image: Image, options: ExtractOptions) -> str:
        """The page's text (plain, or Markdown for engines that produce it)."""

    def recognise_layout(self, image: Image, options: ExtractOptions, number: int,
                         points_per_pixel: float = 1.0) -> tuple[str, PageLayout | None]:
        """The page's text and, from the same run, its words with their boxes (in units of
        ``points_per_pixel``) for the structure stage; ``None`` from engines that give
        no word boxes (or Markdown of their own)."""
        return self.recognise(image, options), None

    def rotation(self, image: Image) -> int:
        """Degrees (clockwise) the page must be turned to be upright; 0 when unsure or when
        the engine cannot tell (a poor read is then retried turned)."""
        return 0


# Runs a request along its route: the route's engines, in its order, with its fallbacks.
Pipeline = Callable[[Request, "Route", ExtractOptions], ExtractionResult]


@dataclass(frozen=True)
class Route:
    """One row of the routing table.

    ``fast`` is the track every document of these types goes through, its engines in order
    (a chain stops at the first whose text is good enough).  ``quality`` holds engines that
    replace the fast track's result when the document qualifies (today: docling's layout model
    for a PDF whose text layer is good on every page).  OCR engines are not listed: which of
    them run, in which order, is configuration (``ExtractOptions.ocr_engines``).
    """

    # The result's ``route`` for pipelines with one outcome ("docling", "text", ...).
    name: str
    types: frozenset[str]
    pipeline: Pipeline | None = None
    fast: tuple[Engine, ...] = ()
    quality: tuple[Engine, ...] = ()
    # A container to open before routing (encrypted Office): the bytes it holds are sniffed
    # and routed again, once.
    unwrap: Callable[[bytes, ExtractOptions], bytes] | None = None
