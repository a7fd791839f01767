"""Webhook endpoints and deliveries: subscribing, claiming due deliveries and recording what
each attempt got (the statements: app/domain/statements/webhooks.py).  Events are not written here:
triggers write them to the outbox in the transaction of the change they report, and fan each
one out to a delivery per endpoint that wants it (migration 0016).

The schedule lives in the database.  A ``pending`` delivery is due at its ``next_attempt_at``;
:func:`claim_due` takes due rows with ``FOR UPDATE SKIP LOCKED`` (concurrent claimers never
wait for one another nor take the same row) and pushes ``next_attempt_at`` past the attempt
(a lease) in the same statement, so no lock is held while the request is in flight and a
worker killed mid-attempt leaves the row due again when its lease ends: delivery is at least
once, and the receiver deduplicates on ``webhook-id``, the event's id, the same on every
attempt.  :func:`record_outcome` then settles the row: ``delivered``; retried after the next
delay of the schedule (jittered, and never sooner than the receiver's Retry-After); ``dead``
after the last attempt, or at once on a final 4xx, writing a ``webhook.exhausted`` event
(which other endpoints of the tenant can subscribe to); or, on 410 Gone, the endpoint is
disabled and its pending deliveries with it.

Every statement that reads for a caller filters by tenant; another tenant's endpoint is a 404.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection

from app.config import WebhooksConfig
from app.domain.jobs import is_uuid
from app.domain.rows import from_row
from app.domain.statements import webhooks as sql
from app.infra.webhook_delivery import AttemptOutcome

JOB_EVENTS = ("job.completed", "job.completed_with_errors", "job.failed", "job.cancelled")
DOCUMENT_EVENTS = ("document.completed", "document.failed")
EXHAUSTED = "webhook.exhausted"
EVENT_TYPES = (*JOB_EVENTS, *DOCUMENT_EVENTS, EXHAUSTED)
DELIVERY_STATES = ("pending", "delivered", "dead", "disabled")
# Bounds the fan-out of one event (and what one tenant can make the workers send).
MAX_ENDPOINTS_PER_TENANT = 20
# After a rotation the previous secret signs too for this long (two v1 entries per header).
ROTATION_OVERLAP_HOURS = 24
# Each retry's delay is moved by up to this fraction either way, so that receivers that
# failed together are not all retried at the same instant.
JITTER = 0.1
# The webhook-id of outbox row n: ids must not contain "." (it delimits the signed content).
EVENT_ID_PREFIX = "evt_"
_EVENT_ID = re.compile(r"^evt_([1-9][0-9]{0,17})$")


class TooManyEndpoints(Exception):
    pass


@dataclass(frozen=True)
class Endpoint:
    id: str
    url: str
    events: list[str]
    description: str | None
    created_at: datetime
    updated_at: datetime
    disabled_at: datetime | None
    disabled_reason: str | None
    # Until then the previous secret signs too (None: no rotation overlap now).
    previous_secret_expires_at: datetime | None


@dataclass(frozen=True)
class Attempt:
    attempted_at: datetime
    status_code: int | None
    error: str | None
    duration_ms: int


@dataclass(frozen=True)
class Delivery:
    """One event's delivery to one endpoint, with every attempt made."""

    event_id: str
    type: str
    status: str
    attempt_count: int
    next_attempt_at: datetime | None
    last_status_code: int | None
    last_error: str | None
    created_at: datetime
    delivered_at: datetime | None
    attempts: list[Attempt] = field(default_factory=list)


@dataclass(frozen=True)
class ClaimedDelivery:
    """A due delivery taken by a worker, with what it needs to send it."""

    id: int
    attempts: int
    event_id: int
    endpoint_id: str
    tenant_id: str
    url: str
    topic: str
    # Fernet tokens of the signing secrets: the current one, then the previous one while the
    # rotation's overlap lasts.
    secret_tokens: list[str]
    body: bytes

    @property
    def message_id(self) -> str:
        return event_id_text(self.event_id)


def event_id_text(event_id: int) -> str:
    return f"{EVENT_ID_PREFIX}{event_id}"


def parse_event_id(value: str) -> int | None:
    match = _EVENT_ID.match(value)
    return int(match.group(1)) if match else None


def event_body(topic: str, created_at: datetime, payload: dict[str, Any]) -> bytes:
    """The request body: ``{"type", "timestamp", "data"}``, minified, the same bytes on every
    attempt (jsonb returns keys in a stable order)."""
    moment = created_at.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")
    return json.dumps({"type": topic, "timestamp": moment, "data": payload},
                      separators=(",", ":"), ensure_ascii=False).encode()


def create_endpoint(conn: Connection, tenant_id: str, url: str, events: Sequence[str],
                    description: str | None, secret_token: str) -> Endpoint:
    """A new endpoint; ``secret_token`` is its signing secret already encrypted.  Raises
    :class:`TooManyEndpoints` over the tenant's limit."""
    # The tenant row lock orders concurrent creations, so that the count below holds (NO KEY:
    # rows inserted for the tenant elsewhere, which only share its key, do not wait for it).
    conn.execute(sql.LOCK_TENANT_FOR_ENDPOINTS, {"tenant": tenant_id})
    count = conn.execute(sql.COUNT_ENDPOINTS, {"tenant": tenant_id}).scalar_one()
    if count >= MAX_ENDPOINTS_PER_TENANT:
        raise TooManyEndpoints(f"a tenant has at most {MAX_ENDPOINTS_PER_TENANT} webhook endpoints")
    row = conn.execute(sql.INSERT_ENDPOINT, {
        "tenant": tenant_id, "url": url, "events": sorted(set(events)),
        "description": description, "secret": secret_token}).mappings().one()
    return from_row(Endpoint, row)


def list_endpoints(conn: Connection, tenant_id: str, limit: int, offset: int) -> list[Endpoint]:
    rows = conn.execute(sql.LIST_ENDPOINTS, {
        "tenant": tenant_id, "limit": limit, "offset": offset}).mappings().all()
    return [from_row(Endpoint, r) for r in rows]


def get_endpoint(conn: Connection, tenant_id: str, endpoint_id: str) -> Endpoint | None:
    if not is_uuid(endpoint_id):
        return None
    row = conn.execute(sql.GET_ENDPOINT, {"id": endpoint_id, "tenant": tenant_id}).mappings().one_or_none()
    return from_row(Endpoint, row) if row else None


def delete_endpoint(conn: Connection, tenant_id: str, endpoint_id: str) -> bool:
    """Remove an endpoint with its deliveries and attempts."""
    if not is_uuid(endpoint_id):
        return False
    return conn.execute(sql.DELETE_ENDPOINT, {"id": endpoint_id, "tenant": tenant_id}).rowcount == 1


def rotate_secret(conn: Connection, tenant_id: str, endpoint_id: str,
                  secret_token: str) -> Endpoint | None:
    """Make ``secret_token`` the signing secret; the current one keeps signing for
    ``ROTATION_OVERLAP_HOURS`` (a second rotation within that time ends the oldest's)."""
    if not is_uuid(endpoint_id):
        return None
    row = conn.execute(sql.ROTATE_SECRET, {
        "id": endpoint_id, "tenant": tenant_id, "secret": secret_token,
        "hours": ROTATION_OVERLAP_HOURS}).mappings().one_or_none()
    return from_row(Endpoint, row) if row else None


def list_deliveries(conn: Connection, tenant_id: str, endpoint_id: str, status: str | None,
                    limit: int, offset: int) -> list[Delivery]:
    """An endpoint's deliveries, newest event first, each with its attempts (two queries for
    the page, whatever its length)."""
    rows = conn.execute(sql.LIST_DELIVERIES, {
        "endpoint": endpoint_id, "tenant": tenant_id, "status": status, "limit": limit,
        "offset": offset}).mappings().all()
    attempts: dict[int, list[Attempt]] = {}
    if rows:
        for a in conn.execute(sql.ATTEMPTS_OF_DELIVERIES, {"ids": [r["id"] for r in rows]}).mappings():
            attempts.setdefault(a["delivery_id"], []).append(from_row(Attempt, a))
    deliveries = []
    for r in rows:
        values = {name: value for name, value in r.items() if name != "id"}
        values["event_id"] = event_id_text(r["event_id"])
        deliveries.append(Delivery(**values, attempts=attempts.get(r["id"], [])))
    return deliveries


def redeliver(conn: Connection, tenant_id: str, endpoint_id: str, event_id: int) -> bool:
    """Make the event's delivery to the endpoint due now with a fresh schedule, creating it if
    the endpoint never had it (an event from before the endpoint, or of a type it does not
    subscribe to); ``False`` when the endpoint or the event is not the tenant's, or the
    endpoint is disabled."""
    if not is_uuid(endpoint_id):
        return False
    return conn.execute(sql.REDELIVER, {
        "endpoint": endpoint_id, "tenant": tenant_id, "event": event_id}).first() is not None


@dataclass(frozen=True)
class SenderShares:
    """How many attempts may be in flight at once, counted over every sender: per tenant, per
    endpoint, and per endpoint whose breaker tripped (half-open: one probe at a time)."""

    tenant: int = WebhooksConfig.tenant_concurrency
    endpoint: int = WebhooksConfig.endpoint_concurrency
    tripped_endpoint: int = 1


# The breaker: this many attempts in a row without an HTTP answer pause the endpoint.
BREAKER_THRESHOLD = 3


def claim_due(conn: Connection, limit: int, lease_seconds: float,
              shares: SenderShares | None = None) -> list[ClaimedDelivery]:
    """Take up to ``limit`` due deliveries, counting the attempt and leasing each for
    ``lease_seconds`` (commit before sending).

    Fair across tenants and endpoints: due deliveries are ranked within their tenant and
    within their endpoint, each rank counting the attempts already in flight there (rows with a
    live ``leased_until``, whichever sender holds them); the claim takes the lowest tenant ranks
    first, so tenants take turns and one with a backlog of thousands cannot push another's one
    delivery back, and never more than ``shares`` allow in flight.  Paused endpoints (the
    breaker) are skipped until their pause ends."""
    shares = shares or SenderShares()
    rows = conn.execute(sql.CLAIM_DUE, {
        "limit": limit, "lease": lease_seconds, "tenant_share": shares.tenant,
        "endpoint_share": shares.endpoint, "tripped_share": shares.tripped_endpoint,
        "threshold": BREAKER_THRESHOLD}).mappings().all()
    return [ClaimedDelivery(
        id=int(r["id"]), attempts=int(r["attempts"]), event_id=int(r["event_id"]),
        endpoint_id=str(r["endpoint_id"]), tenant_id=str(r["tenant_id"]), url=r["url"],
        topic=r["topic"],
        secret_tokens=[t for t in (r["secret"], r["previous_secret"]) if t],
        body=event_body(r["topic"], r["created_at"], r["payload"])) for r in rows]


def live_endpoints(conn: Connection, endpoint_ids: Sequence[str]) -> set[str]:
    """Which of ``endpoint_ids`` still exist and are enabled (a sender stops the attempts in
    flight to the others)."""
    if not endpoint_ids:
        return set()
    rows = conn.execute(sql.LIVE_ENDPOINTS, {"ids": sorted(set(endpoint_ids))})
    return {str(r.id) for r in rows}


def breaker_pause(failures: int, schedule: Sequence[float]) -> float | None:
    """Seconds an endpoint is paused after ``failures`` attempts in a row got no answer: none
    below ``BREAKER_THRESHOLD``, then the retry schedule's delays from its second on (a pause
    never longer than the schedule's longest)."""
    if failures < BREAKER_THRESHOLD or not schedule:
        return None
    return float(schedule[min(failures - BREAKER_THRESHOLD + 1, len(schedule) - 1)])


def next_delay(attempts: int, schedule: Sequence[float], retry_after: float | None,
               rng: random.Random | None = None) -> float | None:
    """Seconds until the next attempt after ``attempts`` failed ones; ``None`` when the
    schedule is used up.  The receiver's Retry-After lengthens a delay, up to the longest of
    the schedule, and never shortens one."""
    if attempts >= len(schedule):
        return None
    delay = schedule[attempts] * (1 + (rng or random).uniform(-JITTER, JITTER))
    if retry_after is not None:
        delay = max(delay, min(retry_after, max(schedule)))
    return delay


def record_outcome(conn: Connection, claimed: ClaimedDelivery, outcome: AttemptOutcome,
                   schedule: Sequence[float], rng: random.Random | None = None) -> str:
    """Store the attempt and settle the delivery; returns its status afterwards (``deleted``
    when its endpoint was deleted meanwhile: there is nothing left to record)."""
    # Locks in the order a deletion takes them, endpoint then deliveries (a DELETE of the
    # endpoint cascades to its deliveries), so that recording and deleting never deadlock.  KEY
    # SHARE: recorders of the same endpoint do not wait for one another, a deletion waits.
    failures = conn.execute(sql.LOCK_ENDPOINT_FOR_OUTCOME, {"id": claimed.endpoint_id}).scalar_one_or_none()
    if failures is None:
        return "deleted"
    if outcome.error is not None:
        # A receiver's bytes can reach the error text (a malformed status line): PostgreSQL's
        # text takes no NUL, and nothing unprintable belongs in a listing.
        outcome = dataclasses.replace(outcome, error=_printable(outcome.error))
    _update_breaker(conn, claimed.endpoint_id, int(failures), outcome, schedule)
    if outcome.gone:
        _disable_endpoint(conn, claimed.endpoint_id, "the receiver answered 410 Gone")
        status, delay = "disabled", None
    elif outcome.delivered:
        status, delay = "delivered", None
    else:
        delay = next_delay(claimed.attempts, schedule, outcome.retry_after, rng) \
            if outcome.retryable else None
        status = "pending" if delay is not None else "dead"
    # One statement stores the attempt (while the delivery exists) and settles the delivery,
    # only if it is still in this attempt's hands: a redelivery requested meanwhile wins.
    settled, recorded = conn.execute(sql.RECORD_ATTEMPT, {
        "id": claimed.id, "attempts": claimed.attempts, "status": status,
        "code": outcome.status_code, "error": outcome.error, "delay": delay or 0.0,
        "ms": outcome.duration_ms}).one()
    if not recorded:
        return "deleted"
    # An exhausted event that could not be delivered makes no further one.
    if settled and status == "dead" and claimed.topic != EXHAUSTED:
        conn.execute(sql.INSERT_EXHAUSTED_EVENT, {
            "tenant": claimed.tenant_id, "topic": EXHAUSTED, "endpoint": claimed.endpoint_id,
            "event": claimed.message_id, "attempts": claimed.attempts,
            "code": outcome.status_code, "error": outcome.error})
    return status


def _printable(value: str) -> str:
    return "".join(c if c.isprintable() else "\ufffd" for c in value)


def release_lease(conn: Connection, claimed: ClaimedDelivery) -> None:
    """The attempt was never made (its endpoint went away before it started): the delivery is
    no longer in flight, and due again at once if it still exists."""
    conn.execute(sql.RELEASE_LEASE, {"id": claimed.id, "attempts": claimed.attempts})


def _update_breaker(conn: Connection, endpoint_id: str, failures: int, outcome: AttemptOutcome,
                    schedule: Sequence[float]) -> None:
    """Any HTTP answer closes the breaker; an attempt without one counts towards pausing the
    endpoint (:func:`breaker_pause`)."""
    if outcome.status_code is not None:
        if failures:
            conn.execute(sql.CLOSE_BREAKER, {"id": endpoint_id})
        return
    pause = breaker_pause(failures + 1, schedule)
    conn.execute(sql.COUNT_FAILURE, {"id": endpoint_id, "pause": pause})


def _disable_endpoint(conn: Connection, endpoint_id: str, reason: str) -> None:
    conn.execute(sql.DISABLE_ENDPOINT, {"id": endpoint_id, "reason": reason})
    conn.execute(sql.DISABLE_PENDING_DELIVERIES, {"id": endpoint_id})
