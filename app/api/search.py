"""Search: hybrid, BM25 or dense over the caller's documents."""

from __future__ import annotations

from flask import Response, jsonify, request

from app.api.auth import keyed_blueprint
from app.api.context import runtime, tenant_id
from app.api.errors import ApiError
from app.api.openapi import Answer, documented
from app.api.requests import load_json
from app.api.responses import SearchResultsSchema
from app.domain.jobs import UnknownJob
from app.services.search_request import (
    RerankerNotConfigured,
    SearchRequest,
    SearchRequestSchema,
    answer_search,
)
from indexing.embedding import EmbedderUnavailable
from indexing.reranking import RerankerUnavailable

blueprint = keyed_blueprint("search", __name__, url_prefix="/v1/search")


@blueprint.post("")
@documented("Hybrid, BM25 or dense search over the caller's documents (read from a search "
            "replica when PAGEMILL_SEARCH_DATABASE_URLS names some; `after_job` to see a finished job)",
            body={"application/json": SearchRequestSchema},
            responses={200: Answer(SearchResultsSchema, "ranked results")}, errors=(400, 404, 503))
def search() -> Response:
    wanted: SearchRequest = load_json(SearchRequestSchema(), request.get_json(silent=True) or {})
    try:
        answer = answer_search(runtime(), tenant_id(), wanted)
    except UnknownJob as exc:  # after_job names no job of the caller's
        raise ApiError(404, "not_found", f"job {wanted.after_job} not found",
                       {"after_job": wanted.after_job}) from exc
    except EmbedderUnavailable as exc:  # the tenant's pinned embedder cannot run here
        raise ApiError(503, "embedder_unavailable", str(exc), {"embedder": exc.embedder}) from exc
    except RerankerNotConfigured as exc:
        raise ApiError(400, "reranker_not_configured", str(exc)) from exc
    except RerankerUnavailable as exc:  # PAGEMILL_RERANKER names no loadable model
        raise ApiError(503, "reranker_unavailable", str(exc), {"reranker": exc.reranker}) from exc
    # One BM25 path per search: said once, beside the results (and in `ranking`).
    return jsonify(SearchResultsSchema().dump({
        "query": wanted.query, "mode": wanted.mode, "fusion": answer.ranking.fusion,
        "bm25_path": answer.ranking.bm25_path, "ranking": answer.ranking, "results": answer.hits}))
