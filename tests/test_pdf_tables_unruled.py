"""Harder borderless tables (issue 32): headers of several levels, cells holding spaces, dense
listings with narrow gutters, and text that only looks like columns (justified prose, bullets
drawn in a symbol font).  Each test reads a small generated PDF (tests/pdf_cases.py's classes
or one drawn here) through the table finder."""

from __future__ import annotations

import io
import random

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as pdf_canvas
from reportlab.platypus import Table, TableStyle

from extractors import pdf_tables
from extractors.pdf_table_blocks import may_hold_table
from extractors.pdf_table_lines import _lines
from extractors.pdf_table_model import FoundTable
from extractors.pdf_tables import find_tables, unruled_tables
from extractors.pdf_words import PageLayout, Word, read_layouts
from tests.pdf_cases import make_case

WORDS = "data cost plan unit rate risk team area case fund goal role task view term type note form".split()
OPEN_SYMBOL = "/usr/share/fonts/truetype/libreoffice/opens___.ttf"


def tables_of(pdf: bytes) -> list[FoundTable]:
    return [table for layout in read_layouts(pdf) for table in find_tables(layout)]


def true_and_found(name: str, seed: int) -> tuple[list[list[str]], list[list[str]]]:
    report = make_case(name, seed)
    found = tables_of(report.pdf)
    assert len(found) == 1, [t.markdown for t in found]
    return report.tables[0].cells, found[0].cells


@pytest.mark.parametrize("seed", [1, 2, 10, 100, 207])
def test_years_over_quarters_head_the_first_column_they_span(seed: int) -> None:
    # "2022" centred over Q1 Q2 Q3 belongs to Q1's column; a row of years over a row of
    # quarters is header, so the columns come from the figures below it.  (Seeds 10 and 207:
    # a year narrower than the gap between its columns' figures still spans them, so "Plan"
    # under it is no second line of it.)
    truth, found = true_and_found("two_level_header", seed)
    assert found == truth


def test_three_header_levels_each_span_their_columns() -> None:
    truth, found = true_and_found("three_level_header", 1)
    assert found[:3] == truth[:3]
    assert found == truth


@pytest.mark.parametrize("seed", [1, 2])
def test_values_with_spaces_are_one_cell(seed: int) -> None:
    # "3 522 458" (digit groups) and "67 200780963" (a fixed prefix) are one value each.
    truth, found = true_and_found("spaced_cells", seed)
    assert found == truth


@pytest.mark.parametrize("seed", [1, 2, 102])
def test_dense_listing_narrow_gutters_are_column_gaps(seed: int) -> None:
    truth, found = true_and_found("dense_listing", seed)
    assert found == truth


def test_headings_left_aligned_over_right_aligned_figures_keep_their_columns() -> None:
    # Word's default: heading cells left-aligned, figures right-aligned in wide columns, so
    # each heading starts left of the gap its column's figures start after.
    cells = [["Item", "Finish", "Status", "Budget"]]
    rng = random.Random(4)
    for label in ("Engineer district", "Harbour", "Footway network", "Supplier", "County"):
        cells.append([label] + [f"{rng.uniform(1, 999):.2f}" for _ in range(3)])
    style = TableStyle([("FONTNAME", (0, 0), (-1, -1), "Helvetica"), ("FONTSIZE", (0, 0), (-1, -1), 10),
                        ("ALIGN", (1, 1), (-1, -1), "RIGHT"), ("ALIGN", (0, 0), (-1, 0), "LEFT")])
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    table = Table(cells, colWidths=[120, 90, 90, 90], style=style)
    table.wrapOn(canvas, 500, 700)
    table.drawOn(canvas, 60, 500)
    canvas.showPage()
    canvas.save()

    found = tables_of(buffer.getvalue())
    assert len(found) == 1 and found[0].cells == cells


def justified_column(lines: list[list[str]], width: float = 150.0, size: float = 10.0) -> bytes:
    """Lines set justified in a narrow column: the spaces of each line stretched alike so
    that both edges are flush."""
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica", size)
    y = 700.0
    for words in lines:
        space = (width - sum(stringWidth(w, "Helvetica", size) for w in words)) / (len(words) - 1)
        x = 72.0
        for word in words:
            canvas.drawString(x, y, word)
            x += stringWidth(word, "Helvetica", size) + space
        y -= size * 1.3
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_justified_prose_in_a_narrow_column_is_not_a_table() -> None:
    # Three words a line stretched to the measure: the wide spaces line up from line to line.

    rng = random.Random(3)
    pdf = justified_column([[rng.choice(WORDS) for _ in range(3)] for _ in range(10)])

    assert tables_of(pdf) == []


def test_justified_check_leaves_a_table_of_words_with_aligned_columns() -> None:
    # The same words in left-aligned columns (gaps differ within a row): a table.
    rng = random.Random(3)

    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica", 10)
    for row in range(8):
        for column in range(3):
            canvas.drawString(72 + 60 * column, 700 - 13 * row, rng.choice(WORDS))
    canvas.showPage()
    canvas.save()

    found = tables_of(buffer.getvalue())
    assert len(found) == 1 and len(found[0].cells[0]) == 3


def test_bullets_in_a_symbol_font_are_a_list_not_a_table() -> None:
    # OpenSymbol's bullets come out as private-use characters (U+F0xx), not as "•".
    if "OpenSymbol" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont("OpenSymbol", OPEN_SYMBOL))
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    items = ["Budget lines reviewed twice", "Owners named for each item", "Targets set for the next year",
             "Risks logged and tracked", "Reports sent each quarter"]
    for i, item in enumerate(items):
        canvas.setFont("OpenSymbol", 10)
        canvas.drawString(72, 700 - 14 * i, "\uf030")
        canvas.setFont("Helvetica", 10)
        canvas.drawString(92, 700 - 14 * i, item)
    canvas.showPage()
    canvas.save()

    assert tables_of(buffer.getvalue()) == []


def test_any_lone_character_in_a_pictograph_font_is_a_bullet() -> None:
    # Wingdings' square bullet maps to "§": the font says it is a marker, not the character.
    words = []
    for i, item in enumerate(["Apples and pears", "Fresh plums", "Dried figs", "Oranges"]):
        top = 100.0 + 14 * i
        words.append(Word("\u00a7", 50, top, 55, top + 10, 10, False, font="Wingdings-Regular"))
        x = 75.0
        for token in item.split():
            words.append(Word(token, x, top, x + 5 * len(token), top + 10, 10, False, font="Arial"))
            x += 5 * len(token) + 2.5

    assert find_tables(PageLayout(1, 600, 800, words=words)) == []


def test_text_above_a_header_stays_out_of_the_table_beyond_six_lines() -> None:
    # Eight lines of label-and-value text over a table of figures: at most six lines above
    # the first row of figures can be its header.
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica", 10)
    y = 700.0
    for i in range(8):
        canvas.drawString(72, y, f"Field {'abcdefgh'[i]}")
        canvas.drawString(200, y, f"Entry {'abcdefgh'[i]}")
        y -= 13
    for r in range(5):
        canvas.drawString(72, y, f"Row {r}")
        for c in range(3):
            canvas.drawRightString(240 + 60 * c, y, f"{(r + 1) * (c + 3) * 1.5:.1f}")
        y -= 13
    canvas.showPage()
    canvas.save()

    found = tables_of(buffer.getvalue())
    assert len(found) == 1
    assert len(found[0].cells) <= 6 + 5
    assert not any("Field a" in cell for row in found[0].cells for cell in row)


@pytest.mark.parametrize("seed", [1, 2, 9])
def test_a_short_paragraph_between_two_styled_tables_keeps_them_apart(seed: int) -> None:
    # Seeds whose two tables (framed, shaded, hairlines under rows: no grid of columns) have a
    # two-line paragraph between them: its lines are prose, not wrapped cells, so the first
    # table ends above it and the second starts below it.
    report = make_case("table_styles", seed)
    found = tables_of(report.pdf)
    assert [t.cells for t in found] == [t.cells for t in report.tables]


@pytest.mark.parametrize("seed", [2, 4, 10])
def test_a_two_line_header_is_one_row_with_its_bottom_aligned_cells_and_units(seed: int) -> None:
    # Balance sheets set "2023" over "£m" and "Notes" on the header's bottom line: one header
    # row ("Notes", "2023 £m"), and "€000" under a year is a unit, not a row of figures.
    truth, found = true_and_found("financial_statement", seed)
    assert found[0] == truth[0]
    assert found == truth


@pytest.mark.parametrize("seed", [2, 11, 19])
def test_a_heading_wider_than_its_column_of_counts_joins_its_top_line(seed: int) -> None:
    # "#" over "encoders" centred over single-digit counts, a left-aligned column of words
    # next to it: "encoders" passes the middle of the gap to that column but reaches none
    # of its words, so it spans nothing and the two lines are one cell ("# encoders").
    truth, found = true_and_found("wrapped_headers", seed)
    assert found[0] == truth[0]
    assert found == truth


def _words(top: float, pieces: list[tuple[float, str]], size: float = 8.0) -> list[Word]:
    """One line's words: each piece (x, text) starts at x, a character half the size wide,
    a space a quarter."""
    out = []
    for x, text in pieces:
        for token in text.split():
            out.append(Word(token, x, top, x + 0.5 * size * len(token), top + size, size, False))
            x += 0.5 * size * len(token) + 0.25 * size
    return out


def test_a_group_heading_over_its_sub_headings_still_spans_them() -> None:
    # "New items" centred over "Number" and "Percent" (not over their right-aligned figures):
    # it reaches the sub-heading beside its own column, so it spans and "Number" under it
    # stays a sub-heading instead of joining it as a second line.
    words = _words(100, [(300, "All items"), (396, "New items"), (490, "Trend items")])
    words += _words(112, [(36, "Content domain"), (287, "Number"), (327, "Percent"), (382, "Number"),
                          (422, "Percent"), (477, "Number"), (517, "Percent")])
    rng = random.Random(5)
    labels = ["Total items", "Literary experience", "Acquire and use information", "Interpret ideas"]
    for r, label in enumerate(labels):
        top = 126 + 12 * r
        words += _words(top, [(36, label)])
        for right in (314, 353, 409, 448, 504, 543):
            text = str(rng.randint(10, 99))
            words += _words(top, [(right - 0.5 * 8 * len(text), text)])

    [found] = find_tables(PageLayout(1, 600, 800, words=words))

    assert found.cells[0] == ["", "All items", "", "New items", "", "Trend items", ""]
    assert found.cells[1] == ["Content domain"] + ["Number", "Percent"] * 3


def spreadsheet_page(rows: list[list[str]], wrap: float = 170.0, size: float = 9.0) -> bytes:
    """A borderless sheet as Calc prints it: labels left-aligned at their columns' left edges
    (a text cell's default), a first column of descriptions wrapped at `wrap` points with the
    row's other cells on its first line (top-aligned), dates right-aligned against references
    left-aligned two points on (cells without padding), amounts and percentages right-aligned;
    a row as tall as its lines, each line `size` * 1.2 and two points between rows."""
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica", size)
    left, date_end = 40.0, 40.0 + wrap + 60
    amount_end, paid_end = date_end + 165, date_end + 222
    y = 700.0
    for r, (description, date, reference, amount, paid) in enumerate(rows):
        lines: list[str] = []
        for word in description.split():
            longer = f"{lines[-1]} {word}" if lines else word
            if lines and stringWidth(longer, "Helvetica", size) <= wrap:
                lines[-1] = longer
            else:
                lines.append(word)
        for i, line in enumerate(lines):
            canvas.drawString(left, y - i * size * 1.2, line)
        if r == 0:  # the header: every label left-aligned in its column
            for x, text in ((date_end - 58, date), (date_end + 2, reference), (date_end + 81, amount),
                            (amount_end + 2, paid)):
                canvas.drawString(x, y, text)
        else:
            canvas.drawRightString(date_end, y, date)
            canvas.drawString(date_end + 2, y, reference)
            canvas.drawRightString(amount_end, y, amount)
            canvas.drawRightString(paid_end, y, paid)
        y -= len(lines) * size * 1.2 + 2
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


SHEET_ROWS = [["Description", "Date", "Reference", "Amount", "Paid"],
              ["Resurfacing of the principal road network including footways", "23/11/2023", "INV-51125",
               "1,374,163", "-10.6%"],
              ["Replacement of street lighting columns with LED units", "21/11/2023", "INV-44457",
               "1,448,969", "15.9%"],
              ["New vehicles for the refuse and recycling fleet", "11/03/2023", "INV-67721", "1,419,397",
               "38.3%"],
              ["Flood defence works along the lower river corridor", "31/05/2023", "INV-36558", "376,254",
               "21.8%"],
              ["Refurbishment of the central library and archive store", "24/08/2023", "INV-44309",
               "1,269,822", "2.4%"],
              ["Extension of the park and ride site to 600 spaces", "23/10/2023", "INV-74337", "1,153,489",
               "-1.2%"]]


def test_a_column_of_long_descriptions_each_capitalised_is_the_tables_own() -> None:
    # Descriptions of eight words and more on one line each are cells (each begins with a
    # capital), not a column of running text beside the table to cut away.
    found = tables_of(spreadsheet_page(SHEET_ROWS, wrap=260))
    assert len(found) == 1 and found[0].cells == SHEET_ROWS


def test_a_description_wrapped_in_its_row_band_is_one_cell() -> None:
    # The second line of "Resurfacing of the principal road network including footways"
    # ("footways", at a line's distance, then two points to the next row) and of "... LED
    # units" (beginning with a capital) join their rows instead of becoming rows of their own.
    found = tables_of(spreadsheet_page(SHEET_ROWS, wrap=170))
    assert len(found) == 1 and found[0].cells == SHEET_ROWS


def test_a_row_of_dates_and_references_missing_its_amount_is_data() -> None:
    # A first row with a date, a reference and one percentage (its amount not available) is
    # a row of the body: dates are data like figures, so it does not join the header.
    rows = [list(r) for r in SHEET_ROWS]
    rows[1][3] = ""
    found = tables_of(spreadsheet_page(rows, wrap=170))
    assert len(found) == 1 and found[0].cells[:2] == rows[:2]


def test_columns_set_two_points_apart_divide_where_the_header_has_a_gap() -> None:
    # Right-aligned dates against left-aligned references: a gutter no wider than a word
    # space in the body, but "Date" and "Reference" stand a cell gap apart over it.  (Wrapped
    # descriptions: a one-line table of them is read as a dense listing, whose narrow gutters
    # are columns anyway.)
    found = tables_of(spreadsheet_page(SHEET_ROWS, wrap=170))
    assert len(found) == 1 and [row[1:3] for row in found[0].cells] == [row[1:3] for row in SHEET_ROWS]


def test_a_note_under_a_table_ends_it_before_the_next_table_on_the_sheet() -> None:
    # Two tables a spreadsheet page holds one under the other, the first closed by a source
    # note a blank row down: the note and the second table are no rows of the first.
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica", 10)
    rng = random.Random(3)
    y = 700.0
    first = [[name, f"{rng.randint(1000, 99999):,}", str(rng.randint(10, 999))]
             for name in ("North", "South", "East", "West")]
    second = [[name, f"{rng.randint(1000, 99999):,}", f"{rng.uniform(-9, 9):.1f}%"]
              for name in ("Roads", "Schools", "Libraries", "Parks")]
    tables = [[["Region", "Income", "Staff"], *first], [["Service", "Budget", "Change"], *second]]
    for index, rows in enumerate(tables):
        for row in rows:
            canvas.drawString(60, y, row[0])
            canvas.drawRightString(260, y, row[1])
            canvas.drawRightString(340, y, row[2])
            y -= 13
        if index == 0:
            y -= 13
            canvas.drawString(60, y, "Source: departmental returns.")
            y -= 26
    canvas.showPage()
    canvas.save()

    found = tables_of(buffer.getvalue())
    assert [t.cells for t in found] == tables


def small_table(extra: tuple[float, str] | None = None, group: str | None = None) -> bytes:
    """Five rows of a borderless table (areas, three right-aligned figures under headings
    left-aligned in their columns), 13 points apart; `group` centred a line over the last
    column; `extra` a line (its distance
    under the last row's top, its text) flush with the first column."""
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica", 10)
    rng = random.Random(5)
    y = 700.0
    if group:
        canvas.drawCentredString(320, y + 20, group)  # a row apart, as Calc sets it
    for r, name in enumerate(("Region", "North", "South", "East", "Yorkshire and the")):
        canvas.drawString(60, y, name)
        for x, width, label in ((200, 70, "Income"), (270, 70, "Staff"), (355, 70, "Rate")):
            if r == 0:  # headings left-aligned in their columns
                canvas.drawString(x - width + 2, y, label)
            else:
                canvas.drawRightString(x, y, f"{rng.uniform(1, 999):.1f}")
        y -= 13
    if extra:
        canvas.drawString(60, y + 13 - extra[0], extra[1])
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_a_group_heading_over_one_column_is_the_headers_top_row() -> None:
    # "Per cent" a line over "Rate" (a merged group cell over one column, the others empty)
    # is the top row of the header, not a line of text above the table.
    [table] = tables_of(small_table(group="Per cent"))
    assert table.cells[0] == ["", "", "", "Per cent"]
    assert table.cells[1] == ["Region", "Income", "Staff", "Rate"]


@pytest.mark.parametrize("text", ["Source: ONS", "The figures are drawn from the survey of providers"])
def test_a_line_close_under_the_last_row_that_is_no_wrapped_cell_stays_out(text: str) -> None:
    # Set as close under the last row as a wrapped cell's next line would be, but a note
    # ("Source:") or a paragraph running on past the first column: the row keeps its label.
    [table] = tables_of(small_table(extra=(11.5, text)))
    assert table.cells[-1][0] == "Yorkshire and the" and len(table.cells) == 5


def test_a_wrapped_last_cell_of_the_table_joins_its_row() -> None:
    # "Yorkshire and the" wrapped in the last row: "Humber" is its next line, set closer
    # under it than the rows are apart.
    [table] = tables_of(small_table(extra=(11.5, "Humber")))
    assert table.cells[-1][0] == "Yorkshire and the Humber" and len(table.cells) == 5


@pytest.mark.parametrize("group", [False, True])
def test_a_row_of_headings_a_blank_line_under_figures_starts_the_next_table(group: bool) -> None:
    # Two tables one under the other with no note between them, only a blank row: the
    # second's headings (no figure in them), or a group heading over them, open a table of
    # their own.
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica", 10)
    rng = random.Random(7)
    first = [[name, f"{rng.randint(1000, 99999):,}", str(rng.randint(10, 999))]
             for name in ("North", "South", "East", "West")]
    second = [[name, f"{rng.randint(1000, 99999):,}", f"{rng.uniform(-9, 9):.1f}%"]
              for name in ("Roads", "Schools", "Libraries", "Parks")]
    tables = [[["Region", "Income", "Staff"], *first], [["Service", "Budget", "Change"], *second]]
    if group:
        tables[1].insert(0, ["", "", "Per cent"])
    y = 700.0
    for index, rows in enumerate(tables):
        if group and index == 1:
            canvas.drawCentredString(320, y, "Per cent")
            y -= 20
        for row in rows[1:] if group and index == 1 else rows:
            canvas.drawString(60, y, row[0])
            canvas.drawRightString(260, y, row[1])
            canvas.drawRightString(340, y, row[2])
            y -= 13
        y -= 13
    canvas.showPage()
    canvas.save()

    assert [t.cells for t in tables_of(buffer.getvalue())] == tables


def tables_drawn(rows: list[list[object]], widths: list[float], style: TableStyle, x: float, top: float,
                 running: tuple[tuple[float, str], ...] = ()) -> list[FoundTable]:
    """The tables found on a page holding one reportlab table whose top edge is at ``top``
    (points from the page's foot), under a running header of 8 pt texts at (x, text)."""
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica", 8)
    for left, text in running:
        canvas.drawString(left, 818, text)
    table = Table(rows, colWidths=widths, style=style)
    table.wrapOn(canvas, 500, 750)
    table.drawOn(canvas, x, top - table._height)
    canvas.showPage()
    canvas.save()
    return tables_of(buffer.getvalue())


def test_a_long_name_sharing_its_start_with_others_stays_in_its_cell() -> None:
    """"Yorkshire and The Humber Rural" among other "Yorkshire and The Humber ..." names: the
    space after their common start lines up into a gutter no body word covers, but the name
    reaching towards the figures is one cell's text, not cut there into the next column."""
    rng = random.Random(3)
    places = ["North East", "London", "West Midlands Rural", "East of England", "Wales", "Scotland",
              "South West", "North West Urban", "Tees Valley", "East Midlands"]
    names = places * 2 + ["Yorkshire and The Humber", "Yorkshire and The Humber Rural",
                          "Yorkshire and The Humber South"]
    rng.shuffle(names)
    cells = [["Code", "Area name", "Households", "Dwellings", "Vacant"]]
    for index, name in enumerate(names):
        figures = [f"{rng.randint(1_000, 250_000):,}" for _ in range(3)]
        cells.append([f"E0600{1000 + 37 * index}", name, *figures])
    style = TableStyle([("FONTNAME", (0, 0), (-1, -1), "Helvetica"), ("FONTSIZE", (0, 0), (-1, -1), 9),
                        ("ALIGN", (2, 0), (-1, -1), "RIGHT")])
    found = tables_drawn(cells, [70, 140, 70, 70, 70], style, 50, 780)
    assert len(found) == 1 and found[0].cells == cells


def test_a_parameter_tables_wrapped_descriptions_stay_in_their_cells() -> None:
    """A documentation page's parameter table: name, type, default and a description wrapped
    over two or three lines in the last column.  Each description's lines below the first
    (one reads as running text: a sentence ends in it) go on with its cell, not rows of
    their own, and the table does not end at them."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    descriptions = [
        "How long a request may take before the client gives up on it and reports the failure.",
        "Whether the server's certificate is checked against the trusted authorities. Turn it off "
        "only for a local test server that signs its own certificate.",
        "The number of records sent in one request; larger batches are faster but use more memory "
        "on the server.",
        "The level from which the client writes its messages to the log.",
    ]
    names = [["timeout", "duration", "30 s"], ["verify_tls", "boolean", "true"],
             ["batch_size", "integer", "500"], ["log_level", "string", "info"]]
    body = ParagraphStyle("cell", fontName="Helvetica", fontSize=9, leading=11)
    rows: list[list[object]] = [["Parameter", "Type", "Default", "Description"]]
    rows += [[*cells, Paragraph(text, body)] for cells, text in zip(names, descriptions, strict=True)]
    style = TableStyle([("FONTNAME", (0, 0), (-1, -1), "Helvetica"), ("FONTSIZE", (0, 0), (-1, -1), 9),
                        ("VALIGN", (0, 0), (-1, -1), "TOP"), ("TOPPADDING", (0, 0), (-1, -1), 4),
                        ("BOTTOMPADDING", (0, 0), (-1, -1), 4)])
    found = tables_drawn(rows, [70, 60, 50, 230], style, 50, 700)
    assert len(found) == 1
    assert found[0].cells == [["Parameter", "Type", "Default", "Description"],
                              *[[*cells, text] for cells, text in zip(names, descriptions, strict=True)]]


def test_a_running_header_over_a_table_is_not_its_first_row() -> None:
    """A page's running header (a date and the title, small, in the top margin, as a browser
    prints it) over a table continued from the page before: a blank and a smaller type
    apart, it is no row of the table, which starts with its own header."""
    rng = random.Random(5)
    cells = [["Code", "Area name", "2021", "2022", "2023"]]
    places = ["North East", "London Rural", "Wales", "South West Urban", "Scotland", "Tees Valley"]
    for index, place in enumerate(places):
        figures = [f"{rng.randint(100, 99_000):,}" for _ in range(3)]
        cells.append([f"E0600{2000 + 41 * index}", place, *figures])
    style = TableStyle([("FONTNAME", (0, 0), (-1, -1), "Helvetica"), ("FONTSIZE", (0, 0), (-1, -1), 11),
                        ("ALIGN", (2, 0), (-1, -1), "RIGHT"), ("TOPPADDING", (0, 0), (-1, -1), 4),
                        ("BOTTOMPADDING", (0, 0), (-1, -1), 4)])
    found = tables_drawn(cells, [80, 130, 70, 70, 70], style, 60, 790,
                         ((24, "12/6/26, 12:00 AM"), (300, "Business Demography, England: 2020")))
    assert len(found) == 1 and found[0].cells == cells


def test_numbered_headings_set_apart_from_their_numbers_are_no_table_rows() -> None:
    # LaTeX sets a section's number a gap before its title, so a heading reads as a line of
    # two cells: under a table (a last row "3.3 | Measuring ...") and stacked ("4", "4.1",
    # "4.1.1" over one another: a column of numbers beside a column of titles) they became
    # table rows (the ICDAR 2013 set's eu-026).  In a type larger than the text's they are
    # headings: the table above ends before them and they make none.
    prose = "the households answered three questions on interest inflation and risk in the survey"
    words: list[Word] = []
    top = 60.0
    for _ in range(6):
        words += _words(top, [(36, prose)], size=10)
        top += 13
    top += 10
    words += _words(top, [(36, "Answer"), (200, "Freq."), (260, "Percent")], size=10)
    for label, count, share in (("kept", "344", "75.2"), ("sold some", "53", "11.6"),
                                ("sold all", "61", "13.2"), ("Total", "458", "100.0")):
        top += 12
        words += _words(top, [(36, label), (200, count), (260, share)], size=10)
    top += 20
    words += _words(top, [(36, "3.3"), (70, "Measuring Financial Literacy")], size=13)
    top += 22
    for _ in range(4):
        words += _words(top, [(36, prose)], size=10)
        top += 13
    top += 12
    for number, title, size in (("4", "Empirical strategies and results", 15.0),
                                ("4.1", "Who is affected by financial losses", 13.0),
                                ("4.1.1", "Model to test hypothesis one", 12.0)):
        words += _words(top, [(36, number), (80, title)], size=size)
        top += 2 * size
    for _ in range(4):
        words += _words(top, [(36, prose)], size=10)
        top += 13

    found = find_tables(PageLayout(1, 600, 800, words=words))

    assert len(found) == 1
    assert found[0].cells[-1] == ["Total", "458", "100.0"]
    assert not any("Measuring" in cell or "Empirical" in cell for row in found[0].cells for cell in row)


PROSE_LEFT = ["Hormone receptor status", "Hormones are chemicals in", "the body that carry",
              "information. The hormones oestrogen", "and progesterone cause some", "types of breast cancer",
              "to grow. These are", "called hormone sensitive cancers."]
PROSE_RIGHT = ["A hormone receptor is", "a protein in a", "cell. In breast cancer,",
               "the hormone receptors receive", "signals from oestrogen and",
               "progesterone to promote growth.", "About three out of", "four contain the receptors."]


def side_by_side(left: list[str], right: list[str], pitch: float = 12.0, gap: float = 170.0) -> bytes:
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica", 9.5)
    for row, (a, b) in enumerate(zip(left, right, strict=True)):
        y = 700 - pitch * row
        if a:
            canvas.drawString(72, y, a)
        if b:
            canvas.drawString(72 + gap, y, b)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_two_columns_of_running_text_in_a_box_are_not_a_table() -> None:
    # Narrow columns of a sidebar (four words a line, as short as a table's cells): the lines
    # of each column go on in lower case from the line above, which ends no sentence.
    assert tables_of(side_by_side(PROSE_LEFT, PROSE_RIGHT)) == []


def test_captions_under_key_figures_are_not_a_table() -> None:
    # Three key figures, each with a caption of three lines under it, set in three columns.
    columns = [["2.5", "kilograms per barrel", "carbon intensity from", "our eastern operations",
                "in the year 2022"],
               ["1st", "woman engineer", "offshore platform engineer", "in the region was employed",
                "by our team in 2020"],
               ["~70%", "of electricity", "production in the country is", "powered by the two fields",
                "as of the year 2022"]]
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica", 9)
    for c, texts in enumerate(columns):
        for r, text in enumerate(texts):
            canvas.drawCentredString(140 + 170 * c, 700 - 12 * r, text)
    canvas.showPage()
    canvas.save()
    assert tables_of(buffer.getvalue()) == []


def test_short_names_beside_lower_case_descriptions_stay_a_table() -> None:
    # A role and what it does: the descriptions go on in lower case, the names are a word or
    # two, so the name column does not run on like prose.
    names = ["surgeon", "breast care nurse", "pathologist", "radiologist", "dietitian", "social worker"]
    tasks = ["performs surgery and biopsies", "provides support and information",
             "examines the tissue samples", "reads the x-rays and scans", "recommends an eating plan",
             "links you to support services"]
    found = tables_of(side_by_side(names, tasks, pitch=18.0, gap=120.0))
    assert len(found) == 1 and [row[0] for row in found[0].cells] == names


def test_running_text_starting_sentences_and_names_is_not_a_table() -> None:
    # Fewer lines go on in lower case (sentences begin, a name is capitalised mid-sentence),
    # but each capital follows a full stop or the line above is running on: prose.
    left = ["The HER2 test looks for", "a protein found on cells.", "This protein makes the",
            "cells grow and divide.", "Tumours with high levels", "are called HER2 positive.",
            "Treatment with targeted", "therapy is then advised."]
    right = ["Several genomic assays", "are available. They include", "the assay made by Oncotype",
             "and two others. None are", "covered by Medicare or", "private health funds.",
             "The results can take", "up to two weeks."]
    assert tables_of(side_by_side(left, right)) == []


def drawn_lines(lines: list[tuple[float, float, list[tuple[float, str]]]]) -> bytes:
    """A page of lines given as (baseline y from the top, font size, [(x, text), ...])."""
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    for y, size, pieces in lines:
        canvas.setFont("Helvetica", size)
        for x, text in pieces:
            canvas.drawString(x, 792 - y, text)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


BODY = [(100 + 12 * i, 9.0, [(72.0, "The survey was repeated in each region over the year with the panel.")])
        for i in range(8)]


def test_labels_wrapped_side_by_side_are_no_table() -> None:
    # Two signature blocks side by side: each affiliation wrapped after "and"; labels under
    # a figure's pictures wrapped after a comma. Their lines are one row, and one or two rows
    # make no table.
    blocks = drawn_lines(BODY + [
        (300, 9.0, [(150, "Institute for Testing"), (320, "Institute for Testing")]),
        (311, 9.0, [(150, "Dept. Materials and"), (320, "Dept. Materials and")]),
        (322, 9.0, [(150, "Reliability Engineering"), (320, "Reliability Engineering")])])
    assert tables_of(blocks) == []
    labels = drawn_lines(BODY + [
        (300, 9.0, [(40, "Goals, subordinate"), (160, "Resources,"), (280, "Organizational roles,")]),
        (311, 9.0, [(40, "objectives, activities, and"), (160, "investments, and"),
                    (280, "responsibilities, and")]),
        (322, 9.0, [(40, "performance measures"), (160, "risk management"), (280, "coordination")])])
    assert tables_of(labels) == []


def test_a_tables_rows_starting_their_own_labels_stay_apart() -> None:
    # Cells ending in "and" or a comma under which a new row label starts are no wrapped row.
    table = drawn_lines(BODY + [
        (300, 9.0, [(72, "Name"), (200, "Role"), (330, "Site")]),
        (311, 9.0, [(72, "Ann Lee"), (200, "Design and"), (330, "Leeds,")]),
        (322, 9.0, [(72, "Bob Day"), (200, "Testing"), (330, "York")]),
        (333, 9.0, [(72, "Cy Hart"), (200, "Planning"), (330, "Hull")])])
    found = tables_of(table)
    assert len(found) == 1
    assert [row[0] for row in found[0].cells] == ["Name", "Ann Lee", "Bob Day", "Cy Hart"]


def test_the_next_text_columns_paragraph_is_cut_from_a_table_beside_it() -> None:
    # A small table in the left text column; the right column's paragraph, whose sentences
    # run across the table's rows, was read in as a fourth column.
    prose = ["The strategy articulates goals and", "objectives for a more coordinated",
             "approach to the challenges. The office", "intends to issue the plan soon",
             "and to report on its progress."]
    cells = [["Pillar", "Goals", "Status"], ["One", "12", "Met"], ["Two", "8", "Open"],
             ["Three", "5", "Met"], ["Four", "9", "Open"]]
    lines = [(300 + 12 * r, 9.0, [(40, row[0]), (110, row[1]), (180, row[2]), (320, prose[r])])
             for r, row in enumerate(cells)]
    found = tables_of(drawn_lines(BODY + lines))
    assert len(found) == 1 and found[0].cells == cells


def test_the_next_columns_paragraph_run_on_from_above_a_table_is_cut_from_it() -> None:
    # A table in the left column of a two-column page; the right column's paragraph, begun
    # above the table's top, ends in three short lines beside its first rows: too few words
    # and no sentence inside for a page column of its own, they were read in as a fourth column.
    # They go on from the line above at its x and pitch.
    prose = ["The council reviewed the works for", "the year and agreed the priorities.",
             "Residents were consulted in the", "autumn, and the spending stayed",
             "within the budget set in March,", "with savings on materials",
             "offsetting higher labour costs."]
    cells = [["Area", "Cases", "Share"], ["North", "12.81%", "81.02%"], ["East", "18.38%", "57.53%"],
             ["Coast", "83.74%", "71.43%"], ["West", "14.54%", "62.11%"]]
    text = [(252 + 12 * r, 9.0, [(320, line)]) for r, line in enumerate(prose)]
    left = [(246 + 12 * r, 9.0, [(40, "Residents were consulted on the new cycle routes")]) for r in range(3)]
    rows = [(302 + 16 * r, 9.0, [(40, row[0]), (110, row[1]), (180, row[2])]) for r, row in enumerate(cells)]
    found = tables_of(drawn_lines(left + text + rows))
    assert len(found) == 1 and found[0].cells == cells, [t.cells for t in found]


def test_a_footer_numbering_the_page_is_no_table_row() -> None:
    # The last lines of two text columns (a colophon) close over the running footer "Page 2":
    # with the footer as a third row they made a table.
    footer = drawn_lines(BODY + [
        (745, 7.0, [(18, "Jane Doe, Managing Director, Public Affairs, (202) 512-4800"),
                    (310, "Staff: Ann Lee, Bob Day and Cy Hart.")]),
        (757, 7.0, [(18, "U.S. Example Office, 441 G Street NW, Washington, DC 20548"),
                    (310, "Cover photo source: stock.example.com")]),
        (772, 6.0, [(18, "Page 2"), (449, "EX-23-106826 | National Strategy")])])
    assert tables_of(footer) == []


def test_titles_in_display_type_side_by_side_are_no_table_rows() -> None:
    # Two panels' titles (16 pt over 9 pt text) side by side over their shaded bands.
    panels = drawn_lines(BODY + [
        (300, 16.0, [(20, "Supermarkets and fuel"), (290, "Coffee and bakeries")]),
        (320, 16.0, [(20, "1.5% points earned"), (290, "2% points earned")]),
        (340, 8.0, [(24, "No limit on points at supermarkets"), (294, "No limit at coffee shops")])])
    assert tables_of(panels) == []


def test_a_table_set_large_throughout_stays_a_table() -> None:
    # A slide's table: every row in display type; nothing in text type to stand apart from.
    rows = [["Region", "2023", "2024"], ["North", "12", "15"], ["South", "9", "11"], ["East", "7", "8"]]
    slide = drawn_lines(BODY + [(300 + 22 * r, 16.0, [(72, row[0]), (250, row[1]), (350, row[2])])
                                for r, row in enumerate(rows)])
    found = tables_of(slide)
    assert len(found) == 1 and found[0].cells == rows


def test_text_in_picture_type_beside_the_text_makes_no_table() -> None:
    # A poster reproduced in a box at a point and a half: its lines interleave with the box's
    # text beside it and made rows of it.
    poster = [(300 + 2.2 * r, 1.5, [(200, f"Step {r} lift"), (230, "arm and hold"), (260, "slowly back")])
              for r in range(12)]
    prose = [(300 + 11 * r, 9.0, [(40, text)])
             for r, text in enumerate(["After surgery you", "can slowly begin"])]
    assert tables_of(drawn_lines(BODY + prose + poster)) == []


def test_a_sheet_fitted_small_to_its_page_keeps_its_table() -> None:
    # Every word at 2.5 pt but the title: the page's own type, not a picture's.
    rows = [["Region", "2023", "2024"], ["North", "12", "15"], ["South", "9", "11"], ["East", "7", "8"]]
    lines = [(100 + 4 * r, 2.5, [(72, row[0]), (100, row[1]), (120, row[2])]) for r, row in enumerate(rows)]
    sheet = drawn_lines([(60, 10.0, [(72, "Sales")]), *lines])
    found = tables_of(sheet)
    assert len(found) == 1 and found[0].cells == rows


def rows_drawn(top: float, size: float, xs: list[float], rows: list[list[str]],
               pitch: float = 12.0) -> list[tuple[float, float, list[tuple[float, str]]]]:
    return [(top + pitch * r, size, [(x, text) for x, text in zip(xs, row, strict=True) if text])
            for r, row in enumerate(rows)]


def test_cells_that_start_with_a_joining_word_are_rows_of_their_own() -> None:
    # No text above breaks off at its end: a table of prepositions ("in" over "on"), a plan
    # whose aims and steps start "to", "by", "in". (Both were read as one wrapped row.)
    prepositions = [["Preposition", "Example"], ["in", "in July"], ["on", "on Monday"], ["at", "at noon"],
                    ["by", "by Friday"], ["for", "for two weeks"]]
    found = tables_of(drawn_lines(BODY + rows_drawn(300, 9.0, [72, 200], prepositions)))
    assert [t.cells for t in found] == [prepositions]
    plan = [["Aim", "How", "When"], ["to cut waiting times", "by hiring nurses", "by March"],
            ["to open two clinics", "with the council", "in the spring"],
            ["to train the staff", "in first aid", "from June"]]
    found = tables_of(drawn_lines(BODY + rows_drawn(300, 9.0, [72, 220, 360], plan)))
    assert [t.cells for t in found] == [plan]


def test_a_first_column_of_lower_case_descriptions_is_the_tables_own() -> None:
    # A classification's descriptions, wrapped in their rows, one with a sentence inside:
    # each row starts its own text (the line above ends none mid-phrase), so the column is
    # no paragraph of the next text column.
    lines = [["Description", "Code", "Firms"], ["growing of cereals and other crops", "0111", "1 204"],
             ["not elsewhere classified", "", ""], ["growing of rice in paddy fields", "0112", "88"],
             ["and other wet crops. Excludes wild rice", "", ""],
             ["growing of vegetables and melons", "0113", "932"]]
    found = tables_of(drawn_lines(BODY + rows_drawn(300, 9.0, [72, 260, 320], lines, pitch=11.0)))
    assert [t.cells for t in found] == [[
        ["Description", "Code", "Firms"],
        ["growing of cereals and other crops not elsewhere classified", "0111", "1 204"],
        ["growing of rice in paddy fields and other wet crops. Excludes wild rice", "0112", "88"],
        ["growing of vegetables and melons", "0113", "932"]]]


def test_a_column_of_page_references_at_the_foot_keeps_its_rows() -> None:
    # An errata table set down into the footer band (LibreOffice's 2 cm margins): its last
    # "Page 11" and "Page 14" rows are no running footer, the rows above name pages too.
    errata = [["Location", "Error", "Correction"], ["Page 3", "Figure 2", "Axis in %"],
              ["Page 7", "Table 4", "Total 412"], ["Page 9", "Line 12", "Read 2019"],
              ["Page 11", "Note 3", "Source ONS"], ["Page 14", "Map 1", "Key added"]]
    prose = [(600 + 12 * i, size, pieces) for i, (_, size, pieces) in enumerate(BODY)]
    found = tables_of(drawn_lines(prose + rows_drawn(700, 9.0, [57, 160, 280], errata, pitch=11.0)))
    assert [t.cells for t in found] == [errata]


def test_a_table_of_figures_keeps_its_header_and_total_set_large() -> None:
    # Column headings at 14 pt over 9 pt rows of figures (the page's type), and an invoice's
    # total at 14 pt: rows of the table, not display lines apart from it.
    head = [["Region", "Sales", "Staff"], ["North", "1 204", "36"], ["South", "988", "29"]]
    lines = [(300, 14.0, [(72, "Region"), (220, "Sales"), (320, "Staff")]),
             *rows_drawn(318, 9.0, [72, 220, 320], head[1:])]
    assert [t.cells for t in tables_of(drawn_lines(BODY + lines))] == [head]
    invoice = [["Item", "Qty", "Amount"], ["Design", "2", "400.00"], ["Printing", "500", "250.00"],
               ["Delivery", "1", "35.00"]]
    lines = [*rows_drawn(300, 9.0, [72, 260, 360], invoice), (352, 14.0, [(72, "Total"), (360, "685.00")])]
    assert [t.cells for t in tables_of(drawn_lines(BODY + lines))] == [invoice + [["Total", "", "685.00"]]]


def test_a_sheet_fitted_small_under_its_notes_keeps_its_table() -> None:
    # A sheet at 2.8 pt under a paragraph of notes in reading type (a fifth of the words and
    # more): no readable line is level with its lines, so they are no picture beside text.
    sheet = [["Area", "Q1", "Q2", "Q3", "Q4"]] + [[f"District {i}", *[str(100 + 7 * i + q) for q in range(4)]]
                                                  for i in range(1, 13)]
    note = "These figures are provisional and will be revised in the next release."
    notes = [(60 + 11 * i, 9.0, [(72.0, note)]) for i in range(6)]
    found = tables_of(drawn_lines(notes + rows_drawn(150, 2.8, [72, 110, 130, 150, 170], sheet, pitch=3.4)))
    assert [t.cells for t in found] == [sheet]


def test_a_row_of_units_under_the_headings_is_a_row_of_its_own() -> None:
    # A spreadsheet's unit row ("£m" under each year, its label cell empty) set as close under
    # the headings as a wrapped line (Calc's rows are as tall as their text): its own header
    # row, not each heading's second line ("2019/20 £m"); office probes, 2026-12-06.
    words = _words(100, [(36, "Item"), (200, "2019/20"), (280, "2020/21"), (360, "2021/22")])
    words += _words(109.5, [(220, "£m"), (300, "£m"), (380, "£m")])
    rng = random.Random(3)
    labels = ["Grants", "Fees", "Rents", "Staff costs", "Energy"]
    for r, label in enumerate(labels):
        top = 119 + 9.5 * r
        words += _words(top, [(36, label)])
        for right in (228, 308, 388):
            text = f"{rng.uniform(10, 999):.1f}"
            words += _words(top, [(right - 0.5 * 8 * len(text), text)])

    [found] = find_tables(PageLayout(1, 600, 800, words=words))

    assert found.cells[:2] == [["Item", "2019/20", "2020/21", "2021/22"], ["", "£m", "£m", "£m"]]
    assert len(found.cells) == 2 + len(labels)


def test_cells_raised_to_the_header_line_above_take_their_words_along() -> None:
    # "Notes" set on a two-line header's bottom line joins the line above; the words of its
    # last line go with it, as a later join of a word broken at the cell's edge reads them.
    from extractors.pdf_table_rows import _raise_bottom_aligned, _Row

    notes = _words(112, [(200, "Notes")])
    upper = _Row(["", "", "2023"], set(), 100.0, 108.0, words={2: _words(100, [(260, "2023")])})
    lower = _Row(["", "Notes", ""], set(), 109.0, 117.0, extents={1: (200.0, 220.0, 20.0)},
                 words={1: notes})
    _raise_bottom_aligned(upper, lower)
    assert upper.cells == ["", "Notes", "2023"] and lower.cells == ["", "", ""]
    assert upper.words[1] == notes and 1 not in lower.words
    assert upper.extents[1] == (200.0, 220.0, 20.0) and not lower.extents


def test_a_heading_a_point_larger_over_a_table_under_a_running_header_is_no_row() -> None:
    """A datasheet's second page: its running header ("TMP-118" and "Rev. C" at the margins,
    in the body's size), a section heading a point larger, then a parameter table of two
    columns.  The heading ends what stands over the table; neither is a row of it."""
    rows = [["Parameter", "Rating"], ["Supply voltage", "−0.3 to 7.0 V"],
            ["Storage temperature", "−65 to 150 °C"], ["ESD (human body model)", "±2 kV"]]
    page = drawn_lines([(40, 9.0, [(72, "TMP-118"), (510, "Rev. C")]),
                        (78, 10.0, [(72, "Absolute maximum ratings")])]
                       + [(95 + 16 * i, 9.0, [(72, name), (280, value)])
                          for i, (name, value) in enumerate(rows)])
    assert [table.cells for table in tables_of(page)] == [rows]


def test_a_header_set_a_point_larger_keeps_its_wrapped_heading_and_its_section_rows() -> None:
    """A header row set a point over the body, one heading wrapped onto a second line under
    it, and a section's label row set as large at the rows' own pitch: no heading over the
    table (that stands further from what is over it than from its table), rows of it."""
    heads = [(72, "Region"), (220, "Population"), (320, "Number of"), (420, "Median pay")]
    figures = [(72, "North"), (220, "1,204"), (320, "512"), (420, "31,200")]
    page = drawn_lines([(100, 11.0, heads), (114, 11.0, [(320, "households")]),
                        (131, 11.0, [(72, "England")])]
                       + [(146 + 15 * i, 10.0, figures) for i in range(4)])
    cells = [table.cells for table in tables_of(page)]
    assert cells == [[["Region", "Population", "Number of households", "Median pay"],
                      ["England", "", "", ""], *[[text for _, text in figures]] * 4]], cells


def test_lines_of_justified_prose_are_not_walked_for_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    # A column of prose (figures in it, word spaces a quarter of the size) has no line of two
    # runs: the finder returns at once, never walking it for candidates (the search of each
    # justified column apart runs on every page set in columns).
    prose = [w for i, text in enumerate(["In 2024 the board met 12 times and agreed",
                                         "to publish 3 reports on the 4 regions it",
                                         "serves, at a cost of 1.2 million in total",
                                         "over the 5 years of the plan it adopted."])
             for w in _words(100.0 + 12 * i, [(50.0, text)])]
    table = [w for i, (label, figure) in enumerate([("Apples", "3"), ("Pears", "12"), ("Plums", "7")])
             for w in _words(100.0 + 12 * i, [(50.0, label), (150.0, figure)])]
    assert not may_hold_table(_lines(prose))
    assert may_hold_table(_lines(table))

    def walked(*args: object, **kwargs: object) -> list[object]:
        raise AssertionError("prose walked for candidate blocks")

    monkeypatch.setattr(pdf_tables, "_candidate_blocks", walked)
    assert unruled_tables(prose) == []
