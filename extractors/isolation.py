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
from typing import IO, Any

from extractors.base import ExtractionError, ExtractionResult, ExtractOptions

_HEADER = struct.Struct(">Q")


def _write(stream: IO[bytes], obj: Any) -> None:
    payload = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(payload)) + payload)
    stream.flush()


def _read_exact(fd: int, size: int, deadline: float | None) -> bytes:
    chunks: list[bytes] = []
    remaining = size
    while remaining:
        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            raise TimeoutError
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


class InProcessExtractor:
    """The same interface without a child process (``PAGEMILL_EXTRACT_ISOLATION=0``)."""

    def extract(self, data: bytes, filename: str | None = None, declared: str | None = None,
                options: ExtractOptions | None = None, timeout: float | None = None) -> ExtractionResult:
        from extractors.router import extract

        return extract(data, filename=filename, declared=declared, options=options)

    def close(self) -> None:
        with self._lock:
            self._retire()


def _serve() -> None:
    limit = os.environ.get("PAGEMILL_EXTRACT_MEMORY_LIMIT")
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
    _serve()
