"""Public-record listings (issue 32, record_listing probes): dense borderless registers of
notices, donations and licences as spreadsheets and browsers print them, whose columns stand
a couple of points apart and whose values hold spaces."""

from __future__ import annotations

import io
import random

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas as pdf_canvas

from extractors.pdf_tables import FoundTable, find_tables
from extractors.pdf_words import PageLayout, Word, read_layouts

FIRMS = ("Harbour Freight Logistics", "Kestrel Foods", "Northgate Home Care", "Summit Staffing",
         "Red Oak Furniture", "Golden State Bakery", "Maple Leaf Printing", "Cedar Valley Dairy")
NATURES = ("Cash", "Sponsorship", "Non cash", "Visit")


def tables_of(pdf: bytes) -> list[FoundTable]:
    return [table for layout in read_layouts(pdf) for table in find_tables(layout)]


def sheet(rows: list[list[str]], right: set[int], edges: list[float], size: float = 9.0) -> bytes:
    """A sheet printed without rules or padding: each column's texts set left from its edge,
    or right against the next column's edge less ``pad`` when the column is in ``right`` (the
    header's labels too), as Calc sets right-aligned amounts beside left-aligned words."""
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica", size)
    for r, row in enumerate(rows):
        y = 700.0 - r * size * 1.3
        for c, text in enumerate(row):
            if c in right:
                canvas.drawRightString(edges[c + 1] - 1.2, y, text)
            else:
                canvas.drawString(edges[c] + 1.2, y, text)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def donations(seed: int, rows: int = 10) -> list[list[str]]:
    rng = random.Random(seed)
    out = [["Ref.", "Donor", "Amount", "Nature", "Town"]]
    for _ in range(rows):
        out.append([f"D{rng.randint(1000, 9999)}", rng.choice(FIRMS), f"${rng.randint(500, 250000):,}.00",
                    rng.choice(NATURES), rng.choice(("Fresno", "Oakland", "San Jose", "Irvine"))])
    return out


def fitted_edges(rows: list[list[str]], size: float = 9.0) -> list[float]:
    """Column edges as tight as the widest text of each column plus 2.4 points (Calc's
    padding of 1.2 points a side, as a sheet fitted to its page has it)."""
    edges = [40.0]
    for c in range(len(rows[0])):
        edges.append(edges[-1] + max(stringWidth(row[c], "Helvetica", size) for row in rows) + 2.4)
    return edges


def test_right_aligned_amounts_flush_against_left_aligned_words_are_two_columns() -> None:
    # "$234,677.00" set right against its cell's edge and "Sponsorship" set left from the next
    # one stand 2.4 points apart on every line, no more than a word space, and so do their
    # labels: their edges at the gutter line up while their other edges are ragged.
    for seed in (1, 2, 3):
        rows = donations(seed)
        found = tables_of(sheet(rows, {2}, fitted_edges(rows)))
        assert [t.cells for t in found] == [rows]


def test_a_code_before_a_name_in_one_left_aligned_cell_stays_one_value() -> None:
    # "A101 Harbour Freight Logistics": the codes, all one width, end at one x and the names
    # start at one x, but the codes start there too (the cell is set left, not right): one
    # value with a space in it, no column gap.
    rng = random.Random(4)
    rows = [["Ref.", "Supplier", "Amount", "Town"]]
    for _ in range(10):
        rows.append([f"D{rng.randint(1000, 9999)}", f"A{rng.randint(100, 999)} {rng.choice(FIRMS)}",
                     f"{rng.randint(500, 250000):,}", rng.choice(("Fresno", "Oakland", "Irvine"))])
    edges = [40.0, 90.0, 260.0, 330.0, 400.0]
    found = tables_of(sheet(rows, set(), edges))
    assert [t.cells for t in found] == [rows]


def _word(text: str, x0: float, x1: float, top: float, size: float = 6.8) -> Word:
    return Word(text, x0, top, x1, top + size, size, False)


def spaced_ids(heads: list[tuple[float, float, str]]) -> list[Word]:
    """A browser's listing at 6.8 points under the labels ``heads`` (x0, x1, text): ids
    "D 7116 44" set left, their parts one word space apart (1.8 points; the last part's glyph
    box starts 0.4 points sooner on a few lines, a "1"'s side bearing), then dates."""
    rng = random.Random(9)
    words = [_word(text, x0, x1, 90.0) for x0, x1, text in heads]
    for r in range(12):
        top = 100.0 + 9.0 * r
        start = 63.7 if r == 3 else 64.1
        words += [_word("D", 40.5, 45.4, top), _word(str(rng.randint(1000, 9999)), 47.2, 62.3, top),
                  _word(str(rng.randint(10, 99)), start, 71.6, top)]
        day = f"{rng.randint(1, 28)},"
        end = 94.5 + 3.8 * len(day) - 2.3
        words += [_word(rng.choice(("Mar", "Jun", "Oct")), 80.7, 92.7, top), _word(day, 94.5, end, top),
                  _word("2026", end + 1.8, end + 16.9, top)]
    return words


def test_an_id_whose_parts_line_up_one_word_space_apart_is_one_cell() -> None:
    # Every id has the same pattern, so the space before its last part lines up down the
    # column into a narrow gap that a few lines' glyph boxes cross; one word space on every
    # line and no label a cell gap apart over it: no column gap ("D 7116" | "44" before).
    words = spaced_ids([(40.5, 53.2, "Ref."), (80.7, 111.0, "Accepted")])
    [found] = find_tables(PageLayout(1, 600, 800, words=words))
    assert len(found.cells[0]) == 2
    assert all(len(row[0].split()) == 3 for row in found.cells[1:])


def test_figures_one_word_space_apart_under_labels_a_cell_gap_apart_stay_two_columns() -> None:
    # The same geometry under two labels set a cell gap apart over the gap ("Ref." over the
    # letter and the first figures, "No." set right over the last ones): two columns, as the
    # header says.
    words = spaced_ids([(40.5, 53.2, "Ref."), (64.1, 71.6, "No."), (80.7, 111.0, "Accepted")])
    [found] = find_tables(PageLayout(1, 600, 800, words=words))
    assert found.cells[0] == ["Ref.", "No.", "Accepted"]
