"""The search bench's report helpers (issue 33): percentiles, the JSON file, the exact answers
and the tie-aware agreement the peers are judged by.  No database, no peer engine."""

from __future__ import annotations

import json
import math

import numpy as np

from bench.search_corpus import Oracle, agreement, corpus_of, rrf_fusion, top, weighted_fusion
from bench.search_load import KEYS, latency_summary, percentile, write_report


def test_percentile_is_the_value_at_rank_q_n():
    values = [float(v) for v in range(100, 0, -1)]
    assert percentile(values, .5) == 51.0
    assert percentile(values, .95) == 96.0
    assert percentile(values, .99) == 100.0
    assert percentile([3.0], .99) == 3.0
    assert math.isnan(percentile([], .5))
    assert latency_summary([1.0, 2.0, 3.0]) == {"p50_ms": 2.0, "p95_ms": 3.0, "p99_ms": 3.0}


def test_one_size_is_written_at_the_top_level_several_by_size(tmp_path):
    system = dict.fromkeys(KEYS, np.float64(1.5))
    path = tmp_path / "report.json"
    write_report(path, {200_000: {"postings": np.int64(7), "tantivy": system}})
    assert json.loads(path.read_text()) == {"postings": 7, "tantivy": dict.fromkeys(KEYS, 1.5)}
    write_report(path, {1: {"postings": 1}, 2: {"postings": 2}})
    assert json.loads(path.read_text()) == {"1": {"postings": 1}, "2": {"postings": 2}}


def _corpus():
    texts = ["t1 t2 t2", "t2 t3", "t3 t3 t3 t4", "t1 t1", "t4"]
    vectors = np.array([[1, 0], [0, 1], [1, 1], [-1, 0], [1, 0]], dtype=np.float32)
    return corpus_of([10, 11, 12, 13, 14], texts, vectors)


def test_exact_bm25_is_okapi_with_lucene_idf_and_query_term_counts():
    corpus = _corpus()
    oracle = Oracle(corpus)
    k1, b, n, avgdl = 0.9, 0.4, 5, 12 / 5

    def term(tf: float, length: int, df: int) -> float:
        idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
        return idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / avgdl))

    scores = oracle.bm25(["t1", "t2", "t1", "t99"], k1, b)
    assert np.allclose(scores, [2 * term(1, 3, 2) + term(2, 3, 2), term(1, 2, 2), 0, 2 * term(2, 2, 2), 0])
    assert list(corpus.positions([13, 99, 10])) == [3, 0]
    assert list(top(scores, 10, matching=True)) == [0, 3, 1]


def test_agreement_counts_ties_at_the_kth_score_and_only_matching_chunks():
    corpus = _corpus()
    exact = [np.array([3.0, 2.0, 2.0, 0.0, 0.0])]
    # k = 2: chunk 11 and chunk 12 tie for second place, so either agrees.
    assert agreement(corpus, [[10, 12]], exact, k=2, matching=True) == 1.0
    assert agreement(corpus, [[10, 11]], exact, k=2, matching=True) == 1.0
    assert agreement(corpus, [[10, 13]], exact, k=2, matching=True) == 0.5
    # Three chunks match at all: a top-10 of those three is complete.
    assert agreement(corpus, [[10, 11, 12]], exact, k=10, matching=True) == 1.0
    assert agreement(corpus, [[]], [np.zeros(5)], k=10, matching=True) == 1.0


def test_fusions_recomputed_from_exact_branches():
    bm25 = np.array([4.0, 2.0, 0.0, 0.0, 1.0])
    dense = np.array([0.1, 0.9, 0.5, 0.3, -0.2])
    fused = weighted_fusion(bm25, dense, alpha=0.5, candidates=2)
    # Dense candidates 1 (0.9 -> 1) and 2 (0.5 -> 0); BM25 candidates 0 (4 -> 1) and 1 (2 -> 0).
    assert np.allclose(fused[:3], [0.5, 0.5, 0.0]) and np.all(np.isneginf(fused[3:]))
    # The service's default: z-scores over each branch's candidates, a missing chunk at the
    # branch's lowest.  Dense 0.9 / 0.5 -> +1 / -1; BM25 4 / 2 -> +1 / -1.
    z = weighted_fusion(bm25, dense, alpha=0.5, candidates=2, normalisation="zscore")
    assert np.allclose(z[:3], [0.0, 0.0, -1.0]) and np.all(np.isneginf(z[3:]))
    # One distinct BM25 score: its candidate counts 1, the others 0.
    one = weighted_fusion(np.array([0.0, 3.0, 0.0, 0.0, 0.0]), dense, alpha=0.5, candidates=2,
                          normalisation="zscore")
    assert np.allclose(one[1:3], [0.5 + 0.5, -0.5])
    rrf = rrf_fusion(bm25, dense, k=2, rrf_k=60)
    assert np.isclose(rrf[1], 1 / 61 + 1 / 62) and np.isclose(rrf[0], 1 / 61) and np.isneginf(rrf[3])
