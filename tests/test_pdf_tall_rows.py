"""Tables whose description cell wraps over four to seven lines in every row beside one-line
values (issue 32, tests/office_probes.py's tall_rows): a row is the lines from one row's top to
the next row's top, told by the value cells, the description's lines one cell, though its lines
open with a place's name or a figure and the rows are set as tight as its lines; a note set as
tight under the last row stays a paragraph."""

from __future__ import annotations

from typing import Any

from reportlab.lib.pagesizes import A4

from tests.pdf_output import drawn_pdf, markdown_of, markdown_table, wrapped_lines

FONT, SIZE, PITCH = "Helvetica", 10, 12.5
DESCRIPTIONS = (
    "Inspection of the two footbridges over the River Exe and the culverts under the railway, "
    "Replacement of 2,400 street lamps with new units across the Hillside estate.",
    "Cleaning of gullies and drains along the A379 after the winter storms, New cycle lane along "
    "the ring road with signals at 14 junctions, together with new crossings near St Mary's School.",
    "Repairs to the sea wall at the harbour where the storms of January 2024 damaged the coping, "
    "Tree planting on the verges of the bypass and in Victoria Park.",
    "Resurfacing of Station Road through the village centre and the approach roads, 1,200 metres "
    "of new kerbs, and a new handrail along the Esplanade for the length of the works.",
)
VALUES = [("23", "12.5", "June"), ("306", "28.9", "September"), ("77", "11.0", "April"),
          ("395", "13.9", "January")]


def _table(canvas: Any, description_first: bool) -> list[list[str]]:
    """The works table, its rows set at the description's line pitch (no space between rows);
    returns its cells."""
    width, height = A4
    canvas.setFont(FONT, SIZE)
    canvas.drawString(72, height - 72, "The works planned for the year are set out below.")
    if description_first:
        header, xs, text_x = ["Description", "Cost (£k)", "Share (%)", "Start"], (72, 250, 310, 370), 72
    else:
        header, xs, text_x = ["Scheme", "Description", "Cost (£k)", "Start"], (72, 120, 300, 370), 120
    y = height - 100
    for x, text in zip(xs, header, strict=True):
        canvas.drawString(x, y, text)
    cells = [header]
    for i, (text, (cost, share, start)) in enumerate(zip(DESCRIPTIONS, VALUES, strict=True)):
        y -= PITCH
        lines = wrapped_lines(text, 165, FONT, SIZE)
        assert 4 <= len(lines) <= 7
        values = [cost, share, start] if description_first else [f"S{i + 1:02d}", cost, start]
        value_xs = xs[1:] if description_first else (xs[0], *xs[2:])
        for x, value in zip(value_xs, values, strict=True):
            canvas.drawString(x, y, value)
        for n, line in enumerate(lines):
            canvas.drawString(text_x, y - n * PITCH, line)
        y -= (len(lines) - 1) * PITCH
        cells.append([text, cost, share, start] if description_first else [values[0], text, cost, start])
    canvas.drawString(72, y - PITCH, "All costs are estimates.")
    return cells


def _markdown(description_first: bool) -> tuple[str, list[list[str]]]:
    cells: list[list[str]] = []
    data = drawn_pdf(lambda canvas: cells.extend(_table(canvas, description_first)))
    return markdown_of(data), cells


def test_a_first_column_description_wrapped_over_tight_rows_is_one_cell_per_row() -> None:
    markdown, cells = _markdown(description_first=True)
    assert markdown_table(cells) in markdown, markdown
    assert "\n\nAll costs are estimates." in markdown


def test_a_second_column_description_wrapped_over_tight_rows_is_one_cell_per_row() -> None:
    markdown, cells = _markdown(description_first=False)
    assert markdown_table(cells) in markdown, markdown
    assert "\n\nAll costs are estimates." in markdown
