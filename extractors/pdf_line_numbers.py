"""Line numbers set beside running text: a patent's description numbered every fifth line in
the gutter between its columns (and Word's or LibreOffice's line numbering, left of each
column), a bill's or a pleading's lines numbered in the margin.  They are no text: left in,
each one is a line of its own read between the columns, a narrow column that hides the gutter,
a word glued into a sentence, or a table's first column.

A page's line numbers are bare integers in one column (their right edges or their centres
level), going down the page by one step (5, 10, 15; or 1, 2, 3), each set apart from the words
beside it, and next to running text: a prose line starts just right of most of them, and as
many of that text's lines stand between two numbers as the step counts (four between "5" and
"10").  A table's column of row numbers or of years five apart fails the last: its rows follow
one another.  Numbered every line (a step of one), the numbers must also stand in the margin,
left of all the page's other words, and be many.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import attrgetter

from extractors.pdf_words import Word

# Numbers in a column, at least: a step over one (every fifth line), or one (every line).
_MIN_NUMBERS = 3
_MIN_EVERY_LINE = 8
# Edges (or centres) within this many points are one column.
_ALIGN = 1.5
# A line number stands clear of the words on either side by this many of its sizes (set in a
# narrow gutter, it may come closer to the column on its left than a word space: its column of
# numbers, their steps and the prose beside them tell it from a figure in a sentence).
_APART = 0.2
# The numbered text starts at least this many sizes right of a number in the margin (step one).
_MARGIN = 0.6
# The running text right of a number: a line at least this many sizes wide, of this many words.
_PROSE_WIDTH = 10.0
_PROSE_WORDS = 4
# At most this share of the rows between the numbers have a word in their strip (a title
# centred across a gutter).
_CROSSING_SHARE = 0.15
# This share of the numbers has prose beside it (a number beside a blank line, a heading's
# short line or the last line of a paragraph may not).
_PROSE_SHARE = 0.6
# Numbers a known column takes on another page stand at least this share of their counts of
# lines apart, at its pitch (a blank line between paragraphs is not counted: never closer).
_PACE = 0.5


def _right(word: Word) -> float:
    return word.x1


def _centre(word: Word) -> float:
    return (word.x0 + word.x1) / 2


# Line numbers set flush right, or centred (in a gutter).
_EDGES: tuple[Callable[[Word], float], ...] = (_right, _centre)


@dataclass(frozen=True)
class _NumberColumn:
    """Where a page's line numbers stand (their right edges or centres) and their step."""

    edge: int  # index into _EDGES
    at: float
    step: int
    # Points down the page a count (a line), between its first and last numbers.
    pitch: float


def line_numbers(pages: Sequence[Sequence[Word]]) -> list[set[int]]:
    """Each page's line numbers, as indices into its words.  A page's short column of numbers
    (the last page's one or two) counts where other pages have a column of them at its place,
    each number on their step and apart from the words beside it (a figure alone there is no
    text either).  Two or more such numbers stand as far apart as their counts of lines take at
    the column's pitch at least: a table's figures under another page's gutter ("10", "25",
    "40" a row apart) are not numbering lines."""
    found = [_page_line_numbers(words) for words in pages]
    # (One column a place and step, however many pages have it: each number is tested against
    # every known column.)
    known = list({(c.edge, round(c.at), c.step): c for _, columns in found for c in columns}.values())
    out = []
    for words, (numbers, _) in zip(pages, found, strict=True):
        if known:
            bare = [k for k in _bare_numbers(words) if k not in numbers]
            for column in known:
                taken = [k for k in bare if k not in numbers
                         and abs(_EDGES[column.edge](words[k]) - column.at) <= _ALIGN
                         and int(words[k].text) % column.step == 0 and _stands_apart(words[k], words)]
                numbers |= _paced(taken, words, column)
        out.append(numbers)
    return out


def _paced(taken: list[int], words: Sequence[Word], column: _NumberColumn) -> set[int]:
    """Of the numbers a known column takes on a page, those a line number could be: one alone,
    or one that stands, from another of them, at least half as far as their counts of lines
    take at the column's pitch, the larger count lower down."""
    if len(taken) < 2:
        return set(taken)

    def centre(k: int) -> float:
        return (words[k].top + words[k].bottom) / 2

    def paced(a: int, b: int) -> bool:
        if centre(a) > centre(b):
            a, b = b, a
        counts = int(words[b].text) - int(words[a].text)
        return counts > 0 and centre(b) - centre(a) >= _PACE * counts * column.pitch

    return {a for a in taken if any(paced(a, b) for b in taken if b != a)}


def _page_line_numbers(words: Sequence[Word]) -> tuple[set[int], set[_NumberColumn]]:
    """The indices (into ``words``) of the page's line numbers, and their columns."""
    candidates = _bare_numbers(words)
    if len(candidates) < _MIN_NUMBERS:
        return set(), set()
    # The page's rows only once a column steps as line numbers do: most pages have none, and
    # sorting every word of every page cost the fast track more than the rest of this module.
    rows: list[tuple[float, float, float]] | None = None
    found: set[int] = set()
    columns: set[_NumberColumn] = set()
    for index, edge in enumerate(_EDGES):
        for column in _aligned(candidates, words, edge):
            if found.intersection(column):
                continue
            step = _steps(column, words)
            if not step:
                continue
            if rows is None:
                rows = _rows(words)
            if _numbers_lines(column, words, rows, step):
                column = _extended(column, words, candidates, found, step)
                found.update(column)
                at = sorted(edge(words[k]) for k in column)[len(column) // 2]
                first, last = words[column[0]], words[column[-1]]
                pitch = ((last.top + last.bottom) / 2 - (first.top + first.bottom) / 2) \
                    / (int(last.text) - int(first.text))
                columns.add(_NumberColumn(index, at, step, pitch))
    return found, columns


def _extended(column: list[int], words: Sequence[Word], candidates: list[int], found: set[int],
              step: int) -> list[int]:
    """A column of line numbers with the numbers before its first and after its last that
    stand over and under it, one step apart, their boxes within a size of its own but their
    edges not level with its (a single "5" set over "10" to "30" right-aligned: its glyph's box
    is narrower, and ends a point or two off theirs), each apart from the words beside it."""
    x0 = min(words[k].x0 for k in column)
    x1 = max(words[k].x1 for k in column)
    size = words[column[0]].size
    loose = [k for k in candidates if k not in found and k not in column
             and words[k].x0 >= x0 - size and words[k].x1 <= x1 + size]
    column = list(column)
    for ahead in (True, False):
        while True:
            end = words[column[0] if ahead else column[-1]]
            want = int(end.text) + (-step if ahead else step)
            nearest = None
            for k in loose:
                word = words[k]
                if int(word.text) != want or (word.bottom > end.top if ahead else word.top < end.bottom):
                    continue
                if nearest is None or abs(word.top - end.top) < abs(words[nearest].top - end.top):
                    nearest = k
            if nearest is None or not _stands_apart(words[nearest], words):
                break
            loose.remove(nearest)
            column.insert(0 if ahead else len(column), nearest)
    return column


def _stands_apart(number: Word, words: Sequence[Word]) -> bool:
    """Whether no word on the number's row comes within _APART of its sizes of it."""
    size = number.size
    centre = (number.top + number.bottom) / 2
    return not any(w is not number and abs((w.top + w.bottom) / 2 - centre)
                   <= 0.4 * max(w.bottom - w.top, number.bottom - number.top)
                   and w.x1 > number.x0 - _APART * size and w.x0 < number.x1 + _APART * size for w in words)


# One to three ASCII figures, not all noughts (one match a word: the test runs on every word).
_BARE_NUMBER = re.compile(r"(?!0+$)[0-9]{1,3}")


def _bare_numbers(words: Sequence[Word]) -> list[int]:
    """The indices of the words that are bare numbers, in order.  (Every word of every page is
    tested: the matches are made and the indices picked in C, no Python step a word.)"""
    return list(compress(range(len(words)), map(_BARE_NUMBER.fullmatch, map(attrgetter("text"), words))))


def _rows(words: Sequence[Word]) -> list[tuple[float, float, float]]:
    """The page's rows of words, each its centre, height and left edge, top to bottom."""
    rows: list[list[float]] = []
    for word in sorted(words, key=lambda w: (w.top + w.bottom) / 2):
        centre, height = (word.top + word.bottom) / 2, word.bottom - word.top
        if rows and abs(centre - rows[-1][0]) <= 0.4 * max(height, rows[-1][1]):
            rows[-1][2] = min(rows[-1][2], word.x0)
            continue
        rows.append([centre, height, word.x0])
    return [(centre, height, x0) for centre, height, x0 in rows]


def _aligned(candidates: list[int], words: Sequence[Word], edge: Callable[[Word], float]) -> list[list[int]]:
    """The candidates in columns: runs of them whose ``edge`` is level, top to bottom."""
    at = sorted(candidates, key=lambda k: edge(words[k]))
    columns: list[list[int]] = []
    for k in at:
        if columns and edge(words[k]) - edge(words[columns[-1][0]]) <= _ALIGN:
            columns[-1].append(k)
        else:
            columns.append([k])
    return [sorted(column, key=lambda k: words[k].top) for column in columns if len(column) >= _MIN_NUMBERS]


def _steps(column: list[int], words: Sequence[Word]) -> int:
    """The step a column of numbers, top to bottom, goes down by (5 for 5, 10, 15), 0 when it
    does not; numbered every line (a step of one), it must be long and stand in the margin."""
    values = [int(words[k].text) for k in column]
    step = values[1] - values[0]
    if step < 1 or any(b - a != step for a, b in zip(values, values[1:], strict=False)):
        return 0
    return step if step > 1 or (len(column) >= _MIN_EVERY_LINE and _in_margin(column, words)) else 0


def _numbers_lines(column: list[int], words: Sequence[Word], rows: list[tuple[float, float, float]],
                   step: int) -> bool:
    """Whether a column of numbers that goes down by ``step`` (_steps), top to bottom, numbers
    the lines of running text beside it."""
    prose = 0
    for k in column:
        number = words[k]
        if not _stands_apart(number, words):
            return False  # a figure in a sentence or a cell beside another
        prose += _prose_right(number, words)
    if prose < _PROSE_SHARE * len(column) or not _in_empty_strip(column, words, rows):
        return False
    # As many lines of text between two numbers as the step counts (a blank line between
    # paragraphs is not counted, so there may be more room, never fewer lines).
    right_of = min(words[k].x1 for k in column)
    for upper, lower in zip(column, column[1:], strict=False):
        top = (words[upper].top + words[upper].bottom) / 2
        bottom = (words[lower].top + words[lower].bottom) / 2
        between = sum(1 for centre, height, _ in rows
                      if top + 0.5 * height < centre < bottom - 0.5 * height
                      and _row_has_text_right(words, centre, height, right_of))
        if between < step - 1:
            return False
    return True


def _in_empty_strip(column: list[int], words: Sequence[Word], rows: list[tuple[float, float, float]]) -> bool:
    """Whether the numbers stand in a strip the text between them leaves empty (a margin or a
    gutter): figures ending the lines of a justified column, level at its right edge, stand
    where its other lines' words do."""
    numbers = set(column)
    x0, x1 = min(words[k].x0 for k in column), max(words[k].x1 for k in column)
    top, bottom = words[column[0]].top, words[column[-1]].bottom
    crossed = {round((w.top + w.bottom) / 2) for k, w in enumerate(words)
               if k not in numbers and w.x0 < x1 and w.x1 > x0 and top < (w.top + w.bottom) / 2 < bottom}
    between = sum(1 for centre, _, _ in rows if top < centre < bottom)
    return len(crossed) <= _CROSSING_SHARE * max(1, between)


def _prose_right(number: Word, words: Sequence[Word]) -> bool:
    """Whether a line of running text starts right of ``number`` on its row (_PROSE_WORDS words
    at least, _PROSE_WIDTH of its sizes wide, up to the first gap of about an em)."""
    centre = (number.top + number.bottom) / 2
    right = sorted((w for w in words if w is not number and w.x0 >= number.x1
                    and abs((w.top + w.bottom) / 2 - centre)
                    <= 0.4 * max(w.bottom - w.top, number.bottom - number.top)), key=lambda w: w.x0)
    line = _line_from(right, number.size)
    return len(line) >= _PROSE_WORDS and line[-1].x1 - line[0].x0 >= _PROSE_WIDTH * number.size


def _line_from(right: list[Word], size: float) -> list[Word]:
    """The words right of a number up to the first gap wider than about an em (a column's
    line, not the next column's)."""
    line: list[Word] = []
    for word in right:
        if line and word.x0 - line[-1].x1 > 1.2 * size:
            break
        line.append(word)
    return line


def _row_has_text_right(words: Sequence[Word], centre: float, height: float, x: float) -> bool:
    return any(w.x0 >= x and abs((w.top + w.bottom) / 2 - centre) <= 0.4 * max(height, w.bottom - w.top)
               for w in words)


def _in_margin(column: list[int], words: Sequence[Word]) -> bool:
    """Whether the numbers stand left of every other word of the page (a table's column of row
    numbers has its heading over it, paragraphs start where it does)."""
    numbers = set(column)
    right = max(words[k].x1 for k in column)
    size = words[column[0]].size
    return all(w.x0 >= right + _MARGIN * size for k, w in enumerate(words) if k not in numbers)
