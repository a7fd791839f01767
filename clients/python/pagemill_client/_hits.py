"""A search hit as the metadata the retrievers attach to LangChain documents and LlamaIndex
nodes: plain JSON values, the same keys in both."""

from __future__ import annotations

import dataclasses
from typing import Any

from pagemill_client.models import SearchHit

# Kept out of the text LlamaIndex shows an LLM or embeds: positions and ranking details.
LAYOUT_AND_SCORE_KEYS = ("chunk_id", "boxes", "page_start", "page_end", "start_s", "end_s", "score",
                         "rank", "dense_rank", "dense_score", "bm25_rank", "bm25_score", "snippet",
                         "document_uuid", "mime_type")


def hit_metadata(hit: SearchHit, rank: int) -> dict[str, Any]:
    """``rank`` is the hit's 1-based position in the answer."""
    return {
        "document_id": hit.document_id,
        "document_uuid": hit.document_uuid,
        "chunk_id": hit.chunk_id,
        "title": hit.title,
        "heading_path": list(hit.heading_path),
        "page_start": hit.page_start,
        "page_end": hit.page_end,
        "boxes": None if hit.boxes is None else [dataclasses.asdict(box) for box in hit.boxes],
        "start_s": hit.start_s,
        "end_s": hit.end_s,
        "mime_type": hit.mime_type,
        "snippet": hit.snippet,
        "rank": rank,
        "score": hit.score,
        "dense_rank": hit.dense_rank,
        "dense_score": hit.dense_score,
        "bm25_rank": hit.bm25_rank,
        "bm25_score": hit.bm25_score,
    }


def hit_id(hit: SearchHit) -> str:
    """A stable id for the hit's chunk: its document's uuid and the chunk's id."""
    return f"{hit.document_uuid or hit.document_id}:{hit.chunk_id}"
