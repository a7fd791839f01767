"""Section titles the heading rules took for something else: a newsletter's first article title
over its byline, under the page's title (taken for a paper's authors over their affiliation);
office probe class article_bylines."""

from __future__ import annotations

from tests.test_pdf_structure import SENTENCES, make_pdf, markdown_of, paragraph

TEXT = " ".join(SENTENCES[:3])
MORE = " ".join(SENTENCES[3:])


def _headings(markdown: str) -> list[str]:
    return [line.lstrip("#").strip() for line in markdown.splitlines() if line.startswith("#")]


def _article(top: float, title: str, byline: str) -> tuple[list[tuple], float]:
    body1, after = paragraph(top + 46, TEXT)
    body2, after = paragraph(after + 6, MORE)
    return [(72, top, title, 14, "Helvetica-Bold"), (72, top + 22, byline, 10),
            *body1, *body2], after + 24


def test_a_newsletters_first_article_title_over_its_byline_stays_a_heading():
    """The newsletter's name, an issue line, then articles set alike (a title, a byline, the
    text): the first article's title is set as the others, on the next page too, so it is a
    section's, not front matter."""
    first, top = _article(100, "New play area opens in the park", "By Jane Smith")
    second, _ = _article(top, "Volunteers wanted for the summer fair", "By Amir Khan")
    third, _ = _article(72, "Library hours change from April", "Li Wei, Editor")
    data = make_pdf([(72, 40, "Parish Newsletter", 24, "Helvetica-Bold"),
                     (72, 72, "Issue 42, Spring 2024", 10), *first, *second], third)
    assert _headings(markdown_of(data)) == ["Parish Newsletter", "New play area opens in the park",
                                            "Volunteers wanted for the summer fair",
                                            "Library hours change from April"]


def test_a_first_article_alone_on_its_page_is_told_by_the_next_pages_titles():
    """The later articles are on the next page: their titles still show the first's style."""
    first, _ = _article(100, "New play area opens in the park", "By Jane Smith")
    second, _ = _article(72, "Volunteers wanted for the summer fair", "By Amir Khan")
    data = make_pdf([(72, 40, "Parish Newsletter", 24, "Helvetica-Bold"), *first], second)
    assert _headings(markdown_of(data)) == ["Parish Newsletter", "New play area opens in the park",
                                            "Volunteers wanted for the summer fair"]


def test_a_subtitle_over_authors_set_as_no_section_stays_front_matter():
    """A paper's subtitle and authors, each over a short line, set in styles its sections'
    headings do not use, are no headings."""
    abstract, after = paragraph(190, TEXT)
    body, _ = paragraph(after + 40, MORE)
    data = make_pdf([(72, 50, "Heat Pumps in Village Halls", 20, "Helvetica-Bold"),
                     (72, 80, "A Field Study", 14, "Helvetica"),
                     (72, 100, "Jane Smith and Ahmed Khan", 12, "Helvetica-Bold"),
                     (72, 120, "University of Northfield", 10),
                     *abstract,
                     (72, after + 14, "Introduction", 14, "Helvetica-Bold"), *body])
    assert _headings(markdown_of(data)) == ["Heat Pumps in Village Halls", "Introduction"]
