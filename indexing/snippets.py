"""Highlighted snippets: the window of a chunk where the query's terms are densest.

Matching uses the BM25 analyzer, so a snippet highlights exactly the words that scored
(``indexing`` highlights "indexed" and "indexes"), and identifiers in any spelling.
"""

from __future__ import annotations

from indexing.analyzer import analyze, identifier_spans, word_spans


def snippet(text: str, query: str, width: int = 240, mark: tuple[str, str] = ("**", "**")) -> str:
    """Up to ``width`` characters of ``text`` around its best match, terms marked."""
    text = " ".join(text.split())  # one line: snippets are shown in lists
    wanted = set(analyze(query))
    # One pass over the text and one batch through the stemmer: this runs for every hit.
    spans = [(start, end) for start, end, word, stem in word_spans(text)
             if stem in wanted or word in wanted]
    spans += [(start, end) for start, end, term in identifier_spans(text) if term in wanted]
    hits = _merge(spans)
    if not hits:
        cut = text[:width]
        return cut + ("…" if len(text) > width else "")
    # The window starting at each hit that covers most distinct hits.
    best_start, best_count = hits[0][0], 0
    for first, _ in hits:
        count = sum(1 for s, e in hits if first <= s and e <= first + width)
        if count > best_count:
            best_start, best_count = first, count
    start = max(0, best_start - width // 4)
    start = text.rfind(" ", 0, start) + 1 if start > 0 else 0
    end = min(len(text), start + width)
    if end < len(text):
        space = text.rfind(" ", start, end)
        end = space if space > start else end
    pieces, cursor = [], start
    for hit_start, hit_end in hits:
        if hit_start >= start and hit_end <= end:
            pieces += [text[cursor:hit_start], mark[0], text[hit_start:hit_end], mark[1]]
            cursor = hit_end
    pieces.append(text[cursor:end])
    body = "".join(pieces)
    return ("…" if start > 0 else "") + body + ("…" if end < len(text) else "")


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted, overlapping spans joined ("RFC 7231" and its word "RFC" become one)."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
