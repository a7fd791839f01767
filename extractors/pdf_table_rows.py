"""Rows and header placement of an unruled table (:mod:`extractors.pdf_tables`), once its
columns are known (:mod:`extractors.pdf_table_gaps`).

A text that reaches over a gap is a spanning cell (a header text only when it reaches what the
next column holds below it, figures or sub-headings: a heading wider than its column of figures
spans nothing), header lines wrapped in one column become one cell (and one-line cells set on a
two-line header's foot, "Notes" beside "2023" over "£m", join its row; a year and a unit over a
lone column of figures, nothing over the labels, head it), dot leaders drawn into a label's
word up to its note or figure are taken out (extractors/pdf_leaders.py), lower-case
continuation lines join the row above (so do the last digit groups of figures a narrow cell
wrapped at their space, "23" over "612", on a line without a row label), and where a cell wraps
over four lines or more beside one-line values a row is the lines from its top to the next
row's top, the rows told by their value cells (a description's lines may open with a name or a
figure, the rows set as tight as its lines; a first cell goes on under the last row only where
an earlier row's does, and a line that ends a sentence ends the table's text only when it is
not full).  Header lines (at most six, above the first row of figures; a row of years over
sub-headings is header) are placed by the columns the body fills: two pieces of one header line
never share a column, and a heading centred over sub-headings (a year over its quarters, or
over sub-headings that are years too) stands in the first column it covers, never the row
labels' column unless it starts where they do; the row labels' heading centred down a header of
three lines heads its top one.  A word broken over a cell's lines without a hyphen ("Highlan"
over "d", "Num" over "ber", or any end under a piece that fills its cell, "Northum" over
"berland", the cell's edges from the table's columns: extractors/pdf_broken_words.py; a header
word broken twice, "Tur" over "nou" over "t %") is joined again; a label wrapped over three
lines in the last row keeps them.
"""

from __future__ import annotations

import re
import statistics
from bisect import bisect_left
from dataclasses import dataclass, field

from extractors.pdf_bidi import line_text
from extractors.pdf_broken_words import (
    ColumnEdges,
    broken_again,
    broken_at_edge,
    broken_joined,
    plural_end_set_right,
)
from extractors.pdf_table_lines import _clock, _Line, _segments
from extractors.pdf_table_model import (
    ALIGNED,
    CELL_GAP_EM,
    DATE,
    FLUSH,
    GLYPH_SLACK,
    NOTE_LABEL,
    TIME,
    WORD_SPACE_EM,
    WRAP_TIGHTER,
    YEAR,
    _Gap,
    _is_numeric,
)
from extractors.pdf_words import Word

# A line this many of its sizes or more under a table's first row is set a row's pitch below
# it, not as the next line of its cell (see _row_end).
_ROW_END_GAP = 0.8
# A cell wrapped over this many lines or more beside one-line values makes its rows tall: the
# lines between two rows' tops are one row (see _tall_rows_joined).
TALL_LINES = 4
# A unit a table's figures are given in, alone in a header cell ("£m", "£ million", "$000",
# "%", "per cent", "thousands"); see _unit_row.
UNIT = re.compile(r"^([£$€¥]\s?(000s?|m|mn|bn|k|thousands?|millions?|billions?)?|%|per\s?cent|percent"
                  r"|thousands?|millions?|number|no\.)$", re.IGNORECASE)

# A figure grouped by spaces wrapped at one of them in its narrow cell (see _split_figures):
# the head, one to three digits (after a sign or a currency, other groups after them), and the
# tail, groups of three digits (a decimal part, a closing bracket or a per cent after them).
GROUP_HEAD = re.compile(r"^[(\[]?[-+\u2212\u2013$€£¥]?\d{1,3}( \d{3})*$")
GROUP_TAIL = re.compile(r"^\d{3}( \d{3})*([.,]\d+)?[%)\]]?$")
# A figure wrapped in its cell did not fit there: set whole on one line it would come within
# this many font sizes of the text of the columns beside it (a cell's margins and a gap
# between columns; issue 32's narrow cells leave under one).  A line of groups under a row in
# a table whose columns stand wider apart is a row of its own without a label (a branch's
# figures under its region's first branch), not a figure's rest.
WRAP_ROOM_EM = 1.5
# A word space's width in font sizes (Helvetica's and Times' are 0.28 and 0.25 of an em).
SPACE_EM = 0.28


@dataclass
class _Row:
    cells: list[str]
    spanning: set[int]  # columns whose cell reaches over the next column boundary
    top: float
    bottom: float
    # Per filled column, where its text starts and ends and how wide its first word is (a
    # line's pieces; see _tall_rows_joined), and the line's type size.
    extents: dict[int, tuple[float, float, float]] = field(default_factory=dict)
    size: float = 0.0
    # Per column, the words of its cell's last line (a broken word is told by where they end).
    words: dict[int, list[Word]] = field(default_factory=dict)

    @property
    def height(self) -> float:
        return self.bottom - self.top


# A piece of a line's text bound for one cell: its words and their column.
_Group = tuple[list[Word], int]


def _row_of(line: _Line, groups: list[_Group], bounds: list[float]) -> _Row:
    """The line's cells from its pieces of text (see :func:`_groups`); a piece reaching
    across a boundary is a spanning cell."""
    cells = [""] * (len(bounds) + 1)
    spanning: set[int] = set()
    extents: dict[int, tuple[float, float, float]] = {}
    placed: dict[int, list[Word]] = {}
    for words, col in groups:
        if _column(words[-1].x1 - 0.5, bounds) > col:
            spanning.add(col)
        cells[col] = f"{cells[col]} {line_text([w.text for w in words])}".strip()
        x0, x1, first = extents.get(col, (words[0].x0, words[-1].x1, words[0].x1 - words[0].x0))
        extents[col] = (min(x0, words[0].x0), max(x1, words[-1].x1), first)
        placed[col] = placed.get(col, []) + words
    return _Row(cells, spanning, line.top, line.bottom, extents, line.size, placed)


def _column(x: float, bounds: list[float]) -> int:
    """How many column boundaries lie left of ``x`` (the boundaries are the middles of the
    column gaps, left to right: a binary search, asked for every word of a candidate table)."""
    return bisect_left(bounds, x)


def _groups(line: _Line, bounds: list[float], gutters: list[_Gap]) -> list[_Group]:
    """The line's segments, each cut where it crosses a column boundary with a wide space,
    between two numbers, or across a gutter of the table (whitespace through every body
    line); otherwise a segment reaching across a boundary with a plain space stays one
    (spanning) piece.  Each piece with the column it belongs to."""
    out: list[_Group] = []
    for seg in _segments(line):
        groups: list[list[Word]] = [[seg[0]]]
        columns = [_column((w.x0 + w.x1) / 2, bounds) for w in seg]
        for i, (prev, w) in enumerate(zip(seg, seg[1:], strict=False)):
            crossing = columns[i + 1] != columns[i]
            # (The tests below only for a pair that crosses a boundary, most do not.)
            if crossing and (w.x0 - prev.x1 >= 0.45 * max(line.size, 4.0)
                             or any(prev.x1 <= a + 0.5 and w.x0 >= b - 0.5 for a, b in gutters
                                    if b - a < CELL_GAP_EM * line.size)
                             or (_is_numeric(prev.text) and _is_numeric(w.text))):
                groups.append([w])
            else:
                groups[-1].append(w)
        out += [(group, _group_column(group[0].x0, group[-1].x1, bounds)) for group in groups]
    return out


def _header_rows(header: list[_Line], extents: list[_Gap | None], bounds: list[float],
                 gutters: list[_Gap], flush: frozenset[int] = frozenset()) -> list[_Row]:
    """The header lines' cells, placed by the columns the body lines fill: two pieces of
    one header line never share a column (a heading left-aligned over right-aligned figures
    starts left of its column's boundary), and a heading centred over sub-headings of
    several columns (a year over its quarters) goes to the first column it covers."""
    placed = []
    for r, line in enumerate(header):
        groups = _groups(line, bounds, gutters)
        if r == len(header) - 1:  # the column headings proper (a spanning heading is above them)
            groups = _aligned_pieces(groups, extents)
        columns = [col for _, col in groups]
        if len(set(columns)) < len(columns) <= len(extents):
            groups = _matched(groups, extents)
        placed.append(groups)
    runs: list[set[int]] = [set() for _ in placed]  # per line, the first columns of runs it heads
    for r in range(len(placed) - 1):
        below = {col for groups in placed[r + 1:] for _, col in groups}
        spanned, last = [], -1
        for group in placed[r]:  # left to right, each run after the one before it
            words, (first, last) = group[0], _spanned(group, placed[r], extents, below, last, flush)
            spanned.append((words, first))
            if last > first:
                runs[r].add(first)
        placed[r] = spanned
    rows = [_row_of(line, groups, bounds) for line, groups in zip(header, placed, strict=True)]
    for r, (row, groups) in enumerate(zip(rows, placed, strict=True)):
        # What each column holds under this line: its body text and its lower header lines.
        filled = _column_extents(placed[r + 1:], bounds)
        under = [_union(e, f) for e, f in zip(extents, filled, strict=True)]
        row.spanning = runs[r] | {col for words, col in groups if _reaches_over(words, col, under, bounds)}
    return rows


def _union(a: _Gap | None, b: _Gap | None) -> _Gap | None:
    if a is None or b is None:
        return a or b
    return (min(a[0], b[0]), max(a[1], b[1]))


def _reaches_over(words: list[Word], col: int, under: list[_Gap | None], bounds: list[float]) -> bool:
    """Whether a header piece spans into the next column: it reaches into the text that
    column holds below it (``under``: its body lines' and lower header lines' extent).  A
    heading wider than its narrow column of figures ("dec-layers" over "6") passes the middle
    of the gap to the next column without heading that column (and then joins the line above
    it, "#", as one two-line cell); a group heading ("New items" over "Number" and "Percent")
    reaches the sub-heading beside.  The middle of the gap decides only for a next column
    that holds nothing below the piece."""
    if col + 1 >= len(under):
        return False
    following = under[col + 1]
    if following is None:
        return _column(words[-1].x1 - 0.5, bounds) > col
    return words[-1].x1 > following[0] + ALIGNED


def _aligned_pieces(groups: list[_Group], extents: list[_Gap | None]) -> list[_Group]:
    """Header pieces also cut before a word that starts where a column's body text starts
    ("Count Share" set a space apart over a dense listing's columns), each part then in
    the column it starts in; and after a word that ends where its column's body text ends
    when the piece's last word ends where a later column's does (see :func:`_right_set_parts`)."""
    out: list[_Group] = []
    for words, col in groups:
        part = [words[0]]
        for w in words[1:]:
            starts = [c for c, e in enumerate(extents) if e is not None and abs(w.x0 - e[0]) <= ALIGNED]
            if starts and starts[0] > col:
                out.extend(_right_set_parts(part, col, extents))
                part, col = [w], starts[0]
            else:
                part.append(w)
        out.extend(_right_set_parts(part, col, extents))
    return out


def _right_set_parts(words: list[Word], col: int, extents: list[_Gap | None]) -> list[_Group]:
    """A header piece cut where right-set headings over right-set figures meet: a long heading
    set right ("Persons employed") reaches so far left that it stands a cell gap or less from
    its neighbour ("Dwellings"), and the two read as one piece spanning two columns.  Cut after
    a word ending where its column's body text ends, when the piece's last word ends where a
    later column's body text ends, each part then in the column it ends flush with.  (Both
    ends flush with the figures under them: a heading spanning its columns, a year over its
    quarters, is centred or set left, and ends flush with no column but by chance twice.)"""
    def flush(w: Word) -> int | None:
        return next((c for c, e in enumerate(extents) if e is not None and abs(w.x1 - e[1]) <= ALIGNED), None)

    last = flush(words[-1])
    if len(words) < 2 or last is None or last <= col:
        return [(words, col)]
    cut = next((i for i in range(len(words) - 1) if flush(words[i]) == col), None)
    if cut is None:
        return [(words, col)]
    return [(words[:cut + 1], col), *_right_set_parts(words[cut + 1:], last, extents)]


def _column_extents(body: list[list[_Group]], bounds: list[float]) -> list[_Gap | None]:
    """Per column, the x range the body lines' pieces of text fill (pieces reaching over a
    boundary left out); None for a column no body line fills."""
    extents: list[_Gap | None] = [None] * (len(bounds) + 1)
    for groups in body:
        for words, col in groups:
            if _column(words[-1].x1 - 0.5, bounds) > col:
                continue
            old = extents[col]
            x0, x1 = words[0].x0, words[-1].x1
            extents[col] = (x0, x1) if old is None else (min(old[0], x0), max(old[1], x1))
    return extents


def _distance(x0: float, x1: float, extent: _Gap | None) -> float:
    """How far the range x0..x1 lies from a column's extent (0 when they overlap), the
    centres' distance breaking ties."""
    if extent is None:
        return 1e6
    apart = max(0.0, extent[0] - x1, x0 - extent[1])
    return apart + 0.01 * abs((x0 + x1) / 2 - (extent[0] + extent[1]) / 2)


def _matched(groups: list[_Group], extents: list[_Gap | None]) -> list[_Group]:
    """The pieces, left to right, each in its own column, columns in the same order, placed
    nearest the columns' body text (least summed distance; dynamic programming)."""
    k, n = len(groups), len(extents)
    cost = [[_distance(words[0].x0, words[-1].x1, extents[j]) for j in range(n)] for words, _ in groups]
    inf = float("inf")
    best = [[inf] * n for _ in range(k)]
    back = [[0] * n for _ in range(k)]
    for j in range(n):
        best[0][j] = cost[0][j]
    for i in range(1, k):
        low, arg = inf, 0
        for j in range(1, n):
            if best[i - 1][j - 1] < low:
                low, arg = best[i - 1][j - 1], j - 1
            best[i][j] = low + cost[i][j]
            back[i][j] = arg
    j = min(range(n), key=lambda c: best[k - 1][c])
    columns = [0] * k
    for i in range(k - 1, -1, -1):
        columns[i] = j
        j = back[i][j]
    return [(words, col) for (words, _), col in zip(groups, columns, strict=True)]


def _spanned(group: _Group, line: list[_Group], extents: list[_Gap | None],
             below: set[int], after: int, flush: frozenset[int] = frozenset()) -> tuple[int, int]:
    """The run of columns (first, last) a header piece spans: the widest run of two or more
    columns right of column ``after`` that it stands centred over (within a quarter of a
    column), when lower header lines head each of them and no other piece of its line
    stands over them; else its own column."""
    words, col = group
    x0, x1 = words[0].x0, words[-1].x1
    taken = {c for other in line if other is not group for c in _under(other, extents)}
    best: tuple[int, int] | None = None
    # A line whose pieces each start where the text of their column, set flush left
    # (``flush``), starts is set flush left throughout (Word's and LibreOffice's default,
    # merged header cells included): a group heading there heads the columns from its own on,
    # and one that happens to sit centred over a run starting further left ("Health" over its
    # "2022", "2023" and the "2023" of the group before) does not.
    flush_left = len(line) >= 2 and all(c in flush and _starts_at(ws[0].x0, extents[c]) for ws, c in line)
    # The row labels' column, set flush left, is spanned only by a heading that starts where
    # its labels do: a year centred over its sub-headings is centred over the run of them
    # and the labels' column too, within the tolerance, when the run is wide and the labels
    # narrow (a browser's "2018" over "2022 2023 Change").
    start = after + 1 if after >= 0 or 0 not in flush or _starts_at(x0, extents[0]) else 1
    for a in range(col if flush_left else start, col + 1):
        for b in range(max(col, a + 1), len(extents)):
            run = range(a, b + 1)
            if any(c in taken or c not in below or extents[c] is None for c in run):
                continue
            lo, hi = extents[a][0], extents[b][1]  # type: ignore[index]
            tolerance = 2.0 + 0.25 * (hi - lo) / len(run)  # a quarter of a column
            if x0 < lo - tolerance or x1 > hi + tolerance or abs((lo + hi) / 2 - (x0 + x1) / 2) > tolerance:
                continue
            if best is None or b - a > best[1] - best[0]:
                best = (a, b)
    return best or (col, col)


def _starts_at(x: float, extent: _Gap | None) -> bool:
    """Whether ``x`` is where a column's text starts (within FLUSH)."""
    return extent is not None and abs(x - extent[0]) <= FLUSH


def _flush_columns(body: list[list[_Group]], extents: list[_Gap | None],
                   headings: list[_Group] | None = None) -> frozenset[int]:
    """The columns whose body pieces (three or more) all start where the column's text starts
    (within FLUSH) and do not all end together: texts and figures set flush left, not
    right-aligned or centred (figures of one width, "37.9%" over "87.4%", start and end
    together whatever their alignment: no evidence either way).  The column's heading on
    the header's last line (``headings``), starting there too and ending elsewhere, is such
    evidence for a column of texts of one width ("Journey" over journeys "7771", "7772")."""
    edges: dict[int, list[tuple[float, float]]] = {}
    for groups in body:
        for words, col in groups:
            edges.setdefault(col, []).append((words[0].x0, words[-1].x1))
    heads = {col: (words[0].x0, words[-1].x1) for words, col in headings or []}
    flush = set()
    for c, pieces in edges.items():
        starts, ends = [a for a, _ in pieces], [b for _, b in pieces]
        extent = extents[c]
        if len(pieces) < 3 or extent is None or max(starts) - extent[0] > FLUSH:
            continue
        head = heads.get(c)
        if max(ends) - min(ends) > 2 * FLUSH or (head is not None and abs(head[0] - extent[0]) <= FLUSH
                                                 and abs(head[1] - max(ends)) > 2 * FLUSH):
            flush.add(c)
    return frozenset(flush)


def _under(group: _Group, extents: list[_Gap | None]) -> set[int]:
    """The columns a piece stands over: its own and those whose body text it overlaps."""
    words, col = group
    x0, x1 = words[0].x0, words[-1].x1
    return {col} | {c for c, e in enumerate(extents) if e is not None and e[0] < x1 and x0 < e[1]}


def _numeric_split(seg: list[Word]) -> list[list[Word]]:
    """A segment cut between two neighbouring numbers: tight numeric columns ("109 0.9")
    are separate cells even with one space between them."""
    parts = [[seg[0]]]
    for prev, w in zip(seg, seg[1:], strict=False):
        if _is_numeric(prev.text) and _is_numeric(w.text) and w.x0 - prev.x1 > 0.15 * max(w.size, 4.0):
            parts.append([w])
        else:
            parts[-1].append(w)
    return parts


def _group_column(x0: float, x1: float, bounds: list[float]) -> int:
    """The column of a cell text from x0 to x1: the leftmost column holding at least 30% of
    its width (a heading centred over two columns belongs to the first of them; one that
    only pokes into the next column's margin stays where most of it is)."""
    edges = [float("-inf")] + bounds + [float("inf")]
    width = max(x1 - x0, 0.1)
    for col in range(len(edges) - 1):
        if min(x1, edges[col + 1]) - max(x0, edges[col]) >= 0.3 * width:
            return col
    return sum(1 for b in bounds if (x0 + x1) / 2 > b)


def _merge_rows(rows: list[_Row]) -> tuple[list[list[str]], int]:
    """Continuation lines (only the first column filled, in lower case, or below the first
    row of figures, under a row of figures whose first cell begins on its line and nearer it
    than the line below: the rest of a cell wrapped in its row's band, the row's other cells
    set on its first line) join the row above; in the header (the lines above the first row
    of numbers) a cell wrapped over several lines becomes one cell, in its top line."""
    rows = _centred_labels_placed(_tall_rows_joined(rows, _first_data(_row_kinds(rows))))
    # The columns' edges as the lines show them, each line a row of its own (keyed by its first
    # word in the column: a cell's two lines joined are left out of its edge).
    edges = ColumnEdges((ws[0], c, ws[0].x0, ws[-1].x1) for row in rows
                        for c, ws in row.words.items() if ws and c not in row.spanning)
    merged: list[_Row] = []
    data_from = _first_data(_row_kinds(rows))
    reach = max((ws[-1].x1 for row in rows if 0 not in row.spanning and (ws := row.words.get(0))),
                default=0.0)
    # A label full against the widest of them may be that widest label itself, full by no
    # measure but its own: only a stub seen to wrap short of it (a label full though another
    # reaches further) wraps its widest (else "Manufacturing of food and drink" would take a
    # section's label alone under it, "Services", as its next line).
    wraps = _stub_wraps(rows, reach)

    def join(c: int, row: _Row) -> None:
        """Row ``row``'s cell in column ``c`` goes on the cell above it."""
        above = merged[-1]
        broken = _broken_at_edge(above, row, c, edges)
        above.cells[c] = broken_joined(above.cells[c], row.cells[c], at_edge=broken)
        if c in row.words:
            above.words[c] = row.words[c]

    for index, row in enumerate(rows):
        filled = [i for i, c in enumerate(row.cells) if c]
        if len(merged) == 1 and index == 1 and filled == [0] and _row_end(_first_cells(rows[1:])) \
                and row.top - merged[0].bottom > _ROW_END_GAP * max(row.size, 4.0):
            merged.append(_Row(list(row.cells), set(row.spanning), row.top, row.bottom,
                               words=dict(row.words)))
            continue
        if merged and _wrapped_row(merged[-1], row, filled) \
                or merged and index > data_from and _split_figures(merged[-1], row, filled, rows):
            for c in filled:
                join(c, row)
            merged[-1].bottom = row.bottom
            continue
        if merged and filled == [0] and (row.cells[0][:1].islower() or index > data_from
                                         and _wraps_on(merged[-1])
                                         and (_wrapped_on(rows, index)
                                              or wraps and _label_full(merged[-1], row, reach))
                                         and not NOTE_LABEL.match(row.cells[0])):
            join(0, row)
            merged[-1].cells[0] = merged[-1].cells[0].strip()
            merged[-1].bottom = row.bottom
            continue
        if merged and index > data_from and _goes_on(merged[-1], row, filled) \
                and (row.cells[filled[0]][:1].islower() or _set_tight(rows, index)):
            join(filled[0], row)
            merged[-1].bottom = row.bottom
            continue
        merged.append(_Row(list(row.cells), set(row.spanning), row.top, row.bottom, words=dict(row.words)))
    first_data = _first_data(_row_kinds(merged))
    _merge_header_cells(merged[:first_data], edges)
    _raise_centred_stub([row for row in merged[:first_data] if any(row.cells)])
    cells = [row.cells for row in merged]
    kept_header = sum(1 for row in merged[:first_data] if any(row.cells))
    return cells, max(1, kept_header)


def _first_cells(rows: list[_Row]) -> str:
    """The text of the first rows that fill the first column alone, joined."""
    texts = []
    for row in rows:
        if not row.cells[0] or any(row.cells[1:]):
            break
        texts.append(row.cells[0])
    return " ".join(texts)


def _row_end(text: str) -> bool:
    """Whether a first cell's text under the table's first row may end a row the page broke
    ("coping.", "river, 2015 survey repeated with 6 new test points."), set by Word under the
    header it repeats on the next page: it goes on in lower case and ends a sentence, as no
    heading wrapped in its cell does ("Local" over "authority").  Set a row's pitch under the
    header (:data:`_ROW_END_GAP`), not a line's, it stays a row of its own, for the pages'
    stitch to put back into the row it ends (joined to the header, the header repeated is
    not seen and the parts stay apart)."""
    return text[:1].islower() and text.rstrip().endswith(".") and not text.rstrip().endswith("..")


def _tall_rows_joined(rows: list[_Row], data_from: int) -> list[_Row]:
    """The body's rows when a cell wraps over TALL_LINES lines or more beside one-line values
    (a description column beside costs and dates, issue 32, tall_rows): a row is the lines
    from one row's top to the next row's top, the rows told by their value cells (a line of
    two cells or more starts a row), and the lines between, each the long column's alone,
    are that cell's next lines.  Where rows are set as tight as a cell's lines, the case and
    first figures of the words say nothing (a line of a description may open with a place's
    name or a count), so the lines' shape is asked: each starts flush with the cell's first
    line, ends short of the next column, is set at the cell's line pitch, and the line above
    it is full (the line's first word would not have fitted at its end: a second paragraph
    in the cell starts after a short line; a note set as tight under the last row was cut off
    by _trim, after a line that ends a sentence and is not full).  The rule holds in a table
    where such a run of three lines or more follows a row, the runs' lines all in one column,
    and then joins every row's run so, short ones too; in a table with none, wraps are left to
    the rules below."""
    body = rows[data_from:]
    starts = [i for i, row in enumerate(body) if sum(map(bool, row.cells)) >= 2]
    if len(starts) < 2:
        return rows
    filled = [[c for c, text in enumerate(row.cells) if text] for row in body]
    # Each row's run of lines down to the next row (or to the block's end).
    ends = [*starts[1:], len(body)]
    runs = [(start, range(start + 1, end)) for start, end in zip(starts, ends, strict=True)
            if end - start > 1]
    longs = {filled[i][0] for _, run in runs for i in run if len(filled[i]) == 1}
    tall = [run for _, run in runs if len(run) >= TALL_LINES - 1 and all(len(filled[i]) == 1 for i in run)]
    if len(longs) != 1 or not tall:
        return rows
    long = longs.pop()
    if any(long not in body[start].extents for start in starts):
        return rows
    size = statistics.median(body[start].size for start in starts)
    # The column's lines end short of the next column's text (or, in the last column, a word's
    # width past the rows' own lines), and its right edge is the furthest one reaches.
    nexts = [e[0] for start in starts for c, e in body[start].extents.items() if c > long]
    limit = min(nexts) - CELL_GAP_EM * size if nexts else \
        max(body[start].extents[long][1] for start in starts) + 2 * size
    right = max((x1 for i in range(len(body)) if long in body[i].extents
                 and (x1 := body[i].extents[long][1]) <= limit), default=None)
    if right is None:  # (every line of the column reaches into the next: no column to fill)
        return rows
    pitch = statistics.median(body[i].top - body[i - 1].top for run in tall for i in run)
    slack = max(ALIGNED, GLYPH_SLACK * size)
    out = list(rows[:data_from])
    taken: set[int] = set()
    for start, run in runs:
        row = body[start]
        x0, cells, above, last = row.extents[long][0], list(row.cells), row, start
        words = dict(row.words)
        for i in run:
            line, extent = body[i], body[i].extents.get(long)
            if filled[i] != [long] or extent is None or abs(extent[0] - x0) > slack or extent[1] > limit \
                    or line.top - above.top > pitch + slack \
                    or above.extents[long][1] + WORD_SPACE_EM * line.size + extent[2] <= right - slack:
                break
            cells[long] = broken_joined(cells[long], line.cells[long])
            if long in line.words:
                words[long] = line.words[long]
            above, last = line, i
            taken.add(i)
        body[start] = _Row(cells, set(row.spanning), row.top, body[last].bottom, row.extents, row.size, words)
    return out + [row for i, row in enumerate(body) if i not in taken]


def _centred_labels_placed(rows: list[_Row]) -> list[_Row]:
    """A row label set vertically centred beside a group of rows whose first cells are empty
    ("Single" beside the rows "DPR" and "BM25 + DPR" of a results table, government tables'
    "Men" / "Women" beside their age bands) comes out as a line of its own between two rows.
    It takes no line of its own: the rows above and below it are no further apart than two
    rows usually are.  Such a label is the group's spanning cell, so it goes to the group's
    top row (the ICDAR convention: a spanning cell's text in its top-left slot), the group
    being as many rows with an empty first cell above it as below it.  A section label set
    on a line of its own (a row pitch above and below) keeps its row."""
    data = [r for r in rows if sum(map(bool, r.cells)) >= 2]
    pitches = [b.top - a.top for a, b in zip(data, data[1:], strict=False) if b.top > a.top]
    if len(pitches) < 2:
        return rows
    pitch = statistics.median(pitches)
    out = list(rows)
    moved: set[int] = set()
    for i in range(1, len(rows) - 1):
        row, above, below = rows[i], rows[i - 1], rows[i + 1]
        if [c for c, text in enumerate(row.cells) if text] != [0] or row.cells[0][:1].islower() \
                or _is_numeric(row.cells[0]):  # (a group's label is words: a lone figure is
            continue                           # a chart's axis beside its legend, say)
        if any(r.cells[0] or sum(map(bool, r.cells)) < 2 for r in (above, below)):
            continue
        if below.top - above.top > 1.5 * pitch:  # the label has a line of its own
            continue
        up = _run_without_label(rows, i, -1)
        down = _run_without_label(rows, i, 1)
        top = i - min(up, down)
        if top in moved or out[top].cells[0]:
            continue
        words = {c: ws for c, ws in out[top].words.items() if c}
        if 0 in row.words:
            words[0] = row.words[0]
        out[top] = _Row([row.cells[0], *out[top].cells[1:]], set(out[top].spanning), out[top].top,
                        out[top].bottom, words=words)
        moved.add(top)
        out[i] = _Row([""] * len(row.cells), set(), row.top, row.bottom)
    return [r for r in out if any(r.cells)] if moved else rows


def _run_without_label(rows: list[_Row], i: int, step: int) -> int:
    """How many rows of several cells with an empty first cell follow row ``i`` (``step`` 1)
    or precede it (-1)."""
    n, j = 0, i + step
    while 0 <= j < len(rows) and not rows[j].cells[0] and sum(map(bool, rows[j].cells)) >= 2:
        n, j = n + 1, j + step
    return n


def _wrapped_row(above: _Row, row: _Row, filled: list[int]) -> bool:
    """Every cell of a line of two or more goes on from the cell above it, which is filled: a
    row of texts each wrapped over two lines (labels set side by side under a figure's
    pictures, "Purpose, scope," over "and methodology"; an affiliation, "Dept. Environmental
    and" over "Reliability Engineering", in two signature blocks side by side), one row, not
    two.  A cell goes on when the text above breaks off (a comma, a hyphen, a joining word)
    or the line starts with a joining word in lower case; a table's next row starts its own
    texts in at least one of its cells (a row label), so its rows stay apart.  And a text
    above breaks off at its end, or every cell of the line starts with the same joining word
    (side-by-side captions wrapped alike, "for 1-2 years" over "after treatment" in each):
    a table's cells that merely start with such words ("on" over "on Monday" in a table of
    prepositions, "to train staff" beside "in first aid" in a plan) are rows of their own."""
    if len(filled) < 2 or not all(above.cells[c] for c in filled):
        return False
    return all(_breaks_off(above.cells[c], row.cells[c]) for c in filled) \
        and (any(_ends_mid_phrase(above.cells[c]) for c in filled)
             or len({row.cells[c].split()[0] for c in filled}) == 1)


def _split_figures(above: _Row, row: _Row, filled: list[int], rows: list[_Row]) -> bool:
    """Every cell of a line without a row label holds the last digit groups of a figure whose
    first ones end the cell above it: a word processor's narrow cell wraps a figure grouped by
    spaces ("23 612") at its space, "23" over "612", and sets the row's other cells, which fit,
    on its first line alone (issue 32, dense_grid).  The line is set a line's leading under
    the row, its pieces flush with the heads above them, and it fills fewer cells than the
    row holds figures (a cell that fits stays on the first line: "753" or "–" beside "23").  A
    row of its own without a label holds values of its own, seldom three-digit groups alone
    under heads of one to three digits, and fills the row's columns alike; and one of the
    figures, set whole, would not have fitted between the columns beside it (see
    :func:`_wrapped_for_room`: a branch's "102" and "310" under its region's first branch's
    "101" and "450", in columns far apart, are no "101 102" and "450 310")."""
    if not filled or row.cells[0] or not above.cells[0] or not _close(above, row):
        return False
    figures = [c for c in range(1, len(above.cells)) if _is_numeric(above.cells[c])]
    if len(filled) >= len(figures):
        return False
    for c in filled:
        head, tail = above.words.get(c), row.words.get(c)
        if not head or not tail or not GROUP_HEAD.match(above.cells[c]) or not GROUP_TAIL.match(row.cells[c]):
            return False
        # (One cell's lines share its alignment: flush right, flush left or centred.)
        ends = (head[-1].x1 - tail[-1].x1, head[0].x0 - tail[0].x0,
                (head[0].x0 + head[-1].x1 - tail[0].x0 - tail[-1].x1) / 2)
        if min(abs(e) for e in ends) > ALIGNED:
            return False
    return any(_wrapped_for_room(above.words[c], row.words[c], c, rows) for c in filled)


def _wrapped_for_room(head: list[Word], tail: list[Word], c: int, rows: list[_Row]) -> bool:
    """Whether the figure whose pieces are ``head`` over ``tail`` in column ``c``, set whole
    on one line as its cell aligns it, would come within WRAP_ROOM_EM of the nearest text of
    another column on any of the table's lines (``rows``): the cell too narrow for it."""
    size = max(tail[-1].size, 4.0)
    width = (head[-1].x1 - head[0].x0) + SPACE_EM * size + (tail[-1].x1 - tail[0].x0)
    if abs(head[-1].x1 - tail[-1].x1) <= ALIGNED:
        x0, x1 = tail[-1].x1 - width, tail[-1].x1
    elif abs(head[0].x0 - tail[0].x0) <= ALIGNED:
        x0, x1 = head[0].x0, head[0].x0 + width
    else:
        middle = (tail[0].x0 + tail[-1].x1) / 2
        x0, x1 = middle - width / 2, middle + width / 2
    room = WRAP_ROOM_EM * size
    others = [w for r in rows for col, ws in r.words.items() if col != c for w in ws]
    return any(w.x1 > x0 - room and w.x0 < x1 + room for w in others
               if w.x1 <= head[0].x0 or w.x0 >= head[-1].x1)


# Words that join a text to what follows them (a line ending in one, or starting with one in
# lower case, is the middle of a phrase).
JOINING = frozenset({"and", "or", "nor", "but", "of", "for", "to", "in", "on", "at", "by", "with", "from",
                     "into", "than", "after", "before", "per", "the", "a", "an", "&", "und", "et", "y"})


def _breaks_off(upper: str, lower: str) -> bool:
    """Whether ``lower`` is the next line of the text ``upper`` (see :func:`_wrapped_row`);
    a joining word alone ("on" in a table of prepositions) is a whole text."""
    if _is_numeric(lower) or _is_numeric(upper):
        return False
    words = lower.split()
    return _ends_mid_phrase(upper) or len(words) > 1 and words[0] in JOINING


def _ends_mid_phrase(text: str) -> bool:
    """A text of two words or more that stops in the middle of a phrase: its last word ends
    in a comma or a hyphen, or is a joining word ("Dept. Materials and").  (A cell that is a
    joining word alone, "in" in a table of prepositions, is a whole text.)"""
    words = text.split()
    if len(words) < 2:
        return False
    last = words[-1]
    return last.endswith(",") or (last.endswith("-") and last[:-1].isalpha()) or last in JOINING


def _goes_on(above: _Row, row: _Row, filled: list[int]) -> bool:
    """A line of words in one column right of the first, under a row of several cells that
    has that column filled: the next line of a cell wrapped in its column (a description
    beside a parameter's name and type), not a row of its own."""
    if len(filled) != 1 or filled[0] == 0 or not above.cells[filled[0]] or sum(map(bool, above.cells)) < 2:
        return False
    text = row.cells[filled[0]]
    return not _is_numeric(text) and not DATE.match(text) and not NOTE_LABEL.match(text)


def _label_full(above: _Row, row: _Row, reach: float) -> bool:
    """Whether the row label ``above`` ends full, ``row``'s label its next line: the label of
    ``row`` starts flush with the last line of the one above, in its weight, and its first
    word would not have fitted at that line's end short of ``reach`` (the furthest the first
    column's texts reach).  A stub column's label wraps so in a table whose rows are set as
    tight as a cell's lines ("Yorkshire and The" over "Humber"), where no gap tells it from a
    label of its own (a line spaced from the row above by more than its leading is a row); a
    label alone on its row after a row whose label stops short ("Wales" under "Scotland")
    would have fitted and is a row of its own.  Bold labels are left out: a
    total's label, often the column's longest and so full by this measure, stands over a
    section's bold label in accounts ("Total current liabilities" over "Current assets")."""
    upper, lower = above.words.get(0), row.words.get(0)
    if not upper or not lower or 0 in above.spanning or 0 in row.spanning or not _close(above, row):
        # (A label merged over columns, a section's across the table: no stub line; and a cell's
        # next line is set at its leading, closer than a row spaced from the one above.)
        return False
    first = lower[0]
    slack = max(ALIGNED, GLYPH_SLACK * first.size)
    if abs(first.x0 - upper[0].x0) > slack or first.bold or upper[-1].bold:
        return False
    return upper[-1].x1 + WORD_SPACE_EM * first.size + first.x1 - first.x0 > reach - slack


def _stub_wraps(rows: list[_Row], reach: float) -> bool:
    """Whether some row label alone on its row goes on the label above (_label_full) that
    ends short of ``reach``: the stub column shown wrapping at a measure another label sets
    ("of which: Inner" over "London" beside "Yorkshire and The")."""
    for upper, lower in zip(rows, rows[1:], strict=False):
        ws = upper.words.get(0)
        if ws and [c for c, text in enumerate(lower.cells) if text] == [0] and _data_row(upper.cells) \
                and ws[-1].x1 < reach - max(ALIGNED, GLYPH_SLACK * ws[-1].size) \
                and _label_full(upper, lower, reach):
            return True
    return False


def _set_tight(rows: list[_Row], index: int) -> bool:
    """Row ``index`` is set closer under the line above than the rows of several cells are
    apart (a cell's lines are set tighter than the rows)."""
    gaps = [b.top - a.bottom for a, b in zip(rows, rows[1:], strict=False) if sum(map(bool, b.cells)) > 1]
    return bool(gaps) and rows[index].top - rows[index - 1].bottom \
        < statistics.median(gaps) - WRAP_TIGHTER * rows[index].height


def _wraps_on(row: _Row) -> bool:
    """A row of figures whose first cell begins on its line: the cell a line below may go on."""
    return bool(row.cells[0]) and _data_row(row.cells)


def _wrapped_on(rows: list[_Row], index: int) -> bool:
    """Row ``index`` is set closer under the line above than the next line is under it: a
    wrapped cell's next line (its lines are set tighter than the rows are apart), not a
    label of the rows below it."""
    above = rows[index].top - rows[index - 1].bottom
    if index + 1 == len(rows):  # the last line: the rows' usual distance instead
        return _set_tight(rows, index)
    below = rows[index + 1].top - rows[index].bottom
    return above < below - WRAP_TIGHTER * rows[index].height


def _broken_at_edge(upper: _Row, lower: _Row, c: int, edges: ColumnEdges) -> bool:
    """Whether the last line of ``upper``'s cell in column ``c`` holds one word, broken where
    the cell ends, that goes on as ``lower``'s line there (see extractors.pdf_broken_words)."""
    above, below = upper.words.get(c), lower.words.get(c)
    if not above or len(above) != 1 or not below or len(below) != 1:
        return False
    if plural_end_set_right(above[0], below[0]):
        # (Not on a line of units: "Duration" over "s" beside "Load" over "kN", each heading's
        # unit under it; Word's plural broken in its narrow cell stands alone on its line.)
        return not any(_unit_piece(words) for col, words in lower.words.items() if col != c)
    inner = edges.inner(c, (above[0], below[0]))
    return inner is not None and broken_at_edge(above[0], below[0], *inner)


def _unit_piece(words: list[Word]) -> bool:
    """Whether a cell's line is a unit alone under its heading (see :func:`unit_alone`)."""
    return len(words) == 1 and unit_alone(words[0].text)


def unit_alone(text: str) -> bool:
    """Whether a heading's line of one word is a unit: at most three characters but figures
    ("kN", "MB", "m/s", "%").  (Not a bracketed one: Word wraps "Turnover (£m)" in a narrow
    column as it wraps "Employees".)"""
    return len(text) <= 3 and not _is_numeric(text) and not text.startswith("(")


def _merge_header_cells(header: list[_Row], edges: ColumnEdges) -> None:
    """Join a header cell to the one right above it in its column when the lines are close,
    the upper cell does not span columns (a spanning heading stands over sub-headings) and
    the lower line is not a row label standing alone (a section title above the data)."""
    for r in range(len(header) - 1, 0, -1):
        lower = header[r]
        if [i for i, c in enumerate(lower.cells) if c] == [0] or _unit_row(lower):
            continue
        for c, text in enumerate(lower.cells):
            above = _cell_above(header, r, c)
            if not text or above is None or c in lower.spanning:
                continue
            upper = header[above]
            if c in upper.spanning or not _close(upper, lower):
                continue
            broken = _broken_at_edge(upper, lower, c, edges) or _word_goes_on(header, r, c)
            upper.cells[c] = broken_joined(upper.cells[c], text, at_edge=broken)
            lower.cells[c] = ""
        _raise_bottom_aligned(header[r - 1], lower)


def _word_goes_on(header: list[_Row], r: int, c: int) -> bool:
    """Whether the word alone on header line ``r - 1`` in column ``c`` goes on as the first
    word of line ``r`` there, told from the lines' own words (the text joined under it so far
    may hold more lines: "nou" and "t %" under "Tur"): the word's end alone on its line
    (broken_joined's rule) where the text under it is that line's alone or goes on it as a
    word broken twice, or a word broken twice, its middle piece as wide as its first
    (broken_again: "Tur" over "nou" over "t %", Word's "Turnout %" in a cell three letters
    wide).  (A short line that goes on as words, "yoy" over "%" under "Growth", or "dev" over
    "(mm)" under "Std", is no broken word's end: "Growth yoy %", not "Growthyoy %".)"""
    upper, lower = header[r - 1].words.get(c), header[r].words.get(c)
    if not upper or not lower or len(upper) != 1:
        return False
    if len(lower) == 1 and _unspaced(upper[0], lower[0]):
        return header[r].cells[c] == lower[0].text or r + 1 < len(header) and _broken_twice(header, r + 1, c)
    return _broken_twice(header, r, c)


def _unspaced(head: Word, tail: Word) -> bool:
    """Whether ``tail``, alone on its line, is the end of ``head`` broken alone on the line
    above it (broken_joined's rule)."""
    return broken_joined(head.text, tail.text, alone=True) == head.text + tail.text


def _broken_twice(header: list[_Row], r: int, c: int) -> bool:
    """Whether header lines ``r - 2``, ``r - 1`` and ``r`` in column ``c`` hold one word broken
    twice (see broken_again), its first two pieces alone on their lines."""
    upper, lower = header[r - 1].words.get(c), header[r].words.get(c)
    first = header[r - 2].words.get(c) if r >= 2 else None
    if not upper or not lower or len(upper) != 1 or not first or len(first) != 1 \
            or header[r - 2].cells[c] != first[0].text:
        return False
    return _close(header[r - 2], header[r - 1]) and _unspaced(first[0], upper[0]) \
        and broken_again(first[0], upper[0], lower[0], lower[-1].x1 - lower[0].x0)


def _raise_centred_stub(header: list[_Row]) -> None:
    """The row labels' heading ("Region") alone in its column on a middle line of a header of
    three lines or more, the lines above and below it holding none: a cell spanning the
    header's lines, set centred down them (a browser's rowspan), so its text goes to the
    top line (a spanning cell's text in its first slot)."""
    stubs = [r for r, row in enumerate(header) if row.cells[0]]
    if len(header) >= 3 and len(stubs) == 1 and 0 < stubs[0] < len(header) - 1:
        header[0].cells[0], header[stubs[0]].cells[0] = header[stubs[0]].cells[0], ""
    # So is one read with the header's last line but standing higher than its headings, half
    # way up to the line of group headings over them ("Journey" centred down a browser's two
    # header rows, "Zone 1" over "Central", "Market Sq"): its cell spans both.
    elif len(header) >= 2 and stubs == [len(header) - 1] and _centred_between(header[-2], header[-1]):
        header[0].cells[0], header[-1].cells[0] = header[-1].cells[0], ""


def _centred_between(upper: _Row, lower: _Row) -> bool:
    """Whether the lower header line's first cell stands between the two lines: its middle a
    quarter of a line or more above the middle of the line's other cells, and below the upper
    line's middle (a spanning cell centred down its rows; set on the line's foot, as a
    sheet's cells are, it says nothing)."""
    def middle(words: list[Word]) -> float:
        return statistics.median((w.top + w.bottom) / 2 for w in words)

    stub = lower.words.get(0)
    others = [w for c, ws in lower.words.items() if c for w in ws]
    above = [w for ws in upper.words.values() for w in ws]
    if not stub or not others or not above:
        return False
    height = statistics.median(w.bottom - w.top for w in others)
    # (Its foot too: a larger heading on the line's baseline has a higher middle.)
    return middle(above) < middle(stub) <= middle(others) - 0.25 * height \
        and max(w.bottom for w in stub) <= statistics.median(w.bottom for w in others) - 0.25 * height


def _unit_row(row: _Row) -> bool:
    """A header line of units: a unit ("£m", "%") in each of two or more columns and nothing
    else, its row label empty (one unit throughout, or several: "thousands" over counts and
    "%" over their rates).  A spreadsheet sets it in a row of its own under the
    column headings, as close under them as a cell's wrapped line (Calc's rows are as tall as
    their text): its own header row, not the second line of each heading ("2019/20 £m")."""
    filled = [text for text in row.cells if text]
    return not row.cells[0] and len(filled) >= 2 and all(UNIT.match(text) for text in filled)


def _raise_bottom_aligned(upper: _Row, lower: _Row) -> None:
    """One-line header cells set on a two-line header's bottom line ("Notes" beside "2023"
    over "£m") join the line above when no cell of it is left under a filled one: they are
    the same header row, aligned to its foot.  Their words and extents go up with them: a
    header line above may still join them (a word broken at the cell's edge is told by its
    words)."""
    left = [c for c, text in enumerate(lower.cells) if text]
    if not left or any(upper.cells[c] or c in upper.spanning for c in left) \
            or not any(upper.cells) or not _close(upper, lower):
        return
    for c in left:
        upper.cells[c], lower.cells[c] = lower.cells[c], ""
        if c in lower.words:
            upper.words[c] = lower.words.pop(c)
        if c in lower.extents:
            upper.extents[c] = lower.extents.pop(c)


def _close(upper: _Row, lower: _Row) -> bool:
    """Two header lines set as one cell's lines: the gap between them under 0.6 of a line."""
    return lower.top - upper.bottom <= 0.6 * (lower.bottom - lower.top)


def _cell_above(header: list[_Row], r: int, c: int) -> int | None:
    """The row right above ``r`` when its cell in column ``c`` is filled."""
    return r - 1 if header[r - 1].cells[c] else None


def _data_row(cells: list[str], times: bool = True) -> bool:
    """Most of the cells right of the first hold a figure or a date (a column of dates is
    data like one of amounts, never the headings), or a time of day unless ``times`` is
    false."""
    values = [c for c in cells[1:] if c]
    # (A timetable's times of day are its data too, "06:15" at each stop.)
    figures = sum(_is_numeric(c) or bool(DATE.match(c.strip()) or times and TIME.match(c.strip()))
                  for c in values)
    return bool(values) and figures >= max(1, len(values) // 2 + 1)


def _first_data(rows: list[tuple[bool, bool, bool]]) -> int:
    """The index of the first row of figures (0 when there is none), of rows given as (holds
    figures, its figures are all years, holds words right of its first cell): a row of years
    followed by a row of words is a heading of years over sub-headings, and one followed by
    figures that are not all years is the column headings ("Region 2016 2017 2018" over
    amounts; a column of years in the body makes every row's figures not all years, and rows
    of years alone stay data).  A row of years over a row of years and words over figures
    that are not years is a heading of years too ("2018" and "2024" each over "2022 2023
    Change"): the lower row is the column headings."""
    for i, (data, years, _) in enumerate(rows):
        over_headings = i + 2 < len(rows) and rows[i + 1][1] and rows[i + 1][2] \
            and rows[i + 2][0] and not rows[i + 2][1]
        if data and not (years and i + 1 < len(rows) and (not rows[i + 1][1] or over_headings)):
            return i
    return 0


def _years(texts: list[str]) -> bool:
    figures = [t for t in texts if _is_numeric(t)]
    return bool(figures) and all(YEAR.match(t.strip()) for t in figures)


def _row_kinds(rows: list[_Row]) -> list[tuple[bool, bool, bool]]:
    # Years by word: a header's years may share a cell before the header is placed ("2016
    # 2017" left of right-aligned figures).
    # A row of times is data over a row holding times too (a timetable's journeys), not over
    # rows without any (shifts' start times under their names, over the staff on each).
    timed = [any(_clock(t) for c in row.cells for t in c.split()) for row in rows]
    return [(_data_row(row.cells, i + 1 == len(rows) or timed[i + 1]),
             _years(texts := [t for c in row.cells[1:] for t in c.split()]),
             any(not _is_numeric(t) for t in texts)) for i, row in enumerate(rows)]
