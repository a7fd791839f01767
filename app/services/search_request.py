"""A search as a caller asks for it — the API's body or the CLI's options, both loaded through
:class:`SearchRequestSchema` — and the one place that turns it into the ranking settings and
filters :func:`indexing.search.search` runs with, so the two entry points cannot drift apart;
:func:`serve_search` runs it where the runtime's searches read (a replica, or the primary:
app/domain/search_reads.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from marshmallow import Schema, fields, post_load, validate
from sqlalchemy import Connection

from app.config import Config
from app.domain import jobs
from app.domain.search_reads import Served
from app.domain.storable import Instant, JsonObject, Text
from app.runtime import Runtime
from indexing.ranking import FUSIONS
from indexing.search import MODES, Filters, Fusion, Hit, Mode, SearchParams, search

# What a request may choose for itself; unset, the server's configuration decides.
OVERRIDES = ("fusion", "alpha", "ef_search", "bm25_exact")


@dataclass(frozen=True)
class SearchRequest:
    query: str
    k: int = 10
    mode: Mode = "hybrid"
    # One result per document (its best chunk), or every chunk.
    collapse: bool = True
    fusion: Fusion | None = None
    alpha: float | None = None
    ef_search: int | None = None
    bm25_exact: bool | None = None
    filters: Filters = field(default_factory=Filters)
    # A job whose outcome the search must see (read-your-writes on a replica).
    after_job: str | None = None

    def params(self, config: Config) -> SearchParams:
        """The configured ranking settings with this request's own choices over them."""
        chosen: dict[str, Any] = {name: getattr(self, name) for name in OVERRIDES
                                  if getattr(self, name) is not None}
        return config.search_params(**chosen)


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
    ef_search = fields.Integer(validate=validate.Range(min=1, max=1000))
    # Unset: PAGEMILL_BM25_EXACT.  False lets BM25 stop after its last round of early
    # termination with the best candidates found (each exactly scored) instead of reading
    # on until the ranking is proven; the response's bm25_path says 'budget' when it did.
    bm25_exact = fields.Boolean()
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
