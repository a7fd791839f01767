"""Test fixtures: a real PostgreSQL (embedded, or TEST_DATABASE_URL), real storage on disk,
and a real Celery worker process.  Tests isolate themselves by tenant, not by mocks."""

from __future__ import annotations

import base64
import multiprocessing.process
import os
import platform
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, text

from app.config import Config
from app.domain.auth import ensure_tenant
from app.infra.db import get_engine, upgrade_schema
from app.infra.embedded import create_database, start_embedded, stop_embedded
from app.infra.storage import LocalStorage
from app.runtime import Runtime
from tests.fake_mistral import FakeMistral

ROOT = Path(__file__).resolve().parents[1]

# The suite in tiers (`pytest -m unit`, `-m db`, `-m system`; `.ci/test` runs unit first, then
# the rest).  Each test is in exactly one, decided at collection:
#   system - it starts child processes (workers, servers, the parser process, ffmpeg, LibreOffice,
#            tesseract, a browser), runs a whole corpus or loads a neural model (seconds before
#            its first assertion): through a fixture of SYSTEM_FIXTURES,
#            or marked `@pytest.mark.system` when it starts them itself (a unit- or db-tier test
#            that starts a process fails, saying so: `_only_system_tests_start_processes`);
#   db     - it reaches the real PostgreSQL (the `database_url` fixture, directly or through
#            `engine`, `config`, `client`, ...) in this process;
#   unit   - neither: plain functions on generated inputs, the whole tier in under a minute.
TIERS = {
    "unit": "no database, no child processes: the fast tier",
    "db": "a real PostgreSQL, in this process",
    "system": ("child processes (workers, servers, the parser process, external tools), a whole corpus "
               "or a neural model loaded"),
}
SYSTEM_FIXTURES = frozenset({"worker"})


def tier_of(item: pytest.Item) -> str:
    names = set(getattr(item, "fixturenames", ()))
    if item.get_closest_marker("system") or names & SYSTEM_FIXTURES:
        return "system"
    return "db" if "database_url" in names else "unit"


def pytest_configure(config: pytest.Config) -> None:
    for name, description in TIERS.items():
        config.addinivalue_line("markers", f"{name}: {description}")


# platform.platform() runs `uname -p` once per process, and docling calls it when first imported:
# asked here, so that a test importing docling first is not taken for one that starts processes.
platform.processor()


@pytest.fixture(autouse=True)
def _only_system_tests_start_processes(request: pytest.FixtureRequest,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A test in the unit or db tier that starts a process fails, naming the fix: the tiers are
    what they say, and `.ci/test` runs the db and system tiers side by side, one in-process
    and one mostly waiting on children.  (Fixtures of a wider scope, the embedded server's
    included, are set up before this one.)"""
    tier = next((name for name in ("unit", "db") if request.node.get_closest_marker(name)), None)
    if tier is None:
        return

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"{request.node.nodeid} is in the {tier} tier but starts a process: "
                             "mark it @pytest.mark.system")

    monkeypatch.setattr(subprocess.Popen, "_execute_child", refuse)
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", refuse)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        tier = tier_of(item)
        if tier != "system":  # an explicit system mark is already on the item
            item.add_marker(tier)
        elif not item.get_closest_marker("system"):
            item.add_marker("system")


@pytest.fixture(scope="session")
def test_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Short path: the embedded server puts its unix socket in the data directory.
    home = Path(os.environ.get("PAGEMILL_TEST_HOME") or f"/tmp/pagemill-test-{os.getpid()}")
    home.mkdir(parents=True, exist_ok=True)
    return home


@pytest.fixture(scope="session")
def database_url(test_home: Path) -> Iterator[str]:
    url = os.environ.get("TEST_DATABASE_URL")
    if url:
        from app.config import to_sqlalchemy_url

        url = to_sqlalchemy_url(url)
        admin = url.rsplit("/", 1)[0] + "/postgres"
        create_database(admin, "pagemill_test")
        url = url.rsplit("/", 1)[0] + "/pagemill_test"
    else:
        url = start_embedded(test_home / "pgdata", database="pagemill_test")
    upgrade_schema(url)
    yield url
    if not os.environ.get("TEST_DATABASE_URL") and not os.environ.get("PAGEMILL_TEST_HOME"):
        get_engine(url).dispose()
        get_engine.cache_clear()
        stop_embedded(test_home / "pgdata")
        shutil.rmtree(test_home, ignore_errors=True)


@pytest.fixture(scope="session")
def fake_mistral() -> Iterator[FakeMistral]:
    """A local server speaking Mistral's files/batch/OCR protocol, shared by the session."""
    server = FakeMistral().start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def test_env(test_home: Path, database_url: str, fake_mistral: FakeMistral) -> dict[str, str]:
    """Environment for child processes (workers, CLI) and for Config.from_env here."""
    env = dict(os.environ)
    env.update({
        "PAGEMILL_HOME": str(test_home),
        "DATABASE_URL": database_url,
        "STORAGE_URL": f"file://{test_home / 'objects'}",
        "PAGEMILL_LOG_LEVEL": "WARNING",
        "HF_HUB_OFFLINE": "1",
        # Processes load their models when they need them: a test's API or worker process
        # spends no CPU on embedders it never uses (tests/test_processes.py has them preloaded).
        "PAGEMILL_PRELOAD_EMBEDDERS": "0",
        "MISTRAL_API_KEY": "test-key",
        "MISTRAL_SERVER_URL": fake_mistral.url,
        "PAGEMILL_PROVIDER_POLL_SECONDS": "0.3",
        # Test documents are served from 127.0.0.1 over plain HTTP.
        "PAGEMILL_URL_ALLOW_HTTP": "1",
        "PAGEMILL_URL_ALLOW_LOOPBACK": "1",
        # The database is external (DATABASE_URL), so secret job options need a key.
        "PAGEMILL_SECRET_KEY": base64.urlsafe_b64encode(os.urandom(32)).decode(),
    })
    os.environ.update({k: env[k] for k in ("PAGEMILL_HOME", "DATABASE_URL", "STORAGE_URL",
                                            "HF_HUB_OFFLINE")})
    return env


@pytest.fixture(scope="session")
def config(test_env: dict[str, str]) -> Config:
    return Config.from_env(test_env)


@pytest.fixture(scope="session")
def runtime(test_env: dict[str, str]) -> Runtime:
    """The test database's runtime: what a test hands to the workflow (submission, dispatch,
    the reconciler), as the API and the CLI hand theirs."""
    return Runtime(Config.from_env(test_env))


@pytest.fixture(scope="session")
def engine(database_url: str) -> Engine:
    return get_engine(database_url)


@pytest.fixture(scope="session")
def storage(test_home: Path) -> LocalStorage:
    return LocalStorage(test_home / "objects")


@pytest.fixture
def tenant(engine: Engine) -> str:
    """A fresh tenant per test: its rows are invisible to every other test."""
    with engine.begin() as conn:
        return ensure_tenant(conn, f"t-{uuid.uuid4().hex[:12]}")


def wait_for(predicate, timeout: float = 120.0, interval: float = 0.25, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def hold_job(conn: Any, job_id: str) -> None:
    """A job no worker will ever be given: handed over, its batches holding their slots with
    nothing published (app/domain/admission.py admits only batches without a slot), so that a test
    can watch it stay queued until the test itself changes it."""
    from app.domain import jobs

    jobs.mark_handed(conn, job_id)
    conn.execute(text("UPDATE batches SET admitted_at = now(), published_at = now() "
                      "WHERE job_id = CAST(:j AS uuid)"), {"j": job_id})


def held_job(engine: Engine, tenant_id: str) -> str:
    """A job of one record that nobody works on (:func:`hold_job`): it changes state only when
    a test cancels it."""
    from app.domain import jobs

    doc = jobs.NewDocument(external_id="waiting", source="record", object_key=None, mime_type=None,
                           size_bytes=None, sha256=None)
    with engine.begin() as conn:
        job_id, _ = jobs.create_job(conn, tenant_id, [doc], 10)
        hold_job(conn, job_id)
    return job_id


def start_worker(env: dict[str, str], engine: Engine) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "worker"], env=env, cwd=ROOT,
                            start_new_session=True)

    def ready() -> bool:
        if proc.poll() is not None:
            raise AssertionError(f"worker exited with {proc.returncode}")
        with engine.connect() as conn:
            return bool(conn.execute(text("SELECT 1 FROM worker_heartbeats WHERE pid = :pid"),
                                     {"pid": proc.pid}).first())

    wait_for(ready, timeout=120, what="worker heartbeat")
    return proc


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (for a server a test starts)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_serve(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    """``pagemill serve --no-worker`` on 127.0.0.1:``port``, its output in ``log``, once its
    ``/healthz`` answers 200 (stop it with :func:`terminate`)."""
    import http.client

    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "app.cli", "serve", "--no-worker", "--host",
                                 "127.0.0.1", "--port", str(port)], env=env, cwd=ROOT, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)

    def up() -> bool:
        if proc.poll() is not None:
            raise AssertionError(f"serve exited with {proc.returncode}: {log.read_text()[-3000:]}")
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        try:
            conn.request("GET", "/healthz")
            return conn.getresponse().status == 200
        except OSError:
            return False
        finally:
            conn.close()

    wait_for(up, timeout=120, what="pagemill serve")
    return proc


def terminate(proc: subprocess.Popen[Any], timeout: float = 60) -> None:
    """SIGTERM the process (a warm shutdown of its main process only); if it is not gone
    within ``timeout``, SIGKILL its whole process group (started with start_new_session)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def stop_worker(proc: subprocess.Popen[bytes]) -> None:
    terminate(proc)


@contextmanager
def private_database_url(database_url: str) -> Iterator[str]:
    """A database of its own on the test server, migrated, dropped afterwards: no other test's
    worker (on the database's own broker) is there to take its jobs."""
    from sqlalchemy import make_url

    name = f"pagemill_private_{uuid.uuid4().hex[:8]}"
    url = make_url(database_url)
    create_database(url.set(database="postgres").render_as_string(hide_password=False), name)
    private = url.set(database=name).render_as_string(hide_password=False)
    upgrade_schema(private)
    try:
        yield private
    finally:
        get_engine(private).dispose()
        with get_engine(database_url).connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))


@pytest.fixture()
def private_database(database_url: str) -> Iterator[str]:
    with private_database_url(database_url) as url:
        yield url


@pytest.fixture()
def scratch_database(database_url: str) -> Iterator[str]:
    """A database of its own on the test server, with no schema at all; dropped afterwards."""
    from sqlalchemy import make_url

    name = f"pagemill_scratch_{uuid.uuid4().hex[:8]}"
    url = make_url(database_url)
    admin = url.set(database="postgres").render_as_string(hide_password=False)
    create_database(admin, name)
    fresh = url.set(database=name).render_as_string(hide_password=False)
    yield fresh
    get_engine(fresh).dispose()
    with get_engine(admin).connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(scope="module")
def client(config: Config) -> Any:
    """A test client of the real Flask app on the test database."""
    from app.api import create_app

    return create_app(config).test_client()


@pytest.fixture
def key(engine: Engine) -> str:
    """A new API key, of a tenant of its own."""
    from app.domain.auth import create_key

    with engine.begin() as conn:
        return create_key(conn, f"key-{uuid.uuid4().hex[:10]}")


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture(scope="session")
def worker(test_env: dict[str, str], engine: Engine) -> Iterator[subprocess.Popen[bytes]]:
    proc = start_worker(test_env, engine)
    yield proc
    stop_worker(proc)
