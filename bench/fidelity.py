"""Text fidelity measures shared by bench/extract.py and the tests.

- bag-of-words recall/precision: multiset overlap of lower-cased word tokens, Markdown
  syntax (backslash escapes included) ignored, so that it measures text content, not formatting;
- character error rate: Levenshtein distance over the reference length, whitespace runs
  collapsed (line breaks differ legitimately between engines).
"""

from __future__ import annotations

import re
from collections import Counter

from rapidfuzz.distance import Levenshtein

_TOKEN = re.compile(r"\w+", re.UNICODE)
# Markdown's backslash escapes (`\_` for a literal underscore) are syntax, not text.
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>])")


def words(text: str) -> Counter[str]:
    return Counter(token.lower() for token in _TOKEN.findall(_ESCAPE.sub(r"\1", text)))


def bag_of_words(hypothesis: str, reference: str) -> tuple[float, float]:
    """(recall, precision) of the hypothesis's words against the reference's."""
    hyp, ref = words(hypothesis), words(reference)
    overlap = sum((hyp & ref).values())
    recall = overlap / sum(ref.values()) if ref else 1.0
    precision = overlap / sum(hyp.values()) if hyp else (1.0 if not ref else 0.0)
    return recall, precision


def cer(hypothesis: str, reference: str) -> float:
    hyp = " ".join(hypothesis.split())
    ref = " ".join(reference.split())
    if not ref:
        return 0.0 if not hyp else 1.0
    return Levenshtein.distance(hyp, ref) / len(ref)
