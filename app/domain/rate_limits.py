"""Request rate limits per API key: the generic cell rate algorithm (GCRA), held in PostgreSQL
so that one key's limit holds across every API process and machine.

A key is allowed ``per_minute`` requests a minute at a steady rate (one every *emission
interval* ``T = 60 s / per_minute``) and up to ``burst`` at once after being idle.  The whole
state is one *theoretical arrival time* (``tat``) per key, in the UNLOGGED table
``rate_limit_arrivals`` (migration 0015): a request at ``now`` is admitted when
``tat - now <= (burst - 1) * T``, and then moves ``tat`` to ``max(tat, now) + T``; a refused
request leaves it as it was.  One statement, :data:`app.domain.statements.rate_limits.ADMIT_REQUEST`,
decides and records a request, atomically (the upsert locks the key's row, so concurrent
requests of one key are decided one after the other), on the database's clock (API machines'
clocks may disagree).

Why not flask-limiter/limits: their released storages (limits 5.8, flask-limiter 4.1) are
memory, redis, memcached and MongoDB only, and their strategies are window counters, not
GCRA; the SQL storage (limits PR 354) is unmerged and windows too.  A PostgreSQL storage
would mean writing one anyway, behind an interface of several calls per request.
pyrate-limiter's PostgreSQL bucket keeps a row per request and counts them: a log, not one
row per key.

What a decision says to the client is :class:`RateDecision`'s, in the fields of the IETF
draft draft-ietf-httpapi-ratelimit-headers (``RateLimit-Policy``, ``RateLimit``) and, on a
refusal, ``Retry-After``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection

from app.domain.statements import rate_limits as sql

# The policy's name in the RateLimit-Policy and RateLimit fields.
POLICY_NAME = "default"
WINDOW_SECONDS = 60
_MICROSECONDS = 1_000_000


@dataclass(frozen=True)
class RatePolicy:
    """``per_minute`` requests a minute, ``burst`` of them at once; ``per_minute`` 0 is no
    limit at all (no statement, no fields)."""

    per_minute: int
    burst: int

    def __post_init__(self) -> None:
        if self.per_minute < 0 or self.burst < 1:
            raise ValueError(f"a rate limit needs per_minute >= 0 and burst >= 1, got "
                             f"{self.per_minute}/min with a burst of {self.burst}")

    @property
    def enabled(self) -> bool:
        return self.per_minute > 0

    @property
    def emission_us(self) -> int:
        """T: the steady spacing between requests, in microseconds (timestamptz's unit)."""
        return max(1, round(WINDOW_SECONDS * _MICROSECONDS / self.per_minute))

    @property
    def tolerance_us(self) -> int:
        """How far ahead of now ``tat`` may be for a request to be admitted: ``(burst-1) T``."""
        return (self.burst - 1) * self.emission_us

    @property
    def header(self) -> str:
        """The ``RateLimit-Policy`` field: the quota over its window."""
        return f'"{POLICY_NAME}";q={self.per_minute};w={WINDOW_SECONDS}'


def policy_for(per_minute: int, burst: int | None) -> RatePolicy:
    """The policy of a key allowed ``per_minute``; the burst is ``burst``, or when not set a
    minute's worth (see LimitsConfig.rate_limit_burst)."""
    return RatePolicy(per_minute=per_minute, burst=max(1, burst or per_minute))


@dataclass(frozen=True)
class RateDecision:
    """One request's verdict and what the client is told about its key's limit."""

    policy: RatePolicy
    admitted: bool
    # How far the key's theoretical arrival time is ahead of now, after this request.
    backlog_us: int

    @property
    def remaining(self) -> int:
        """Requests the key could make at once right now (``r``)."""
        if not self.admitted:
            return 0
        return max(0, (self.policy.tolerance_us - self.backlog_us) // self.policy.emission_us + 1)

    @property
    def retry_after(self) -> int:
        """Whole seconds until the next request would be admitted (at least 1 when refused)."""
        wait_us = self.backlog_us - self.policy.tolerance_us
        return max(1, math.ceil(wait_us / _MICROSECONDS)) if wait_us > 0 else 0

    @property
    def reset(self) -> int:
        """``t``: on a refusal, when quota is next available (the same as Retry-After, which
        the draft asks never to be earlier); otherwise when the whole burst is available
        again, i.e. when the key's arrival time is caught up by the clock."""
        if not self.admitted:
            return self.retry_after
        return max(0, math.ceil(self.backlog_us / _MICROSECONDS))

    def headers(self) -> dict[str, str]:
        fields = {"RateLimit-Policy": self.policy.header,
                  "RateLimit": f'"{POLICY_NAME}";r={self.remaining};t={self.reset}'}
        if not self.admitted:
            fields["Retry-After"] = str(self.retry_after)
        return fields


def admit(conn: Connection, key_id: str, policy: RatePolicy, now: datetime | None = None) -> RateDecision:
    """Decide (and record) one request of key ``key_id`` under ``policy`` at ``now`` (by
    default the database's clock).  Commit soon: the key's row stays locked until then."""
    row = conn.execute(sql.ADMIT_REQUEST, {
        "key_id": key_id, "now": now,
        "emission": timedelta(microseconds=policy.emission_us),
        "tolerance": timedelta(microseconds=policy.tolerance_us)}).one()
    backlog: timedelta = row.tat - row.now
    return RateDecision(policy=policy, admitted=bool(row.admitted),
                        backlog_us=backlog // timedelta(microseconds=1))
