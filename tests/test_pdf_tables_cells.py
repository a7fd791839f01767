"""Cell structure of borderless tables (issue 32, the grid of a table found): a row label
centred beside its group of rows, a caption under a table, a value with a space in it set
centred in its column.  Each test reads a small generated PDF through the table finder."""

from __future__ import annotations

import io

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas as pdf_canvas

from extractors.pdf_table_model import FoundTable
from extractors.pdf_tables import find_tables
from extractors.pdf_words import read_layouts


def tables_of(pdf: bytes) -> list[FoundTable]:
    return [table for layout in read_layouts(pdf) for table in find_tables(layout)]


def drawn(lines: list[tuple[float, float, list[tuple[float, str]]]], font: str = "Helvetica") -> bytes:
    """A page of lines given as (baseline y from the top, font size, [(x, text), ...])."""
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    for y, size, pieces in lines:
        canvas.setFont(font, size)
        for x, text in pieces:
            canvas.drawString(x, 792 - y, text)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


COLUMNS = (72.0, 140.0, 230.0, 280.0, 330.0)
HEADER = ["Training", "Model", "NQ", "TQA", "WQ"]


def _row(y: float, cells: list[str]) -> tuple[float, float, list[tuple[float, str]]]:
    return (y, 9.0, [(x, text) for x, text in zip(COLUMNS, cells, strict=True) if text])


def test_a_row_label_centred_beside_its_group_goes_to_the_groups_top_row() -> None:
    # "Single" set half-way between the rows "DPR" and "BM25 + DPR" (a results table's
    # training regime spanning its two rows): no line of its own, the group's spanning cell.
    lines = [_row(100, HEADER), _row(114, ["None", "BM25", "59.1", "66.9", "55.0"]),
             _row(126, ["", "DPR", "78.4", "79.4", "73.2"]), (132, 9.0, [(72, "Single")]),
             _row(138, ["", "BM25 + DPR", "76.6", "79.8", "71.0"]),
             _row(150, ["", "DPR", "79.4", "78.8", "75.0"]), (156, 9.0, [(72, "Multi")]),
             _row(162, ["", "BM25 + DPR", "78.0", "79.9", "74.7"])]
    [table] = tables_of(drawn(lines))
    assert table.cells == [HEADER, ["None", "BM25", "59.1", "66.9", "55.0"],
                           ["Single", "DPR", "78.4", "79.4", "73.2"],
                           ["", "BM25 + DPR", "76.6", "79.8", "71.0"],
                           ["Multi", "DPR", "79.4", "78.8", "75.0"],
                           ["", "BM25 + DPR", "78.0", "79.9", "74.7"]]


def test_a_section_label_on_a_line_of_its_own_keeps_its_row() -> None:
    # "Women" a row pitch above its rows and below the last row of the group before: a
    # section's label, a row of its own (no group's cell to take).
    lines = [_row(100, HEADER), _row(112, ["", "Under 30", "12.1", "13.0", "14.2"]),
             _row(124, ["", "30 and over", "15.5", "16.1", "17.0"]), (136, 9.0, [(72, "Women")]),
             _row(148, ["", "Under 30", "11.9", "12.4", "13.3"]),
             _row(160, ["", "30 and over", "14.8", "15.0", "16.6"])]
    [table] = tables_of(drawn(lines))
    assert ["Women", "", "", "", ""] in table.cells and len(table.cells) == 6


def test_a_caption_under_a_table_ends_it_before_its_justified_lines() -> None:
    # "Table 3: ..." a line under the last row, its next lines justified with spaces wide
    # enough to read as cell gaps: the caption, not three more rows.
    rows = [HEADER, ["Random", "7", "47.0", "64.3", "77.8"], ["BM25", "7", "50.0", "63.3", "74.8"],
            ["Gold", "31", "52.1", "70.8", "82.1"]]
    lines = [_row(100 + 12 * r, row) for r, row in enumerate(rows)]
    lines += [(160, 9.0, [(72, "Table 3: Comparison of different training schemes,")]),
              (171, 9.0, [(72, "tions"), (140, "set"), (230, "number"), (280, "of"), (330, "negative")]),
              (182, 9.0, [(72, "examples,"), (140, "in-batch"), (230, "training"), (280, "and"),
                          (330, "the")])]
    found = tables_of(drawn(lines))
    assert [t.cells for t in found] == [rows]


def test_a_value_with_spaces_centred_in_its_column_stays_one_cell() -> None:
    # "F / M" and "Base Model1" centred in a column whose other values are one letter ("M",
    # "F"), the next column's heading a little more than a space away (a paper's small
    # table): the strip of white between "F" and "/" runs through every line, but it is the
    # word space of the cells that hold both, not a column gap (measured to the column before,
    # on the lines with one letter, it looked like one).
    size, font = 6.7, "Times-Roman"

    space = 0.38 * size  # (the paper's justified spacing, a little wider than the font's)

    def width(text: str) -> float:
        return sum(stringWidth(word, font, size) for word in text.split(" ")) + space * text.count(" ")

    def centred(centre: float, text: str) -> list[tuple[float, str]]:
        """The words of ``text`` centred on ``centre``."""
        x, out = centre - width(text) / 2, []
        for word in text.split(" "):
            out.append((x, word))
            x += stringWidth(word, font, size) + space
        return out

    b = 215.4  # the centre of the first letter column; the second's heading 4.2 pt right of its own
    c = b + width("Base Model1") / 2 + 4.2 + width("Large Model") / 2
    notes = c + width("Large Model") / 2 + 6.9
    rows = [("Alpha [38]", "F / M", "M", "Pages of modern reports"),
            ("Beta [3]", "M", "-", "Scanned magazines"),
            ("Gamma [17]", "F", "-", "Scanned newspapers"), ("Delta [18]", "F", "F", "Regions of tables"),
            ("Omega [31]", "F / M", "-", "Old printed documents")]
    heads = [(150.0, "Dataset"), *centred(b, "Base Model1"), *centred(c, "Large Model"), (notes, "Notes")]
    lines = [(100.0, size, heads)]
    lines += [(110 + 10 * r, size, [(141.0, label), *centred(b, first), *centred(c, second), (notes, note)])
              for r, (label, first, second, note) in enumerate(rows)]
    [table] = tables_of(drawn(lines, font=font))
    assert [row[1] for row in table.cells] == ["Base Model1", "F / M", "M", "F", "F", "F / M"]
    assert len(table.cells[0]) == 4


def test_a_lone_figure_between_two_rows_is_no_group_label() -> None:
    # A chart's axis value ("1000") set between the lines of its legend: not a row label, it
    # joins no row.
    lines = [_row(100, HEADER), _row(112, ["", "Greece", "12.0", "13.1", "14.2"]), (118, 9.0, [(72, "1000")]),
             _row(124, ["", "Ireland", "15.5", "16.1", "17.0"]),
             _row(136, ["", "Portugal", "11.9", "12.4", "13.3"])]
    found = tables_of(drawn(lines))
    assert not any(row[0] == "1000" and row[1] for table in found for row in table.cells)
