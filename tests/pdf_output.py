"""What the text layer's structure stage makes of a small PDF a test draws: the PDF of a drawing
function (an A4 reportlab canvas, one page), its Markdown, its headings' texts in order."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas as pdf_canvas

from extractors.pdf_text import read_text_layer


def drawn_pdf(draw: Callable[[Any], object]) -> bytes:
    """One A4 page drawn by ``draw`` on a fresh canvas."""
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, pagesize=A4, invariant=1)
    draw(canvas)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def markdown_of(data: bytes) -> str:
    return "\n\n".join(page.markdown for page in read_text_layer(data).pages)


def headings_of(data: bytes) -> list[str]:
    return [line.lstrip("# ") for line in markdown_of(data).splitlines() if line.startswith("#")]
