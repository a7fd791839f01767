"""Rows of a listing broken over the page, drawn in the ways Word and LibreOffice break them
(issue 32): the rest of a row at the top of the next page in one column or in several, over
one line or two, under the header repeated or not, over many rows or over one or two that the
page finder leaves as lines, and at two page breaks alike (each row's rest at one height on two
pages, which the running-line rule may take for a running header).  Each rest goes back into
its row, and the listing is one table (extractors/pdf_table_stitch.py)."""

from __future__ import annotations

import io

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from bench.icdar_tables import markdown_tables
from extractors.pdf_text import read_text_layer

HEADER = ["Ref", "Name", "Description", "Amount"]
LEFTS = (56.0, 120.0, 280.0)  # the text columns' left edges; the amounts set right at AMOUNT
AMOUNT = 520.0
NAMES = ("Harbour Freight", "Northgate Care", "Allerton Steel", "Kestrel Foods", "Bluebell Farms")
WORKS = ("Annual grant", "Repairs", "Training course", "Equipment", "Rent support")
BROKEN = ("Golden State", "Silver Lake")  # the names of the rows broken at the first and second break
LINE, GAP = 11.0, 5.0  # a cell's line pitch, and the space between rows

Cells = list[list[str]]  # a row: each column's lines


def _rows(count: int, start: int) -> list[list[str]]:
    return [[f"R-{1001 + i}", NAMES[i % 5], WORKS[(i * 2) % 5], f"{(i * 379) % 9000 + 100:,}.00"]
            for i in range(start, start + count)]


def _broken(page: int, columns: tuple[int, ...]) -> Cells:
    """The first lines of the row broken at the foot of ``page`` (1 or 2): a name, and
    "Repairs to the" where its description is broken too (``columns``: the rest's columns)."""
    return [[f"R-200{page}"], [BROKEN[page - 1]], ["Repairs to the" if 2 in columns else "Annual grant"],
            [f"{page},500.00"]]


def _rest(columns: tuple[int, ...], lines: int) -> Cells:
    name = ["Bakery Ltd"] if lines == 1 else ["Bakery and", "Cafe Ltd"]
    rest: dict[int, list[str]] = {0: ["of the fund"], 1: name, 2: ["roof and gutters"]}
    return [rest[c] if c in columns else [] for c in range(4)]


def _height(cells: Cells) -> float:
    return LINE * max(len(lines) for lines in cells) + GAP


def _listing(pages: int, columns: tuple[int, ...], lines: int, after: int,
             repeat: bool) -> tuple[bytes, list[list[str]]]:
    """A listing over ``pages`` pages (2 or 3) under a running title and page numbers, each page
    ending with a row broken over the page, its rest in ``columns`` (over ``lines`` lines) at the
    top of the next, under the header repeated when ``repeat``; ``after`` rows on the last page,
    then a line of text.  The PDF and the listing's rows as one table."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, invariant=1)

    def header(y: float) -> float:
        canvas.setFont("Helvetica-Bold", 9)
        for x, text in zip(LEFTS, HEADER, strict=False):
            canvas.drawString(x, y, text)
        canvas.drawRightString(AMOUNT, y, HEADER[3])
        return y - 16

    def row(y: float, cells: Cells) -> float:
        canvas.setFont("Helvetica", 9)
        for column, texts in enumerate(cells):
            for k, text in enumerate(texts):
                if column == 3:
                    canvas.drawRightString(AMOUNT, y - LINE * k, text)
                else:
                    canvas.drawString(LEFTS[column], y - LINE * k, text)
        return y - _height(cells)

    rest = _rest(columns, lines)
    table = [HEADER]
    done = 0
    for page in range(1, pages + 1):
        canvas.setFont("Helvetica", 8)
        canvas.drawString(56, A4[1] - 40, "Register of grants awarded 2025")
        canvas.drawCentredString(A4[0] / 2, 30, f"Page {page}")
        if page == 1:
            canvas.setFont("Helvetica-Bold", 13)
            canvas.drawString(56, A4[1] - 75, "Grants awarded")
            y = header(A4[1] - 100)
        else:
            y = header(A4[1] - 70) if repeat else A4[1] - 70
            y = row(y, rest)
        if page < pages:
            broken = _broken(page, columns)
            count = 0
            while y - 16 * (count + 1) - _height(broken) > 62:
                count += 1
        else:
            count = after
        for cells in _rows(count, done):
            y = row(y, [[text] for text in cells])
            table.append(cells)
        done += count + 1
        if page < pages:
            row(y, broken)
            table.append([" ".join(broken[c] + rest[c]) for c in range(4)])
        else:
            canvas.setFont("Helvetica", 9)
            canvas.drawString(56, y - 20, "All amounts are in pounds sterling.")
        canvas.showPage()
    canvas.save()
    return buffer.getvalue(), table


CASES = [
    # (pages, the rest's columns, its lines, rows on the last page, the header repeated)
    (3, (1,), 1, 8, False),  # the same rest atop pages 2 and 3 no group heading over page 2's rows
    (3, (0,), 1, 8, False),  # the same rest in the first column, lower case, atop two pages
    (3, (2,), 1, 1, False),  # the same rest atop a page whose one row the page finder leaves as a line
    (2, (1, 2), 1, 1, False),  # a rest in two columns over one row left as lines
    (3, (1, 2), 1, 1, False),
    (3, (1, 2), 1, 1, True),  # ... under the header repeated, a part the finder misreads
    (2, (1,), 2, 1, True),  # a rest over two lines under the header repeated, over one row
    (3, (1,), 2, 1, False),  # ... alike atop two pages
    (3, (1,), 2, 8, True),
]


@pytest.mark.parametrize(("pages", "columns", "lines", "after", "repeat"), CASES)
def test_a_rows_rest_over_the_page_goes_back_into_its_row(pages: int, columns: tuple[int, ...], lines: int,
                                                          after: int, repeat: bool) -> None:
    data, table = _listing(pages, columns, lines, after, repeat)
    layer = read_text_layer(data)
    assert len(layer.pages) == pages
    assert markdown_tables("\n\n".join(page.markdown for page in layer.pages)) == [table]
