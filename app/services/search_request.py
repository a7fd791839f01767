"""A search as a caller asks for it — the API's body or the CLI's options, both loaded through
:class:`SearchRequestSchema` — and the one place that turns it into the ranking settings and
filters :func:`indexing.search.search` runs with, so the two entry points cannot drift apart;
:func:`serve_search` runs it where the runtime's searches read (a replica, or the primary:
app/domain/search_reads.py)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from marshmallow import Schema, fields, post_load, validate
from sqlalchemy import Connection

from app.config import Config
from app.domain import jobs
from app.domain.search_reads import Served
from app.domain.storable import Instant, JsonObject, Text
from app.runtime import Runtime
from indexing import reranking
from indexing.ranking import FUSIONS, NORMALISATIONS, Normalisation
from indexing.search import MODES, Filters, Fusion, Hit, Mode, SearchParams, search

# What a request may choose for itself; unset, the server's configuration decides.
OVERRIDES = ("fusion", "alpha", "normalisation", "ef_search", "bm25_exact")


@dataclass(frozen=True)
class SearchRequest:
    query: str
    k: int = 10
    mode: Mode = "hybrid"
    # One result per document (its best chunk), or every chunk.
    collapse: bool = True
    fusion: Fusion | None = None
    alpha: float | None = None
    normalisation: Normalisation | None = None
    ef_search: int | None = None
    bm25_exact: bool | None = None
    filters: Filters = field(default_factory=Filters)
    # A job whose outcome the search must see (read-your-writes on a replica).
    after_job: str | None = None
    # The reranking stage: None as configured (PAGEMILL_RERANKER), False skips it, True
    # requires it (an error when no reranker is configured).
    rerank: bool | None = None
    rerank_depth: int | None = None
    # BM25 query expansion from the first results (indexing/feedback.py): None as configured.
    expand: bool | None = None

    def params(self, config: Config) -> SearchParams:
        """The configured ranking settings with this request's own choices over them."""
        chosen: dict[str, Any] = {name: getattr(self, name) for name in OVERRIDES
                                  if getattr(self, name) is not None}
        if self.rerank is False:
            chosen["reranker"] = None
        if self.expand is not None:
            chosen["expansion"] = self.expand
        params = config.search_params(**chosen)
        if self.rerank and params.reranker is None:
            raise RerankerNotConfigured()
        return params


class RerankerNotConfigured(Exception):
    """A search asked for the reranking stage where no reranker is configured."""

    def __init__(self) -> None:
        super().__init__("this server has no reranker (PAGEMILL_RERANKER is not set); "
                         "search without `rerank`, or with `rerank: false`")


@dataclass(frozen=True)
class Ranking:
    """How the results were made: the response's ``ranking`` block."""

    fusion: str
    alpha: float
    normalisation: str
    rrf_k: int
    # Which BM25 path ranked the candidates (indexing.search.Hit.bm25_path); None in dense mode.
    bm25_path: str | None
    # Whether the BM25 query was expanded from the first results (RM3).
    expansion: bool = False
    # The reranking stage, when it ran: the model, the depth it reordered, the pairs it scored
    # and the milliseconds that took (model loading on first use included).
    reranker: str | None = None
    rerank_depth: int | None = None
    reranked: int | None = None
    rerank_ms: float | None = None


@dataclass(frozen=True)
class Answer:
    """A search's results and how they were made."""

    hits: list[Hit]
    ranking: Ranking


class SearchFiltersSchema(Schema):
    document_ids = fields.List(Text(), validate=validate.Length(min=1, max=1000))
    job_id = fields.UUID()
    metadata = JsonObject(keys=fields.String())
    mime_types = fields.List(Text(), validate=validate.Length(min=1, max=50))
    indexed_after = Instant(default_timezone=None)
    indexed_before = Instant(default_timezone=None)

    @post_load
    def filters(self, data: dict[str, Any], **_: object) -> Filters:
        after, before = data.get("indexed_after"), data.get("indexed_before")
        return Filters(document_ids=data.get("document_ids"),
                       job_id=str(data["job_id"]) if data.get("job_id") else None,
                       metadata=data.get("metadata"), mime_types=data.get("mime_types"),
                       indexed_after=after.isoformat() if after else None,
                       indexed_before=before.isoformat() if before else None)


class SearchRequestSchema(Schema):
    query = Text(required=True, validate=validate.Length(min=1, max=4096))
    k = fields.Integer(load_default=10, validate=validate.Range(min=1, max=200))
    mode = fields.String(load_default="hybrid", validate=validate.OneOf(MODES))
    collapse = fields.Boolean(load_default=True)
    filters = fields.Nested(SearchFiltersSchema, load_default=Filters)
    # Unset: the server's configuration (PAGEMILL_FUSION, PAGEMILL_ALPHA).
    fusion = fields.String(validate=validate.OneOf(FUSIONS))
    alpha = fields.Float(validate=validate.Range(min=0.0, max=1.0))
    # Unset: PAGEMILL_FUSION_NORMALISATION (zscore).
    normalisation = fields.String(validate=validate.OneOf(NORMALISATIONS), metadata={
        "description": "how weighted fusion scales each branch's scores: zscore (the default) or "
                       "minmax (each branch onto [0, 1], as before 2026-12-04)"})
    ef_search = fields.Integer(validate=validate.Range(min=1, max=1000))
    # Unset: PAGEMILL_BM25_EXACT.  False lets BM25 stop after its last round of early
    # termination with the best candidates found (each exactly scored) instead of reading
    # on until the ranking is proven; the response's bm25_path says 'budget' when it did.
    bm25_exact = fields.Boolean()
    expand = fields.Boolean(metadata={"description": (
        "expand the BM25 query with the terms its best few documents share (pseudo-relevance "
        "feedback, RM3; not in dense mode): unset, as the server is configured "
        "(PAGEMILL_QUERY_EXPANSION, off). Finds documents worded differently, at the cost of "
        "a second BM25 pass; the words searched are then no longer only the query's")})
    rerank = fields.Boolean(metadata={"description": (
        "the reranking stage (a cross-encoder reordering the first rerank_depth results): "
        "unset, as the server is configured (PAGEMILL_RERANKER); false skips it; true requires "
        "it (400 reranker_not_configured when the server has none)")})
    rerank_depth = fields.Integer(validate=validate.Range(min=1, max=200), metadata={
        "description": "how many of the first results the reranker reorders (unset: "
                       "PAGEMILL_RERANK_DEPTH); the results below it keep their order"})
    after_job = fields.UUID(metadata={"description": (
        "a job of the caller's whose outcome this search must see: with search replicas "
        "(PAGEMILL_SEARCH_DATABASE_URLS) the search waits, up to "
        "PAGEMILL_SEARCH_REPLICA_WAIT_SECONDS, for a replica to have replayed the job's end, "
        "else the primary answers; a job still running is searched on the primary. An "
        "unknown job, or another tenant's, is a 404")})

    @post_load
    def search_request(self, data: dict[str, Any], **_: object) -> SearchRequest:
        if data.get("after_job") is not None:
            data["after_job"] = str(data["after_job"])
        return SearchRequest(**data)


def run_search(conn: Connection, tenant_id: str, request: SearchRequest, config: Config,
               query_vector: np.ndarray | None = None, snippets: bool = True) -> list[Hit]:
    return search(conn, tenant_id, request.query, k=request.k, mode=request.mode,
                  collapse=request.collapse, params=request.params(config), query_vector=query_vector,
                  filters=request.filters, snippets=snippets)


def serve_search(runtime: Runtime, tenant_id: str, request: SearchRequest,
                 query_vector: np.ndarray | None = None, snippets: bool = True) -> Served[list[Hit]]:
    """Run the search where this runtime's searches read (a replica, else the primary), after
    the job it names if it names one.  Raises :class:`app.domain.jobs.UnknownJob` when
    ``after_job`` is not the tenant's job."""
    after_lsn, primary = None, False
    if request.after_job is not None:
        with runtime.engine.connect() as conn:  # job state lives on the primary
            after_lsn = jobs.commit_lsn(conn, tenant_id, request.after_job)
        # A job still running (or finished before migration 0028) has no position to wait
        # for: only the primary is sure to hold what it has done so far.
        primary = after_lsn is None
    return runtime.search_reads.run(
        lambda conn: run_search(conn, tenant_id, request, runtime.config, query_vector, snippets),
        after_lsn=after_lsn, primary=primary)


def answer_search(runtime: Runtime, tenant_id: str, request: SearchRequest,
                  query_vector: np.ndarray | None = None, snippets: bool = True) -> Answer:
    """The search as :func:`serve_search` runs it, then the reranking stage when it is on: the
    statement returns the first ``rerank_depth`` results (at least ``k``), the cross-encoder
    reorders them outside the read's transaction, and the first ``k`` are kept.  Raises
    :class:`RerankerNotConfigured` and :class:`indexing.reranking.RerankerUnavailable`."""
    params = request.params(runtime.config)
    ranking = Ranking(fusion=params.fusion, alpha=params.alpha, normalisation=params.normalisation,
                      rrf_k=params.rrf_k, bm25_path=None,
                      expansion=params.expansion and request.mode != "dense")
    if params.reranker is None:
        hits = serve_search(runtime, tenant_id, request, query_vector, snippets).value
        return Answer(hits, replace(ranking, bm25_path=hits[0].bm25_path if hits else None))
    depth = request.rerank_depth or params.rerank_depth
    wider = replace(request, k=max(request.k, depth))
    hits = serve_search(runtime, tenant_id, wider, query_vector, snippets).value
    reranked = reranking.rerank(params.reranker, request.query, hits, depth, request.k)
    return Answer(reranked.hits, replace(
        ranking, bm25_path=hits[0].bm25_path if hits else None, reranker=reranked.reranker,
        rerank_depth=depth, reranked=reranked.scored, rerank_ms=round(reranked.seconds * 1000.0, 3)))
