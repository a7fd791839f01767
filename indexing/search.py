"""Search: BM25 over the postings tables, dense over pgvector HNSW, and their fusion.

The statement's text lives in ``indexing/sql/`` (``search.sql`` and the files it includes),
rendered here by one Jinja2 environment, once per variant (mode, collapse, filters, fusion,
rounds); its rendered variants are checked in under ``tests/search_sql/`` so that a ranking
change is reviewed as an SQL diff.  Every branch reads only the tenant's rows: dense filters
chunks by tenant, BM25 reads the postings of term ids from the tenant's own dictionary.
Hybrid search is one statement: dense top-N and BM25 top-N fused by weighted, min-max
normalised scores (the default) or by Reciprocal Rank Fusion.  Ranking settings and their
defaults are ``indexing.ranking.SearchParams``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import jinja2
import numpy as np
from sqlalchemy import Connection, TextClause, text

from indexing import tenant_embedders
from indexing.analyzer import analyze
from indexing.bm25_layout import BLOCK
from indexing.chunking import context_text
from indexing.embedding import embed
from indexing.feedback import expand
from indexing.ranking import DEFAULTS, Fusion, Normalisation, SearchParams
from indexing.snippets import snippet
from indexing.store import vector_literal

__all__ = ["MODES", "Filters", "Fusion", "Hit", "Mode", "SearchParams", "bind_parameters", "bm25_ctes",
           "bm25_path", "build_path_sql", "build_sql", "search"]

Mode = Literal["hybrid", "bm25", "dense"]
MODES: tuple[Mode, ...] = ("hybrid", "bm25", "dense")


@dataclass(frozen=True)
class Filters:
    """Restrictions applied inside both branches (so top-N is taken among matching chunks)."""

    document_ids: list[str] | None = None
    job_id: str | None = None
    metadata: dict[str, object] | None = None
    mime_types: list[str] | None = None
    # ISO 8601 bounds on when the document was (last) indexed: [after, before).
    indexed_after: str | None = None
    indexed_before: str | None = None

    @property
    def active(self) -> bool:
        return bool(self.document_ids or self.job_id or self.metadata or self.mime_types
                    or self.indexed_after or self.indexed_before)

    def binds(self) -> dict[str, object]:
        """The filter's bind parameters (filter_join in sql/macros.sql); None means no bound."""
        return {"f_docs": self.document_ids or None, "f_job": self.job_id,
                "f_meta": json.dumps(self.metadata) if self.metadata else None,
                "f_mimes": self.mime_types or None, "f_after": self.indexed_after,
                "f_before": self.indexed_before}


@dataclass(frozen=True)
class Hit:
    document_id: str
    chunk_id: int
    score: float
    text: str
    heading_path: list[str]
    page_start: int | None
    page_end: int | None
    dense_rank: int | None
    dense_score: float | None
    bm25_rank: int | None
    bm25_score: float | None
    title: str | None = None
    mime_type: str | None = None
    snippet: str | None = None
    # Where the text is on its pages (provenance.py's boxes as JSON objects); None when the
    # source has no positions.
    boxes: list[dict[str, Any]] | None = None
    # Seconds into the recording the text spans (audio and video); None for other sources.
    start_s: float | None = None
    end_s: float | None = None
    # The row of the document version these chunks came from (``GET /v1/documents/<uuid>``);
    # None only after that row was purged.
    document_uuid: str | None = None
    # Which BM25 path ranked the candidates (the same for every hit of a search): 'scan',
    # 'exact<n>' (proven in round n), 'maxscore' (proven by MaxScore) or 'budget'
    # (bm25_exact off and no round could prove its ranking); None in dense mode.
    bm25_path: str | None = None
    # The reranking stage's score (indexing/reranking.py), when a cross-encoder ordered this
    # hit; None without one, and for hits below its depth.
    rerank_score: float | None = None


# One way of filling in the statement's files: Jinja2 placeholders and loops, nothing
# else (bind parameters stay SQLAlchemy's :name); an undefined name is an error, not blank.
#: This transaction's planning of the search statement: a generic plan, or per query.
_SET_PLAN_CACHE_MODE = text("SELECT set_config('plan_cache_mode', :plan, true)")
#: The same, and the HNSW scan's candidate list; iterative scans keep filtered HNSW searches
#: from returning fewer rows than asked.
_SET_DENSE_SETTINGS = text("""
    SELECT set_config('plan_cache_mode', :plan, true), set_config('hnsw.ef_search', :ef, true),
           set_config('hnsw.iterative_scan', 'relaxed_order', true)""")

_SQL = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).with_name("sql")),
    undefined=jinja2.StrictUndefined, autoescape=False, trim_blocks=True, lstrip_blocks=True,
    keep_trailing_newline=True)

#: Cut terms the candidates are completed in one at a time, largest rest first, before the
#: rest at once by probes (bm25_lead.sql); 3 on the bench's corpus (bench/bm25_blocks.py).
LEAD_PASSES = 3
#: MaxScore's optional terms: those whose rests, from the smallest, sum below this share of
#: theta (bm25.sql, step 3), chosen on the bench's synthetic corpus (bench/bm25_blocks.py);
#: and how many times a term's blocks the candidates must outnumber to be completed in it by
#: a merge (each block that holds candidates fetched once) rather than by probes (a key
#: lookup each): 6 when the merge decoded whole blocks; with the blocks fetched once, merge
#: 1, 0.5, 0.25 and 0.1 ran alike (bench/search_ab.py), and below about half the term's
#: blocks reading all its block ends costs more than the lookups saved.
MAXSCORE_SHARE = 0.7
MERGE_OVER_PROBES = 0.5


def _context(rounds: int, collapse: bool, filtered: bool) -> dict[str, object]:
    if rounds < 1:
        raise ValueError(f"bm25_rounds must be at least 1, got {rounds}")
    return {"rounds": rounds, "collapse": collapse, "filtered": filtered, "leads": LEAD_PASSES,
            "block": BLOCK}


def bm25_ctes(rounds: int, collapse: bool, filtered: bool = False) -> str:
    """BM25's common table expressions (ending in ``bm25`` and ``safe``), to follow ``WITH``;
    tests and benchmarks query their intermediate CTEs."""
    return _SQL.get_template("bm25.sql").render(_context(rounds, collapse, filtered))


def build_sql(mode: Mode, collapse: bool, filtered: bool = False, fusion: Fusion = DEFAULTS.fusion,
              rounds: int = DEFAULTS.bm25_rounds, norm: Normalisation = DEFAULTS.normalisation) -> str:
    """The search statement of one variant, as ``indexing/sql/search.sql`` renders it."""
    return _SQL.get_template("search.sql").render(
        _context(rounds, collapse, filtered), mode=mode, fusion=fusion, norm=norm)


def build_path_sql(rounds: int, collapse: bool) -> str:
    """The statement that says which BM25 path a query takes (``bm25_path.sql``)."""
    return _SQL.get_template("bm25_path.sql").render(_context(rounds, collapse, False))


@lru_cache(maxsize=128)
def _statement(mode: Mode, collapse: bool, filtered: bool, fusion: Fusion, rounds: int,
               norm: Normalisation) -> TextClause:
    # Built and parsed once per variant: parsing 30 kB of SQL for its bind parameters took
    # SQLAlchemy 2.3 ms, as long as executing a simple search.
    return text(build_sql(mode, collapse, filtered, fusion, rounds, norm))


@lru_cache(maxsize=16)
def _path_statement(rounds: int, collapse: bool) -> TextClause:
    return text(build_path_sql(rounds, collapse))


def _exact_ranks(k: int, collapse: bool) -> int:
    # The chunk ranks that must be exact: the k the caller sees, or with one result per
    # document the best 4k chunks, among which the k-th document is looked for (see kth in
    # sql/macros.sql).  Candidates ranked below them stand as the rounds scored them.
    return k * (4 if collapse else 1)


def _candidates(k: int, collapse: bool, params: SearchParams) -> int:
    return max(params.candidates, _exact_ranks(k, collapse))


def bind_parameters(tenant_id: str, terms: list[str], k: int, collapse: bool,
                    params: SearchParams, weights: list[float] | None = None) -> dict[str, object]:
    """The statement's bind parameters (all but the query vector's and the filters');
    ``weights`` of the terms (an expanded query's), by default 1 for each."""
    exact_k = _exact_ranks(k, collapse)
    if weights is not None and len(weights) != len(terms):
        raise ValueError(f"{len(terms)} terms but {len(weights)} weights")
    return {
        "tenant": tenant_id, "k": k, "terms": terms,
        "term_weights": weights if weights is not None else [1.0] * len(terms),
        "k1": params.k1, "b": params.b,
        "rrf_k": params.rrf_k, "candidates": _candidates(k, collapse, params),
        "alpha": params.alpha, "scan_below": params.bm25_scan_below, "exact": params.bm25_exact,
        "complete_limit": params.bm25_complete_limit,
        # Round 1's champion blocks per term (at least one).
        "depth1": max(1, -(-params.bm25_depth // BLOCK)),
        "exact_k": exact_k, "probe": max(params.bm25_probe, exact_k), "whole": params.bm25_whole,
        "share": MAXSCORE_SHARE, "merge": MERGE_OVER_PROBES,
    }


def bm25_path(conn: Connection, tenant_id: str, query: str, k: int = 10, collapse: bool = True,
              params: SearchParams | None = None) -> str:
    """Which path answers this BM25 query ('scan', 'exact<round>', 'maxscore' or 'budget');
    for benchmarks and tests."""
    params = params or SearchParams()
    bind = bind_parameters(tenant_id, analyze(query), k, collapse, params)
    return str(conn.execute(_path_statement(params.bm25_rounds, collapse), bind).scalar_one())


def _expanded(conn: Connection, tenant_id: str, query: str, terms: list[str], params: SearchParams,
              filters: Filters | None) -> tuple[list[str], list[float]]:
    """The BM25 query expanded from a first BM25 pass's best documents (indexing/feedback.py)."""
    first = search(conn, tenant_id, query, k=params.expansion_documents, mode="bm25",
                   params=replace(params, expansion=False), filters=filters, snippets=False)
    feedback = [(context_text(hit.heading_path, hit.text), hit.score) for hit in first]
    return expand(terms, feedback, params.expansion_terms, params.expansion_weight)


def search(
    conn: Connection,
    tenant_id: str,
    query: str,
    k: int = 10,
    mode: Mode = "hybrid",
    collapse: bool = True,
    params: SearchParams | None = None,
    query_vector: np.ndarray | None = None,
    filters: Filters | None = None,
    snippets: bool = True,
) -> list[Hit]:
    """Top-``k`` chunks for ``query`` (one per document when ``collapse``); ``snippets=False``
    skips the highlighted snippets (evaluation runs that only need ids)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    params = params or SearchParams()
    terms = analyze(query)
    if mode == "bm25" and not terms:
        return []
    weights = None
    if params.expansion and mode != "dense" and terms:
        terms, weights = _expanded(conn, tenant_id, query, terms, params, filters)
    bind = bind_parameters(tenant_id, terms, k, collapse, params, weights)
    filtered = filters is not None and filters.active
    # A statement run five times on a connection is prepared (psycopg); planning the search
    # afresh costs about as much as a round-1 answer, and the generic plan serves every query
    # (which path runs is decided as it runs), so it is planned once per connection.
    # Filtered searches keep per-query plans: there the filter values decide the join order.
    plan = "auto" if filtered else "force_generic_plan"
    if mode == "bm25":
        conn.execute(_SET_PLAN_CACHE_MODE, {"plan": plan})
    else:
        if query_vector is None:  # by the embedder the tenant's chunks were embedded with
            query_vector = embed([query], embedder=tenant_embedders.pinned(conn, tenant_id), strict=True)[0]
        bind["qvec"] = vector_literal(query_vector)
        conn.execute(_SET_DENSE_SETTINGS, {
            "plan": plan, "ef": str(max(params.ef_search, _candidates(k, collapse, params)))})
    if filters is not None and filtered:
        bind.update(filters.binds())
    statement = _statement(mode, collapse, filtered, params.fusion, params.bm25_rounds,
                           params.normalisation)
    rows = conn.execute(statement, bind).mappings().all()
    return [Hit(**{**row, "heading_path": list(row["heading_path"] or []),
                   "snippet": snippet(row["text"], query) if snippets else None}) for row in rows]
