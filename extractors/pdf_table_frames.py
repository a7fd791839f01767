"""Tables framed by horizontal rules alone, as booktabs sets them (a rule over the header, one
under it, one under the last row, no column rules): research papers' results tables, in one
column of a two-column page or across both.

The page finder (:mod:`extractors.pdf_tables`) reads such a table from text alignment, as any
table without a grid, and on a two-column page alignment alone does not say where it ends: the
other column's lines beside it, cut by the gutter into pieces, line up as more cells, and the
two columns of prose under a table across the page read as more rows (each line two pieces).
The rules do say it: a table's rules span its width and close it at its foot.  Rules of one
extent, three or more stacked, frame a table; a table found from alignment that starts inside
such a frame and reaches out of it (or leaves the frame's first lines out, its header) is read
again from the frame's words alone, and its rows under the last rule within the rules' ends
(notes keyed to it, a total ruled over) with them.  Rules may span the figure columns only, the
rows' labels left of them (:func:`with_row_labels`): the frame reaches over those labels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from extractors.pdf_table_lines import _Line, _lines
from extractors.pdf_words import Word

# Rules whose ends are this close (points) span one table's width.
SAME_ENDS = 2.5
# Stacked rules of one extent that frame a table: top, under the header, bottom.
MIN_RULES = 3
# A table reaches out of its frame when its box passes the frame's rules by this much (points).
REACH = 2.0
# A row's label left of rules that span the figure columns only has at most this many words
# (a line of the other column's prose beside the frame has more).
LABEL_WORDS = 6
# Of the frame's rows, at least this share have a label level with them left of the rules.
LABELLED_ROWS = 0.5


class Segment(Protocol):
    """A merged ruling: ``at`` its y (horizontal) or x (vertical), ``start``/``end`` its extent."""

    at: float
    start: float
    end: float


class Table(Protocol):
    x0: float
    top: float
    x1: float
    bottom: float


T = TypeVar("T", bound=Table)


@dataclass(frozen=True)
class RuleFrame:
    """The box between the top and bottom rules of one extent."""

    x0: float
    top: float
    x1: float
    bottom: float
    # The rules' ys, top to bottom (see :func:`_frames_left`).
    rules: tuple[float, ...] = ()

    def holds(self, word: Word) -> bool:
        x, y = (word.x0 + word.x1) / 2, (word.top + word.bottom) / 2
        return self.x0 - 1 <= x <= self.x1 + 1 and self.top <= y <= self.bottom


def rule_frames(horizontal: Sequence[Segment], vertical: Sequence[Segment]) -> list[RuleFrame]:
    """Frames of MIN_RULES or more horizontal rules of one extent (ends within SAME_ENDS),
    crossed by no column rule (a grid is the ruled finder's)."""
    groups: list[list[Segment]] = []
    for rule in sorted(horizontal, key=lambda s: (round(s.start), round(s.end), s.at)):
        group = next((g for g in groups if abs(g[0].start - rule.start) <= SAME_ENDS
                      and abs(g[0].end - rule.end) <= SAME_ENDS), None)
        if group is None:
            groups.append([rule])
        else:
            group.append(rule)
    frames = []
    for group in groups:
        if len(group) < MIN_RULES:
            continue
        frame = RuleFrame(min(s.start for s in group), min(s.at for s in group),
                          max(s.end for s in group), max(s.at for s in group),
                          tuple(sorted(s.at for s in group)))
        crossed = any(frame.x0 + SAME_ENDS < v.at < frame.x1 - SAME_ENDS
                      and v.start < frame.bottom and v.end > frame.top for v in vertical)
        if not crossed:
            frames.append(frame)
    return frames


def loose_in(table: Table, frame: RuleFrame, words: Sequence[Word]) -> bool:
    """Whether ``table`` starts inside ``frame`` and does not keep to it: it reaches past the
    rules' ends, or the frame holds words above its first row (its header)."""
    if not (frame.top - REACH <= table.top < frame.bottom and table.x0 < frame.x1 and frame.x0 < table.x1):
        return False
    if table.x0 < frame.x0 - REACH or table.x1 > frame.x1 + REACH:
        return True
    # (Rows under the last rule and within the rules' ends are the table's still: a total ruled
    # over and not under, notes keyed to it; two columns of prose under a table across the page
    # reach past the rules' ends.)
    return any(frame.holds(word) and word.bottom < table.top - 1 for word in words)


def kept_in(frame: RuleFrame, table: Table, whole: bool = False) -> bool:
    """Whether ``table`` keeps within ``frame``'s rules' ends and starts inside it, a table the
    rules vouch for (see :func:`within_frames`); ``whole``: it also ends by the last rule
    (stands wholly inside the frame), else it need only start above that rule (its rows under
    it are notes or a total: see :func:`loose_in`)."""
    if not (frame.x0 - REACH <= table.x0 and table.x1 <= frame.x1 + REACH and frame.top - REACH <= table.top):
        return False
    return table.bottom <= frame.bottom + REACH if whole else table.top < frame.bottom


def _reading(frame: RuleFrame, loose: Sequence[Table]) -> RuleFrame:
    """Where the tables loose in ``frame`` are read again: the frame, down to the foot of those
    reaching under its last rule within the rules' ends (rows there are a table's still, notes
    keyed to it or a total: see :func:`loose_in`; read from the frame alone, a table loose only
    for its header left out lost them, and a page's running head beside them in the body's size
    read as a heading)."""
    bottoms = [t.bottom for t in loose if frame.x0 - REACH <= t.x0 and t.x1 <= frame.x1 + REACH]
    return RuleFrame(frame.x0, frame.top, frame.x1, max([frame.bottom, *bottoms]))


def within_frames(tables: list[T], words: Sequence[Word], frames: Sequence[RuleFrame],
                  find: Callable[[list[Word]], Sequence[T]]) -> list[T]:
    """The tables, each that is loose in a frame replaced by the tables ``find`` reads from the
    frame's words (and the rows it keeps under the frame: see :func:`_reading`) that overlap it
    (kept as it was where none does).  A frame is read once: rules of one extent may frame two
    tables one over the other (each read again where it overlaps), and a table found in two
    parts, its header apart from its body, is read whole once.  A table the reading finds
    wholly in the frame where no table was found is kept too; and a frame holding a table
    found whole is that table's, but the rules it does not span, three or more, frame another
    (:func:`_frames_left`), read in turn: for the tables loose in it, or for one where none
    was found."""
    frame_of = {id(t): next((f for f in frames if loose_in(t, f, words)), None) for t in tables}
    # (A frame that holds a table found whole, not loose in it, is that table's; the others it
    # spans are no part of it: rules of one width set through a page of several tables, or
    # over a table and its continuation, frame none of them alone.)
    taken = {f for f in frames for t in tables if frame_of[id(t)] is None and kept_in(f, t, whole=True)}
    frame_of = {key: None if frame in taken else frame for key, frame in frame_of.items()}
    # (The rules under or over those tables, three or more, frame another table of one width:
    # two booktabs tables one under the other in one column of a two-column page.)
    left = [sub for f in taken for sub in _frames_left(
        f, [t for t in tables if frame_of[id(t)] is None and kept_in(f, t, whole=True)])]
    regions = {f: _reading(f, [t for t in tables if frame_of[id(t)] == f]) for f in frames}
    out: list[T] = []
    read: dict[RuleFrame, Sequence[T]] = {}
    used: set[int] = set()
    for table in tables:
        frame = frame_of[id(table)]
        if frame is None:
            out.append(table)
            continue
        if frame not in read:
            read[frame] = find([w for w in words if regions[frame].holds(w)])
        again = [t for t in read[frame] if t.x0 < table.x1 and table.x0 < t.x1
                 and t.top < table.bottom and table.top < t.bottom]
        out.extend(t for t in again if id(t) not in used)
        used.update(id(t) for t in again)
        if not again:
            out.append(table)
    # (A table the frame's reading finds wholly inside it where nothing was found is another
    # table of the frame: the first of two one under the other, beside the other column's
    # prose, which alignment did not find.)
    for frame, found in read.items():
        out.extend(t for t in found if id(t) not in used and kept_in(frame, t, whole=True)
                   and not any(overlaps(t, other) for other in out))
    if not left:
        return out
    out = within_frames(out, words, left, find)
    for sub in left:
        if not any(overlaps(t, sub) for t in out):
            out.extend(t for t in find([w for w in words if sub.holds(w)]) if kept_in(sub, t, whole=True))
    return out


def with_row_labels(frames: Sequence[RuleFrame], words: Sequence[Word],
                    gutters: Sequence[tuple[float, float]]) -> list[RuleFrame]:
    """The frames, each widened to the left over its rows' labels where its rules span only the
    figure columns (a booktabs table whose rules start right of its label column): short lines
    (LABEL_WORDS at most) left of the rules, between the top rule and the bottom one, each level
    with a row of words inside the frame, for LABELLED_ROWS of those rows at least, and on the
    frame's side of every gutter between justified columns and right of every piece of a line
    there longer than a label, cut at a cell's gap (the other column's prose beside a table is
    no label).  Lines and their pieces are the table finder's (:mod:`extractors.pdf_table_lines`)."""
    out = []
    for frame in frames:
        rows = _lines([w for w in words if frame.holds(w)])
        middles = [(x0 + x1) / 2 for x0, x1 in gutters if (x0 + x1) / 2 < frame.x0]
        edge = max(middles, default=float("-inf"))
        left = [w for w in words if edge < w.x0 and w.x1 <= frame.x0 + 1
                and frame.top < (w.top + w.bottom) / 2 < frame.bottom]
        # (Labels stand right of the other column's lines, its ragged prose beside the table:
        # a piece of a line longer than a label, cut at a cell's gap, is that prose.)
        pieces = [piece for line in _lines(left) for piece in line.segments]
        edge = max((w.x1 for piece in pieces if len(piece) > LABEL_WORDS for w in piece), default=edge)
        lines = _lines([w for w in left if edge < w.x0])
        labels = [line for line in lines if len(line.words) <= LABEL_WORDS
                  and any(_level(line, row) for row in rows)]
        if not rows or len(labels) < LABELLED_ROWS * len(rows) or len(labels) != len(lines):
            out.append(frame)
            continue
        out.append(RuleFrame(min(w.x0 for line in labels for w in line.words), frame.top, frame.x1,
                             frame.bottom, frame.rules))
    return out


def _level(a: _Line, b: _Line) -> bool:
    """Whether two lines stand level: the first's middle within the second's height."""
    return b.top <= (a.top + a.bottom) / 2 <= b.bottom


def across_gutters(frames: Sequence[RuleFrame], gutters: Sequence[tuple[float, float]]) -> list[RuleFrame]:
    """The frames whose rules cross the middle of a gutter between justified columns: a table
    set across the columns of a two-column page (LaTeX's ``table*``, CSS ``column-span: all``),
    whose rules say where the columns' text stops and starts again (see
    :func:`extractors.pdf_table_blocks._cut_at_frames`)."""
    middles = [(x0 + x1) / 2 for x0, x1 in gutters]
    return [f for f in frames if any(f.x0 < m < f.x1 for m in middles)]


def overlaps(a: Table, b: Table | RuleFrame) -> bool:
    """Whether ``a`` and ``b`` share some of the page (edges touching share none)."""
    return a.x0 < b.x1 and b.x0 < a.x1 and a.top < b.bottom and b.top < a.bottom


def _frames_left(frame: RuleFrame, tables: Sequence[Table]) -> list[RuleFrame]:
    """The frames made by ``frame``'s rules that none of ``tables`` (found whole in it) spans,
    MIN_RULES or more one after the other: a table spans its rules from the last over its top
    to the first under its foot (its closing rule)."""
    spanned: set[float] = set()
    for table in tables:
        over = [y for y in frame.rules if y <= table.top + REACH]
        under = [y for y in frame.rules if y >= table.bottom - 1]
        first, last = max(over, default=table.top), min(under, default=table.bottom)
        spanned.update(y for y in frame.rules if first <= y <= last)
    runs: list[list[float]] = [[]]
    for y in frame.rules:
        if y in spanned:
            runs.append([])
        else:
            runs[-1].append(y)
    return [RuleFrame(frame.x0, run[0], frame.x1, run[-1], tuple(run))
            for run in runs if len(run) >= MIN_RULES]
