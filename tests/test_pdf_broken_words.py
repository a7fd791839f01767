"""A word LibreOffice breaks over two lines of a too-narrow cell, without a hyphen ("Highlan"
over "d", "Numbe" over "r", "Num" over "ber" under a line holding it alone), is one word again in
the table, read off the page or from a tagged export's cells; a short word or a unit alone on a
cell's second line ("Area" over "ha", "Cost" over "per") keeps its space."""

from __future__ import annotations

from typing import Any

from extractors import extract
from extractors.base import ExtractOptions
from tests.pdf_output import drawn_pdf, markdown_of
from tests.tagged_pdf import Node, Run, tagged_pdf

ROWS = [("North", "120", "3.5"), ("Highlan|d", "87", "2.1"), ("East", "95", "4.0"), ("West", "60", "1.2")]


def _table(second: str) -> bytes:
    """A header whose second column's heading is "Numbe" over ``second`` (right-aligned), rows
    whose second label is broken after "Highlan"."""
    def draw(canvas: Any) -> None:
        canvas.setFont("Helvetica", 10)
        canvas.drawString(72, 780, "The figures below are given by region.")
        canvas.setFont("Helvetica-Bold", 10)
        canvas.drawString(72, 740, "Area")
        canvas.drawRightString(180, 740, {"r": "Numbe", "ber": "Num", "per": "Cost"}.get(second, "Area"))
        canvas.drawRightString(180, 728, second)
        canvas.drawRightString(240, 740, "Share")
        canvas.setFont("Helvetica", 10)
        y = 710.0
        for label, count, share in ROWS:
            first, _, rest = label.partition("|")
            canvas.drawString(72, y, first)
            canvas.drawRightString(180, y, count)
            canvas.drawRightString(240, y, share)
            if rest:
                y -= 12
                canvas.drawString(72, y, rest)
            y -= 18
        canvas.drawString(72, y - 20, "Source: regional accounts.")
    return drawn_pdf(draw)


def test_a_word_broken_over_a_cells_lines_is_one_word() -> None:
    markdown = markdown_of(_table("r"))
    assert "| Area | Number | Share |" in markdown, markdown
    assert "| Highland | 87 | 2.1 |" in markdown, markdown


def test_a_unit_alone_on_a_cells_second_line_keeps_its_space() -> None:
    assert "| Area | Area ha | Share |" in markdown_of(_table("ha"))


def _services(canvas: Any) -> None:
    """Row labels wrapped in a narrow column, a line holding only a short word of another
    language: French "et" with the rest of its cell under it, Spanish "de" ending a line."""
    canvas.setFont("Helvetica", 10)
    canvas.drawString(72, 780, "The figures below are given by service.")
    canvas.setFont("Helvetica-Bold", 9)
    for x, text in ((72, "Service"), (200, "Budget"), (280, "Staff")):
        canvas.drawString(x, 740, text)
    canvas.setFont("Helvetica", 9)
    y = 726.0
    for lines, budget, staff in ((["Recherche", "et", "innovation"], "800", "95"), (["Culture"], "450", "60"),
                                 (["Ministerio", "de"], "1 204", "312"), (["Museos"], "310", "88")):
        canvas.drawString(200, y, budget)
        canvas.drawString(280, y, staff)
        for line in lines:
            canvas.drawString(72, y, line)
            y -= 11
        y -= 4
    canvas.drawString(72, y - 20, "Source: the register.")


def test_a_short_word_alone_on_a_cells_line_keeps_its_spaces() -> None:
    markdown = markdown_of(drawn_pdf(_services))
    assert "| Recherche et innovation | 800 | 95 |" in markdown, markdown
    assert "| Ministerio de | 1 204 | 312 |" in markdown, markdown


def test_a_three_letter_end_under_the_word_alone_is_joined() -> None:
    assert "| Area | Number | Share |" in markdown_of(_table("ber"))


def test_a_three_letter_word_alone_on_a_cells_second_line_keeps_its_space() -> None:
    assert "| Area | Cost per | Share |" in markdown_of(_table("per"))


def _tagged_cell(kind: str, *runs: Run) -> Node:
    return Node(kind, [Node("P", list(runs))])


def test_a_word_broken_in_a_tagged_cell_is_one_word() -> None:
    """LibreOffice's tagged export: each cell's words come from the tree, its lines as drawn."""
    def heading(x: float, *lines: str) -> Node:
        return _tagged_cell("TH", *(Run(0, x, 200 + 12 * i, text, bold=True) for i, text in enumerate(lines)))

    def row(i: int, label: str) -> Node:
        figures = (_tagged_cell("TD", Run(0, x, 230 + 16 * i, str(100 + 7 * i))) for x in (150, 230, 310))
        return Node("TR", [_tagged_cell("TD", Run(0, 72, 230 + 16 * i, label)), *figures])

    head = Node("TR", [heading(72, "Area"), heading(150, "Househol", "ds"), heading(230, "Employm", "ent"),
                       heading(310, "Cost", "per")])
    body = [row(i, label) for i, label in enumerate(("North", "South", "East"))]
    data = tagged_pdf([Node("P", [Run(0, 72, 140, "The counts below are given by area.")]),
                       Node("Table", [head, *body])])
    markdown = extract(data, filename="tagged.pdf", options=ExtractOptions(ocr_engines=())).markdown
    assert "| Area | Households | Employment | Cost per |" in markdown, markdown
