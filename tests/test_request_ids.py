"""Request ids tie an API request to every log line it causes: taken from ``X-Request-ID`` (or
made), echoed, stored with the job, carried in its Celery messages and bound for the worker's
lines; and what gunicorn refuses itself under ``pagemill serve`` is JSON too."""

from __future__ import annotations

import uuid

from sqlalchemy import text

from app.infra.request_ids import request_id_from


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


# The id on the worker's log lines and gunicorn's own 414 as JSON, under ``pagemill serve`` with
# JSON logs, are checked on the supervised server of tests/test_processes.py
# (test_serve_restarts_its_killed_worker_and_readyz_says_when_there_is_none): one fresh home
# and server for both, rather than a second one here.


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
