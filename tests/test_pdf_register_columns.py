"""Register notices' columns over pages (office probe register_notice, issue 32): the same two
lines of a paragraph set again and again, at one height on two pages (in the second column on
one, the first on the next), are the text's, not a running footer, where the column's text
goes on under them, as its sentence does (a two-line running header or footer, one line the
same on every page and the other not, stays running); at a page's top the next notice's head
lines under the text run on from the page before stand after the other column's few last
lines (the last notice's signature and filing lines), not read into that text before them."""

from __future__ import annotations

from typing import Any

import pytest

from tests.pdf_cases import draw_paragraph
from tests.pdf_output import drawn_pdf, markdown_of
from tests.test_pdf_register_notices import BOLD, PROSE, ROMAN, SIZE, _column_x, _paragraph, _prose

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


CHAPTERS = ("Chapter 1 Background to the review", "Chapter 1 Background to the review",
            "Chapter 2 How the money was spent", "Chapter 3 What the review found")
RUNNING = "Acme Housing Association Annual Report 2025"
DISCLAIMER = "This report is confidential and may not be shared outside the association."


def _report(canvas: Any, band: str) -> None:
    """Four pages of running text under a two-line running header (``band`` "header": the
    chapter's title over the report's) or over a two-line footer ("footer": a disclaimer over
    the chapter's title and page), one line of each pair the same on every page, the other not,
    at one line pitch at the text's size."""
    for page, chapter in enumerate(CHAPTERS):
        canvas.setFont("Helvetica", 10)
        pair = (chapter, RUNNING) if band == "header" else (DISCLAIMER, f"{chapter} | page {page + 1}")
        y = 815.0 if band == "header" else 50.0
        for text in pair:
            canvas.drawString(60.0, y, text)
            y -= 12.0
        y = 770.0
        for _ in range(8):
            y = draw_paragraph(canvas, PROSE, 60.0, y, 450.0)
        canvas.showPage()


@pytest.mark.parametrize("band", ["header", "footer"])
def test_a_running_line_over_or_under_the_bands_line_that_varies_stays_running(band: str) -> None:
    text = markdown_of(drawn_pdf(_report, band))
    assert RUNNING not in text and DISCLAIMER not in text
