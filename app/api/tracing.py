"""Every request's id: the client's ``X-Request-ID`` when plausible, else a new ULID
(app/infra/request_ids.py), bound for the request's log lines (app/infra/log_context.py), stored with the
jobs it creates (app/services/submission.py), and echoed in the response's ``X-Request-ID`` -- error
responses included -- so that a client can quote it and an operator find every line it caused,
in the API and in the workers."""

from __future__ import annotations

import logging
import time

from flask import Flask, Response, g, request

from app.infra import log_context
from app.infra.request_ids import HEADER, request_id_from

log = logging.getLogger(__name__)


def start_request() -> None:
    g.started = time.monotonic()
    g.request_id = request_id_from(request.headers.get(HEADER))
    log_context.start(request_id=g.request_id)


def echo_request_id(response: Response) -> Response:
    request_id = g.get("request_id")
    if request_id:
        response.headers[HEADER] = request_id
    # One line per request: INFO, or WARNING for a 5xx, which an operator must see at the
    # default level.  The route is the URL rule (ids would make every line unique), the path
    # only when no rule matched.
    route = request.url_rule.rule if request.url_rule is not None else request.path[:200]
    log.log(logging.WARNING if response.status_code >= 500 else logging.INFO,
            "%s %s %s", request.method, route, response.status_code,
            extra={"method": request.method, "route": route, "status": response.status_code,
                   "duration_s": round(time.monotonic() - g.get("started", time.monotonic()), 4)})
    return response


def end_request(_exc: BaseException | None = None) -> None:
    log_context.end()


def install(app: Flask) -> None:
    """First of the application's hooks: everything after it (argument checks, authentication,
    views, error handlers) logs with the request's id."""
    app.before_request_funcs.setdefault(None, []).insert(0, start_request)
    app.after_request(echo_request_id)
    app.teardown_request(end_request)
