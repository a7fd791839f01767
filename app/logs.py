"""Structured logging: ``key=value`` lines carrying the boundary fields of the pipeline.

Logged values come from users (document ids, file names, URLs, metadata, error messages), so
one record is always written as exactly one line: every control character, newline and
terminal escape is shown escaped (``\\n``, ``\\x1b``), never written raw.  Otherwise a document
id such as ``"x\\n… CRITICAL app.auth: admin key created"`` forges a record of its own, and
an ANSI sequence can rewrite what an operator's terminal shows.  The escaping is a function of
its own (``escape_control``) with a structlog-shaped processor (``escape_event_dict``), so the
structured logs planned next apply the same rule.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import MutableMapping
from typing import Any

FIELDS = ("job_id", "batch_id", "document_id", "task_id", "tenant_id", "error_code", "status",
          "chunks", "extractor", "documents")

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
    fields as ``key=value``, quoted when a value holds spaces, ``=`` or quotes."""

    def format(self, record: logging.LogRecord) -> str:
        line = escape_control(super().format(record))
        extras = [f"{name}={_field_value(getattr(record, name))}"
                  for name in FIELDS if hasattr(record, name)]
        return f"{line} {' '.join(extras)}" if extras else line


def configure(level: str = "INFO") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(KeyValueFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for noisy in ("sentence_transformers", "transformers", "httpx", "urllib3", "botocore"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
