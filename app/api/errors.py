"""Errors as the API answers them: an HTTP status and ``{"error": {"code", "message",
"details"?}}``, for the API's own refusals and for everything werkzeug raises (404, 405, 413,
431, ...), so that no client ever has to parse an HTML error page.  That includes what the
server refuses before Flask sees a request (a request line over 64 KiB, too many or too long
headers, a malformed request line): :class:`JsonErrorRequestHandler` answers those for the
development server ``pagemill serve`` runs."""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any

from flask import Flask, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge, default_exceptions
from werkzeug.serving import WSGIRequestHandler


class ApiError(Exception):
    """A refusal with its status, a stable machine-readable ``code`` and a message."""

    def __init__(self, status: int, code: str, message: str, details: Any = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, details


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    return {"error": body}


def http_error_code(name: str | None) -> str:
    """The ``code`` of an HTTP-level refusal: its name in snake case
    (``Request Header Fields Too Large`` -> ``request_header_fields_too_large``)."""
    return (name or "error").lower().replace(" ", "_")


def status_name(status: int) -> str:
    """Werkzeug's name for a status (the one its exception would carry), else the standard
    reason phrase."""
    known = default_exceptions.get(status)
    return known().name if known is not None else HTTPStatus(status).phrase


def error_response(status: int, code: str, message: str, details: Any = None) -> Response:
    response = jsonify(error_body(code, message, details))
    response.status_code = status
    return response


def _api_error(exc: ApiError) -> Response:
    return error_response(exc.status, exc.code, exc.message, exc.details)


def _request_too_large(_: RequestEntityTooLarge) -> Response:
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    if limit is not None and request.content_length is not None and request.content_length <= limit:
        # Werkzeug raises the same exception for a multipart form over its own limits.
        return error_response(413, "request_too_large", "a multipart form field or the number "
                              "of form parts is over its limit")
    return error_response(413, "request_too_large", f"request exceeds {limit} bytes")


def _http_error(exc: HTTPException) -> Response:
    response = error_response(exc.code or 500, http_error_code(exc.name), exc.description or exc.name)
    # What the exception says beyond its body (Allow on a 405, WWW-Authenticate, ...).
    for name, value in exc.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value
    return response


def register_error_handlers(app: Flask) -> None:
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(RequestEntityTooLarge, _request_too_large)
    app.register_error_handler(HTTPException, _http_error)


class JsonErrorRequestHandler(WSGIRequestHandler):
    """The development server's request handler, with the refusals it makes itself, before
    the application is called, in the API's JSON error body instead of http.server's HTML
    page: 414 (request line over 64 KiB), 431 (over 100 headers, or a header line over
    64 KiB), 400 (malformed request line), 505 (unknown HTTP version)."""

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        self.log_error("code %d, message %s", code, message)
        detail = ": ".join(part for part in (message, explain) if part) or self.responses.get(
            code, ("", HTTPStatus(code).phrase))[1]
        body = json.dumps(error_body(http_error_code(status_name(code)), detail)).encode()
        if self.request_version == "HTTP/0.9":
            # http.server's default until a request line has been understood, under which it
            # would send the body alone; a client that sent a malformed line gets a status too.
            self.request_version = "HTTP/1.0"
        # The standard reason phrase, never the message: it can quote the request line.
        self.send_response(code)
        self.send_header("Connection", "close")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
