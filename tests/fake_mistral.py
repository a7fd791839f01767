"""A local HTTP server speaking Mistral's files / batch / OCR wire format, for tests.

It implements what the ``mistralai`` SDK calls: ``POST /v1/files`` (multipart upload),
``GET /v1/files/{id}/content``, ``POST /v1/batch/jobs``, ``GET /v1/batch/jobs`` (metadata
filter), ``GET /v1/batch/jobs/{id}`` and ``POST /v1/ocr``.  "OCR" here reads the PDF text layer
with pypdfium2 (or answers a fixed sentence for images), so results are checkable.  Knobs
make it misbehave the ways a real provider does: status sequences, failed lines, a dropped
connection after a job was created, and terminal failure states.
"""

from __future__ import annotations

import base64
import email.parser
import email.policy
import json
import re
import socket
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

import pypdfium2 as pdfium

IMAGE_TEXT = "Text read from an image by the fake provider."


def _ocr(body: dict[str, Any], annotation: Any) -> dict[str, Any]:
    document = body["document"]
    url = document.get("document_url") or document.get("image_url")
    if isinstance(url, dict):
        url = url.get("url")
    data = base64.b64decode(url.split(",", 1)[1])
    pages = []
    if document["type"] == "document_url":
        pdf = pdfium.PdfDocument(data)
        for index in range(len(pdf)):
            text = pdf[index].get_textpage().get_text_bounded()
            pages.append({"index": index, "markdown": f"# Page {index + 1}\n\n{text.strip()}",
                          "images": [], "dimensions": {"dpi": 200, "height": 2200, "width": 1700}})
        pdf.close()
    else:
        pages.append({"index": 0, "markdown": IMAGE_TEXT, "images": [],
                      "dimensions": {"dpi": 200, "height": 1000, "width": 800}})
    response = {"pages": pages, "model": body.get("model") or "mistral-ocr-latest",
                "usage_info": {"pages_processed": len(pages), "doc_size_bytes": len(data)}}
    if body.get("document_annotation_format") is not None:
        response["document_annotation"] = json.dumps(annotation)
    return response


def _request_error(custom_id: str) -> dict[str, Any]:
    """One line of a batch's error file: the request the service could not process."""
    return {"id": str(uuid.uuid4()), "custom_id": custom_id,
            "response": {"status_code": 422, "body": {"message": "document could not be processed"}},
            "error": {"message": "document could not be processed", "code": 3310}}


class FakeMistral:
    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.jobs: dict[str, dict[str, Any]] = {}
        self.gets: dict[str, int] = {}
        # Knobs, set by tests.
        self.statuses: list[str] = ["QUEUED", "RUNNING", "SUCCESS"]
        self.fail_ids: set[str] = set()
        self.drop_after_create = False
        self.annotation: Any = {"title": "Fake", "pages": 1}
        self.ocr_calls = 0
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> FakeMistral:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    # -- behaviour -------------------------------------------------------------------
    def _file(self, name: str, content: bytes, purpose: str, sample_type: str) -> dict[str, Any]:
        file_id = str(uuid.uuid4())
        self.files[file_id] = content
        return {"id": file_id, "object": "file", "bytes": len(content), "created_at": int(time.time()),
                "filename": name, "purpose": purpose, "sample_type": sample_type, "source": "upload",
                "num_lines": content.count(b"\n")}

    def _job_view(self, job: dict[str, Any]) -> dict[str, Any]:
        return {key: value for key, value in job.items() if not key.startswith("_")}

    def _advance(self, job: dict[str, Any]) -> None:
        count = self.gets.get(job["id"], 0)
        self.gets[job["id"]] = count + 1
        status = self.statuses[min(count, len(self.statuses) - 1)]
        job["status"] = status
        if status == "SUCCESS" and job.get("output_file") is None:
            self._run(job)

    def _run(self, job: dict[str, Any]) -> None:
        output, errors = [], []
        for raw in self.files[job["input_files"][0]].splitlines():
            request = json.loads(raw)
            custom_id = request["custom_id"]
            if custom_id in self.fail_ids:
                errors.append(_request_error(custom_id))
                continue
            try:
                body = _ocr(request["body"], self.annotation)
            except pdfium.PdfiumError:
                # As the real service does with a file it cannot read: that request fails, the
                # batch succeeds.  (Raising here would print a traceback from the server thread
                # on every poll, and CPython 3.11.7 parses source for the carets of a traceback
                # with the ast module, whose state is shared between threads, gh-106905.)
                errors.append(_request_error(custom_id))
                continue
            output.append({"id": str(uuid.uuid4()), "custom_id": custom_id,
                           "response": {"status_code": 200, "body": body}, "error": None})
        job["output_file"] = self._file("output.jsonl", b"".join(
            json.dumps(line).encode() + b"\n" for line in output), "batch", "batch_result")["id"]
        if errors:
            job["error_file"] = self._file("errors.jsonl", b"".join(
                json.dumps(line).encode() + b"\n" for line in errors), "batch", "batch_error")["id"]
        job.update(completed_requests=len(output) + len(errors), succeeded_requests=len(output),
                   failed_requests=len(errors), completed_at=int(time.time()))

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        return type("Handler", (_Handler,), {"fake": self})


class _Handler(BaseHTTPRequestHandler):
    """Routes of the fake API; ``fake`` is set on a subclass per server."""

    fake: FakeMistral

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def _json(self, status: int, body: Any) -> None:
        payload = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def _body(self) -> bytes:
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def do_GET(self) -> None:  # noqa: N802
        parsed = urlparse(self.path)
        with self.fake.lock:
            if match := re.fullmatch(r"/v1/files/([\w-]+)/content", parsed.path):
                content = self.fake.files.get(match.group(1))
                if content is None:
                    return self._json(404, {"message": "file not found"})
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)
                return None
            if match := re.fullmatch(r"/v1/batch/jobs/([\w-]+)", parsed.path):
                job = self.fake.jobs.get(match.group(1))
                if job is None:
                    return self._json(404, {"message": "job not found"})
                self.fake._advance(job)
                return self._json(200, self.fake._job_view(job))
            if parsed.path == "/v1/batch/jobs":
                query = {k: v[0] for k, v in parse_qs(parsed.query).items()}
                known = {"page", "page_size", "model", "agent_id", "created_after",
                         "created_by_me", "status", "order_by"}
                wanted = {k: v for k, v in query.items() if k not in known}
                data = [self.fake._job_view(j) for j in self.fake.jobs.values()
                        if all((j.get("metadata") or {}).get(k) == v for k, v in wanted.items())]
                return self._json(200, {"object": "list", "data": data, "total": len(data)})
        return self._json(404, {"message": f"no route {parsed.path}"})

    def do_POST(self) -> None:  # noqa: N802
        parsed = urlparse(self.path)
        body = self._body()
        with self.fake.lock:
            if parsed.path == "/v1/files":
                header = f"Content-Type: {self.headers['Content-Type']}\r\n\r\n".encode()
                message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(header + body)
                fields: dict[str, Any] = {}
                for part in message.iter_parts():
                    name = part.get_param("name", header="content-disposition")
                    fields[name] = (part.get_filename(), part.get_payload(decode=True))
                filename, content = fields["file"]
                purpose = fields.get("purpose", (None, b"batch"))[1].decode()
                return self._json(200, self.fake._file(filename, content, purpose, "batch_request"))
            if parsed.path == "/v1/batch/jobs":
                request = json.loads(body)
                job_id = str(uuid.uuid4())
                lines = self.fake.files[request["input_files"][0]].count(b"\n")
                self.fake.jobs[job_id] = {
                    "id": job_id, "object": "batch", "input_files": request["input_files"],
                    "endpoint": request["endpoint"], "model": request.get("model"),
                    "metadata": request.get("metadata"), "errors": [], "status": "QUEUED",
                    "created_at": int(time.time()), "total_requests": lines,
                    "completed_requests": 0, "succeeded_requests": 0, "failed_requests": 0,
                    "output_file": None, "error_file": None}
                if self.fake.drop_after_create:
                    # Accepted, then the connection dies before the client hears back.
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return None
                return self._json(200, self.fake._job_view(self.fake.jobs[job_id]))
            if parsed.path == "/v1/ocr":
                self.fake.ocr_calls += 1
                try:
                    return self._json(200, _ocr(json.loads(body), self.fake.annotation))
                except pdfium.PdfiumError:
                    return self._json(422, {"message": "document could not be processed"})
        return self._json(404, {"message": f"no route {parsed.path}"})
