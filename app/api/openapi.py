"""The API's OpenAPI 3 description, served at ``GET /openapi.json``.

Each view says what it is next to its route, with :func:`documented`: a summary, the
marshmallow schemas of its query arguments, body and responses (app/api/requests.py,
app/api/responses.py), and the error statuses it can answer.  :func:`build_spec` walks the
application's URL map, so a route without a description is noticed (the tests check every
route), and apispec's marshmallow plugin turns the same schemas that validate requests and
shape responses into the description.  Whether a route needs a key (and so may answer 401)
is read from its Blueprint, not stated again per view, and so are its rate limit's answers
(429, and the RateLimit fields on every response).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from operator import attrgetter
from typing import Any, NamedTuple, TypeVar

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Flask
from marshmallow import Schema

from app.api import responses
from app.api.auth import authenticate_request
from app.config import Config

View = TypeVar("View", bound=Callable[..., Any])


class Answer(NamedTuple):
    """One documented response: a marshmallow Schema class, a plain OpenAPI schema dict, or
    None for a body-less answer."""

    schema: type[Schema] | dict[str, Any] | None
    description: str
    content_type: str = "application/json"


_ATTRIBUTE = "openapi_operation"
_ERROR_REASONS = {400: "invalid request (every field error listed)", 401: "missing or unknown API key",
                  404: "not found (or another tenant's)", 409: "conflicts with the current state",
                  413: "over a size or count limit", 415: "content type the service cannot parse",
                  422: "the document failed to parse", 429: "over the API key's rate limit: retry after "
                  "Retry-After seconds; nothing was stored or queued", 503: "a dependency is unreachable"}
# What every response to an authenticated request carries while its key has a rate limit
# (app/api/rate_limiting.py), in the fields of draft-ietf-httpapi-ratelimit-headers.
_RATE_LIMIT_HEADERS = {
    "RateLimit-Policy": {"description": "the key's quota over its window, e.g. "
                                        "`\"default\";q=600;w=60`", "schema": {"type": "string"}},
    "RateLimit": {"description": "what is left of it, e.g. `\"default\";r=42;t=55`: r requests "
                                 "could be made at once now, and in t seconds the whole burst can",
                  "schema": {"type": "string"}},
}
_RETRY_AFTER_HEADER = {"Retry-After": {"description": "seconds until a request would be admitted",
                                       "schema": {"type": "integer", "minimum": 1}}}
# Described once, under components/headers, and referred to by name from each answer.
_HEADERS = {**_RATE_LIMIT_HEADERS, **_RETRY_AFTER_HEADER}
_PATH_PARAMETERS = {
    "job_id": ("the job's id", "uuid"),
    "document_uuid": ("the document row's id (from the job's document list)", "uuid"),
    "webhook_id": ("the webhook endpoint's id", "uuid"),
    "event_id": ("the event's id, as its webhook-id header gave it (evt_...)", None),
}
_RULE_ARGUMENT = re.compile(r"<(?:[^<>:]+:)?([^<>]+)>")
_CONFIG_FIELD = re.compile(r"\{([\w.]+)\}")


def documented(summary: str, *, responses: dict[int, Answer], errors: tuple[int, ...] = (),
               query: type[Schema] | None = None, body: dict[str, Any] | None = None,
               headers: list[dict[str, Any]] | None = None) -> Callable[[View], View]:
    """Describe a view.  ``summary`` may name settings (``{jobs.max_file_bytes}``);
    ``body`` maps a content type to a schema; ``errors`` are the statuses it refuses with
    (401 is added for routes that need a key)."""
    unknown = set(errors) - set(_ERROR_REASONS)
    if unknown:  # at import, not as a 500 on /openapi.json
        raise ValueError(f"no description for error statuses {sorted(unknown)}")

    def mark(view: View) -> View:
        setattr(view, _ATTRIBUTE, {"summary": summary, "responses": responses, "errors": errors,
                                   "query": query, "body": body, "headers": headers or []})
        return view

    return mark


def _content(schema: type[Schema] | dict[str, Any] | None, description: str,
             content_type: str = "application/json") -> dict[str, Any]:
    if schema is None:
        return {"description": description}
    return {"description": description, "content": {content_type: {"schema": schema}}}


def _operation(info: dict[str, Any], path_names: list[str], config: Config, keyed: bool) -> dict[str, Any]:
    parameters: list[dict[str, Any]] = []
    for name in path_names:
        what, fmt = _PATH_PARAMETERS.get(name, (name, None))
        parameters.append({"name": name, "in": "path", "required": True, "description": what,
                           "schema": {"type": "string", **({"format": fmt} if fmt else {})}})
    if info["query"] is not None:
        parameters.append({"in": "query", "schema": info["query"]})
    parameters.extend(info["headers"])
    answers: dict[str, Any] = {}
    for status, answer in info["responses"].items():
        answers[str(status)] = _content(answer.schema, answer.description, answer.content_type)
    for status in sorted({*info["errors"], *((401, 429) if keyed else ())}):
        answers[str(status)] = _content(responses.ErrorSchema, _ERROR_REASONS[status])
    if keyed:  # every answer but a refused key's is counted against the key
        for status, answer in answers.items():
            if status != "401":
                answer["headers"] = {name: name for name in [*_RATE_LIMIT_HEADERS, *(
                    _RETRY_AFTER_HEADER if status == "429" else ())]}
    summary = _CONFIG_FIELD.sub(lambda m: str(attrgetter(m.group(1))(config)), info["summary"])
    operation: dict[str, Any] = {"summary": summary, "responses": answers}
    if parameters:
        operation["parameters"] = parameters
    if info["body"] is not None:
        operation["requestBody"] = {"required": True, "content": {
            content_type: {"schema": schema} for content_type, schema in info["body"].items()}}
    if not keyed:
        operation["security"] = []
    return operation


def _needs_key(app: Flask, endpoint: str) -> bool:
    """Whether the endpoint's Blueprint authenticates every request (see app/api/auth.py)."""
    blueprint = endpoint.rpartition(".")[0]
    return authenticate_request in app.before_request_funcs.get(blueprint, [])


def build_spec(app: Flask, config: Config) -> dict[str, Any]:
    spec = APISpec(title="pagemill", version="1", openapi_version="3.0.3",
                   plugins=[MarshmallowPlugin()],
                   info={"description": "Durable document ingestion and hybrid search."})
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    for name, header in _HEADERS.items():
        spec.components.header(name, header)
    paths: dict[str, dict[str, Any]] = {}
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        info = getattr(app.view_functions[rule.endpoint], _ATTRIBUTE, None)
        if info is None:
            continue
        path = _RULE_ARGUMENT.sub(r"{\1}", rule.rule)
        names = _RULE_ARGUMENT.findall(rule.rule)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            paths.setdefault(path, {})[method.lower()] = _operation(info, names, config,
                                                                    _needs_key(app, rule.endpoint))
    for path, operations in paths.items():
        spec.path(path=path, operations=operations)
    out = spec.to_dict()
    out["security"] = [{"bearer": []}]
    return out


def upload_body(many: bool) -> dict[str, Any]:
    """A multipart body of one file, or of many (any field names; described as ``file``) with
    the job's ``options`` as JSON."""
    binary = {"type": "string", "format": "binary"}
    return {"type": "object", "required": ["file"],
            "properties": {"file": {"type": "array", "items": binary} if many else binary,
                           **({"options": {"type": "string", "description": "job options as JSON"}}
                              if many else {})}}
