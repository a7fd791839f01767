"""A glossary (a definition list): terms at the body's size, bold, each on its own line over
its definition indented under it (HTML's ``dl``, a Word glossary's indented paragraphs), are
no headings; body-size headings whose text is set indented from them throughout the document
(headings hung out into the margin), or with only a first line indented, stay headings
(office probes, 2026-12-06).  A glossary whose definitions are set flush under their terms
(ICDAR 2013's us-005, office probe flush_glossary): five terms or more in alphabetical order of
their first letters, each over a short definition, are no headings; the same five titles in
another order, four of them, or five over longer sections stay headings."""

from __future__ import annotations

from typing import Any

from reportlab.lib.pagesizes import A4

from tests.pdf_output import drawn_pdf, headings_of, wrapped_lines

TERMS = [("Household", "A person living alone or a group of people living at the same address who share "
                       "cooking facilities and a living room."),
         ("Dwelling", "A self-contained unit of accommodation."),
         ("Median", "The middle value when the figures are sorted in order."),
         ("Tenure", "Whether a home is owned, rented privately or rented from a council.")]
TEXT = ("The council reviewed the programme of works for the year and agreed the priorities for "
        "each district in turn. Spending stayed within the budget set in March, with savings on "
        "materials offsetting higher labour costs.")


def _page(canvas: Any, text_x: float, body_x: float = 72, first_only: bool = False,
          long: bool = False) -> None:
    """A "Glossary" title over a paragraph at ``body_x``, the terms (bold, 11 points, at 72)
    each over its text indented to ``text_x`` (only its first line when ``first_only``; TEXT
    after each definition when ``long``), then a "Background" section's paragraph at
    ``body_x``."""
    width, height = A4
    y = height - 80

    def paragraph(text: str, x: float) -> None:
        nonlocal y
        canvas.setFont("Times-Roman", 11)
        for number, line in enumerate(wrapped_lines(text, width - 72 - x, "Times-Roman", 11)):
            canvas.drawString(x if number == 0 or not first_only else 72, y, line)
            y -= 13.5
        y -= 8

    canvas.setFont("Helvetica-Bold", 18)
    canvas.drawString(72, y, "Glossary")
    y -= 30
    paragraph(TEXT, body_x)
    for term, definition in TERMS:
        canvas.setFont("Times-Bold", 11)
        canvas.drawString(72, y, term)
        y -= 13.5
        paragraph(f"{definition} {TEXT}" if long else definition, text_x)
    canvas.setFont("Helvetica-Bold", 18)
    canvas.drawString(72, y - 10, "Background")
    y -= 40
    paragraph(TEXT, body_x)



def test_glossary_terms_over_indented_definitions_are_noheadings_of() -> None:
    assert headings_of(drawn_pdf(_page, 100)) == ["Glossary", "Background"]


def test_headings_over_paragraphs_with_a_first_line_indent_stayheadings_of() -> None:
    terms = [term for term, _ in TERMS]
    headings = headings_of(drawn_pdf(_page, 100, first_only=True, long=True))
    assert headings == ["Glossary", *terms, "Background"]


def test_headings_hung_out_from_their_indented_text_stayheadings_of() -> None:
    terms = [term for term, _ in TERMS]
    assert headings_of(drawn_pdf(_page, 100, body_x=100, long=True)) == ["Glossary", *terms, "Background"]


FLUSH_TERMS = ["Affordable housing", "Census tract", "Dwelling", "Low-income area", "Tenure"]


def _flush_page(canvas: Any, terms: list[str], paragraphs: int = 1, bound: bool = False) -> None:
    """A "Glossary" title, then each term (bold, 11 points) over a paragraph set flush with it,
    or over ``paragraphs`` shorter ones; the term spaced as a paragraph (us-005's terms: as far
    from the definition under them as from the text over them), or when ``bound`` as a
    section's sub-heading (space before it, closer to its text)."""
    width, height = A4
    y = height - 80
    canvas.setFont("Helvetica-Bold", 18)
    canvas.drawString(72, y, "Glossary")
    y -= 30
    for term in terms:
        y -= 8 if bound else 0
        canvas.setFont("Times-Bold", 11)
        canvas.drawString(72, y, term)
        y -= 16 if bound else 21.5
        text = TEXT if paragraphs == 1 else TEXT.split(". ")[0] + "."
        for _ in range(paragraphs):
            canvas.setFont("Times-Roman", 11)
            for line in wrapped_lines(text, width - 144, "Times-Roman", 11):
                canvas.drawString(72, y, line)
                y -= 13.5
            y -= 8


def test_glossary_terms_in_alphabetical_order_over_flush_definitions_are_no_headings() -> None:
    assert headings_of(drawn_pdf(_flush_page, FLUSH_TERMS)) == ["Glossary"]


def test_titles_out_of_alphabetical_order_too_few_or_over_long_sections_stay_headings() -> None:
    shuffled = [FLUSH_TERMS[i] for i in (2, 0, 4, 1, 3)]
    assert headings_of(drawn_pdf(_flush_page, shuffled)) == ["Glossary", *shuffled]
    assert headings_of(drawn_pdf(_flush_page, FLUSH_TERMS[:4])) == ["Glossary", *FLUSH_TERMS[:4]]
    assert headings_of(drawn_pdf(_flush_page, FLUSH_TERMS, 4)) == ["Glossary", *FLUSH_TERMS]


def test_titles_in_alphabetical_order_spaced_as_sub_headings_stay_headings() -> None:
    """Sections in alphabetical order by design (countries, regions, members of a partnership)
    headed at the body's size, with space before each title and its text close under it, are
    sections, not a glossary's terms (these set flush and spaced as their definitions are)."""
    countries = ["Austria", "Belgium", "Croatia", "Denmark", "Estonia"]
    assert headings_of(drawn_pdf(_flush_page, countries, bound=True)) == ["Glossary", *countries]
