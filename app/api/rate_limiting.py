"""Request rate limits on the ``/v1`` routes: each authenticated request is decided by
:mod:`app.domain.rate_limits` in the transaction that authenticated it (one more statement, no
connection of its own), before any view runs, so a refused request stores and queues nothing.
Every response to an authenticated request carries ``RateLimit-Policy`` and ``RateLimit``; a
refusal is a 429 with ``Retry-After`` and the usual error body."""

from __future__ import annotations

from flask import Response, g
from sqlalchemy import Connection

from app.api.context import config
from app.api.errors import ApiError
from app.domain.auth import Principal
from app.domain.rate_limits import RateDecision, admit, policy_for

# Where the request's decision waits for its response (g is per request).
_DECISION = "rate_limit_decision"


def decide_request_rate(conn: Connection, principal: Principal) -> RateDecision | None:
    """The decision on this request of ``principal``'s key, recorded on ``conn``; None when
    the key has no limit (configured 0, or the key's own 0)."""
    settings = config()
    per_minute = (principal.rate_limit_per_minute if principal.rate_limit_per_minute is not None
                  else settings.limits.rate_limit_per_minute)
    policy = policy_for(per_minute, settings.limits.rate_limit_burst)
    if not policy.enabled or principal.key_id is None:
        return None
    return admit(conn, principal.key_id, policy)


def enforce_request_rate(decision: RateDecision | None) -> None:
    """Keep the decision for the response's fields; refuse the request if it was over."""
    if decision is None:
        return
    setattr(g, _DECISION, decision)
    if not decision.admitted:
        raise ApiError(429, "rate_limited",
                       f"over this API key's limit of {decision.policy.per_minute} requests a minute; "
                       f"retry in {decision.retry_after} s",
                       {"retry_after": decision.retry_after, "limit": decision.policy.per_minute,
                        "window": 60})


def add_rate_limit_fields(response: Response) -> Response:
    """After every ``/v1`` view (and every refusal, the 429 included): the key's limit and
    what is left of it, when the request was authenticated and the key is limited."""
    decision: RateDecision | None = g.get(_DECISION)
    if decision is not None:
        response.headers.update(decision.headers())
    return response
