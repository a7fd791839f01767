"""Candidate blocks of the unruled table finder (:mod:`extractors.pdf_tables`): where a run of
lines that may be a table starts and ends.

A run of at least three lines split into segments (:mod:`extractors.pdf_table_lines`) is a
candidate (captions, "Source:" lines, list items and lines of prose end it).  A bold header
line right under a table's rows (a table of as many columns set under the first, no gap
between) starts another table, and so does a line in the body's weight holding words where the
rows above and below it hold figures.  A section number and
its title set apart (larger, or bold) over a line of running text in one piece are a heading,
which ends a candidate and starts none (Word headings typed as a number, a tab and the title
over their paragraphs).
"""

from __future__ import annotations

import itertools
import math
import re
import statistics
from collections.abc import Callable, Sequence

from extractors.pdf_table_frames import REACH, RuleFrame
from extractors.pdf_table_lines import _clock, _figure_segments, _journey, _Line, _numeric_share, _segments
from extractors.pdf_table_model import (
    ALIGNED,
    CELL_GAP_EM,
    DATE,
    GLYPH_SLACK,
    NOTE_LABEL,
    PROSE_BESIDE_WORDS,
    TIME,
    WORD_SPACE_EM,
    WRAP_TIGHTER,
    YEAR,
    FoundTable,
    _is_numeric,
)
from extractors.pdf_table_rows import _data_row, _years
from extractors.pdf_words import Box

# Words a table sets for a figure not available (see _words_over_figures).
NOT_AVAILABLE = frozenset(("n/a", "na", "nil", "none", "not available", "not applicable", "x", "z", "nk",
                           "n.a", "n/k", "s", "c", "low", "high", "tbc", "tbd", "pending", "withheld"))
# A header line this many line pitches or more under the row above starts a new table (see
# _split_at_new_header).
NEW_TABLE_GAP = 1.6
# Inside a candidate, a gap between lines larger than this many median line pitches ends it.
MAX_LINE_GAP = 2.6
# A candidate holds at least this many lines that can be rows (see _candidate_blocks).
BLOCK_ROWS = 3
# A page's footer band (its bottom share), and the gap (in line pitches) above a line in it
# that makes it no row of the table above (see _candidate_blocks).
FOOT_BAND = 0.08
FOOT_GAP = 1.5
# A page's number spelled out in its running footer.
PAGE_NUMBER = re.compile(r"^(page|p\.|pg\.?|seite|pagina|página)\s*\d{1,4}(\s*(of|/|von|de|sur)\s*\d{1,4})?$",
                         re.IGNORECASE)
# A line of one run of at least this many words with a sentence's full stop inside or at its
# end is prose: it ends a candidate instead of standing in it as a wrapped cell (two tables
# with a short paragraph between them were read as one; tuned on tests/pdf_cases.py's
# table_styles, seeds 1-10).
PROSE_LINE_WORDS = 8
# A table's caption ("Table A3.", "Tab. 2:"), which stands over its table: see _titles_table.
TABLE_CAPTION = re.compile(r"^(table|tab\.)\s+[\dA-Z][\w.-]*[:.]?(\s|$)", re.IGNORECASE)
# A figure's or chart's caption: the lines after it are the figure's, never a table's.
FIGURE_CAPTION = re.compile(r"^(figure|fig\.|chart|graph|map)\s+[\dA-Z][\w.-]*[:.]?(\s|$)", re.IGNORECASE)
SOURCE_NOTE = re.compile(r"^(sources?|notes?)\s*:", re.IGNORECASE)
# A first cell of this many words or more on a row of three cells or more may wrap onto lines
# of its own, inside its column (see _continues_cell).
TALL_CELL_WORDS = 3
# The most words a group heading over a table's column headings has ("Number of cases").
GROUP_HEADING_WORDS = 5
# A section heading set with its number apart from its title ("4.1      Who is affected ...",
# as LaTeX sets them) reads as a line of two cells: in a type this much larger than the page's
# commonest line size it is a heading, not a table row (see :func:`_numbered_heading`).
HEADING_TYPE = 1.15
# ... or set this many points larger than (or bold over) the running text right under it.
SIZE_STEP = 0.5
# A heading over a table stands further than this many times its gap to the line under it
# from the line over it (see :func:`_titles_table`).
HEADING_SPACE = 1.5
# A line in type this much larger than the page's commonest line size is display type: a
# title or a key figure, no table row (see :func:`_display_apart`).
DISPLAY_TYPE = 1.5
SECTION_NUMBER = re.compile(r"^(?:\d{1,2}|[A-Z](?=\.\d))(\.\d{1,2}){0,3}\.?$")


def _cut_before_prose_columns(block: list[_Line], table_of: Callable[[list[_Line]], FoundTable | None]
                              ) -> list[list[_Line]]:
    """The block cut before two lines running on, each two pieces of prose side by side (two
    text columns, PROSE_BESIDE_WORDS words a piece or more), when the whole block is no table
    and the lines above are, one with a column of figures: a table in one column of a
    two-column section, the prose beside it taken in line by line, and the section's two
    columns of prose under it (their lines in pieces) taken in too."""
    cut = next((i for i in range(4, len(block) - 1)
                if _prose_pair(block[i]) and _prose_pair(block[i + 1])), None)
    if cut is None or table_of(block) is not None:
        return [block]
    head = table_of(block[:cut])
    # (A table of figures: a glossary's terms beside their definitions, read as rows down to
    # its long definitions, is no table.)
    if head is None or not _has_figure_column(head):
        return [block]
    return [block[:cut], block[cut:]]


def _has_figure_column(table: FoundTable) -> bool:
    """Whether a column of the table's body is mostly figures."""
    body = table.cells[max(1, table.header_rows):]
    return bool(body) and any(sum(_is_numeric(row[c]) for row in body if c < len(row)) >= 0.6 * len(body)
                              for c in range(1, len(table.cells[0])))


def _prose_pair(line: _Line) -> bool:
    """Whether the line is two runs of words side by side and nothing else: two columns' prose."""
    segments = line.segments
    return len(segments) == 2 and all(
        len(s) >= PROSE_BESIDE_WORDS and not _is_numeric(" ".join(w.text for w in s)) for s in segments)


def _figure_caption(line: _Line) -> bool:
    """A line opening a figure's or a chart's caption ("Figure 2.", "Chart 3:")."""
    return bool(FIGURE_CAPTION.match(" ".join(w.text for w in line.words[:3])))


def _split_at_new_header(block: list[_Line]) -> list[list[_Line]]:
    """The block cut before a second table's header: a line of two or more pieces and no
    figure but years ("Region  Q1 2020  FY 2021"), set off from the row of figures above it by
    NEW_TABLE_GAP of the block's line pitches or more, or in as many pieces as the row of
    figures under it and not as the one above, and followed by a row of figures.  Two
    tables set one under the other with an empty paragraph between them (Word and LibreOffice
    documents) made one table, the second's header a row in the middle of it.  Not a line set
    in the body's weight under a bold header: a row."""
    if len(block) < 6:
        return [block]
    figures = [_figures(line) for line in block]
    # (Only a line of no figures between two of figures is asked more: most blocks have none.)
    if not any(not figures[i] and figures[i - 1] and figures[i + 1] for i in range(2, len(block) - 1)):
        return [block]
    pitch = statistics.median(b.top - a.top for a, b in zip(block, block[1:], strict=False))
    pieces = [len(_segments(line)) for line in block]
    # Under a header set in bold, a second table's header is bold too: a line with no bold
    # word is a row of the first table after a gap between its groups of rows ("Review date
    # 2024 2025 2026" under "Item  Budget  Spent  Left").
    bold_header = all(w.bold for w in block[0].words)
    # Set off by a gap, or with as many pieces as the rows under it and not as the row above
    # (a table of other columns set right under the first: web pages' tables, margins apart),
    # or set in bold as the header is between rows in the body's weight (a table of as many
    # columns set right under the first, no gap between them), a label over each column the
    # row under it fills (a bold section row, "Southern office  (continued)", labels fewer).
    cuts = [i for i in range(2, len(block) - 1)
            if pieces[i] >= 2 and not figures[i] and figures[i - 1] and figures[i + 1]
            and not (bold_header and not any(w.bold for w in block[i].words))
            and (block[i].top - block[i - 1].top >= NEW_TABLE_GAP * pitch
                 or pieces[i] == pieces[i + 1] != pieces[i - 1]
                 or bold_header and all(w.bold for w in block[i].words) and pieces[i] >= pieces[i + 1]
                 and not any(w.bold for line in (block[i - 1], block[i + 1]) for w in line.words)
                 or not bold_header and _words_over_figures(block[i - 1:i + 2], block[0]))]
    if not cuts:
        return [block]
    edges = [0, *cuts, len(block)]
    return [block[a:b] for a, b in zip(edges, edges[1:], strict=False)]


def _words_over_figures(lines: list[_Line], header: _Line) -> bool:
    """Whether the middle of three lines of as many pieces (three or more) holds words where
    the lines above and below it hold figures, in the body's weight: a second table's header
    row, its headings words over its columns of figures, set right under the first table (a
    sheet's two tables one under the other, no blank row between; the first's header years or
    words in the body's weight too).  Not the first header again (a header repeated inside the
    table), nor a row of "n/a", "nil" or ".." for figures not available."""
    line = lines[1]
    pieces = [_segments(x) for x in lines]
    if not len(pieces[0]) == len(pieces[1]) == len(pieces[2]) >= 3 or any(w.bold for w in line.words) \
            or " ".join(w.text for w in line.words).lower() == " ".join(w.text for w in header.words).lower():
        return False
    for upper, middle, lower in zip(pieces[0][1:], pieces[1][1:], pieces[2][1:], strict=True):
        text = " ".join(w.text for w in middle)
        figures = all(_is_numeric(" ".join(w.text for w in piece)) for piece in (upper, lower))
        if not (figures and text[:1].isalpha() and sum(ch.isalpha() for ch in text) >= 2
                and text.lower().rstrip(".") not in NOT_AVAILABLE):
            return False
    return True


def _figures(line: _Line) -> bool:
    """Whether the line holds a figure that is not a year (a row of data, not of headings)."""
    return any(_is_numeric(w.text) and not YEAR.match(w.text.strip()) for w in line.words)


def _candidate_blocks(lines: list[_Line], feet: list[tuple[float, float]],
                      turned: list[Box] | None = None,
                      across: Sequence[RuleFrame] = ()) -> list[list[_Line]]:
    """Runs of lines with two or more segments (single-segment lines allowed inside, at most
    two in a row), cut where the vertical gap is much larger than the run's line pitch, or
    before a line in a page's footer band (below a foot in ``feet``, the page's own) set off
    by more than FOOT_GAP pitches: a running footer ("Annex   209") whose two runs would
    otherwise add a row, and its columns, to a table ending above it; a footer band's line
    that numbers the page ("Page 2", see :func:`_page_number_line`) is no row whatever the gap;
    and at the outer rules of a table set across a page's columns (``across``, see
    :func:`_cut_at_frames`)."""
    if not lines:
        return []
    pitches = [b.top - a.top for a, b in zip(lines, lines[1:], strict=False) if b.top > a.top]
    pitch = statistics.median(pitches) if pitches else 12.0
    common_size = statistics.median(line.size for line in lines)
    blocks: list[list[_Line]] = []
    current: list[_Line] = []
    singles = 0
    for index, line in enumerate(lines):
        below = lines[index + 1] if index + 1 < len(lines) else None
        if _numbered_heading(line, common_size, below) or _page_number_line(line, feet, current):
            # A section's heading ends the table above it and starts none (three headings
            # one under the other, "4", "4.1", "4.1.1", line their numbers up in a column).
            if current:
                blocks.append(current)
            current, singles = [], 0
            continue
        multi = _tabular(line)
        gap = _gap_under_turned(current[-1], line, turned or [], MAX_LINE_GAP * pitch) if current else 0.0
        if current and (gap > MAX_LINE_GAP * pitch
                        and not (multi and _row_set_tall(line, current, lines[index + 1:]))
                        or gap > FOOT_GAP * pitch and _in_footer(line, current[-1], feet)):
            blocks.append(current)
            current, singles = [], 0
        kept = _before_next_table(line, current, singles, below) if multi and current else None
        if kept is not None:
            blocks.append(current[:kept])
            current, singles = [], 0
        elif multi and len(current) >= 2 and _group_heading_over(current[-1], line) \
                and _headings_after_gap(current[-1], current[-2]) and _headings_after_gap(line, current[-2]):
            # (the same with a group heading over the headings: it goes with them)
            blocks.append(current[:-1])
            current, singles = current[-1:], 0
        if multi:
            if not current and index > 0 and _group_heading_over(lines[index - 1], line):
                current.append(lines[index - 1])
            elif not current:
                current.extend(_column_heads_over(lines, index))
            current.append(line)
            singles = 0
        elif current and not _titles_table(line, current, common_size, below) \
                and _continues_cell(line, current, first_cell=True):
            current.append(line)  # (however many lines the cell runs to, prose or not)
        elif current and singles < 2 and not _prose_line(line) and not _note_under(line, current[-1]) \
                and not _titles_table(line, current, common_size, below):
            current.append(line)
            singles += 1
        else:
            if current:
                blocks.append(current)
            current, singles = [], 0
    if current:
        blocks.append(current)
    blocks = [part for block in blocks for part in _cut_at_frames(block, across)]
    blocks = [part for block in blocks for part in _display_apart(block, common_size)]
    return [_trim(b) for b in blocks if sum(_tabular(x) for x in b) >= BLOCK_ROWS]


def may_hold_table(lines: list[_Line]) -> bool:
    """Whether the lines hold BLOCK_ROWS lines that can be rows (two runs or more, see
    :attr:`_Line.tabular`), the least any candidate of :func:`_candidate_blocks` holds: lines
    with fewer (a column of justified prose, its word spaces all narrower than a cell gap)
    hold no table, and are not walked for candidates and read by gaps.  Every candidate is cut
    from ``lines``, so this never leaves out a table the walk would find."""
    return sum(1 for line in lines if line.tabular) >= BLOCK_ROWS


def _cut_at_frames(block: list[_Line], frames: Sequence[RuleFrame]) -> list[list[_Line]]:
    """The block cut at the first and last rules of each frame set across a page's columns
    (see :func:`extractors.pdf_table_frames.across_gutters`): over the first rule when the
    line over it is no row of the table (a caption's line of one run, or the columns' prose
    reaching past the rules' ends), under the last when the line under it reaches past them.
    The lines of two columns beside each other are each two runs, so the columns' prose over
    and under a table across the page ran into one candidate with it, and read so it was no
    table, or one whose rows, taken across the gutter, were cut into each column's; the rules
    say where the table stops.  A line within the rules' ends stays (a header set over the
    first rule, a total or notes keyed to the table under the last)."""
    cuts: set[int] = set()
    for frame in frames:
        for i in range(1, len(block)):
            above, line = block[i - 1], block[i]
            if _over(above, frame.top) and not _over(line, frame.top) \
                    and (len(_segments(above)) < 2 or _past_ends(above, frame)):
                cuts.add(i)
            if _over(above, frame.bottom) and not _over(line, frame.bottom) and _past_ends(line, frame):
                cuts.add(i)
    edges = [0, *sorted(cuts), len(block)]
    return [block[a:b] for a, b in zip(edges, edges[1:], strict=False)]


def _over(line: _Line, y: float) -> bool:
    """Whether the line stands over a rule at ``y`` (its middle above it)."""
    return (line.top + line.bottom) / 2 < y


def _past_ends(line: _Line, frame: RuleFrame) -> bool:
    """Whether the line reaches past either end of the frame's rules."""
    return line.words[0].x0 < frame.x0 - REACH or line.words[-1].x1 > frame.x1 + REACH


def _before_next_table(line: _Line, block: list[_Line], singles: int, below: _Line | None) -> int | None:
    """How many of the block's lines are its table's when ``line`` (a line of runs) heads the
    next table (see :func:`_headings_after_gap`; the heading and the lines under it are text
    between the two tables, see :func:`_heading_between`); None when it does not."""
    if _headings_after_gap(line, block[-1]):
        return len(block)
    if singles and _heading_between(block, singles, line, below):
        return len(block) - singles
    return None


def _heading_between(block: list[_Line], singles: int, line: _Line, below: _Line | None) -> bool:
    """Whether the block's last ``singles`` lines of one run, under its rows, hold a heading
    (in type HEADING_TYPE times the rows' or larger) and ``line`` under them is a row of
    column headings (in bold, no figure, date or time, or group headings over the line
    ``below``): the title of a second table set under the first ("Saturday" between a weekday's
    timetable and Saturday's), not a row of the first (a group's label inside a table
    is followed by rows of figures, not by headings)."""
    rows = [x for x in block[:-singles] if _tabular(x)]
    # (Set in bold under rows that are not, as headings are: a row of labels in the rows'
    # weight under a larger group label, "Southern office" over its staff, is a row.)
    if len(rows) < 2 or not all(w.bold for w in line.words) or all(w.bold for w in rows[-1].words):
        return False
    size = statistics.median(x.size for x in rows)
    if not any(x.size >= HEADING_TYPE * size for x in block[-singles:]):
        return False
    return not any(_is_numeric(w.text) or DATE.match(w.text) or TIME.match(w.text) for w in line.words) \
        or below is not None and _groups_over(line, below)


def _gap_under_turned(above: _Line, line: _Line, turned: list[Box], reach: float) -> float:
    """The blank between ``above`` and ``line`` not filled by names turned on their side
    standing between them (two or more, the longest starting within ``reach`` under ``above``,
    or ``above`` a row of groups over them, see :func:`_groups_over_feet`; their feet may be
    level with ``line``'s, "Ward" set down the header beside them): a word processor sets a
    row of group headings over the candidates' turned names, their cells as tall as the
    longest name and each name at its cell's foot, so the blank over the shorter names and
    under them is no break between a table's header and its body."""
    if not turned or line.top - above.bottom <= reach:
        return line.top - above.bottom
    x0 = min(above.words[0].x0, line.words[0].x0)
    x1 = max(above.words[-1].x1, line.words[-1].x1)
    foot = line.bottom + (line.bottom - line.top) / 2  # (a turned word's box reaches past the baseline)
    between = [box for box in turned if above.bottom - 1 <= box[1] and box[3] <= foot
               and x0 <= box[0] and box[2] <= x1]
    if len(between) < 2 or min(box[1] for box in between) > above.bottom + reach \
            and not _groups_over_feet(above, between):
        return line.top - above.bottom
    return line.top - max(box[3] for box in between)


# Turned names whose feet are this many points apart at most stand at one foot (their cells').
_LEVEL_FEET = 1.0


def _groups_over_feet(above: _Line, names: list[Box]) -> bool:
    """Whether ``above`` is a row of group headings over turned ``names`` set at their cells'
    feet, however far under it: the names' feet level, two or more runs of labels (each opening
    with a capital, no figure), fewer than the names, each centred within the names' span.  A
    word processor's header row is as tall as it was set, not as the longest name: short
    names stand at its foot with the row's blank over them (issue 32, dense_grid: a party
    over its candidates)."""
    runs = _segments(above)
    left, right = min(box[0] for box in names), max(box[2] for box in names)
    return max(box[3] for box in names) - min(box[3] for box in names) <= _LEVEL_FEET \
        and 2 <= len(runs) < len(names) \
        and all(run[0].text[:1].isupper() and not any(_is_numeric(w.text) for w in run)
                and left < (run[0].x0 + run[-1].x1) / 2 < right for run in runs)


def _row_set_tall(line: _Line, block: list[_Line], after: Sequence[_Line] = ()) -> bool:
    """Whether ``line``, under a gap wider than the page's line pitch allows, is the block's
    next row all the same: its row started no further under the block's last row than
    MAX_LINE_GAP times the pitch of the block's rows (the median of two or more, each from
    one row's first line to the next's).  A spreadsheet saves each row's height, and rows
    set taller than their wrapped cells' lines leave blank under a cell's last line (issue
    32, record_listing: Calc's rows a line for each 12 characters of a firm's name, which
    its wider columns set on fewer lines); a table's rows of one line each have a pitch the
    page's line pitch already allows.  A block of fewer than three rows (a listing's last
    page, its first row saved tall) counts the pitches of the rows from ``line`` on too (the
    page's lines ``after`` it), not the gap over ``line`` that is asked about."""
    rows = [x.top for x in block if _tabular(x)]
    first = next(i for i, x in enumerate(block) if _tabular(x)) if rows else 0
    # (Only rows holding a wrapped cell's lines: a table set double-spaced has rows of one line.)
    if not rows or all(_tabular(x) for x in block[first:]):
        return False
    if len(rows) >= 3:
        pitch = statistics.median(b - a for a, b in zip(rows, rows[1:], strict=False))
        return line.top - rows[-1] <= MAX_LINE_GAP * pitch
    below = [line.top, *itertools.islice((x.top for x in after if _tabular(x)), 3 - len(rows))]
    pitches = [b - a for tops in (rows, below) for a, b in zip(tops, tops[1:], strict=False)]
    return len(rows) + len(below) >= 3 and line.top - rows[-1] <= MAX_LINE_GAP * statistics.median(pitches)


def _display_apart(block: list[_Line], common_size: float) -> list[list[_Line]]:
    """The block cut at its lines in display type (DISPLAY_TYPE times the page's commonest
    line size or more), which are no rows, when it also holds rows in text type: titles set
    side by side over two panels ("1.5% points" beside "2% points"), a key figure beside a
    quote.  A table's rows share one type; a table set large throughout (a slide's) has no
    text-type rows to stand apart from and stays whole, and so does a table of figures whose
    header or total rows are set large (see :func:`_display_heads_figures`)."""
    if not any(line.size >= DISPLAY_TYPE * common_size for line in block) \
            or not any(_tabular(line) and line.size <= HEADING_TYPE * common_size for line in block) \
            or _display_heads_figures(block, common_size):
        return [block]
    parts: list[list[_Line]] = [[]]
    for line in block:
        if line.size >= DISPLAY_TYPE * common_size:
            parts.append([])
        else:
            parts[-1].append(line)
    return [part for part in parts if part]


def _display_heads_figures(block: list[_Line], common_size: float) -> bool:
    """The block's display-type lines are the header or total rows of a table of figures:
    most of its text-type rows (two or more) hold figures right of their first cell, and
    each display line does too (a total, "Total 530 565") or holds no figure and stands
    above them (column headings set large).  Panel titles and key figures ("2.5" over
    "kilograms CO2e/boe") stand over rows of words."""
    cells = [[" ".join(w.text for w in seg) for seg in _segments(line)] for line in block]
    big = [line.size >= DISPLAY_TYPE * common_size for line in block]
    rows = [i for i, line in enumerate(block) if not big[i] and _tabular(line)]
    data = [i for i in rows if _data_row(cells[i])]
    if len(data) < 2 or len(data) < 0.5 * len(rows):
        return False
    return all(_data_row(cells[i])
               or i < data[0] and not any(_is_numeric(t) for c in cells[i] for t in c.split())
               for i in range(len(block)) if big[i])


def _tabular(line: _Line) -> bool:
    return line.tabular


def _numbered_heading(line: _Line, common_size: float, below: _Line | None = None) -> bool:
    """A section number, a gap, then a title (a capital first, no figure in it), in a type
    clearly larger than the page's commonest line size: a numbered heading, not a table row
    of an index and a label (which is set at the table's size, smaller than the text's).  So
    is one set apart from the line ``below`` it by its weight or size alone, when that line is
    running text in one piece starting left of the title's end (Word headings typed as a
    number, a tab and the title, bold a point over the body, over their paragraphs: a table's
    numbered group row stands over rows of cells)."""
    segments = _segments(line)
    if len(segments) != 2 or len(segments[0]) != 1:
        return False
    title = segments[1]
    if not (SECTION_NUMBER.match(segments[0][0].text) and title[0].text[:1].isupper()
            and not any(_is_numeric(w.text) for w in title)):
        return False
    if line.size >= HEADING_TYPE * common_size:
        return True
    return below is not None and len(_segments(below)) == 1 and len(below.words) >= PROSE_LINE_WORDS \
        and below.words[0].x0 < title[-1].x1 \
        and (line.size > below.size + SIZE_STEP
             or (all(w.bold for w in line.words) and not all(w.bold for w in below.words)))


def _in_footer(line: _Line, above: _Line, feet: list[tuple[float, float]]) -> bool:
    """Whether ``line`` stands in the footer band of the page ``above`` is on (the first
    foot below ``above``)."""
    foot = min((f for f, _ in feet if f > above.top), default=None)
    return foot is not None and foot <= line.top and above.bottom < foot


def _page_number_line(line: _Line, feet: list[tuple[float, float]], above: list[_Line]) -> bool:
    """A line in a page's footer band that starts or ends with the page's number spelled
    out ("Page 2", "Page 3 of 12"): the running footer, set close under the last lines of
    two text columns (a report's colophon) whose runs it would make a third row of.  (A
    bare figure there may be a table's last value; the word says it is the page's.)  Not
    when a line of the block ``above`` names a page at the same end: a column of page
    references ("Page 3", "Page 7" in an errata table set down to the page's foot)."""
    if not any(foot <= line.top and line.bottom <= bottom + 1 for foot, bottom in feet):
        return False
    return any(_names_page(line, end) and not any(_names_page(other, end) for other in above)
               for end in (0, -1))


def _names_page(line: _Line, end: int) -> bool:
    """The line's first (``end`` 0) or last (-1) segment is a page's number ("Page 11")."""
    return bool(PAGE_NUMBER.match(" ".join(w.text for w in _segments(line)[end])))


def _continues_cell(line: _Line, block: list[_Line], first_cell: bool) -> bool:
    """A line of one run going on with a cell of the block's last row that is not its first
    (a parameter's description wrapped in its column): no blank line above it, its first
    word flush with where that cell's text starts, in the row's type size; the lines
    between the row and it go on with the same cell.  The row has three cells or more: two
    columns of prose side by side read as rows of two (their lines run on under them).
    With ``first_cell``, the row's first cell may go on too, inside its column (a block takes
    such lines as it is made; _trim asks again, ``first_cell`` where the table's first cells
    wrap, see _first_cells_wrap)."""
    rows = [i for i, other in enumerate(block) if _tabular(other)]
    if not rows or len(_segments(line)) != 1 or line.top - block[-1].bottom >= line.bottom - line.top:
        return False
    row, after = block[rows[-1]], block[rows[-1] + 1:]
    if abs(line.size - row.size) > 0.5 or len(_segments(row)) < 3:
        return False
    x0 = line.words[0].x0
    segments = _segments(row)
    starts = [seg[0].x0 for seg in segments[1:]]
    # (A glyph's box starts where its ink does: a "j" hooks left of a line's start by a point.)
    aligned = max(ALIGNED, GLYPH_SLACK * line.size)
    # The first cell goes on too when its lines stay inside its column, the line and those
    # between the row and it: a description wrapped over four lines or more beside one-line
    # values (issue 32, tall_rows); a note under the table runs on across the columns.
    # So does a short label whose next line goes on its phrase in lower case ("Public
    # administration," over "defence, education and health" in a narrow stub column).
    limit = segments[1][0].x0 - CELL_GAP_EM * line.size
    opening = (*after, line)[0].words[0].text
    if first_cell and (len(segments[0]) >= TALL_CELL_WORDS or opening[:1].islower()) \
            and all(o.words[-1].x1 < limit for o in (*after, line)):
        starts.append(segments[0][0].x0)
    if not any(abs(x0 - start) <= aligned for start in starts):
        return False
    return all(len(_segments(o)) == 1 and abs(o.words[0].x0 - x0) <= aligned for o in after)


def _first_cells_wrap(block: list[_Line]) -> bool:
    """Whether a row of the block above its last has its first cell wrapped: a line of one run
    under the row, flush with its first cell and inside its column, the row's first cell
    full (the line's first word would not have fitted at its end, short of the furthest the
    column reaches).  Then the table's first cells wrap, and its last row's may go on under
    it too; under a table of one-line rows a short line in the first column is a note
    ("Figures exclude VAT"), and a label alone on its row (a section's) follows no full line."""
    rows = [i for i, line in enumerate(block) if _tabular(line)]
    if len(rows) < 2:
        return False
    # How far the first column's texts reach: a header line whose first piece stands over the
    # figures (sub-headings under a stub heading merged down the header, "Men Women All") is
    # no first cell, and its right edge would make every label look short of the column's end.
    pieces = [_segments(block[i]) for i in rows]
    second = min((segments[1][0].x0 for segments in pieces if len(segments) > 1), default=math.inf)
    reach = max((segments[0][-1].x1 for segments in pieces if segments[0][-1].x1 < second), default=0.0)
    for i in rows[:-1]:
        row, line = block[i], block[i + 1]
        first, segments = line.words[0], _segments(row)
        slack = max(ALIGNED, GLYPH_SLACK * line.size)
        if _tabular(line) or len(_segments(line)) != 1 or abs(first.x0 - segments[0][0].x0) > slack \
                or line.words[-1].x1 >= segments[1][0].x0 - CELL_GAP_EM * line.size:
            continue
        right = max(reach, line.words[-1].x1)
        if segments[0][-1].x1 + WORD_SPACE_EM * line.size + first.x1 - first.x0 > right - slack:
            return True
    return False


def _group_heading_over(line: _Line, header: _Line) -> bool:
    """A short heading of one run a row above a table's row of column headings (more than
    0.6 of a line between them, as between rows, not a cell's wrapped lines; a line at
    most; no figures in the row), over its value columns: starting right of the row's first
    text and before its last ends (centred over a column, it may reach past a label
    left-aligned in it), capitalised (not a units line in brackets, a prose line going on,
    a lead-in ending in a colon).  The top row of a two-level header whose other group
    cells are empty ("Per cent" over one column); a title or a units line starts at the
    stub's edge."""
    if len(_segments(line)) != 1 or len(line.words) > GROUP_HEADING_WORDS \
            or line.words[-1].text[-1:] in ".:" or not line.words[0].text[:1].isupper() \
            or _numeric_share(header) > 0:
        return False
    first = _segments(header)[0]
    return first[-1].x1 < line.words[0].x0 < header.words[-1].x1 \
        and 0.6 * (header.bottom - header.top) < header.top - line.bottom <= header.bottom - header.top


def _column_heads_over(lines: list[_Line], index: int) -> list[_Line]:
    """The lines right above a table's first row (``lines[index]``) that head its figure
    columns alone: up to two lines of one short run each (a year, a unit under it), clear of
    the row's first segment and over one of its others that holds figures (not over a row of
    headings: "Less:" over "Exclusions &" leads into a heading), each set above the next as
    closely as the rows are (or a line's height).  A table of one column of figures whose label column
    has no heading (a note's analysis under "2024" and "£m") has a header of single runs,
    which open no block."""
    row = lines[index]
    segments = _segments(row)
    label_end = segments[0][-1].x1
    spacing = row.bottom - row.top
    if index + 1 < len(lines):
        spacing = max(spacing, lines[index + 1].top - row.bottom + 1.0)
    heads: list[_Line] = []
    below = row
    for line in reversed(lines[max(0, index - 2):index]):
        words = line.words
        if len(_segments(line)) != 1 or len(words) > 2 or words[0].x0 <= label_end \
                or not 0 <= below.top - line.bottom <= spacing \
                or not any(words[0].x0 < seg[-1].x1 and seg[0].x0 < words[-1].x1
                           and all(_is_numeric(w.text) for w in seg) for seg in segments[1:]):
            break
        heads.insert(0, line)
        below = line
    return heads


def _headings_after_gap(line: _Line, above: _Line) -> bool:
    """A row of column headings (no figure, no date) a blank line under a row of figures:
    the next table's header (two tables one under the other on a spreadsheet page), not
    a row of the table above.  A row whose figures are all years is a heading itself (years
    over their sub-headings, "2019 2020" over "Number Rate Number Rate")."""
    if any(_is_numeric(w.text) or DATE.match(w.text) for w in line.words):
        return False
    # (A timetable's journey with a time at every stop has no figure and is a row all the same,
    # under a journey of times too; under a row of figures, or of times beside figures, a line
    # of times of day heads the next table: "Room  08:00  09:00" over the rooms' bookings,
    # under the usage table's figures or a site's opening hours and staff.)
    if any(_clock(w.text) for w in line.words) and _journey(above):
        return False
    if _numeric_share(above) == 0 and _figure_segments(above) == 0 or _years([w.text for w in above.words]) \
            or _groups_over(above, line):
        return False
    return line.top - above.bottom > above.bottom - above.top


def _groups_over(line: _Line, header: _Line) -> bool:
    """Whether ``line`` is a row of group headings over the row of column headings ``header``:
    two or more runs, each a label opening with a capital ("Zone 1", "Zone 2" over a
    timetable's stops), fewer than the header's runs, all right of its first word (the stub's
    heading has no group over it; a browser may set the names close enough beside it to
    make one run).  Its figures name the groups; it is no row of figures
    whose table ends above the header (a spreadsheet sets the group row a row's height over
    the headings, a blank line between them)."""
    runs, heads = _segments(line), _segments(header)
    return 2 <= len(runs) < len(heads) and header.words[0].x1 < runs[0][0].x0 \
        and all(run[0].text[:1].isupper() and not _is_numeric(run[0].text) for run in runs) \
        and not any(_is_numeric(w.text) for w in header.words)


def _note_under(line: _Line, above: _Line) -> bool:
    """A note closing the table above ("Source: departmental returns."): one run of words
    ending in a full stop, a blank line or more under the last row.  A table that follows
    it (two on one spreadsheet page) is another one, not more rows of the first."""
    words = line.words
    return len(_segments(line)) == 1 and len(words) >= 2 and words[-1].text.endswith(".") \
        and not _is_numeric(words[0].text) and line.top - above.bottom > above.bottom - above.top


def _titles_table(line: _Line, above: list[_Line], common_size: float = 0.0,
                  below: _Line | None = None) -> bool:
    """A table's caption ("Table B3 ...") under at most two lines of a block: no row, it ends
    the block (a running header over a landscape page's table, two pieces at a tab, would
    otherwise head the table with the caption under it).  Under a block of rows, or a
    figure's label ("FIG. 2" opening a patent's line in a column beside another), it cuts
    nothing: the rest of a page of columns cut off there reads as a false table.  So does a
    section's heading there, a line in one piece set larger than the page's commonest size
    and than the lines around it, further from the line over it than from the one ``below``
    it, as a heading's space is set ("Absolute maximum ratings" over its table under a
    running header "TMP-118     Rev. C" at the head of the page).  A header's heading wrapped
    onto a second line in the header's larger type, or a section's label row ("England") set
    larger at the rows' own pitch, stands no further from the row over it: a row (issue 32)."""
    if len(above) > 2:
        return False
    if TABLE_CAPTION.match(" ".join(w.text for w in line.words[:3])):
        return True
    return below is not None and len(_segments(line)) == 1 \
        and line.size > max(common_size, below.size, above[-1].size) + SIZE_STEP \
        and line.top - above[-1].bottom > HEADING_SPACE * max(below.top - line.bottom, 0.0)


def _source_note(line: _Line) -> bool:
    """A line opening a source or a note ("Source:", "Notes:"), not a title."""
    return bool(SOURCE_NOTE.match(" ".join(w.text for w in line.words[:2])))


def _prose_line(line: _Line) -> bool:
    """A line of running text: many words in one run, a sentence ending in it."""
    words = [w.text for w in line.words]
    return len(words) >= PROSE_LINE_WORDS and any(t.endswith(".") and t[:-1].isalpha() for t in words)


def _trim(block: list[_Line]) -> list[_Line]:
    """The block without the lines of one segment at either end, but for the last line of a
    cell wrapped in the table's last row (see :func:`_wrapped_last`) and a group heading over
    its first (see :func:`_group_heading_over`) or the heads of its figure column over it (see
    :func:`_column_heads_over`).  A line starting a sentence under a line of
    the last row's cell that ends one is a note under the table, set as tight under it as the
    cell's lines (a Word table without spacing, "All costs are estimates." under it), when that
    line is not full or the note is a sentence on a line alone (see :func:`_full_above`).  The
    last row's first cell goes on under it only in a table whose first cells wrap (see
    :func:`_first_cells_wrap`)."""
    last = next((i for i in range(len(block) - 1, -1, -1) if _tabular(block[i])), len(block))
    for i in range(last + 2, len(block)):
        if block[i - 1].words[-1].text[-1:] in ".!?" and block[i].words[0].text[:1].isupper() \
                and (not _full_above(block, i) or _sentence_alone(block, i)):
            block = block[:i]
            break
    if len(block) > 2 and _margin_line(block[-1], block[-2], block[:-2], block[-1].top - block[-2].bottom):
        block = block[:-1]
    first_cell = _first_cells_wrap(block)
    while block and not _tabular(block[-1]) and not _wrapped_last(block) \
            and not _continues_cell(block[-1], block[:-1], first_cell):
        block = block[:-1]
    first = next((i for i, line in enumerate(block) if _tabular(line)), 0)
    if first and len(_column_heads_over(block, first)) == first:
        return block  # (a one-figure-column table's header of single runs)
    while block and (not _tabular(block[0]) or len(block) > 1 and _running_line_over(block[0], block[1])
                     or len(block) > 2 and _margin_line(block[0], block[1], block[2:],
                                                        block[1].top - block[0].bottom)) \
            and not (len(block) > 1 and _group_heading_over(block[0], block[1])):
        block = block[1:]
    return block


def _full_above(block: list[_Line], index: int) -> bool:
    """Whether the line above ``block[index]`` (a line of a cell wrapped under the block's
    last row) is full: the first word of ``block[index]`` would not have fitted at its end,
    short of the furthest the cell's column reaches on the block's lines above.  A cell's text
    breaks its lines so whether or not a sentence ends there ("... during the works." over
    "New handrails ..."); a note set tight under the last row follows the cell's last line,
    on which the note's first word would have fitted."""
    above, line = block[index - 1], block[index]
    slack = max(ALIGNED, GLYPH_SLACK * line.size)
    x0 = above.words[0].x0
    right = max(seg[-1].x1 for x in block[:index] for seg in _segments(x) if abs(seg[0].x0 - x0) <= slack)
    first = line.words[0]
    return above.words[-1].x1 + WORD_SPACE_EM * line.size + first.x1 - first.x0 > right - slack


def _sentence_alone(block: list[_Line], index: int) -> bool:
    """Whether ``block[index]`` is a sentence on a line of its own, the block's last line or
    set further under it than it is under the line above (no more of a cell's lines at their
    pitch): under a full line ending a sentence it reads as a note under the table ("All costs
    are estimates." under the Word table's last description), as a cell's last sentence
    alone would too; a cell's text going on under it is the cell's."""
    line = block[index]
    if line.words[-1].text[-1:] not in ".!?":
        return False
    if index == len(block) - 1:
        return True
    pitch = line.top - block[index - 1].top
    return block[index + 1].top - line.top > pitch + max(ALIGNED, GLYPH_SLACK * line.size)


def _running_line_over(line: _Line, below: _Line) -> bool:
    """A line in a smaller type than the line under it (less than 0.87 of its size) over more
    than one and a half of those lines' height of blank: the page's running header (a date
    and the document's title in the top margin), not the table's first row."""
    return line.size < 0.87 * below.size and below.top - line.bottom > 1.5 * (below.bottom - below.top)


def _margin_line(line: _Line, beside: _Line, others: list[_Line], blank: float) -> bool:
    """Whether ``line``, at an end of a block, is a browser's running header or footer (the
    date at the page's left and the document's title in the middle; the page's address and
    its number, issue 32, record_listing), not a row: in another type than the block's line
    ``beside`` it (larger or smaller by over an eighth), ``blank`` between them more than one
    and a half of that line's height, and starting in the margin, left of that line and of
    the block's ``others`` but one (a running line at the other end) by more than a cell gap.
    A header row's labels stand over their columns; a total row under its figures."""
    edge = line.words[0].x0 + CELL_GAP_EM * beside.size
    return not 0.87 * beside.size <= line.size <= beside.size / 0.87 \
        and blank > 1.5 * (beside.bottom - beside.top) \
        and beside.words[0].x0 > edge and sum(x.words[0].x0 <= edge for x in others) <= 1 \
        and not any(abs(s[-1].x1 - t[-1].x1) <= ALIGNED
                    for s in line.segments[1:] for t in beside.segments[1:])


def _wrapped_last(block: list[_Line]) -> bool:
    """The block's last line is a wrapped cell's next line: one segment, flush with the line
    above's first word and of its size, within the first column, right under a table row
    and set tighter under it than the rows of the block are apart; not a note ("Source:
    ...") set close under it.  So is the line under such a line, flush and as tight under it:
    a label wrapped over three lines in the table's last row (a row broken over a page ends
    the page so, issue 32, tables5)."""
    trail = 2 if len(block) >= 5 and not _tabular(block[-2]) else 1
    if len(block) < 4 or not _tabular(block[-1 - trail]) \
            or any(len(_segments(x)) != 1 for x in block[-trail:]):
        return False
    above = block[-1 - trail]
    if any(abs(x.words[0].x0 - above.words[0].x0) > ALIGNED or abs(x.size - above.size) > 0.5
           or NOTE_LABEL.match(x.words[0].text) for x in block[-trail:]):
        return False
    # Within the first column as far as its texts reach on the rows (a paragraph under the
    # table runs on across the columns).
    reach = max(_segments(line)[0][-1].x1 for line in block[:-trail] if _tabular(line))
    if any(x.words[-1].x1 > reach + ALIGNED for x in block[-trail:]):
        return False
    gaps = [b.top - a.bottom for a, b in zip(block[:-1 - trail], block[1:-trail], strict=False)
            if _tabular(b)]
    if not gaps:
        return False
    tight = statistics.median(gaps) - WRAP_TIGHTER * (block[-1].bottom - block[-1].top)
    return all(b.top - a.bottom < tight for a, b in zip(block[-1 - trail:], block[-trail:], strict=False))
