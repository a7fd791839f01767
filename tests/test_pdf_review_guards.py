"""Guards from the review of 2026-12-06's rules (legal acts, patents, bylines): ordinary
documents the new rules misread before they were narrowed.  Each draws the look-alike a
reviewer found: "PART 2" over a numbered sub-section (two headings, not one), "By Region" under
a heading (a sub-heading, not a byline)."""

from __future__ import annotations

from typing import Any

from reportlab.lib.pagesizes import A4

from tests.pdf_output import drawn_pdf, headings_of, wrapped_lines

WIDTH, HEIGHT = A4
TEXT = ("The survey drew a sample of households from the register in each region and weighted "
        "the answers by the size of the household and by the region's population at the census.")


class _Page:
    def __init__(self, canvas: Any) -> None:
        self.canvas, self.y = canvas, HEIGHT - 80

    def line(self, text: str, font: str = "Helvetica-Bold", size: float = 10, after: float = 6,
             centred: bool = False) -> None:
        self.canvas.setFont(font, size)
        if centred:
            self.canvas.drawCentredString(WIDTH / 2, self.y, text)
        else:
            self.canvas.drawString(72, self.y, text)
        self.y -= size * 1.2 + after

    def paragraph(self, text: str = TEXT, size: float = 10) -> None:
        self.canvas.setFont("Helvetica", size)
        for line in wrapped_lines(text, WIDTH - 144, "Helvetica", size):
            self.canvas.drawString(72, self.y, line)
            self.y -= size * 1.2
        self.y -= 8


def test_a_part_label_over_a_numbered_section_is_two_headings() -> None:
    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        for part, section in (("PART 1", "1.1 Background"), ("PART 2", "2.1 Methods")):
            page.line(part, size=14, after=4)
            page.line(section, size=12, after=8)
            page.paragraph()
            page.paragraph()

    headings = headings_of(drawn_pdf(draw))
    assert "PART 2 2.1 Methods" not in headings and "2.1 Methods" in headings


def test_by_region_under_a_heading_is_a_sub_heading_not_a_byline() -> None:
    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Introduction", size=14, after=8)
        page.paragraph()
        page.paragraph()
        page.line("Revenue", size=14, after=4)
        page.line("By Region", "Helvetica-Oblique", 10, after=8)
        page.paragraph()
        page.paragraph()
        page.line("By Product", "Helvetica-Oblique", 10, after=8)
        page.paragraph()

    assert "By Region" in headings_of(drawn_pdf(draw))


def test_a_byline_names_a_person_or_a_writers_role_not_a_place() -> None:
    from extractors.pdf_headings import _BYLINE

    for byline in ("By Jane Smith", "Words by Amir Khan and Li Wei", "Sarah Jones, Editor",
                   "Tom Hughes, Parish Clerk"):
        assert _BYLINE.match(byline), byline
    for other in ("By Region", "Google Research, Mountain View", "New York, NY", "Jane Smith, PhD",
                  "Harvard Medical School, Boston MA"):
        assert not _BYLINE.match(other), other
