"""Public-record listings (issue 32, record_listing probes): dense borderless registers of
notices, donations and licences as spreadsheets and browsers print them, whose columns stand
a couple of points apart and whose values hold spaces."""

from __future__ import annotations

import io
import random

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas as pdf_canvas

from extractors.pdf_table_model import FoundTable
from extractors.pdf_tables import find_tables
from extractors.pdf_text import read_text_layer
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


def test_counts_flush_against_dates_of_one_width_are_two_columns_on_a_page_without_header() -> None:
    # A listing's next page, no header over it: counts set right against their cell's edge and
    # dates set left from the next one ("5" | "Aug 15, 2026"), 2.4 points apart.  Every day
    # has two digits, so the dates end within a few points of each other (their months' widths
    # alone differ): ragged still, no value's fixed-width part (record_listing-502).
    rng = random.Random(6)
    rows = [[f"{rng.randint(100, 999)} {rng.randint(1000, 9999)}", rng.choice(FIRMS), str(rng.randint(0, 14)),
             f"{rng.choice(('Aug', 'May', 'Jan'))} {rng.randint(10, 28)}, {rng.choice((2025, 2026))}"]
            for _ in range(12)]
    edges = [40.0, 90.0, 200.0, 200.0 + stringWidth("14", "Helvetica", 9) + 2.4, 300.0]
    found = tables_of(sheet(rows, {2}, edges))
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


def wrapped_sheet(rows: list[list[str]], edges: list[float], wrap: int, size: float = 9.0,
                  tall: dict[int, int] | None = None) -> bytes:
    """A sheet printed as :func:`sheet` prints it, all columns set left, the texts of column
    ``wrap`` wrapped to its width (each next line 1.1 sizes under the one before), each row as
    tall as its lines, or as ``tall`` says for some (row: lines; a spreadsheet's rows saved
    taller than their text)."""
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica", size)
    y = 700.0
    for r, row in enumerate(rows):
        lines = 1
        for c, text in enumerate(row):
            parts = [text]
            if c == wrap:
                parts = [""]
                for word in text.split():
                    joined = f"{parts[-1]} {word}".strip()
                    if parts[-1] and stringWidth(joined, "Helvetica", size) > edges[c + 1] - edges[c] - 2.4:
                        parts.append(word)
                    else:
                        parts[-1] = joined
            for k, part in enumerate(parts):
                canvas.drawString(edges[c] + 1.2, y - k * size * 1.1, part)
            lines = max(lines, len(parts))
        y -= size * 1.1 * max(lines, (tall or {}).get(r, 0)) + size * 0.6
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


LONG_FIRMS = ("Lakeside Auto Parts of Fresno LLC", "Allerton Steel Works of Santa Ana Ltd",
              "Golden State Bakery Inc.", "Riverbend Hotel and Suites of Oakland Co.",
              "Pacific Coast Foods Group", "Northgate Home Care Inc.")


def register(seed: int, rows: int = 12) -> list[list[str]]:
    rng = random.Random(seed)
    out = [["Ref.", "Donor", "Donor address", "Town"]]
    for _ in range(rows):
        out.append([f"D{rng.randint(1000, 9999)}", rng.choice(LONG_FIRMS),
                    f"{rng.randint(10, 9999)} {rng.choice(('Oak Avenue', 'Mill Lane', 'Main Street'))}",
                    rng.choice(("Fresno", "Oakland", "San Jose", "Irvine"))])
    return out


def listing_edges() -> list[float]:
    """Calc's edges for :func:`register`: the firm's column 84 points wide and its padding
    (every name wraps, "Golden State Bakery" and "Riverbend Hotel and" end within a word
    space of its edge), the others wide enough."""
    firm = 84.0 + 2.4
    return [40.0, 80.0, 80.0 + firm, 190.0 + firm, 250.0 + firm]


def test_a_column_wrapped_on_every_row_stays_apart_from_the_left_set_column_beside_it() -> None:
    # The firms' names wrap onto a second line in every row, a third in some; the address
    # column is set left a few points after the longest line of a name: the gutter between
    # them has text on both sides only on the rows' first lines, under half the body's
    # lines.  A line holding only the rest of a name says nothing of that gutter ("Golden
    # State Bakery 1700 Main Street Inc." was one cell).
    for seed in (2, 5, 6, 7):
        rows = register(seed)
        found = tables_of(wrapped_sheet(rows, listing_edges(), wrap=1))
        assert [t.cells for t in found] == [rows], seed


def test_rows_saved_taller_than_their_wrapped_text_stay_one_table() -> None:
    # A spreadsheet's row saved six lines tall holds a name wrapped over two or three: a blank
    # of three lines or more under it, wider than the page's line pitch allows between a
    # table's lines, but no wider than the rows above it are apart.
    rows = register(4)
    found = tables_of(wrapped_sheet(rows, listing_edges(), wrap=1, tall={5: 6, 9: 6}))
    assert [t.cells for t in found] == [rows]


def test_a_listings_last_three_rows_under_a_row_saved_tall_are_one_table() -> None:
    # A listing's last page holds three rows without its header, the first saved five lines
    # tall over a name on two: the blank under it is wider than the page's line pitch allows,
    # and the block has no three rows yet to show how far apart its rows stand; the rows under
    # it show that (record_listing-502's last page).
    for seed in (3, 4, 5, 6):
        rows = register(seed, rows=3)[1:]
        found = tables_of(wrapped_sheet(rows, [40.0, 80.0, 180.0, 290.0, 350.0], wrap=1, tall={0: 5}))
        assert [t.cells for t in found] == [rows], seed


# -- Listings over pages: a row's wrapped name broken over the page break (Word lets rows break).

def listing_rows(seed: int, count: int) -> list[list[str]]:
    """A donations listing: ids, dates, firms' names (wrapped), addresses, amounts set right."""
    rng = random.Random(seed)
    out = [["Ref.", "Accepted", "Donor", "Donor address", "Amount"]]
    for _ in range(count):
        ref, date = f"D {rng.randint(1000, 9999)} {rng.randint(10, 99)}", f"Mar {rng.randint(1, 28)}, 2026"
        firm = rng.choice(LONG_FIRMS)
        address = f"{rng.randint(10, 9999)} {rng.choice(('Oak Avenue', 'Mill Lane'))}"
        out.append([ref, date, firm, address, f"${rng.randint(500, 250000):,}.00"])
    return out


def _name_lines(text: str, width: float = 84.0) -> list[str]:
    lines = [""]
    for word in text.split():
        joined = f"{lines[-1]} {word}".strip()
        if lines[-1] and stringWidth(joined, "Helvetica", 9.0) > width:
            lines.append(word)
        else:
            lines[-1] = joined
    return lines


def paged_listing(rows: list[list[str]], on_first: int, lines_over: int, repeat: bool) -> bytes:
    """``rows`` (the header first) as Word sets a listing without rules over two pages: the
    header and ``on_first`` body rows on page 1, of the last of them only ``lines_over`` lines
    of its firm's name (its other cells on its first line), the rest of the name at the top of
    page 2 over the remaining rows (under the header again when ``repeat``), then a note."""
    lefts, amount_right = [56.0, 120.0, 190.0, 290.0], 440.0
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)

    def header(y: float) -> float:
        canvas.setFont("Helvetica-Bold", 9)
        for x, text in zip(lefts, rows[0][:4], strict=True):
            canvas.drawString(x, y, text)
        canvas.drawRightString(amount_right, y, rows[0][4])
        return y - 16

    def row(y: float, cells: list[str], names: list[str]) -> float:
        canvas.setFont("Helvetica", 9)
        for x, text in zip(lefts, cells[:4], strict=True):
            if x != lefts[2]:
                canvas.drawString(x, y, text)
        canvas.drawRightString(amount_right, y, cells[4])
        for k, name in enumerate(names):
            canvas.drawString(lefts[2], y - 10 * k, name)
        return y - 10 * len(names) - 6

    canvas.setFont("Helvetica-Bold", 14)
    canvas.drawString(56, 760, "Register of donations accepted")
    y = header(730)
    for cells in rows[1:on_first]:
        y = row(y, cells, _name_lines(cells[2]))
    last = _name_lines(rows[on_first][2])
    row(y, rows[on_first], last[:lines_over])
    canvas.setFont("Helvetica", 8)
    canvas.drawString(300, 40, "Page 1")
    canvas.showPage()
    y = header(760) if repeat else 760
    canvas.setFont("Helvetica", 9)
    for name in last[lines_over:]:
        canvas.drawString(lefts[2], y, name)
        y -= 10
    y -= 6
    for cells in rows[on_first + 1:]:
        y = row(y, cells, _name_lines(cells[2]))
    canvas.drawString(56, y - 20, "Notes: amounts in US dollars.")
    canvas.setFont("Helvetica", 8)
    canvas.drawString(300, 40, "Page 2")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def joined_tables(pdf: bytes) -> list[list[list[str]]]:
    from bench.icdar_tables import markdown_tables

    layer = read_text_layer(pdf)
    return markdown_tables("\n\n".join(page.markdown for page in layer.pages))


def _broken_listing(seed: int, after: int) -> tuple[list[list[str]], int]:
    """A listing that fills page 1 (its last row's name wrapped over three lines, broken after
    the first) and goes on with ``after`` rows, and how many body rows page 1 holds."""
    rows = listing_rows(seed, 200)
    on_first = 1
    height = 730 - 16.0
    while height - (10 * len(_name_lines(rows[on_first][2])) + 6) > 80:
        height -= 10 * len(_name_lines(rows[on_first][2])) + 6
        on_first += 1
    rows[on_first][2] = "Riverbend Hotel and Suites of Oakland Co."
    return rows[:on_first + 1 + after], on_first


def test_the_rest_of_a_wrapped_name_in_another_column_over_the_next_pages_rows_joins_its_row() -> None:
    # "Riverbend Hotel and" ends page 1 in the third column; "Suites of Oakland" and "Co." stand
    # over page 2's rows, in capitals: in a listing whose every row starts with its id, a line
    # without one is the rest of the row before, whatever its case.
    for repeat in (False, True):
        rows, on_first = _broken_listing(1, 12)
        assert joined_tables(paged_listing(rows, on_first, 1, repeat)) == [rows], repeat


def test_a_row_and_a_half_run_over_onto_the_next_page_join_the_listing() -> None:
    # Page 2 holds the rest of the broken name and one row, too few lines for a table: the
    # rest goes back into its row, and the row's name wrapped over two lines is one cell.
    for repeat in (False, True):
        rows, on_first = _broken_listing(2, 1)
        rows[-1][2] = "Lakeside Auto Parts of Fresno LLC"
        assert joined_tables(paged_listing(rows, on_first, 1, repeat)) == [rows], repeat


# -- The same, as the page finder and the tags give the parts (words placed by hand).

LEFTS = (56.0, 120.0, 190.0, 290.0, 400.0)


def placed(cells: list[list[str]], top: float) -> tuple[FoundTable, list[Word]]:
    """A table of ``cells`` as the page finder gives it (its first row the header) and its
    words: each cell's words a word space apart from its column's left edge, a row each 12
    points from ``top``."""
    from extractors.tables import cells_to_markdown

    words = []
    for r, row in enumerate(cells):
        for x, text in zip(LEFTS, row, strict=True):
            for token in text.split():
                width = stringWidth(token, "Helvetica", 9.0)
                words.append(Word(token, x, top + 12 * r, x + width, top + 12 * r + 9, 9.0, False))
                x += width + 2.5
    table = FoundTable(LEFTS[0], top, LEFTS[-1] + 60, top + 12 * len(cells), cells, cells_to_markdown(cells))
    return table, words


def test_a_first_row_without_its_key_from_the_tags_joins_the_row_before_the_page_break() -> None:
    # A tagged export's table on page 2 opens with the rest of page 1's last name as a row of
    # its own ("Group of Stockton Inc." alone in the third column, in capitals): every row of
    # the listing has its id, so that row is the rest of the one before.
    from extractors.pdf_table_stitch import BodyEdge, stitch_tables

    rows = listing_rows(3, 20)
    rows[10][2] = "Blue Ridge Medical"
    first, first_words = placed(rows[:11], 100.0)
    second_cells = [["", "", "Group of Stockton Inc.", "", ""], *rows[11:]]
    second, second_words = placed(second_cells, 72.0)
    second.header_rows = 0
    edges = [BodyEdge(1, 72.0, first.bottom, None, first, first_words, size=(612.0, 792.0)),
             BodyEdge(2, 72.0, second.bottom, second, second, second_words, size=(612.0, 792.0)),
             BodyEdge(3, 72.0, first.bottom, None, None, size=(612.0, 792.0))]
    [stitch] = stitch_tables(edges)
    rows[10][2] = "Blue Ridge Medical Group of Stockton Inc."
    assert stitch.table.cells == rows


def test_the_header_repeated_over_a_row_run_over_is_dropped_when_the_part_before_had_none() -> None:
    # A tagged export marks the header repeated on pages 2 to 5 as running lines, so page 5's
    # part has none of its own; on page 6 it stands over the one row left, as the first
    # page's table's header: dropped, the row read in the part's columns.
    from extractors.pdf_table_columns import baseline_rows
    from extractors.pdf_table_stitch import leading_rows

    rows = listing_rows(4, 14)
    part, part_words = placed(rows[1:13], 72.0)
    _, page_words = placed([rows[0], rows[13]], 72.0)
    header = " ".join(" ".join(rows[0]).split()).lower()
    found = leading_rows(part, part_words, baseline_rows(page_words), 72.0, frozenset({header}))
    assert found is not None and found.cells == [rows[13]]


def test_a_browsers_running_lines_in_the_margin_are_no_rows_of_the_listing_between_them() -> None:
    # Chromium prints the date and the title over a page's listing and the page's address and
    # number under it, in its own 8-point type, starting in the margin left of the table's
    # lines: the listing fills the page between them, a couple of lines' blank away.
    rows = listing_rows(5, 40)
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, pagesize=(792, 612), invariant=1)
    canvas.setFont("Helvetica", 8)
    canvas.drawString(24, 612 - 22, "12/7/26, 5:31 AM")
    canvas.drawString(411, 612 - 22, "Register of donations accepted")
    canvas.drawString(24, 18, "file:///tmp/register.html")
    canvas.drawString(755, 18, "2/3")
    canvas.setFont("Helvetica", 6.75)
    y = 612 - 44.0
    for row in rows[1:]:
        for x, text in zip((40.5, 88.2, 150.0, 300.0), row[:4], strict=True):
            canvas.drawString(x, y, text)
        canvas.drawRightString(420.0, y, row[4])
        y -= 13.5
    canvas.showPage()
    canvas.save()
    assert [t.cells for t in tables_of(buffer.getvalue())] == [rows[1:]]


def _statement(gap: float) -> bytes:
    """Items indented under the margin, their total in 10.5-point bold at the margin ``gap``
    points under the last item's baseline."""
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica-Bold", 14)
    canvas.drawString(56, 760, "Statement of expenses")
    canvas.setFont("Helvetica-Bold", 9)
    canvas.drawRightString(400, 730, "2025")
    canvas.drawRightString(480, 730, "2024")
    canvas.setFont("Helvetica", 9)
    items = [("Salaries and wages", "412,300", "398,120"), ("Rent", "84,000", "84,000"),
             ("Utilities", "12,450", "11,980"), ("Travel", "9,870", "14,230"),
             ("Insurance", "6,300", "6,100"), ("Professional fees", "21,500", "19,400")]
    y = 716.0
    for label, this, last in items:
        canvas.drawString(70, y, label)
        canvas.drawRightString(400, y, this)
        canvas.drawRightString(480, y, last)
        y -= 12
    y -= gap - 12
    canvas.setFont("Helvetica-Bold", 10.5)
    canvas.drawString(56, y, "Total expenses")
    canvas.drawRightString(400, y, "546,420")
    canvas.drawRightString(480, y, "533,830")
    canvas.setFont("Helvetica", 9)
    canvas.drawString(56, y - 40, "The notes on pages 4 to 9 form part of these statements.")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_a_total_row_in_larger_type_at_the_margin_under_indented_items_stays_a_row() -> None:
    # (_margin_line took it for a browser's running footer: another type, a blank of two
    # lines over it, starting left of every item.  Its figures end under the figures above.)
    markdown = read_text_layer(_statement(33.0)).pages[0].markdown
    assert "| Total expenses | 546,420 | 533,830 |" in markdown


def _two_tables(pitch: float, blank: float) -> bytes:
    """A paragraph at 12 points' pitch, a table whose rows stand ``pitch`` apart (one line
    each), and ``blank`` points under its last row another table of other columns."""
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica", 10)
    para = ["Our branches keep the hours below from Monday to Friday; on public holidays they stay",
            "closed. Each branch has a contact who answers questions about accounts, loans and the",
            "services we offer to firms, and who can book a meeting at the branch or by telephone.",
            "Please call ahead before visiting a branch outside the hours shown in this leaflet, as",
            "staff may be out visiting customers at their premises during the afternoon."]
    y = 760.0
    for text in para:
        canvas.drawString(56, y, text)
        y -= 12
    y -= 18
    for row in [("Branch", "Opens", "Closes"), ("Fresno", "08:00", "17:00"), ("Oakland", "09:00", "18:00"),
                ("Irvine", "07:30", "16:30"), ("San Jose", "08:30", "17:30")]:
        for x, text in zip((56, 200, 300), row, strict=True):
            canvas.drawString(x, y, text)
        y -= pitch
    y -= blank - pitch
    for row in [("Contact", "Phone", "Room", "Email"), ("Ann Lee", "555-0101", "12", "ann@example.com"),
                ("Bo Chen", "555-0102", "14", "bo@example.com"),
                ("Cy Diaz", "555-0103", "9", "cy@example.com"),
                ("Di Evans", "555-0104", "21", "di@example.com")]:
        for x, text in zip((56, 150, 260, 330), row, strict=True):
            canvas.drawString(x, y, text)
        y -= 13
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_a_double_spaced_table_and_the_table_a_few_lines_under_it_stay_two_tables() -> None:
    # (_row_set_tall let the second table's first row join the first table's block: its rows
    # stand 24 points apart, so a 60-point blank is under MAX_LINE_GAP of their pitch, though
    # no row of it holds a wrapped cell's lines.)
    markdown = read_text_layer(_two_tables(24.0, 60.0)).pages[0].markdown
    assert "| Branch | Opens | Closes |" in markdown
    assert "| Contact | Phone | Room | Email |" in markdown


def _inspections(seed: int, count: int, counts: tuple[int, int]) -> list[list[str]]:
    rng = random.Random(seed)
    months = ("Aug", "May", "Jan", "Oct")
    return [[f"{rng.randint(100, 999)} {rng.randint(1000, 9999)}", rng.choice(LONG_FIRMS),
             str(rng.randint(*counts)), f"{rng.choice(months)} {rng.randint(1, 28)}, 2026"]
            for _ in range(count)]


def _wrapped_listing(pages: list[list[list[str]]], header: list[str]) -> bytes:
    """Pages of a listing without rules, the header over the first only: ids, firms' names
    wrapped over two lines or three (every row), counts set right 2.4 points from dates set
    left, as Calc prints a sheet's columns fitted to their texts."""
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    for number, rows in enumerate(pages):
        y = 760.0
        if number == 0:
            canvas.setFont("Helvetica", 9)
            for x, text in zip((56.0, 120.0), header[:2], strict=True):
                canvas.drawString(x, y, text)
            canvas.drawRightString(290.0, y, header[2])
            canvas.drawString(292.4, y, header[3])
            y -= 14
        canvas.setFont("Helvetica", 9)
        for cells in rows:
            names = _name_lines(cells[1], 70.0)
            canvas.drawString(56.0, y, cells[0])
            for k, name in enumerate(names):
                canvas.drawString(120.0, y - 10 * k, name)
            canvas.drawRightString(290.0, y, cells[2])
            canvas.drawString(292.4, y, cells[3])
            y -= 10 * len(names) + 6
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_a_listings_rows_on_the_next_page_are_read_in_the_columns_of_its_wrapped_rows() -> None:
    # The next page's three rows alone cannot part the counts from the dates 2.4 points right
    # of them (all one digit: no ragged start shows the counts set right); the rows before them
    # can, but every one of them wraps its firm's name, so no line holds a row's text whole:
    # a row's first line holds each cell's first words (record_listing-502's last page).
    header = ["Inspection no.", "Establishment", "Violations", "Re-inspection"]
    first, second = _inspections(3, 22, (0, 14)), _inspections(4, 3, (1, 9))  # (page 1 filled)
    assert joined_tables(_wrapped_listing([first, second], header)) == [[header, *first, *second]]
