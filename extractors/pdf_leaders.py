"""Dot leaders in a table's rows: the dots a tab leader draws between a row's label and its
figures ("Revenue ........ 3   1,234   1,101", a company's accounts typed on tab stops).

A word processor draws a leader as glyphs touching the label's last letter, so the reader takes
the label, the leader and often the figure the tab stop aligns (a note number, an amount set on
a right tab) for one word: "Revenue..........3".  Read so, the label's column swallows the next
one.  A leader run followed by a figure (in the same word or in the next word of the line) is
taken out: the word becomes the label and the figure, each at its own end of the word (the label
where the word starts, the figure where it ends), the leader's width a gap between them; a word
that is a leader alone is dropped.  Leaders typed a space apart (". . . ." or "· · ·": each dot
a word of its own) are read as one run with the word they follow.  Leaders before words (a
contents entry's title, a form's field to fill in) are left alone: the table of contents finder
(extractors.pdf_contents) reads those.
"""

from __future__ import annotations

import re
from dataclasses import replace
from operator import attrgetter

from extractors.pdf_words import Word

# Three dots or middle dots or more, mixed or not, or two ellipses or more (some producers draw
# a leader in ellipsis characters).
_LEADER_CHARS = ".·…"
_LEADER_RUN = re.compile(r"[.·…]{3,}|…{2,}")
# A figure as a statement prints one: a note number, an amount with thousands separators or
# decimals, in brackets when negative, a unit sign or a percentage, or a dash for nil.
_FIGURE = re.compile(r"^[(\[]?[-+\u2212\u2013]?[$€£¥]?\d[\d.,]*%?[)\]]?$|^[-\u2013\u2014]$")
# A glyph's width in ems, for placing the two pieces of a split word (only their outer edges
# are known; letters of a text face average about half an em).
_EM_PER_CHAR = 0.5
# Leaders typed a space apart: the gap between two of their dots (a space and a dot's side
# bearings, a third of an em in a text face) is at most this many ems.
_SPACED_LEADER_GAP = 0.8


def might_hold_leaders(words: list[Word]) -> bool:
    """A cheap test before :func:`without_leaders`: some word holds three dots in a row or an
    ellipsis, or a middle dot (mixed with dots, ".·.·", or a space apart), or dots a space apart.
    (One string searched a few times: a page's words are many, and a generator over them cost a
    Python step per word.)"""
    texts = " ".join(map(attrgetter("text"), words))
    return "..." in texts or "…" in texts or "·" in texts or ". ." in texts


def without_leaders(line: list[Word]) -> list[Word]:
    """A line's words, left to right, with the leaders that lead to a figure taken out (see
    the module's docstring); the same list when there are none."""
    out: list[Word] = []
    changed = False
    index = 0
    while index < len(line):
        end = _spaced_leaders_end(line, index)
        word = line[index] if end == index + 1 else _joined(line[index:end])
        run = _LEADER_RUN.search(word.text)
        following = line[end].text if end < len(line) else ""
        after = word.text[run.end():].strip() if run is not None else ""
        if run is None or not (_FIGURE.match(after) if after else _FIGURE.match(following)):
            out.extend(line[index:end])
            index = end
            continue
        changed = True
        before = word.text[:run.start()].rstrip()
        em = _EM_PER_CHAR * max(word.size, 1.0)
        width = word.x1 - word.x0
        if before and run.start() >= len(line[index].text):
            out.append(line[index])  # the leaders begin in a word of their own: the label as read
        elif before:
            out.append(replace(word, text=before, x1=word.x0 + min(em * len(before), 0.45 * width)))
        if after:
            out.append(replace(word, text=after, x0=word.x1 - min(em * len(after), 0.45 * width)))
        index = end
    return out if changed else line


def _spaced_leaders_end(line: list[Word], index: int) -> int:
    """The end of the words from ``line[index]`` that make one word with leaders typed a space
    apart: each next word a dot or a run of them (the last may run into a figure, ".3"), close
    after the one before it; ``index + 1`` when none follows."""
    end = index + 1
    while end < len(line) and line[end].text[0] in _LEADER_CHARS \
            and line[end].x0 - line[end - 1].x1 <= _SPACED_LEADER_GAP * max(line[end].size, 1.0):
        end += 1
        if line[end - 1].text.strip(_LEADER_CHARS):
            break  # a figure after the dots ends the run
    return end


def _joined(words: list[Word]) -> Word:
    """Words a space apart as one word (their texts joined without the spaces)."""
    first = words[0]
    return replace(first, text="".join(w.text for w in words), x1=words[-1].x1,
                   top=min(w.top for w in words), bottom=max(w.bottom for w in words))
