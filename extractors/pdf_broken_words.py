"""Words LibreOffice breaks over a table cell's lines.

LibreOffice breaks a word wider than its column where the column ends, without a hyphen
("Numbe" over "r", "Num" over "ber"): the table's cell is to hold the word whole.  A short
word or a unit alone on a cell's next line ("Area" over "ha", "Cost" over "per") is wrapped
there, not broken, and keeps its space.  Used by the table finder (a cell's lines read off the
page) and by the tagged tables (a cell's words from the structure tree).

Where the cell's edges are known, its geometry says more than the words' letters: LibreOffice
moves a word too long for the line to a line of its own and breaks it only when it does not fit
there either, so the first piece fills its line, from the cell's inner left edge to within a
letter of its inner right edge, and the whole word is wider than the cell (:func:`broken_at_edge`:
"Northum" over "berland", "Resident" over "s", "Cumberl" over "and").  An ordinary wrap moves a
word that fits ("United" over "Kingdom", "Households" over "surveyed"): the word left above it
ends short of the edge unless it happens to fill the cell to within a letter.  The edges come
from the ruling lines around the cell where the table has them, else from the table's columns
(:class:`ColumnEdges`)."""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable

from extractors.pdf_words import Word
from extractors.text_repair import join_hyphenated

# How far short of a cell's inner right edge a broken word's first piece may end, in widths of
# the first letter of its end: that letter did not fit there.  (Its width is estimated from
# the end's width and the letters' usual proportions, LETTER_WIDTHS; LibreOffice's pieces end
# up to 1.03 of them short, a font's proportions being not quite Helvetica's.)
EDGE_LETTERS = 1.3
# Lower-case letters' widths relative to each other (Helvetica's, in thousandths of an em):
# an "m" is nearly four times an "i" in every common face.  Capitals, figures and the rest
# are taken as OTHER_WIDTHS.
LETTER_WIDTHS = dict(zip("abcdefghijklmnopqrstuvwxyz", (
    556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556,
    500, 722, 500, 500, 500), strict=True))
OTHER_WIDTHS = {"upper": 667, "digit": 556, "other": 333}

# The end of a broken word: one to three lower-case letters.  Longer ends ("Northum" over
# "berland") cannot be told from a wrapped word without a dictionary and are left apart
# (but see broken_at_edge).
BROKEN_TAIL = re.compile(r"^[a-z]{1,3}$")
# Two lines of a right-set cell end flush within this many points (see plural_end_set_right).
FLUSH_END = 0.6
# Headings of quantities counted in seconds: "Time" over "s" is a heading over its unit, not
# "Times" broken in its cell (see plural_end_set_right).
SECONDS_HEADINGS = frozenset(("time", "duration", "delay", "interval", "latency", "runtime", "elapsed",
                              "lag"))
# Short words and units that a cell's line may hold alone.
SHORT_WORDS = frozenset((
    "a", "an", "as", "at", "be", "by", "do", "if", "in", "is", "it", "no", "of", "on", "or", "so", "to", "up",
    "us", "we", "ha", "km", "kg", "mg", "ml", "cm", "mm", "m", "g", "l", "h", "s", "t", "kw", "mw", "gw",
    "lb", "oz", "ft", "yd", "mi", "pa",
    # three letters: words that wrap onto a cell's line of their own in tables, and units
    "age", "all", "and", "any", "are", "but", "can", "day", "due", "end", "few", "for", "gas", "had",
    "has", "her", "his", "how", "its", "job", "key", "low", "man", "may", "men", "net", "new", "nor", "not",
    "now", "off", "oil", "old", "one", "our", "out", "own", "pay", "per", "put", "sex", "six", "tax",
    "ten", "the", "top", "two", "use", "via", "was", "way", "who", "why", "yet", "you", "kwh", "mwh", "gwh",
    "twh", "bbl", "sqm", "sec", "min", "hrs", "yrs", "pcs", "ltr", "kgs", "lbs", "mph", "kph", "bhp", "rpm",
    "ppm", "ppb", "mcg", "psi", "est", "etc", "inc", "ltd", "plc", "llc", "avg", "max", "std", "var", "qty",
    "amt", "pct",
    "yes", "see", "set", "run", "far", "air", "sea", "car", "van", "bus", "bed", "son", "war", "law", "act",
    "art", "big", "bad", "red", "raw", "dry", "wet", "fee", "aid", "arm", "leg", "eye", "ear", "kit", "lot",
    "map", "pop", "sum", "sub", "non", "pre", "pro", "ago",
    # other languages' short words, which end few English words ("Ministerio" over "de",
    # "Recherche" over "et" over "innovation")
    "de", "du", "et", "la", "el", "un", "da", "di", "na", "ne", "su", "lo", "il", "ou", "zu", "im", "og",
    "av", "ja", "ze", "ve", "les", "des", "del", "los", "las", "une", "und", "der", "die", "das"))


def broken_joined(upper: str, lower: str, alone: bool | None = None, at_edge: bool = False) -> str:
    """A cell's text from two of its lines (``upper`` the text so far): a space between them,
    but none before a broken word's end.  A three-letter end is taken only under a line that
    holds the broken word alone (``alone``; when not known, the text so far being one word):
    a word is moved to a line of its own before it is broken.  ``at_edge``: the cell's
    geometry shows the word broken (:func:`broken_at_edge`), whatever its end."""
    if at_edge:
        return upper + lower
    if upper[-1:] == "-" and upper[-2:-1].isalpha() and lower[:1].islower():
        # A line ending in a hyphen after a letter goes on with its word ("of which: in full-"
        # over "time education"): a compound keeps its hyphen, a hyphenated word is joined, as
        # a paragraph's lines are (text_repair.join_hyphenated: one rule, not two).
        return join_hyphenated(f"{upper}\n{lower}").replace("-\n", "-")
    last = upper.rsplit(" ", 1)[-1]
    if alone is None:
        alone = " " not in upper
    if BROKEN_TAIL.match(lower) and lower not in SHORT_WORDS and len(last) >= 3 and last.isalpha() \
            and (len(lower) < 3 or alone):
        return upper + lower
    return f"{upper} {lower}"


def broken_at_edge(piece: Word, tail: Word, left: float, right: float) -> bool:
    """Whether ``piece``, alone on a line of a cell whose inner edges are ``left`` and
    ``right``, and ``tail``, alone on the cell's next line, are one word broken where the
    cell ends: the piece ends in a letter and fills its line (it starts at the inner left edge,
    within half a letter, and ends within about the tail's first letter of the right one, see
    EDGE_LETTERS: short of it as that letter did not fit, or past it as far when the edge is
    judged from another full line), the tail starts with a lower-case letter in the piece's
    font, and the two are wider than the cell.  (In a column too narrow for a word, the end of
    it seldom leaves room for the next word beside it: a full line of words under a lone one
    is an ordinary wrap's, "Households" over "surveyed in May" in a column sized to its widest
    word.)"""
    if len(piece.text) < 2 or not piece.text[-1].isalpha() or not tail.text[:1].islower() \
            or piece.bold != tail.bold or abs(piece.size - tail.size) > 0.5:
        return False
    letter = (tail.x1 - tail.x0) / len(tail.text)
    short = right - piece.x1
    # (The cell reaches at least as far as its own next line: a tail ending a letter or more
    # past the piece shows room for that letter on the piece's line, whatever edge the other
    # lines gave, a word wrapped whole, "Persons" over "employed"; issue 32, banded_rows.)
    if tail.x1 - piece.x1 >= _first_width(tail):
        return False
    return abs(piece.x0 - left) <= letter / 2 and abs(short) <= EDGE_LETTERS * _first_width(tail) \
        and (piece.x1 - piece.x0) + (tail.x1 - tail.x0) > right - left


def broken_again(head: Word, middle: Word, tail: Word, line_width: float | None = None) -> bool:
    """Whether a word broken over a cell's lines goes on over the next one: ``middle``, alone
    on its line, went on ``head`` (the word's first piece, alone on the line above it) as a
    broken end, and is as wide as it, within ``tail``'s first letter (each piece fills its
    line, the cell too narrow for the word: "Tur" over "nou" over "t %", Word's "Turnout %" in
    a cell of three letters); ``tail`` starts with a lower-case letter in their font, and its
    line (``line_width`` wide, else the tail's own width) is no wider than ``middle`` and that
    letter: a cell that holds a wider line had room for the letter beside the middle piece
    ("Std" over "dev" over "of mean" is three lines of words, not "Stddevof mean").  (A
    wrapped word after a broken one, the cell's edges unknown, is its end's only other
    reading: a one-letter unit, "t", seldom follows a word broken twice.)"""
    if not tail.text[:1].islower() or tail.bold != middle.bold or abs(tail.size - middle.size) > 0.5 \
            or head.bold != middle.bold or not middle.text.isalpha():
        return False
    letter = _first_width(tail)
    width = tail.x1 - tail.x0 if line_width is None else line_width
    return abs((head.x1 - head.x0) - (middle.x1 - middle.x0)) <= letter \
        and width < (middle.x1 - middle.x0) + letter


def plural_end_set_right(piece: Word, tail: Word) -> bool:
    """Whether ``piece``, alone on a line of a right-set cell, and ``tail``, alone on the cell's
    next line, are a plural broken before its "s": Word breaks a word wider than its cell
    ("Employee" over "s" in a narrow column of figures) and sets the rest flush right under
    it.  Only a lone "s" (a plural's end, which no unit alone under its heading is but the
    second's, written "(s)" or "sec" in the tables seen), under a word of letters not ending in
    one; both ending flush (within FLUSH_END points) in one weight and size.  A longer end
    ("kg", "per") is a short word or a unit wrapped there (see broken_joined); a heading of a
    quantity in seconds (SECONDS_HEADINGS: "Time" over "s") is over its unit."""
    return tail.text == "s" and len(piece.text) >= 3 and piece.text.lower() not in SECONDS_HEADINGS \
        and piece.text.isalpha() and piece.text[-1].islower() \
        and piece.text[-1] != "s" and piece.bold == tail.bold and abs(piece.size - tail.size) <= 0.5 \
        and abs(piece.x1 - tail.x1) <= FLUSH_END and tail.x0 > piece.x0 + (piece.x1 - piece.x0) / 2


def _first_width(word: Word) -> float:
    """The width of ``word``'s first letter, its share of the word's width by LETTER_WIDTHS."""
    widths = [LETTER_WIDTHS.get(c) or OTHER_WIDTHS["upper" if c.isupper() else "digit" if c.isdigit()
                                                   else "other"] for c in word.text]
    return (word.x1 - word.x0) * widths[0] / sum(widths)


# How many of a column's leftmost lines, and of the table's widest, ColumnEdges keeps: a
# cell's own two lines are left out when its edges are judged.
_KEPT_LINES = 3


class ColumnEdges:
    """The inner edges of a table's cells as its text shows them, for a table no rule draws
    (or one read from its tags), on a grid of columns all as wide (a word processor's table
    on a fixed grid: its columns start a pitch apart).  A cell's left edge is where its
    column's other lines start (the leftmost of them, the cell's own left out): a column of
    left-aligned text (in a right-aligned or centred one the widest line starts elsewhere than
    the others).  Its right edge is as far from there as the table's widest other line reaches
    from its own column's start, when that is less than the pitch: the text of another full
    cell, ending at its edge within a letter.  A line judged alone says nothing of its cell's
    edge: the widest word of a column sized to it ends at the column's end too."""

    def __init__(self, lines: Iterable[tuple[Hashable, int, float, float]]) -> None:
        """``lines``: (key, column, x0, x1) of each line of the table's cells of one column;
        a key is any value (a cell's lines sharing it or not), passed back to leave them out."""
        spans: dict[int, dict[Hashable, tuple[float, float]]] = {}
        for key, column, x0, x1 in lines:
            keys = spans.setdefault(column, {})
            old = keys.get(key)
            keys[key] = (x0, x1) if old is None else (min(old[0], x0), max(old[1], x1))
        self._starts = {column: sorted(((x0, key) for key, (x0, _) in keys.items()),
                                       key=lambda start: start[0])[:_KEPT_LINES]
                        for column, keys in spans.items()}
        self._firsts = {column: starts[0][0] for column, starts in self._starts.items()}
        ordered = [self._firsts[column] for column in sorted(self._firsts)]
        pitches = [b - a for a, b in zip(ordered, ordered[1:], strict=False)]
        self._pitch = pitches[0] if len(pitches) >= 2 and max(pitches) - min(pitches) <= 1.0 else None
        # The widest lines, as reaches from their columns' starts.
        self._widest = sorted(((x1 - self._firsts[column], key) for column, keys in spans.items()
                               for key, (_, x1) in keys.items()), key=lambda reach: -reach[0])[:_KEPT_LINES]

    def inner(self, column: int, keys: tuple[Hashable, ...]) -> tuple[float, float] | None:
        """The inner (left, right) edges of the cell in ``column`` whose lines are those of
        ``keys`` (left out); None when the table does not show them."""
        if self._pitch is None:
            return None
        left = next((x0 for x0, key in self._starts.get(column, ()) if key not in keys), None)
        reach = next((reach for reach, key in self._widest if key not in keys), None)
        if left is None or reach is None or reach >= self._pitch:
            return None
        return left, left + reach
