"""Semantic chunk boundaries: split where adjacent sentences stop talking about the same thing.

Within a section, each sentence is embedded; the cosine similarity of every adjacent pair is
compared with the section's own distribution, and a gap whose similarity falls clearly below
it (mean minus one standard deviation, and under an absolute ceiling) starts a new chunk.
Relative thresholds adapt to the writing: dense technical prose has high similarities
throughout, a list of unrelated notes low ones.  The token budget still applies on top.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

# Above this similarity two sentences are on one topic whatever the section's statistics.
SIMILARITY_CEILING = 0.5
# Fewer sentences than this give no usable distribution: no semantic split.
MIN_SENTENCES = 4


def similarity_breaks(sentences: Sequence[str],
                      embed: Callable[[Sequence[str]], np.ndarray] | None = None) -> set[int]:
    """Indices of the sentences that should start a new chunk."""
    if len(sentences) < MIN_SENTENCES:
        return set()
    if embed is None:
        from indexing.embedding import embed as embed_texts

        embed = embed_texts
    vectors = embed(list(sentences))
    similarities = (vectors[:-1] * vectors[1:]).sum(axis=1)
    threshold = min(float(similarities.mean() - similarities.std()), SIMILARITY_CEILING)
    return {i + 1 for i, value in enumerate(similarities) if value < threshold}
