"""API-key authentication: every ``/v1`` Blueprint runs :func:`authenticate_request` before
its views, so no route can forget it; the key's rate limit is checked in the same transaction
(app/api/rate_limiting.py).  Keys and their storage are :mod:`app.domain.auth`'s."""

from __future__ import annotations

from flask import Blueprint, g, request

from app.api.context import runtime
from app.api.errors import ApiError
from app.api.rate_limiting import add_rate_limit_fields, decide_request_rate, enforce_request_rate
from app.domain.auth import authenticate
from app.infra import log_context


def authenticate_request() -> None:
    if request.method == "OPTIONS":
        return  # Flask answers it with the allowed methods; CORS preflights carry no key
    header = request.headers.get("Authorization", "")
    scheme, _, key = header.partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        raise ApiError(401, "unauthorized", "missing API key: send 'Authorization: Bearer <key>'")
    with runtime().engine.begin() as conn:
        principal = authenticate(conn, key.strip())
        decision = None if principal is None else decide_request_rate(conn, principal)
    if principal is None:
        raise ApiError(401, "unauthorized", "invalid or revoked API key")
    g.principal = principal
    log_context.bind(tenant_id=principal.tenant_id)
    enforce_request_rate(decision)


def keyed_blueprint(name: str, import_name: str, url_prefix: str | None = None) -> Blueprint:
    """A Blueprint whose every route needs an API key, within the key's rate limit."""
    blueprint = Blueprint(name, import_name, url_prefix=url_prefix)
    blueprint.before_request(authenticate_request)
    blueprint.after_request(add_rate_limit_fields)
    return blueprint
