"""The gutters between justified columns of running text, found from the words of a page's
rows before those rows are cut into lines.

An official register (the Federal Register's notices) sets its text in two or three narrow
justified columns a fifth of an inch apart: a line of long words stretches its spaces as
wide as that gutter, so the gap between two columns' lines on one baseline is no wider than
the spaces inside them and the row is read as one line across the columns.  What tells the
gutter is that both of its sides are flush: every full line of the left column ends at one x
(the column's right edge) and every line of the right column not indented starts at one x
(its left edge), on row after row, with prose on both sides -- a stretched space inside a
line stands wherever the words put it.  Only gutters so proved are returned, so a page set
ragged, a table's cells or a form's labels and values are never cut here (their rows keep
the splitting by gap widths of the line builder).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from extractors.pdf_words import Word

# A gutter is at least this many sizes wide (a justified line's plainest spaces are narrower)
# and at most this many (wider gaps are split by their width alone).
_MIN_GAP = 0.8
_MAX_GAP = 3.0
# Edges within this many points are one edge, flush with each other (a column's flush edge
# varies by hundredths).
FLUSH_EDGE = 0.6
# Rows ending flush on the left and starting flush on the right of one strip: at least this
# many, each with this many words on either side of the strip (prose, not cells).
_MIN_ROWS = 6
_PROSE_WORDS = 3
# A justified line's spaces are alike to this many points (a word's box may fall a little
# short of its advance).
_EVEN_SPACES = 0.8


def justified_gutters(rows: Sequence[Sequence[Word]]) -> list[tuple[float, float]]:
    """The strips ``(right edge of the left column, left edge of the right column)`` between
    justified columns, from a page's rows of words (each sorted left to right)."""
    gaps: list[tuple[float, float, float]] = []
    for row in rows:
        for at in range(_PROSE_WORDS - 1, len(row) - _PROSE_WORDS + 1):
            a, b = row[at], row[at + 1]
            size = max(a.size, b.size)
            if _MIN_GAP * size <= b.x0 - a.x1 <= _MAX_GAP * size \
                    and _prose(row[at + 1 - _PROSE_WORDS:at + 1]) \
                    and _prose(row[at + 1:at + 1 + _PROSE_WORDS]):
                gaps.append((a.x1, b.x0, row[0].x0))
    if len(gaps) < _MIN_ROWS:
        return []
    # Candidate right edges: those that many gaps open at (to the point, counted with the
    # neighbouring points so an edge at x.5 is not split in two).
    ends = Counter(round(x1) for x1, _, _ in gaps)
    found: list[tuple[float, float]] = []
    for edge, _count in ends.most_common():
        if sum(ends[edge + d] for d in (-1, 0, 1)) < _MIN_ROWS:
            break
        if any(x0 - 1 <= edge <= x1 + 1 for x0, x1 in found):
            continue
        strip = _flush_strip([gap for gap in gaps if abs(gap[0] - edge) <= 1.5])
        if strip is not None and not any(strip[0] < x1 and strip[1] > x0 for x0, x1 in found):
            found.append(strip)
    return sorted(found)


def _prose(words: Sequence[Word]) -> bool:
    """Whether neighbouring words read as a line of prose: words of letters, most of them, a
    space alike between each two (a justified line spreads its spaces evenly; a table's cells,
    figures set right and their labels, stand at gaps of every width)."""
    if sum(1 for word in words if any(ch.isalpha() for ch in word.text)) < len(words) - 1:
        return False
    gaps = [b.x0 - a.x1 for a, b in zip(words, words[1:], strict=False)]
    return max(gaps) - min(gaps) <= _EVEN_SPACES


def _flush_strip(gaps: list[tuple[float, float, float]]) -> tuple[float, float] | None:
    """The strip most of ``gaps`` (near one right edge) open and close at, both edges flush
    within FLUSH_EDGE on _MIN_ROWS of them, and the rows those are on starting flush at the left
    too (the page's first column: a form's labels set right against its values start ragged);
    None if they do not."""
    ends = sorted(x1 for x1, _, _ in gaps)
    end = ends[len(ends) // 2]
    flush = [(x1, x0, left) for x1, x0, left in gaps if abs(x1 - end) <= FLUSH_EDGE]
    starts = sorted(x0 for _, x0, _ in flush)
    if not starts:
        return None
    start = starts[len(starts) // 2]
    both = [(x1, left) for x1, x0, left in flush if abs(x0 - start) <= FLUSH_EDGE]
    lefts = sorted(left for _, left in both)
    if len(both) < _MIN_ROWS or max(sum(1 for other in lefts if abs(other - left) <= FLUSH_EDGE)
                                    for left in lefts) < _MIN_ROWS:
        return None
    return max(x1 for x1, _ in both), start


def cut_at_gutters(row: list[Word], gutters: Sequence[tuple[float, float]]) -> list[list[Word]]:
    """A row (sorted left to right) cut wherever two neighbouring words stand on either side
    of a justified gutter's middle, further apart than a plain space (a line across the
    columns, a running head, may have a space there)."""
    if not gutters or len(row) < 2:
        return [row]
    pieces = [[row[0]]]
    for a, b in zip(row, row[1:], strict=False):
        if b.x0 - a.x1 >= _MIN_GAP * max(a.size, b.size) \
                and any(a.x1 <= (x0 + x1) / 2 <= b.x0 for x0, x1 in gutters):
            pieces.append([b])
        else:
            pieces[-1].append(b)
    return pieces


def column_ends(words: Sequence[Word], gutters: Sequence[tuple[float, float]]) -> list[float]:
    """The right edge of each column between the gutters: a gutter's left side, and for the
    last column the furthest its words reach."""
    last = (gutters[-1][0] + gutters[-1][1]) / 2 if gutters else float("-inf")
    return [x0 for x0, _ in gutters] + [max((w.x1 for w in words if w.x0 >= last), default=last)]


def fills_column(piece: Sequence[Word], gutters: Sequence[tuple[float, float]],
                 ends: Sequence[float]) -> bool:
    """Whether a row's piece in one column reaches the column's right edge: a justified line,
    its spaces stretched alike however wide (a name in capitals set in a narrow column,
    "ENVIRONMENTAL    PROTECTION"), never cut at them."""
    if len(piece) < 2:
        return False
    centre = (piece[0].x0 + piece[-1].x1) / 2
    column = sum(1 for x0, x1 in gutters if centre > (x0 + x1) / 2)
    return abs(piece[-1].x1 - ends[column]) <= FLUSH_EDGE


# A page takes the gutters its document's other pages proved (see inherited_gutters) when at
# most this many of its rows set a word over a gutter's middle (a running head, a title across
# the columns), and at least this many rows hold words on both sides of it.
_CROSSING_ROWS = 2
_SPLIT_ROWS = 2


def inherited_gutters(pages: Sequence[Sequence[Sequence[Word]]],
                      found: Sequence[Sequence[tuple[float, float]]]) -> list[list[tuple[float, float]]]:
    """Each page's gutters (``found``, from its own rows ``pages``), a page without any given
    those that two other pages of the document proved alike where its own rows agree: no word
    stands over them but on a row or two across the columns, and words stand on both sides of
    them.  A register's page whose last column holds a few lines ("[FR Doc. ...]", "BILLING
    CODE ...") beside a full first one proves no gutter of its own (too few rows hold prose on
    both sides), and its columns' lines would be read across, one row of each in turn."""
    if all(found) or not any(found):
        return [list(page) for page in found]
    # The pages' strips by where they start, to the point: a strip's like ones within a point
    # are in its bucket or the two beside it (linear in the pages: a document of thousands of
    # pages compared every page's strips with every other page's in seconds).
    by_start: dict[int, list[tuple[int, tuple[float, float]]]] = defaultdict(list)
    for index, page in enumerate(found):
        for strip in page:
            by_start[round(strip[0])].append((index, strip))
    strips: list[tuple[float, float]] = []
    single: list[tuple[float, float]] = []
    seen: dict[int, list[float]] = defaultdict(list)  # the starts of the strips kept, by the point
    for page in found:
        for strip in page:
            key = round(strip[0])
            if any(abs(strip[0] - x) <= 1 for k in (key - 1, key, key + 1) for x in seen.get(k, ())):
                continue
            seen[key].append(strip[0])
            alike = {index for k in (key - 1, key, key + 1) for index, other in by_start.get(k, ())
                     if abs(strip[0] - other[0]) <= 1 and abs(strip[1] - other[1]) <= 1}
            if len(alike) >= 2:
                strips.append(strip)
            else:
                single.append(strip)
    # A strip one page alone proved: a page takes it only where its own short column is the
    # second witness (see _short_column_at); looked up by that column's start, to the point.
    by_end: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for strip in single:
        by_end[round(strip[1])].append(strip)
    out = []
    for rows, own in zip(pages, found, strict=True):
        if own:
            out.append(list(own))
            continue
        kept = [strip for strip in sorted(strips) if _agrees(rows, strip)]
        for start in _prose_starts(rows) if by_end else ():
            kept += [strip for k in (round(start) - 1, round(start), round(start) + 1)
                     for strip in by_end.get(k, ()) if abs(strip[1] - start) <= FLUSH_EDGE + 0.5
                     and strip not in kept and _agrees(rows, strip) and _short_column_at(rows, strip)]
        out.append(sorted(kept))
    return out


# A page takes a gutter only one other page proved when the lines right of it are a justified
# column's: at least this many rows whose part right of the strip starts at its right edge,
# holds this many words of prose and ends flush with the others at one right edge.
_SHORT_COLUMN_ROWS = 3
_SHORT_COLUMN_WORDS = 6


def _prose_starts(rows: Sequence[Sequence[Word]]) -> list[float]:
    """The x where _SHORT_COLUMN_ROWS rows or more start a run of prose right of a gap (to the
    point): where a short justified column may start."""
    starts: Counter[int] = Counter()
    for row in rows:
        for at in range(1, len(row) - _SHORT_COLUMN_WORDS + 1):
            if row[at].x0 - row[at - 1].x1 >= _MIN_GAP * row[at].size \
                    and _prose(row[at:at + _SHORT_COLUMN_WORDS]):
                starts[round(row[at].x0)] += 1
        if row and len(row) >= _SHORT_COLUMN_WORDS and _prose(row[:_SHORT_COLUMN_WORDS]):
            starts[round(row[0].x0)] += 1
    return [float(x) for x, count in starts.items()
            if sum(starts[x + d] for d in (-1, 0, 1)) >= _SHORT_COLUMN_ROWS]


def _short_column_at(rows: Sequence[Sequence[Word]], strip: tuple[float, float]) -> bool:
    """Whether a page's lines right of ``strip`` are a justified column of prose starting at its
    right edge: _SHORT_COLUMN_ROWS rows or more whose words right of it start flush with that
    edge, run to _SHORT_COLUMN_WORDS words of prose and end flush with each other.  A register's
    page whose second column holds a paragraph's last few lines and the notice's closing lines
    proves no gutter of its own (too few rows); a listing's column of names or figures that a
    page "proved" a gutter beside (names ending at one x) is no such column."""
    middle = (strip[0] + strip[1]) / 2
    ends = []
    for row in rows:
        right = [w for w in row if w.x0 >= middle]
        if len(right) >= _SHORT_COLUMN_WORDS and abs(right[0].x0 - strip[1]) <= FLUSH_EDGE \
                and _prose(right[:_SHORT_COLUMN_WORDS]) and _prose(right[-_SHORT_COLUMN_WORDS:]):
            ends.append(right[-1].x1)
    return any(sum(1 for other in ends if abs(other - end) <= FLUSH_EDGE) >= _SHORT_COLUMN_ROWS
               for end in ends)


def _agrees(rows: Sequence[Sequence[Word]], strip: tuple[float, float]) -> bool:
    """Whether a page's rows read as columns either side of ``strip``: few rows set a word over
    its middle, and some rows hold words on both sides of it, a space at least as wide as the
    strip between them."""
    middle = (strip[0] + strip[1]) / 2
    crossing = sum(1 for row in rows if any(w.x0 < middle < w.x1 for w in row))
    split = sum(1 for row in rows
                if any(a.x1 <= strip[0] + 1 and b.x0 >= strip[1] - 1
                       for a, b in zip(row, row[1:], strict=False)))
    return crossing <= _CROSSING_ROWS and split >= _SPLIT_ROWS
