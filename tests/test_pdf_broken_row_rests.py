"""The rest of a row broken over the page, alike on two pages (office probe record_listing): a
listing whose rows break over two page breaks after the first line of a firm's name, both names
ending "LLC", sets "LLC" alone at the head of two pages at one height.  Recurring so, the
running-line rule took it for a running header and the row lost its last word; a lone line at
one of the table's inner columns, over its rows at a row's pitch, is the rest of a row; and the
stitch of the pages joins the listing of three pages cell for cell, each "LLC" in its row (the
first rest no header row of page 2's table for page 3's print titles)."""

from __future__ import annotations

import io

from reportlab.pdfgen import canvas as pdf_canvas

from bench.icdar_tables import markdown_tables
from extractors.pdf_text import read_text_layer
from tests.test_pdf_record_listings import _name_lines, listing_rows

LEFTS, AMOUNT_RIGHT = (56.0, 120.0, 190.0, 290.0), 440.0
NAME = "Golden State Bakery LLC"  # wrapped after "Bakery" at the column's width


def _listing(rows: list[list[str]], breaks: list[int]) -> bytes:
    """``rows`` (the header first) without rules over pages, a page broken after each body row
    of ``breaks``: that row's name's first line ends the page, the rest heads the next."""
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica-Bold", 14)
    canvas.drawString(56, 760, "Register of donations accepted")
    canvas.setFont("Helvetica-Bold", 9)
    for x, text in zip(LEFTS, rows[0][:4], strict=True):
        canvas.drawString(x, 730, text)
    canvas.drawRightString(AMOUNT_RIGHT, 730, rows[0][4])
    y, page = 714.0, 1
    for at, cells in enumerate(rows[1:], start=1):
        canvas.setFont("Helvetica", 9)
        for x, text in zip(LEFTS, cells[:4], strict=True):
            if x != LEFTS[2]:
                canvas.drawString(x, y, text)
        canvas.drawRightString(AMOUNT_RIGHT, y, cells[4])
        names = _name_lines(cells[2])
        if at in breaks:
            canvas.drawString(LEFTS[2], y, names[0])
            canvas.setFont("Helvetica", 8)
            canvas.drawString(300, 40, f"Page {page}")
            canvas.showPage()
            page += 1
            canvas.setFont("Helvetica", 9)
            y = 760.0
            for name in names[1:]:
                canvas.drawString(LEFTS[2], y, name)
                y -= 10
            y -= 6
            continue
        for k, name in enumerate(names):
            canvas.drawString(LEFTS[2], y - 10 * k, name)
        y -= 10 * len(names) + 6
    canvas.setFont("Helvetica", 8)
    canvas.drawString(300, 40, f"Page {page}")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _rows() -> tuple[list[list[str]], list[int]]:
    """Forty rows, a page broken after the last row that fits on pages 1 and 2."""
    rows = listing_rows(3, 80)
    breaks, y = [], 714.0
    for at, cells in enumerate(rows[1:], start=1):
        step = 10 * len(_name_lines(cells[2])) + 6
        if y - step < 80:
            cells[2] = NAME
            breaks.append(at)
            y = 760.0 - 16
            if len(breaks) == 2:
                return rows[:at + 6], breaks
            continue
        y -= step
    raise AssertionError("the listing fills fewer than three pages")


def test_the_same_rest_of_a_row_atop_two_pages_is_no_running_header() -> None:
    rows, breaks = _rows()
    assert _name_lines(NAME) == ["Golden State Bakery", "LLC"]
    layer = read_text_layer(_listing(rows, breaks))
    assert len(layer.pages) == 3
    assert not [block for page in layer.pages for block in page.blocks
                if block["kind"] == "header" and block["text"] == "LLC"]
    assert markdown_tables("\n\n".join(page.markdown for page in layer.pages)) == [rows]
