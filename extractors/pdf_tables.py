"""Tables of one PDF page from its positioned words and ruling lines: ruled tables from ruling
lines, unruled ones from text alignment.

This module is the page's entry (:func:`find_tables`): it takes ruled tables from
:mod:`extractors.pdf_table_grids` and unruled ones (:func:`unruled_tables`), reads column
headings turned on their side over a table, joins a table set by alignment with the banded grid
it goes on under, and keeps a bar chart's category labels right under its bars from heading a
table.  The parts:

- :mod:`extractors.pdf_table_model`: :class:`FoundTable`, the measures and patterns the parts
  share, the work bounds per page;
- :mod:`extractors.pdf_table_grids`: ruled tables (rulings snapped and joined into grids,
  spanning cells, open sides);
- :mod:`extractors.pdf_table_lines`: words into lines and a line's segments;
- :mod:`extractors.pdf_table_blocks`: the unruled candidate blocks, where one starts and ends
  (captions, prose, list items, headings);
- :mod:`extractors.pdf_table_gaps`: a block's column gaps and the block read as a table by them
  (prose columns, justified prose);
- :mod:`extractors.pdf_table_rows`: rows and header placement (wrapped and tall rows, spanning
  cells, centred and bottom-aligned stubs);
- :mod:`extractors.pdf_table_checks`: plausibility checks (prose, lists, numbered outlines,
  reference lists).

Unruled tables (in the spirit of camelot's stream mode and Nurminen's text-edge analysis):
words become lines, a line splits into segments where the gap between two words is wide (or
between two numbers), and a run of at least three such lines is a candidate; its columns are
the whitespace gaps that (almost) no line of numbers below the header crosses, its rows and
header are placed by those columns.  Candidates that are two-column prose, justified prose, a
bullet list, numbered sections or vertical margin text are refused: the structure stage drops
the words of every table region from its paragraphs, so a false table loses text shape.
"""

from __future__ import annotations

import bisect
import itertools
import statistics
from collections.abc import Callable, Sequence
from operator import attrgetter

from extractors.pdf_justified_gutters import FLUSH_EDGE, justified_gutters
from extractors.pdf_table_blocks import (
    FOOT_BAND,
    _candidate_blocks,
    _cut_before_prose_columns,
    _figure_caption,
    _has_figure_column,
    _source_note,
    _split_at_new_header,
    may_hold_table,
)
from extractors.pdf_table_checks import _ruled_rows, _time_list
from extractors.pdf_table_frames import (
    RuleFrame,
    across_gutters,
    kept_in,
    overlaps,
    rule_frames,
    with_row_labels,
    within_frames,
)
from extractors.pdf_table_gaps import _stacked_numbers, _stream_table
from extractors.pdf_table_grids import _clusters, _merged_rulings, ruled_tables
from extractors.pdf_table_lines import _caption, _Line, _lines
from extractors.pdf_table_model import (
    CELL_GAP_EM,
    MAX_WORDS,
    PROSE_BESIDE_WORDS,
    TURNED_BAND,
    FoundTable,
    _filled,
    _is_numeric,
)
from extractors.pdf_table_rows import _column, _data_row, _distance
from extractors.pdf_words import Box, PageLayout, Ruling, Word
from extractors.tables import cells_to_markdown

# Text in picture type (see :func:`_without_picture_text`): under this many points, on a page
# with at least this share of its words in larger type.
PICTURE_TYPE = 3.0
# A bar's side is at least this tall (points), and bars whose heights differ by less stand
# level (see _without_bar_labels).
BAR_HEIGHT = 5.0
PICTURE_SHARE = 0.2
# Turned words a page may hold for them to be read as column headings: a page of more is text
# set at an angle (a sideways page left as it is), and each heading is checked against every
# upright word.
MAX_TURNED_WORDS = 400
# A chart's axis stands at most this many body sizes beside its turned title, tick labels
# between them (see _beside_axis).
AXIS_REACH = 3.0
# A line closer than this many of its sizes under the line above goes on from it (a
# paragraph's leading, not the space before a table).
TURNED_LEADING = 0.4
# A grid of at most this many rows that a table set by alignment goes on under is one table
# with it (see _banded_grids).
BANDED_GRID_ROWS = 2


def find_tables(layout: PageLayout) -> list[FoundTable]:
    """The tables on the page, top to bottom."""
    if len(layout.words) > MAX_WORDS:
        return []
    tables = [_better_by_alignment(t, layout.words) for t in ruled_tables(layout)]
    free = [w for w in layout.words if not any(_inside(w, t) for t in tables)] if tables else layout.words
    free = _without_bar_labels(_without_picture_text(free), layout.words, layout.rulings)
    # Each page's footer band, top and bottom (a spread's halves are pages of their own).
    pages = layout.stacked or [(0.0, layout.height)]
    feet = [(bottom - FOOT_BAND * (bottom - top), bottom) for top, bottom in pages]
    turned = layout.turned if len(layout.turned) <= MAX_TURNED_WORDS else []
    size = statistics.median(w.size for w in free) if free else 10.0
    boxes = [_box(c) for c in _turned_clusters(turned, size)]
    frames = rule_frames(*_merged_rulings(layout.rulings))
    # (The page's lines, built once: the finder, the gutters and the search of each column
    # apart all read them.)
    lines = _lines(free)
    gutters = layout.gutters
    if gutters is None and frames:  # (found once with the layout; here only when it will serve)
        gutters = justified_gutters([line.words for line in lines])
    frames = with_row_labels(frames, free, gutters or [])
    found = unruled_tables(free, blocked=tables, feet=feet, turned=boxes,
                           across=across_gutters(frames, gutters or []), lines=lines)
    if frames and found:  # (a table between booktabs' rules ends where they do)
        found = within_frames(found, free, frames,
                              lambda inside: unruled_tables(inside, blocked=tables, feet=feet, turned=boxes))
    found = _apart_in_columns(found, free, lines, tables, feet, boxes, frames, gutters)
    tables, found = _banded_grids(tables, found, layout.words)
    if turned:
        found = [_with_turned_header(t, layout.turned, free, tables + found, layout.rulings) for t in found]
    found = [t for t in found if not _time_list(t.cells) or _ruled_rows(t, layout.rulings)]
    tables += found
    return sorted(tables, key=lambda t: (t.top, t.x0))


def _apart_in_columns(found: list[FoundTable], words: list[Word], lines: list[_Line],
                      blocked: list[FoundTable], feet: list[tuple[float, float]], turned: list[Box],
                      frames: list[RuleFrame],
                      gutters: list[tuple[float, float]] | None = None) -> list[FoundTable]:
    """The unruled tables ``found`` on the page; where its text is set in justified columns
    (:mod:`extractors.pdf_justified_gutters`), each column's words left out of the tables kept
    are looked for tables again apart (a table of figures, where no table held them): the lines
    of two narrow columns side by side are no rows of one table (a column's small table stands
    beside the next column's prose, its rows between their lines when the baselines do not line
    up: read across the page, no table at all).  A table across the columns is kept when it has
    a column of figures and figures on both sides of the gutter (a paper's results under its
    two columns), or when it is kept to a frame of rules (a table between booktabs' rules across
    the page, :mod:`extractors.pdf_table_frames`); one whose figures are all on one side of a
    gutter, the other side holding a line of prose, is that side's column's prose read into the
    table beside it ("AGENCY: National Oceanic and Atmospheric" beside "Date  Session  Seats").
    ``gutters`` are the page's, found once with its layout (found here from ``words`` when not);
    ``lines`` are the lines of ``words``."""
    if gutters is None:
        gutters = justified_gutters([line.words for line in lines]) if found else []
    if not gutters:
        return found
    middles = [(x0 + x1) / 2 for x0, x1 in gutters]
    across = [t for t in found if any(t.x0 < m < t.x1 for m in middles)
              and (not _has_figure_column(t) or _prose_beside_figures(t, words, middles))
              and not any(kept_in(f, t) for f in frames)]
    kept = [t for t in found if t not in across]
    columns: list[list[Word]] = [[] for _ in range(len(middles) + 1)]
    rest = [word for word in words if not any(_inside(word, table) for table in kept)] if kept else words
    # (Without a table kept the words are the page's, and so are their lines.)
    rest_lines = lines if len(rest) == len(words) else _lines(rest)
    bridged = {id(word) for line in rest_lines if _bridges(line.words, gutters) for word in line.words}
    for word in rest:
        if id(word) not in bridged:
            columns[bisect.bisect(middles, (word.x0 + word.x1) / 2)].append(word)
    # (A table read from words no table held before is taken with a column of figures: a
    # justified column's lines alone, its last words flush, may line up as a column of text.)
    apart = [table for column in columns
             for table in unruled_tables(column, blocked=blocked, feet=feet, turned=turned)
             if _has_figure_column(table) or any(_inside(word, table) and _inside(word, other)
                                                 for word in column for other in across)]
    return sorted(kept + apart, key=lambda t: (t.top, t.x0))


def _prose_beside_figures(table: FoundTable, words: list[Word], middles: list[float]) -> bool:
    """Whether a table across a gutter (at ``middles``) has its figures on one side of it only
    and a line of prose (PROSE_BESIDE_WORDS words or more, no figure) on the other: the next
    column's text beside a column's table."""
    lines = _lines([w for w in words if _inside(w, table)])
    for middle in middles:
        if not table.x0 < middle < table.x1:
            continue
        sides = [[[w for w in line.words if ((w.x0 + w.x1) / 2 < middle) == before] for line in lines]
                 for before in (True, False)]
        figures = [any(_is_numeric(w.text) for side_line in side for w in side_line) for side in sides]
        if figures.count(True) != 1:
            continue
        prose = sides[figures.index(False)]
        if any(len(side_line) >= PROSE_BESIDE_WORDS for side_line in prose):
            return True
    return False


def _bridges(words: list[Word], gutters: list[tuple[float, float]]) -> bool:
    """Whether a line's words run across a gutter between justified columns: a word stands
    over its middle, or two neighbours are closer across it than the gutter is wide.  Such a
    line is set across the page (a title block's authors' lines, the middle author's centred
    on the gutter), in neither column: cut at the gutter's middle, its halves ("Li" and "Wei")
    would make a table of each column's."""
    for x0, x1 in gutters:
        middle = (x0 + x1) / 2
        if any(w.x0 < middle < w.x1 for w in words):
            return True
        # (Two lines ending and starting flush with the gutter's sides, within FLUSH_EDGE, are
        # its two columns': a full justified line beside a table's row in the next column.)
        if any(a.x1 <= middle <= b.x0 and b.x0 - a.x1 < x1 - x0 - FLUSH_EDGE
               for a, b in zip(words, words[1:], strict=False)):
            return True
    return False


def _banded_grids(tables: list[FoundTable], found: list[FoundTable],
                  words: list[Word]) -> tuple[list[FoundTable], list[FoundTable]]:
    """Grids of at most BANDED_GRID_ROWS rows each taken with the table the text continues
    under it (``found``) as one table, read by alignment, when that reading makes one table of
    their columns and rows.  A table whose rows are told apart by fills alone (banded rows, a
    shaded header: Word's and Excel's table styles) draws a rectangle per shaded row, and the
    shaded header and first band touch: a grid of two rows, the rest of the table unruled."""
    for grid in [t for t in tables if len(t.cells) <= BANDED_GRID_ROWS]:
        for rest in found:
            pitch = (rest.bottom - rest.top) / len(rest.cells)
            if len(rest.cells[0]) != len(grid.cells[0]) \
                    or not grid.bottom - 1 <= rest.top <= grid.bottom + pitch \
                    or rest.x0 < grid.x0 - pitch or rest.x1 > grid.x1 + pitch:
                continue
            whole = FoundTable(grid.x0, grid.top, max(grid.x1, rest.x1), rest.bottom, [], "")
            read = unruled_tables([w for w in words if _inside(w, whole)])
            if len(read) == 1 and len(read[0].cells[0]) == len(grid.cells[0]) \
                    and len(read[0].cells) == len(grid.cells) + len(rest.cells):
                tables = [t for t in tables if t is not grid]
                found = [read[0] if t is rest else t for t in found]
                break
    return tables, found


def _with_turned_header(table: FoundTable, turned: list[Word], words: list[Word],
                        tables: list[FoundTable], rulings: list[Ruling] | None = None) -> FoundTable:
    """An unruled table under column headings set on their side (Word's and LibreOffice's
    cell "text direction", btLr or tbRl: narrow columns of figures headed by turned years or
    names) with that header row: the turned words standing over two or more of its columns
    (nothing upright between them and the column below), read into their columns in the order
    given (their reading order), and the upright words of the header band (a "Region" label
    set at the top of its cell) in theirs.  The text finder sees no turned words, so without
    this the header was a loose paragraph after the page and the label a line of its own.
    Kept as it was when the body's columns cannot be told apart (see _body_columns), when a
    word in the band reaches over two columns, or when the band holds another table.  A
    turned title beside a chart's axis (see _beside_axis) heads no column."""
    size = statistics.median(w.size for w in words) if words else 10.0
    inside = [w for w in words if _inside(w, table)]
    lines = _lines(inside)
    first_data = next((i for i, line in enumerate(lines) if line.numeric_share >= 0.5), 0)
    # The columns are the body's: a group heading over two of them ("Liberal Democrat" over its
    # candidates) reaches over the gutter between them.
    columns = _bounded_columns([w for line in lines[first_data:] for w in line.words], table.bounds) \
        or _body_columns(inside, len(table.cells[0]))
    if columns is None:
        return table
    slack = CELL_GAP_EM * size
    # A turned heading stands at its cell's edge, which may be past the figures' ends by as much
    # as the widest gutter between columns.
    reach = slack + max(b[0] - a[1] for a, b in zip(columns, columns[1:], strict=False))

    def column_of(x0: float, x1: float) -> int | None:
        hits = [c for c, (a, b) in enumerate(columns) if a - slack <= x0 and x1 <= b + slack]
        return hits[0] if len(hits) == 1 else None

    # A header row the finder took (labels, no figure) may hold the turned headings' feet:
    # Calc sets a turned heading and the upright labels beside it on the row's foot ("Branch",
    # "Manager", then "Loans" set upwards), so the headings stand down to its labels' line.
    # So may the rows over the first row of figures, a row of group headings over the turned
    # names and labels set down the header's rows beside them ("Ward", "Turnout %").
    foot = table.top + 1
    if not any(ch.isdigit() for cell in table.cells[0] for ch in cell):
        foot = max([foot, *(w.bottom + 1 for w in inside if w.top < table.top + 0.5 * size)])
        if 0 < first_data < len(lines) and not any(ch.isdigit() for line in lines[:first_data]
                                                   for w in line.words for ch in w.text):
            foot = max(foot, lines[first_data].top + 1)
    candidates = [w for w in turned
                  if w.bottom <= foot
                  and w.top >= table.top - TURNED_BAND * size
                  and table.x0 - reach <= w.x0 and w.x1 <= table.x1 + reach
                  and not any(u.top < table.top and u.bottom > w.bottom and u.x0 < w.x1 and w.x0 < u.x1
                              for u in words)]
    clusters = [c for c in _turned_clusters(candidates, size)
                if not _beside_axis(c, rulings or [], table.top, size)]
    if len(clusters) < 2:
        return table
    taken = [w for cluster in clusters for w in cluster]
    top = min(w.top for w in taken)
    band = _header_band(table, clusters, top, words, slack, column_of)
    labels: dict[int, list[Word]] = {}
    for w in band:
        # A label may be wider than the texts under it ("Region" in bold over "East"): its column
        # is the one it starts in, as long as it stops short of the next column's text.
        col = max((c for c, (a, _) in enumerate(columns) if a - slack <= w.x0), default=None)
        if col is None or (col + 1 < len(columns) and w.x1 > columns[col + 1][0]):
            return table
        labels.setdefault(col, []).append(w)
    free = [c for c in range(len(columns)) if c not in labels]
    heads = _heads_to_columns(clusters, free, column_of) or _nearest_columns(clusters, free, columns, reach)
    if heads is None:
        return table
    new_top = min([top, *(w.top for w in band), table.top])
    if any(other is not table and other.bottom > new_top and other.top < table.top
           and other.x0 < table.x1 and table.x0 < other.x1 for other in tables):
        return table
    header = ["" for _ in columns]
    for col, ws in labels.items():
        header[col] = " ".join(w.text for w in sorted(ws, key=lambda w: (round(w.top), w.x0)))
    for col, ws in heads.items():
        # In the order given: a heading's reading order (its lines, then up or down them).
        header[col] = " ".join(w.text for w in _in_order(turned, ws))
    first = table.cells[0]
    if all(not first[c] for c in heads) and not any(ch.isdigit() for c in first for ch in c):
        # The finder read the header's upright labels as a row of their own: one header row.
        cells = [[" ".join(filter(None, (a, b))) for a, b in zip(header, first, strict=True)],
                 *table.cells[1:]]
        header_rows = table.header_rows
    elif table.top + 0.5 * size < top and len(table.cells) > 2 and not _data_row(first):
        # The finder's first row stands over the turned headings (group headings, each over its
        # columns' names): they go under it; a row of labels beside them (set down the header's
        # rows, "Ward", "Turnout %", nothing over a turned heading's column) is the first row's.
        second = table.cells[1]
        first = _groups_over_heads(first, [w for w in inside if w.top < table.top + 0.5 * size], columns,
                                   sorted(heads), slack)
        if all(not second[c] for c in heads) and not any(ch.isdigit() for c in second for ch in c):
            cells = [[a or b for a, b in zip(first, second, strict=True)], header, *table.cells[2:]]
            header_rows = table.header_rows
        else:
            cells = [first, header, *table.cells[1:]]
            header_rows = table.header_rows + 1
    else:
        cells = [header, *table.cells]
        # Over a row of figures the turned headings are the one header row; over a header row
        # of the finder's (years under the headings) they are one more.
        header_rows = 1 if _data_row(first) else table.header_rows + 1
    return FoundTable(table.x0, new_top, table.x1, table.bottom, cells, cells_to_markdown(cells),
                      header_rows=header_rows, turned=table.turned + tuple(taken))


def _turned_clusters(turned: list[Word], size: float) -> list[list[Word]]:
    """Turned words gathered into headings: one heading's turned lines stand side by side a
    line's spacing apart; each a heading set upwards or downwards, a word of it taller than wide
    (text at another angle, a watermark across the page, heads no column)."""
    clusters: list[list[Word]] = []
    for w in sorted(turned, key=attrgetter("x0")):
        if clusters and w.x0 - max(v.x1 for v in clusters[-1]) < 0.6 * size:
            clusters[-1].append(w)
        else:
            clusters.append([w])
    return [c for c in clusters if any(w.bottom - w.top > w.x1 - w.x0 for w in c)]


def _box(words: list[Word]) -> Box:
    """The box round ``words``: (x0, top, x1, bottom)."""
    return (min(w.x0 for w in words), min(w.top for w in words), max(w.x1 for w in words),
            max(w.bottom for w in words))


def _header_band(table: FoundTable, clusters: list[list[Word]], top: float, words: list[Word],
                 slack: float, column_of: Callable[[float, float], int | None]) -> list[Word]:
    """The upright words in the header row of ``table`` whose turned headings (``clusters``,
    the highest reaching up to ``top``) stand over it: the words between the band's top and
    the table's, within its sides (``slack`` beyond them).  The band reaches above the turned
    headings because an upright label ("Region") is set at the top of its cell while the
    headings beside it are set at the foot of theirs; it stops at the text over the table (a
    paragraph, its short last line), which is no part of the header."""
    # A label set at the top of its cell may stand above the turned headings (set at the foot
    # of theirs) by as much as they are long; the text above the header (a paragraph whose
    # lines reach over several columns) ends the band.
    band_top = top - max(max(w.bottom for w in c) - min(w.top for w in c) for c in clusters)
    above = [w for w in words if band_top <= w.top and w.bottom <= top
             and (w.x1 < table.x0 - slack or w.x0 > table.x1 + slack or column_of(w.x0, w.x1) is None)]
    band_top = max([band_top, *(w.bottom for w in above)])
    # ... and so does the short last line of that paragraph: a line set close under a line
    # outside the band (at the paragraph's leading) goes on from it.
    band_top = max([band_top, *(w.bottom for w in words if band_top <= w.top and w.bottom <= top
                                and any(u.bottom <= w.top < u.bottom + TURNED_LEADING * w.size
                                        and u.top < band_top for u in words))])
    return [w for w in words if w.bottom <= table.top + 1 and w.top >= band_top
            and table.x0 - slack <= w.x0 and w.x1 <= table.x1 + slack]


def _beside_axis(cluster: list[Word], rulings: list[Ruling], top: float, size: float) -> bool:
    """Whether turned words stand beside a vertical line (within AXIS_REACH of their size, its
    tick labels between) that runs along most of their length and ends above the table's
    ``top``: a chart's axis or its bars' sides, the words its axis title (two small charts
    over a table, "Per cent" and "Thousands").  A column rule of a table reaches down into its
    body; the headings of a bare table stand beside no line."""
    x0, x1 = min(w.x0 for w in cluster), max(w.x1 for w in cluster)
    start, end = min(w.top for w in cluster), max(w.bottom for w in cluster)
    reach = AXIS_REACH * size
    return any(not r.horizontal and r.bottom < top
               and (0 <= r.x0 - x1 <= reach or 0 <= x0 - r.x1 <= reach)
               and min(r.bottom, end) - max(r.top, start) > 0.5 * (end - start) for r in rulings)


def _in_order(order: list[Word], words: list[Word]) -> list[Word]:
    """``words`` in the order they have in ``order``."""
    chosen = {id(w) for w in words}
    return [w for w in order if id(w) in chosen]


def _heads_to_columns(clusters: list[list[Word]], free: list[int],
                      column_of: Callable[[float, float], int | None]) -> dict[int, list[Word]] | None:
    """Turned headings (each a cluster of words) placed over the columns ``free`` of an
    upright label: each over the one column its extent falls in, or, when that places them
    not one to a free column, in order from the left when there are as many as free columns
    (a heading set tbRl stands at its cell's right edge, nearer the next column's figures when
    they are set flush left).  None when neither holds."""
    placed: dict[int, list[Word]] = {}
    for cluster in clusters:
        col = column_of(min(w.x0 for w in cluster), max(w.x1 for w in cluster))
        if col is None or col not in free or col in placed:
            break
        placed[col] = cluster
    else:
        return placed
    if len(clusters) == len(free):
        return dict(zip(free, clusters, strict=True))
    return None


def _nearest_columns(clusters: list[list[Word]], free: list[int], columns: list[tuple[float, float]],
                     reach: float) -> dict[int, list[Word]] | None:
    """Turned headings placed each over the free column whose figures stand nearest it, left to
    right, one to a column, none further than ``reach`` from its column: names set at the
    left of their cells, a word processor's turned text standing left of figures set right,
    beside labels set down the header ("Ward", "Turnout %") that leave more columns than
    names.  None when they do not fall so."""
    placed: dict[int, list[Word]] = {}
    last = -1
    for cluster in clusters:
        x0, x1 = min(w.x0 for w in cluster), max(w.x1 for w in cluster)
        col = min(free, key=lambda c: _distance(x0, x1, columns[c]))
        if col <= last or _distance(x0, x1, columns[col]) > reach:
            return None
        placed[col], last = cluster, col
    return placed


def _groups_over_heads(first: list[str], words: list[Word], columns: list[tuple[float, float]],
                       heads: list[int], slack: float) -> list[str]:
    """The header's first row (``first``, its ``words``) with its group headings over the
    turned headings' columns (``heads``) each in the first column of the run it is centred
    over, the runs one after the other covering those columns (a party over its candidates,
    a merged cell centred across theirs: a name wider than one column starts in the next).
    The columns' cells reach to the middle of the gutters beside them.  Kept as given when
    the headings over them (runs of words ``slack`` apart at most) are not so many runs, each
    within a quarter of a column of its run's middle."""
    runs: list[list[Word]] = []
    for w in sorted(words, key=attrgetter("x0")):
        if runs and w.x0 - runs[-1][-1].x1 <= slack:
            runs[-1].append(w)
        else:
            runs.append([w])
    gutters = [(a[1] + b[0]) / 2 for a, b in itertools.pairwise(columns)]
    edges = [columns[0][0], *gutters, columns[-1][1]]
    lo, hi = edges[heads[0]], edges[heads[-1] + 1]
    groups = [run for run in runs if lo <= (run[0].x0 + run[-1].x1) / 2 <= hi]
    if not groups or len(groups) > len(heads) or heads != list(range(heads[0], heads[-1] + 1)):
        return first
    middles = [(g[0].x0 + g[-1].x1) / 2 for g in groups]
    # The runs' starts: each cut between two head columns, chosen so that each group stands
    # nearest its run's middle (few groups and columns: every way is tried).
    best: tuple[float, tuple[int, ...]] | None = None
    for cuts in itertools.combinations(range(1, len(heads)), len(groups) - 1):
        starts = (0, *cuts)
        ends = (*cuts, len(heads))
        # (each group's distance from its run's middle in quarters of the run's columns, as
        # a heading centred over a run is placed, see _spanned)
        cost = max(abs((edges[heads[a]] + edges[heads[b - 1] + 1]) / 2 - m)
                   / (2.0 + 0.25 * (edges[heads[b - 1] + 1] - edges[heads[a]]) / (b - a))
                   for a, b, m in zip(starts, ends, middles, strict=True))
        if best is None or cost < best[0]:
            best = (cost, starts)
    if best is None or best[0] > 1.0:
        return first
    placed = [text if c not in heads else "" for c, text in enumerate(first)]
    for start, group in zip(best[1], groups, strict=True):
        placed[heads[start]] = " ".join(w.text for w in group)
    return placed


def _bounded_columns(words: list[Word], bounds: tuple[float, ...]) -> list[tuple[float, float]] | None:
    """The x ranges of a table's columns as it was read, between ``bounds``: the extents of the
    body's words (``words``) in each; None without bounds or when a column holds none.  (In a
    dense grid the words' extents alone run into one another: see _body_columns.)"""
    if not bounds:
        return None
    extents: list[list[float]] = [[] for _ in range(len(bounds) + 1)]
    for w in words:
        extents[_column((w.x0 + w.x1) / 2, list(bounds))] += [w.x0, w.x1]
    if not all(extents):
        return None
    return [(min(e), max(e)) for e in extents]


def _body_columns(words: list[Word], count: int) -> list[tuple[float, float]] | None:
    """The x ranges of a table's ``count`` columns, from its words: their extents across
    merged where they overlap, when that makes exactly ``count`` ranges (a cell reaching
    over a gutter, or columns set too close, make fewer: None)."""
    ranges: list[list[float]] = []
    for w in sorted(words, key=attrgetter("x0")):
        if ranges and w.x0 <= ranges[-1][1]:
            ranges[-1][1] = max(ranges[-1][1], w.x1)
        else:
            ranges.append([w.x0, w.x1])
    return [(a, b) for a, b in ranges] if len(ranges) == count else None


def _without_picture_text(words: list[Word]) -> list[Word]:
    """The words without those in picture type, under PICTURE_TYPE points (a poster of
    exercises reproduced in a booklet's box, set at a point and a half), whose lines stand
    beside text in reading type (a run of such lines, set no further apart than two of their
    lines, is level with a readable word somewhere), when the page has text in reading type
    too (PICTURE_SHARE of its words or more).  The picture's lines interleave with the text
    beside it and made rows of it; nobody reads them as a table's cells.  A page set small
    throughout (a wide sheet fitted to the page, its title aside) keeps its words, and so
    does a sheet fitted small under or over a paragraph of notes: no readable line is level
    with it to interleave with."""
    readable = [w for w in words if w.size >= PICTURE_TYPE]
    if len(readable) == len(words) or len(readable) < PICTURE_SHARE * len(words):
        return words
    bands = _bands(readable, 0.0)
    tops = [top for top, _ in bands]

    def beside_text(top: float, bottom: float) -> bool:
        index = bisect.bisect_left(tops, bottom) - 1
        return index >= 0 and bands[index][1] > top

    small = [w for w in words if w.size < PICTURE_TYPE]
    dropped = [band for band in _bands(small, 2.0) if beside_text(*band)]
    return [w for w in words if w.size >= PICTURE_TYPE
            or not any(top <= w.top and w.bottom <= bottom for top, bottom in dropped)]


def _without_bar_labels(words: list[Word], page: list[Word], rulings: list[Ruling]) -> list[Word]:
    """The words without a bar chart's category labels: the line of words right under the
    foot of three or more vertical rulings that end on one baseline and rise to different
    heights (the sides of bars standing on an axis), none of the ``page``'s words among them
    below the tallest one's top (a grid's column rules, even of a header with spanning cells,
    hold cells of text; a chart with its values or labels among the bars is left whole: without
    its axis labels, its ticks made a table of a chart, ICDAR's us-028).  The labels, a line
    of words over the table under the chart, read as its first row (its header) and shifted
    the header down into the body."""
    verticals = sorted((r for r in rulings if not r.horizontal and r.bottom - r.top >= BAR_HEIGHT),
                       key=attrgetter("bottom"))
    if len(verticals) < 3:
        return words
    labels: set[Word] = set()
    for bars in _clusters(verticals, attrgetter("bottom"), 1.5):
        tops = [r.top for r in bars]
        if len(bars) < 3 or max(tops) - min(tops) < BAR_HEIGHT:
            continue
        base, tallest = max(r.bottom for r in bars), min(tops)
        x0, x1 = min(r.x0 for r in bars), max(r.x1 for r in bars)
        if any(w.x0 < x1 and x0 < w.x1 and w.bottom > tallest and w.top < base for w in page):
            continue
        reach = (x1 - x0) / len(bars)  # a label centred under the outermost bar stands out this far
        labels.update(w for w in words if base - 1.0 <= w.top <= base + 1.5 * w.size
                      and x0 - reach <= (w.x0 + w.x1) / 2 <= x1 + reach)
    return [w for w in words if w not in labels] if labels else words


def _bands(words: list[Word], lines: float) -> list[tuple[float, float]]:
    """The words' vertical extents merged, top down, across gaps of up to ``lines`` of their
    sizes."""
    bands: list[list[float]] = []
    for w in sorted(words, key=attrgetter("top")):
        if bands and w.top <= bands[-1][1] + lines * w.size:
            bands[-1][1] = max(bands[-1][1], w.bottom)
        else:
            bands.append([w.top, w.bottom])
    return [(top, bottom) for top, bottom in bands]


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


def _inside(word: Word, table: FoundTable) -> bool:
    cx, cy = (word.x0 + word.x1) / 2, (word.top + word.bottom) / 2
    return table.x0 - 1 <= cx <= table.x1 + 1 and table.top - 1 <= cy <= table.bottom + 1


def unruled_tables(words: list[Word], blocked: list[FoundTable] | None = None,
                   feet: list[tuple[float, float]] | None = None,
                   turned: list[Box] | None = None,
                   across: Sequence[RuleFrame] = (),
                   lines: list[_Line] | None = None) -> list[FoundTable]:
    """Tables found by text alignment; ``feet`` are the pages' footer bands, top and bottom
    (see :func:`_candidate_blocks`), ``turned`` the boxes of the page's column headings set on
    their side (see :func:`_between_turned`), ``across`` the frames of rules set across the
    page's columns (see :func:`_cut_at_frames`); ``lines`` are the lines of ``words`` when the
    caller has built them.  Lines that cannot make a candidate's rows (see
    :func:`extractors.pdf_table_blocks.may_hold_table`: a column of justified prose, searched
    apart) are not walked."""
    if lines is None:
        lines = _lines(words)
    if not may_hold_table(lines):
        return []
    tables = []
    blocks = []
    found: dict[tuple[int, ...], FoundTable | None] = {}

    def table_of(block: list[_Line]) -> FoundTable | None:
        # (A block is tried more than once: whether to cut it, then for its table; a
        # two-column page's prose is such a block.)
        key = tuple(map(id, block))
        if key not in found:
            found[key] = _stream_table(block, turned or [], [w for w in words if w.bottom <= block[0].top])
        return found[key]

    for block in _candidate_blocks(lines, feet or [], turned or [], across):
        parts = _split_at_new_header(block)
        # (Only a table cut into tables: a block that is no table, a chart's labels beside
        # another's, is not cut into parts that might pass for one.)
        if len(parts) > 1 and (table_of(block) is None or any(table_of(p) is None for p in parts)):
            parts = [block]
        if len(parts) == 1:
            parts = _cut_before_prose_columns(block, table_of)
        blocks.extend(parts)
    while blocks:
        block = blocks.pop(0)
        table = table_of(block)
        if table is not None and not any(overlaps(table, b) for b in blocked or []):
            tables.append(table)
        if table is not None:
            # A caption under the table ended it ("Table 2: ..."): the lines after it may be the
            # next table, set close under the first with only its caption between them.  (A
            # source or a note under it is the first table's: what follows is more notes, a
            # contact's details, a legend of symbols, not a table it titles; and a figure's
            # caption is followed by the chart's labels.)
            rest = [line for line in block if line.top > table.bottom]
            if rest and _caption(rest[0]) and not _source_note(rest[0]) and not _figure_caption(rest[0]):
                rest = rest[1:]
                if len(rest) >= 3:
                    blocks.insert(0, rest)
    return tables
