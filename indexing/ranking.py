"""Ranking settings: the one place their defaults are stated.

``SearchParams`` holds every setting a search runs with; its field defaults are the service's
defaults, and ``app.config.Config`` takes its ranking fields' defaults from here.  This module
imports nothing heavier than the standard library, so that configuration stays cheap to load.

BM25's k1 and b do two jobs: search scores with them, and indexing stores each posting's
*impact* (its contribution at weight 1, computed by the SQL function ``bm25_term_score`` of
migration 0013) with the k1 and b it is given.  The early-terminating BM25 path reads impacts,
so it serves a query only when the query's k1 and b are those the tenant's impacts were
computed with (``bm25_stats.impact_k1``/``impact_b``); otherwise the plain scan answers, as
exactly but more slowly.  Writers and searchers are therefore handed the same configured k1
and b (``indexing.store.replace_document`` and ``refresh_impacts`` take them as arguments).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Fusion = Literal["rrf", "weighted"]
FUSIONS: tuple[Fusion, ...] = ("rrf", "weighted")
# How weighted fusion puts each branch's scores on one scale, over that branch's candidates:
# "minmax" maps them onto [0, 1]; "zscore" subtracts their mean and divides by their standard
# deviation (a candidate missing from a branch gets that branch's lowest).
Normalisation = Literal["minmax", "zscore"]
NORMALISATIONS: tuple[Normalisation, ...] = ("minmax", "zscore")


@dataclass(frozen=True)
class SearchParams:
    # Okapi BM25 with Lucene's IDF.
    k1: float = 0.9
    b: float = 0.4
    rrf_k: int = 60
    ef_search: int = 100
    # Chunks each branch ranks and fusion normalises over (at least the ranks that must be
    # exact).  400 for BM25 was best on SciFact train (+0.004) but +0.0004 on test and -0.001
    # on Cranfield, so 100 stays (docs/BENCHMARKS.md, 2026-12-04 night).
    candidates: int = 100
    # "rrf": Reciprocal Rank Fusion; "weighted": alpha * dense + (1 - alpha) * BM25, each
    # normalised over its own top-N candidates.  Weighted 0.5 was chosen on SciFact's train
    # qrels (nDCG@10 0.7386 against RRF's 0.7171; docs/BENCHMARKS.md), and z-scores over
    # min-max, also on train (bench/retrieval_lab.py: 0.7372 against 0.7356; alpha 0.45 to
    # 0.55 within 0.002 of it; RRF with any k from 5 to 100 at most 0.7207; 2026-12-04).
    fusion: Fusion = "weighted"
    alpha: float = 0.5
    normalisation: Normalisation = "zscore"
    # Early termination over postings in blocks (indexing/sql/bm25.sql).  Round 1 reads of
    # each common term its bm25_depth best postings (its first champion blocks of 128); a
    # middle round those above the term's share of round 1's theta; a third all its
    # champions.  Below bm25_scan_below postings in all the plain scan is used directly.
    # 256 postings, three rounds, whole 4 and probe 100 were chosen on the bench's synthetic
    # 200k-chunk corpus (bench/bm25_blocks.py: depth 2 blocks against 4 was 0.6-1 ms of p50;
    # whole 2/4/8 gave p99 84/56/66 ms; three rounds against two a few ms of p95).
    bm25_depth: int = 256
    bm25_rounds: int = 3
    # A term's list at most this many times what a round reads of its champions is read whole
    # by that round: a list cut just short leaves a rest that keeps most chunks open.
    bm25_whole: float = 4.0
    # When no round proves its answer: True reads on (block-max MaxScore) until it is exact;
    # False completes the bm25_complete_limit candidates of best bound, each exactly scored,
    # and returns them as they rank.
    bm25_exact: bool = True
    bm25_complete_limit: int = 1000
    # The plain scan decodes and scores every posting (0.6-1 us each in blocks), so it beats
    # the rounds' fixed cost (about 8 ms at p50: champions, probes, bookkeeping) only below
    # some 10,000 postings; 40,000, chosen when postings were rows, cost its queries 30-45 ms.
    # On the bench's 200k corpus, the same 200 queries taking turns (2026-12-06): mean 17.5
    # -> 14.6 ms with 8,000, 15.1 with 15,000, answers identical (docs/BENCHMARKS.md).
    bm25_scan_below: int = 10_000
    # Chunks of best lower bound each round completes at once (at least the ranks that must
    # be exact), so that it proves against exact scores.
    bm25_probe: int = 100
    # The reranking stage (indexing/reranking.py): a cross-encoder's directory or cached model
    # id, None for none (the default: pagemill ships no cross-encoder, and quality depends on
    # the one supplied).  It reorders the first rerank_depth hits of the search: 50 pairs
    # keep a MiniLM-sized cross-encoder near 0.1-0.3 s per query on one CPU core, and depth is
    # the first thing to lower when that is too slow.  Not tuned: no cross-encoder's weights
    # install offline here, so none could be measured (docs/BENCHMARKS.md).
    reranker: str | None = None
    rerank_depth: int = 50
    # Query expansion (RM3, indexing/feedback.py) of the BM25 branch from the first pass's best
    # expansion_documents documents: off by default (it helped BM25 alone on SciFact train,
    # 0.6971 against 0.6911, and Cranfield, but not hybrid search; docs/BENCHMARKS.md).
    expansion: bool = False
    expansion_documents: int = 5
    expansion_terms: int = 10
    expansion_weight: float = 0.2


DEFAULTS = SearchParams()
