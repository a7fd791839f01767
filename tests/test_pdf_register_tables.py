"""A register's small table in one justified column beside the next column's text (office probe
register_notice, issue 32): each column's words are looked for tables apart, so a table whose
rows fall between the prose lines beside it (baselines offset) is found, and a column's lines
beside a table of figures in the next column are not read into it."""

from __future__ import annotations

from typing import Any

from reportlab.pdfbase.pdfmetrics import stringWidth

from bench.icdar_tables import markdown_tables
from extractors.pdf_tables import _bridges
from extractors.pdf_words import Word
from tests.pdf_output import drawn_pdf, markdown_of
from tests.test_pdf_register_notices import BOLD, ROMAN, SIZE, WIDTH, _column_x, _paragraph, _prose

HEADER = ("Seat", "Term", "Vacancies")
ROWS = (("Industry", "229", "34"), ("Academic", "551", "24"), ("Public", "285", "50"))
NOMINATIONS = ("The agency will consider all comments received on the nominations before it takes a final "
               "decision. Persons with disabilities who need an accommodation to attend should contact the "
               "agency at least ten days in advance of the meeting.")


def _table(canvas: Any, column: int, y: float, header: tuple[str, ...] = HEADER,
           rows: tuple[tuple[str, ...], ...] = ROWS, pitch: float = 11.9, width: float = WIDTH) -> float:
    """A small table of three columns in a column (``width`` wide) from baseline ``y`` down: its
    heading bold, the label set left and the figures right; the last baseline."""
    x0, step = _column_x(column, width), 0.36 * width
    for r, cells in enumerate((header, *rows)):
        canvas.setFont(BOLD if r == 0 else ROMAN, SIZE)
        for c, text in enumerate(cells):
            if c == 0 or r == 0:
                canvas.drawString(x0 + step * c, y, text)
            else:
                canvas.drawRightString(x0 + step * c + step / 2, y, text)
        y -= pitch
    return y + pitch


def _table_beside_prose(canvas: Any) -> None:
    # The left column's prose, then its table, its rows half a line off the right column's.
    y = _prose(canvas, 0, 800.0, 1)
    y = _table(canvas, 0, y - 14.0)
    _paragraph(canvas, 0, y - 14.0, [(NOMINATIONS, ROMAN)])
    _prose(canvas, 1, 800.0, 4)


def test_a_columns_table_between_the_next_columns_lines_is_found() -> None:
    """Read across the page, the table's rows were interleaved with the other column's lines
    (their baselines half a line apart): no table, each cell a paragraph of its own."""
    markdown = markdown_of(drawn_pdf(_table_beside_prose))
    assert [list(HEADER), *map(list, ROWS)] in markdown_tables(markdown)


LABELLED = (("AGENCY:", "National Oceanic and Atmospheric Administration (NOAA), Commerce."),
            ("ACTION:", "Notice of public meeting."))
DATES = ("Date", "Session", "Seats")
TITLE = "Public Meeting of the Coastal Fisheries Advisory Panel on the Draft Plan"
WIDE = 250.0  # (two columns on the page)
SESSIONS = (("March 10", "33", "30"), ("March 12", "501", "30"), ("March 14", "401", "32"),
            ("March 16", "588", "13"))


def _labels_beside_table(canvas: Any) -> None:
    # A notice's title across the page over two wider columns: the left one's labelled
    # paragraphs on the baselines of the table at the top of the right one, prose under both.
    canvas.setFont(BOLD, SIZE)
    canvas.drawString(_column_x(0), 790.0, TITLE)
    y = top = 784.0
    for label, text in LABELLED:
        y = _paragraph(canvas, 0, y, [(label, BOLD), (text, ROMAN)], width=WIDE) - 2.0
    _prose(canvas, 0, y, 2, width=WIDE)
    y = _table(canvas, 1, top - SIZE * 1.2, DATES, SESSIONS, pitch=SIZE * 1.2, width=WIDE)
    _prose(canvas, 1, y - 6.0, 2, width=WIDE)


def test_a_columns_labelled_lines_beside_a_table_are_not_read_into_it() -> None:
    """Read across the gutter, "AGENCY: ... Administration" made the table's first column: a
    table across the columns with all its figures in one of them and prose in the other is
    looked for in each column apart."""
    assert stringWidth(" ".join(LABELLED[0]), ROMAN, SIZE) > WIDE  # (the label's line is full)
    markdown = markdown_of(drawn_pdf(_labels_beside_table))
    assert [list(DATES), *map(list, SESSIONS)] in markdown_tables(markdown)
    lines = {" ".join(line.split()) for line in markdown.splitlines()}
    assert {" ".join(pair) for pair in LABELLED} <= lines


def test_a_full_line_beside_a_tables_row_does_not_bridge_the_gutter() -> None:
    """A justified line ending flush with the gutter's left side beside a table's row starting
    flush with its right side are the gap the gutter was measured from (to the float): the two
    columns' lines, not one line across them, which a table's reading leaves out."""
    gutter = (203.0, 217.0)
    line = [Word("Administration", 150.0, 100.0, 203.0 + 1e-9, 109.0, SIZE, False),
            Word("March", 217.0, 100.0, 240.0, 109.0, SIZE, False)]
    assert not _bridges(line, [gutter])
    # A title's words across the gutter, a space apart, do bridge it.
    assert _bridges([Word("Advisory", 170.0, 90.0, 205.0, 99.0, SIZE, True),
                     Word("Panel", 207.5, 90.0, 230.0, 99.0, SIZE, True)], [gutter])
