"""Routes about the service itself, all without an API key: liveness, the OpenAPI
description and the interactive docs (Swagger UI from the swagger-ui-bundle wheel, no CDN)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, send_from_directory
from sqlalchemy import text

from app.api.context import config, runtime
from app.api.errors import error_response
from app.api.openapi import Answer, build_spec, documented
from app.api.responses import ErrorSchema, HealthSchema

blueprint = Blueprint("meta", __name__)

_SWAGGER_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>pagemill API</title>
<link rel="stylesheet" href="/docs/static/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/static/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({url: "/openapi.json", dom_id: "#ui", persistAuthorization: true});</script>
</body></html>
"""
_SPEC = "pagemill.openapi"


@blueprint.get("/healthz")
@documented("Liveness and database reachability",
            responses={200: Answer(HealthSchema, "healthy"),
                       503: Answer(ErrorSchema, "database unreachable")})
def healthz() -> Response:
    try:
        with runtime().engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:  # report, do not crash the probe
        return error_response(503, "database_unavailable", str(exc).splitlines()[0])
    return jsonify(HealthSchema().dump({"status": "ok"}))


@blueprint.get("/openapi.json")
def openapi() -> Response:
    if _SPEC not in current_app.extensions:
        current_app.extensions[_SPEC] = build_spec(current_app, config())
    return jsonify(current_app.extensions[_SPEC])


@blueprint.get("/docs")
def docs() -> Response:
    """Interactive API docs reading /openapi.json; "Authorize" takes the API key."""
    return Response(_SWAGGER_PAGE, mimetype="text/html")


@blueprint.get("/docs/static/<path:name>")
def docs_static(name: str) -> Response:
    from swagger_ui_bundle import swagger_ui_path

    return send_from_directory(swagger_ui_path, name, max_age=3600)
