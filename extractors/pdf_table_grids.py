"""Ruled tables of one PDF page (:func:`ruled_tables`), for :mod:`extractors.pdf_tables`.

The idea of tabula's spreadsheet mode, camelot's lattice and pdfplumber's "lines" strategy:
horizontal and vertical rulings are snapped and joined, rulings that cross make connected
groups, each group with at least two of each is a grid whose cells are the minimal rectangles; a
missing ruling between two grid slots makes them one spanning cell, and text set on its side in
a cell (column headings turned upwards over narrow columns of ticks) is that cell's text.  Grids
are often incomplete, so: rules closer than a line of text are one (padded shading boxes), row
rules running past the outer column rule add an open side (the row-label column), a grid row
whose columns hold several lines of numbers is split into text lines, and a grid that still
looks under-segmented is read by text alignment instead.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from extractors.pdf_bidi import line_text
from extractors.pdf_broken_words import broken_at_edge, broken_joined
from extractors.pdf_table_lines import _lines
from extractors.pdf_table_model import (
    MAX_GRID_SLOTS,
    MAX_RULINGS,
    FoundTable,
    _drop_empty,
    _filled_share,
    _is_numeric,
)
from extractors.pdf_words import Box, PageLayout, Ruling, Word
from extractors.tables import cells_to_markdown

T = TypeVar("T")
# Rulings closer than this (points) are one line; shorter gaps along a line are joined.
SNAP = 3.0
JOIN = 3.0
# How far short of a horizontal rule a column rule may stop and still meet it: LaTeX's booktabs
# pads its rules (\aboverulesep 0.4ex, \belowrulesep 0.65ex: up to 3.5 points at 12-point type,
# half the rule's width added), so a tabular's '|' column rules stop that far from every rule.
RULE_PADDING = 4.5
# Grid lines closer than these (points) bound no text: they are one grid line.
MIN_CELL_WIDTH = 7.0
MIN_CELL_HEIGHT = 4.0
# Ruled boxes of at most two rows holding this many words each (median), the frame at least
# this share of its page tall, frame a page's text columns, not a table's cells (see
# :func:`_framed_columns`).
FRAMED_WORDS = 40
FRAMED_PAGE = 0.5
# A ruled grid that pictures cover this share of or more may be a frame of photographs and
# their captions (a booklet's four photos cover 0.61 of theirs; a dashboard's sparklines, one
# over each cell's figure, about a quarter), which hold at most this many texts per picture
# (a title, a caption, a credit): see _picture_grid.
PICTURE_GRID = 0.45
CAPTIONS_PER_PICTURE = 3
# A ruling shorter than this is a glyph stroke or a tick, not part of a grid.
MIN_RULING = 4.0


@dataclass
class _Segment:
    """A merged ruling: ``at`` is its y (horizontal) or x (vertical), ``start``/``end`` its extent."""

    at: float
    start: float
    end: float


def ruled_tables(layout: PageLayout) -> list[FoundTable]:
    """The page's grids; its turned words (text set at an angle) standing in a grid's cell
    are that cell's text too."""
    horizontal, vertical = _merged_rulings(layout.rulings)
    if len(horizontal) + len(vertical) > MAX_RULINGS:
        return []
    tables = []
    pages = layout.stacked or [(0.0, layout.height)]
    for hs, vs in _connected_grids(horizontal, vertical):
        table = _grid_table(hs, vs, layout.words, layout.turned, pages, layout.pictures)
        if table is not None:
            tables.append(table)
    return tables


def _merged_rulings(rulings: list[Ruling]) -> tuple[list[_Segment], list[_Segment]]:
    hs, vs = [], []
    for r in rulings:
        if r.horizontal and r.x1 - r.x0 >= MIN_RULING:
            hs.append(_Segment((r.top + r.bottom) / 2, r.x0, r.x1))
        elif not r.horizontal and r.bottom - r.top >= MIN_RULING:
            vs.append(_Segment((r.x0 + r.x1) / 2, r.top, r.bottom))
    return _merge(hs), _merge(vs)


def _merge(segments: list[_Segment]) -> list[_Segment]:
    """Snap segments on (almost) the same line together and join those that touch."""
    merged: list[_Segment] = []
    for group in _clusters(sorted(segments, key=lambda s: s.at), key=lambda s: s.at, tolerance=SNAP):
        at = statistics.median(s.at for s in group)
        current: _Segment | None = None
        for s in sorted(group, key=lambda s: s.start):
            if current is not None and s.start <= current.end + JOIN:
                current.end = max(current.end, s.end)
            else:
                current = _Segment(at, s.start, s.end)
                merged.append(current)
    return merged


def _clusters(items: list[T], key: Callable[[T], float], tolerance: float) -> list[list[T]]:
    """Runs of sorted items whose keys are within tolerance of their neighbour."""
    groups: list[list[T]] = []
    for item in items:
        if groups and key(item) - key(groups[-1][-1]) <= tolerance:
            groups[-1].append(item)
        else:
            groups.append([item])
    return groups


def _crosses(h: _Segment, v: _Segment) -> bool:
    return h.start - SNAP <= v.at <= h.end + SNAP and v.start - SNAP <= h.at <= v.end + SNAP


def _padded_ends(hs: list[_Segment], v: _Segment) -> list[int]:
    """The horizontal rules (by index) a column rule stops short of by up to RULE_PADDING,
    at an end that meets no rule: the nearest above its top, the nearest below its bottom (a
    tabular's '|' between booktabs rules).  An end that meets a rule already (the side of a
    shaded title band, whose own edge closes it) is not carried on to the next."""
    found = []
    across = [i for i, h in enumerate(hs) if h.start - SNAP <= v.at <= h.end + SNAP]
    for end, sign in ((v.start, -1), (v.end, 1)):
        if any(abs(hs[i].at - end) <= SNAP for i in across):
            continue
        beyond = [i for i in across if 0 < sign * (hs[i].at - end) <= RULE_PADDING]
        if beyond:
            found.append(min(beyond, key=lambda i: abs(hs[i].at - end)))
    return found


def _connected_grids(hs: list[_Segment], vs: list[_Segment]) -> list[tuple[list[_Segment], list[_Segment]]]:
    """Groups of rulings connected by crossings, with at least two rulings each way."""
    parent = list(range(len(hs) + len(vs)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, h in enumerate(hs):
        for j, v in enumerate(vs):
            if _crosses(h, v):
                parent[root(i)] = root(len(hs) + j)
    for j, v in enumerate(vs):
        for i in _padded_ends(hs, v):
            parent[root(i)] = root(len(hs) + j)
    groups: dict[int, tuple[list[_Segment], list[_Segment]]] = {}
    for i, h in enumerate(hs):
        groups.setdefault(root(i), ([], []))[0].append(h)
    for j, v in enumerate(vs):
        groups.setdefault(root(len(hs) + j), ([], []))[1].append(v)
    return [(h, v) for h, v in groups.values() if len(h) >= 2 and len(v) >= 2]


def _positions(segments: list[_Segment], min_gap: float) -> list[float]:
    """Grid lines: rulings on one line snapped; of two closer than ``min_gap`` (a padded
    shading box inside a cell, a double rule) only the longer one stays, as no text fits
    between them."""
    groups = _clusters(sorted(segments, key=lambda s: s.at), key=lambda s: s.at, tolerance=SNAP)
    lines = [(statistics.mean(s.at for s in g), sum(s.end - s.start for s in g)) for g in groups]
    kept: list[tuple[float, float]] = []
    for at, length in lines:
        if kept and at - kept[-1][0] < min_gap:
            if length > kept[-1][1]:
                kept[-1] = (at, length)
            continue
        kept.append((at, length))
    return [at for at, _ in kept]


def _covered(segments: list[_Segment], at: float, start: float, end: float) -> bool:
    """Whether a ruling at ``at`` covers most of [start, end]."""
    span = end - start
    cover = sum(max(0.0, min(s.end, end) - max(s.start, start)) for s in segments
                if abs(s.at - at) <= MIN_CELL_WIDTH)
    return cover >= 0.5 * span


def _grid_table(hs: list[_Segment], vs: list[_Segment], words: list[Word],
                turned: list[Word], pages: list[tuple[float, float]] | None = None,
                pictures: list[Box] | None = None) -> FoundTable | None:
    """The grid's table; ``pages`` are the (top, bottom) of the layout's pages (a spread's
    halves), for :func:`_framed_columns`; ``pictures`` the page's, for :func:`_picture_grid`."""
    xs, ys = _positions(vs, MIN_CELL_WIDTH), _positions(hs, MIN_CELL_HEIGHT)
    if len(xs) < 2 or len(ys) < 2:
        return None
    if len(xs) * len(ys) > MAX_GRID_SLOTS:
        return None
    vs = vs + _open_sides(hs, xs, ys, words)
    xs = _positions(vs, MIN_CELL_WIDTH)
    hs = hs + _unruled_rows(xs, ys, words)
    ys = _positions(hs, MIN_CELL_HEIGHT)
    if len(xs) * len(ys) > MAX_GRID_SLOTS:
        return None
    rows, cols = len(ys) - 1, len(xs) - 1
    owner = _spanning_owners(hs, vs, xs, ys, words)
    texts: dict[tuple[int, int], list[Word]] = {}
    for w in words:
        cx, cy = (w.x0 + w.x1) / 2, (w.top + w.bottom) / 2
        if not (xs[0] <= cx <= xs[-1] and ys[0] <= cy <= ys[-1]):
            continue
        col = max(0, min(cols - 1, _index(xs, cx)))
        row = max(0, min(rows - 1, _index(ys, cy)))
        texts.setdefault(owner[(row, col)], []).append(w)
    cells = [["" for _ in range(cols)] for _ in range(rows)]
    # A cell's inner edges, for a word broken where it ends: its rules less the padding, the
    # least any text stands off its cell's left rule (as much on the right; text over the rule
    # is set apart from it).
    rights: dict[tuple[int, int], float] = {}
    for slot, root in owner.items():
        rights[root] = max(rights.get(root, xs[0]), xs[slot[1] + 1])
    padding = min((w.x0 - xs[col] for (_, col), ws in texts.items() for w in ws if w.x0 >= xs[col]),
                  default=0.0)
    for (row, col), ws in texts.items():
        cells[row][col] = _join_words(ws, (xs[col] + padding, rights[(row, col)] - padding))
    taken = _turned_cells(turned, xs, ys, owner, cells)
    if pictures and _picture_grid(xs, ys, pictures, cells):
        return None
    cells = _drop_empty(cells)
    if len(cells) < 2 or len(cells[0]) < 2 or _filled_share(cells) < 0.3 or _boxed_prose(cells) \
            or not _read_down(cells) or _framed_columns(cells, ys, pages):
        return None
    return FoundTable(xs[0], ys[0], xs[-1], ys[-1], cells, cells_to_markdown(cells), ruled=True,
                      turned=tuple(taken))


def _picture_grid(xs: list[float], ys: list[float], pictures: list[Box], cells: list[list[str]]) -> bool:
    """A ruled grid of photographs with their captions (a booklet's "Types of surgery": four
    photos in a two-by-two frame, a title and a caption by each): pictures cover PICTURE_GRID
    of the grid or more, stand in two rows and two columns of it or more, stand in every
    column that holds text (a caption is under its picture), and the grid holds at most
    CAPTIONS_PER_PICTURE texts for each.  A table with pictures in it keeps them to one column
    (a catalogue's thumbnails beside names and prices) or one row (a comparison's photos over
    rows of figures), or has more texts than its pictures have captions."""
    inside = [(max(x0, xs[0]), max(top, ys[0]), min(x1, xs[-1]), min(bottom, ys[-1]))
              for x0, top, x1, bottom in pictures]
    inside = [box for box in inside if box[2] > box[0] and box[3] > box[1]]
    area = (xs[-1] - xs[0]) * (ys[-1] - ys[0])
    if not inside or area <= 0 or sum((b[2] - b[0]) * (b[3] - b[1]) for b in inside) < PICTURE_GRID * area:
        return False
    rows = {_index(ys, (b[1] + b[3]) / 2) for b in inside}
    columns = {c for c in range(len(xs) - 1)
               if any(b[0] <= (xs[c] + xs[c + 1]) / 2 <= b[2] for b in inside)}
    texts = [(c, text) for row in cells for c, text in enumerate(row) if text.strip()]
    return len(rows) >= 2 and len(columns) >= 2 and all(c in columns for c, _ in texts) \
        and len(texts) <= CAPTIONS_PER_PICTURE * len(inside)


def _turned_cells(turned: list[Word], xs: list[float], ys: list[float],
                  owner: dict[tuple[int, int], tuple[int, int]], cells: list[list[str]]) -> list[Word]:
    """Words set on their side inside the grid (narrow columns of ticks headed by turned
    titles, "QIBM_DB_SECADM" read upwards) added to the cells they stand in, wholly (a
    watermark set across the table is no cell's text); the words taken.  Their boxes are
    tall, not lines: a cell's words keep the page's reading order (the order they are given
    in), which runs along the turned line."""
    rows, cols = len(ys) - 1, len(xs) - 1

    def cell(x: float, y: float) -> tuple[int, int]:
        return owner[(max(0, min(rows - 1, _index(ys, y))), max(0, min(cols - 1, _index(xs, x))))]

    placed: dict[tuple[int, int], list[Word]] = {}
    for w in turned:
        if not (xs[0] <= w.x0 and w.x1 <= xs[-1] and ys[0] <= w.top and w.bottom <= ys[-1]):
            continue
        slot = cell(w.x0 + 0.5, w.top + 0.5)
        if cell(w.x1 - 0.5, w.bottom - 0.5) == slot:
            placed.setdefault(slot, []).append(w)
    for (row, col), ws in placed.items():
        cells[row][col] = " ".join([cells[row][col], *(w.text for w in ws)]).strip()
    return [w for ws in placed.values() for w in ws]


def _boxed_prose(cells: list[list[str]]) -> bool:
    """A framed or shaded text box: most rows hold one long run of words (a table row of text
    has its other cells filled too)."""
    per_row = [sum(1 for c in row if c.strip()) for row in cells]
    texts = [c for row in cells for c in row if c.strip()]
    return statistics.median(per_row) < 1.5 and statistics.median(len(c.split()) for c in texts) >= 6


def _read_down(cells: list[list[str]]) -> bool:
    """Some column holds text in two rows or more: a grid whose every column has one text
    (labels set at the ends of a diagram's lines, each in a slot of its own) is read nowhere
    down, so it is no table."""
    return any(sum(1 for row in cells if row[c].strip()) >= 2 for c in range(len(cells[0])))


def _framed_columns(cells: list[list[str]], ys: list[float], pages: list[tuple[float, float]] | None) -> bool:
    """A page laid out in ruled boxes: at most two rows, their texts a median of FRAMED_WORDS
    words or more each (two columns of a course outline in one frame, its lists and
    paragraphs in each box), the frame at least FRAMED_PAGE of its page's height.  A table's
    cells, long descriptions included, are shorter, or it has more rows; a box of a few long
    texts within the page (a SWOT matrix's four quarters, a comparison of two options) is a
    table."""
    texts = [c for row in cells for c in row if c.strip()]
    if len(cells) > 2 or statistics.median(len(c.split()) for c in texts) < FRAMED_WORDS:
        return False
    page = next(((top, bottom) for top, bottom in pages or [] if top <= ys[0] < bottom), None)
    return page is None or ys[-1] - ys[0] >= FRAMED_PAGE * (page[1] - page[0])


def _open_sides(hs: list[_Segment], xs: list[float], ys: list[float],
                words: list[Word]) -> list[_Segment]:
    """Virtual outer verticals where the row rules run on past the outermost column rule
    (tables without a left or right border, often the column of row labels)."""
    extra = []
    left, right = min(h.start for h in hs), max(h.end for h in hs)
    for edge, inner in ((left, xs[0]), (right, xs[-1])):
        lo, hi = min(edge, inner), max(edge, inner)
        if hi - lo >= MIN_CELL_WIDTH and any(lo <= (w.x0 + w.x1) / 2 <= hi and ys[0] <= w.top <= ys[-1]
                                             for w in words):
            extra.append(_Segment(edge, ys[0], ys[-1]))
    return extra


def _unruled_rows(xs: list[float], ys: list[float], words: list[Word]) -> list[_Segment]:
    """Virtual row rules inside a grid row whose columns hold several aligned text lines each
    (column rules, but no rules between the rows of numbers): mostly numbers, at least
    three lines in at least two columns."""
    extra = []
    for top, bottom in zip(ys, ys[1:], strict=False):
        band = [w for w in words if top <= (w.top + w.bottom) / 2 <= bottom and xs[0] <= w.x0 <= xs[-1]]
        lines = _lines(band)
        if len(lines) < 3:
            continue
        per_column = [sum(1 for line in lines if any(a <= (w.x0 + w.x1) / 2 < b for w in line.words))
                      for a, b in zip(xs, xs[1:], strict=False)]
        numbers = sum(_is_numeric(w.text) for w in band)
        if sum(1 for n in per_column if n >= 3) < 2 or numbers < 0.4 * len(band):
            continue  # wrapped text in a ruled row stays one cell; stacked numbers are rows
        for upper, lower in zip(lines, lines[1:], strict=False):
            extra.append(_Segment((upper.bottom + lower.top) / 2, xs[0], xs[-1]))
    return extra


def _index(bounds: list[float], value: float) -> int:
    for i in range(len(bounds) - 1):
        if value < bounds[i + 1]:
            return i
    return len(bounds) - 2


def _spanning_owners(hs: list[_Segment], vs: list[_Segment], xs: list[float], ys: list[float],
                     words: list[Word]) -> dict[tuple[int, int], tuple[int, int]]:
    """Each grid slot's cell (its top-left slot): slots with no ruling between them are one,
    except side by side slots whose texts stand clearly apart at the missing rule (a shaded
    row without column rules is still a row of separate cells; a line of prose is not)."""
    rows, cols = len(ys) - 1, len(xs) - 1
    parent = {(r, c): (r, c) for r in range(rows) for c in range(cols)}
    apart = _text_gaps(xs, ys, words, lambda c, r: _covered(vs, xs[c], ys[r], ys[r + 1]))

    def root(slot: tuple[int, int]) -> tuple[int, int]:
        while parent[slot] != slot:
            slot = parent[slot]
        return slot

    def union(a: tuple[int, int], b: tuple[int, int]) -> None:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    for r in range(rows):
        for c in range(cols - 1):
            if (r, c + 1) not in apart and not _covered(vs, xs[c + 1], ys[r], ys[r + 1]):
                union((r, c), (r, c + 1))
    for r in range(rows - 1):
        for c in range(cols):
            if not _covered(hs, ys[r + 1], xs[c], xs[c + 1]):
                union((r, c), (r + 1, c))
    return {slot: root(slot) for slot in parent}


def _text_gaps(xs: list[float], ys: list[float], words: list[Word],
               ruled: Callable[[int, int], bool]) -> set[tuple[int, int]]:
    """(row, boundary index) where the text nearest the grid line on both sides is more than a
    word space apart (half the font size) and no word reaches over it.  Text beyond a drawn
    rule (`ruled(boundary, row)`) is another cell's: a label centred in a cell spanning
    several columns has no text beside it up to the span's rules, and is one cell with the
    empty slots of its span, not apart from them."""
    rows = len(ys) - 1
    by_row: dict[int, list[Word]] = {}
    for w in words:
        cx, cy = (w.x0 + w.x1) / 2, (w.top + w.bottom) / 2
        if xs[0] <= cx <= xs[-1] and ys[0] <= cy <= ys[-1]:
            by_row.setdefault(max(0, min(rows - 1, _index(ys, cy))), []).append(w)
    apart = set()
    for r, ws in by_row.items():
        for c in range(1, len(xs) - 1):
            left = [w for w in ws if w.x1 <= xs[c]]
            right = [w for w in ws if w.x0 >= xs[c]]
            if not left or not right or any(w.x0 < xs[c] < w.x1 for w in ws):
                continue
            near_left, near_right = max(left, key=lambda w: w.x1), min(right, key=lambda w: w.x0)
            between = range(_index(xs, near_left.x1 - 0.5) + 1, _index(xs, near_right.x0 + 0.5) + 1)
            if any(b != c and ruled(b, r) for b in between):
                continue
            if near_right.x0 - near_left.x1 >= 0.5 * max(near_left.size, near_right.size, 4.0):
                apart.add((r, c))
    return apart


def _join_words(words: list[Word], inner: tuple[float, float]) -> str:
    """A ruled cell's text, its lines in turn (a word broken over them whole again; ``inner``:
    the cell's inner left and right edges)."""
    text, alone = "", None  # (alone: the word of the line before, when it holds one)
    for line in _lines(words):
        piece = line_text([w.text for w in line.words])
        if text:
            broken = alone is not None and len(line.words) == 1 \
                and broken_at_edge(alone, line.words[0], *inner)
            text = broken_joined(text, piece, alone is not None, broken)
        else:
            text = piece
        alone = line.words[0] if len(line.words) == 1 else None
    return text
