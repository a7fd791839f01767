"""What the text layer's structure stage makes of a small PDF a test draws: the PDF of a drawing
function (an A4 reportlab canvas, one page), its Markdown, its headings' texts in order; and
what such tests share to draw their text and state what they expect (a paragraph's lines, a
table's Markdown)."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas as pdf_canvas

from extractors.pdf_text import read_text_layer


def drawn_pdf(draw: Callable[..., object], *args: Any, **kwargs: Any) -> bytes:
    """One A4 page drawn by ``draw(canvas, *args, **kwargs)`` on a fresh canvas."""
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, pagesize=A4, invariant=1)
    draw(canvas, *args, **kwargs)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def markdown_of(data: bytes) -> str:
    return "\n\n".join(page.markdown for page in read_text_layer(data).pages)


def headings_of(data: bytes) -> list[str]:
    return [line.lstrip("# ") for line in markdown_of(data).splitlines() if line.startswith("#")]


def wrapped_lines(text: str, width: float, font: str, size: float) -> list[str]:
    """``text`` broken into lines of at most ``width`` points in ``font`` at ``size`` (a word
    wider than that on a line of its own)."""
    out: list[str] = []
    for word in text.split():
        if out and stringWidth(f"{out[-1]} {word}", font, size) <= width:
            out[-1] = f"{out[-1]} {word}"
        else:
            out.append(word)
    return out


def markdown_table(cells: list[list[str]]) -> str:
    """The Markdown the structure stage writes for a table of ``cells`` with one header row."""
    rows = ["| " + " | ".join(row) + " |" for row in cells]
    return "\n".join([rows[0], "| " + " | ".join("---" for _ in cells[0]) + " |", *rows[1:]])
