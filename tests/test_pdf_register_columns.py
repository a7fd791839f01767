"""Register notices' columns over pages (office probe register_notice, issue 32): the same two
lines of a paragraph set again and again, at one height on two pages (in the second column on
one, the first on the next), are the text's, not a running footer, where the column's text
goes on under them; at a page's top the next notice's head lines under the text run on from
the page before stand after the other column's few last lines (the last notice's signature
and filing lines), not read into that text before them."""

from __future__ import annotations

from typing import Any

from tests.pdf_output import drawn_pdf, markdown_of
from tests.test_pdf_register_notices import BOLD, ROMAN, SIZE, _column_x, _paragraph, _prose

TAIL = ("The review found that the burden includes the time",
        "for reviewing instructions and gathering the data", "needed.")


def _tail(canvas: Any, column: int, last: str) -> None:
    """A paragraph's last three lines at the column's foot, the first two as on every page."""
    canvas.setFont(ROMAN, SIZE)
    for at, text in enumerate((*TAIL[:2], TAIL[2] + " " + last)):
        canvas.drawString(_column_x(column), 70.0 - at * SIZE * 1.2, text)


def _two_pages(canvas: Any) -> None:
    for page, (column, last) in enumerate(((1, "A copy is available."), (0, "The agency agrees."))):
        for side in (0, 1):
            y = _prose(canvas, side, 800.0, 3)
            if side == column:
                _paragraph(canvas, side, y - 4, [("Persons with disabilities may call the agency.", ROMAN)])
                _tail(canvas, side, last)
        if not page:
            canvas.showPage()


def test_a_paragraphs_lines_at_one_height_on_two_pages_are_no_running_footer() -> None:
    text = " ".join(markdown_of(drawn_pdf(_two_pages)).split())
    assert text.count(" ".join(TAIL)) == 2


# (Its last line ends a sentence 22 points, two and a half sizes, short of a 240-point measure,
# too little room for "DEPARTMENT": ended only as a justified column's line is.)
SHORT = ("Interested persons are invited to submit written comments on the nominations within the "
         "comment period stated in this notice.")
MEASURE = 240.0
HEAD = ("DEPARTMENT OF HEALTH AND HUMAN SERVICES", "Food and Drug Administration",
        "[Docket No. FDA-2026-4373]")
SIGNED = ("Issued in Denver, Colorado, on February 11, 2026.", "Maria Lopez,", "Manager, Airports Division.",
          "[FR Doc. 2026-03166 Filed 3-4-26; 8:45 am]", "BILLING CODE 3510-22-P")


def _page_top(canvas: Any) -> None:
    """A page's top: the paragraph run on from the page before and a short one, the next
    notice's head lines under them, beside the last notice's signature and filing lines (five
    lines, fewer than a column of running text); the notice's title and columns."""
    width = MEASURE
    y = _prose(canvas, 0, 800.0, 1, width)
    y = _paragraph(canvas, 0, y, [(SHORT, ROMAN)], width=width)
    for text in HEAD:
        y -= SIZE * 1.2
        canvas.setFont(ROMAN, SIZE)
        canvas.drawString(_column_x(0, width), y, text)
    right = 800.0
    for text in SIGNED:
        right -= SIZE * 1.2
        canvas.drawString(_column_x(1, width), right, text)
    y -= SIZE * 1.2 + 6
    canvas.setFont(BOLD, SIZE + 2)
    canvas.drawString(_column_x(0, width), y, "Notice of Availability of the Draft Plan for the Field Office")
    for column in (0, 1):
        _prose(canvas, column, y - 4, 3, width)


def test_a_notices_head_at_a_page_top_follows_the_other_columns_last_lines() -> None:
    paragraphs = [p.lstrip("# ") for p in markdown_of(drawn_pdf(_page_top)).split("\n\n")]
    assert HEAD[0] in paragraphs
    assert paragraphs.index(HEAD[0]) > paragraphs.index(SIGNED[-1])
