"""The HTTP API: a Flask application factory and one Blueprint per resource.

Where things are: routes in ``app/api/<resource>.py`` (jobs, documents, search, parse, uploads,
meta), what they accept in ``requests.py``, what they answer in ``responses.py``, the error
body in ``errors.py``, API keys in ``auth.py``; ``openapi.py`` describes them all from the same
schemas.  Every ``/v1`` query filters by the caller's tenant; another tenant's job is a 404.
"""

from __future__ import annotations

from flask import Flask

from app.api import documents, jobs, meta, parse, search, uploads
from app.api.context import EXTENSION
from app.api.errors import register_error_handlers
from app.config import Config

BLUEPRINTS = (meta.blueprint, jobs.blueprint, documents.blueprint, search.blueprint, parse.blueprint,
              uploads.blueprint)


def create_app(config: Config | None = None) -> Flask:
    """An API application for ``config`` (by default read from the environment).  Nothing
    here touches the database: the engine is made on the first request that needs it."""
    from tasks.runtime import Runtime

    config = config or Config.from_env()
    app = Flask("pagemill")
    app.config["MAX_CONTENT_LENGTH"] = config.max_request_bytes
    app.extensions[EXTENSION] = Runtime(config)
    register_error_handlers(app)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    return app
