"""The lines of a bare table after a gap are rows of it, not a second table, when they are set
like its rows: a row with no figure but years ("Review date  2024  2025  2026") under a bold
header; and the lines under a table's source note (a contact's details) are no next table: a
source or a note closes the first table, it titles none."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reportlab.lib.pagesizes import A4

from tests.pdf_output import drawn_pdf, markdown_of

LEFTS = [72, 200, 270, 340]
FIRST = [["Line 1", "500", "400", "100"], ["Line 2", "510", "409", "101"], ["Line 3", "520", "418", "102"]]
SECOND = [["Line 4", "530", "427", "103"], ["Line 5", "540", "436", "104"], ["Line 6", "550", "445", "105"]]


def _row(canvas: Any, y: float, cells: list[str], font: str = "Helvetica", size: float = 9,
         lefts: list[int] = LEFTS) -> float:
    canvas.setFont(font, size)
    for left, text in zip(lefts, cells, strict=False):
        canvas.drawString(left, y, text)
    return y - 14


def _budget_page(canvas: Any, draw: Callable[[Any, float], None]) -> None:
    """A sentence at the top of the page, then what ``draw`` draws from 110 points down on."""
    canvas.setFont("Times-Roman", 10)
    canvas.drawString(72, A4[1] - 72, "The budget lines for the programme are set out below.")
    draw(canvas, A4[1] - 110)


def _years_row(canvas: Any, y: float) -> None:
    y = _row(canvas, y, ["Item", "Budget", "Spent", "Left"], "Helvetica-Bold")
    for cells in FIRST:
        y = _row(canvas, y, cells)
    y = _row(canvas, y - 12, ["Review date", "2024", "2025", "2026"])
    for cells in SECOND:
        y = _row(canvas, y, cells)


def test_a_row_of_years_after_a_gap_under_a_bold_header_is_a_row() -> None:
    markdown = markdown_of(drawn_pdf(_budget_page, _years_row))
    rows = "| Line 3 | 520 | 418 | 102 |\n| Review date | 2024 | 2025 | 2026 |\n| Line 4 |"
    assert rows in markdown, markdown


def _contact_under_source(canvas: Any, y: float) -> None:
    y = _row(canvas, y, ["Item", "Budget", "Spent", "Left"], "Helvetica-Bold")
    for cells in FIRST + SECOND:
        y = _row(canvas, y, cells)
    canvas.setFont("Helvetica-Oblique", 8)
    canvas.drawString(72, y, "Source: Programme accounts, 2024")
    y -= 12
    for cells in (["Contact", "Programme office"], ["Email", "programme.office@example.gov.uk"],
                  ["Phone", "+44 1633 455 400"], ["Next release", "14 May 2025"]):
        y = _row(canvas, y, cells, size=8) + 2


def test_the_lines_under_a_source_note_are_no_next_table() -> None:
    markdown = markdown_of(drawn_pdf(_budget_page, _contact_under_source))
    assert "| Line 6 | 550 | 445 | 105 |" in markdown
    after = markdown.split("Source: Programme accounts, 2024")[-1]
    assert "|" not in after and "+44 1633 455 400" in after, markdown
