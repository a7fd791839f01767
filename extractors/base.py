"""What every engine returns, the options it is given, and the error it raises."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from extractors.media import MediaSettings
    from extractors.mistral import MistralSettings
    from extractors.zip_limits import ZipLimits


@dataclass
class Page:
    """Markdown of one page (``number`` is 1-based; ``None`` for formats without pages).

    ``engine`` is what produced this page's text (a PDF's pages may mix the text layer and
    OCR); ``quality`` is its score from :mod:`extractors.quality`.  ``running`` holds the
    running header and footer lines taken out of the Markdown, ``blocks`` the page's
    structure as the PDF structure stage saw it (kind, box, text; see
    :class:`extractors.pdf_structure.Block`; a block's ``span`` is where its text is in
    ``markdown``, its ``box`` where it is on the page), ``size`` the page's width and height
    in the units of those boxes (PDF points).  ``structure`` is what decided a PDF text-layer
    page's headings: ``tags`` (its structure tree), ``outline`` (its bookmarks), ``contents``
    (the document's table of contents) or ``heuristics`` (see :mod:`extractors.pdf_evidence`);
    None for other pages.
    """

    markdown: str
    number: int | None = None
    engine: str | None = None
    quality: float | None = None
    running: list[str] = field(default_factory=list)
    blocks: list[dict[str, Any]] = field(default_factory=list)
    size: tuple[float, float] | None = None
    structure: str | None = None


@dataclass
class Table:
    """A table as rows of cell strings (first row: header when the source has one)."""

    cells: list[list[str]]
    markdown: str
    page: int | None = None
    caption: str | None = None


@dataclass
class Attempt:
    """One engine run on a document or on some of its pages, successful or not."""

    engine: str
    seconds: float
    pages: list[int] | None = None
    score: float | None = None
    error_code: str | None = None
    error: str | None = None
    chosen: bool = False


@dataclass
class Attachment:
    """A file attached to a document (an e-mail's attachments, a digest's messages), read
    through the router on its own: its bytes, and its result or why it has none.

    A pipeline lists attachments with their bytes only; the router then reads each one and
    fills in ``result`` or the error."""

    name: str
    data: bytes
    result: ExtractionResult | None = None
    error_code: str | None = None
    error_message: str | None = None


@dataclass
class ExtractionResult:
    pages: list[Page]
    extractor: str
    mime_type: str
    title: str | None = None
    page_count: int | None = None
    warnings: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    language: str | None = None
    quality: float | None = None
    attempts: list[Attempt] = field(default_factory=list)
    # The router's decision ("text", "pdf-fast", "pdf-ocr", "office", ...) and the signals
    # it was based on, kept with the document so a surprising result can be explained.
    route: str | None = None
    signals: dict[str, Any] = field(default_factory=dict)
    # Documents of their own (the pipeline gives each a child row and an index entry).
    attachments: list[Attachment] = field(default_factory=list)

    @property
    def markdown(self) -> str:
        return "\n\n".join(p.markdown for p in self.pages if p.markdown.strip())

    def report(self) -> dict[str, Any]:
        """Everything but the text: what is stored on the document next to its Markdown."""
        return {
            "extractor": self.extractor, "mime_type": self.mime_type, "route": self.route,
            "signals": self.signals, "quality": self.quality, "language": self.language,
            "page_count": self.page_count, "warnings": self.warnings,
            "attempts": [asdict(a) for a in self.attempts],
            "tables": len(self.tables),
            "pages": [{"number": p.number, "engine": p.engine, "quality": p.quality,
                       "chars": len(p.markdown), **({"running": p.running} if p.running else {}),
                       **({"structure": p.structure} if p.structure else {})}
                      for p in self.pages],
        }


class ExtractionError(Exception):
    """A failure attributable to one document.

    ``code`` is machine-readable and stable: ``unsupported``, ``encrypted``, ``corrupt``,
    ``empty``, ``no_text``, ``too_large``, ``timeout``, ``extractor_crashed``,
    ``provider_error``, ``engine_unavailable``, ``cancelled`` (the caller stopped it);
    for audio and video also ``no_audio`` and ``no_transcriber``, and ``quota_exceeded``
    (raised by the worker before extraction: app/services/transcription_metering.py).
    """

    def __init__(self, code: str, message: str, attempts: list[Attempt] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.attempts = attempts or []

    def __reduce__(self) -> tuple[Any, ...]:
        # Crosses the process boundary of extractors.isolation intact.
        return (ExtractionError, (self.code, self.message, self.attempts))


class EngineUnavailable(Exception):
    """An engine that cannot run here (package, binary or model files missing): fall back."""


@dataclass
class ExtractOptions:
    """Per-document extraction settings; built by the caller from its configuration."""

    password: str | None = field(default=None, repr=False)  # never in a log or traceback
    max_pages: int = 2000
    max_image_pixels: int = 178_956_970  # PIL's own bomb threshold (2x its warning level)
    # A page whose text scores below this is OCRed; OCR stops escalating above it.
    quality_threshold: float = 0.5
    # Pages with fewer visible characters than this count as "no text layer".
    min_chars_per_page: int = 20
    ocr_engines: tuple[str, ...] = ("tesseract", "rapidocr", "easyocr", "mistral")
    ocr_dpi: int = 200
    ocr_languages: str = "eng"
    easyocr_model_dir: str | None = None
    docling_artifacts_path: str | None = None
    # The remote OCR provider's settings (its API key may be unset).
    mistral: MistralSettings | None = None
    # Monotonic time after which optional work (OCR escalation) is skipped with a warning.
    soft_deadline: float | None = None
    # Inflation limits for ZIP-based formats (None: extractors.zip_limits' defaults).
    zip_limits: ZipLimits | None = None
    # Audio and video: limits, splitting and the transcription providers (None: defaults,
    # no provider, so media fail as no_transcriber).
    media: MediaSettings | None = None

    def past_soft_deadline(self) -> bool:
        return self.soft_deadline is not None and time.monotonic() > self.soft_deadline
