"""Research papers' leftovers (office probe academic_paper, 2026-12-07): a title block's centred
e-mail line is a paragraph of its own over an abstract run in at the margin; IEEE's sections
in capitals at the body's size ("II. RELATED WORK") rank over their lettered sub-sections set
alike ("A. Table detection") with the unnumbered "REFERENCES" after them; authors' blocks side
by side over a page's justified columns, the middle one centred on the gutter, are no table of
either column; and a table's header of more than MAX_HEADER_LINES lines, group labels over
headings wrapped onto many lines, keeps its top line.  And the e-mail line's rule leaves alone
a centred paragraph set narrower (a sentence running on in lower case) and an annex's centred
title ("Annex A" over "(informative)" over its title: no line at the margin)."""

from __future__ import annotations

from typing import Any

from reportlab.pdfbase.pdfmetrics import stringWidth

from tests.pdf_output import drawn_pdf, headings_of, markdown_of, wrapped_lines
from tests.test_pdf_papers import (
    COLUMN,
    GUTTER,
    LEFT,
    PROSE,
    RIGHT,
    WIDTH,
    _centred,
    _column_text,
    _justified,
    centred_over_prose,
)

MAILS = "akhan@northfield.ac.uk, lwei@harbour.tech"
ABSTRACT = ("The encoder reads each line with its font size, weight and position on the page. "
            "Documents published as PDF keep their text but lose most of their logical structure. "
            "Results are averaged over five runs with different random seeds, and we report the standard "
            "deviation. Layout models trained on one publisher's pages transfer poorly to another's.")


def test_a_centred_mail_line_over_an_abstract_run_in_at_the_margin_is_its_own_paragraph() -> None:
    """The title block's lines and the abstract in one size at one line pitch, the abstract's
    bold label run in at the margin right under the centred e-mail line, too few lines of it
    to be a justified run (whose short lines end their paragraphs anyway), a keywords line
    under it (the block's lines are not all centred), two columns under them."""
    def draw(canvas: Any) -> None:
        _centred(canvas, 790, "Reading Order Recovery for Multi-Column Documents", "Times-Bold", 15)
        _centred(canvas, 770, "Amir Khan and Li Wei", size=11)
        _centred(canvas, 756, "Department of Computer Science, University of Northfield, Northfield, UK")
        _centred(canvas, 744.75, MAILS)
        canvas.setFont("Times-Bold", 9.5)
        canvas.drawString(LEFT, 733.5, "Abstract.")
        label = stringWidth("Abstract. ", "Times-Bold", 9.5)
        first, *rest = wrapped_lines(ABSTRACT, RIGHT - LEFT - label, "Times-Roman", 9.5)
        _justified(canvas, LEFT + label, 733.5, first, RIGHT - LEFT - label, "Times-Roman", 9.5)
        y = 733.5 - 11.25
        *full, last = wrapped_lines(" ".join(rest), RIGHT - LEFT, "Times-Roman", 9.5)
        for line in full:
            _justified(canvas, LEFT, y, line, RIGHT - LEFT, "Times-Roman", 9.5)
            y -= 11.25
        assert stringWidth(last, "Times-Roman", 9.5) > COLUMN + GUTTER  # (over both columns)
        canvas.drawString(LEFT, y, last)  # (the paragraph's last line, ragged)
        y -= 11.25
        canvas.setFont("Times-Roman", 9)
        canvas.drawString(LEFT, y - 4, "Keywords: heading detection, table extraction, weak supervision")
        _column_text(canvas, LEFT, y - 30, " ".join([PROSE] * 2), size=10)
        _column_text(canvas, LEFT + COLUMN + GUTTER, y - 30, " ".join([PROSE] * 2), size=10)

    lines = markdown_of(drawn_pdf(draw)).splitlines()
    assert MAILS in lines, lines


SHORT = ("Documents published as PDF keep their text but lose most of their logical structure. "
         "Earlier systems relied on hand-written rules over the positions of words.")
SECTIONS = [("I. INTRODUCTION", 1), ("II. RELATED WORK", 1), ("A. Table detection", 2),
            ("B. Heading detection", 2), ("III. METHOD", 1), ("A. Problem definition", 2),
            ("B. Model", 2), ("C. Training", 2), ("IV. CONCLUSION", 1), ("REFERENCES", 1)]


def test_ieee_sections_in_capitals_rank_over_their_lettered_sub_sections_set_alike() -> None:
    """Sections centred in capitals and sub-sections in italics, both at the body's size and
    weight: their outline numbering ranks them ("C. Training" after "B. Model" lettered, not
    Roman one hundred); "REFERENCES" after the last section is a section."""
    def draw(canvas: Any) -> None:
        canvas.setFont("Times-Roman", 20)
        canvas.drawCentredString((LEFT + RIGHT) / 2, 790, "Learning Table Structure")
        y = 750.0
        x = LEFT
        for at, (title, level) in enumerate(SECTIONS):
            if at == len(SECTIONS) // 2:  # (the rest in the right column)
                x, y = LEFT + COLUMN + GUTTER, 750.0
            if level == 1:
                canvas.setFont("Times-Roman", 9.5)
                canvas.drawCentredString(x + COLUMN / 2, y, title)
            else:
                canvas.setFont("Times-Italic", 9.5)
                canvas.drawString(x, y, title)
            y = _column_text(canvas, x, y - 14, SHORT) - 10

    markdown = markdown_of(drawn_pdf(draw))
    levels = {line.lstrip("#").strip(): len(line) - len(line.lstrip("#"))
              for line in markdown.splitlines() if line.startswith("#")}
    assert all(title in levels for title, _ in SECTIONS), markdown
    assert {levels[title] - level for title, level in SECTIONS} == {levels["I. INTRODUCTION"] - 1}, levels


AUTHORS = [("Tom Brown", "Department of Computer Science", "University of Northfield",
            "tbrown@northfield.ac.uk"),
           ("Li Wei", "Institute for Data Systems", "Eastbridge University", "lwei@eastbridge.ca"),
           ("Priya Patel", "Department of Computer Science", "University of Northfield",
            "ppatel@northfield.ac.uk")]


def test_authors_blocks_side_by_side_over_justified_columns_are_no_table_of_either() -> None:
    """Three authors' blocks, each centred in a third of the page, the first a line higher than
    the others (a word processor's columns of a section, a column break after each), right over
    the two justified columns (the left one's abstract in smaller type than the right one's
    text, under a sub-section's heading level with its first line): the middle block's lines
    run across the gutter."""
    def draw(canvas: Any) -> None:
        _centred(canvas, 800, "Learning Table Structure from Weak Supervision", "Times-Roman", 18)
        third = (RIGHT - LEFT) / 3
        for b, block in enumerate(AUTHORS):
            for k, text in enumerate(block):
                canvas.setFont("Times-Roman", 11 if k == 0 else 9.5)
                canvas.drawCentredString(LEFT + third * (b + 0.5), 776 - 11.4 * (k + (b > 0)), text)
        _column_text(canvas, LEFT, 700, " ".join([PROSE] * 3), size=9)
        canvas.setFont("Helvetica-Oblique", 10)
        canvas.drawString(LEFT + COLUMN + GUTTER, 700, "B. Heading detection")
        _column_text(canvas, LEFT + COLUMN + GUTTER, 683, " ".join([PROSE] * 3), size=10)

    lines = markdown_of(drawn_pdf(draw)).splitlines()
    assert all(block[-1] in lines for block in AUTHORS), lines


HEADINGS = ["Owner occupied dwellings with a mortgage on them", "Rented from a private landlord or an agent"]


def test_a_header_of_eight_lines_keeps_its_group_labels() -> None:
    """Group labels over headings wrapped onto six lines each, over a unit line: eight lines
    above the first row of figures, each of short texts side by side."""
    lefts = [72, 190, 260, 330, 400]
    heads = [wrapped_lines(text, 50, "Helvetica-Bold", 8) for text in HEADINGS] * 2

    def draw(canvas: Any) -> None:
        canvas.setFont("Times-Roman", 10)
        canvas.drawString(72, 780, "Table 4 gives the households surveyed by district, wave and tenure.")
        canvas.setFont("Helvetica-Bold", 8)
        canvas.drawString(190, 750, "Wave one (2019)")
        canvas.drawString(330, 750, "Wave two (2023)")
        y = 740
        for k in range(max(map(len, heads))):
            if k == 0:
                canvas.drawString(72, y, "District")
            for left, head in zip(lefts[1:], heads, strict=True):
                if k < len(head):
                    canvas.drawString(left, y, head[k])
            y -= 10
        for left in lefts[1:]:
            canvas.drawString(left, y, "(number)")
        y -= 11
        canvas.setFont("Helvetica", 8)
        for r in range(6):
            row = [f"District {r + 1}"] + [str(100 + 37 * r + 11 * c) for c in range(4)]
            for left, text in zip(lefts, row, strict=True):
                canvas.drawString(left, y, text)
            y -= 11

    assert max(map(len, heads)) + 2 > 7
    markdown = markdown_of(drawn_pdf(draw))
    assert "| Wave one (2019) |" in markdown and "| Wave two (2023) |" in markdown, markdown
    assert "| District 6 | 285 | 296 | 307 | 318 |" in markdown, markdown


def test_a_centred_paragraph_set_narrower_runs_on_past_a_short_line_in_lower_case() -> None:
    """A centred paragraph wrapped at a measure narrower than the page's, its first line short
    for a long word that would have fitted the page's: the sentence runs on in lower case."""
    quote = ["We thank the reviewers and the",
             "internationalisation-and-localisation committee for their comments."]
    assert " ".join(quote) in markdown_of(centred_over_prose(quote)).splitlines()


ANNEX = ["Annex A", "(informative)", "Guidance on the application of this document"]


def test_an_annex_titles_centred_lines_stay_one_heading() -> None:
    """"Annex A" over "(informative)" over its title, centred in one size over clauses at the
    margin: the short middle line is set deep, but the title under it is centred too, not at
    the margin."""
    def draw(canvas: Any) -> None:
        for k, text in enumerate(ANNEX):
            canvas.setFont("Helvetica-Bold", 14)
            canvas.drawCentredString(WIDTH / 2, 760 - 19 * k, text)
        canvas.setFont("Helvetica-Bold", 12)
        canvas.drawString(72, 690, "A.1 General")
        _column_text(canvas, 72, 670, " ".join([PROSE] * 2), width=WIDTH - 144)

    headings = headings_of(drawn_pdf(draw))
    assert headings[0] == " ".join(ANNEX), headings
