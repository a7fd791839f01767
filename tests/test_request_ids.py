"""Request ids tie an API request to every log line it causes: taken from ``X-Request-ID`` (or
made), echoed, stored with the job, carried in its Celery messages and bound for the worker's
lines; and what gunicorn refuses itself under ``pagemill serve`` is JSON too."""

from __future__ import annotations

import json
import socket
import sys
import uuid

import pytest
import requests
from sqlalchemy import text

from app.infra.request_ids import request_id_from
from tests.conftest import free_port, wait_for
from tests.test_processes import _api_key, _fresh_home, _get, _stopped_cleanly, _wait_completed


def test_a_plausible_client_id_is_kept_and_anything_else_replaced():
    assert request_id_from("req-42_a.b:c/d+e=f@g") == "req-42_a.b:c/d+e=f@g"
    for hostile in ("", "two words", "line\nbreak", "x" * 129, "\x1b[31m", "é"):
        made = request_id_from(hostile)
        assert made != hostile and len(made) == 26 and made.isalnum()  # a ULID
    assert request_id_from(None) != request_id_from(None)


def test_the_api_echoes_the_id_on_every_answer_and_stores_it_with_the_job(client, key, engine):
    ok = client.get("/healthz", headers={"X-Request-ID": "health-1"})
    assert ok.headers["X-Request-ID"] == "health-1"
    made = client.get("/v1/jobs").headers["X-Request-ID"]  # a 401, with a made id
    assert len(made) == 26
    lost = client.get("/no/such/route", headers={"X-Request-ID": "lost-1"})
    assert lost.status_code == 404 and lost.headers["X-Request-ID"] == "lost-1"
    rid = f"job-{uuid.uuid4().hex}"
    response = client.post("/v1/jobs", json={"documents": [{"id": "a", "text": "hello"}]},
                           headers={"Authorization": f"Bearer {key}", "X-Request-ID": rid})
    assert response.status_code == 202 and response.headers["X-Request-ID"] == rid
    with engine.connect() as conn:
        stored = conn.execute(text("SELECT request_id FROM jobs WHERE id = CAST(:id AS uuid)"),
                              {"id": response.get_json()["id"]}).scalar_one()
    assert stored == rid


def _records(log: str) -> list[dict]:
    out = []
    for line in log.splitlines():
        if line.startswith("{"):
            out.append(json.loads(line))  # every line of a JSON log parses
    return out


@pytest.mark.system
def test_the_request_id_reaches_the_worker_log_lines_of_the_jobs_documents():
    """``pagemill serve`` (gunicorn + a supervised worker) with JSON logs: a job sent with an
    ``X-Request-ID`` finds that id on the API's "job created" line and on the worker's lines
    for each of its documents; gunicorn's own 414 is the API's JSON error body."""
    with _fresh_home("pm-rid-") as processes:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        serve = processes.start("serve", sys.executable, "-m", "app.cli", "serve", PORT=str(port),
                                PAGEMILL_LOG_LEVEL="INFO", PAGEMILL_LOG_FORMAT="json")

        def ready() -> bool:
            assert serve.poll() is None, processes.log("serve")
            answer = _get(f"{base}/readyz")
            return answer is not None and answer.status_code == 200

        wait_for(ready, timeout=120, interval=0.5, what="/readyz 200")
        key = _api_key(processes, "traced")
        rid = f"trace-{uuid.uuid4().hex}"
        body = {"documents": [{"id": "first", "text": "durable queues keep every message"},
                              {"id": "second", "text": "hybrid search ranks every chunk"}]}
        answer = requests.post(f"{base}/v1/jobs", json=body, timeout=30,
                               headers={"Authorization": f"Bearer {key}", "X-Request-ID": rid})
        assert answer.status_code == 202 and answer.headers["X-Request-ID"] == rid
        job_id = answer.json()["id"]
        _wait_completed(base, key, job_id)

        with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
            raw.sendall(b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
            refused = raw.recv(65536).decode()
        head, _, payload = refused.partition("\r\n\r\n")
        assert head.startswith("HTTP/1.1 414") and "application/json" in head
        assert json.loads(payload)["error"]["code"] == "request_uri_too_long"

        def indexed_lines() -> list[dict] | None:
            mine = [r for r in _records(processes.log("serve")) if r.get("request_id") == rid]
            done = {r.get("document_id") for r in mine if r["event"] == "document indexed"}
            return mine if done >= {"first", "second"} else None

        mine = wait_for(indexed_lines, timeout=30, interval=0.5, what="the worker's indexed lines")
        events = {r["event"] for r in mine}
        assert "job created" in events and "batch started" in events, events
        worker_lines = [r for r in mine if r["event"] == "document indexed"]
        assert all(r["job_id"] == job_id and r.get("task_id") for r in worker_lines), worker_lines
        _stopped_cleanly(processes)


def test_webhook_events_carry_the_jobs_request_id(engine, tenant):
    from app.domain import jobs

    doc = jobs.NewDocument(external_id="x", source="record", object_key=None, mime_type=None,
                           size_bytes=None, sha256=None)
    with engine.begin() as conn:
        job_id, _ = jobs.create_job(conn, tenant, [doc], 10, request_id="rid-webhook-1")
        jobs.cancel_job(conn, tenant, job_id)
        payload = conn.execute(text("SELECT payload FROM outbox WHERE payload->>'job_id' = :j"),
                               {"j": job_id}).scalar_one()
    assert payload["request_id"] == "rid-webhook-1" and payload["status"] == "cancelled"
