"""The MCP server, driven by the MCP SDK's own client: over Streamable HTTP against a running
``pagemill serve`` (``/mcp``) and over stdio against ``pagemill mcp`` as a child process, with
a real worker indexing what the tools ingest.  Every tool is the REST API called in process
with the caller's key, so a wrong key, another tenant's document, an over-limit call and a
malformed argument get the API's own error codes, and leave no rows behind."""

from __future__ import annotations

import asyncio
import http.client
import json
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from sqlalchemy import Engine, text

from app.domain.auth import create_key
from app.domain.jobs import TERMINAL_JOB_STATES
from tests.conftest import ROOT, free_port, start_serve, terminate, wait_for

pytestmark = pytest.mark.system

TOOLS = {"search", "get_document", "get_chunks", "ingest", "job_status", "list_documents"}
MAX_DOCUMENTS = 3  # the server's PAGEMILL_MAX_DOCUMENTS_PER_JOB, so that an over-limit job is small
TERMINAL = set(TERMINAL_JOB_STATES)


@dataclass
class Server:
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def request(self, method: str, path: str, key: str | None, body: Any = None
                ) -> tuple[int, dict[str, str], Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Content-Type": "application/json"}
        if key is not None:
            headers["Authorization"] = f"Bearer {key}"
        try:
            conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
            response = conn.getresponse()
            data = response.read()
            return response.status, dict(response.getheaders()), json.loads(data) if data else None
        finally:
            conn.close()


@pytest.fixture(scope="module")
def server(test_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``pagemill serve --no-worker``: the API and /mcp; the session's worker does the work."""
    port = free_port()
    log = tmp_path_factory.mktemp("serve-mcp") / "serve.log"
    env = {**test_env, "PAGEMILL_MAX_DOCUMENTS_PER_JOB": str(MAX_DOCUMENTS)}
    proc = start_serve(env, port, log)
    running = Server(port, log)
    yield running
    terminate(proc, timeout=30)


def _key(engine: Engine, rate_limit: int | None = None) -> str:
    with engine.begin() as conn:
        return create_key(conn, f"mcp-{uuid.uuid4().hex[:10]}", rate_limit_per_minute=rate_limit)


@asynccontextmanager
async def _http(server: Server, key: str) -> AsyncIterator[Client]:
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=120) as http, \
            Client(streamable_http_client(server.url, http_client=http)) as client:
        yield client


@asynccontextmanager
async def _stdio(test_env: dict[str, str], key: str) -> AsyncIterator[Client]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "app.cli", "mcp"], cwd=ROOT,
                                   env={**test_env, "PAGEMILL_API_KEY": key,
                                        "PAGEMILL_MAX_DOCUMENTS_PER_JOB": str(MAX_DOCUMENTS)})
    async with Client(params) as client:
        yield client


def _connect(transport: str, server: Server, test_env: dict[str, str], key: str) -> Any:
    return _http(server, key) if transport == "http" else _stdio(test_env, key)


async def _call(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def _refusal(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The error body of a refused call, the same in the text an agent reads and in the
    structured content."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    text_body = json.loads(result.content[0].text)  # type: ignore[union-attr]
    assert text_body == result.structured_content
    error: dict[str, Any] = text_body["error"]
    return error


def _rows(engine: Engine, external_id: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM documents WHERE external_id = :e"),
                                {"e": external_id}).scalar_one())


@pytest.mark.parametrize("transport", ["http", "stdio"])
def test_an_agent_ingests_waits_searches_and_reads_around_a_hit(transport, server, worker, engine,
                                                                  test_env):
    key = _key(engine)
    word = f"zyx{uuid.uuid4().hex[:8]}"  # a term no other document has
    documents = [
        {"id": "tides.md", "title": "Tides", "metadata": {"topic": "sea"},
         "text": "# Tides\n\n## Causes\n\nThe moon's gravity pulls the oceans into two bulges.\n\n"
                 f"## Measuring\n\nA tide gauge records the {word} height of the water every minute."},
        {"id": "bread.md", "text": "# Bread\n\nYeast ferments the dough, which rises overnight."},
    ]

    async def scenario() -> None:
        async with _connect(transport, server, test_env, key) as client:
            listed = (await client.list_tools()).tools
            assert {tool.name for tool in listed} == TOOLS
            for tool in listed:
                assert tool.description and len(tool.description) > 60, tool.name
                assert tool.input_schema["type"] == "object" and tool.input_schema["properties"]
            search_schema = next(tool for tool in listed if tool.name == "search").input_schema
            assert search_schema["required"] == ["query"]
            assert search_schema["properties"]["mode"]["enum"] == ["hybrid", "bm25", "dense"]
            templates = (await client.list_resource_templates()).resource_templates
            assert [t.uri_template for t in templates] == ["pagemill://documents/{document_uuid}"]

            job = await _call(client, "ingest", {"documents": documents})
            assert job["status"] in {"queued", "running"} and job["total_documents"] == 2
            deadline = time.monotonic() + 180
            status = job
            while status["status"] not in TERMINAL:  # as an agent polls
                assert time.monotonic() < deadline, status
                await asyncio.sleep(0.5)
                status = await _call(client, "job_status", {"job_id": job["id"]})
            assert status["status"] == "completed", status
            done = await _call(client, "job_status", {"job_id": job["id"], "include_documents": True})
            assert sorted(d["document_id"] for d in done["documents"]) == ["bread.md", "tides.md"]
            listed = await _call(client, "list_documents", {"limit": 1})
            more = await _call(client, "list_documents", {"limit": 1, "after": listed["next_after"]})
            both = listed["documents"] + more["documents"]
            assert [d["document_id"] for d in both] == ["bread.md", "tides.md"]
            tides = await _call(client, "list_documents", {"prefix": "ti"})
            assert [d["title"] for d in tides["documents"]] == ["Tides"]

            found = await _call(client, "search", {"query": f"tide gauge {word}", "mode": "bm25", "k": 5,
                                                   "after_job": job["id"]})
            hit = found["results"][0]
            assert hit["document_id"] == "tides.md" and word in hit["text"]
            assert hit["heading_path"] == ["Tides", "Measuring"]
            assert f"**{word}**" in hit["snippet"] and hit["score"] > 0
            assert {"page_start", "page_end", "boxes", "title", "chunk_id"} <= hit.keys()
            # The same request over REST with the same key answers the same hits.
            status_code, _, rest = server.request("POST", "/v1/search", key,
                                                  {"query": f"tide gauge {word}", "mode": "bm25", "k": 5})
            assert status_code == 200 and rest["results"] == found["results"]
            filtered = await _call(client, "search", {"query": "yeast dough", "mode": "bm25",
                                                      "filters": {"metadata": {"topic": "sea"}}})
            assert [h["document_id"] for h in filtered["results"]] in ([], ["tides.md"])

            around = await _call(client, "get_chunks", {"document_uuid": hit["document_uuid"],
                                                        "around_chunk_id": hit["chunk_id"], "count": 3})
            assert around["document_id"] == "tides.md" and around["total_chunks"] >= 1
            assert hit["chunk_id"] in [c["id"] for c in around["chunks"]]
            first = await _call(client, "get_chunks", {"document_uuid": hit["document_uuid"], "count": 1})
            assert first["start"] == 0 and len(first["chunks"]) == 1

            page = await _call(client, "get_document", {"document_uuid": hit["document_uuid"],
                                                        "max_chars": 7})
            assert page["status"] == "completed" and page["document_id"] == "tides.md"
            assert page["markdown"] == "# Tides" and page["next_offset"] == 7
            rest_of_it = await _call(client, "get_document", {"document_uuid": hit["document_uuid"],
                                                              "offset": 7, "max_chars": 100_000})
            assert rest_of_it["next_offset"] is None and word in rest_of_it["markdown"]
            whole = await client.read_resource(f"pagemill://documents/{hit['document_uuid']}")
            assert whole.contents[0].text == page["markdown"] + rest_of_it["markdown"]  # type: ignore[union-attr]

    asyncio.run(scenario())


def test_over_http_a_wrong_key_is_a_401_and_no_tool_runs(server, engine):
    for key in (None, "pm_nope_nope", _key(engine) + "x"):
        status, headers, body = server.request("POST", "/mcp", key, {
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "ingest", "arguments": {"documents": [{"id": "x-401", "text": "t"}]}}})
        assert status == 401 and body["error"]["code"] == "unauthorized", body
        assert headers["WWW-Authenticate"] == "Bearer"
    assert _rows(engine, "x-401") == 0

    async def connect() -> None:
        async with _http(server, "pm_wrong_key"):
            pass

    # The SDK's client gives up on connecting (its initialize was refused).
    with pytest.raises(ExceptionGroup) as refused:
        asyncio.run(connect())
    assert refused.group_contains(MCPError)
    # No GET stream: a 405 that names what to do.
    status, headers, body = server.request("GET", "/mcp", _key(engine))
    assert status == 405 and headers["Allow"] == "POST" and body["error"]["code"] == "method_not_allowed"


def test_over_stdio_a_wrong_key_is_the_apis_unauthorized(engine, test_env):
    external_id = f"stdio-401-{uuid.uuid4().hex[:6]}"

    async def scenario() -> None:
        async with _stdio(test_env, "pm_nope_nope") as client:
            assert {tool.name for tool in (await client.list_tools()).tools} == TOOLS
            error = await _refusal(client, "ingest", {"documents": [{"id": external_id, "text": "t"}]})
            assert (error["code"], error["status"]) == ("unauthorized", 401)
            error = await _refusal(client, "search", {"query": "anything"})
            assert error["code"] == "unauthorized"

    asyncio.run(scenario())
    assert _rows(engine, external_id) == 0


def test_a_missing_key_stops_pagemill_mcp_with_a_message(test_env):
    env = {k: v for k, v in test_env.items() if k != "PAGEMILL_API_KEY"}
    done = subprocess.run([sys.executable, "-m", "app.cli", "mcp"], env=env, cwd=ROOT, input=b"",
                          capture_output=True, timeout=120)
    assert done.returncode == 1 and b"PAGEMILL_API_KEY is not set" in done.stderr
    assert done.stdout == b""


def test_another_tenants_documents_and_jobs_are_not_found(server, worker, engine):
    owner = _key(engine)
    status, _, job = server.request("POST", "/v1/jobs", owner, {"documents": [
        {"id": "secret.md", "text": "# Secret\n\nThe launch code is quartz."}]})
    assert status == 202
    wait_for(lambda: server.request("GET", f"/v1/jobs/{job['id']}", owner)[2]["status"] in TERMINAL,
             timeout=180, what="the owner's job")
    _, _, listed = server.request("GET", f"/v1/jobs/{job['id']}/documents", owner)
    document_uuid = listed["documents"][0]["id"]
    other = _key(engine)

    async def scenario() -> None:
        async with _http(server, other) as client:
            for tool, arguments in (("get_document", {"document_uuid": document_uuid}),
                                    ("get_chunks", {"document_uuid": document_uuid}),
                                    ("job_status", {"job_id": job["id"], "include_documents": True})):
                error = await _refusal(client, tool, arguments)
                assert (error["code"], error["status"]) == ("not_found", 404), (tool, error)
            found = await _call(client, "search", {"query": "launch code quartz", "mode": "bm25"})
            assert found["results"] == []
            assert (await _call(client, "list_documents", {}))["documents"] == []
            with pytest.raises(Exception) as refused:
                await client.read_resource(f"pagemill://documents/{document_uuid}")
            assert "not_found" in str(refused.value)
        async with _http(server, owner) as client:  # the owner reads it
            assert (await _call(client, "get_document", {"document_uuid": document_uuid}))["document_id"] == \
                "secret.md"

    asyncio.run(scenario())


def test_over_limit_calls_are_refused_with_the_apis_codes_and_store_nothing(server, engine):
    external_id = f"limit-{uuid.uuid4().hex[:6]}"

    async def scenario() -> None:
        async with _http(server, _key(engine)) as client:
            too_many = [{"id": f"{external_id}-{i}", "text": "words"} for i in range(MAX_DOCUMENTS + 1)]
            error = await _refusal(client, "ingest", {"documents": too_many})
            assert (error["code"], error["status"]) == ("too_many_documents", 413)
        # A key of 2 requests a minute: the third call is the API's 429 with its retry delay.
        async with _http(server, _key(engine, rate_limit=2)) as client:
            await _call(client, "search", {"query": "one", "mode": "bm25"})
            await _call(client, "search", {"query": "two", "mode": "bm25"})
            error = await _refusal(client, "ingest", {"documents": [{"id": external_id, "text": "t"}]})
            assert (error["code"], error["status"]) == ("rate_limited", 429)
            assert error["details"]["retry_after"] > 0 and error["details"]["limit"] == 2

    asyncio.run(scenario())
    assert _rows(engine, external_id) == 0
    assert all(_rows(engine, f"{external_id}-{i}") == 0 for i in range(MAX_DOCUMENTS + 1))


def test_malformed_arguments_are_validation_errors_and_store_nothing(server, engine):
    external_id = f"bad-{uuid.uuid4().hex[:6]}"

    async def scenario() -> None:
        async with _http(server, _key(engine)) as client:
            # Refused by the tool's schema ...
            error = await _refusal(client, "search", {"query": "x", "k": "many"})
            assert (error["code"], error["status"]) == ("validation_error", 400) and "k" in error["details"]
            error = await _refusal(client, "search", {"query": "x", "mode": "fuzzy"})
            assert error["code"] == "validation_error" and "mode" in error["details"]
            error = await _refusal(client, "ingest", {"documents": [{"id": external_id, "txt": "typo"}]})
            assert error["code"] == "validation_error"
            error = await _refusal(client, "get_chunks", {"document_uuid": "x", "count": 0})
            assert error["code"] == "validation_error" and "count" in error["details"]
            # ... and by the API, with its own details.
            error = await _refusal(client, "search", {"query": "x", "k": 0})
            assert (error["code"], error["status"]) == ("validation_error", 400) and "k" in error["details"]
            error = await _refusal(client, "ingest", {"documents": [{"id": external_id}]})
            assert error["code"] == "validation_error"
            error = await _refusal(client, "ingest", {"documents": [
                {"id": external_id, "url": "https://127.0.0.1/x.pdf", "text": "both"}]})
            assert error["code"] == "validation_error"
            error = await _refusal(client, "get_document", {"document_uuid": "not-a-uuid"})
            assert error["code"] == "not_found"

    asyncio.run(scenario())
    assert _rows(engine, external_id) == 0
