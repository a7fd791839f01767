"""A table's header row repeated at the head of each page is the table's, not a running header
(issue 32, page_rows).

A long table over pages repeats its header row at the top of every page (Word's "repeat as
header row"), at the same height and in the same words, as a running header recurs; where the
table finder left that row out of the page's table (the rest of a row broken over the page
stands between, read as lines), the running-line rule of :mod:`extractors.pdf_structure` takes
its cells for a running header, all or some of them (a cell whose line joins the next cell's
on one page recurs less often than the lone cell beside it), and the table loses its header
cells.  A running header's row is no row of a table: its pieces do not stand each at a column
of the table under it, about a row's pitch above it, in the table's type.  Such a row is given
back to the body, where the pages' stitch (:mod:`extractors.pdf_table_stitch`) reads it as the
header repeated.  The same holds for the rest of a row broken over the page, a lone line at
one of the table's inner columns ("LLC" of "Golden State Bakery LLC"), when another page opens
with the same rest at the same height.  (Before a tagged page's artifacts are marked: a
producer that tags the header repeated as an artifact says what it is.)
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable

from extractors.pdf_drafts import Line
from extractors.pdf_table_lines import _Line as TableLine
from extractors.pdf_table_lines import _lines
from extractors.pdf_table_model import ALIGNED, FoundTable
from extractors.pdf_words import PageLayout, Word

# A header row's cell stands at its column when it starts, ends or is centred within this many
# points of where one of the column's pieces of text does (a glyph's side bearing aside).
_AT_COLUMN = 2.0 * ALIGNED
# The rows between a repeated header row and the table's first row: the rest of a row broken
# over the page, a cell's line or two.
_REST_ROWS = 2
# A header row repeated stands over the line under it at most this many times the widest space
# between the table's lines (a header row's cells are padded more than the body's), a running
# header further up, in the margin over the text block.
_LEADING_SLACK = 1.5
# A header row is set in the table's type, within this share of its size (a running header
# mostly smaller).
_SIZE_SLACK = 0.15
# A header row repeated is read against this many lines under it (the table's first rows: a
# short header cell may stand at a column of figures a line or two down) within this many of
# its sizes.
_UNDER_LINES = 3
_UNDER_SIZES = 6.0


def keep_table_heads(layouts: list[PageLayout], lines: dict[int, list[Line]],
                     tables: dict[int, list[FoundTable]]) -> None:
    """Give each page's header-band lines (``lines``, by page number) back to the body where
    they make a header row of one of the page's ``tables``."""
    cells = {number: [_head_cells(table) for table in found] for number, found in tables.items()}
    for layout in layouts:
        # (The other pages' header rows are gathered only for a row that could head a table:
        # gathered for every page, a long document's pages times its tables.)
        def heads(page: int = layout.number) -> list[list[str]]:
            return [rows for number, found in cells.items() if number != page for rows in found]

        _keep_page_heads(lines[layout.number], tables.get(layout.number, []), layout.words, heads)


def _head_cells(table: FoundTable) -> list[str]:
    """The texts of a table's header rows, each its cells joined (its first row when it counts
    none): a line of the row repeated may hold two cells' texts, "Cost (£k) Start", where
    its cells stand close."""
    return [" ".join(cell for cell in row if cell) for row in table.cells[:max(1, table.header_rows)]]


def _keep_page_heads(lines: list[Line], tables: list[FoundTable], words: list[Word],
                     heads: Callable[[], list[list[str]]]) -> None:
    """Give the page's header-band lines back to the body when they make a table's header row
    (see :func:`_heads_table`): the lines on their baseline, two or more, each at a column of
    the first table under them, and each in a header row of one table on another page
    (``heads()``: each such table's header rows), the table's header where it starts.  (A
    running header set over a table in the table's type and columns, "Annual report 2024"
    over the labels and "Page 1" over the last column of figures, heads no table: its
    lines are in no table's header, "Page 1" on no other page.)  A lone line, the rest of a
    row broken over the page, holds no figure: a page's number alone over the last column of
    figures is running, and so is a date or a count in a running line (the running rule
    takes such lines for one by their figures varying)."""
    running = [line for line in lines if line.kind == "header"]
    if not running or not tables:
        return
    for line in running:
        if line.kind != "header":  # (given back with a line of its row)
            continue
        row = [other for other in lines if _same_baseline(other, line)]
        texts = [other.text.strip() for other in row]
        if not _heads_table(row, lines, tables, words):
            continue
        if len(row) == 1:
            recurs = not any(ch.isdigit() for ch in texts[0])
        else:
            recurs = any(all(any(text in head for head in rows) for text in texts) for rows in heads())
        if recurs:
            for other in row:
                other.kind = "body"


def heads_lines_under(row: list[Line], words: list[Word]) -> bool:
    """Whether ``row`` (the lines of one baseline, two or more) stands as a table's header row
    over the lines under it (``words``: the page's words): each of its lines starts, ends or is
    centred where a piece of text does in the next few lines under it (their pieces cut at a
    cell's gap, ``_Line.segments``).  A header row repeated at the head of each page stands at
    its columns ("Scheme" over the labels, "Cost" over the figures); a running header spread
    over the width ("Acme Holdings plc", "Annual report 2025" centred on the page, "Notes to the
    accounts" at the right margin) does not, whatever it stands over."""
    if len(row) < 2:
        return False
    bottom = max(line.bottom for line in row)
    reach = bottom + _UNDER_SIZES * max(line.size for line in row)
    under = _lines([w for w in words if w.top >= bottom - ALIGNED and w.bottom <= reach])[:_UNDER_LINES]
    pieces = [(piece[0].x0, piece[-1].x1) for line in under for piece in line.segments]
    return all(any(_at(line, piece) for piece in pieces) for line in row)


def _same_baseline(a: Line, b: Line) -> bool:
    return abs((a.top + a.bottom) / 2 - (b.top + b.bottom) / 2) <= 0.4 * max(a.height, b.height)


def _heads_table(row: list[Line], lines: list[Line], tables: list[FoundTable], words: list[Word]) -> bool:
    """Whether the lines of ``row`` (one baseline) are a header row of the first table under them,
    or a lone line the rest of a row broken over the page: two lines or more (one alone at a
    column right of the table's first), within the table's width, each starting, ending or
    centred where a piece of the table's text does (its lines cut at a cell's gap,
    ``_Line.segments``), at most _REST_ROWS rows of lines between them and the table, and the
    row no further above the line under it than the table's rows stand apart (a running header
    stands clear of the text block, in the margin above it)."""
    bottom = max(line.bottom for line in row)
    below = [t for t in tables if t.top >= bottom - ALIGNED]
    if not below:
        return False
    table = min(below, key=lambda t: t.top)
    # A lone line is the rest of a row broken over the page ("LLC" of "Golden State Bakery"),
    # at one of the table's inner columns (a running title starts at the text block's edge),
    # or at its first column going on in lower case ("the fund" of "R-2001 of"; a running
    # title starts with a capital); the same words at the same height on another page made it
    # look like a running line.
    if len(row) < 2 and (not row or row[0].x0 <= table.x0 + _AT_COLUMN and not row[0].text[:1].islower()):
        return False
    if min(line.x0 for line in row) < table.x0 - _AT_COLUMN \
            or max(line.x1 for line in row) > table.x1 + _AT_COLUMN:
        return False
    between = sorted((line for line in lines if line.top >= bottom - ALIGNED
                      and line.bottom <= table.top + ALIGNED and not any(line is other for other in row)),
                     key=lambda line: line.top)
    if len(_rows(between)) > _REST_ROWS:
        return False
    inside = [w for w in words if table.x0 - ALIGNED <= w.x0 and w.x1 <= table.x1 + ALIGNED
              and table.top - ALIGNED <= w.top and w.bottom <= table.bottom + ALIGNED]
    # The table's lines and their pieces of text, cut where its cells stand apart.
    table_lines = _lines(inside)
    pieces = [(piece[0].x0, piece[-1].x1) for line in table_lines for piece in line.segments]
    if not pieces:
        return False
    next_top = between[0].top if between else table.top
    if next_top - bottom > _LEADING_SLACK * _widest_leading(table_lines) + ALIGNED:
        return False
    size = statistics.median(w.size for w in inside)
    return all(abs(line.size - size) <= _SIZE_SLACK * size and any(_at(line, piece) for piece in pieces)
               for line in row)


def _at(line: Line, piece: tuple[float, float]) -> bool:
    x0, x1 = piece
    return abs(line.x0 - x0) <= _AT_COLUMN or abs(line.x1 - x1) <= _AT_COLUMN \
        or abs((line.x0 + line.x1) / 2 - (x0 + x1) / 2) <= _AT_COLUMN


def _rows(items: Iterable[Line]) -> list[list[Line]]:
    rows: list[list[Line]] = []
    for line in items:
        if rows and _same_baseline(rows[-1][0], line):
            rows[-1].append(line)
        else:
            rows.append([line])
    return rows


def _widest_leading(lines: list[TableLine]) -> float:
    """The widest space between two of the table's lines, top to bottom: between its rows."""
    gaps = [lower.top - upper.bottom for upper, lower in zip(lines, lines[1:], strict=False)]
    return max(gaps, default=0.0)
