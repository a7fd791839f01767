"""An error in one line, as doctor's checks and the search replicas' log lines show it.

Kept apart from ``app.infra.db`` so that code showing errors (the CLI's ``doctor``, listed by
``pagemill --help``) does not import SQLAlchemy to do it.
"""

from __future__ import annotations


def error_line(exc: BaseException) -> str:
    """An error's first line, the database driver's own when SQLAlchemy wraps one (the rest of
    SQLAlchemy's text is the statement and a link)."""
    lines = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
