"""Ranking options measured offline, on one ingested BEIR collection, all from one load.

    PAGEMILL_HOME=/tmp/pm-eval python -m bench.retrieval_lab ../shared/corpus/beir-scifact \\
        --tenant scifact --split train [--split test]

The service's own index is read once (each chunk's text, heading path and stored vector); BM25
is recomputed here with the service's analyzer, k1 and b (and checked against the stored
lengths), dense as exact cosine over the stored half-precision vectors, and every option below
is a function of those two score vectors -- so a grid of hundreds of settings costs seconds,
not an ingest each.  ``--check`` runs the service's own hybrid search on the same queries and
says how far the offline baseline is from it (HNSW against exact cosine is the difference).

Options (issue 35): fusion (weighted with min-max, z-score or distribution-based
normalisation, any alpha; RRF with any k), candidate depth, document-level aggregation of
chunk scores, heading-path (title) weight in BM25 (a field weight applied at indexing, the
length counting it too), dense pseudo-relevance feedback (a Rocchio step on the query vector),
and RM3 expansion of the BM25 query.  Choose on train; test and Cranfield only report.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse
from sqlalchemy import text

from bench.retrieval_eval import load_qrels, ndcg_at
from indexing.analyzer import analyze, term_frequencies
from indexing.chunking import HEADING_SEPARATOR
from indexing.ranking import DEFAULTS

#: Every chunk of a tenant with what the lab needs: its document, text, heading path, stored
#: BM25 length and vector (halfvec as text).
CHUNKS = text("""
SELECT c.id, sd.external_id, c.text, c.heading_path, c.bm25_length, c.embedding::text AS vec
FROM chunks c JOIN search_documents sd ON sd.id = c.search_document_id
WHERE c.tenant_id = CAST(:tenant AS uuid)
ORDER BY c.id
""")


@dataclass(frozen=True)
class Option:
    """One way of ranking; the defaults are the service's today."""

    fusion: str = "weighted"  # weighted | rrf | bm25 | dense
    alpha: float = DEFAULTS.alpha
    norm: str = "minmax"  # minmax | zscore | dbsf
    # With zscore, what a chunk missing from a branch gets: the branch's lowest z minus this.
    missing: float = 0.0
    rrf_k: int = DEFAULTS.rrf_k
    depth: int = DEFAULTS.candidates
    aggregate: str = "max"  # max | max+<gamma> (plus gamma times the second best chunk)
    title_weight: int = 1  # the heading path counted this many times in BM25
    k1: float = DEFAULTS.k1
    b: float = DEFAULTS.b
    rocchio: tuple[float, int] = (0.0, 0)  # (beta, feedback documents) on the dense query
    rm3: tuple[float, int, int] = (0.0, 0, 0)  # (weight of expansion, documents, terms)

    def label(self) -> str:
        default = Option()
        changed = [f"{name}={value}" for name, value in vars(self).items()
                   if value != getattr(default, name)]
        return ", ".join(changed) or "service default"


class Collection:
    """A tenant's chunks, BM25 statistics per title weight, and vectors."""

    def __init__(self, rows: list[tuple[int, str, str, list[str] | None, int, str]]) -> None:
        self.docs = [r[1] for r in rows]
        doc_ids = sorted(set(self.docs))
        self.doc_index = {d: i for i, d in enumerate(doc_ids)}
        self.doc_names = doc_ids
        self.chunk_doc = np.array([self.doc_index[d] for d in self.docs])
        self.bodies = [r[2] for r in rows]
        self.paths = [list(r[3] or []) for r in rows]
        stored = [int(r[4]) for r in rows]
        counts, lengths = zip(*(term_frequencies(self._context(i, 1)) for i in range(len(rows))), strict=True)
        mismatched = sum(a != b for a, b in zip(lengths, stored, strict=True))
        if mismatched:
            print(f"warning: {mismatched} chunks' recomputed BM25 length differs from the stored one")
        self.vectors = np.vstack([np.array(json.loads(r[5]), dtype=np.float32) for r in rows])
        self.vectors /= np.linalg.norm(self.vectors, axis=1, keepdims=True)
        self.vocab: dict[str, int] = {}
        self._tf: dict[int, tuple[sparse.csc_matrix, np.ndarray]] = {}
        self._tf[1] = self._matrix(list(counts), np.array(lengths, dtype=np.float64))

    def _context(self, i: int, title_weight: int) -> str:
        if not self.paths[i]:
            return self.bodies[i]
        head = HEADING_SEPARATOR.join(self.paths[i])
        return "\n\n".join([head] * title_weight + [self.bodies[i]])

    def _matrix(self, counts: list[Counter[str]],
                lengths: np.ndarray) -> tuple[sparse.csc_matrix, np.ndarray]:
        rows, cols, vals = [], [], []
        for i, counter in enumerate(counts):
            for term, tf in counter.items():
                rows.append(i)
                cols.append(self.vocab.setdefault(term, len(self.vocab)))
                vals.append(tf)
        shape = (len(counts), max(len(self.vocab), 1))
        return sparse.csc_matrix((np.array(vals, dtype=np.float64), (rows, cols)), shape=shape), lengths

    def tf(self, title_weight: int) -> tuple[sparse.csc_matrix, np.ndarray]:
        if title_weight not in self._tf:
            counts, lengths = zip(*(term_frequencies(self._context(i, title_weight))
                                    for i in range(len(self.docs))), strict=True)
            self._tf[title_weight] = self._matrix(list(counts), np.array(lengths, dtype=np.float64))
        matrix, lengths = self._tf[title_weight]
        if matrix.shape[1] < len(self.vocab):  # terms first seen at another weight
            matrix = sparse.csc_matrix((matrix.data, matrix.indices, matrix.indptr),
                                       shape=(matrix.shape[0], len(self.vocab)))
        return matrix, lengths


class Scorer:
    """BM25 term weights of one (title weight, k1, b), cached."""

    def __init__(self, collection: Collection) -> None:
        self.collection = collection
        self._weights: dict[tuple[int, float, float], tuple[sparse.csc_matrix, np.ndarray]] = {}

    def weights(self, title_weight: int, k1: float, b: float) -> tuple[sparse.csc_matrix, np.ndarray]:
        key = (title_weight, k1, b)
        if key not in self._weights:
            tf, lengths = self.collection.tf(title_weight)
            tf = tf.tocoo()
            norm = k1 * (1.0 - b + b * lengths / lengths.mean())
            data = tf.data * (k1 + 1.0) / (tf.data + norm[tf.row])
            matrix = sparse.csc_matrix((data, (tf.row, tf.col)), shape=tf.shape)
            df = np.diff(matrix.indptr).astype(np.float64)
            n = matrix.shape[0]
            idf = np.log(1.0 + (n - df + 0.5) / (df + 0.5))
            self._weights[key] = (matrix, idf)
        return self._weights[key]

    def bm25(self, query_terms: dict[int, float], option: Option) -> np.ndarray:
        matrix, idf = self.weights(option.title_weight, option.k1, option.b)
        scores = np.zeros(matrix.shape[0])
        for term, qtf in query_terms.items():
            if term < matrix.shape[1]:
                column = matrix.getcol(term)
                scores[column.indices] += qtf * idf[term] * column.data
        return scores


def _normalised(scores: np.ndarray, candidates: np.ndarray, norm: str) -> dict[int, float]:
    values = scores[candidates]
    if norm == "minmax":
        lo, hi = values.min(), values.max()
        out = (values - lo) / (hi - lo) if hi > lo else np.ones_like(values)
    elif norm == "zscore":  # one distinct score: 1 (and 0 for the missing), as the service
        lo, hi = values.min(), values.max()
        out = (values - values.mean()) / values.std() if hi > lo else np.ones_like(values)
    else:  # dbsf: mean +- 3 sd as the range (Qdrant's distribution-based score fusion)
        mean, sd = values.mean(), values.std()
        lo, hi = mean - 3 * sd, mean + 3 * sd
        out = np.clip((values - lo) / (hi - lo), 0, 1) if hi > lo else np.ones_like(values)
    return dict(zip(candidates.tolist(), out.tolist(), strict=True))


def _top(scores: np.ndarray, n: int) -> np.ndarray:
    n = min(n, len(scores))
    top = np.argpartition(-scores, n - 1)[:n]
    return top[np.argsort(-scores[top], kind="stable")]


def fuse(bm25: np.ndarray, dense: np.ndarray, option: Option) -> dict[int, float]:
    """Chunk scores of the option's fusion over each branch's top-``depth`` chunks."""
    if option.fusion == "bm25":
        top = _top(bm25, option.depth)
        return {int(i): float(bm25[i]) for i in top if bm25[i] > 0}
    if option.fusion == "dense":
        top = _top(dense, option.depth)
        return {int(i): float(dense[i]) for i in top}
    b_top = _top(bm25, option.depth)
    b_top = b_top[bm25[b_top] > 0]
    d_top = _top(dense, option.depth)
    if option.fusion == "rrf":
        fused: dict[int, float] = defaultdict(float)
        for rank, i in enumerate(d_top, 1):
            fused[int(i)] += 1.0 / (option.rrf_k + rank)
        for rank, i in enumerate(b_top, 1):
            fused[int(i)] += 1.0 / (option.rrf_k + rank)
        return fused
    d_norm = _normalised(dense, d_top, option.norm)
    b_norm = _normalised(bm25, b_top, option.norm) if len(b_top) else {}
    def floor(norm: dict[int, float], scores: np.ndarray, top: np.ndarray) -> float:
        if option.norm != "zscore" or not norm or scores[top].min() == scores[top].max():
            return 0.0
        return min(norm.values()) - option.missing

    floor_d, floor_b = floor(d_norm, dense, d_top), floor(b_norm, bm25, b_top)
    return {i: option.alpha * d_norm.get(i, floor_d) + (1 - option.alpha) * b_norm.get(i, floor_b)
            for i in set(d_norm) | set(b_norm)}


def documents(fused: dict[int, float], chunk_doc: np.ndarray, aggregate: str) -> list[tuple[int, float]]:
    """Documents by their aggregated chunk scores, best first (ties by document index)."""
    per_doc: dict[int, list[float]] = defaultdict(list)
    for chunk, score in fused.items():
        per_doc[int(chunk_doc[chunk])].append(score)
    gamma = float(aggregate.split("+")[1]) if aggregate.startswith("max+") else 0.0
    scored = []
    for doc, values in per_doc.items():
        values.sort(reverse=True)
        scored.append((doc, values[0] + (gamma * values[1] if len(values) > 1 else 0.0)))
    scored.sort(key=lambda item: (-item[1], item[0]))
    return scored


class Lab:
    def __init__(self, collection: Collection, queries: list[tuple[str, str]], vectors: np.ndarray,
                 qrels: dict[str, dict[str, int]]) -> None:
        self.collection = collection
        self.scorer = Scorer(collection)
        self.queries = queries
        self.vectors = vectors
        self.qrels = qrels
        self.terms = [Counter(analyze(q)) for _, q in queries]

    def _query_terms(self, n: int) -> dict[int, float]:
        vocab = self.collection.vocab
        return {vocab[t]: float(c) for t, c in self.terms[n].items() if t in vocab}

    def _rm3(self, terms: dict[int, float], bm25: np.ndarray, option: Option) -> dict[int, float]:
        weight, docs, count = option.rm3
        top = _top(bm25, docs)
        top = top[bm25[top] > 0]
        if not len(top):
            return terms
        tf, lengths = self.collection.tf(option.title_weight)
        rows = tf[top].tocsr()
        doc_weights = np.exp(bm25[top] - bm25[top].max())
        model: dict[int, float] = defaultdict(float)
        for r, w in enumerate(doc_weights / doc_weights.sum()):
            row = rows.getrow(r)
            for term, value in zip(row.indices, row.data, strict=True):
                model[int(term)] += w * value / lengths[top[r]]
        expansion = sorted(model.items(), key=lambda kv: -kv[1])[:count]
        total = sum(v for _, v in expansion) or 1.0
        original_total = sum(terms.values()) or 1.0
        mixed: dict[int, float] = defaultdict(float)
        for term, value in terms.items():
            mixed[term] += (1 - weight) * value / original_total
        for term, value in expansion:
            mixed[term] += weight * value / total
        return mixed

    def ranking(self, n: int, option: Option) -> list[str]:
        terms = self._query_terms(n)
        nothing = np.zeros(len(self.collection.docs))
        bm25 = self.scorer.bm25(terms, option) if option.fusion != "dense" else nothing
        if option.rm3[0] > 0 and option.fusion != "dense":
            bm25 = self.scorer.bm25(self._rm3(terms, bm25, option), option)
        query = self.vectors[n]
        dense = self.collection.vectors @ query if option.fusion != "bm25" else nothing
        beta, feedback = option.rocchio
        if beta > 0 and option.fusion != "bm25":
            first = documents(fuse(bm25, dense, option), self.collection.chunk_doc, option.aggregate)
            chosen = [d for d, _ in first[:feedback]]
            best = [int(np.argmax(np.where(self.collection.chunk_doc == d, dense, -np.inf))) for d in chosen]
            if best:
                moved = query + beta * self.collection.vectors[best].mean(axis=0)
                dense = self.collection.vectors @ (moved / np.linalg.norm(moved))
        ranked = documents(fuse(bm25, dense, option), self.collection.chunk_doc, option.aggregate)
        return [self.collection.doc_names[d] for d, _ in ranked[:100]]

    def ndcg(self, option: Option) -> float:
        return statistics.mean(ndcg_at(self.ranking(n, option), self.qrels[qid], 10)
                               for n, (qid, _) in enumerate(self.queries))


def load_queries(collection: Path, split: str) -> tuple[list[tuple[str, str]], dict[str, dict[str, int]]]:
    qrels = load_qrels(collection / "qrels" / f"{split}.tsv")
    queries = []
    with (collection / "queries.jsonl").open() as fh:
        for line in fh:
            q = json.loads(line)
            if q["_id"] in qrels:
                queries.append((q["_id"], q["text"]))
    return queries, qrels


def grid() -> Iterable[Option]:
    """The options tried, one family at a time around the service's default."""
    base = Option()
    yield base
    yield replace(base, fusion="bm25")
    yield replace(base, fusion="dense")
    for alpha in (0.3, 0.35, 0.4, 0.45, 0.55, 0.6, 0.65, 0.7):
        yield replace(base, alpha=alpha)
    for norm, alpha in itertools.product(("zscore", "dbsf"), (0.4, 0.5, 0.6)):
        yield replace(base, norm=norm, alpha=alpha)
    for k in (5, 10, 20, 40, 60, 100):
        yield replace(base, fusion="rrf", rrf_k=k)
    for depth in (20, 50, 200, 1000):
        yield replace(base, depth=depth)
    for gamma in (0.1, 0.25, 0.5):
        yield replace(base, aggregate=f"max+{gamma}")
    for weight in (2, 3):
        yield replace(base, title_weight=weight)
        yield replace(base, fusion="bm25", title_weight=weight)
    for k1, b in ((1.2, 0.75), (0.9, 0.6), (1.2, 0.4), (0.7, 0.4)):
        yield replace(base, k1=k1, b=b)
        yield replace(base, fusion="bm25", k1=k1, b=b)
    for beta, docs in ((0.3, 3), (0.5, 3), (0.5, 5), (1.0, 5), (0.3, 10)):
        yield replace(base, rocchio=(beta, docs))
        yield replace(base, fusion="dense", rocchio=(beta, docs))
    for weight, docs, terms in ((0.3, 5, 20), (0.5, 10, 30), (0.2, 3, 10)):
        yield replace(base, rm3=(weight, docs, terms))
        yield replace(base, fusion="bm25", rm3=(weight, docs, terms))


def _option(fields: dict[str, Any]) -> Option:
    values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
    return Option(**values)


def main(argv: list[str] | None = None) -> None:
    from app.config import Config
    from app.domain.auth import ensure_tenant
    from app.runtime import Runtime
    from indexing import tenant_embedders
    from indexing.embedding import embed

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("collection", type=Path)
    parser.add_argument("--tenant", required=True)
    parser.add_argument("--split", action="append", default=None)
    parser.add_argument("--options", type=Path, default=None,
                        help="a JSON list of Option fields to run instead of the grid")
    parser.add_argument("--json", type=Path, default=None, help="write every result here")
    args = parser.parse_args(argv)
    runtime = Runtime(Config.from_env())
    with runtime.engine.begin() as conn:
        tenant_id = ensure_tenant(conn, args.tenant)
    with runtime.engine.connect() as conn:
        rows: list[Any] = [tuple(r) for r in conn.execute(CHUNKS, {"tenant": tenant_id}).all()]
        embedder = tenant_embedders.pinned(conn, tenant_id)
    collection = Collection(rows)
    print(f"{args.collection.name}: {len(rows)} chunks of {len(collection.doc_names)} documents")
    options = [_option(o) for o in json.loads(args.options.read_text())] if args.options else list(grid())
    results: dict[str, dict[str, float]] = defaultdict(dict)
    for split in args.split or ["train"]:
        queries, qrels = load_queries(args.collection, split)
        vectors = embed([q for _, q in queries], embedder=embedder)
        lab = Lab(collection, queries, vectors, qrels)
        print(f"\n{split}: {len(queries)} queries\n| option | nDCG@10 |\n|---|---:|")
        for option in options:
            value = lab.ndcg(option)
            results[option.label()][split] = value
            print(f"| {option.label()} | {value:.4f} |", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
