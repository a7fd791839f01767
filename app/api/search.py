"""Search: hybrid, BM25 or dense over the caller's documents."""

from __future__ import annotations

from flask import Response, jsonify, request

from app.api.auth import keyed_blueprint
from app.api.context import config, runtime, tenant_id
from app.api.errors import ApiError
from app.api.openapi import Answer, documented
from app.api.requests import load_json
from app.api.responses import SearchResultsSchema
from app.services.search_request import SearchRequest, SearchRequestSchema, run_search
from indexing.embedding import EmbedderUnavailable

blueprint = keyed_blueprint("search", __name__, url_prefix="/v1/search")


@blueprint.post("")
@documented("Hybrid, BM25 or dense search over the caller's documents",
            body={"application/json": SearchRequestSchema},
            responses={200: Answer(SearchResultsSchema, "ranked results")}, errors=(400, 503))
def search() -> Response:
    wanted: SearchRequest = load_json(SearchRequestSchema(), request.get_json(silent=True) or {})
    try:
        with runtime().engine.begin() as conn:
            hits = run_search(conn, tenant_id(), wanted, config())
    except EmbedderUnavailable as exc:  # the tenant's pinned embedder cannot run here
        raise ApiError(503, "embedder_unavailable", str(exc), {"embedder": exc.embedder}) from exc
    # One BM25 path per search: said once, beside the results.
    return jsonify(SearchResultsSchema().dump({
        "query": wanted.query, "mode": wanted.mode, "fusion": wanted.params(config()).fusion,
        "bm25_path": hits[0].bm25_path if hits else None, "results": hits}))
