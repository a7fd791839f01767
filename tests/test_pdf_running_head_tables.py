"""A gazette's running head over a table (office probe register_notice): the head that holds its
page's number ("12823  Federal Register / Vol. 91 ... / Notices"), set a few points over a table
at the head of a column, lines up with the table's columns; it is a running line, not the
table's first row.  So is a company's running header without a page number spread over the
width about a row's pitch over each page's table (issue 32, tight accounts), while a table's
header row repeated at the head of each page stays the table's."""

from __future__ import annotations

from typing import Any

from reportlab.lib.pagesizes import A4

from bench.icdar_tables import markdown_tables
from extractors.pdf_text import read_text_layer
from tests.pdf_output import drawn_pdf, markdown_of
from tests.test_pdf_register_notices import ROMAN, SIZE, _column_x, _prose

HEAD = "Federal Register / Vol. 91, No. 36 / Monday, March 7, 2026 / Notices"
TABLE = [["Date", "Session", "Seats"], ["March 10", "529", "37"], ["March 12", "662", "45"],
         ["March 14", "915", "52"]]
# The table's columns' left edges (points), in the left column.
CELLS = (43.0, 110.0, 165.0)


def _running_head(canvas: Any, number: int, top: float) -> None:
    canvas.setFont(ROMAN, SIZE)
    canvas.drawString(_column_x(0), top, str(number))
    canvas.drawString(_column_x(0) + 40, top, HEAD)


def _pages(canvas: Any) -> None:
    top = 842.0 - 40.0
    _running_head(canvas, 12823, top)
    y = top - SIZE - 6  # the table's first row 6 points under the head
    for row in TABLE:
        for x, cell in zip(CELLS, row, strict=True):
            canvas.drawString(x, y, cell)
        y -= SIZE * 1.3
    _prose(canvas, 0, y - 6, 3)
    _prose(canvas, 1, y - 6, 3)
    canvas.showPage()
    _running_head(canvas, 12824, top)
    _prose(canvas, 0, top - 12, 5)
    _prose(canvas, 1, top - 12, 5)


def test_a_page_numbered_running_head_over_a_table_is_no_row_of_it() -> None:
    markdown = markdown_of(drawn_pdf(_pages))
    assert TABLE in markdown_tables(markdown)
    assert HEAD not in markdown


YEARS = (2016, 2016, 2017)  # one a page, the first twice: no page number (offsets 2015, 2014)


def _long_table(canvas: Any) -> None:
    """A table over three pages, each page opening with the header row and a row whose scheme
    wraps, its second line at one height on every page, ending in a year."""
    for page, year in enumerate(YEARS):
        y = 842.0 - 40.0
        canvas.setFont(ROMAN, SIZE)
        for x, text in zip((43.0, 330.0, 400.0), ("Scheme", "Cost", "Start"), strict=True):
            canvas.drawString(x, y, text)
        for row in range(20):
            y -= SIZE * 1.6
            lines = [f"Scheme {page}-{row}"]
            if row == 0:
                lines = ["Cleaning of gullies and drains along the",
                         f"coast road after the winter storms of {year}"]
            canvas.drawString(330.0, y, str(100 + row))
            canvas.drawString(400.0, y, "June")
            for k, line in enumerate(lines):
                canvas.drawString(43.0, y - k * SIZE * 1.2, line)
            y -= (len(lines) - 1) * SIZE * 1.2
        canvas.showPage()


def test_a_wrapped_cells_line_ending_in_a_year_at_one_height_on_each_page_stays_in_its_table() -> None:
    cells = {cell for table in markdown_tables(markdown_of(drawn_pdf(_long_table)))
             for row in table for cell in row}
    assert {f"Cleaning of gullies and drains along the coast road after the winter storms of {year}"
            for year in YEARS} <= cells


ACCOUNTS_HEAD = ("Acme Holdings plc", "Annual report 2025", "Notes to the accounts")


def _accounts(canvas: Any) -> None:
    """Three pages of notes to a company's accounts, a running header spread over the width
    (the firm at the left margin, the report centred, the part at the right margin) on each,
    about a row's pitch over the table of pages 2 and 3 (a heading and a line under it on
    page 1); each table headed "£m 2025 2024", its figures set right under the years."""
    for page, rows in enumerate((8, 22, 9)):
        if page:
            canvas.showPage()
        top = 842.0 - 50.0
        canvas.setFont(ROMAN, SIZE)
        canvas.drawString(56, top, ACCOUNTS_HEAD[0])
        canvas.drawCentredString(A4[0] / 2, top, ACCOUNTS_HEAD[1])
        canvas.drawRightString(539.0, top, ACCOUNTS_HEAD[2])
        y = top - 13
        if page == 0:
            canvas.drawString(56, y - 40, "Trade receivables are stated net of allowances for credit losses.")
            y -= 64
        for row in range(rows + 1):
            cells = ("£m", "2025", "2024") if row == 0 else \
                (f"{('Trade', 'Loan', 'Lease')[page]} item {row}", f"{(row * 37) % 900 + 100}.{row % 10}",
                 f"{(row * 53) % 900 + 100}.{row % 7}")
            canvas.drawString(56, y, cells[0])
            canvas.drawRightString(430, y, cells[1])
            canvas.drawRightString(539, y, cells[2])
            y -= 13
        canvas.drawString(56, y - 20, f"The amounts of note {12 + page} fall due within one year.")


def test_a_running_header_spread_over_the_width_a_rows_pitch_over_each_pages_table_is_no_row_of_it() -> None:
    layer = read_text_layer(drawn_pdf(_accounts))
    for page in layer.pages:
        assert "Acme" not in page.markdown, page.markdown
        assert list(ACCOUNTS_HEAD) == page.running[:3]
        tables = markdown_tables(page.markdown)
        assert tables and tables[0][0] == ["£m", "2025", "2024"], page.markdown


def _two_ledgers(canvas: Any) -> None:
    """Two pages each opening with a ledger whose header row repeats but for its first cell
    ("Item", "Supplier"), its labels set left over amounts set right (a spreadsheet's)."""
    for page, first in enumerate(("Item", "Supplier")):
        if page:
            canvas.showPage()
        y = 842.0 - 50.0
        canvas.setFont(ROMAN, SIZE)
        for x, text in zip((56.0, 200.0, 330.0), (first, "Reference", "Amount"), strict=True):
            canvas.drawString(x, y, text)
        for row in range(12 - 4 * page):
            y -= 13
            canvas.drawString(56.0, y, f"{first} {row + 1}")
            canvas.drawString(200.0, y, f"INV-{10000 + row * 379 + page}")
            canvas.drawRightString(420.0, y, f"£{(row * 7919) % 90000 + 1000:,}")
        canvas.drawString(56.0, y - 30, "Amounts include value added tax where it is charged.")


def test_a_header_row_repeated_but_for_its_first_cell_atop_two_pages_stays_in_its_tables() -> None:
    layer = read_text_layer(drawn_pdf(_two_ledgers))
    heads = [tables[0][0] for page in layer.pages if (tables := markdown_tables(page.markdown))]
    assert heads == [["Item", "Reference", "Amount"], ["Supplier", "Reference", "Amount"]]
