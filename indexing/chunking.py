"""Heading-aware chunking of Markdown, bounded by the embedding model's token window.

Chunks never cross a heading boundary; each carries its heading path and page range, and
``spans``: where on each page's Markdown its text came from (page, start, end offsets), so
that the boxes of the source's blocks can be found for it (indexing/provenance.py).
A section longer than the window is split at paragraph, then sentence, then token
boundaries, and consecutive pieces of one section overlap by up to ``overlap_tokens``.

Markdown tables are kept whole, in chunks of their own: a table too long for the window is
split between rows, each part repeating the header.  BM25 indexes the raw table (every
cell value is a term); what is embedded is a short description -- heading path, columns,
row count and the first cells -- because a sentence embedding of pipe-separated cells says
little, while "table of ... with columns ..." matches questions about it.

Transcripts of audio and video are chunked by time instead (:func:`chunk_transcript`): whole
segments packed into windows of a given length that overlap, each chunk carrying the seconds
it spans (``start_s``, ``end_s``).
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
class Box:
    """A rectangle on a page: points from the top-left corner, and the page's size."""

    page: int
    x0: float
    top: float
    x1: float
    bottom: float
    width: float
    height: float

    def as_json(self) -> dict[str, float | int]:
        return {"page": self.page, "x0": self.x0, "top": self.top, "x1": self.x1,
                "bottom": self.bottom, "width": self.width, "height": self.height}


def context_text(heading_path: Sequence[str], text: str) -> str:
    """What BM25 indexes of a chunk (and query expansion reads of a hit): the heading path,
    then the text."""
    if not heading_path:
        return text
    return HEADING_SEPARATOR.join(heading_path) + "\n\n" + text


@dataclass(frozen=True)
class Chunk:
    text: str
    heading_path: tuple[str, ...]
    page_start: int | None
    page_end: int | None
    token_count: int
    is_table: bool = False
    # (page, start, end): character offsets into the page segment's Markdown, one per page.
    spans: tuple[tuple[int, int, int], ...] = ()
    # Where the text is on the pages, when the source has positions (see provenance.py).
    boxes: tuple[Box, ...] = ()
    # Seconds into the recording the text was heard (transcripts only).
    start_s: float | None = None
    end_s: float | None = None

    @property
    def context_text(self) -> str:
        """What BM25 indexes: the heading path, then the text."""
        return context_text(self.heading_path, self.text)

    @property
    def embed_text(self) -> str:
        """What is embedded: the context text, or for a table its description."""
        return describe_table(self.text, self.heading_path) if self.is_table else self.context_text


def looks_like_table(text: str) -> bool:
    """A Markdown table block: two lines or more, each a row (``| … |``)."""
    lines = text.split("\n")
    return len(lines) >= 2 and all(line.lstrip().startswith("|") for line in lines)


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _is_rule(line: str) -> bool:
    return bool(line.strip()) and set(line.replace("|", "").strip()) <= set("-: ")


def describe_table(markdown: str, heading_path: tuple[str, ...] = ()) -> str:
    """A sentence-like description of a Markdown table for the embedding model."""
    lines = [line for line in markdown.split("\n") if line.strip().startswith("|")]
    if not lines:
        return markdown
    header = _cells(lines[0])
    rows = [_cells(line) for line in lines[1:] if not _is_rule(line)]
    parts = []
    if heading_path:
        parts.append(HEADING_SEPARATOR.join(heading_path) + ".")
    parts.append(f"Table with {len(rows)} rows and columns: {', '.join(c for c in header if c)}.")
    first_column = [row[0] for row in rows if row and row[0]]
    if first_column:
        parts.append(f"Rows include: {', '.join(first_column[:12])}.")
    if rows:
        sample = "; ".join(", ".join(f"{h}: {v}" for h, v in zip(header, row, strict=False) if v)
                           for row in rows[:3])
        parts.append(f"For example: {sample}.")
    return " ".join(parts)


@dataclass(frozen=True)
class _Block:
    heading_path: tuple[str, ...]
    page: int | None
    text: str
    is_table: bool = False
    start: int = 0  # where ``text`` begins in its segment's Markdown


def _blocks(segments: Iterable[tuple[str, int | None]]) -> list[_Block]:
    blocks: list[_Block] = []
    headings: list[tuple[int, str]] = []
    in_fence = False
    for markdown, page in segments:
        paragraph: list[str] = []
        first = [0]  # offset of the paragraph's first line in the segment

        def flush(page: int | None = page, paragraph: list[str] = paragraph,
                  first: list[int] = first) -> None:
            joined = "\n".join(paragraph)
            text = joined.strip()
            if text:
                is_table = looks_like_table(text)
                start = first[0] + len(joined) - len(joined.lstrip())
                blocks.append(_Block(tuple(h for _, h in headings), page, text, is_table, start))
            paragraph.clear()

        at = 0
        for line in markdown.split("\n"):
            if not paragraph:
                first[0] = at
            at += len(line) + 1
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


def _span_of(block: _Block, text: str, after: int = 0) -> tuple[int, int, int] | None:
    """(page, start, end) of ``text`` -- all of ``block`` or a piece of it -- in its page's
    Markdown; the whole block when the piece cannot be found in it verbatim."""
    if block.page is None:
        return None
    at = block.text.find(text, after) if text is not block.text else 0
    if at < 0:
        return (block.page, block.start, block.start + len(block.text))
    return (block.page, block.start + at, block.start + at + len(text))


def _merge_spans(spans: Iterable[tuple[int, int, int] | None]) -> tuple[tuple[int, int, int], ...]:
    """One (page, first start, last end) per page, in page order."""
    by_page: dict[int, tuple[int, int]] = {}
    for span in spans:
        if span is None:
            continue
        page, start, end = span
        low, high = by_page.get(page, (start, end))
        by_page[page] = (min(low, start), max(high, end))
    return tuple((page, low, high) for page, (low, high) in sorted(by_page.items()))


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


def _table_parts(text: str, budget: int, counter: Callable[[str], int]) -> list[tuple[str, int]]:
    """A table in parts that fit ``budget``, split between rows, each repeating the header."""
    total = counter(text)
    if total <= budget:
        return [(text, total)]
    lines = text.split("\n")
    head = lines[:2] if len(lines) > 1 and _is_rule(lines[1]) else lines[:1]
    head_tokens = counter("\n".join(head))
    parts: list[tuple[str, int]] = []
    rows: list[str] = []
    used = head_tokens
    for line in lines[len(head):]:
        n = counter(line)
        if rows and used + n > budget:
            part = "\n".join(head + rows)
            parts.append((part, counter(part)))
            rows, used = [], head_tokens
        rows.append(line)
        used += n
    if rows:
        part = "\n".join(head + rows)
        parts.append((part, counter(part)))
    # A single row wider than the window is cut by tokens like any long text.
    return [(p, n) if n <= budget else (piece, counter(piece))
            for p, n in parts for piece in ([p] if n <= budget else split_by_tokens(p, budget))]


def _rows_of(part: str) -> str:
    """A table part's rows without the header and separator lines it repeats."""
    lines = part.split("\n")
    head = 2 if len(lines) > 2 and _is_rule(lines[1]) else 0
    return "\n".join(lines[head:])


Breaker = Callable[[Sequence[str]], set[int]]


def chunk_markdown(
    segments: Sequence[tuple[str, int | None]],
    max_tokens: int = 256,
    overlap_tokens: int = 32,
    counter: Callable[[str], int] = count_tokens,
    breaker: Breaker | None = None,
) -> list[Chunk]:
    """Chunk Markdown given as (markdown, page number) segments, in reading order.

    With ``breaker`` (see indexing/semantic.py), prose is cut into sentences and a new chunk
    starts at every sentence index it returns, besides where the token budget requires."""
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
        chunks.extend(_pack_section(blocks[start:end], path, max_tokens, overlap_tokens, counter,
                                    breaker))
        start = end
    return chunks


def _pack_section(
    blocks: Sequence[_Block],
    path: tuple[str, ...],
    max_tokens: int,
    overlap_tokens: int,
    counter: Callable[[str], int],
    breaker: Breaker | None = None,
) -> list[Chunk]:
    heading_cost = counter(HEADING_SEPARATOR.join(path)) + 2 if path else 0
    # Very deep or long heading paths may not eat more than half of the window.
    budget = max(max_tokens - SPECIAL_TOKENS - min(heading_cost, max_tokens // 2), 16)

    # Tables become chunks of their own; the prose between them is packed, in reading order.
    chunks: list[Chunk] = []
    prose: list[_Block] = []
    for block in blocks:
        if block.is_table:
            chunks.extend(_pack_prose(prose, path, budget, overlap_tokens, counter, breaker))
            prose = []
            parts = _table_parts(block.text, budget, counter)
            after = 0
            for text, n in parts:
                span = _span_of(block, block.text)
                if len(parts) > 1:  # a part's span is its rows (the header is the first part's)
                    span = _span_of(block, _rows_of(text), after) if _rows_of(text) else span
                    after = span[2] - block.start if span else after
                chunks.append(Chunk(text, path, block.page, block.page, n, is_table=True,
                                    spans=_merge_spans([span])))
        else:
            prose.append(block)
    chunks.extend(_pack_prose(prose, path, budget, overlap_tokens, counter, breaker))
    return chunks


def _pack_prose(
    blocks: Sequence[_Block],
    path: tuple[str, ...],
    budget: int,
    overlap_tokens: int,
    counter: Callable[[str], int],
    breaker: Breaker | None = None,
) -> list[Chunk]:
    # (text, tokens, page, block index, span): pieces of one block are re-joined with a space.
    pieces: list[tuple[str, int, int | None, int, tuple[int, int, int] | None]] = []
    for index, block in enumerate(blocks):
        if breaker is None:
            parts = _pieces(block.text, budget, counter)
        else:  # sentence by sentence, so that topic shifts inside a paragraph can split it
            parts = [piece for sentence in _SENTENCE_END.split(block.text) if sentence.strip()
                     for piece in _pieces(sentence, budget, counter)]
        after = 0
        for text, n in parts:
            span = _span_of(block, text, after) if len(parts) > 1 else _span_of(block, block.text)
            if span is not None and len(parts) > 1:
                after = max(after, span[1] - block.start)
            pieces.append((text, n, block.page, index, span))
    breaks = breaker([p[0] for p in pieces]) if breaker is not None and pieces else set()

    chunks: list[Chunk] = []
    current: list[tuple[str, int, int | None, int, tuple[int, int, int] | None]] = []
    used = 0

    def emit() -> None:
        pages = [p[2] for p in current if p[2] is not None]
        parts: list[str] = []
        for i, piece in enumerate(current):
            if i:
                parts.append(" " if current[i - 1][3] == piece[3] else "\n\n")
            parts.append(piece[0])
        chunks.append(Chunk("".join(parts), path, min(pages, default=None),
                            max(pages, default=None), sum(p[1] for p in current),
                            spans=_merge_spans(p[4] for p in current)))

    for position, piece in enumerate(pieces):
        if current and position in breaks:
            emit()  # a topic boundary: no overlap carried across it
            current, used = [], 0
        if current and used + piece[1] > budget:
            emit()
            carried: list[tuple[str, int, int | None, int, tuple[int, int, int] | None]] = []
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


def chunk_transcript(
    segments: Sequence[tuple[float, float, str]],
    window_seconds: float = 60.0,
    overlap_seconds: float = 10.0,
    max_tokens: int = 256,
    counter: Callable[[str], int] = count_tokens,
) -> list[Chunk]:
    """Chunk a transcript given as (start, end, text) segments in seconds, in time order.

    A chunk is whole segments spanning at most ``window_seconds`` and fitting the token window;
    the next chunk starts with the first segment that begins ``overlap_seconds`` before the
    previous chunk's end (always at least one segment further on).  A segment too long for the
    token window on its own is cut by tokens, each part keeping the segment's times.
    """
    budget = max(max_tokens - SPECIAL_TOKENS, 16)
    parts: list[tuple[float, float, str, int]] = []
    for start, end, text in segments:
        text = text.strip()
        if not text:
            continue
        n = counter(text)
        if n <= budget:
            parts.append((start, end, text, n))
        else:
            parts.extend((start, end, piece, counter(piece)) for piece in split_by_tokens(text, budget))
    chunks: list[Chunk] = []
    first = 0
    while first < len(parts):
        last, used = first, parts[first][3]
        while last + 1 < len(parts) and parts[last + 1][1] - parts[first][0] <= window_seconds \
                and used + parts[last + 1][3] <= budget:
            last += 1
            used += parts[last][3]
        taken = parts[first:last + 1]
        chunks.append(Chunk(" ".join(p[2] for p in taken), (), None, None, used,
                            start_s=taken[0][0], end_s=max(p[1] for p in taken)))
        if last + 1 >= len(parts):
            break
        resume = taken[-1][1] - overlap_seconds
        first = next((i for i in range(first + 1, last + 1) if parts[i][0] >= resume), last + 1)
    return chunks
