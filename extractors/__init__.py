"""Extraction engines: bytes in, Markdown and per-page text out.  No Flask, no Celery here."""

from extractors.base import ExtractionError, ExtractionResult
from extractors.router import extract

__all__ = ["ExtractionError", "ExtractionResult", "extract"]
