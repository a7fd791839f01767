"""Errors as the API answers them: an HTTP status and ``{"error": {"code", "message",
"details"?}}``, for the API's own refusals and for everything werkzeug raises (404, 405, 413,
431, ...), so that no client ever has to parse an HTML error page."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, current_app, jsonify
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge


class ApiError(Exception):
    """A refusal with its status, a stable machine-readable ``code`` and a message."""

    def __init__(self, status: int, code: str, message: str, details: Any = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, details


def error_response(status: int, code: str, message: str, details: Any = None) -> Response:
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    response = jsonify({"error": body})
    response.status_code = status
    return response


def _api_error(exc: ApiError) -> Response:
    return error_response(exc.status, exc.code, exc.message, exc.details)


def _request_too_large(_: RequestEntityTooLarge) -> Response:
    return error_response(413, "request_too_large",
                          f"request exceeds {current_app.config['MAX_CONTENT_LENGTH']} bytes")


def _http_error(exc: HTTPException) -> Response:
    code = (exc.name or "error").lower().replace(" ", "_")
    response = error_response(exc.code or 500, code, exc.description or exc.name)
    # What the exception says beyond its body (Allow on a 405, WWW-Authenticate, ...).
    for name, value in exc.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value
    return response


def register_error_handlers(app: Flask) -> None:
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(RequestEntityTooLarge, _request_too_large)
    app.register_error_handler(HTTPException, _http_error)
