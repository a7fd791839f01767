"""Query expansion from the first results (pseudo-relevance feedback, RM3), an option of BM25.

The query's best few documents are taken as relevant: a relevance model -- each of their terms'
share of its chunk, weighted by how well that chunk scored -- gives the terms they have most in
common, and the query searched again is the original terms mixed with those, each part scaled to
sum to one (Lavrenko and Croft's relevance model, RM3's interpolation, as Anserini does it).
Only the BM25 branch reads the expanded query; dense search and the snippets keep the user's.

Measured on SciFact train with bench/retrieval_lab.py (docs/BENCHMARKS.md): for BM25 alone,
5 documents, 10 terms and a weight of 0.2 scored best of the settings tried (0.6971 against
0.6911 without); in hybrid search it did not help, so the option is off unless asked for.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence

from indexing.analyzer import term_frequencies


def expand(query_terms: Sequence[str], feedback: Sequence[tuple[str, float]], terms: int,
           weight: float) -> tuple[list[str], list[float]]:
    """(terms, weights) of the expanded query: ``query_terms`` (repeats counted) weighted
    ``1 - weight``, the ``terms`` strongest terms of the relevance model of ``feedback`` (each
    document's indexed text and its BM25 score) weighted ``weight``.  Without feedback, the
    query as it was, each term weighing its count."""
    counts = Counter(query_terms)
    if not feedback or not counts or terms < 1 or weight <= 0.0:
        return list(counts), [float(c) for c in counts.values()]
    top = max(score for _, score in feedback)
    # Softmax of the scores: the best document counts most, and scale does not matter.
    shares = [math.exp(score - top) for _, score in feedback]
    total = sum(shares)
    model: dict[str, float] = defaultdict(float)
    for (text, _), share in zip(feedback, shares, strict=True):
        found, length = term_frequencies(text)
        for term, tf in found.items():
            model[term] += share / total * tf / max(length, 1)
    strongest = sorted(model.items(), key=lambda item: (-item[1], item[0]))[:terms]
    model_total = sum(value for _, value in strongest) or 1.0
    query_total = sum(counts.values())
    mixed: dict[str, float] = defaultdict(float)
    for term, count in counts.items():
        mixed[term] += (1.0 - weight) * count / query_total
    for term, value in strongest:
        mixed[term] += weight * value / model_total
    return list(mixed), list(mixed.values())
