"""Log lines cannot be forged: control characters, newlines and terminal escapes in any logged
value (the message and its arguments, ``extra`` fields, exception text) are escaped, so one
record is one line; shown with the formatter and with a real worker writing a hostile
document id to its log."""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from app.infra import logs
from app.infra.db import get_engine
from tests.conftest import ROOT, private_database_url, stop_worker, wait_for

FORGED = "\n2026-01-01 00:00:00,000 CRITICAL app.domain.auth: admin key created"
ANSI = "\x1b[2K\x1b[1A\x1b[31m"
# A line the formatter writes starts with the time and the level: a forged record would too.
RECORD_START = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (?P<level>[A-Z]+) ")


def _formatted(record_args: dict, **extra) -> str:
    formatter = logs.KeyValueFormatter("%(levelname)s %(name)s: %(message)s")
    record = logging.LogRecord("app.test", logging.WARNING, __file__, 1, record_args.pop("msg"),
                               record_args.pop("args", ()), record_args.pop("exc_info", None))
    record.__dict__.update(extra)
    return formatter.format(record)


@pytest.mark.parametrize("raw, shown", [
    ("plain text", "plain text"),
    ("a\nb", "a\\nb"),
    ("a\r\nb", "a\\r\\nb"),
    ("tab\there", "tab\\there"),
    ("\x1b[31mred", "\\x1b[31mred"),
    ("nul\x00del\x7f", "nul\\x00del\\x7f"),
    ("c1\x85\x9b", "c1\\x85\\x9b"),              # NEL and CSI as single C1 characters
    ("ls\u2028ps\u2029", "ls\\u2028ps\\u2029"),  # Unicode line and paragraph separators
    ("unicode é ✓ stays", "unicode é ✓ stays"),
])
def test_escape_control_characters(raw, shown):
    assert logs.escape_control(raw) == shown
    assert len(logs.escape_control(raw).splitlines()) <= 1


def test_message_arguments_are_escaped():
    line = _formatted({"msg": "document failed: %s", "args": (f"bad{FORGED}{ANSI}",)})
    assert line.splitlines() == [line]
    assert "\x1b" not in line and "bad\\n2026-01-01" in line and "\\x1b[2K" in line


def test_the_message_itself_is_escaped():
    line = _formatted({"msg": f"literal{FORGED}"})
    assert line.splitlines() == [line] and "literal\\n2026" in line


def test_extra_fields_are_escaped_and_cannot_forge_other_fields():
    line = _formatted({"msg": "document indexed"}, document_id=f"x{FORGED}{ANSI}",
                      job_id="j status=completed")
    assert line.splitlines() == [line] and "\x1b" not in line
    assert 'document_id="x\\n2026-01-01 00:00:00,000 CRITICAL' in line
    # A value with a space is quoted, so "status=completed" stays inside job_id's value.
    assert 'job_id="j status=completed"' in line


def test_exception_text_is_escaped():
    try:
        raise ValueError(f"boom{FORGED}{ANSI}")
    except ValueError:
        exc_info = sys.exc_info()
    line = _formatted({"msg": "extraction crashed", "exc_info": exc_info})
    assert line.splitlines() == [line] and "\x1b" not in line
    assert "Traceback (most recent call last):\\n" in line and "ValueError: boom\\n2026" in line


def test_escape_event_dict_is_a_structlog_processor():
    # The signature structlog calls processors with: (logger, method name, event dict).
    event = {"event": f"document indexed{FORGED}", "document_id": ANSI, "chunks": 3}
    out = logs.escape_event_dict(None, "info", event)
    assert out == {"event": "document indexed\\n2026-01-01 00:00:00,000 CRITICAL app.domain.auth: "
                            "admin key created",
                   "document_id": "\\x1b[2K\\x1b[1A\\x1b[31m", "chunks": 3}


def test_json_lines_carry_the_bound_context_and_cannot_be_forged(capsys):
    from app.infra import log_context

    logs.configure("INFO", "json")
    try:
        log_context.start(request_id="req-1", tenant_id="t-1")
        logging.getLogger("app.test").warning("document failed: %s", f"bad{FORGED}{ANSI}\u2028",
                                              extra={"document_id": f"d{FORGED}", "chunks": 2})
        log_context.end()
        logging.getLogger("app.test").info("after the request")
    finally:
        logs.configure("WARNING", "text")
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and all(line.isascii() for line in lines)
    first, second = (json.loads(line) for line in lines)
    assert first["event"] == f"document failed: bad{FORGED}{ANSI}\u2028"
    assert (first["request_id"], first["tenant_id"], first["document_id"], first["chunks"]) == \
        ("req-1", "t-1", f"d{FORGED}", 2)
    assert first["level"] == "warning" and first["logger"] == "app.test" and "timestamp" in first
    assert "request_id" not in second  # a unit of work's fields end with it


def test_text_lines_show_the_bound_context_too():
    from app.infra import log_context

    log_context.start(request_id="req-2")
    try:
        line = _formatted({"msg": "job created"}, job_id="j1")
    finally:
        log_context.end()
    assert line.endswith("request_id=req-2 job_id=j1")


def test_an_unknown_log_format_is_refused():
    with pytest.raises(ValueError, match="PAGEMILL_LOG_FORMAT"):
        logs.log_format("xml")


@pytest.fixture(scope="module")
def private_database(database_url: str) -> Iterator[str]:
    """A database of its own for the module, so that no other test's worker takes this test's
    job and its log line is written where this test reads."""
    with private_database_url(database_url) as url:
        yield url


# Both ways a worker is started: pagemill's command, and the Procfile's `celery -A tasks worker`.
WORKER_COMMANDS = {
    "pagemill": ["-m", "app.cli", "worker", "--loglevel", "INFO"],
    "celery": ["-m", "celery", "-A", "tasks", "worker", "--loglevel=INFO", "--concurrency=1"],
}


@pytest.mark.parametrize("command, log_format", [(c, f) for c in sorted(WORKER_COMMANDS)
                                                 for f in logs.FORMATS])
@pytest.mark.system
def test_a_hostile_document_id_cannot_forge_a_worker_log_line(test_env, private_database,
                                                              tmp_path: Path, command: str,
                                                              log_format: str):
    env = {**test_env, "DATABASE_URL": private_database, "PAGEMILL_LOG_LEVEL": "INFO",
           "PAGEMILL_LOG_FORMAT": log_format}
    engine = get_engine(private_database)
    hostile_id = f"report{FORGED}{ANSI}"
    records = tmp_path / "records.jsonl"
    records.write_text(json.dumps({"id": hostile_id, "title": "t", "text": "some text " * 20}) + "\n")
    log_path = tmp_path / "worker.log"
    with log_path.open("wb") as log_file:
        proc = subprocess.Popen([sys.executable, *WORKER_COMMANDS[command]],
                                env=env, cwd=ROOT,
                                stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            submitted = subprocess.run(
                [sys.executable, "-m", "app.cli", "ingest", "--jsonl", str(records), "--tenant",
                 f"logs-{uuid.uuid4().hex[:8]}"],
                env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
            assert submitted.returncode == 0, submitted.stderr
            job_id = submitted.stdout.strip().splitlines()[-1]

            def indexed() -> bool:
                if proc.poll() is not None:
                    raise AssertionError(f"worker exited with {proc.returncode}")
                with engine.connect() as conn:
                    status = conn.execute(text("SELECT status FROM documents WHERE job_id = :j"),
                                          {"j": job_id}).scalar_one_or_none()
                return status == "completed" and "document indexed" in log_path.read_text()

            wait_for(indexed, timeout=300, what="the hostile document to be indexed and logged")
        finally:
            stop_worker(proc)
    written = log_path.read_bytes()
    assert b"\x1b" not in written and b"\x9b" not in written
    lines = written.decode().splitlines()
    if log_format == "json":
        # One object per line, ASCII only: the id comes back exactly, inside its record.
        assert written.isascii()
        records = [json.loads(line) for line in lines if line.startswith("{")]
        about = [r for r in records if r.get("document_id") == hostile_id]
        assert any(r["event"] == "document indexed" for r in about), records[-5:]
        assert all(r["level"] != "critical" for r in records)
        assert not any(line.startswith("2026-01-01") for line in lines)
        return
    mentions = [line for line in lines if "admin key created" in line]
    assert mentions, "the document id was expected in the worker's log"
    for line in mentions:
        # Only ever inside a record about the document, escaped, never a record of its own.
        assert "\\n2026-01-01 00:00:00,000 CRITICAL" in line and "document_id=" in line
        assert not line.startswith("2026-01-01 00:00:00,000 CRITICAL")
    levels = {match["level"] for match in map(RECORD_START.match, lines) if match}
    assert "INFO" in levels and "CRITICAL" not in levels
