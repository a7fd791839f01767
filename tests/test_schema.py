"""``alembic/current/functions.sql`` is what the migrations leave: the current bodies of the
trigger functions can be read in one file, and a migration that changes one without the file
being regenerated fails here (tests/render_schema.py)."""

from __future__ import annotations

import difflib

from app.infra.db import get_engine
from tests.render_schema import COMMAND, CURRENT, render


def test_the_checked_in_functions_are_what_the_migrations_make(private_database: str) -> None:
    with get_engine(private_database).connect() as conn:
        rendered = render(conn)
    checked_in = CURRENT.read_text()
    diff = "".join(difflib.unified_diff(checked_in.splitlines(True), rendered.splitlines(True),
                                        str(CURRENT), "freshly migrated database"))
    assert rendered == checked_in, f"run {COMMAND}\n{diff}"


def test_the_file_holds_every_trigger_function_that_writes_events() -> None:
    current = CURRENT.read_text()
    for name in ("webhook_fan_out", "webhook_job_event", "webhook_document_event", "notify_job_event",
                 "bm25_delta_added"):
        assert f"FUNCTION public.{name}(" in current
