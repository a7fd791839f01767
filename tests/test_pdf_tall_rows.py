"""Tables whose description cell wraps over four to seven lines in every row beside one-line
values (issue 32, tests/office_probes.py's tall_rows): a row is the lines from one row's top to
the next row's top, told by the value cells, the description's lines one cell, though its lines
open with a place's name or a figure and the rows are set as tight as its lines; a note set as
tight under the last row stays a paragraph.  And where the rule must not reach (adversary3): a
last row's description whose line ends a sentence and is full goes on under it; a short note or
a note across the page set tight under a table of one-line rows is no more of the last row's
label."""

from __future__ import annotations

from typing import Any

import pytest
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


def _table(canvas: Any, description_first: bool, descriptions: tuple[str, ...] = DESCRIPTIONS,
           note: str = "All costs are estimates.") -> list[list[str]]:
    """The works table, its rows set at the description's line pitch (no space between rows),
    and ``note`` under it at that pitch, wrapped across the page; returns its cells."""
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
    for i, (text, (cost, share, start)) in enumerate(zip(descriptions, VALUES, strict=True)):
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
    for line in wrapped_lines(note, width - 144, FONT, SIZE):
        y -= PITCH
        canvas.drawString(72, y, line)
    return cells


def _markdown(description_first: bool, **kwargs: Any) -> tuple[str, list[list[str]]]:
    cells: list[list[str]] = []
    data = drawn_pdf(lambda canvas: cells.extend(_table(canvas, description_first, **kwargs)))
    return markdown_of(data), cells


def test_a_first_column_description_wrapped_over_tight_rows_is_one_cell_per_row() -> None:
    markdown, cells = _markdown(description_first=True)
    assert markdown_table(cells) in markdown, markdown
    assert "\n\nAll costs are estimates." in markdown


def test_a_second_column_description_wrapped_over_tight_rows_is_one_cell_per_row() -> None:
    markdown, cells = _markdown(description_first=False)
    assert markdown_table(cells) in markdown, markdown
    assert "\n\nAll costs are estimates." in markdown


def test_a_last_description_whose_full_line_ends_a_sentence_goes_on_under_it() -> None:
    # ("... during the works." fills its line: "New handrails ..." is the cell's next line, not
    # a note under the table.)
    last = ("Repairs to the sea wall at the harbour where the storms of January 2024 damaged the coping. "
            "Work starts in May. The footpath on the front stays open during the works. New handrails "
            "will be fitted along the Esplanade.")
    assert any(line.endswith("works.") for line in wrapped_lines(last, 165, FONT, SIZE)[:-1])
    markdown, cells = _markdown(description_first=True, descriptions=(*DESCRIPTIONS[:3], last))
    assert markdown_table(cells) in markdown, markdown
    assert "\n\nAll costs are estimates." in markdown


def test_a_note_across_the_page_under_tall_rows_is_no_cell() -> None:
    # (The descriptions end in no full stop: the note opens no sentence after one.  Its last
    # line alone would stay inside the first column.)
    note = ("The costs are estimates made in March and will be revised when the contracts are let; "
            "the dates are those of the start of works on site.")
    descriptions = tuple(text.rstrip(".") for text in DESCRIPTIONS)
    markdown, cells = _markdown(description_first=True, descriptions=descriptions, note=note)
    assert markdown_table(cells) in markdown, markdown
    assert f"\n\n{note}" in markdown


def _one_line_rows(canvas: Any, note: str) -> list[list[str]]:
    """A table of one-line rows, its last row's label of three words or more, ``note`` set
    under it at the rows' pitch; returns its cells."""
    width, height = A4
    canvas.setFont(FONT, SIZE)
    canvas.drawString(72, height - 72, "The works planned for the year are set out below.")
    cells = [["Scheme", "Cost (£k)", "Share (%)", "Start"],
             ["Resurfacing of the main road", "23", "12.5", "June"],
             ["New cycle lane on the ring road", "306", "28.9", "September"],
             ["Inspection of the footbridges", "77", "11.0", "April"]]
    y = height - 100
    for row in cells:
        for x, text in zip((72, 250, 310, 370), row, strict=True):
            canvas.drawString(x, y, text)
        y -= PITCH
    for line in wrapped_lines(note, width - 144, FONT, SIZE):
        canvas.drawString(72, y, line)
        y -= PITCH
    return cells


@pytest.mark.parametrize("note", ["Figures exclude VAT", "Provisional figures for the year"])
def test_a_short_note_under_one_line_rows_is_no_more_of_the_last_label(note: str) -> None:
    cells: list[list[str]] = []
    markdown = markdown_of(drawn_pdf(lambda canvas: cells.extend(_one_line_rows(canvas, note))))
    assert markdown_table(cells) in markdown, markdown
    assert f"\n\n{note}" in markdown
