"""The API under gunicorn, as ``pagemill serve`` runs it: threads (event streams hold one each
for as long as a client listens), pagemill's log handler for gunicorn's own records, and the
API's JSON error body for what gunicorn refuses before the application sees a request.

Gunicorn answers a request line over its limit (414), too many or too large headers (431), a
malformed request (400) or an unsupported transfer coding (501) itself, with an HTML page.
:class:`JsonErrorThreadWorker` lets gunicorn decide the status, reason and message as usual --
its mapping and its log lines stay gunicorn's -- and writes them as
``{"error": {"code", "message"}}`` instead (app/api/errors.py's body), so that no client of
the API ever has to parse HTML.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import subprocess
import sys
from http import HTTPStatus
from typing import Any

from gunicorn import util
from gunicorn.app.base import BaseApplication
from gunicorn.glogging import Logger
from gunicorn.http.errors import InvalidHTTPVersion
from gunicorn.workers.gthread import ThreadWorker

from app.api.errors import error_body, http_error_code, status_name
from app.config import Config

# Threads of each API process kept from event streams (PAGEMILL_MAX_EVENT_STREAMS is lowered
# to the threads less these when it is higher).
WEB_RESERVED_THREADS = 16
_STATUS_LINE = re.compile(rb"^HTTP/1\.[01] (\d{3}) ([^\r\n]*)\r\n")
_MESSAGE = re.compile(rb"</h1>\s*(.*?)\s*</body>", re.DOTALL)


class _Captured:
    """Stands in for the client socket while gunicorn writes its error page."""

    def __init__(self) -> None:
        self.data = b""

    def gettimeout(self) -> float:
        return 0.0  # util.write_nonblock then writes without touching blocking mode

    def sendall(self, data: bytes) -> None:
        self.data += data


def json_error_response(page: bytes, status_override: int | None = None) -> bytes | None:
    """Gunicorn's error response (status line, headers, HTML page) as the API's JSON one, its
    ``code`` named as the development server and Flask name it (``request_uri_too_long``)."""
    status = _STATUS_LINE.match(page)
    if status is None:
        return None
    code = status_override or int(status.group(1))
    reason = status.group(2).decode("latin-1") if status_override is None else HTTPStatus(code).phrase
    found = _MESSAGE.search(page)
    message = html.unescape(found.group(1).decode("latin-1")) if found else ""
    body = json.dumps(error_body(http_error_code(status_name(code)), message or reason)).encode()
    head = (f"HTTP/1.1 {code} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1")
    return head + body


class JsonErrorThreadWorker(ThreadWorker):
    """gunicorn's threaded worker, answering its own refusals in the API's JSON error body."""

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        captured = _Captured()
        super().handle_error(req, captured, addr, exc)
        # A well-formed version it does not speak (gunicorn gives it as a (major, minor) tuple)
        # is a 505 (RFC 9110 15.6.6), which gunicorn calls a 400; a malformed one stays a 400.
        version = getattr(exc, "version", None) if isinstance(exc, InvalidHTTPVersion) else None
        override = 505 if isinstance(version, tuple) else None
        response = json_error_response(captured.data, override)
        try:
            util.write_nonblock(client, response if response is not None else captured.data)
        except Exception:  # the client is gone: as gunicorn itself does, say so at debug level
            self.log.debug("Failed to send error message.")


class RootHandlerLogger(Logger):
    """gunicorn's logger, whose records go to the root logger's handler (app/infra/logs.py)."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for logger in (self.error_log, self.access_log):
            logger.handlers[:] = []
            logger.propagate = True


class ApiServer(BaseApplication):
    """The API application under gunicorn with the given settings (gunicorn's names)."""

    def __init__(self, app_factory: Any, settings: dict[str, Any]) -> None:
        self.app_factory = app_factory
        self.settings = settings
        super().__init__()

    def load_config(self) -> None:
        for name, value in self.settings.items():
            self.cfg.set(name, value)

    def load(self) -> Any:
        # In the worker process, after the fork: no connection made before it is shared.
        return self.app_factory()


def serve_api(app_factory: Any, host: str, port: int, threads: int, workers: int = 1,
              graceful_timeout: float = 30.0) -> None:
    """Serve until SIGTERM or SIGINT (gunicorn's arbiter exits the process with SystemExit,
    so the caller's ``finally`` runs)."""
    from app import gunicorn_conf

    ApiServer(app_factory, {
        # prometheus_client's multiprocess bookkeeping (app/gunicorn_conf.py).
        "on_starting": gunicorn_conf.on_starting,
        "child_exit": gunicorn_conf.child_exit,
        "post_worker_init": gunicorn_conf.post_worker_init,  # embedders loaded before a search
        "bind": f"{host}:{port}",
        "workers": workers,
        "threads": threads,
        "worker_class": f"{JsonErrorThreadWorker.__module__}.{JsonErrorThreadWorker.__name__}",
        "logger_class": f"{RootHandlerLogger.__module__}.{RootHandlerLogger.__name__}",
        "graceful_timeout": int(graceful_timeout),
        # Event streams stay open for minutes: a worker is not "stuck" because one is.
        "timeout": 0,
        "proc_name": "pagemill-api",
        # gunicorn 27's control socket is one path per user: two servers would fight over it.
        "control_socket_disable": True,
    }).run()


def spawn_api_server(host: str, port: int) -> subprocess.Popen[bytes]:
    """The API server as a child process (``python -m app.web_server``): gunicorn's arbiter
    reaps every child of its process and owns its signals, so it runs apart from the process
    that supervises the worker and holds the embedded database."""
    return subprocess.Popen([sys.executable, "-m", "app.web_server", "--host", host,
                             "--port", str(port)])


def stop_api_server(server: subprocess.Popen[bytes], graceful_timeout: float = 30.0) -> None:
    """SIGTERM (gunicorn's graceful stop: requests in flight finish), then SIGKILL."""
    if server.poll() is not None:
        return
    server.terminate()
    try:
        server.wait(graceful_timeout + 5)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def served_config(config: Config) -> Config:
    """The configuration each API process serves with: event streams capped below the threads
    (they never take the threads every other request needs), and, unless
    PAGEMILL_TORCH_THREADS says otherwise, one thread per embedder call.  A search embeds one
    short query in its request's thread while other requests' threads embed theirs: a model
    call's own pool of a thread per core then only fights the others (and the database) for
    the cores.  On 2 cores (bench/query_embedding.py, alternated): 4 calling threads embedded
    103-118 queries/s with 1 thread each against 99 with 2, one alone 77-90 against 73-80; a
    dense search through the API (bench/search_throughput.py) answered 1.22-1.30x the queries/s
    at 1, 4 and 16 clients."""
    streams = max(1, min(config.api.max_event_streams, config.api.threads - WEB_RESERVED_THREADS))
    served = config.with_overrides(api={"max_event_streams": streams})
    if config.embedding.torch_threads == 0:
        served = served.with_overrides(embedding={"torch_threads": 1})
    return served


def main(argv: list[str] | None = None) -> None:
    from app.api import create_app
    from app.infra import logs
    from app.mcp.http_endpoint import McpEndpoint

    parser = argparse.ArgumentParser(prog="python -m app.web_server", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    config = Config.from_env()
    logs.configure(config.logging.level.upper(), config.logging.format)
    served = served_config(config)
    # The API, with the MCP server at /mcp beside it (app/mcp/http_endpoint.py).
    serve_api(lambda: McpEndpoint(create_app(served)), args.host, args.port, threads=config.api.threads,
              workers=config.api.workers)


if __name__ == "__main__":
    main()
