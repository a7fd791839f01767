"""Column gaps of a candidate block (:mod:`extractors.pdf_table_blocks`), and the block read as
a table by them (:func:`_table_by_gaps`), for :mod:`extractors.pdf_tables`.

In the spirit of camelot's stream mode and Nurminen's text-edge analysis: a block's columns are
the whitespace gaps that (almost) no line of numbers below the header crosses, so left-, right-
and centre-aligned columns all work.  The gaps are the whole table's, not each line's: a narrow
gap between the parts of one value ("12 500", "11 111111111") is no column, nor is one between
digit groups a word space apart under one heading ("020 7946 4476"), and when cell gaps leave
several values in one cell the narrow gutters that no word of any line crosses are columns too
(a dense listing); a gap a few lines cross each with one cell spanning the columns beside it (a
total's label over two columns) is a gap still where the other lines keep them apart.
Candidates that are two-column prose (long runs of words per cell; a prose column beside a table
is cut away, whatever stands beside it when its lines keep baselines of their own, and the lines
of two prose columns under a table of figures end its block) or justified prose (spaces
stretched alike in each line, lined up by chance) are refused.
"""

from __future__ import annotations

import math
import re
import statistics
from operator import attrgetter, itemgetter

from extractors.pdf_table_blocks import _candidate_blocks, _groups_over, _prose_line, _tabular
from extractors.pdf_table_checks import RUN_ON_SHARE, _plausible, address_beside_fields
from extractors.pdf_table_lines import (
    _caption,
    _clock,
    _figure_segments,
    _Line,
    _lines,
    _numeric_share,
    _segments,
    _timed,
)
from extractors.pdf_table_model import (
    ALIGNED,
    CELL_GAP_EM,
    DATE,
    FLUSH,
    PROSE_BESIDE_WORDS,
    TURNED_BAND,
    WORD_SPACE_EM,
    FoundTable,
    _drop_empty,
    _filled,
    _Gap,
    _is_numeric,
)
from extractors.pdf_table_rows import (
    _column_extents,
    _first_data,
    _flush_columns,
    _Group,
    _groups,
    _header_rows,
    _merge_rows,
    _numeric_split,
    _Row,
    _row_kinds,
    _row_of,
    _years,
)
from extractors.pdf_words import Box, Word
from extractors.tables import cells_to_markdown

# A text column's line beside a table's row sits this share of the size or more off the row's
# baseline when it is not on it (see _own_baselines).
OFF_BASELINE = 0.2
# A text column's paragraph begun above a table beside it goes on at its own x and pitch: its
# line above the block starts within this share of the size of the column's first piece, one
# pitch above it within this share of the size too (see _continued_column).
CONTINUED_ALIGN = 0.5
# A side column of pieces this many words long (median) that run on is the next text column's
# paragraph (see `_page_column`).
PAGE_COLUMN_WORDS = 5
# A justified line's spaces are alike to this many points, or this share of its size when
# more: a word's box may reach past its advance or fall short of it by a few tenths (an "f"
# ending a word, "of", stands out past it), so one space of a line reads that much narrower.
JUSTIFIED_SPACES_ABSOLUTE = 0.5
JUSTIFIED_SPACES = 0.08
# A sentence's end inside a piece of text: a word of letters, a full stop, a capital.
SENTENCE_INSIDE = re.compile(r"[^\W\d_]{2,}[.!?]\s+[A-Z]")
# A header is at most this many lines: more lines above the first row of figures are text,
# unless they are set as a header's (see _header_start), up to LONG_HEADER_LINES.
MAX_HEADER_LINES = 6
LONG_HEADER_LINES = 10
# A header's line is texts of at most this many words side by side (see _header_like).
HEADER_TEXT_WORDS = 4
# The share of a column's pieces beginning with a capital from which they are each a cell's
# text rather than the lines of a paragraph (tuned on the spreadsheet set, seeds 1..24).
CELL_TEXTS_CAPITAL = 0.7
# A column gap narrower than this (in font sizes) could be a word space inside a value
# ("3 522 458", "11 111111111").
NARROW_GAP_EM = 0.5
# A column gap that up to this share of the block's lines cross, each with one cell spanning
# the two columns beside it, is a gap still when the other lines keep the columns apart (see
# _spanned_gaps): a total row's label merged over two unruled columns.
SPANNING_SHARE = 1 / 3
# Texts of a column whose edges spread this far (in font sizes) are set ragged on that side,
# not aligned there: well over what an aligned edge strays (a glyph's side bearing, 0.4 point),
# under what texts of one pattern differ by when only a word's letters do (dates with two-digit
# days, "Aug 15, 2026" and "May 12, 2026", end 0.28 of the size apart; record_listing-502).
RAGGED_EM = 0.2


def _stacked_numbers(cells: list[list[str]]) -> float:
    """Share of filled cells holding two or more numbers: several table cells in one box."""
    texts = [c for row in cells for c in row if c.strip()]
    return sum(sum(_is_numeric(t) for t in c.split()) >= 2 for c in texts) / len(texts) if texts else 0.0


def _stacked_column(table: FoundTable) -> bool:
    """Whether a column holds, in four of five body rows, several words one of which has a
    digit ("G131 capital", "pcs 65 held"): the values of columns set too close to be told
    apart by the gap between them."""
    body = table.cells[table.header_rows:]
    for c in range(len(table.cells[0])):
        texts = [row[c].split() for row in body if row[c].strip()]
        stacked = sum(len(t) >= 2 and any(ch.isdigit() for w in t for ch in w) for t in texts)
        if len(texts) >= 3 and stacked >= 0.8 * len(body):
            return True
    return False


def _column_gaps(block: list[_Line], header: list[_Line], dense: bool,
                 turned: list[Box] | None = None) -> list[_Gap]:
    """Whitespace gaps (x ranges) that at most a few multi-segment body lines cross (the
    header, above the first row of figures, often bridges them), and with ``dense`` the
    narrow gutters of a dense listing that no word of the block crosses; a narrow gap
    between the parts of one value ("12 500") is none, unless it is the widest gap between two
    headings set on their side over the body (``turned``, see :func:`_between_turned`)."""
    body = block[len(header):]
    multi = [line for line in body if _tabular(line)] or [line for line in block if _tabular(line)]
    # Data lines (mostly numbers) say where columns are; header lines often bridge them.
    data = [line for line in multi if _numeric_share(line) >= 0.5]
    if len(data) >= 3:
        multi = data
    left = min(w.x0 for line in block for w in line.words)
    right = max(w.x1 for line in block for w in line.words)
    parts = [[(part[0].x0, part[-1].x1) for seg in _segments(line) for part in _numeric_split(seg)]
             for line in multi]
    spans = [span for line in parts for span in line]
    gaps = _uncovered(spans, len(multi) // 10, left, right)
    gaps = sorted(gaps + _spanned_gaps(parts, gaps, left, right))
    size = statistics.median(line.size for line in block)
    gutters = _gutters(block)
    gaps = _union_gaps(gaps, gutters)
    split = _between_turned(gaps, block[len(header):], turned or [], block[0].top, size)
    # A narrow gutter makes columns only between texts most lines fill (not between the
    # words of one long cell whose spaces line up with another's end).
    heads = header or [line for line in block[:1] if _numeric_share(line) == 0]
    # Both passes ask whether a gap is flush against its texts; the answer depends only on the
    # gap and its neighbours, so it is worked out once for each such triple.
    flushes: dict[tuple[_Gap, _Gap | None, _Gap | None], bool] = {}

    def flush(g: _Gap, gaps: list[_Gap]) -> bool:
        i = gaps.index(g)
        key = (g, gaps[i - 1] if i else None, gaps[i + 1] if i + 1 < len(gaps) else None)
        if key not in flushes:
            flushes[key] = _flush_against(g, gaps, body, size)
        return flushes[key]

    gaps = [g for g in gaps if g in split or g not in gutters or g[1] - g[0] >= CELL_GAP_EM * size
            or (dense and _divides(g, gaps, body) and not _word_spaces(g, gaps, body, size))
            or (_divides(g, gaps, body) and _headed(g, gaps, body, heads, size))
            or flush(g, gaps)]
    # A narrow gap that a few lines may cross (found by the sweep, not a gutter) is no column gap
    # either when it is one word space on every line it divides: the space inside values of one
    # pattern ("D 7116 44", an id "44 773 641"), whose parts line up down the whole column.
    gaps = [g for g in gaps if g in gutters or g[1] - g[0] >= CELL_GAP_EM * size
            or not _word_spaces(g, gaps, body, size) or _headed(g, gaps, body, heads, size)
            or flush(g, gaps)]
    return [g for g in gaps if g[1] - g[0] >= NARROW_GAP_EM * size or g in split
            or not _spaced_value(g, body, heads)]


def _spanned_gaps(parts: list[list[_Gap]], gaps: list[_Gap], left: float, right: float) -> list[_Gap]:
    """Column gaps that a few lines cross with one cell spanning two columns (a total's label
    "Total employment" over the labels' column and the unruled type column beside it, a group
    row's label): the other lines keep the columns apart, text on both sides of the gap.  A
    gap found when up to a third of the lines (SPANNING_SHARE) may cross it, apart from the
    ``gaps`` already found (a table's other columns: none, none is looked for), whose crossing
    lines each cross it with one piece that reaches over no other gap and has no other piece
    beside it between the neighbouring gaps, and of whose other lines (three or more) two in
    three have pieces on both sides of it, those next to it lined up on each side (see
    _lined_up).  (``parts`` are each line's pieces as x ranges.)"""
    crossers = int(SPANNING_SHARE * len(parts))
    if crossers < 1 or len(parts) - crossers < 3 or not gaps:
        return []
    out = []
    spans = [span for line in parts for span in line]
    for gap in _uncovered(spans, crossers, left, right):
        if any(gap[0] < b and a < gap[1] for a, b in gaps):
            continue
        lo = max((b for a, b in gaps if b <= gap[0]), default=float("-inf"))
        hi = min((a for a, b in gaps if a >= gap[1]), default=float("inf"))
        crossing = [line for line in parts if any(a < gap[1] and gap[0] < b for a, b in line)]
        others = [line for line in parts if not any(a < gap[1] and gap[0] < b for a, b in line)]
        if not crossing or len(crossing) > crossers or len(others) < 3:
            continue
        if not all(_spans_two(line, gap, lo, hi) for line in crossing):
            continue
        lefts = [max((p for p in line if lo <= p[0] and p[1] <= gap[0]), default=None) for line in others]
        rights = [min((p for p in line if gap[1] <= p[0] and p[1] <= hi), default=None) for line in others]
        pairs = [(a, b) for a, b in zip(lefts, rights, strict=True) if a is not None and b is not None]
        if 3 * len(pairs) >= 2 * len(others) and _lined_up([a for a, _ in pairs]) \
                and _lined_up([b for _, b in pairs]):
            out.append(gap)
    return out


def _lined_up(pieces: list[_Gap]) -> bool:
    """Whether the pieces all start, all end or all centre at one x (within ALIGNED): a
    column's texts, set left, right or centred; the words a justified line's stretched
    spaces leave stand anywhere."""
    return any(max(edge(p) for p in pieces) - min(edge(p) for p in pieces) <= ALIGNED
               for edge in (itemgetter(0), itemgetter(1), lambda p: (p[0] + p[1]) / 2))


def _spans_two(line: list[_Gap], gap: _Gap, lo: float, hi: float) -> bool:
    """Whether the line's one piece over ``gap`` stands between the neighbouring gaps' edges
    ``lo`` and ``hi``, alone there (a cell spanning the two columns on either side)."""
    near = [(a, b) for a, b in line if a < hi and lo < b]
    return len(near) == 1 and lo <= near[0][0] and near[0][1] <= hi


def _between_turned(gaps: list[_Gap], body: list[_Line], turned: list[Box], top: float,
                    size: float) -> set[_Gap]:
    """The widest of the gaps between each two neighbouring headings set on their side over
    the body (``turned``: standing between ``top``, the block's, less TURNED_BAND sizes, and the
    body's first line, their middles over the body's width), a gap's middle between theirs:
    each heading names a column of its own.  A dense grid's right-aligned figures ("5 582"
    beside "–" or "19 853") stand as close to the next column's as the groups of their digits
    stand to one another, and the header's turned names are what shows where one column ends
    (an election's candidates, a timetable's stops); the gap between two columns is the widest
    between their headings' middles, a heading set at its cell's edge included."""
    if not body or len(turned) < 2:
        return set()
    left = min(w.x0 for line in body for w in line.words)
    right = max(w.x1 for line in body for w in line.words)
    middles = sorted((x0 + x1) / 2 for x0, t, x1, b in turned
                     if t >= top - TURNED_BAND * size and b <= body[0].top + 0.5 * size
                     and left < (x0 + x1) / 2 < right)
    split = set()
    for a, b in zip(middles, middles[1:], strict=False):
        between = [g for g in gaps if a < (g[0] + g[1]) / 2 < b]
        if between:
            split.add(max(between, key=lambda g: g[1] - g[0]))
    return split


def _headed(gap: _Gap, gaps: list[_Gap], body: list[_Line], header: list[_Line], size: float) -> bool:
    """A narrow gutter between two columns set close (right-aligned dates against left-aligned
    references, a spreadsheet's cells without padding) that the header shows: one of its
    lines has a cell gap over it and a label on either side, each over its column's texts
    (centred labels), or one over its column's texts and the other set right at the gutter
    (a label left-aligned as its column's texts are, the one beside it further off).  The
    spaces of a text repeated on every line line up too, but under no such labels."""
    i = gaps.index(gap)
    lo = gaps[i - 1][1] if i > 0 else float("-inf")
    hi = gaps[i + 1][0] if i + 1 < len(gaps) else float("inf")
    lefts = [(w.x0, w.x1) for line in body for w in line.words if lo <= w.x0 and w.x1 <= gap[0] + 0.5]
    rights = [(w.x0, w.x1) for line in body for w in line.words if gap[1] - 0.5 <= w.x0 and w.x1 <= hi]

    def over(label: Word, spans: list[_Gap]) -> bool:
        return any(label.x0 < x1 and x0 < label.x1 for x0, x1 in spans)

    near = CELL_GAP_EM * size
    for line in header:
        for prev, w in zip(line.words, line.words[1:], strict=False):
            if not (prev.x1 <= gap[0] + 0.5 and w.x0 >= gap[1] - 0.5 and w.x0 - prev.x1 >= near):
                continue
            left, right = over(prev, lefts), over(w, rights)
            if (left and right) or (right and w.x0 - gap[1] <= near) or (left and gap[0] - prev.x1 <= near):
                return True
    return False


def _flush_against(gap: _Gap, gaps: list[_Gap], body: list[_Line], size: float) -> bool:
    """A narrow gutter between a column set right against it and one set left from it (a
    spreadsheet's right-aligned amounts or counts beside left-aligned words, "$234,677.00"
    and "Sponsorship" a couple of points apart, the header's labels set as their columns):
    on every line, between the neighbouring gaps, the words on the left end at one x and those
    on the right start at one x, while the left ones start and the right ones end ragged
    (three lines or more with words on both sides).  The parts of one value never stand so: a value set right
    ends its last part at the edge ("12 500"), one set left starts its first there ("D 7116
    44", "New York")."""
    i = gaps.index(gap)
    lo = gaps[i - 1][1] - 0.5 if i > 0 else float("-inf")
    hi = gaps[i + 1][0] + 0.5 if i + 1 < len(gaps) else float("inf")
    spans: list[tuple[float, float, float, float]] = []
    ends, starts = [], []  # on every line, also those with one side (an empty cell beside)
    for line in body:
        left = [w for w in line.words if lo <= w.x0 and w.x1 <= gap[0] + 0.5]
        right = [w for w in line.words if gap[1] - 0.5 <= w.x0 and w.x1 <= hi]
        ends += [max(w.x1 for w in left)] if left else []
        starts += [min(w.x0 for w in right)] if right else []
        if left and right:
            spans.append((min(w.x0 for w in left), max(w.x1 for w in left),
                          min(w.x0 for w in right), max(w.x1 for w in right)))
    if len(spans) < 3 or max(ends) - min(ends) > ALIGNED or max(starts) - min(starts) > ALIGNED:
        return False

    def spread(k: int) -> float:
        return max(span[k] for span in spans) - min(span[k] for span in spans)

    return min(spread(0), spread(3)) >= RAGGED_EM * size


def _word_spaces(gap: _Gap, gaps: list[_Gap], body: list[_Line], size: float) -> bool:
    """Whether a narrow gutter is the spaces between the words of cells lined up ("12.5 %",
    "New York" over "Los Angeles"): no wider than a word space (about a quarter of the font
    size; 0.34 allows for spacing) on every line that has words both sides of it, between
    the neighbouring gaps.  Between two columns the space varies with the lengths of the
    texts, or is wider.  A word beyond a neighbouring gap is another column's: a line whose
    cell holds only the part right of the gutter ("M" under "F / M" and "Base Model1", the
    values centred) says nothing of the space (measured to the column before, it made every
    centred value with a space two columns)."""
    i = gaps.index(gap)
    lo = gaps[i - 1][1] - 0.5 if i > 0 else float("-inf")
    hi = gaps[i + 1][0] + 0.5 if i + 1 < len(gaps) else float("inf")
    widths = []
    for line in body:
        left = [w.x1 for w in line.words if lo <= w.x0 and w.x1 <= gap[0] + 0.5]
        right = [w.x0 for w in line.words if gap[1] - 0.5 <= w.x0 and w.x1 <= hi]
        if left and right:
            widths.append(min(right) - max(left))
    return bool(widths) and gap[1] - gap[0] < WORD_SPACE_EM * size and max(widths) - min(widths) < 0.1 * size


def _divides(gap: _Gap, gaps: list[_Gap], body: list[_Line]) -> bool:
    """Whether half the body lines or more have text on both sides of the gap, before the
    neighbouring gaps.  A line holding nothing but text on one side (a wrapped cell's next
    line, its row's other cells empty there) says nothing of the gap and is not counted: a
    listing whose firms' names wrap onto a second line in most rows has those lines under
    half its rows' lines (issue 32, record_listing); the words of one long cell lined up
    with another's end stand on lines whose other columns are filled."""
    i = gaps.index(gap)
    lo = gaps[i - 1][1] if i > 0 else float("-inf")
    hi = gaps[i + 1][0] if i + 1 < len(gaps) else float("inf")
    both = counted = 0
    for line in body:
        left = [w for w in line.words if lo <= w.x0 and w.x1 <= gap[0]]
        right = [w for w in line.words if gap[1] <= w.x0 and w.x1 <= hi]
        alone = len(left) + len(right) == len(line.words) and not (left and right)
        counted += not alone
        both += bool(left and right)
    return both >= 0.5 * counted if counted else not body


def _gutters(body: list[_Line]) -> list[_Gap]:
    """The whole table's gutters: x ranges no word of any body line covers, however narrow
    (a dense listing's columns stand closer than a cell gap)."""
    if len(body) < 3:
        return []
    words = [(w.x0, w.x1) for line in body for w in line.words]
    return _uncovered(words, 0, min(map(itemgetter(0), words)), max(map(itemgetter(1), words)))


def _spaced_value(gap: _Gap, body: list[_Line], header: list[_Line]) -> bool:
    """A narrow gap between the two parts of one value in every body line it divides:
    groups of digits ("12 500": three digits after it), a fixed prefix ("11 111111111",
    the same text before it on every line), or groups of digits a word space apart under
    one header label reaching over the gap (telephone and account numbers, "020 7946 4476"
    and "0277 239 9358" whose last groups line up: a label over two columns set a word
    space apart would stand over one of them)."""
    pairs = []
    spaces = []
    for line in body:
        for prev, w in zip(line.words, line.words[1:], strict=False):
            straddles = prev.x1 <= gap[0] + 0.5 and w.x0 >= gap[1] - 0.5
            if straddles and w.x0 - prev.x1 < NARROW_GAP_EM * line.size:
                pairs.append((prev.text, w.text))
                spaces.append((w.x0 - prev.x1) / line.size)
    if len(pairs) < 3:
        return False
    grouped = all(a.isdigit() and len(a) <= 3 and b.isdigit() and len(b) == 3 for a, b in pairs)
    prefixed = len({a for a, _ in pairs}) == 1 and all(b[:1].isdigit() for _, b in pairs)
    labelled = all(a.isdigit() and b.isdigit() for a, b in pairs) and max(spaces) < WORD_SPACE_EM \
        and any(w.x0 < gap[0] - 0.5 and w.x1 > gap[1] + 0.5 for line in header for w in line.words)
    return grouped or prefixed or labelled


def _uncovered(spans: list[_Gap], allowed: int, left: float, right: float) -> list[_Gap]:
    """X ranges inside (left, right) that at most ``allowed`` of the spans cover (a sweep
    over span edges: coverage = number of spans over x)."""
    events = sorted([(x0, 1) for x0, _ in spans] + [(x1, -1) for _, x1 in spans])
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


def _union_gaps(first: list[_Gap], second: list[_Gap]) -> list[_Gap]:
    """The gaps of both lists, overlapping ones (the same gutter seen both ways) kept once
    as the wider."""
    out: list[_Gap] = []
    for gap in sorted(first + second):
        if out and gap[0] < out[-1][1]:
            out[-1] = (min(out[-1][0], gap[0]), max(out[-1][1], gap[1]))
        else:
            out.append(gap)
    return out


def _header_lines(block: list[_Line], most: int = MAX_HEADER_LINES) -> list[_Line]:
    """The lines above the first line of figures (see :func:`_first_data`; at most ``most``,
    none when the first line holds figures)."""
    lines = block[:most + 2]
    # (A row of numbered group headings, "Zone 1" and "Zone 2" over the stops' names, is half
    # figures by its words and no row of them.)
    # (A line of times is data over a line holding times too, a timetable's journey over the
    # next; over rows without any, "06:00  14:00  22:00" under "Early  Late  Night" over the
    # staff on each shift, it is the header's.)
    first = _first_data([((_numeric_share(line) >= 0.5 or _figure_segments(line) >= 0.5
                           or _timed(line) and (i + 1 == len(lines)
                                                or any(_clock(w.text) for w in lines[i + 1].words)))
                          and not (i + 1 < len(lines) and _groups_over(line, lines[i + 1])),
                          _years([w.text for w in line.words]),
                          any(not _is_numeric(w.text) for w in line.words[1:]))
                         for i, line in enumerate(lines)])
    return block[:first] if first <= most else []


def _stream_table(block: list[_Line], turned: list[Box] | None = None,
                  above: list[Word] | None = None) -> FoundTable | None:
    """The block's table by its cell gaps, or by the whole block's narrow gutters too (a
    dense listing) when cell gaps alone leave several values in one cell; ``turned`` are the
    boxes of headings set on their side (see :func:`_column_gaps`), ``above`` the page's words
    above the block (see :func:`_continued_column`)."""
    table = _table_by_gaps(block, dense=False, turned=turned, above=above)
    if table is None:
        stacked = len(block) >= 3 and _narrow_gutters(block) >= 2  # (a cheap test first)
    else:
        stacked = _stacked_numbers(table.cells) >= 0.2 or _stacked_column(table)
    if stacked:
        dense = _table_by_gaps(block, dense=True, turned=turned, above=above)
        if dense is not None and (table is None or len(dense.cells[0]) > len(table.cells[0])):
            return dense
    return table


def _narrow_gutters(block: list[_Line]) -> int:
    """How many gutters through the whole block are narrower than a cell gap."""
    size = statistics.median(line.size for line in block)
    return sum(b - a < CELL_GAP_EM * size for a, b in _gutters(block))


def _table_by_gaps(block: list[_Line], dense: bool, turned: list[Box] | None = None,
                   most: int = MAX_HEADER_LINES, above: list[Word] | None = None) -> FoundTable | None:
    """The block's table by its cell gaps; its header at most ``most`` lines (see
    :func:`_header_start`)."""
    if len(block) < 3 or _justified_prose(block):
        return None
    header = _header_lines(block, most)
    gaps = _column_gaps(block, header, dense, turned)
    if not gaps:
        return None
    bounds = [(a + b) / 2 for a, b in gaps]
    # Pieces of text are cut at the body's gutters; the gaps above were the whole block's.
    gutters = _edge_gutters(_gutters(block[len(header):]), gaps)
    pieces = [_groups(line, bounds, gutters) for line in block]
    if _card_grid(block, pieces, len(bounds) + 1):
        return None
    rows = [_row_of(line, groups, bounds) for line, groups in zip(block, pieces, strict=True)]
    # An address beside "Label: value" lines over a table's rows is two blocks of text, read
    # apart (see address_beside_fields); the rows under them are the table, in columns of their own.
    lead = address_beside_fields([row.cells for row in rows])
    if 0 < lead < len(rows):
        return _table_by_gaps(block[lead:], dense, turned, most, above)
    first_data = _first_data(_row_kinds(rows))
    if first_data > most:  # the lines above a header's few are text, not table
        start = _header_start(block, first_data, bounds[0])
        return _table_by_gaps(block[start:], dense, turned, first_data - start)
    extents = _column_extents(pieces[first_data:], bounds)
    rows[:first_data] = _header_rows(block[:first_data], extents, bounds, gutters,
                                     _flush_columns(pieces[first_data:], extents,
                                                    pieces[first_data - 1] if first_data else []))
    prose = _prose_columns(rows, pieces) \
        or [c for c in {0, len(bounds)} if above and _continued_column(pieces, c, above)]
    if prose:
        return _without_prose_column(block, bounds, prose)
    # A caption or source note under the table ("Table 3: Comparison of ...", "Source: ...")
    # ends it: its next lines, justified with wide spaces, read as rows.  (Cut here, not where
    # the block is made: the lines under it still tell a page column of prose beside the table,
    # see above; and the columns stay those the whole block showed.)
    cut = next((i for i in range(first_data + 1, len(block)) if _caption(block[i])), None)
    if cut is not None:
        if cut < 3:
            return None
        # The next table under the caption ("Table 2: ..." between two tables) may stand its
        # columns where this one has gaps: read alone, the rows above the caption show their
        # own columns, and where that finds more of them, those are the table's.
        own = _table_by_gaps(block[:cut], dense, turned, most, above) if cut + 4 <= len(block) else None
        if own is not None and len(own.cells[0]) > len(rows[0].cells):
            return own
        block, rows = block[:cut], rows[:cut]
    cells, header_rows = _merge_rows(rows)
    kept = [c for c in range(len(cells[0])) if any(row[c].strip() for row in cells)] if cells else []
    cells = _drop_empty(cells)
    if not _plausible(cells):
        return None
    x0 = min(w.x0 for line in block for w in line.words)
    x1 = max(w.x1 for line in block for w in line.words)
    # (The column boundaries as read, kept only where no empty column was dropped: they are
    # then the table's own.)
    bounded = tuple(bounds) if len(kept) == len(bounds) + 1 else ()
    return FoundTable(x0, block[0].top, x1, block[-1].bottom, cells, cells_to_markdown(cells),
                      header_rows=header_rows, bounds=bounded)


def _header_start(block: list[_Line], first_data: int, stub: float) -> int:
    """Where the header of the rows from ``first_data`` on starts: MAX_HEADER_LINES lines up,
    and on up over lines set as a header's are, up to LONG_HEADER_LINES: two short texts or
    more side by side, no sentence -- group labels over the column headings, "Wave one
    (2019)" and "Wave two (2023)" over headings wrapped onto six lines.  A paragraph over the
    table is one run of words; a form's lines of labels and values over it each fill the first
    column (left of ``stub``, its right bound), where a header's lines leave it empty but for
    its own heading's few."""
    start = first_data - MAX_HEADER_LINES
    while start > 0 and first_data - start < LONG_HEADER_LINES and _header_like(block[start - 1]) \
            and not _pairs_alike(block[start - 1], block[start]):
        filled = sum(line.words[0].x0 < stub for line in block[start - 1:first_data])
        if 2 * filled > first_data - start + 1:
            break
        start -= 1
    return start


def _pairs_alike(line: _Line, under: _Line) -> bool:
    """Whether ``line`` and the line under it are each a label and its value set at the same
    two starts: a list of pairs over the table (an invoice's "Invoice no." "INV-2041" over
    "Date" "12/03/2024", a key's "p" "provisional" over "r" "revised"), no group labels over
    its headings, which stand over other pieces than theirs."""
    if len(line.segments) != 2 or len(under.segments) != 2:
        return False
    return all(abs(a[0].x0 - b[0].x0) <= FLUSH for a, b in zip(line.segments, under.segments, strict=True))


def _header_like(line: _Line) -> bool:
    """Whether ``line`` is set as a header's line: texts side by side, each of few words (at
    most HEADER_TEXT_WORDS), no prose."""
    return line.tabular and not _prose_line(line) and all(len(s) <= HEADER_TEXT_WORDS for s in line.segments)


def _card_grid(block: list[_Line], pieces: list[list[_Group]], columns: int) -> bool:
    """Entries set in a grid of cards, each a bold name over a line of details (a back
    page's "Cancer Council ACT / actcancer.org", three across and three down): the lines
    alternate, two pairs or more, between one wholly bold in every column and one with no bold
    word in every column, and each name line stands closer to its details than to the line
    above it (by half a line or more: rows set at one pitch are rows, whatever their weight).
    No header names the columns: they hold one kind of entry, a list set in columns.  A
    table's bold rows are its header (once) or group headings (their first cell only); a
    bold total row follows rows of figures, not one line of them."""
    if len(block) < 4 or len(block) % 2 or columns < 2:
        return False
    for index, (line, groups) in enumerate(zip(block, pieces, strict=True)):
        if {col for _, col in groups} != set(range(columns)):
            return False
        bolds = [w.bold for words, _ in groups for w in words]
        if not all(bolds) if index % 2 == 0 else any(bolds):
            return False
        apart = line.top - block[index - 1].bottom if index else math.inf
        if index % 2 == 0 and apart < block[index + 1].top - line.bottom + 0.5 * line.size:
            return False
    return True


def _edge_gutters(gutters: list[_Gap], gaps: list[_Gap]) -> list[_Gap]:
    """The gutters at an edge of a column gap, where a column's texts end or begin.  One
    inside a gap is the spaces of a few long texts reaching into it lined up ("Yorkshire
    and The Humber" and "... Humber Rural": the space after their common start), no edge
    of a column to cut a text at."""
    return [g for g in gutters
            if any(abs(g[0] - a) <= 0.5 or abs(g[1] - b) <= 0.5 for a, b in gaps)]


def _justified_prose(block: list[_Line]) -> bool:
    """Most lines are justified text: three words or more, of which few figures, flush with
    the block on both sides, every space in the line stretched alike.  (Its spaces line up
    from line to line by chance in a narrow column; a table row's gaps differ with the
    lengths of its cells' texts.)"""
    left = min(line.words[0].x0 for line in block)
    right = max(line.words[-1].x1 for line in block)

    def justified(line: _Line) -> bool:
        words = line.words
        if len(words) < 3 or _numeric_share(line) > 0.3:
            return False
        if abs(words[0].x0 - left) > 2 * ALIGNED or abs(words[-1].x1 - right) > 2 * ALIGNED:
            return False
        spaces = [w.x0 - prev.x1 for prev, w in zip(words, words[1:], strict=False)]
        return max(spaces) - min(spaces) <= max(JUSTIFIED_SPACES_ABSOLUTE, JUSTIFIED_SPACES * line.size)

    return sum(justified(line) for line in block) >= 0.6 * len(block)


def _prose_columns(rows: list[_Row], pieces: list[list[_Group]]) -> list[int]:
    """Columns whose line pieces are runs of prose (a median of 7+ words): the text column
    next to a table on a two-column page, or two columns of prose read across.  Long pieces
    that mostly begin with a capital are cells, each its own text (a spreadsheet's
    "Description" column, the short last lines of wrapped cells aside): the lines of running
    text mostly go on in lower case.  When two or more long pieces share their line with
    other cells, those alone are asked: a cell wrapped over several lines starts on its
    row's line, its lines below going on in lower case; running text beside a table starts
    its lines anywhere in its sentences."""
    found = []
    for c in range(len(rows[0].cells)):
        texts = [r.cells[c] for r in rows if r.cells[c]]
        counts = [len(t.split()) for t in texts]
        long = [t for t in texts if len(t.split()) >= 4]
        in_rows = [r.cells[c] for r in rows if len(r.cells[c].split()) >= 4 and sum(map(bool, r.cells)) > 1]
        long = in_rows if len(in_rows) >= 2 else long
        if len(counts) >= 0.5 * len(rows) and statistics.median(counts) >= 7 \
                and sum(t[:1].isupper() for t in long) < CELL_TEXTS_CAPITAL * len(long):
            found.append(c)
        elif c in (0, len(rows[0].cells) - 1) and _page_column(rows, c, _own_baselines(pieces, c)):
            found.append(c)
    return found


def _page_column(rows: list[_Row], c: int, own_baselines: bool) -> bool:
    """The block's first or last column is the lines of a paragraph of the page's next text
    column, read in beside a table-like block (labels under a figure's pictures, two columns
    of a report): its pieces are a few words each (a median of PAGE_COLUMN_WORDS), most of
    them (RUN_ON_SHARE) go on in lower case from a piece ending no sentence, a piece on a
    line that other columns fill goes on so too (a row of the block starts in the middle of
    a sentence there), and a sentence ends inside a piece ("oversight. The strategy"): the
    sentences run across the rows.  A column of
    lower-case descriptions wrapped in their rows runs on too, but each row starts its own
    description, and one rarely ends a sentence mid-line.  A column whose lines share the
    rows of figures (most texts beside its pieces are figures or dates) labels or annotates
    them: a classification's lower-case descriptions beside their codes and counts ("growing
    of rice ... Excludes wild rice" beside "0112 88"), not a text column's paragraph.  Tuned
    on a two-column brief whose figure labels took the column beside them in (the labelled
    set's tuning files).  A column on baselines of its own (``own_baselines``, see
    _own_baselines) is the page's next column whatever stands beside it: a table in one column
    of a two-column section, its rows further apart than the prose lines beside them."""
    pieces = [(r.cells[c], sum(map(bool, r.cells)) > 1) for r in rows if r.cells[c]]
    if len(pieces) < 3 or statistics.median(len(t.split()) for t, _ in pieces) < PAGE_COLUMN_WORDS \
            or not any(SENTENCE_INSIDE.search(t) for t, _ in pieces):
        return False
    runs = [b[:1].islower() and a.rstrip()[-1:] not in ".:;!?"
            for (a, _), (b, _) in zip(pieces, pieces[1:], strict=False)]
    if sum(runs) < RUN_ON_SHARE * len(runs) \
            or not any(run and shared for run, (_, shared) in zip(runs, pieces[1:], strict=True)):
        return False
    beside = [t for r in rows if r.cells[c] for i, t in enumerate(r.cells) if i != c and t]
    return own_baselines \
        or sum(_is_numeric(t) or bool(DATE.match(t.strip())) for t in beside) <= len(beside) / 2


def _continued_column(pieces: list[list[_Group]], c: int, above: list[Word]) -> bool:
    """Whether the block's first or last column ``c`` goes on with a paragraph of the page's
    next text column begun above the block (``above``, the page's words over it): a table in
    one column of a two-column page takes in the other column's lines beside its first rows,
    a few words each and ending no sentence, too few for :func:`_page_column`.  The column's
    first piece starts in lower case at the x of the text line right above it (CONTINUED_ALIGN
    of the size), which ends no sentence, one line pitch of the column's own pieces higher: the
    paragraph runs on at its own x and spacing, its lines of several words.  A table's cells
    under a line of text start their own texts, or stand at the pitch of the table's rows, not
    the text's."""
    own = [[w for words, col in groups if col == c for w in words] for groups in pieces]
    own = [words for words in own if words]
    if len(own) < 2 or not own[0][0].text[:1].islower():
        return False
    first = own[0]
    size = max(statistics.median(w.size for w in first), 4.0)
    x0, x1 = min(w.x0 for w in first), max(w.x1 for w in first)
    # (Pieces of one line may come apart across the column's gutters: each line once.)
    tops = sorted({round(min(w.top for w in words), 1) for words in own})
    pitch = tops[1] - tops[0] if len(tops) >= 2 else 0.0
    near = [w for w in above if w.x1 > x0 and w.x0 < x1 and w.bottom <= tops[0]]
    if not near or pitch <= 0:
        return False
    top = max(w.top for w in near)
    line = sorted((w for w in near if abs(w.top - top) < OFF_BASELINE * size), key=attrgetter("x0"))
    # (Lines of prose, PROSE_BESIDE_WORDS words each or more: a statement's code set at one
    # indent under its keywords, "user_type" over "FROM function_usage", runs on so too.)
    if len(line) < PROSE_BESIDE_WORDS or statistics.median(map(len, own)) < PROSE_BESIDE_WORDS:
        return False
    return abs(line[0].x0 - min(w.x0 for w in first)) < CONTINUED_ALIGN * size \
        and abs(tops[0] - top - pitch) < CONTINUED_ALIGN * size \
        and line[-1].text.rstrip()[-1:] not in ".:;!?"


def _own_baselines(pieces: list[list[_Group]], c: int) -> bool:
    """Whether most of column ``c``'s pieces that share a line with other cells (three or
    more such lines) are set on another baseline than those cells, OFF_BASELINE of the size
    or more away: lines of text beside the table at their own pitch, taken into its rows by
    overlapping them.  A cell's text starts on its row's baseline."""
    off = []
    for groups in pieces:
        own = [w for words, col in groups if col == c for w in words]
        others = [w for words, col in groups if col != c for w in words]
        if own and others:
            size = max(statistics.median(w.size for w in own), 4.0)
            off.append(abs(min(w.bottom for w in own) - statistics.median(w.bottom for w in others))
                       > OFF_BASELINE * size)
    return len(off) >= 3 and sum(off) > len(off) / 2


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
    found = [t for b in _candidate_blocks(_lines(keep), []) if (t := _stream_table(b)) is not None]
    return max(found, key=lambda t: _filled(t.cells)) if found else None
