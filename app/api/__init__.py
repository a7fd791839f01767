"""The HTTP API: a Flask application factory and one Blueprint per resource.

Where things are: routes in ``app/api/<resource>.py`` (jobs, documents, search, parse, uploads,
meta, usage, webhooks), what they accept in ``requests.py``, what they answer in
``responses.py``, the error body in ``errors.py``, API keys in ``auth.py``; ``openapi.py``
describes them all from the same schemas.  Every ``/v1`` query filters by the caller's tenant;
another tenant's job is a 404.
"""

from __future__ import annotations

from typing import Any

from flask import Flask

from app.api import documents, jobs, meta, metrics, parse, search, tracing, uploads, usage, web, webhooks
from app.api.context import EXTENSION
from app.api.errors import JsonErrorRequestHandler, register_error_handlers
from app.api.requests import MAX_JSON_DEPTH, ApiJsonProvider, refuse_unstorable_arguments
from app.config import Config
from app.infra import traces

BLUEPRINTS = (meta.blueprint, jobs.blueprint, documents.blueprint, search.blueprint, parse.blueprint,
              uploads.blueprint, usage.blueprint, webhooks.blueprint, web.blueprint, metrics.blueprint)


class ApiApp(Flask):
    """Flask, parsing JSON with the nesting-depth limit (app/api/requests.py), and whose
    development server (``app.run``, what ``pagemill serve`` starts) answers its own refusals
    (414, 431, ...) in the API's JSON error body too."""

    json_provider_class = ApiJsonProvider

    def run(self, host: str | None = None, port: int | None = None, debug: bool | None = None,
            load_dotenv: bool = True, **options: Any) -> None:
        options.setdefault("request_handler", JsonErrorRequestHandler)
        super().run(host, port, debug, load_dotenv, **options)


def create_app(config: Config | None = None) -> Flask:
    """An API application for ``config`` (by default read from the environment).  Nothing
    here touches the database: the engine is made on the first request that needs it."""
    from app.runtime import Runtime

    config = config or Config.from_env()
    app = ApiApp("pagemill")
    app.config["MAX_CONTENT_LENGTH"] = config.api.max_request_bytes
    app.config[MAX_JSON_DEPTH] = config.api.max_json_depth
    app.extensions[EXTENSION] = Runtime(config)
    register_error_handlers(app)
    # Before every Blueprint's own (authentication): no view reads an unstorable argument.
    app.before_request(refuse_unstorable_arguments)
    tracing.install(app)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    # OpenTelemetry, when OTEL_EXPORTER_OTLP_ENDPOINT says so: a span per request.
    if traces.start(config.tracing, "api"):
        traces.instrument_flask(app)
    return app
