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
