"""The broker's database: one engine per URL and process, and the check that its tables exist.

The broker runs no DDL.  Its tables come from the Alembic migrations (0002 created them, 0010
added per-message expiry), like every other table of pagemill; a transport connecting to a
database without them fails at once with :class:`BrokerTablesMissing`, which names the
database and the command that migrates it.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from sqlalchemy import URL, Engine, create_engine, make_url

from tasks.broker.statements import MISSING_TABLES, REQUIRED_COLUMNS

_lock = threading.Lock()
_engines: dict[tuple[str, int | None, int], Engine] = {}


def engine_for(url: str, connect_timeout: int | None = None) -> Engine:
    """The engine of ``url`` in this process (a pool must never cross a fork).

    ``connect_timeout`` (seconds) bounds each new connection, as libpq's parameter of that
    name would; None leaves it to the URL (psycopg's default is 130 s per address).
    """
    key = (url, connect_timeout, os.getpid())
    with _lock:
        engine = _engines.get(key)
        if engine is None:
            connect_args: dict[str, Any] = {}
            if connect_timeout is not None:
                connect_args["connect_timeout"] = connect_timeout
            # No pre-ping: it would double the round trips of every fetch and ack; a dead
            # connection raises OperationalError, which kombu treats as connection loss.
            engine = _engines[key] = create_engine(url, pool_size=4, max_overflow=8,
                                                   pool_recycle=3600, connect_args=connect_args)
        return engine


def display_url(url: URL) -> str:
    """``url`` without its password (nor a ``password`` query parameter): safe to log."""
    query = {k: v for k, v in url.query.items() if k != "password"}
    # (URL.set leaves a field alone when given None.)
    return url._replace(password=None).set(query=query).render_as_string(hide_password=False)


class BrokerTablesMissing(Exception):
    """The database has not been migrated: the broker's tables (or columns) are not there.

    Listed among the transport's connection errors, so that a Celery worker started before
    the migration finished says so and retries instead of failing on its first fetch.  The
    message names the database and the command that migrates it: ``pagemill migrate`` works
    on ``DATABASE_URL``, which need not be the broker's database.
    """

    def __init__(self, url: str, missing: list[str]) -> None:
        parsed = make_url(url)
        url = display_url(parsed)  # never a password in a message or a log
        host = parsed.host or parsed.query.get("host") or "the default host"
        where = f"{host}:{parsed.port}" if parsed.port else str(host)
        super().__init__(
            f"the broker tables of database {parsed.database!r} on {where} are missing or out "
            f"of date ({', '.join(missing)}): migrate that database with "
            f"`DATABASE_URL={url} pagemill migrate` (with its password if it needs one; the "
            f"migrations create all of pagemill's tables there and need the pgvector extension "
            f"available on that server)")
        #: The database's URL, without its password.
        self.url = url
        self.database = parsed.database
        self.missing = missing

    def __reduce__(self) -> tuple[type[BrokerTablesMissing], tuple[str, list[str]]]:
        # Exception pickles as cls(*args), and args holds only the message: rebuild from the
        # constructor's arguments instead (Celery may pickle exceptions across processes).
        return type(self), (self.url, self.missing)


def check_tables(engine: Engine) -> None:
    """Raise :class:`BrokerTablesMissing` unless every table and column the broker uses exists.

    One catalog query, so it also proves the database reachable (the transport runs it when
    kombu establishes a connection); an unreachable database raises OperationalError.
    """
    tables, columns = [], []
    for table, added in REQUIRED_COLUMNS.items():
        for column in (None, *added):
            tables.append(table)
            columns.append(column)
    with engine.connect() as conn:
        missing = list(conn.execute(MISSING_TABLES, {"tables": tables, "columns": columns})
                       .scalars())
    if missing:
        raise BrokerTablesMissing(display_url(engine.url), missing)
