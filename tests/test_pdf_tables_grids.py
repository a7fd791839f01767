"""Grids on real pages that are tables and grids that are not: a tabular's column rules that
stop short of booktabs' padded rules, a ruled frame of photographs with their captions, a
back page's grid of name-and-address cards, an infographic's titled notes side by side; and,
for each rule, the real tables it must leave alone (pictures in a table's cells, bold rows
set at one pitch, a stub column's empty header)."""

from __future__ import annotations

import io
from typing import Any

import pytest

from extractors.pdf_table_model import FoundTable
from extractors.pdf_tables import find_tables

pytest.importorskip("reportlab")

from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.lib.styles import getSampleStyleSheet  # noqa: E402
from reportlab.platypus import Image, Paragraph, SimpleDocTemplate, Table, TableStyle  # noqa: E402

from tests.pdf_output import drawn_pdf

LOREM = ("the passage retrieved for the question holds the answer in its second sentence and the "
         "retriever ranks it first among the hundred passages it returns for this question")


def _tables(pdf: bytes) -> list[FoundTable]:
    from extractors.pdf_words import read_layouts

    [layout] = read_layouts(pdf)
    return find_tables(layout)



def _built(*flowables: Any) -> bytes:
    buffer = io.BytesIO()
    SimpleDocTemplate(buffer, pagesize=A4).build(list(flowables))
    return buffer.getvalue()


def _picture(width: float, height: float, shade: int = 90) -> Image:
    from PIL import Image as PILImage

    picture = PILImage.new("RGB", (60, 40))
    picture.putdata([(shade + x, 120 + y, 160) for y in range(40) for x in range(60)])
    out = io.BytesIO()
    picture.save(out, format="PNG")
    out.seek(0)
    return Image(out, width=width, height=height)


# ------------------------------------------------- column rules short of booktabs' rules

def _booktabs(canvas: Any) -> None:
    """A LaTeX tabular with '|' column rules between booktabs rules: each column rule stops
    2 points above and 3.3 points below every horizontal rule (booktabs' padding)."""
    xs = [72.0, 170.0, 352.0, 534.0]
    canvas.setFont("Times-Bold", 8)
    top = 780.0
    rows: list[tuple[float, float]] = []  # (rule above, rule below) of each row, PDF y upwards
    heights = [14.0, 80.0, 80.0]
    y = top
    for height in heights:
        rows.append((y, y - height))
        y -= height
    canvas.setLineWidth(0.8)
    canvas.line(xs[0], top, xs[-1], top)
    canvas.setLineWidth(0.5)
    for _, below in rows[:-1]:
        canvas.line(xs[0], below, xs[-1], below)
    canvas.setLineWidth(0.8)
    canvas.line(xs[0], rows[-1][1], xs[-1], rows[-1][1])
    canvas.setLineWidth(0.4)
    for above, below in rows:
        for x in xs[1:-1]:
            canvas.line(x, above - 3.3, x, below + 2.0)
    header = ["Question", "Passage received by BM25", "Passage retrieved by DPR"]
    for c, text in enumerate(header):
        canvas.drawString(xs[c] + 3, top - 10, text)
    canvas.setFont("Times-Roman", 8)
    for r, (above, _) in enumerate(rows[1:]):
        cells = [f"Which question is number {r + 1}?", f"Title: Cycling {r} ... {LOREM}",
                 f"Title: Irish Sea {r} ... {LOREM}"]
        for c, text in enumerate(cells):
            _wrapped(canvas, text, xs[c] + 3, above - 10, xs[c + 1] - xs[c] - 8, "Times-Roman", 8)


def _wrapped(canvas: Any, text: str, x: float, y: float, width: float, font: str, size: float,
             leading: float = 9.5) -> float:
    """Draw ``text`` wrapped to ``width`` from baseline ``y`` down; the next baseline."""
    line: list[str] = []
    for word in text.split():
        if line and canvas.stringWidth(" ".join([*line, word]), font, size) > width:
            canvas.drawString(x, y, " ".join(line))
            y -= leading
            line = []
        line.append(word)
    if line:
        canvas.drawString(x, y, " ".join(line))
        y -= leading
    return y


def test_column_rules_stopping_short_of_booktabs_rules_make_one_grid() -> None:
    # (pagemill issue 32: DPR's Table 7, long passages in cells, was no table: its '|' rules
    # met none of the rules they stop short of.)
    [table] = _tables(drawn_pdf(_booktabs))

    assert table.ruled
    assert len(table.cells) == 3 and len(table.cells[0]) == 3
    assert table.cells[0] == ["Question", "Passage received by BM25", "Passage retrieved by DPR"]
    assert table.cells[1][0] == "Which question is number 1?"
    assert table.cells[2][2].startswith("Title: Irish Sea 1")


def test_a_shaded_title_band_over_a_ruled_table_stays_apart_from_it() -> None:
    # A panel's title band (a filled box, its sides ending at its own bottom edge) set four
    # points over a grid's top rule: its sides do not run on to that rule as a tabular's
    # column rules do (see the test above), and its title is no row.
    def draw(canvas: Any) -> None:
        canvas.setLineWidth(0.25)
        canvas.setFillColorRGB(0.2, 0.4, 0.8)
        canvas.rect(60, 700, 230, 17.6, stroke=1, fill=1)
        canvas.setFillColorRGB(1, 1, 1)
        canvas.setFont("Helvetica-Bold", 8)
        canvas.drawString(64, 705, "Points on every purchase at partner shops")
        canvas.setFillColorRGB(0, 0, 0)
        xs, ys = [60.0, 150.0, 290.0], [696.0, 680.0, 664.0, 648.0, 632.0]
        for y in ys:
            canvas.line(xs[0], y, xs[-1], y)
        for x in xs:
            canvas.line(x, ys[0], x, ys[-1])
        canvas.setFont("Helvetica", 8)
        rows = [["Kind", "Shops"], ["Grocery", "Mart, Super, Corner"], ["Fuel", "Every station"],
                ["Online", "Shop A, Shop B"]]
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                canvas.drawString(xs[c] + 4, ys[r] - 11, text)

    [table] = _tables(drawn_pdf(draw))

    assert table.cells == [["Kind", "Shops"], ["Grocery", "Mart, Super, Corner"], ["Fuel", "Every station"],
                           ["Online", "Shop A, Shop B"]]


def test_a_page_of_ruled_columns_short_of_its_header_rule_is_no_table() -> None:
    # A newsletter's page: a header rule, a footer rule, and column separators that stop a
    # few points short of both; its columns are prose.
    def draw(canvas: Any) -> None:
        canvas.line(60, 760, 540, 760)
        canvas.line(60, 120, 540, 120)
        for x in (220, 380):
            canvas.line(x, 756, x, 124)
        canvas.setFont("Helvetica", 9)
        for left in (64, 224, 384):
            y = 745.0
            for _ in range(6):
                y = _wrapped(canvas, LOREM.capitalize() + ".", left, y, 150, "Helvetica", 9, 11) - 6

    assert _tables(drawn_pdf(draw)) == []


# ------------------------------------------------- photographs and their captions

_STYLES = getSampleStyleSheet()


def _para(text: str, bold: bool = False) -> Paragraph:
    return Paragraph(f"<b>{text}</b>" if bold else text, _STYLES["BodyText"])


def test_a_ruled_frame_of_photographs_and_captions_is_no_table() -> None:
    # A booklet's "Types of surgery": a title band, then two photos a row, each under its
    # title and over its caption, in a ruled frame.
    titles = [["Breast conserving surgery", "Oncoplastic surgery"], ["Mastectomy", "Implant reconstruction"]]
    rows: list[list[Any]] = [[_para("Types of breast surgery", bold=True), ""]]
    for pair in titles:
        rows.append([_para(t, bold=True) for t in pair])
        rows.append([_picture(200, 130, 60), _picture(200, 130, 120)])
        rows.append([_para(f"This woman has had {t.lower()} two years ago; the scar is shown.")
                     for t in pair])
    table = Table(rows, colWidths=[220, 220])
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "black"), ("SPAN", (0, 0), (1, 0))]))

    assert _tables(_built(table)) == []


def _grid(rows: list[list[Any]], widths: list[float]) -> bytes:
    table = Table(rows, colWidths=widths)
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "black"),
                               ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]))
    return _built(table)


def test_a_catalogue_with_a_column_of_photographs_stays_a_table() -> None:
    rows: list[list[Any]] = [["Photo", "Item", "Price"]]
    for i, name in enumerate(["Oak chair", "Pine table", "Ash shelf", "Elm stool"]):
        rows.append([_picture(120, 90, 40 * i), name, f"{120 + 35 * i}.00"])

    [table] = _tables(_grid(rows, [140, 160, 80]))
    assert table.ruled  # (the grid itself, not the text alignment's reading of it)

    assert table.cells[0] == ["Photo", "Item", "Price"]
    assert [row[1:] for row in table.cells[1:]] == [[r[1], r[2]] for r in rows[1:]]


def test_a_comparison_with_photographs_over_its_rows_stays_a_table() -> None:
    # Three products' photos in the top row, figures under them: the pictures stand in one row.
    rows: list[list[Any]] = [[_picture(130, 120, 30), _picture(130, 120, 90), _picture(130, 120, 150)],
                             ["Model A", "Model B", "Model C"], ["249.00", "299.00", "349.00"],
                             ["4.1 kg", "3.8 kg", "3.2 kg"]]

    [table] = _tables(_grid(rows, [150, 150, 150]))
    assert table.ruled  # (the grid itself, not the text alignment's reading of it)

    assert [row for row in table.cells if any(row)][-3:] == [r for r in rows[1:]]


def test_photographs_before_and_after_beside_text_columns_stay_a_table() -> None:
    # Pictures in two columns and two rows, but two columns of text beside them hold none.
    rows: list[list[Any]] = [["Before", "After", "Treatment", "Cost"]]
    for i, (treatment, cost) in enumerate([("Whitening", "350"), ("Crown", "1,200"), ("Veneer", "900")]):
        rows.append([_picture(110, 90, 30 + 20 * i), _picture(110, 90, 100 + 20 * i), treatment, cost])

    [table] = _tables(_grid(rows, [125, 125, 110, 70]))
    assert table.ruled  # (the grid itself, not the text alignment's reading of it)

    assert table.cells[0] == ["Before", "After", "Treatment", "Cost"]
    assert [row[-2:] for row in table.cells[1:]] == [r[2:] for r in rows[1:]]


def test_a_feature_matrix_ticked_with_small_icons_stays_a_table() -> None:
    rows: list[list[Any]] = [["Feature", "Basic", "Plus", "Pro"]]
    for i, feature in enumerate(["Backups", "Sharing", "Audit log", "Single sign-on"]):
        rows.append([feature] + [_picture(10, 10) if c >= 3 - min(i, 2) else "-" for c in range(3)])

    [table] = _tables(_grid(rows, [140, 70, 70, 70]))
    assert table.ruled  # (the grid itself, not the text alignment's reading of it)

    assert [row[0] for row in table.cells] == [r[0] for r in rows]


def test_a_dashboard_with_a_sparkline_in_every_cell_stays_a_table() -> None:
    # A small picture (a sparkline) across the middle of every cell, over its figure: pictures
    # in every row and column, but they cover well under half of the grid.
    rows: list[list[Any]] = [[[_picture(70, 12, 40 * c), _para(f"{97 - 3 * r - c}.{r}%")] for c in range(4)]
                             for r in range(4)]

    [table] = _tables(_grid(rows, [90, 90, 90, 90]))

    assert table.ruled  # (the grid itself, not the text alignment's reading of it)
    assert table.cells[0] == ["97.0%", "96.0%", "95.0%", "94.0%"]


def test_photographs_over_rows_of_measurements_stay_a_table() -> None:
    # Two products' photos, twice (front and back), each pair over rows of figures: pictures
    # in two rows and both columns, but the grid holds more texts than captions.
    rows: list[list[Any]] = []
    for side in ("front", "back"):
        rows.append([_picture(150, 110, 50), _picture(150, 110, 130)])
        rows += [[f"{side} {name} A: {10 + i}.5 cm", f"{side} {name} B: {12 + i}.0 cm"]
                 for i, name in enumerate(["width", "height", "depth", "reach"])]

    [table] = _tables(_grid(rows, [200, 200]))

    assert table.ruled  # (the grid itself, not the text alignment's reading of it)
    assert [row for row in table.cells if any(row)][-1] == ["back reach A: 13.5 cm", "back reach B: 15.0 cm"]


# ------------------------------------------------- a grid of cards

def _cards(canvas: Any, names: list[list[str]], pitch_in: float, pitch_out: float,
           bold_rows: bool = True) -> None:
    xs = [60.0, 200.0, 340.0]
    y = 500.0
    for _r, row in enumerate(names):
        for c, name in enumerate(row):
            canvas.setFont("Helvetica-Bold" if bold_rows else "Helvetica", 8)
            canvas.drawString(xs[c], y, name)
            canvas.setFont("Helvetica", 8)
            canvas.drawString(xs[c], y - pitch_in, name.split()[-1].lower() + ".example.org")
        y -= pitch_in + pitch_out


_COUNCILS = [["Council ACT", "Council Queensland", "Council Victoria"],
             ["Council NSW", "Council SA", "Council WA"],
             ["Council NT", "Council Tasmania", "Council Australia"]]


def test_a_grid_of_name_and_address_cards_is_no_table() -> None:
    # Each card a bold name over its web address, three across and three down, the address
    # right under its name and the next card a line further down.
    assert _tables(drawn_pdf(lambda canvas: _cards(canvas, _COUNCILS, 9.2, 17.8))) == []


def test_rows_alternating_bold_and_regular_at_one_pitch_stay_a_table() -> None:
    # An income statement's subtotals in bold, every other row, all rows at one pitch.
    def draw(canvas: Any) -> None:
        rows = [("Revenue", "1,200", "1,350"), ("Cost of sales", "700", "760"),
                ("Gross profit", "500", "590"), ("Overheads", "210", "230"),
                ("Operating profit", "290", "360"), ("Tax", "70", "85")]
        for r, row in enumerate(rows):
            canvas.setFont("Helvetica-Bold" if r % 2 == 0 else "Helvetica", 9)
            for x, text in zip((60, 260, 360), row, strict=True):
                canvas.drawString(x, 600 - 13 * r, text)

    [table] = _tables(drawn_pdf(draw))

    assert table.cells[-1] == ["Tax", "70", "85"]


def test_a_bold_header_and_a_bold_total_around_rows_stay_a_table() -> None:
    def draw(canvas: Any) -> None:
        rows = [("Region", "Sales", "Share"), ("North", "120", "30%"), ("South", "280", "70%"),
                ("Total", "400", "100%")]
        for r, row in enumerate(rows):
            canvas.setFont("Helvetica-Bold" if r in (0, 3) else "Helvetica", 9)
            for x, text in zip((60, 200, 300), row, strict=True):
                canvas.drawString(x, 600 - (13 * r + (6 if r else 0)), text)

    [table] = _tables(drawn_pdf(draw))

    assert table.cells == [["Region", "Sales", "Share"], ["North", "120", "30%"], ["South", "280", "70%"],
                           ["Total", "400", "100%"]]


# ------------------------------------------------- an infographic's notes side by side

def test_titled_notes_side_by_side_starting_at_different_heights_are_no_table() -> None:
    # An infographic's notes around a drawing: each a bold title over a few lines of advice,
    # set at their own heights (the middle one centred, ending level with the left one's
    # title, the right one's title halfway down the middle one).
    def note(canvas: Any, x: float, y: float, title: str, lines: list[str], centred: bool = False) -> None:
        for i, text in enumerate([title, *lines]):
            canvas.setFont("Helvetica-Bold" if i == 0 else "Helvetica", 10 if i == 0 else 8.5)
            if centred:
                canvas.drawCentredString(x, y - 12 * i, text)
            else:
                canvas.drawString(x, y - 12 * i, text)

    def draw(canvas: Any) -> None:
        note(canvas, 195, 541.4, "Avoid cuts", ["If you shave your", "armpits, use a mirror",
                                                "so you can see what", "you are doing to avoid",
                                                "cutting yourself."], centred=True)
        note(canvas, 265, 500, "Comfort first", ["Wear a bra or soft", "crop top when it is",
                                                 "comfortable to do so."])
        note(canvas, 30, 486.3, "Follow-up", ["Report any redness,", "pain, swelling or wound",
                                              "discharge to your surgeon", "or breast care nurse."])

    assert _tables(drawn_pdf(draw)) == []


def test_description_columns_under_an_empty_stub_heading_stay_a_table() -> None:
    # The stub column's heading is empty; its labels and the descriptions beside them each
    # begin their own text.
    def draw(canvas: Any) -> None:
        rows = [("", "What it does", "Who provides it"),
                ("Breast surgeon", "Performs the operation and biopsies", "A hospital's surgical team"),
                ("Care nurse", "Gives information and support", "The treatment centre"),
                ("Dietitian", "Recommends an eating plan", "A community health service")]
        for r, row in enumerate(rows):
            canvas.setFont("Helvetica-Bold" if r == 0 else "Helvetica", 9)
            for x, text in zip((60, 180, 380), row, strict=True):
                canvas.drawString(x, 600 - 14 * r, text)

    [table] = _tables(drawn_pdf(draw))

    assert table.cells[1:] == [
        ["Breast surgeon", "Performs the operation and biopsies", "A hospital's surgical team"],
        ["Care nurse", "Gives information and support", "The treatment centre"],
        ["Dietitian", "Recommends an eating plan", "A community health service"]]
