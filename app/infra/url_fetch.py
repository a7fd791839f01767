"""Fetching documents by URL without becoming a proxy into the private network (SSRF).

Rules, applied to the submitted URL at submission (400 before anything is written) and to
every redirect target while fetching:

- no control characters anywhere (CR/LF would let a stored URL inject header lines wherever it
  is written out whole, and ``urlsplit`` silently drops them, so the check and the use differ);
- ``https`` only (``http`` only when ``PAGEMILL_URL_ALLOW_HTTP`` is set), no credentials in
  the URL, a host name or address, default or explicit port;
- an internationalised host name is converted to its ASCII form (IDNA 2008 with UTS #46
  mapping, ``bücher.example`` -> ``xn--bcher-kva.example``), which is what is resolved and what
  ``Host``, SNI and the certificate check use; one that has no valid ASCII form is refused;
- every address the host resolves to must be globally routable: loopback, private (RFC 1918,
  unique-local), link-local (cloud metadata at 169.254.169.254 and fd00:ec2::254), CGNAT,
  multicast, reserved and unspecified addresses are refused, and so is every IPv6 form that
  embeds an IPv4 address leading there (IPv4-mapped and -translated, NAT64 ``64:ff9b::/96``,
  6to4, Teredo server and client, IPv4-compatible); the local-use NAT64 prefix
  ``64:ff9b:1::/48`` is refused whole, since where its IPv4 sits depends on the operator.
  The refusal never quotes the address a name resolved to: that would turn the check into a
  lookup service for the private network's DNS (the server's log has it);
- the connection goes to the address that was checked (no second DNS lookup for an attacker's
  short-TTL record to change), with the original host name for TLS verification and ``Host``;
- redirects are followed by hand (at most 5), each one checked again;
- the body is streamed with a byte cap; connect and read timeouts apply.

``allow_loopback`` exists for tests, which serve documents from 127.0.0.1.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import unicodedata
from dataclasses import dataclass
from urllib.parse import unquote, urljoin, urlsplit

import certifi
import idna
import urllib3

from app.config import Config, JobsConfig, UrlFetchConfig

log = logging.getLogger(__name__)


class FetchError(Exception):
    """``code``: ``url_not_allowed``, ``fetch_failed`` or ``too_large``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class UrlPolicy:
    # The defaults are the settings' own (app/config.py).
    allow_http: bool = UrlFetchConfig.allow_http
    allow_loopback: bool = UrlFetchConfig.allow_loopback
    max_bytes: int = JobsConfig.max_file_bytes
    connect_timeout: float = UrlFetchConfig.connect_timeout
    read_timeout: float = UrlFetchConfig.read_timeout
    max_redirects: int = 5

    @classmethod
    def from_config(cls, config: Config) -> UrlPolicy:
        return cls(allow_http=config.urls.allow_http, allow_loopback=config.urls.allow_loopback,
                   max_bytes=config.jobs.max_file_bytes, connect_timeout=config.urls.connect_timeout,
                   read_timeout=config.urls.read_timeout)


@dataclass(frozen=True)
class Target:
    scheme: str
    # The host in ASCII, lower case: an IDN's A-label form (xn--...), an IPv6 address without
    # brackets.  What is sent as Host and SNI and checked against the certificate.
    host: str
    port: int
    path: str
    addresses: tuple[str, ...]


@dataclass(frozen=True)
class Fetched:
    data: bytes
    content_type: str | None
    filename: str | None
    final_url: str


# IPv6 prefixes whose last 32 bits are an IPv4 address some translator or host will reach.
_NAT64_WELL_KNOWN = ipaddress.IPv6Network("64:ff9b::/96")        # RFC 6052
_IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")                # RFC 4291, deprecated
_IPV4_TRANSLATED = ipaddress.IPv6Network("::ffff:0:0:0/96")      # RFC 2765 (SIIT)
# RFC 8215's local-use NAT64 prefix: the operator picks a length between /48 and /96, so where
# the IPv4 sits cannot be known from the address; the whole prefix is refused.
_NAT64_LOCAL_USE = ipaddress.IPv6Network("64:ff9b:1::/48")


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses a packet to ``ip`` can end up at: IPv4-mapped, IPv4-translated,
    NAT64 (well-known prefix), 6to4, Teredo (server and client) and IPv4-compatible forms.
    ``::`` and ``::1`` are IPv6 addresses in their own right, not IPv4-compatible ones."""
    if ip.ipv4_mapped is not None:
        return [ip.ipv4_mapped]
    if ip.sixtofour is not None:
        return [ip.sixtofour]
    if ip.teredo is not None:
        return list(ip.teredo)  # (server, client); the client's bits are already un-inverted
    last32 = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip in _NAT64_WELL_KNOWN or ip in _IPV4_TRANSLATED:
        return [last32]
    if ip in _IPV4_COMPATIBLE and int(ip) > 1:
        return [last32]
    return []


def _ip_allowed(ip: ipaddress.IPv4Address | ipaddress.IPv6Address, policy: UrlPolicy) -> bool:
    if policy.allow_loopback and ip.is_loopback:
        return True
    return ip.is_global and not ip.is_multicast


def _address_allowed(address: str, policy: UrlPolicy) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv4Address):
        return _ip_allowed(ip, policy)
    if ip in _NAT64_LOCAL_USE:
        return False
    embedded = embedded_ipv4(ip)
    if ip.ipv4_mapped is not None:
        # The kernel sends these as IPv4: only the IPv4 address decides (ipaddress calls the
        # whole ::ffff:0:0/96 block reserved or private depending on the Python version).
        return _ip_allowed(embedded[0], policy)
    # Otherwise both must pass: the IPv6 address as routed, and every IPv4 it leads to.
    return _ip_allowed(ip, policy) and all(_ip_allowed(v4, policy) for v4 in embedded)


def control_character(url: str) -> str | None:
    """Why ``url`` cannot be taken as sent: it holds a control character (C0, DEL, C1, or a
    Unicode line or paragraph separator), named by code point; ``None`` when it holds none."""
    for char in url:
        if unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            return (f"the URL contains the control character U+{ord(char):04X}; "
                    "percent-encode it")
    return None


def ascii_host(host: str) -> str:
    """``host`` as DNS and HTTP take it: an internationalised name in its A-label form
    (UTS #46 mapping, then IDNA 2008), anything else unchanged.  Raises FetchError when an
    internationalised name has no valid ASCII form."""
    if host.isascii():
        # Already ASCII (and lower case, from urlsplit): a-labels, IP literals and names IDNA
        # 2008 itself would refuse but DNS serves (underscores) pass as they always did.
        return host
    try:
        return idna.encode(host, uts46=True, transitional=False).decode("ascii")
    except UnicodeError as exc:  # idna.IDNAError and its kinds
        raise FetchError("url_not_allowed", f"host {host!r} is not a valid internationalised "
                         f"domain name: {exc}") from None


def _not_public(host: str) -> str:
    """The one refusal for a name that does not resolve and for one that resolves to a private
    address: were they told apart, a tenant could ask which internal names exist."""
    return (f"host {host!r} is not a public address: it does not resolve, or resolves to a "
            "non-public address; only public addresses are fetched")


def check_url(url: str, policy: UrlPolicy) -> Target:
    """Parse, validate and resolve ``url``; raise FetchError(url_not_allowed) with the reason."""
    refused_char = control_character(url)
    if refused_char is not None:
        raise FetchError("url_not_allowed", refused_char)
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise FetchError("url_not_allowed", f"not a valid URL: {exc}") from exc
    allowed = ("https", "http") if policy.allow_http else ("https",)
    if parts.scheme not in allowed:
        raise FetchError("url_not_allowed", f"scheme {parts.scheme or '(none)'!r} is not allowed; "
                         f"use {' or '.join(allowed)}")
    if parts.username or parts.password:
        raise FetchError("url_not_allowed", "credentials in URLs are not accepted")
    if not parts.hostname:
        raise FetchError("url_not_allowed", "the URL has no host")
    host = ascii_host(parts.hostname)
    port = port or (443 if parts.scheme == "https" else 80)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:  # gaierror; a label over 63 characters
        log.info("URL refused: host %r does not resolve (%s)", host, exc)
        raise FetchError("url_not_allowed", _not_public(host)) from None
    addresses = tuple(dict.fromkeys(str(info[4][0]) for info in infos))
    refused = [a for a in addresses if not _address_allowed(a, policy)]
    if refused or not addresses:
        # The addresses go to the log only: the message reaches the tenant, who must not learn
        # what an internal name resolves to.
        log.info("URL refused: host %r resolves to non-public addresses %s", host,
                 ", ".join(refused) or "(none)")
        raise FetchError("url_not_allowed", _not_public(host))
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(parts.scheme, host, port, path, addresses)


def _filename(url: str, disposition: str | None) -> str | None:
    if disposition and "filename=" in disposition:
        name = disposition.split("filename=", 1)[1].split(";", 1)[0].strip().strip('"')
        if name:
            return name.rsplit("/", 1)[-1]
    last = unquote(urlsplit(url).path.rsplit("/", 1)[-1])
    return last or None


def _open(target: Target, policy: UrlPolicy) -> urllib3.BaseHTTPResponse:
    timeout = urllib3.Timeout(connect=policy.connect_timeout, read=policy.read_timeout)
    # An IPv6 literal goes in brackets in Host, as in the URL.
    name = f"[{target.host}]" if ":" in target.host else target.host
    host_header = name if target.port in (80, 443) else f"{name}:{target.port}"
    headers = {"Host": host_header, "User-Agent": "pagemill/1 (+document ingestion)",
               "Accept": "*/*"}
    last_error: Exception | None = None
    for address in target.addresses:
        if target.scheme == "https":
            pool: urllib3.HTTPConnectionPool = urllib3.HTTPSConnectionPool(
                address, target.port, timeout=timeout, retries=False, maxsize=1,
                server_hostname=target.host, assert_hostname=target.host,
                cert_reqs="CERT_REQUIRED", ca_certs=certifi.where())
        else:
            pool = urllib3.HTTPConnectionPool(address, target.port, timeout=timeout, retries=False,
                                              maxsize=1)
        try:
            return pool.urlopen("GET", target.path, headers=headers, redirect=False,
                                preload_content=False, retries=False)
        except urllib3.exceptions.HTTPError as exc:
            last_error = exc
    raise FetchError("fetch_failed", f"could not fetch from {target.host}: {last_error}")


def fetch(url: str, policy: UrlPolicy) -> Fetched:
    current = url
    for _ in range(policy.max_redirects + 1):
        target = check_url(current, policy)
        response = _open(target, policy)
        try:
            if response.status in (301, 302, 303, 307, 308):
                location = response.headers.get("Location")
                if not location:
                    raise FetchError("fetch_failed", f"HTTP {response.status} without a Location")
                current = urljoin(current, location)
                continue
            if response.status != 200:
                raise FetchError("fetch_failed", f"HTTP {response.status} from {target.host}")
            declared = response.headers.get("Content-Length")
            if declared and declared.isdigit() and int(declared) > policy.max_bytes:
                raise FetchError("too_large", f"the document is {declared} bytes; the limit is "
                                 f"{policy.max_bytes}")
            chunks, total = [], 0
            try:
                for chunk in response.stream(64 * 1024):
                    total += len(chunk)
                    if total > policy.max_bytes:
                        raise FetchError("too_large", f"the document exceeds {policy.max_bytes} bytes")
                    chunks.append(chunk)
            except urllib3.exceptions.HTTPError as exc:
                raise FetchError("fetch_failed", f"reading from {target.host} failed: {exc}") from exc
            return Fetched(b"".join(chunks), response.headers.get("Content-Type"),
                           _filename(current, response.headers.get("Content-Disposition")), current)
        finally:
            response.release_conn()
            response.close()
    raise FetchError("fetch_failed", f"more than {policy.max_redirects} redirects")
