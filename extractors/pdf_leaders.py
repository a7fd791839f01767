"""Dot leaders in a table's rows: the dots a tab leader draws between a row's label and its
figures ("Revenue ........ 3   1,234   1,101", a company's accounts typed on tab stops).

A word processor draws a leader as glyphs touching the label's last letter, so the reader takes
the label, the leader and often the figure the tab stop aligns (a note number, an amount set on
a right tab) for one word: "Revenue..........3".  Read so, the label's column swallows the next
one.  A leader run followed by a figure (in the same word or in the next word of the line) is
taken out: the word becomes the label and the figure, each at its own end of the word (the label
where the word starts, the figure where it ends), the leader's width a gap between them; a word
that is a leader alone is dropped.  Leaders before words (a contents entry's title, a form's
field to fill in) are left alone: the table of contents finder (extractors.pdf_contents) reads
those.
"""

from __future__ import annotations

import re
from dataclasses import replace
from operator import attrgetter

from extractors.pdf_words import Word

# Three dots or middle dots or more, or two ellipses or more (some producers draw a leader in
# ellipsis characters).
_LEADER_RUN = re.compile(r"[.·…]{3,}|…{2,}")
# A figure as a statement prints one: a note number, an amount with thousands separators or
# decimals, in brackets when negative, a unit sign or a percentage, or a dash for nil.
_FIGURE = re.compile(r"^[(\[]?[-+\u2212\u2013]?[$€£¥]?\d[\d.,]*%?[)\]]?$|^[-\u2013\u2014]$")
# A glyph's width in ems, for placing the two pieces of a split word (only their outer edges
# are known; letters of a text face average about half an em).
_EM_PER_CHAR = 0.5


def might_hold_leaders(words: list[Word]) -> bool:
    """A cheap test before :func:`without_leaders`: some word holds three dots in a row or an
    ellipsis.  (One string searched three times: a page's words are many, and a generator
    over them cost a Python step per word.)"""
    texts = " ".join(map(attrgetter("text"), words))
    return "..." in texts or "…" in texts or "···" in texts


def without_leaders(line: list[Word]) -> list[Word]:
    """A line's words, left to right, with the leaders that lead to a figure taken out (see
    the module's docstring); the same list when there are none."""
    out: list[Word] = []
    changed = False
    for index, word in enumerate(line):
        run = _LEADER_RUN.search(word.text)
        if run is None:
            out.append(word)
            continue
        before, after = word.text[:run.start()].rstrip(), word.text[run.end():].strip()
        following = line[index + 1].text if index + 1 < len(line) else ""
        if not (_FIGURE.match(after) if after else _FIGURE.match(following)):
            out.append(word)
            continue
        changed = True
        em = _EM_PER_CHAR * max(word.size, 1.0)
        width = word.x1 - word.x0
        if before:
            out.append(replace(word, text=before, x1=word.x0 + min(em * len(before), 0.45 * width)))
        if after:
            out.append(replace(word, text=after, x0=word.x1 - min(em * len(after), 0.45 * width)))
    return out if changed else line
