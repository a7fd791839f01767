"""The text analyzer shared by BM25 indexing and BM25 queries.

Unicode word tokens (dotted forms such as ``v2.3.1`` or ``u.s`` kept whole), NFKC and
case folding, Lucene's English stop set, and the Porter stemmer (as Anserini's default
analyzer, the usual BM25 baseline).

Identifiers: a short alphabetic prefix joined to a number by a space, hyphen, underscore or
slash (``RFC 7231``, ``E-4521``, ``ISO-8601``, ``CVE_2021``) also yields one joined term
(``rfc7231``, ``e4521``, ``iso8601``), next to its parts.  Any spelling of the identifier in a
query then meets the same rare, high-IDF term, while ``error 4521`` still matches the parts.
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
# Letters (1-8) + hyphen/underscore/slash + digits: E-4521, ISO-8601, ARM_64, TS/29.
_IDENTIFIER = re.compile(r"(?<![^\W_])([^\W\d_]{1,8})[\-_/](\d[\d.]*\d|\d)(?![^\W_])")
# With a space only when the prefix is an upper-case acronym (RFC 7231, ISO 8601), so that
# "page 12" or "in 2023" stay two words.
_SPACED_IDENTIFIER = re.compile(r"(?<![^\W_])([A-Z]{2,8}) (\d[\d.]*\d|\d)(?![^\W_])")


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    stemmer = Stemmer.Stemmer("porter")
    stemmer.maxCacheSize = 100_000
    return stemmer


def tokenize(text: str) -> list[str]:
    """Lower-cased word tokens before stop-word removal and stemming."""
    return _TOKEN.findall(unicodedata.normalize("NFKC", text).casefold())


def word_spans(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, folded word, stemmed term) of each word token of ``text``, in one pass."""
    matches = list(_TOKEN.finditer(text))
    folded = [unicodedata.normalize("NFKC", m.group(0)).casefold() for m in matches]
    stems = _stemmer().stemWords(folded)
    return [(m.start(), m.end(), word, stem) for m, word, stem in zip(matches, folded, stems, strict=True)]


def identifier_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, joined term) of each identifier in ``text`` (offsets into ``text``;
    NFKC keeps them for the ASCII identifiers this matches)."""
    spans = []
    for pattern in (_IDENTIFIER, _SPACED_IDENTIFIER):
        for match in pattern.finditer(text):
            spans.append((match.start(), match.end(), (match.group(1) + match.group(2)).casefold()))
    return sorted(spans)


def identifiers(text: str) -> list[str]:
    """Joined identifier terms of ``text`` (``rfc7231`` for "RFC 7231")."""
    normal = unicodedata.normalize("NFKC", text)
    found = _IDENTIFIER.findall(normal) + _SPACED_IDENTIFIER.findall(normal)
    return [(prefix + number).casefold() for prefix, number in found]


def analyze(text: str) -> list[str]:
    """Index terms of ``text`` (duplicates kept): stemmed words, then joined identifiers."""
    words = [w for w in tokenize(text) if w not in STOP_WORDS]
    joined = [term for term in identifiers(text) if term not in words]
    return _stemmer().stemWords(words) + joined


def term_frequencies(text: str) -> tuple[Counter[str], int]:
    """Term counts and the document length BM25 uses (number of index terms)."""
    terms = analyze(text)
    return Counter(terms), len(terms)
