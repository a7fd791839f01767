"""Seconds of recordings transcribed per API key per UTC day, and the key's daily limit.

A recording costs provider money by the second, so its seconds are *reserved* before any
provider is called: the probed duration is added to the key's row for today in the one
statement that checks the limit (:data:`app.domain.statements.transcription_quota.RESERVE_TRANSCRIPTION`),
so that two recordings racing cannot both pass a limit that only one fits (the second waits
for the first's row lock and then sees its seconds).  Once the transcription has ended the
reservation is *settled* to what was actually sent (:func:`settle`): the decoded track's
duration, or on a failure the pieces some provider was called for, nothing when none was.  A
worker that dies in between leaves the reservation charged: it is the most that could have
been sent.

The period is the UTC day, like every other usage row (app/domain/usage.py): a leaked key or a runaway
client can burn one day's allowance before anyone notices, not a month's.  The limit is the
key's own (``api_keys.transcription_seconds_per_day``, ``pagemill keys create|update
--transcription-limit N|default``; 0: unlimited), else ``PAGEMILL_TRANSCRIPTION_SECONDS_PER_DAY``
(0, the default: unlimited).  Jobs without a key (the CLI, the operator's own) are metered
under no key and never limited.  A recording is charged to the day its reservation was made.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import Connection

from app.domain.statements import transcription_quota as sql


@dataclass(frozen=True)
class Reservation:
    """Seconds charged to a key's day before its recording is transcribed."""

    tenant_id: str
    api_key_id: str | None
    day: date
    seconds: float


@dataclass(frozen=True)
class Refusal:
    """The reservation that would take the key over its limit: nothing was charged."""

    limit_seconds: int
    used_seconds: float
    requested_seconds: float

    def message(self) -> str:
        left = max(0.0, self.limit_seconds - self.used_seconds)
        return (f"this recording lasts {self.requested_seconds:.0f} s; the API key has "
                f"{left:.0f} s of its {self.limit_seconds} s of transcription a UTC day left "
                "(pagemill keys update KEY --transcription-limit N, or "
                "PAGEMILL_TRANSCRIPTION_SECONDS_PER_DAY)")


def reserve(conn: Connection, job_id: str, seconds: float,
            default_limit: int) -> Reservation | Refusal | None:
    """Charge ``seconds`` of transcription to today's row of the key that submitted job
    ``job_id``, unless that takes it over its limit (``default_limit``: the configured one,
    for a key without its own; 0: unlimited): the reservation, the refusal, or None when the
    job is gone (deleted meanwhile)."""
    if seconds < 0:
        raise ValueError(f"a recording cannot last {seconds} s")
    params = {"job": job_id, "seconds": float(seconds), "default_limit": default_limit, "bounded": True}
    row = conn.execute(sql.RESERVE_TRANSCRIPTION, params).one_or_none()
    if row is not None:
        return Reservation(row.tenant_id, row.api_key_id, row.day, float(seconds))
    standing = conn.execute(sql.TRANSCRIPTION_STANDING, params).one_or_none()
    if standing is None:
        return None
    return Refusal(int(standing.limit_seconds), float(standing.used_seconds), float(seconds))


def charge(conn: Connection, job_id: str, seconds: float) -> None:
    """Meter ``seconds`` already transcribed for job ``job_id``, whatever the key's limit (a
    recording inside an e-mail, transcribed with it before its length could be known)."""
    if seconds > 0:
        conn.execute(sql.RESERVE_TRANSCRIPTION, {"job": job_id, "seconds": float(seconds),
                                             "default_limit": 0, "bounded": False})


def settle(conn: Connection, reservation: Reservation, sent_seconds: float) -> None:
    """Replace what ``reservation`` charged by ``sent_seconds``, what was actually sent."""
    delta = max(0.0, sent_seconds) - reservation.seconds
    if delta:
        conn.execute(sql.SETTLE_TRANSCRIPTION, {"delta": delta, "tenant": reservation.tenant_id,
                                            "day": reservation.day, "key": reservation.api_key_id})
