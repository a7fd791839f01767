"""The structure stage's walks over a long document's lines, held to the plain walks they
replace: the chapter running lines' slots (pdf_structure._mark_chapter_running, counted in a
window sliding down the heights) and a new band's look-down (pdf_structure._band_below, the
first item of each column below by bisection) mark and decide what comparing every line with
every other did, on random layouts with ties, sizes half a point apart and heights at the
slot's edge."""

from __future__ import annotations

import random

from extractors import pdf_structure
from extractors.pdf_drafts import Line


def _quadratic_chapter_running(chapters: list[tuple[str, str, Line, set[int]]], needed: int,
                               offset: dict[int, float]) -> None:
    """The walk as it was: each line still body compared with every line of the document."""
    def here(line: Line) -> float:
        return line.top - offset.get(id(line), 0.0)

    for band, _, line, _ in chapters:
        if line.kind != "body":
            continue
        slot = [(key, other, pages) for other_band, key, other, pages in chapters
                if other_band == band and abs(here(other) - here(line)) <= pdf_structure._SLOT_HEIGHT
                and abs(other.size - line.size) <= 0.5]
        if len({key for key, _, _ in slot}) >= 2 \
                and len(set().union(*(pages for _, _, pages in slot))) >= needed:
            for _, other, _ in slot:
                other.kind = band


def _chapters(rng: random.Random) -> tuple[list[tuple[str, str, Line, set[int]]], dict[int, float]]:
    chapters, offset = [], {}
    for _ in range(rng.randint(1, 60)):
        # (Ties, and heights just inside and outside _SLOT_HEIGHT of one another.)
        top = rng.choice([30.0, 30.0, 32.5, 33.0, 33.1, 36.0, 800.0, 803.0]) + rng.choice([0.0, 0.1, 2.9])
        size = rng.choice([8.0, 8.0, 8.5, 9.0, 9.6])
        page = rng.randint(1, 40)
        line = Line([], 50.0, top, 300.0, top + size, size, False, page)
        if rng.random() < 0.2:  # a spread's half set under another's top
            offset[id(line)] = 421.0
            line.top += 421.0
        pages = {page, *rng.sample(range(1, 41), rng.randint(1, 6))}
        chapters.append((rng.choice(["header", "footer"]), f"text {rng.randint(1, 5)}", line, pages))
    return chapters, offset


def test_chapter_running_lines_are_those_the_quadratic_walk_marks() -> None:
    # (A third of these layouts mark differently when a line already marked marks its own
    # slot too: the order of the marking is held as well.)
    for seed in range(200):
        rng = random.Random(seed)
        chapters, offset = _chapters(rng)
        needed = rng.randint(2, 14)
        pdf_structure._mark_chapter_running(chapters, needed, offset)
        got = [line.kind for _, _, line, _ in chapters]
        for _, _, line, _ in chapters:
            line.kind = "body"
        _quadratic_chapter_running(chapters, needed, offset)
        assert got == [line.kind for _, _, line, _ in chapters], seed


def test_the_first_item_below_in_each_column_is_the_walks() -> None:
    for seed in range(200):
        rng = random.Random(seed)
        placed = [rng.choice([-1, 0, 0, 1, 1, 2]) for _ in range(rng.randint(0, 40))]
        below = pdf_structure._ColumnsBelow.of(placed)
        for at in range(len(placed)):
            first: dict[int, int] = {}
            for after in range(at + 1, len(placed)):
                if placed[after] < 0:
                    break
                first.setdefault(placed[after], after)
            assert below.first_below(at) == first, (seed, at)
