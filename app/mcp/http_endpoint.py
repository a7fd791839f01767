"""``/mcp`` beside the API in the same WSGI application (gunicorn's threads, ``pagemill serve``):
MCP's Streamable HTTP transport, stateless and answering JSON.

The SDK's transport is an ASGI application; :class:`McpEndpoint` serves it through a2wsgi's
ASGI-to-WSGI adapter on one event loop per API process (a thread, started on the first MCP
request, so never before gunicorn forks), where the SDK's session manager runs.  Stateless
mode keeps nothing between requests, so any process of any machine answers any request, and
each POST is answered in its own response (``json_response``): no stream holds a thread.  A
GET (the optional server-to-client stream) is a 405, as the transport allows.

Every request needs ``Authorization: Bearer <key>``: a missing or unknown key is a 401 in the
API's error body before the SDK sees the request.  The tools then call the API with that same
header (app/mcp/api_calls.py), where the key's rate limit, tenancy and limits apply as to any
REST request.  Every other path goes to the API application untouched.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterable
from typing import Any, cast

from a2wsgi import ASGIMiddleware
from mcp.server.transport_security import TransportSecuritySettings
from werkzeug.wrappers import Request, Response

from app.api.auth import INVALID_KEY, MISSING_KEY, bearer_key
from app.api.context import EXTENSION
from app.api.errors import error_body
from app.domain.auth import authenticate
from app.mcp.api_calls import FORWARDED_HEADERS, ApiCaller
from app.mcp.tools import build_server

PATH = "/mcp"
# Room for the JSON-RPC envelope around the largest request body the API itself accepts.
_ENVELOPE_BYTES = 64 * 1024


def forwarded_headers(ctx: Any) -> dict[str, str]:
    """The headers of the MCP request the tool's API call repeats (its bearer, its request id)."""
    headers = ctx.headers or {}
    return {name: headers.get(name.lower(), "") for name in FORWARDED_HEADERS}


class McpEndpoint:
    """A WSGI application: ``POST /mcp`` to the MCP server, every other path to ``api``."""

    def __init__(self, api: Any) -> None:
        self.api = api
        self.runtime = api.extensions[EXTENSION]
        self.server = build_server(ApiCaller(api), forwarded_headers)
        # DNS-rebinding protection (Host/Origin allow-lists) is for servers a browser page can
        # reach with ambient credentials; here every request needs a bearer key that such a
        # page does not have, and the Host is whatever the deployment's proxy says.
        self.asgi = self.server.streamable_http_app(
            streamable_http_path=PATH, stateless_http=True, json_response=True,
            max_request_body_size=self.runtime.config.api.max_request_bytes + _ENVELOPE_BYTES,
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False))
        self._adapter: ASGIMiddleware | None = None
        self._starting = threading.Lock()

    def __call__(self, environ: Any, start_response: Any) -> Iterable[bytes]:
        if environ.get("PATH_INFO") != PATH:
            answer: Iterable[bytes] = self.api(environ, start_response)
            return answer
        refusal = self._refusal(Request(environ))
        if refusal is not None:
            return refusal(environ, start_response)
        return self._started()(environ, start_response)

    def _refusal(self, request: Request) -> Response | None:
        if request.method != "POST":
            return _error(405, "method_not_allowed", "MCP over Streamable HTTP: POST JSON-RPC messages "
                          "to /mcp (this server opens no GET stream)", {"Allow": "POST"})
        key = bearer_key(request.headers.get("Authorization", ""))
        if key is None:
            return _error(401, "unauthorized", MISSING_KEY, {"WWW-Authenticate": "Bearer"})
        with self.runtime.engine.begin() as conn:
            principal = authenticate(conn, key)
        if principal is None:
            return _error(401, "unauthorized", INVALID_KEY, {"WWW-Authenticate": "Bearer"})
        return None

    def _started(self) -> ASGIMiddleware:
        """The adapter, its event loop running the SDK's session manager (first call only)."""
        with self._starting:
            if self._adapter is None:
                loop = asyncio.new_event_loop()
                running = threading.Event()

                async def serve() -> None:
                    async with self.server.session_manager.run():
                        running.set()
                        await asyncio.Event().wait()  # for the life of the process

                threading.Thread(target=loop.run_until_complete, args=(serve(),), name="pagemill-mcp",
                                 daemon=True).start()
                if not running.wait(30):
                    raise RuntimeError("the MCP session manager did not start within 30 s")
                # Starlette's ASGI types are looser than a2wsgi's: the same protocol.
                self._adapter = ASGIMiddleware(cast(Any, self.asgi), loop=loop)
            return self._adapter


def _error(status: int, code: str, message: str, headers: dict[str, str]) -> Response:
    return Response(json.dumps(error_body(code, message)), status, headers=headers,
                    mimetype="application/json")
