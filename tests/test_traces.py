"""OpenTelemetry traces (app/infra/traces.py): with an OTLP/HTTP endpoint configured, one
``POST /v1/jobs`` is one trace from the API through the broker to the worker's extraction,
chunking, embedding and index write, and the log lines carry its trace id; without one, nothing
is started.

The endpoint is a real OTLP/HTTP receiver in this process: the exporters of ``pagemill serve``
and ``pagemill worker`` send it protobuf, decoded here with OpenTelemetry's own message types.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import urllib.request
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from app.config import Config, TracingConfig
from app.infra import traces
from app.infra.db import get_engine
from tests.conftest import ROOT, free_port, private_database_url, start_serve, terminate, wait_for

SAMPLE = ROOT / "samples" / "maintenance-report.pdf"


class Receiver:
    """An OTLP/HTTP traces endpoint that keeps every span it is sent (and serves the job's PDF)."""

    def __init__(self) -> None:
        self.spans: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
                    ExportTraceServiceRequest,
                    ExportTraceServiceResponse,
                )

                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                request = ExportTraceServiceRequest()
                request.ParseFromString(body)
                receiver.keep(request)
                answer = ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def do_GET(self) -> None:  # noqa: N802 - the job's PDF, fetched by the worker
                body = SAMPLE.read_bytes()
                self.send_response(200)
                self.send_header("Content-Type", "application/pdf")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def keep(self, request: Any) -> None:
        def value(v: Any) -> Any:
            kind = v.WhichOneof("value")
            if kind == "array_value":
                return [value(x) for x in v.array_value.values]
            return getattr(v, kind) if kind else None

        with self.lock:
            for resource_spans in request.resource_spans:
                resource = {a.key: value(a.value) for a in resource_spans.resource.attributes}
                for scope_spans in resource_spans.scope_spans:
                    for span in scope_spans.spans:
                        self.spans.append({
                            "trace_id": span.trace_id.hex(), "span_id": span.span_id.hex(),
                            "parent": span.parent_span_id.hex() or None, "name": span.name,
                            "process": resource.get("pagemill.process"),
                            "service": resource.get("service.name"),
                            "attributes": {a.key: value(a.value) for a in span.attributes}})

    def trace(self, trace_id: str) -> list[dict[str, Any]]:
        with self.lock:
            return [s for s in self.spans if s["trace_id"] == trace_id]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    served = Receiver()
    yield served
    served.close()


@pytest.fixture(scope="module")
def private_database(database_url: str) -> Iterator[str]:
    """A database of its own, so that no other test's (untraced) worker takes this job."""
    with private_database_url(database_url) as url:
        yield url


def _http(method: str, url: str, key: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(url, method=method, data=json.dumps(body).encode() if body else None,
                                     headers={"Authorization": f"Bearer {key}",
                                              "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.status, json.loads(answer.read())


def _named(spans: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [s for s in spans if s["name"] == name]


def _document(span: dict[str, Any]) -> str:
    return str(span["attributes"]["pagemill.document_id"])


def _trace_of(engine: Any, job_id: str) -> str:
    """The trace a job was written in: its stored traceparent's trace id."""
    with engine.connect() as conn:
        stored = conn.execute(text("SELECT traceparent FROM jobs WHERE id = CAST(:j AS uuid)"),
                              {"j": job_id}).scalar_one()
    return str(stored).split("-")[1]


@pytest.mark.system
def test_one_job_is_one_trace_from_the_request_to_the_index(
        test_env: dict[str, str], private_database: str, receiver: Receiver, tmp_path: Path) -> None:
    """Two jobs of a key that runs one batch at a time: the first job's second batch is published
    by the worker after its first, and the second job's batch by the worker after the first
    job's last -- inside that job's task, yet in the second job's trace."""
    from app.domain.auth import create_key

    env = {**test_env, "DATABASE_URL": private_database, "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url,
           # Export within a tenth of a second of a span's end, not the default five.
           "OTEL_BSP_SCHEDULE_DELAY": "100", "PAGEMILL_LOG_FORMAT": "json", "PAGEMILL_LOG_LEVEL": "INFO",
           "PAGEMILL_BATCH_SIZE": "1"}
    engine = get_engine(private_database)
    with engine.begin() as conn:
        key = create_key(conn, f"traces-{uuid.uuid4().hex[:8]}", concurrency=1)
    worker_log, serve_log = tmp_path / "worker.log", tmp_path / "serve.log"
    with worker_log.open("wb") as out:
        worker = subprocess.Popen([sys.executable, "-m", "app.cli", "worker", "--loglevel", "INFO"],
                                  env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                  start_new_session=True)
    port = free_port()
    serve = start_serve(env, port, serve_log)
    api = f"http://127.0.0.1:{port}/v1/jobs"
    try:
        first = _http("POST", api, key, {"documents": [
            {"id": "guppy", "title": "Guppies", "text": "Guppies are small freshwater fish. " * 30},
            {"id": "report", "url": f"{receiver.url}/report.pdf"}]})[1]["id"]
        # Waits for the key's slot: the first job's worker loads its embedder meanwhile.
        second = _http("POST", api, key, {"documents": [
            {"id": "medaka", "title": "Medaka", "text": "Medaka tolerate cold water. " * 30}]})[1]["id"]

        def finished() -> bool:
            if worker.poll() is not None:
                raise AssertionError(f"worker exited: {worker_log.read_text()[-3000:]}")
            return all(_http("GET", f"{api}/{job}", key)[1]["status"] == "completed"
                       for job in (first, second))

        wait_for(finished, timeout=300, what="the traced jobs to complete")
        traces_of = {job: _trace_of(engine, job) for job in (first, second)}
        wanted = {"POST /v1/jobs", "apply_async/pagemill.ingest_batch", "run/pagemill.ingest_batch",
                  "pagemill.extract", "pagemill.chunk", "pagemill.embed", "pagemill.index_write"}

        def complete() -> bool:
            names = {job: [s["name"] for s in receiver.trace(t)] for job, t in traces_of.items()}
            return all(wanted <= set(n) for n in names.values()) \
                and names[first].count("run/pagemill.ingest_batch") == 2
        wait_for(complete, timeout=60, what=f"spans {sorted(wanted)} in each job's trace")
    finally:
        terminate(serve)
        terminate(worker)
    assert traces_of[first] != traces_of[second]
    for job, documents in ((first, {"guppy", "report"}), (second, {"medaka"})):
        spans = receiver.trace(traces_of[job])
        by_id = {s["span_id"]: s for s in spans}
        # One tree, rooted in the request that wrote the job.
        roots = [s for s in spans if s["parent"] is None]
        assert [(r["name"], r["process"], r["service"]) for r in roots] == [
            ("POST /v1/jobs", "api", "pagemill")]
        assert all(s["parent"] in by_id for s in spans if s["parent"] is not None)
        publishes = {s["span_id"]: s for s in spans if s["name"] == "apply_async/pagemill.ingest_batch"}
        runs = [s for s in spans if s["name"] == "run/pagemill.ingest_batch"]
        assert len(runs) == len(documents) and all(r["process"] == "worker" and r["parent"] in publishes
                                                   for r in runs)
        # Each document's extraction (route, outcome) and chunking; embedding and index writes.
        extracts = {_document(s): s for s in _named(spans, "pagemill.extract")}
        assert set(extracts) == documents
        assert all(s["attributes"]["pagemill.outcome"] == "ok" and s["attributes"]["pagemill.route"]
                   for s in extracts.values())
        assert {_document(s) for s in _named(spans, "pagemill.chunk")} == documents
        embedded = {d for s in _named(spans, "pagemill.embed")
                    for d in s["attributes"]["pagemill.document_ids"]}
        written = {_document(s) for s in _named(spans, "pagemill.index_write")}
        assert embedded == written == documents
    # The first job's second batch, and the second job's batch, were published by the worker.
    publish = "apply_async/pagemill.ingest_batch"
    publishers = {job: sorted(s["process"] for s in _named(receiver.trace(t), publish))
                  for job, t in traces_of.items()}
    assert publishers == {first: ["api", "worker"], second: ["worker"]}
    # The PDF's engine attempts in the parser's child process, under its extraction.
    spans = receiver.trace(traces_of[first])
    report = next(s for s in spans if s["name"] == "pagemill.extract"
                  and s["attributes"]["pagemill.document_id"] == "report")
    attempts = [s for s in spans if s["name"].startswith("pagemill.extract.")]
    assert attempts and {s["parent"] for s in attempts} == {report["span_id"]}
    assert any(s["attributes"]["pagemill.chosen"] for s in attempts)
    # The logs say which trace a line belongs to, beside the request id.
    lines = [json.loads(line) for path in (serve_log, worker_log)
             for line in path.read_text().splitlines() if line.startswith("{")]
    indexed = {r["document_id"]: r for r in lines if r.get("event") == "document indexed"}
    assert {d: (r.get("trace_id"), bool(r.get("request_id"))) for d, r in indexed.items()} == {
        "guppy": (traces_of[first], True), "report": (traces_of[first], True),
        "medaka": (traces_of[second], True)}
    created = [r.get("trace_id") for r in lines if r.get("event") == "job created"]
    assert created == [traces_of[first], traces_of[second]]


@pytest.mark.unit
def test_without_an_endpoint_nothing_traces(tmp_path: Path) -> None:
    config = Config.from_env({"PAGEMILL_HOME": str(tmp_path)})
    assert not config.tracing.enabled
    assert traces.start(config.tracing, "api") is False and not traces.started()
    with traces.span("pagemill.extract", a=1) as nothing:
        assert nothing is None
    assert traces.current_traceparent() is None and traces.log_fields() == {}


@pytest.mark.unit
@pytest.mark.parametrize("env, enabled", [
    ({}, False),
    ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, True),
    ({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces"}, True),
    ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_SDK_DISABLED": "true"}, False),
    ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_TRACES_EXPORTER": "none"}, False),
])
def test_the_standard_variables_switch_traces_on(env: dict[str, str], enabled: bool) -> None:
    assert TracingConfig.from_env(env).enabled is enabled


@pytest.mark.unit
def test_doctor_reports_the_tracing_state(tmp_path: Path) -> None:
    from app.cli.doctor import _tracing_check

    off = _tracing_check(Config.from_env({"PAGEMILL_HOME": str(tmp_path)}))
    assert off.ok and off.detail == "off (no OTEL_EXPORTER_OTLP_ENDPOINT)"
    on = _tracing_check(Config.from_env({"PAGEMILL_HOME": str(tmp_path),
                                         "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318/"}))
    assert on.ok and on.detail.startswith("on: OTLP/HTTP to http://collector:4318/v1/traces (SDK ")
