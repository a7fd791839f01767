"""The engines a user would pick instead of pagemill, as systems of ``bench/search.py --peers``.

Each peer is built once per run from the bench's own corpus (``bench/search_corpus.py``) into a
directory of its own, and then opened by name from that directory, in the bench's process for
the single-client latencies and in each client process of the concurrency test.  They are
optional extras of the bench, never of the service:

    .venv/bin/pip install -r bench/requirements-peers.txt

Configured alike where the engine lets us: the terms are already tokens, so every BM25 engine
splits on whitespace with no lowercasing, stemming or stop words; BM25 at pagemill's k1/b where
the engine takes them (bm25s; tantivy and LanceDB fix k1 = 1.2, b = 0.75); a query term that
occurs twice weighs twice, as in pagemill (tantivy: a boost of the term's count); cosine
distance over the same float32 vectors; usearch's HNSW with pagemill's m = 16 and
ef_construction = 64, and the smallest ef_search on a ladder that reaches pagemill's recall.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bench.search_corpus import Corpus

INSTALL = ".venv/bin/pip install -r bench/requirements-peers.txt"
PEERS = ("tantivy", "bm25s", "usearch", "usearch-f16", "lancedb-hybrid")
# The engines' own BM25 constants where they cannot be set.
FIXED_BM25 = {"tantivy": (1.2, 0.75), "lancedb-hybrid": (1.2, 0.75)}
# As pagemill's HNSW (indexing/vector_index.py).
HNSW_M, HNSW_EF_CONSTRUCTION = 16, 64
EF_LADDER = (16, 24, 32, 48, 64, 96, 128, 192, 256)
LANCEDB_RRF_K = 60
# LanceDB's vector branch with no index scans every stored vector from its files per query
# (1.5 s a query at 200k chunks here), so a user builds one: IVF partitions of HNSW graphs
# over scalar-quantised vectors, the graphs at pagemill's m/ef_construction, searched at
# pagemill's ef_search.  None: no vector index (exact, LanceDB's behaviour without one).
LANCEDB_VECTOR_INDEX: str | None = "IVF_HNSW_SQ"
LANCEDB_EF = 100

Searcher = Callable[[list[str], np.ndarray], list[int]]


@dataclass(frozen=True)
class Spec:
    """How to open one system's searcher in any process (picklable)."""

    system: str
    location: str  # the peer's index directory, or pagemill's database URL
    options: dict[str, Any] = field(default_factory=dict)


def missing() -> list[str]:
    """The peer packages that cannot be imported here."""
    import importlib.util

    return [name for name in ("tantivy", "bm25s", "usearch", "lancedb", "pyarrow")
            if importlib.util.find_spec(name) is None]


def versions() -> dict[str, str]:
    """The installed versions of the peer packages."""
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in ("tantivy", "bm25s", "usearch", "lancedb", "pyarrow"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            continue
    return found


def directory_bytes(path: Path) -> int:
    """Bytes of every file under ``path`` (or of the file itself)."""
    if path.is_file():
        return path.stat().st_size
    return sum((Path(root) / name).stat().st_size for root, _, names in os.walk(path) for name in names)


# -- building -------------------------------------------------------------------------------


def build(system: str, corpus: Corpus, where: Path, k1: float, b: float) -> Spec:
    where.mkdir(parents=True, exist_ok=True)
    builders: dict[str, Callable[[Corpus, Path, float, float], Spec]] = {
        "tantivy": _build_tantivy, "bm25s": _build_bm25s,
        "usearch": lambda c, w, _k1, _b: _build_usearch(c, w, "f32"),
        "usearch-f16": lambda c, w, _k1, _b: _build_usearch(c, w, "f16"),
        "lancedb-hybrid": _build_lancedb,
    }
    return builders[system](corpus, where / system, k1, b)


def _tantivy_schema():  # type: ignore[no-untyped-def]
    import tantivy

    schema = tantivy.SchemaBuilder()
    # Term frequencies without positions: pagemill stores no positions either.
    schema.add_text_field("body", stored=False, tokenizer_name="whitespace", index_option="freq")
    schema.add_unsigned_field("id", stored=False, indexed=False, fast=True)
    return schema.build()


def _build_tantivy(corpus: Corpus, where: Path, _k1: float, _b: float) -> Spec:
    import tantivy

    where.mkdir(parents=True, exist_ok=True)
    index = tantivy.Index(_tantivy_schema(), path=str(where))
    # One thread: one segment (as a merged index would be), and the same index every run.
    writer = index.writer(heap_size=1_000_000_000, num_threads=1)
    for chunk_id, body in zip(corpus.ids.tolist(), corpus.texts, strict=True):
        document = tantivy.Document()
        document.add_text("body", body)
        document.add_unsigned("id", chunk_id)
        writer.add_document(document)
    writer.commit()
    writer.wait_merging_threads()
    return Spec("tantivy", str(where))


def _build_bm25s(corpus: Corpus, where: Path, k1: float, b: float) -> Spec:
    import bm25s

    model = bm25s.BM25(k1=k1, b=b, method="lucene")
    model.index([body.split(" ") for body in corpus.texts], show_progress=False)
    model.save(str(where))
    np.save(where.with_suffix(".ids.npy"), corpus.ids)
    return Spec("bm25s", str(where))


def _build_usearch(corpus: Corpus, where: Path, dtype: str) -> Spec:
    from usearch.index import Index

    index = Index(ndim=corpus.vectors.shape[1], metric="cos", dtype=dtype, connectivity=HNSW_M,
                  expansion_add=HNSW_EF_CONSTRUCTION)
    index.add(corpus.ids, corpus.vectors, threads=os.cpu_count() or 1)
    path = where.with_suffix(".usearch")
    index.save(str(path))
    return Spec(f"usearch{'-f16' if dtype == 'f16' else ''}", str(path))


def _lancedb():  # type: ignore[no-untyped-def]
    # Lance logs a deprecation warning on every FTS query that selects columns: thousands of
    # lines per run.  Its logger reads LANCEDB_LOG when the module is loaded.
    os.environ.setdefault("LANCEDB_LOG", "error")
    import lancedb

    return lancedb


def _build_lancedb(corpus: Corpus, where: Path, _k1: float, _b: float) -> Spec:
    import pyarrow as pa

    db = _lancedb().connect(str(where))
    vectors = pa.FixedSizeListArray.from_arrays(pa.array(corpus.vectors.reshape(-1)),
                                                corpus.vectors.shape[1])
    table = db.create_table("chunks", pa.table({"id": corpus.ids, "text": corpus.texts,
                                                "vector": vectors}), mode="overwrite")
    table.create_fts_index("text", base_tokenizer="whitespace", lower_case=False, stem=False,
                           remove_stop_words=False, ascii_folding=False, with_position=False,
                           replace=True)
    if LANCEDB_VECTOR_INDEX:
        table.create_index(metric="cosine", vector_column_name="vector", index_type=LANCEDB_VECTOR_INDEX,
                           m=HNSW_M, ef_construction=HNSW_EF_CONSTRUCTION)
    return Spec("lancedb-hybrid", str(where), {"vector_index": LANCEDB_VECTOR_INDEX, "ef": LANCEDB_EF})


def tune_ef(spec: Spec, queries: list[np.ndarray], exact: list[np.ndarray], corpus: Corpus,
            target: float) -> tuple[int, dict[int, float]]:
    """The smallest ef_search on the ladder whose recall@10 reaches ``target`` (else the
    largest), and the recall of each ef tried."""
    from usearch.index import Index

    from bench.search_corpus import agreement

    index = Index.restore(spec.location, view=True)
    assert index is not None
    batch = np.vstack(queries)
    recalls: dict[int, float] = {}
    for ef in EF_LADDER:
        index.expansion_search = ef  # type: ignore[misc]  # a property with a setter
        keys = index.search(batch, 10, threads=1).keys
        recalls[ef] = agreement(corpus, [list(map(int, row)) for row in keys], exact)
        if recalls[ef] >= target:
            return ef, recalls
    return EF_LADDER[-1], recalls


# -- searching ------------------------------------------------------------------------------


def open_searcher(spec: Spec) -> Searcher:
    """A function answering (query terms, query vector) with the top-10 chunk ids."""
    openers: dict[str, Callable[[Spec], Searcher]] = {
        "tantivy": _tantivy, "bm25s": _bm25s, "usearch": _usearch, "usearch-f16": _usearch,
        "lancedb-hybrid": _lancedb_hybrid, "lancedb-fts": _lancedb_fts, "pagemill": _pagemill,
    }
    if spec.system.startswith("http-"):  # pagemill through its HTTP API
        from bench.search_throughput import http_searcher

        return http_searcher(spec)
    return openers[spec.system if spec.system in openers else "pagemill"](spec)


def _tantivy(spec: Spec) -> Searcher:
    import tantivy

    schema = _tantivy_schema()
    index = tantivy.Index.open(spec.location)
    searcher = index.searcher()

    def run(terms: list[str], _vector: np.ndarray) -> list[int]:
        clauses = []
        for term, count in Counter(terms).items():
            query = tantivy.Query.term_query(schema, "body", term, index_option="freq")
            clauses.append((tantivy.Occur.Should,
                            tantivy.Query.boost_query(query, float(count)) if count > 1 else query))
        hits = searcher.search(tantivy.Query.boolean_query(clauses), 10, count=False).hits
        ids = searcher.fast_field_values("id", [address for _, address in hits])
        return [int(i) for i in ids if i is not None]
    return run


def _bm25s(spec: Spec) -> Searcher:
    import bm25s

    model = bm25s.BM25.load(spec.location, mmap=True)
    ids = np.load(Path(spec.location).with_suffix(".ids.npy"))
    vocabulary = model.vocab_dict

    def run(terms: list[str], _vector: np.ndarray) -> list[int]:
        known = [t for t in terms if t in vocabulary]
        if not known:
            return []
        scores = model.get_scores(known)
        best = np.argpartition(-scores, 10)[:10]
        best = best[np.argsort(-scores[best])]
        return [int(i) for i in ids[best[scores[best] > 0]]]
    return run


def _usearch(spec: Spec) -> Searcher:
    from usearch.index import Index

    index = Index.restore(spec.location, view=True)
    assert index is not None
    index.expansion_search = int(spec.options.get("ef", 100))  # type: ignore[misc]

    def run(_terms: list[str], vector: np.ndarray) -> list[int]:
        return [int(k) for k in index.search(vector, 10, threads=1).keys]
    return run


def _lancedb_table(spec: Spec):  # type: ignore[no-untyped-def]
    return _lancedb().connect(spec.location).open_table("chunks")


def _lancedb_hybrid(spec: Spec) -> Searcher:
    table = _lancedb_table(spec)

    def run(terms: list[str], vector: np.ndarray) -> list[int]:
        # LanceDB's default hybrid: vector and FTS top-10 each, fused by RRFReranker(K=60).
        query = (table.search(query_type="hybrid", vector_column_name="vector", fts_columns="text")
                 .vector(vector).text(" ".join(terms)).distance_type("cosine").limit(10)
                 .select(["id"]))
        if spec.options.get("vector_index"):
            query = query.ef(int(spec.options["ef"]))
        return [int(i) for i in query.to_arrow()["id"].to_pylist()]
    return run


def _lancedb_fts(spec: Spec) -> Searcher:
    """LanceDB's BM25 branch alone (for its agreement; not timed)."""
    table = _lancedb_table(spec)

    def run(terms: list[str], _vector: np.ndarray) -> list[int]:
        query = table.search(" ".join(terms), query_type="fts", fts_columns="text").limit(10).select(["id"])
        return [int(i) for i in query.to_arrow()["id"].to_pylist()]
    return run


def _pagemill(spec: Spec) -> Searcher:
    """pagemill's search() as the API runs it: one committed transaction per query on a pooled
    connection (its own engine per process).  The option ``embed``: the query's vector made by
    the embedder, as the API makes it, instead of the corpus's own query vector; ``sql``: the
    statement rendered from another version's files (bench/search_ab.py)."""
    from dataclasses import replace

    from sqlalchemy import create_engine

    from bench.search_ab import use_statements
    from indexing.search import SearchParams, search

    use_statements(spec.options.get("sql"))
    engine = create_engine(spec.location, pool_size=1, max_overflow=0)
    tenant = str(spec.options["tenant"])
    params = replace(SearchParams(), bm25_depth=int(spec.options.get("depth", SearchParams().bm25_depth)))
    mode = spec.system.removeprefix("pagemill-")
    embedded = bool(spec.options.get("embed"))

    def run(terms: list[str], vector: np.ndarray) -> list[int]:
        with engine.begin() as conn:
            hits = search(conn, tenant, " ".join(terms), k=10, mode=mode,  # type: ignore[arg-type]
                          params=params, query_vector=None if embedded else vector, snippets=False)
        return [h.chunk_id for h in hits]
    return run
