"""Headings set at the body's size, not bold, in the headings' own typeface (Word's Heading 4
and 5; a sans "BACKGROUND" over serif text), with no space between them and their text: a
heading of their own, not the first words of the paragraph under them.  A lone word in that
face is a heading only when the document sets two or more headings so."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from reportlab.lib.pagesizes import A4

from extractors.pdf_drafts import Style
from extractors.pdf_headings import settle_heading_faces
from tests.pdf_output import drawn_pdf, headings_of, wrapped_lines

TEXT = ("The council reviewed the programme of works for the year and agreed the priorities for "
        "each district in turn. Spending stayed within the budget set in March, with savings on "
        "materials offsetting higher labour costs across the year. Residents were consulted on "
        "the new cycle routes through a series of public meetings in the autumn.")


def _report(canvas: Any, headings: list[str], heading_font: str = "Helvetica") -> None:
    """Times-Roman text at 11 points; each heading in ``heading_font`` at 11 points, a line
    pitch above its paragraph (no space after it)."""
    width, height = A4
    y = height - 80
    for heading in headings:
        canvas.setFont(heading_font, 11)
        canvas.drawString(72, y, heading)
        y -= 13.5
        canvas.setFont("Times-Roman", 11)
        for line in wrapped_lines(TEXT, width - 144, "Times-Roman", 11):
            canvas.drawString(72, y, line)
            y -= 13.5
        y -= 16



def test_body_size_headings_in_another_typeface_areheadings_of() -> None:
    headings = ["BACKGROUND", "Programme of works", "Budget and spending", "Consultation", "Next steps"]
    assert headings_of(drawn_pdf(_report, headings)) == headings


def test_a_lone_word_in_another_typeface_alone_is_no_heading() -> None:
    # One such line in the document: a label as likely as a heading.
    assert headings_of(drawn_pdf(_report, ["Consultation"])) == []


def test_a_line_in_another_face_over_a_title_is_no_heading() -> None:
    """A brochure's "Solution Brief" in a face of its own over the page's title heads no text."""
    def draw(canvas: Any) -> None:
        width, height = A4
        canvas.setFont("Helvetica", 11)
        canvas.drawString(72, height - 80, "Solution Brief")
        canvas.setFont("Times-Bold", 18)
        canvas.drawString(72, height - 110, "Centre of Excellence")
        canvas.setFont("Times-Roman", 11)
        y = height - 140
        for line in wrapped_lines(TEXT, width - 144, "Times-Roman", 11):
            canvas.drawString(72, y, line)
            y -= 13.5

    assert headings_of(drawn_pdf(draw)) == ["Centre of Excellence"]


def test_a_line_in_a_typewriter_face_is_no_heading() -> None:
    assert headings_of(drawn_pdf(_report, ["Programme of works", "Budget and spending"], "Courier")) == []


@pytest.mark.system
def test_libreoffice_heading_styles_at_the_body_size(tmp_path) -> None:
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is not installed: .ci/setup installs it as root")
    from docx import Document
    from docx.shared import Pt, RGBColor

    from tests.office_documents import convert

    sources = []
    for caps in (True, False):
        document = Document()
        body = document.styles["Normal"]
        body.font.name, body.font.size = "Liberation Serif", Pt(11)
        heading = document.styles["Heading 1"]
        heading.font.name, heading.font.size, heading.font.bold = "Liberation Sans", Pt(11), False
        heading.font.all_caps = caps
        heading.font.color.rgb = RGBColor(0x1F, 0x4E, 0x79)
        for title in ("Background", "Programme of works", "Budget and spending", "Next steps"):
            document.add_heading(title, 1)
            document.add_paragraph(TEXT)
        sources.append(tmp_path / f"faces-{caps}.docx")
        document.save(str(sources[-1]))
    for pdf, caps in zip(convert(sources, tmp_path / "plain"), (True, False), strict=True):
        expected = ["Background", "Programme of works", "Budget and spending", "Next steps"]
        assert headings_of(pdf.read_bytes()) == [t.upper() if caps else t for t in expected]


def test_a_document_without_blocks_settles_nothing() -> None:
    # (qpdf's append-page-content-damaged.pdf: its structure stage failed, its text kept.)
    settle_heading_faces([], Style(10.0, False, "times"))
