"""The tables of a statistical annex (issue 32, tests/office_probes.py's statistical_annex): a
unit row of several units ("thousands" over counts, "%" over rates) under two header levels
is a header row of its own; the last row's short label wrapped in a narrow stub column goes on
under it; a table's notes and source under it, each a sentence on a short line of its own, are
paragraphs apart; a caption over a table cuts off what stands above it (a landscape page's
running header in two pieces); a stub label wrapped before a capital in rows set as tight as
its lines goes on its row when its line is full; a figure flagged "r" is a figure; a label
broken at a line-end hyphen is one word again, a compound's hyphen kept.  And where the rules
must not reach: a header line of a unit and words stays the headings' second line, a
lower-case line running over the figures under the last row is no cell, a paragraph wrapped
under a table stays one, a title without a "Table" label cuts nothing, a label alone under a
short label (or a bold one under a bold total reaching the stub's end) stays a row, a capital
after a figure is no flag."""

from __future__ import annotations

from typing import Any

from tests.pdf_output import drawn_pdf, markdown_of

FONT, BOLD, SIZE, PITCH = "Helvetica", "Helvetica-Bold", 9, 11.0
RIGHTS = [290.0, 345.0, 400.0, 455.0, 510.0]
ROWS = [("All persons", "3,476.8", "1,032.9", "21.3", "78.1"),
        ("16 to 24", "192.7", "698.0", "39.7", "60.5"),
        ("25 to 49", "3,446.0", "710.2", "8.7", "30.2 r"),
        ("50 to 64", "7,593.3", "815.3", "2.9", "77.3")]


def _table_rows(cells: list[list[str]]) -> str:
    rows = ["| " + " | ".join(row) + " |" for row in cells]
    return "\n".join([rows[0], "| " + " | ".join("---" for _ in cells[0]) + " |", *rows[1:]])


def _right(canvas: Any, y: float, texts: list[str] | tuple[str, ...], font: str = FONT) -> None:
    canvas.setFont(font, SIZE)
    for right, text in zip(RIGHTS, texts, strict=False):
        if text:
            canvas.drawRightString(right, y, text)


def _header(canvas: Any, top: float, units: list[str]) -> float:
    """"Age group" over two spanning headings, each over "Men" and "Women", over ``units``;
    the y of the first body row."""
    canvas.setFont(BOLD, SIZE)
    canvas.drawString(72, top, "Age group")
    canvas.drawCentredString((RIGHTS[0] - 40 + RIGHTS[1]) / 2, top, "Employed")
    canvas.drawCentredString((RIGHTS[2] - 40 + RIGHTS[3]) / 2, top, "Employment rate")
    canvas.line(RIGHTS[0] - 45, top - 3, RIGHTS[1], top - 3)
    canvas.line(RIGHTS[2] - 45, top - 3, RIGHTS[3], top - 3)
    _right(canvas, top - PITCH, ["Men", "Women", "Men", "Women"], BOLD)
    _right(canvas, top - 2 * PITCH, units)
    canvas.line(72, top - 2 * PITCH - 3, RIGHTS[3], top - 2 * PITCH - 3)
    return top - 3 * PITCH - 2


def _body(canvas: Any, top: float, rows: list[tuple[str, ...]] = ROWS) -> float:
    """The rows down from ``top``; the y under the last."""
    y = top
    for row in rows:
        canvas.setFont(FONT, SIZE)
        canvas.drawString(72, y, row[0])
        _right(canvas, y, row[1:])
        y -= PITCH
    return y


def _annex_page(canvas: Any, units: list[str]) -> None:
    canvas.setFont(FONT, 11)
    canvas.drawString(72, 780, "The tables below give the labour market figures for the latest year.")
    y = _body(canvas, _header(canvas, 750, units))
    canvas.setFont(FONT, 7.5)
    canvas.drawString(72, y - 4,
                      "Note: estimates for the latest quarters are provisional and will be revised.")
    canvas.drawString(72, y - 4 - 9, "Source: Labour Force Survey.")


HEADER = [["Age group", "Employed", "", "Employment rate", ""], ["", "Men", "Women", "Men", "Women"]]


def test_a_row_of_several_units_under_two_header_levels_is_a_header_row() -> None:
    units = ["thousands", "thousands", "%", "%"]
    expected = _table_rows([*HEADER, ["", *units], *map(list, ROWS)])
    assert expected in markdown_of(drawn_pdf(_annex_page, units))


def test_a_header_line_of_a_unit_and_words_stays_the_headings_second_line() -> None:
    # (Not every cell a unit: "%" beside "of total" is each heading's wrapped second line.)
    markdown = markdown_of(drawn_pdf(_annex_page, ["thousands", "of total", "%", "of total"]))
    assert "| Men thousands | Women of total | Men % | Women of total |" in markdown


def test_notes_each_a_sentence_on_a_short_line_under_a_table_are_paragraphs() -> None:
    lines = markdown_of(drawn_pdf(_annex_page, ["thousands", "thousands", "%", "%"])).splitlines()
    assert "Note: estimates for the latest quarters are provisional and will be revised." in lines
    assert "Source: Labour Force Survey." in lines


def _wrapped_under_table(canvas: Any) -> None:
    """A paragraph under the table whose first line fills the measure and ends a sentence,
    the page's measure set by the lead line over the table."""
    canvas.setFont(FONT, 11)
    canvas.drawString(72, 780, "The tables below give the labour market figures for the latest year, by age.")
    y = _body(canvas, _header(canvas, 750, ["thousands", "thousands", "%", "%"]))
    canvas.setFont(FONT, 11)
    canvas.drawString(72, y - 20,
                      "Employment rose in every age group over the year to the autumn, most of all.")
    canvas.drawString(72, y - 33, "Rates for the youngest group are less certain than the others.")


def test_a_paragraph_wrapped_under_a_table_stays_one() -> None:
    markdown = markdown_of(drawn_pdf(_wrapped_under_table))
    assert ("Employment rose in every age group over the year to the autumn, most of all. Rates for the "
            "youngest group are less certain than the others.") in markdown.splitlines()


STUB = 140.0  # a narrow stub column: labels wrap in it


def _wrapped_labels(canvas: Any, last: tuple[str, ...], note: str = "") -> None:
    """A table whose labels wrap in a narrow stub (one in the middle, over two lines) and
    whose last row is ``last`` (its label's lines: the first on the row), then ``note`` set
    tight under it in the stub."""
    y = _header(canvas, 750, ["thousands", "thousands", "%", "%"])
    rows = [(("All persons aged 16", "and over"), ("3,476.8", "1,032.9", "21.3", "78.1")),
            (("16 to 24",), ("192.7", "698.0", "39.7", "60.5")),
            (("Mining and quarrying;", "electricity and gas"), ("3,446.0", "710.2", "8.7", "30.2")),
            (("50 to 64",), ("7,593.3", "815.3", "2.9", "77.3")),
            (last, ("5,712.4", "9,250.6", "7.0", "36.6"))]
    for label, figures in rows:
        canvas.setFont(FONT, SIZE)
        for k, text in enumerate(label):
            canvas.drawString(72, y - k * PITCH, text)
        _right(canvas, y, figures)
        y -= PITCH * len(label)
    if note:
        canvas.setFont(FONT, SIZE)
        canvas.drawString(72, y, note)
    canvas.drawString(72, y - 30, "Source: Labour Force Survey.")


def test_a_short_last_label_wrapped_in_lower_case_goes_on_under_its_row() -> None:
    markdown = markdown_of(drawn_pdf(_wrapped_labels, ("Public administration,", "defence, education and",
                                                        "health")))
    assert "| Public administration, defence, education and health | 5,712.4 | 9,250.6 | 7.0 | 36.6 |" \
        in markdown
    assert "| All persons aged 16 and over | 3,476.8 | 1,032.9 | 21.3 | 78.1 |" in markdown


def test_a_last_label_wrapped_under_sub_headings_over_the_figures_goes_on() -> None:
    # (The stub's reach is its labels', not the sub-headings' over the figures: "Men" and
    # "Women" under the stub's heading are no first cells, and the labels that wrap are full.)
    markdown = markdown_of(drawn_pdf(_wrapped_labels, ("Wholesale and retail trade;", "Repair of vehicles")))
    assert "| Wholesale and retail trade; Repair of vehicles | 5,712.4 | 9,250.6 | 7.0 | 36.6 |" in markdown


def test_a_lower_case_line_reaching_over_the_figures_under_the_last_row_is_no_cell() -> None:
    # (A line under the last row that runs on across the figure columns is a note, whatever
    # its first letter: the stub's lines stay inside the stub.)
    note = "excluding students in full-time education, whose figures are given in Table A7 of the release"
    markdown = markdown_of(drawn_pdf(_wrapped_labels, ("65 and over",), note=note))
    assert "| 65 and over | 5,712.4 | 9,250.6 | 7.0 | 36.6 |" in markdown
    assert note in markdown.splitlines()


def _running_header_over_caption(canvas: Any, caption: str) -> None:
    """A landscape-like page: a running header in two pieces at a tab, a caption under it, the
    table under that (the header as close over the caption as a table's rows)."""
    canvas.setFont(FONT, 8)
    canvas.drawString(72, 790, "Labour market statistics 2026")
    canvas.drawString(330, 790, "Annex B: Statistical tables")
    canvas.setFont(BOLD, 9)
    canvas.drawString(72, 772, caption)
    y = _body(canvas, _header(canvas, 752, ["thousands", "thousands", "%", "%"]))
    canvas.setFont(FONT, 7.5)
    canvas.drawString(72, y - 4, "Source: Labour Force Survey.")


def test_a_caption_over_a_table_cuts_off_the_lines_above_it() -> None:
    markdown = markdown_of(drawn_pdf(_running_header_over_caption,
                                     "Table B3 Economic activity by age, 2026"))
    assert "| Age group | Employed |  | Employment rate |  |" in markdown
    rows = [line for line in markdown.splitlines() if line.startswith("|")]
    assert not any("Labour market statistics" in row for row in rows)


def test_a_title_without_a_label_over_a_table_cuts_nothing() -> None:
    # (No "Table" label: the rule leaves the block whole; the table is found as before.)
    markdown = markdown_of(drawn_pdf(_running_header_over_caption, "Economic activity by age, 2026"))
    assert "| Age group | Employed |  | Employment rate |  |" in markdown
    assert "| 50 to 64 | 7,593.3 | 815.3 | 2.9 | 77.3 |" in markdown


def _tight_stub(canvas: Any, after: tuple[str, bool], flag: str = "", pitch: float = PITCH) -> None:
    """Rows set as tight as a cell's lines (no space between rows), labels wrapped in a narrow
    stub ("Yorkshire and The" over "Humber": the stub reaches no further than its longest
    line); then a label alone on its row, ``after`` (text, bold), under a row whose label
    stops short (a bold one: under a bold total whose label reaches furthest), over one more
    row.  ``flag`` after the wrapped row's figures ("5,077.8 r": revised); ``pitch`` between
    lines (a row's and a label's)."""
    y = _header(canvas, 750, ["thousands", "thousands", "%", "%"])
    flagged = tuple(f"{figure} {flag}".strip() for figure in ("5,077.8", "41.1", "9,042.3", "75.7"))
    rows = [(("United Kingdom",), ("5,501.2", "6.3", "3,906.3", "n/a"), True),
            (("Yorkshire and The", "Humber"), flagged, False),
            (("of which: Inner", "London"), ("2,857.9", "..", "896.0", "3.7"), False),
            (("Scotland",), ("2,642.3", "2.5", "8,617.9 r", "6.6"), False),
            *([(("Total Great Britain and islands",), ("7,642.3", "3.5", "9,617.9", "7.6"), True)]
              if after[1] else []),
            ((after[0],), (), after[1]),
            (("Northern Ireland",), ("1,036.4", "2.4", "9,364.2", "2.9"), False)]
    for label, figures, bold in rows:
        for k, text in enumerate(label):
            canvas.setFont(BOLD if bold else FONT, SIZE)
            canvas.drawString(72, y - k * pitch, text)
        _right(canvas, y, figures)
        y -= pitch * len(label)
    canvas.setFont(FONT, SIZE)
    canvas.drawString(72, y - 20, "Source: Business Register and Employment Survey.")


def test_a_stub_label_wrapped_before_a_capital_in_tight_rows_is_one_cell() -> None:
    markdown = markdown_of(drawn_pdf(_tight_stub, ("Wales", False)))
    assert "| Yorkshire and The Humber | 5,077.8 | 41.1 | 9,042.3 | 75.7 |" in markdown
    assert "| of which: Inner London | 2,857.9 | .. | 896.0 | 3.7 |" in markdown


def test_a_label_alone_under_a_short_label_stays_a_row() -> None:
    markdown = markdown_of(drawn_pdf(_tight_stub, ("Wales", False)))
    assert "| Scotland | 2,642.3 | 2.5 | 8,617.9 r | 6.6 |" in markdown
    assert "| Wales |  |  |  |  |" in markdown


def test_a_bold_label_alone_under_a_bold_total_reaching_the_stubs_end_stays_a_row() -> None:
    # (Accounts: "Total current liabilities" over "Current assets", both bold, rows tight.)
    markdown = markdown_of(drawn_pdf(_tight_stub, ("Northern", True)))
    assert "| Total Great Britain and islands | 7,642.3 | 3.5 | 9,617.9 | 7.6 |" in markdown
    assert "| Northern |  |  |  |  |" in markdown


def test_a_label_broken_at_a_compounds_hyphen_keeps_the_hyphen() -> None:
    markdown = markdown_of(drawn_pdf(_wrapped_labels, ("of which: in full-", "time education")))
    assert "| of which: in full-time education | 5,712.4 | 9,250.6 | 7.0 | 36.6 |" in markdown


def test_a_label_hyphenated_at_a_line_end_is_one_word_again() -> None:
    markdown = markdown_of(drawn_pdf(_wrapped_labels, ("Local education author-", "ities and academies")))
    assert "| Local education authorities and academies | 5,712.4 | 9,250.6 | 7.0 | 36.6 |" in markdown


def test_a_row_of_flagged_figures_is_a_row_of_figures() -> None:
    # ("5,077.8 r": a figure flagged revised; its row's label may wrap like any figures' row.)
    markdown = markdown_of(drawn_pdf(_tight_stub, ("Wales", False), "r"))
    assert "| Yorkshire and The Humber | 5,077.8 r | 41.1 r | 9,042.3 r | 75.7 r |" in markdown


def test_a_capital_after_a_figure_is_no_flag() -> None:
    # (Flags are lower case: "41.1 R" is a figure and a word, no figure; the label stays apart.)
    markdown = markdown_of(drawn_pdf(_tight_stub, ("Wales", False), "R"))
    assert "| Yorkshire and The Humber |" not in markdown


def _portrait_and_landscape(footer: str, landscape_at: int) -> bytes:
    """Three pages of a few lines each, a running footer ``footer`` with the page's number
    (0.5 inch above each page's foot), the page ``landscape_at`` (1-based) turned."""
    import io

    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.pdfgen import canvas as pdf_canvas

    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, pagesize=A4, invariant=1)
    for number in range(1, 4):
        size = landscape(A4) if number == landscape_at else A4
        canvas.setPageSize(size)
        width, height = size
        canvas.setFont(FONT, 11)
        for k in range(6):
            text = f"Line {k + 1} of the text on page {number}, set in the body."
            canvas.drawString(72, height - 90 - 16 * k, text)
        canvas.setFont(FONT, 9)
        canvas.drawCentredString(width / 2, 36, footer.format(number))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_a_landscape_pages_footer_stands_as_far_above_its_foot_as_the_others() -> None:
    markdown = markdown_of(_portrait_and_landscape("B-{}", 2))
    assert "B-2" not in markdown.splitlines() and "B-1" not in markdown.splitlines()


def test_a_line_at_the_landscape_pages_portrait_footer_height_stays_text() -> None:
    # (Measured from the foot: a body line of the landscape page at the portrait footer's
    # height from the top is no footer of it.)
    markdown = markdown_of(_portrait_and_landscape("B-{}", 2))
    assert "Line 6 of the text on page 2, set in the body." in markdown


def test_a_label_line_spaced_as_the_rows_are_is_a_row() -> None:
    # (Rows 20 points apart, more than a 9-point label's leading: "Humber" under "Yorkshire and
    # The" stands where a row would, as a section's label under a subtotal does in accounts.)
    markdown = markdown_of(drawn_pdf(_tight_stub, ("Wales", False), "", 20.0))
    assert "| Yorkshire and The Humber |" not in markdown


def _section_rows(canvas: Any) -> None:
    """Rows set as tight as a cell's lines, each label on one line; sections' labels alone on
    their rows ("Services"), one under the stub's widest label ("Manufacturing of food and
    drink"): no label wraps."""
    y = _header(canvas, 750, ["thousands", "thousands", "%", "%"])
    rows = [("All industries", ("5,501.2", "6.3", "3,906.3", "4.1")), ("Production", ()),
            ("Mining and quarrying", ("2,857.9", "1.2", "896.0", "3.7")),
            ("Manufacturing of food and drink", ("2,642.3", "2.5", "8,617.9", "6.6")), ("Services", ()),
            ("Retail", ("1,036.4", "2.4", "9,364.2", "2.9")),
            ("Transport", ("1,036.4", "2.4", "9,364.2", "2.9"))]
    for label, figures in rows:
        canvas.setFont(FONT, SIZE)
        canvas.drawString(72, y, label)
        _right(canvas, y, figures)
        y -= PITCH
    canvas.drawString(72, y - 20, "Source: Business Register and Employment Survey.")


def test_a_sections_label_under_the_stubs_widest_label_stays_a_row() -> None:
    # (The widest label is full by its own measure only: with no label wrapped short of it, the
    # stub is seen to wrap nowhere, and a section's label under it is a row of its own.)
    markdown = markdown_of(drawn_pdf(_section_rows))
    assert "| Manufacturing of food and drink | 2,642.3 | 2.5 | 8,617.9 | 6.6 |" in markdown
    assert "| Services |  |  |  |  |" in markdown


WRAPPED = ["The committee met four times in the year and reviewed the accounts of each of the",
           "regional offices. The offices were asked to report their staff numbers by March.",
           "Two offices reported late, and their figures are provisional as a result of that,",
           "and the table below gives the costs by office and by quarter for the year."]


def _paragraph_under_wide_table(canvas: Any) -> None:
    """A table reaching further right than the text (as Word lets a table overhang the
    margin), a paragraph under it whose second line ends a sentence a word short of its own
    measure."""
    y = 780.0
    for label, *figures in [("Office", "Q1", "Q2", "Q3", "Q4"), ("North", "1,234", "2,345", "3,456", "4,567"),
                            ("South", "2,234", "3,345", "4,456", "5,567"),
                            ("East", "3,234", "4,345", "5,456", "6,567")]:
        canvas.setFont(FONT, 10)
        canvas.drawString(72, y, label)
        for right, figure in zip((290, 360, 430, 500), figures, strict=True):
            canvas.drawRightString(right, y, figure)
        y -= 13
    y -= 14
    for line in WRAPPED:
        canvas.drawString(72, y, line)
        y -= 12


def test_a_paragraph_under_a_table_wider_than_it_keeps_its_own_measure() -> None:
    markdown = markdown_of(drawn_pdf(_paragraph_under_wide_table))
    assert " ".join(WRAPPED) in markdown.splitlines()
