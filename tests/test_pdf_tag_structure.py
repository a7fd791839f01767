"""Tables, list items, paragraphs and artifacts of a tagged PDF's structure tree, used where
they agree with the page (extractors/pdf_tags.py, extractors/pdf_evidence.py): small tagged
PDFs written here (tests/tagged_pdf.py), and a Writer document exported tagged by LibreOffice.

Each case is checked against the heuristics alone (the structure stage without the tags), so
that it fails when the rule it is about is taken out."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from extractors import extract
from extractors.base import ExtractOptions
from extractors.pdf_evidence import tagged_tables
from extractors.pdf_structure import structure
from extractors.pdf_table_model import FoundTable
from extractors.pdf_tags import PageTags, read_page_tags
from extractors.pdf_text import open_pdf, read_text_layer
from extractors.pdf_words import read_layouts
from extractors.tables import cells_to_markdown
from tests.tagged_pdf import Fill, Node, Run, tagged_pdf

OPTIONS = ExtractOptions(ocr_engines=())
WORKS = [("Roads", "Resurfacing of the main road through the village centre.", "Spring"),
         ("Bridges", "Inspection of the two footbridges over the river Ouse.", "Summer"),
         ("Lighting", "Replacement of the old street lamps with new ones.", "Autumn")]


def _page_tags(data: bytes) -> PageTags:
    with open_pdf(data) as pdf:
        page = pdf[0]
        return read_page_tags(page, page.get_textpage(), 1)


def _markdown(data: bytes) -> str:
    return extract(data, filename="tagged.pdf", options=OPTIONS).markdown


def _heuristic_markdown(data: bytes) -> str:
    """The structure stage's Markdown without the document's tags."""
    return "\n\n".join(page.markdown for page in structure(read_layouts(data)))


def _cell(kind: str, run: Run, **attributes: int) -> Node:
    return Node(kind, [Node("P", [run])], dict(attributes))


def _plan_table(body_order: list[int] | None = None) -> Node:
    """A table whose header cell "Plan for the year" spans two columns and "Work" two rows,
    its body rows long descriptions (the table finder takes such cells for prose);
    ``body_order``: the order the tree lists the body rows in (drawn top down as WORKS)."""
    top = 200
    head = Node("TR", [_cell("TH", Run(0, 72, top, "Work", bold=True), RowSpan=2),
                       _cell("TH", Run(0, 160, top, "Plan for the year", bold=True), ColSpan=2)])
    sub = Node("TR", [_cell("TH", Run(0, 160, top + 16, "What", bold=True)),
                      _cell("TH", Run(0, 420, top + 16, "When", bold=True))])
    body = [Node("TR", [_cell("TD", Run(0, 72, top + 32 + 16 * i, work)),
                        _cell("TD", Run(0, 160, top + 32 + 16 * i, what)),
                        _cell("TD", Run(0, 420, top + 32 + 16 * i, when))])
            for i, (work, what, when) in enumerate(WORKS)]
    order = body_order or list(range(len(body)))
    return Node("Table", [head, sub, *(body[i] for i in order)])


def _plan(table: Node) -> bytes:
    return tagged_pdf([Node("H1", [Run(0, 72, 100, "Annual plan", size=16, bold=True)]),
                       Node("P", [Run(0, 72, 140, "The works of the year are set out below, by item.")]),
                       table])


PLAN_TABLE = """| Work | Plan for the year |  |
| --- | --- | --- |
|  | What | When |
| Roads | Resurfacing of the main road through the village centre. | Spring |
| Bridges | Inspection of the two footbridges over the river Ouse. | Summer |
| Lighting | Replacement of the old street lamps with new ones. | Autumn |"""


def test_tagged_table_with_spanning_header_is_the_pages_table():
    data = _plan(_plan_table())
    tags = _page_tags(data)
    [table] = tags.tables
    assert (table.row_count, table.column_count) == (5, 3)
    spans = {cell.text: (cell.row, cell.column, cell.rows, cell.columns, cell.header) for cell in table.cells}
    assert spans["Work"] == (0, 0, 2, 1, True)
    assert spans["Plan for the year"] == (0, 1, 1, 2, True)
    assert spans["What"] == (1, 1, 1, 1, True) and spans["When"] == (1, 2, 1, 1, True)
    assert spans["Autumn"] == (4, 2, 1, 1, False)
    assert PLAN_TABLE in _markdown(data)
    # The table is the tags' (the table finder, offered nothing, reads it alike since the
    # spreadsheet rules of 2026-12-05; it once took these sentence cells for prose).
    [tagged] = tagged_tables(tags, read_layouts(data)[0].words, [])
    assert tagged.markdown == PLAN_TABLE


def test_tagged_table_that_contradicts_the_page_is_ignored():
    # The tree lists the body rows bottom up: rows do not go down the page as drawn.
    data = _plan(_plan_table(body_order=[2, 1, 0]))
    assert tagged_tables(_page_tags(data), read_layouts(data)[0].words, []) == []
    markdown = _markdown(data)  # the heuristics' reading: the rows as drawn
    assert markdown.index("Roads") < markdown.index("Bridges") < markdown.index("Lighting")


PROSE_LEFT = ["The network was extended", "within the workshop area", "and the yard monitored.",
              "The inspection was done", "beside the old depot."]
PROSE_RIGHT = ["recorded beyond the river.", "The tunnel budget was", "completed within the year",
               "and the lamps replaced", "along the main road."]


def test_prose_tagged_as_paragraphs_is_not_a_table():
    """Two columns of short lines, each column one wrapping P: the table finder's two-column
    table, prose by the tags."""
    tree = [Node("H1", [Run(0, 72, 100, "Works", size=16, bold=True)]),
            Node("P", [Run(0, 72, 140 + 13 * i, text) for i, text in enumerate(PROSE_LEFT)]),
            Node("P", [Run(0, 330, 140 + 13 * i, text) for i, text in enumerate(PROSE_RIGHT)])]
    data = tagged_pdf(tree)
    # (The table finder itself reads these lines as running text since _running_text; the
    # tags drop the table it once made of them, given here.)
    words = read_layouts(data)[0].words
    cells = [[left, right] for left, right in zip(PROSE_LEFT, PROSE_RIGHT, strict=True)]
    made = FoundTable(72, 140, 500, 140 + 13 * len(cells), cells, cells_to_markdown(cells))
    assert tagged_tables(_page_tags(data), words, [made]) == []
    markdown = _markdown(data)
    assert "|" not in markdown
    assert " ".join(PROSE_LEFT) in markdown and " ".join(PROSE_RIGHT) in markdown


def test_table_set_with_tab_stops_stays_a_table():
    """One P per row, the way a word processor tags a table set with tab stops: no paragraph
    wraps over two rows, so the table finder's table stays."""
    rows = [("Item", "Budget", "Spent"), ("Roads", "120.50", "98.25"), ("Bridges", "80.00", "85.10"),
            ("Lighting", "45.75", "40.00")]
    tree = [Node("P", [Run(0, x, 200 + 16 * i, text) for x, text in zip((72, 220, 340), row, strict=True)])
            for i, row in enumerate(rows)]
    data = tagged_pdf(tree)
    table = "| Item | Budget | Spent |\n| --- | --- | --- |\n| Roads | 120.50 | 98.25 |"
    assert table in _heuristic_markdown(data)
    assert table in _markdown(data)


GRADES = [("Grade 1", "Cells look a little different from normal", "cells and grow slowly."),
          ("Grade 2", "Cells do not look like normal cells and", "grow faster than grade 1."),
          ("Grade 3", "Cells look very different from normal", "cells and grow fast.")]


def test_a_drawn_grid_tagged_as_one_paragraph_stays_a_table():
    """A panel of boxed cells whose descriptions wrap, the whole panel one P (a layout
    program tagging the text frame, not the table): the paragraph runs over every row of the
    grid, yet says nothing of how it is read; the drawn grid stays a table."""
    runs = []
    for i, (grade, first, second) in enumerate(GRADES):
        top = 200 + 40 * i
        runs += [Run(0, 78, top + 6, grade), Run(0, 166, top + 6, first), Run(0, 166, top + 19, second)]
    grid = [(72, 200 + 40 * i, 420, 200 + 40 * i) for i in range(4)]
    grid += [(x, 200, x, 320) for x in (72, 160, 420)]
    data = tagged_pdf([Node("H1", [Run(0, 72, 100, "Grading", size=16, bold=True)]), Node("P", runs)],
                      lines=grid)
    row = "| Grade 2 | Cells do not look like normal cells and grow faster than grade 1. |"
    assert row in _heuristic_markdown(data)
    assert row in _markdown(data)


def _item(label: str, x: float, top: float, text: str, *nested: Node) -> Node:
    return Node("LI", [Node("Lbl", [Run(0, x, top, label)]),
                       Node("LBody", [Node("P", [Run(0, x + 18, top, text)]), *nested])])


def test_tagged_nested_list_items_keep_their_depth():
    inner = Node("L", [_item("-", 108, 176, "Check the lamps on the bridge"),
                       _item("-", 108, 192, "Report broken ones to the council")])
    tree = [Node("P", [Run(0, 72, 120, "The steps of the inspection are these, in order:")]),
            Node("L", [_item("1.", 72, 144, "Walk the whole route"),
                       _item("2.", 72, 160, "Look at the street lights", inner),
                       _item("3.", 72, 208, "Write the report")])]
    data = tagged_pdf(tree)
    tags = _page_tags(data)
    assert [(item.depth, item.label, item.text) for item in tags.items] == [
        (1, "1.", "Walk the whole route"), (1, "2.", "Look at the street lights"),
        (2, "-", "Check the lamps on the bridge"), (2, "-", "Report broken ones to the council"),
        (1, "3.", "Write the report")]
    expected = ("1. Walk the whole route\n2. Look at the street lights\n"
                "    - Check the lamps on the bridge\n    - Report broken ones to the council\n"
                "3. Write the report")
    assert expected in _markdown(data)
    # (Without tags the heuristics nest the items by their markers' indent too, since
    # 2026-12-07: the bullets stand 36 points right of the numbers.)
    assert expected in _heuristic_markdown(data)


def test_tagged_list_item_number_drawn_against_its_text_is_its_marker():
    """Item 10 and on: the number and a tab, which the text layer reads as "10.Write"."""
    items = [(10, "Write the report"), (11, "Send it to the board")]
    tree = [Node("L", [Node("LI", [Node("LBody", [Node("P", [Run(0, 72, 144 + 16 * i, f"{n}.{text}")])])])
                       for i, (n, text) in enumerate(items)])]
    data = tagged_pdf(tree)
    assert "10. Write the report\n11. Send it to the board" in _markdown(data)
    assert "10.Write the report" in _heuristic_markdown(data)


BODY = ["The committee met on the first Monday of the month in the village hall.",
        "It reviewed the budget and agreed the works for the coming year."]


FOOTERS = ["Printed for the committee", "Draft for discussion"]


def _with_artifacts(pages: int) -> bytes:
    """``pages`` pages of two body lines, a header and a footer marked as artifacts; the
    footers differ from page to page (no recurrence tells them apart)."""
    tree = [Node("P", [Run(page, 72, 200 + 14 * i, text) for i, text in enumerate(BODY)])
            for page in range(pages)]
    artifacts = [Run(0, 72, 40, "Parish of Little Hadham")]
    artifacts += [Run(page, 72, 740, footer) for page, footer in enumerate(FOOTERS[:pages])]
    return tagged_pdf(tree, artifacts, pages=pages)


def test_artifacts_above_and_below_the_content_are_running_lines():
    data = _with_artifacts(2)
    layer = read_text_layer(data)
    assert [page.running for page in layer.pages] == [["Parish of Little Hadham", FOOTERS[0]], [FOOTERS[1]]]
    assert all(text not in page.markdown for page in layer.pages for text in ["Parish", *FOOTERS])
    heuristic = _heuristic_markdown(data)  # nothing recurs: the heuristics keep them all
    assert all(text in heuristic for text in ["Parish of Little Hadham", *FOOTERS])


def test_artifacts_of_a_one_page_document_stay_text():
    """Nothing recurs in a one-page document: its letterhead, drawn in the page header and
    marked as an artifact, is written nowhere else (see pdf_structure.mark_running)."""
    layer = read_text_layer(_with_artifacts(1))
    assert "Parish of Little Hadham" in layer.pages[0].markdown
    assert FOOTERS[0] in layer.pages[0].markdown


def test_a_short_last_page_under_more_running_lines_than_content_is_tagged():
    """A document's last page holds a heading and one line under its running header and footer
    (four artifacts, more objects than its content): the tree still speaks for it."""
    tree = [Node("H1", [Run(1, 72, 100, "Revision history", size=14, bold=True)]),
            Node("P", [Run(1, 72, 124, "Rev. B: first public release, June 2024.")])]
    artifacts = [Run(1, 72, 40, "LDO-3300"), Run(1, 500, 40, "Rev. B"),
                 Run(1, 72, 740, "www.northwind-devices.com"), Run(1, 540, 740, "2")]
    with open_pdf(tagged_pdf(tree, artifacts, pages=2)) as pdf:
        page = pdf[1]
        tags = read_page_tags(page, page.get_textpage(), 2)
    assert tags.tagged and [(h.text, h.level) for h in tags.headings] == [("Revision history", 1)]


# ------------------------------------------------------------- a LibreOffice export


def _writer_document(path: Path) -> None:
    """Two pages: a table whose header cell spans two columns, a bulleted list, and a page
    footer (LibreOffice marks header and footer text as artifacts)."""
    from docx import Document
    from docx.enum.text import WD_BREAK

    document = Document()
    document.add_heading("Works programme", level=1)
    document.add_paragraph("The works of the year are set out in the table below.")
    table = document.add_table(rows=5, cols=3)
    table.style = document.styles["Table Grid"]
    table.cell(0, 0).text = "Work"
    table.cell(0, 1).merge(table.cell(0, 2)).text = "Plan for the year"
    for column, text in enumerate(("", "What", "When")):
        table.cell(1, column).text = text
    for row, works in enumerate(WORKS, start=2):
        for column, text in enumerate(works):
            table.cell(row, column).text = text
    document.add_paragraph("The board agreed the following points:")
    for text in ("Walk the whole route", "Look at the street lights", "Write the report"):
        document.add_paragraph(text, style="List Bullet")
    document.paragraphs[-1].runs[-1].add_break(WD_BREAK.PAGE)
    document.add_paragraph(" ".join(BODY))
    for section in document.sections:
        section.footer.paragraphs[0].text = "Prepared by the works committee"
    document.save(str(path))


@pytest.mark.system
def test_libreoffice_tagged_export_tables_lists_and_footers(tmp_path):
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is not installed: .ci/setup installs it as root")
    from tests.office_documents import convert

    source = tmp_path / "works.docx"
    _writer_document(source)
    [pdf] = convert([source], tmp_path / "tagged", tagged=True)
    data = pdf.read_bytes()
    layer = read_text_layer(data)
    markdown = "\n\n".join(page.markdown for page in layer.pages)
    assert "| Work | Plan for the year |  |\n| --- | --- | --- |\n|  | What | When |" in markdown
    assert "| Lighting | Replacement of the old street lamps with new ones. | Autumn |" in markdown
    assert "- Walk the whole route\n- Look at the street lights\n- Write the report" in markdown
    assert "Prepared by the works committee" not in markdown
    assert all(page.running == ["Prepared by the works committee"] for page in layer.pages)


def test_tagged_cell_of_low_ink_keeps_its_text():
    """A tagged cell holding ".." (not available, in statistics): its text object's box is
    the dots' ink on the baseline, off the middle of the word's line; the cell keeps its
    text (it was left empty, found on the office probes' unit rows, 2026-12-06)."""
    rows = [("Item", "2022", "2023"), ("Revenue", "853.9", ".."), ("Staff costs", "_", "194.0"),
            ("Interest", "360.5", "826.2")]
    kind = ["TH", "TD", "TD", "TD"]
    table = Node("Table", [Node("TR", [_cell(kind[r], Run(0, 72 + 120 * c, 200 + 20 * r, text))
                                       for c, text in enumerate(row)]) for r, row in enumerate(rows)])
    data = tagged_pdf([Node("H1", [Run(0, 72, 100, "Accounts", size=16, bold=True)]), table])
    [tagged] = tagged_tables(_page_tags(data), read_layouts(data)[0].words, [])
    assert tagged.cells == [list(row) for row in rows]


def test_a_striped_rows_background_tagged_under_it_is_no_cell():
    """Chromium tags a striped row's background (tr:nth-child(odd) {background: ...}) as
    marked content right under the TR, before its cells: no cell, so the row's cells keep
    their columns (they were each one column to the right, found on the statistical-table
    probes, 2026-12-06)."""
    rows = [("Region", "2022", "2023"), ("North", "1,240", "[c]"), ("South", "980", "1,013"),
            ("East", "[x]", "1,420"), ("West", "2,310", "2,402")]
    kind = ["TH", "TD", "TD", "TD", "TD"]
    table = Node("Table", [Node("TR", [*([Fill(0, 70, 198 + 20 * r, 420, 214 + 20 * r)] if r % 2 else []),
                                       *(_cell(kind[r], Run(0, 72 + 120 * c, 200 + 20 * r, text))
                                         for c, text in enumerate(row))]) for r, row in enumerate(rows)])
    data = tagged_pdf([Node("H1", [Run(0, 72, 100, "Births", size=16, bold=True)]), table])
    [tagged] = tagged_tables(_page_tags(data), read_layouts(data)[0].words, [])
    assert tagged.cells == [list(row) for row in rows]


def test_a_tagged_column_no_cell_fills_is_no_column():
    """A narrow empty column set between two groups of figures (the year's figures, then the
    change): every row's cell there is empty, the header's too; the tagged table leaves it
    out, as the untagged reading does (found on the statistical-table probes, 2026-12-06)."""
    rows = [("Region", "2022", "2023", "", "Change", "%"), ("North", "1,240", "1,310", "", "+70", "+5.6%"),
            ("South", "980", "940", "", "(40)", "-4.1%"), ("East", "1,505", "1,420", "", "(85)", "-5.6%")]
    kind = ["TH", "TD", "TD", "TD"]
    xs = [72, 160, 230, 300, 320, 400]
    table = Node("Table", [Node("TR", [_cell(kind[r], Run(0, xs[c], 200 + 20 * r, text)) if text
                                       else Node(kind[r]) for c, text in enumerate(row)])
                           for r, row in enumerate(rows)])
    data = tagged_pdf([Node("H1", [Run(0, 72, 100, "Employment", size=16, bold=True)]), table])
    [tagged] = tagged_tables(_page_tags(data), read_layouts(data)[0].words, [])
    assert tagged.cells == [[*row[:3], *row[4:]] for row in rows]
