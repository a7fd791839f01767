"""How much to trust extracted text: a score in [0, 1] from signals that need no model.

The score multiplies four factors, each 1.0 for clean prose:

- printable share: control characters and replacement glyphs are lost text;
- garbage glyphs: U+FFFD, private-use and unassigned code points, ``(cid:NN)`` escapes --
  what a PDF text layer without a usable ToUnicode map yields;
- dictionary-word ratio: the share of alphabetic tokens that are words of the detected
  language (``wordfreq``'s lists); garbled OCR and broken font encodings score low;
- symbol density: more than a quarter of visible characters being punctuation or
  symbols is what OCR of noise and mis-decoded fonts look like.

Characters per page is reported, not multiplied in: a short page is not a bad page, but the
router treats a page with almost no characters as one without a text layer.
Thresholds are calibrated on ``../shared/corpus`` (``bench/extract.py --quality``).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

# Words of four letters or more: short tokens are in every lexicon, and OCR garbage is full
# of them ("Ayo", "gi", "JUS"), so they say nothing about whether text is real.
_WORD = re.compile(r"[^\W\d_]{4,}", re.UNICODE)
_CID = re.compile(r"\(cid:\d+\)")
# Dot leaders and rules ("Contents ....... 7", "-----") are layout, not noise.
_RUNS = re.compile(r"([^\w\s])(?: ?\1){2,}")
_GARBAGE_CATEGORIES = {"Co", "Cn", "Cs"}
# Languages wordfreq segments only with extra packages (jieba, mecab); no dictionary check.
_UNSEGMENTED = {"zh", "ja", "ko", "th", "zh-cn", "zh-tw"}
# Below this many words the dictionary ratio says little; it is then left out.
_MIN_WORDS = 8


@dataclass(frozen=True)
class Quality:
    score: float
    chars: int
    printable: float
    garbage: float
    dictionary: float | None
    symbols: float
    language: str | None


@lru_cache(maxsize=8)
def _lexicon(language: str) -> frozenset[str] | None:
    import wordfreq

    if language not in wordfreq.available_languages():
        return None
    return frozenset(wordfreq.get_frequency_dict(language))


# The languages a document may be said to be in: the ISO 639-1 codes langdetect named, which
# documents.language held until py3langid replaced it (so the values stay comparable).
LANGUAGES = ("af", "ar", "bg", "bn", "ca", "cs", "cy", "da", "de", "el", "en", "es", "et", "fa", "fi",
             "fr", "gu", "he", "hi", "hr", "hu", "id", "it", "ja", "kn", "ko", "lt", "lv", "mk", "ml",
             "mr", "ne", "nl", "no", "pa", "pl", "pt", "ro", "ru", "sk", "sl", "so", "sq", "sv", "sw",
             "ta", "te", "th", "tl", "tr", "uk", "ur", "vi", "zh")


@lru_cache(maxsize=1)
def _identifier() -> Any:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE)
    identifier.set_languages(LANGUAGES)
    return identifier


def detect_language(text: str) -> str | None:
    """ISO 639-1 code of the text's main language (``None`` when too short to tell).

    py3langid (its model in the wheel): 1.1 ms a text where langdetect took 7.9, the same
    answer for 99.8 % of 1,119 texts (docs/BENCHMARKS.md, issue 23); deterministic, where
    langdetect needed its seed fixed."""
    sample = text[:3000]
    if len(_WORD.findall(sample)) < 3:
        return None
    return str(_identifier().classify(sample)[0])


def assess(text: str, language: str | None = None) -> Quality:
    # Each distinct character is looked at once, with its count (the router assesses every
    # page: a test per character cost a twentieth of the fast track's time).
    visible = {ch: n for ch, n in Counter(text).items() if not ch.isspace()}
    chars = sum(visible.values())
    if chars == 0:
        return Quality(0.0, 0, 0.0, 0.0, None, 0.0, language)
    printable = sum(n for ch, n in visible.items() if ch.isprintable()) / chars
    cid = sum(len(m) for m in _CID.findall(text))
    bad = sum(n for ch, n in visible.items()
              if ch == "\ufffd" or unicodedata.category(ch) in _GARBAGE_CATEGORIES)
    garbage = min(1.0, (bad + cid) / chars)
    # Table rules ("| a | b |") are Markdown structure, not symbols of the text.
    compact = {ch: n for ch, n in Counter(_RUNS.sub(r"\1", text)).items() if not ch.isspace() and ch != "|"}
    symbols = sum(n for ch, n in compact.items() if not ch.isalnum()) / max(1, sum(compact.values()))

    language = language or detect_language(text)
    dictionary = None
    words = list(map(str.lower, _WORD.findall(text)))  # (map: no Python step a word)
    if language and language not in _UNSEGMENTED and len(words) >= _MIN_WORDS:
        # langdetect mistakes English code and jargon for Catalan or Dutch; English words
        # are also common in every other language's documents.  Take the better ratio.
        for lang in dict.fromkeys((language, "en")):
            lexicon = _lexicon(lang)
            if lexicon is not None:
                ratio = sum(map(lexicon.__contains__, words)) / len(words)
                dictionary = ratio if dictionary is None else max(dictionary, ratio)

    score = printable * max(0.0, 1.0 - 4.0 * garbage)
    if dictionary is not None:
        # Real prose, tables and code reach 0.75-1.0 (names and identifiers are the misses);
        # garbled text and broken font encodings stay under 0.5.
        score *= min(1.0, max(0.0, (dictionary - 0.35) / 0.4))
    if symbols > 0.25:
        score *= max(0.0, 1.0 - (symbols - 0.25) * 2.0)
    return Quality(round(score, 4), chars, round(printable, 4), round(garbage, 4),
                   None if dictionary is None else round(dictionary, 4), round(symbols, 4), language)
