"""The search bench's corpus read back from its database, and exact answers over it.

Every system of ``bench/search.py --peers`` indexes the same chunks: their ids, their terms (the
generator wrote them already tokenised, ``t<n>`` separated by single spaces, which is also how
its postings were made) and their 384-d vectors, read back here.  The exact answers are what
each system's top-10 is checked against:

- BM25 (Okapi, Lucene's IDF, query terms weighted by their count in the query, as
  ``indexing/sql/bm25.sql`` does) at any k1/b, over a sparse term-frequency matrix;
- dense: cosine similarity by brute force over the same vectors (stored in half precision, read as float32);
- hybrid: each fusion recomputed from the exact branches (pagemill's weighted min-max fusion
  over top-N candidates, LanceDB's RRF over top-k).

Agreement is tie-aware: a returned chunk agrees when its exact score reaches the k-th best
exact score (within a relative 1e-5, so float32 scorers are not penalised for rounding), and
the share is over min(k, chunks that match at all).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
from scipy import sparse
from sqlalchemy import Engine

#: The chunks in id order with their text and vector (binary transfer: parsing 200k vectors
#: as text took longer than the rest of the read).
_CHUNKS = "SELECT id, text, embedding FROM chunks WHERE tenant_id = %s ORDER BY id"

_TIE = 1e-5


@dataclass
class Corpus:
    ids: np.ndarray  # chunk ids, ascending (int64)
    texts: list[str]  # each chunk's terms, separated by single spaces
    vectors: np.ndarray  # (n, d): the stored half-precision values, as float32
    tf: sparse.csc_matrix  # (n, vocabulary + 1) term frequencies, column = the term's number
    lengths: np.ndarray  # terms per chunk (BM25's document length)

    @property
    def size(self) -> int:
        return len(self.ids)

    def positions(self, chunk_ids: list[int]) -> np.ndarray:
        """Row numbers of the given chunk ids (ids not in the corpus left out)."""
        wanted = np.asarray(chunk_ids, dtype=np.int64)
        found = np.minimum(np.searchsorted(self.ids, wanted), len(self.ids) - 1)
        return found[self.ids[found] == wanted]


def read_corpus(engine: Engine, tenant: str) -> Corpus:
    from pgvector.psycopg import register_vector

    raw = engine.raw_connection()
    try:
        conn = raw.driver_connection
        assert conn is not None
        register_vector(conn)
        ids, texts, vectors = [], [], []
        with conn.cursor(name="bench_corpus", binary=True) as cur:
            cur.itersize = 20_000
            cur.execute(_CHUNKS, (tenant,))
            for chunk_id, body, vector in cur:
                ids.append(chunk_id)
                texts.append(body)
                vectors.append(vector.to_numpy())  # pgvector.HalfVector (float16 values)
        conn.commit()
    finally:
        raw.close()
    return corpus_of(ids, texts, np.vstack(vectors).astype(np.float32, copy=False))


def corpus_of(ids: list[int], texts: list[str], vectors: np.ndarray) -> Corpus:
    """A corpus of chunks whose texts are ``t<n>`` terms separated by single spaces."""
    lengths = np.fromiter((t.count(" ") + 1 for t in texts), dtype=np.int64, count=len(texts))
    terms = np.array(" ".join(texts).replace("t", "").split(), dtype=np.int64)
    rows = np.repeat(np.arange(len(texts)), lengths)
    tf = sparse.coo_matrix((np.ones(len(terms), dtype=np.float64), (rows, terms)),
                           shape=(len(texts), int(terms.max()) + 1)).tocsc()
    tf.sum_duplicates()
    return Corpus(np.asarray(ids, dtype=np.int64), texts, vectors, tf, lengths)


class Oracle:
    """Exact scores over a corpus, for any query."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.df = np.diff(corpus.tf.indptr)
        self.avgdl = float(corpus.lengths.mean())
        norms = np.linalg.norm(corpus.vectors, axis=1, keepdims=True)
        self.unit = corpus.vectors / np.maximum(norms, 1e-12)

    def bm25(self, terms: list[str], k1: float, b: float) -> np.ndarray:
        n = self.corpus.size
        scores = np.zeros(n)
        norm = k1 * (1 - b + b * self.corpus.lengths / self.avgdl)
        for term, qtf in Counter(terms).items():
            number = int(term[1:]) if term[:1] == "t" and term[1:].isdigit() else -1
            if not 0 <= number < self.corpus.tf.shape[1] or not self.df[number]:
                continue
            df = self.df[number]
            idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
            lo, hi = self.corpus.tf.indptr[number], self.corpus.tf.indptr[number + 1]
            docs, tf = self.corpus.tf.indices[lo:hi], self.corpus.tf.data[lo:hi]
            scores[docs] += qtf * idf * tf * (k1 + 1) / (tf + norm[docs])
        return scores

    def dense(self, vector: np.ndarray) -> np.ndarray:
        """Cosine similarity (1 - pgvector's <=> distance) of every chunk to the query."""
        q = vector / max(float(np.linalg.norm(vector)), 1e-12)
        return (self.unit @ q.astype(np.float32)).astype(np.float64)


def top(scores: np.ndarray, k: int, matching: bool) -> np.ndarray:
    """Positions of the k best scores, best first (only scores > 0 when ``matching``)."""
    candidates = np.flatnonzero(scores > 0) if matching else np.arange(len(scores))
    if len(candidates) > k:
        candidates = candidates[np.argpartition(-scores[candidates], k - 1)[:k]]
    return candidates[np.argsort(-scores[candidates], kind="stable")]


def weighted_fusion(bm25: np.ndarray, dense: np.ndarray, alpha: float, candidates: int,
                    normalisation: str = "minmax") -> np.ndarray:
    """pagemill's hybrid score (indexing/sql/fused.sql) from exact branches, each over its top
    ``candidates``: "minmax" normalises them to [0, 1] (one distinct score counts 1) and gives a
    chunk missing from the branch 0; "zscore" subtracts their mean and divides by their
    population deviation, and a missing chunk gets the branch's lowest (one distinct score:
    1 for its candidates, 0 for the others).  -inf for chunks in neither branch."""
    if normalisation not in ("minmax", "zscore"):
        raise ValueError(f"unknown normalisation {normalisation!r}")
    branches = [(top(dense, candidates, False), dense, alpha), (top(bm25, candidates, True), bm25, 1 - alpha)]
    union = np.union1d(branches[0][0], branches[1][0])
    fused = np.full(len(bm25), -np.inf)
    fused[union] = 0.0
    for chosen, scores, weight in branches:
        values = scores[chosen]
        span = values.max() - values.min() if len(values) else 0.0
        if span <= 0:  # no spread: its candidates count 1, every other chunk 0
            fused[chosen] += weight
        elif normalisation == "minmax":
            fused[chosen] += weight * (values - values.min()) / span
        else:
            mu, sd = values.mean(), values.std()
            fused[union] += weight * (values.min() - mu) / sd  # the missing ones' value...
            fused[chosen] += weight * (values - values.min()) / sd  # ...raised to their own
    return fused


def rrf_fusion(bm25: np.ndarray, dense: np.ndarray, k: int, rrf_k: int) -> np.ndarray:
    """Reciprocal Rank Fusion as LanceDB's default reranker computes it: each branch's top ``k``,
    1 / (rank + K) with ranks from 1; -inf for chunks in neither branch."""
    fused = np.full(len(bm25), -np.inf)
    for scores, matching in ((dense, False), (bm25, True)):
        for rank, position in enumerate(top(scores, k, matching), 1):
            fused[position] = (0.0 if fused[position] == -np.inf else fused[position]) + 1 / (rank + rrf_k)
    return fused


def agreement(corpus: Corpus, answers: list[list[int]], exact: list[np.ndarray], k: int = 10,
              matching: bool = False) -> float:
    """Mean tie-aware share of each exact top-k found in the answer's top-k (chunk ids)."""
    shares = []
    for answer, scores in zip(answers, exact, strict=True):
        eligible = scores > 0 if matching else np.isfinite(scores)
        m = min(k, int(eligible.sum()))
        if m == 0:
            shares.append(1.0)
            continue
        theta = np.partition(scores[eligible], len(scores[eligible]) - m)[len(scores[eligible]) - m]
        got = corpus.positions(answer[:k]) if answer else np.zeros(0, dtype=np.int64)
        hits = int(np.sum(eligible[got] & (scores[got] >= theta - _TIE * abs(theta))))
        shares.append(min(hits, m) / m)
    return float(np.mean(shares))
