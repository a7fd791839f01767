"""Reading order around two-column text (extractors/pdf_structure.py, _column_runs): a band
of key figures over the columns is read across, and a section title set below balanced
columns at the foot of the page is read after both columns, as a heading."""

from __future__ import annotations

import random
from typing import Any

import pytest
from reportlab.lib.utils import simpleSplit

from tests.pdf_output import drawn_pdf, headings_of, markdown_of

_WORDS = ("revenue margin customers growth strategy investment people operations market "
          "performance dividend efficiency network product digital carbon").split()


def _column_text(canvas: Any, x: float, top: float, lines: int, rng: random.Random) -> None:
    """Prose wrapped to a 230-point column, ``lines`` lines of it."""
    sentences = [" ".join(rng.choice(_WORDS) for _ in range(rng.randint(6, 14))).capitalize() + "."
                 for _ in range(lines)]
    canvas.setFont("Times-Roman", 10)
    for row, text in enumerate(simpleSplit(" ".join(sentences), "Times-Roman", 10, 230)[:lines]):
        canvas.drawString(x, top - 12 * row, text)


def _report_page(canvas: Any, title_below: bool = True) -> None:
    rng = random.Random(3)
    canvas.setFont("Helvetica-Bold", 24)
    canvas.drawString(40, 790, "Annual Report 2025")
    for x, figure, label in ((40, "$89.3m", "Group revenue up 15%"),
                             (220, "$72.3m", "Operating profit up 9%"),
                             (400, "$4.6%", "Margin up 2 points")):
        canvas.setFont("Helvetica-Bold", 22)
        canvas.drawString(x, 740, figure)
        canvas.setFont("Helvetica", 8)
        canvas.drawString(x, 726, label)
    canvas.setFont("Helvetica-Bold", 14)
    canvas.drawString(40, 690, "Chair's statement")
    _column_text(canvas, 40, 664, 24, rng)
    _column_text(canvas, 310, 664, 24, rng)
    if title_below:
        canvas.setFont("Helvetica-Bold", 14)
        canvas.drawString(40, 354, "Financial review")


@pytest.mark.unit
def test_key_figures_over_two_columns_are_read_across() -> None:
    markdown = markdown_of(drawn_pdf(_report_page))
    at = [markdown.index(text) for text in ("$89.3m", "$72.3m", "$4.6%", "Chair's statement")]
    assert at == sorted(at)


@pytest.mark.unit
def test_a_title_below_balanced_columns_is_read_after_them() -> None:
    pdf = drawn_pdf(_report_page)
    assert headings_of(pdf)[-1] == "Financial review"
    markdown = markdown_of(pdf)
    assert markdown.rstrip().split("\n")[-1].lstrip("#") == " Financial review"


def _unbalanced_page(canvas: Any) -> None:
    # A word processor fills the first column before the second: the first runs on below
    # the second's end, past a sub-heading, and is read before it.
    rng = random.Random(5)
    _column_text(canvas, 40, 780, 30, rng)
    canvas.setFont("Helvetica-Bold", 11)
    canvas.drawString(40, 400, "Next steps")
    _column_text(canvas, 40, 380, 4, rng)
    canvas.setFont("Times-Roman", 10)
    canvas.drawString(310, 780, "Second column starts here and runs")
    _column_text(canvas, 310, 768, 16, rng)


@pytest.mark.unit
def test_a_first_column_running_on_below_the_second_is_read_first() -> None:
    markdown = markdown_of(drawn_pdf(_unbalanced_page))
    assert markdown.index("Next steps") < markdown.index("Second column starts here")
