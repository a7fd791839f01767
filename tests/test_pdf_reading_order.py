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


_SIDEBAR = ("This section explains how the group creates value for its customers and where it "
            "sells, and it sets out the main risks the board watches and how they are managed "
            "from one year to the next across all of the markets in which the group operates.")


def _sidebar_page(canvas: Any) -> None:
    # A designed report's page: a narrow column of running text beside the main column, in
    # a smaller size and leading, so that their lines interleave down the page.
    rng = random.Random(7)
    canvas.setFont("Helvetica-Bold", 22)
    canvas.drawString(40, 790, "Our business model")
    canvas.setFont("Helvetica-Bold", 8)
    canvas.drawString(40, 752, "IN THIS SECTION")
    canvas.setFont("Helvetica", 8.5)
    for row, text in enumerate(simpleSplit(_SIDEBAR, "Helvetica", 8.5, 140)):
        canvas.drawString(40, 736 - 10.5 * row, text)
    top = 752.0
    for heading in ("How we create value", "Our markets"):
        canvas.setFont("Helvetica-Bold", 14)
        canvas.drawString(210, top, heading)
        sentences = " ".join(" ".join(rng.choice(_WORDS) for _ in range(rng.randint(8, 14))).capitalize()
                             + "." for _ in range(9))
        canvas.setFont("Times-Roman", 10)
        lines = simpleSplit(sentences, "Times-Roman", 10, 340)
        for row, text in enumerate(lines):
            canvas.drawString(210, top - 22 - 12.4 * row, text)
        top -= 22 + 12.4 * len(lines) + 20


@pytest.mark.unit
def test_a_sidebar_of_running_text_is_read_apart_from_the_main_column() -> None:
    pdf = drawn_pdf(_sidebar_page)
    paragraphs = [" ".join(block.split()) for block in markdown_of(pdf).split("\n\n")]
    assert " ".join(_SIDEBAR.split()) in paragraphs
    assert headings_of(pdf) == ["Our business model", "How we create value", "Our markets"]


def _letter(canvas: Any) -> None:
    # The sender's address set right at the top, the date and the addressee's lines set left
    # under it: two blocks one over the other, not two columns.
    canvas.setFont("Helvetica", 10)
    sender = ("Greenfield District Council", "Town Hall", "Market Street", "Greenfield GF1 2AB")
    for row, text in enumerate(sender):
        canvas.drawRightString(520, 780 - 13 * row, text)
    for row, text in enumerate(("12 May 2024", "Our ref: PL/2500", "Ms A Khan", "14 Mill Lane", "Greenfield",
                                "GF3 9XY")):
        canvas.drawString(90, 724 - 13 * row, text)
    canvas.drawString(90, 630, "Dear Ms Khan,")
    lines = simpleSplit(" ".join(["Residents were consulted on the new cycle routes through a series of "
                                  "public meetings in the autumn."] * 4), "Helvetica", 10, 420)
    for row, text in enumerate(lines):
        canvas.drawString(90, 606 - 13 * row, text)
    canvas.drawString(90, 606 - 13 * len(lines) - 24, "Yours sincerely,")


@pytest.mark.unit
def test_a_block_set_right_above_the_lines_set_left_is_read_first() -> None:
    markdown = markdown_of(drawn_pdf(_letter))
    assert markdown.index("Greenfield District Council") < markdown.index("12 May 2024")


def _paragraphs(canvas: Any, x: float, top: float, sizes: list[int], tag: str, rng: random.Random,
                gap: float = 6) -> float:
    """Paragraphs of ``sizes`` lines each down a 240-point column from the baseline ``top``,
    each one's first word ``tag`` and its number, its last line short: the baseline under
    them."""
    canvas.setFont("Times-Roman", 10)
    for number, lines in enumerate(sizes, 1):
        words = " ".join(rng.choice(_WORDS) for _ in range(16 * lines))
        rows = simpleSplit(f"{tag}{number} {words}", "Times-Roman", 10, 240)[:lines]
        rows[-1] = " ".join(rows[-1].split()[:3]) + "."
        for row, text in enumerate(rows):
            canvas.drawString(x, top - 12 * row, text)
        top -= 12 * lines + gap
    return top


def _order(markdown: str, tags: list[str]) -> list[str]:
    """The tags of ``tags`` (paragraphs' first words, headings) in the order read."""
    return sorted(tags, key=markdown.index)


def _sections_page(canvas: Any) -> None:
    # Both columns have a section break; the right one's gap (a heading's space before)
    # happens to face the left one's heading, the right one's heading a line and more lower.
    rng = random.Random(7)
    for x, top, tag, title in ((50, 770, "Left", "2 Related work"), (305, 748, "Right", "4 Results")):
        below = _paragraphs(canvas, x, top, [14], tag, rng) - 28
        canvas.setFont("Helvetica-Bold", 11)
        canvas.drawString(x, below, title)
        _paragraphs(canvas, x, below - 15, [10, 12], tag + "After", rng)


@pytest.mark.unit
def test_a_heading_facing_the_other_columns_section_gap_is_read_in_its_column() -> None:
    markdown = markdown_of(drawn_pdf(_sections_page))
    assert _order(markdown, ["Left1", "2 Related work", "LeftAfter2", "Right1", "4 Results"]) == \
        ["Left1", "2 Related work", "LeftAfter2", "Right1", "4 Results"]


def _drawing_page(canvas: Any, tall: float) -> None:
    # A chart drawn with lines (no picture, no text), ``tall`` points high, in the right column
    # faces the left column's heading; 59 points high, its caption stands level with the line
    # under the heading.
    rng = random.Random(9)
    below = _paragraphs(canvas, 50, 770, [16], "Left", rng) - 14
    canvas.setFont("Helvetica-Bold", 11)
    canvas.drawString(50, below, "3 Method")
    _paragraphs(canvas, 50, below - 15, [10, 8], "LeftAfter", rng)
    below = _paragraphs(canvas, 305, 770, [12], "Right", rng) - 4
    canvas.rect(315, below - tall, 220, tall)
    for k, height in enumerate((0.3, 0.6, 0.9, 0.5)):
        canvas.rect(330 + k * 50, below - tall, 30, height * tall, fill=1)
    canvas.setFont("Times-Roman", 9)
    canvas.drawString(305, below - tall - 14, "Figure 1: Bars of the four groups.")
    _paragraphs(canvas, 305, below - tall - 34, [10], "RightAfter", rng)


@pytest.mark.unit
@pytest.mark.parametrize("tall", [150, 59])
def test_a_heading_facing_a_drawing_is_read_in_its_column(tall: float) -> None:
    markdown = markdown_of(drawn_pdf(_drawing_page, tall))
    assert _order(markdown, ["Left1", "3 Method", "LeftAfter2", "Right1", "Figure 1"]) == \
        ["Left1", "3 Method", "LeftAfter2", "Right1", "Figure 1"]


def _equations_page(canvas: Any) -> None:
    # Display equations (centred, numbered) between a right-hand paragraph's lines stand on
    # the baselines of the left column's paragraphs' short last lines: no row of key figures.
    rng = random.Random(11)
    _paragraphs(canvas, 50, 770, [5] * 5, "Left", rng, gap=0)
    _paragraphs(canvas, 305, 770, [4], "Right", rng, gap=0)
    for baseline, formula, number in ((722, "y = a x + b", "(1)"), (662, "s = (1/n) x + e", "(2)")):
        canvas.setFont("Times-Italic", 10)
        canvas.drawString(390, baseline, formula)
        canvas.setFont("Times-Roman", 10)
        canvas.drawString(520, baseline, number)
    _paragraphs(canvas, 305, 706, [3], "RightMiddle", rng, gap=0)
    _paragraphs(canvas, 305, 646, [8], "RightLast", rng)


@pytest.mark.unit
def test_display_equations_beside_short_lines_are_read_in_their_column() -> None:
    markdown = markdown_of(drawn_pdf(_equations_page))
    assert _order(markdown, ["Left5", "Right1", "y = a x", "RightMiddle1", "s = (1/n)", "RightLast1"]) == \
        ["Left5", "Right1", "y = a x", "RightMiddle1", "s = (1/n)", "RightLast1"]


def _lists_page(canvas: Any) -> None:
    # Each column holds a bulleted list whose values are set right, on the lines of the
    # other column's list: its rows are no band of key figures.
    rng = random.Random(17)
    for x, tag in ((50, "Left"), (305, "Right")):
        below = _paragraphs(canvas, x, 790, [6], tag, rng)
        canvas.setFont("Times-Roman", 10)
        for k, word in enumerate(("venue", "cost", "seats")):
            canvas.drawString(x + 12, below - 12 * k, f"\u2022 {tag} {word}")
            canvas.drawRightString(x + 230, below - 12 * k, str(10 + k))
        _paragraphs(canvas, x, below - 44, [8], tag + "After", rng)


@pytest.mark.unit
def test_lists_with_values_in_both_columns_are_read_down_their_columns() -> None:
    markdown = markdown_of(drawn_pdf(_lists_page))
    assert _order(markdown, ["Left1", "Left seats", "LeftAfter1", "Right1", "Right venue"]) == \
        ["Left1", "Left seats", "LeftAfter1", "Right1", "Right venue"]
