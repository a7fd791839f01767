"""The result every engine returns, and the error every engine raises."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Page:
    """Markdown of one page (``number`` is 1-based; ``None`` for formats without pages)."""

    markdown: str
    number: int | None = None


@dataclass
class ExtractionResult:
    pages: list[Page]
    extractor: str
    mime_type: str
    title: str | None = None
    page_count: int | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def markdown(self) -> str:
        return "\n\n".join(p.markdown for p in self.pages if p.markdown.strip())


class ExtractionError(Exception):
    """A failure attributable to one document.

    ``code`` is machine-readable and stable: ``unsupported``, ``encrypted``, ``corrupt``,
    ``empty``, ``no_text_layer``, ``too_large``.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
