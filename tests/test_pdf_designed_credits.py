"""What designed reports set like headings and credit or address under them: a pull quote
without quotation marks, credited tight under it by a dashed line or by a name over a role, is
no heading (a title with its author's name and role under it stays one); a back cover's
organisation over its address is no heading when the address ends in a web or e-mail address."""

from __future__ import annotations

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas as pdf_canvas

from tests.pdf_output import drawn_pdf, headings_of

TEXT = ["Revenue grew in every region this year as customers returned to our stores and the",
        "online business kept the pace it set during the pandemic, while costs were held flat",
        "thanks to the savings programme agreed by the board at the start of the year."]
_, HEIGHT = A4


def _text(canvas: pdf_canvas.Canvas, y: float) -> float:
    canvas.setFont("Times-Roman", 10)
    for line in TEXT:
        canvas.drawString(72, y, line)
        y -= 13
    return y


def _line(canvas: pdf_canvas.Canvas, y: float, text: str, font: str, size: float) -> float:
    canvas.setFont(font, size)
    canvas.drawString(72, y, text)
    return y - size * 1.25


def _section(canvas: pdf_canvas.Canvas, title: str, said: str, credit: list[tuple[str, str]]) -> None:
    y = _line(canvas, HEIGHT - 72, title, "Helvetica-Bold", 15) - 6
    y = _text(canvas, y) - 12
    y = _line(canvas, y, said, "Helvetica", 16) + 4  # (the credit sits on the quotation)
    for text, font in credit:
        y = _line(canvas, y, text, font, 8.5)
    _text(canvas, y - 12)


@pytest.mark.unit
def test_a_pull_quote_over_a_dashed_credit_is_no_heading() -> None:
    data = drawn_pdf(_section, "Our purpose", "Growth with purpose.",
                     [("\u2014 Jane Smith, Chief Executive", "Helvetica")])
    assert headings_of(data) == ["Our purpose"]


@pytest.mark.unit
def test_a_pull_quote_over_its_speakers_name_and_role_is_no_heading() -> None:
    data = drawn_pdf(_section, "Outlook", "We are building a business for the long term",
                     [("Tom Brown", "Helvetica-Bold"), ("Chair", "Helvetica")])
    assert headings_of(data) == ["Outlook"]


@pytest.mark.unit
def test_a_title_over_its_authors_name_and_role_stays_a_heading() -> None:
    data = drawn_pdf(_section, "Our purpose", "Chair's statement",
                     [("Tom Brown", "Helvetica-Bold"), ("Chair", "Helvetica")])
    assert headings_of(data) == ["Our purpose", "Chair's statement"]


def _ruled_in_columns(canvas: pdf_canvas.Canvas) -> None:
    # A ruled pull quote in the left of two columns, its credit under the closing rule; the
    # right column's text stands level with it.
    y = _line(canvas, HEIGHT - 72, "Outlook", "Helvetica-Bold", 15) - 6
    canvas.setFont("Times-Roman", 10)
    for column in (0, 1):
        for row, line in enumerate(TEXT * 4):
            if column or row < 4:
                canvas.drawString(72 + column * 240, y - row * 13, line[:44])
    y -= 4 * 13 + 10
    canvas.line(72, y, 290, y)
    y = _line(canvas, y - 18, "Every customer deserves a fair deal.", "Helvetica", 13) + 4
    canvas.line(72, y, 290, y)
    y -= 12
    for text, font in [("Sam Okoro", "Helvetica-Bold"), ("Managing Director", "Helvetica")]:
        y = _line(canvas, y, text, font, 8.5)
    canvas.setFont("Times-Roman", 10)
    for row, line in enumerate(TEXT * 2):
        canvas.drawString(72, y - 16 - row * 13, line[:44])


@pytest.mark.unit
def test_a_ruled_pull_quote_in_a_column_over_its_credit_is_no_heading() -> None:
    assert headings_of(drawn_pdf(_ruled_in_columns)) == ["Outlook"]


def _back_cover(canvas: pdf_canvas.Canvas, last: str) -> None:
    y = _line(canvas, HEIGHT - 72, "Shareholder information", "Helvetica-Bold", 15) - 6
    y = _text(canvas, y) - 300
    y = _line(canvas, y, "Northwind Group plc", "Helvetica-Bold", 13)
    for text in ["1 King Street", "London EC2V 8AU", last]:
        y = _line(canvas, y, text, "Helvetica", 9)


@pytest.mark.unit
@pytest.mark.parametrize("last", ["www.northwind.com", "investors@northwind.com"])
def test_an_organisation_over_an_address_ending_in_a_web_address_is_no_heading(last: str) -> None:
    assert headings_of(drawn_pdf(_back_cover, last)) == ["Shareholder information"]
