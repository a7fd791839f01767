"""Engine and migrations.  Engines are created on demand, never at import time."""

from __future__ import annotations

import os
import weakref
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, create_engine

if TYPE_CHECKING:
    from alembic.config import Config as AlembicConfig

PROJECT_ROOT = Path(__file__).resolve().parents[2]


_engines: weakref.WeakSet[Engine] = weakref.WeakSet()


# Connections one process's pool holds at most, and keeps once opened.  No overflow above a
# smaller pool: SQLAlchemy closes an overflow connection at its check-in, so an API process
# serving more searches at once than the pool held (16 clients, with 5 kept and 5 more allowed)
# opened a new connection for a request every few requests -- a new backend each time, on which
# the search statement is planned again until psycopg prepares it (at its fifth execution).
POOL_SIZE = 10


def _pooled_engine(url: str, **connect_args: object) -> Engine:
    # pool_pre_ping: the embedded server may have been restarted between two uses of a pool.
    engine = create_engine(url, pool_pre_ping=True, pool_size=POOL_SIZE, max_overflow=0,
                           connect_args=connect_args)
    _engines.add(engine)
    return engine


@lru_cache(maxsize=8)
def get_engine(url: str) -> Engine:
    return _pooled_engine(url)


# Seconds a search replica's connection may take to open (libpq's connect_timeout; 2 is its
# smallest effective value): a replica on a host that stopped answering must cost a search a
# bounded wait before the next replica or the primary answers it, not the OS's TCP timeout.
REPLICA_CONNECT_TIMEOUT = 2


@lru_cache(maxsize=16)
def get_replica_engine(url: str) -> Engine:
    """The engine of one search replica (PAGEMILL_SEARCH_DATABASE_URLS): like the primary's,
    with a bounded connect time, and read-only sessions, so that a primary named there by
    mistake still takes no write from search.  Nothing connects until first use."""
    return _pooled_engine(url, connect_timeout=REPLICA_CONNECT_TIMEOUT,
                          options="-c default_transaction_read_only=on")


def _forget_inherited_connections() -> None:
    """In a forked child (a worker's pool process, started again after one died), the
    parent's pooled connections belong to the parent, whose threads (heartbeat, webhook sender)
    keep using them: the child starts with empty pools instead (SQLAlchemy's recipe for
    multiprocessing, ``dispose(close=False)``)."""
    for engine in list(_engines):
        engine.dispose(close=False)


os.register_at_fork(after_in_child=_forget_inherited_connections)


def upgrade_schema(database_url: str, revision: str = "head") -> None:
    """Bring the schema to ``revision``, the newest by default (safe to call from several
    processes)."""
    from alembic import command

    command.upgrade(_alembic_config(database_url), revision)


def downgrade_schema(database_url: str, revision: str) -> None:
    """Take the schema back to ``revision`` (the migration tests go down and up again)."""
    from alembic import command

    command.downgrade(_alembic_config(database_url), revision)


@lru_cache(maxsize=1)
def schema_heads() -> frozenset[str]:
    """The newest revision(s) in alembic/versions: the schema this code expects."""
    from alembic.script import ScriptDirectory

    return frozenset(ScriptDirectory.from_config(_alembic_config("")).get_heads())


def applied_revisions(conn: Connection) -> frozenset[str]:
    """The revision(s) the connected database's schema is at; empty if it was never migrated."""
    from alembic.runtime.migration import MigrationContext

    return frozenset(MigrationContext.configure(conn).get_current_heads())


def _alembic_config(database_url: str) -> AlembicConfig:
    from alembic.config import Config as AlembicConfig

    cfg = AlembicConfig(str(PROJECT_ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(PROJECT_ROOT / "alembic"))
    cfg.attributes["database_url"] = database_url
    cfg.attributes["configure_logging"] = False
    return cfg
