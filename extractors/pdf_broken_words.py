"""Words LibreOffice breaks over a table cell's lines.

LibreOffice breaks a word wider than its column where the column ends, without a hyphen
("Numbe" over "r", "Num" over "ber"): the table's cell is to hold the word whole.  A short
word or a unit alone on a cell's next line ("Area" over "ha", "Cost" over "per") is wrapped
there, not broken, and keeps its space.  Used by the table finder (a cell's lines read off the
page) and by the tagged tables (a cell's words from the structure tree)."""

from __future__ import annotations

import re

# The end of a broken word: one to three lower-case letters.  Longer ends ("Northum" over
# "berland") cannot be told from a wrapped word without a dictionary and are left apart.
BROKEN_TAIL = re.compile(r"^[a-z]{1,3}$")
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
    "ppm", "ppb", "est", "etc", "inc", "ltd", "plc", "llc", "avg", "max", "std", "var", "qty", "amt", "pct",
    "yes", "see", "set", "run", "far", "air", "sea", "car", "van", "bus", "bed", "son", "war", "law", "act",
    "art", "big", "bad", "red", "raw", "dry", "wet", "fee", "aid", "arm", "leg", "eye", "ear", "kit", "lot",
    "map", "pop", "sum", "sub", "non", "pre", "pro", "ago",
    # other languages' short words, which end few English words ("Ministerio" over "de",
    # "Recherche" over "et" over "innovation")
    "de", "du", "et", "la", "el", "un", "da", "di", "na", "ne", "su", "lo", "il", "ou", "zu", "im", "og",
    "av", "ja", "ze", "ve", "les", "des", "del", "los", "las", "une", "und", "der", "die", "das"))


def broken_joined(upper: str, lower: str, alone: bool | None = None) -> str:
    """A cell's text from two of its lines (``upper`` the text so far): a space between them,
    but none before a broken word's end.  A three-letter end is taken only under a line that
    holds the broken word alone (``alone``; when not known, the text so far being one word):
    a word is moved to a line of its own before it is broken."""
    last = upper.rsplit(" ", 1)[-1]
    if alone is None:
        alone = " " not in upper
    if BROKEN_TAIL.match(lower) and lower not in SHORT_WORDS and len(last) >= 3 and last.isalpha() \
            and (len(lower) < 3 or alone):
        return upper + lower
    return f"{upper} {lower}"
