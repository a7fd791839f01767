"""Tables continued on the next page (extractors/pdf_table_stitch.py): one table over the pages
it spans, the repeated header dropped, written where it starts; two tables that merely look
alike across a page break stay two; a chunk from the middle of a joined table repeats its
header and reports the pages its rows are on."""

from __future__ import annotations

import io
from typing import Any

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
