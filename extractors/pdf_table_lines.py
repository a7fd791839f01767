"""Words into lines for the unruled table finder (:mod:`extractors.pdf_tables`): words become
lines, a line splits into segments where the gap between two words is wide (or between two
numbers); and what one line is on its own (a caption, a list item, a time, a journey, its
figures).
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter

from extractors.pdf_leaders import might_hold_leaders, without_leaders
from extractors.pdf_table_model import CELL_GAP_EM, DATE, LIST_MARKER, TIME, _is_numeric
from extractors.pdf_words import Word

# Fonts of pictographs: a lone character in one is a bullet whatever character it maps to
# (Wingdings' square is "§", its arrow "Ø").
SYMBOL_FONT = re.compile(r"symbol|wingdings|webdings|dingbats", re.IGNORECASE)
# A caption or source line under or over a table ("Table 10:", "Source:"): not a row.
CAPTION = re.compile(r"^((table|tab\.|figure|fig\.|chart|exhibit)\s+[\dA-Z][\w.-]*[:.]?(\s|$)|"
                     r"(sources?|notes?)\s*:)", re.IGNORECASE)


@dataclass
class _Line:
    """A text line; read only once :func:`_lines` has built it, so that its size, segments
    and whether it can be a table row are worked out once (every rule asks, several times)."""

    words: list[Word] = field(default_factory=list)
    top: float = 0.0
    bottom: float = 0.0

    @cached_property
    def size(self) -> float:
        return statistics.median(map(attrgetter("size"), self.words)) if self.words else 0.0

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
    def numeric_share(self) -> float:
        """The share of its words that are figures (asked of each line by several rules)."""
        return sum(_is_numeric(w.text) for w in self.words) / len(self.words)

    @cached_property
    def tabular(self) -> bool:
        """It can be a table row: two or more segments, not a list item, not a caption."""
        return len(self.segments) >= 2 and not _list_item(self) and not _caption(self)


def _lines(words: list[Word]) -> list[_Line]:
    """Words grouped into text lines by vertical overlap with a line's first word (not its
    grown box, which would chain closely set lines together), top to bottom, each left to
    right."""
    lines: list[_Line] = []
    # The (top, bottom) of each line's first word, kept apart: the loop below runs for
    # every word of a page against four lines, and attribute look-ups were most of its cost.
    firsts: list[tuple[float, float]] = []
    count = 0  # len(lines)
    for w in sorted(words, key=attrgetter("top", "x0")):
        top, bottom = w.top, w.bottom
        # (min and max spelled out, as the builtins pick between equal and unordered values:
        # max(a, b) is b only when b > a, min(a, b) b only when b < a)
        tall = bottom - top
        height = 0.1 if 0.1 > tall else tall
        best, best_overlap = -1, 0.0
        for index in range(count - 4 if count > 4 else 0, count):
            first_top, first_bottom = firsts[index]
            low = bottom if bottom < first_bottom else first_bottom
            high = top if top > first_top else first_top
            overlap = low - high
            if overlap > best_overlap:
                first_tall = first_bottom - first_top
                if overlap >= 0.5 * (first_tall if first_tall < height else height):
                    best, best_overlap = index, overlap
        if best < 0:
            lines.append(_Line([w], top, bottom))
            firsts.append((top, bottom))
            count += 1
        else:
            line = lines[best]
            line.words.append(w)
            if top < line.top:
                line.top = top
            if bottom > line.bottom:
                line.bottom = bottom
    leaders = might_hold_leaders(words)
    for line in lines:
        line.words.sort(key=attrgetter("x0"))
        # (A tab leader drawn into the label's word would join the label's column to the next.
        # The page's test, then the line's: a line the test finds none on has none to take out,
        # and a page with one spaced ". ." has many lines without.)
        if leaders and might_hold_leaders(line.words):
            line.words = without_leaders(line.words) or line.words
    return sorted(lines, key=lambda line: line.top)


def _segments(line: _Line) -> list[list[Word]]:
    return line.segments


def _caption(line: _Line) -> bool:
    """A line opening a caption or a source note ("Table 3:", "Figure 2.", "Source:")."""
    return bool(CAPTION.match(" ".join(w.text for w in line.words[:3])))


def _list_item(line: _Line) -> bool:
    """A bullet or numbered list item: a marker, then text (at most one gap: a marker and an
    item); it ends a table above it rather than becoming a row of it."""
    segments = _segments(line)
    return len(segments) <= 2 and _marker(line.words[0]) and not all(_is_numeric(w.text) for w in line.words)


def _marker(word: Word) -> bool:
    return bool(LIST_MARKER.match(word.text)) or (len(word.text) == 1 and bool(SYMBOL_FONT.search(word.font)))


def _timed(line: _Line) -> bool:
    """Whether most of the line's words after its first are times of day or figures, a time
    among them: a timetable's journey ("2101  07:09  –  07:21"), a row of data though few
    of its words are figures."""
    rest = [w.text for w in line.words[1:]]
    return any(TIME.match(t) for t in rest) \
        and sum(_is_numeric(t) or bool(TIME.match(t)) for t in rest) > len(rest) / 2


def _journey(line: _Line) -> bool:
    """Whether the line's words after its first are times of day and dashes alone, a time
    among them: a timetable's journey ("2101  07:09  –  07:21"), no figure beside its times."""
    rest = [w.text for w in line.words[1:]]
    return any(_clock(t) for t in rest) \
        and all(_clock(t) or _is_numeric(t) and not any(ch.isdigit() for ch in t) for t in rest)


def _clock(text: str) -> bool:
    """Whether ``text`` is a time of day no figure could be ("07:09", "07:40a"; not "7.42",
    which a price list's "12.50" is as much)."""
    return bool(TIME.match(text)) and not _is_numeric(text)


def _figure_segments(line: _Line) -> float:
    """The share of figures or dates among the line's segments after the first, when the
    first is a text of several words (three or more, mostly words of letters): a row of
    figures beside a description (a spreadsheet's) is data, though most of its words are
    not.  (0 otherwise: in a dense listing, codes and dates set close share a segment.)"""
    segments = _segments(line)
    first, rest = segments[0], segments[1:]
    if len(first) < 3 or not rest or sum(w.text.isalpha() for w in first) < 0.75 * len(first):
        return 0.0
    figures = sum(all(_is_numeric(w.text) or DATE.match(w.text) for w in seg) for seg in rest)
    return figures / len(rest)


def _numeric_share(line: _Line) -> float:
    return line.numeric_share
