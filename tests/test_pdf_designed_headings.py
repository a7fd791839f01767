"""True headings set as designed documents set them that the heading rules used to miss
(headrecall, issue 32: the office probes' side_heads, accent_headings, hanging_numbers and
page_foot_headings classes), one test per rule, each on a small PDF drawn here with the look-alike
its rule must still leave alone; and the probes' real exports (LibreOffice, Chromium)."""

from __future__ import annotations

import json
import shutil
from typing import Any

import pytest
from reportlab.lib.pagesizes import A4

from extractors import pdf_table_checks
from tests.pdf_output import drawn_pdf, headings_of, markdown_of, wrapped_lines

WIDTH, HEIGHT = A4
TEXT = ("The council reviewed the programme of works for the year and agreed the priorities for each "
        "district in turn. Spending stayed within the budget set in March, with savings on materials "
        "offsetting higher labour costs. Residents were consulted on the new cycle routes through a "
        "series of public meetings in the autumn.")


def _text(canvas: Any, x: float, top: float, words: str, size: float = 10, font: str = "Helvetica") -> None:
    canvas.setFont(font, size)
    canvas.drawString(x, HEIGHT - top - size, words)


def _paragraph(canvas: Any, x: float, top: float, width: float, words: str = TEXT) -> float:
    """``words`` wrapped to ``width`` from ``top``; the top of the line after them."""
    for line in wrapped_lines(words, width, "Helvetica", 10):
        _text(canvas, x, top, line)
        top += 13
    return top


def test_a_side_head_beside_its_text_is_read_whole_before_it() -> None:
    """A heading in a narrow column left of its section's text, its first line level with the
    text's first (set larger, so its glyphs' top a little lower) and its second with the text's
    second: read whole, then the text, not line by line across the page."""
    def draw(canvas: Any) -> None:
        _text(canvas, 60, 50, "Service report", 22, "Helvetica-Bold")
        top = 100
        for head in (["Housing and", "planning applications"], ["Roads and", "transport"]):
            for at, line in enumerate(head):
                _text(canvas, 60, top + 1.5 + at * 14, line, 12, "Helvetica-Bold")
            top = _paragraph(canvas, 200, top, 330) + 16

    markdown = markdown_of(drawn_pdf(draw))
    assert headings_of(drawn_pdf(draw)) == ["Service report", "Housing and planning applications",
                                           "Roads and transport"]
    assert "## Housing and planning applications\n\nThe council reviewed" in markdown
    assert TEXT in markdown  # (the section's text one paragraph, none of the head's lines in it)


def _outline(canvas: Any, numbers_x: float) -> None:
    """Sections numbered "1", "1.1", "2", "2.1" at one size and weight, the numbers at
    ``numbers_x``, the titles and their text at 90."""
    _text(canvas, 90, 50, "Evaluation of the pilot scheme", 20, "Helvetica-Bold")
    top = 90
    for number, title in (("1", "Introduction"), ("1.1", "Purpose of this report"), ("2", "Method"),
                          ("2.1", "Data sources")):
        _text(canvas, numbers_x, top, number, 10.5, "Helvetica-Bold")
        _text(canvas, 90, top, title, 10.5, "Helvetica-Bold")
        top = _paragraph(canvas, 90, top + 16, 420) + 12


def test_section_numbers_hung_in_the_margin_keep_their_headings() -> None:
    """Numbered headings whose numbers hang in the margin left of the text column, the text
    starting where the titles do: an outline ("2" then "2.1"), not list items whose explanation
    hangs under their text (those stay items, numbered at one depth)."""
    assert headings_of(drawn_pdf(_outline, 50)) == [
        "Evaluation of the pilot scheme", "1 Introduction", "1.1 Purpose of this report", "2 Method",
        "2.1 Data sources"]

    def items(canvas: Any) -> None:
        _text(canvas, 60, 50, "How to apply", 20, "Helvetica-Bold")
        top = _paragraph(canvas, 60, 90, 450)
        for number, lead in (("1.", "Check you are eligible"), ("2.", "Gather your documents"),
                             ("3.", "Fill in the form")):
            _text(canvas, 60, top + 10, number, 10, "Helvetica-Bold")
            _text(canvas, 80, top + 10, lead, 10, "Helvetica-Bold")
            top = _paragraph(canvas, 80, top + 23, 430, TEXT[:150])

    assert headings_of(drawn_pdf(items)) == ["How to apply"]


def test_a_column_of_section_numbers_beside_their_sections_is_no_table() -> None:
    """Two columns, section numbers of two depths beside titles run into sentences: numbered
    sections, their numbers hung in the margin.  A table's column of codes or row numbers
    beside names or figures stays a table."""
    sections = [["1.1", "Purpose of this report The council reviewed the programme of works for the year."],
                ["1.2", "Scope The figures in this release are based on the annual survey of households."],
                ["2", "Method"]]
    assert pdf_table_checks._numbered_outline(sections)
    assert not pdf_table_checks._numbered_outline([["1.1", "Road resurfacing"], ["1.2", "Bridge inspection"],
                                                   ["2", "Street lighting"]])
    assert not pdf_table_checks._numbered_outline([["1", "The council reviewed the programme of works."],
                                                   ["2", "Spending stayed within the budget set in March."],
                                                   ["3", "Residents were consulted on the new routes."]])


def test_a_short_title_wrapped_over_four_lines_in_a_narrow_column_is_a_heading() -> None:
    """A short title set larger than the body, wrapped over four lines of a narrow column (a
    side head, a column of two), three words a line or fewer; four lines of a larger paragraph
    holding more words a line stay text."""
    def draw(canvas: Any) -> None:
        top = 60
        for line in ("Consultation with", "residents and", "local", "businesses"):
            _text(canvas, 60, top, line, 13, "Helvetica-Bold")
            top += 16
        top = _paragraph(canvas, 60, top + 6, 200) + 14
        for line in ("We will publish the results of", "the review in the spring and",
                     "ask residents for their", "views on the new plan"):
            _text(canvas, 60, top, line, 13, "Helvetica-Bold")
            top += 16
        _paragraph(canvas, 60, top + 6, 200)

    assert headings_of(drawn_pdf(draw)) == ["Consultation with residents and local businesses"]


def test_a_compound_broken_over_a_headings_lines_keeps_its_hyphen() -> None:
    """A heading wrapped at a compound's own hyphen ("medium-" over "term") is one Markdown
    line holding the compound, not "medium- term"."""
    def draw(canvas: Any) -> None:
        _text(canvas, 60, 60, "Financial outlook and the medium-", 16, "Helvetica-Bold")
        _text(canvas, 60, 80, "term plan for revenue spending", 16, "Helvetica-Bold")
        _paragraph(canvas, 60, 110, 450)

    assert headings_of(drawn_pdf(draw)) == ["Financial outlook and the medium-term plan for revenue spending"]


def _ruled(canvas: Any, heads: list[str], under: bool, band: bool = False) -> None:
    _text(canvas, 60, 50, "Quarterly performance report", 20, "Helvetica-Bold")
    top = _paragraph(canvas, 60, 90, 450)
    for head in heads:
        top += 14
        if band:  # white on a dark band
            canvas.setFillColorRGB(0.1, 0.2, 0.35)
            canvas.rect(58, HEIGHT - top - 12, 454, 15, stroke=0, fill=1)
            canvas.setFillColorRGB(1, 1, 1)
        _text(canvas, 60, top, head)
        canvas.setFillColorRGB(0, 0, 0)
        if not band:
            y = HEIGHT - top - 13 if under else HEIGHT - top + 3
            canvas.line(60, y, 510, y)
        top = _paragraph(canvas, 60, top + 20, 450)


@pytest.mark.parametrize("look", ["under", "over", "band"])
def test_body_size_lines_set_off_by_a_rule_are_headings(look: str) -> None:
    """Lines at the body's size and weight, each with a rule across right under or over it (or
    set white on a dark band, whose edges are such rules), two or more set alike, head the
    running text after them.  One such line alone is no heading style."""
    heads = ["Summary", "Progress this quarter", "Looking ahead"]
    drawn = drawn_pdf(_ruled, heads, look == "under", look == "band")
    assert headings_of(drawn) == ["Quarterly performance report", *heads]
    assert headings_of(drawn_pdf(_ruled, heads[:1], look == "under", look == "band")) == [
        "Quarterly performance report"]


@pytest.mark.system
def test_probes_of_heading_recall(tmp_path) -> None:
    """The headrecall probes' real exports (LibreOffice, Chromium): their headings, levels
    ranked as the source's, each read right before its text."""
    if shutil.which("soffice") is None or not (shutil.which("chromium") or shutil.which("chromium-browser")):
        pytest.skip("LibreOffice and Chromium are needed: .ci/setup installs them as root")
    from bench.office_probes import passes
    from extractors.base import ExtractOptions
    from extractors.router import extract
    from tests.office_documents import convert
    from tests.office_probes import PROBES
    from tests.web_pages import print_pdf

    made = [("side_heads", 1), ("side_heads", 2), ("side_heads", 7), ("hanging_numbers", 1),
            ("hanging_numbers", 2), ("accent_headings", 2), ("accent_headings", 9),
            ("page_foot_headings", 2), ("page_foot_headings", 3)]
    truths, documents, pages = {}, [], []
    for name, seed in made:
        suffix, data, truth = PROBES[name][1](seed)
        source = tmp_path / f"{name}-{seed}.{suffix}"
        source.write_bytes(data)
        truths[source.stem] = truth
        (documents if suffix == "docx" else pages).append(source)
    pdfs = convert(documents, tmp_path / "plain") + print_pdf(pages, tmp_path / "plain")
    for pdf in pdfs:
        options = ExtractOptions(ocr_engines=())
        markdown = extract(pdf.read_bytes(), filename="probe.pdf", options=options).markdown
        assert passes(markdown, truths[pdf.stem]), f"{pdf.name}: {json.dumps(truths[pdf.stem]['headings'])}"
