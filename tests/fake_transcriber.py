"""A local HTTP server speaking the OpenAI-compatible transcription wire format, for tests.

``POST {base}/audio/transcriptions`` takes the multipart upload the ``openai`` SDK sends
(``file``, ``model``, ``response_format``, ``timestamp_granularities[]``) and answers
``verbose_json`` with ``segments``, as Groq and OpenAI do.  What it "hears" is what the audio
holds: ffmpeg's silencedetect on the uploaded piece gives the sounding stretches, each one a
segment (times relative to the piece, like a real provider), unless a test sets a fixed
``transcript``.  ``script`` makes it misbehave the ways a real provider does: each entry answers
one request, in order (``429`` with Retry-After, ``500``, ``400`` with a message, ``"drop"`` to
close the connection unanswered, ``"slow"`` to answer after SLOW_SECONDS); with the script used
up it answers normally.

Two instances (two base URLs) stand in for Groq and OpenAI.  Run on its own
(``python -m tests.fake_transcriber``) it serves until interrupted, for the README example.
"""

from __future__ import annotations

import email.parser
import email.policy
import json
import re
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_SILENCE = re.compile(r"silence_(start|end): (-?[0-9.]+)")
SLOW_SECONDS = 3.0


@dataclass
class Answer:
    """One scripted answer: a status, its headers, its error message."""

    status: int
    retry_after: float | None = None
    message: str = "scripted failure"


@dataclass
class Call:
    """What one request carried (for assertions)."""

    model: str
    response_format: str
    granularities: list[str]
    authorization: str
    filename: str
    size: int
    duration: float
    status: int = 200


def _duration(path: str) -> float:
    done = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of",
                           "default=nw=1:nk=1", path], capture_output=True, text=True, check=False)
    try:
        return float(done.stdout.strip())
    except ValueError:
        return 0.0


def sounding(path: str, duration: float) -> list[tuple[float, float]]:
    """The stretches of ``path`` that are not silent (what a speech model would transcribe)."""
    done = subprocess.run(["ffmpeg", "-nostdin", "-hide_banner", "-nostats", "-i", path, "-af",
                           "silencedetect=noise=-35dB:d=0.3", "-f", "null", "-"],
                          capture_output=True, text=True, check=False)
    quiet: list[tuple[float, float]] = []
    start: float | None = None
    for kind, value in _SILENCE.findall(done.stderr):
        if kind == "start":
            start = max(0.0, float(value))
        elif start is not None:
            quiet.append((start, float(value)))
            start = None
    if start is not None:
        quiet.append((start, duration))
    loud, at = [], 0.0
    for begin, end in quiet:
        if begin - at > 0.05:
            loud.append((at, begin))
        at = end
    if duration - at > 0.05:
        loud.append((at, duration))
    return loud


@dataclass
class FakeTranscriber:
    name: str = "fake"
    # A fixed transcript instead of one segment per sounding stretch: a text (one segment over
    # the whole piece), or (start, end, text) segments in the piece's own seconds.
    transcript: str | list[tuple[float, float, str]] | None = None
    script: list[Answer | str] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/openai/v1"

    def start(self) -> FakeTranscriber:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def segments(self, path: str, duration: float) -> list[dict[str, Any]]:
        if isinstance(self.transcript, list):
            stretches = [(a, min(b, duration)) for a, b, _ in self.transcript if a < duration]
            texts = [t for a, _, t in self.transcript if a < duration]
        elif self.transcript is not None:
            stretches = [(0.0, duration)]
            texts = [self.transcript]
        else:
            stretches = sounding(path, duration)
            texts = [f"{self.name} heard sound {i + 1}" for i in range(len(stretches))]
        pairs = enumerate(zip(stretches, texts, strict=True))
        return [{"id": i, "seek": 0, "start": round(a, 3), "end": round(b, 3), "text": " " + text,
                 "tokens": [], "temperature": 0.0, "avg_logprob": -0.2, "compression_ratio": 1.0,
                 "no_speech_prob": 0.01} for i, ((a, b), text) in pairs]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _json(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
                payload = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(payload)

            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if not self.path.endswith("/audio/transcriptions"):
                    return self._json(404, {"error": {"message": f"no route {self.path}"}})
                header = f"Content-Type: {self.headers['Content-Type']}\r\n\r\n".encode()
                message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(header + body)
                fields: dict[str, list[tuple[str | None, bytes]]] = {}
                for part in message.iter_parts():
                    name = part.get_param("name", header="content-disposition")
                    value = (part.get_filename(), part.get_payload(decode=True))
                    fields.setdefault(str(name), []).append(value)
                filename, audio = fields["file"][0]
                with tempfile.NamedTemporaryFile(suffix="-" + (filename or "upload")) as upload:
                    upload.write(audio)
                    upload.flush()
                    duration = _duration(upload.name)
                    segments = fake.segments(upload.name, duration)

                def text(key: str) -> str:
                    return fields[key][0][1].decode() if key in fields else ""

                granularities = [v.decode() for _, v in fields.get("timestamp_granularities[]", [])]
                call = Call(text("model"), text("response_format"), granularities,
                            self.headers.get("Authorization", ""), filename or "", len(audio), duration)
                with fake.lock:
                    fake.calls.append(call)
                    answer = fake.script.pop(0) if fake.script else None
                if answer == "slow":
                    time.sleep(SLOW_SECONDS)
                if answer == "drop":
                    call.status = 0
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return None
                if isinstance(answer, Answer):
                    call.status = answer.status
                    headers = ({"Retry-After": f"{answer.retry_after:g}"}
                               if answer.retry_after is not None else {})
                    return self._json(answer.status, {"error": {"message": answer.message,
                                                                "type": "fake_error"}}, headers)
                return self._json(200, {"task": "transcribe", "language": "english",
                                        "duration": round(duration, 3),
                                        "text": " ".join(s["text"].strip() for s in segments),
                                        "segments": segments})

        return Handler


if __name__ == "__main__":
    server = FakeTranscriber().start()
    print(f"fake transcription server at {server.base_url} (any API key)", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()
