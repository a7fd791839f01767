"""Tables continued on the next page, joined into one table with the pages it spans.

A long table that a page break cuts is two tables to a per-page finder
(:mod:`extractors.pdf_tables`): the rows on the first page, and the rest at the top of the
next, with the header row repeated there or not.  Read that way a chunk from the second page
holds figures without the header that says what they are, and a search for the table finds
half of it.  The rule: a table the page's body ends with (only running footer lines below it,
and it reaches down to where the document's pages end their body) and a table the next page's
body starts with (only running header lines above it, at the top of where bodies start) are
one table when they have

- the same number of columns,
- compatible column positions: the whitespace strips between their columns overlap pairwise
  (or, when the strips cannot be paired, their left and right edges are the same),
- a continuation's first row that repeats the first table's header (it is dropped) or reads
  as a data row (figures where the first table's body has figures; not a bold line over
  regular rows): a different header row starts a different table.

A row broken over the page (Word and LibreOffice let rows break) goes on at the top of the
next: the rest of its wrapped label, in lower case or in figures (never a lone year or span of
years: a section row), stands over the next page's rows, under the header repeated or not;
it is put back into that row (:func:`_row_rest`, :func:`_header_apart`).  So is a rest in two
columns or more of a listing every row of which has a key (a firm's name and a description both
wrapped), over one line or two, whether the page finder took it into the part or left it over
one or two rows as lines (:func:`leading_rows`); the same rest atop two pages (at two page
breaks alike) is no header row repeated (issue 32).

When the next page's part fails that (read alone, without the header that confirmed a narrow
gutter, it has another column count), its lines are read again in the first table's columns
(:mod:`extractors.pdf_table_columns`): if every line fits them, those are the part's rows.

A table may go on in the next text column of the same page instead (a two-column part of
a document): the table its column ends with (no text under it in its column) and the table
the column to its right starts with (no text of that column above it, only full-width text)
are one table under the same conditions, the second's columns compared as if moved onto the
first's (:func:`join_column_tables`).

A heading, a paragraph or a caption between the two tables keeps them apart (neither is then
the last or the first thing of its page's body), except a short note that the table goes on
("Table 3 (continued)", "continued on next page"), which stays as text where it is.  Chains
over three pages and more join one page at a time.

No library does this on positioned words: camelot, pdfplumber and tabula work per page, and
docling's and MinerU's table models see one page image at a time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from extractors.pdf_drafts import SENTENCE_END
from extractors.pdf_table_columns import (
    Column,
    baseline_rows,
    body_columns,
    fit_row,
    words_inside,
    wrapped_column,
)
from extractors.pdf_table_model import NUMERIC, FoundTable
from extractors.pdf_words import Word

if TYPE_CHECKING:
    from extractors.pdf_drafts import Line
from extractors.tables import cells_to_markdown

# A section row of years ("2024", "2023/24", "2023 to 2024"): no rest of a row broken over a page.
_YEARS = re.compile(r"^(19|20)\d\d(\s*(/|-|–|to|and)\s*((19|20)?\d\d))?\b\W*$")
# A note that a table goes on ("Table 3 (continued)", "continued on next page"): it may stand
# between a table's parts without parting them.
_CONTINUED = re.compile(r"\b(continued|cont'?d|cont\.|fortgesetzt|fortsetzung|suite|continuación|"
                        r"continuacion|continua|vervolg)\b", re.IGNORECASE)
_NOTE_WORDS = 12
# How far (in row pitches of the table, plus a few points) a table may stop short of the
# document's lowest body bottom, or start below its highest body top: a row that did not fit
# leaves a gap at the page's foot; a repeated header row or cell padding one at its head.
_EDGE_ROWS = 2.5
_EDGE_POINTS = 6.0
# Tables whose column gaps cannot be paired are compatible when their edges are this close.
_SAME_EDGE = 4.0
# A whitespace strip narrower than this share of the font size between the words of a table
# is a word space (a space is about a quarter of an em; columns stand further apart).
_MIN_GAP_EM = 0.6
# Rows at the head of the next page that the page finder left as lines (one or two rows are
# too few to make a table of their own) follow each other at most this many row pitches apart.
_ROW_PITCHES = 2.0
# A wrapped cell's next line starts this close (points) to where its first line starts.
_ALIGNED = 2.0
# A note under a table stands at least this many points further under the last row's line than
# that row's own lines stand apart (a cell's padding, a paragraph's space before).
_NOTE_SPACE = 1.0


@dataclass
class BodyEdge:
    """What one page's body (running lines aside) starts and ends with, in reading order."""

    page: int
    top: float  # the body's top and bottom on the page (points from the top)
    bottom: float
    first: FoundTable | None  # the table the body starts with, if it does
    last: FoundTable | None  # the table the body ends with, if it does
    words: list[Word] = field(default_factory=list)  # the page's words
    # ``first`` was made by :func:`leading_rows` from the previous page's table's columns.
    adopted: bool = False
    # The texts of the lines above ``first`` that repeat header rows of a table on an earlier
    # page (print titles, maybe), and each of this page's tables' header rows.
    titles: tuple[str, ...] = ()
    headers: tuple[tuple[str, ...], ...] = ()
    size: tuple[float, float] = (0.0, 0.0)  # the page's width and height (points)
    # ``first`` or ``last`` is the table a text column starts or ends with (the page is set
    # in columns): a part of a table in another column may stand elsewhere across the page.
    columns: bool = False
    # The words of each line above ``first`` that may be the rest of the previous page's last
    # row (see :func:`_row_rest`), top down.
    rest: tuple[tuple[Word, ...], ...] = ()


@dataclass
class Stitch:
    """One table over several pages: its parts in page order (each part's table as the page
    finder saw it, and the rows of the joined table it gives), and the joined table, placed
    where its first part is."""

    parts: list[tuple[int, FoundTable]]
    rows: list[int]  # rows of ``table.cells`` each part contributes (the first: with the header)
    table: FoundTable
    # The page finder's table of each part, where it differs from the part (a part read again
    # in the first table's columns): the table its page's blocks hold.
    found: dict[int, FoundTable] = field(default_factory=dict)
    # The pages whose lines over their part were the rest of the row before (BodyEdge.rest).
    rest_pages: set[int] = field(default_factory=set)

    def found_part(self, index: int) -> FoundTable:
        """The page finder's table of part ``index`` (the one its page's blocks hold)."""
        return self.found.get(index, self.parts[index][1])

    @property
    def pages(self) -> list[int]:
        return [page for page, _ in self.parts]

    def part_offsets(self) -> list[tuple[int, int]]:
        """Where each part's rows are in the joined table's Markdown (start, end offsets): the
        first part with the header and separator lines, the others their rows alone."""
        starts = [0]
        for text in self.table.markdown.split("\n"):
            starts.append(starts[-1] + len(text) + 1)
        offsets = []
        line = 0
        for index, count in enumerate(self.rows):
            first = line
            line += count + (1 if index == 0 else 0)  # (the separator line after the header)
            offsets.append((starts[first], starts[line] - 1))
        return offsets


def stitch_tables(edges: list[BodyEdge]) -> list[Stitch]:
    """The tables that continue from one page onto the next, joined."""
    bodies = [edge for edge in edges if edge.bottom > edge.top]
    if len(bodies) < 2:
        return []
    extents = body_extents([(edge.size, edge.top, edge.bottom) for edge in bodies])
    by_page = {edge.page: edge for edge in edges}
    stitches: list[Stitch] = []
    open_stitch: Stitch | None = None
    seen: list[tuple[str, ...]] = []  # the header rows of the tables so far
    for edge in edges:
        seen += [tuple(_key([row])[0] for row in header) for header in edge.headers]
        after = by_page.get(edge.page + 1)
        before = edge.last
        if before is None or after is None or after.first is None or \
                (open_stitch is not None and open_stitch.parts[-1][1] is not before):
            open_stitch = None
        if before is None or after is None or after.first is None:
            continue
        # (The rest of a row over the part, under the header repeated or not, starts the body.)
        start = min([after.first.top, *(w.top for line in after.rest for w in line)])
        if not _at_foot(before, extents[edge.size][1]) \
                or not _at_head(after.first, extents[after.size][0], start):
            open_stitch = None
            continue
        found = after.first
        part, drop, broken, rested = _how_joined(before, found, edge, after, open_stitch)
        if after.rest and not rested:  # (lines over the part that are no row's rest part them)
            open_stitch = None
            continue
        if drop is not None and part is not found:
            after.first = part
            if after.last is found:
                after.last = part
        if drop is None:
            reread = _in_columns_of(before, edge.words, found, after.words, after.titles, seen)
            if reread is None:
                open_stitch = None
                continue
            after.first, drop = reread, 0
            # (Its first row may be the rest of the last row, under the header repeated.)
            broken = len(reread.cells) > 1 and _goes_on_last_row(reread.cells[0], before)
            if after.last is found:  # (the part goes on, in these columns, onto the next page)
                after.last = reread
        if open_stitch is None:
            open_stitch = Stitch([(edge.page, before)], [len(before.cells)], before)
            stitches.append(open_stitch)
        if after.first is not found:
            open_stitch.found[len(open_stitch.parts)] = found
        _extend(open_stitch, after.page, after.first, drop, broken)
        if rested:
            open_stitch.rest_pages.add(after.page)
    return stitches


def _row_rest(before: FoundTable, before_words: list[Word],
              lines: tuple[tuple[Word, ...], ...]) -> tuple[int, str] | None:
    """The column and text of ``lines`` (over the next page's first table) when they are the
    rest of a cell of ``before``'s last row, broken over the page (Word and LibreOffice let a
    row break across pages; without a repeated header the rest of a wrapped cell stands alone
    over the next page's rows, which the page finder does not take it into), else None.

    In the first column (clear of the second column's text by a word space), the cell filled,
    it goes on in lower case, or in figures when the cell ends no sentence and the line is more
    than a year or a span of years ("2024 ahead of plan.", not a section row "2024" or "2023 to
    2024"): a capital there starts a row of its own, a label alone.  In a column of text after
    the first, the cell above filled, it is the cell's rest in any case when every row of the
    body fills the first column (:func:`_keyed`: a listing's ids, no row starts without one;
    a firm's name wrapped, "Blue Ridge Medical" over the break and "Group of Stockton Inc."
    after it, issue 32, record_listing)."""
    if not before.cells or _width(before) < 2 or len(before.cells) <= max(1, before.header_rows):
        return None
    gaps = _column_gaps(_below_top(words_inside(before_words, before)))
    words = [w for line in lines for w in line]
    if not gaps or not words:
        return None
    text = " ".join(w.text for line in lines for w in sorted(line, key=lambda w: w.x0))
    if all(w.x0 >= before.x0 - _EDGE_POINTS and w.x1 <= gaps[0][1] - _MIN_GAP_EM * w.size for w in words):
        return (0, text) if before.cells[-1][0].strip() and _goes_on(text, before.cells[-1][0]) else None
    if len(gaps) + 1 != _width(before):
        return None
    column = _column_within(words, gaps)
    body = before.cells[max(1, before.header_rows):]
    if column is None or not before.cells[-1][column].strip() or not _keyed(body) \
            or sum(1 for row in body if _figure(row[column])) >= 0.6 * len(body):
        return None
    return column, text


def _goes_on(text: str, cell: str) -> bool:
    """Whether ``text`` reads as going on ``cell``'s text rather than starting a row's label:
    in lower case, or in figures followed by words when the cell ends no sentence and the
    text is more than a year or a span of years."""
    if text[:1].islower():
        return True
    words = text.split()
    return text[:1].isdigit() and len(words) >= 2 and words[1][:1].islower() and not _YEARS.match(text) \
        and cell.rstrip()[-1:] not in ".:;!?"


def _column_within(words: list[Word], gaps: list[tuple[float, float]]) -> int | None:
    """The column between ``gaps`` (whitespace strips) that holds every one of ``words``, each
    clear of the strips' far edges by a word space; None when they stand in more than one or
    cross a strip."""
    columns = set()
    for w in words:
        column = sum(1 for _, g1 in gaps if w.x0 >= g1 - 1)
        # (Counted so, a word starts right of its column's left strip; its right end tells.)
        if column < len(gaps) and w.x1 > gaps[column][1] - _MIN_GAP_EM * w.size:
            return None
        columns.add(column)
    return columns.pop() if len(columns) == 1 else None


def _how_joined(before: FoundTable, found: FoundTable, edge: BodyEdge, after: BodyEdge,
                open_stitch: Stitch | None) -> tuple[FoundTable, int | None, bool, bool]:
    """How the next page's first table (``found``) goes on ``before``: the part to join
    (its header repeated over the rest of a row parted, the lines over it taken as its first
    row), how many of its rows repeat the header (None: it is no continuation as read), whether
    its first row after those is the rest of ``before``'s last row, and whether that rest was
    the lines over the table (``after.rest``)."""
    part = _header_apart(before, found)
    rest = _row_rest(before, edge.words, after.rest) if after.rest and not after.titles else None
    # (Print titles above the part: only a reading in ``before``'s columns can drop them.)
    moved = edge.columns or after.columns
    # (Rows adopted in the columns of ``before`` as the page finder read it go on as read,
    # unless ``before`` was read again in its own first part's columns: then so are they.)
    adopted = after.adopted and _width(found) == _width(before)
    drop = None if after.titles else 0 if adopted else \
        _continuation(before, part, edge.words, after.words, moved,
                      open_stitch.table if open_stitch is not None else None)
    if drop is None and open_stitch is not None and not after.titles:
        drop = _header_again(open_stitch.table, before, part, edge.words, after.words, moved)
    if drop is None and not after.titles and not after.adopted \
            and _rest_of_row(before, part, edge.words, after.words):
        return part, 0, True, False
    if drop is not None and _rest_of_row(before, part, edge.words, after.words, drop):
        # (The rest of the row under the header repeated over it, or atop rows the page finder
        # left as lines, read in ``before``'s columns: "Bakery Ltd" and "roof and gutters" in
        # two of its columns, issue 32.)
        return part, drop, True, False
    if drop == 0 and rest is not None:  # (read as the part's first row, the rest of the last)
        column, text = rest
        cells = [[text if c == column else "" for c in range(_width(part))], *part.cells]
        return replace(part, cells=cells, markdown=cells_to_markdown(cells)), 0, True, True
    return part, drop, False, False


def _header_again(joined: FoundTable, before: FoundTable, after: FoundTable, before_words: list[Word],
                  after_words: list[Word], moved: bool) -> int | None:
    """How many rows of ``after`` repeat the header of the table joined so far, ``before`` (the
    last part) having none of its own (its page set the header repeated over it apart from its
    rows, see pdf_structure._row_rest_drafts), when their columns agree; None when none do.
    ``moved``: one part stands in a text column, and their columns are compared as if moved
    onto each other, as :func:`_continuation` compares them (the rest of the table in the next
    page's left column, the last part in the right one)."""
    head = max(1, joined.header_rows)
    drop = 0
    while drop < min(head, len(after.cells) - 1) and _key(after.cells[drop]) == _key(joined.cells[drop]):
        drop += 1
    if not drop or _width(before) != _width(after) \
            or not _columns_agree(before, after, before_words, after_words, moved):
        return None
    return drop


def _header_apart(before: FoundTable, after: FoundTable) -> FoundTable:
    """``after`` with its first row parted into ``before``'s header repeated and the line
    under it, when the page finder read them as one header row: a row broken over the page
    goes on under the repeated header (LibreOffice sets the header first, then the rest of the
    row), and the rest of a wrapped label, alone on its line, reads as the header's second
    line ("Scheme" over "estate.").  Each cell of the row is the header's, or the header's and
    more where ``before``'s last row fills that cell; ``after`` itself otherwise."""
    if before.header_rows != 1 or not before.cells or len(after.cells) < 2 or _width(before) != _width(after):
        return after
    header, first, last = before.cells[0], after.cells[0], before.cells[-1]
    rest = []
    for head, text, above in zip(header, first, last, strict=True):
        if text == head:
            rest.append("")
        elif head.strip() and text.startswith(head + " ") and above.strip():
            rest.append(text[len(head) + 1:])
        else:
            return after
    if not any(rest):
        return after
    cells = [list(header), rest, *after.cells[1:]]
    return replace(after, cells=cells, markdown=cells_to_markdown(cells), header_rows=1)


def _rest_of_row(before: FoundTable, after: FoundTable, before_words: list[Word],
                 after_words: list[Word], at: int = 0) -> bool:
    """Whether ``after``'s first row is the rest of ``before``'s last row, broken over the page:
    Word and LibreOffice let a row break across pages by default, and a label wrapped onto a
    second line leaves that line alone at the top of the next page, in a row of its own whose
    other cells are empty ("Schedule" | 892.40 ... over the break, "workshop" | | ... after it;
    issue 32, office-0003).  Read as a row it is a header-like line of words over the figures
    and keeps the parts apart.  It is the rest of the row when the tables' columns agree, it
    fills only cells the last row fills, none of a column of figures, and goes on in lower
    case (a new row's label starts with a capital or a figure) or leaves a first column
    empty that no row of the body leaves empty (:func:`_keyless`), with rows after it.
    ``at``: the row of ``after`` asked (the one under a repeated header)."""
    if len(after.cells) < at + 2 or _width(before) != _width(after):
        return False
    return _goes_on_last_row(after.cells[at], before) \
        and _columns_agree(before, after, before_words, after_words)


def _goes_on_last_row(first: list[str], before: FoundTable) -> bool:
    """Whether the cells ``first`` read as the rest of ``before``'s last row (see
    :func:`_rest_of_row`), the tables' columns aside."""
    if not before.cells or _width(before) < 2:
        return False
    last = before.cells[-1]
    filled = [c for c, text in enumerate(first) if text.strip()]
    if not filled or any(c >= len(last) or not last[c].strip() for c in filled):
        return False
    body = before.cells[max(1, before.header_rows):]
    if any(sum(1 for r in body if c < len(r) and _figure(r[c])) >= 0.6 * len(body) for c in filled):
        return False
    return first[filled[0]].strip()[0].islower() or _keyless(first, body)


def _keyless(row: list[str], body: list[list[str]]) -> bool:
    """Whether ``row`` leaves the first column empty where every row of ``body`` fills it (a
    listing's ids, a register's references): no row starts so, the row is the rest of one
    broken over the page whatever its case ("Group of Stockton Inc." under "Blue Ridge
    Medical", a firm's name wrapped in the third column; issue 32, record_listing).  The
    body's first row is not asked: it may be such a rest itself, from the page before."""
    return not row[0].strip() and _keyed(body)


def _keyed(body: list[list[str]]) -> bool:
    """Whether every row of ``body`` (three or more) but its first fills the first column (and
    but the rows under the first that leave it empty: the rest of a row over two lines from
    the page before, as the page finder reads it, a row a line)."""
    rows = body[1:]
    while rows and rows[0] and not rows[0][0].strip():
        rows = rows[1:]
    return len(body) >= 3 and bool(rows) and all(r and r[0].strip() for r in rows)


def _in_columns_of(before: FoundTable, before_words: list[Word], after: FoundTable,
                   after_words: list[Word], titles: tuple[str, ...] = (),
                   seen: list[tuple[str, ...]] | None = None) -> FoundTable | None:
    """``after`` read again in ``before``'s body columns (a repeated header line dropped, a
    line filling one text column alone the rest of the cell above), or None unless every line
    of it fits them; ``before`` needs a column of figures or dates, the kind a header's words
    cannot pass for.  Print titles go first: the header rows of a table of ``seen`` (the
    header rows of the tables so far) repeated at the top of the page, the ``titles`` above
    ``after`` and lines of it; ``titles`` that are not such a table's first rows keep the
    parts apart."""
    columns = body_columns(before, before_words)
    if columns is None or all(column.kind == "text" for column in columns):
        return None
    headers = {_key([" ".join(row)]) for row in before.cells[:max(1, before.header_rows)]}
    lines = baseline_rows(words_inside(after_words, after))
    repeated = _print_titles(tuple(_key([text])[0] for text in titles),
                             [_key([" ".join(w.text for w in line)])[0] for line in lines], seen or [])
    if repeated is None:
        return None
    lines = lines[repeated:]
    while lines and _key([" ".join(w.text for w in lines[0])]) in headers:
        lines = lines[1:]
    rows: list[list[str]] = []
    for line in lines:
        cells = fit_row(line, columns)
        column = wrapped_column(line, columns) if cells is None and rows else None
        if cells is not None:
            rows.append(cells)
        elif column is not None and rows[-1][column]:
            rows[-1][column] += " " + " ".join(w.text for w in line)
        else:
            return None
    if not rows or _header_like(rows[0], before, [], []) and not _goes_on_last_row(rows[0], before):
        return None
    return FoundTable(after.x0, after.top, after.x1, after.bottom, rows, cells_to_markdown(rows),
                      ruled=after.ruled, header_rows=0)


def _print_titles(titles: tuple[str, ...], lines: list[str], seen: list[tuple[str, ...]]) -> int | None:
    """How many of ``lines`` (a part's, top down) end the header rows of a table of ``seen``
    that ``titles`` (the lines above the part) begin: a spreadsheet's print titles, its first
    table's header repeated at the top of every page, over another table's rows.  0 when
    there are no titles and no such rows, None when the titles are no such header's."""
    best: int | None = None if titles else 0
    for header in seen:
        rest = header[len(titles):]
        if header[:len(titles)] == titles and (rest or titles) and tuple(lines[:len(rest)]) == rest \
                and (best is None or len(rest) > best):
            best = len(rest)
    return best


def continuation_note(text: str) -> bool:
    """Whether a short line says a table goes on ("Table 3 (continued)", "Continued overleaf")."""
    return len(text.split()) <= _NOTE_WORDS and bool(_CONTINUED.search(text))


def body_extents(bodies: list[tuple[tuple[float, float], float, float]]
                 ) -> dict[tuple[float, float], tuple[float, float]]:
    """Where the document's pages start and end their body (highest top, lowest bottom), per
    page size, from each page's (size, body top, body bottom).  A Word or LibreOffice document
    sets a wide table on landscape pages, or its front matter on another paper, in a section of
    its own: a section's pages end their body where its margins say, and a table at the foot
    of a landscape page stops ~180 pt above where the portrait pages' bodies end (issue 32,
    office corpus: office-0007, office-0009).  A size only one page has keeps the whole
    document's extent (one page says nothing of its section's margins)."""
    whole = (min(top for _, top, _ in bodies), max(bottom for _, _, bottom in bodies))
    out: dict[tuple[float, float], tuple[float, float]] = {}
    for size in {size for size, _, _ in bodies}:
        same = [(top, bottom) for other, top, bottom in bodies if _same_size(other, size)]
        out[size] = (min(t for t, _ in same), max(b for _, b in same)) if len(same) > 1 else whole
    return out


def _same_size(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def _pitch(table: FoundTable) -> float:
    return (table.bottom - table.top) / max(1, len(table.cells))


def at_foot(table: FoundTable, lowest: float) -> bool:
    """Whether ``table`` reaches down to where the document's pages end their body (``lowest``)."""
    return _at_foot(table, lowest)


def _at_foot(table: FoundTable, lowest: float) -> bool:
    return table.bottom >= lowest - _EDGE_ROWS * _pitch(table) - _EDGE_POINTS


def at_head(table: FoundTable, highest: float) -> bool:
    """Whether ``table`` starts where the document's pages start their body (``highest``)."""
    return _at_head(table, highest)


def _at_head(table: FoundTable, highest: float, top: float | None = None) -> bool:
    """(``top``: where the table's part starts, when lines over it are a row's rest.)"""
    return (table.top if top is None else top) <= highest + _EDGE_ROWS * _pitch(table) + _EDGE_POINTS


def _width(table: FoundTable) -> int:
    return max((len(row) for row in table.cells), default=0)


def _key(row: list[str]) -> tuple[str, ...]:
    return tuple(" ".join(cell.split()).lower() for cell in row)


def _continuation(before: FoundTable, after: FoundTable, before_words: list[Word],
                  after_words: list[Word], moved: bool, joined: FoundTable | None = None) -> int | None:
    """How many leading rows of ``after`` repeat ``before``'s header (0 when none do), or
    None when ``after`` is not ``before`` continued.  ``joined``: the table joined so far when
    ``before`` is a later part of it, whose header is the one a page repeats; the part's own
    first row may be the rest of a row broken over the page before, and a row broken the same
    way again ("the estate." under "... across" on two pages of a long programme) is no header
    repeated (issue 32, page_rows)."""
    if not before.cells or not after.cells or _width(before) != _width(after) or _width(before) < 2:
        return None
    if not _columns_agree(before, after, before_words, after_words, moved):
        return None
    header = joined if joined is not None and joined.cells else before
    head = max(1, header.header_rows)
    drop = 0
    while drop < min(head, len(after.cells) - 1, len(header.cells)) \
            and _key(after.cells[drop]) == _key(header.cells[drop]):
        drop += 1
    if drop:
        return drop
    if _header_like(after.cells[0], before, words_inside(after_words, after),
                    words_inside(before_words, before)):
        return None  # another header: another table
    return 0


def _header_like(row: list[str], before: FoundTable, words: list[Word], before_words: list[Word]) -> bool:
    """Whether a continuation's first row reads as a header rather than as ``before``'s data:
    words where ``before``'s body columns hold figures, or a bold top line over regular rows."""
    body = before.cells[max(1, before.header_rows):]
    figures = [c for c in range(_width(before))
               if body and sum(1 for r in body if c < len(r) and _figure(r[c])) >= 0.6 * len(body)]
    if figures:
        return sum(1 for c in figures if c < len(row) and _figure(row[c])) < 0.5 * len(figures)
    top = _top_line(words)
    body_words = [w for w in before_words if w.top > _top_line(before_words)[0].bottom] \
        if before_words else []
    return bool(top) and all(w.bold for w in top) and not any(w.bold for w in body_words)


_SPACE = re.compile(r"\s+")


def _figure(text: str) -> bool:
    return bool(text.strip()) and bool(NUMERIC.match(_SPACE.sub(" ", text.strip())))


def _top_line(words: list[Word]) -> list[Word]:
    if not words:
        return []
    first = min(words, key=lambda w: w.top)
    middle = (first.top + first.bottom) / 2
    return [w for w in words if w.top <= middle <= w.bottom]


def _columns_agree(before: FoundTable, after: FoundTable, before_words: list[Word],
                   after_words: list[Word], moved: bool = False) -> bool:
    """Whether the two tables' columns stand at the same places: their whitespace strips
    between columns (over the rows below the top line, which may be a header whose wide cells
    cross them) overlap pairwise, or their edges match."""
    after_words = words_inside(after_words, after)
    dx = before.x0 - after.x0
    if moved and abs(dx) > _SAME_EDGE and abs((before.x1 - before.x0) - (after.x1 - after.x0)) <= _SAME_EDGE:
        # The same table's rest in another text column (a two-column part's left column on
        # the next page, or the next column): its columns compared as if moved onto the first's.
        after_words = [replace(w, x0=w.x0 + dx, x1=w.x1 + dx) for w in after_words]
        after = replace(after, x0=after.x0 + dx, x1=after.x1 + dx)
    gaps = [_column_gaps(_below_top(words_inside(words, table)))
            for table, words in ((before, before_words), (after, after_words))]
    if len(gaps[0]) == len(gaps[1]) and gaps[0]:
        return all(max(a0, b0) < min(a1, b1) for (a0, a1), (b0, b1) in zip(gaps[0], gaps[1], strict=True))
    return abs(before.x0 - after.x0) <= _SAME_EDGE and abs(before.x1 - after.x1) <= _SAME_EDGE


def _below_top(words: list[Word]) -> list[Word]:
    top = {id(w) for w in _top_line(words)}
    rest = [w for w in words if id(w) not in top]
    return rest or words


def _column_gaps(words: list[Word]) -> list[tuple[float, float]]:
    """The vertical whitespace strips no word crosses, between the leftmost and rightmost word."""
    spans = sorted((w.x0, w.x1) for w in words)
    gaps: list[tuple[float, float]] = []
    if not spans:
        return gaps
    sizes = sorted(w.size for w in words)
    least = _MIN_GAP_EM * sizes[len(sizes) // 2]
    reach = spans[0][1]
    for x0, x1 in spans[1:]:
        if x0 - reach >= least:
            gaps.append((reach, x0))
        reach = max(reach, x1)
    return gaps


def _extend(stitch: Stitch, page: int, table: FoundTable, drop: int, broken: bool = False) -> None:
    """``table`` (the next page's part, its first ``drop`` rows a repeated header) joined on;
    ``broken``: its first row is the rest of the joined table's last row (:func:`_rest_of_row`),
    each cell's text put after that row's."""
    rows = table.cells[drop:]
    cells = stitch.table.cells + rows
    if broken:
        last = stitch.table.cells[-1]
        body = stitch.table.cells[max(1, stitch.table.header_rows):]
        joined, rest = list(last), True
        # (A rest over two lines or more comes as a row per line, each without the key every
        # row has: all of them join the broken row.)
        while rows and (rest or len(rows) > 1 and _keyless(rows[0], body) and _fills_only(rows[0], last)):
            joined = [" ".join(part for part in (text, rows[0][c] if c < len(rows[0]) else "")
                               if part.strip()) for c, text in enumerate(joined)]
            rows, rest = rows[1:], False
        cells = [*stitch.table.cells[:-1], joined, *rows]
    first = stitch.table
    stitch.table = FoundTable(first.x0, first.top, first.x1, first.bottom, cells, cells_to_markdown(cells),
                              ruled=first.ruled, header_rows=first.header_rows)
    stitch.parts.append((page, table))
    stitch.rows.append(len(rows))


def _fills_only(row: list[str], filled: list[str]) -> bool:
    """Whether ``row`` fills only cells that ``filled`` fills."""
    return all(c < len(filled) and filled[c].strip() for c, text in enumerate(row) if text.strip())


def leading_rows(before: FoundTable, before_words: list[Word], rows: list[list[Word]],
                 highest: float, headers: frozenset[str] = frozenset()) -> FoundTable | None:
    """The first rows of the next page's body (``rows``: its words by baseline, top down)
    that go on ``before`` but that the page finder left as lines, one or two rows being too
    few for a table: each row's words stand inside ``before``'s columns (none crosses a
    whitespace strip between them, or, where a gutter is too narrow for a strip, each fits
    its body's columns: :func:`extractors.pdf_table_columns.fit_row`), fill two columns or
    more, hold figures where its body does, and follow the row above at a row's pitch, or
    are the next line of a cell wrapped in the row above (:func:`_wrapped_line`).  A first
    row repeating ``before``'s header, or one of ``headers`` (the header rows of the tables on
    the pages before, their words joined by a space in lower case: a part whose page took the
    header repeated over it for a running line has none of its own), is the header repeated.
    None when not even the first row does."""
    gaps = _column_gaps(_below_top(words_inside(before_words, before)))
    columns = None
    if len(gaps) + 1 != _width(before):  # (a narrow gutter): the columns its body rows keep
        columns = body_columns(before, before_words)
        if columns is None or all(column.kind == "text" for column in columns):
            return None
    if not rows:
        return None
    pitch = _pitch(before)
    taken: list[list[str]] = []
    kept: list[list[Word]] = []  # the rows taken, a repeated header row first if there is one
    rest: list[tuple[Word, ...]] = []  # the first lines, left over the rows as the last row's rest
    for row in rows:
        top = min(w.top for w in row)
        # (Under the rest of a row, the rows follow it: the header repeated over it, and the
        # rest itself, may reach down more than two rows' pitches from the body's top.)
        above = kept[-1] if kept else rest[-1] if rest else None
        reach = highest if above is None else min(w.top for w in above)
        if top > reach + _ROW_PITCHES * pitch + _EDGE_POINTS:
            break
        text = " ".join(w.text for w in sorted(row, key=lambda w: w.x0))
        cells = _fitted(row, gaps, before) if columns is None else fit_row(row, columns)
        if not kept and (_key([text]) == _key([" ".join(before.cells[0])]) or _key([text])[0] in headers) \
                and not (not taken and cells is not None and _goes_on_last_row(cells, before)):
            # The header repeated (its wide cells may cross the body's column gaps): its words
            # go, its cells are the table's already.  (Not the rest of a row alike atop two
            # pages, "Bakery Ltd" and "roof and gutters", which the finder took for the header
            # of the page before.)
            kept.append(row)
            continue
        if not taken and _row_rest(before, before_words, (*rest, tuple(row))) is not None:
            # The rest of the last row's cell, broken over the page: left over the rows as
            # lines, for the stitch to put back into that row (BodyEdge.rest), and so is the
            # header repeated over it (the table starts under them).
            rest.append(tuple(row))
            kept = []
            continue
        wrapped = _wrapped_line(row, kept[-1], gaps, columns, before) if cells is None and taken else None
        if wrapped is not None and _note_under(row, kept):
            break
        if wrapped is not None and taken[-1][wrapped]:
            taken[-1][wrapped] += " " + text  # (the next line of that row's wrapped cell)
            kept.append(row)
            continue
        if cells is None or _header_like(cells, before, [], []) \
                and (taken or not _goes_on_last_row(cells, before)):
            # (Read in the columns, the rest of the last row in two of them or more goes on:
            # the stitch puts it back into that row, see _rest_of_row.)
            break
        taken.append(cells)
        kept.append(row)
    if not taken:
        return None
    words = [w for row in kept for w in row]
    return FoundTable(before.x0, min(w.top for w in words), before.x1, max(w.bottom for w in words), taken,
                      cells_to_markdown(taken), ruled=before.ruled, header_rows=0)


def _note_under(row: list[Word], kept: list[list[Word]]) -> bool:
    """Whether ``row``, in the first column under the rows taken (``kept``, top down), is a
    note under the table rather than the next line of the last row's wrapped cell: a sentence
    of its own (a capital after a line ending one, itself ending one) set further under that
    line than the rows' own lines stand apart, or in another size or face ("All costs are
    estimates." under a works programme's last row on the last page, issue 32, page_rows-502).
    A cell's lines follow each other at one leading; a paragraph after the table stands below
    the cell's padding too."""
    above = sorted(kept[-1], key=lambda w: w.x0)
    words = sorted(row, key=lambda w: w.x0)
    if not above[-1].text.endswith(SENTENCE_END) or not words[0].text[:1].isupper() \
            or not words[-1].text.endswith(SENTENCE_END):
        return False
    if abs(words[0].size - above[0].size) > 0.5 or words[0].font != above[0].font:
        return True
    bottoms = [min(w.bottom for w in line) for line in (*kept, row)]
    leading = min((b - a for a, b in zip(bottoms[:-2], bottoms[1:-1], strict=False) if b > a), default=None)
    return leading is not None and bottoms[-1] - bottoms[-2] > leading + _NOTE_SPACE


def _wrapped_line(row: list[Word], above: list[Word], gaps: list[tuple[float, float]],
                  columns: list[Column] | None, table: FoundTable) -> int | None:
    """The column of ``table`` whose cell in the row above (``above``: its words) goes on on
    ``row``, the next line of a wrapped cell (a firm's name over two lines in a row run over
    onto the next page, issue 32, record_listing): every word of it in one column of text,
    not figures, starting where that cell's words above start.  None otherwise."""
    if columns is not None:
        column = wrapped_column(row, columns)
    else:
        placed = {sum(1 for g0, g1 in gaps if (w.x0 + w.x1) / 2 > (g0 + g1) / 2) for w in row}
        column = placed.pop() if len(placed) == 1 else None
        if column is None or any(w.x0 < g1 - 1 and w.x1 > g0 + 1 for w in row for g0, g1 in gaps):
            return None
        body = table.cells[max(1, table.header_rows):]
        if sum(1 for r in body if column < len(r) and _figure(r[column])) >= 0.6 * len(body):
            return None
    if column is None:
        return None
    lefts = [0.0, *(g1 for _, g1 in gaps)] if columns is None else [c.left for c in columns]
    rights = [*(g0 for g0, _ in gaps), float("inf")] if columns is None else [c.right for c in columns]
    cell = [w for w in above if lefts[column] - 1 <= (w.x0 + w.x1) / 2 <= rights[column] + 1]
    if not cell or abs(min(w.x0 for w in cell) - min(w.x0 for w in row)) > _ALIGNED:
        return None
    return column


def _fitted(row: list[Word], gaps: list[tuple[float, float]], table: FoundTable) -> list[str] | None:
    """The row's cells in the columns ``gaps`` separate, or None when a word crosses a gap,
    stands outside the table or fewer than two columns are filled."""
    cells: list[list[str]] = [[] for _ in range(len(gaps) + 1)]
    slack = _pitch(table)
    previous: tuple[Word, int] | None = None
    for word in sorted(row, key=lambda w: w.x0):
        if word.x0 < table.x0 - slack or word.x1 > table.x1 + slack:
            return None
        column = sum(1 for g0, g1 in gaps if (word.x0 + word.x1) / 2 > (g0 + g1) / 2)
        if any(word.x0 < g1 - 1 and word.x1 > g0 + 1 for g0, g1 in gaps):
            # A longer label than any above it runs on into the whitespace strip on its right
            # (a left-aligned text column's strip is only as wide as the rows seen so far set
            # it: "Licence budget" under "Station", issue 32, office-0009).  A word a word
            # space after the previous one of the cell is that cell's while it stays clear of
            # the next column's cells by more than a word space.
            if previous is None or word.x0 - previous[0].x1 > _MIN_GAP_EM * word.size:
                return None
            column = previous[1]
            if column < len(gaps) and word.x1 > gaps[column][1] - _MIN_GAP_EM * word.size:
                return None
        cells[column].append(word.text)
        previous = (word, column)
    if sum(1 for cell in cells if cell) < 2:
        return None
    return [" ".join(cell) for cell in cells]


def trailing_header(after: FoundTable, after_words: list[Word], cells: list[list[Word]]) -> FoundTable | None:
    """``after`` (the table the next page's body starts with, its first row data) with the
    header row the previous page's body ends with, or None.  Word and LibreOffice break a
    table before any row, the first data row too, and keep no header with its body unless the
    author asked: the header row stands alone at the foot of the page, too few rows for a
    table, and the body on the next page has no header to say what its figures are (issue 32,
    office corpus: office-0011, office-0020).  ``cells``: the last body baseline's lines (a
    row's cells, split at their gaps) left to right.  They are the header when there is one
    per column of ``after``'s body, each stands between the body cells of its neighbouring
    columns (a header cell is aligned on its own column: over it, not over another's
    figures), and the row reads as a header (words where the body holds figures) over a first
    row that does not."""
    width = _width(after)
    if width < 2 or len(cells) != width or not after.cells:
        return None
    body = words_inside(after_words, after)
    gaps = _column_gaps(body)
    if len(gaps) + 1 != width:
        return None
    # Each body column's extent: from the strip on its left to the strip on its right.
    lefts = [after.x0] + [g1 for _, g1 in gaps]
    rights = [g0 for g0, _ in gaps] + [after.x1]
    slack = 1.0
    for index, cell in enumerate(cells):
        x0, x1 = min(w.x0 for w in cell), max(w.x1 for w in cell)
        if index and x0 < rights[index - 1] - slack:
            return None
        if index + 1 < width and x1 > lefts[index + 1] + slack:
            return None
        if x1 < lefts[index] - _pitch(after) * 4 or x0 > rights[index] + slack:
            return None  # (nowhere near its column)
    header = [" ".join(w.text for w in cell) for cell in cells]
    if not _header_like(header, after, [], []) or _header_like(after.cells[0], after, [], []):
        return None
    rows = [header, *after.cells]
    return FoundTable(after.x0, after.top, after.x1, after.bottom, rows, cells_to_markdown(rows),
                      ruled=after.ruled, header_rows=1, turned=after.turned)


def join_column_tables(tables: list[FoundTable], lines: list[Line], words: list[Word]) -> list[FoundTable]:
    """One page's tables with each table continued at the top of the next text column joined
    to its start (the joined table in the first's place, the continuation gone).  ``lines``:
    the page's body lines outside its tables; ``words``: the page's words."""
    out = list(tables)
    for before in sorted(tables, key=lambda t: t.x0):
        if before not in out:
            continue
        after = next((t for t in out if t is not before and _next_column(before, t, lines)), None)
        if after is None:
            continue
        drop = _continuation(before, after, words, words, moved=True)
        if drop is None:
            continue
        cells = before.cells + after.cells[drop:]
        joined = replace(before, cells=cells, markdown=cells_to_markdown(cells))
        out[out.index(before)] = joined
        out.remove(after)
    return out


def _next_column(before: FoundTable, after: FoundTable, lines: list[Line]) -> bool:
    """Whether ``after`` starts the text column right of the one ``before`` ends: it stands
    right of ``before`` and starts higher; no line of ``before``'s column is under it, none
    of ``after``'s column above it up to a line across both columns (or the page's top), and
    ``after``'s column ends no lower than ``before``."""
    if after.x0 < before.x1 - 1 or after.top >= before.top:
        return False

    def in_column(line: Line, table: FoundTable) -> bool:
        return line.x0 >= table.x0 - _SAME_EDGE * 3 and line.x1 <= table.x1 + _SAME_EDGE * 3

    if any(line.top >= before.bottom - 1 and in_column(line, before) for line in lines):
        return False
    above = [line for line in lines
             if line.bottom <= after.top + 1 and line.x1 > after.x0 and line.x0 < after.x1]
    nearest = max(above, key=lambda line: line.bottom, default=None)
    if nearest is not None and nearest.x0 >= before.x1 - 1:
        return False  # text of the right column above the table: it does not start the column
    right = [line for line in lines if line.top >= after.bottom - 1 and in_column(line, after)]
    return all(line.bottom <= before.bottom + 2 for line in right)
