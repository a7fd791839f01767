"""``GET /metrics``: Prometheus's text format, without an API key (app/infra/metrics/ says what is
in it), and the timing of every API request into ``pagemill_http_request_seconds``.

It is open like ``/healthz``; to restrict it, set ``PAGEMILL_METRICS_TOKEN`` (a scrape must
then send ``Authorization: Bearer <token>``, Prometheus's ``authorization`` setting), or let
the reverse proxy in front of the API refuse ``/metrics`` from outside.
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from flask import Blueprint, Response, current_app, g, request
from flask.blueprints import BlueprintSetupState

from app.api.context import config, runtime
from app.api.errors import error_response
from app.api.openapi import Answer, documented
from app.api.responses import ErrorSchema
from app.infra import metrics

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from app.domain.database_gauges import DatabaseGauges

blueprint = Blueprint("metrics", __name__)

_GAUGES = "pagemill.metrics.database"
_STARTED = "pagemill_request_started"
_BROKER_TRANSPORT = "pagemill+"


def _start_timer() -> None:
    setattr(g, _STARTED, time.perf_counter())


def _time_request(response: Response) -> Response:
    started = getattr(g, _STARTED, None)
    if started is not None:
        # The URL rule, not the path: one series per route, however many ids are asked for.
        route = request.url_rule.rule if request.url_rule is not None else "unmatched"
        metrics.observe_request(route, response.status_code, time.perf_counter() - started)
    return response


@blueprint.record_once
def _install_timing(state: BlueprintSetupState) -> None:
    # First of every before_request function: a request another one refuses is timed too.
    state.app.before_request_funcs.setdefault(None, []).insert(0, _start_timer)
    state.app.after_request(_time_request)


@blueprint.get("/metrics")
@documented("Prometheus metrics of every pagemill process on this machine and of the database "
            "(no API key; a bearer token when PAGEMILL_METRICS_TOKEN is set)",
            responses={200: Answer({"type": "string"}, "the Prometheus text format", "text/plain"),
                       401: Answer(ErrorSchema, "PAGEMILL_METRICS_TOKEN is set and the request "
                                                "does not carry it")})
def scrape() -> Response:
    token = config().metrics.token
    if token is not None and not hmac.compare_digest(
            request.headers.get("Authorization", "").encode(), f"Bearer {token}".encode()):
        return error_response(401, "unauthorized", "/metrics needs the bearer token set by "
                                                   "PAGEMILL_METRICS_TOKEN")
    metrics.series_module()  # this process's sample directory, before prometheus_client loads
    from app.infra.metrics import exposition

    body = exposition.scrape(config().metrics_samples_dir, _database_gauges())
    return Response(body, content_type=exposition.CONTENT_TYPE)


def _database_gauges() -> DatabaseGauges:
    gauges: DatabaseGauges | None = current_app.extensions.get(_GAUGES)
    if gauges is None:
        from app.domain.database_gauges import DatabaseGauges, task_queue_names

        gauges = current_app.extensions[_GAUGES] = DatabaseGauges(
            engine=lambda: runtime().engine, broker=_broker_engine(), queues=task_queue_names(),
            ttl=config().metrics.cache_seconds)
    return gauges


def _broker_engine() -> Callable[[], Engine | None]:
    """Where the broker's messages are: pagemill's database (no ``BROKER_URL``), the database
    a ``pagemill+postgresql://`` URL names, or nowhere this API can count (Redis, RabbitMQ)."""
    broker_url = config().broker.url
    state = runtime()
    if broker_url is None:
        return lambda: state.engine
    if broker_url.startswith(_BROKER_TRANSPORT):
        from tasks.broker.database import engine_for

        url = broker_url.removeprefix(_BROKER_TRANSPORT)
        return lambda: engine_for(url)
    return lambda: None
