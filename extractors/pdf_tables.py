"""Tables of one PDF page from its positioned words and ruling lines: ruled tables from ruling
lines, unruled ones from text alignment.

Ruled tables (the idea of tabula's spreadsheet mode, camelot's lattice and pdfplumber's
"lines" strategy): horizontal and vertical rulings are snapped and joined, rulings that cross
make connected groups, each group with at least two of each is a grid whose cells are the
minimal rectangles; a missing ruling between two grid slots makes them one spanning cell, and
text set on its side in a cell (column headings turned upwards over narrow columns of ticks)
is that cell's text.  Grids are often incomplete, so: rules closer than a line of text are one
(padded shading boxes), row rules running past the outer column rule add an open side (the
row-label column), a grid row whose columns hold several lines of numbers is split into text
lines, and a grid that still looks under-segmented is read by text alignment instead.

Unruled tables (in the spirit of camelot's stream mode and Nurminen's text-edge analysis):
words become lines, a line splits into segments where the gap between two words is wide (or
between two numbers), and a run of at least three such lines is a candidate (captions,
"Source:" lines, list items and lines of prose end it).  Its columns are the whitespace gaps
that (almost) no line of numbers below the header crosses, so left-, right- and centre-aligned
columns all work; a text that reaches over a gap is a spanning cell (a header text only when
it reaches what the next column holds below it, figures or sub-headings: a heading wider than
its column of figures spans nothing), header lines wrapped in one column become one cell (and
one-line cells set on a two-line header's foot, "Notes" beside "2023" over "£m", join its
row; a year and a unit over a lone column of figures, nothing over the labels, head it), dot
leaders drawn into a label's word up to its note or figure are taken out
(extractors/pdf_leaders.py), lower-case continuation lines join the row above, and where a cell
wraps over four lines or more beside one-line values a row is the lines from its top to the
next row's top, the rows told by their value cells (a description's lines may open with a name
or a figure, the rows set as tight as its lines; a first cell goes on under the last row only
where an earlier row's does, and a line that ends a sentence ends the table's text only when it
is not full).  The gaps are the whole table's, not
each line's: a narrow gap between the parts of one value ("12 500", "11 111111111") is no
column, nor is one between digit groups a word space apart under one heading ("020 7946
4476"), and when cell gaps leave several values in one cell the narrow gutters that no word of
any line crosses are columns too (a dense listing).  Header lines (at most six, above the first
row of figures; a row of years over sub-headings is header) are placed by the columns the body
fills: two pieces of one header line never share a column, and a heading centred over
sub-headings (a year over its quarters, or over sub-headings that are years too) stands in the
first column it covers, never the row labels' column unless it starts where they do; the row
labels' heading centred down a header of three lines heads its top one.  A bold header line
right under a table's rows (a table of as many columns set under the first, no gap between)
starts another table, and so does a line in the body's weight holding words where the rows
above and below it hold figures; a bar chart's category labels right under its bars head no
table; a word broken over a cell's lines without a hyphen ("Highlan" over "d", "Num" over
"ber", or any end under a piece that fills its cell, "Northum" over "berland", the cell's edges
from the table's columns: extractors/pdf_broken_words.py) is joined again; a label wrapped over
three lines in the last row keeps them.  Candidates that
are two-column prose (long runs of words per cell; a prose column beside a table is cut away,
whatever stands beside it when its lines keep baselines of their own, and the lines of two
prose columns under a table of figures end its block),
justified prose (spaces stretched alike in each line, lined up by chance), a bullet list (a
first column of list markers, bullets of symbol fonts included), numbered sections (section
numbers of two depths hung beside titles run into sentences) or vertical margin text are
refused: the structure stage drops the words of every table region from its paragraphs, so a
false table loses text shape.  A section number and its title set apart (larger, or bold) over
a line of running text in one piece are a heading, which ends a candidate and starts none (Word
headings typed as a number, a tab and the title over their paragraphs).
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
import statistics
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from operator import attrgetter, itemgetter
from typing import TypeVar

from extractors.pdf_bidi import line_text
from extractors.pdf_broken_words import ColumnEdges, broken_at_edge, broken_joined, plural_end_set_right
from extractors.pdf_justified_gutters import justified_gutters
from extractors.pdf_leaders import might_hold_leaders, without_leaders
from extractors.pdf_table_frames import RuleFrame, kept_in, overlaps, rule_frames, within_frames
from extractors.pdf_words import Box, PageLayout, Ruling, Word
from extractors.tables import cells_to_markdown

T = TypeVar("T")
_Gap = tuple[float, float]  # an x range on the page


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
    # Words set at an angle (the page's ``turned`` words) read into the cells: column headings
    # turned on their side in a grid's header row.  The structure stage leaves them out of
    # the paragraph of turned text it makes of the rest.
    turned: tuple[Word, ...] = ()
    # The x boundaries between an unruled table's columns, as its cells were read (empty when
    # it was read otherwise, or when an empty column was dropped).
    bounds: tuple[float, ...] = ()


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
# Text in picture type (see :func:`_without_picture_text`): under this many points, on a page
# with at least this share of its words in larger type.
PICTURE_TYPE = 3.0
# Words a table sets for a figure not available (see _words_over_figures).
NOT_AVAILABLE = frozenset(("n/a", "na", "nil", "none", "not available", "not applicable", "x", "z", "nk",
                           "n.a", "n/k", "s", "c", "low", "high", "tbc", "tbd", "pending", "withheld"))
# A piece of prose beside another (see _prose_pair) holds at least this many words.
PROSE_BESIDE_WORDS = 4
# A text column's line beside a table's row sits this share of the size or more off the row's
# baseline when it is not on it (see _own_baselines).
OFF_BASELINE = 0.2
# A text column's paragraph begun above a table beside it goes on at its own x and pitch: its
# line above the block starts within this share of the size of the column's first piece, one
# pitch above it within this share of the size too (see _continued_column).
CONTINUED_ALIGN = 0.5
# A bar's side is at least this tall (points), and bars whose heights differ by less stand
# level (see _without_bar_labels).
BAR_HEIGHT = 5.0
PICTURE_SHARE = 0.2
# A ruled grid that pictures cover this share of or more may be a frame of photographs and
# their captions (a booklet's four photos cover 0.61 of theirs; a dashboard's sparklines, one
# over each cell's figure, about a quarter), which hold at most this many texts per picture
# (a title, a caption, a credit): see _picture_grid.
PICTURE_GRID = 0.45
CAPTIONS_PER_PICTURE = 3
# A ruling shorter than this is a glyph stroke or a tick, not part of a grid.
MIN_RULING = 4.0
# Inter-word gap, in font sizes, that separates two cells of an unruled table.
CELL_GAP_EM = 0.75
# A line this many of its sizes or more under a table's first row is set a row's pitch below
# it, not as the next line of its cell (see _row_end).
_ROW_END_GAP = 0.8
# A header piece starting within this many points of its column's text is set flush with it.
FLUSH = 1.5
# Lines flush with one another start within this share of their size (beyond ALIGNED): the
# side bearings of their first glyphs differ.
GLYPH_SLACK = 0.15
# A header line this many line pitches or more under the row above starts a new table (see
# _split_at_new_header).
NEW_TABLE_GAP = 1.6
# Column headings set on their side stand at most this many body sizes above the table's
# first row (see _with_turned_header): a header row of turned names of a dozen letters.
TURNED_BAND = 14.0
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
# Inside a candidate, a gap between lines larger than this many median line pitches ends it.
MAX_LINE_GAP = 2.6
# A page's footer band (its bottom share), and the gap (in line pitches) above a line in it
# that makes it no row of the table above (see _candidate_blocks).
FOOT_BAND = 0.08
FOOT_GAP = 1.5
# A page's number spelled out in its running footer.
PAGE_NUMBER = re.compile(r"^(page|p\.|pg\.?|seite|pagina|página)\s*\d{1,4}(\s*(of|/|von|de|sur)\s*\d{1,4})?$",
                         re.IGNORECASE)
# Prose guard: cells of at most this many words (median) can make an unruled table.
MAX_MEDIAN_WORDS = 4.0
# Running text read as table columns (see `_running_text`): each column's cells a median of
# this many words or more, this share of them going on in lower case from the cell above.
RUN_ON_WORDS = 3
RUN_ON_SHARE = 0.6
# ... or at least RUN_ON_MIN of them doing so and RUN_ON_PROSE going on either that way or as
# a new sentence after a full stop (a paragraph's lines that start sentences and names).
RUN_ON_MIN = 0.4
RUN_ON_PROSE = 0.75
# A side column of pieces this many words long (median) that run on is the next text column's
# paragraph (see `_page_column`).
PAGE_COLUMN_WORDS = 5
# A sentence's end inside a piece of text: a word of letters, a full stop, a capital.
SENTENCE_INSIDE = re.compile(r"[^\W\d_]{2,}[.!?]\s+[A-Z]")
# A line of one run of at least this many words with a sentence's full stop inside or at its
# end is prose: it ends a candidate instead of standing in it as a wrapped cell (two tables
# with a short paragraph between them were read as one; tuned on tests/pdf_cases.py's
# table_styles, seeds 1-10).
PROSE_LINE_WORDS = 8
# Bullets drawn in a symbol font (Symbol, Wingdings, OpenSymbol) come out as private-use
# characters U+F020-U+F0FF (U+F0B7 is Symbol's bullet, U+F0A7 Wingdings' square).
LIST_MARKER = re.compile(r"^([\u2022\u25aa\u25cf\u25e6\u2023\u2043\u2219\u00b7*\-\u2013\u2014o>"
                         r"\uf020-\uf0ff]|"
                         r"\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|\(?[ivxIVX]{1,5}[.)])$")
# Fonts of pictographs: a lone character in one is a bullet whatever character it maps to
# (Wingdings' square is "§", its arrow "Ø").
SYMBOL_FONT = re.compile(r"symbol|wingdings|webdings|dingbats", re.IGNORECASE)
# A caption or source line under or over a table ("Table 10:", "Source:"): not a row.
CAPTION = re.compile(r"^((table|tab\.|figure|fig\.|chart|exhibit)\s+[\dA-Z][\w.-]*[:.]?(\s|$)|"
                     r"(sources?|notes?)\s*:)", re.IGNORECASE)
# A table's caption ("Table A3.", "Tab. 2:"), which stands over its table: see _titles_table.
TABLE_CAPTION = re.compile(r"^(table|tab\.)\s+[\dA-Z][\w.-]*[:.]?(\s|$)", re.IGNORECASE)
# A figure's or chart's caption: the lines after it are the figure's, never a table's.
FIGURE_CAPTION = re.compile(r"^(figure|fig\.|chart|graph|map)\s+[\dA-Z][\w.-]*[:.]?(\s|$)", re.IGNORECASE)
SOURCE_NOTE = re.compile(r"^(sources?|notes?)\s*:", re.IGNORECASE)
# A unit in thousands ("€000", "$'000", "(£000)") heads a column of amounts: it is no figure.
UNIT_THOUSANDS = re.compile(r"^[(\[]?[$€£¥]\s?'?000s?[)\]]?$")
# A year standing alone ("2023" over its quarters) heads columns: it is no table value.
# A date written with figures: day, month and year (either order) or ISO.
DATE = re.compile(r"^(\d{1,2}[/.-]\d{1,2}[/.-](\d{2}|\d{4})|\d{4}-\d{2}-\d{2})$")
# A time of day ("06:15", "7.42", a timetable's "07:40a" with its note's letter): a value in a
# row, like a date.
TIME = re.compile(r"^([01]?\d|2[0-4])[:.][0-5]\d(\s?[ap]\.?m\.?|[a-z])?$", re.IGNORECASE)
YEAR = re.compile(r"^(1[89]|20)\d\d$")
# A header is at most this many lines: more lines above the first row of figures are text,
# unless they are set as a header's (see _header_start), up to LONG_HEADER_LINES.
MAX_HEADER_LINES = 6
LONG_HEADER_LINES = 10
# A header's line is texts of at most this many words side by side (see _header_like).
HEADER_TEXT_WORDS = 4
# The share of a column's pieces beginning with a capital from which they are each a cell's
# text rather than the lines of a paragraph (tuned on the spreadsheet set, seeds 1..24).
CELL_TEXTS_CAPITAL = 0.7
# How much tighter (in line heights) a line must be set under the one above than the next
# line is under it to be a wrapped cell's next line (the spreadsheet set, seeds 1..24).
WRAP_TIGHTER = 0.1
# A cell wrapped over this many lines or more beside one-line values makes its rows tall: the
# lines between two rows' tops are one row (see _tall_rows_joined).
TALL_LINES = 4
# A first cell of this many words or more on a row of three cells or more may wrap onto lines
# of its own, inside its column (see _continues_cell).
TALL_CELL_WORDS = 3
# The most words a group heading over a table's column headings has ("Number of cases").
GROUP_HEADING_WORDS = 5
# A note's label ("Source:", "NOTE:", "Notes:"): the line it starts is no wrapped cell's.
NOTE_LABEL = re.compile(r"^[^\W\d]+:(\s|$)")
# A unit a table's figures are given in, alone in a header cell ("£m", "£ million", "$000",
# "%", "per cent", "thousands"); see _unit_row.
UNIT = re.compile(r"^([£$€¥]\s?(000s?|m|mn|bn|k|thousands?|millions?|billions?)?|%|per\s?cent|percent"
                  r"|thousands?|millions?|number|no\.)$", re.IGNORECASE)
# A column gap narrower than this (in font sizes) could be a word space inside a value
# ("3 522 458", "11 111111111").
NARROW_GAP_EM = 0.5
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
# Text edges this close (points) are aligned.
ALIGNED = 1.0
# The widest space between two words, in font sizes (Helvetica's is 0.28, Times' 0.25).
WORD_SPACE_EM = 0.34
# Texts of a column whose edges spread this far (in font sizes, under a digit's width) are set
# ragged on that side, not aligned there.
RAGGED_EM = 0.4
# A figure may carry a statistical flag a space after it, one lower-case letter ("12.4 r"
# revised, "1,234 p" provisional, "56.1 e" estimated: the ONS's and Eurostat's flags).
NUMERIC = re.compile(r"^[(\[]?[-+\u2212\u2013$€£%]?\s?\d[\d.,\s]*[%)\]*]?(\s(?-i:[bcdefnprsuz]))?$"
                     r"|^[-\u2013\u2014.…]+$|^n/?a$", re.IGNORECASE)


# Work bounds per page (the finder is quadratic in places): a page with more words than this
# gets no tables, more merged rulings than this no ruled tables, and a grid with more slots
# than this is skipped.  Real tables stay far below them (ICDAR's largest page: ~1,500 words).
MAX_WORDS = 20_000
MAX_RULINGS = 3_000
# A grid of at most this many rows that a table set by alignment goes on under is one table
# with it (see _banded_grids).
BANDED_GRID_ROWS = 2
MAX_GRID_SLOTS = 40_000


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
    found = unruled_tables(free, blocked=tables, feet=feet, turned=boxes)
    frames = rule_frames(*_merged_rulings(layout.rulings))
    if frames and found:  # (a table between booktabs' rules ends where they do)
        found = within_frames(found, free, frames,
                              lambda inside: unruled_tables(inside, blocked=tables, feet=feet, turned=boxes))
    found = _apart_in_columns(found, free, tables, feet, boxes, frames, layout.gutters)
    tables, found = _banded_grids(tables, found, layout.words)
    if turned:
        found = [_with_turned_header(t, layout.turned, free, tables + found, layout.rulings) for t in found]
    found = [t for t in found if not _time_list(t.cells) or _ruled_rows(t, layout.rulings)]
    tables += found
    return sorted(tables, key=lambda t: (t.top, t.x0))


def _apart_in_columns(found: list[FoundTable], words: list[Word], blocked: list[FoundTable],
                      feet: list[tuple[float, float]], turned: list[Box],
                      frames: list[RuleFrame],
                      gutters: list[tuple[float, float]] | None = None) -> list[FoundTable]:
    """The unruled tables ``found`` on the page; where its text is set in justified columns
    (:mod:`extractors.pdf_justified_gutters`), a table across them without a column of
    figures, and not kept to a frame of rules, is looked for again in each column apart: the
    lines of two narrow columns side by side are no rows of one table (a column's small table
    stands beside the next column's prose), a paper's results under its two columns are, and
    so is a table between booktabs' rules across the page (:mod:`extractors.pdf_table_frames`).
    ``gutters`` are the page's, found once with its layout (found here from ``words`` when not)."""
    if not found:
        return found
    if gutters is None:
        gutters = justified_gutters([line.words for line in _lines(words)])
    middles = [(x0 + x1) / 2 for x0, x1 in gutters]
    # (A table of figures across the columns is one: a paper's results under its two columns.)
    across = [t for t in found if any(t.x0 < m < t.x1 for m in middles) and not _has_figure_column(t)
              and not any(kept_in(f, t) for f in frames)]
    if not across:
        return found
    columns: list[list[Word]] = [[] for _ in range(len(middles) + 1)]
    inside = [word for word in words if any(_inside(word, table) for table in across)]
    bridged = {id(word) for line in _lines(inside) if _bridges(line.words, gutters) for word in line.words}
    for word in inside:
        if id(word) not in bridged:
            columns[bisect.bisect(middles, (word.x0 + word.x1) / 2)].append(word)
    apart = [table for column in columns
             for table in unruled_tables(column, blocked=blocked, feet=feet, turned=turned)]
    return sorted([t for t in found if t not in across] + apart, key=lambda t: (t.top, t.x0))


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
        if any(a.x1 <= middle <= b.x0 and b.x0 - a.x1 < x1 - x0
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


def _filled(cells: list[list[str]]) -> int:
    return sum(1 for row in cells for c in row if c.strip())


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


def _drop_empty(cells: list[list[str]]) -> list[list[str]]:
    cells = [row for row in cells if any(c.strip() for c in row)]
    if not cells:
        return []
    keep = [c for c in range(len(cells[0])) if any(row[c].strip() for row in cells)]
    return [[row[c] for c in keep] for row in cells]


def _filled_share(cells: list[list[str]]) -> float:
    total = sum(len(row) for row in cells)
    return sum(1 for row in cells for c in row if c.strip()) / total if total else 0.0


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


# ---------------------------------------------------------------- unruled tables

def unruled_tables(words: list[Word], blocked: list[FoundTable] | None = None,
                   feet: list[tuple[float, float]] | None = None,
                   turned: list[Box] | None = None) -> list[FoundTable]:
    """Tables found by text alignment; ``feet`` are the pages' footer bands, top and bottom
    (see :func:`_candidate_blocks`), ``turned`` the boxes of the page's column headings set on
    their side (see :func:`_between_turned`)."""
    lines = _lines(words)
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

    for block in _candidate_blocks(lines, feet or [], turned or []):
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
                      turned: list[Box] | None = None) -> list[list[_Line]]:
    """Runs of lines with two or more segments (single-segment lines allowed inside, at most
    two in a row), cut where the vertical gap is much larger than the run's line pitch, or
    before a line in a page's footer band (below a foot in ``feet``, the page's own) set off
    by more than FOOT_GAP pitches: a running footer ("Annex   209") whose two runs would
    otherwise add a row, and its columns, to a table ending above it; a footer band's line
    that numbers the page ("Page 2", see :func:`_page_number_line`) is no row whatever the gap."""
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
        if current and (gap > MAX_LINE_GAP * pitch and not (multi and _row_set_tall(line, current))
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
    blocks = [part for block in blocks for part in _display_apart(block, common_size)]
    return [_trim(b) for b in blocks if sum(_tabular(x) for x in b) >= 3]


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
    standing between them (two or more, the longest starting within ``reach`` under ``above``):
    a word processor sets a row of group headings over the candidates' turned names,
    their cells as tall as the longest name and each name at its cell's foot, so the
    blank over the shorter names and under them is no break between a table's header
    and its body."""
    if not turned or line.top - above.bottom <= reach:
        return line.top - above.bottom
    x0 = min(above.words[0].x0, line.words[0].x0)
    x1 = max(above.words[-1].x1, line.words[-1].x1)
    between = [box for box in turned if above.bottom - 1 <= box[1] and box[3] <= line.top + 1
               and x0 <= box[0] and box[2] <= x1]
    if len(between) < 2 or min(box[1] for box in between) > above.bottom + reach:
        return line.top - above.bottom
    return line.top - max(box[3] for box in between)


def _row_set_tall(line: _Line, block: list[_Line]) -> bool:
    """Whether ``line``, under a gap wider than the page's line pitch allows, is the block's
    next row all the same: its row started no further under the block's last row than
    MAX_LINE_GAP times the pitch of the block's rows (the median of two or more, each from
    one row's first line to the next's).  A spreadsheet saves each row's height, and rows
    set taller than their wrapped cells' lines leave blank under a cell's last line (issue
    32, record_listing: Calc's rows a line for each 12 characters of a firm's name, which
    its wider columns set on fewer lines); a table's rows of one line each have a pitch the
    page's line pitch already allows."""
    rows = [x.top for x in block if _tabular(x)]
    first = next(i for i, x in enumerate(block) if _tabular(x)) if rows else 0
    # (Only rows holding a wrapped cell's lines: a table set double-spaced has rows of one line.)
    if len(rows) < 3 or all(_tabular(x) for x in block[first:]):
        return False
    pitch = statistics.median(b - a for a, b in zip(rows, rows[1:], strict=False))
    return line.top - rows[-1] <= MAX_LINE_GAP * pitch


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


def _caption(line: _Line) -> bool:
    """A line opening a caption or a source note ("Table 3:", "Figure 2.", "Source:")."""
    return bool(CAPTION.match(" ".join(w.text for w in line.words[:3])))


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


def _list_item(line: _Line) -> bool:
    """A bullet or numbered list item: a marker, then text (at most one gap: a marker and an
    item); it ends a table above it rather than becoming a row of it."""
    segments = _segments(line)
    return len(segments) <= 2 and _marker(line.words[0]) and not all(_is_numeric(w.text) for w in line.words)


def _marker(word: Word) -> bool:
    return bool(LIST_MARKER.match(word.text)) or (len(word.text) == 1 and bool(SYMBOL_FONT.search(word.font)))


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
    spans = [(part[0].x0, part[-1].x1)
             for line in multi for seg in _segments(line) for part in _numeric_split(seg)]
    gaps = _uncovered(spans, len(multi) // 10, left, right)
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
        return max(spaces) - min(spaces) <= max(0.5, 0.05 * line.size)

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


def _numeric_share(line: _Line) -> float:
    return line.numeric_share


@lru_cache(maxsize=1 << 16)
def _is_numeric(text: str) -> bool:
    """(Cached: the rules ask it of the same words' texts many times over.)"""
    text = text.strip()
    return bool(NUMERIC.match(text)) and not UNIT_THOUSANDS.match(text)


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
        if merged and _wrapped_row(merged[-1], row, filled):
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
            broken = _broken_at_edge(upper, lower, c, edges)
            upper.cells[c] = broken_joined(upper.cells[c], text, at_edge=broken)
            lower.cells[c] = ""
        _raise_bottom_aligned(header[r - 1], lower)


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
    if len(first) >= 5 and len(singles) >= 0.6 * len(first) and sum(c.isalpha() for c in singles) >= 3 \
            and not (len(set(singles)) == 1 and len(cells[0]) >= 3):
        # Letters of vertical text (a margin note), one per line, beside prose; but one glyph
        # on every row before two columns or more is a symbol font's bullet or box ("y" in
        # Wingdings) in a checklist's rows, whose ticks fill the columns after.
        return False
    return not _running_text(cells) and not _numbered_outline(cells) and not _reference_list(cells)


# A time of day, or a span of two ("09:00", "9.30am", "14:00-15:30"): see _time_list.
TIME_OF_DAY = re.compile(r"^\d{1,2}[:.]\d{2}\s*(?:[ap]\.?m\.?)?(?:\s*[-\u2013\u2014]\s*\d{1,2}[:.]\d{2}"
                          r"\s*(?:[ap]\.?m\.?)?)?$", re.IGNORECASE)


def _time_list(cells: list[list[str]]) -> bool:
    """Whether ``cells`` are an agenda's or a programme's lines, not a table: two columns, a time
    of day opening every row (no header row over them, "Time" over "Session") and a title of
    words beside each ("09:30" "Keynote: Building better libraries"), most of two words or more
    and none a figure's.  A timetable has its header, or more columns (its rooms, its speakers);
    a log of times and events set between rules is a table too (see :func:`_ruled_rows`)."""
    if len(cells[0]) != 2 or not all(TIME_OF_DAY.match(row[0].strip()) for row in cells):
        return False
    titles = [row[1] for row in cells]
    return all(title[:1].isalpha() for title in titles) \
        and 2 * sum(len(title.split()) >= 2 for title in titles) > len(titles)


# Horizontal rules across most of a table's width (this share), two or more over, between or
# under its rows within a line's height of them, set it as a table: see _ruled_rows.
RULED_ROWS_WIDTH = 0.8


def _ruled_rows(table: FoundTable, rulings: list[Ruling]) -> bool:
    """Whether two horizontal rules or more cross ``table``'s width within its rows, or a row's
    height over or under them (a rule over its first row and one under its last, as a report
    sets a table without a grid, or one under each row): a table drawn as one, whose rows
    are no agenda's lines typed with a tab (issue 32)."""
    reach = (table.bottom - table.top) / max(1, len(table.cells))  # (a row's height)
    return sum(1 for r in rulings if r.horizontal and table.top - reach <= r.top <= table.bottom + reach
               and min(r.x1, table.x1) - max(r.x0, table.x0) >= RULED_ROWS_WIDTH * (table.x1 - table.x0)) >= 2


# A section's number alone ("2", "2.1", "2.1.3"): see _numbered_outline.
_OUTLINE_NUMBER = re.compile(r"^\d{1,2}(?:\.\d{1,2}){0,3}$")
# A cell of running text: a sentence of this many words or more.
_OUTLINE_TEXT_WORDS = 6


def _numbered_outline(cells: list[list[str]]) -> bool:
    """Numbered sections, their numbers hung in the margin left of their titles and text (a
    report's "1", "1.1", "1.2", "2" down the margin): two columns, the first holding section
    numbers alone, of two depths or one under another set before it ("2" then "2.1"), and
    the second mostly sentences, the titles run into their text.  A table's column of codes or
    row numbers stands beside cells of its own, not paragraphs."""
    if len(cells[0]) != 2:
        return False
    numbers = [row[0].strip() for row in cells if row[0].strip()]
    if len(numbers) < 3 or not all(_OUTLINE_NUMBER.match(number) for number in numbers):
        return False
    if len({number.count(".") for number in numbers}) < 2 and not _under_earlier(numbers):
        return False
    texts = [row[1] for row in cells if row[1].strip()]
    sentences = sum(len(text.split()) >= _OUTLINE_TEXT_WORDS and text.rstrip().endswith(".")
                    for text in texts)
    return 2 * sentences >= len(texts)


# A reference's number in brackets ("[1]"): see _reference_list.
_REFERENCE_NUMBER = re.compile(r"^\[\d{1,3}\]$")


def _reference_list(cells: list[list[str]]) -> bool:
    """A bibliography's entries, each number in brackets set a tab before its reference ("[1]"
    beside "ISO 9001:2015, Quality management systems"): two columns, the first holding such
    numbers alone (or nothing, beside an entry's wrapped lines).  A list, not a table."""
    if len(cells[0]) != 2:
        return False
    numbers = [row[0].strip() for row in cells if row[0].strip()]
    return len(numbers) >= 2 and all(_REFERENCE_NUMBER.match(number) for number in numbers)


def _under_earlier(numbers: list[str]) -> bool:
    """Whether a section number stands under one set before it ("2" then "2.1"): one pass,
    the numbers seen so far in a set (a column of a long table's codes is no walk per row)."""
    seen: set[str] = set()
    for number in numbers:
        if number.rpartition(".")[0] in seen:
            return True
        seen.add(number)
    return False


def _running_text(cells: list[list[str]]) -> bool:
    """Every column's lines run on from row to row like the lines of a paragraph: two
    columns of prose side by side in a box or sidebar, or the captions under key figures,
    read across as rows of short cells.  A column runs on when its cells are a few words
    each (a median of RUN_ON_WORDS or more) and most of them (RUN_ON_SHARE) go on in lower
    case from a cell above that ends no sentence.  A table's own cells each begin their
    own text; where a column of lower-case descriptions is one (a role and what it does),
    the other column's short names do not run on.  A column whose text begins below the
    first row, where a table's header is, begins with a blurb's title ("Follow-up" over
    "Report any redness, / pain, swelling ...": an infographic's notes, each column's title
    on its own line): its first text is not asked to run on into the next."""
    width = len(cells[0])
    columns = [([row[c] for row in cells if c < len(row) and row[c].strip()],
                c < len(cells[0]) and not cells[0][c].strip()) for c in range(width)]
    columns = [(texts, late) for texts, late in columns if len(texts) >= 3]
    if len(columns) < 2 or sum(len(texts) for texts, _ in columns) < 0.6 * _filled(cells):
        return False
    for texts, late in columns:
        if statistics.median(len(t.split()) for t in texts) < RUN_ON_WORDS:
            return False
        pairs = list(zip(texts, texts[1:], strict=False))[1 if late else 0:]
        runs = sum(b[:1].islower() and a.rstrip()[-1:] not in ".:;!?" for a, b in pairs)
        # (A capital after a sentence's end is the next sentence of the same paragraph.)
        sentences = sum(b[:1].isupper() and a.rstrip()[-1:] in ".!?" for a, b in pairs)
        if runs < RUN_ON_SHARE * len(pairs) and (runs < RUN_ON_MIN * len(pairs)
                                                  or runs + sentences < RUN_ON_PROSE * len(pairs)):
            return False
    return True
