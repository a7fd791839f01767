"""Structured logging: one processor chain (structlog's) for pagemill's records and every
library's (Celery, kombu, gunicorn, werkzeug), written as JSON lines or as ``key=value`` text.

``PAGEMILL_LOG_FORMAT`` is ``json`` or ``text``; unset, it is ``text`` on a terminal and
``json`` otherwise (a service's logs go to a collector).  Every record carries the boundary
fields bound for the work in hand -- ``request_id`` and ``tenant_id`` for an API request,
``task_id``, ``request_id`` and ``job_id`` for a Celery task (:mod:`app.infra.log_context` binds and
clears them), ``trace_id`` and ``span_id`` when the process traces (app/infra/traces.py) -- as
well as the fields given with ``extra=`` at the call.

Logged values come from users (document ids, file names, URLs, metadata, error messages), so
one record is always written as exactly one line: in text, every control character, newline and
terminal escape is shown escaped (``\\n``, ``\\x1b``), never written raw; in JSON, every
non-ASCII character is a ``\\u`` escape, so that no raw control, C1 or line-separator
character reaches a terminal, while a parser gets the value back exactly.  Otherwise a
document id such as ``"x\\n… CRITICAL app.domain.auth: admin key created"`` forges a record of its
own, and an ANSI sequence can rewrite what an operator's terminal shows.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import MutableMapping
from typing import Any

import structlog

from app.infra import traces

# The boundary fields, in the order text lines show them (JSON has every field).
FIELDS = ("request_id", "trace_id", "tenant_id", "job_id", "batch_id", "document_id", "task_id",
          "error_code", "status", "chunks", "extractor", "documents", "outcome", "duration_s")
FORMATS = ("json", "text")
# Libraries that say too much at INFO for an operator.
_NOISY = ("sentence_transformers", "transformers", "httpx", "urllib3", "botocore")

# C0 controls, DEL, C1 controls (a terminal takes U+009B alone as CSI, U+0085 as a newline)
# and the Unicode line and paragraph separators, which str.splitlines and some log viewers
# take as line breaks.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# A key=value value is quoted when it would otherwise read as more than one field.
_NEEDS_QUOTES = re.compile(r'[\s="]|^$')


def _escaped(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_control(value: str) -> str:
    """``value`` with every control character written as a visible escape: one line, no
    terminal sequences.  Backslashes are kept as they are (paths stay readable), so the
    escapes are for reading, not for decoding back."""
    return _CONTROL.sub(_escaped, value)


def escape_event_dict(_logger: Any, _method: str,
                      event_dict: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """A structlog processor applying ``escape_control`` to every string key and value; it
    belongs after the processors that render exceptions and stacks into the event dict."""
    return {escape_control(key) if isinstance(key, str) else key:
            escape_control(value) if isinstance(value, str) else value
            for key, value in event_dict.items()}


def _field_value(value: object) -> str:
    raw = str(value)
    if _NEEDS_QUOTES.search(raw):
        return '"' + escape_control(raw.replace("\\", "\\\\").replace('"', '\\"')) + '"'
    return escape_control(raw)


class KeyValueFormatter(logging.Formatter):
    """The standard line (with its exception and stack text) escaped, then the boundary
    fields -- bound for the work in hand, or given with ``extra=`` -- as ``key=value``, quoted
    when a value holds spaces, ``=`` or quotes."""

    def format(self, record: logging.LogRecord) -> str:
        line = escape_control(super().format(record))
        bound = {**structlog.contextvars.get_contextvars(), **traces.log_fields()}
        extras = []
        for name in FIELDS:
            value = getattr(record, name, bound.get(name))
            if value is not None:
                extras.append(f"{name}={_field_value(value)}")
        return f"{line} {' '.join(extras)}" if extras else line


def add_trace_fields(_logger: Any, _method: str,
                     event_dict: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """A structlog processor: the current span's ``trace_id`` and ``span_id`` beside the
    request id, when the process traces (app/infra/traces.py)."""
    for name, value in traces.log_fields().items():
        event_dict.setdefault(name, value)
    return event_dict


def _json_formatter() -> logging.Formatter:
    """Records as one JSON object per line: time (UTC, ISO 8601), level, logger, event, the
    bound context and every ``extra=`` field; exceptions as text under ``exception``."""
    shared: list[Any] = [
        structlog.contextvars.merge_contextvars,
        add_trace_fields,
        structlog.stdlib.ExtraAdder(),
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    return structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=shared,
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,
            # ensure_ascii (json.dumps' default): no raw control or separator character at all.
            structlog.processors.JSONRenderer(default=str),
        ])


def log_format(explicit: str | None = None) -> str:
    """The format asked for (``PAGEMILL_LOG_FORMAT``: ``LoggingConfig.format``), else by whether
    stderr is a terminal."""
    chosen = (explicit or "").strip().lower()
    if not chosen:
        return "text" if sys.stderr.isatty() else "json"
    if chosen not in FORMATS:
        raise ValueError(f"PAGEMILL_LOG_FORMAT must be one of {', '.join(FORMATS)}, not {chosen!r}")
    return chosen


def configure(level: str = "INFO", fmt: str | None = None) -> None:
    """Send every record of the process (the root logger's) through one handler on stderr."""
    handler = logging.StreamHandler(sys.stderr)
    if log_format(fmt) == "json":
        handler.setFormatter(_json_formatter())
    else:
        handler.setFormatter(KeyValueFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for noisy in _NOISY:
        logging.getLogger(noisy).setLevel(logging.WARNING)
    # Libraries with handlers of their own (gunicorn's error and access logs) write through ours.
    for name in ("gunicorn.error", "gunicorn.access"):
        library = logging.getLogger(name)
        library.handlers[:] = []
        library.propagate = True
    # structlog's own loggers, for code that uses them, end in the same handler.
    structlog.configure(
        processors=[structlog.contextvars.merge_contextvars,
                    structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
