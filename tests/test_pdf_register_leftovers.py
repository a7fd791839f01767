"""Register notices' leftovers (office probe register_notice, issue 32): an italic "A." sub-heading
whose box reaches its font's ascent over body text whose boxes stop lower is measured foot to
foot (its box made the space under it look as wide as the space over it); a bold title wrapped
ragged ends where the next line, opening with a bold label, goes on in the body's weight; a
justified column's line ending a sentence short of the edge, if by less than an em, ends its
paragraph."""

from __future__ import annotations

from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont

from extractors.pdf_drafts import Draft, Style
from extractors.pdf_headings import _binds
from extractors.pdf_structure import build_lines
from extractors.pdf_words import Word
from tests.pdf_output import drawn_pdf, headings_of, markdown_of, wrapped_lines
from tests.test_pdf_register_notices import BOLD, PROSE, ROMAN, SIZE, _column_x, _paragraph, _prose

_FONTS = "/usr/share/fonts/truetype/liberation/"
pdfmetrics.registerFont(TTFont("RegisterSerif", _FONTS + "LiberationSerif-Regular.ttf"))
pdfmetrics.registerFont(TTFont("RegisterSerif-Bold", _FONTS + "LiberationSerif-Bold.ttf"))


def _body(canvas: Any, column: int, y: float) -> float:
    return _paragraph(canvas, column, y, [(PROSE, "RegisterSerif")])


def _notice(canvas: Any, column: int, y: float, title: str, sections: list[str]) -> float:
    """A title set larger, a paragraph, then sections, each 4 points under the text over it and 2
    over its own: "I." bold, "A." italic in a face whose box reaches higher than the body's."""
    canvas.setFont("RegisterSerif-Bold", SIZE + 2)
    y -= (SIZE + 2) * 1.2
    canvas.drawString(_column_x(column), y, title)
    y = _body(canvas, column, y - 3)
    for section in sections:
        font = "Times-Italic" if section.startswith(("A.", "B.")) else "RegisterSerif-Bold"
        y = _paragraph(canvas, column, y - 4, [(section, font)], justified=False)
        y = _body(canvas, column, y - 2)
    return y


def _sub_sections(canvas: Any) -> None:
    y = _body(canvas, 0, 800.0)
    _notice(canvas, 0, y - 8, "Public Meeting of the Panel", ["I. Background", "A. Proposed Action",
                                                              "B. Costs and Benefits"])
    y = _body(canvas, 1, 800.0)
    y = _notice(canvas, 1, y - 8, "Request for Nominations", ["I. Authority", "II. Background"])
    _notice(canvas, 1, y - 8, "Notice of Meeting", ["I. Discussion", "A. Agenda"])


def test_an_italic_sub_heading_with_a_taller_box_is_measured_foot_to_foot() -> None:
    """Edge to edge "A. Agenda" stood 4.5 points under the text over it and 4.2 over the text
    under it (its box 1.8 points taller than the body's): spaced as text, unheaded."""
    headings = headings_of(drawn_pdf(_sub_sections))
    assert {"A. Proposed Action", "B. Costs and Benefits", "A. Agenda"} <= set(headings)


TITLE = "Agency Information Collection Activities Under the Paperwork Reduction Act"


def _title_over_label(canvas: Any) -> None:
    y = _prose(canvas, 0, 800.0, 2)
    y = _paragraph(canvas, 0, y - 6, [(TITLE, BOLD)], justified=False)
    y = _paragraph(canvas, 0, y, [("AGENCY:", BOLD), ("Environmental Protection Agency (EPA).", ROMAN)])
    _prose(canvas, 0, y - 2, 2)
    _prose(canvas, 1, 800.0, 5)


def test_a_bold_title_wrapped_ragged_ends_over_a_bold_labels_line() -> None:
    """The title's lines end short (set ragged), "AGENCY:" is bold but its line is not: the
    title is a heading, the labelled line a paragraph of its own."""
    paragraphs = markdown_of(drawn_pdf(_title_over_label)).split("\n\n")
    assert f"# {TITLE}" in [p.replace("##", "#") for p in paragraphs]
    assert "AGENCY: Environmental Protection Agency (EPA)." in paragraphs


ACTION = "ACTION: Notice; request for nominations."


def _labelled_lines(canvas: Any) -> None:
    # (A measure 6 points, two thirds of an em, wider than the "ACTION:" line.)
    width = stringWidth("ACTION:", BOLD, SIZE) + stringWidth(ACTION[7:], ROMAN, SIZE) + 6
    y = _prose(canvas, 0, 800.0, 2, width)
    y = _paragraph(canvas, 0, y - 2, [("AGENCY:", BOLD), ("National Oceanic and Atmospheric Administration "
                                                          "(NOAA), Commerce.", ROMAN)], width=width)
    y = _paragraph(canvas, 0, y - 2, [("ACTION:", BOLD), (ACTION[8:], ROMAN)], width=width)
    y = _paragraph(canvas, 0, y - 2, [("SUMMARY:", BOLD), (PROSE, ROMAN)], width=width)
    _prose(canvas, 1, 800.0, 5, width)


def test_a_justified_line_ending_a_sentence_less_than_an_em_short_ends_its_paragraph() -> None:
    assert ACTION in markdown_of(drawn_pdf(_labelled_lines)).split("\n\n")


LONG_TITLE = "Notice of Intent To Rule on Request To Release Airport Property at Greenfield Municipal Airport"


def _narrow_title(canvas: Any) -> None:
    """A column of three (125 points): the bold title, a point larger than the body, wraps over
    four lines, each broken where the next word would not fit."""
    width = 125.0
    y = _prose(canvas, 0, 800.0, 2, width)
    canvas.setFont(BOLD, SIZE + 1)
    lines: list[list[str]] = [[]]
    for word in LONG_TITLE.split():
        if lines[-1] and stringWidth(" ".join([*lines[-1], word]), BOLD, SIZE + 1) > width:
            lines.append([])
        lines[-1].append(word)
    assert len(lines) == 4
    y -= 6
    for line in lines:
        y -= (SIZE + 1) * 1.2
        canvas.drawString(_column_x(0, width), y, " ".join(line))
    _prose(canvas, 0, y - 3, 2, width)
    _prose(canvas, 1, 800.0, 5, width)


def test_a_bold_title_wrapped_full_over_four_lines_of_a_narrow_column_is_a_heading() -> None:
    assert LONG_TITLE in headings_of(drawn_pdf(_narrow_title))


def _bold_address(canvas: Any) -> None:
    """Four short bold lines in title case in the same column: an address, broken where its
    lines end, not where the next word would not fit."""
    width = 125.0
    y = _prose(canvas, 0, 800.0, 2, width)
    canvas.setFont(BOLD, SIZE + 1)
    y -= 6
    for line in ("Office of the Director", "Bureau of Land Management", "Red Rock Field Office",
                 "Denver Federal Center"):
        y -= (SIZE + 1) * 1.2
        canvas.drawString(_column_x(0, width), y, line)
    _prose(canvas, 0, y - 3, 2, width)
    _prose(canvas, 1, 800.0, 5, width)


def test_four_short_bold_lines_in_title_case_are_no_heading() -> None:
    assert not any("Director" in heading for heading in headings_of(drawn_pdf(_bold_address)))


def _notice_head(canvas: Any, y: float, title: str) -> float:
    """A notice's head lines in the first column under ``y`` (the department in capitals at the
    body's size, the agency in bold, the docket), then its title a point larger; the title's
    baseline."""
    for text, font in (("DEPARTMENT OF COMMERCE", ROMAN), ("Bureau of Land Management", BOLD),
                       ("[Docket No. BLM-2026-3814]", ROMAN)):
        y -= SIZE * 1.2
        canvas.setFont(font, SIZE)
        canvas.drawString(_column_x(0), y, text)
    canvas.setFont(BOLD, SIZE + 1)
    y -= (SIZE + 1) * 1.2 + 4
    canvas.drawString(_column_x(0), y, title)
    return y


def _first_notice(canvas: Any) -> None:
    """A page opening with a notice's head: the department in capitals at the body's size, the
    agency and docket lines, then the title a point larger."""
    y = 800.0
    y = _notice_head(canvas, y, "Public Meeting of the Panel")
    _prose(canvas, 0, y - 3, 3)
    _prose(canvas, 1, 800.0, 4)


def test_a_department_in_capitals_over_a_larger_title_heads_nothing() -> None:
    """The page's first heading, "DEPARTMENT OF COMMERCE", was taken for the document's title
    and kept over its two lines of no text; the larger title under it is the document's."""
    assert headings_of(drawn_pdf(_first_notice)) == ["Public Meeting of the Panel"]


SHORTER = " ".join(PROSE.split(". ")[:2]) + "."


def _last_line_under_the_other_column(canvas: Any) -> None:
    """The first column's last paragraph ends a line under the second column's foot ("the
    form." alone on its line), then the next notice's head lines, its title across the page and
    its two columns."""
    y = _prose(canvas, 0, 800.0, 3)
    right = _prose(canvas, 1, 800.0, 2)
    right = _paragraph(canvas, 1, right, [(SHORTER, ROMAN)])
    assert right > y + SIZE  # (the second column ends over the first's last line)
    y = _notice_head(canvas, y, "Notice of Intent To Rule on Request To Release Airport Property")
    for column in (0, 1):
        _prose(canvas, column, y - 3, 2)


def test_a_columns_last_line_in_lower_case_under_the_other_columns_foot_heads_no_band() -> None:
    """"the form." went on its paragraph, not over the next notice's head as a band's first
    line read after the second column."""
    paragraphs = markdown_of(drawn_pdf(_last_line_under_the_other_column)).split("\n\n")
    assert "the form." not in paragraphs
    assert paragraphs[paragraphs.index("DEPARTMENT OF COMMERCE") - 1] == " ".join(SHORTER.split())


def _short_head_between_notices(canvas: Any) -> None:
    """One notice's balanced columns, then the next notice's head in a one-column section whose
    lines all fit the first column's width (the department, the docket, a short title), then
    that notice's two columns, level: no line across the page."""
    y = _prose(canvas, 0, 800.0, 3)
    _prose(canvas, 1, 800.0, 3)
    for text in ("DEPARTMENT OF COMMERCE", "[Docket No. BLM-2026-3814]"):
        y -= SIZE * 1.2
        canvas.setFont(ROMAN, SIZE)
        canvas.drawString(_column_x(0), y, text)
    canvas.setFont(BOLD, SIZE + 1)
    y -= (SIZE + 1) * 1.2 + 4
    canvas.drawString(_column_x(0), y, "Public Meeting of the Panel")
    y -= 3
    agency = "Bureau of Land Management (BLM), Interior. " + PROSE
    _paragraph(canvas, 0, y, [("AGENCY:", BOLD), (agency, ROMAN)])
    _paragraph(canvas, 1, y, [("DATES:", BOLD), ("Comments must be received on or before June 30, 2026. "
                                                 + PROSE, ROMAN)])


def test_a_short_head_between_two_notices_columns_is_read_after_both_columns_above() -> None:
    """The second column's text ended above the head and starts again only under it, level
    with the first's: the head opens a new band (it was read inside the first column, before
    the second column's text above it)."""
    paragraphs = markdown_of(drawn_pdf(_short_head_between_notices)).split("\n\n")
    at = paragraphs.index("DEPARTMENT OF COMMERCE")
    assert at == 6 and paragraphs[at + 2].startswith("# Public Meeting")
    assert paragraphs[at + 3].startswith("AGENCY:") and paragraphs[at + 4].startswith("DATES:")


# A Word export's lines (11 points) whose boxes are the letters' own: a bold line spaced as the
# paragraphs round it, taller than the line under it by its descenders ("delayed by the yard").
_LETTER_BOXES = [
    [("permit", 90.1, 302.82, 120.6, 313.08), ("and", 123.7, 302.82, 142.0, 310.9),
     ("the", 145.1, 302.82, 160.4, 310.9), ("tunnel", 163.5, 302.82, 193.4, 310.9),
     ("delayed.", 196.5, 302.82, 238.0, 313.08)],
    [("All", 90.1, 323.92, 104.1, 331.9), ("corridor", 107.2, 323.92, 149.3, 332.0),
     ("schedule", 152.3, 323.92, 200.1, 332.0), ("delayed", 203.1, 323.92, 244.0, 334.18),
     ("by", 247.1, 323.92, 259.9, 334.18), ("the", 263.0, 323.92, 279.4, 332.0),
     ("yard", 282.5, 323.92, 305.7, 334.18)],
    [("The", 90.1, 345.02, 109.0, 353.1), ("valve", 112.1, 345.02, 137.7, 353.1),
     ("harbour", 140.8, 345.02, 178.8, 353.1), ("estate", 181.8, 345.43, 211.7, 353.1),
     ("was", 214.8, 345.43, 234.4, 353.1), ("funded", 237.4, 345.02, 271.1, 353.1)],
]


def test_a_line_taller_by_its_descenders_is_measured_edge_to_edge() -> None:
    """Foot to foot the bold line stood 21.1 points under the line over it and 18.9 over the
    line under it, and bound to it as a heading; edge to edge it stands 10.8 from each."""
    blocks = []
    for row, bold in zip(_LETTER_BOXES, (False, True, False), strict=True):
        words = [Word(text, x0, top, x1, bottom, 11.0, bold) for text, x0, top, x1, bottom in row]
        blocks.append(Draft("paragraph", build_lines(words, 1), 1))
    assert _binds(blocks[0], blocks[1], blocks[2], Style(11.0, False)) is False


def _display_figure(canvas: Any) -> None:
    """A report's first page: a label, then a key figure set large over two short lines, then a
    section's heading over running text."""
    canvas.setFont("Helvetica-Bold", 12)
    canvas.drawString(72, 760, "Our ambition")
    canvas.setFont("Helvetica-Bold", 30)
    canvas.drawString(72, 720, "Net-zero")
    canvas.setFont("Helvetica", 10)
    canvas.drawString(72, 700, "by 2040 across")
    canvas.drawString(72, 676, "Scope 1 and 2")
    canvas.setFont("Helvetica-Bold", 12)
    canvas.drawString(72, 650, "The journey ahead")
    canvas.setFont("Helvetica", 10)
    y = 632.0
    for _ in range(3):
        for line in ("The committee reviewed the annual figures and found that the results were broadly",
                     "in line with expectations. Revenue rose sharply, while costs in the south fell."):
            canvas.drawString(72, y, line)
            y -= 13
        y -= 8


def test_a_large_figure_under_the_first_heading_is_not_spared_as_the_title() -> None:
    """"Net-zero" over two short lines heads no section: judged, not spared as the document's
    title because it is set larger than the label over it."""
    assert "Net-zero" not in headings_of(drawn_pdf(_display_figure))


NEWS = ("The committee reviewed the quarterly figures and agreed that the budget remains on track for the "
        "year. Members discussed the timetable for the new building and asked the officers to report back "
        "at the next meeting with a revised schedule and costs.")


def _news_lines(canvas: Any, x: float, y: float, text: str) -> float:
    canvas.setFont("Helvetica", 9)
    for line in wrapped_lines(text, 230.0, "Helvetica", 9):
        y -= 12.0
        canvas.drawString(x, y, line)
    return y


def _newsletter(canvas: Any, resume: str) -> None:
    """A newsletter's two running columns: a contact's short lines in the first, beside a gap
    in the second; the second starts again level with the first's text under the contact, with
    a story's heading after its story above ended three lines higher than the first column's
    text (``resume`` "heading"), or going on in lower case after its text ended level with it
    ("sentence")."""
    y = _news_lines(canvas, 50.0, 800.0, f"{NEWS} {NEWS}") - 6.0
    for text in ("Contact: Jane Smith", "Phone: 01234 567890", "Email: jane@example.org"):
        y = _news_lines(canvas, 50.0, y, text)
    y -= 18.0
    _news_lines(canvas, 50.0, y, f"{NEWS} {NEWS}")
    _news_lines(canvas, 305.0, 800.0, f"{NEWS} The library will open on Saturdays in spring."
                if resume == "heading" else f"{NEWS} {NEWS} The library will open on Saturdays")
    if resume == "heading":
        canvas.setFont("Helvetica-Bold", 9)
        canvas.drawString(305.0, y - 12.0, "Library News")
        _news_lines(canvas, 305.0, y - 12.0, NEWS)
    else:
        _news_lines(canvas, 305.0, y, f"and the hall on {NEWS}")


def test_a_contact_beside_the_other_columns_gap_between_stories_is_read_in_its_column() -> None:
    """The second column starts again with a story's heading (or goes on with its sentence in
    lower case): no new band, the contact is read between its column's paragraphs, before the
    second column."""
    for resume, opening in (("heading", "# Library News"), ("sentence", "and the hall")):
        paragraphs = markdown_of(drawn_pdf(_newsletter, resume)).split("\n\n")
        # (The contact's fields are read a line each: extractors/pdf_field_lines.py.)
        contact = paragraphs.index("Contact: Jane Smith")
        assert paragraphs[contact + 1:contact + 3] == ["Phone: 01234 567890", "Email: jane@example.org"]
        second = next(at for at, text in enumerate(paragraphs) if text.startswith("The committee")
                      and "The library will open" in text)
        assert contact == 1 and second > contact, resume
        assert any(text.lstrip("#").strip().startswith(opening.lstrip("# ")) for text in paragraphs[second:])
