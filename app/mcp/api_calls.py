"""The MCP tools' only way to pagemill: one request to the REST API's own Flask application, in
this process, as a WSGI call carrying the caller's ``Authorization`` header.  Authentication,
tenancy, the key's rate limit, request-size limits, validation, usage and the request's log
line are therefore the API's own, not a copy of them: an agent gets exactly what its key could
get over REST, and a refusal comes back with the API's status and error code."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError
from werkzeug.test import Client

from app.infra.request_ids import HEADER as REQUEST_ID_HEADER

#: The headers of an MCP request that go on to the API call it makes: the credential, and the
#: request id so that the API's log line and the jobs it creates carry the caller's.
FORWARDED_HEADERS = ("Authorization", REQUEST_ID_HEADER)


class ApiRefusal(ToolError):
    """The API refused a tool's request: its HTTP status and ``{"error": {...}}`` body.  A
    ``ToolError``, so that the SDK reports it to the agent as a tool error (``is_error``)
    instead of a crash."""

    def __init__(self, status: int, code: str, message: str, details: Any = None) -> None:
        super().__init__(f"{code}: {message}")
        self.status, self.code, self.message, self.details = status, code, message, details

    def body(self) -> dict[str, Any]:
        """The API's error body, with the HTTP status beside the code."""
        error: dict[str, Any] = {"code": self.code, "message": self.message, "status": self.status}
        if self.details is not None:
            error["details"] = self.details
        return {"error": error}


class ApiCaller:
    """Calls the API application ``app`` (any WSGI callable: the Flask app ``create_app``
    makes) in this process.  Thread-safe: each call has a client of its own."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def call(self, method: str, path: str, headers: Mapping[str, str], *, body: Any = None,
             query: Mapping[str, Any] | None = None) -> Any:
        """The JSON the API answered (``None`` for an empty body); a 4xx or 5xx raises
        :class:`ApiRefusal` with the API's code."""
        client = Client(self.app, use_cookies=False)
        sent = {name: value for name, value in headers.items() if value}
        response = client.open(path, method=method, headers=sent, query_string=dict(query or {}),
                               data=None if body is None else json.dumps(body),
                               content_type=None if body is None else "application/json")
        try:
            data = response.get_data()
        finally:
            response.close()
        parsed = json.loads(data) if data else None
        if response.status_code >= 400:
            error = parsed.get("error") if isinstance(parsed, dict) else None
            if not isinstance(error, dict):
                raise ApiRefusal(response.status_code, "error", data.decode("utf-8", "replace")[:500])
            raise ApiRefusal(response.status_code, str(error.get("code")), str(error.get("message")),
                             error.get("details"))
        return parsed
