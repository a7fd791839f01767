"""Two tables without a grid set one under the other, with only an empty paragraph or the
second's caption between them (Word and LibreOffice documents): two tables, not one table
holding the second's header as a row, and not one table with the second lost as loose words."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from reportlab.lib.pagesizes import A4

from tests.pdf_output import drawn_pdf, markdown_of, markdown_table

FIRST = [["Region", "Q1 2020", "Q1 2021", "Q1 2022"],
         ["South", "80.0", "76.52%", "22.2"],
         ["Highland", "53.7", "27.67%", "17.3"],
         ["Metro", "10.6", "21.44%", "92.7"],
         ["East", "82.9", "80.66%", "80.0"]]
SECOND = [["Area", "FY 2020", "FY 2021", "FY 2022", "FY 2023"],
          ["Central", "24.89%", "24.7", "28.00%", "1,204"],
          ["Plains", "94.46%", "81.8", "94.22%", "987"],
          ["Coastal", "84.05%", "0.7", "29.19%", "2,310"]]



def _two_tables(canvas: Any, between: str | None) -> None:
    """FIRST, then ``between`` ("" for an empty line; None for nothing, SECOND a row pitch
    under FIRST) a row pitch under it, then SECOND: both bare, figures flush left in their
    cells as a word processor sets them."""
    width, height = A4
    canvas.setFont("Helvetica", 10)
    canvas.drawString(72, height - 72, "The tables below give the figures for the year.")
    y = height - 110
    for number, cells in enumerate((FIRST, SECOND)):
        if number and between is not None:
            if between:
                canvas.drawString(72, y, between)
            y -= 25
        pitch = 400 / len(cells[0])
        for row in cells:
            for c, text in enumerate(row):
                canvas.drawString(72 + pitch * c, y, text)
            y -= 25
    canvas.drawString(72, y - 10, "Figures are provisional.")


@pytest.mark.parametrize("between", ["", "Table 2: Figures by area", None])
def test_two_bare_tables_one_under_the_other_are_two_tables(between: str) -> None:
    markdown = markdown_of(drawn_pdf(_two_tables, between))
    assert markdown_table(FIRST) + "\n\n" in markdown
    assert markdown_table(SECOND) in markdown
    if between:
        assert f"\n\n{between}\n\n" in markdown


@pytest.mark.system
def test_libreoffice_tables_with_an_empty_paragraph_or_a_caption_between(tmp_path) -> None:
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is not installed: .ci/setup installs it as root")
    from docx import Document

    from tests.office_documents import convert

    sources = []
    for between in ("", "Table 2: Figures by area"):
        document = Document()
        document.add_paragraph("The tables below give the figures for the year.")
        for number, cells in enumerate((FIRST, SECOND)):
            if number:
                document.add_paragraph(between)
            table = document.add_table(rows=len(cells), cols=len(cells[0]))  # no borders
            for r, row in enumerate(cells):
                for c, text in enumerate(row):
                    table.cell(r, c).text = text
        document.add_paragraph("Figures are provisional.")
        sources.append(tmp_path / f"tables-{len(sources)}.docx")
        document.save(str(sources[-1]))
    for pdf in convert(sources, tmp_path / "plain"):
        markdown = markdown_of(pdf.read_bytes())
        assert markdown_table(FIRST) in markdown, markdown
        assert markdown_table(SECOND) in markdown, markdown


THIRD = [["District", "Cases", "Deaths", "Rate"], ["Alpha", "101", "110", "3.0"],
         ["Bravo", "108", "115", "4.5"], ["Charlie", "115", "120", "6.0"]]


def _stacked(canvas: Any, tables: tuple[list[list[str]], ...] = (FIRST, THIRD), bold: bool = True) -> None:
    """``tables`` (FIRST and THIRD: as many columns), their headers bold (or not), each header
    a row pitch under the last table's last row: no gap between them."""
    rows = [(row, r == 0 and bold) for cells in tables for r, row in enumerate(cells)]
    _rows(canvas, "The tables below give the figures for the year.", rows)


def _rows(canvas: Any, intro: str, rows: list[tuple[list[str], bool]]) -> None:
    """A sentence, then ``rows`` (cells, bold or not) a row pitch apart with no rule or gap,
    then a note under them."""
    canvas.setFont("Helvetica", 10)
    canvas.drawString(72, 770, intro)
    y = 740.0
    for row, bold in rows:
        canvas.setFont("Helvetica-Bold" if bold else "Helvetica", 9)
        for c, text in enumerate(row):
            canvas.drawString(72 + 100 * c, y, text)
        y -= 13
    canvas.setFont("Helvetica", 10)
    canvas.drawString(72, y - 20, "Figures are provisional.")


def test_a_bold_header_right_under_a_table_of_as_many_columns_starts_a_second_table() -> None:
    markdown = markdown_of(drawn_pdf(_stacked))
    assert markdown_table(FIRST) + "\n\n" in markdown, markdown
    assert markdown_table(THIRD) in markdown, markdown


SECTIONED = [["Item", "Region", "2023", "2024"], ["Sales", "North", "120", "130"],
             ["Costs", "North", "80", "85"], ["Southern office", "(continued)", "", ""],
             ["Sales", "South", "90", "95"], ["Costs", "South", "60", "62"]]


def _sectioned(canvas: Any) -> None:
    """One table, its header bold, and a bold section row labelling fewer columns than the
    rows under it fill: no second table's header."""
    _rows(canvas, "The table below gives the figures by office.",
          [(row, r in (0, 3)) for r, row in enumerate(SECTIONED)])


def test_a_bold_section_row_inside_a_table_starts_no_second_table() -> None:
    markdown = markdown_of(drawn_pdf(_sectioned))
    assert markdown_table(SECTIONED) in markdown, markdown


# FIRST's figures under the sheet's header of quarters, then a second header of words.
AGES = [["Age group", "Men", "Women", "All persons"], ["Under 16", "12.5", "11.9", "24.4"],
        ["16 to 64", "40.1", "41.3", "81.4"], ["65 and over", "9.8", "12.0", "21.8"]]


def test_a_header_of_words_over_figures_right_under_a_table_starts_a_second_table() -> None:
    """Both headers in the body's weight (a Calc sheet's two tables, no blank row between):
    a row of words where the rows above and below hold figures heads a second table."""
    markdown = markdown_of(drawn_pdf(_stacked, (FIRST, AGES), bold=False))
    assert markdown_table(FIRST) + "\n\n" in markdown, markdown
    assert markdown_table(AGES) in markdown, markdown


@pytest.mark.parametrize("middle", [FIRST[0], ["Wales", "n/a", "n/a", "n/a"]])
def test_a_repeated_header_or_a_row_not_available_inside_a_table_is_a_row(middle: list[str]) -> None:
    """The first header again inside the table, or a row of "n/a", is no second table's header."""
    body = FIRST[1:]
    whole = [FIRST[0], *body, middle, *body]
    markdown = markdown_of(drawn_pdf(_stacked, (whole,), bold=False))
    assert markdown_table(whole) in markdown, markdown
