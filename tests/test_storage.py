"""Object storage: local disk, and S3 through boto3 against moto running as a real server."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import pytest

from app.storage import LocalStorage, ObjectNotFound, open_storage


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def s3_endpoint(monkeypatch_module=None):  # type: ignore[no-untyped-def]
    port = _free_port()
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


def _roundtrip(storage) -> None:  # type: ignore[no-untyped-def]
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


def test_local_storage_roundtrip(tmp_path):  # type: ignore[no-untyped-def]
    _roundtrip(LocalStorage(tmp_path))


@pytest.mark.parametrize("key", ["", "/abs", "a/../b", "a//b", "."])
def test_keys_cannot_escape_the_root(tmp_path, key):  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError):
        LocalStorage(tmp_path).put(key, b"x")


def test_s3_storage_roundtrip(s3_endpoint, monkeypatch):  # type: ignore[no-untyped-def]
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
                                                   fake_mistral):  # type: ignore[no-untyped-def]
    """Documents staged into S3 by reference, parsed and indexed from there; provider output
    written there too.  No document bytes pass through the database or the messages."""
    import boto3
    from sqlalchemy import text

    from app import jobs
    from app.jobs import stage_document
    from tasks import provider
    from tasks.pipeline import process_batch
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
