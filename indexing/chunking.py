"""Heading-aware chunking of Markdown, bounded by the embedding model's token window.

Chunks never cross a heading boundary; each carries its heading path and page range.
A section longer than the window is split at paragraph, then sentence, then token
boundaries, and consecutive pieces of one section overlap by up to ``overlap_tokens``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from indexing.tokens import SPECIAL_TOKENS, count_tokens, split_by_tokens

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")
HEADING_SEPARATOR = " > "


@dataclass(frozen=True)
class Chunk:
    text: str
    heading_path: tuple[str, ...]
    page_start: int | None
    page_end: int | None
    token_count: int

    @property
    def context_text(self) -> str:
        """What is embedded and indexed: the heading path, then the text."""
        if not self.heading_path:
            return self.text
        return HEADING_SEPARATOR.join(self.heading_path) + "\n\n" + self.text


@dataclass(frozen=True)
class _Block:
    heading_path: tuple[str, ...]
    page: int | None
    text: str


def _blocks(segments: Iterable[tuple[str, int | None]]) -> list[_Block]:
    blocks: list[_Block] = []
    headings: list[tuple[int, str]] = []
    in_fence = False
    for markdown, page in segments:
        paragraph: list[str] = []

        def flush(page: int | None = page, paragraph: list[str] = paragraph) -> None:
            text = "\n".join(paragraph).strip()
            if text:
                blocks.append(_Block(tuple(h for _, h in headings), page, text))
            paragraph.clear()

        for line in markdown.split("\n"):
            if line.lstrip().startswith("```"):
                in_fence = not in_fence
                paragraph.append(line)
                continue
            match = None if in_fence else _HEADING.match(line)
            if match:
                flush()
                level = len(match.group(1))
                while headings and headings[-1][0] >= level:
                    headings.pop()
                headings.append((level, match.group(2).strip()))
            elif not line.strip() and not in_fence:
                flush()
            else:
                paragraph.append(line)
        flush()
    return blocks


def _pieces(text: str, budget: int, counter: Callable[[str], int]) -> list[tuple[str, int]]:
    """Split a block into (text, tokens) pieces that each fit ``budget``."""
    tokens = counter(text)
    if tokens <= budget:
        return [(text, tokens)]
    pieces: list[tuple[str, int]] = []
    for sentence in _SENTENCE_END.split(text):
        n = counter(sentence)
        if n <= budget:
            pieces.append((sentence, n))
        else:
            pieces.extend((part, counter(part)) for part in split_by_tokens(sentence, budget))
    return pieces


def chunk_markdown(
    segments: Sequence[tuple[str, int | None]],
    max_tokens: int = 256,
    overlap_tokens: int = 32,
    counter: Callable[[str], int] = count_tokens,
) -> list[Chunk]:
    """Chunk Markdown given as (markdown, page number) segments, in reading order."""
    blocks = _blocks(segments)
    if not blocks:
        # A document that is only headings (a title-only record) is still searchable.
        headings = [m.group(2) for md, _ in segments for line in md.split("\n")
                    if (m := _HEADING.match(line))]
        if headings:
            text = "\n".join(headings)
            page = next((p for _, p in segments if p is not None), None)
            return [Chunk(text, (), page, page, counter(text))]
        return []

    chunks: list[Chunk] = []
    start = 0
    while start < len(blocks):
        path = blocks[start].heading_path
        end = start
        while end < len(blocks) and blocks[end].heading_path == path:
            end += 1
        chunks.extend(_pack_section(blocks[start:end], path, max_tokens, overlap_tokens, counter))
        start = end
    return chunks


def _pack_section(
    blocks: Sequence[_Block],
    path: tuple[str, ...],
    max_tokens: int,
    overlap_tokens: int,
    counter: Callable[[str], int],
) -> list[Chunk]:
    heading_cost = counter(HEADING_SEPARATOR.join(path)) + 2 if path else 0
    # Very deep or long heading paths may not eat more than half of the window.
    budget = max(max_tokens - SPECIAL_TOKENS - min(heading_cost, max_tokens // 2), 16)

    # (text, tokens, page, block index): pieces of one block are re-joined with a space.
    pieces: list[tuple[str, int, int | None, int]] = []
    for index, block in enumerate(blocks):
        pieces.extend(
            (text, n, block.page, index) for text, n in _pieces(block.text, budget, counter)
        )

    chunks: list[Chunk] = []
    current: list[tuple[str, int, int | None, int]] = []
    used = 0

    def emit() -> None:
        pages = [p for _, _, p, _ in current if p is not None]
        parts: list[str] = []
        for i, (text, _, _, block) in enumerate(current):
            if i:
                parts.append(" " if current[i - 1][3] == block else "\n\n")
            parts.append(text)
        chunks.append(Chunk("".join(parts), path, min(pages, default=None),
                            max(pages, default=None), sum(n for _, n, _, _ in current)))

    for piece in pieces:
        if current and used + piece[1] > budget:
            emit()
            carried: list[tuple[str, int, int | None, int]] = []
            carried_tokens = 0
            for prev in reversed(current):
                grown = carried_tokens + prev[1]
                if grown > overlap_tokens or grown + piece[1] > budget:
                    break
                carried.insert(0, prev)
                carried_tokens += prev[1]
            current, used = carried, carried_tokens
        current.append(piece)
        used += piece[1]
    if current:
        emit()
    return chunks
