"""Routes about the service itself, all without an API key: liveness (``/healthz``: the
process answers and reaches its database), readiness (``/readyz``: it can also do the work),
the OpenAPI description and the interactive docs (Swagger UI from the swagger-ui-bundle wheel,
no CDN)."""

from __future__ import annotations

import logging
import time
from typing import cast

from flask import Blueprint, Response, current_app, jsonify, send_from_directory
from sqlalchemy import Connection

from app.api.context import config, runtime
from app.api.errors import error_response
from app.api.openapi import Answer, build_spec, documented
from app.api.responses import ErrorSchema, HealthSchema
from app.api.web import secure_page
from app.domain.statements import health as sql
from app.domain.worker_heartbeats import STALE_AFTER_SECONDS, live_workers
from app.services.readiness import connect_broker, missing_broker_client, schema_problem
from indexing.embedding import model_missing

log = logging.getLogger(__name__)

blueprint = Blueprint("meta", __name__)

# No inline script: the page is served with the web page's Content-Security-Policy
# (script-src 'self'), so Swagger UI is started by /docs/init.js, which reads the
# description's URL from the page.
_SWAGGER_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>pagemill API</title>
<link rel="stylesheet" href="/docs/static/swagger-ui.css"></head>
<body><div id="ui" data-spec="/openapi.json"></div>
<script src="/docs/static/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body></html>
"""
# The key pasted into "Authorize" lives in the page's memory only: persistAuthorization would
# keep it in localStorage, readable by any script of this origin and left on shared machines.
# What an earlier release stored there is removed.  validatorUrl null: the spec is not sent
# to swagger.io's validator (nor its badge loaded, which the policy would block anyway).
_SWAGGER_INIT = """"use strict";
try { window.localStorage.removeItem("authorized"); } catch (e) { /* storage disabled */ }
SwaggerUIBundle({url: document.getElementById("ui").dataset.spec, dom_id: "#ui",
                 persistAuthorization: false, validatorUrl: null});
"""
_SPEC = "pagemill.openapi"


@blueprint.get("/healthz")
@documented("Liveness and database reachability",
            responses={200: Answer(HealthSchema, "healthy"),
                       503: Answer(ErrorSchema, "database unreachable")})
def healthz() -> Response:
    try:
        with runtime().engine.connect() as conn:
            conn.execute(sql.PING)
    except Exception as exc:  # report, do not crash the probe
        return error_response(503, "database_unavailable", _unreachable(exc))
    return jsonify(HealthSchema().dump({"status": "ok"}))


def _unreachable(exc: Exception) -> str:
    """What an unauthenticated probe is told: the kind of failure, not the server's address,
    user or message, which go to the log."""
    log.warning("database unreachable from a health probe: %s", exc)
    return f"database unreachable ({type(exc).__name__}; the server's log has the details)"


@blueprint.get("/readyz")
@documented("Readiness: the database reachable, its schema at the newest migration, the broker "
            "reachable (BROKER_URL), the embedding model's files in place, and a live "
            f"worker (one whose heartbeat is under {STALE_AFTER_SECONDS} s old)",
            responses={200: Answer(HealthSchema, "ready"),
                       503: Answer(ErrorSchema, "not ready: error.details names each failed check "
                                                "(database, schema, broker, model, worker) with "
                                                "what is wrong")})
def readyz() -> Response:
    try:
        with runtime().engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            problems = _readiness_problems(conn)
    except Exception as exc:  # report, do not crash the probe
        problems = {"database": _unreachable(exc)}
    if problems:
        return error_response(503, "not_ready", "not ready: " + ", ".join(sorted(problems)),
                              problems)
    return jsonify(HealthSchema().dump({"status": "ok"}))


def _readiness_problems(conn: Connection) -> dict[str, str]:
    """What keeps this deployment from doing work, by check; each check runs even when
    another failed (autocommit: a failed statement does not abort the next)."""
    problems = {}
    try:
        schema = schema_problem(conn)
        if schema is not None:
            problems["schema"] = schema
    except Exception as exc:
        log.warning("readiness: cannot read the schema's revision: %s", exc)
        problems["schema"] = f"cannot read the schema's revision ({type(exc).__name__})"
    missing = model_missing()
    if missing is not None:
        problems["model"] = missing
    broker = _broker_problem()
    if broker is not None:
        problems["broker"] = broker
    try:
        if not live_workers(conn):
            problems["worker"] = (f"no worker heartbeat in the last {STALE_AFTER_SECONDS} s: "
                                  "start one (`pagemill worker`, `celery -A tasks worker`)")
    except Exception as exc:
        log.warning("readiness: cannot read worker heartbeats: %s", exc)
        problems["worker"] = f"cannot read worker heartbeats ({type(exc).__name__})"
    return problems


# A broker other than the database (BROKER_URL) is probed at most this often.
_BROKER_PROBE_SECONDS = 10.0
_BROKER_PROBE = "pagemill.broker_probe"


def _broker_problem() -> str | None:
    """Whether ``BROKER_URL``'s broker accepts a connection (with the default broker -- the
    database's own tables -- the database check says it).  The answer is kept a few seconds:
    probes come every few seconds and a connection to RabbitMQ costs a handshake."""
    url = config().broker.url
    if not url:
        return None
    now = time.monotonic()
    cached = current_app.extensions.get(_BROKER_PROBE)
    if cached is not None and now - cached[0] < _BROKER_PROBE_SECONDS:
        return cast("str | None", cached[1])
    problem = missing_broker_client(url)
    try:
        if problem is None:
            connect_broker(url, timeout=3)
    except Exception as exc:  # any failure to connect is the answer, not a crash
        log.warning("readiness: the broker is unreachable: %s", exc)
        problem = f"the broker (BROKER_URL) is unreachable ({type(exc).__name__}; see the log)"
    current_app.extensions[_BROKER_PROBE] = (now, problem)
    return problem


@blueprint.get("/openapi.json")
def openapi() -> Response:
    if _SPEC not in current_app.extensions:
        current_app.extensions[_SPEC] = build_spec(current_app, config())
    return jsonify(current_app.extensions[_SPEC])


@blueprint.get("/docs")
def docs() -> Response:
    """Interactive API docs reading /openapi.json; "Authorize" takes the API key."""
    return secure_page(Response(_SWAGGER_PAGE, mimetype="text/html"))


@blueprint.get("/docs/init.js")
def docs_script() -> Response:
    """Starts Swagger UI on /docs (a file of its own: the page's policy allows no inline script)."""
    return secure_page(Response(_SWAGGER_INIT, mimetype="text/javascript"))


@blueprint.get("/docs/static/<path:name>")
def docs_static(name: str) -> Response:
    from swagger_ui_bundle import swagger_ui_path

    return secure_page(send_from_directory(swagger_ui_path, name, max_age=3600))
