"""Hostile and malformed requests get a fast JSON 4xx, never a 500, an HTML page or minutes of
work: oversized document lists are counted before they are inspected, deeply nested JSON is
refused before the (recursive) parser sees it, NUL and unpaired surrogates are refused in the
URL as in bodies, the server's own refusals (414, 431, a malformed request line) carry the
API's error body, and an idempotent replay compares multipart form fields too."""

from __future__ import annotations

import hashlib
import http.client
import io
import json
import socket
import time
import uuid
from collections.abc import Iterator

import pytest

from app.api import create_app
from app.api.job_requests import fingerprint
from app.api.requests import json_depth_exceeds
from app.config import Config
from app.domain.auth import create_key
from tests.conftest import free_port, start_serve, terminate

DEEP = 10_000


@pytest.fixture(scope="module")
def client(config):
    return create_app(config).test_client()


@pytest.fixture
def headers(engine) -> dict[str, str]:
    with engine.begin() as conn:
        key = create_key(conn, f"hostile-{uuid.uuid4().hex[:10]}")
    return {"Authorization": f"Bearer {key}"}


def _nested(depth: int, leaf: str = "1") -> str:
    return "[" * depth + leaf + "]" * depth


def _error(response) -> dict:
    assert response.content_type == "application/json", response.data[:200]
    return response.get_json()["error"]


# --- item 2: a huge document list is counted before anything else looks at it ---------------


def _tiny_documents(n: int) -> bytes:
    return json.dumps({"documents": [{"id": str(i), "text": "x"} for i in range(n)]}).encode()


def test_a_hundred_thousand_documents_are_refused_at_once(client, headers, config):
    body = _tiny_documents(100_000)
    started = time.monotonic()
    response = client.post("/v1/jobs", data=body, content_type="application/json", headers=headers)
    elapsed = time.monotonic() - started
    print(f"\n100,000 documents ({len(body) / 1e6:.1f} MB): {response.status_code} in {elapsed:.3f} s")
    assert response.status_code == 413
    error = _error(response)
    assert error["code"] == "too_many_documents"
    assert f"at most {config.jobs.max_documents_per_job}" in error["message"]


def test_the_count_is_checked_before_any_document_is_validated(client, headers, config):
    # Every record here is invalid (and every id repeated): a validator that looked at them
    # first would answer 400 after doing per-record work for all of them.
    n = config.jobs.max_documents_per_job + 1
    body = {"documents": [{"id": "same"}] * n}
    response = client.post("/v1/jobs", json=body, headers=headers)
    assert response.status_code == 413
    assert _error(response)["code"] == "too_many_documents"


def test_repeated_ids_are_still_named_within_the_limit(client, headers):
    docs = [{"id": f"d{i % 7}", "text": "x"} for i in range(20)] + [{"id": "once", "text": "x"}]
    response = client.post("/v1/jobs", json={"documents": docs}, headers=headers)
    assert response.status_code == 400
    message = str(_error(response)["details"]["documents"])
    assert all(f"d{i}" in message for i in range(7)) and "once" not in message


def test_every_refused_url_is_named_by_its_index(client, headers):
    # The URL checks (each resolves its host) run concurrently: each answer is still the
    # refusal of its own document, repeated URLs included.
    docs = [{"id": "text", "text": "x"}, {"id": "a", "url": "https://10.1.2.3/a.pdf"},
            {"id": "b", "url": "ftp://example.com/b.pdf"}, {"id": "c", "url": "https://10.1.2.3/a.pdf"},
            {"id": "d", "url": "https://[fd00:ec2::254]/d.pdf"}]
    response = client.post("/v1/jobs", json={"documents": docs}, headers=headers)
    assert response.status_code == 400
    details = _error(response)["details"]["documents"]
    assert set(details) == {"1", "2", "3", "4"}
    assert "non-public" in details["1"]["url"][0] and details["1"] == details["3"]
    assert "scheme 'ftp'" in details["2"]["url"][0] and "non-public" in details["4"]["url"][0]


# --- item 5a: nesting depth, before parsing, for every JSON the API reads ----------------------


def test_the_depth_scan_ignores_brackets_inside_strings_and_escapes():
    assert not json_depth_exceeds(b'{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[["}', 3)
    assert not json_depth_exceeds(b'{"a": "\\"[[[[[[[[[[[[[[[[\\\\"}', 3)
    assert json_depth_exceeds(b'{"a": "\\\\", "b": [[[[1]]]]}', 3)
    assert not json_depth_exceeds(b'[[[1]]]', 3)
    assert json_depth_exceeds(b'[[[[1]]]]', 3)
    # Unclosed brackets count (the parser recurses into them before it fails).
    assert json_depth_exceeds(b"[" * 10, 3)
    # What follows an unterminated quote is text to the parser too: it fails, not recurses.
    assert not json_depth_exceeds(b'["' + b"[" * DEEP, 3)
    with pytest.raises(ValueError):
        json.loads(b'["' + b"[" * DEEP)


def test_a_utf16_body_cannot_hide_brackets_from_the_scan():
    # U+2200 is the bytes 00 22 in UTF-16-LE: a scan of the raw bytes would see a quote in
    # the middle of the string and think the deep list that follows is text.
    body = ('["\u2200", ' + _nested(DEEP) + ', "x"]').encode("utf-16-le")
    assert json_depth_exceeds(body, 64)


def _job_with_metadata(metadata_json: str) -> str:
    return '{"documents": [{"id": "a", "text": "x", "metadata": {"deep": ' + metadata_json + "}}]}"


DEEP_BODIES = {
    "job metadata": ("/v1/jobs", _job_with_metadata(_nested(DEEP))),
    "job metadata of objects": ("/v1/jobs", _job_with_metadata('{"a":' * DEEP + "1" + "}" * DEEP)),
    "job options": ("/v1/jobs", '{"documents": [{"id": "a", "text": "x"}], "options": '
                    '{"provider": "mistral-batch", "annotation_schema": {"x": ' + _nested(DEEP) + "}}}"),
    "job body itself": ("/v1/jobs", _nested(DEEP)),
    "unclosed": ("/v1/jobs", "[" * DEEP),
    "search filters.metadata": ("/v1/search", '{"query": "q", "filters": {"metadata": {"k": '
                                + _nested(DEEP) + "}}}"),
    "search body itself": ("/v1/search", '{"query": "q", "x": ' + _nested(DEEP) + "}"),
    "just over the limit": ("/v1/jobs", _job_with_metadata(_nested(64))),
}


@pytest.mark.parametrize("where", DEEP_BODIES)
def test_deeply_nested_json_is_a_400(client, headers, where):
    path, body = DEEP_BODIES[where]
    response = client.post(path, data=body, content_type="application/json", headers=headers)
    assert response.status_code == 400, response.data[:300]
    error = _error(response)
    assert error["code"] == "validation_error"
    assert "nested deeper than 64" in error["message"]


def test_a_deep_utf16_body_is_a_400(client, headers):
    body = ('{"query": "\u2200", "x": ' + _nested(DEEP) + ', "y": "z"}').encode("utf-16-le")
    response = client.post("/v1/search", data=body, content_type="application/json", headers=headers)
    assert response.status_code == 400
    assert "nested deeper than" in _error(response)["message"]


def test_nesting_within_the_limit_and_brackets_in_text_are_accepted(client, headers):
    docs = [{"id": "nested", "text": "x", "metadata": {"deep": json.loads(_nested(40))}},
            {"id": "brackets", "text": "[{" * DEEP}]
    response = client.post("/v1/jobs", json={"documents": docs}, headers=headers)
    assert response.status_code == 202, response.data[:300]


def test_the_limit_is_a_setting(config, headers):
    shallow = create_app(config.with_overrides(api={"max_json_depth": 5})).test_client()
    response = shallow.post("/v1/jobs", data=_job_with_metadata(_nested(3)),
                            content_type="application/json", headers=headers)
    assert response.status_code == 400 and "nested deeper than 5" in _error(response)["message"]
    assert Config.from_env({"PAGEMILL_MAX_JSON_DEPTH": "12"}).api.max_json_depth == 12
    assert Config.from_env({}).api.max_json_depth == 64


def test_deep_multipart_options_are_a_400(client, headers):
    options = '{"annotation_schema": ' + _nested(DEEP) + ', "provider": "mistral-batch"}'
    response = client.post("/v1/jobs", headers=headers, content_type="multipart/form-data", data={
        "file": (io.BytesIO(b"hello"), "a.txt"), "options": options})
    assert response.status_code == 400, response.data[:300]
    assert "nested deeper than 64" in _error(response)["message"]


# --- item 5b: NUL and unpaired surrogates in the URL -----------------------------------------


@pytest.fixture
def job_id(client, headers) -> str:
    response = client.post("/v1/jobs", json={"documents": [{"id": "a", "text": "x"}]}, headers=headers)
    assert response.status_code == 202
    return response.get_json()["id"]


@pytest.mark.parametrize("query", ["status=%00", "status=queued%00", "limit=1%00", "%00=1",
                                   "offset=0&status=%00x"])
def test_nul_in_query_arguments_is_a_400(client, headers, job_id, query):
    for path in ("/v1/jobs", f"/v1/jobs/{job_id}/documents"):
        response = client.get(f"{path}?{query}", headers=headers)
        assert response.status_code == 400, (path, query, response.data[:300])
        error = _error(response)
        assert error["code"] == "validation_error"
        assert "NUL" in json.dumps(error)


def test_surrogates_and_invalid_utf8_in_the_url_never_reach_a_view(client, headers):
    # Werkzeug keeps undecodable bytes percent-encoded (an encoded surrogate is not UTF-8), so
    # no lone surrogate reaches a view through a query string; a NUL is refused outright.
    for query in ("status=%ED%A0%80", "status=%FF", "%ED%A0%80=1&status=%00"):
        response = client.get(f"/v1/jobs?{query}", headers=headers)
        assert response.status_code == 400, (query, response.data[:300])
        assert _error(response)["code"] == "validation_error"
    assert client.get("/v1/jobs?%ED%A0%80=1", headers=headers).status_code == 200


def test_unstorable_arguments_are_refused_before_authentication(client):
    response = client.get("/v1/jobs?status=%00")
    assert response.status_code == 400 and _error(response)["code"] == "validation_error"


def test_nul_in_a_path_argument_is_a_4xx_json(client, headers):
    for path in ("/v1/jobs/%00", "/v1/documents/%00", "/docs/static/%00"):
        response = client.get(path, headers=headers)
        assert 400 <= response.status_code < 500, (path, response.status_code)
        _error(response)


# --- item 5c: every werkzeug error is the API's JSON body -------------------------------------


def test_werkzeug_errors_raised_in_the_app_are_json(client, headers):
    assert _error(client.get("/nowhere"))["code"] == "not_found"
    assert _error(client.delete("/v1/jobs", headers=headers))["code"] == "method_not_allowed"
    response = client.post("/v1/search", data="{", content_type="application/json", headers=headers)
    assert response.status_code == 400 and _error(response)


@pytest.fixture(scope="module")
def served(test_env, tmp_path_factory) -> Iterator[tuple[str, int]]:
    """``pagemill serve`` itself (without its worker), on a free port."""
    port = free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    proc = start_serve(test_env, port, log)
    try:
        yield "127.0.0.1", port
    finally:
        terminate(proc, timeout=20)


def _json_refusal(response: http.client.HTTPResponse, status: int) -> dict:
    body = response.read()
    assert response.status == status, (response.status, body[:300])
    assert response.getheader("Content-Type", "").startswith("application/json"), body[:300]
    assert int(response.getheader("Content-Length", "-1")) == len(body)
    error: dict = json.loads(body)["error"]
    assert error["code"] and error["message"]
    return error


def _connect(server: tuple[str, int]) -> http.client.HTTPConnection:
    return http.client.HTTPConnection(*server, timeout=30)


def test_served_requests_answer_json(served):
    conn = _connect(served)
    conn.request("GET", "/v1/jobs")
    assert _json_refusal(conn.getresponse(), 401)["code"] == "unauthorized"
    conn.request("GET", "/v1/jobs?status=%00")
    assert _json_refusal(conn.getresponse(), 400)["code"] == "validation_error"


def test_a_too_long_request_line_is_a_json_414(served):
    conn = _connect(served)
    conn.request("GET", "/v1/jobs?x=" + "a" * 70_000)
    error = _json_refusal(conn.getresponse(), 414)
    assert error["code"] == "request_uri_too_long"  # the name Flask and werkzeug give it


def test_too_many_headers_are_a_json_431(served):
    conn = _connect(served)
    conn.putrequest("GET", "/v1/jobs")
    for i in range(150):
        conn.putheader(f"X-Filler-{i}", "x")
    conn.endheaders()
    error = _json_refusal(conn.getresponse(), 431)
    assert error["code"] == "request_header_fields_too_large"


def test_a_too_long_header_is_a_json_431(served):
    conn = _connect(served)
    conn.putrequest("GET", "/v1/jobs")
    conn.putheader("X-Filler", "x" * 70_000)
    conn.endheaders()
    assert _json_refusal(conn.getresponse(), 431)["code"] == "request_header_fields_too_large"


@pytest.mark.parametrize(("request_line", "status"), [
    (b"GARBAGE\r\n", 400),
    (b'GET / HTTP/1.1 "quoted" extra\r\n', 400),
    (b"GET / HTTP/9.9\r\n", 505),
])
def test_a_malformed_request_line_is_json(served, request_line, status):
    with socket.create_connection(served, timeout=30) as sock:
        sock.sendall(request_line + b"Host: x\r\n\r\n")
        response = http.client.HTTPResponse(sock)
        response.begin()
        _json_refusal(response, status)


def test_a_head_refusal_is_json_and_closes(served):
    """gunicorn refuses the request before it knows its method, so a HEAD refusal carries the
    JSON body too; the connection then closes, so no client mistakes it for the next answer."""
    with socket.create_connection(served, timeout=30) as sock:
        sock.sendall(b"HEAD /v1/jobs HTTP/1.1\r\nHost: x\r\n"
                     + b"".join(b"X-Filler-%d: x\r\n" % i for i in range(150)) + b"\r\n")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 431") or head.startswith(b"HTTP/1.0 431"), head
    assert b"application/json" in head and b"Connection: close" in head
    assert json.loads(body)["error"]["code"] == "request_header_fields_too_large"


def test_too_many_form_parts_are_a_json_413(client, headers):
    files = {f"f{i}": (io.BytesIO(b"x"), f"{i}.txt") for i in range(1_100)}
    response = client.post("/v1/jobs", headers=headers, content_type="multipart/form-data", data=files)
    assert response.status_code == 413
    error = _error(response)
    assert error["code"] == "request_too_large" and "form" in error["message"]


# --- item 8: the idempotency fingerprint covers multipart form fields ---------------------------


def _upload(client, headers, key: str, options: str | None):
    data: dict[str, object] = {"file": (io.BytesIO(b"same bytes"), "same.txt")}
    if options is not None:
        data["options"] = options
    return client.post("/v1/jobs", headers={**headers, "Idempotency-Key": key},
                       content_type="multipart/form-data", data=data)


def test_a_replay_with_different_multipart_options_is_a_conflict(client, headers):
    key = f"k-{uuid.uuid4().hex}"
    first = _upload(client, headers, key, None)
    assert first.status_code == 202
    job = first.get_json()["id"]
    changed = _upload(client, headers, key, '{"password": "secret"}')
    assert changed.status_code == 409, changed.data[:300]
    error = _error(changed)
    assert error["code"] == "idempotency_key_reused" and error["details"]["job_id"] == job
    # The same request again is a replay; the same options spelled differently too.
    assert _upload(client, headers, key, None).status_code == 200
    key2 = f"k-{uuid.uuid4().hex}"
    assert _upload(client, headers, key2, '{"provider": "mistral-batch"}').status_code == 202
    replay = _upload(client, headers, key2, '{ "provider" :"mistral-batch" }')
    assert replay.status_code == 200 and replay.get_json()["id"] != job
    assert _upload(client, headers, key2, None).status_code == 409


def test_a_multipart_replay_without_form_fields_keeps_its_fingerprint(client, headers):
    # Requests of files only hash as they always did: keys stored before this change replay.
    app = client.application
    with app.test_request_context("/v1/jobs", method="POST", content_type="multipart/form-data",
                                  data={"file": (io.BytesIO(b"same bytes"), "same.txt")}):
        expected = hashlib.sha256()
        expected.update(b"file\0same.txt\0")
        expected.update(hashlib.sha256(b"same bytes").digest())
        assert fingerprint() == expected.hexdigest()



def test_a_multipart_part_without_a_name_is_no_server_error(client, headers):
    """Found by Schemathesis: a form part whose Content-Disposition has no name is keyed None
    by werkzeug, and sorting the fields for the fingerprint crashed on it."""
    boundary = "pagemill-boundary"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n"
            "Content-Type: text/plain\r\n\r\nsome text\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data\r\n\r\nnameless\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; filename=\"b.txt\"\r\n"
            f"Content-Type: text/plain\r\n\r\nmore text\r\n--{boundary}--\r\n").encode()
    response = client.post("/v1/jobs", headers={**headers, "Idempotency-Key": f"k-{uuid.uuid4().hex}"},
                           content_type=f"multipart/form-data; boundary={boundary}", data=body)
    assert response.status_code < 500, response.data[:300]
