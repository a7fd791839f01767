"""The PDF structure stage on small PDFs drawn here with reportlab: one test per rule
(headings, columns, running headers and footers, paragraphs and lists, table placement), and
the generated reports of tests/pdf_reports.py for the rates the issue asks for."""

from __future__ import annotations

import io
import re

import pytest
from reportlab.pdfgen import canvas

from extractors import extract, pdf_headings, pdf_structure
from extractors.base import ExtractOptions
from extractors.pdf_table_model import FoundTable
from extractors.pdf_text import read_text_layer
from extractors.pdf_words import read_layouts

WIDTH, HEIGHT = 612.0, 792.0
# OCR is not what these tests are about (and a structure bug must not hide behind it).
OPTIONS = ExtractOptions(ocr_engines=())

SENTENCES = [
    "The committee reviewed the annual budget and approved the proposal for new equipment.",
    "Several members asked for a detailed account of the maintenance costs of last year.",
    "The treasurer agreed to present the figures at the next meeting of the full board.",
    "A working group will study the options for the replacement of the old heating system.",
    "Members thanked the volunteers who organised the summer festival in the village hall.",
    "The secretary will write to the council about the repair of the footpath near the river.",
]


class Page:
    """Draws text lines top-down on one PDF page (y given from the top, as read)."""

    def __init__(self, pdf: canvas.Canvas) -> None:
        self.pdf = pdf

    def text(self, x: float, top: float, text: str, size: float = 10.0, font: str = "Helvetica") -> None:
        self.pdf.setFont(font, size)
        self.pdf.drawString(x, HEIGHT - top - size, text)


def make_pdf(*pages: list[tuple]) -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    for lines in pages:
        page = Page(pdf)
        for line in lines:
            page.text(*line)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def paragraph(top: float, text: str, x: float = 72.0, width_chars: int = 90, size: float = 10.0,
              leading: float = 12.0) -> tuple[list[tuple], float]:
    """``text`` wrapped into lines of at most ``width_chars`` characters: the lines and the top
    of the line after the paragraph."""
    lines, current = [], ""
    for word in text.split():
        if current and len(current) + 1 + len(word) > width_chars:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}".strip()
    lines.append(current)
    return [(x, top + i * leading, line, size) for i, line in enumerate(lines)], top + len(lines) * leading


def markdown_of(data: bytes) -> str:
    return extract(data, filename="test.pdf", options=OPTIONS).markdown


def blocks_of(markdown: str) -> list[str]:
    return [b.strip() for b in markdown.split("\n\n") if b.strip()]


def test_headings_from_size_weight_and_numbering():
    body1, after = paragraph(140, " ".join(SENTENCES[:3]))
    body2, after2 = paragraph(after + 40, " ".join(SENTENCES[3:]))
    data = make_pdf([
        (72, 72, "Village Hall Annual Report", 22, "Helvetica-Bold"),
        (72, 115, "1 Introduction", 14, "Helvetica-Bold"),
        *body1,
        (72, after + 16, "1.1 Scope of the review", 11, "Helvetica-Bold"),
        *body2,
        (72, after2 + 16, "Closing remarks", 10, "Helvetica-Bold"),
        (72, after2 + 34, SENTENCES[0], 10),
    ])
    markdown = markdown_of(data)
    headings = [line for line in markdown.split("\n") if line.startswith("#")]
    assert headings == ["# Village Hall Annual Report", "## 1 Introduction", "### 1.1 Scope of the review",
                        "### Closing remarks"]  # smaller than "1 Introduction": a rank below
    # Body text stays body text, each paragraph a block of its own.
    assert " ".join(SENTENCES[:3]) in blocks_of(markdown)


def test_numbered_headings_keep_their_depth_under_a_cover_of_many_sizes_and_set_the_others():
    # A cover in five display sizes above the chapters' used to push every numbered heading
    # to the last level (flat "####" headings, heading paths one heading deep).
    cover = [(72, top, text, size, "Helvetica-Bold")
             for top, text, size in [(72, "Redbook", 60), (160, "Access Control in Depth", 40),
                                     (230, "Front matter", 30), (290, "for administrators", 20),
                                     (330, "Second edition", 17)]]
    body1, after1 = paragraph(110, " ".join(SENTENCES[:3]))
    body2, after2 = paragraph(after1 + 36, " ".join(SENTENCES[3:]))
    body3, after3 = paragraph(after2 + 34, " ".join(SENTENCES[:2]))
    body4, _ = paragraph(after3 + 34, " ".join(SENTENCES[2:4]))
    chapter = [(72, 72, "Chapter 1. Securing the data", 24, "Helvetica-Bold"), *body1,
               (72, after1 + 12, "1.1 Security fundamentals", 14, "Helvetica-Bold"), *body2,
               (72, after2 + 12, "1.1.1 Existing controls", 12, "Helvetica-Bold"), *body3,
               (72, after3 + 12, "Authors", 14, "Helvetica-Bold"), *body4]
    preface, _ = paragraph(110, " ".join(SENTENCES[1:4]))
    markdown = markdown_of(make_pdf(cover, [(72, 72, "Preface", 24, "Helvetica-Bold"), *preface], chapter))
    headings = [line for line in markdown.split("\n") if line.startswith("#")]
    assert headings[-5:] == ["## Preface", "## Chapter 1. Securing the data", "### 1.1 Security fundamentals",
                             "#### 1.1.1 Existing controls", "### Authors"]
    assert headings[0] == "# Redbook"


def test_display_sizes_used_once_are_one_level_above_the_headings_that_recur():
    # With more sizes than levels, a cover's and a back page's display sizes used to be a level
    # each, pushing the sections down (here to the last level, flat).
    pages = [[(72, 72, "Annual Review", 44, "Helvetica-Bold")]]
    for n, (part, topic) in enumerate([("Moorings and berths", "Waiting list"), ("Finances", "Reserves")]):
        body1, after1 = paragraph(150, " ".join(SENTENCES[n:n + 3]))
        body2, _ = paragraph(after1 + 34, " ".join(SENTENCES[n + 1:n + 4]))
        pages.append([(72, 120, part, 18, "Helvetica-Bold"), *body1,
                      (72, after1 + 12, topic, 13, "Helvetica-Bold"), *body2])
    back1, after1 = paragraph(150, " ".join(SENTENCES[2:5]))
    back2, _ = paragraph(after1 + 50, " ".join(SENTENCES[1:3]))
    pages.append([(72, 100, "Contact the Trust", 32, "Helvetica-Bold"), *back1,
                  (72, after1 + 12, "Registered office", 24, "Helvetica-Bold"), *back2])
    headings = [line for line in markdown_of(make_pdf(*pages)).split("\n") if line.startswith("#")]
    assert headings == ["# Annual Review", "## Moorings and berths", "### Waiting list", "## Finances",
                        "### Reserves", "# Contact the Trust", "# Registered office"]


def test_one_numbered_heading_does_not_set_the_levels_of_the_others():
    # "3.11." is as likely a date as a section number: one such heading must not make every
    # larger heading a sibling of the title.
    pages = []
    sections = [("Background", "Earlier claims"), ("Findings", "3.11. The March ruling")]
    for n, (section, topic) in enumerate(sections):
        body1, after1 = paragraph(150, " ".join(SENTENCES[n:n + 3]))
        body2, _ = paragraph(after1 + 34, " ".join(SENTENCES[n + 1:n + 4]))
        title = [(72, 60, "Claims After the Flood", 24, "Helvetica-Bold")] if n == 0 else []
        pages.append([*title, (72, 120, section, 16, "Helvetica-Bold"), *body1,
                      (72, after1 + 12, topic, 12, "Helvetica-Bold"), *body2])
    headings = [line for line in markdown_of(make_pdf(*pages)).split("\n") if line.startswith("#")]
    assert headings == ["# Claims After the Flood", "## Background", "### Earlier claims", "## Findings",
                        "### 3.11. The March ruling"]


def test_a_line_of_capitals_in_the_body_font_heads_its_section_but_not_a_form():
    # Documents typed in one font mark their headings with capitals only.
    body1, after1 = paragraph(96, " ".join(SENTENCES[:3]))
    body2, after2 = paragraph(after1 + 30, " ".join(SENTENCES[3:]))
    lines = [(72, 72, "GENERAL PROVISIONS", 10), *body1,
             (72, after1 + 12, "DUTIES OF THE TREASURER", 10), *body2,
             # Capitals over short lines: the fields of a form, not a section.
             (72, after2 + 20, "APPLICANT DETAILS", 10), (72, after2 + 34, "Jane Doe", 10),
             (72, after2 + 46, "12 Mill Lane", 10), (72, after2 + 58, "Riverside", 10)]
    # Nor a command or a name in capitals over its explanation.
    body3, _ = paragraph(after2 + 108, " ".join(SENTENCES[1:3]))
    lines += [(72, after2 + 90, "GRANT SELECT ON HR_SCHEMA.EMPLOYEES", 10), *body3]
    headings = [line for line in markdown_of(make_pdf(lines)).split("\n") if line.startswith("#")]
    assert headings == ["# GENERAL PROVISIONS", "# DUTIES OF THE TREASURER"]


def test_a_run_of_lines_set_alike_with_a_gloss_each_is_a_figure_not_sections():
    # A syntax diagram: each clause a line set larger than the body, under it one line of
    # small print explaining it.  Real sections follow, each with its text.
    body, after = paragraph(72, " ".join(SENTENCES[:2]))
    lines = [*body]
    top = after + 16
    for clause, gloss in [("CREATE PERMISSION <name>", "Names the row permission."),
                          ("ON <table name>", "Identifies the table it applies to."),
                          ("FOR ROWS", "Indicates that a row permission is created."),
                          ("ENABLE", "Specifies that the permission is enabled.")]:
        lines += [(72, top, clause, 11.5, "Helvetica-Bold"), (90, top + 16, gloss, 8.5)]
        top += 34
    for title in ("Column masks", "Activating the controls"):
        section, top = paragraph(top + 30, " ".join(SENTENCES[2:5]))
        lines += [(72, section[0][1] - 18, title, 11.5, "Helvetica-Bold"), *section]
    markdown = markdown_of(make_pdf(lines))
    headings = [line for line in markdown.split("\n") if line.startswith("#")]
    assert headings == ["# Column masks", "# Activating the controls"]
    assert "CREATE PERMISSION <name>" in markdown


@pytest.mark.parametrize("columns", [2, 3])
def test_columns_are_read_one_after_the_other(columns):
    width = (WIDTH - 144) / columns
    texts = [[f"Column {c} line {i} tells story {c}." if columns == 3 else
              f"Column {c} line {i} tells the story number {c} in order." for i in range(20)]
             for c in range(columns)]
    lines = [(72, 72, "A Page In Columns With A Wide Title Across All Of Them", 18, "Helvetica-Bold")]
    for i in range(20):
        for c in range(columns):
            lines.append((72 + c * width, 120 + i * 12, texts[c][i], 9))
    lines.append((72, 400, "A full-width closing line that runs across all of the columns of this page.", 9))
    markdown = markdown_of(make_pdf(lines))
    order = [markdown.index(text) for column in texts for text in column]
    assert order == sorted(order), "columns interleaved"
    assert markdown.index("Wide Title") < order[0]
    assert markdown.index("full-width closing line") > order[-1]


def test_running_header_and_page_numbers_leave_the_body():
    pages = []
    for number in range(1, 4):
        body, _ = paragraph(120, " ".join(SENTENCES[number:number + 3]))
        pages.append([(72, 30, "Riverside Community Association - Minutes 2024", 8),
                      *body,
                      (72, 200, "Recorded by the secretary.", 10),
                      (290, 750, f"Page {number} of 3", 8)])
    data = make_pdf(*pages)
    result = extract(data, filename="minutes.pdf", options=OPTIONS)
    assert "Riverside Community Association" not in result.markdown
    assert not re.search(r"Page \d of 3", result.markdown)
    for page in result.pages:
        assert page.running == ["Riverside Community Association - Minutes 2024", f"Page {page.number} of 3"]
        assert "Recorded by the secretary." in page.markdown  # repeated, but not in a band
        kinds = [block["kind"] for block in page.blocks]
        assert kinds[0] == "header" and kinds[-1] == "footer"


def test_a_title_wrapped_onto_a_year_at_the_head_of_the_page_keeps_its_year():
    """A web page's title in display type, centred and wrapped so that its year stands alone
    on the second line in the page's top band ("Housing Supply, England:" over "2025"): the
    year ends the title, it is no page number (tuned on tests/web_pages.py's pages).  A bare
    figure at the body's size there still is one."""
    title = [(150, 20, "Housing Supply, England:", 30, "Helvetica-Bold"),
             (270, 55, "2025", 30, "Helvetica-Bold")]
    body, _ = paragraph(130, " ".join(SENTENCES[:3]))
    second, _ = paragraph(130, " ".join(SENTENCES[3:]))
    markdown = markdown_of(make_pdf([*title, *body], [(300, 30, "2", 10), *second]))
    assert markdown.startswith("# Housing Supply, England: 2025\n"), markdown[:80]
    assert "\n2\n" not in f"\n{markdown}\n"


def test_paragraphs_lists_and_hyphenation():
    first, after = paragraph(72, " ".join(SENTENCES[:2]))
    lines = [*first,
             (72, after + 10, "The board discussed the develop-", 10),
             (72, after + 22, "ment of the new garden beside the school.", 10)]
    top = after + 50
    items = ["Repair the roof of the main hall before the winter storms arrive in the valley and the "
             "rain comes through the ceiling", "Order new chairs", "Paint the doors"]
    cut = items[0].rindex(" ", 0, 80)  # the first item wraps, with a hanging indent
    lines += [(72, top, "•", 10), (86, top, items[0][:cut], 10), (86, top + 12, items[0][cut + 1:], 10),
              (72, top + 26, "•", 10), (86, top + 26, items[1], 10),
              (72, top + 40, "•", 10), (86, top + 40, items[2], 10)]
    lines += [(72, top + 70, "1.", 10), (86, top + 70, "Approve the minutes", 10),
              (72, top + 84, "2.", 10), (86, top + 84, "Elect a new treasurer", 10)]
    markdown = markdown_of(make_pdf(lines))
    blocks = blocks_of(markdown)
    assert " ".join(SENTENCES[:2]) in blocks
    # Joined by text_repair.join_hyphenated.
    assert "The board discussed the development of the new garden beside the school." in blocks
    assert f"- {items[0]}\n- {items[1]}\n- {items[2]}" in blocks
    assert "1. Approve the minutes\n2. Elect a new treasurer" in blocks


def test_a_hyphen_before_a_capital_or_a_digit_at_a_line_end_is_kept_without_a_space():
    """No word is hyphenated before a capital or a digit: "Lucene-" over "BM25" is one compound,
    and "develop-" over "ment" one word."""
    first, after = paragraph(72, " ".join(SENTENCES[:2]))
    lines = [*first,
             (72, after + 10, "Our dense retriever outperforms a strong Lucene-", 10),
             (72, after + 22, "BM25 system and the COVID-", 10),
             (72, after + 34, "19 figures of the develop-", 10),
             (72, after + 46, "ment team by a wide margin.", 10)]
    markdown = markdown_of(make_pdf(lines))
    assert ("Our dense retriever outperforms a strong Lucene-BM25 system and the COVID-19 figures "
            "of the development team by a wide margin.") in blocks_of(markdown)


def test_a_quotation_in_italics_across_lines_stays_in_its_paragraph():
    """Lines set in italics in the middle of a paragraph (a quoted sentence running over two
    lines) go on the paragraph when the line before fills the measure and ends no sentence."""
    italic = "Helvetica-Oblique"
    quoted = [
        ("The members were asked to consider the question that the chairman put to", "Helvetica"),
        ("them before the vote: whether the village hall should be opened to the school", italic),
        ("for its lessons in the winter months when the classrooms are too cold to use", italic),
        ("for teaching, and the answer was given by a show of hands in the hall itself.", "Helvetica"),
    ]
    lines = [(72, 72 + 12 * i, text, 10, font) for i, (text, font) in enumerate(quoted)]
    markdown = markdown_of(make_pdf(lines))
    assert " ".join(text for text, _ in quoted) in blocks_of(markdown)


def test_a_dash_glued_to_a_figure_is_a_sign_not_a_bullet():
    """"-12 degrees" keeps its minus sign as a paragraph; "-2-5 Standard", set large and bold (a
    right-to-left section number as the text layer gives it), is a heading, not a list item."""
    body, after = paragraph(72, " ".join(SENTENCES[:2]))
    negative, after = paragraph(after + 14, "-12 degrees was the lowest temperature recorded at the "
                                            "station during the night of the storm.")
    heading = [(72, after + 20, "-2-5 Standard of the goods", 15, "Helvetica-Bold")]
    rest, _ = paragraph(after + 44, " ".join(SENTENCES[2:4]))
    items = [(72, 600, "- Repair the roof", 10), (72, 614, "- Order new chairs", 10)]
    blocks = blocks_of(markdown_of(make_pdf([*body, *negative, *heading, *rest, *items])))
    assert "-12 degrees was the lowest temperature recorded at the station during the night of the " \
           "storm." in blocks
    assert "# -2-5 Standard of the goods" in blocks
    assert "- Repair the roof\n- Order new chairs" in blocks  # a dash and a space is a bullet still


def test_tables_take_their_place_in_reading_order(monkeypatch):
    before, after = paragraph(72, SENTENCES[0])
    lines = [*before,
             (72, after + 20, "Item", 10), (250, after + 20, "Cost", 10),
             (72, after + 34, "Chairs", 10), (250, after + 34, "120", 10),
             (72, after + 80, SENTENCES[1], 10)]
    data = make_pdf(lines)
    table_top = after + 18

    def fake_find_tables(layout):  # placement is under test here, not table finding
        cells = [["Item", "Cost"], ["Chairs", "120"]]
        return [FoundTable(60, table_top, 400, table_top + 32, cells,
                           "| Item | Cost |\n| --- | --- |\n| Chairs | 120 |")]

    monkeypatch.setattr(pdf_structure, "find_tables", fake_find_tables)
    result = extract(data, filename="t.pdf", options=OPTIONS)
    blocks = blocks_of(result.markdown)
    assert blocks == [SENTENCES[0], "| Item | Cost |\n| --- | --- |\n| Chairs | 120 |", SENTENCES[1]]
    assert [(t.cells, t.page) for t in result.tables] == [([["Item", "Cost"], ["Chairs", "120"]], 1)]
    assert [b["kind"] for b in result.pages[0].blocks] == ["paragraph", "table", "paragraph"]


def test_layouts_are_top_left_with_fonts_and_rulings():
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    pdf.setFont("Helvetica-Bold", 12)
    pdf.drawString(100, HEIGHT - 112, "Bold words")
    pdf.setFont("Helvetica", 10)
    pdf.drawString(100, HEIGHT - 200, "plain")
    pdf.line(100, HEIGHT - 300, 400, HEIGHT - 300)
    pdf.rect(100, HEIGHT - 500, 200, 100)
    pdf.showPage()
    pdf.save()
    (layout,) = read_layouts(buffer.getvalue())
    bold, words, plain = layout.words
    assert (bold.text, words.text, plain.text) == ("Bold", "words", "plain")
    assert bold.bold and not plain.bold and round(bold.size) == 12 and round(plain.size) == 10
    assert 95 < bold.top < 112 < bold.bottom < 116 and plain.top > bold.bottom
    assert bold.x0 == pytest.approx(100, abs=1.5)
    horizontal = sorted((round(r.top), round(r.x0), round(r.x1)) for r in layout.rulings if r.horizontal)
    assert (300, 100, 400) in horizontal and (400, 100, 300) in horizontal and (500, 100, 300) in horizontal
    assert sum(1 for r in layout.rulings if not r.horizontal) == 2


def test_generated_reports_headings_paragraphs_running_lines():
    reports = pytest.importorskip("tests.pdf_reports")
    found = truth = paragraphs = kept = running = expected_running = 0
    for seed in (11, 12, 13):
        report = reports.generate_report(seed)
        result = extract(report.pdf, filename="report.pdf", options=OPTIONS)
        headings = [re.sub(r"^#+\s*", "", line) for line in result.markdown.split("\n")
                    if line.startswith("#")]
        truth += len(report.headings)
        found += sum(1 for h in report.headings if h.text in headings)
        assert len(headings) <= len(report.headings) + 1
        blocks = set(blocks_of(result.markdown))
        paragraphs += len(report.paragraphs)
        kept += sum(1 for p in report.paragraphs if p.text in blocks)
        removed = [line for page in result.pages for line in page.running]
        expected_running += 2 * report.page_count
        running += sum(1 for f in report.footers if f in removed) + removed.count(report.header)
        assert report.header not in result.markdown
    assert found / truth >= 0.9
    assert kept / paragraphs >= 0.85
    assert running / expected_running >= 0.9


def test_page_without_text_still_goes_to_ocr_signals():
    data = make_pdf([(72, 72, "x", 10)], [(72, 72, SENTENCES[0], 10)])
    layer = read_text_layer(data)
    assert layer.signals["chars_per_page"][0] < 5
    assert layer.pages[1].markdown == SENTENCES[0]


def test_chunk_boxes_cover_the_words_of_their_text():
    """Provenance end to end on a generated report: each chunk's boxes are on the pages it
    spans, inside the page, and hold the words its text begins with (so a client highlighting
    them shows the right place)."""
    from indexing.chunking import chunk_markdown
    from indexing.provenance import page_regions, with_boxes
    from tests.pdf_reports import generate_report

    report = generate_report(7)
    result = extract(report.pdf, "report.pdf", options=OPTIONS)
    regions = {p.number: page_regions(p.markdown, p.number, p.size, p.blocks)
               for p in result.pages if p.number is not None}
    chunks = with_boxes(chunk_markdown([(p.markdown, p.number) for p in result.pages]), regions)
    words = {layout.number: layout.words for layout in read_layouts(report.pdf)}
    prose = [c for c in chunks if not c.is_table and c.text[:1].isalpha()]
    assert len(prose) >= 5
    with_boxes_count = 0
    for chunk in prose + [c for c in chunks if c.is_table]:
        if not chunk.boxes:
            continue
        with_boxes_count += 1
        for box in chunk.boxes:
            assert chunk.page_start <= box.page <= chunk.page_end
            assert 0 <= box.x0 < box.x1 <= box.width and 0 <= box.top < box.bottom <= box.height
        inside = {w.text for box in chunk.boxes for w in words[box.page]
                  if box.x0 - 1 <= w.x0 and w.x1 <= box.x1 + 1 and box.top - 1 <= w.top
                  and w.bottom <= box.bottom + 1}
        first = re.findall(r"\w+", chunk.text)[0]
        assert any(first in word for word in inside), (chunk.text[:60], chunk.boxes)
    assert with_boxes_count >= 0.9 * (len(prose) + sum(c.is_table for c in chunks))


# ------------------------------------------------------------------ decoys real documents have


def test_bold_decoys_are_not_headings_and_real_headings_stay():
    """Issue 32: what real documents set bold or large without being a section: a key-value
    line, a bold bulleted item, a label before a list, a long bold statement, a large bold
    sentence and a large cut one, a name in a signature block; the headings around them
    stay headings."""
    body1, after1 = paragraph(130, " ".join(SENTENCES[:3]))
    body2, after2 = paragraph(after1 + 68, " ".join(SENTENCES[3:]))
    body3, after3 = paragraph(after2 + 96, " ".join(SENTENCES[:2]))
    body4, after4 = paragraph(after3 + 52, " ".join(SENTENCES[2:4]))
    body5, after5 = paragraph(after4 + 88, " ".join(SENTENCES[4:]))
    assert after5 < 700
    data = make_pdf([
        (72, 72, "Village Hall Annual Report", 22, "Helvetica-Bold"),
        (72, 110, "Date: 12 May 2024", 10, "Helvetica-Bold"),
        *body1,
        (72, after1 + 14, "\u2022 Replacement of the boiler", 10, "Helvetica-Bold"),
        (72, after1 + 28, "\u2022 Repair of the footpath", 10, "Helvetica-Bold"),
        (72, after1 + 52, "Closing remarks", 10, "Helvetica-Bold"),
        *body2,
        (72, after2 + 14, "NOTES", 10, "Helvetica-Bold"),
        (72, after2 + 28, "1. The hall was repainted in the spring by the volunteers.", 10),
        (72, after2 + 42, "2. The lease was renewed for ten years by the parish council.", 10),
        (72, after2 + 62, "All members must return the signed forms to the secretary by Friday", 10,
         "Helvetica-Bold"),
        (72, after2 + 80, "Outlook", 10, "Helvetica-Bold"),
        *body3,
        (72, after3 + 14, "The board approved the budget for the new hall and the footpath.", 13,
         "Helvetica-Bold"),
        *body4,
        (72, after4 + 14, "Signed", 10),
        (72, after4 + 28, "D. Jones", 10, "Helvetica-Bold"),
        (72, after4 + 42, "Treasurer", 10),
        (72, after4 + 56, "12 May 2024", 10),
        (72, after4 + 76, "Next steps", 10, "Helvetica-Bold"),
        *body5,
        # A large lead paragraph cut at the page's end: one sentence ends inside it.
        (72, after5 + 20, "The board met twice in the spring. The members of the", 13, "Helvetica-Bold"),
    ])
    markdown = markdown_of(data)
    headings = [line for line in markdown.split("\n") if line.startswith("#")]
    assert headings == ["# Village Hall Annual Report", "## Closing remarks", "## Outlook", "## Next steps"]
    assert "- Replacement of the boiler" in markdown  # a bold item stays an item


def test_key_values_and_section_labels():
    assert pdf_headings._key_value("Date: 12 May 2024")
    assert pdf_headings._key_value("Status: Final")
    assert pdf_headings._key_value("Reference: HM/2024/17")
    # A section's own label names a section; a title with a subtitle is not a field.
    assert not pdf_headings._key_value("Appendix A: Data")
    assert not pdf_headings._key_value("Chapter 2: Methods and results of the survey")



def test_bold_line_spaced_like_the_body_is_text_where_headings_bind_to_their_text():
    """In a document whose headings sit closer to the text below them than to the text above
    (its larger, numbered headings show it), a short bold body-size paragraph with the body's
    spacing on both sides is emphasis; a bold line set like the headings heads its text.
    Where the headings are spaced like paragraphs, spacing says nothing: the line stays."""

    def document(binding: bool) -> bytes:
        lines: list[tuple] = [(72, 60, "Village Hall Annual Report", 22, "Helvetica-Bold")]
        top = 100.0
        # Boxes of 10-point lines are 12 points high; paragraphs 8 points apart.  Headings 16
        # above and 4 below their text when binding, else 8 and 8.
        above, below = (16, 4) if binding else (8, 8)
        for number, sentences in enumerate((SENTENCES[:2], SENTENCES[2:4], SENTENCES[4:]), start=1):
            body, top = paragraph(top, " ".join(sentences))
            lines += body
            lines.append((72, top + above, f"{number} Section {number}", 13, "Helvetica-Bold"))
            top += above + 15 + below
        body, top = paragraph(top, " ".join(SENTENCES[:2]))
        lines += body
        lines.append((72, top + 8, "Members agreed the budget without a vote", 10, "Helvetica-Bold"))
        body, top = paragraph(top + 8 + 12 + 8, " ".join(SENTENCES[2:4]))
        lines += body
        lines.append((72, top + above, "Closing remarks", 10, "Helvetica-Bold"))
        body, _ = paragraph(top + above + 12 + below, " ".join(SENTENCES[4:]))
        return make_pdf(lines + body)

    for binding in (True, False):
        headings = [line.lstrip("# ") for line in markdown_of(document(binding)).split("\n")
                    if line.startswith("#")]
        assert "Closing remarks" in headings
        assert ("Members agreed the budget without a vote" in headings) is not binding


def test_a_title_wrapped_in_two_sizes_is_one_heading():
    # A back cover's title fitted to its box line by line: 33 then 30 points, one title (it
    # used to come out as two level-1 headings, each half a title).
    body, _ = paragraph(200, " ".join(SENTENCES[:4]))
    markdown = markdown_of(make_pdf([
        (72, 72, "Access Control for the", 33, "Helvetica-Bold"),
        (72, 112, "Village Hall Database", 30, "Helvetica-Bold"),
        (72, 160, "A guide for volunteers", 18, "Helvetica"),
        *body,
    ]))
    headings = [line for line in markdown.split("\n") if line.startswith("#")]
    assert headings[0] == "# Access Control for the Village Hall Database"
    # A subtitle clearly smaller, in another weight, stays apart.
    assert "A guide for volunteers" not in headings[0]
    # A numbered section's heading set right under its chapter's, a little smaller, is its own.
    body, _ = paragraph(140, " ".join(SENTENCES[:4]))
    markdown = markdown_of(make_pdf([(72, 72, "Chapter Three Results", 24, "Helvetica-Bold"),
                                     (72, 102, "3.1 Overview of the year", 22, "Helvetica-Bold"), *body]))
    headings = [line.lstrip("# ") for line in markdown.split("\n") if line.startswith("#")]
    assert headings == ["Chapter Three Results", "3.1 Overview of the year"]


def test_a_page_set_in_its_own_typeface_reads_its_headings_against_its_own_body():
    # A brochure bound into a report: 7.5-point serif text under 9-point bold headings, in a
    # document whose body is 10-point sans.  Against the document's body those headings are
    # small; against the page's own they are headings.
    report = [paragraph(72, " ".join(SENTENCES * 2), width_chars=95)[0] for _ in range(2)]
    first, after = paragraph(110, " ".join(SENTENCES[:3]), size=7.5, leading=9.0, width_chars=110)
    second, _ = paragraph(after + 24, " ".join(SENTENCES[3:]), size=7.5, leading=9.0, width_chars=110)
    brochure = [(72, 96, "We build confident clients", 9.0, "Times-Bold"),
                *[(x, top, text, size, "Times-Roman") for x, top, text, size in first],
                (72, after + 10, "Who we are and what we do", 9.0, "Times-Bold"),
                *[(x, top, text, size, "Times-Roman") for x, top, text, size in second]]
    headings = [line for line in markdown_of(make_pdf(*report, brochure)).split("\n") if line.startswith("#")]
    assert [h.lstrip("# ") for h in headings] == ["We build confident clients", "Who we are and what we do"]


def test_a_line_ending_in_a_semicolon_or_a_comma_is_no_heading_however_set():
    # A syntax diagram's statement set in bold larger type ("DISABLE;") came out as a heading;
    # no title ends in a semicolon or a comma.
    body1, after1 = paragraph(100, " ".join(SENTENCES[:3]))
    body2, after2 = paragraph(after1 + 40, " ".join(SENTENCES[3:]))
    markdown = markdown_of(make_pdf([
        (72, 72, "Access rules", 14, "Helvetica-Bold"), *body1,
        (90, after1 + 14, "ALTER TABLE MEMBERS DISABLE;", 12, "Helvetica-Bold"), *body2,
        (72, after2 + 16, "Members, volunteers and staff,", 14, "Helvetica-Bold"),
        (72, after2 + 34, SENTENCES[0], 10),
    ]))
    headings = [line for line in markdown.split("\n") if line.startswith("#")]
    assert headings == ["# Access rules"]


def test_a_page_of_code_is_read_against_the_document_body():
    # A listing in 8-point Courier fills a page of a 10-point sans document; the short lines of
    # text between its parts stay text, not headings set "larger" than the listing.
    report = [paragraph(72, " ".join(SENTENCES * 2), width_chars=95)[0] for _ in range(2)]
    code = ["# members are listed once and each row is checked here. old rows are kept.",
            "create table members (id integer, name text, joined date)",
            "# the treasurer reads the table and the secretary writes to it.",
            "grant select on members to treasurer", "grant insert on members to secretary"]
    listing = [(72, 72, "The listing creates the members table", 10, "Helvetica")]
    listing += [(72, 96 + 10 * i, line, 8, "Courier") for i, line in enumerate(code * 3)]
    listing += [(72, 260, "Then the grants are checked once more", 10, "Helvetica")]
    listing += [(72, 284 + 10 * i, line, 8, "Courier") for i, line in enumerate(code * 3)]
    headings = [line for line in markdown_of(make_pdf(*report, listing)).split("\n") if line.startswith("#")]
    assert headings == []


def test_bullets_drawn_as_shapes_mark_list_items():
    """A browser draws a list's discs (and squares) as filled paths, not glyphs: each such dot
    a little before a line's first word, level with it and the size of a bullet for its
    font, marks an item; a dot inside a line, or a chart legend's larger keys, mark none."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    page = Page(pdf)
    page.text(72, 72, "Main points", 16, "Helvetica-Bold")
    body, top = paragraph(100, " ".join(SENTENCES[:2]))
    for line in body:
        page.text(*line)
    items = ["Household numbers rose in every region", "Rents grew faster than earnings",
             "Completions fell for the second year"]
    for index, item in enumerate(items):
        y = top + 10 + index * 14
        page.text(90, y, item)
        # A 3 pt disc (or square) centred on the line's x-height, 8 pt before its text.
        if index == 1:
            pdf.rect(80, HEIGHT - y - 6.5, 3, 3, stroke=0, fill=1)
        else:
            pdf.circle(81.5, HEIGHT - y - 5, 1.5, stroke=0, fill=1)
    legend_top = top + 10 + len(items) * 14 + 16
    page.text(72, legend_top, "Shares by tenure, owners")
    pdf.circle(200, HEIGHT - legend_top - 5, 1.5, stroke=0, fill=1)
    page.text(206, legend_top, "renters and others in the latest year")
    # A chart legend's keys: 8 pt squares before 12 pt labels, one under the other.
    for index, label in enumerate(("Forecast", "Target")):
        y = legend_top + 30 + index * 22
        pdf.rect(400, HEIGHT - y - 10, 8, 8, stroke=0, fill=1)
        page.text(412, y, label, 12)
    pdf.showPage()
    pdf.save()
    markdown = markdown_of(buffer.getvalue())
    assert [line for line in markdown.splitlines() if line.startswith("- ")] == [f"- {i}" for i in items]
    assert "•" not in markdown and "- renters" not in markdown
    assert "- Forecast" not in markdown and "- Target" not in markdown
