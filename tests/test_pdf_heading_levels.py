"""Heading levels of untagged PDFs whose heading styles are set within 10 % of each other's
size (Word 2010's Heading 1 and 2 at 14 and 13 points, Word 2013's Heading 2 and 3 at 13 and
12): two levels when a step of a point or more parts them, each used by two headings or more
and both above the body; one level when one style's size jitters by fractions of a point
(office probe class close_sizes)."""

from __future__ import annotations

from collections import Counter

from extractors import pdf_headings
from tests.test_pdf_structure import SENTENCES, make_pdf, markdown_of, paragraph

TEXT = " ".join(SENTENCES[:2])


def _report(outline: list[tuple[str, float]], body: float = 11.0) -> bytes:
    """A title at 22 points, then each (heading, size) in bold over a paragraph of body text."""
    lines: list[tuple] = [(72, 50, "Review of library services", 22, "Helvetica-Bold")]
    top = 90.0
    for text, size in outline:
        lines.append((72, top, text, size, "Helvetica-Bold"))
        body_lines, top = paragraph(top + size + 8, TEXT, size=body, leading=body * 1.25)
        lines += body_lines
        top += 18
    return make_pdf(lines)


def _headings(markdown: str) -> list[tuple[int, str]]:
    return [(len(line) - len(line.lstrip("#")), line.lstrip("#").strip())
            for line in markdown.splitlines() if line.startswith("#")]


def test_heading_styles_a_point_apart_are_two_levels():
    """Word 2010's Heading 1 and Heading 2 (14 and 13 points, bold, an 11-point body): the
    sections and their sub-sections rank apart."""
    outline = [("Introduction", 14), ("Background", 13), ("Scope", 13), ("Method", 14), ("Data", 13),
               ("Analysis", 13), ("Findings", 14)]
    got = _headings(markdown_of(_report(outline)))
    assert got == [(1, "Review of library services"), (2, "Introduction"), (3, "Background"), (3, "Scope"),
                   (2, "Method"), (3, "Data"), (3, "Analysis"), (2, "Findings")]


def test_a_chain_of_close_sizes_makes_a_level_each():
    """13, 12 and 11 points over a 10-point body (each step within 10 % of the one above)."""
    outline = [("Introduction", 13), ("Background", 12), ("Sources", 11), ("Surveys", 11),
               ("Scope", 12), ("Method", 13)]
    got = _headings(markdown_of(_report(outline, body=10)))
    assert [level for level, _ in got] == [1, 2, 3, 4, 4, 3, 2]


def test_one_style_whose_size_jitters_stays_one_level():
    """Sizes a fraction of a point apart (one style measured on other glyphs, or scaled) and
    a step of a point used by one heading alone are no second level."""
    jitter = [("Introduction", 14), ("Background", 13.6), ("Method", 13.8), ("Findings", 14)]
    assert {level for level, _ in _headings(markdown_of(_report(jitter)))[1:]} == {2}
    once = [("Introduction", 14), ("Background", 13), ("Method", 14), ("Findings", 14)]
    assert {level for level, _ in _headings(markdown_of(_report(once)))[1:]} == {2}


def test_a_step_down_to_the_body_size_is_no_level_of_its_own():
    """The lower side of a step must stand above the body: bold body-size headings under
    headings a point larger are ranked by the rules for body-size headings, not the step."""
    ladder = pdf_headings._Ladder(Counter({12.0: 3, 11.0: 3}), body_size=11.0)
    assert ladder.rank(12.0) == ladder.rank(11.0) == 0
    ladder = pdf_headings._Ladder(Counter({12.0: 3, 11.0: 3}), body_size=10.0)
    assert (ladder.rank(12.0), ladder.rank(11.0)) == (0, 1)


def test_a_size_between_two_close_levels_takes_the_nearer():
    """A size the ladder was not made of (a heading used once, left out when the document
    has more sizes than levels) between two levels a step apart ranks with the nearer."""
    ladder = pdf_headings._Ladder(Counter({14.0: 2, 13.0: 2}), body_size=11.0)
    assert (ladder.rank(13.9), ladder.rank(13.2), ladder.rank(16.0)) == (0, 1, -1)
