"""Plausibility checks on an unruled table's cells (:func:`_plausible`), for
:mod:`extractors.pdf_tables`: candidates that are prose (long runs of words per cell, running
text read as columns), a bullet list (a first column of list markers, bullets of symbol fonts
included), numbered sections (section numbers of two depths hung beside titles run into
sentences), a reference list or a list of times are refused: the structure stage drops the
words of every table region from its paragraphs, so a false table loses text shape.
"""

from __future__ import annotations

import re
import statistics

from extractors.pdf_table_model import LIST_MARKER, TIME_OF_DAY, FoundTable, _filled, _filled_share
from extractors.pdf_words import Ruling

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
    return not _running_text(cells) and not _numbered_outline(cells) and not _reference_list(cells) \
        and address_beside_fields(cells) < len(cells)


# A field's line: a label of at most four words ending in a colon, then its value.
_FIELD = re.compile(r"^(?:\S+ ){0,3}\S+: \S")


def address_beside_fields(cells: list[list[str]]) -> int:
    """How many of the rows at the top of ``cells`` are two blocks of lines side by side, read
    row by row: lines of an address or a name in one column ("Bill to", "Finance Department",
    "Church Lane") beside "Label: value" lines in one column right of it ("Invoice number:
    INV-24-1926", "Due date: 3 June 2024"); 0 where fewer than two rows of each open it.  An
    invoice's, a letter's or a form's page sets its addressee's or sender's lines so beside
    its reference, date and account: the lines of the two do not correspond row by row (they
    are as many only by chance), so they are two blocks read one after the other, no table.
    (Columns whose cells all open with a label are a table's only beside other such columns.)"""
    pair: tuple[int, int] | None = None
    count = lefts = rights = 0
    for row in cells:
        filled = [c for c, cell in enumerate(row) if cell.strip()]
        if not filled or len(filled) > 2:
            break
        if len(filled) == 2:
            if pair not in (None, tuple(filled)):
                break
            pair = (filled[0], filled[1])
        left = [row[c] for c in filled if not _FIELD.match(row[c])]
        right = [row[c] for c in filled if _FIELD.match(row[c])]
        if len(left) > 1 or (left and right and row.index(left[0]) > row.index(right[0])):
            break
        if pair and any(c not in pair for c in filled):
            break
        count, lefts, rights = count + 1, lefts + len(left), rights + len(right)
    return count if pair and lefts >= 2 and rights >= 2 else 0


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
