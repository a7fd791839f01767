"""The text analyzer shared by BM25 indexing and BM25 queries.

Unicode word tokens (dotted forms such as ``v2.3.1`` or ``u.s`` kept whole), NFKC and
case folding, Lucene's English stop set, and the Porter stemmer (as Anserini's default
analyzer, the usual BM25 baseline).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import lru_cache

import Stemmer

# Lucene's EnglishAnalyzer default stop set.
STOP_WORDS = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their "
    "then there these they this to was will with".split()
)

_TOKEN = re.compile(r"[^\W_]+(?:\.[^\W_]+)*")


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    stemmer = Stemmer.Stemmer("porter")
    stemmer.maxCacheSize = 100_000
    return stemmer


def tokenize(text: str) -> list[str]:
    """Lower-cased word tokens before stop-word removal and stemming."""
    return _TOKEN.findall(unicodedata.normalize("NFKC", text).casefold())


def analyze(text: str) -> list[str]:
    """Index terms of ``text`` in order (duplicates kept)."""
    words = [w for w in tokenize(text) if w not in STOP_WORDS]
    return _stemmer().stemWords(words)


def term_frequencies(text: str) -> tuple[Counter[str], int]:
    """Term counts and the document length BM25 uses (number of index terms)."""
    terms = analyze(text)
    return Counter(terms), len(terms)
