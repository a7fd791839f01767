"""A reranking stage, off by default: a cross-encoder reorders the fused top-N of a search.

A cross-encoder reads the query and a chunk together and scores the pair, which ranks better
than comparing two vectors made apart, at the price of one model call per candidate.  So it
reorders only the first ``depth`` hits the search statement returns (the fused, BM25 or dense
ranking), and the hits below that depth keep their order after them.

The model is the user's: ``PAGEMILL_RERANKER`` names a directory holding a sentence-transformers
``CrossEncoder`` (``save_pretrained``'s files) or a model id already in the local Hugging Face
cache.  Nothing is downloaded: this service runs where the hub may be unreachable, and a model
that is not on disk is an error that says what to put where (:class:`RerankerUnavailable`),
raised at the first search that needs it, not a silent fallback to the unreranked order.
Quality depends entirely on the model supplied; pagemill ships none.

The model is loaded once per process and name, on first use (never at import), as the
embedder is (indexing/embedding.py); reranking runs outside any database transaction.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from indexing.search import Hit

log = logging.getLogger(__name__)

_lock = threading.Lock()
_models: dict[str, Any] = {}

# Pairs per model call: the candidates of one search, at the default depth, in one or two calls.
BATCH_SIZE = 32


class RerankerUnavailable(Exception):
    """The configured reranker cannot be loaded here (absent, or not a cross-encoder)."""

    def __init__(self, reranker: str, reason: str) -> None:
        super().__init__(
            f"the reranker {reranker!r} cannot be loaded: {reason}. PAGEMILL_RERANKER must name "
            "a directory holding a sentence-transformers CrossEncoder (its config.json, weights "
            "and tokenizer files, as CrossEncoder.save_pretrained writes them) or a model id "
            "already in the local Hugging Face cache (HF_HOME); pagemill downloads nothing, so "
            "fetch the model on a machine with network access and copy it here")
        self.reranker = reranker
        self.reason = reason


@dataclass(frozen=True)
class Reranked:
    """A search's hits after the stage, with what the stage did (the response's ``ranking``)."""

    hits: list[Hit]
    reranker: str
    depth: int
    # Pairs the model scored (the hits there were, up to depth) and how long that took.
    scored: int
    seconds: float


def _source(reranker: str) -> str:
    """The directory to load ``reranker`` from: itself, or its snapshot in the local cache."""
    path = Path(reranker).expanduser()
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise RerankerUnavailable(reranker, f"the directory {path} holds no config.json")
        return str(path)
    if path.is_absolute() or reranker.startswith((".", "~")):
        raise RerankerUnavailable(reranker, f"there is no directory {path}")
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import HFValidationError, LocalEntryNotFoundError

    try:
        return str(snapshot_download(reranker, local_files_only=True))
    except (LocalEntryNotFoundError, HFValidationError, OSError) as exc:
        raise RerankerUnavailable(
            reranker, "it is neither a directory nor a model in the local Hugging Face cache") from exc


def _load(reranker: str) -> Any:
    with _lock:
        if reranker not in _models:
            # Never reach for the hub, whatever the model's files refer to.
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            source = _source(reranker)
            began = time.monotonic()
            from sentence_transformers import CrossEncoder
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()  # a bar per load in a server's log helps nobody
            try:
                model = CrossEncoder(source, device="cpu", local_files_only=True)
            except (OSError, ValueError, KeyError) as exc:  # not a model, or a broken one
                raise RerankerUnavailable(reranker, f"{type(exc).__name__}: {exc}") from exc
            _models[reranker] = model
            log.info("reranker loaded", extra={"reranker": reranker,
                                               "seconds": round(time.monotonic() - began, 2)})
        return _models[reranker]


def check(reranker: str) -> str | None:
    """Why ``reranker`` cannot be loaded, or ``None`` when it can (loads it; for doctor)."""
    try:
        _load(reranker)
    except RerankerUnavailable as exc:
        return str(exc)
    return None


def scores(reranker: str, query: str, texts: Sequence[str]) -> list[float]:
    """The cross-encoder's score of (query, text) for each text, higher is better."""
    if not texts:
        return []
    model = _load(reranker)
    predicted = model.predict([(query, text) for text in texts], batch_size=BATCH_SIZE,
                              show_progress_bar=False, convert_to_numpy=True)
    return [float(value) for value in predicted]


def rerank(reranker: str, query: str, hits: Sequence[Hit], depth: int, k: int) -> Reranked:
    """The first ``k`` of ``hits`` after the cross-encoder reordered its first ``depth``.

    Ties keep the search's order (a stable sort), so a model that cannot tell two chunks apart
    leaves them as the search ranked them.  Each reordered hit carries its ``rerank_score``;
    ``score`` stays the search's own."""
    if depth < 1:
        raise ValueError(f"rerank depth must be at least 1, got {depth}")
    head, tail = list(hits[:depth]), list(hits[depth:])
    began = time.perf_counter()
    judged = scores(reranker, query, [hit.text for hit in head])
    seconds = time.perf_counter() - began
    order = sorted(range(len(head)), key=lambda i: -judged[i])
    reordered = [replace(head[i], rerank_score=judged[i]) for i in order]
    return Reranked(hits=(reordered + tail)[:k], reranker=reranker, depth=depth, scored=len(head),
                    seconds=seconds)
