"""Slide decks (PowerPoint or Impress slides exported to PDF): which pages are slides, where
their titles stand, and the headings that follow from it, for the structure stage
(:mod:`extractors.pdf_structure`).

A document is a deck when its pages are all of one size, in landscape, three or more, and on
most of them (half or more, three at least) the topmost line is set in one display type (20
points or more, one size, weight and face) at one place near the page's top: a slide layout's
title placeholder.  That is strong evidence, stronger than type alone, which decks set loosely
(a bullet at 32 points beside a title at 44, a key figure at 96):

- each slide's title (the topmost line in the slot, and the lines of its type wrapped under it)
  is a heading, whatever the rules that read a page's text made of it (a title over a key
  figure heads no running text, yet it heads the slide);
- a page without the slot holding a few blocks (a title slide, a section-header slide) is
  headed by its largest type: the deck's title on the first page (level 1), a section's title
  on a later one (level 2);
- slide titles are one level below the sections (below the deck's title when there are none),
  whatever the type each layout sets its title in (a section header's bold capitals at 40
  points over a content slide's 44);
- two text columns (a Two Content layout: a few bullets each side) are read column by column:
  a slide holds too few lines for the page rule's test (eight lines or more), so a deck's
  pages are tested from four lines.

What else the heuristics head on these pages stays so, ranked as they rank it, those set
smaller than the slides' titles one level and more below them (rank_under_slide_titles): they
head little on a slide (bullets, a key figure, a label over a list or level with another are no
headings), and a slide's column heading would be one; a landscape report whose pages each open
with its section's title at one place is taken for a deck, and its sub-headings are these.
Pages the rules above do not speak for (a slide without the title slot holding more than a few
blocks, a chart's page) keep theirs.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import chain

from extractors.pdf_drafts import Draft, Line
from extractors.pdf_words import PageLayout

# Slides are wider than tall by this ratio at least (4:3 is 1.33, 16:9 1.78; a landscape A4
# page, 1.41, is one too, and is told apart by the title slot's type).
_LANDSCAPE = 1.2
# Pages of one size differ by less than this (points).
_SAME_SIZE = 1.0
_MIN_PAGES = 3
# The title slot: on this share of the pages (and this many), in display type this large
# (points), its top within this many of its sizes of the slot's, in the top part of the page.
_SLOT_SHARE = 0.5
_SLOT_PAGES = 3
_SLOT_MIN_SIZE = 20.0
_SLOT_REACH = 1.5
_SLOT_TOP_SHARE = 0.3
# Far less than a point, far more than a float's rounding of a page's coordinates.
_HAIR = 1e-6
# A section-header slide holds this many blocks at most (its title, a line of description,
# one more); the first page, a title slide, two more (a subtitle, a presenter's name).
_DIVIDER_BLOCKS = 3
_COVER_BLOCKS = 5
# Its title is set at this share of the slot's size or larger.
_DIVIDER_TYPE = 0.6
# A deck's pages are tested for columns from this many lines (a document's from eight).
COLUMN_LINES = 4
# Headings go no deeper than this level (as pdf_headings ranks them).
_DEEPEST = 4


@dataclass
class Deck:
    """The slides' title lines by page (a page without the title slot is not in it)."""

    titles: dict[int, list[Line]] = field(default_factory=dict)


def _type_key(line: Line) -> tuple[float, bool, str]:
    return round(line.size * 2) / 2, line.bold, line.face


def find_deck(layouts: list[PageLayout], lines: dict[int, list[Line]]) -> Deck | None:
    """The deck these pages make, or None when they are not slides (see the module's
    docstring): pages of one landscape size, most with a title at one place in one type."""
    if len(layouts) < _MIN_PAGES:
        return None
    width, height = layouts[0].width, layouts[0].height
    if width < _LANDSCAPE * height or any(abs(layout.width - width) > _SAME_SIZE
                                          or abs(layout.height - height) > _SAME_SIZE for layout in layouts):
        return None
    firsts: dict[int, Line] = {}
    for layout in layouts:
        body = [line for line in lines.get(layout.number, []) if line.kind == "body"]
        if body:
            firsts[layout.number] = min(body, key=lambda line: line.top)
    keys = Counter(_type_key(line) for line in firsts.values() if line.size >= _SLOT_MIN_SIZE)
    if not keys:
        return None
    key, _ = keys.most_common(1)[0]
    candidates = {number: line for number, line in firsts.items()
                  if _type_key(line) == key and line.top <= _SLOT_TOP_SHARE * height}
    if not candidates:
        return None
    # The slot's place: the candidate with the most others within reach of its top (the first
    # of equals).  They are counted on the sorted tops, not by comparing every pair of pages
    # (a deck of 2,000 slides would cost four million comparisons).
    tops = sorted(line.top for line in candidates.values())

    def reached(line: Line) -> int:
        reach = _SLOT_REACH * line.size
        # (Tops within a hair of either bound are tested as near() tests them: rounding in
        # ``top ± reach`` decides nothing.)
        outer = bisect_left(tops, line.top - reach - _HAIR), bisect_right(tops, line.top + reach + _HAIR)
        inner = bisect_right(tops, line.top - reach + _HAIR), bisect_left(tops, line.top + reach - _HAIR)
        edges = chain(tops[outer[0]:inner[0]], tops[inner[1]:outer[1]])
        return max(0, inner[1] - inner[0]) + sum(1 for top in edges if abs(top - line.top) <= reach)

    def near(line: Line) -> dict[int, Line]:
        return {number: other for number, other in candidates.items()
                if abs(other.top - line.top) <= _SLOT_REACH * line.size}

    slot = near(max(candidates.values(), key=reached))
    if len(slot) < max(_SLOT_PAGES, _SLOT_SHARE * len(layouts)):
        return None
    return Deck({number: _wrapped_title(first, lines[number]) for number, first in slot.items()})


def _wrapped_title(first: Line, page: list[Line]) -> list[Line]:
    """A slide title's lines: the first and those of its type wrapped right under it."""
    title = [first]
    for line in sorted((line for line in page if line.kind == "body" and line.top > first.top),
                       key=lambda line: line.top):
        last = title[-1]
        if _type_key(line) != _type_key(first) or line.top - last.bottom > 0.5 * first.size:
            break
        title.append(line)
    return title


def settle_deck_headings(deck: Deck, layouts: list[PageLayout], drafts: dict[int, list[Draft]],
                         heading_shaped: Callable[[Draft], bool]) -> None:
    """The deck's headings and their levels, in place (see the module's docstring): each
    slide's title, a title slide's and a section-header slide's largest type."""
    slide_titles: list[Draft] = []
    dividers: list[tuple[int, Draft]] = []
    slot_size = max(lines[0].size for lines in deck.titles.values())
    for at, layout in enumerate(layouts):
        page = drafts.get(layout.number, [])
        if layout.number in deck.titles:
            ids = {id(line) for line in deck.titles[layout.number]}
            title = next((d for d in page if d.lines and all(id(line) in ids for line in d.lines)), None)
            if title is not None:
                title.kind = "heading"
                slide_titles.append(title)
            continue
        blocks = [d for d in page if d.lines]
        if not blocks or len(blocks) > (_COVER_BLOCKS if at == 0 else _DIVIDER_BLOCKS):
            continue
        largest = max(blocks, key=lambda d: d.size)
        if largest.size >= _DIVIDER_TYPE * slot_size and heading_shaped(largest):
            largest.kind = "heading"
            dividers.append((at, largest))
    cover = dividers[0][1] if dividers and dividers[0][0] == 0 else None
    sections = [draft for _, draft in dividers if draft is not cover]
    level = 1
    if cover is not None:
        cover.level = level
        level += 1
    for draft in sections:
        draft.level = level
    level += bool(sections)
    for draft in slide_titles:
        draft.level = level


def rank_under_slide_titles(deck: Deck, drafts: dict[int, list[Draft]], ranked: list[Draft]) -> None:
    """The headings the heuristics ranked on the slides' pages, set smaller than the slides'
    titles (a sub-heading over a slide's column, a landscape report's sub-section under the
    section title each page opens with), one level and more below the titles, in the order
    their ranks give them: ranked apart from the titles, they would stand level with them."""
    by_rank = {id(d) for d in ranked}
    titled = [d for number in deck.titles for d in drafts.get(number, [])
              if d.kind == "heading" and d.level is not None and id(d) not in by_rank]
    if not titled:
        return
    title_level = max(d.level or 1 for d in titled)
    smallest_title = min(d.size for d in titled)
    under = [d for d in ranked if d.kind == "heading" and d.level is not None and d.page in deck.titles
             and d.size < 0.9 * smallest_title]
    if not under:
        return
    shift = title_level + 1 - min(d.level or 1 for d in under)
    if shift > 0:
        for draft in under:
            draft.level = min((draft.level or 1) + shift, _DEEPEST)
