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
