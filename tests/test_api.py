"""The HTTP API against the real database and a real worker."""

from __future__ import annotations

import io
import json
import time
import uuid

import pytest
from sqlalchemy import text

from app.api import create_app
from app.domain import jobs
from app.domain.auth import create_key
from tests.conftest import ROOT, bearer, wait_for

_auth = bearer


def _tenant_jobs(engine, key) -> int:
    prefix = key.split("_")[1]
    with engine.connect() as conn:
        return conn.execute(text("""SELECT count(*) FROM jobs j JOIN api_keys k
            ON k.tenant_id = j.tenant_id WHERE k.prefix = :p"""), {"p": prefix}).scalar_one()


def test_healthz(client):
    assert client.get("/healthz").get_json() == {"status": "ok"}


@pytest.mark.parametrize("header", [None, "Bearer nope", "Bearer pm_abc_def", "Basic x"])
def test_requests_without_a_valid_key_are_401(client, header):
    headers = {"Authorization": header} if header else {}
    response = client.post("/v1/jobs", json={"documents": []}, headers=headers)
    assert response.status_code == 401
    assert response.get_json()["error"]["code"] == "unauthorized"


def test_preflight_needs_no_key_and_a_wrong_method_says_what_is_allowed(client):
    # CORS preflights carry no Authorization header: Flask answers them with the methods.
    preflight = client.open("/v1/jobs", method="OPTIONS")
    assert preflight.status_code == 200 and "POST" in preflight.headers["Allow"]
    wrong = client.put("/v1/jobs")
    assert wrong.status_code == 405 and wrong.get_json()["error"]["code"] == "method_not_allowed"
    assert {"GET", "POST"} <= set(wrong.headers["Allow"].split(", "))


def test_validation_lists_every_field_error_and_writes_nothing(client, key, engine):
    body = {"documents": [{"id": "a"}, {"text": "x"}, {"id": "", "text": "y"}]}
    response = client.post("/v1/jobs", json=body, headers=_auth(key))
    assert response.status_code == 400
    details = response.get_json()["error"]["details"]["documents"]
    assert set(details) == {"0", "1", "2"}
    assert "text" in details["0"] and "id" in details["1"] and "id" in details["2"]
    dup = client.post("/v1/jobs", json={"documents": [{"id": "a", "text": "x"}] * 2},
                      headers=_auth(key))
    assert dup.status_code == 400
    assert _tenant_jobs(engine, key) == 0


def test_job_options_are_validated_for_json_and_uploads(client, key, engine):
    docs = [{"id": "a", "text": "x"}]
    bad = [({"provider": "carrier-pigeon"}, "provider"), ({"colour": "blue"}, "colour"),
           ({"provider": "mistral-batch", "annotation_schema": {"type": 7}}, "annotation_schema"),
           ({"annotation_schema": {"type": "object"}}, "annotation_schema")]
    for options, field in bad:
        response = client.post("/v1/jobs", json={"documents": docs, "options": options}, headers=_auth(key))
        assert response.status_code == 400, options
        assert field in response.get_json()["error"]["details"]["options"]
    upload = {"files": [(io.BytesIO(b"# fine"), "ok.md")], "options": '{"password": ""}'}
    response = client.post("/v1/jobs", data=upload, headers=_auth(key), content_type="multipart/form-data")
    assert response.status_code == 400 and "password" in response.get_json()["error"]["details"]["options"]
    assert _tenant_jobs(engine, key) == 0


def test_audio_is_accepted_as_a_document(client, key, engine):
    """Audio is a document now (transcribed by a provider; tests/test_media.py): accepted at
    submission with its type, never a 415; without a provider it fails per document."""
    from tests.corpus import CORPUS

    wav = (CORPUS / "audio-jfk" / "jfk.wav")
    if not wav.exists():
        pytest.skip("corpus absent")
    response = client.post("/v1/jobs", data={"files": [(io.BytesIO(wav.read_bytes()), "talk.wav")]},
                           headers=_auth(key), content_type="multipart/form-data")
    assert response.status_code == 202, response.get_json()
    assert _tenant_jobs(engine, key) == 1


def test_unsupported_upload_is_415_and_nothing_is_queued(client, key, engine):
    data = {"files": [(io.BytesIO(b"# fine"), "ok.md"),
                      (io.BytesIO(bytes(range(256)) * 8), "blob.bin")]}
    response = client.post("/v1/jobs", data=data, headers=_auth(key),
                           content_type="multipart/form-data")
    assert response.status_code == 415
    assert response.get_json()["error"]["details"] == {"files": ["blob.bin"]}
    assert _tenant_jobs(engine, key) == 0


def test_too_many_documents_is_413(config, key):

    small = create_app(config.with_overrides(jobs={"max_documents_per_job": 2})).test_client()
    body = {"documents": [{"id": str(i), "text": "x"} for i in range(3)]}
    response = small.post("/v1/jobs", json=body, headers=_auth(key))
    assert response.status_code == 413
    assert response.get_json()["error"]["code"] == "too_many_documents"


def test_job_lifecycle_search_and_tenant_isolation(client, key, engine, worker):
    pdf = (ROOT / "samples" / "maintenance-report.pdf").read_bytes()
    response = client.post("/v1/jobs", data={"files": [(io.BytesIO(pdf), "report.pdf")]},
                           headers=_auth(key), content_type="multipart/form-data")
    assert response.status_code == 202, response.get_json()
    job = response.get_json()
    assert job["total_documents"] == 1 and job["status"] in ("queued", "running")

    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        job = client.get(f"/v1/jobs/{job['id']}", headers=_auth(key)).get_json()
        if job["status"] not in ("queued", "running"):
            break
        time.sleep(0.5)
    assert job["status"] == "completed" and job["completed_documents"] == 1

    body = client.post("/v1/search", json={"query": "encrypted or corrupt PDFs", "k": 5},
                       headers=_auth(key)).get_json()
    hits = body["results"]
    # A one-document corpus has few postings: the plain scan ranks them, said once.
    assert body["bm25_path"] == "scan" and "bm25_path" not in hits[0]
    assert hits[0]["document_id"] == "report.pdf"
    assert (hits[0]["page_start"], hits[0]["page_end"]) == (1, 2)
    # Where the hit's text is on its pages, for a client to highlight (PDF points, top-left).
    boxes = hits[0]["boxes"]
    assert boxes and {b["page"] for b in boxes} <= {1, 2}
    assert all(0 <= b["x0"] < b["x1"] <= b["width"] and 0 <= b["top"] < b["bottom"] <= b["height"]
               for b in boxes)
    assert hits[0]["bm25_rank"] is not None and hits[0]["dense_rank"] is not None

    with engine.begin() as conn:
        stranger = create_key(conn, f"stranger-{uuid.uuid4().hex[:8]}")
    assert client.get(f"/v1/jobs/{job['id']}", headers=_auth(stranger)).status_code == 404
    assert client.get("/v1/jobs/not-a-uuid", headers=_auth(stranger)).status_code == 404
    other = client.post("/v1/search", json={"query": "encrypted or corrupt PDFs"},
                        headers=_auth(stranger)).get_json()
    assert other["results"] == []
    only_other_job = client.post("/v1/search", json={
        "query": "encrypted or corrupt PDFs", "filters": {"job_id": str(uuid.uuid4())}},
        headers=_auth(key)).get_json()
    assert only_other_job["results"] == []
    this_job = client.post("/v1/search", json={
        "query": "encrypted or corrupt PDFs", "filters": {"job_id": job["id"]}},
        headers=_auth(key)).get_json()
    assert [h["document_id"] for h in this_job["results"]] == ["report.pdf"]


def test_search_validation(client, key):
    response = client.post("/v1/search", json={"query": "", "mode": "magic", "k": 0},
                           headers=_auth(key))
    assert response.status_code == 400
    assert set(response.get_json()["error"]["details"]) == {"query", "mode", "k"}
    bad_filter = client.post("/v1/search", json={"query": "x", "filters": {"job_id": "nope"}},
                             headers=_auth(key))
    assert bad_filter.status_code == 400
    bad_exact = client.post("/v1/search", json={"query": "x", "bm25_exact": "sometimes"}, headers=_auth(key))
    assert bad_exact.status_code == 400 and set(bad_exact.get_json()["error"]["details"]) == {"bm25_exact"}
    dense = client.post("/v1/search", json={"query": "x", "mode": "dense", "bm25_exact": False},
                        headers=_auth(key))
    assert dense.status_code == 200 and dense.get_json()["bm25_path"] is None
    assert "job_id" in bad_filter.get_json()["error"]["details"]["filters"]


def test_idempotency_key_replays_the_original_job_and_refuses_another_body(
        client, key, engine):
    body = {"documents": [{"id": "n1", "title": "Note", "text": "Replays converge."}]}
    headers = {**_auth(key), "Idempotency-Key": "retry-42"}
    first = client.post("/v1/jobs", json=body, headers=headers)
    assert first.status_code == 202
    again = client.post("/v1/jobs", json=dict(reversed(list(body.items()))), headers=headers)
    assert again.status_code == 200
    assert again.get_json()["id"] == first.get_json()["id"]
    other = client.post("/v1/jobs", json={"documents": [{"id": "n2", "text": "x"}]},
                        headers=headers)
    assert other.status_code == 409
    assert other.get_json()["error"]["code"] == "idempotency_key_reused"
    assert other.get_json()["error"]["details"]["job_id"] == first.get_json()["id"]
    assert _tenant_jobs(engine, key) == 1
    # Without the header, or with another key, the same body is a new job.
    assert client.post("/v1/jobs", json=body, headers={**_auth(key), "Idempotency-Key": "k2"}
                       ).status_code == 202
    assert _tenant_jobs(engine, key) == 2


def test_idempotency_key_covers_uploads(client, key, engine):
    headers = {**_auth(key), "Idempotency-Key": "upload-1"}

    def post(content: bytes):
        return client.post("/v1/jobs", data={"files": [(io.BytesIO(content), "a.md")]},
                           headers=headers, content_type="multipart/form-data")

    assert post(b"# A\n\nbody").status_code == 202
    assert post(b"# A\n\nbody").status_code == 200
    assert post(b"# A\n\nchanged").status_code == 409
    assert _tenant_jobs(engine, key) == 1


def test_per_document_outcomes_and_listings(client, key, engine, worker):
    files = {"files": [(io.BytesIO(b"# Good\n\nA fine document about lipids."), "good.md"),
                       (io.BytesIO(b"%PDF-1.4\nnot really"), "bad.pdf")]}
    job = client.post("/v1/jobs", data=files, headers=_auth(key),
                      content_type="multipart/form-data").get_json()
    deadline = time.monotonic() + 180
    while job["status"] in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.5)
        job = client.get(f"/v1/jobs/{job['id']}", headers=_auth(key)).get_json()
    assert job["status"] == "completed_with_errors"

    failed = client.get(f"/v1/jobs/{job['id']}/documents?status=failed",
                        headers=_auth(key)).get_json()["documents"]
    assert [(d["document_id"], d["error_code"]) for d in failed] == [("bad.pdf", "corrupt")]
    everything = client.get(f"/v1/jobs/{job['id']}/documents", headers=_auth(key)).get_json()
    assert sorted(d["document_id"] for d in everything["documents"]) == ["bad.pdf", "good.md"]
    assert everything["next_offset"] is None

    good = next(d for d in everything["documents"] if d["document_id"] == "good.md")
    doc = client.get(f"/v1/documents/{good['id']}", headers=_auth(key)).get_json()
    assert doc["extractor"] == "markdown" and doc["attempts"] == 1
    assert doc["markdown"].startswith("# Good") and doc["indexed"]
    assert doc["chunks"][0]["heading_path"] == ["Good"]
    assert doc["chunks"][0]["boxes"] is None  # Markdown has no positions

    # A window of its chunks, from a position or around a hit's chunk, without the Markdown.
    chunks_url = f"/v1/documents/{good['id']}/chunks"
    total = len(doc["chunks"])
    window = client.get(f"{chunks_url}?count=1", headers=_auth(key)).get_json()
    assert window["document_id"] == "good.md" and window["total_chunks"] == total
    assert window["start"] == 0 and window["chunks"] == doc["chunks"][:1]
    assert window["next_start"] == (1 if total > 1 else None)
    last = doc["chunks"][-1]
    around = client.get(f"{chunks_url}?around={last['id']}&count=3", headers=_auth(key)).get_json()
    assert last in around["chunks"] and around["next_start"] is None
    assert around["chunks"] == doc["chunks"][around["start"]:around["start"] + 3]
    past = client.get(f"{chunks_url}?start=1000", headers=_auth(key)).get_json()
    assert past["chunks"] == [] and past["start"] == total and past["next_start"] is None
    assert client.get(f"{chunks_url}?count=0", headers=_auth(key)).status_code == 400
    assert client.get(f"{chunks_url}?start=-1", headers=_auth(key)).status_code == 400
    unknown = client.get(f"{chunks_url}?around=2147483647", headers=_auth(key))  # no such chunk here
    assert unknown.status_code == 404 and unknown.get_json()["error"]["code"] == "not_found"

    listed = client.get("/v1/jobs?status=completed_with_errors&limit=1",
                        headers=_auth(key)).get_json()
    assert [j["id"] for j in listed["jobs"]] == [job["id"]] and listed["next_offset"] == 1
    assert client.get("/v1/jobs?limit=0", headers=_auth(key)).status_code == 400

    with engine.begin() as conn:
        stranger = create_key(conn, f"stranger-{uuid.uuid4().hex[:8]}")
    assert client.get(f"/v1/documents/{good['id']}", headers=_auth(stranger)).status_code == 404
    assert client.get(f"/v1/documents/{good['id']}/chunks?around={doc['chunks'][0]['id']}",
                      headers=_auth(stranger)).status_code == 404
    assert client.get(f"/v1/jobs/{job['id']}/documents",
                      headers=_auth(stranger)).status_code == 404
    assert client.get("/v1/jobs", headers=_auth(stranger)).get_json()["jobs"] == []


def test_a_file_over_the_limit_is_413_and_nothing_is_queued(config, key, engine):

    small = create_app(config.with_overrides(jobs={"max_file_bytes": 16})).test_client()
    response = small.post("/v1/jobs", data={"files": [(io.BytesIO(b"# x\n\n" + b"y" * 40), "big.md"),
                                                      (io.BytesIO(b"# ok"), "ok.md")]},
                          headers=_auth(key), content_type="multipart/form-data")
    assert response.status_code == 413
    assert response.get_json()["error"] == {"code": "file_too_large",
                                            "message": "files over 16 bytes",
                                            "details": {"files": ["big.md"]}}
    assert _tenant_jobs(engine, key) == 0


def _principal(engine, key):
    from app.domain.auth import authenticate

    with engine.begin() as conn:
        return authenticate(conn, key)


def _wait_terminal(client, key, job_id):
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        job = client.get(f"/v1/jobs/{job_id}", headers=_auth(key)).get_json()
        if job["status"] not in ("queued", "running"):
            return job
        time.sleep(0.5)
    raise AssertionError(f"job {job_id} did not finish")


def test_retry_reruns_only_failed_documents_then_delete_removes_everything(
        client, key, engine, storage, worker, runtime):
    from app.services.submission import stage_record, submit_job

    tenant = _principal(engine, key).tenant_id
    doc = stage_record(storage, tenant, {"id": "flaky", "title": "Flaky storage",
                                         "text": "Transient failures deserve a retry.",
                                         "metadata": {}})
    good = stage_record(storage, tenant, {"id": "steady", "title": "Steady",
                                          "text": "Always fine.", "metadata": {}})
    data = storage.get(doc.object_key)
    storage.delete(doc.object_key)  # the bytes are missing when the worker looks
    job_id = submit_job(runtime, tenant, [doc, good], batch_size=1)
    job = _wait_terminal(client, key, job_id)
    assert job["status"] == "completed_with_errors"

    storage.put(doc.object_key, data)  # the storage recovered
    response = client.post(f"/v1/jobs/{job_id}/retry", headers=_auth(key))
    assert response.status_code == 202
    job = _wait_terminal(client, key, job_id)
    assert (job["status"], job["retries"], job["completed_documents"]) == ("completed", 1, 2)
    docs = client.get(f"/v1/jobs/{job_id}/documents", headers=_auth(key)).get_json()["documents"]
    assert {d["document_id"]: d["attempts"] for d in docs} == {"flaky": 2, "steady": 1}
    again = client.post(f"/v1/jobs/{job_id}/retry", headers=_auth(key))
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "nothing_to_retry"

    flaky = next(d for d in docs if d["document_id"] == "flaky")
    assert client.post("/v1/search", json={"query": "transient failures retry"},
                       headers=_auth(key)).get_json()["results"][0]["document_id"] == "flaky"
    assert client.delete(f"/v1/documents/{flaky['id']}", headers=_auth(key)).status_code == 204
    assert client.get(f"/v1/documents/{flaky['id']}", headers=_auth(key)).status_code == 404
    assert client.delete(f"/v1/documents/{flaky['id']}", headers=_auth(key)).status_code == 404
    hits = client.post("/v1/search", json={"query": "transient failures retry"},
                       headers=_auth(key)).get_json()["results"]
    assert "flaky" not in [h["document_id"] for h in hits]
    assert not storage.exists(doc.object_key)
    assert storage.exists(good.object_key)


def test_cancel_stops_pending_documents(client, key, engine, storage, config):
    from app.domain import jobs
    from app.services.processing import process_batch
    from app.services.submission import stage_record

    tenant = _principal(engine, key).tenant_id
    docs = [stage_record(storage, tenant, {"id": f"c{i}", "title": "", "text": "words",
                                           "metadata": {}}) for i in range(3)]
    with engine.begin() as conn:
        job_id, _ = jobs.create_job(conn, tenant, docs, batch_size=10)
    response = client.post(f"/v1/jobs/{job_id}/cancel", headers=_auth(key))
    assert response.status_code == 200
    body = response.get_json()
    assert (body["status"], body["cancelled_documents"]) == ("cancelled", 3)
    # A batch message delivered after the cancel does nothing.
    assert process_batch(engine, storage, config, job_id, 0).completed == 0
    with engine.begin() as conn:
        assert jobs.finalize_job(conn, job_id) == "cancelled"
    assert client.post(f"/v1/jobs/{uuid.uuid4()}/cancel", headers=_auth(key)).status_code == 404


def test_a_mail_lists_its_attachments_and_deleting_it_removes_them(client, key, engine, storage,
                                                                    config):
    from app.domain import jobs
    from app.services.processing import process_batch
    from app.services.staging import stage_document
    from tests.test_pipeline import _mail_with_attachments

    tenant = _principal(engine, key).tenant_id
    mail = stage_document(storage, tenant, "m.eml", _mail_with_attachments(), source="upload",
                          filename="m.eml")
    with engine.begin() as conn:
        job_id, _ = jobs.create_job(conn, tenant, [mail], batch_size=10)
    process_batch(engine, storage, config, job_id, 0)
    listed = client.get(f"/v1/jobs/{job_id}/documents", headers=_auth(key)).get_json()["documents"]
    assert [d["document_id"] for d in listed] == ["m.eml"]  # attachments are under their mail
    parent = client.get(f"/v1/documents/{listed[0]['id']}", headers=_auth(key)).get_json()
    notes = next(a for a in parent["attachments"] if a["document_id"] == "m.eml#notes.txt")
    child = client.get(f"/v1/documents/{notes['id']}", headers=_auth(key)).get_json()
    assert child["parent_id"] == listed[0]["id"] and "Zebrafish" in child["markdown"]
    with engine.connect() as conn:
        object_key = conn.execute(text("SELECT object_key FROM documents WHERE id = :i"),
                                  {"i": notes["id"]}).scalar_one()
    assert storage.exists(object_key)
    assert client.delete(f"/v1/documents/{listed[0]['id']}", headers=_auth(key)).status_code == 204
    assert client.get(f"/v1/documents/{notes['id']}", headers=_auth(key)).status_code == 404
    with engine.connect() as conn:
        left = conn.execute(text("SELECT count(*) FROM search_documents WHERE tenant_id = :t "
                                 "AND external_id LIKE 'm.eml%'"), {"t": tenant}).scalar_one()
    assert left == 0 and not storage.exists(object_key)


def test_job_events_stream_progress_until_the_end(client, key, engine, worker):
    body = {"documents": [{"id": f"e{i}", "title": f"Event {i}", "text": "Streams of progress."}
                          for i in range(3)]}
    job = client.post("/v1/jobs", json=body, headers=_auth(key)).get_json()
    response = client.get(f"/v1/jobs/{job['id']}/events", headers=_auth(key), buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    events = []
    for chunk in response.response:
        frame = chunk.decode() if isinstance(chunk, bytes) else chunk
        if frame.startswith("event: "):
            name, data = frame.split("\n")[0][7:], frame.split("\n")[1][6:]
            events.append((name, json.loads(data)))
        if events and events[-1][0] == "end":
            break
    response.close()
    names = [n for n, _ in events]
    assert names[0] == "progress" and names[-1] == "end"
    progress = [d for n, d in events if n == "progress"]
    done = [d["completed_documents"] for d in progress]
    assert done == sorted(done)  # counts only grow
    assert progress[-1]["status"] == "completed" and progress[-1]["completed_documents"] == 3
    assert events[-1][1] == {"status": "completed"}

    with engine.begin() as conn:
        stranger = create_key(conn, f"stranger-{uuid.uuid4().hex[:8]}")
    assert client.get(f"/v1/jobs/{job['id']}/events", headers=_auth(stranger)).status_code == 404


def test_sync_parse_answers_with_markdown_and_chunks(client, key, worker):
    pdf = (ROOT / "samples" / "maintenance-report.pdf").read_bytes()
    response = client.post("/v1/parse", data={"file": (io.BytesIO(pdf), "report.pdf")},
                           headers=_auth(key), content_type="multipart/form-data")
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    document = body["document"]
    assert document["status"] == "completed" and "No job was lost" in document["markdown"]
    assert document["chunks"] and document["extraction"]["route"] == "pdf-fast"
    assert all(c["boxes"] and {b["page"] for b in c["boxes"]} <= {c["page_start"], c["page_end"]}
               for c in document["chunks"])
    assert client.get(f"/v1/jobs/{body['job_id']}", headers=_auth(key)).get_json()["status"] == "completed"


def test_sync_parse_limits_and_deadline(config, key, worker):
    import pypdfium2 as pdfium

    strict = create_app(config.with_overrides(parse={"max_pages": 2, "max_bytes": 200_000,
                                                     "deadline_seconds": 0.0})).test_client()
    pdf = pdfium.PdfDocument.new()
    for _ in range(3):
        pdf.new_page(200, 200)
    buffer = io.BytesIO()
    pdf.save(buffer)
    response = strict.post("/v1/parse", data={"file": (io.BytesIO(buffer.getvalue()), "three.pdf")},
                           headers=_auth(key), content_type="multipart/form-data")
    assert response.status_code == 413 and response.get_json()["error"]["code"] == "too_many_pages"
    response = strict.post("/v1/parse", data={"file": (io.BytesIO(b"x" * 300_000), "big.txt")},
                           headers=_auth(key), content_type="multipart/form-data")
    assert response.status_code == 413
    # Past the deadline the answer is 202 with the job, which still completes.
    sample = (ROOT / "samples" / "maintenance-report.pdf").read_bytes()
    response = strict.post("/v1/parse", data={"file": (io.BytesIO(sample), "late.pdf")},
                           headers=_auth(key), content_type="multipart/form-data")
    assert response.status_code == 202
    job_id = response.get_json()["job_id"]
    assert response.headers["Location"] == f"/v1/jobs/{job_id}"

    def done():
        status = strict.get(f"/v1/jobs/{job_id}", headers=_auth(key)).get_json()["status"]
        return status if status in jobs.TERMINAL_JOB_STATES else None

    assert wait_for(done, timeout=60, what="late sync job") == "completed"
    # A document that fails is a 422 carrying its error code.
    client = create_app(config).test_client()
    response = client.post("/v1/parse", data={"file": (io.BytesIO(b"%PDF-1.4 broken"), "bad.pdf")},
                           headers=_auth(key), content_type="multipart/form-data")
    assert response.status_code == 422 and response.get_json()["error"]["code"] == "corrupt"


def test_refused_requests_publish_nothing(config, client, key, engine):
    """Every 4xx on job submission leaves the broker's task queue untouched."""
    # Messages newer than those already there: a worker of an earlier test may still be
    # consuming (deleting) old ones, so "the newest id is unchanged" would not hold.
    def published_since(mark: int) -> int:
        with engine.connect() as conn:
            return conn.execute(text("SELECT count(*) FROM broker_messages "
                                     "WHERE queue = 'pagemill' AND id > :mark"), {"mark": mark}).scalar_one()

    with engine.connect() as conn:
        before = conn.execute(text("SELECT coalesce(max(id), 0) FROM broker_messages")).scalar_one()
    small = create_app(config.with_overrides(jobs={"max_documents_per_job": 2,
                                                   "max_file_bytes": 1000})).test_client()
    attempts = [
        client.post("/v1/jobs", json={"documents": [{"id": "a", "text": "x"}]}),        # 401
        client.post("/v1/jobs", json={"documents": [{"id": "a"}]}, headers=_auth(key)),  # 400
        client.post("/v1/jobs", json={"documents": [{"id": "a", "url": "https://127.0.0.1/x"},
                                                    {"id": "b", "url": "https://10.0.0.1/y"}]},
                    headers=_auth(key)),                                                    # 400
        small.post("/v1/jobs", json={"documents": [{"id": str(i), "text": "x"} for i in range(3)]},
                   headers=_auth(key)),                                                     # 413
        small.post("/v1/jobs", data={"files": [(io.BytesIO(b"x" * 5000), "big.txt")]},
                   headers=_auth(key), content_type="multipart/form-data"),                 # 413
        client.post("/v1/jobs", data={"files": [(io.BytesIO(bytes(range(256)) * 8), "b.bin")]},
                    headers=_auth(key), content_type="multipart/form-data"),                # 415
    ]
    strict = create_app(config.with_overrides(urls={"allow_loopback": False})).test_client()
    attempts.append(strict.post("/v1/jobs", json={"documents": [{"id": "m", "url": "https://[::1]/x"}]},
                                headers=_auth(key)))                                        # 400
    assert [r.status_code for r in attempts] == [401, 400, 400, 413, 413, 415, 400]
    assert published_since(before) == 0
