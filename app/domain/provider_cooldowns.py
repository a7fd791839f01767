"""Transcription providers on cool-down, shared by every worker through PostgreSQL.

A provider that keeps answering 429 (its Retry-After past the cap, or a second 429 after one
was waited out: extractors/transcribers.py marks the attempt ``rate_limited``) is put on
cool-down until the time it asked for.  Every worker reads the cool-downs before it extracts
a media document and asks a cooling provider last, so the documents after the one that met
the 429 go straight to the next provider instead of each paying a refused upload first.
A cooling provider is still asked when every other one failed: it may be the only one.

The extractor runs in a child process and knows nothing of the database; the pipeline reads
:func:`active` into the extraction options and records the attempts' 429s with
:func:`record` afterwards (app/services/processing.py).  The statements are named and documented in
app/domain/statements/provider_cooldowns.py; tests/test_media.py runs them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import Connection

from app.domain.statements import provider_cooldowns as sql
from extractors.base import Attempt

# A 429 without a Retry-After (or an HTTP date) cools its provider this long.
DEFAULT_COOLDOWN_SECONDS = 60.0
# A Retry-After beyond this is not believed further (a provider asking for a day would
# otherwise be skipped for a day even after its quota reset).
MAX_COOLDOWN_SECONDS = 3600.0


@dataclass(frozen=True)
class Cooldown:
    provider: str
    until: float  # epoch seconds
    hits: int
    last_error: str | None


def active(conn: Connection) -> list[Cooldown]:
    """The providers cooling now."""
    return [Cooldown(row.provider, float(row.until), int(row.hits), row.last_error)
            for row in conn.execute(sql.ACTIVE_COOLDOWNS)]


def rate_limited(attempts: Iterable[Attempt]) -> dict[str, tuple[float, str]]:
    """From a document's attempts: each provider refused with ``rate_limited`` and for how long
    it asked (the longest of its refusals), with the last error."""
    found: dict[str, tuple[float, str]] = {}
    for attempt in attempts:
        if attempt.error_code != "rate_limited":
            continue
        asked = getattr(attempt, "retry_after_s", None)
        seconds = min(MAX_COOLDOWN_SECONDS, DEFAULT_COOLDOWN_SECONDS if asked is None else float(asked))
        previous = found.get(attempt.engine, (0.0, ""))[0]
        found[attempt.engine] = (max(previous, seconds), attempt.error or "429")
    return found


def record(conn: Connection, attempts: Iterable[Attempt]) -> list[str]:
    """Put on cool-down every provider these attempts met rate-limited; their names."""
    limited = rate_limited(attempts)
    for provider, (seconds, error) in limited.items():
        conn.execute(sql.RECORD_COOLDOWN, {"provider": provider, "seconds": seconds, "error": error[:500]})
    return sorted(limited)
