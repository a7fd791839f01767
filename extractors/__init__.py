"""Extraction engines: bytes in, Markdown and per-page text out.  No Flask, no Celery here.

``extract`` (the router) is imported on first use: it loads every engine module (PDFium and
friends), which processes that only need the types here — configuration, the CLI's
``--help`` — should not pay for.
"""

from typing import TYPE_CHECKING, Any

from extractors.base import ExtractionError, ExtractionResult

if TYPE_CHECKING:
    from extractors.router import extract

__all__ = ["ExtractionError", "ExtractionResult", "extract"]


def __getattr__(name: str) -> Any:
    if name == "extract":
        from extractors.router import extract

        return extract
    raise AttributeError(f"module 'extractors' has no attribute {name!r}")
