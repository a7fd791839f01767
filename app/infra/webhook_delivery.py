"""One webhook attempt over HTTP: a POST under the URL documents' SSRF policy, bounded as a
whole by one deadline, and what came of it.

The receiver's URL is checked again at every attempt (app/infra/url_fetch.py's :func:`check_url`:
public addresses only, ``https`` unless ``PAGEMILL_URL_ALLOW_HTTP``), and the connection goes
to the address that was checked, so a DNS answer that changed since the endpoint was created
cannot point an attempt into the private network.  Redirects are never followed (a 3xx is a
failed attempt, retried, as the spec says).

**One deadline for the whole attempt.**  Connecting, the TLS handshake, sending, the status
line, the headers and the little of the body that is read share one time limit
(``PAGEMILL_WEBHOOK_TIMEOUT``), however the receiver drips its bytes.  Socket timeouts cannot
give that: they bound each read, and a receiver sending a byte every few seconds never trips
one.  urllib3's ``Timeout(total=...)`` is the same per-read limit after connecting, and httpx's
timeouts are per operation too (a whole-request limit there needs an async cancel scope).  So
an :class:`AttemptGuard` holds a duplicate of the attempt's socket and the
:class:`Watchdog` (one thread for every attempt of the process) shuts that socket down when the
deadline passes: ``shutdown(2)`` acts on the connection, not on the descriptor, so the read
blocked in another thread returns at once, whatever layer (TLS, http.client) it is in.  The
same guard aborts an attempt whose endpoint was deleted while it was in flight.
"""

from __future__ import annotations

import contextlib
import email.utils
import heapq
import http.client
import itertools
import re
import socket
import ssl
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache

import certifi

from app.infra.url_fetch import FetchError, UrlPolicy, check_url

USER_AGENT = "pagemill-webhooks/1"
# Of the receiver's answer only the status matters; a little is read so that the connection
# can close cleanly, never the whole of a huge body.
_READ_BYTES = 4096
_DELTA_SECONDS = re.compile(r"[0-9]{1,10}")
# What an attempt's error says when it was cut short (also how a test recognises it).
DEADLINE_ERROR = "no complete answer within the attempt's deadline"
ABORTED_ERROR = "the attempt was stopped: its endpoint was deleted or disabled"


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
    """A Retry-After header (delta-seconds, or an HTTP date) as seconds from now; ``None`` for
    anything else (a receiver's malformed header is ignored, never an error)."""
    if not value:
        return None
    value = value.strip()
    # ASCII digits only: str.isdigit() also accepts "²" or "٣", which float() refuses.
    if _DELTA_SECONDS.fullmatch(value):
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    current = datetime.now(UTC).timestamp() if now is None else now
    return max(0.0, when.timestamp() - current)


class AttemptGuard:
    """The watched side of one attempt: its deadline, and the duplicate of its socket that the
    watchdog (or :meth:`abort`) shuts down.  Thread-safe; every method may be called at any
    point of the attempt, before it connected or after it ended."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._socket: socket.socket | None = None
        self._finished = False
        self.expired = False
        self.aborted = False

    def attach(self, sock: socket.socket) -> None:
        """Watch ``sock`` (a connected socket): shut down at once if the attempt was already
        cut short."""
        with self._lock:
            self._socket = sock.dup()
            if self.expired or self.aborted:
                self._shut()

    def expire(self) -> None:
        """The deadline passed (the watchdog calls this)."""
        with self._lock:
            if not self._finished:
                self.expired = True
                self._shut()

    def abort(self) -> None:
        """Stop the attempt now (its endpoint is gone)."""
        with self._lock:
            if not self._finished:
                self.aborted = True
                self._shut()

    @property
    def stopped(self) -> bool:
        return self.expired or self.aborted

    def finish(self) -> None:
        with self._lock:
            self._finished = True
            if self._socket is not None:
                self._socket.close()
                self._socket = None

    def _shut(self) -> None:
        if self._socket is not None:
            with contextlib.suppress(OSError):  # the peer may have closed it already
                self._socket.shutdown(socket.SHUT_RDWR)


class Watchdog:
    """One daemon thread that expires guards at their deadlines (a heap ordered by deadline;
    started on first use, never at import)."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, AttemptGuard]] = []
        self._order = itertools.count()
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def watch(self, guard: AttemptGuard, deadline: float) -> None:
        """Expire ``guard`` at ``deadline`` (``time.monotonic()`` seconds)."""
        with self._changed:
            heapq.heappush(self._heap, (deadline, next(self._order), guard))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="pagemill-webhook-deadlines",
                                                daemon=True)
                self._thread.start()
            self._changed.notify()

    def _run(self) -> None:
        with self._changed:
            while True:
                now = time.monotonic()
                while self._heap and self._heap[0][0] <= now:
                    heapq.heappop(self._heap)[2].expire()
                self._changed.wait(self._heap[0][0] - now if self._heap else None)


_WATCHDOG = Watchdog()


@cache
def _tls_context() -> ssl.SSLContext:
    # Built once: loading the CA bundle costs milliseconds, at hundreds of attempts a second.
    return ssl.create_default_context(cafile=certifi.where())


def post(url: str, body: bytes, headers: Mapping[str, str], policy: UrlPolicy,
         timeout: float, guard: AttemptGuard | None = None) -> AttemptOutcome:
    """POST ``body`` to ``url`` within ``timeout`` seconds in all; never raises for what the
    network or the receiver does.  ``guard`` lets the caller abort the attempt."""
    started = time.monotonic()
    deadline = started + timeout
    guard = guard or AttemptGuard()
    _WATCHDOG.watch(guard, deadline)

    def elapsed() -> int:
        return int((time.monotonic() - started) * 1000)

    try:
        try:
            target = check_url(url, policy)
        except FetchError as exc:
            return AttemptOutcome(None, exc.message, elapsed())
        # An IPv6 literal is bracketed in Host, as in the URL.
        host = f"[{target.host}]" if ":" in target.host else target.host
        host_header = host if target.port in (80, 443) else f"{host}:{target.port}"
        sent = {"Host": host_header, "User-Agent": USER_AGENT, "Content-Type": "application/json",
                "Connection": "close", **headers}
        error = "no address to connect to"
        # The first address that connects decides; later ones are tried only if none did.
        for address in target.addresses:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or guard.stopped:
                break
            try:
                raw = socket.create_connection((address, target.port), timeout=remaining)
            except TimeoutError:
                # The connect was given all that was left: its timeout is the deadline's.
                error = DEADLINE_ERROR
                break
            except OSError as exc:
                error = f"{type(exc).__name__}: {exc}"[:500]
                continue
            return _exchange(raw, target.scheme, target.host, target.path, body, sent, guard,
                             deadline, elapsed)
        return AttemptOutcome(None, _stopped_error(guard) or error, elapsed())
    finally:
        guard.finish()


def _exchange(raw: socket.socket, scheme: str, host: str, path: str, body: bytes,
              headers: Mapping[str, str], guard: AttemptGuard, deadline: float,
              elapsed: Callable[[], int]) -> AttemptOutcome:
    """The request and the answer's head on a connected socket, under the guard."""
    guard.attach(raw)
    conn = http.client.HTTPConnection(host, timeout=None)
    sock: socket.socket = raw
    try:
        if scheme == "https":
            sock = _tls_context().wrap_socket(raw, server_hostname=host)
        # Each read is bounded by what is left; the watchdog bounds their sum.
        sock.settimeout(max(0.001, deadline - time.monotonic()))
        conn.sock = sock
        conn.request("POST", path, body=body, headers=dict(headers))
        response = conn.getresponse()
        status = response.status
        retry_after = None if 200 <= status < 300 else retry_after_seconds(response.getheader("Retry-After"))
        with contextlib.suppress(OSError, http.client.HTTPException):
            response.read(_READ_BYTES)  # the status is what counts
        return AttemptOutcome(status, None if 200 <= status < 300 else f"HTTP {status}",
                              elapsed(), retry_after)
    except (OSError, http.client.HTTPException, ValueError) as exc:
        # ssl.SSLError and socket timeouts are OSErrors; a cut-short read surfaces as any of them.
        message = _stopped_error(guard)
        if message is None and isinstance(exc, TimeoutError):
            # Each read was given all that was left, so its timeout is the deadline itself; it
            # can fire a moment before the watchdog marks the guard expired.
            message = DEADLINE_ERROR
        message = message or f"{type(exc).__name__}: {exc}"[:500]
        return AttemptOutcome(None, message, elapsed())
    finally:
        conn.close()
        sock.close()


def _stopped_error(guard: AttemptGuard) -> str | None:
    if guard.aborted:
        return ABORTED_ERROR
    if guard.expired:
        return DEADLINE_ERROR
    return None
