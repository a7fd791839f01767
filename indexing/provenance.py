"""Where a chunk's text is in its source: the boxes of the blocks it came from.

A source with positions (a PDF's text layer or OCR) describes each page by its Markdown and
its blocks in reading order, each a dict with at least ``box`` (x0, top, x1, bottom, in
points from the page's top-left corner) and ``text`` (the start of the block's Markdown), and
optionally ``span`` (start, end offsets into the page's Markdown when the block was made).
Text repair after that (joined hyphenations) may shift the offsets, so blocks are found again
in the page's final Markdown, in order, by their text; ``span`` only tells a block's length.

A chunk knows which part of each page's Markdown it holds (:attr:`Chunk.spans`); its boxes
are those of the blocks that part overlaps, at most :data:`MAX_BOXES`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from indexing.chunking import Box, Chunk

MAX_BOXES = 64
# How much of a block's text is looked for: enough to be unique on a page, short enough
# that a repaired hyphenation rarely falls inside it.
_PROBE_CHARS = 24
_NOT_BODY = frozenset({"header", "footer"})


@dataclass(frozen=True)
class Region:
    """A block of a page: where its text is in the page's Markdown, and its box."""

    start: int
    end: int
    box: Box


def page_regions(markdown: str, page: int, size: tuple[float, float] | None,
                 blocks: Sequence[Mapping[str, Any]]) -> list[Region]:
    """The regions of one page, for the blocks whose text is found in ``markdown``."""
    if size is None or not blocks:
        return []
    found: list[tuple[int, int, Mapping[str, Any]]] = []  # (start, length, block)
    cursor = 0
    for block in blocks:
        text = str(block.get("text") or "")
        box = block.get("box")
        if block.get("kind") in _NOT_BODY or not text.strip() or not box or len(box) != 4:
            continue
        probe = text[:_PROBE_CHARS].split("\n", 1)[0]
        at = markdown.find(probe, cursor)
        if at < 0:
            continue  # changed beyond recognition: the block gets no region
        span = block.get("span")
        length = int(span[1]) - int(span[0]) if span and len(span) == 2 else len(text)
        found.append((at, max(length, len(probe)), block))
        cursor = at + len(probe)
    width, height = size
    regions: list[Region] = []
    for index, (start, length, block) in enumerate(found):
        end = start + length
        if index + 1 < len(found):
            end = min(end, found[index + 1][0])
        if block.get("parts"):
            regions.extend(_part_regions(start, end, block["parts"]))
            continue
        x0, top, x1, bottom = (round(float(v), 1) for v in block["box"])
        regions.append(Region(start, max(end, start + 1),
                              Box(page, x0, top, x1, bottom, round(width, 1), round(height, 1))))
    return regions


def _part_regions(start: int, end: int, parts: Sequence[Mapping[str, Any]]) -> list[Region]:
    """A table continued over pages, written whole on its first page: one region per page's
    part, each the stretch of the table's Markdown that holds that page's rows, with its box
    on that page."""
    regions = []
    for part in parts:
        low, high = (start + int(v) for v in part["offset"])
        x0, top, x1, bottom = (round(float(v), 1) for v in part["box"])
        width, height = (round(float(v), 1) for v in part["size"])
        regions.append(Region(min(low, end), max(min(high, end), min(low, end) + 1),
                              Box(int(part["page"]), x0, top, x1, bottom, width, height)))
    return regions


def chunk_boxes(chunk: Chunk, regions: Mapping[int, Sequence[Region]]) -> tuple[Box, ...]:
    """The boxes of the regions a chunk's text overlaps, in reading order."""
    boxes: list[Box] = []
    for page, start, end in chunk.spans:
        boxes.extend(region.box for region in regions.get(page, ())
                     if region.start < end and start < region.end)
    return tuple(boxes[:MAX_BOXES])


def with_boxes(chunks: Sequence[Chunk], regions: Mapping[int, Sequence[Region]]) -> list[Chunk]:
    """The chunks, each with its boxes (unchanged when the source has no regions).  A table
    chunk's pages are those its boxes are on: a table continued over pages is written on its
    first page, and a chunk of its later rows is from the pages they are on."""
    if not regions:
        return list(chunks)
    out = []
    for chunk in chunks:
        boxes = chunk_boxes(chunk, regions)
        chunk = replace(chunk, boxes=boxes)
        if chunk.is_table and boxes:
            chunk = replace(chunk, page_start=min(b.page for b in boxes), page_end=max(b.page for b in boxes))
        out.append(chunk)
    return out
