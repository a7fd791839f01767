"""Tables of one PDF page from its positioned words and ruling lines: ruled tables from ruling
lines, unruled ones from text alignment.

Ruled tables (the idea of tabula's spreadsheet mode, camelot's lattice and pdfplumber's
"lines" strategy): horizontal and vertical rulings are snapped and joined, rulings that cross
make connected groups, each group with at least two of each is a grid whose cells are the
minimal rectangles; a missing ruling between two grid slots makes them one spanning cell.
Grids are often incomplete, so: rules closer than a line of text are one (padded shading
boxes), row rules running past the outer column rule add an open side (the row-label column),
a grid row whose columns hold several lines of numbers is split into text lines, and a grid
that still looks under-segmented is read by text alignment instead.

Unruled tables (in the spirit of camelot's stream mode and Nurminen's text-edge analysis):
words become lines, a line splits into segments where the gap between two words is wide (or
between two numbers), and a run of at least three such lines is a candidate (captions,
"Source:" lines and list items end it).  Its columns are the whitespace gaps that (almost) no
line of numbers crosses, so left-, right- and centre-aligned columns all work; a text that
reaches over a gap is a spanning cell, header lines wrapped in one column become one cell,
lower-case continuation lines join the row above.  Candidates that are two-column prose (long
runs of words per cell; a prose column beside a table is cut away), a bullet list (a first
column of list markers) or vertical margin text are refused: the structure stage drops the
words of every table region from its paragraphs, so a false table loses text shape.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar

from extractors.pdf_bidi import line_text
from extractors.pdf_words import PageLayout, Ruling, Word

T = TypeVar("T")


@dataclass
class FoundTable:
    """A table region on a page and its cells (rows of strings; the first row is the header
    when the table has one; a spanning cell's text is in its first cell, the others "")."""

    x0: float
    top: float
    x1: float
    bottom: float
    cells: list[list[str]]
    markdown: str
    ruled: bool = False  # found from ruling lines (else from text alignment)
    header_rows: int = 1  # rows above the first data row (after wrapped headings are joined)


# Rulings closer than this (points) are one line; shorter gaps along a line are joined.
SNAP = 3.0
JOIN = 3.0
# Grid lines closer than these (points) bound no text: they are one grid line.
MIN_CELL_WIDTH = 7.0
MIN_CELL_HEIGHT = 4.0
# A ruling shorter than this is a glyph stroke or a tick, not part of a grid.
MIN_RULING = 4.0
# Inter-word gap, in font sizes, that separates two cells of an unruled table.
CELL_GAP_EM = 0.75
# Inside a candidate, a gap between lines larger than this many median line pitches ends it.
MAX_LINE_GAP = 2.6
# Prose guard: cells of at most this many words (median) can make an unruled table.
MAX_MEDIAN_WORDS = 4.0
LIST_MARKER = re.compile(r"^([\u2022\u25aa\u25cf\u25e6\u2023\u2043\u2219\u00b7*\-\u2013\u2014o>]|"
                         r"\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|\(?[ivxIVX]{1,5}[.)])$")
# A caption or source line under or over a table ("Table 10:", "Source:"): not a row.
CAPTION = re.compile(r"^((table|tab\.|figure|fig\.|chart|exhibit)\s+[\dA-Z][\w.-]*[:.]?(\s|$)|"
                     r"(sources?|notes?)\s*:)", re.IGNORECASE)
NUMERIC = re.compile(r"^[(\[]?[-+\u2212\u2013$€£%]?\s?\d[\d.,\s]*[%)\]*]?$|^[-\u2013\u2014.…]+$|^n/?a$",
                     re.IGNORECASE)


# Work bounds per page (the finder is quadratic in places): a page with more words than this
# gets no tables, more merged rulings than this no ruled tables, and a grid with more slots
# than this is skipped.  Real tables stay far below them (ICDAR's largest page: ~1,500 words).
MAX_WORDS = 20_000
MAX_RULINGS = 3_000
MAX_GRID_SLOTS = 40_000


def find_tables(layout: PageLayout) -> list[FoundTable]:
    """The tables on the page, top to bottom."""
    if len(layout.words) > MAX_WORDS:
        return []
    tables = [_better_by_alignment(t, layout.words) for t in ruled_tables(layout)]
    free = [w for w in layout.words if not any(_inside(w, t) for t in tables)]
    tables += unruled_tables(free, blocked=tables)
    return sorted(tables, key=lambda t: (t.top, t.x0))


def _better_by_alignment(table: FoundTable, words: list[Word]) -> FoundTable:
    """A ruled grid, or the text-alignment reading of its words when the grid looks
    under-segmented (fewer columns than the text shows, or boxes holding several numbers:
    rules that box only the header, grid columns that hold sub-columns) and the reading
    finds clearly more cells.  Wrapped text in boxed cells keeps the grid."""
    inside = [w for w in words if _inside(w, table)]
    candidates = [t for t in unruled_tables(inside) if t.cells]
    if not candidates:
        return table
    best = max(candidates, key=lambda t: _filled(t.cells))
    covered = sum(1 for w in inside if _inside(w, best))
    undersegmented = len(best.cells[0]) > len(table.cells[0]) or _stacked_numbers(table.cells) >= 0.2
    more = _filled(best.cells) > 1.3 * _filled(table.cells)
    if undersegmented and more and covered >= 0.8 * len(inside):
        return FoundTable(table.x0, table.top, table.x1, table.bottom, best.cells, best.markdown,
                          ruled=True, header_rows=best.header_rows)
    return table


def _stacked_numbers(cells: list[list[str]]) -> float:
    """Share of filled cells holding two or more numbers: several table cells in one box."""
    texts = [c for row in cells for c in row if c.strip()]
    return sum(sum(_is_numeric(t) for t in c.split()) >= 2 for c in texts) / len(texts) if texts else 0.0


def _filled(cells: list[list[str]]) -> int:
    return sum(1 for row in cells for c in row if c.strip())


def to_markdown(cells: list[list[str]]) -> str:
    """A pipe table: the first row as header, a separator, one line per further row."""
    if not cells:
        return ""
    width = max(len(row) for row in cells)

    def line(row: list[str]) -> str:
        padded = [_cell_text(c) for c in row] + [""] * (width - len(row))
        return "| " + " | ".join(padded) + " |"

    out = [line(cells[0]), "| " + " | ".join(["---"] * width) + " |"]
    out += [line(row) for row in cells[1:]]
    return "\n".join(out)


def _cell_text(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _inside(word: Word, table: FoundTable) -> bool:
    cx, cy = (word.x0 + word.x1) / 2, (word.top + word.bottom) / 2
    return table.x0 - 1 <= cx <= table.x1 + 1 and table.top - 1 <= cy <= table.bottom + 1


# ---------------------------------------------------------------- ruled tables

@dataclass
class _Segment:
    """A merged ruling: ``at`` is its y (horizontal) or x (vertical), ``start``/``end`` its extent."""

    at: float
    start: float
    end: float


def ruled_tables(layout: PageLayout) -> list[FoundTable]:
    horizontal, vertical = _merged_rulings(layout.rulings)
    if len(horizontal) + len(vertical) > MAX_RULINGS:
        return []
    tables = []
    for hs, vs in _connected_grids(horizontal, vertical):
        table = _grid_table(hs, vs, layout.words)
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


def _grid_table(hs: list[_Segment], vs: list[_Segment], words: list[Word]) -> FoundTable | None:
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
    for (row, col), ws in texts.items():
        cells[row][col] = _join_words(ws)
    cells = _drop_empty(cells)
    if len(cells) < 2 or len(cells[0]) < 2 or _filled_share(cells) < 0.3 or _boxed_prose(cells):
        return None
    return FoundTable(xs[0], ys[0], xs[-1], ys[-1], cells, to_markdown(cells), ruled=True)


def _boxed_prose(cells: list[list[str]]) -> bool:
    """A framed or shaded text box: most rows hold one long run of words (a table row of text
    has its other cells filled too)."""
    per_row = [sum(1 for c in row if c.strip()) for row in cells]
    texts = [c for row in cells for c in row if c.strip()]
    return statistics.median(per_row) < 1.5 and statistics.median(len(c.split()) for c in texts) >= 6


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
    apart = _text_gaps(xs, ys, words)

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


def _text_gaps(xs: list[float], ys: list[float], words: list[Word]) -> set[tuple[int, int]]:
    """(row, boundary index) where the text nearest the grid line on both sides is more than a
    word space apart (half the font size) and no word reaches over it."""
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
            if near_right.x0 - near_left.x1 >= 0.5 * max(near_left.size, near_right.size, 4.0):
                apart.add((r, c))
    return apart


def _drop_empty(cells: list[list[str]]) -> list[list[str]]:
    cells = [row for row in cells if any(c.strip() for c in row)]
    if not cells:
        return []
    keep = [c for c in range(len(cells[0])) if any(row[c].strip() for row in cells)]
    return [[row[c] for c in keep] for row in cells]


def _filled_share(cells: list[list[str]]) -> float:
    total = sum(len(row) for row in cells)
    return sum(1 for row in cells for c in row if c.strip()) / total if total else 0.0


def _join_words(words: list[Word]) -> str:
    lines = _lines(words)
    return " ".join(line_text([w.text for w in line.words]) for line in lines)


# ---------------------------------------------------------------- lines and segments

@dataclass
class _Line:
    """A text line; read only once :func:`_lines` has built it, so that its size, segments
    and whether it can be a table row are worked out once (every rule asks, several times)."""

    words: list[Word] = field(default_factory=list)
    top: float = 0.0
    bottom: float = 0.0

    @cached_property
    def size(self) -> float:
        return statistics.median(w.size for w in self.words) if self.words else 0.0

    @cached_property
    def segments(self) -> list[list[Word]]:
        """The line cut where two words are further apart than a cell gap."""
        gap = CELL_GAP_EM * max(self.size, 4.0)
        segments: list[list[Word]] = [[self.words[0]]]
        for w in self.words[1:]:
            if w.x0 - segments[-1][-1].x1 > gap:
                segments.append([w])
            else:
                segments[-1].append(w)
        return segments

    @cached_property
    def tabular(self) -> bool:
        """It can be a table row: two or more segments, not a list item, not a caption."""
        return len(self.segments) >= 2 and not _list_item(self) \
            and not CAPTION.match(" ".join(w.text for w in self.words[:3]))


def _lines(words: list[Word]) -> list[_Line]:
    """Words grouped into text lines by vertical overlap with a line's first word (not its
    grown box, which would chain closely set lines together), top to bottom, each left to
    right."""
    lines: list[_Line] = []
    for w in sorted(words, key=lambda w: (w.top, w.x0)):
        height = max(w.bottom - w.top, 0.1)
        best, best_overlap = None, 0.0
        for line in lines[-4:]:
            first = line.words[0]
            overlap = min(first.bottom, w.bottom) - max(first.top, w.top)
            if overlap >= 0.5 * min(height, first.bottom - first.top) and overlap > best_overlap:
                best, best_overlap = line, overlap
        if best is None:
            lines.append(_Line([w], w.top, w.bottom))
        else:
            best.words.append(w)
            best.top, best.bottom = min(best.top, w.top), max(best.bottom, w.bottom)
    for line in lines:
        line.words.sort(key=lambda w: w.x0)
    return sorted(lines, key=lambda line: line.top)


def _segments(line: _Line) -> list[list[Word]]:
    return line.segments


# ---------------------------------------------------------------- unruled tables

def unruled_tables(words: list[Word], blocked: list[FoundTable] | None = None) -> list[FoundTable]:
    lines = _lines(words)
    tables = []
    for block in _candidate_blocks(lines):
        table = _stream_table(block)
        if table is not None and not any(_overlaps(table, b) for b in blocked or []):
            tables.append(table)
    return tables


def _overlaps(a: FoundTable, b: FoundTable) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.top < b.bottom and b.top < a.bottom


def _candidate_blocks(lines: list[_Line]) -> list[list[_Line]]:
    """Runs of lines with two or more segments (single-segment lines allowed inside, at most
    two in a row), cut where the vertical gap is much larger than the run's line pitch."""
    if not lines:
        return []
    pitches = [b.top - a.top for a, b in zip(lines, lines[1:], strict=False) if b.top > a.top]
    pitch = statistics.median(pitches) if pitches else 12.0
    blocks: list[list[_Line]] = []
    current: list[_Line] = []
    singles = 0
    for line in lines:
        multi = _tabular(line)
        if current and line.top - current[-1].bottom > MAX_LINE_GAP * pitch:
            blocks.append(current)
            current, singles = [], 0
        if multi:
            current.append(line)
            singles = 0
        elif current and singles < 2:
            current.append(line)
            singles += 1
        else:
            if current:
                blocks.append(current)
            current, singles = [], 0
    if current:
        blocks.append(current)
    return [_trim(b) for b in blocks if sum(_tabular(x) for x in b) >= 3]


def _tabular(line: _Line) -> bool:
    return line.tabular


def _list_item(line: _Line) -> bool:
    """A bullet or numbered list item: a marker, then text (at most one gap: a marker and an
    item); it ends a table above it rather than becoming a row of it."""
    segments = _segments(line)
    return len(segments) <= 2 and bool(LIST_MARKER.match(line.words[0].text)) \
        and not all(_is_numeric(w.text) for w in line.words)


def _trim(block: list[_Line]) -> list[_Line]:
    while block and not _tabular(block[-1]):
        block = block[:-1]
    while block and not _tabular(block[0]):
        block = block[1:]
    return block


def _column_gaps(block: list[_Line]) -> list[tuple[float, float]]:
    """Whitespace gaps (x ranges) that at most a few multi-segment lines cross."""
    multi = [line for line in block if _tabular(line)]
    # Data lines (mostly numbers) say where columns are; header lines often bridge them.
    data = [line for line in multi if _numeric_share(line) >= 0.5]
    if len(data) >= 3:
        multi = data
    left = min(w.x0 for line in block for w in line.words)
    right = max(w.x1 for line in block for w in line.words)
    allowed = len(multi) // 10
    # Sweep over segment edges: coverage = number of lines whose segments cover x.
    events: list[tuple[float, int]] = []
    for line in multi:
        for seg in _segments(line):
            for part in _numeric_split(seg):
                events.append((part[0].x0, 1))
                events.append((part[-1].x1, -1))
    events.sort()
    gaps, depth, start = [], 0, None
    for x, delta in events:
        before = depth
        depth += delta
        if before > allowed >= depth:
            start = x
        elif before <= allowed < depth and start is not None:
            if x - start >= 1.0 and left < start and x < right:
                gaps.append((start, x))
            start = None
    return gaps


def _stream_table(block: list[_Line]) -> FoundTable | None:
    if len(block) < 3:
        return None
    gaps = _column_gaps(block)
    if not gaps:
        return None
    bounds = [(a + b) / 2 for a, b in gaps]
    rows = [_row(line, bounds) for line in block]
    prose = _prose_columns(rows)
    if prose:
        return _without_prose_column(block, bounds, prose)
    cells, header_rows = _merge_rows(rows)
    cells = _drop_empty(cells)
    if not _plausible(cells):
        return None
    x0 = min(w.x0 for line in block for w in line.words)
    x1 = max(w.x1 for line in block for w in line.words)
    return FoundTable(x0, block[0].top, x1, block[-1].bottom, cells, to_markdown(cells),
                      header_rows=header_rows)


def _prose_columns(rows: list[_Row]) -> list[int]:
    """Columns whose line pieces are runs of prose (a median of 7+ words): the text column
    next to a table on a two-column page, or two columns of prose read across."""
    found = []
    for c in range(len(rows[0].cells)):
        counts = [len(r.cells[c].split()) for r in rows if r.cells[c]]
        if len(counts) >= 0.5 * len(rows) and statistics.median(counts) >= 7:
            found.append(c)
    return found


def _without_prose_column(block: list[_Line], bounds: list[float], prose: list[int]) -> FoundTable | None:
    """The table left once prose columns on the right or left side are cut away; none when
    the prose is in the middle (that is text, not a table)."""
    middle = len(bounds) / 2
    if min(prose) > middle:
        keep = [w for line in block for w in line.words if w.x1 <= bounds[min(prose) - 1]]
    elif max(prose) < middle:
        keep = [w for line in block for w in line.words if w.x0 >= bounds[max(prose)]]
    else:
        return None
    found = [t for b in _candidate_blocks(_lines(keep)) if (t := _stream_table(b)) is not None]
    return max(found, key=lambda t: _filled(t.cells)) if found else None


@dataclass
class _Row:
    cells: list[str]
    spanning: set[int]  # columns whose cell reaches over the next column boundary
    top: float
    bottom: float


def _row(line: _Line, bounds: list[float]) -> _Row:
    """The line's cells: each segment goes to the column its first word starts in; a segment
    reaching across a boundary with a plain space is one spanning cell."""
    cells = [""] * (len(bounds) + 1)
    spanning: set[int] = set()

    def column(x: float) -> int:
        return sum(1 for b in bounds if x > b)

    for seg in _segments(line):
        groups: list[list[Word]] = [[seg[0]]]
        for prev, w in zip(seg, seg[1:], strict=False):
            crossing = column((w.x0 + w.x1) / 2) != column((prev.x0 + prev.x1) / 2)
            wide = w.x0 - prev.x1 >= 0.45 * max(line.size, 4.0)
            if crossing and (wide or (_is_numeric(prev.text) and _is_numeric(w.text))):
                groups.append([w])
            else:
                groups[-1].append(w)
        for group in groups:
            col = _group_column(group[0].x0, group[-1].x1, bounds)
            if column(group[-1].x1 - 0.5) != col:
                spanning.add(col)
            cells[col] = f"{cells[col]} {line_text([w.text for w in group])}".strip()
    return _Row(cells, spanning, line.top, line.bottom)


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


def _numeric_share(line: _Line) -> float:
    return sum(_is_numeric(w.text) for w in line.words) / len(line.words)


def _is_numeric(text: str) -> bool:
    return bool(NUMERIC.match(text.strip()))


def _merge_rows(rows: list[_Row]) -> tuple[list[list[str]], int]:
    """Continuation lines (only the first column filled, in lower case) join the row above;
    in the header (the lines above the first row of numbers) a cell wrapped over several
    lines becomes one cell, in its top line."""
    merged: list[_Row] = []
    for row in rows:
        filled = [i for i, c in enumerate(row.cells) if c]
        if merged and filled == [0] and row.cells[0][:1].islower():
            merged[-1].cells[0] = f"{merged[-1].cells[0]} {row.cells[0]}".strip()
            merged[-1].bottom = row.bottom
            continue
        merged.append(_Row(list(row.cells), set(row.spanning), row.top, row.bottom))
    first_data = next((i for i, row in enumerate(merged) if _data_row(row.cells)), 0)
    _merge_header_cells(merged[:first_data])
    cells = [row.cells for row in merged]
    kept_header = sum(1 for row in merged[:first_data] if any(row.cells))
    return cells, max(1, kept_header)


def _merge_header_cells(header: list[_Row]) -> None:
    """Join a header cell to the one right above it in its column when the lines are close,
    the upper cell does not span columns (a spanning heading stands over sub-headings) and
    the lower line is not a row label standing alone (a section title above the data)."""
    for r in range(len(header) - 1, 0, -1):
        lower = header[r]
        if [i for i, c in enumerate(lower.cells) if c] == [0]:
            continue
        for c, text in enumerate(lower.cells):
            above = _cell_above(header, r, c)
            if not text or above is None or c in lower.spanning:
                continue
            upper = header[above]
            if c in upper.spanning or lower.top - upper.bottom > 0.6 * (lower.bottom - lower.top):
                continue
            upper.cells[c] = f"{upper.cells[c]} {text}"
            lower.cells[c] = ""


def _cell_above(header: list[_Row], r: int, c: int) -> int | None:
    """The row right above ``r`` when its cell in column ``c`` is filled."""
    return r - 1 if header[r - 1].cells[c] else None


def _data_row(cells: list[str]) -> bool:
    values = [c for c in cells[1:] if c]
    return bool(values) and sum(_is_numeric(c) for c in values) >= max(1, len(values) // 2 + 1)


def _plausible(cells: list[list[str]]) -> bool:
    if len(cells) < 3 or not cells or len(cells[0]) < 2:
        return False
    if _filled_share(cells) < 0.4:
        return False
    texts = [c for row in cells for c in row if c]
    if statistics.median(len(c.split()) for c in texts) > MAX_MEDIAN_WORDS:
        return False  # columns of prose
    first = [row[0] for row in cells if row[0]]
    if first and sum(bool(LIST_MARKER.match(c.split()[0])) and len(c.split()) == 1 for c in first) \
            >= 0.6 * len(first):
        return False  # a list: markers in the first column, items in the next
    singles = [c for c in first if len(c) == 1]
    if len(first) >= 5 and len(singles) >= 0.6 * len(first) and sum(c.isalpha() for c in singles) >= 3:
        return False  # letters of vertical text (a margin note), one per line, beside prose
    return True
