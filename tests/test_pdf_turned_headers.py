"""Column headings set on their side: Word's and LibreOffice's cell text direction (btLr, read
upwards; tbRl, read downwards) over narrow columns of figures, the statistical table's way of
fitting long names over short numbers.  The headings are the table's header row, in their
columns and in reading order, whether a grid is drawn or not, tagged or not."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from reportlab.lib.pagesizes import A4

from bench.pdf_structure import measure_cases
from tests.pdf_output import drawn_pdf, markdown_of

FIGURES = [["Region", "Net migration 2021", "Births 2022", "Median pay 2023"],
           ["North", "1,204", "3.5", "22,100"],
           ["South", "987", "4.1", "24,950"],
           ["Coast", "2,310", "2.9", "21,400"],
           ["Valley", "455", "3.8", "23,075"]]



def _header_row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |\n| " + " | ".join("---" for _ in cells) + " |"


def test_headings_set_on_their_side_head_the_columns_of_a_table_without_a_grid() -> None:
    scores = measure_cases(["turned_headers"], 6, 1)["turned_headers"]
    assert scores["tables_found"] == 1.0
    assert scores["table_rows_exact"] == 1.0, scores["failures"]
    assert scores["paragraph_one_block"] == 1.0  # the paragraph over the table keeps its last line


def _turned_beside(canvas: Any, upwards: bool) -> None:
    """FIGURES without a grid, its headings turned, and a chart's axis title turned beside the
    table (left of it, level with its rows): no heading of any column."""
    width, height = A4
    canvas.setFont("Helvetica", 10)
    canvas.drawString(72, height - 72, "The figures for each region are set out below by year.")
    top = height - 100
    lefts = [90.0, 180.0, 250.0, 320.0]
    canvas.setFont("Helvetica-Bold", 9)
    canvas.drawString(lefts[0], top - 9, FIGURES[0][0])
    for c in range(1, 4):
        canvas.saveState()
        if upwards:
            canvas.translate(lefts[c] + 30, top - 90)
            canvas.rotate(90)
        else:
            canvas.translate(lefts[c] + 22, top - 2)
            canvas.rotate(-90)
        canvas.drawString(0, 0, FIGURES[0][c])
        canvas.restoreState()
    canvas.saveState()
    canvas.translate(60, top - 190)
    canvas.rotate(90)
    canvas.drawString(0, 0, "Thousands")
    canvas.restoreState()
    canvas.setFont("Helvetica", 9)
    y = top - 110
    for row in FIGURES[1:]:
        canvas.drawString(lefts[0], y, row[0])
        for c in range(1, 4):
            canvas.drawRightString(lefts[c] + 50, y, row[c])
        y -= 15


@pytest.mark.parametrize("upwards", [True, False])
def test_turned_headings_are_the_header_row_and_a_turned_title_beside_is_not(upwards: bool) -> None:
    markdown = markdown_of(drawn_pdf(_turned_beside, upwards))
    assert _header_row(FIGURES[0]) in markdown
    assert "| Valley | 455 | 3.8 | 23,075 |" in markdown
    assert "Thousands" in markdown.split("| Valley")[-1]  # after the table, a paragraph of its own
    assert "Thousands |" not in markdown and "| Thousands" not in markdown


def _word_table(path, ruled: bool, direction: str) -> None:
    from docx import Document
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    document = Document()
    document.add_heading("Regional figures", 1)
    document.add_paragraph("The table below gives the figures by region for the last year.")
    table = document.add_table(rows=len(FIGURES), cols=len(FIGURES[0]))
    if ruled:
        table.style = "Table Grid"
    for r, row in enumerate(FIGURES):
        for c, text in enumerate(row):
            cell = table.cell(r, c)
            cell.text = text
            if r == 0 and c > 0:
                turn = OxmlElement("w:textDirection")
                turn.set(qn("w:val"), direction)
                cell._tc.get_or_add_tcPr().append(turn)
    height = OxmlElement("w:trHeight")
    height.set(qn("w:val"), str(int(1.4 * 1440)))
    table.rows[0]._tr.get_or_add_trPr().append(height)
    document.add_paragraph("Figures are provisional and may be revised.")
    document.save(str(path))


@pytest.mark.system
def test_libreoffice_cells_with_turned_text_direction(tmp_path) -> None:
    """LibreOffice draws a turned cell's text a glyph at a time: PDFium breaks a line after
    every glyph and draws no space between words, so the glyphs' places make the words."""
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is not installed: .ci/setup installs it as root")
    from tests.office_documents import convert

    sources = []
    for ruled in (True, False):
        for direction in ("btLr", "tbRl"):
            sources.append(tmp_path / f"{'grid' if ruled else 'bare'}-{direction}.docx")
            _word_table(sources[-1], ruled, direction)
    for tagged in (False, True):
        for pdf in convert(sources, tmp_path / f"tagged-{tagged}", tagged=tagged):
            markdown = markdown_of(pdf.read_bytes())
            assert _header_row(FIGURES[0]) in markdown, (pdf.name, tagged, markdown)
            assert "| Valley | 455 | 3.8 | 23,075 |" in markdown
            assert "Net migration" not in markdown.split("| Valley")[-1]  # no loose turned text


@pytest.mark.system
def test_chromium_tagged_headings_set_sideways_fill_the_header_row(tmp_path) -> None:
    """Chromium tags a heading turned by CSS (writing-mode) under a TH that PDFium finds no text
    under: the tree's header row is empty where the turned headings stand."""
    if shutil.which("chromium") is None and shutil.which("chromium-browser") is None:
        pytest.skip("Chromium is not installed: .ci/setup installs it as root")
    from tests.web_pages import print_pdf

    head = "".join(f'<th><div class="t">{text}</div></th>' if c else f"<th>{text}</th>"
                   for c, text in enumerate(FIGURES[0]))
    body = "".join("<tr>" + "".join(f"<td>{text}</td>" for text in row) + "</tr>" for row in FIGURES[1:])
    page = tmp_path / "figures.html"
    page.write_text(
        "<html><head><style>body{font-size:11pt;margin:2cm} td,th{padding:3pt 8pt}"
        ".t{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;height:110pt}"
        "</style></head><body><p>The figures for each region.</p>"
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        "<p>Figures are provisional.</p></body></html>")
    for tagged in (True, False):
        folder = tmp_path / f"tagged-{tagged}"
        folder.mkdir()
        print_pdf([page], folder, tagged=tagged)
        markdown = markdown_of((folder / "figures.pdf").read_bytes())
        assert _header_row(FIGURES[0]) in markdown, (tagged, markdown)


def _charts_over_a_table(canvas: Any) -> None:
    """Two small bar charts, each with its axis title turned beside its axis, over a table of
    FIGURES' rows with no header, the titles standing over its second and fourth columns."""
    _, height = A4
    canvas.setFont("Helvetica", 10)
    canvas.drawString(72, height - 72, "The figures for each region are set out below by year.")
    base = height - 190
    for title, x in (("Per cent", 215), ("Thousands", 355)):
        canvas.saveState()
        canvas.translate(x, base + 5)
        canvas.rotate(90)
        canvas.setFont("Helvetica", 8)
        canvas.drawString(0, 0, title)
        canvas.restoreState()
        canvas.line(x + 6, base, x + 6, base + 60)
        canvas.line(x + 6, base, x + 66, base)
        for i in range(3):
            canvas.rect(x + 12 + i * 18, base, 10, 15 + 12 * i, fill=1)
    canvas.setFont("Helvetica", 9)
    y = base - 30
    for row in FIGURES[1:]:
        canvas.drawString(90, y, row[0])
        for c, left in enumerate((180, 250, 320), start=1):
            canvas.drawRightString(left + 50, y, row[c])
        y -= 15


def test_charts_axis_titles_turned_over_a_table_head_no_column() -> None:
    markdown = markdown_of(drawn_pdf(_charts_over_a_table))
    assert "| North | 1,204 | 3.5 | 22,100 |" in markdown
    assert "| Per cent" not in markdown and "| Thousands" not in markdown, markdown


BRANCHES = [["Branch", "Manager", "Loans", "Renewals", "Reservations"],
            ["Central", "A. Khan", "100", "107", "114"],
            ["North", "B. Lee", "200", "207", "214"],
            ["Coast", "C. Diaz", "300", "307", "314"]]


def _labels_on_the_row_foot(canvas: Any) -> None:
    """BRANCHES without a grid, Calc's way: the upright "Branch" and "Manager" and the turned
    headings all set on the header row's foot (a turned heading's first letter on the labels'
    baseline), so the labels' line is a row of the table the finder reads."""
    _, height = A4
    canvas.setFont("Helvetica", 10)
    canvas.drawString(72, height - 72, "Loans at each branch are set out below.")
    foot = height - 190
    lefts = [72.0, 140.0, 220.0, 280.0, 340.0]
    canvas.setFont("Helvetica", 11)
    for c in range(2):
        canvas.drawString(lefts[c], foot, BRANCHES[0][c])
    for c in range(2, 5):
        canvas.saveState()
        canvas.translate(lefts[c] + 8, foot)
        canvas.rotate(90)
        canvas.drawString(0, 0, BRANCHES[0][c])
        canvas.restoreState()
    y = foot - 15
    for row in BRANCHES[1:]:
        for c, text in enumerate(row):
            canvas.drawString(lefts[c], y, text)
        y -= 15


def test_turned_headings_set_on_the_row_foot_beside_upright_labels() -> None:
    markdown = markdown_of(drawn_pdf(_labels_on_the_row_foot))
    assert _header_row(BRANCHES[0]) in markdown, markdown
    assert "| Coast | C. Diaz | 300 | 307 | 314 |" in markdown


# An election's votes by ward (issue 32, dense grids; a Chromium print's columns and figures):
# candidates' columns of figures set right, grouped by a space ("15 471"), the gutter between two
# columns hardly wider than the space inside a figure; the candidates' names turned over their
# columns, "Ward" and "Turnout %" set beside the names, half way down the header (a party's
# name over its two candidates in the Chromium print).
VOTES = [["Ward", "K. Hughes", "S. Murphy", "E. Evans", "E. Patel", "Turnout %"],
         ["Grange", "754", "5 582", "–", "675", "23.5"],
         ["Longford", "429", "15 471", "127", "502", "46.3"],
         ["Priory", "23 674", "15 351", "975", "19 800", "47.3"],
         ["Tanners Green", "6 352", "525", "873", "7 644", "32.4"],
         ["Kingsway", "15 542", "72", "19 853", "1 111", "67.7"],
         ["Fairview", "–", "–", "17 257", "4 988", "54.6"],
         ["Queens Park", "17 310", "765", "16 994", "–", "37.9"],
         ["Eastfield", "19 397", "4 166", "21 762", "18 506", "30.0"],
         ["Newtown", "17 433", "15 455", "437", "930", "48.7"]]
PARTIES = ["", "Labour", "", "Green", "", ""]


def _dense_votes(canvas: Any) -> None:
    width, height = A4
    canvas.setFont("Helvetica", 10)
    canvas.drawString(38, height - 60, "Votes cast for each candidate, by ward.")
    top = height - 76
    rights = [0.0, 121.9, 153.3, 179.6, 205.9, 297.7]  # each column's right edge
    canvas.setFont("Helvetica-Bold", 7.1)
    canvas.drawString(38, top - 30, VOTES[0][0])
    canvas.drawRightString(rights[5], top - 30, VOTES[0][5])
    for c in range(1, 5):
        canvas.saveState()
        canvas.translate(rights[c] - 4, top - 44)
        canvas.rotate(90)
        canvas.drawString(0, 0, VOTES[0][c])
        canvas.restoreState()
    canvas.setFont("Helvetica", 7.1)
    y = top - 54
    for row in VOTES[1:]:
        canvas.drawString(38, y, row[0])
        for c in range(1, 6):
            canvas.drawRightString(rights[c], y, row[c])
        y -= 11.4


def test_turned_names_part_the_columns_of_a_dense_grid_of_grouped_figures() -> None:
    """Right-aligned figures grouped by a space stand as close to the next column's as their
    digit groups to one another ("5 582" beside "–", "15 471" beside "127"): the turned names
    over the columns, one a column, say where one column ends and the next begins, and head
    them."""
    markdown = markdown_of(drawn_pdf(_dense_votes))
    assert _header_row(VOTES[0]) in markdown, markdown
    for row in VOTES[1:]:
        assert "| " + " | ".join(row) + " |" in markdown, markdown


@pytest.mark.system
def test_turned_names_go_under_the_group_headings_over_them(tmp_path) -> None:
    """A party's name over its candidates' turned names (colspan), the labels beside them set
    down the header (rowspan, "Ward", "Turnout %"), printed by Chromium: the group headings are
    the first header row with the labels, the names the second."""
    if shutil.which("chromium") is None and shutil.which("chromium-browser") is None:
        pytest.skip("Chromium is not installed: .ci/setup installs it as root")
    from tests.web_pages import print_pdf

    groups = "".join(f"<th colspan=2>{party}</th>" for party in PARTIES if party)
    names = "".join(f"<th class=t><span>{name}</span></th>" for name in VOTES[0][1:5])
    body = "".join("<tr>" + "".join(f"<td>{text}</td>" for text in row) + "</tr>" for row in VOTES[1:])
    page = tmp_path / "votes.html"
    page.write_text(
        "<html><head><meta charset='utf-8'><style>body{font-family:'Liberation Sans',sans-serif;"
        "font-size:9.5px;margin:0} table{border-collapse:collapse} td,th{padding:1px 3px;"
        "white-space:nowrap;text-align:right} td:first-child,th:first-child{text-align:left}"
        " th[colspan]{text-align:center} th.t{vertical-align:bottom;text-align:center}"
        " th.t span{writing-mode:vertical-rl;transform:rotate(180deg)}</style></head><body>"
        "<p>Votes cast for each candidate, by ward.</p><table><thead>"
        f"<tr><th rowspan=2>{VOTES[0][0]}</th>{groups}<th rowspan=2>{VOTES[0][5]}</th></tr>"
        f"<tr>{names}</tr></thead><tbody>{body}</tbody></table></body></html>")
    print_pdf([page], tmp_path, tagged=False)
    markdown = markdown_of((tmp_path / "votes.pdf").read_bytes())
    top = ["Ward", *PARTIES[1:5], "Turnout %"]
    assert _header_row(top) + "\n| " + " | ".join(["", *VOTES[0][1:5], ""]) + " |" in markdown, markdown
    for row in VOTES[1:]:
        assert "| " + " | ".join(row) + " |" in markdown, markdown
