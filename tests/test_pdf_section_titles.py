"""Section titles the heading rules took for something else, and what sits under them: a
newsletter's first article title over its byline, under the page's title (taken for a paper's
authors over their affiliation), an italic byline (taken for a sub-heading), a price list's
title over its date line, the list and a note (taken for a chart's title over its labels);
office probe classes article_bylines and list_titles."""

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


def test_an_italic_byline_under_its_title_is_no_heading():
    """A byline in italics at the body's size right under an article's title ("By Jane
    Smith", a name and a role) names the writer; an italic sub-heading's title stays one."""
    first, top = _article(100, "New play area opens in the park", "By Jane Smith")
    second, top = _article(top, "Library hours change from April", "Li Wei, Editor")
    first = [line if line[2] != "By Jane Smith" else (*line[:4], "Helvetica-Oblique") for line in first]
    second = [line if line[2] != "Li Wei, Editor" else (*line[:4], "Helvetica-Oblique") for line in second]
    body, _ = paragraph(top + 46, MORE)
    data = make_pdf([(72, 40, "Parish Newsletter", 24, "Helvetica-Bold"), *first, *second,
                     (72, top, "Events", 14, "Helvetica-Bold"),
                     (72, top + 22, "Summer Fair", 10, "Helvetica-Oblique"), *body])
    assert _headings(markdown_of(data)) == ["Parish Newsletter", "New play area opens in the park",
                                            "Library hours change from April", "Events", "Summer Fair"]


def test_a_title_over_a_price_list_with_a_date_line_and_a_note_stays_a_heading():
    """A section whose body is a price list (an item and its price on each line, read as a
    table) under a date line and over a short note, between sections of running text: its
    title heads it (no chart's title over its labels)."""
    lines: list[tuple] = [(72, 40, "Leisure services guide", 20, "Helvetica-Bold")]
    body, top = paragraph(80, TEXT)
    lines += [*body, (72, top + 14, "Fees and charges 2024/25", 14, "Helvetica-Bold"),
              (72, top + 36, "Prices from 1 April 2024", 10)]
    top += 56
    for k, item in enumerate(("Adult swim", "Junior swim (under 16)", "Aqua fit class", "Gym session",
                              "Meeting room (per hour)")):
        lines += [(72, top, item, 10), (500, top, f"£{4 + 3 * k}.50", 10)]
        top += 14
    lines.append((72, top + 8, "All prices include VAT", 10))
    body, _ = paragraph(top + 60, MORE)
    lines += [(72, top + 36, "Contact us", 14, "Helvetica-Bold"), *body]
    markdown = markdown_of(make_pdf(lines))
    assert "| Gym session | £13.50 |" in markdown
    assert _headings(markdown) == ["Leisure services guide", "Fees and charges 2024/25", "Contact us"]


def test_a_papers_authors_set_as_its_section_headings_stay_front_matter():
    """A paper's authors in bold at the size of its "Abstract" and "References" headings (an
    ACL paper's): those head text or a reference, no byline, so the authors stay front matter."""
    abstract, after = paragraph(170, TEXT)
    body, after2 = paragraph(after + 40, MORE)
    data = make_pdf([(72, 50, "Dense Retrieval for Village Archives", 16, "Helvetica-Bold"),
                     (72, 80, "Jane Smith, Ahmed Khan", 12, "Helvetica-Bold"),
                     (72, 96, "Maria Lopez, Li Wei", 12, "Helvetica-Bold"),
                     (72, 114, "University of Northfield", 12),
                     (72, 130, "{jsmith, akhan}@northfield.ac.uk", 12, "Courier"),
                     (72, 150, "Abstract", 12, "Helvetica-Bold"), *abstract,
                     (72, after + 14, "References", 12, "Helvetica-Bold"), *body,
                     (72, after2 + 14, "Akari Asai, Kazuma Hashimoto, Hannaneh Hajishirzi,", 10),
                     (72, after2 + 28, "and Caiming Xiong. 2020. Learning to retrieve reasoning paths.", 10)])
    assert _headings(markdown_of(data)) == ["Dense Retrieval for Village Archives", "Abstract", "References"]
