"""Event streams are a connection budget: ``GET /v1/jobs/<id>/events`` shares one LISTEN
connection per process and reads state through the pool only briefly, so 200 streams open at
once against a real ``pagemill serve`` never cause a 5xx, never block ``GET /v1/jobs`` and keep
PostgreSQL's connection count bounded; streams over the cap are a JSON 503 with Retry-After;
a stream ends when its job does, also after its listener connection was killed, and a lost
notification only delays an event."""

from __future__ import annotations

import http.client
import json
import socket
import struct
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import pytest
from sqlalchemy import Engine, text

from app.domain import jobs
from app.domain.auth import create_key
from tests.conftest import ROOT, free_port, held_job, start_serve, terminate, wait_for

STREAM_CAP = 200
LISTENER = "pagemill-job-events"



@dataclass
class Server:
    port: int
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def api_pid(self) -> int:
        """The process serving requests: gunicorn's worker (the child of its master, a child of
        ``serve``), which holds the event streams and their listener."""
        for child in psutil.Process(self.proc.pid).children(recursive=True):
            try:
                parent = child.parent()
                if "app.web_server" in " ".join(child.cmdline()) and parent is not None and \
                        "app.web_server" in " ".join(parent.cmdline()):
                    return int(child.pid)
            except psutil.Error:
                continue
        raise AssertionError("no gunicorn worker under serve")

    def records(self) -> list[dict]:
        """The server's log records (JSON lines: its stderr is not a terminal)."""
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.startswith("{")]

    def request(self, method: str, path: str, key: str, timeout: float = 30.0
                ) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request(method, path, headers={"Authorization": f"Bearer {key}"})
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()


@pytest.fixture(scope="module")
def server(test_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    port = free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    # Threads enough for every stream and the requests beside them (serve keeps 16 free).
    # Keep-alives every second: a client that went away is noticed at the next one.
    env = {**test_env, "PAGEMILL_MAX_EVENT_STREAMS": str(STREAM_CAP),
           "PAGEMILL_WEB_THREADS": str(STREAM_CAP + 40), "PAGEMILL_EVENT_KEEPALIVE_SECONDS": "1"}
    proc = start_serve(env, port, log)
    running = Server(port, proc, log)
    yield running
    terminate(proc, timeout=30)


@dataclass
class Stream:
    """One client reading ``/events`` in its own thread, as a browser's EventSource would."""

    server: Server
    key: str
    job_id: str
    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    events: list[tuple[str, dict]] = field(default_factory=list)
    error: BaseException | None = None
    opened: threading.Event = field(default_factory=threading.Event)
    ended: threading.Event = field(default_factory=threading.Event)

    def start(self) -> Stream:
        threading.Thread(target=self._read, daemon=True).start()
        return self

    def _read(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=120)
        try:
            conn.request("GET", f"/v1/jobs/{self.job_id}/events",
                         headers={"Authorization": f"Bearer {self.key}", "Accept": "text/event-stream"})
            response = conn.getresponse()
            self.status, self.headers = response.status, dict(response.getheaders())
            if response.status != 200:
                self.body = response.read()
                return
            name = None
            while True:
                line = response.readline()
                if not line:
                    return
                line = line.decode().rstrip("\n")
                if line.startswith("event: "):
                    name = line[len("event: "):]
                elif line.startswith("data: ") and name:
                    self.events.append((name, json.loads(line[len("data: "):])))
                    self.opened.set()
                    if name == "end":
                        return
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.error = exc
        finally:
            self.opened.set()
            self.ended.set()
            conn.close()


def _database_connections(engine: Engine, server: Server) -> tuple[int, int]:
    """(connections to the test database, of them the server's job-events listeners)."""
    with engine.connect() as conn:
        row = conn.execute(text("""
            SELECT count(*) AS total, count(*) FILTER (WHERE application_name = :listener) AS listeners
            FROM pg_stat_activity WHERE datname = current_database()
        """), {"listener": f"{LISTENER} {server.api_pid}"}).one()
    return int(row.total), int(row.listeners)


def _listener_pids(engine: Engine, server: Server) -> set[int]:
    with engine.connect() as conn:
        return set(conn.execute(text("SELECT pid FROM pg_stat_activity WHERE application_name = :n"),
                                {"n": f"{LISTENER} {server.api_pid}"}).scalars())


@pytest.fixture
def caller(engine: Engine) -> tuple[str, str]:
    with engine.begin() as conn:
        key = create_key(conn, f"streams-{uuid.uuid4().hex[:10]}")
        tenant_id = conn.execute(text("SELECT tenant_id FROM api_keys WHERE prefix = :p"),
                                 {"p": key.split("_")[1]}).scalar_one()
    return key, str(tenant_id)


def test_200_streams_share_one_listener_and_never_block_the_api(server, engine, caller):
    key, tenant_id = caller
    first, second = held_job(engine, tenant_id), held_job(engine, tenant_id)
    baseline, _ = _database_connections(engine, server)

    streams = [Stream(server, key, first if i % 4 else second).start() for i in range(STREAM_CAP)]
    for stream in streams:
        assert stream.opened.wait(120), "a stream never sent its first event"
    assert [s.status for s in streams] == [200] * STREAM_CAP, \
        {s.status: s.body[:300] for s in streams if s.status != 200}
    assert all(s.events[0][0] == "progress" and s.events[0][1]["status"] == "queued" for s in streams)

    # Ordinary requests are answered while every stream is open.
    for _ in range(5):
        status, _, body = server.request("GET", "/v1/jobs", key, timeout=10)
        assert status == 200 and len(json.loads(body)["jobs"]) == 2

    # Over the cap: a JSON 503 saying when to come back, not a hung or broken stream.
    status, headers, body = server.request("GET", f"/v1/jobs/{first}/events", key)
    assert status == 503
    assert int(headers["Retry-After"]) > 0 and headers["Content-Type"] == "application/json"
    error = json.loads(body)["error"]
    assert error["code"] == "too_many_streams" and error["details"] == {"limit": STREAM_CAP}

    # One LISTEN connection for all of them, and the pool's few (the old code held one each).
    total, listeners = _database_connections(engine, server)
    assert listeners == 1
    assert total <= baseline + 11, (baseline, total)

    # The job ends: every one of its streams gets the terminal event, the others stay open.
    assert server.request("POST", f"/v1/jobs/{first}/cancel", key)[0] == 200
    firsts = [s for s in streams if s.job_id == first]
    seconds = [s for s in streams if s.job_id == second]
    for stream in firsts:
        assert stream.ended.wait(30) and stream.error is None
        assert stream.events[-1] == ("end", {"status": "cancelled"})
    assert not any(s.ended.is_set() for s in seconds)

    # A stream's slot is given back when it ends: the cap is about open streams.
    status, _, _ = server.request("GET", f"/v1/jobs/{first}/events", key)
    assert status == 200

    # Kill the shared listener's connection: it reconnects, and the other job's streams still
    # hear about its end.
    (old_pid,) = _listener_pids(engine, server)
    with engine.connect() as conn:
        conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": old_pid})
    wait_for(lambda: _listener_pids(engine, server) - {old_pid}, timeout=30, what="a new listener")
    assert server.request("POST", f"/v1/jobs/{second}/cancel", key)[0] == 200
    for stream in seconds:
        assert stream.ended.wait(30) and stream.error is None
        assert stream.events[-1] == ("end", {"status": "cancelled"})
    # Nothing but the refusal above was a 5xx, and nothing was logged as an error.
    records = server.records()
    server_errors = [r for r in records if r.get("status", 0) >= 500 and "route" in r]
    assert len(server_errors) == 1 and server_errors[0]["status"] == 503 and \
        server_errors[0]["route"].endswith("/events"), server_errors
    assert not [r for r in records if r["level"] in ("error", "critical")]


def test_a_closed_client_gives_its_slot_back(server, engine, caller):
    key, tenant_id = caller
    job_id = held_job(engine, tenant_id)
    process = psutil.Process(server.api_pid)

    # Its pool's threads outlive the streams; the sockets do not: a stream's socket is closed
    # when the stream has ended and given its slot back.
    idle_fds = process.num_fds()
    for _ in range(2):  # more streams in total than the cap, never more at once
        batch = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(STREAM_CAP)]
        for sock in batch:
            sock.sendall(f"GET /v1/jobs/{job_id}/events HTTP/1.1\r\nHost: x\r\n"
                         f"Authorization: Bearer {key}\r\n\r\n".encode())
        for sock in batch:
            sock.settimeout(60)
            assert sock.recv(64).startswith(b"HTTP/1.1 200")
        for sock in batch:
            # Hang up with a reset, as a client that went away does: the server notices at
            # its next write (the keep-alive at the latest) and frees the stream's slot.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()
        wait_for(lambda: process.num_fds() <= idle_fds + 2, timeout=60, interval=1,
                 what="the closed streams to end")
    assert server.request("POST", f"/v1/jobs/{job_id}/cancel", key)[0] == 200


def test_a_lost_notification_only_delays_the_event(database_url, engine, tenant, monkeypatch):
    """No NOTIFY at all (triggers off for the writer): the periodic re-read still ends it.
    And the listener goes away once no stream needs it."""
    from app.domain import events
    from app.domain.events import JobEventHub, job_event_stream

    monkeypatch.setattr(events, "LISTENER_CHECK_SECONDS", 0.5)
    monkeypatch.setattr(events, "LISTENER_IDLE_SECONDS", 1.0)
    job_id = held_job(engine, tenant)
    hub = JobEventHub(database_url)
    subscription = hub.subscribe(job_id, limit=10)

    def read() -> dict | None:
        with engine.connect() as conn:
            progress = jobs.job_progress(conn, job_id, tenant)
        return {"status": progress.status} if progress else None

    frames = job_event_stream(subscription, read, reread_seconds=1.0)
    assert next(frames).startswith("event: progress")
    with engine.begin() as conn:
        conn.execute(text("SET LOCAL session_replication_role = replica"))  # no trigger fires
        conn.execute(text("UPDATE jobs SET status = 'cancelled' WHERE id = :j"), {"j": job_id})
    rest = list(frames)
    assert rest[-1] == 'event: end\ndata: {"status": "cancelled"}\n\n'
    assert hub.active_streams == 0
    # This hub's own listener (another test's API in this process may keep one of its own).
    listener = hub._thread
    wait_for(lambda: listener is None or not listener.is_alive(), timeout=10,
             what="the idle listener to stop")


@pytest.mark.system
def test_importing_events_starts_nothing():
    probe = ("import threading, app.domain.events, app.api.jobs; "
             "print(sorted(t.name for t in threading.enumerate()))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, check=True)
    assert out.stdout.strip() == "['MainThread']"
