"""A word LibreOffice breaks over two lines of a too-narrow cell, without a hyphen ("Highlan"
over "d", "Numbe" over "r", "Num" over "ber" under a line holding it alone), is one word again in
the table, read off the page or from a tagged export's cells; a short word or a unit alone on a
cell's second line ("Area" over "ha", "Cost" over "per") keeps its space; a plural broken
before its "s" in a right-set cell (Word's "Employee" over "s") is one word again."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth

from extractors import extract
from extractors.base import ExtractOptions
from tests.pdf_output import drawn_pdf, markdown_of, markdown_table, wrapped_lines
from tests.tagged_pdf import Node, Run, tagged_pdf

ROWS = [("North", "120", "3.5"), ("Highlan|d", "87", "2.1"), ("East", "95", "4.0"), ("West", "60", "1.2")]


def _table(second: str) -> bytes:
    """A header whose second column's heading is "Numbe" over ``second`` (right-aligned), rows
    whose second label is broken after "Highlan"."""
    def draw(canvas: Any) -> None:
        canvas.setFont("Helvetica", 10)
        canvas.drawString(72, 780, "The figures below are given by region.")
        canvas.setFont("Helvetica-Bold", 10)
        canvas.drawString(72, 740, "Area")
        heading = {"r": "Numbe", "ber": "Num", "per": "Cost", "s": "Employee"}.get(second, "Area")
        canvas.drawRightString(180, 740, heading)
        canvas.drawRightString(180, 728, second)
        canvas.drawRightString(240, 740, "Share")
        canvas.setFont("Helvetica", 10)
        y = 710.0
        for label, count, share in ROWS:
            first, _, rest = label.partition("|")
            canvas.drawString(72, y, first)
            canvas.drawRightString(180, y, count)
            canvas.drawRightString(240, y, share)
            if rest:
                y -= 12
                canvas.drawString(72, y, rest)
            y -= 18
        canvas.drawString(72, y - 20, "Source: regional accounts.")
    return drawn_pdf(draw)


def test_a_word_broken_over_a_cells_lines_is_one_word() -> None:
    markdown = markdown_of(_table("r"))
    assert "| Area | Number | Share |" in markdown, markdown
    assert "| Highland | 87 | 2.1 |" in markdown, markdown


def test_a_unit_alone_on_a_cells_second_line_keeps_its_space() -> None:
    assert "| Area | Area ha | Share |" in markdown_of(_table("ha"))


def test_a_plurals_s_alone_under_its_word_set_right_is_joined() -> None:
    # (Word's record listing: "Employees" broken before its "s" in a narrow right-set column;
    # a unit keeps its space, above.)
    assert "| Area | Employees | Share |" in markdown_of(_table("s"))


def test_a_plurals_s_under_its_word_in_a_tagged_right_set_cell_is_joined() -> None:
    end = 200 + stringWidth("Employee", "Helvetica-Bold", 10)
    tail = Run(0, end - stringWidth("s", "Helvetica-Bold", 10), 212, "s", bold=True)
    head = Node("TR", [_tagged_cell("TH", Run(0, 72, 200, "Area", bold=True)),
                       _tagged_cell("TH", Run(0, 200, 200, "Employee", bold=True), tail)])
    body = [Node("TR", [_tagged_cell("TD", Run(0, 72, 230 + 16 * i, label)),
                        _tagged_cell("TD", Run(0, end - stringWidth(str(100 + 7 * i), "Helvetica", 10),
                                               230 + 16 * i, str(100 + 7 * i)))])
            for i, label in enumerate(("North", "South", "East"))]
    data = tagged_pdf([Node("P", [Run(0, 72, 140, "The counts below are given by area.")]),
                       Node("Table", [head, *body])])
    markdown = extract(data, filename="tagged.pdf", options=ExtractOptions(ocr_engines=())).markdown
    assert "| Area | Employees |" in markdown, markdown


def _services(canvas: Any) -> None:
    """Row labels wrapped in a narrow column, a line holding only a short word of another
    language: French "et" with the rest of its cell under it, Spanish "de" ending a line."""
    canvas.setFont("Helvetica", 10)
    canvas.drawString(72, 780, "The figures below are given by service.")
    canvas.setFont("Helvetica-Bold", 9)
    for x, text in ((72, "Service"), (200, "Budget"), (280, "Staff")):
        canvas.drawString(x, 740, text)
    canvas.setFont("Helvetica", 9)
    y = 726.0
    for lines, budget, staff in ((["Recherche", "et", "innovation"], "800", "95"), (["Culture"], "450", "60"),
                                 (["Ministerio", "de"], "1 204", "312"), (["Museos"], "310", "88")):
        canvas.drawString(200, y, budget)
        canvas.drawString(280, y, staff)
        for line in lines:
            canvas.drawString(72, y, line)
            y -= 11
        y -= 4
    canvas.drawString(72, y - 20, "Source: the register.")


def test_a_short_word_alone_on_a_cells_line_keeps_its_spaces() -> None:
    markdown = markdown_of(drawn_pdf(_services))
    assert "| Recherche et innovation | 800 | 95 |" in markdown, markdown
    assert "| Ministerio de | 1 204 | 312 |" in markdown, markdown


def test_a_three_letter_end_under_the_word_alone_is_joined() -> None:
    assert "| Area | Number | Share |" in markdown_of(_table("ber"))


def test_a_three_letter_word_alone_on_a_cells_second_line_keeps_its_space() -> None:
    assert "| Area | Cost per | Share |" in markdown_of(_table("per"))


def _tagged_cell(kind: str, *runs: Run) -> Node:
    return Node(kind, [Node("P", list(runs))])


def test_a_word_broken_in_a_tagged_cell_is_one_word() -> None:
    """LibreOffice's tagged export: each cell's words come from the tree, its lines as drawn."""
    def heading(x: float, *lines: str) -> Node:
        return _tagged_cell("TH", *(Run(0, x, 200 + 12 * i, text, bold=True) for i, text in enumerate(lines)))

    def row(i: int, label: str) -> Node:
        figures = (_tagged_cell("TD", Run(0, x, 230 + 16 * i, str(100 + 7 * i))) for x in (150, 230, 310))
        return Node("TR", [_tagged_cell("TD", Run(0, 72, 230 + 16 * i, label)), *figures])

    head = Node("TR", [heading(72, "Area"), heading(150, "Househol", "ds"), heading(230, "Employm", "ent"),
                       heading(310, "Cost", "per")])
    body = [row(i, label) for i, label in enumerate(("North", "South", "East"))]
    data = tagged_pdf([Node("P", [Run(0, 72, 140, "The counts below are given by area.")]),
                       Node("Table", [head, *body])])
    markdown = extract(data, filename="tagged.pdf", options=ExtractOptions(ocr_engines=())).markdown
    assert "| Area | Households | Employment | Cost per |" in markdown, markdown


# A fixed grid too narrow for its long words (LibreOffice's narrow columns): each cell
# CELL_WIDTH wide, its text PADDING in from either side.  Some labels' ends are four letters
# and more ("Northumbe" over "rland", "Wolverha" over "mpton": a wide first letter, the piece
# further short of the edge), one a short word ("Northampt" over "on"); "United Kingdom" and
# "Median income" are wrapped, not broken, each line's word shorter than the cell.
CELL_WIDTH, PADDING, LEFT = 60.0, 5.0, 72.0
NARROW_HEADER = ["Area", "Households", "Median income", "Residents"]
NARROW_ROWS = [["Northumberland", "120", "3.5", "41"], ["United Kingdom", "87", "2.1", "12"],
               ["Staffordshire", "95", "4.0", "33"], ["Northampton", "60", "1.2", "27"],
               ["Wolverhampton", "71", "2.8", "19"]]


def _cell_lines(text: str, font: str, size: float = 10.0) -> list[str]:
    """``text`` set in a cell as LibreOffice sets it: wrapped at spaces, a word wider than
    the cell on lines of its own, broken after the last letter that fits."""
    inner = CELL_WIDTH - 2 * PADDING
    lines: list[str] = []
    for line in wrapped_lines(text, inner, font, size):
        while stringWidth(line, font, size) > inner:
            cut = max(k for k in range(1, len(line)) if stringWidth(line[:k], font, size) <= inner)
            lines.append(line[:cut])
            line = line[cut:]
        lines.append(line)
    return lines


def _narrow_runs() -> list[list[list[tuple[float, float, str, bool]]]]:
    """Per row, per cell, its lines as (x, top, text, bold), the rows 14 points under their
    cells' last lines; and the grid's rules are at LEFT + k * CELL_WIDTH."""
    rows, top = [], 120.0
    for r, row in enumerate([NARROW_HEADER, *NARROW_ROWS]):
        bold = r == 0
        cells = [[(LEFT + c * CELL_WIDTH + PADDING, top + 12 * k, line, bold)
                  for k, line in enumerate(_cell_lines(text, "Helvetica-Bold" if bold else "Helvetica"))]
                 for c, text in enumerate(row)]
        rows.append(cells)
        top += 12 * max(map(len, cells)) + 8
    return rows


def _narrow_table(canvas: Any, ruled: bool) -> None:
    height = A4[1]
    canvas.setFont("Helvetica", 10)
    canvas.drawString(LEFT, height - 90, "The counts below are given by area.")
    rows = _narrow_runs()
    for cells in rows:
        for lines in cells:
            for x, top, text, bold in lines:
                canvas.setFont("Helvetica-Bold" if bold else "Helvetica", 10)
                canvas.drawString(x, height - top - 8, text)
    bottom = max(top for cells in rows for lines in cells for _, top, _, _ in lines) + 16
    if ruled:
        canvas.setLineWidth(0.5)
        edges = [114.0] + [cells[0][0][1] - 6 for cells in rows[1:]] + [bottom]
        for y in edges:
            canvas.line(LEFT, height - y, LEFT + 4 * CELL_WIDTH, height - y)
        for c in range(5):
            canvas.line(LEFT + c * CELL_WIDTH, height - edges[0], LEFT + c * CELL_WIDTH, height - bottom)
    canvas.setFont("Helvetica", 10)
    canvas.drawString(LEFT, height - bottom - 30, "Counts are at the end of the year.")


@pytest.mark.parametrize("ruled", [True, False])
def test_a_word_broken_where_its_narrow_cell_ends_is_one_word(ruled: bool) -> None:
    """The ends are long or short words ("rland", "on"): the first piece filling its cell
    tells them, and a word that fits ("United" over "Kingdom") keeps its space."""
    markdown = markdown_of(drawn_pdf(_narrow_table, ruled))
    assert markdown_table([NARROW_HEADER, *NARROW_ROWS]) in markdown, markdown


def test_a_word_broken_where_its_narrow_tagged_cell_ends_is_one_word() -> None:
    """The same in a tagged export: the cells' edges from where their columns' text is."""
    rows = []
    for r, cells in enumerate(_narrow_runs()):
        kind = "TH" if r == 0 else "TD"
        rows.append(Node("TR", [_tagged_cell(kind, *(Run(0, x, top, text, bold=bold)
                                                     for x, top, text, bold in lines)) for lines in cells]))
    intro = Node("P", [Run(0, LEFT, 80, "The counts below are given by area.")])
    data = tagged_pdf([intro, Node("Table", rows)])
    markdown = extract(data, filename="tagged.pdf", options=ExtractOptions(ocr_engines=())).markdown
    assert markdown_table([NARROW_HEADER, *NARROW_ROWS]) in markdown, markdown


@pytest.mark.system
def test_libreoffice_words_broken_in_narrow_columns(tmp_path) -> None:
    """LibreOffice's own export of a Word table on a fixed grid too narrow for its words,
    with and without borders, untagged and tagged."""
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is not installed: .ci/setup installs it as root")
    from docx import Document
    from docx.oxml.ns import qn
    from docx.shared import Inches

    from tests.office_documents import convert

    sources = []
    for grid in (True, False):
        document = Document()
        document.add_paragraph("The counts below are given by area.")
        cells = [NARROW_HEADER, *NARROW_ROWS]
        table = document.add_table(rows=len(cells), cols=len(cells[0]))
        if grid:
            table.style = "Table Grid"
        table.autofit = False
        for column in table._tbl.tblGrid.findall(qn("w:gridCol")):
            column.set(qn("w:w"), str(int(0.85 * 1440)))
        for r, row in enumerate(cells):
            for c, text in enumerate(row):
                table.cell(r, c).width = Inches(0.85)
                table.cell(r, c).text = text
        document.add_paragraph("Counts are at the end of the year.")
        sources.append(tmp_path / f"narrow-{len(sources)}.docx")
        document.save(str(sources[-1]))
    for tagged in (False, True):
        for pdf in convert(sources, tmp_path / ("tagged" if tagged else "plain"), tagged=tagged):
            options = ExtractOptions(ocr_engines=())
            markdown = extract(pdf.read_bytes(), filename="r.pdf", options=options).markdown
            assert markdown_table(cells) in markdown, (pdf.name, tagged, markdown)


def test_an_s_in_a_tagged_header_beside_another_cells_unit_keeps_its_space() -> None:
    """"Rise" over "s" beside "Load" over "kN", each heading's unit under it in its tagged
    header cell: the "s" is seconds, as the untagged reading keeps it, not a plural's end."""
    def heading(x: float, word: str, unit: str) -> Node:
        end = x + stringWidth(word, "Helvetica-Bold", 10)
        return _tagged_cell("TH", Run(0, x, 200, word, bold=True),
                            Run(0, end - stringWidth(unit, "Helvetica-Bold", 10), 212, unit, bold=True))

    head = Node("TR", [_tagged_cell("TH", Run(0, 72, 200, "Test", bold=True)),
                       heading(200, "Rise", "s"), heading(300, "Load", "kN")])
    body = [Node("TR", [_tagged_cell("TD", Run(0, 72, 230 + 16 * i, label)),
                        _tagged_cell("TD", Run(0, 200, 230 + 16 * i, f"{1.5 + i:.1f}")),
                        _tagged_cell("TD", Run(0, 300, 230 + 16 * i, str(40 + 5 * i)))])
            for i, label in enumerate(("A1", "A2", "A3"))]
    data = tagged_pdf([Node("P", [Run(0, 72, 140, "The tests below were run at room temperature.")]),
                       Node("Table", [head, *body])])
    markdown = extract(data, filename="tagged.pdf", options=ExtractOptions(ocr_engines=())).markdown
    assert "| Test | Rise s | Load kN |" in markdown, markdown


# A header over six columns 72 points apart, two headings on two lines each: "Househol" over
# "ds" broken where its cell ends, and "Persons" over "employed" wrapped whole, the second
# line the longer (as LibreOffice sets a banded table's header, issue 32, banded_rows).
WIDE_HEADER = [["Region"], ["Pupils"], ["Househol", "ds"], ["Births"], ["Persons", "employed"],
               ["Median", "pay"]]


def _wide_header_table(canvas: Any) -> None:
    height = A4[1]
    canvas.setFont("Helvetica", 11)
    canvas.drawString(90, height - 114, "The table below gives the figures for each region.")
    for c, lines in enumerate(WIDE_HEADER):
        canvas.setFont("Helvetica-Bold", 11)
        for k, line in enumerate(lines):
            canvas.drawString(90 + 72 * c, height - 148 - 14.8 * k, line)
    canvas.setFont("Helvetica", 11)
    for r, region in enumerate(("West", "East", "North", "South")):
        for c, text in enumerate([region, *(f"{(r * 17 + c * 29) % 90 + 1.5:.2f}%" for c in range(5))]):
            canvas.drawString(90 + 72 * c, height - 188 - 24.6 * r, text)
    canvas.drawString(90, height - 310, "Figures are for the latest year.")


def test_a_heading_wrapped_whole_under_a_cell_edge_judged_short_keeps_its_space() -> None:
    """The cell reaches at least as far as its own next line: "employed", ending more than its
    first letter past "Persons", shows room for that letter on the line above, though the
    widest line elsewhere ("Househol", filling its cell) set the column's edge short of it."""
    markdown = markdown_of(drawn_pdf(_wide_header_table))
    assert "| Persons employed |" in markdown, markdown
    assert "| Households |" in markdown, markdown
