"""What the parts of the PDF table finder (:mod:`extractors.pdf_tables`) share: the table found
(:class:`FoundTable`), the measures and patterns several parts use (what a figure, a date, a
time, a list marker is; how far apart two cells stand), the work bounds per page, and small
helpers over a table's cells.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from extractors.pdf_words import Word

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


# A piece of prose beside another (see _prose_pair) holds at least this many words.
PROSE_BESIDE_WORDS = 4
# Inter-word gap, in font sizes, that separates two cells of an unruled table.
CELL_GAP_EM = 0.75
# A header piece starting within this many points of its column's text is set flush with it.
FLUSH = 1.5
# Lines flush with one another start within this share of their size (beyond ALIGNED): the
# side bearings of their first glyphs differ.
GLYPH_SLACK = 0.15
# Column headings set on their side stand at most this many body sizes above the table's
# first row (see _with_turned_header): a header row of turned names of a dozen letters.
TURNED_BAND = 14.0
# Bullets drawn in a symbol font (Symbol, Wingdings, OpenSymbol) come out as private-use
# characters U+F020-U+F0FF (U+F0B7 is Symbol's bullet, U+F0A7 Wingdings' square).
LIST_MARKER = re.compile(r"^([\u2022\u25aa\u25cf\u25e6\u2023\u2043\u2219\u00b7*\-\u2013\u2014o>"
                         r"\uf020-\uf0ff]|"
                         r"\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|\(?[ivxIVX]{1,5}[.)])$")
# A unit in thousands ("€000", "$'000", "(£000)") heads a column of amounts: it is no figure.
UNIT_THOUSANDS = re.compile(r"^[(\[]?[$€£¥]\s?'?000s?[)\]]?$")
# A date written with figures: day, month and year (either order) or ISO.
DATE = re.compile(r"^(\d{1,2}[/.-]\d{1,2}[/.-](\d{2}|\d{4})|\d{4}-\d{2}-\d{2})$")
# The clock's figures of a time of day, "06:15" or "7.42".
_CLOCK = r"([01]?\d|2[0-4])[:.][0-5]\d"
# A time of day ("06:15", "7.42", a timetable's "07:40a" with its note's letter): a value in a
# row, like a date.
TIME = re.compile(rf"^{_CLOCK}(\s?[ap]\.?m\.?|[a-z])?$", re.IGNORECASE)
# A time of day opening an agenda's line, or a span of two ("09:00", "9.30am", "14:00-15:30"):
# see pdf_table_checks._time_list.
TIME_OF_DAY = re.compile(rf"^{_CLOCK}\s*([ap]\.?m\.?)?(\s*[-\u2013\u2014]\s*{_CLOCK}\s*([ap]\.?m\.?)?)?$",
                         re.IGNORECASE)
# A year standing alone ("2023" over its quarters) heads columns: it is no table value.
YEAR = re.compile(r"^(1[89]|20)\d\d$")
# How much tighter (in line heights) a line must be set under the one above than the next
# line is under it to be a wrapped cell's next line (the spreadsheet set, seeds 1..24).
WRAP_TIGHTER = 0.1
# A note's label ("Source:", "NOTE:", "Notes:"): the line it starts is no wrapped cell's.
NOTE_LABEL = re.compile(r"^[^\W\d]+:(\s|$)")
# Text edges this close (points) are aligned.
ALIGNED = 1.0
# The widest space between two words, in font sizes (Helvetica's is 0.28, Times' 0.25).
WORD_SPACE_EM = 0.34
# A figure may carry a statistical flag a space after it, one lower-case letter ("12.4 r"
# revised, "1,234 p" provisional, "56.1 e" estimated: the ONS's and Eurostat's flags).
NUMERIC = re.compile(r"^[(\[]?[-+\u2212\u2013$€£%]?\s?\d[\d.,\s]*[%)\]*]?(\s(?-i:[bcdefnprsuz]))?$"
                     r"|^[-\u2013\u2014.…]+$|^n/?a$", re.IGNORECASE)


# Work bounds per page (the finder is quadratic in places): a page with more words than this
# gets no tables, more merged rulings than this no ruled tables, and a grid with more slots
# than this is skipped.  Real tables stay far below them (ICDAR's largest page: ~1,500 words).
MAX_WORDS = 20_000
MAX_RULINGS = 3_000
MAX_GRID_SLOTS = 40_000


def _filled(cells: list[list[str]]) -> int:
    return sum(1 for row in cells for c in row if c.strip())


def _drop_empty(cells: list[list[str]]) -> list[list[str]]:
    cells = [row for row in cells if any(c.strip() for c in row)]
    if not cells:
        return []
    keep = [c for c in range(len(cells[0])) if any(row[c].strip() for row in cells)]
    return [[row[c] for c in keep] for row in cells]


def _filled_share(cells: list[list[str]]) -> float:
    total = sum(len(row) for row in cells)
    return sum(1 for row in cells for c in row if c.strip()) / total if total else 0.0


@lru_cache(maxsize=1 << 16)
def _is_numeric(text: str) -> bool:
    """(Cached: the rules ask it of the same words' texts many times over.)"""
    text = text.strip()
    return bool(NUMERIC.match(text)) and not UNIT_THOUSANDS.match(text)
