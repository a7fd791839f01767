"""Search: hybrid, BM25 or dense over the caller's documents."""

from __future__ import annotations

from flask import Response, jsonify, request

from app.api.auth import keyed_blueprint
from app.api.context import config, runtime, tenant_id
from app.api.errors import ApiError
from app.api.openapi import Answer, documented
from app.api.requests import load_json
from app.api.responses import SearchResultsSchema
from app.domain.jobs import UnknownJob
from app.services.search_request import SearchRequest, SearchRequestSchema, serve_search
from indexing.embedding import EmbedderUnavailable

blueprint = keyed_blueprint("search", __name__, url_prefix="/v1/search")


@blueprint.post("")
@documented("Hybrid, BM25 or dense search over the caller's documents (read from a search "
            "replica when PAGEMILL_SEARCH_DATABASE_URLS names some; `after_job` to see a finished job)",
            body={"application/json": SearchRequestSchema},
            responses={200: Answer(SearchResultsSchema, "ranked results")}, errors=(400, 404, 503))
def search() -> Response:
    wanted: SearchRequest = load_json(SearchRequestSchema(), request.get_json(silent=True) or {})
    try:
        hits = serve_search(runtime(), tenant_id(), wanted).value
    except UnknownJob as exc:  # after_job names no job of the caller's
        raise ApiError(404, "not_found", f"job {wanted.after_job} not found",
                       {"after_job": wanted.after_job}) from exc
    except EmbedderUnavailable as exc:  # the tenant's pinned embedder cannot run here
        raise ApiError(503, "embedder_unavailable", str(exc), {"embedder": exc.embedder}) from exc
    # One BM25 path per search: said once, beside the results.
    return jsonify(SearchResultsSchema().dump({
        "query": wanted.query, "mode": wanted.mode, "fusion": wanted.params(config()).fusion,
        "bm25_path": hits[0].bm25_path if hits else None, "results": hits}))
