"""Text that does not stand upright on the page as displayed: pages turned by their /Rotate,
landscape tables printed sideways on portrait pages, pages upside down.  Each is read in its
own frame (words in order, lines as lines, tables not transposed) and its boxes are put back
on the page as displayed."""

from __future__ import annotations

import io

import pytest
from reportlab.pdfgen import canvas

from extractors.base import Page
from extractors.pdf_text import PdfText, read_text_layer
from extractors.pdf_words import _turn, _unturn, read_layouts

ROWS = [["Region", "Units", "Revenue", "Margin"], ["North", "120", "4,310", "12.5%"],
        ["South", "98", "3,870", "11.2%"], ["East", "143", "5,020", "13.9%"], ["West", "77", "2,940", "9.8%"]]
PARAGRAPH = ["The quarterly summary below lists units sold and revenue by region.",
             "Margins improved in every region compared with the previous quarter."]
COLUMN, ROW = 110.0, 20.0


def draw_table(cv: canvas.Canvas, x: float, y: float, ruled: bool) -> None:
    """ROWS with their top-left corner at (x, y) in the canvas's current space."""
    if ruled:
        for r in range(len(ROWS) + 1):
            cv.line(x, y - r * ROW, x + COLUMN * len(ROWS[0]), y - r * ROW)
        for c in range(len(ROWS[0]) + 1):
            cv.line(x + c * COLUMN, y, x + c * COLUMN, y - ROW * len(ROWS))
    cv.setFont("Helvetica", 10)
    for r, cells in enumerate(ROWS):
        for c, text in enumerate(cells):
            cv.drawString(x + c * COLUMN + 4, y - r * ROW - 14, text)


def rotated_page(rotation: int) -> bytes:
    """A title, a paragraph, a ruled table and a note, upright in the page's own space, on a
    page whose /Rotate turns it ``rotation`` degrees for display."""
    buffer = io.BytesIO()
    cv = canvas.Canvas(buffer, pagesize=(595, 842))
    cv.setPageRotation(rotation)
    height = 595 if rotation in (90, 270) else 842  # reportlab turns the media box with it
    cv.setFont("Helvetica-Bold", 14)
    cv.drawString(60, height - 60, "Quarterly Report")
    cv.setFont("Helvetica", 10)
    for i, line in enumerate(PARAGRAPH):
        cv.drawString(60, height - 90 - 14 * i, line)
    draw_table(cv, 60, height - 140, ruled=True)
    cv.setFont("Helvetica", 10)
    cv.drawString(60, height - 290, "Figures are unaudited and rounded to the nearest unit.")
    cv.showPage()
    cv.save()
    return buffer.getvalue()


def sideways_table(angle: int, ruled: bool, upright_text: bool = True) -> bytes:
    """A portrait page with an upright title, paragraph and page number, and a landscape
    table with its caption drawn turned ``angle`` degrees (counter-clockwise)."""
    buffer = io.BytesIO()
    cv = canvas.Canvas(buffer, pagesize=(595, 842))
    if upright_text:
        cv.setFont("Helvetica-Bold", 14)
        cv.drawString(60, 790, "Annual Figures")
        cv.setFont("Helvetica", 10)
        cv.drawString(60, 770, "The table below is set sideways to fit its columns.")
        cv.drawString(280, 40, "Page 3")
    cv.saveState()
    if angle == 90:
        cv.translate(420, 120)
    else:
        cv.translate(180, 720)
    cv.rotate(angle)
    cv.setFont("Helvetica-Bold", 12)
    cv.drawString(0, 10, "Table 2: Sales by region")
    draw_table(cv, 0, 0, ruled)
    cv.restoreState()
    cv.showPage()
    cv.save()
    return buffer.getvalue()


def only_page(data: bytes) -> tuple[PdfText, Page]:
    text = read_text_layer(data)
    assert len(text.pages) == 1
    return text, text.pages[0]


def table_blocks(markdown: str) -> list[str]:
    return [block for block in markdown.split("\n\n") if block.startswith("|")]


def expected_table() -> str:
    from extractors.tables import cells_to_markdown

    return cells_to_markdown(ROWS)


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_a_page_turned_by_its_rotate_is_read_in_its_own_frame(rotation: int) -> None:
    text, page = only_page(rotated_page(rotation))

    assert page.markdown.split("\n\n") == [
        "# Quarterly Report", " ".join(PARAGRAPH), expected_table(),
        "Figures are unaudited and rounded to the nearest unit."]
    assert text.tables[0].cells == ROWS  # rows are rows: not transposed
    # Boxes are on the page as displayed: portrait, the table where a viewer shows it.
    assert page.size == (595.0, 842.0)
    table = next(b for b in page.blocks if b["kind"] == "table")
    height = 595.0 if rotation in (90, 270) else 842.0
    x0, y0, x1, y1 = 60.0, height - 140 - ROW * len(ROWS), 60 + COLUMN * len(ROWS[0]), height - 140
    if rotation == 90:  # turned clockwise: the page's bottom-left corner is shown top-left
        shown = (y0, x0, y1, x1)
    elif rotation == 270:
        shown = (595 - y1, 842 - x1, 595 - y0, 842 - x0)
    elif rotation == 180:
        shown = (595 - x1, y0, 595 - x0, y1)
    else:  # upright: nothing turned, nothing placed
        shown = (x0, 842 - y1, x1, 842 - y0)
        assert not read_layouts(rotated_page(0))[0].placements
    assert table["box"] == pytest.approx(list(shown), abs=1.5)


def test_words_of_a_turned_page_are_in_reading_order() -> None:
    (layout,) = read_layouts(rotated_page(90))

    assert (layout.width, layout.height) == (842.0, 595.0)  # the text's own frame: landscape
    in_order = sorted(layout.words, key=lambda w: (round(w.top), w.x0))
    assert [w.text for w in in_order[:5]] == ["Quarterly", "Report", "The", "quarterly", "summary"]
    assert len({w.line for w in in_order[:2]}) == 1 and in_order[2].line != in_order[0].line
    assert not layout.turned


@pytest.mark.parametrize("angle", [90, 270])
@pytest.mark.parametrize("ruled", [True, False])
def test_sideways_table_on_an_upright_page(angle: int, ruled: bool) -> None:
    text, page = only_page(sideways_table(angle, ruled))

    assert page.markdown.split("\n\n") == [
        "# Annual Figures", "The table below is set sideways to fit its columns.",
        "Table 2: Sales by region", expected_table()]
    assert page.running == ["Page 3"]
    assert text.tables[0].cells == ROWS
    # The table's box is where it is drawn: a tall strip of the portrait page.
    table = next(b for b in page.blocks if b["kind"] == "table")
    x0, top, x1, bottom = table["box"]
    assert bottom - top > 2.5 * (x1 - x0)
    if angle == 90:  # drawn from (420, 120) upwards, rows to the right
        assert 415 <= x0 and x1 <= 525 and 842 - 120 - 450 <= top and bottom <= 842 - 120 + 5
    else:  # from (180, 720) downwards, rows to the left
        assert 75 <= x0 and x1 <= 185 and 842 - 720 - 5 <= top and bottom <= 842 - 720 + 450
    assert page.size == (595.0, 842.0)


def test_text_turned_270_degrees_alone_on_a_page() -> None:
    text, page = only_page(sideways_table(270, ruled=True, upright_text=False))

    assert page.markdown.split("\n\n") == ["Table 2: Sales by region", expected_table()]
    assert text.tables[0].cells == ROWS
    (layout,) = read_layouts(sideways_table(270, ruled=True, upright_text=False))
    in_order = sorted(layout.words, key=lambda w: (round(w.top), w.x0))
    assert [w.text for w in in_order[:6]] == ["Table", "2:", "Sales", "by", "region", "Region"]


def test_a_turned_column_header_stays_turned_text() -> None:
    """Little turned text (a margin stamp, turned column headers) is not a region of its own."""
    buffer = io.BytesIO()
    cv = canvas.Canvas(buffer, pagesize=(595, 842))
    cv.setFont("Helvetica", 10)
    for i in range(30):
        cv.drawString(72, 760 - 14 * i, f"Line {i} of an ordinary upright paragraph of body text here.")
    cv.saveState()
    cv.translate(30, 300)
    cv.rotate(90)
    cv.drawString(0, 0, "arXiv:2401.00001v1 [cs.CL] 1 Jan 2024")
    cv.restoreState()
    cv.showPage()
    cv.save()

    (layout,) = read_layouts(buffer.getvalue())

    assert not layout.placements
    assert " ".join(w.text for w in layout.turned) == "arXiv:2401.00001v1 [cs.CL] 1 Jan 2024"
    assert layout.words[0].text == "Line"


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_turned_boxes_go_back(turn: int) -> None:
    box = (10.0, 20.0, 50.0, 35.0)
    assert _unturn(_turn(box, turn, 200.0, 300.0), turn, 200.0, 300.0) == box


def test_landscape_page_stored_portrait_is_read_to_its_right_edge() -> None:
    # A portrait page (595 x 842) with /Rotate 90 shows landscape, 842 wide; its content is
    # drawn turned in user space so that it reads upright.  A line reaching past x = 595 of
    # the shown page is read whole (the visible area is the shown one, not the stored width).
    # reportlab swaps the media box of a page it rotates: a landscape canvas size stores it
    # portrait.
    line = ("The long first line of this landscape page runs well past the place where the same page "
            "stored portrait would end.")
    buffer = io.BytesIO()
    cv = canvas.Canvas(buffer, pagesize=(842, 595))
    cv.setPageRotation(90)
    cv.saveState()
    cv.translate(595, 0)
    cv.rotate(90)
    cv.setFont("Helvetica", 12)
    cv.drawString(56, 520, line)
    cv.drawString(56, 504, "A second line.")
    cv.restoreState()
    cv.showPage()
    cv.save()

    (layout,) = read_layouts(buffer.getvalue())

    assert (round(layout.width), round(layout.height)) == (842, 595)
    assert max(w.x1 for w in layout.words) > 595
    assert " ".join(w.text for w in layout.words if w.line == layout.words[0].line) == line
    page = read_text_layer(buffer.getvalue()).pages[0]
    assert page.markdown == f"{line} A second line."
