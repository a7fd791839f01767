"""The table finder of born-digital PDF pages: ruled and unruled tables, spanning cells, the
Markdown it emits, and what must not become a table (two-column prose, bullet lists)."""

from __future__ import annotations

import io

import pytest

from extractors.pdf_tables import find_tables
from extractors.pdf_words import PageLayout, Ruling, Word
from extractors.tables import cells_to_markdown
from tests.corpus import CORPUS, needs_corpus

SIZE = 10.0


def line_words(top: float, items: list[tuple[float, str]], size: float = SIZE,
               right_aligned: bool = False) -> list[Word]:
    """Words of one text line; each item is (x, text): x is where the text starts, or where it
    ends when right_aligned. A character is half the font size wide, a space a quarter."""
    words = []
    for x, text in items:
        width = 0.5 * size * len(text)
        start = x - width if right_aligned else x
        for token in text.split():
            w = 0.5 * size * len(token)
            words.append(Word(token, start, top, start + w, top + size, size, False))
            start += w + 0.25 * size
    return words


def grid_rulings(xs: list[float], ys: list[float]) -> list[Ruling]:
    return [Ruling(xs[0], y, xs[-1], y) for y in ys] + [Ruling(x, ys[0], x, ys[-1]) for x in xs]


def test_ruled_table_cells_and_markdown() -> None:
    xs, ys = [50.0, 150.0, 250.0, 350.0], [100.0, 120.0, 140.0, 160.0, 180.0]
    rows = [["Name", "Qty", "Price"], ["Apples", "3", "1.20"], ["Pears", "12", "0.80"],
            ["Plums", "7", "2.10"]]
    words = [w for r, row in enumerate(rows) for c, text in enumerate(row)
             for w in line_words(ys[r] + 5, [(xs[c] + 4, text)])]
    prose = line_words(60, [(50, "A sentence above the table that is not part of it.")])
    layout = PageLayout(1, 600, 800, words=prose + words, rulings=grid_rulings(xs, ys))

    tables = find_tables(layout)

    assert len(tables) == 1
    table = tables[0]
    assert table.ruled
    assert table.cells == rows
    assert (table.x0, table.top, table.x1, table.bottom) == (50, 100, 350, 180)
    assert table.markdown.splitlines()[:3] == ["| Name | Qty | Price |", "| --- | --- | --- |",
                                               "| Apples | 3 | 1.20 |"]


def test_ruled_spanning_header_keeps_text_in_first_cell() -> None:
    xs, ys = [50.0, 150.0, 250.0, 350.0], [100.0, 120.0, 140.0, 160.0, 180.0]
    # No ruling between the 2nd and 3rd column in the top row: "Sales" spans both.
    rulings = [Ruling(xs[0], y, xs[-1], y) for y in ys]
    rulings += [Ruling(xs[0], ys[0], xs[0], ys[-1]), Ruling(xs[1], ys[0], xs[1], ys[-1]),
                Ruling(xs[2], ys[1], xs[2], ys[-1]), Ruling(xs[3], ys[0], xs[3], ys[-1])]
    words = line_words(105, [(54, "Region"), (180, "Sales")])
    words += line_words(125, [(154, "2019"), (254, "2020")])
    words += line_words(145, [(54, "North"), (154, "10"), (254, "12")])
    words += line_words(165, [(54, "South"), (154, "8"), (254, "9")])

    [table] = find_tables(PageLayout(1, 600, 800, words=words, rulings=rulings))

    assert table.cells == [["Region", "Sales", ""], ["", "2019", "2020"], ["North", "10", "12"],
                           ["South", "8", "9"]]


def test_ruled_row_without_column_rules_keeps_its_cells_apart() -> None:
    xs, ys = [50.0, 150.0, 250.0, 350.0], [100.0, 120.0, 140.0, 160.0]
    # A framed table whose middle row (a shaded band, say) has no inner column rules; its texts
    # still sit in columns.
    rulings = [Ruling(xs[0], y, xs[-1], y) for y in ys]
    rulings += [Ruling(xs[0], ys[0], xs[0], ys[-1]), Ruling(xs[-1], ys[0], xs[-1], ys[-1])]
    rulings += [Ruling(x, top, x, bottom) for x in xs[1:-1] for top, bottom in ((100, 120), (140, 160))]
    words = line_words(105, [(54, "Item"), (154, "2010"), (254, "2011")])
    words += line_words(125, [(54, "Defendants"), (154, "charged"), (254, "pending")])
    words += line_words(145, [(54, "Cases"), (154, "217"), (254, "197")])

    [table] = find_tables(PageLayout(1, 600, 800, words=words, rulings=rulings))

    assert table.ruled
    assert table.cells == [["Item", "2010", "2011"], ["Defendants", "charged", "pending"],
                           ["Cases", "217", "197"]]


def test_ruled_labels_centred_over_spanning_cells_stay_at_their_spans_first_column() -> None:
    """A year centred over four columns (a cell spanning them, its rules only at the span's
    sides) is that cell's text, not apart from the empty slots to its left: the text nearest
    it on that side is beyond a drawn rule, another cell's."""
    pytest.importorskip("reportlab")
    from reportlab.lib.pagesizes import A4
    from reportlab.platypus import SimpleDocTemplate, Table, TableStyle

    from extractors.pdf_words import read_layouts

    rows = [["Region", "2021", "", "", "", "2022", "", "", ""],
            ["", "Men", "", "Women", "", "Men", "", "Women", ""],
            ["", "N", "%", "N", "%", "N", "%", "N", "%"],
            ["North East", "1,204", "12.5", "2,311", "40.1", "1,876", "8.2", "3,045", "22.9"],
            ["London", "5,410", "33.0", "6,002", "51.7", "4,981", "30.4", "7,120", "55.3"]]
    spans = [("SPAN", (a, r), (b, r)) for r, pairs in ((0, ((1, 4), (5, 8))),
                                                       (1, ((1, 2), (3, 4), (5, 6), (7, 8))))
             for a, b in pairs]
    table = Table(rows)
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "black"), ("SPAN", (0, 0), (0, 2)),
                               *spans, ("ALIGN", (1, 0), (-1, 1), "CENTER"),
                               ("ALIGN", (1, 2), (-1, -1), "RIGHT")]))
    out = io.BytesIO()
    SimpleDocTemplate(out, pagesize=A4).build([table])

    [layout] = read_layouts(out.getvalue())
    [found] = find_tables(layout)

    assert found.cells == rows


def test_framed_text_box_is_not_a_table() -> None:
    # A framed call-out: one shading band (rule) per text line, and a short decorative rule in
    # its first line.
    ys = [100.0 + 14 * i for i in range(6)]
    rulings = [Ruling(50, y, 550, y) for y in ys] + [Ruling(50, ys[0], 50, ys[-1]),
                                                      Ruling(550, ys[0], 550, ys[-1]),
                                                      Ruling(300, ys[0], 300, ys[1])]
    text = "We are the executive lead and project manager for the flagship open data initiative"
    words = [w for i in range(5) for w in line_words(ys[i] + 2, [(54, text[: 80 - 3 * i])])]

    assert find_tables(PageLayout(1, 600, 800, words=words, rulings=rulings)) == []


def test_unruled_table_with_numeric_columns() -> None:
    # Labels left-aligned at x=50, numbers right-aligned at x=260 and x=360: no rulings at all.
    data = [("Country", "Population", "Area"), ("Austria", "8,901", "83,879"),
            ("Belgium", "11,522", "30,528"), ("Croatia", "4,058", "56,594"),
            ("Denmark", "5,822", "42,933"), ("Estonia", "1,329", "45,339")]
    words: list[Word] = []
    for i, (label, pop, area) in enumerate(data):
        top = 200 + 14 * i
        words += line_words(top, [(50, label)])
        words += line_words(top, [(260, pop), (360, area)], right_aligned=True)
    words += line_words(150, [(50, "Some body text before the table, long enough to be a paragraph.")])
    words += line_words(300, [(50, "Source: a statistics office, one line of text after the table.")])

    [table] = find_tables(PageLayout(1, 600, 800, words=words))

    assert not table.ruled
    assert table.cells == [list(row) for row in data]
    assert table.top == pytest.approx(200) and table.bottom == pytest.approx(200 + 14 * 5 + SIZE)


def test_unruled_header_wrapped_over_two_lines_is_one_cell() -> None:
    words = line_words(100, [(50, "Region"), (200, "Signed")])
    words += line_words(111, [(200, "(EURm)")])
    for i, (label, value) in enumerate([("Algeria", "6.19"), ("Egypt", "6.60"), ("Jordan", "4.20"),
                                        ("Syria", "33.42")]):
        words += line_words(125 + 13 * i, [(50, label)]) + line_words(125 + 13 * i, [(230, value)],
                                                                      right_aligned=True)

    [table] = find_tables(PageLayout(1, 600, 800, words=words))

    assert table.cells[0] == ["Region", "Signed (EURm)"]
    assert table.cells[1:] == [["Algeria", "6.19"], ["Egypt", "6.60"], ["Jordan", "4.20"],
                               ["Syria", "33.42"]]


def test_two_column_prose_is_not_a_table() -> None:
    left = "the quick brown fox jumps over the lazy dog and keeps on running far"
    right = "a second column of text that reads on its own from top to the bottom"
    words: list[Word] = []
    for i in range(20):
        top = 80 + 12 * i
        words += line_words(top, [(50, left[: 44 - i % 5])])
        words += line_words(top, [(310, right[: 44 - i % 3])])

    assert find_tables(PageLayout(1, 600, 800, words=words)) == []


@pytest.mark.parametrize("marker", ["\u2022", "-", "1.", "a)"])
def test_bullet_list_is_not_a_table(marker: str) -> None:
    items = ["Apples", "Fresh pears", "Plums", "Dried figs", "Oranges"]
    words: list[Word] = []
    for i, item in enumerate(items):
        text = marker if not marker[0].isalnum() else marker.replace("1", str(i + 1)).replace(
            "a", "abcde"[i])
        words += line_words(100 + 14 * i, [(50, text), (75, item)])

    assert find_tables(PageLayout(1, 600, 800, words=words)) == []


def test_numbered_list_right_below_a_table_stays_out_of_it() -> None:
    words: list[Word] = []
    for i, (label, a, b) in enumerate([("Region", "2021", "2022"), ("North", "1,204", "1,310"),
                                       ("South", "982", "1,045"), ("West", "2,330", "2,118")]):
        words += line_words(100 + 14 * i, [(50, label)])
        words += line_words(100 + 14 * i, [(250, a), (350, b)], right_aligned=True)
    for i, item in enumerate(["Finance pressure performance", "Measure method trend partner"]):
        words += line_words(170 + 14 * i, [(50, f"{i + 1}."), (75, item)])

    [table] = find_tables(PageLayout(1, 600, 800, words=words))

    assert table.cells[-1] == ["West", "2,330", "2,118"]
    assert "Finance" not in table.markdown


def test_table_beside_a_prose_column_leaves_the_prose_out() -> None:
    prose = "a column of running text that goes on and on in full sentences here"
    words: list[Word] = []
    for i in range(8):
        top = 100 + 14 * i
        row = ("State", "Deaths", "Rate") if i == 0 else (f"Area{i}", f"{i * 1013:,}", f"{i * 7.3:.1f}")
        words += line_words(top, [(50, row[0])])
        words += line_words(top, [(200, row[1]), (260, row[2])], right_aligned=True)
        words += line_words(top, [(310, prose[: 60 - i])], size=SIZE * 0.8)

    [table] = find_tables(PageLayout(1, 600, 800, words=words))

    assert table.cells[0] == ["State", "Deaths", "Rate"]
    assert table.cells[2] == ["Area2", "2,026", "14.6"]
    assert table.x1 < 300


def test_pages_beyond_the_work_bounds_get_no_tables() -> None:
    from extractors import pdf_table_grids, pdf_table_model

    # A dense grid of numbers is a table until the page holds more words than the bound.
    words = [w for r in range(60)
             for w in line_words(20 + 12 * r, [(50 + 60 * c, str(r * c)) for c in range(8)])]
    assert find_tables(PageLayout(1, 600, 800, words=words))
    many = words * (pdf_table_model.MAX_WORDS // len(words) + 1)
    assert find_tables(PageLayout(1, 600, 800, words=many)) == []

    xs = [10.0 + 3 * i for i in range(pdf_table_model.MAX_RULINGS // 2 + 1)]
    grid = grid_rulings(xs, xs)
    assert pdf_table_grids.ruled_tables(PageLayout(1, 6000, 6000, words=[], rulings=grid)) == []


def test_markdown_escapes_pipes_and_flattens_newlines() -> None:
    assert cells_to_markdown([["a|b", "c"], ["line one\nline two", ""]]) == \
        "| a\\|b | c |\n| --- | --- |\n| line one line two |  |"


def test_ruled_table_in_a_generated_pdf() -> None:
    pytest.importorskip("reportlab")
    from reportlab.lib.pagesizes import A4
    from reportlab.platypus import SimpleDocTemplate, Table, TableStyle

    from extractors.pdf_words import read_layouts

    rows = [["Item", "Count", "Price"], ["Widget", "4", "2.50"], ["Gadget", "10", "7.25"],
            ["Gizmo", "1", "99.00"]]
    out = io.BytesIO()
    table = Table(rows)
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "black")]))
    SimpleDocTemplate(out, pagesize=A4).build([table])

    [layout] = read_layouts(out.getvalue())
    [found] = find_tables(layout)

    assert found.ruled
    assert found.cells == rows


ICDAR = CORPUS / "icdar2013-tables-via-tabula-java"
# The corpus core set's ICDAR documents; the finder measured 0.96 on them (2026-12-01).
CORE = ["eu-001", "eu-004", "eu-014", "eu-027", "us-001", "us-012", "us-020", "us-036"]


@needs_corpus
def test_icdar_core_documents_reach_a_structure_f1_floor() -> None:
    from bench.icdar_tables import Score, run

    [result] = run(["finder"], adapter="pdfium", only=CORE)
    total = Score()
    for doc in result.documents.values():
        total.add(Score(doc["correct"], doc["found"], doc["annotated"]))

    assert len(result.documents) == len(CORE)
    assert total.f1 >= 0.85, result.documents


def turned_headings_grid() -> tuple[bytes, list[list[str]]]:
    """A ruled grid of ticks whose column headings are set upwards (turned a quarter) in a
    tall header row, one column with no tick in any row; a paragraph above it."""
    from reportlab.pdfgen import canvas as pdf_canvas

    headings = ["*JOBCTL", "QIBM_DB_SECADM", "QIBM_DB_SQLADM", "No Authority"]
    labels = ["SET CURRENT DEGREE", "CHGQRYA command", "STRDBMON command", "ANALYZE PLAN CACHE"]
    ticks = [[1, 0, 1, 0], [1, 0, 1, 1], [0, 0, 1, 0], [1, 0, 0, 1]]
    xs = [60.0, 260.0, 290.0, 320.0, 350.0, 380.0]
    ys = [600.0, 510.0, 490.0, 470.0, 450.0, 430.0]  # PDF y, upwards: the header row is 90 tall
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica", 10)
    canvas.drawString(60, 640, "The table below compares the authorities.")
    for y in ys:
        canvas.line(xs[0], y, xs[-1], y)
    for x in xs:
        canvas.line(x, ys[0], x, ys[-1])
    canvas.setFont("Helvetica-Bold", 9)
    canvas.drawString(xs[0] + 4, ys[0] - 12, "User action")
    for c, heading in enumerate(headings):
        canvas.saveState()
        canvas.translate(xs[c + 1] + 18, ys[1] + 4)
        canvas.rotate(90)
        canvas.drawString(0, 0, heading)
        canvas.restoreState()
    canvas.setFont("Helvetica", 9)
    for r, label in enumerate(labels):
        baseline = ys[r + 1] - 14
        canvas.drawString(xs[0] + 4, baseline, label)
        for c, tick in enumerate(ticks[r]):
            if tick:
                canvas.drawString(xs[c + 1] + 12, baseline, "X")
    canvas.showPage()
    canvas.save()
    cells = [["User action", *headings]]
    for label, row in zip(labels, ticks, strict=True):
        cells.append([label] + ["X" if tick else "" for tick in row])
    return buffer.getvalue(), cells


def test_turned_column_headings_in_a_grid_are_its_header_cells() -> None:
    # Column headings set upwards are not among the page's words (text at an angle is kept
    # apart); standing in the grid's header cells, they are those cells' text, and the
    # column no row ticks keeps its heading.
    pytest.importorskip("reportlab")
    from extractors.pdf_words import read_layouts

    pdf, cells = turned_headings_grid()
    [layout] = read_layouts(pdf)
    [found] = find_tables(layout)

    assert found.ruled
    assert found.cells == cells


def test_turned_headings_read_into_a_table_are_not_repeated_as_a_paragraph() -> None:
    pytest.importorskip("reportlab")
    from extractors.router import extract

    pdf, _ = turned_headings_grid()
    markdown = extract(pdf, filename="t.pdf").markdown

    assert "| User action | *JOBCTL | QIBM_DB_SECADM | QIBM_DB_SQLADM | No Authority |" in markdown
    assert markdown.count("QIBM_DB_SECADM") == 1


def test_a_watermark_set_across_a_grid_is_no_cells_text() -> None:
    # Text at 45 degrees over the table is kept apart as turned text too, but it stands in
    # no one cell: it stays out of the table (and is written once, after the page).
    pytest.importorskip("reportlab")
    from reportlab.pdfgen import canvas as pdf_canvas

    from extractors.pdf_words import read_layouts
    from extractors.router import extract

    rows = [["Item", "Count", "Price"], ["Widget", "4", "2.50"], ["Gadget", "10", "7.25"],
            ["Gizmo", "1", "9.00"]]
    xs, ys = [60.0, 200.0, 300.0, 400.0], [600.0, 580.0, 560.0, 540.0, 520.0]
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    for y in ys:
        canvas.line(xs[0], y, xs[-1], y)
    for x in xs:
        canvas.line(x, ys[0], x, ys[-1])
    canvas.setFont("Helvetica", 9)
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            canvas.drawString(xs[c] + 4, ys[r] - 14, text)
    canvas.saveState()
    canvas.setFont("Helvetica-Bold", 40)
    canvas.translate(120, 500)
    canvas.rotate(45)
    canvas.drawString(0, 0, "DRAFT COPY")
    canvas.restoreState()
    canvas.showPage()
    canvas.save()

    [layout] = read_layouts(buffer.getvalue())
    [found] = find_tables(layout)

    assert found.cells == rows
    assert extract(buffer.getvalue(), filename="w.pdf").markdown.count("DRAFT") == 1


def ruled_page(xs: list[float], ys: list[float], texts: list[tuple[float, float, str]],
               size: float = 9.0, wrap: int = 0) -> list[list[list[str]]]:
    """The tables found on a generated PDF page with a grid of rules at ``xs``/``ys`` (points
    from the top) and texts at (x, top); with ``wrap`` a text is set over lines of that many
    words."""
    from reportlab.pdfgen import canvas as pdf_canvas

    from extractors.pdf_words import read_layouts

    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    for y in ys:
        canvas.line(xs[0], 792 - y, xs[-1], 792 - y)
    for x in xs:
        canvas.line(x, 792 - ys[0], x, 792 - ys[-1])
    canvas.setFont("Helvetica", size)
    for x, top, text in texts:
        words = text.split()
        lines = [" ".join(words[i:i + wrap]) for i in range(0, len(words), wrap)] if wrap else [text]
        for index, line in enumerate(lines):
            canvas.drawString(x, 792 - top - size - index * 1.2 * size, line)
    canvas.showPage()
    canvas.save()
    return [table.cells for layout in read_layouts(buffer.getvalue()) for table in find_tables(layout)]


def test_labels_each_alone_in_its_column_of_a_drawing_are_no_table() -> None:
    # A diagram's lines make a grid; its labels stand one to a column, so nothing in it is
    # read down a column.
    xs, ys = [20.0, 100.0, 180.0, 260.0, 340.0, 420.0], [400.0, 440.0, 480.0, 520.0]
    labels = [(105, 405, "Boundary vessel"), (345, 445, "Invasive cancer"), (25, 485, "Normal cells"),
              (185, 485, "Abnormal cells"), (265, 485, "Cells multiply")]
    assert ruled_page(xs, ys, labels) == []


def test_a_page_framed_in_two_columns_of_long_text_is_no_table() -> None:
    # A course outline in one frame split into boxes: each box a module's paragraphs.
    text = ("This module looks at how a product is planned from the first idea to a working "
            "prototype and how the team checks each step against what the users need from it "
            "while keeping the costs and the schedule in view for every stage of the work")
    xs, ys = [72.0, 306.0, 540.0], [86.0, 400.0, 716.0]
    boxes = [(76, 90, "Module One " + text), (310, 90, "Module Three " + text),
             (76, 404, "Module Two " + text)]
    assert ruled_page(xs, ys, boxes, wrap=8) == []
    # A grid of the same frame with short cells is a table.
    short = [(76, 90, "Module One"), (310, 90, "Six weeks"), (76, 404, "Module Two"),
             (310, 404, "Four weeks")]
    assert ruled_page(xs, ys, short) == [[["Module One", "Six weeks"], ["Module Two", "Four weeks"]]]


def test_a_swot_matrix_of_long_texts_is_a_table() -> None:
    # Two rows of 45-word quarters in a box a third of the page tall: a table read across and
    # down, not a page framed in boxes of text.
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfgen import canvas as pdf_canvas
    from reportlab.platypus import Paragraph, Table, TableStyle

    from extractors.pdf_words import read_layouts

    tail = ("the current plans and the staff who carry them out in each of the regions we serve, as "
            "agreed with the board, reviewed every quarter with the teams and the main suppliers")
    quarters = [[f"Strengths: a loyal customer base, a strong brand and {tail}",
                 f"Weaknesses: a narrow product range, a slow website and {tail}"],
                [f"Opportunities: demand for refill products, export grants and {tail}",
                 f"Threats: rising energy prices, a larger rival and {tail}"]]
    style = ParagraphStyle("cell", fontName="Helvetica", fontSize=9, leading=11)
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    grid = TableStyle([("GRID", (0, 0), (-1, -1), 0.5, (0, 0, 0)), ("VALIGN", (0, 0), (-1, -1), "TOP")])
    cells = [[Paragraph(text, style) for text in row] for row in quarters]
    table = Table(cells, colWidths=[240, 240], style=grid)
    _, height = table.wrapOn(canvas, 612, 792)
    table.drawOn(canvas, 60, 400 - height)
    canvas.showPage()
    canvas.save()
    assert min(len(text.split()) for row in quarters for text in row) >= 40
    found = [t.cells for layout in read_layouts(buffer.getvalue()) for t in find_tables(layout)]
    assert found == [quarters]
