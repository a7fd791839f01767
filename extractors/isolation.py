"""Extraction in a child process that can be killed.

Native parsers (PDFium, Tesseract, ONNX Runtime, libxml) can crash, hang or balloon on
hostile input.  The worker never runs them itself: it hands the bytes to a long-lived child
(``python -m extractors.isolation``) over a pipe and waits with a hard deadline.  A child
that dies or overruns is killed and replaced, and only the document that caused it fails
(``extractor_crashed``, ``timeout``, ``too_large`` for memory).  The child is started lazily,
reused across documents so engines load once, and exits when its parent's pipe closes.

Frames on the pipe are 8-byte big-endian lengths followed by a pickle.  Both ends are this
module, in processes of the same installation.
"""

from __future__ import annotations

import os
import pickle
import resource
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from extractors.base import ExtractionError, ExtractionResult, ExtractOptions

_HEADER = struct.Struct(">Q")


def _write(stream: IO[bytes], obj: Any) -> None:
    payload = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(payload)) + payload)
    stream.flush()


# How often a waiting parent asks whether the document is still wanted (cancel, delete).
STOP_POLL_SECONDS = 1.0


class Stopped(Exception):
    """The caller's ``should_stop`` said yes while the child was working."""


def _read_exact(fd: int, size: int, deadline: float | None,
                should_stop: Callable[[], bool] | None = None) -> bytes:
    chunks: list[bytes] = []
    remaining = size
    while remaining:
        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        if should_stop is not None:
            timeout = STOP_POLL_SECONDS if timeout is None else min(timeout, STOP_POLL_SECONDS)
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            if deadline is not None and time.monotonic() >= deadline:
                raise TimeoutError
            if should_stop is not None and should_stop():
                raise Stopped
            continue
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


class InProcessExtractor:
    """The same interface without a child process (``PAGEMILL_EXTRACT_ISOLATION=0``)."""

    def extract(self, data: bytes, filename: str | None = None, declared: str | None = None,
                options: ExtractOptions | None = None, timeout: float | None = None,
                should_stop: Callable[[], bool] | None = None) -> ExtractionResult:
        # Nothing to interrupt in-process: ``should_stop`` is the caller's to check around it.
        from extractors.router import extract

        return extract(data, filename=filename, declared=declared, options=options)

    def close(self) -> None:
        pass


class IsolatedExtractor:
    """Runs :func:`extractors.extract` in a supervised child process."""

    def __init__(self, memory_limit_bytes: int | None = None, max_documents: int = 500) -> None:
        self.memory_limit_bytes = memory_limit_bytes
        # Native libraries keep caches and leak a little per document: a child is replaced
        # after this many documents (as Celery's worker_max_tasks_per_child does for workers).
        self.max_documents = max_documents
        self._served = 0
        self._child: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()

    @property
    def pid(self) -> int | None:
        return self._child.pid if self._child is not None else None

    def _start(self) -> subprocess.Popen[bytes]:
        env = dict(os.environ)
        env["OMP_THREAD_LIMIT"] = "1"  # Tesseract: 3x faster per page on 2 cores than default
        env.setdefault("HF_HUB_OFFLINE", "1")
        # The limit is an argument, not the setting's variable: the parser reads no configuration.
        command = [sys.executable, "-m", "extractors.isolation", str(self.memory_limit_bytes or 0)]
        return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                                close_fds=True)

    def _kill(self) -> str:
        child, self._child = self._child, None
        if child is None:
            return "not running"
        if child.poll() is None:
            child.kill()
        code = child.wait()
        for stream in (child.stdin, child.stdout):
            if stream is not None:
                stream.close()
        return f"signal {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"

    def extract(self, data: bytes, filename: str | None = None, declared: str | None = None,
                options: ExtractOptions | None = None, timeout: float | None = None,
                should_stop: Callable[[], bool] | None = None) -> ExtractionResult:
        """The child's result; while waiting, ``should_stop`` is asked every second, and a
        yes kills the child (the document is no longer wanted) and raises ``cancelled``."""
        with self._lock:
            if self._child is not None and self._served >= self.max_documents:
                self._retire()
            if self._child is None or self._child.poll() is not None:
                self._kill()
                self._child = self._start()
                self._served = 0
            self._served += 1
            child = self._child
            assert child.stdin is not None and child.stdout is not None
            deadline = None if timeout is None else time.monotonic() + timeout
            try:
                _write(child.stdin, (data, filename, declared, options))
                size, = _HEADER.unpack(_read_exact(child.stdout.fileno(), _HEADER.size, deadline,
                                                   should_stop))
                reply = pickle.loads(_read_exact(child.stdout.fileno(), size, deadline))
            except Stopped:
                self._kill()
                raise ExtractionError("cancelled", "the document was cancelled or deleted while "
                                      "it was being parsed; the parser process was stopped") from None
            except TimeoutError:
                self._kill()
                raise ExtractionError("timeout", f"extraction exceeded the hard time limit of "
                                      f"{timeout:.0f} s; the parser process was killed") from None
            except (EOFError, BrokenPipeError, OSError):
                how = self._kill()
                if how == "signal SIGKILL" and self.memory_limit_bytes:
                    detail = " (killed: out of memory?)"
                else:
                    detail = ""
                raise ExtractionError("extractor_crashed", f"the parser process died ({how}){detail} "
                                      "while reading this document") from None
            except BaseException:
                # Anything else that interrupts the wait (an error raised by should_stop, a
                # Celery soft time limit, KeyboardInterrupt) leaves the child working on this
                # document: its late reply would be read as the next document's result.
                self._kill()
                raise
        if isinstance(reply, ExtractionError):
            raise reply
        if isinstance(reply, BaseException):
            raise ExtractionError("internal_error", f"{type(reply).__name__}: {reply}")
        return reply

    def _retire(self) -> None:
        """Let the current child exit on end of input (no document is in flight)."""
        child, self._child = self._child, None
        if child is None:
            return
        if child.stdin is not None:
            child.stdin.close()
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        if child.stdout is not None:
            child.stdout.close()

    def close(self) -> None:
        with self._lock:
            self._retire()


def _serve(limit: int) -> None:
    """Parse the requests on stdin until it closes, within ``limit`` bytes of address space
    (0: none)."""
    if limit:
        # Address space, not RSS: a runaway allocation fails with MemoryError (reported as
        # too_large) long before the machine's OOM killer picks a victim.
        resource.setrlimit(resource.RLIMIT_AS, (int(limit), int(limit)))
    # Libraries that print to stdout must not corrupt the protocol: keep the real pipe on a
    # private descriptor and point fd 1 at stderr.
    protocol_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    protocol_in = os.fdopen(os.dup(0), "rb")
    from extractors.router import extract

    while True:
        header = protocol_in.read(_HEADER.size)
        if len(header) < _HEADER.size:
            return  # parent gone or closed the pipe
        size, = _HEADER.unpack(header)
        data, filename, declared, options = pickle.loads(protocol_in.read(size))
        try:
            reply: Any = extract(data, filename=filename, declared=declared, options=options)
        except ExtractionError as exc:
            reply = exc
        except MemoryError:
            reply = ExtractionError("too_large", "parsing this document exceeded the memory limit")
        except Exception as exc:  # an engine bug: report it, keep serving
            reply = ExtractionError("internal_error", f"{type(exc).__name__}: {exc}")
        _write(protocol_out, reply)


if __name__ == "__main__":
    _serve(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
