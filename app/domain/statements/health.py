"""The statements of app/api/meta.py's probes."""

from __future__ import annotations

from sqlalchemy import text

#: The cheapest round trip: the liveness probe's proof that the database answers.
PING = text("SELECT 1")
