"""Webhooks in the Standard Webhooks format, against a real HTTP receiver on 127.0.0.1.

Events come from real state changes (app/domain/jobs.py's functions, or a worker processing a job);
their triggers write them in the same transaction.  The module has a database of its own, so
that no worker of the rest of the session ever claims one of its deliveries: retry,
exhaustion, 410 and rotation run the delivery loop (tasks.webhooks.deliver_due) in this
process with a short retry schedule, and the end-to-end test and the crash test start worker
processes of their own on the module's database.  Signatures are verified
with the ``standardwebhooks`` package, an implementation independent of pagemill's signer.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from sqlalchemy import text

from app.config import Config
from app.domain import jobs
from app.domain.auth import authenticate
from app.infra.db import get_engine
from app.services.submission import stage_record
from tasks.webhooks import deliver_due
from tests.conftest import ROOT, bearer, private_database_url, start_worker, stop_worker, wait_for

standardwebhooks = pytest.importorskip("standardwebhooks")


class Receiver:
    """A webhook receiver: answers ``statuses`` in turn (then the last one forever), records
    every request; ``hold`` makes it wait before answering (a request in flight)."""

    def __init__(self, statuses: list[int], headers: dict[str, str] | None = None) -> None:
        self.statuses = statuses
        self.extra_headers = headers or {}
        self.requests: list[tuple[dict[str, str], bytes]] = []
        self.hold = threading.Event()
        self.hold.set()
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver.lock:
                    receiver.requests.append(({k.lower(): v for k, v in self.headers.items()}, body))
                    n = len(receiver.requests)
                receiver.hold.wait(60)
                status = receiver.statuses[min(n, len(receiver.statuses)) - 1]
                self.send_response(status)
                for name, value in receiver.extra_headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *_: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(body) for _, body in self.requests]

    def close(self) -> None:
        self.hold.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receivers() -> Iterator[Any]:
    made: list[Receiver] = []

    def make(statuses: list[int], headers: dict[str, str] | None = None) -> Receiver:
        made.append(Receiver(statuses, headers))
        return made[-1]

    yield make
    for receiver in made:
        receiver.close()


@pytest.fixture(scope="module")
def webhook_database(database_url: str) -> Iterator[str]:
    with private_database_url(database_url) as url:
        yield url


@pytest.fixture(scope="module")
def engine(webhook_database: str) -> Any:
    return get_engine(webhook_database)


@pytest.fixture(scope="module")
def config(config: Config, webhook_database: str) -> Config:
    return config.with_overrides(database={"url": webhook_database})


@pytest.fixture(scope="module")
def client(config: Config) -> Any:
    from app.api import create_app

    return create_app(config).test_client()


@pytest.fixture(scope="module")
def module_env(test_env: dict[str, str], webhook_database: str) -> dict[str, str]:
    """The environment of this module's worker processes: its database."""
    return {**test_env, "DATABASE_URL": webhook_database}


@pytest.fixture
def fast_config(config):
    """Four attempts 0.2 s apart (before jitter), 5 s per attempt."""
    return config.with_overrides(webhooks={"retry_schedule": (0, 0.2, 0.2, 0.2), "timeout": 5.0})


def _tenant_of(engine, key: str) -> str:
    with engine.connect() as conn:
        principal = authenticate(conn, key)
    assert principal is not None
    return principal.tenant_id


def _subscribe(client, key: str, url: str, events: list[str]) -> dict[str, Any]:
    answer = client.post("/v1/webhooks", json={"url": url, "events": events,
                                               "description": "test receiver"}, headers=bearer(key))
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def _finish_a_job(engine, storage, tenant: str, fail_one: bool = False) -> str:
    """A job of two records ended as a worker ends one (documents, then the job), here."""
    docs = [stage_record(storage, tenant, {"id": f"r{i}", "title": "", "text": f"Body {i}.",
                                           "metadata": {}}) for i in range(2)]
    with engine.begin() as conn:
        job_id, _ = jobs.create_job(conn, tenant, docs, 10)
    with engine.begin() as conn:
        jobs.start_batch(conn, job_id, 0)
        claimed = jobs.claim_batch_documents(conn, job_id, 0, 3)
        for n, doc in enumerate(claimed):
            if fail_one and n == 1:
                assert jobs.fail_document(conn, doc.id, "parse_error", "could not parse")
            else:
                assert jobs.complete_document(conn, jobs.Completion(doc.id, "test", "# Body", 1, 1))
        jobs.finish_batch(conn, job_id, 0)
        jobs.finalize_job(conn, job_id)
    return job_id


def _deliver_until(engine, config, predicate, what: str) -> None:
    def step() -> bool:
        deliver_due(engine, config, run_seconds=2.0)
        return bool(predicate())

    wait_for(step, timeout=60, interval=0.1, what=what)


def _deliveries(client, key: str, webhook_id: str) -> list[dict[str, Any]]:
    answer = client.get(f"/v1/webhooks/{webhook_id}/deliveries", headers=bearer(key))
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["deliveries"]


def _verify(secret: str, headers: dict[str, str], body: bytes) -> dict[str, Any]:
    return standardwebhooks.Webhook(secret).verify(body, headers)


def test_a_receiver_that_recovers_gets_the_event_once_under_one_webhook_id(
        engine, storage, client, key, fast_config, receivers):
    receiver = receivers([503, 503, 200])
    hook = _subscribe(client, key, receiver.url, ["job.completed"])
    assert hook["secret"].startswith("whsec_")
    assert "secret" not in client.get(f"/v1/webhooks/{hook['id']}", headers=bearer(key)).get_json()
    job_id = _finish_a_job(engine, storage, _tenant_of(engine, key))

    _deliver_until(engine, fast_config, lambda: len(receiver.requests) >= 3, "three attempts")
    deliver_due(engine, fast_config, run_seconds=1.0)  # nothing is left to send
    assert len(receiver.requests) == 3
    ids = {headers["webhook-id"] for headers, _ in receiver.requests}
    assert len(ids) == 1 and next(iter(ids)).startswith("evt_")
    for headers, body in receiver.requests:
        payload = _verify(hook["secret"], headers, body)
        assert payload["type"] == "job.completed"
        assert payload["data"]["job_id"] == job_id
        assert payload["data"]["counts"] == {"total": 2, "completed": 2, "failed": 0, "cancelled": 0}
        assert payload["data"]["links"]["job"] == f"/v1/jobs/{job_id}"
        assert len(body) < 20_000
    [delivery] = _deliveries(client, key, hook["id"])
    assert (delivery["status"], delivery["attempt_count"], delivery["event_id"]) == (
        "delivered", 3, next(iter(ids)))
    assert [a["status_code"] for a in delivery["attempts"]] == [503, 503, 200]
    print("attempt durations (ms):", [a["duration_ms"] for a in delivery["attempts"]])


def test_a_receiver_that_never_recovers_ends_dead_and_exhausted_is_an_event(
        engine, storage, client, key, fast_config, receivers):
    failing = receivers([500])
    watcher = receivers([200])
    hook = _subscribe(client, key, failing.url, ["job.completed_with_errors", "document.failed"])
    audit = _subscribe(client, key, watcher.url, ["webhook.exhausted"])
    _finish_a_job(engine, storage, _tenant_of(engine, key), fail_one=True)

    def both_dead() -> bool:
        rows = _deliveries(client, key, hook["id"])
        return len(rows) == 2 and all(r["status"] == "dead" for r in rows)

    _deliver_until(engine, fast_config, both_dead, "both deliveries dead")
    rows = _deliveries(client, key, hook["id"])
    assert sorted(r["type"] for r in rows) == ["document.failed", "job.completed_with_errors"]
    assert all(r["attempt_count"] == 4 and len(r["attempts"]) == 4 for r in rows)
    assert all(a["status_code"] == 500 and a["error"] == "HTTP 500" for r in rows for a in r["attempts"])
    assert all(r["next_attempt_at"] is None for r in rows)
    document_event = [b for b in failing.bodies() if b["type"] == "document.failed"][0]["data"]
    assert (document_event["document_id"], document_event["error_code"]) == ("r1", "parse_error")
    assert "markdown" not in json.dumps(document_event) and "Body" not in json.dumps(document_event)

    _deliver_until(engine, fast_config, lambda: len(watcher.requests) >= 2, "the exhausted events")
    exhausted = sorted(b["data"]["event_id"] for b in watcher.bodies())
    assert exhausted == sorted(r["event_id"] for r in rows)
    assert all(b["type"] == "webhook.exhausted" and b["data"]["endpoint_id"] == hook["id"]
               for b in watcher.bodies())
    # The audit endpoint is not told about itself, and the dead endpoint not about its own.
    assert [r["type"] for r in _deliveries(client, key, audit["id"])] == ["webhook.exhausted"] * 2

    # Redelivery gives the event a fresh schedule.
    event_id = rows[0]["event_id"]
    failing.statuses = [200]
    answer = client.post(f"/v1/webhooks/{hook['id']}/deliveries/{event_id}/redeliver", headers=bearer(key))
    assert answer.status_code == 202
    _deliver_until(engine, fast_config, lambda: any(
        r["event_id"] == event_id and r["status"] == "delivered"
        for r in _deliveries(client, key, hook["id"])), "the redelivery")


def test_retry_after_410_and_final_4xx(engine, storage, client, key, fast_config, receivers):
    gone = receivers([410])
    rejecting = receivers([400])
    gone_hook = _subscribe(client, key, gone.url, ["job.completed"])
    rejecting_hook = _subscribe(client, key, rejecting.url, ["job.completed"])
    tenant = _tenant_of(engine, key)
    _finish_a_job(engine, storage, tenant)
    _deliver_until(engine, fast_config, lambda: gone.requests and rejecting.requests, "both attempts")
    deliver_due(engine, fast_config, run_seconds=1.0)
    assert (len(gone.requests), len(rejecting.requests)) == (1, 1)  # neither is retried
    endpoint = client.get(f"/v1/webhooks/{gone_hook['id']}", headers=bearer(key)).get_json()
    assert endpoint["disabled_at"] is not None and "410" in endpoint["disabled_reason"]
    assert [r["status"] for r in _deliveries(client, key, gone_hook["id"])] == ["disabled"]
    assert [r["status"] for r in _deliveries(client, key, rejecting_hook["id"])] == ["dead"]
    # A disabled endpoint gets no new deliveries.
    _finish_a_job(engine, storage, tenant)
    assert len(_deliveries(client, key, gone_hook["id"])) == 1
    assert len(_deliveries(client, key, rejecting_hook["id"])) == 2


def test_the_receivers_retry_after_is_honoured(engine, storage, client, key, fast_config, receivers):
    receiver = receivers([429, 200], headers={"Retry-After": "30"})
    fast_config = fast_config.with_overrides(webhooks={"retry_schedule": (0, 0.2, 50)})
    hook = _subscribe(client, key, receiver.url, ["job.completed"])
    _finish_a_job(engine, storage, _tenant_of(engine, key))
    _deliver_until(engine, fast_config, lambda: receiver.requests, "the first attempt")
    [delivery] = _deliveries(client, key, hook["id"])
    assert delivery["status"] == "pending" and delivery["last_status_code"] == 429
    with engine.connect() as conn:
        wait = conn.execute(text("""
            SELECT extract(epoch FROM d.next_attempt_at - now()) FROM webhook_deliveries d
            WHERE d.endpoint_id = CAST(:id AS uuid)"""), {"id": hook["id"]}).scalar_one()
    # The schedule says 0.2 s, the receiver 30 s: the receiver wins.
    assert 25 < float(wait) <= 30
    assert client.delete(f"/v1/webhooks/{hook['id']}", headers=bearer(key)).status_code == 204


def test_during_a_rotation_both_secrets_verify(engine, storage, client, key, fast_config, receivers):
    receiver = receivers([200])
    hook = _subscribe(client, key, receiver.url, ["job.completed"])
    rotated = client.post(f"/v1/webhooks/{hook['id']}/rotate-secret", headers=bearer(key)).get_json()
    assert rotated["secret"] != hook["secret"] and rotated["previous_secret_expires_at"]
    _finish_a_job(engine, storage, _tenant_of(engine, key))
    _deliver_until(engine, fast_config, lambda: receiver.requests, "the delivery")
    [(headers, body)] = receiver.requests
    assert len(headers["webhook-signature"].split(" ")) == 2
    _verify(hook["secret"], headers, body)
    _verify(rotated["secret"], headers, body)
    with pytest.raises(standardwebhooks.webhooks.WebhookVerificationError):
        _verify("whsec_" + "A" * 43 + "=", headers, body)
    with engine.connect() as conn:  # stored encrypted, never readable
        stored = conn.execute(text("SELECT secret, previous_secret FROM webhook_endpoints WHERE id = "
                                   "CAST(:id AS uuid)"), {"id": hook["id"]}).one()
    assert hook["secret"] not in stored and rotated["secret"] not in stored
    assert all(value.startswith("gAAAA") for value in stored)


def test_endpoints_are_the_tenants_own_and_validated(client, key, engine, receivers):
    receiver = receivers([200])
    hook = _subscribe(client, key, receiver.url, ["document.completed"])
    from app.domain.auth import create_key

    with engine.begin() as conn:
        other = create_key(conn, f"key-{uuid.uuid4().hex[:10]}")
    for method, path in (("get", ""), ("delete", ""), ("post", "/rotate-secret"), ("get", "/deliveries")):
        answer = getattr(client, method)(f"/v1/webhooks/{hook['id']}{path}", headers=bearer(other))
        assert answer.status_code == 404, (method, path)
        assert answer.get_json()["error"]["code"] == "not_found"
    assert client.get("/v1/webhooks", headers=bearer(other)).get_json()["webhooks"] == []
    assert [h["id"] for h in client.get("/v1/webhooks", headers=bearer(key)).get_json()["webhooks"]] \
        == [hook["id"]]
    refused = [
        ({"url": receiver.url, "events": ["job.exploded"]}, "validation_error"),
        ({"url": receiver.url, "events": []}, "validation_error"),
        ({"events": ["job.completed"]}, "validation_error"),
        ({"url": receiver.url, "events": ["job.completed"], "extra": 1}, "validation_error"),
        ({"url": "http://10.1.2.3/hook", "events": ["job.completed"]}, "url_not_allowed"),
        ({"url": "ftp://example.com/hook", "events": ["job.completed"]}, "url_not_allowed"),
    ]
    for body, code in refused:
        answer = client.post("/v1/webhooks", json=body, headers=bearer(key))
        assert answer.status_code == 400 and answer.get_json()["error"]["code"] == code, body
    assert client.post(f"/v1/webhooks/{hook['id']}/deliveries/evt_999999999/redeliver",
                       headers=bearer(key)).status_code == 404
    assert client.post(f"/v1/webhooks/{hook['id']}/deliveries/nonsense/redeliver",
                       headers=bearer(key)).status_code == 404
    assert client.delete(f"/v1/webhooks/{hook['id']}", headers=bearer(key)).status_code == 204
    assert client.get(f"/v1/webhooks/{hook['id']}", headers=bearer(key)).status_code == 404


@pytest.mark.system
def test_a_worker_delivers_a_jobs_events_as_it_processes_it(engine, client, key, module_env,
                                                            receivers, tmp_path):
    """A job submitted by the CLI, processed by a worker, each on this module's database: the
    worker delivers the documents' and the job's events as it goes."""
    receiver = receivers([200])
    hook = _subscribe(client, key, receiver.url, ["job.completed", "document.completed"])
    with engine.connect() as conn:
        tenant_name = conn.execute(text("SELECT name FROM tenants WHERE id = CAST(:t AS uuid)"),
                                   {"t": _tenant_of(engine, key)}).scalar_one()
    records = tmp_path / "records.jsonl"
    records.write_text("".join(json.dumps({"id": f"doc-{i}", "title": "Enzymes",
                                           "text": f"Kinases phosphorylate proteins ({i})."}) + "\n"
                               for i in range(2)))
    worker = start_worker(module_env, engine)
    try:
        started = time.monotonic()
        submitted = subprocess.run([sys.executable, "-m", "app.cli", "ingest", "--jsonl", str(records),
                                    "--tenant", tenant_name], env=module_env, cwd=ROOT,
                                   capture_output=True, text=True, timeout=120)
        assert submitted.returncode == 0, submitted.stderr
        job_id = submitted.stdout.strip().splitlines()[-1]
        wait_for(lambda: len(receiver.requests) >= 3, timeout=90, what="three events")
        print(f"job submitted to its last event received: {time.monotonic() - started:.2f} s")
    finally:
        stop_worker(worker)
    types = sorted(_verify(hook["secret"], h, b)["type"] for h, b in receiver.requests)
    assert types == ["document.completed", "document.completed", "job.completed"]
    assert {b["data"]["job_id"] for b in receiver.bodies()} == {job_id}
    assert len({h["webhook-id"] for h, _ in receiver.requests}) == 3


@pytest.mark.system
def test_a_delivery_whose_sender_was_killed_is_delivered_by_a_worker_once(
        engine, storage, client, key, module_env, receivers):
    """A process sending a delivery is SIGKILLed while the request is in flight: its lease
    runs out, and a worker's sender delivers the event; after that first 2xx nothing more is
    sent."""
    receiver = receivers([200])
    receiver.hold.clear()  # the first request waits: the sender is killed meanwhile
    hook = _subscribe(client, key, receiver.url, ["job.completed"])
    _finish_a_job(engine, storage, _tenant_of(engine, key))
    env = {**module_env, "PAGEMILL_WEBHOOK_TIMEOUT": "1", "PAGEMILL_WEBHOOK_RETRY_SCHEDULE": "0,0.5,0.5"}
    sender = subprocess.Popen(
        [sys.executable, "-c", "from tasks.runtime import get_runtime; from tasks.webhooks import "
         "deliver_due; r = get_runtime(); deliver_due(r.engine, r.config)"],
        env=env, cwd=ROOT, start_new_session=True)
    try:
        wait_for(lambda: receiver.requests, timeout=60, what="the first request")
    finally:
        os.killpg(sender.pid, signal.SIGKILL)
        sender.wait()
    receiver.hold.set()
    [delivery] = _deliveries(client, key, hook["id"])
    assert (delivery["status"], delivery["attempts"]) == ("pending", [])  # nothing recorded
    worker = subprocess.Popen([sys.executable, "-m", "app.cli", "worker"], env=env, cwd=ROOT,
                              start_new_session=True)
    try:
        wait_for(lambda: _deliveries(client, key, hook["id"])[0]["status"] == "delivered",
                 timeout=120, interval=0.5, what="the worker's delivery")
    finally:
        stop_worker(worker)
    [delivery] = _deliveries(client, key, hook["id"])
    assert len(receiver.requests) == 2  # the killed attempt's, then the worker's, once
    assert len({h["webhook-id"] for h, _ in receiver.requests}) == 1
    assert [a["status_code"] for a in delivery["attempts"]] == [200]
    assert delivery["attempt_count"] == 2


def test_fan_out_costs_the_same_statements_for_one_endpoint_or_many(engine, storage, client, key,
                                                                    receivers):
    """Events and their deliveries are written by the state change's own statements (triggers,
    one INSERT ... SELECT per event over the tenant's endpoints): the transaction that ends a
    job issues as many statements for six endpoints as for one."""
    from sqlalchemy import event

    from app.domain.auth import create_key

    receiver = receivers([200])
    with engine.begin() as conn:
        many = create_key(conn, f"key-{uuid.uuid4().hex[:10]}")
    _subscribe(client, key, receiver.url, ["job.completed", "document.completed"])
    for _ in range(6):
        _subscribe(client, many, receiver.url, ["job.completed", "document.completed"])
    statements: list[str] = []

    def count(_conn, _cursor, statement, *_: Any) -> None:
        statements.append(statement)

    counted = {}
    tenants = {"one": _tenant_of(engine, key), "six": _tenant_of(engine, many)}
    event.listen(engine, "before_cursor_execute", count)
    try:
        for name, tenant in tenants.items():
            statements.clear()
            job_id = _finish_a_job(engine, storage, tenant)
            counted[name] = len(statements)
            with engine.connect() as conn:
                counted[name + " deliveries"] = conn.execute(text("""
                    SELECT count(*) FROM webhook_deliveries d JOIN outbox o ON o.id = d.event_id
                    WHERE o.payload->>'job_id' = :job"""), {"job": job_id}).scalar_one()
    finally:
        event.remove(engine, "before_cursor_execute", count)
    print("statements and deliveries per finished job:", counted)
    assert (counted["one deliveries"], counted["six deliveries"]) == (3, 18)
    assert counted["one"] == counted["six"]


def test_a_redirect_is_a_failed_attempt_and_is_not_followed(engine, storage, client, key, fast_config,
                                                            receivers):
    elsewhere = receivers([200])
    receiver = receivers([302, 200], headers={"Location": elsewhere.url})
    hook = _subscribe(client, key, receiver.url, ["job.completed"])
    _finish_a_job(engine, storage, _tenant_of(engine, key))
    _deliver_until(engine, fast_config, lambda: len(receiver.requests) >= 2, "the retry")
    assert elsewhere.requests == []
    [delivery] = _deliveries(client, key, hook["id"])
    assert [a["status_code"] for a in delivery["attempts"]] == [302, 200]


def test_an_address_refused_at_the_attempt_is_never_contacted(engine, storage, client, key, fast_config,
                                                              receivers):
    """The SSRF policy holds at every attempt, not only when the endpoint was made: here the
    delivering side refuses loopback, so the receiver on 127.0.0.1 is never called."""
    receiver = receivers([200])
    hook = _subscribe(client, key, receiver.url, ["job.completed"])
    _finish_a_job(engine, storage, _tenant_of(engine, key))
    strict = fast_config.with_overrides(urls={"allow_loopback": False})
    _deliver_until(engine, strict, lambda: _deliveries(client, key, hook["id"])[0]["status"] == "dead",
                   "the delivery to give up")
    [delivery] = _deliveries(client, key, hook["id"])
    assert receiver.requests == []
    assert all(a["status_code"] is None and "public address" in a["error"]
               for a in delivery["attempts"])


def test_retry_delays_follow_the_schedule_with_jitter_and_retry_after():
    import random

    from app.domain.webhooks import next_delay
    from app.infra.webhook_delivery import retry_after_seconds

    schedule = (0, 5, 300, 1800)
    rng = random.Random(7)
    delays = [next_delay(1, schedule, None, rng) for _ in range(1000)]
    assert all(4.5 <= d <= 5.5 for d in delays) and max(delays) - min(delays) > 0.5
    assert next_delay(4, schedule, None) is None  # four attempts made: the schedule is used up
    assert next_delay(1, schedule, 60, rng) == 60  # the receiver's wait is longer: it wins
    assert 270 <= next_delay(2, schedule, 60, rng) <= 330  # shorter: the schedule's stands
    assert next_delay(1, schedule, 10**9, rng) == 1800  # capped at the schedule's longest
    assert retry_after_seconds("120") == 120
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412480 - 30) == 30
    assert retry_after_seconds("soon") is None and retry_after_seconds(None) is None
