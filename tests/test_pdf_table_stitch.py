"""Tables continued on the next page (extractors/pdf_table_stitch.py): one table over the pages
it spans, the repeated header dropped, written where it starts; two tables that merely look
alike across a page break stay two; a chunk from the middle of a joined table repeats its
header and reports the pages its rows are on."""

from __future__ import annotations

import io
from typing import Any

import pytest
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Table, TableStyle

from extractors.pdf_text import PdfText, read_text_layer
from indexing.chunking import chunk_markdown
from indexing.provenance import page_regions, with_boxes

BODY = ParagraphStyle("body", fontName="Helvetica", fontSize=10, leading=13, spaceAfter=8)
HEADING = ParagraphStyle("heading", fontName="Helvetica-Bold", fontSize=14, leading=17, spaceAfter=6,
                         keepWithNext=1)
TEXT = ("The figures below were measured across every region during the year and are reported "
        "quarter by quarter with the changes against the previous year. ") * 3
PLACES = ("North", "South", "East", "West", "Central", "Coastal", "Harbour", "Valley")


def rows(count: int, first: str = "Region", columns: int = 4) -> list[list[str]]:
    header = [first] + [f"Q{q} 2024" for q in range(1, columns)]
    return [header] + [[f"{PLACES[i % 8]} {i // 8 + 1}"] + [f"{(i * 37 + c * 11) % 900 + 100:,}.{c}"
                                                            for c in range(1, columns)]
                       for i in range(count)]


def table(cells: list[list[str]], ruled: bool, repeat: bool, widths: list[float] | None = None) -> Table:
    style: list[tuple[Any, ...]] = [("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
                                    ("FONTNAME", (0, 1), (-1, -1), "Helvetica"),
                                    ("ALIGN", (1, 0), (-1, -1), "RIGHT")]
    if ruled:
        style.append(("GRID", (0, 0), (-1, -1), 0.5, colors.black))
    return Table(cells, colWidths=widths, style=TableStyle(style), hAlign="LEFT",
                 repeatRows=1 if repeat else 0)


def running(canvas: Any, document: Any) -> None:
    canvas.setFont("Helvetica", 9)
    canvas.drawString(56, A4[1] - 40, "Regional Figures Report")
    canvas.drawCentredString(A4[0] / 2, 32, f"Page {document.page}")


def pdf(story: list[Flowable]) -> PdfText:
    buffer = io.BytesIO()
    SimpleDocTemplate(buffer, pagesize=A4, leftMargin=56, rightMargin=56, topMargin=64, bottomMargin=56,
                      invariant=1).build(story, onFirstPage=running, onLaterPages=running)
    return read_text_layer(buffer.getvalue())


def report(cells: list[list[str]], ruled: bool, repeat: bool) -> PdfText:
    """A heading and paragraphs, then ``cells`` from mid-page over the page break, then text."""
    story: list[Flowable] = [Paragraph("Regional Results", HEADING)]
    story += [Paragraph(TEXT, BODY) for _ in range(4)]
    story += [table(cells, ruled, repeat), Paragraph("Closing Notes", HEADING), Paragraph(TEXT, BODY)]
    return pdf(story)


def tables_of(layer: PdfText) -> list[list[str]]:
    markdown = "\n\n".join(page.markdown for page in layer.pages if page.markdown.strip())
    found: list[list[str]] = []
    current: list[str] = []
    for line in [*markdown.split("\n"), ""]:
        if line.startswith("|"):
            current.append(line)
        elif current:
            found.append(current)
            current = []
    return found


def cell_rows(markdown_rows: list[str]) -> list[list[str]]:
    return [[c.strip() for c in line.strip("|").split("|")] for line in markdown_rows if "---" not in line]


def test_ruled_table_with_repeated_header_over_two_pages_is_one_table() -> None:
    cells = rows(50)
    layer = report(cells, ruled=True, repeat=True)
    found = tables_of(layer)
    assert len(found) == 1
    assert cell_rows(found[0]) == cells  # every row once, the header once
    blocks = [b for page in layer.pages for b in page.blocks if b["kind"] in ("table", "table_continued")]
    assert [b["kind"] for b in blocks] == ["table", "table_continued"]
    assert blocks[0]["pages"] == [1, 2] and blocks[1]["continues"] == 1
    assert [part["page"] for part in blocks[0]["parts"]] == [1, 2]
    assert len(layer.tables) == 1 and layer.tables[0].cells == cells


def test_unruled_table_without_repeated_header_is_one_table() -> None:
    cells = rows(50)
    found = tables_of(report(cells, ruled=False, repeat=False))
    assert len(found) == 1
    assert cell_rows(found[0]) == cells


def page_filling(ruled: bool) -> list[list[str]]:
    """As many rows as fill a page's frame (less its padding) and no more."""
    count = 10
    while table(rows(count + 1), ruled, False).wrap(A4[0] - 124, A4[1] - 132)[1] <= A4[1] - 132:
        count += 1
    return rows(count)


def test_a_different_table_at_the_top_of_the_next_page_stays_apart() -> None:
    # A table that fills its page, then one with another first column at the top of the next.
    filling = page_filling(ruled=False)
    other = rows(6, first="District")
    layer = pdf([table(filling, ruled=False, repeat=False), table(other, ruled=False, repeat=False),
                 Paragraph(TEXT, BODY)])
    assert sum(1 for page in layer.pages if any(b["kind"] == "table" for b in page.blocks)) == 2, \
        "the first table must end on page 1"
    found = tables_of(layer)
    assert [cell_rows(t)[0][0] for t in found] == ["Region", "District"]


def test_a_heading_between_two_alike_tables_keeps_them_apart() -> None:
    layer = pdf([table(page_filling(ruled=True), ruled=True, repeat=False), Paragraph("Second Set", HEADING),
                 table(rows(6), ruled=True, repeat=False)])
    assert len(tables_of(layer)) == 2


def test_chunk_from_the_middle_of_a_joined_table_has_its_header_and_pages() -> None:
    cells = rows(60)
    layer = report(cells, ruled=False, repeat=False)
    pages = layer.pages
    chunks = chunk_markdown([(page.markdown, page.number) for page in pages], max_tokens=120)
    regions = {page.number: page_regions(page.markdown, page.number, page.size, page.blocks)
               for page in pages if page.number is not None}
    chunks = [c for c in with_boxes(chunks, {n: r for n, r in regions.items() if r}) if c.is_table]
    header = "| " + " | ".join(cells[0]) + " |"
    assert len(chunks) >= 3 and all(c.text.split("\n")[0] == header for c in chunks)
    ranges = [(c.page_start, c.page_end) for c in chunks]
    middle = [c for c in chunks if (c.page_start, c.page_end) == (2, 2)]
    assert middle, ranges
    assert all({box.page for box in c.boxes} == {2} for c in middle)
    assert ranges[0][0] == 1 and ranges == sorted(ranges)


def test_a_page_holding_only_rows_of_a_joined_table_is_not_read_again_nor_ocred() -> None:
    from extractors.router import extract

    cells = rows(100)  # from mid-page 1, all of page 2, onto page 3
    buffer = io.BytesIO()
    story: list[Flowable] = [Paragraph("Regional Results", HEADING), Paragraph(TEXT, BODY),
                             table(cells, ruled=True, repeat=True), Paragraph(TEXT, BODY)]
    SimpleDocTemplate(buffer, pagesize=A4, leftMargin=56, rightMargin=56, topMargin=64, bottomMargin=56,
                      invariant=1).build(story, onFirstPage=running, onLaterPages=running)
    result = extract(buffer.getvalue(), filename="long.pdf")
    assert result.route == "pdf-fast"
    assert result.pages[1].markdown == "" and result.pages[1].engine == "pdfium-text"
    assert [b["kind"] for b in result.pages[1].blocks if b["kind"].startswith("table")] == ["table_continued"]
    found = [line for line in result.markdown.split("\n") if line.startswith("|")]
    assert cell_rows(found) == cells


def test_one_or_two_rows_run_over_onto_the_next_page_join_the_table() -> None:
    # Too few lines for a table of their own: the rows are fitted to the table's columns.
    for ruled, repeat, extra in ((False, True, 1), (False, False, 2), (True, False, 1)):
        cells = rows(len(page_filling(ruled)) - 1 + extra)
        layer = pdf([table(cells, ruled, repeat), Paragraph(TEXT, BODY)])
        found = tables_of(layer)
        assert len(found) == 1, (ruled, repeat, extra)
        assert cell_rows(found[0]) == cells, (ruled, repeat, extra)


def test_a_continued_note_between_the_parts_does_not_part_them() -> None:
    def noted(canvas: Any, document: Any) -> None:
        running(canvas, document)
        if document.page == 2:  # above the frame's first row, below the running header
            canvas.setFont("Helvetica-Oblique", 9)
            canvas.drawString(56, A4[1] - 62, "Table 1 (continued)")

    cells = rows(60)
    buffer = io.BytesIO()
    story: list[Flowable] = [Paragraph(TEXT, BODY), table(cells, ruled=False, repeat=True),
                             Paragraph(TEXT, BODY)]
    SimpleDocTemplate(buffer, pagesize=A4, leftMargin=56, rightMargin=56, topMargin=70, bottomMargin=56,
                      invariant=1).build(story, onFirstPage=running, onLaterPages=noted)
    layer = read_text_layer(buffer.getvalue())
    assert "Table 1 (continued)" in layer.pages[1].markdown
    found = tables_of(layer)
    assert len(found) == 1 and cell_rows(found[0]) == cells


def ledger(count: int) -> list[list[str]]:
    """A ledger: right-aligned dates against left-aligned references, a gutter of 3 pt (the
    header's labels left-aligned, as a spreadsheet's are)."""
    return [["Item", "Date", "Reference", "Amount", "Paid"]] + [
        [f"{PLACES[i % 8]} {i // 8 + 1}", f"{i % 28 + 1:02d}/{i % 12 + 1:02d}/2023", f"INV-{10000 + i * 379}",
         f"£{(i * 7919) % 900000 + 1000:,}", f"{(i * 37) % 60 - 10:.1f}%"] for i in range(count)]


def ledger_table(cells: list[list[str]]) -> Table:
    style: list[tuple[Any, ...]] = [("FONTNAME", (0, 0), (-1, -1), "Helvetica"),
                                    ("ALIGN", (1, 1), (1, -1), "RIGHT"), ("ALIGN", (3, 1), (-1, -1), "RIGHT"),
                                    ("RIGHTPADDING", (1, 0), (1, -1), 1.5),
                                    ("LEFTPADDING", (2, 0), (2, -1), 1.5)]
    return Table(cells, style=TableStyle(style), hAlign="LEFT", repeatRows=0)


def test_a_continuation_without_header_is_read_in_the_first_parts_columns() -> None:
    # On the next page nothing confirms the narrow gutter between the dates and the
    # references: read alone, the part has four columns; read in the first part's, five.
    cells = ledger(90)
    layer = pdf([Paragraph(TEXT, BODY), ledger_table(cells), Paragraph(TEXT, BODY)])
    found = tables_of(layer)
    assert len(found) == 1
    assert cell_rows(found[0]) == cells


def test_a_different_ledger_at_the_top_of_the_next_page_is_not_read_in_the_first_ones_columns() -> None:
    # Columns that fit the first table's are not enough: the second's header row holds words
    # where the first's body has figures and dates.
    filling = ledger(10)
    while ledger_table(ledger(len(filling))).wrap(A4[0] - 124, A4[1] - 132)[1] <= A4[1] - 132:
        filling = ledger(len(filling) + 1)
    filling = ledger(len(filling) - 1)
    other = [["Supplier", "Date", "Reference", "Amount", "Paid"], *ledger(8)[1:]]
    layer = pdf([ledger_table(filling), ledger_table(other), Paragraph(TEXT, BODY)])
    assert layer.pages[1].markdown.startswith("| Supplier |"), "the second table must open page 2"
    found = tables_of(layer)
    assert [cell_rows(t)[0][0] for t in found] == ["Item", "Supplier"]


def test_one_or_two_ledger_rows_run_over_are_fitted_to_its_body_columns() -> None:
    # Too narrow a gutter for a whitespace strip between the dates and the references: the
    # rows are fitted to the columns the body's cells keep.
    count = 10
    while ledger_table(ledger(count)).wrap(A4[0] - 124, A4[1] - 132)[1] <= A4[1] - 132:
        count += 1
    for extra in (1, 2):
        cells = ledger(count - 2 + extra)
        layer = pdf([ledger_table(cells), Paragraph(TEXT, BODY)])
        assert layer.pages[1].markdown.startswith("The figures"), extra  # (the rows left page 2's text)
        found = tables_of(layer)
        assert len(found) == 1 and cell_rows(found[0]) == cells, extra


def print_titles_report(label: str | None) -> tuple[list[list[str]], list[list[str]], PdfText]:
    """A spreadsheet's print titles: its first table's header row (under a one-line ``label``
    set right over the table, if any) repeated at the top of every page, here over the rows
    of its second table, which goes on from page 1.  The two tables and the document."""
    first = rows(6)
    widths = [120.0, 80.0, 80.0, 80.0]

    def titles(canvas: Any, document: Any) -> None:
        running(canvas, document)
        if label:
            canvas.setFont("Helvetica", 10)
            canvas.drawString(56, A4[1] - 70, label)
        canvas.setFont("Helvetica-Bold", 10)
        canvas.drawString(56 + 6, A4[1] - 84, first[0][0])
        for index, text in enumerate(first[0][1:], 1):
            canvas.drawRightString(56 + sum(widths[:index + 1]) - 6, A4[1] - 84, text)

    cells = ledger(60)
    buffer = io.BytesIO()
    story: list[Flowable] = [Paragraph(TEXT, BODY)]
    if label:
        story.append(Paragraph(label, ParagraphStyle("label", fontName="Helvetica", fontSize=10, leading=12)))
    story += [table(first, ruled=False, repeat=False, widths=widths), Paragraph(TEXT, BODY),
              ledger_table(cells), Paragraph(TEXT, BODY)]
    SimpleDocTemplate(buffer, pagesize=A4, leftMargin=56, rightMargin=56, topMargin=92, bottomMargin=56,
                      invariant=1).build(story, onFirstPage=running, onLaterPages=titles)
    return first, cells, read_text_layer(buffer.getvalue())


def test_print_titles_over_another_tables_rows_are_dropped_and_the_rows_joined() -> None:
    first, cells, layer = print_titles_report(None)
    assert [cell_rows(t) for t in tables_of(layer)] == [first, cells]
    assert "Region" not in layer.pages[1].markdown  # (the titles, dropped as a repeated header is)


def test_print_titles_with_a_line_over_the_header_are_running_lines() -> None:
    # The line over the first table's header, a paragraph of its own on page 1, is repeated
    # too: over the second table's rows it is a running line, not the page's text.
    first, cells, layer = print_titles_report("Per cent")
    assert [cell_rows(t) for t in tables_of(layer)] == [first, cells]
    assert "Per cent" in layer.pages[0].markdown and "Per cent" not in layer.pages[1].markdown
    assert "Per cent" in [b["text"] for b in layer.pages[1].blocks if b["kind"] == "header"]


def test_rows_run_over_on_landscape_pages_join_though_portrait_pages_end_lower() -> None:
    # A Word document sets a wide table on landscape pages in a section of its own: their
    # bodies end ~250 pt above the portrait pages' bodies, and a table at the foot of one is
    # at the foot of its section's pages, not short of the document's lowest body bottom.
    from reportlab.lib.pagesizes import landscape
    from reportlab.platypus import BaseDocTemplate, Frame, NextPageTemplate, PageBreak, PageTemplate

    wide = landscape(A4)
    templates = [PageTemplate(id="wide", pagesize=wide, onPage=running,
                              frames=[Frame(56, 56, wide[0] - 112, wide[1] - 120, id="w")]),
                 PageTemplate(id="tall", pagesize=A4, onPage=running,
                              frames=[Frame(56, 56, A4[0] - 112, A4[1] - 120, id="t")])]
    count = 10
    while table(rows(count + 1), False, False).wrap(wide[0] - 124, wide[1] - 132)[1] <= wide[1] - 132:
        count += 1
    cells = rows(count + 1)  # (one data row more than the page holds)
    buffer = io.BytesIO()
    doc = BaseDocTemplate(buffer, pagesize=wide, pageTemplates=templates, invariant=1)
    doc.build([table(cells, False, False), Paragraph(TEXT, BODY), NextPageTemplate("tall"), PageBreak(),
               *[Paragraph(TEXT, BODY) for _ in range(12)]])
    layer = read_text_layer(buffer.getvalue())
    found = tables_of(layer)
    assert len(found) == 1
    assert cell_rows(found[0]) == cells


def test_a_run_over_row_with_a_longer_label_than_any_above_joins_the_table() -> None:
    # The label column's whitespace strip is as wide as the first page's labels make it; a
    # longer label on the next page runs into it without reaching the figures.
    count = 10
    widths = [200.0, 90.0, 90.0, 90.0]
    while table(rows(count + 1), False, False, widths).wrap(A4[0] - 124, A4[1] - 132)[1] <= A4[1] - 132:
        count += 1
    cells = rows(count + 1)
    cells[-1][0] = "Harbour district east quay"
    layer = pdf([table(cells, False, False, widths), Paragraph(TEXT, BODY)])
    found = tables_of(layer)
    assert len(found) == 1
    assert cell_rows(found[0]) == cells


def _header_at_the_foot(header: list[str], body: list[list[str]], body_is_figures: bool = True) -> PdfText:
    """Page 1: text, then a table's header row alone at the foot; page 2: its body rows at the
    top (labels left-aligned, figures right-aligned), then text; page 3: text."""
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, invariant=1)
    lefts, rights = [56.0, 230.0, 330.0, 430.0], [0.0, 300.0, 400.0, 500.0]
    words = TEXT.split()

    def text_lines(top: float, bottom: float) -> None:
        y, index = top, 0
        canvas.setFont("Helvetica", 10)
        while y > bottom:
            canvas.drawString(56, y, " ".join(words[index % len(words):][:14]))
            y, index = y - 13, index + 14

    for page in range(3):
        canvas.setFont("Helvetica", 9)
        canvas.drawString(56, A4[1] - 40, "Regional Figures Report")
        canvas.drawCentredString(A4[0] / 2, 32, f"Page {page + 1}")
        if page == 0:
            text_lines(A4[1] - 80, 110)
            canvas.setFont("Helvetica-Bold", 10)
            for x, cell in zip(lefts, header, strict=True):
                canvas.drawString(x, 66, cell)
        elif page == 1:
            y = A4[1] - 80
            for row in body:
                canvas.setFont("Helvetica", 10)
                for column, cell in enumerate(row):
                    if column and body_is_figures:
                        canvas.drawRightString(rights[column], y, cell)
                    else:
                        canvas.drawString(lefts[column], y, cell)
                y -= 18
            text_lines(y - 20, 66)
        else:
            text_lines(A4[1] - 80, 66)
        canvas.showPage()
    canvas.save()
    return read_text_layer(buffer.getvalue())


def test_a_header_row_left_alone_at_the_foot_of_a_page_heads_the_body_on_the_next() -> None:
    # Word and LibreOffice break a table before any row, the first data row too: the header
    # row stands alone at the page's foot, the figures on the next page have none.
    cells = rows(12)
    layer = _header_at_the_foot(cells[0], cells[1:])
    found = tables_of(layer)
    assert len(found) == 1
    assert cell_rows(found[0]) == cells
    assert "Q1 2024" not in layer.pages[0].markdown  # (the header's lines left page 1)


def test_a_line_at_the_foot_over_a_table_that_has_a_header_stays_text() -> None:
    # A table that starts with its own header row (words where its body has figures) takes
    # no line from the page before; nor does one whose columns the line's words do not fit.
    cells = rows(12)
    layer = _header_at_the_foot(cells[0], [["Region", "Q1", "Q2", "Q3"], *cells[1:]])
    found = tables_of(layer)
    assert len(found) == 1 and cell_rows(found[0])[0] == ["Region", "Q1", "Q2", "Q3"]
    assert "Q1 2024" in layer.pages[0].markdown


def test_the_rest_of_a_row_broken_over_the_page_joins_that_row() -> None:
    # Word and LibreOffice let a row break across pages: the second line of a wrapped label
    # stands alone at the top of the next page, in a row whose other cells are empty.
    first = page_filling(True)
    rest = rows(len(first) + 4)[len(first):]
    layer = pdf([table([*first, ["workshop", "", "", ""], *rest], True, False), Paragraph(TEXT, BODY)])
    found = tables_of(layer)
    assert len(found) == 1
    assert cell_rows(found[0]) == [*first[:-1], [first[-1][0] + " workshop", *first[-1][1:]], *rest]


def test_a_row_broken_over_two_pages_alike_is_no_header_repeated() -> None:
    # A long programme's rows break over every page: the rest of a row heading page 2 is no
    # header, and the same rest heading page 3 ("workshop" again) is no header repeated to
    # drop but the rest of page 2's last row (issue 32, page_rows).
    first = page_filling(True)
    count = len(first)
    data = rows(3 * count)[count:]
    second, third = data[:count - 1], data[count - 1:count + 3]
    rest = ["workshop", "", "", ""]
    layer = pdf([table([*first, rest, *second, rest, *third], True, False), Paragraph(TEXT, BODY)])
    found = tables_of(layer)
    assert len(found) == 1
    assert cell_rows(found[0]) == [*first[:-1], [first[-1][0] + " workshop", *first[-1][1:]], *second[:-1],
                                   [second[-1][0] + " workshop", *second[-1][1:]], *third]


def test_a_capitalised_line_alone_in_a_row_over_the_page_is_no_rest_of_a_row() -> None:
    # A new row's label starts with a capital: a lone "Workshop" row is not glued to the row
    # before the break.
    first = page_filling(True)
    rest = rows(len(first) + 4)[len(first):]
    layer = pdf([table([*first, ["Workshop", "", "", ""], *rest], True, False), Paragraph(TEXT, BODY)])
    cells = [c for t in tables_of(layer) for row in cell_rows(t) for c in row]
    assert first[-1][0] in cells and "Workshop" in cells


# ------------------------------------------------------------ tables continued in the next column


def two_column_report(paragraphs: int, cells: list[list[str]], repeat: bool) -> PdfText:
    """A page of two text columns (platypus flows the story down the left column, then the
    right): a heading and ``paragraphs`` paragraphs, ``cells`` as a ruled table that runs on
    into the next column (or the next page's left column), then text."""
    from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate

    width = (A4[0] - 56 * 2 - 20) / 2
    frames = [Frame(56 + index * (width + 20), 56, width, A4[1] - 64 - 56, leftPadding=0, rightPadding=0,
                    topPadding=0, bottomPadding=0, id=f"column{index}") for index in range(2)]
    buffer = io.BytesIO()
    document = BaseDocTemplate(buffer, pagesize=A4, invariant=1)
    document.addPageTemplates([PageTemplate("columns", frames, onPage=running)])
    story: list[Flowable] = [Paragraph("Regional Results", HEADING)]
    story += [Paragraph(TEXT, BODY) for _ in range(paragraphs)]
    story += [table(cells, ruled=True, repeat=repeat, widths=[width * 0.4, width * 0.3, width * 0.3]),
              Paragraph(TEXT, BODY)]
    document.build(story)
    return read_text_layer(buffer.getvalue())


def test_a_table_continued_at_the_top_of_the_next_column_is_one_table() -> None:
    """Issue 32 (office corpus office-0016): the rest of a table at the top of the right
    column was a table of its own."""
    cells = rows(40, columns=3)
    layer = two_column_report(2, cells, repeat=False)
    found = tables_of(layer)
    assert len(found) == 1, [len(f) for f in found]
    assert cell_rows(found[0]) == cells


def test_a_table_continued_from_the_right_column_to_the_next_pages_left_one_is_one_table() -> None:
    """Issue 32 (office-0007): a table that ends the page's right column goes on at the top of
    the next page's left column, its repeated header dropped."""
    cells = rows(40, columns=3)
    layer = two_column_report(7, cells, repeat=True)
    assert len(layer.pages) >= 2
    found = tables_of(layer)
    assert len(found) == 1, [len(f) for f in found]
    assert cell_rows(found[0]) == cells


# ------------------------------------------------------------ a row broken over the page (tables5)

WORKS = [("Resurfacing of the main road through", "the village centre and the approach roads."),
         ("Inspection of the two footbridges over", "the river, with new test points."),
         ("Replacement of the old street lamps with", "low-energy units across the estate."),
         ("Cleaning of gullies and drains along", "the coast road after the winter storms.")]


def _works_rows(count: int) -> list[list[str]]:
    return [[" ".join(WORKS[i % 4]), f"{(i * 37) % 900 + 100:,}", ("April", "June")[i % 2]]
            for i in range(count)]


def _broken_row(broken: tuple[str, ...], rest: tuple[str, ...], repeat: bool, last_lines: int = 2) -> PdfText:
    """A works table (Scheme, Cost, Start; labels wrapped over two lines, as Word sets them
    without a grid) down page 1, its last row's label ``broken`` (its lines on page 1), the
    label's ``rest`` (its lines) at the top of page 2 over the rest of the rows, under the
    header again when ``repeat``; text after the table.  ``last_lines``: how many lines of the
    label stand on page 1 (the rest of ``broken`` is the table's foot when it is whole)."""
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, invariant=1)

    def header(y: float) -> float:
        canvas.setFont("Helvetica-Bold", 10)
        canvas.drawString(56, y, "Scheme")
        canvas.drawRightString(400, y, "Cost (£k)")
        canvas.drawString(440, y, "Start")
        return y - 24

    def row(y: float, lines: tuple[str, ...], cost: str, start: str) -> float:
        canvas.setFont("Helvetica", 10)
        canvas.drawRightString(400, y, cost)
        canvas.drawString(440, y, start)
        for line in lines:
            canvas.drawString(56, y, line)
            y -= 13
        return y - 11

    for page in range(2):
        canvas.setFont("Helvetica", 9)
        canvas.drawString(56, A4[1] - 40, "Works Programme Report")
        canvas.drawCentredString(A4[0] / 2, 32, f"Page {page + 1}")
        if page == 0:
            canvas.setFont("Helvetica", 10)
            canvas.drawString(56, A4[1] - 80, "The works planned for the year are set out below.")
            y = header(A4[1] - 110)
            for cells in _works_rows(17):
                y = row(y, WORKS[_works_rows(17).index(cells) % 4], cells[1], cells[2])
            row(y, broken[:last_lines], "555", "May")
        else:
            y = header(A4[1] - 80) if repeat else A4[1] - 80
            canvas.setFont("Helvetica", 10)
            for line in rest:
                canvas.drawString(56, y, line)
                y -= 13
            y -= 11
            for cells in _works_rows(6):
                y = row(y, WORKS[_works_rows(6).index(cells) % 4], cells[1], cells[2])
            canvas.drawString(56, y - 20, "All costs are estimates and may change.")
        canvas.showPage()
    canvas.save()
    return read_text_layer(buffer.getvalue())


def _joined_rows(label: str) -> list[list[str]]:
    return [["Scheme", "Cost (£k)", "Start"], *_works_rows(17), [label, "555", "May"], *_works_rows(6)]


def test_the_rest_of_a_row_in_figures_over_the_next_pages_rows_joins_that_row() -> None:
    """The rest of a wrapped label alone at the top of the next page, no header repeated (the
    page finder leaves it out of the rows under it), going on in figures."""
    layer = _broken_row(("Repairs to the sea wall at the harbour, begun in",),
                        ("2024 and finished ahead of plan.",), repeat=False, last_lines=1)
    found = tables_of(layer)
    assert len(found) == 1, found
    label = "Repairs to the sea wall at the harbour, begun in 2024 and finished ahead of plan."
    assert cell_rows(found[0]) == _joined_rows(label)
    assert "2024 and finished" not in layer.pages[1].markdown


def test_the_rest_of_a_row_under_the_header_repeated_joins_that_row() -> None:
    """LibreOffice sets the header repeated first, then the rest of the row broken over the page."""
    layer = _broken_row(("Repairs to the sea wall at the", "harbour and the slipway, with"),
                        ("new coping along the top.",), repeat=True)
    found = tables_of(layer)
    assert len(found) == 1, found
    label = "Repairs to the sea wall at the harbour and the slipway, with new coping along the top."
    assert cell_rows(found[0]) == _joined_rows(label)


@pytest.mark.parametrize("years", ["2024", "2023 to 2024", "2023/24"])
def test_years_alone_at_the_top_of_the_next_page_are_no_rest_of_a_row(years: str) -> None:
    """A section row of years over the next page's rows is not glued to the last row, though
    its label ends no sentence."""
    layer = _broken_row(("Repairs to the sea wall at the", "harbour and the slipway, begun in"), (years,),
                        repeat=False)
    cells = [c for t in tables_of(layer) for row in cell_rows(t) for c in row]
    assert "Repairs to the sea wall at the harbour and the slipway, begun in" in cells, cells
    assert years in "\n".join(page.markdown for page in layer.pages) + " ".join(layer.pages[1].running)


def test_a_label_wrapped_over_three_lines_in_the_last_row_is_whole() -> None:
    """The table's last row's label over three lines: both lines under the row are its."""
    label = ("Repairs to the sea wall at the", "harbour and the slipway, with", "new coping on top.")
    layer = _broken_row(label, (), repeat=False, last_lines=3)
    found = tables_of(layer)
    rows_found = [row for t in found for row in cell_rows(t)]
    assert ["Repairs to the sea wall at the harbour and the slipway, with new coping on top.", "555", "May"] \
        in rows_found, rows_found


# ------------------------------------------------------------ a header repeated in another text column


def _column_part(x0: float, top: float, cells: list[list[str]], header_rows: int) -> tuple[Any, list[Any]]:
    """A table of ``cells`` (a label, two figures set right) in a 230-point text column from
    ``x0``, down from ``top``, as the page finder gives it, and its words (a box per cell)."""
    from extractors.pdf_table_model import FoundTable
    from extractors.pdf_words import Word
    from extractors.tables import cells_to_markdown

    words = []
    for index, (label, *figures) in enumerate(cells):
        y = top + 15 * index
        rights = (x0 + 161, x0 + 226)
        boxes = [(x0 + 4, label), *((right - 6 * len(text), text)
                                    for right, text in zip(rights, figures, strict=True))]
        words += [Word(text, left, y, left + 6 * len(text), y + 10, 10.0, bold=index < header_rows)
                  for left, text in boxes]
    table = FoundTable(x0, top, x0 + 230, top + 15 * len(cells), cells, cells_to_markdown(cells),
                       header_rows=header_rows)
    return table, words


def test_a_header_repeated_over_the_next_column_part_of_a_table_whose_last_part_has_none_is_dropped() -> None:
    """Issue 32: a table running from a page's right text column onto the next page's left one,
    its last part having no header of its own (the page set the header repeated over it apart
    from its rows): the header repeated over the next part is dropped and the part joined, its
    columns compared as if moved onto the last part's, as they are for a continuation without
    the header."""
    from extractors.pdf_table_stitch import BodyEdge, stitch_tables

    header = ["Region", "Q1 2024", "Q2 2024"]
    body = rows(100, columns=3)[1:]
    first, first_words = _column_part(310, 70, [header, *body[:46]], 1)
    middle, middle_words = _column_part(310, 70, body[46:93], 0)
    last, last_words = _column_part(56, 70, [header, *body[93:]], 1)
    size = (595.0, 842.0)
    edges = [BodyEdge(1, 70, first.bottom, None, first, first_words, size=size, columns=True),
             BodyEdge(2, 70, middle.bottom, middle, middle, middle_words, size=size, columns=True),
             BodyEdge(3, 70, middle.bottom, last, None, last_words, size=size, columns=True)]
    stitches = stitch_tables(edges)
    assert [stitch.pages for stitch in stitches] == [[1, 2, 3]]
    assert stitches[0].table.cells == [header, *body]


_WORKS = ("Resurfacing of the main road through the village centre, begun in {n} and finished ahead of plan.",
          "Inspection of the two footbridges over the river, the survey repeated with {n} new test points.",
          "Traffic calming outside {n} schools, 20 mph zones and raised tables at each entrance.")


@pytest.mark.parametrize("count", [24, 25])  # (the last row, one or two lines, alone on page 2)
def test_a_note_under_the_last_row_run_over_onto_the_next_page_is_no_line_of_its_cell(count: int) -> None:
    # A works programme's descriptions wrap in their wide first column; the last row (two
    # lines) runs over onto the last page, too few lines for a table of its own, and the note
    # under the table ("All costs are estimates.") starts where the description does.  It is a
    # sentence of its own after a cell's sentence, further under it than the cell's lines stand
    # apart: no line of that cell (issue 32, page_rows-502).
    cell = ParagraphStyle("cell", fontName="Helvetica", fontSize=10, leading=12)
    note = ParagraphStyle("note", fontName="Helvetica", fontSize=10, leading=12)
    cells = [["Scheme", "Cost (£k)", "Start"]] + [[_WORKS[i % 3].format(n=2000 + i), f"{100 + 7 * i}", "June"]
                                                  for i in range(count)]
    grid = Table([[Paragraph(row[0], cell), row[1], row[2]] for row in cells], colWidths=[260, 72, 72],
                 hAlign="LEFT", style=TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                                                  ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                                  ("FONTSIZE", (0, 0), (-1, -1), 10)]))
    layer = pdf([grid, Paragraph("All costs are estimates.", note)])
    assert len(layer.pages) == 2 and "All costs" not in layer.pages[0].markdown, "the note must be on page 2"
    lines = "\n\n".join(page.markdown for page in layer.pages).splitlines()
    found = tables_of(layer)
    assert len(found) == 1
    assert cell_rows(found[0])[-1] == cells[-1]
    assert "All costs are estimates." in lines
