"""Watches that tell whether a program opened a path or asked a URL, for tests of confinement.

:class:`WatchedFifo` is a named pipe standing where a hostile upload points.  Access times are
no evidence (``relatime`` and ``noatime`` mounts skip them) and inotify is not everywhere, but
a FIFO is: a process that opens it for reading counts as its reader from the moment it calls
``open`` -- and, there being no writer, stays blocked inside that call.  The watch polls with a
non-blocking open for writing, which fails (``ENXIO``) exactly while nobody has the FIFO open
for reading; the first success is the proof, and the writer is closed at once so that the
reader gets an empty file and goes on.  A reader cannot slip by between two polls: it is stuck
in ``open`` until the watch sees it.

:class:`RequestLog` is an HTTP server on 127.0.0.1 that answers 404 and records every request.
"""

from __future__ import annotations

import errno
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType


class WatchedFifo:
    """A FIFO at ``path``; ``opened`` becomes true once any process has opened it to read."""

    def __init__(self, path: Path, poll_seconds: float = 0.005) -> None:
        self.path = path
        self.opened = False
        self._poll = poll_seconds
        self._stop = threading.Event()
        os.mkfifo(path)
        self._thread = threading.Thread(target=self._watch, name=f"watch {path.name}", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._stop.is_set():
            try:
                writer = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as exc:
                if exc.errno != errno.ENXIO:  # ENXIO: no reader yet
                    raise
                self._stop.wait(self._poll)
                continue
            self.opened = True
            os.close(writer)  # the reader sees end of file and is not left hanging

    def stop(self) -> bool:
        """Stop watching; whether the FIFO was ever opened for reading."""
        self._stop.set()
        self._thread.join(timeout=5)
        return self.opened

    def __enter__(self) -> WatchedFifo:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()


class RequestLog:
    """An HTTP server on 127.0.0.1 that records each request's path and answers 404."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        log = self.paths

        class Handler(BaseHTTPRequestHandler):
            def _record(self) -> None:
                log.append(self.path)
                self.send_error(404)

            do_GET = do_HEAD = do_POST = _record  # noqa: N815 (http.server's method names)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                return None

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
