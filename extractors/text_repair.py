"""Repairs to text read from a PDF's text layer, where the layer records how the page looks
rather than what it says: words hyphenated across lines, Arabic lam-alef ligatures decomposed
in visual order, and script changes with no space between them."""

from __future__ import annotations

import re
from functools import lru_cache

import pypdfium2 as pdfium

# A word broken at a line end: letters, a hyphen, the line break, lower-case letters.
_HYPHENATED = re.compile(r"(\w*[^\W\d_])-[ \t]*\n[ \t]*([^\W\d_A-Z](?:\w|-(?=\w))*)")

# Alef forms that PDFium emits before the lam of a lam-alef ligature glyph.
_ALEFS = "\u0627\u0623\u0625\u0622"
_LAM = "\u0644"
_ALEF_LAM = re.compile(f"[{_ALEFS}]{_LAM}")

_RTL = "\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff"
_SCRIPT_BOUNDARY = re.compile(f"(?<=[A-Za-z0-9])(?=[{_RTL}])|(?<=[{_RTL}])(?=[A-Za-z0-9])")


@lru_cache(maxsize=1)
def _languages() -> frozenset[str]:
    from wordfreq import available_languages

    return frozenset(available_languages())


@lru_cache(maxsize=65536)
def _frequency(word: str, language: str) -> float:
    """Zipf frequency in the language (English as the fallback); wordfreq splits a hyphenated
    compound into its words and estimates the whole."""
    from wordfreq import zipf_frequency

    lang = language if language in _languages() else "en"
    return zipf_frequency(word, lang) or (zipf_frequency(word, "en") if lang != "en" else 0.0)


# How much rarer (in Zipf units: 1.5 is about 30 times) the word joined across the break may
# be than the hyphenated compound and still win.  wordfreq knows no hyphenated compounds: it
# estimates one from its parts as if they always stood together, which rates "con-texts" (4.0)
# above "contexts" (3.6) and "with-out" above "without"; and a line-end hyphen in typeset text
# far more often breaks a word than falls on a compound's own hyphen.  Set by hand on a list of
# 35 words from LaTeX papers and reports (well-known, long-term, real-time, decision-making stay
# compounds; contexts, without, exceptionally, subset, database, input are joined).
_COMPOUND_MARGIN = 1.5


def join_hyphenated(text: str, language: str | None = None) -> str:
    """``appoint-\\nments`` becomes ``appointments``; a compound broken at its own hyphen
    (``well-\\nknown``) becomes ``well-known``: the joined word unless the compound is far the
    more frequent (see _COMPOUND_MARGIN).  The line break goes with the hyphen: the two lines
    become one, as the reader reads them.  Pieces of unknown words are left as they are."""
    if "-" not in text:
        return text
    lang = language or "en"

    def join(match: re.Match[str]) -> str:
        head, tail = match.group(1), match.group(2)
        joined = _frequency((head + tail).lower(), lang)
        compound = _frequency(f"{head}-{tail}".lower(), lang)
        if not joined and not compound:
            return match.group(0)
        return head + tail if joined >= compound - _COMPOUND_MARGIN else f"{head}-{tail}"

    return _HYPHENATED.sub(join, text)


def repair_lam_alef(textpage: pdfium.PdfTextPage, text: str) -> str:
    """PDFium decomposes a lam-alef ligature glyph into alef then lam (visual order); both
    characters then share one box.  Put them back in logical order (lam, alef).  A genuine
    alef-lam (as in the article of the next word) has two boxes and is left alone."""
    if not _ALEF_LAM.search(text) or textpage.count_chars() != len(text) \
            or textpage.get_text_range() != text:
        return text  # character boxes are looked up by index: only when text and page align
    chars = list(text)
    for match in _ALEF_LAM.finditer(text):
        at = match.start()
        try:
            if textpage.get_charbox(at) == textpage.get_charbox(at + 1):
                chars[at], chars[at + 1] = chars[at + 1], chars[at]
        except pdfium.PdfiumError:
            return text
    return "".join(chars)


def space_script_boundaries(text: str) -> str:
    """A space where right-to-left text meets Latin letters or digits with none between them
    (``Pythonمن``), so that each run is a word of its own."""
    return _SCRIPT_BOUNDARY.sub(" ", text)
