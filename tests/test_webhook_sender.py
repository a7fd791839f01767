"""The webhook sender against hostile receivers: attempts bounded as a whole, one tenant's
receivers unable to hold up another tenant's ingestion or deliveries, attempts that raise
recorded as failures without touching the others, endpoints deleted mid-attempt, the breaker.

Receivers are real sockets on 127.0.0.1: one that accepts and never answers, one that drips
its status line a byte at a time, one that drips its body.  The module has a database of its
own (as tests/test_webhooks.py, whose fixtures and helpers it shares).
"""
# The fixtures imported from tests/test_webhooks.py are this module's test parameters too:
# ruff: noqa: F811

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import text

from app.domain import webhooks
from app.domain.auth import create_key
from app.infra.url_fetch import UrlPolicy
from app.infra.webhook_delivery import DEADLINE_ERROR, post
from tasks import webhooks as sender_module
from tasks.webhooks import deliver_due
from tests.conftest import ROOT, bearer, start_worker, stop_worker, wait_for
from tests.test_webhooks import (  # noqa: F401 - fixtures, found by pytest under these names
    _deliveries,
    _finish_a_job,
    _subscribe,
    _tenant_of,
    client,
    config,
    engine,
    fast_config,
    module_env,
    receivers,
    webhook_database,
)


class SlowReceiver:
    """A TCP server that misbehaves as ``mode`` says: ``hang`` reads the request and never
    answers, ``drip_head`` sends its status line a byte every ``interval`` s, ``drip_body``
    sends a whole head (200, a long Content-Length) and then drips the body.  It records how
    long each connection stayed open, from accept until the sender closed it."""

    def __init__(self, mode: str, interval: float = 0.5) -> None:
        self.mode = mode
        self.interval = interval
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=128)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/hook"
        self.durations: list[float] = []
        self.open_connections = 0
        self.accepted = 0
        self.lock = threading.Lock()
        self.closed = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                self.accepted += 1
                self.open_connections += 1
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        started = time.monotonic()
        conn.settimeout(self.interval)
        try:
            if self.mode == "drip_body":
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
            dripped = b"HTTP/1.1 200 OK\r\n" * 1000
            for i in range(100_000):
                if self.closed.is_set():
                    break
                try:
                    data = conn.recv(65536)
                    if data == b"":
                        break  # the sender closed the connection
                except TimeoutError:
                    pass
                if self.mode == "drip_head":
                    conn.sendall(dripped[i:i + 1])
                elif self.mode == "drip_body":
                    conn.sendall(b"x")
        except OSError:
            pass  # reset by the sender: the attempt was cut
        finally:
            with self.lock:
                self.durations.append(time.monotonic() - started)
                self.open_connections -= 1
            conn.close()

    def close(self) -> None:
        self.closed.set()
        self.listener.close()


@pytest.fixture
def slow_receivers() -> Iterator[Any]:
    made: list[SlowReceiver] = []

    def make(mode: str) -> SlowReceiver:
        made.append(SlowReceiver(mode))
        return made[-1]

    yield make
    for receiver in made:
        receiver.close()


@pytest.mark.parametrize("mode", ["hang", "drip_head", "drip_body"])
def test_an_attempt_ends_at_its_deadline_however_the_receiver_drips(mode, config, slow_receivers):
    """One deadline covers connecting, the head and the body together: a receiver that sends a
    byte every 0.5 s (each read well within any per-read timeout) is cut at 1.5 s."""
    receiver = slow_receivers(mode)
    started = time.monotonic()
    outcome = post(receiver.url, b"{}", {}, UrlPolicy.from_config(config), timeout=1.5)
    took = time.monotonic() - started
    assert took < 2.5, took
    wait_for(lambda: receiver.durations, timeout=5, what="the receiver to see the close")
    assert receiver.durations[0] < 2.5
    if mode == "drip_body":
        assert outcome.status_code == 200  # the answer's head came in time: it counts
    else:
        assert (outcome.status_code, outcome.error) == (None, DEADLINE_ERROR)


def test_a_read_timing_out_at_the_deadline_is_the_deadline_even_before_the_watchdog(
        config, slow_receivers, monkeypatch):
    """Each read is given all that is left, so its timeout is the deadline itself; it can fire
    a moment before the watchdog marks the attempt expired (CI saw 'TimeoutError: timed out').
    With the watchdog held back, the attempt still ends at its deadline and says so."""
    from app.infra import webhook_delivery

    monkeypatch.setattr(webhook_delivery._WATCHDOG, "watch", lambda guard, deadline: None)
    receiver = slow_receivers("hang")
    outcome = post(receiver.url, b"{}", {}, UrlPolicy.from_config(config), timeout=1.0)
    assert (outcome.status_code, outcome.error) == (None, DEADLINE_ERROR)
    assert outcome.duration_ms < 2000


def _other_key(engine) -> str:
    with engine.begin() as conn:
        return create_key(conn, f"key-{uuid.uuid4().hex[:10]}")


def _attempts_of(engine, endpoint_ids: list[str]) -> list[tuple[int | None, str | None, int]]:
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text("""
            SELECT a.status_code, a.error, a.duration_ms FROM webhook_attempts a
            JOIN webhook_deliveries d ON d.id = a.delivery_id
            WHERE d.endpoint_id = ANY(CAST(:ids AS uuid[]))
        """), {"ids": endpoint_ids})]


def test_attempts_that_raise_are_recorded_once_each_and_touch_no_other_delivery(
        engine, storage, client, key, fast_config, receivers, monkeypatch):
    """An attempt that raises (here: the HTTP layer itself, for one endpoint's URL) is that
    attempt's failure, with the exception's class, on the retry schedule and no more; the
    other tenant's delivery claimed in the same runs is delivered once, and a receiver's
    malformed Retry-After (on a 200 and on a 503) is ignored, never an error."""
    poisoned = receivers([200])
    healthy = receivers([200], headers={"Retry-After": "²"})
    odd = receivers([503, 200], headers={"Retry-After": "soon\u00b2"})
    other_key = _other_key(engine)
    bad = _subscribe(client, key, poisoned.url, ["job.completed"])
    good = _subscribe(client, other_key, healthy.url, ["job.completed"])
    retried = _subscribe(client, other_key, odd.url, ["job.completed"])
    real_post = sender_module.post

    def failing_post(url: str, *args: Any, **kwargs: Any) -> Any:
        if url == poisoned.url:
            raise RuntimeError("an exception nobody expected")
        return real_post(url, *args, **kwargs)

    monkeypatch.setattr(sender_module, "post", failing_post)
    _finish_a_job(engine, storage, _tenant_of(engine, key))
    _finish_a_job(engine, storage, _tenant_of(engine, other_key))
    schedule = fast_config.with_overrides(webhooks={"retry_schedule": (0, 0.2, 0.2)})
    wait_for(lambda: (deliver_due(engine, schedule, run_seconds=2.0) or True)
             and _deliveries(client, key, bad["id"])[0]["status"] == "dead"
             and _deliveries(client, other_key, retried["id"])[0]["status"] == "delivered",
             timeout=60, interval=0.1, what="the poisoned delivery to die, the other to arrive")
    [dead] = _deliveries(client, key, bad["id"])
    assert len(dead["attempts"]) == 3  # the schedule's three, each recorded once
    assert all(a["status_code"] is None and a["error"].startswith("RuntimeError: an exception")
               for a in dead["attempts"])
    assert poisoned.requests == []
    [delivered] = _deliveries(client, other_key, good["id"])
    assert delivered["status"] == "delivered" and len(healthy.requests) == 1
    assert [a["status_code"] for a in delivered["attempts"]] == [200]
    [after_503] = _deliveries(client, other_key, retried["id"])
    assert [a["status_code"] for a in after_503["attempts"]] == [503, 200]


def test_deleting_an_endpoint_stops_its_attempt_in_flight(engine, storage, client, key, config,
                                                          slow_receivers):
    receiver = slow_receivers("hang")
    hook = _subscribe(client, key, receiver.url, ["job.completed"])
    _finish_a_job(engine, storage, _tenant_of(engine, key))
    slow = config.with_overrides(webhooks={"timeout": 30.0})
    done: dict[str, Any] = {}

    def run() -> None:
        started = time.monotonic()
        done["counts"] = deliver_due(engine, slow, run_seconds=60)
        done["took"] = time.monotonic() - started

    thread = threading.Thread(target=run)
    thread.start()
    wait_for(lambda: receiver.open_connections, timeout=30, what="the attempt in flight")
    deleted_at = time.monotonic()
    assert client.delete(f"/v1/webhooks/{hook['id']}", headers=bearer(key)).status_code == 204
    thread.join(timeout=20)
    assert not thread.is_alive()
    wait_for(lambda: receiver.durations, timeout=5, what="the receiver to see the close")
    assert time.monotonic() - deleted_at < 5  # cut within the sender's liveness check, not 30 s
    assert done["counts"].get("stopped") == 1


def test_the_breaker_pauses_an_endpoint_that_never_answers(engine, storage, client, key, config):
    """Three attempts in a row without an answer pause the endpoint for the schedule's next
    delay: its other deliveries, due now, are not claimed; after the pause, one at a time."""
    with socket.create_server(("127.0.0.1", 0)) as closed:
        port = closed.getsockname()[1]
    hook = _subscribe(client, key, f"http://127.0.0.1:{port}/nobody",
                      ["job.completed", "document.completed"])
    _finish_a_job(engine, storage, _tenant_of(engine, key))  # three events: two documents, the job
    schedule = config.with_overrides(webhooks={"retry_schedule": (0, 30, 30)})
    deliver_due(engine, schedule, run_seconds=5)
    with engine.connect() as conn:
        failures, paused = conn.execute(text("""
            SELECT consecutive_failures, paused_until > now() + interval '20 seconds'
            FROM webhook_endpoints WHERE id = CAST(:id AS uuid)"""), {"id": hook["id"]}).one()
    assert (failures, paused) == (3, True)
    events = [d["event_id"] for d in _deliveries(client, key, hook["id"])]
    for event in events:  # all due now again
        assert client.post(f"/v1/webhooks/{hook['id']}/deliveries/{event}/redeliver",
                           headers=bearer(key)).status_code == 202
    with engine.begin() as conn:
        assert [c for c in webhooks.claim_due(conn, 10, 30) if c.endpoint_id == hook["id"]] == []
        conn.execute(text("UPDATE webhook_endpoints SET paused_until = now() - interval '1 second' "
                          "WHERE id = CAST(:id AS uuid)"), {"id": hook["id"]})
    with engine.begin() as conn:  # half-open: one probe, though three are due
        probes = [c for c in webhooks.claim_due(conn, 10, 30) if c.endpoint_id == hook["id"]]
    assert len(probes) == 1


def test_a_claim_takes_tenants_in_turn_and_within_their_share(engine, storage, client, key, receivers):
    receiver = receivers([200])
    busy, quiet = key, _other_key(engine)
    for _ in range(3):
        _subscribe(client, busy, receiver.url, ["job.completed", "document.completed"])
    _subscribe(client, quiet, receiver.url, ["job.completed"])
    for _ in range(4):
        _finish_a_job(engine, storage, _tenant_of(engine, busy))  # 36 deliveries
    _finish_a_job(engine, storage, _tenant_of(engine, quiet))  # 1, due after all of them
    tenants = {_tenant_of(engine, busy): "busy", _tenant_of(engine, quiet): "quiet"}
    shares = webhooks.SenderShares(tenant=5, endpoint=3)
    with engine.begin() as conn:
        first = [tenants.get(c.tenant_id) for c in webhooks.claim_due(conn, 4, 30, shares)]
    assert "quiet" in first and first.count("busy") == 3
    with engine.begin() as conn:  # two of the busy tenant's are in flight still: three more at most
        second = [tenants.get(c.tenant_id) for c in webhooks.claim_due(conn, 10, 30, shares)]
    assert second.count("busy") == 2
    with engine.begin() as conn:  # release what this test leased: nothing else may send it
        conn.execute(text("UPDATE webhook_deliveries SET status = 'dead', leased_until = NULL "
                          "WHERE status = 'pending'"))


def _job_seconds(env: dict[str, str], engine, tenant_name: str, tmp_path, label: str) -> float:
    """Submit a one-document job through the CLI; seconds from its submission to completion."""
    records = tmp_path / f"{label}.jsonl"
    records.write_text(json.dumps({"id": label, "title": "Enzymes",
                                   "text": f"Kinases phosphorylate proteins ({label})."}) + "\n")
    submitted = subprocess.run([sys.executable, "-m", "app.cli", "ingest", "--jsonl", str(records),
                                "--tenant", tenant_name], env=env, cwd=ROOT, capture_output=True,
                               text=True, timeout=120)
    assert submitted.returncode == 0, submitted.stderr
    job_id = submitted.stdout.strip().splitlines()[-1]
    with engine.connect() as conn:
        created = conn.execute(text("SELECT extract(epoch FROM now() - created_at) FROM jobs "
                                    "WHERE id = CAST(:j AS uuid)"), {"j": job_id}).scalar_one()

    def finished() -> Any:
        with engine.connect() as conn:
            return conn.execute(text("""
                SELECT extract(epoch FROM updated_at - created_at) FROM jobs
                WHERE id = CAST(:j AS uuid) AND status = 'completed'"""), {"j": job_id}).scalar()

    seconds = wait_for(finished, timeout=120, interval=0.1, what=f"job {label}")
    print(f"{label}: completed {float(seconds):.2f} s after submission (CLI took {float(created):.2f} s)")
    return float(seconds)


@pytest.mark.system
def test_one_tenants_hanging_receivers_hold_up_no_other_tenant(engine, storage, client, key,
                                                               module_env, receivers,
                                                               slow_receivers, tmp_path):
    """Ten hanging and ten dripping receivers of one tenant, with dozens of deliveries due: a
    worker (one ingestion process) completes another tenant's one-document job as fast as when
    idle, delivers that tenant's event within seconds, and cuts every hostile attempt at its
    deadline."""
    hostile, victim = key, _other_key(engine)
    with engine.connect() as conn:
        victim_name = conn.execute(text("SELECT name FROM tenants WHERE id = CAST(:t AS uuid)"),
                                   {"t": _tenant_of(engine, victim)}).scalar_one()
    victim_receiver = receivers([200])
    _subscribe(client, victim, victim_receiver.url, ["job.completed"])
    env = {**module_env, "PAGEMILL_WEBHOOK_TIMEOUT": "3"}
    worker = start_worker(env, engine)
    try:
        _job_seconds(env, engine, victim_name, tmp_path, "warm-up")  # loads the model
        idle = _job_seconds(env, engine, victim_name, tmp_path, "idle")
        wait_for(lambda: len(victim_receiver.requests) >= 2, timeout=30, what="the idle events")
        bad = [slow_receivers("hang") for _ in range(10)] + [slow_receivers("drip_head") for _ in range(10)]
        hooks = [_subscribe(client, hostile, r.url, ["job.completed", "document.completed"])["id"]
                 for r in bad]
        for _ in range(3):
            _finish_a_job(engine, storage, _tenant_of(engine, hostile))  # 180 deliveries
        wait_for(lambda: sum(r.open_connections for r in bad) >= 10, timeout=30,
                 what="the hostile attempts in flight")
        loaded = _job_seconds(env, engine, victim_name, tmp_path, "loaded")
        sent = time.monotonic()
        wait_for(lambda: len(victim_receiver.requests) >= 3, timeout=30, what="the victim's event")
        event_wait = time.monotonic() - sent
        print(f"idle {idle:.2f} s, under hostile receivers {loaded:.2f} s; "
              f"the victim's event {event_wait:.2f} s after its job ended")
        assert loaded <= idle + 3.0
        assert event_wait < 5.0
        time.sleep(4)  # let the first attempts reach their deadlines
    finally:
        stop_worker(worker)
    attempts = _attempts_of(engine, hooks)
    assert attempts and all(ms <= 3000 + 1000 for _, _, ms in attempts), max(a[2] for a in attempts)
    assert all(r.durations == [] or max(r.durations) < 4.5 for r in bad)


def test_a_delivery_that_cannot_be_recorded_does_not_undo_the_others(engine, storage, client, key,
                                                                     fast_config, receivers,
                                                                     monkeypatch):
    """Outcomes that come back together are recorded in one transaction; when one of them
    cannot be (here its recording raises), the others are recorded each on its own, and the
    failing one stays leased (due again when its lease ends, as after a crash).  An error text
    with a NUL (a receiver's bytes) is stored printable."""
    from app.infra.webhook_delivery import AttemptOutcome
    from tasks.webhooks import WebhookSender, _InFlight

    receiver = receivers([200])
    hook = _subscribe(client, key, receiver.url, ["job.completed", "document.completed"])
    _finish_a_job(engine, storage, _tenant_of(engine, key))
    sender = WebhookSender(engine, fast_config)
    with engine.begin() as conn:
        claimed = [c for c in webhooks.claim_due(conn, 10, 30) if c.endpoint_id == hook["id"]]
    assert len(claimed) == 3
    doomed = claimed[0].id
    real = webhooks.record_outcome

    def record(conn: Any, delivery: Any, *args: Any, **kwargs: Any) -> str:
        if delivery.id == doomed:
            raise RuntimeError("cannot record this one")
        return real(conn, delivery, *args, **kwargs)

    monkeypatch.setattr(webhooks, "record_outcome", record)
    outcomes = [AttemptOutcome(200, None, 5), AttemptOutcome(503, "HTTP 503 \x00bad", 5),
                AttemptOutcome(200, None, 5)]
    for delivery, outcome in zip(claimed, outcomes, strict=True):
        sender._in_flight[delivery.id] = item = _InFlight(delivery)
        sender._done.put((item, outcome))
    with engine.begin() as conn:
        sender._record_finished(conn)
    sender.close()
    with engine.connect() as conn:
        rows = {r.id: r for r in conn.execute(text("""
            SELECT id, status, leased_until IS NOT NULL AS leased, last_error FROM webhook_deliveries
            WHERE id = ANY(:ids)"""), {"ids": [c.id for c in claimed]})}
    assert (rows[doomed].status, rows[doomed].leased) == ("pending", True)
    assert (rows[claimed[1].id].status, rows[claimed[1].id].last_error) == ("pending", "HTTP 503 \ufffdbad")
    assert rows[claimed[2].id].status == "delivered"
    assert sender.counts == {"pending": 1, "delivered": 1}
