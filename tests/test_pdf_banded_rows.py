"""A table whose rows are told apart by fills alone (Word's and Excel's banded table styles:
a dark header with white text, every other row shaded, no rules): the shaded header and the
first shaded row touch and draw a grid of two rows; the table goes on unruled under it, and
is one table, not a two-row grid over a table of the rest (office probes, 2026-12-06)."""

from __future__ import annotations

from typing import Any

from reportlab.lib.pagesizes import A4

from tests.pdf_output import drawn_pdf, markdown_of, markdown_table

CELLS = [["Region", "Persons employed", "Median pay", "Net migration"],
         ["Central", "89,331", "38,981", "60,744"],
         ["Rural", "69,583", "26,634", "80,182"],
         ["Coast", "94.53%", "90.14%", "3.06%"],
         ["West", "64,954", "921", "88,123"],
         ["South", "21.66%", "42.21%", "2.91%"],
         ["North", "76,370", "93,916", "55,286"]]


def _banded(canvas: Any, shaded_first: bool) -> None:
    """CELLS with a dark header fill, and a light fill behind the odd body rows (the first
    under the header, touching its fill) or the even ones."""
    width, height = A4
    canvas.setFont("Helvetica", 10)
    canvas.drawString(72, height - 72, "The table below gives the figures for each region.")
    pitch, left, column = 24.0, 72.0, 108.0
    top = height - 110
    for r, row in enumerate(CELLS):
        y = top - r * pitch
        if r == 0 or r % 2 == (1 if shaded_first else 0):
            canvas.setFillColorRGB(*((0.12, 0.31, 0.47) if r == 0 else (0.87, 0.92, 0.96)))
            for c in range(len(row)):  # a box per cell, as Word's and LibreOffice's fills are drawn
                canvas.rect(left - 6 + column * c, y - 8, column, pitch, stroke=0, fill=1)
        canvas.setFillColorRGB(*((1, 1, 1) if r == 0 else (0, 0, 0)))
        canvas.setFont("Helvetica-Bold" if r == 0 else "Helvetica", 10)
        for c, text in enumerate(row):
            canvas.drawString(left + column * c, y, text)
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setFont("Helvetica", 10)
    canvas.drawString(72, top - len(CELLS) * pitch - 10, "Source: regional accounts.")


def test_banded_table_whose_header_fill_touches_the_first_band_is_one_table():
    markdown = markdown_of(drawn_pdf(_banded, shaded_first=True))
    assert markdown_table(CELLS) in markdown
    assert sum(line.startswith("| ---") for line in markdown.splitlines()) == 1


def test_banded_table_whose_first_band_is_apart_from_the_header_is_one_table():
    assert markdown_table(CELLS) in markdown_of(drawn_pdf(_banded, shaded_first=False))
