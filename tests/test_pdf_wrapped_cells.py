"""A description wrapped over several lines in the last row of a table without a grid stays in
its cell when one of its lines starts with a glyph whose ink reaches left of the line's start
("junctions", the hook of a "j", as LibreOffice draws it): flush within a glyph's side
bearing is flush."""

from __future__ import annotations

from typing import Any

from reportlab.lib.pagesizes import A4

from tests.pdf_output import drawn_pdf, markdown_of

ROWS = [("S01", ["Inspection of the two", "footbridges over the river."], "500", "June"),
        ("S02", ["Cleaning of gullies on", "the estate roads."], "102", "April"),
        ("S03", ["New cycle lane along the", "ring road, with signals at", "junctions and new crossings."],
         "572", "September")]


def _works_table(canvas: Any) -> None:
    width, height = A4
    canvas.setFont("Helvetica", 11)
    canvas.drawString(90, height - 90, "The works planned for the year are set out below.")
    y = height - 130
    for x, text in zip((90, 198, 380, 450), ("Scheme", "Description", "Cost", "Start"), strict=True):
        canvas.drawString(x, y, text)
    y -= 26
    for scheme, lines, cost, start in ROWS:
        canvas.drawString(90, y, scheme)
        canvas.drawString(380, y, cost)
        canvas.drawString(450, y, start)
        for line in lines:
            # LibreOffice's "junctions" line of such a cell starts 1.0-1.2 points left of the
            # lines above it (Liberation Sans' "j"), drawn so here.
            canvas.drawString(196.8 if line.startswith("j") else 198, y, line)
            y -= 14.5
        y -= 10
    canvas.drawString(90, y - 10, "All costs are estimates.")


def test_the_last_rows_description_keeps_its_line_that_starts_with_a_hooked_glyph() -> None:
    markdown = markdown_of(drawn_pdf(_works_table))
    assert ("| S03 | New cycle lane along the ring road, with signals at junctions and new crossings. "
            "| 572 | September |") in markdown, markdown
    assert "\n\nAll costs are estimates." in markdown
