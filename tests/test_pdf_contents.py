"""Tables of contents (extractors/pdf_contents.py) and headings on documents a real office suite
typeset: a contents page drawn here with reportlab, with dot leaders and with a page column
alone, comes out as a nested Markdown list and gives no heading; Word documents of
tests/office_documents.py converted by LibreOffice keep their headings at their levels and no
bold sentence, label or caption becomes one."""

from __future__ import annotations

import io
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from reportlab.pdfgen import canvas

from extractors import extract
from extractors.base import ExtractOptions
from tests.office_documents import OfficeDocument, convert, generate_document
from tests.test_pdf_structure import SENTENCES, make_pdf, paragraph

WIDTH, HEIGHT = 612.0, 792.0
OPTIONS = ExtractOptions(ocr_engines=())  # the text layer is what these tests are about
ENTRIES = [  # (title, depth, page)
    ("1 Introduction", 1, 3), ("1.1 Purpose of the review", 2, 3), ("1.2 Scope", 2, 4),
    ("2 Network condition", 1, 6), ("2.1 Carriageways", 2, 7), ("2.2 Footways and cycle tracks", 2, 9),
    ("3 Programme of works", 1, 12), ("Appendix A Survey method", 1, 15),
]
BODY = ("The council inspected every street in the district during the spring and recorded the "
        "defects it found on each section of the network.")


def _contents_pdf(leaders: bool, title: str = "Contents", label: Callable[[int], str] = str) -> bytes:
    """A title page with a contents list (leaders, or page labels alone at a right tab; each
    page written by ``label``), then the pages its entries point at, each heading in a larger
    bold font."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    pdf.setFont("Helvetica-Bold", 16)
    pdf.drawString(72, HEIGHT - 90, title)
    y = HEIGHT - 125
    for text, depth, page in ENTRIES:
        x = 72 + 18 * (depth - 1)
        pdf.setFont("Helvetica", 11)
        pdf.drawString(x, y, text)
        if leaders:
            start = x + pdf.stringWidth(text, "Helvetica", 11) + 6
            dots = "." * int((WIDTH - 72 - 20 - start) / pdf.stringWidth(".", "Helvetica", 11))
            pdf.drawString(start, y, dots)
        pdf.drawRightString(WIDTH - 72, y, label(page))
        y -= 18
    pdf.showPage()
    for text, depth, _ in ENTRIES:
        pdf.setFont("Helvetica-Bold", 15 if depth == 1 else 12.5)
        pdf.drawString(72, HEIGHT - 90, text)
        pdf.setFont("Helvetica", 10)
        for row in range(3):
            pdf.drawString(72, HEIGHT - 120 - 13 * row, BODY[:88] if row % 2 == 0 else BODY[88:])
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


@pytest.mark.parametrize("leaders", [True, False], ids=["dot-leaders", "page-column"])
def test_contents_page_is_a_nested_list_and_gives_no_heading(leaders):
    result = extract(_contents_pdf(leaders), filename="contents.pdf", options=OPTIONS)
    page = result.pages[0].markdown
    headings = [line for line in result.markdown.splitlines() if line.startswith("#")]
    # Every heading is one of the body pages' (each once), none comes from the contents page.
    assert sorted(h.lstrip("# ") for h in headings if "Contents" not in h) == sorted(t for t, _, _ in ENTRIES)
    assert "|" not in page, "the page column became a table"
    items = [line for line in page.splitlines() if line.lstrip().startswith("- ")]
    assert items == [
        "- 1 Introduction 3", "  - 1.1 Purpose of the review 3", "  - 1.2 Scope 4",
        "- 2 Network condition 6", "  - 2.1 Carriageways 7", "  - 2.2 Footways and cycle tracks 9",
        "- 3 Programme of works 12", "- Appendix A Survey method 15",
    ]


# Pages numbered per chapter and appendix, as manuals and government reports number them.
CHAPTER_PAGES = {3: "1-1", 4: "1-2", 6: "2-1", 7: "2-2", 9: "2-4", 12: "3-1", 15: "A-1"}
LABELS = {"chapter-page": CHAPTER_PAGES.__getitem__, "range": lambda page: f"{page}–{page + 1}",
          "page-word": lambda page: f"Page {page}"}


@pytest.mark.parametrize("leaders", [True, False], ids=["dot-leaders", "page-column"])
@pytest.mark.parametrize("style", list(LABELS))
def test_contents_with_chapter_pages_ranges_or_page_words_is_a_list(style, leaders):
    """"2-1", "A-1", "12–15" and "Page 12" are page labels too: the contents is a list (it was a
    two-column table), and gives no heading."""
    label = LABELS[style]
    result = extract(_contents_pdf(leaders, "Table of Contents", label), filename="contents.pdf",
                     options=OPTIONS)
    page = result.pages[0].markdown
    assert "|" not in page, "the page column became a table"
    items = [line.strip() for line in page.splitlines() if line.lstrip().startswith("- ")]
    assert items == [f"- {text} {label(number)}" for text, _, number in ENTRIES]
    headings = [line.lstrip("# ") for line in result.markdown.splitlines() if line.startswith("#")]
    assert sorted(h for h in headings if "Contents" not in h) == sorted(t for t, _, _ in ENTRIES)


def test_a_column_of_age_bands_is_not_a_contents_page():
    """Ranges are page labels only where a contents is unmistakable: names over a column of age
    bands (no contents title, no numbered titles, none drawn elsewhere) are no contents."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    pdf.setFont("Helvetica", 10)
    pdf.drawString(72, HEIGHT - 90, BODY)
    for row, (name, band) in enumerate([("Young adults", "18-34"), ("Adults", "35-54"),
                                        ("Older adults", "55-74"), ("Elderly", "75-99")]):
        pdf.drawString(72, HEIGHT - 120 - 16 * row, name)
        pdf.drawRightString(300, HEIGHT - 120 - 16 * row, band)
    pdf.showPage()
    pdf.save()
    markdown = extract(buffer.getvalue(), filename="bands.pdf", options=OPTIONS).markdown
    assert "- Young adults 18-34" not in markdown


def test_a_column_of_whole_numbers_is_not_a_contents_page():
    """A two-column list of names and counts (no contents title, no numbered titles, no titles
    drawn elsewhere) stays what it was."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    pdf.setFont("Helvetica", 10)
    pdf.drawString(72, HEIGHT - 90, BODY)
    for row, (name, count) in enumerate([("North depot", 12), ("South depot", 31), ("Harbour yard", 7),
                                          ("Valley depot", 18)]):
        pdf.drawString(72, HEIGHT - 120 - 16 * row, name)
        pdf.drawRightString(300, HEIGHT - 120 - 16 * row, str(count))
    pdf.showPage()
    pdf.save()
    markdown = extract(buffer.getvalue(), filename="counts.pdf", options=OPTIONS).markdown
    assert "- North depot 12" not in markdown


# ------------------------------------------------------------------ LibreOffice-typeset documents

# Seed 2: numbered headings under a title, contents in a page column without leaders, bold
# labels ("Key points:") and bold sentences; seed 3: unnumbered headings, dot leaders.
SEEDS = (2, 3)


@pytest.fixture(scope="module")
def office_pdfs(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[OfficeDocument, bytes]]:
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is not installed: .ci/setup installs it")
    folder = tmp_path_factory.mktemp("office")
    documents = [generate_document(seed) for seed in SEEDS]
    sources = []
    for document in documents:
        path = folder / f"{document.name}.docx"
        path.write_bytes(document.docx)
        sources.append(path)
    pdfs = convert(sources, folder / "pdf")  # one LibreOffice run for both
    return [(document, Path(pdf).read_bytes()) for document, pdf in zip(documents, pdfs, strict=True)]


def _headings(markdown: str) -> list[tuple[str, int]]:
    found = []
    for line in markdown.splitlines():
        match = re.match(r"^(#{1,6}) (.*)$", line)
        if match:
            found.append((match.group(2).strip(), len(match.group(1))))
    return found


@pytest.mark.parametrize("index", range(len(SEEDS)), ids=[f"seed-{s}" for s in SEEDS])
def test_office_document_headings_and_levels(office_pdfs, index):
    document, pdf = office_pdfs[index]
    markdown = extract(pdf, filename=f"{document.name}.pdf", options=OPTIONS).markdown
    assert _headings(markdown) == [(h.text, h.level) for h in document.headings]
    decoys = document.decoys
    assert decoys and not [h for h, _ in _headings(markdown) if h in decoys], "a bold line as heading"
    items = {line.strip()[2:].replace("\\", "") for line in markdown.splitlines()
             if line.strip().startswith("- ")}
    for entry in document.contents:
        assert any(item.startswith(entry + " ") for item in items), f"contents entry {entry!r} not an item"


# ------------------------------------------------------------ the contents as heading evidence


def _evidence_pdf(spacing: float = 18, split_after: int | None = None) -> bytes:
    """The contents of ENTRIES (leaders; `spacing` points apart, over two pages when
    `split_after` entries fill the first), then one page per entry with its heading, and on
    the first section's page three lines set like headings that the contents do not list."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    pdf.setFont("Helvetica-Bold", 15)
    pdf.drawString(72, HEIGHT - 90, "Contents")
    y = HEIGHT - 125
    for index, (text, depth, page) in enumerate(ENTRIES):
        if index == split_after:
            pdf.showPage()
            y = HEIGHT - 90
        x = 72 + 18 * (depth - 1)
        pdf.setFont("Helvetica", 11)
        pdf.drawString(x, y, text)
        start = x + pdf.stringWidth(text, "Helvetica", 11) + 6
        pdf.drawString(start, y, "." * int((WIDTH - 72 - 20 - start) / pdf.stringWidth(".", "Helvetica", 11)))
        pdf.drawRightString(WIDTH - 72, y, str(page))
        y -= spacing
    pdf.showPage()
    for index, (text, depth, _) in enumerate(ENTRIES):
        lines = [(text, "Helvetica-Bold", 15 if depth == 1 else 12.5)]
        if index == 0:
            lines += [("Points raised by residents", "Helvetica-Bold", 12.5),  # Heading 2's style
                      ("What the survey found in brief", "Helvetica-Bold", 14),  # between H1 and H2
                      ("Method notes", "Helvetica-Bold", 10)]  # below every listed style
        _section_page(pdf, lines)
    pdf.save()
    return buffer.getvalue()


def _section_page(pdf: canvas.Canvas, lines: list[tuple[str, str, float]]) -> None:
    """A page of headings (text, font, size), each over three lines of body text."""
    y = HEIGHT - 90
    for heading, font, size in lines:
        pdf.setFont(font, size)
        pdf.drawString(72, y, heading)
        pdf.setFont("Helvetica", 10)
        for row in range(3):
            pdf.drawString(72, y - 30 - 13 * row, BODY[:88] if row % 2 == 0 else BODY[88:])
        y -= 100
    pdf.showPage()


def test_contents_entries_decide_headings_and_unlisted_look_alikes_are_text():
    markdown = extract(_evidence_pdf(), filename="evidence.pdf", options=OPTIONS).markdown
    headings = _headings(markdown)
    texts = [text for text, _ in headings]
    for text, _, _ in ENTRIES:
        assert text in texts, f"listed heading {text!r} lost"
    # Set like a listed heading (or more prominently than the least listed one) but not
    # listed: not headings.  Set below every listed level: a heading the contents leave out.
    assert "Points raised by residents" not in texts
    assert "What the survey found in brief" not in texts
    assert ("Method notes", 3) in headings
    assert ("Contents", 1) in headings or ("Contents", 2) in headings


def test_contents_over_two_pages_widely_spaced_keeps_its_first_entry_and_nesting():
    # 52 points apart: the first entry's gap to the next is measured against the next gap;
    # the second page starts inside section 2, its entries nest as on the first page.
    markdown = extract(_evidence_pdf(spacing=52, split_after=5), filename="two.pdf", options=OPTIONS).markdown
    items = [line for line in markdown.splitlines() if line.lstrip().startswith("- ")]
    assert items[0] == "- 1 Introduction 3"
    assert "  - 2.2 Footways and cycle tracks 9" in items
    assert "- 3 Programme of works 12" in items


def test_contents_last_entry_alone_on_the_next_page_is_an_entry_and_its_heading_stays():
    # The page after a contents page holds its last entry alone, no title, one leader line.
    markdown = extract(_evidence_pdf(split_after=7), filename="last.pdf", options=OPTIONS).markdown
    assert "- Appendix A Survey method 15" in markdown.splitlines()
    assert ("Appendix A Survey method", 1) in _headings(markdown)


def test_contents_nested_by_the_indentation_of_all_its_pages():
    from extractors.pdf_contents import ContentsEntry, nest_across_pages
    from extractors.pdf_drafts import Line

    def entry(title: str, x0: float) -> ContentsEntry:
        return ContentsEntry(title, "1", [Line([], x0, 0.0, 300.0, 10.0, 11.0, False, 1)])

    first = [entry("1 Introduction", 72), entry("1.1 Purpose", 90), entry("1.1.1 Terms", 108)]
    # The second page holds no top-level entry: alone, its two edges would read as depths 1, 2.
    second = [entry("1.2 Scope", 90), entry("1.2.1 Streets", 108)]
    for page in (first, second):
        for depth, item in enumerate(page, start=1):
            item.depth = depth
    nest_across_pages([(first, 72.0), (second, 72.0), ([], 72.0)])
    assert [e.depth for e in first + second] == [1, 2, 3, 2, 3]


# Hard documents (issue 32: tests/office_documents.py's decoys), exported untagged without
# bookmarks, so that the heuristics and the contents alone decide.  Both: unnumbered headings,
# Heading 3 bold at the body's size, among key-value lines, numbered body paragraphs, labels,
# bold table titles and a signature; contents with dot leaders over two pages, roman-numbered
# front matter and a wrapped first entry.  Seed 3 sets its headings in another typeface than
# the body; seed 14 in the body's, with bold statements ("All ... must be ...") that only the
# contents tell from its Heading 3s.
HARD_SEEDS = (3, 14)
# Seeds whose first heading, set at 20 points, wraps onto three lines (11) and four (10).
WRAPPED_SEEDS = (10, 11)


@pytest.fixture(scope="module")
def hard_office_pdfs(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[OfficeDocument, bytes]]:
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is not installed: .ci/setup installs it")
    folder = tmp_path_factory.mktemp("office-hard")
    documents = [generate_document(seed, hard=True) for seed in HARD_SEEDS + WRAPPED_SEEDS]
    sources = []
    for document in documents:
        path = folder / f"{document.name}.docx"
        path.write_bytes(document.docx)
        sources.append(path)
    pdfs = convert(sources, folder / "pdf")
    return [(document, Path(pdf).read_bytes()) for document, pdf in zip(documents, pdfs, strict=True)]


@pytest.mark.parametrize("index", range(len(HARD_SEEDS)), ids=[f"seed-{s}" for s in HARD_SEEDS])
def test_hard_office_document_decoys_are_text_and_headings_stay(hard_office_pdfs, index):
    document, pdf = hard_office_pdfs[index]
    markdown = extract(pdf, filename=f"{document.name}.pdf", options=OPTIONS).markdown
    headings = _headings(markdown)
    assert headings == [(h.text, h.level) for h in document.headings]
    assert not [h for h, _ in headings if h in document.decoys], "a decoy as heading"
    items = {line.strip()[2:].replace("\\", "") for line in markdown.splitlines()
             if line.strip().startswith("- ")}
    for entry in document.contents:
        assert any(item.startswith(entry + " ") for item in items), f"contents entry {entry!r} not an item"


@pytest.mark.parametrize("seed", WRAPPED_SEEDS)
def test_large_heading_wrapped_over_lines_is_one_heading(hard_office_pdfs, seed):
    """Large type at an ordinary line pitch: a line without descenders leaves a gap to the
    next as wide as a paragraph's spacing; and display type wraps a long title onto more
    lines than a body-size heading has."""
    document, pdf = next((d, p) for d, p in hard_office_pdfs if d.seed == seed)
    markdown = extract(pdf, filename=f"{document.name}.pdf", options=OPTIONS).markdown
    first = next(h for h in document.headings if h.text.startswith("1. "))
    assert (first.text, first.level) in _headings(markdown)


def _panel_listed_pdf() -> bytes:
    """A booklet's contents listing its sections (15 pt bold) and one panel's title (12 pt
    bold, like its many unlisted sub-sections), then the pages: two sections with three 12 pt
    sub-sections each, and the panel."""
    sections = [("Diagnosis", ["Blood tests", "Chest x-ray", "Bone scan"]),
                ("Treatment", ["Surgery options", "Radiotherapy sessions", "Side effects"])]
    entries = [("Diagnosis", 2), ("Hormone receptor tests", 3), ("Treatment", 4)]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    pdf.setFont("Helvetica-Bold", 15)
    pdf.drawString(72, HEIGHT - 90, "Contents")
    for row, (text, page) in enumerate(entries):
        y = HEIGHT - 125 - 18 * row
        pdf.setFont("Helvetica", 11)
        pdf.drawString(72, y, text)
        start = 72 + pdf.stringWidth(text, "Helvetica", 11) + 6
        pdf.drawString(start, y, "." * int((WIDTH - 92 - start) / pdf.stringWidth(".", "Helvetica", 11)))
        pdf.drawRightString(WIDTH - 72, y, str(page))
    pdf.showPage()
    for number, (section, subsections) in enumerate(sections):
        headings = [(section, "Helvetica-Bold", 15.0)] + [(t, "Helvetica-Bold", 12.0) for t in subsections]
        _section_page(pdf, headings)
        if number == 0:
            _section_page(pdf, [("Hormone receptor tests", "Helvetica-Bold", 12)])
    pdf.save()
    return buffer.getvalue()


def test_a_style_the_contents_list_once_among_many_unlisted_headings_is_not_theirs():
    # The contents name one 12-point title (a panel's) and none of the six 12-point
    # sub-sections: they stop above that style, whose headings stay, below the sections.
    headings = _headings(extract(_panel_listed_pdf(), filename="panel.pdf", options=OPTIONS).markdown)
    texts = [text for text, _ in headings]
    for text in ("Blood tests", "Chest x-ray", "Bone scan", "Surgery options", "Radiotherapy sessions",
                 "Side effects", "Diagnosis", "Treatment", "Hormone receptor tests"):
        assert text in texts, f"{text!r} lost"
    level = dict(headings)
    assert level["Blood tests"] > level["Diagnosis"]


def test_a_heading_the_contents_leave_out_is_not_set_smaller_than_the_running_text():
    # A booklet's glossary in small print of another face: its terms, bold, head their
    # definitions (read against the page's own small body), but a section the contents leave
    # out is not set smaller than the document's running text.
    terms = [(term, f"{SENTENCES[2 * i]} {SENTENCES[2 * i + 1]}")
             for i, term in enumerate(("Biopsy", "Lymph nodes", "Mammogram"))]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    pdf.setFont("Helvetica-Bold", 15)
    pdf.drawString(72, HEIGHT - 90, "Contents")
    for row, (text, page) in enumerate([("Diagnosis", 2), ("Treatment", 3), ("Glossary", 4)]):
        pdf.setFont("Helvetica", 11)
        pdf.drawString(72, HEIGHT - 125 - 18 * row, f"{text} {'.' * 60} {page}")
    pdf.showPage()
    for section in ("Diagnosis", "Treatment"):
        _section_page(pdf, [(section, "Helvetica-Bold", 15.0), (f"{section} in brief", "Helvetica-Bold", 12)])
    pdf.setFont("Helvetica-Bold", 15)
    pdf.drawString(72, HEIGHT - 90, "Glossary")
    y = HEIGHT - 120
    for term, definition in terms:
        pdf.setFont("Times-Bold", 8)
        pdf.drawString(72, y, term)
        pdf.setFont("Times-Roman", 8)
        for start in range(0, len(definition), 95):
            y -= 10
            pdf.drawString(72, y, definition[start:start + 95])
        y -= 18
    pdf.showPage()
    pdf.save()
    texts = [text for text, _ in _headings(extract(buffer.getvalue(), filename="glossary.pdf",
                                                   options=OPTIONS).markdown)]
    assert {"Diagnosis", "Treatment", "Glossary", "Diagnosis in brief", "Treatment in brief"} <= set(texts)
    assert not {term for term, _ in terms} & set(texts), texts


def test_contents_at_one_edge_unnumbered_nest_by_type():
    # A booklet's contents: chapters in bold, their sections regular, all at one left edge
    # and none numbered; the chapters' headings come out above their sections'.
    chapters = [("What is cancer?", []), ("Diagnosis", ["Blood tests", "Bone scan"]),
                ("Treatment", ["Surgery", "Radiotherapy"])]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    pdf.setFont("Helvetica-Bold", 15)
    pdf.drawString(72, HEIGHT - 90, "Contents")
    y, page = HEIGHT - 125, 2
    for chapter, sections in chapters:
        for text, font in [(chapter, "Helvetica-Bold")] + [(s, "Helvetica") for s in sections]:
            pdf.setFont(font, 11)
            pdf.drawString(72, y, f"{text} {'.' * 50} {page}")
            y, page = y - 18, page + 1
    pdf.showPage()
    for chapter, sections in chapters:
        _section_page(pdf, [(chapter, "Helvetica-Bold", 18.0)])
        for section in sections:
            _section_page(pdf, [(section, "Helvetica-Bold", 14.0)])
    pdf.save()
    markdown = extract(buffer.getvalue(), filename="booklet.pdf", options=OPTIONS).markdown
    assert "  - Blood tests 4" in markdown.splitlines() and "- Diagnosis 3" in markdown.splitlines()
    level = dict(_headings(markdown))
    assert level["Diagnosis"] < level["Blood tests"] and level["Treatment"] < level["Radiotherapy"]


@pytest.mark.parametrize("sections", [
    ["Main points", "Regional estimates", "Household composition", "Revisions"],
    # (A title naming a year: the contents' title over it is no name over an address.)
    ["Main points", "Trends since 2019", "Household composition", "Revisions"],
])
def test_a_contents_without_page_labels_is_a_list_of_its_entries(sections):
    """A web page's "On this page": the titles of the sections below, one a line, no page
    numbers nor leaders.  Each line is a list item, not one paragraph of titles, and the
    sections' headings, and the contents' title, stay headings."""
    lines: list[tuple] = [(72, 60, "Housing supply, England", 22, "Helvetica-Bold"),
                          (72, 100, "On this page", 14, "Helvetica-Bold")]
    lines += [(72, 124 + 14 * i, title, 10) for i, title in enumerate(sections)]
    top = 124 + 14 * len(sections) + 20
    for index, title in enumerate(sections):
        lines.append((72, top, title, 14, "Helvetica-Bold"))
        body, top = paragraph(top + 22, SENTENCES[index])
        lines += body
        top += 16
    markdown = extract(make_pdf(lines), filename="links.pdf", options=OPTIONS).markdown
    assert [line for line in markdown.splitlines() if line.startswith("- ")] == [f"- {t}" for t in sections]
    assert [line.lstrip("# ") for line in markdown.splitlines() if line.startswith("#")] == \
        ["Housing supply, England", "On this page", *sections]


def _contents_without_labels(sections: list[tuple[str, int]], filename: str) -> str:
    """A report's page: a contents list of ``sections`` without page numbers, then each
    section's heading (bold, in its size) over a paragraph; its Markdown."""
    lines: list[tuple] = [(72, 60, "Half-year Report", 22, "Helvetica-Bold"),
                          (72, 100, "Contents", 14, "Helvetica-Bold")]
    lines += [(72, 124 + 14 * i, title, 10) for i, (title, _) in enumerate(sections)]
    top = 124 + 14 * len(sections) + 20
    for index, (title, size) in enumerate(sections):
        lines.append((72, top, title, size, "Helvetica-Bold"))
        body, top = paragraph(top + 22, SENTENCES[index % len(SENTENCES)])
        lines += body
        top += 16
    return extract(make_pdf(lines), filename=filename, options=OPTIONS).markdown


def test_a_numbered_contents_without_page_labels_nests_its_subsections():
    """A report's contents with no page numbers: numbered items ("1.", "2.") with the
    subsections under them at the same left edge ("2.1 ...").  Each line is one list item,
    the subsections nested by their numbering, none a heading of its own."""
    sections = [("1. Outlook", 14), ("2. Governance", 14), ("2.1 By age group", 12),
                ("3. Trends since 2019", 14), ("3.1 By sector", 12)]
    markdown = _contents_without_labels(sections, "numbered-links.pdf")
    items = [line for line in markdown.splitlines() if re.match(r"\s*(- |\d\. )", line)]
    assert items == ["1. Outlook", "2. Governance", "    - 2.1 By age group", "3. Trends since 2019",
                     "    - 3.1 By sector"]
    assert [line.lstrip("# ") for line in markdown.splitlines() if line.startswith("#")] == \
        ["Half-year Report", "Contents", *(title for title, _ in sections)]


def test_an_annexs_clauses_in_a_contents_without_page_labels_nest_by_their_numbers():
    """As above, with an annex's clauses ("A.1", upper case as set) under "Annex A": their depth
    is their number's, as "2.1"'s is (the letter was matched in lower case only, on the line's
    own text: "A.1" stood at the annex's depth); a lettered section "B." is one deep."""
    sections = [("1. Outlook", 14), ("2. Governance", 14), ("2.1 By age group", 12),
                ("Annex A Survey method", 14), ("A.1 Sample design", 12), ("A.2 Weighting", 12),
                ("B. Glossary", 14)]
    markdown = _contents_without_labels(sections, "annex-links.pdf")
    items = [line for line in markdown.splitlines() if re.match(r"\s*(- |\d\. )", line)]
    assert items == ["1. Outlook", "2. Governance", "    - 2.1 By age group", "- Annex A Survey method",
                     "    - A.1 Sample design", "    - A.2 Weighting", "- B. Glossary"]


# ------------------------------------------------------------- contents set in text columns

LEFT_ENTRIES = ENTRIES[:4]
RIGHT_ENTRIES = ENTRIES[4:]


def _two_column_contents_pdf(leaders: bool) -> bytes:
    """A contents page in two text columns, the entries of one row side by side (leaders or a
    page column in each), then the pages its entries point at."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    pdf.setFont("Helvetica-Bold", 16)
    pdf.drawString(72, HEIGHT - 90, "Contents")
    for left, column in ((72, LEFT_ENTRIES), (326, RIGHT_ENTRIES)):
        y = HEIGHT - 125
        for text, depth, page in column:
            x = left + 12 * (depth - 1)
            pdf.setFont("Helvetica", 10)
            pdf.drawString(x, y, text)
            if leaders:
                start = x + pdf.stringWidth(text, "Helvetica", 10) + 4
                dots = "." * int((left + 190 - start) / pdf.stringWidth(".", "Helvetica", 10))
                pdf.drawString(start, y, dots)
            pdf.drawRightString(left + 214, y, str(page))
            y -= 16
    pdf.showPage()
    for text, depth, _ in ENTRIES:
        _section_page(pdf, [(text, "Helvetica-Bold", 15.0 if depth == 1 else 12.5)])
    pdf.save()
    return buffer.getvalue()


@pytest.mark.parametrize("leaders", [True, False], ids=["dot-leaders", "page-column"])
def test_contents_in_two_columns_are_read_column_by_column(leaders):
    """Issue 32: a row of a two-column contents holds an entry of each column; they were one
    line (or one table row).  Each is an item, the left column's first, nested as one list."""
    result = extract(_two_column_contents_pdf(leaders), filename="columns.pdf", options=OPTIONS)
    page = result.pages[0].markdown
    assert "|" not in page, "the columns became a table"
    items = [line for line in page.splitlines() if line.lstrip().startswith("- ")]
    assert items == [
        "- 1 Introduction 3", "  - 1.1 Purpose of the review 3", "  - 1.2 Scope 4",
        "- 2 Network condition 6", "  - 2.1 Carriageways 7", "  - 2.2 Footways and cycle tracks 9",
        "- 3 Programme of works 12", "- Appendix A Survey method 15",
    ]


# A report's contents in three columns, page numbers before the titles (bold), a part title
# over some entries and titles wrapped under themselves.
LABEL_FIRST = [
    [(None, "Our Company"), ("2", "Chairman's letter"), ("6", "The year at a glance"),
     ("10", "Strategy and business model for the years ahead"), ("16", "Markets we serve"),
     ("18", "Our people"), ("20", "Innovation"), ("22", "Case studies"), ("26", "Ten-year record")],
    [(None, "Performance"), ("24", "Financial review"), ("30", "Operating review of the divisions"),
     ("38", "Sustainability"), ("44", "Risk management")],
    [(None, "Governance"), ("52", "Board of directors"), ("56", "Remuneration report"),
     ("64", "Financial statements"), ("120", "Shareholder information")],
]


def _label_first_contents_pdf() -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    pdf.setFont("Helvetica-Bold", 18)
    pdf.drawCentredString(WIDTH / 2, HEIGHT - 60, "Table of Contents")
    for index, column in enumerate(LABEL_FIRST):
        left = 50 + 180 * index
        y = HEIGHT - 100
        for label, title in column:
            if label is None:
                pdf.setFont("Helvetica-Bold", 13)
                pdf.drawString(left, y, title)
                y -= 20
                continue
            pdf.setFont("Helvetica-Bold", 10)
            pdf.drawString(left, y, label)
            pdf.setFont("Helvetica", 10)
            words, line = title.split(), ""
            for word in words:  # wrapped at 120 points, the rest under the title
                if line and pdf.stringWidth(f"{line} {word}", "Helvetica", 10) > 120:
                    pdf.drawString(left + 22, y, line)
                    y, line = y - 12, word
                else:
                    line = f"{line} {word}".strip()
            pdf.drawString(left + 22, y, line)
            y -= 16
    # Under the middle column's entries, beside the left one's, an image's caption and its
    # page ("PG 64"); under the right column's, a note.
    pdf.setFont("Helvetica-Bold", 16)
    pdf.drawString(230, HEIGHT - 230, "RETAIL")
    pdf.setFont("Helvetica", 7)
    pdf.drawString(230, HEIGHT - 244, "PG 64")
    pdf.setFont("Helvetica", 9)
    pdf.drawString(410, HEIGHT - 236, "The icons above mark the capitals.")
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_contents_in_three_columns_with_labels_first_is_a_list_not_a_table():
    """Issue 32 (reliance.pdf p3): page numbers before the titles, three columns; it came out
    as a table.  Each entry is an item (title, then its label), column by column."""
    page = extract(_label_first_contents_pdf(), filename="report.pdf", options=OPTIONS).pages[0].markdown
    assert "|" not in page, "the contents became a table"
    items = [line.strip()[2:] for line in page.splitlines() if line.lstrip().startswith("- ")]
    expected = [title if label is None else f"{title} {label}" for column in LABEL_FIRST
                for label, title in column]
    assert items == expected


def test_contents_title_over_columns_stays_a_heading_and_captions_follow_the_entries():
    """The contents' title heads the entries though a caption over a page figure ("RETAIL",
    "PG 64") stands among the columns; the caption is read after the entries."""
    page = extract(_label_first_contents_pdf(), filename="report.pdf", options=OPTIONS).pages[0].markdown
    lines = [line for line in page.splitlines() if line.strip()]
    assert lines[0] == "# Table of Contents"
    assert lines.index("- Risk management 44") < lines.index("RETAIL") == lines.index("PG 64") - 1


def test_numbered_sections_are_no_label_first_contents():
    """Lines numbered 1, 2, 3 under a contents title are sections, not pages: no "title 1"."""
    lines: list[tuple] = [(72, 100, "Contents", 14, "Helvetica-Bold")]
    lines += [(72, 124 + 14 * i, f"{i + 1} {title}", 10)
              for i, title in enumerate(["Outlook", "Governance", "Trends", "Revisions"])]
    markdown = extract(make_pdf(lines), filename="sections.pdf", options=OPTIONS).markdown
    assert "Outlook 1" not in markdown


@pytest.fixture(scope="module")
def two_column_toc_pdf(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A Word document whose contents (a TOC field, dot leaders to a right tab) sits in a
    section of two columns, typeset by LibreOffice."""
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is not installed: .ci/setup installs it")
    from copy import deepcopy

    from docx import Document
    from docx.enum.section import WD_SECTION
    from docx.enum.text import WD_BREAK, WD_TAB_ALIGNMENT, WD_TAB_LEADER
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn
    from docx.shared import Pt

    word = Document()

    def end_section(count: int) -> None:
        # Word keeps a section's properties in the paragraph that ends it.
        properties = OxmlElement("w:sectPr")
        kind = OxmlElement("w:type")
        kind.set(qn("w:val"), "continuous")
        properties.append(kind)
        for tag in ("w:pgSz", "w:pgMar"):
            found = word.sections[0]._sectPr.find(qn(tag))
            if found is not None:
                properties.append(deepcopy(found))
        cols = OxmlElement("w:cols")
        cols.set(qn("w:num"), str(count))
        cols.set(qn("w:space"), "720")
        properties.append(cols)
        word.add_paragraph()._p.get_or_add_pPr().append(properties)

    word.add_paragraph("Street Condition Review", style="Title")
    word.add_paragraph("Contents", style="Heading 1")
    end_section(1)
    for text, depth, page in ENTRIES * 2:
        paragraph = word.add_paragraph()
        paragraph.paragraph_format.left_indent = Pt(12 * (depth - 1))
        paragraph.paragraph_format.tab_stops.add_tab_stop(Pt(180), WD_TAB_ALIGNMENT.RIGHT, WD_TAB_LEADER.DOTS)
        paragraph.add_run(f"{text}\t{page}")
    end_section(2)
    # The next section starts on the same page: the columns are balanced, not the first filled.
    word.sections[-1].start_type = WD_SECTION.CONTINUOUS
    word.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
    for text, _, _ in ENTRIES:
        word.add_paragraph(text, style="Heading 1")
        word.add_paragraph(BODY)
    folder = tmp_path_factory.mktemp("office-columns")
    source = folder / "columns.docx"
    word.save(str(source))
    return Path(convert([source], folder / "pdf")[0]).read_bytes()


def test_office_contents_in_a_two_column_section_reads_column_by_column(two_column_toc_pdf):
    page = extract(two_column_toc_pdf, filename="columns.pdf", options=OPTIONS).pages[0].markdown
    assert "|" not in page, "the columns became a table"
    items = [line.strip()[2:].replace("\\", "") for line in page.splitlines()
             if line.lstrip().startswith("- ")]
    assert items == [f"{text} {number}" for text, _, number in ENTRIES * 2]
