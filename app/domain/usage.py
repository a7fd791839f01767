"""Usage per API key per day: what a tenant's keys had processed, for metering and billing.

Computed from terminal document rows (``completed`` and ``failed``; a cancelled document was
not processed), by the day (UTC) each finished and the key that submitted its job
(``jobs.api_key_id``, migration 0015; ``NULL`` for jobs from the CLI and for jobs submitted
before that revision).  Every document extracted counts, an e-mail's attachments included
(each is extracted on its own, app/domain/jobs.py); bytes are those submitted, so an attachment's,
already inside its e-mail's, are not counted twice.  A document retried counts once, in its
latest outcome; a deleted document's row is gone, and so is its usage.

Seconds of audio and video transcribed come from their own meter (``transcription_usage``,
app/domain/transcription_quota.py), by the UTC day a recording's seconds were reserved: they include
recordings still being transcribed (at their probed duration), and stay when a document is
deleted, since the providers were paid for them all the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import Connection

from app.domain.statements import usage as sql

# The longest range one request may ask for, in days (both ends included).
MAX_DAYS = 366


@dataclass(frozen=True)
class KeyDayUsage:
    """What one key (or no key: ``api_key_id`` None) had processed on one UTC day."""

    day: date
    api_key_id: str | None
    key_prefix: str | None
    key_name: str | None
    documents_completed: int
    documents_failed: int
    pages: int
    bytes: int
    transcription_seconds: float


def utc_day_start(day: date) -> datetime:
    return datetime.combine(day, time(0), tzinfo=UTC)


def usage_by_key_and_day(conn: Connection, tenant_id: str, first: date, last: date) -> list[KeyDayUsage]:
    """Tenant ``tenant_id``'s usage on the UTC days ``first`` to ``last``, both included: a
    row per day and key that processed anything (days without any have no row)."""
    if last < first:
        raise ValueError(f"the range ends ({last}) before it starts ({first})")
    rows = conn.execute(sql.USAGE_BY_KEY_AND_DAY, {
        "tenant": tenant_id, "start": utc_day_start(first),
        "end": utc_day_start(last + timedelta(days=1))}).mappings().all()
    return [KeyDayUsage(**row) for row in rows]
