"""Two pages printed side by side on one PDF page (a spread: facing pages exported as one
sheet, as InDesign and Acrobat do for screen reading, or a 2-up print): read as the left page
and then the right one.

Left alone, the structure stage reads such a page as one page of two columns at best; at
worst (docling's ``table_mislabeled_as_picture``, pages 208-209 of a report) the halves'
lines interleave, a list item of the left page lands in a question of the right one and the
left page's last list becomes columns of the right page's table.  So the right half is set
under the left one in the layout (:class:`extractors.pdf_words.Placement` with no turn,
shifted), which makes a layout one page wide and two high: every later stage reads it as
one page whose text runs on, and :meth:`PageLayout.to_page` puts the boxes it finds back
where they are shown.  The layout's ``stacked`` parts tell the running-line rules where each
page's top and bottom bands are.

A page is a spread when it is landscape by at least :data:`_ASPECT` (two portrait pages:
1.41 for A4, 1.55 for Letter), nothing crosses an empty band down its middle at least
:data:`_GUTTER` of its width wide (no word, no turned word, no ruling short of a frame
across the whole sheet), each half holds at least :data:`_HALF_SHARE` of its characters,
and the halves' lines do not stand on shared baselines (:data:`_SHARED_BASELINES`: the rows
of one wide table, or two columns of one page set on one grid, which the column rules
read already).  Measured on docling's spread: a 252-point empty band in 1,224, 43 % of the
left half's baselines shared with the right's.
"""

from __future__ import annotations

from dataclasses import replace

from extractors.pdf_words import PageLayout, Placement, Ruling, Word

# Width over height of a sheet that can hold two portrait pages side by side.
_ASPECT = 1.25
# The empty band down the middle, as a share of the width (the two pages' inner margins).
_GUTTER = 0.05
# Each half holds at least this share of the page's characters.
_HALF_SHARE = 0.15
# A ruling across this share of the width is a frame or a rule over both pages, not a table.
_ACROSS = 0.95
# Baselines of the half with fewer lines found on the other half (within a point), at most.
_SHARED_BASELINES = 0.8


def stack_spread(layout: PageLayout) -> PageLayout:
    """``layout`` with its right half set under its left half when it is a spread (see the
    module's docstring); else ``layout`` itself."""
    if layout.placements or not layout.words or layout.width < _ASPECT * layout.height:
        return layout
    mid = layout.width / 2
    band = (mid - _GUTTER * layout.width / 2, mid + _GUTTER * layout.width / 2)
    if any(w.x0 < band[1] and w.x1 > band[0] for w in layout.words + layout.turned):
        return layout
    if any(r.x0 < band[1] and r.x1 > band[0] and r.x1 - r.x0 < _ACROSS * layout.width
           for r in layout.rulings):
        return layout
    left = [w for w in layout.words if w.x1 <= mid]
    right = [w for w in layout.words if w.x0 >= mid]
    total = sum(len(w.text) for w in layout.words)
    if min(sum(len(w.text) for w in left), sum(len(w.text) for w in right)) < _HALF_SHARE * total:
        return layout
    if _shared_baselines(left, right) > _SHARED_BASELINES:
        return layout
    height = layout.height

    def moved(word: Word) -> Word:
        return word if word.x1 <= mid else replace(word, x0=word.x0 - mid, x1=word.x1 - mid,
                                                   top=word.top + height, bottom=word.bottom + height)

    rulings: list[Ruling] = []
    for r in layout.rulings:
        if r.x1 <= mid:
            rulings.append(r)
        elif r.x0 >= mid:
            rulings.append(replace(r, x0=r.x0 - mid, x1=r.x1 - mid,
                                   top=r.top + height, bottom=r.bottom + height))
        # (A frame across both pages bounds neither page's table: left out.)
    pictures = [box if box[2] <= mid else (box[0] - mid, box[1] + height, box[2] - mid, box[3] + height)
                for box in layout.pictures if box[2] <= mid or box[0] >= mid]
    shown = (layout.width, layout.height)
    placements = [Placement(0, 0.0, 0.0, 0.0, 0.0, mid, height, shown),
                  Placement(0, -mid, height, 0.0, height, layout.width - mid, 2 * height, shown)]
    return PageLayout(layout.number, mid, 2 * height, [moved(w) for w in layout.words], rulings,
                      [moved(w) for w in layout.turned], placements,
                      stacked=[(0.0, height), (height, 2 * height)], pictures=pictures)


def _shared_baselines(left: list[Word], right: list[Word]) -> float:
    """The share of the baselines of the half with fewer of them that the other half has too."""
    ours, theirs = {round(w.bottom) for w in left}, {round(w.bottom) for w in right}
    if len(ours) > len(theirs):
        ours, theirs = theirs, ours
    if not ours:
        return 0.0
    return sum(1 for b in ours if b in theirs or b - 1 in theirs or b + 1 in theirs) / len(ours)
