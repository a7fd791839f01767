"""Object storage: local disk, and S3 through boto3 against moto running as a real server."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import pytest

from app.infra.storage import LocalStorage, ObjectNotFound, open_storage
from tests.conftest import free_port
from tests.corpus import needs_corpus


@pytest.fixture(scope="module")
def s3_endpoint(monkeypatch_module=None):
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("moto server did not start")
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(10)


def _roundtrip(storage) -> None:
    key = "tenant/sha256/ab/abcdef"
    assert not storage.exists(key)
    storage.put(key, b"hello bytes")
    assert storage.exists(key)
    assert storage.get(key) == b"hello bytes"
    storage.put(key, b"replaced")
    assert storage.get(key) == b"replaced"
    storage.delete(key)
    assert not storage.exists(key)
    with pytest.raises(ObjectNotFound):
        storage.get(key)


def test_local_storage_roundtrip(tmp_path):
    _roundtrip(LocalStorage(tmp_path))


@pytest.mark.parametrize("key", ["", "/abs", "a/../b", "a//b", "."])
def test_keys_cannot_escape_the_root(tmp_path, key):
    with pytest.raises(ValueError):
        LocalStorage(tmp_path).put(key, b"x")


def test_s3_storage_roundtrip(s3_endpoint, monkeypatch):
    import boto3

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test")
    boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1").create_bucket(
        Bucket="pagemill-test")
    storage = open_storage("s3://pagemill-test/some/prefix", endpoint_url=s3_endpoint,
                           region="us-east-1")
    _roundtrip(storage)
    storage.put("k/1", b"data")
    listed = boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1").list_objects_v2(
        Bucket="pagemill-test")
    assert [o["Key"] for o in listed["Contents"]] == ["some/prefix/k/1"]


def test_unknown_scheme_is_rejected():
    with pytest.raises(ValueError, match="unsupported STORAGE_URL"):
        open_storage("ftp://x")


def test_pipeline_reads_and_writes_documents_in_s3(s3_endpoint, monkeypatch, engine, config, tenant,
                                                   fake_mistral):
    """Documents staged into S3 by reference, parsed and indexed from there; provider output
    written there too.  No document bytes pass through the database or the messages."""
    import boto3
    from sqlalchemy import text

    from app.domain import jobs
    from app.services.processing import process_batch
    from app.services.staging import stage_document
    from tasks import provider
    from tests.conftest import ROOT

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test")
    client = boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1")
    client.create_bucket(Bucket="pagemill-pipeline")
    storage = open_storage("s3://pagemill-pipeline/docs", endpoint_url=s3_endpoint, region="us-east-1")
    pdf = (ROOT / "samples" / "maintenance-report.pdf").read_bytes()
    local = stage_document(storage, tenant, "report.pdf", pdf, source="upload", filename="report.pdf")
    remote = stage_document(storage, tenant, "remote.pdf", pdf + b"\n%remote", source="upload",
                            filename="remote.pdf")
    with engine.begin() as conn:
        local_job, _ = jobs.create_job(conn, tenant, [local], 10, {}, None, None)
        remote_job, _ = jobs.create_job(conn, tenant, [remote], 10, {"provider": "mistral-batch"}, None, None)
    assert process_batch(engine, storage, config, local_job, 0).completed == 1
    batch_id = process_batch(engine, storage, config, remote_job, 0).provider_batch
    provider.submit(engine, storage, config, batch_id)
    while provider.check(engine, storage, config, batch_id).state == "running":
        pass
    keys = {o["Key"] for o in client.list_objects_v2(Bucket="pagemill-pipeline")["Contents"]}
    assert f"docs/{local.object_key}" in keys and f"docs/provider/{batch_id}/output.jsonl" in keys
    with engine.connect() as conn:
        statuses = conn.execute(text("SELECT status FROM documents WHERE job_id IN (:a, :b)"),
                                {"a": local_job, "b": remote_job}).scalars().all()
    assert statuses == ["completed", "completed"]


def test_direct_uploads_by_presigned_url_then_object_key_documents(s3_endpoint, monkeypatch, engine, config,
                                                                    storage):
    import uuid

    import boto3
    import requests
    from sqlalchemy import text

    from app.api import create_app
    from app.domain import jobs
    from app.domain.auth import create_key
    from app.services.processing import process_batch
    from tests.conftest import ROOT

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test")
    boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1").create_bucket(Bucket="uploads-test")
    s3_config = config.with_overrides(
        storage={"url": "s3://uploads-test/pm", "endpoint_url": s3_endpoint, "region": "us-east-1"},
        jobs={"max_file_bytes": 100_000})
    client = create_app(s3_config).test_client()
    with engine.begin() as conn:
        key = create_key(conn, f"upl-{uuid.uuid4().hex[:10]}")
        tenant = conn.execute(text("SELECT tenant_id FROM api_keys WHERE prefix = :p"),
                              {"p": key.split("_")[1]}).scalar_one()
    auth = {"Authorization": f"Bearer {key}"}

    grant = client.post("/v1/uploads", headers=auth)
    assert grant.status_code == 201
    body = grant.get_json()
    pdf = (ROOT / "samples" / "maintenance-report.pdf").read_bytes()
    assert requests.put(body["upload_url"], data=pdf, timeout=10).status_code == 200

    # Malformed and unknown keys are 400.
    other = client.post("/v1/uploads", headers=auth).get_json()["object_key"]  # granted, never PUT
    for documents, index in (([{"id": "a", "object_key": "../etc/passwd"}], "0"),
                             ([{"id": "x", "text": "fine"}, {"id": "a", "object_key": other}], "1")):
        bad = client.post("/v1/jobs", headers=auth, json={"documents": documents})
        assert bad.status_code == 400
        assert set(bad.get_json()["error"]["details"]["documents"]) == {index}
    with engine.begin() as conn:
        intruder = {"Authorization": f"Bearer {create_key(conn, f'upl-{uuid.uuid4().hex[:10]}')}"}
    stolen = client.post("/v1/jobs", headers=intruder, json={"documents": [
        {"id": "theirs", "object_key": body["object_key"]}]})
    assert stolen.status_code == 400  # resolved inside the intruder's tenant: not found
    big = client.post("/v1/uploads", headers=auth).get_json()
    requests.put(big["upload_url"], data=b"x" * 200_000, timeout=10)
    too_large = client.post("/v1/jobs", headers=auth, json={"documents": [
        {"id": "big", "object_key": big["object_key"]}]})
    assert too_large.status_code == 413

    # The worker path: stored content-addressed, the upload object removed, then parsed.
    s3 = open_storage("s3://uploads-test/pm", endpoint_url=s3_endpoint, region="us-east-1")
    document = jobs.NewDocument(external_id="report", source="object",
                                object_key=f"{tenant}/{body['object_key']}", mime_type=None,
                                size_bytes=len(pdf), sha256=None)
    with engine.begin() as conn:
        job_id, _ = jobs.create_job(conn, str(tenant), [document], 10)
    assert process_batch(engine, s3, s3_config, job_id, 0).completed == 1
    assert not s3.exists(f"{tenant}/{body['object_key']}")
    with engine.connect() as conn:
        row = conn.execute(text("SELECT status, object_key, mime_type FROM documents WHERE job_id = :j"),
                           {"j": job_id}).one()
    assert row.status == "completed" and row.mime_type == "application/pdf" and s3.exists(row.object_key)

    # With local storage there is nothing to presign: a clear 409.
    local = create_app(config).test_client()
    assert local.post("/v1/uploads", headers=auth).status_code == 409


@needs_corpus
@pytest.mark.system
def test_api_and_worker_processes_on_s3_storage(s3_endpoint, test_env, database_url, tmp_path):
    """`pagemill serve` (API + worker, real processes) configured with STORAGE_URL=s3://...:
    an uploaded job completes, its bytes live in the bucket, no message carries them, and
    deleting the document removes its object."""

    import boto3
    import requests
    from sqlalchemy import text

    from app.domain.auth import create_key
    from app.infra.db import get_engine, upgrade_schema
    from app.infra.embedded import create_database
    from tests.conftest import ROOT, terminate, wait_for

    # A database of its own: the session's worker (local storage) must not take these jobs.
    url = database_url.replace("/pagemill_test?", "/pagemill_s3?", 1)
    create_database(database_url, "pagemill_s3")
    upgrade_schema(url)
    engine = get_engine(url)
    s3 = boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1",
                      aws_access_key_id="test", aws_secret_access_key="test")
    s3.create_bucket(Bucket="pagemill-serve")
    with engine.begin() as conn:
        key = create_key(conn, "s3-serve")
        # Records the size of every message published, before workers consume and delete it.
        conn.execute(text("""
            CREATE TABLE IF NOT EXISTS seen_messages (size int NOT NULL);
            CREATE OR REPLACE FUNCTION note_message() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO seen_messages VALUES (length(NEW.payload)); RETURN NEW; END $$;
            DROP TRIGGER IF EXISTS note_message ON broker_messages;
            CREATE TRIGGER note_message AFTER INSERT ON broker_messages
                FOR EACH ROW EXECUTE FUNCTION note_message();"""))
    port = free_port()
    env = {**test_env, "DATABASE_URL": url, "STORAGE_URL": "s3://pagemill-serve/objects",
           "S3_ENDPOINT_URL": s3_endpoint, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
           "AWS_DEFAULT_REGION": "us-east-1", "PAGEMILL_HOME": str(tmp_path),
           "PAGEMILL_LOG_LEVEL": "WARNING"}
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "serve", "--port", str(port)], env=env,
                            cwd=ROOT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        def up() -> bool:
            assert proc.poll() is None, f"serve exited with {proc.returncode}"
            try:
                return requests.get(f"{base}/healthz", timeout=2).ok
            except requests.ConnectionError:
                return False

        wait_for(up, timeout=120, what="API up")
        pdf = (ROOT.parent / "shared" / "corpus" / "docling" / "pdf" / "sources" / "multi_page.pdf")
        body = pdf.read_bytes()
        auth = {"Authorization": f"Bearer {key}"}
        response = requests.post(f"{base}/v1/jobs", headers=auth, timeout=30,
                                 files=[("file", ("multi_page.pdf", body, "application/pdf")),
                                        ("file", ("notes.txt", b"plain notes about ducks", "text/plain"))])
        assert response.status_code == 202, response.text
        job_id = response.json()["id"]

        def finished() -> dict | None:
            job = requests.get(f"{base}/v1/jobs/{job_id}", headers=auth, timeout=10).json()
            return job if job["status"] in ("completed", "completed_with_errors", "failed") else None

        job = wait_for(finished, timeout=300, what="job on S3 storage")
        assert job["status"] == "completed" and job["completed_documents"] == 2
        documents = requests.get(f"{base}/v1/jobs/{job_id}/documents", headers=auth, timeout=10).json()
        objects = {o["Key"] for o in s3.list_objects_v2(Bucket="pagemill-serve").get("Contents", [])}
        with engine.connect() as conn:
            keys = dict(conn.execute(text("SELECT external_id, object_key FROM documents WHERE job_id = :j"),
                                     {"j": job_id}).all())
            count, largest = conn.execute(text("SELECT count(*), max(size) FROM seen_messages")).one()
        assert {f"objects/{k}" for k in keys.values()} <= objects
        assert count >= 1 and largest < 8192 < len(body)  # messages carry references, never bytes
        pdf_doc = next(d for d in documents["documents"] if d["document_id"] == "multi_page.pdf")
        deleted = requests.delete(f"{base}/v1/documents/{pdf_doc['id']}", headers=auth, timeout=30)
        assert deleted.status_code == 204
        remaining = {o["Key"] for o in s3.list_objects_v2(Bucket="pagemill-serve").get("Contents", [])}
        assert f"objects/{keys['multi_page.pdf']}" not in remaining
    finally:
        terminate(proc)
