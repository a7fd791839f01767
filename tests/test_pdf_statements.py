"""Company accounts' statements (fin, 2026-12-06): rows typed on tab stops whose dot leaders
run into the note or the figure, a note's one-year analysis in small figures on leaders (no
table of contents), a lone figure column headed by a year and a unit and no label heading, and
a tagged table whose empty cells the tree leaves out (Chromium).  The office probes'
``financial_statements`` class (tests/office_probes.py) typesets the same in Word and Chromium."""

from __future__ import annotations

import io
import random

from reportlab.pdfgen import canvas

from extractors import extract
from extractors.base import ExtractOptions
from extractors.pdf_evidence import tagged_tables
from extractors.pdf_leaders import might_hold_leaders, without_leaders
from extractors.pdf_tables import find_tables
from extractors.pdf_tags import read_page_tags
from extractors.pdf_text import open_pdf
from extractors.pdf_words import Word, read_layouts
from tests.tagged_pdf import Node, Run, tagged_pdf

WIDTH, HEIGHT = 612.0, 792.0
OPTIONS = ExtractOptions(ocr_engines=())
FONT, SIZE = "Helvetica", 10.0


def _word(text: str, x0: float, x1: float) -> Word:
    return Word(text, x0, 100.0, x1, 110.0, SIZE, False)


def test_a_leader_run_into_a_figure_is_taken_out_and_other_leaders_stay() -> None:
    label = _word("Revenue.........................3", 72, 300)
    split = without_leaders([label, _word("1,234", 380, 410)])
    assert [w.text for w in split] == ["Revenue", "3", "1,234"]
    assert split[0].x0 == 72 and split[1].x1 == 300 and split[0].x1 < split[1].x0
    # Leaders at a word's end before a figure, and leaders alone, go; before a word they stay.
    assert [w.text for w in without_leaders([_word("Borrowings......", 72, 300), _word("(412)", 380, 410)])] \
        == ["Borrowings", "(412)"]
    assert [w.text for w in without_leaders([_word("Tax", 72, 90), _word(".........", 95, 300),
                                             _word("–", 380, 390)])] == ["Tax", "–"]
    kept = [_word("Name:..........", 72, 300), _word("Signed", 310, 340)]
    assert without_leaders(kept) is kept


def test_mixed_and_spaced_leaders_are_taken_out() -> None:
    # Dots and middle dots mixed in one word, and leaders typed a space apart (each dot a word
    # of its own, the last one touching the figure or not): the pretest sees them all.
    mixed = [_word("Revenue.·.·.·.·.·.·.·.·3", 72, 300), _word("1,234", 380, 410)]
    assert might_hold_leaders(mixed)
    assert [w.text for w in without_leaders(mixed)] == ["Revenue", "3", "1,234"]
    spaced = [_word("Tax", 72, 90), *(_word(dot, 93 + 5 * i, 95 + 5 * i) for i, dot in enumerate(". · . · .")
                                       if dot != " "), _word("(412)", 380, 410)]
    assert might_hold_leaders(spaced)
    assert [w.text for w in without_leaders(spaced)] == ["Tax", "(412)"]
    assert without_leaders(spaced)[0] is spaced[0]  # a label the leaders do not touch is as read
    touching = [_word("Revenue.", 72, 110), _word(".", 113, 115), _word(".", 118, 120), _word(".3", 123, 130)]
    assert [w.text for w in without_leaders(touching)] == ["Revenue", "3"]
    # Spaced dots before a word, and a sentence's ellipsis, stay.
    kept = [_word("Name:", 72, 100), _word(".", 103, 105), _word(".", 108, 110), _word(".", 113, 115),
            _word("Signed", 310, 340)]
    assert without_leaders(kept) is kept
    sentence = [_word("Revenue", 72, 110), _word("3.", 113, 120), _word("rose.", 123, 150)]
    assert not might_hold_leaders(sentence)


def test_a_line_the_leader_pretest_passes_over_has_no_leader_to_take_out() -> None:
    # The table finder asks without_leaders only of the lines the pretest passes (once the
    # page passed it): a line it passes over must come back as it is.  Random lines of words
    # made of letters, figures, dots, middle dots and ellipses, a dot's gap or wider apart.
    rng = random.Random(32)
    pieces = ["a", "Tax", "3", "1,234", "(412)", ".", "..", ".3", "3.", "·", "…", "–", "e.g.", "x.5"]
    changed = 0
    for _ in range(3000):
        x, line = 72.0, []
        for _ in range(rng.randint(1, 6)):
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 3)))
            line.append(_word(text, x, x + 3 * len(text)))
            x += 3 * len(text) + rng.choice((1.0, 3.0, 30.0))
        if without_leaders(line) is not line:
            changed += 1
            assert might_hold_leaders(line), [w.text for w in line]
    assert changed > 100  # (the lines do hold leaders the test must not pass over)


def _leader_row(pdf: canvas.Canvas, y: float, label: str, figure: str, right: float,
                leader: str = ".") -> None:
    """``label``, dot leaders touching it and ``figure``, which ends at ``right``: one word as
    a word processor draws a tab leader (or words a space apart when ``leader`` holds one)."""
    pdf.setFont(FONT, SIZE)
    start = 72 + pdf.stringWidth(label, FONT, SIZE)
    end = right - pdf.stringWidth(figure, FONT, SIZE)
    dot = pdf.stringWidth(leader, FONT, SIZE)
    dots = int((end - start) / dot)
    pdf.drawString(72, y, label)
    pdf.drawString(end - dots * dot, y, leader * dots + figure)


STATEMENT = [("Revenue", "3", "12,345", "11,010"), ("Cost of sales", "", "(8,123)", "(7,456)"),
             ("Gross profit", "", "4,222", "3,554"), ("Finance costs", "7", "(412)", "(398)"),
             ("Profit for the year", "", "3,810", "3,156")]


def _statement_pdf(leader: str = ".") -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    pdf.setFont(FONT, SIZE)
    top = HEIGHT - 120
    for x, text in ((330, "Note"), (420, "2024"), (500, "2023")):
        pdf.drawRightString(x, top, text)
    for i, (label, note, this, last) in enumerate(STATEMENT):
        y = top - 16 * (i + 1)
        if note:
            _leader_row(pdf, y, label, note, 330, leader)
            pdf.drawRightString(420, y, this)
        else:
            _leader_row(pdf, y, label, this, 420, leader)
        pdf.drawRightString(500, y, last)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_leaders_run_into_the_note_or_the_figure_keep_the_columns() -> None:
    # Dots, dots and middle dots mixed, and either typed a space apart.
    for leader in (".", ".·", ". ", "· ", ". · "):
        [table] = [t for layout in read_layouts(_statement_pdf(leader)) for t in find_tables(layout)]
        assert table.cells == [["", "Note", "2024", "2023"], *(list(row) for row in STATEMENT)], leader


NOTE = [("Wages and salaries", "307"), ("Social security costs", "46"), ("Pension costs", "121"),
        ("Share-based payments", "551"), ("Staff costs", "839")]


def _note_pdf() -> bytes:
    """A note's analysis in one year's figures under 1,000 on dot leaders, the year and the
    unit over the figures and nothing over the labels."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    pdf.setFont("Helvetica-Bold", 14)
    pdf.drawString(72, HEIGHT - 90, "5 Staff costs")
    pdf.setFont(FONT, SIZE)
    pdf.drawString(72, HEIGHT - 110, "The average monthly number of employees was 1,240.")
    top = HEIGHT - 140
    pdf.drawRightString(420, top, "2024")
    pdf.drawRightString(420, top - 16, "£m")
    for i, (label, figure) in enumerate(NOTE):
        _leader_row(pdf, top - 16 * (i + 2), label, figure, 420)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_small_figures_on_leaders_that_go_back_are_no_contents() -> None:
    markdown = extract(_note_pdf(), filename="note.pdf", options=OPTIONS).markdown
    assert "- Wages and salaries" not in markdown and "- Social security costs" not in markdown
    assert "| Wages and salaries | 307 |" in markdown


def test_a_year_and_a_unit_over_a_lone_figure_column_head_it() -> None:
    [table] = [t for layout in read_layouts(_note_pdf()) for t in find_tables(layout)]
    # (The unit set as close under the year as the rows are apart is the heading's second line.)
    assert table.cells == [["", "2024 £m"], *(list(row) for row in NOTE)]


def _cell(kind: str, run: Run) -> Node:
    return Node(kind, [Node("P", [run])])


def test_a_tagged_row_without_its_empty_cells_keeps_its_columns() -> None:
    """Chromium leaves an empty TD out of the tree: the row's cells are placed under the
    columns they are drawn in, not in its first slots."""
    top = 200
    rows = [[(72, "Revenue"), (300, "3"), (400, "12,345"), (480, "11,010")],
            [(72, "Cost of sales"), (400, "(8,123)"), (480, "(7,456)")],
            [(400, "4,222"), (480, "3,554")],
            [(72, "Finance costs"), (300, "7"), (400, "(412)"), (480, "(398)")]]
    header = Node("TR", [_cell("TH", Run(0, x, top, text, bold=True))
                         for x, text in ((72, "Item"), (300, "Note"), (400, "2024"), (480, "2023"))])
    body = [Node("TR", [_cell("TD", Run(0, x, top + 16 * (i + 1), text)) for x, text in row])
            for i, row in enumerate(rows)]
    data = tagged_pdf([Node("Table", [header, *body])])
    with open_pdf(data) as pdf:
        page = pdf[0]
        tags = read_page_tags(page, page.get_textpage(), 1)
    [table] = tagged_tables(tags, read_layouts(data)[0].words, [])
    assert table.cells[2] == ["Cost of sales", "", "(8,123)", "(7,456)"]
    assert table.cells[3] == ["", "", "4,222", "3,554"]
    assert table.cells[1] == ["Revenue", "3", "12,345", "11,010"]
