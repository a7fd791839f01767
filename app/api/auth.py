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

# The 401s' messages, the same on /mcp (app/mcp/http_endpoint.py).
MISSING_KEY = "missing API key: send 'Authorization: Bearer <key>'"
INVALID_KEY = "invalid or revoked API key"


def bearer_key(authorization: str) -> str | None:
    """The key of an ``Authorization: Bearer <key>`` header; ``None`` without one."""
    scheme, _, key = authorization.partition(" ")
    return key.strip() if scheme.lower() == "bearer" and key.strip() else None


def authenticate_request() -> None:
    if request.method == "OPTIONS":
        return  # Flask answers it with the allowed methods; CORS preflights carry no key
    key = bearer_key(request.headers.get("Authorization", ""))
    if key is None:
        raise ApiError(401, "unauthorized", MISSING_KEY)
    with runtime().engine.begin() as conn:
        principal = authenticate(conn, key)
        decision = None if principal is None else decide_request_rate(conn, principal)
    if principal is None:
        raise ApiError(401, "unauthorized", INVALID_KEY)
    g.principal = principal
    log_context.bind(tenant_id=principal.tenant_id)
    enforce_request_rate(decision)


def keyed_blueprint(name: str, import_name: str, url_prefix: str | None = None) -> Blueprint:
    """A Blueprint whose every route needs an API key, within the key's rate limit."""
    blueprint = Blueprint(name, import_name, url_prefix=url_prefix)
    blueprint.before_request(authenticate_request)
    blueprint.after_request(add_rate_limit_fields)
    return blueprint
