"""The MCP server's pieces without a database: ``/mcp`` beside the API leaves every other path
to the API untouched and refuses a GET or a request without a key itself; the tools' schemas
name the API's own modes and states and describe every argument; an argument the schema
refuses is the API's ``validation_error`` (tests/test_mcp.py drives the whole server)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from werkzeug.test import Client

from app.api import create_app
from app.config import Config
from app.domain.jobs import DOCUMENT_STATES
from app.mcp.api_calls import ApiCaller, ApiRefusal
from app.mcp.http_endpoint import McpEndpoint
from app.mcp.tools import build_server
from indexing.search import MODES


@pytest.fixture
def api(tmp_path: Path) -> Any:
    return create_app(Config.from_env({"PAGEMILL_HOME": str(tmp_path)}))


def test_every_other_path_is_the_apis_answer_byte_for_byte(api) -> None:
    endpoint = Client(McpEndpoint(api))
    direct = Client(api)
    for method, path in (("GET", "/openapi.json"), ("GET", "/nowhere"), ("POST", "/mcp/extra"),
                         ("DELETE", "/openapi.json")):
        through, alone = endpoint.open(path, method=method), direct.open(path, method=method)
        assert (through.status_code, through.get_data()) == (alone.status_code, alone.get_data()), path
        assert through.headers.get("Content-Type") == alone.headers.get("Content-Type")


def test_mcp_refuses_a_get_and_a_request_without_a_bearer_before_the_sdk(api) -> None:
    endpoint = Client(McpEndpoint(api))
    got = endpoint.get("/mcp", headers={"Authorization": "Bearer pm_x_y"})
    assert got.status_code == 405 and got.headers["Allow"] == "POST"
    assert got.get_json()["error"]["code"] == "method_not_allowed"
    for headers in ({}, {"Authorization": "Basic abc"}, {"Authorization": "Bearer  "}):
        refused = endpoint.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                                headers=headers)
        assert refused.status_code == 401 and refused.headers["WWW-Authenticate"] == "Bearer"
        assert refused.get_json() == {"error": {"code": "unauthorized", "message": (
            "missing API key: send 'Authorization: Bearer <key>'")}}


def _tools(api: Any) -> dict[str, Any]:
    server = build_server(ApiCaller(api), lambda _ctx: {})
    return {tool.name: tool for tool in asyncio.run(server.list_tools())}


def test_the_tools_schemas_name_the_apis_modes_and_states_and_describe_every_argument(api) -> None:
    tools = _tools(api)
    assert set(tools) == {"search", "get_document", "get_chunks", "ingest", "job_status", "list_documents"}
    search = tools["search"].input_schema
    assert tuple(search["properties"]["mode"]["enum"]) == MODES
    states = tools["job_status"].input_schema["properties"]["document_status"]["anyOf"][0]["enum"]
    assert tuple(states) == DOCUMENT_STATES
    for name, tool in tools.items():
        assert "ctx" not in tool.input_schema["properties"], name
        for argument, schema in tool.input_schema["properties"].items():
            assert schema.get("description"), f"{name}.{argument} has no description"
    assert tools["search"].annotations.read_only_hint and not tools["ingest"].annotations.read_only_hint


@pytest.mark.parametrize(("tool", "arguments", "field"), [
    ("search", {"query": "x", "k": "many"}, "k"),
    ("search", {"k": 3}, "query"),
    ("ingest", {"documents": [{"id": "a", "txt": "typo"}]}, "documents.0.txt"),
    ("get_document", {"document_uuid": "u", "max_chars": 0}, "max_chars"),
])
def test_an_argument_the_schema_refuses_is_a_validation_error_by_field(api, tool, arguments, field) -> None:
    server = build_server(ApiCaller(api), lambda _ctx: {})
    result = asyncio.run(server.call_tool(tool, arguments))
    assert result.is_error
    error = json.loads(result.content[0].text)["error"]
    assert (error["code"], error["status"]) == ("validation_error", 400)
    assert field in error["details"], error
    assert result.structured_content == {"error": error}


def test_a_refusal_is_the_apis_error_body_with_its_status() -> None:
    refusal = ApiRefusal(429, "rate_limited", "slow down", {"retry_after": 3})
    assert refusal.body() == {"error": {"code": "rate_limited", "message": "slow down", "status": 429,
                                        "details": {"retry_after": 3}}}
    assert ApiRefusal(404, "not_found", "gone").body() == {"error": {"code": "not_found", "message": "gone",
                                                                     "status": 404}}
