"""One webhook attempt over HTTP: a POST under the URL documents' SSRF policy, and what came of it.

The receiver's URL is checked again at every attempt (app/url_fetch.py's :func:`check_url`:
public addresses only, ``https`` unless ``PAGEMILL_URL_ALLOW_HTTP``), and the connection goes
to the address that was checked, so a DNS answer that changed since the endpoint was created
cannot point an attempt into the private network.  Redirects are never followed (a 3xx is a
failed attempt, retried, as the spec says); one time limit covers connecting and answering.
"""

from __future__ import annotations

import email.utils
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

import certifi
import urllib3

from app.url_fetch import FetchError, UrlPolicy, check_url

USER_AGENT = "pagemill-webhooks/1"
# Of the receiver's answer only the status matters; a little is read so that the connection
# can close cleanly, never the whole of a huge body.
_READ_BYTES = 4096


@dataclass(frozen=True)
class AttemptOutcome:
    """What one attempt got: an HTTP status, or an error before there was one."""

    status_code: int | None
    error: str | None
    duration_ms: int
    # Seconds the receiver asked to wait (its Retry-After), if it said.
    retry_after: float | None = None

    @property
    def delivered(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300

    @property
    def gone(self) -> bool:
        """410 Gone: the receiver wants no more deliveries (its endpoint is disabled)."""
        return self.status_code == 410

    @property
    def retryable(self) -> bool:
        """Timeouts, connection errors, 3xx, 429 and 5xx are tried again; other 4xx are final."""
        code = self.status_code
        return code is None or 300 <= code < 400 or code == 429 or code >= 500


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """A Retry-After header (seconds, or an HTTP date) as seconds from now."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    current = datetime.now(UTC).timestamp() if now is None else now
    return max(0.0, when.timestamp() - current)


def _pool(scheme: str, host: str, address: str, port: int, timeout: float) -> urllib3.HTTPConnectionPool:
    limit = urllib3.Timeout(total=timeout)
    if scheme == "https":
        return urllib3.HTTPSConnectionPool(
            address, port, timeout=limit, retries=False, maxsize=1, server_hostname=host,
            assert_hostname=host, cert_reqs="CERT_REQUIRED", ca_certs=certifi.where())
    return urllib3.HTTPConnectionPool(address, port, timeout=limit, retries=False, maxsize=1)


def post(url: str, body: bytes, headers: Mapping[str, str], policy: UrlPolicy,
         timeout: float) -> AttemptOutcome:
    """POST ``body`` to ``url``; never raises for what the network or the receiver does."""
    started = time.monotonic()

    def elapsed() -> int:
        return int((time.monotonic() - started) * 1000)

    try:
        target = check_url(url, policy)
    except FetchError as exc:
        return AttemptOutcome(None, exc.message, elapsed())
    host_header = target.host if target.port in (80, 443) else f"{target.host}:{target.port}"
    sent = {"Host": host_header, "User-Agent": USER_AGENT, "Content-Type": "application/json",
            **headers}
    error = "no address to connect to"
    # The first address that answers decides; later ones are tried only if none connected.
    for address in target.addresses:
        with _pool(target.scheme, target.host, address, target.port, timeout) as pool:
            try:
                response = pool.urlopen("POST", target.path, body=body, headers=sent,
                                        redirect=False, retries=False, preload_content=False)
            except urllib3.exceptions.HTTPError as exc:
                error = f"{type(exc).__name__}: {exc}"[:500]
                continue
            try:
                response.read(_READ_BYTES)
            except urllib3.exceptions.HTTPError:
                pass  # the status is what counts
            finally:
                response.close()
        status = response.status
        return AttemptOutcome(status, None if 200 <= status < 300 else f"HTTP {status}", elapsed(),
                              retry_after_seconds(response.headers.get("Retry-After")))
    return AttemptOutcome(None, error, elapsed())
