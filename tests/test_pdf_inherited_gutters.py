"""A register's page whose next column holds only a few lines (office probe register_notice): the
lines closing one notice ("[FR Doc. ...]", "BILLING CODE ...") set at the head of the second
column beside a full first one prove no gutter of their own (too few rows hold prose on both
sides), so the two columns' lines were read across, row by row.  The document's other pages
prove the gutter: the page takes it where its own rows agree."""

from __future__ import annotations

from typing import Any

from tests.pdf_output import drawn_pdf, markdown_of
from tests.test_pdf_register_notices import PROSE, ROMAN, SIZE, _column_x, _paragraph

CONTACT = ("FOR FURTHER INFORMATION CONTACT: Jane Smith, Food and Drug Administration, telephone "
           "(202) 555-0190; email info@fda.gov.")
CLOSING = ["[FR Doc. 2026-03992 Filed 3-1-26; 8:45 am]", "BILLING CODE 4164-01-P"]
SENTENCES = [sentence.strip() + "." for sentence in PROSE.split(".") if sentence.strip()]


def _prose(canvas: Any, column: int, y: float, count: int, turn: int) -> float:
    """``count`` justified paragraphs of the sentences in turn (no two lines of the page alike:
    a repeated paragraph's stretched spaces would line up like a gutter)."""
    for at in range(count):
        k = (turn + at) % len(SENTENCES)
        y = _paragraph(canvas, column, y - 3, [(" ".join(SENTENCES[k:] + SENTENCES[:k]), ROMAN)])
    return y


def _running_head(canvas: Any, page: int) -> None:
    canvas.setFont(ROMAN, SIZE)
    canvas.drawString(_column_x(0), 842.0 - 36.0, "Federal Register / Vol. 91, No. 36 / Notices")
    canvas.drawRightString(_column_x(3) - 14.0, 842.0 - 36.0, str(1401 + page))


def _pages(canvas: Any) -> None:
    top = 842.0 - 40.0
    for page in range(2):  # two pages of three justified columns
        _running_head(canvas, page)
        for column in range(3):
            _prose(canvas, column, top, 6, page + column)
        canvas.showPage()
    _running_head(canvas, 2)
    y = _paragraph(canvas, 0, top, [(CONTACT, ROMAN)])
    _prose(canvas, 0, y, 5, 1)
    y = top
    for line in CLOSING:  # the second column's few lines, a little space between them
        y -= SIZE * 1.2 + 4
        canvas.setFont(ROMAN, SIZE)
        canvas.drawString(_column_x(1), y, line)


def test_a_page_with_a_few_lines_in_its_next_column_takes_the_documents_gutter() -> None:
    lines = markdown_of(drawn_pdf(_pages)).splitlines()
    assert CONTACT in lines
    assert any(line.startswith(CLOSING[0]) for line in lines)


def _two_pages(canvas: Any, short_prose: bool) -> None:
    """A first page of three justified columns; on the second a full first column and, at the
    head of the second, a paragraph's last few justified lines (``short_prose``) over the
    notice's closing lines."""
    top = 842.0 - 40.0
    _running_head(canvas, 0)
    for column in range(3):
        _prose(canvas, column, top, 6, column)
    canvas.showPage()
    _running_head(canvas, 1)
    y = _paragraph(canvas, 0, top, [(CONTACT, ROMAN)])
    _prose(canvas, 0, y, 5, 1)
    y = _paragraph(canvas, 1, top, [(" ".join(SENTENCES[1:3]), ROMAN)]) if short_prose else top
    for line in CLOSING:
        y -= SIZE * 1.2 + 4
        canvas.setFont(ROMAN, SIZE)
        canvas.drawString(_column_x(1), y, line)


def test_the_second_page_of_two_takes_the_gutter_its_own_short_justified_column_starts_at() -> None:
    """A document of two pages has one other page to prove a gutter; the page's own short
    column is the second witness: justified lines of prose starting at the gutter's right edge
    and ending flush with each other (register_notice-502: the notice's closing lines and the
    next notice's head in the first column beside a short second column were read across as a
    table)."""
    lines = markdown_of(drawn_pdf(_two_pages, True)).splitlines()
    assert CONTACT in lines
    assert any(line.startswith(" ".join(SENTENCES[1:3])) for line in lines)
    assert not any(line.startswith("|") for line in lines)
