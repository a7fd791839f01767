"""URL documents: the SSRF policy, redirects re-checked, size caps and timeouts, against a
real local HTTP server; and a URL job end to end through the worker."""

from __future__ import annotations

import threading
import time
import uuid
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from sqlalchemy import text

from app import jobs
from app.api import create_app
from app.auth import create_key
from app.url_fetch import FetchError, UrlPolicy, check_url, fetch
from tests.conftest import ROOT, wait_for

PDF = (ROOT / "samples" / "maintenance-report.pdf").read_bytes()
LOCAL = UrlPolicy(allow_http=True, allow_loopback=True, max_bytes=1_000_000, read_timeout=2.0)


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self) -> None:  # noqa: N802
        try:
            self._route()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client hung up on purpose (size cap, timeout): that is what is tested

    def _route(self):
        if self.path == "/report.pdf":
            self._send(200, PDF, {"Content-Type": "application/pdf"})
        elif self.path.startswith("/redirect?to="):
            self._send(302, b"", {"Location": self.path.split("=", 1)[1]})
        elif self.path == "/loop":
            self._send(302, b"", {"Location": "/loop"})
        elif self.path == "/huge":
            self._send(200, b"x" * 2_000_000, {"Content-Type": "text/plain"})
        elif self.path == "/huge-chunked":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for _ in range(40):
                chunk = b"y" * 65536
                self.wfile.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
            self.wfile.write(b"0\r\n\r\n")
        elif self.path == "/slow":
            time.sleep(5)
            self._send(200, b"late", {})
        else:
            self._send(404, b"no", {})

    def _send(self, status, body, headers):
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        if "Transfer-Encoding" not in headers:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def site():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.mark.parametrize("url, reason", [
    ("http://example.com/a.pdf", "scheme"),
    ("ftp://example.com/a.pdf", "scheme"),
    ("file:///etc/passwd", "scheme"),
    ("https://user:secret@example.com/a.pdf", "credentials"),
    ("https:///a.pdf", "no host"),
    ("https://localhost/a.pdf", "non-public"),
    ("https://127.0.0.1/a.pdf", "non-public"),
    ("https://2130706433/a.pdf", "non-public"),          # 127.0.0.1 as one decimal number
    ("https://10.1.2.3/a.pdf", "non-public"),
    ("https://192.168.0.10/a.pdf", "non-public"),
    ("https://169.254.169.254/latest/meta-data/", "non-public"),  # cloud metadata
    ("https://100.64.0.1/a.pdf", "non-public"),          # carrier-grade NAT
    ("https://[::1]/a.pdf", "non-public"),
    ("https://[::ffff:127.0.0.1]/a.pdf", "non-public"),  # IPv4-mapped loopback
    ("https://[fd00:ec2::254]/a.pdf", "non-public"),     # AWS metadata over IPv6
    ("https://224.0.0.1/a.pdf", "non-public"),
])
def test_default_policy_refuses_what_would_reach_inside(url, reason):
    with pytest.raises(FetchError) as info:
        check_url(url, UrlPolicy())
    assert info.value.code == "url_not_allowed" and reason in info.value.message


def test_public_addresses_pass_the_check():
    target = check_url("https://8.8.8.8/dns.pdf?x=1", UrlPolicy())
    assert target.addresses == ("8.8.8.8",) and target.path == "/dns.pdf?x=1"


def test_fetch_streams_the_document(site):
    fetched = fetch(f"{site}/report.pdf", LOCAL)
    assert fetched.data == PDF and fetched.filename == "report.pdf"


def test_every_redirect_is_checked_again(site):
    # Loopback is allowed for the test server, but a redirect into the private network or
    # to the metadata service is refused before any connection is made.
    for target in ("http://10.0.0.1/secret", "http://169.254.169.254/latest/meta-data/"):
        with pytest.raises(FetchError) as info:
            fetch(f"{site}/redirect?to={target}", LOCAL)
        assert info.value.code == "url_not_allowed"
    assert fetch(f"{site}/redirect?to=/report.pdf", LOCAL).data == PDF
    with pytest.raises(FetchError) as info:
        fetch(f"{site}/loop", LOCAL)
    assert "redirects" in info.value.message


@pytest.mark.parametrize("path", ["/huge", "/huge-chunked"])
def test_size_cap_applies_while_streaming(site, path):
    with pytest.raises(FetchError) as info:
        fetch(f"{site}{path}", LOCAL)
    assert info.value.code == "too_large"


def test_read_timeout(site):
    started = time.monotonic()
    with pytest.raises(FetchError) as info:
        fetch(f"{site}/slow", replace(LOCAL, read_timeout=0.5))
    assert info.value.code == "fetch_failed" and time.monotonic() - started < 4


def test_api_refuses_a_private_url_with_400_and_writes_nothing(config, engine):
    strict = replace(config, url_allow_http=False, url_allow_loopback=False)
    client = create_app(strict).test_client()
    with engine.begin() as conn:
        key = create_key(conn, f"url-{uuid.uuid4().hex[:10]}")
    body = {"documents": [{"id": "ok", "url": "https://8.8.8.8/a.pdf"},
                          {"id": "meta", "url": "https://169.254.169.254/latest/meta-data/"},
                          {"id": "both", "url": "https://8.8.8.8/b.pdf", "text": "x"}]}
    response = client.post("/v1/jobs", json=body, headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 400
    details = response.get_json()["error"]["details"]["documents"]
    assert set(details) == {"2"}  # schema errors first: one of text or url
    del body["documents"][2]
    response = client.post("/v1/jobs", json=body, headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 400
    assert set(response.get_json()["error"]["details"]["documents"]) == {"1"}
    with engine.connect() as conn:
        count = conn.execute(text("""SELECT count(*) FROM jobs j JOIN api_keys k ON k.tenant_id = j.tenant_id
                                     WHERE k.prefix = :p"""), {"p": key.split("_")[1]}).scalar_one()
    assert count == 0


def test_url_documents_are_fetched_by_the_worker(config, engine, worker, site):
    client = create_app(config).test_client()
    with engine.begin() as conn:
        key = create_key(conn, f"url-{uuid.uuid4().hex[:10]}")
    headers = {"Authorization": f"Bearer {key}"}
    body = {"documents": [{"id": "report", "url": f"{site}/report.pdf"},
                          {"id": "missing", "url": f"{site}/nothing.pdf"},
                          {"id": "sneaky", "url": f"{site}/redirect?to=http://10.0.0.1/x"}]}
    response = client.post("/v1/jobs", json=body, headers=headers)
    assert response.status_code == 202, response.get_json()
    job_id = response.get_json()["id"]

    def done():
        body = client.get(f"/v1/jobs/{job_id}", headers=headers).get_json()
        return body if body["status"] in jobs.TERMINAL_JOB_STATES else None

    wait_for(done, timeout=120, what="url job")
    listing = client.get(f"/v1/jobs/{job_id}/documents", headers=headers).get_json()["documents"]
    by_id = {d["document_id"]: d for d in listing}
    assert by_id["report"]["status"] == "completed" and by_id["report"]["mime_type"] == "application/pdf"
    assert by_id["report"]["url"] == f"{site}/report.pdf"
    assert (by_id["missing"]["status"], by_id["missing"]["error_code"]) == ("failed", "fetch_failed")
    assert by_id["sneaky"]["error_code"] == "url_not_allowed"
