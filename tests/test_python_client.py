"""The Python client (clients/python, ``pagemill_client``) and its retrievers.

Unit tier: the client declares every operation, argument, header and answer of the live
``/openapi.json`` (built in process from the app, no database), and every component it reads or
sends field by field (name, required, nullable), so a change to the API that the client does
not follow fails here; and the check itself notices a changed spec.

System tier, against one ``pagemill serve`` for the module and the session's worker: a folder
uploads as one job followed with progress; a submission whose answer is lost is retried with its
Idempotency-Key and converges on one job, as does a replay; a 429 is retried after its
Retry-After; a job's event stream cut by a server crash resumes on the restarted server; a
webhook signed by the server verifies, a tampered one does not; the LangChain and LlamaIndex
retrievers return the REST search's and ``pagemill search --json``'s top 10 on a SciFact slice.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import inspect
import json
import os
import signal
import subprocess
import sys
import threading
import time
import typing
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Engine, text

from app.domain import jobs
from app.domain.auth import create_key, ensure_tenant
from app.domain.events import progress_id
from tests.conftest import ROOT, free_port, held_job, start_serve, terminate, wait_for
from tests.test_webhooks import Receiver

sys.path.insert(0, str(ROOT / "clients" / "python"))  # the repository's copy, installed or not

import pagemill_client  # noqa: E402
from pagemill_client import (  # noqa: E402
    ApiError,
    AsyncClient,
    Client,
    RetryPolicy,
    TextDocument,
    WebhookVerificationError,
    WebhookVerifier,
)
from pagemill_client import operations as client_operations  # noqa: E402
from pagemill_client.models import MODELS, wire_name  # noqa: E402

SCIFACT = ROOT.parent / "shared" / "corpus" / "beir-scifact"
CLIENT_VENV = ROOT / ".venv-client"


# --- the client against the spec (unit) -------------------------------------------------------

def _live_spec() -> dict[str, Any]:
    """``/openapi.json`` as the API serves it, from the app built in process (nothing is
    connected to: the database URL is never used)."""
    from app.api import create_app
    from app.config import Config

    app = create_app(Config.from_env({"DATABASE_URL": "postgresql://unused@127.0.0.1:1/unused",
                                      "PAGEMILL_PRELOAD_EMBEDDERS": "0"}))
    spec: dict[str, Any] = app.test_client().get("/openapi.json").get_json()
    return spec


def _ref(schema: dict[str, Any] | None) -> str | None:
    if not schema:
        return None
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if "allOf" in schema and len(schema["allOf"]) == 1:
        return _ref(schema["allOf"][0])
    return None


def _components_of(spec: dict[str, Any], name: str, seen: set[str]) -> None:
    """``name`` and every component its properties refer to, into ``seen``."""
    if name in seen:
        return
    seen.add(name)
    for prop in spec["components"]["schemas"][name].get("properties", {}).values():
        for inner in (prop, prop.get("items") or {}):
            if (ref := _ref(inner)) is not None:
                _components_of(spec, ref, seen)


def _optional(kind: Any) -> bool:
    return type(None) in typing.get_args(kind)


def coverage_problems(spec: dict[str, Any]) -> list[str]:
    """What of ``spec`` the client does not declare, or declares otherwise (empty: covered)."""
    problems: list[str] = []
    declared = {(op.method, op.path) for op in client_operations.OPERATIONS}
    live = {(method.upper(), path) for path, ops in spec["paths"].items() for method in ops}
    for missing in sorted(live - declared - set(client_operations.NOT_COVERED)):
        problems.append(f"{missing}: an operation the client does not make")
    for gone in sorted((declared | set(client_operations.NOT_COVERED)) - live):
        problems.append(f"{gone}: declared by the client, not in the API")
    used: set[str] = set()
    for op in client_operations.OPERATIONS:
        live_op = spec["paths"].get(op.path, {}).get(op.method.lower())
        if live_op is not None:
            problems += _operation_problems(spec, op, live_op, used)
    for name in sorted(used - {"Error", *(op.body for op in client_operations.OPERATIONS if op.body)}):
        problems += _model_problems(name, spec["components"]["schemas"][name])
    return problems


def _operation_problems(spec: dict[str, Any], op: client_operations.Operation, live_op: dict[str, Any],
                        used: set[str]) -> list[str]:
    """The operation's arguments, headers, body and answers against the client's; the
    components it answers with (and their nested ones) added to ``used``."""
    problems: list[str] = []
    where = f"{op.method} {op.path} ({op.function})"
    signature = inspect.signature(getattr(client_operations, op.function))
    arguments = {name.rstrip("_") for name in signature.parameters}
    parameters = live_op.get("parameters", [])
    named = {place: {p["name"] for p in parameters if p["in"] == place}
             for place in ("path", "query", "header")}
    for place in ("path", "query"):
        problems += [f"{where}: {place} argument {name!r} not taken"
                     for name in sorted(named[place] - arguments)]
    if named["query"] != set(op.query):
        problems.append(f"{where}: query arguments {sorted(named['query'])}, "
                        f"the client declares {sorted(op.query)}")
    if named["header"] != set(op.headers):
        problems.append(f"{where}: headers {sorted(named['header'])}, "
                        f"the client declares {sorted(op.headers)}")
    if "Idempotency-Key" in named["header"] and "idempotency_key" not in signature.parameters:
        problems.append(f"{where}: takes no idempotency_key")
    content = live_op.get("requestBody", {}).get("content", {})
    if op.body is not None:
        body_ref = _ref(content.get("application/json", {}).get("schema"))
        if body_ref != op.body:
            problems.append(f"{where}: JSON body is {body_ref}, the client declares {op.body}")
        else:
            _components_of(spec, body_ref, used)
            fields = set(spec["components"]["schemas"][body_ref]["properties"])
            problems += [f"{where}: body field {name!r} not taken" for name in sorted(fields - arguments)]
    if op.multipart:
        form = content.get("multipart/form-data", {}).get("schema", {}).get("properties", {})
        if set(form) != set(op.multipart):
            problems.append(f"{where}: multipart fields {sorted(form)}, "
                            f"the client declares {sorted(op.multipart)}")
        problems += [f"{where}: no argument {argument!r}" for argument in op.multipart.values()
                     if argument not in signature.parameters]
    if content and op.body is None and not op.multipart:
        problems.append(f"{where}: sends no body, the API takes {sorted(content)}")
    answers = {int(status): _ref(answer.get("content", {}).get("application/json", {}).get("schema"))
               for status, answer in live_op["responses"].items()}
    successes = {status: schema for status, schema in answers.items() if status < 300}
    if successes != op.responses:
        problems.append(f"{where}: answers {successes}, the client declares {op.responses}")
    for status, schema in answers.items():
        if status >= 300 and schema != "Error":
            problems.append(f"{where}: {status} answers {schema}, not the error body ApiError reads")
        if schema is not None:
            _components_of(spec, schema, used)
    return problems


def _model_problems(name: str, component: dict[str, Any]) -> list[str]:
    """The model of component ``name`` against it: the same fields, None allowed exactly where
    a field may be absent or null."""
    cls = MODELS.get(name)
    if cls is None:
        return [f"component {name}: no model"]
    problems: list[str] = []
    hints = typing.get_type_hints(cls)
    fields = {wire_name(f): f for f in dataclasses.fields(cls)}
    properties, required = component.get("properties", {}), set(component.get("required", []))
    problems += [f"component {name}: field {missing!r} not in {cls.__name__}"
                 for missing in sorted(set(properties) - set(fields))]
    problems += [f"component {name}: {cls.__name__}.{extra} is not in the API"
                 for extra in sorted(set(fields) - set(properties))]
    for prop, description in properties.items():
        if prop not in fields:
            continue
        kind = hints[fields[prop].name]
        always = prop in required and not description.get("nullable")
        if not always and not (_optional(kind) or kind is Any):
            problems.append(f"component {name}: {prop!r} may be absent or null, "
                            f"{cls.__name__} does not allow None")
        if always and _optional(kind):
            problems.append(f"component {name}: {prop!r} is always given, {cls.__name__} types it optional")
    return problems


@pytest.fixture(scope="module")
def live_spec() -> dict[str, Any]:
    return _live_spec()


def test_the_client_covers_every_operation_and_field_of_the_api(live_spec) -> None:
    assert coverage_problems(live_spec) == []


def test_a_spec_change_the_client_does_not_follow_fails_the_check(live_spec) -> None:
    changes = {
        "a new route": lambda s: s["paths"].setdefault("/v1/collections", {"get": {"responses": {}}}),
        "a new answer field": lambda s: s["components"]["schemas"]["Job"]["properties"].update(
            {"priority": {"type": "integer"}}),
        "a field made nullable": lambda s: s["components"]["schemas"]["SearchHit"]["properties"]["score"]
        .update({"nullable": True}),
        "a new query argument": lambda s: s["paths"]["/v1/jobs"]["get"]["parameters"].append(
            {"in": "query", "name": "since", "schema": {"type": "string"}}),
        "a new search option": lambda s: s["components"]["schemas"]["SearchRequest"]["properties"].update(
            {"diversify": {"type": "boolean"}}),
        "a field gone": lambda s: s["components"]["schemas"]["Chunk"]["properties"].pop("token_count"),
        "another answer": lambda s: s["paths"]["/v1/jobs/{job_id}"]["get"]["responses"].update(
            {"202": {"description": "", "content": {"application/json": {"schema": {
                "$ref": "#/components/schemas/JobPage"}}}}}),
    }
    for what, change in changes.items():
        changed = copy.deepcopy(live_spec)
        change(changed)
        assert coverage_problems(changed), f"{what} went unnoticed"


def test_both_clients_offer_every_operation_with_its_arguments() -> None:
    for op in client_operations.OPERATIONS:
        wanted = inspect.signature(getattr(client_operations, op.function)).parameters
        for cls in (Client, AsyncClient):
            method = getattr(cls, op.function)
            # The event stream is an iterator (async for AsyncClient); the rest are calls.
            awaited = cls is AsyncClient and op.function != "events"
            assert inspect.iscoroutinefunction(method) == awaited, (cls, op.function)
            offered = [p for p in inspect.signature(method).parameters.values()
                       if p.name != "self" and p.kind != p.KEYWORD_ONLY]  # keyword-only: the client's own
            assert [(p.name, p.default) for p in offered] == \
                [(p.name, p.default) for p in wanted.values()], (cls.__name__, op.function)


def test_the_verifier_agrees_with_the_standard_webhooks_package() -> None:
    from standardwebhooks import Webhook

    from app.infra.webhook_signing import new_secret, signature_header

    old, new = new_secret(), new_secret()
    body, now = b'{"type":"job.completed","data":{"id":"1"}}', int(time.time())
    headers = {"webhook-id": "evt_1", "webhook-timestamp": str(now),
               "webhook-signature": signature_header([new, old], "evt_1", now, body)}
    for secret in (old, new):
        assert WebhookVerifier(secret).verify(body, headers) == Webhook(secret).verify(body, headers)
    for tampered in ({**headers, "webhook-id": "evt_2"}, {**headers, "webhook-timestamp": str(now - 1)},
                     {**headers, "webhook-timestamp": str(now - 600),
                      "webhook-signature": signature_header([new], "evt_1", now - 600, body)}):
        with pytest.raises(WebhookVerificationError):
            WebhookVerifier(new).verify(body, tampered)
    with pytest.raises(WebhookVerificationError):
        WebhookVerifier(new_secret()).verify(body, headers)


# --- against a real server (system) -------------------------------------------------------------

class Server:
    """``pagemill serve --no-worker`` for the module; the session's worker does the work.
    ``restart`` kills the whole server (as a crash would) and starts it on the same port."""

    def __init__(self, env: dict[str, str], log_dir: Path) -> None:
        self.env, self.log_dir, self.port = env, log_dir, free_port()
        self.proc = start_serve(env, self.port, log_dir / "serve-0.log")
        self.starts = 1

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def crash(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def start_again(self) -> None:
        self.proc = start_serve(self.env, self.port, self.log_dir / f"serve-{self.starts}.log")
        self.starts += 1


@pytest.fixture(scope="module")
def server(test_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(test_env, tmp_path_factory.mktemp("client-serve"))
    yield running
    terminate(running.proc, timeout=30)


def _key(engine: Engine, rate_limit: int = 0, tenant: str | None = None) -> tuple[str, str]:
    """A key of a tenant of its own (no rate limit unless given) and the tenant's id."""
    tenant = tenant or f"client-{uuid.uuid4().hex[:10]}"
    with engine.begin() as conn:
        key = create_key(conn, tenant, rate_limit_per_minute=rate_limit)
        return key, ensure_tenant(conn, tenant)


def _jobs_of(engine: Engine, tenant_id: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM jobs WHERE tenant_id = CAST(:t AS uuid)"),
                                {"t": tenant_id}).scalar_one())


@pytest.mark.system
def test_a_folder_uploads_as_one_job_followed_with_progress(server, worker, engine, tmp_path) -> None:
    key, tenant_id = _key(engine)
    folder = tmp_path / "notes"
    (folder / "deep").mkdir(parents=True)
    (folder / "tides.md").write_text("# Tides\n\nThe moon's gravity pulls the oceans into two bulges.\n")
    (folder / "bread.txt").write_text("Yeast ferments the dough, which rises overnight.\n")
    (folder / "deep" / "bees.md").write_text("# Bees\n\nA colony overwinters as a cluster.\n")
    (folder / ".hidden").write_text("left out")
    seen: list[pagemill_client.Job] = []
    with Client(server.url, key) as client:
        job = client.upload([folder])
        assert job.total_documents == 3
        done = client.wait(job.id, on_progress=seen.append, timeout=120)
        documents = client.list_documents(job.id).documents
        # What search now reads: the index, a keyset page at a time.
        first = client.list_indexed_documents(limit=2, prefix="notes/")
        rest = client.list_indexed_documents(limit=2, prefix="notes/", after=first.next_after)
    assert [d.document_id for d in first.documents + rest.documents] == \
        ["notes/bread.txt", "notes/deep/bees.md", "notes/tides.md"]
    assert rest.next_after is None and all(d.chunk_count >= 1 for d in first.documents)
    with Client(server.url, key) as client:  # a page of one document's Markdown
        tides = next(d for d in rest.documents + first.documents if d.document_id == "notes/tides.md")
        assert tides.document_uuid is not None
        head = client.get_markdown(tides.document_uuid, max_chars=7)
        assert (head.markdown, head.next_offset, head.document_id) == ("# Tides", 7, "notes/tides.md")
    assert done.status == "completed" and done.completed_documents == 3
    assert sorted(d.document_id for d in documents) == \
        ["notes/bread.txt", "notes/deep/bees.md", "notes/tides.md"]
    assert seen and seen[-1].done and seen[-1].completed_documents == 3
    finished = [job.finished_documents for job in seen]
    assert finished == sorted(finished) and len(set(map(repr, seen))) == len(seen)  # each change once
    assert _jobs_of(engine, tenant_id) == 1


class _LoseFirstAnswer(httpx.AsyncHTTPTransport):
    """Sends every request to the server, but drops the answer to the first submission on the
    floor, as a connection cut just after the server committed would."""

    def __init__(self) -> None:
        super().__init__()
        self.submissions: list[str | None] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        if request.method == "POST" and request.url.path == "/v1/jobs":
            self.submissions.append(request.headers.get("Idempotency-Key"))
            if len(self.submissions) == 1:
                await response.aread()
                await response.aclose()
                raise httpx.ReadError("connection reset after the request was sent", request=request)
        return response


@pytest.mark.system
def test_a_submission_whose_answer_was_lost_and_a_replay_converge_on_one_job(server, engine) -> None:
    key, tenant_id = _key(engine)
    transport = _LoseFirstAnswer()
    documents = [TextDocument(id="a.md", text="# A\n\nAlpha."), {"id": "b.md", "text": "Beta."}]

    async def scenario() -> tuple[pagemill_client.Job, pagemill_client.Job]:
        async with httpx.AsyncClient(transport=transport, timeout=60) as http, \
                AsyncClient(server.url, key, http_client=http,
                            retry=RetryPolicy(backoff=0.05)) as client:
            first = await client.submit(documents)  # lost once, retried with the same key
            replay = await client.submit(documents, idempotency_key=transport.submissions[0])
            return first, replay

    first, replay = asyncio.run(scenario())
    assert len(transport.submissions) == 3 and transport.submissions[0] == transport.submissions[1]
    assert transport.submissions[0] == transport.submissions[2]
    assert first.id == replay.id and _jobs_of(engine, tenant_id) == 1
    with Client(server.url, key) as client:
        with pytest.raises(ApiError) as refused:  # the same key with another body
            client.submit([{"id": "c.md", "text": "Gamma."}], idempotency_key=transport.submissions[0])
    assert refused.value.status == 409 and refused.value.code == "idempotency_key_reused"


@pytest.mark.system
def test_a_429_is_retried_after_its_retry_after(server, engine) -> None:
    per_minute = 30  # a burst of 30, then one request every 2 s
    key, _ = _key(engine, rate_limit=per_minute)
    statuses: list[tuple[int, str | None]] = []
    slept: list[float] = []

    def record(response: httpx.Response) -> None:
        statuses.append((response.status_code, response.headers.get("Retry-After")))

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        time.sleep(seconds)

    with httpx.Client(timeout=30, headers={"Authorization": f"Bearer {key}"}) as raw:
        for _ in range(per_minute + 10):  # spend the burst
            if raw.get(f"{server.url}/v1/jobs").status_code == 429:
                break
        else:
            raise AssertionError("the key's limit was never reached")
    with httpx.Client(timeout=30, event_hooks={"response": [record]}) as http, \
            Client(server.url, key, http_client=http, sleep=sleep) as client:
        started = time.monotonic()
        page = client.list_jobs()
        elapsed = time.monotonic() - started
    assert page.jobs == []
    assert statuses[0][0] == 429 and statuses[-1][0] == 200, statuses
    retry_after = float(statuses[0][1] or 0)
    assert retry_after >= 1 and slept[0] == retry_after and elapsed >= retry_after
    # Not retried when the wait asked for is longer than the policy accepts.
    with Client(server.url, key, retry=RetryPolicy(max_retry_after=0.5)) as impatient:
        for _ in range(per_minute + 10):
            try:
                impatient.list_jobs()
            except ApiError as exc:
                assert exc.status == 429 and exc.code == "rate_limited" and exc.retry_after
                break
        else:
            raise AssertionError("no 429")


@pytest.mark.system
def test_an_event_stream_cut_by_a_server_restart_resumes(server, engine) -> None:
    key, tenant_id = _key(engine)
    job_id = held_job(engine, tenant_id)
    connections: list[tuple[int, str | None]] = []
    events: list[pagemill_client.JobEvent] = []
    failure: list[BaseException] = []
    first = threading.Event()

    def opened(response: httpx.Response) -> None:
        if response.request.url.path.endswith("/events"):
            connections.append((response.status_code, response.request.headers.get("Last-Event-ID")))

    def follow() -> None:
        try:
            with httpx.Client(timeout=30, event_hooks={"response": [opened]}) as http, \
                    Client(server.url, key, http_client=http) as client:
                for event in client.events(job_id, reconnect_for=120):
                    events.append(event)
                    first.set()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            failure.append(exc)
        finally:
            first.set()

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    assert first.wait(60) and not failure, failure
    server.crash()
    time.sleep(1)  # the reader is now reconnecting to nothing
    server.start_again()
    with Client(server.url, key) as client:
        wait_for(lambda: len(connections) >= 2, timeout=30, what="the stream reopened")
        client.cancel_job(job_id)
    reader.join(60)
    assert not reader.is_alive() and not failure, failure
    assert [(e.event, e.job.status if e.job else None) for e in events] == [
        ("progress", "queued"), ("progress", "cancelled"), ("end", "cancelled")]
    # The second connection named the state the first one had sent.
    assert connections == [(200, None), (200, progress_id(events[0].data))]


def test_a_stream_reopened_with_last_event_id_skips_the_state_it_names(database_url, engine, tenant) -> None:
    """The server's side of resuming: the state a reconnecting client has is not sent again,
    the next change is."""
    from app.domain.events import JobEventHub, job_event_stream

    job_id = held_job(engine, tenant)

    def read() -> dict[str, Any] | None:
        with engine.connect() as conn:
            progress = jobs.job_progress(conn, job_id, tenant)
        return {"status": progress.status} if progress else None

    hub = JobEventHub(database_url)
    seen = read()
    assert seen is not None
    frames = job_event_stream(hub.subscribe(job_id, limit=10), read, reread_seconds=0.5,
                              last_event_id=progress_id(seen))
    # Something at once all the same, so that the answer starts.
    assert next(frames) == ": unchanged since Last-Event-ID\n\n"
    with engine.begin() as conn:
        jobs.cancel_job(conn, tenant, job_id)
    rest = list(frames)
    assert rest[0] == ('event: progress\ndata: {"status": "cancelled"}\n'
                       f'id: {progress_id({"status": "cancelled"})}\n\n')
    assert rest[-1] == 'event: end\ndata: {"status": "cancelled"}\n\n'


@pytest.mark.system
def test_a_webhook_signed_by_the_server_verifies_and_a_tampered_one_does_not(server, worker, engine) -> None:
    key, _ = _key(engine)
    receiver = Receiver([204])  # tests/test_webhooks.py's: records every request
    seen: list[str] = []

    async def scenario() -> tuple[Any, Any, Any]:  # the async client, its event stream included
        async with AsyncClient(server.url, key) as client:
            endpoint = await client.create_webhook(receiver.url, ["job.completed"], description="client test")
            job = await client.submit([{"id": "hook.md", "text": "# Hook\n\nA delivered event."}])
            done = await client.wait(job.id, lambda progress: seen.append(progress.status), timeout=120)
            assert done.status == "completed" and seen[-1] == "completed"
            await asyncio.to_thread(wait_for, lambda: receiver.requests, 60, 0.25, "the webhook delivery")
            return endpoint, job, (await client.list_deliveries(endpoint.id)).deliveries

    try:
        endpoint, job, deliveries = asyncio.run(scenario())
    finally:
        receiver.close()
    assert endpoint.secret.startswith("whsec_")
    headers, body = receiver.requests[0]
    event = WebhookVerifier(endpoint.secret).verify(body, headers)
    assert event["type"] == "job.completed" and event["data"]["job_id"] == job.id
    assert deliveries[0].event_id == headers["webhook-id"]
    tampered = body.replace(b"job.completed", b"job.cancelled")
    with pytest.raises(WebhookVerificationError):
        WebhookVerifier(endpoint.secret).verify(tampered, headers)
    with pytest.raises(WebhookVerificationError):
        WebhookVerifier(endpoint.secret).verify(body, {**headers, "webhook-id": "evt_other"})


def _scifact_slice(queries: int = 6, others: int = 40) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """The first SciFact train queries, their relevant abstracts and the corpus's first
    ``others`` abstracts."""
    rows = (SCIFACT / "qrels" / "train.tsv").read_text().splitlines()[1:]
    qrels: dict[str, set[str]] = {}
    for row in rows:
        query_id, doc_id, _ = row.split("\t")
        if len(qrels) < queries or query_id in qrels:
            qrels.setdefault(query_id, set()).add(doc_id)
    wanted = set().union(*qrels.values())
    documents, texts = [], {}
    with (SCIFACT / "corpus.jsonl").open() as corpus:
        for n, line in enumerate(corpus):
            doc = json.loads(line)
            if doc["_id"] in wanted or n < others:
                documents.append({"id": doc["_id"], "title": doc["title"], "text": doc["text"]})
    with (SCIFACT / "queries.jsonl").open() as lines:
        for line in lines:
            query = json.loads(line)
            if query["_id"] in qrels:
                texts[query["_id"]] = query["text"]
    return documents, [{"_id": q, "text": texts[q]} for q in qrels]


_LLAMA_INDEX_SCRIPT = """
import json, sys
from pagemill_client import Client
from pagemill_client.llama_index import PagemillRetriever
url, key, queries = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
retriever = PagemillRetriever(Client(url, key), k=10)
out = {}
for query in queries:
    nodes = retriever.retrieve(query["text"])
    out[query["_id"]] = [[n.node.metadata["document_id"], n.node.metadata["chunk_id"], n.score,
                          n.node.metadata["heading_path"], n.node.metadata["document_uuid"]] for n in nodes]
print(json.dumps(out))
"""


@pytest.mark.system
@pytest.mark.skipif(not (SCIFACT / "corpus.jsonl").exists(), reason="../shared/corpus/beir-scifact is absent")
def test_the_retrievers_return_the_same_top_10_as_pagemill_search(server, worker, engine, test_env,
                                                                  tmp_path) -> None:
    from pagemill_client.langchain import PagemillRetriever

    tenant_name = f"client-{uuid.uuid4().hex[:10]}"
    key, _ = _key(engine, tenant=tenant_name)
    documents, queries = _scifact_slice()
    with Client(server.url, key) as client:
        job = client.submit(documents)
        assert client.wait(job.id, timeout=300).completed_documents == len(documents)
        rest = {q["_id"]: [(h.document_id, h.chunk_id) for h in client.search(q["text"], k=10).results]
                for q in queries}
        retriever = PagemillRetriever(client=client, k=10)
        langchain = {}
        for q in queries:
            found = retriever.invoke(q["text"])
            langchain[q["_id"]] = [(d.metadata["document_id"], d.metadata["chunk_id"]) for d in found]
            assert all(d.metadata["document_uuid"] and isinstance(d.metadata["heading_path"], list)
                       and d.metadata["score"] is not None for d in found)
            assert [d.metadata["rank"] for d in found] == list(range(1, len(found) + 1))
    assert all(len(hits) == 10 for hits in rest.values())
    assert langchain == rest

    query_file = tmp_path / "queries.jsonl"
    query_file.write_text("".join(json.dumps(q) + "\n" for q in queries))
    cli = subprocess.run([sys.executable, "-m", "app.cli", "search", "--queries", str(query_file),
                          "--k", "10", "--json", "--tenant", tenant_name], env=test_env, cwd=ROOT,
                         capture_output=True, text=True, timeout=300, check=True)
    from_cli = {}
    for line in cli.stdout.splitlines():
        answer = json.loads(line)
        from_cli[answer["query_id"]] = [(r["document_id"], r["chunk_id"]) for r in answer["results"]]
    assert from_cli == rest

    python = CLIENT_VENV / "bin" / "python"
    if not python.exists():
        pytest.skip(f"{CLIENT_VENV} is absent (.ci/setup makes it: llama-index-core needs "
                    "marshmallow<4, pagemill's venv has 4)")
    home = tmp_path / "home"
    home.mkdir()
    llama = subprocess.run([str(python), "-c", _LLAMA_INDEX_SCRIPT, server.url, key, json.dumps(queries)],
                           env={"PATH": os.environ["PATH"], "HOME": str(home)}, capture_output=True,
                           text=True, timeout=120, check=True)
    from_llama = {q: [(doc_id, chunk_id) for doc_id, chunk_id, *_ in hits]
                  for q, hits in json.loads(llama.stdout.splitlines()[-1]).items()}
    assert from_llama == rest
    assert list(home.iterdir()) == []  # nothing downloaded or cached (NLTK, tiktoken)
