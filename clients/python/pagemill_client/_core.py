"""What the sync and async clients share, free of I/O: the requests each operation makes
(:class:`Call`), when and how long to wait before trying one again (:class:`RetryPolicy`), the
API's error body as an exception, and the Server-Sent Events reader."""

from __future__ import annotations

import email.utils
import json
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx

from pagemill_client.models import Job, JobEvent, load

DEFAULT_BASE_URL = "http://127.0.0.1:8000"
# Answers that say "nothing was done, try later": a 429 stored and queued nothing (the API's
# rate limit decides before any view runs), so it is retried whatever the request; a 503 only
# when repeating the request is harmless (see Call.idempotent).
RETRY_ANY = frozenset({429})
RETRY_IDEMPOTENT = frozenset({503})


class PagemillError(Exception):
    """Base of the client's errors."""


class ApiError(PagemillError):
    """The API refused the request: its ``{"error": {"code", "message", "details"}}`` body."""

    def __init__(self, status: int, code: str, message: str, details: Any = None,
                 request_id: str | None = None, retry_after: float | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message, self.details = status, code, message, details
        self.request_id, self.retry_after = request_id, retry_after

    @classmethod
    def from_response(cls, response: httpx.Response) -> ApiError:
        try:
            body = response.json()["error"]
            code, message, details = str(body["code"]), str(body["message"]), body.get("details")
        except (ValueError, KeyError, TypeError):
            code, message, details = f"http_{response.status_code}", response.text[:500], None
        return cls(response.status_code, code, message, details, response.headers.get("X-Request-ID"),
                   retry_after_seconds(response))


class JobFailed(PagemillError):
    """``wait(..., raise_on_failure=True)``: the job ended ``failed`` or ``cancelled``."""

    def __init__(self, job: Job) -> None:
        super().__init__(f"job {job.id} ended {job.status}")
        self.job = job


class WaitTimeout(PagemillError):
    def __init__(self, job_id: str, seconds: float) -> None:
        super().__init__(f"job {job_id} not finished after {seconds:g} s")
        self.job_id = job_id


def retry_after_seconds(response: httpx.Response) -> float | None:
    """``Retry-After`` as seconds: delta-seconds or an HTTP date (RFC 9110 10.2.3)."""
    value = response.headers.get("Retry-After")
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


@dataclass(frozen=True)
class RetryPolicy:
    """How many times to repeat a request and how long to wait in between.

    A 429 is always repeated (nothing was stored); a 503, a connection dropped after the
    request went out, or a read timeout only for idempotent calls (GET, DELETE, search,
    cancel, and submissions, which carry an ``Idempotency-Key``); a connection never made is
    repeated for any call.  The wait is ``Retry-After`` when the answer gives one, else
    exponential backoff with full jitter; a ``Retry-After`` beyond ``max_retry_after`` is not
    waited for (the error is raised, with its ``retry_after``)."""

    max_retries: int = 5
    backoff: float = 0.5
    max_backoff: float = 30.0
    max_retry_after: float = 120.0

    def delay(self, attempt: int, retry_after: float | None) -> float | None:
        """Seconds to wait before attempt ``attempt + 1`` (0-based), or None: give up."""
        if attempt >= self.max_retries:
            return None
        if retry_after is not None:
            return retry_after if retry_after <= self.max_retry_after else None
        return random.uniform(0, min(self.max_backoff, self.backoff * 2 ** attempt))


NO_RETRIES = RetryPolicy(max_retries=0)


@dataclass
class Call:
    """One API operation's request and how to read its answer."""

    method: str
    path: str
    parse: Callable[[httpx.Response], Any]
    params: dict[str, Any] | None = None
    json: Any = None
    # Multipart uploads: made again for every attempt (files are reopened, never half-read).
    files: Callable[[], list[tuple[str, tuple[str, IO[bytes], str]]]] | None = None
    data: dict[str, str] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    idempotent: bool = True
    ok: frozenset[int] = frozenset({200, 201, 202, 204})

    def request_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"headers": self.headers}
        if self.params:
            kwargs["params"] = {k: v for k, v in self.params.items() if v is not None}
        if self.json is not None:
            kwargs["json"] = self.json
        if self.data is not None:
            kwargs["data"] = self.data
        return kwargs

    def retriable_status(self, status: int) -> bool:
        return status in RETRY_ANY or (self.idempotent and status in RETRY_IDEMPOTENT)

    def retriable_error(self, exc: Exception) -> bool:
        if isinstance(exc, (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)):
            return True  # the request never reached the server
        return self.idempotent and isinstance(exc, (httpx.ReadTimeout, httpx.ReadError,
                                                    httpx.WriteError, httpx.RemoteProtocolError))


def model(cls: type) -> Callable[[httpx.Response], Any]:
    return lambda response: load(cls, response.json())


def no_body(response: httpx.Response) -> None:
    return None


def files_of(paths: Iterable[str | Path]) -> list[tuple[Path, str]]:
    """Each file to upload with its document id: a file as given; a folder's files, recursively
    and in name order, each as the folder's name joined with its path inside (``docs/a/b.pdf``),
    hidden files and folders left out."""
    found: list[tuple[Path, str]] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            for inner in sorted(p for p in path.rglob("*") if p.is_file()):
                relative = inner.relative_to(path)
                if any(part.startswith(".") for part in relative.parts):
                    continue
                found.append((inner, (Path(path.name) / relative).as_posix()))
        elif path.is_file():
            found.append((path, path.name))
        else:
            raise FileNotFoundError(str(path))
    ids = [name for _, name in found]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise ValueError(f"two files would have the same document id: {repeated[:5]}")
    if not found:
        raise ValueError("no files to upload")
    return found


class SseParser:
    """Server-Sent Events (the WHATWG algorithm, as far as pagemill's streams need it): feed
    it lines, get ``(event, data, id)`` for each dispatched event; comments (keep-alives) are
    dropped."""

    def __init__(self) -> None:
        self.event = ""
        self.data: list[str] = []
        self.last_id: str | None = None
        self.retry_ms: int | None = None

    def feed(self, line: str) -> tuple[str, str, str | None] | None:
        if line == "":
            if not self.data:
                self.event = ""
                return None
            out = (self.event or "message", "\n".join(self.data), self.last_id)
            self.event, self.data = "", []
            return out
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "event":
            self.event = value
        elif name == "data":
            self.data.append(value)
        elif name == "id" and "\0" not in value:
            self.last_id = value
        elif name == "retry" and value.isdigit():
            self.retry_ms = int(value)
        return None


@dataclass
class StreamState:
    """A job's event stream across reconnections: what was last seen, so that a reconnection
    asks from there (``Last-Event-ID``, when the server gives ids) and the state the new
    connection starts with is not reported twice."""

    job_id: str
    last_id: str | None = None
    last_data: dict[str, Any] | None = None
    last_job: Job | None = None
    ended: bool = False

    def headers(self) -> dict[str, str]:
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
        if self.last_id is not None:
            headers["Last-Event-ID"] = self.last_id
        return headers

    def events(self, lines: Iterator[str], parser: SseParser) -> Iterator[JobEvent]:
        for line in lines:
            dispatched = parser.feed(line)
            if dispatched is None:
                continue
            yield from self.dispatch(*dispatched)
            if self.ended:
                return

    def dispatch(self, event: str, raw: str, event_id: str | None) -> Iterator[JobEvent]:
        if event_id is not None:
            self.last_id = event_id
        data = json.loads(raw) if raw else {}
        if event == "progress":
            if data == self.last_data:  # the state a new connection starts with, seen already
                return
            self.last_data, self.last_job = data, load(Job, data)
            yield JobEvent(event=event, data=data, job=self.last_job)
        elif event == "end":
            self.ended = True
            yield JobEvent(event=event, data=data, job=self.last_job)
        elif event == "error":
            self.ended = True
            code = str(data.get("code", "stream_error"))
            raise ApiError(404 if code == "not_found" else 401 if code == "unauthorized" else 500,
                           code, f"the job's event stream ended: {code}", data)
        else:
            yield JobEvent(event=event, data=data, job=None)
