"""Borderless tables with two or three header rows, as Word (through LibreOffice) and browsers
set them: years over sub-headings that are years too, the row of sub-headings a blank line
under the years, a year centred over its run of columns next to a narrow column of row
labels, the row labels' heading centred down a three-line header; and values made of digit
groups a word space apart ("020 7946 4476") under one heading, one cell each."""

from __future__ import annotations

from typing import Any

from tests.pdf_output import drawn_pdf, markdown_of

BODY = [["Coast", "5,148", "4,221", "3,576", "685", "9,622", "2,694"],
        ["East", "7,156", "6,547", "8,440", "6,195", "9,015", "7,388"],
        ["Rural", "8,325", "4,494", "688", "549", "6,064", "7,716"],
        ["Valley", "5,317", "6,326", "7,040", "8,713", "2,794", "9,283"]]
GROUPS = [["Region", "2018", "", "", "2024", "", ""],
          ["", "2022", "2023", "Change", "2022", "2023", "Change"]]


def _markdown_rows(cells: list[list[str]]) -> str:
    rows = ["| " + " | ".join(row) + " |" for row in cells]
    return "\n".join([rows[0], "| " + " | ".join("---" for _ in cells[0]) + " |", *rows[1:]])


def _lead(canvas: Any) -> None:
    canvas.setFont("Helvetica", 10)
    canvas.drawString(72, 780, "The table below sets out the figures for each region and year.")


def _right(canvas: Any, y: float, rights: list[float], texts: list[str], font: str = "Helvetica") -> None:
    canvas.setFont(font, 10)
    for right, text in zip(rights, texts, strict=True):
        canvas.drawRightString(right, y, text)


def _body(canvas: Any, x: float, top: float, pitch: float, rights: list[float], columns: int | None = None
          ) -> None:
    """BODY's rows down from ``top``: the labels at ``x``, the figures (up to ``columns``)
    right-aligned at ``rights``."""
    for r, row in enumerate(BODY):
        canvas.setFont("Helvetica", 10)
        canvas.drawString(x, top - pitch * r, row[0])
        _right(canvas, top - pitch * r, rights, row[1:columns])


def _years_over_years(canvas: Any) -> None:
    """Word's way: "Region" and two years (each centred over "2022 2023 Change") a row apart
    from the sub-headings, rows 24 points apart (the paragraphs' spacing)."""
    _lead(canvas)
    rights = [171.0 + 62 * c for c in range(6)]
    canvas.setFont("Helvetica-Bold", 10)
    canvas.drawString(72, 740, "Region")
    canvas.drawCentredString((rights[0] - 30 + rights[2]) / 2, 740, "2018")
    canvas.drawCentredString((rights[3] - 30 + rights[5]) / 2, 740, "2024")
    _right(canvas, 716, rights, ["2022", "2023", "Change"] * 2, "Helvetica-Bold")
    _body(canvas, 72, 692, 24, rights)
    canvas.drawString(72, 580, "Source: regional accounts.")


def test_years_over_sub_headings_that_are_years_too_are_two_header_rows() -> None:
    assert _markdown_rows([*GROUPS, *BODY]) in markdown_of(drawn_pdf(_years_over_years))


def _years_over_measures(canvas: Any) -> None:
    """Word's way again: two years, each centred over "Number" and "Rate", a row apart."""
    _lead(canvas)
    rights = [250.0, 340.0, 430.0, 520.0]
    canvas.setFont("Helvetica-Bold", 10)
    canvas.drawString(72, 740, "Region")
    canvas.drawCentredString((rights[0] - 40 + rights[1]) / 2, 740, "2019")
    canvas.drawCentredString((rights[2] - 40 + rights[3]) / 2, 740, "2020")
    _right(canvas, 716, rights, ["Number", "Rate"] * 2, "Helvetica-Bold")
    _body(canvas, 72, 692, 24, rights, columns=5)
    canvas.drawString(72, 580, "Source: regional accounts.")


def test_headings_a_blank_line_under_a_row_of_years_are_its_sub_headings() -> None:
    header = [["Region", "2019", "", "2020", ""], ["", "Number", "Rate", "Number", "Rate"]]
    expected = _markdown_rows([*header, *(row[:5] for row in BODY)])
    assert expected in markdown_of(drawn_pdf(_years_over_measures))


def _browser_groups(canvas: Any) -> None:
    """A browser's two-line header: the years centred over their three columns, the narrow
    row labels' heading centred down both lines (between them)."""
    _lead(canvas)
    rights = [117.0, 151.0, 196.0, 231.0, 265.0, 310.0]
    canvas.setFont("Helvetica-Bold", 10)
    canvas.drawCentredString(145, 740, "2018")
    canvas.drawCentredString(259, 740, "2024")
    canvas.drawString(52, 733.3, "Region")
    _right(canvas, 726.5, rights, ["2022", "2023", "Change"] * 2, "Helvetica-Bold")
    _body(canvas, 52, 713, 13.5, rights)
    canvas.drawString(46, 640, "Source: regional accounts.")


def test_a_year_centred_over_its_columns_does_not_take_the_row_labels_column() -> None:
    assert _markdown_rows([*GROUPS, *BODY]) in markdown_of(drawn_pdf(_browser_groups))


THREE = [["Metro", "7,837", "39.4", "3,539", "6.5", "564", "53.7", "6,486", "26.5"],
         ["South", "134", "42.1", "4,463", "43.6", "3,848", "35.9", "1,774", "54.2"],
         ["West", "601", "2.3", "8,970", "1.5", "6,345", "41.5", "7,015", "43.8"],
         ["Valley", "8,744", "14.1", "7,274", "56.4", "9,158", "14.8", "3,882", "40.9"]]


def _three_levels(canvas: Any) -> None:
    """Years over sexes over measures, the row labels' heading on the middle line (centred
    down the three)."""
    _lead(canvas)
    rights = [128.0 + 45 * c for c in range(8)]
    canvas.setFont("Helvetica-Bold", 10)
    for g, year in enumerate(("2019", "2022")):
        canvas.drawCentredString((rights[4 * g] - 35 + rights[4 * g + 3]) / 2, 740, year)
        for s, sex in enumerate(("Men", "Women")):
            at = 4 * g + 2 * s
            canvas.drawCentredString((rights[at] - 35 + rights[at + 1]) / 2, 726.5, sex)
    canvas.drawString(52, 726.5, "Region")
    _right(canvas, 713, rights, ["Number", "%"] * 4, "Helvetica-Bold")
    for r, row in enumerate(THREE):
        canvas.setFont("Helvetica", 10)
        canvas.drawString(52, 699.5 - 13.5 * r, row[0])
        _right(canvas, 699.5 - 13.5 * r, rights, row[1:])
    canvas.drawString(46, 620, "Source: regional accounts.")


def test_the_row_labels_heading_centred_down_three_header_lines_heads_the_top_one() -> None:
    header = [["Region", "2019", "", "", "", "2022", "", "", ""],
              ["", "Men", "", "Women", "", "Men", "", "Women", ""],
              ["", "Number", "%", "Number", "%", "Number", "%", "Number", "%"]]
    assert _markdown_rows([*header, *THREE]) in markdown_of(drawn_pdf(_three_levels))


PHONES = [["Office", "Telephone", "Balance"],
          ["Los Angeles", "020 7946 4476", "515 274"],
          ["St Albans", "020 7946 1449", "237 024"],
          ["Cape Town", "0277 239 9358", "816 424"],
          ["Rio de Janeiro", "020 7946 6967", "671 543"],
          ["San Francisco", "0385 610 9205", "499 674"]]


def _phones(canvas: Any) -> None:
    """Telephone numbers of eleven digits, their last groups lined up down the column."""
    _lead(canvas)
    for r, row in enumerate(PHONES):
        canvas.setFont("Helvetica-Bold" if r == 0 else "Helvetica", 10)
        y = 740 - 20 * r
        canvas.drawString(72, y, row[0])
        canvas.drawString(200, y, row[1])
        canvas.drawRightString(420, y, row[2])
    canvas.setFont("Helvetica", 10)
    canvas.drawString(72, 600, "Lines are open on weekdays.")


def test_digit_groups_a_word_space_apart_under_one_heading_are_one_value() -> None:
    assert _markdown_rows(PHONES) in markdown_of(drawn_pdf(_phones))
