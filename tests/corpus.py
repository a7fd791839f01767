"""Paths into ../shared/corpus (read in place; CI has it at the same relative path)."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"

needs_corpus = pytest.mark.skipif(not CORPUS.exists(), reason="../shared/corpus is absent")
