"""Technical standards and datasheets (office probes standard_clauses and datasheet, 2026-12-06):
an annex's clauses numbered "A.1" are numbered headings; a bibliography's "[1]" set a tab
before its entry stays on the entry's line; a contents entry's section number hung a tab
before its title is no page label of a column before it; a datasheet's small section heading
over a table, set as its sections over text are, heads it; and a tagged table's cell broken
over two pages reads only its own page's marked content, and a word broken over a tagged cell's
lines whole again where the cell's rules show it filled the cell ("Condition" over "s")."""

from __future__ import annotations

from typing import Any

import pypdfium2 as pdfium
import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth

from extractors.pdf_tags import read_page_tags
from extractors.pdf_text import read_text_layer
from tests.pdf_output import drawn_pdf, markdown_of, wrapped_lines
from tests.tagged_pdf import Node, Run, tagged_pdf

WIDTH, HEIGHT = A4
TEXT = ("The manufacturer shall state the rated values in the documentation supplied with the unit, "
        "and each unit shall be identified by a unique designation that is marked on it.")


class _Page:
    """A page written top down: 10-point Helvetica text, headings in Helvetica-Bold."""

    def __init__(self, canvas: Any, size: float = 10) -> None:
        self.canvas, self.y, self.size = canvas, HEIGHT - 80, size

    def line(self, text: str, font: str = "Helvetica-Bold", size: float | None = None, x: float = 72,
             after: float = 6) -> None:
        size = size or self.size
        self.canvas.setFont(font, size)
        self.canvas.drawString(x, self.y, text)
        self.y -= size * 1.2 + after

    def numbered(self, number: str, title: str, size: float, tab: float = 36) -> None:
        """A heading typed as a number, a tab and its title."""
        self.canvas.setFont("Helvetica-Bold", size)
        self.canvas.drawString(72, self.y, number)
        self.canvas.drawString(72 + tab, self.y, title)
        self.y -= size * 1.2 + 6

    def paragraph(self, text: str = TEXT, x: float = 72) -> None:
        self.canvas.setFont("Helvetica", self.size)
        for line in wrapped_lines(text, WIDTH - 72 - x, "Helvetica", self.size):
            self.canvas.drawString(x, self.y, line)
            self.y -= self.size * 1.2
        self.y -= 6

    def row(self, cells: list[tuple[float, str, str]], after: float = 4) -> None:
        for x, text, font in cells:
            self.canvas.setFont(font, self.size)
            self.canvas.drawString(x, self.y, text)
        self.y -= self.size * 1.2 + after


def _heading_lines(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith("#")]


def test_an_annex_clause_number_before_its_title_is_one_numbered_heading() -> None:
    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.numbered("4", "Requirements", 13)
        page.paragraph()
        page.numbered("4.1", "General", 11)
        page.paragraph()
        page.line("Annex A (informative) Guidance", size=13, after=10)
        for number, title in (("A.1", "General"), ("A.2", "Examples"), ("A.2.1", "Test set-up")):
            page.numbered(number, title, 11 if number.count(".") == 1 else 10)
            page.paragraph()

    headings = _heading_lines(markdown_of(drawn_pdf(draw)))
    assert [h.lstrip("# ") for h in headings] == [
        "4 Requirements", "4.1 General", "Annex A (informative) Guidance", "A.1 General", "A.2 Examples",
        "A.2.1 Test set-up"]
    depth = {h.lstrip("# "): len(h) - len(h.lstrip("#")) for h in headings}
    assert depth["A.1 General"] > depth["Annex A (informative) Guidance"]
    assert depth["A.2.1 Test set-up"] > depth["A.2 Examples"]


def _levels(markdown: str) -> dict[str, int]:
    return {h.lstrip("# "): len(h) - len(h.lstrip("#")) for h in _heading_lines(markdown)}


def test_questions_and_samples_numbered_by_a_letter_are_no_annex_clauses() -> None:
    # "Q.1" and "S.2" where no annex of their letter is named: a question is no heading for
    # its number (in regular type, a line of its own), and a sample's bold line, a heading
    # for its weight, stands under the clause it is in, not beside it as "1.2"'s sibling.
    answer = "Answers are kept for a year and used only to improve the service for every customer."

    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.numbered("1", "Customer survey", 13)
        page.paragraph()
        page.numbered("1.1", "Questions", 12)
        for number, question in (("Q.1", "How often do you use the service"),
                                 ("Q.2", "Which features do you use most"), ("Q.3", "Whom you would tell")):
            page.line(f"{number} {question}", font="Helvetica", after=10)
            page.paragraph(answer)
        page.numbered("1.2", "Samples", 12)
        for number, sample in (("S.1", "Water taken at the inlet"), ("S.2", "Water taken at the outlet")):
            page.line(f"{number} {sample}", after=4)
            page.paragraph()

    levels = _levels(markdown_of(drawn_pdf(draw)))
    assert list(levels) == ["1 Customer survey", "1.1 Questions", "1.2 Samples",
                            "S.1 Water taken at the inlet", "S.2 Water taken at the outlet"]
    assert levels["S.1 Water taken at the inlet"] > levels["1.2 Samples"]


def test_a_lettered_appendixs_clauses_are_numbered_headings_under_it() -> None:
    # An appendix set as LaTeX sets one, its letter a quad before its title ("A   Proofs", bold
    # and large), names the letter of its clauses "A.1", "A.2" as "Annex A" does.
    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.numbered("1", "Introduction", 13)
        page.paragraph()
        page.numbered("A", "Proofs", 13)
        page.paragraph()
        for number, title in (("A.1", "Proof of the first lemma"), ("A.2", "Proof of the second lemma")):
            page.line(f"{number} {title}", font="Helvetica", after=6)
            page.paragraph()

    levels = _levels(markdown_of(drawn_pdf(draw)))
    assert list(levels) == ["1 Introduction", "A Proofs", "A.1 Proof of the first lemma",
                            "A.2 Proof of the second lemma"]
    assert levels["A.1 Proof of the first lemma"] > levels["A Proofs"]


def test_a_bold_title_opening_with_the_article_a_names_no_annex() -> None:
    # "A Survey of ..." set bold and large: its "A" a word space before the next word is an
    # article, no appendix's letter a quad before its title; a question "A.1" stays no heading.
    answer = "Answers are kept for a year and used only to improve the service for every customer."

    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("A Survey of Customer Satisfaction", size=16, after=10)
        page.numbered("1", "Customer survey", 13)
        page.paragraph()
        for number, question in (("A.1", "How often do you use the service"),
                                 ("A.2", "Which features do you use most")):
            page.line(f"{number} {question}", font="Helvetica", after=10)
            page.paragraph(answer)

    assert list(_levels(markdown_of(drawn_pdf(draw)))) == ["A Survey of Customer Satisfaction",
                                                           "1 Customer survey"]


def _pages(draw_page: Any, pages: int) -> bytes:
    """A PDF of ``pages`` A4 pages, each drawn by ``draw_page(canvas, page)`` (1-based)."""
    def draw(canvas: Any) -> None:
        for page in range(1, pages + 1):
            if page > 1:
                canvas.showPage()
            draw_page(canvas, page)

    return drawn_pdf(draw)


_TERMS = ("rated voltage", "rated current", "enclosure", "live part", "insulation", "clearance",
          "creepage distance", "protective conductor", "leakage current", "routine test", "type test",
          "sample")


def _term_page(canvas: Any, numbers: list[str], head: str, foot: str) -> None:
    """A page of a terms clause: the document's number over it (``head``), each term's number
    and the term on lines of their own over its definition, a page number under it."""
    if head:
        canvas.setFont("Helvetica", 9)
        canvas.drawString(72, HEIGHT - 40, head)
    page = _Page(canvas)
    for number in numbers:
        page.line(number, after=2)
        page.line(_TERMS[int(number.rsplit(".", 1)[-1]) - 1], after=2)
        page.paragraph()
    canvas.setFont("Helvetica", 9)
    canvas.drawCentredString(WIDTH / 2, 40, foot)


@pytest.mark.parametrize(("per_page", "head"), [(3, "ISO 12345:2026(E)"), (1, ""), (1, "ISO 12345:2026(E)")])
def test_a_term_number_at_the_head_of_a_page_is_no_page_number(per_page: int, head: str) -> None:
    # Each page opens with a term's number, at the height where every page's text starts: a
    # number of parts alone there ("#.#.#") is what a chapter's page number looks like, and
    # it recurs at one height.  The term under it, a line's pitch below, keeps it, whether the
    # numbers go up three a page or one (the sequence a page number would follow), with the
    # document's number over the page or with nothing over it.
    numbers = [f"3.1.{k}" for k in range(1, 4 * per_page + 1)]
    pdf = _pages(lambda canvas, page: _term_page(
        canvas, numbers[(page - 1) * per_page:page * per_page], head, str(page)), 4)
    markdown = markdown_of(pdf)
    terms = zip(numbers, _TERMS, strict=False)
    assert all(f"{number} {term}" in markdown for number, term in terms), markdown


# Four pages' text, no sentence on two pages.
_PAGE_TEXTS = [[f"The {thing} shall be tested {how} before it is marked and supplied to the user."
                for how in ("at the rated voltage", "in a dry room", "by the maker")]
               for thing in ("enclosure", "live part", "insulation", "protective conductor")]


_SECTIONS = ("Scope of the checks", "Tools needed", "Opening the housing", "Fitting the seal")


def _chapter_page(canvas: Any, page: int, head: str, foot: str, at_left: bool, title: str = "") -> None:
    """A page of ``_PAGE_TEXTS`` with a chapter's page number (``head`` or ``foot`` formatted
    with it: "3-12" on the first page) over the text, left or right, or under it; ``title``, a
    running title set a line under the number at the head (formatted with the page's number
    and ``_SECTIONS``' title of its page: a section's title that changes from page to page)."""
    n = page + 11
    canvas.setFont("Helvetica", 9)
    if head and at_left:
        canvas.drawString(72, HEIGHT - 40, head.format(n=n))
    elif head:
        canvas.drawRightString(WIDTH - 72, HEIGHT - 40, head.format(n=n))
    if title:
        canvas.drawString(72, HEIGHT - 51, title.format(n=n, section=_SECTIONS[page - 1]))
    if foot:
        canvas.drawCentredString(WIDTH / 2, 40, foot.format(n=n))
    text = _Page(canvas)
    for paragraph in _PAGE_TEXTS[page - 1]:
        text.paragraph(paragraph)


@pytest.mark.parametrize(("head", "foot", "at_left", "title"), [
    ("3-{n}", "", True, ""), ("3-{n}", "", False, ""), ("", "3.{n}", True, ""), ("3.{n}", "", True, ""),
    ("3-{n}", "", True, "Installation and commissioning")])
def test_chapter_page_numbers_over_or_under_the_text_stay_running_lines(head: str, foot: str, at_left: bool,
                                                                         title: str) -> None:
    # Negatives: a chapter's page numbers ("3-12", "3.12") at the head of each page, left or
    # right, or at its foot, are running lines; so is one over the running title a line under
    # it, where it starts (a line under a number of parts, as a term's, but a running one).
    pdf = _pages(lambda canvas, page: _chapter_page(canvas, page, head, foot, at_left, title), 4)
    markdown = markdown_of(pdf)
    assert markdown.split("\n\n") == [text for page in _PAGE_TEXTS for text in page]


def test_a_chapter_page_number_over_a_running_section_title_of_its_page_stays_a_running_line() -> None:
    # The line under "3-12" starts where it does, a line's pitch below, and is no text repeated
    # on another page (the section the page is in, "Tools needed"), but the page's
    # text stands well clear of it: a header of two lines, no term under its number.
    pdf = _pages(lambda canvas, page: _chapter_page(canvas, page, "3-{n}", "", True,
                                                    "{section}"), 4)
    markdown = markdown_of(pdf)
    assert not any(f"3-{n}" in markdown for n in range(12, 16)), markdown


def test_a_bibliography_reference_number_stays_on_its_entry_line() -> None:
    references = ("ISO 9001:2015, Quality management systems — Requirements",
                  "IEC 60364-1, Low-voltage electrical installations — Part 1: Fundamental principles",
                  "ISO/IEC 17025:2017, General requirements for the competence of testing laboratories")

    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Introduction", size=13)
        page.paragraph()
        page.line("Bibliography", size=13)
        for number, reference in enumerate(references, start=1):
            page.row([(72, f"[{number}]", "Helvetica"), (108, reference, "Helvetica")], after=8)

    markdown = markdown_of(drawn_pdf(draw))
    lines = {" ".join(line.split()) for line in markdown.splitlines()}
    assert all(f"[{n}] {reference}" in lines for n, reference in enumerate(references, start=1))
    assert [h.lstrip("# ") for h in _heading_lines(markdown)] == ["Introduction", "Bibliography"]


def test_contents_entries_with_their_numbers_hung_are_one_list_and_the_clauses_stay_headings() -> None:
    clauses = [("1", "Scope"), ("2", "Normative references"), ("3", "Terms and definitions"),
               ("4", "Requirements")]

    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Contents", size=13, after=10)
        for text, at in (("Foreword", "iv"), ("Introduction", "v")):
            page.row([(72, text, "Helvetica"), (500, at, "Helvetica")])
        for number, title in clauses:
            page.row([(72, number, "Helvetica"), (108, title, "Helvetica"), (500, number, "Helvetica")])
        canvas.showPage()
        page = _Page(canvas)
        page.line("Foreword", size=13)
        page.paragraph()
        page.line("Introduction", size=13)
        page.paragraph()
        for number, title in clauses:
            page.numbered(number, title, 13)
            page.paragraph()

    markdown = markdown_of(drawn_pdf(draw))
    assert "|" not in markdown  # (no table of numbers, titles and pages)
    items = [line.lstrip("- ").strip() for line in markdown.splitlines() if line.lstrip().startswith("- ")]
    assert [f"{number} {title} {number}" for number, title in clauses] == items[2:]
    assert [h.lstrip("# ") for h in _heading_lines(markdown)] == [
        "Contents", "Foreword", "Introduction", *(f"{number} {title}" for number, title in clauses)]


def test_a_small_section_heading_over_a_table_set_as_the_sections_over_text_heads_it() -> None:
    specs = [("Supply voltage", "1.4 to 3.6 V"), ("Supply current", "3.5 µA at 1 Hz"),
             ("Operating temperature", "−40 to 85 °C"), ("Package", "WSON-6")]

    def draw(canvas: Any) -> None:
        page = _Page(canvas, size=9)
        page.line("TMP-118 Digital temperature sensor", size=20, after=12)
        page.line("Description", size=10)
        page.paragraph("The TMP-118 is a digital temperature sensor for industrial and consumer equipment. "
                       "Each sensor is tested in production and supplied with a certificate of conformity.")
        page.line("Specifications", size=10)
        for key, value in specs:
            page.row([(72, key, "Helvetica-Bold"), (260, value, "Helvetica")])
        page.y -= 10
        page.line("Ordering information", size=10)
        page.paragraph("Order the TMP-118 in tape and reel of 3000 pieces or in tubes of fifty pieces each.")

    markdown = markdown_of(drawn_pdf(draw))
    assert [h.lstrip("# ") for h in _heading_lines(markdown)] == [
        "TMP-118 Digital temperature sensor", "Description", "Specifications", "Ordering information"]
    assert "| Supply current | 3.5 µA at 1 Hz |" in markdown


def test_a_tagged_cell_broken_over_two_pages_reads_only_its_own_pages_content() -> None:
    tree = [Node("H1", [Run(0, 72, 72, "Clause heading", 14, True)]),
            Node("P", [Run(0, 72, 100, "Running text of the clause.")]),
            Node("Table", [Node("TR", [Node("TD", [Run(0, 72, 700, "R5.1")]),
                                       Node("TD", [Run(0, 200, 700, "The first line of a cell"),
                                                   Run(1, 200, 72, "and its second line")])])]),
            Node("P", [Run(1, 72, 120, "Text after the table.")])]
    pdf = pdfium.PdfDocument(tagged_pdf(tree, pages=2))
    texts = []
    for index in range(2):
        page = pdf[index]
        tags = read_page_tags(page, page.get_textpage(), index + 1)
        texts.append([cell.text for table in tags.tables for cell in table.cells])
    assert texts[0] == ["R5.1", "The first line of a cell"]
    assert texts[1] == ["and its second line"]


def test_a_word_broken_over_a_ruled_tagged_cells_lines_is_whole_again() -> None:
    # A ruled table of two columns, "Condition" filling its cell (4 points of padding inside
    # the rules) over "s" alone: LibreOffice breaks a word too wide for its column so.
    left, pad = 200.0, 4.0
    right = left + pad + stringWidth("Condition", "Helvetica-Bold", 10) + pad
    tops = (100.0, 126.0, 140.0)
    rows = [[Node("TH", [Run(0, 76, 102, "Item", bold=True)]),
             Node("TH", [Run(0, left + pad, 102, "Condition", bold=True),
                         Run(0, left + pad, 114, "s", bold=True)])],
            [Node("TD", [Run(0, 76, 128, "Supply")]), Node("TD", [Run(0, left + pad, 128, "Idle")])]]
    tree = [Node("P", [Run(0, 72, 60, "The conditions of each measurement are given in the table below.")]),
            Node("Table", [Node("TR", row) for row in rows])]
    rules = [(x, tops[0], x, tops[-1]) for x in (72.0, left, right)]
    rules += [(72.0, y, right, y) for y in tops]
    markdown = "\n".join(page.markdown for page in read_text_layer(tagged_pdf(tree, lines=rules)).pages)
    assert "| Item | Conditions |" in markdown


def _dated_page(canvas: Any, page: int, head: str, foot: str) -> None:
    """A page with ``head`` and ``foot`` set alone at the right of its header and footer, its
    number at the footer's left, four short paragraphs."""
    canvas.setFont("Helvetica", 9)
    if head:
        canvas.drawRightString(WIDTH - 72, HEIGHT - 40, head)
    if foot:
        canvas.drawRightString(WIDTH - 72, 40, foot)
    canvas.drawString(72, 40, f"Page {page}")
    canvas.setFont("Helvetica", 10)
    y = HEIGHT - 90
    for _ in range(4):
        for line in wrapped_lines(TEXT, 400, "Helvetica", 10):
            canvas.drawString(72, y, line)
            y -= 12
        y -= 8


@pytest.mark.parametrize(("head", "foot"),
                         [("07.12.2026", ""), ("", "07.12.2026"), ("2026-12", ""), ("", "1.0")])
def test_a_number_of_parts_the_same_on_every_page_stays_a_running_line(head: str, foot: str) -> None:
    # A running date or a version alone in a header or footer is no entry's number: it is the
    # same on the pages beside (an entry's number is on one page), it never steps as a page's.
    markdown = markdown_of(_pages(lambda canvas, page: _dated_page(canvas, page, head, foot), 4))
    assert (head or foot) not in markdown
