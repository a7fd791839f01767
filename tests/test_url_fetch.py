"""URL documents: the SSRF policy, redirects re-checked, size caps and timeouts, against a
real local HTTP server; and a URL job end to end through the worker."""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
import uuid
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from sqlalchemy import text

from app.api import create_app
from app.domain import jobs
from app.domain.auth import create_key
from app.infra.url_fetch import FetchError, UrlPolicy, check_url, embedded_ipv4, fetch
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
    # IPv4 addresses embedded in IPv6: each form is unwrapped and the IPv4 checked.
    ("https://[64:ff9b::a9fe:a9fe]/latest/meta-data/", "non-public"),  # NAT64 well-known
    ("https://[64:ff9b::10.0.0.1]/a.pdf", "non-public"),
    ("https://[64:ff9b::7f00:1]/a.pdf", "non-public"),
    ("https://[64:ff9b:1::a9fe:a9fe]/a.pdf", "non-public"),            # NAT64 local-use
    ("https://[64:ff9b:1::808:808]/a.pdf", "non-public"),              # refused outright
    ("https://[2002:a9fe:a9fe::1]/a.pdf", "non-public"),               # 6to4
    ("https://[2002:7f00:1::]/a.pdf", "non-public"),
    ("https://[2002:c0a8:a::1]/a.pdf", "non-public"),
    ("https://[::a9fe:a9fe]/a.pdf", "non-public"),                     # IPv4-compatible
    ("https://[::10.0.0.1]/a.pdf", "non-public"),
    ("https://[::ffff:0:a9fe:a9fe]/a.pdf", "non-public"),              # IPv4-translated (SIIT)
    ("https://[::ffff:a9fe:a9fe]/a.pdf", "non-public"),                # IPv4-mapped, hex
    # Teredo: server in bits 32-64, client is the bitwise NOT of the last 32 bits.
    ("https://[2001:0:a9fe:a9fe::]/a.pdf", "non-public"),              # server 169.254.169.254
    ("https://[2001:0:808:808:0:0:f5ff:fffe]/a.pdf", "non-public"),    # client 10.0.0.1
    ("https://[2001:0:808:808::5601:5601]/a.pdf", "non-public"),       # client 169.254.169.254
])
def test_default_policy_refuses_what_would_reach_inside(url, reason):
    with pytest.raises(FetchError) as info:
        check_url(url, UrlPolicy())
    assert info.value.code == "url_not_allowed" and reason in info.value.message


def test_public_addresses_pass_the_check():
    target = check_url("https://8.8.8.8/dns.pdf?x=1", UrlPolicy())
    assert target.addresses == ("8.8.8.8",) and target.path == "/dns.pdf?x=1"


@pytest.mark.parametrize("address", [
    "64:ff9b::a9fe:a9fe", "64:ff9b:1::808:808", "2002:a9fe:a9fe::1", "::a9fe:a9fe",
    "::ffff:0:a9fe:a9fe", "2001:0:808:808::5601:5601",
])
def test_a_host_name_resolving_to_an_embedded_private_address_is_refused(monkeypatch, address):
    # What a DNS answer (an AAAA record, or a DNS64 resolver synthesising one) would give:
    # the same check applies to resolved addresses as to literals.
    def resolve(host, port, *args, **kwargs):
        assert host == "files.example.org"
        return [(socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, port, 0, 0))]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    with pytest.raises(FetchError) as info:
        check_url("https://files.example.org/a.pdf", UrlPolicy())
    # Refused, without saying what the name resolves to (that is the private network's DNS).
    assert info.value.code == "url_not_allowed" and "not a public address" in info.value.message
    assert address not in info.value.message
    assert all(str(v4) not in info.value.message for v4 in embedded_ipv4(ipaddress.IPv6Address(address)))


@pytest.mark.parametrize("address, embedded", [
    ("64:ff9b::a9fe:a9fe", ["169.254.169.254"]),
    ("64:ff9b::808:808", ["8.8.8.8"]),
    ("2002:a9fe:a9fe::1", ["169.254.169.254"]),
    ("::a9fe:a9fe", ["169.254.169.254"]),
    ("::ffff:0:a9fe:a9fe", ["169.254.169.254"]),
    ("::ffff:10.0.0.1", ["10.0.0.1"]),
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", ["65.54.227.120", "192.0.2.45"]),
    ("::1", []), ("::", []), ("2606:4700::1111", []),
])
def test_embedded_ipv4_addresses_are_unwrapped(address, embedded):
    assert [str(ip) for ip in embedded_ipv4(ipaddress.IPv6Address(address))] == embedded


def test_public_embedded_addresses_still_pass():
    # NAT64 to a public IPv4 is how IPv6-only networks reach IPv4 sites: not refused.
    assert check_url("https://[64:ff9b::808:808]/a.pdf", UrlPolicy()).addresses == ("64:ff9b::808:808",)


def test_fetch_streams_the_document(site):
    fetched = fetch(f"{site}/report.pdf", LOCAL)
    assert fetched.data == PDF and fetched.filename == "report.pdf"


def test_every_redirect_is_checked_again(site):
    # Loopback is allowed for the test server, but a redirect into the private network or
    # to the metadata service is refused before any connection is made.
    for target in ("http://10.0.0.1/secret", "http://169.254.169.254/latest/meta-data/",
                   "http://[64:ff9b::a9fe:a9fe]/latest/meta-data/", "http://[2002:a00:1::]/x",
                   "http://[::ffff:0:a9fe:a9fe]/x", "http://[2001:0:808:808::5601:5601]/x"):
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
    strict = config.with_overrides(urls={"allow_http": False, "allow_loopback": False})
    client = create_app(strict).test_client()
    with engine.begin() as conn:
        key = create_key(conn, f"url-{uuid.uuid4().hex[:10]}")
    body = {"documents": [{"id": "ok", "url": "https://8.8.8.8/a.pdf"},
                          {"id": "meta", "url": "https://169.254.169.254/latest/meta-data/"},
                          {"id": "nat64", "url": "https://[64:ff9b::a9fe:a9fe]/latest/meta-data/"},
                          {"id": "both", "url": "https://8.8.8.8/b.pdf", "text": "x"}]}
    response = client.post("/v1/jobs", json=body, headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 400
    details = response.get_json()["error"]["details"]["documents"]
    assert set(details) == {"3"}  # schema errors first: one of text or url
    del body["documents"][3]
    response = client.post("/v1/jobs", json=body, headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == "validation_error" and set(error["details"]["documents"]) == {"1", "2"}
    for index in ("1", "2"):  # the NAT64 form is refused exactly like the plain address
        assert "non-public address" in error["details"]["documents"][index]["url"][0]
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


# --- refusals do not disclose internal DNS; IDN hosts; control characters --------------------

_REAL_GETADDRINFO = socket.getaddrinfo


def _resolving(names: dict[str, str]):
    """A getaddrinfo that answers ``names`` (ASCII host -> IPv4 address), says any other name
    does not exist, and leaves IP literals to the real resolver (urllib3 connects through it)."""
    def resolve(host, port, *args, **kwargs):
        if host in names:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (names[host], port))]
        try:
            ipaddress.ip_address(host)
        except ValueError:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known") from None
        return _REAL_GETADDRINFO(host, port, *args, **kwargs)
    return resolve


@pytest.mark.parametrize("address", ["10.20.30.40", "169.254.169.254", "192.168.7.7", "127.0.0.9"])
def test_a_refusal_does_not_name_the_private_address_a_host_resolves_to(monkeypatch, address):
    monkeypatch.setattr(socket, "getaddrinfo", _resolving({"intranet.example.org": address}))
    with pytest.raises(FetchError) as info:
        check_url("https://intranet.example.org/a.pdf", UrlPolicy())
    assert info.value.code == "url_not_allowed"
    assert "not a public address" in info.value.message and address not in info.value.message


def test_an_internationalised_host_is_checked_and_used_in_its_ascii_form(monkeypatch):
    asked = []
    resolve = _resolving({"xn--bcher-kva.example": "8.8.8.8"})

    def recording(host, *args, **kwargs):
        asked.append(host)
        return resolve(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", recording)
    policy = UrlPolicy(allow_http=True)
    unicode = check_url("http://bücher.example/a.pdf", policy)
    # Upper case and a full-width dot map (UTS #46) to the same name.
    mapped = check_url("http://BÜCHER\u3002example/a.pdf", policy)
    ascii_form = check_url("http://xn--bcher-kva.example/a.pdf", policy)
    assert unicode == mapped == ascii_form
    assert unicode.host == "xn--bcher-kva.example" and unicode.addresses == ("8.8.8.8",)
    assert asked == ["xn--bcher-kva.example"] * 3


@pytest.mark.parametrize("url", ["http://bücher.example/a.pdf", "http://xn--bcher-kva.example/a.pdf"])
def test_an_internationalised_host_that_does_not_resolve_is_a_clean_refusal(monkeypatch, url):
    monkeypatch.setattr(socket, "getaddrinfo", _resolving({}))
    with pytest.raises(FetchError) as info:
        check_url(url, UrlPolicy(allow_http=True))
    assert info.value.code == "url_not_allowed"
    assert "'xn--bcher-kva.example' is not a public address" in info.value.message


def test_a_name_that_does_not_resolve_and_one_that_resolves_privately_are_refused_alike(monkeypatch):
    """Told apart, the two refusals would let a tenant ask which internal names exist."""
    monkeypatch.setattr(socket, "getaddrinfo", _resolving({"intranet.example.org": "10.1.2.3"}))
    messages = []
    for host in ("intranet.example.org", "nothing.example.org"):
        with pytest.raises(FetchError) as info:
            check_url(f"https://{host}/a.pdf", UrlPolicy())
        messages.append(info.value.message.replace(host, "HOST"))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("host", [
    "-bücher.example",            # a label may not start with a hyphen
    "bü\u200dcher.example",       # a zero-width joiner out of context
    "b\u00fc" * 40 + ".example",  # a label over 63 characters once encoded
    "bücher..example",            # an empty label
])
def test_an_invalid_internationalised_host_is_refused(monkeypatch, host):
    monkeypatch.setattr(socket, "getaddrinfo", _resolving({}))
    with pytest.raises(FetchError) as info:
        check_url(f"https://{host}/a.pdf", UrlPolicy())
    assert info.value.code == "url_not_allowed"


def test_an_internationalised_host_is_fetched_with_its_ascii_host_header(monkeypatch):
    # The test server on 127.0.0.1 stands for bücher.example: Host (and, over https, SNI and
    # the certificate check) carry the A-label, which http.client could not even encode
    # otherwise for most scripts.
    seen = []

    class Echo(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self) -> None:  # noqa: N802
            seen.append(self.headers["Host"])
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

    server = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setattr(socket, "getaddrinfo", _resolving({"xn--bcher-kva.example": "127.0.0.1",
                                                               "xn--r8jz45g.example": "127.0.0.1"}))
        port = server.server_address[1]
        assert fetch(f"http://bücher.example:{port}/a.pdf", LOCAL).data == b"ok"
        assert fetch(f"http://例え.example:{port}/a.pdf", LOCAL).data == b"ok"
    finally:
        server.shutdown()
    assert seen == [f"xn--bcher-kva.example:{port}", f"xn--r8jz45g.example:{port}"]


@pytest.mark.parametrize("url", [
    "https://8.8.8.8/a.pdf\r\nX-Injected: 1",
    "https://8.8.8.8/a\n.pdf",
    "https://8.8.8.8/a.pdf\r",
    "\x00https://8.8.8.8/a.pdf",
    "https://8.8.8.8/a\tb.pdf",
    "https://8.8.8.8/a\x7f.pdf",
    "https://8.8.8.8/a\x85.pdf",          # NEL (C1)
    "https://8.8.8.8/a\u2028.pdf",        # line separator
    "https://exa\rmple.com/a.pdf",
])
def test_control_characters_are_refused_before_anything_else(monkeypatch, url):
    def no_lookup(*args, **kwargs):
        raise AssertionError("a URL with a control character must not be resolved")

    monkeypatch.setattr(socket, "getaddrinfo", no_lookup)
    with pytest.raises(FetchError) as info:
        check_url(url, UrlPolicy())
    assert info.value.code == "url_not_allowed" and "control character" in info.value.message


def _tenant_client(config, engine):
    client = create_app(config.with_overrides(urls={"allow_http": True,
                                                    "allow_loopback": False})).test_client()
    with engine.begin() as conn:
        key = create_key(conn, f"url-{uuid.uuid4().hex[:10]}")
    return client, {"Authorization": f"Bearer {key}"}


def test_url_documents_and_webhooks_refuse_alike_without_the_address(config, engine, monkeypatch):
    monkeypatch.setattr(socket, "getaddrinfo", _resolving({
        "intranet.example.org": "10.20.30.40", "xn--bcher-kva.example": "8.8.8.8"}))
    client, headers = _tenant_client(config, engine)
    body = {"documents": [
        {"id": "private", "url": "http://intranet.example.org/a.pdf"},
        {"id": "nowhere-unicode", "url": "http://nirgendwö.example/a.pdf"},
        {"id": "nowhere-ascii", "url": "http://xn--nirgendw-u4a.example/a.pdf"},
        {"id": "bad-idn", "url": "http://-bücher.example/a.pdf"},
        {"id": "idn", "url": "http://bücher.example/a.pdf"}]}
    response = client.post("/v1/jobs", json=body, headers=headers)
    assert response.status_code == 400, response.get_json()
    error = response.get_json()["error"]
    assert error["code"] == "validation_error" and set(error["details"]["documents"]) == {"0", "1", "2", "3"}
    reasons = {index: d["url"][0] for index, d in error["details"]["documents"].items()}
    assert "not a public address" in reasons["0"] and "10.20.30.40" not in response.get_data(as_text=True)
    # The two spellings of one host name are refused with the same reason.
    assert reasons["1"] == reasons["2"] and "does not resolve" in reasons["1"]
    assert "internationalised" in reasons["3"]

    webhook = {"events": ["job.completed"]}
    for url, code in [("http://intranet.example.org/hook", "url_not_allowed"),
                      ("http://nirgendwö.example/hook", "url_not_allowed"),
                      ("http://xn--nirgendw-u4a.example/hook", "url_not_allowed"),
                      ("http://-bücher.example/hook", "url_not_allowed")]:
        response = client.post("/v1/webhooks", json={**webhook, "url": url}, headers=headers)
        assert response.status_code == 400, (url, response.get_json())
        error = response.get_json()["error"]
        assert error["code"] == code and error["details"]["url"] == [error["message"]]
        assert "10.20.30.40" not in response.get_data(as_text=True)
    assert "not a public address" in client.post(
        "/v1/webhooks", json={**webhook, "url": "http://intranet.example.org/hook"},
        headers=headers).get_json()["error"]["message"]


def test_a_webhook_on_an_internationalised_host_is_registered(config, engine, monkeypatch):
    monkeypatch.setattr(socket, "getaddrinfo", _resolving({"xn--bcher-kva.example": "8.8.8.8"}))
    client, headers = _tenant_client(config, engine)
    for url in ("http://bücher.example/hook", "http://xn--bcher-kva.example/hook"):
        response = client.post("/v1/webhooks", json={"url": url, "events": ["job.completed"]},
                               headers=headers)
        assert response.status_code == 201, response.get_json()
        assert response.get_json()["url"] == url  # kept as registered; converted when used


@pytest.mark.parametrize("url", ["https://8.8.8.8/hook\r\nX-Injected: 1", "https://8.8.8.8/ho\nok",
                                 "https://8.8.8.8/hook\x7f", "https://8.8.8.8/\u2029"])
def test_control_characters_in_urls_are_refused_at_registration(config, engine, url):
    client, headers = _tenant_client(config, engine)
    response = client.post("/v1/webhooks", json={"url": url, "events": ["job.completed"]},
                           headers=headers)
    assert response.status_code == 400 and response.content_type == "application/json"
    error = response.get_json()["error"]
    assert error["code"] == "validation_error" and "control character" in error["details"]["url"][0]

    response = client.post("/v1/jobs", json={"documents": [{"id": "a", "url": url}]}, headers=headers)
    assert response.status_code == 400 and response.content_type == "application/json"
    error = response.get_json()["error"]
    assert error["code"] == "validation_error"
    assert "control character" in error["details"]["documents"]["0"]["url"][0]
