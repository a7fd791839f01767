"""pagemill's processes as an operator runs them, each on a fresh embedded home: ``pagemill
serve`` supervising its worker (and ``/readyz`` saying when it has none; a request's id on its
JSON log lines, the worker's included), the Procfile's
processes started at the same instant, Flower refusing to run without authentication, and
the embedded server stopping when the last process using it exits.

Every process here is real and is killed afterwards (by process group, and by anything still
naming the home in its command line or environment) even when a test fails: a leaked server
or worker would slow down everyone sharing the machine.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil
import pytest
import requests
from sqlalchemy import make_url, text

from app.infra.db import get_engine
from tests.conftest import ROOT, free_port, wait_for


def _processes_on(home: Path) -> list[psutil.Process]:
    """Every process started for ``home``: its PostgreSQL names the data directory on its
    command line, and pagemill's processes (and the server, started by them) carry
    PAGEMILL_HOME in their environment."""
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        try:
            if proc.pid == os.getpid():
                continue
            if str(home) in " ".join(proc.info["cmdline"] or []) or \
                    proc.environ().get("PAGEMILL_HOME") == str(home):
                found.append(proc)
        except psutil.Error:
            continue
    return found


def _postgres_on(home: Path) -> list[psutil.Process]:
    """The embedded server's processes for ``home`` (its postmaster and backends)."""
    pgdata = str(home / "pgdata")
    found = []
    for proc in psutil.process_iter(["name", "cmdline"]):
        try:
            if proc.info["name"] == "postgres" and (
                    pgdata in " ".join(proc.info["cmdline"] or []) or proc.cwd() == pgdata):
                found.append(proc)
        except psutil.Error:
            continue
    return found


class Processes:
    """Processes started for one test, each in a session (so a process group) of its own."""

    def __init__(self, home: Path, env: dict[str, str]) -> None:
        self.home, self.env = home, env
        self.started: list[subprocess.Popen[bytes]] = []

    def start(self, name: str, *args: str, **env: str) -> subprocess.Popen[bytes]:
        log = open(self.home / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen(list(args), env={**self.env, **env}, cwd=ROOT, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        self.started.append(proc)
        return proc

    def log(self, name: str) -> str:
        return (self.home / f"{name}.log").read_text(errors="replace")

    def kill_all(self) -> None:
        for proc in self.started:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            left = _processes_on(self.home)
            if not left:
                break
            for proc in left:
                try:
                    proc.kill()
                except psutil.Error:
                    pass
            psutil.wait_procs(left, timeout=1)
        for proc in self.started:
            if proc.poll() is None:
                proc.wait(timeout=5)


@contextmanager
def _fresh_home(prefix: str) -> Iterator[Processes]:
    """A short PAGEMILL_HOME of its own on the embedded default (no DATABASE_URL, no
    STORAGE_URL), and what is started on it; afterwards all of it is killed and removed."""
    home = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "STORAGE_URL", "PORT") and not k.startswith("FLOWER_")}
    env.update({"PAGEMILL_HOME": str(home), "HF_HUB_OFFLINE": "1", "PAGEMILL_LOG_LEVEL": "WARNING"})
    processes = Processes(home, env)
    try:
        yield processes
    finally:
        processes.kill_all()
        shutil.rmtree(home, ignore_errors=True)


def _get(url: str, **kwargs) -> requests.Response | None:
    try:
        return requests.get(url, timeout=5, **kwargs)
    except requests.ConnectionError:
        return None


def _api_key(processes: Processes, tenant: str) -> str:
    made = subprocess.run([sys.executable, "-m", "app.cli", "keys", "create", "--tenant", tenant],
                          env=processes.env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    return made.stdout.strip().splitlines()[-1]


def _submit(base: str, key: str, *doc_ids: str, request_id: str | None = None) -> str:
    body = {"documents": [{"id": doc_id, "text": f"{doc_id}: durable queues keep every message."}
                          for doc_id in doc_ids]}
    headers = {"Authorization": f"Bearer {key}"}
    if request_id is not None:
        headers["X-Request-ID"] = request_id
    response = requests.post(f"{base}/v1/jobs", json=body, timeout=30, headers=headers)
    assert response.status_code == 202, response.text
    if request_id is not None:
        assert response.headers["X-Request-ID"] == request_id
    return str(response.json()["id"])


def _records(log: str) -> list[dict]:
    out = []
    for line in log.splitlines():
        if line.startswith("{"):
            out.append(json.loads(line))  # every line of a JSON log parses
    return out


def _wait_completed(base: str, key: str, job_id: str, timeout: float = 90) -> None:
    def status() -> str | None:
        job = requests.get(f"{base}/v1/jobs/{job_id}", timeout=10,
                           headers={"Authorization": f"Bearer {key}"}).json()
        return job["status"] if job["status"] in ("completed", "completed_with_errors", "failed",
                                                     "cancelled") else None

    assert wait_for(status, timeout=timeout, interval=0.5, what=f"job {job_id}") == "completed"


def _stopped_cleanly(processes: Processes, timeout: float = 60) -> None:
    """SIGTERM to every process started, then none of them, and no server on the home, is left."""
    for proc in processes.started:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in processes.started:
        proc.wait(timeout=timeout)
    wait_for(lambda: not _postgres_on(processes.home), timeout=15, interval=0.25,
             what=f"the embedded server to stop (clients: "
                  f"{(processes.home / 'pgdata' / '.handle_pids.json').read_text()})")


def _worker_tree(serve: subprocess.Popen[bytes]) -> psutil.Process | None:
    for child in psutil.Process(serve.pid).children():
        try:
            if "tasks" in child.cmdline() and "worker" in child.cmdline():
                return child
        except psutil.Error:  # a short-lived helper (pg_ctl) exiting
            continue
    return None


@pytest.mark.system
def test_serve_restarts_its_killed_worker_and_readyz_says_when_there_is_none():
    """``pagemill serve`` on $PORT; its worker's whole tree killed: /readyz answers 503 naming
    the missing worker, the supervisor starts a new one, /readyz is 200 again, and a job
    submitted while there was no worker completes.  SIGTERM then stops everything, the
    embedded server included.

    With JSON logs (request ids, tests/test_request_ids.py; checked on this server rather than
    on a fresh home of their own): the job, sent with an ``X-Request-ID``, finds that id on the
    API's "job created" line and on the worker's lines for each of its documents; gunicorn's
    own 414 is the API's JSON error body."""
    with _fresh_home("pm-sv-") as processes:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        serve = processes.start("serve", sys.executable, "-m", "app.cli", "serve", PORT=str(port),
                                PAGEMILL_LOG_LEVEL="INFO", PAGEMILL_LOG_FORMAT="json")

        def ready() -> bool:
            assert serve.poll() is None, processes.log("serve")
            answer = _get(f"{base}/readyz")
            return answer is not None and answer.status_code == 200

        wait_for(ready, timeout=120, interval=0.5, what="/readyz 200 on $PORT")
        assert _get(f"{base}/healthz").json() == {"status": "ok"}
        key = _api_key(processes, "supervised")
        first = wait_for(lambda: _worker_tree(serve), timeout=10, what="the worker child")

        os.killpg(first.pid, signal.SIGKILL)  # the worker's process group: it and its pool

        def not_ready() -> dict | None:
            answer = _get(f"{base}/readyz")
            return answer.json() if answer is not None and answer.status_code == 503 else None

        body = wait_for(not_ready, timeout=30, interval=0.2, what="/readyz 503 without a worker")
        assert body["error"]["code"] == "not_ready" and "worker" in body["error"]["details"], body
        assert _get(f"{base}/healthz").status_code == 200  # liveness is not readiness
        rid = f"trace-{uuid.uuid4().hex}"
        job_id = _submit(base, key, "after-the-kill", "second", request_id=rid)

        wait_for(ready, timeout=90, interval=0.5, what="/readyz 200 after the restart")
        second = _worker_tree(serve)
        assert second is not None and second.pid != first.pid
        _wait_completed(base, key, job_id)
        assert "restarting" in processes.log("serve"), processes.log("serve")
        _request_id_on_the_log_lines(processes, port, rid, job_id, {"after-the-kill", "second"})
        _stopped_cleanly(processes)
        assert serve.returncode in (0, 128 + signal.SIGTERM), processes.log("serve")


def _request_id_on_the_log_lines(processes: Processes, port: int, rid: str, job_id: str,
                                 documents: set[str]) -> None:
    """The JSON log of ``pagemill serve`` (the API's and its worker's lines) ties request
    ``rid`` to the job it created and to each of its ``documents`` indexed; a request line too
    long for gunicorn is answered 414 with the API's JSON error body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        raw.sendall(b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        refused = raw.recv(65536).decode()
    head, _, payload = refused.partition("\r\n\r\n")
    assert head.startswith("HTTP/1.1 414") and "application/json" in head
    assert json.loads(payload)["error"]["code"] == "request_uri_too_long"

    def indexed_lines() -> list[dict] | None:
        mine = [r for r in _records(processes.log("serve")) if r.get("request_id") == rid]
        done = {r.get("document_id") for r in mine if r["event"] == "document indexed"}
        return mine if done >= documents else None

    mine = wait_for(indexed_lines, timeout=30, interval=0.5, what="the worker's indexed lines")
    events = {r["event"] for r in mine}
    assert "job created" in events and "batch started" in events, events
    worker_lines = [r for r in mine if r["event"] == "document indexed"]
    assert all(r["job_id"] == job_id and r.get("task_id") for r in worker_lines), worker_lines


@pytest.mark.system
def test_processes_started_together_on_a_fresh_home_all_stay_up():
    """The Procfile's worker, beat, Flower (with authentication) and an API started at the same
    instant on a fresh embedded home: one server, one database and one schema come out of the
    race, every process stays up, a job completes, and the server stops after the last exits."""
    with _fresh_home("pm-race-") as processes:
        port, flower_port = free_port(), free_port()
        base = f"http://127.0.0.1:{port}"
        celery = [sys.executable, "-m", "celery", "-A", "tasks"]
        procs = {
            "worker": processes.start("worker", *celery, "worker", "--concurrency=1",
                                      "--loglevel=WARNING"),
            "beat": processes.start("beat", *celery, "beat", "--loglevel=WARNING",
                                    f"--schedule={processes.home / 'celerybeat-schedule'}"),
            "flower": processes.start("flower", sys.executable, "-m", "app.cli", "flower",
                                      FLOWER_BASIC_AUTH="ops:s3cret", FLOWER_PORT=str(flower_port)),
            "api": processes.start("api", sys.executable, "-m", "app.cli", "serve", "--no-worker",
                                   PORT=str(port), PAGEMILL_LOG_LEVEL="INFO"),
        }

        def all_up() -> None:
            for name, proc in procs.items():
                assert proc.poll() is None, f"{name} exited:\n{processes.log(name)}"

        def ready() -> bool:
            all_up()
            answer = _get(f"{base}/readyz")
            return answer is not None and answer.status_code == 200

        wait_for(ready, timeout=120, interval=0.5, what="/readyz 200 (worker heartbeat)")
        flower = f"http://127.0.0.1:{flower_port}/api/workers"

        def flower_status(**kwargs) -> int | None:
            answer = _get(flower, **kwargs)  # a Response is falsy when it is a 4xx
            return None if answer is None else answer.status_code

        assert wait_for(flower_status, timeout=30, what="Flower") == 401
        assert flower_status(auth=("ops", "s3cret")) == 200
        listening = {c.laddr.ip for c in psutil.Process(procs["flower"].pid).net_connections("tcp")
                     if c.status == psutil.CONN_LISTEN}
        assert listening == {"127.0.0.1"}, listening  # loopback unless FLOWER_ADDRESS says
        key = _api_key(processes, "together")
        _wait_completed(base, key, _submit(base, key, "started-together"))
        # The API's gunicorn worker loaded the embedder before any search asked for it.
        wait_for(lambda: "embedders loaded before the first search" in processes.log("api"), timeout=60,
                 what="the API's embedder warm-up")
        time.sleep(2)
        all_up()
        for name in procs:
            assert "Traceback" not in processes.log(name), processes.log(name)
        _stopped_cleanly(processes)


@pytest.mark.system
def test_commands_started_together_on_a_fresh_home_both_work_and_leave_no_server():
    """Two short commands at once on a fresh home: both succeed (one creates the server and the
    database, the other waits and joins), and once both have exited the server is stopped."""
    with _fresh_home("pm-two-") as processes:
        cli = [sys.executable, "-m", "app.cli", "keys", "create"]
        first = processes.start("first", *cli, "--tenant", "one")
        second = processes.start("second", *cli, "--tenant", "two")
        assert first.wait(timeout=120) == 0, processes.log("first")
        assert second.wait(timeout=120) == 0, processes.log("second")
        wait_for(lambda: not _postgres_on(processes.home), timeout=10, interval=0.25,
                 what="the embedded server to stop after its last client")


@pytest.mark.system
def test_flower_refuses_to_start_without_authentication():
    with _fresh_home("pm-fl-") as processes:
        refused = subprocess.run([sys.executable, "-m", "app.cli", "flower"], env=processes.env,
                                 cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert refused.returncode != 0
        assert "FLOWER_BASIC_AUTH" in refused.stderr, refused.stderr
        weak = subprocess.run([sys.executable, "-m", "app.cli", "flower"], cwd=ROOT,
                              env={**processes.env, "FLOWER_BASIC_AUTH": "ops"},
                              capture_output=True, text=True, timeout=60)
        assert weak.returncode != 0 and "user:password" in weak.stderr, weak.stderr
        assert not (processes.home / "pgdata").exists()  # refused before touching anything


def test_flower_counts_only_complete_authentication_settings():
    from app.cli.flower import OAUTH_SETTINGS, authentication_problem

    assert authentication_problem({"FLOWER_BASIC_AUTH": "ops:pw,admin:other"}) is None
    for weak in ("ops", "ops:", ":pw", "ops:pw,admin"):
        assert authentication_problem({"FLOWER_BASIC_AUTH": weak}), weak
    oauth = {name: "x" for name in OAUTH_SETTINGS}
    assert authentication_problem(oauth) is None
    partial = {k: v for k, v in oauth.items() if k != "FLOWER_OAUTH2_SECRET"}
    assert "FLOWER_OAUTH2_SECRET" in (authentication_problem(partial) or "")
    assert authentication_problem({}) is not None


def test_restart_delays_double_up_to_the_cap_and_reset_after_a_healthy_minute():
    from tasks.worker import RestartBackoff

    backoff = RestartBackoff()
    delays, delay = [], None
    for _ in range(7):  # a worker that dies right after each start
        delay = backoff.next_delay(delay, uptime=2.0)
        delays.append(delay)
    assert delays == [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]
    assert backoff.next_delay(30.0, uptime=59.0) == 30.0
    assert backoff.next_delay(30.0, uptime=60.0) == 1.0  # it stayed up a minute: healthy


def test_readyz_names_a_schema_behind_the_code_and_an_unreachable_database(config, scratch_database):

    from alembic.script import ScriptDirectory

    from app.api import create_app
    from app.infra.db import PROJECT_ROOT

    client = create_app(config.with_overrides(database={"url": scratch_database})).test_client()
    answer = client.get("/readyz")
    assert answer.status_code == 503
    details = answer.get_json()["error"]["details"]
    assert "schema" in details and "database" not in details, details
    script = ScriptDirectory(str(PROJECT_ROOT / "alembic"))
    head = script.get_current_head()
    behind = script.get_revision(head).down_revision
    with get_engine(scratch_database).begin() as conn:
        conn.execute(text("CREATE TABLE alembic_version (version_num varchar(32) PRIMARY KEY)"))
        conn.execute(text("INSERT INTO alembic_version VALUES (:v)"), {"v": behind})
    details = client.get("/readyz").get_json()["error"]["details"]
    assert behind in details["schema"] and head in details["schema"], details
    assert client.get("/healthz").status_code == 200  # reachable: alive, though not ready

    nowhere = make_url(scratch_database).set(query={"host": "/nonexistent"}).render_as_string(
        hide_password=False)
    gone = create_app(config.with_overrides(database={"url": nowhere})).test_client()
    answer = gone.get("/readyz")
    assert answer.status_code == 503 and "database" in answer.get_json()["error"]["details"]
    assert gone.get("/healthz").status_code == 503
    json.dumps(answer.get_json())  # a JSON body, whatever went wrong


def test_readyz_names_an_unreachable_broker(config):
    """With ``BROKER_URL`` set (RabbitMQ, Redis), readiness also asks that broker; nothing
    listens on the port given here."""

    from app.api import create_app

    port = free_port()
    client = create_app(config.with_overrides(broker={"url": f"amqp://guest:guest@127.0.0.1:{port}//"})).test_client()
    answer = client.get("/readyz")
    assert answer.status_code == 503
    details = answer.get_json()["error"]["details"]
    assert "broker" in details and "BROKER_URL" in details["broker"], details
    assert "model" not in details  # the embedding model's files are installed here
    assert client.get("/healthz").status_code == 200  # liveness does not depend on the broker
