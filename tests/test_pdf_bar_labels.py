"""A bar chart's category labels, the line of words right under its bars, are no row of the
table set under the chart (they read as its header and pushed the real header into the
body); the column rules of a grid, which hold text, are no bars."""

from __future__ import annotations

from typing import Any

import pytest

from tests.pdf_output import drawn_pdf, markdown_of

REGIONS = ["North", "South", "East", "West", "Central"]
TABLE = [["Region", "2022", "2023", "Change"],
         *([name, f"{100 + 7 * r}", f"{110 + 5 * r}", f"{1.5 * (r - 2):.1f}"]
           for r, name in enumerate(REGIONS))]


def _markdown_rows(cells: list[list[str]]) -> str:
    rows = ["| " + " | ".join(row) + " |" for row in cells]
    return "\n".join([rows[0], "| " + " | ".join("---" for _ in cells[0]) + " |", *rows[1:]])


def _table(canvas: Any, y: float) -> None:
    """TABLE from baseline ``y`` down: labels flush left, figures right-aligned, header bold."""
    for r, row in enumerate(TABLE):
        canvas.setFont("Helvetica-Bold" if r == 0 else "Helvetica", 9)
        canvas.drawString(56, y - 13 * r, row[0])
        for c, text in enumerate(row[1:]):
            canvas.drawRightString(230 + 60 * c, y - 13 * r, text)


def _chart_over_table(stroke: int) -> bytes:
    def draw(canvas: Any) -> None:
        canvas.setFont("Helvetica", 10)
        canvas.drawString(56, 780, "The chart and the table below give the figures by region.")
        canvas.setFont("Helvetica", 8)
        for value in (0, 50, 100, 150):
            canvas.drawRightString(90, 597 + 0.9 * value, str(value))
        for i, (name, value) in enumerate(zip(REGIONS, (120, 80, 100, 60, 130), strict=True)):
            canvas.rect(110 + 58 * i, 600, 30, 0.9 * value, fill=1, stroke=stroke)
            canvas.drawCentredString(125 + 58 * i, 588, name)
        _table(canvas, 560)
        canvas.setFont("Helvetica", 10)
        canvas.drawString(56, 460, "Source: regional accounts.")
    return drawn_pdf(draw)


@pytest.mark.parametrize("stroke", [0, 1])
def test_a_bar_charts_category_labels_are_no_row_of_the_table_under_it(stroke: int) -> None:
    markdown = markdown_of(_chart_over_table(stroke))
    assert _markdown_rows(TABLE) in markdown, markdown


def test_a_table_right_under_a_grid_of_uneven_column_rules_keeps_its_header() -> None:
    def draw(canvas: Any) -> None:
        canvas.setFont("Helvetica", 10)
        canvas.drawString(56, 780, "The grid and the table below give the figures by region.")
        # A grid of two rows under a header cell spanning the last two columns: its middle
        # column rule starts lower than the others.
        canvas.setLineWidth(0.5)
        for y in (740, 725, 710, 695):
            canvas.line(56, y, 296, y)
        canvas.line(56, 740, 56, 695)
        canvas.line(136, 740, 136, 695)
        canvas.line(216, 725, 216, 695)
        canvas.line(296, 740, 296, 695)
        canvas.setFont("Helvetica", 9)
        canvas.drawString(60, 729, "Area")
        canvas.drawString(140, 729, "Counts")
        for r, row in enumerate((["Coast", "12", "14"], ["Metro", "15", "19"])):
            for c, text in enumerate(row):
                canvas.drawString(60 + 80 * c, 714 - 15 * r, text)
        _table(canvas, 685)
        canvas.setFont("Helvetica", 10)
        canvas.drawString(56, 590, "Source: regional accounts.")
    markdown = markdown_of(drawn_pdf(draw))
    assert _markdown_rows(TABLE) in markdown, markdown
