"""Slide decks (extractors/pdf_slides.py): landscape pages of one size with a title at one place
at their top are slides; their titles are the headings, under the deck's title and its sections,
and a slide's two text columns are read one after the other.  Drawn here with reportlab as
Impress exports a PowerPoint deck (tests/office_probes.py's ``slide_deck`` class)."""

from __future__ import annotations

import io

from reportlab.pdfgen import canvas

from extractors import extract
from extractors.base import ExtractOptions
from extractors.pdf_drafts import Line
from extractors.pdf_slides import find_deck
from extractors.pdf_words import PageLayout, Word

OPTIONS = ExtractOptions(ocr_engines=())
SLIDE = (960.0, 540.0)
FOOTER = [(43, 506, "14 March 2024     Greenfield District Council", 12)]  # (and the number)


def _deck(slides: list[list[tuple]], size: tuple[float, float] = SLIDE) -> bytes:
    """One page a slide, each line (x, top, text, size[, font]) drawn from the top; the running
    footer and the slide's number on each."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=size)
    for number, lines in enumerate(slides, start=1):
        for x, top, text, points, *font in [*lines, *FOOTER, (size[0] - 60, 506, str(number), 12)]:
            pdf.setFont(font[0] if font else "Helvetica", points)
            pdf.drawString(x, size[1] - top - points, text)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _title(text: str, top: float = 40) -> tuple:
    return (480 - len(text) * 11, top, text, 44)


def _markdown(data: bytes) -> str:
    return extract(data, filename="deck.pdf", options=OPTIONS).markdown


SLIDES = [
    [(200, 200, "Regional transport strategy", 44), (260, 310, "Draft for discussion", 32)],
    [_title("Key messages"), (43, 128, "• Revenue grew in every region", 36),
     (43, 180, "• Costs stayed within the budget", 36), (43, 232, "• Two new depots opened", 36)],
    [(64, 320, "Progress over the year", 20), (64, 350, "WHERE WE ARE", 40, "Helvetica-Bold")],
    [_title("Customer satisfaction"), (380, 160, "42%", 96, "Helvetica-Bold"),
     (300, 280, "of customers rated us excellent", 24)],
    [_title("Next steps"), (43, 128, "• Open the new depot in May", 32),
     (43, 175, "• Recruit twenty drivers", 32), (43, 222, "• Review the fares", 32)],
]


def test_a_decks_slide_titles_are_its_headings_under_its_title_and_sections() -> None:
    """Each slide's title (one type, one place at the top) is a heading, one level under the
    section-header slide's title, itself under the title slide's; the bullets in large type,
    the key figure and its label, the subtitle and the section's description are text."""
    markdown = _markdown(_deck(SLIDES))
    headings = [line for line in markdown.splitlines() if line.startswith("#")]
    assert headings == ["# Regional transport strategy", "### Key messages", "## WHERE WE ARE",
                        "### Customer satisfaction", "### Next steps"], markdown
    assert "- Revenue grew in every region" in markdown.splitlines()
    assert "42%" in markdown.splitlines()


def test_the_same_pages_in_portrait_are_no_deck() -> None:
    """Portrait pages are a document's: a heading on top of each is no slide title, and the
    heuristics rank the headings by type (the 44-point title and slide titles alike)."""
    markdown = _markdown(_deck(SLIDES, (540.0, 960.0)))
    assert "### Key messages" not in markdown


def test_a_slides_two_text_columns_are_read_one_after_the_other() -> None:
    """Two columns of three bullets (a Two Content slide, 4:3), seven lines (a page of text is
    tested for columns from eight), one item wrapping, the title's second line centred over the
    gutter: the left column is read before the right, each item whole."""
    columns = [(43, 136, "• Strong demand in", 28), (70, 170, "the north", 28),
               (43, 209, "• Loyal customers", 28), (43, 248, "• A skilled workforce", 28),
               (373, 136, "• Rising fuel prices", 28),
               (373, 176, "• Staff shortages", 28), (373, 209, "• Ageing vehicles", 28)]
    slides = [[(120, 200, "Regional transport strategy", 40)],
              [(117, 24, "What went well and what", 44), (294, 77, "did not", 44), *columns],
              [(250, 40, "Next steps", 44), (43, 128, "• Open the new depot in May", 32)],
              [(240, 40, "Key messages", 44), (43, 128, "• Revenue grew in every region", 32)]]
    lines = _markdown(_deck(slides, (720.0, 540.0))).splitlines()
    items = [line for line in lines if line.startswith("- ")]
    assert items[:6] == ["- Strong demand in the north", "- Loyal customers", "- A skilled workforce",
                         "- Rising fuel prices", "- Staff shortages", "- Ageing vehicles"], lines


def _line(page: int, top: float, text: str, size: float) -> Line:
    word = Word(text, 100, top, 100 + size * len(text) / 2, top + size, size, False, font="Helvetica")
    return Line([word], word.x0, word.top, word.x1, word.bottom, size, False, page)


def test_a_deck_needs_the_title_slot_on_most_pages_in_display_type() -> None:
    """The slot: the topmost line in one display type at one place on half the pages (three at
    least); fewer, body type or lines at different heights make no deck."""
    layouts = [PageLayout(n, *SLIDE) for n in range(1, 5)]

    def pages(tops: list[float], size: float) -> dict[int, list[Line]]:
        return {n: [_line(n, top, f"Title {n}", size), _line(n, top + 100, "Point", 18)]
                for n, top in enumerate(tops, start=1)}

    deck = find_deck(layouts, pages([200, 40, 40, 40], 44))
    assert deck is not None and sorted(deck.titles) == [2, 3, 4]
    assert find_deck(layouts, pages([200, 40, 40, 200], 44)) is None  # two pages only
    assert find_deck(layouts, pages([40, 40, 40, 40], 14)) is None  # body type
    assert find_deck(layouts, pages([40, 150, 40, 150], 44)) is None  # no one place


def test_the_title_slot_reaches_one_and_a_half_sizes_either_way_bounds_included() -> None:
    """The slot is the candidate top with the most others within 1.5 of its size (counted on
    the sorted tops): a top exactly that far counts, one further does not."""
    layouts = [PageLayout(n, *SLIDE) for n in range(1, 5)]

    def pages(tops: list[float]) -> dict[int, list[Line]]:
        return {n: [_line(n, top, f"Title {n}", 44), _line(n, top + 100, "Point", 18)]
                for n, top in enumerate(tops, start=1)}

    deck = find_deck(layouts, pages([40, 106, 106, 150]))  # (44 x 1.5 = 66: 40 and 150 both reach 106)
    assert deck is not None and sorted(deck.titles) == [1, 2, 3, 4]
    deck = find_deck(layouts, pages([40, 106.5, 150, 150]))
    assert deck is not None and sorted(deck.titles) == [2, 3, 4]


def test_a_landscape_reports_sub_headings_rank_below_the_section_title_each_page_opens_with() -> None:
    """A landscape report whose pages each open with a section's title at one place (a deck by
    the title slot) and go on in running text under sub-headings set smaller: the sub-headings,
    ranked apart from the titles, stand one level below them, not level with them."""
    prose = ("The council reviewed the programme of works for the year and agreed the priorities "
             "for each district in turn, with savings on materials offsetting higher labour costs.")
    pages = []
    for section in ("Introduction", "Progress this year", "Finance", "Looking ahead"):
        lines: list[tuple] = [(60, 40, section, 24, "Helvetica-Bold")]
        top = 90.0
        for sub in ("Background", "Next steps"):
            lines.append((60, top, sub, 14, "Helvetica-Bold"))
            top += 26
            for _ in range(3):
                lines.append((60, top, prose, 10, "Times-Roman"))
                top += 13
            top += 14
        pages.append(lines)
    markdown = _markdown(_deck(pages, (842.0, 595.0)))
    headings = [line for line in markdown.splitlines() if line.startswith("#")]
    assert headings[:3] == ["# Introduction", "## Background", "## Next steps"], markdown
