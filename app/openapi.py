"""The API's OpenAPI 3 description, served at ``GET /openapi.json``.

Request bodies come from the marshmallow schemas that validate them (apispec's marshmallow
plugin), so the description cannot drift from what the API accepts; tests check that every
route is described and run Schemathesis against the result.
"""

from __future__ import annotations

from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from app.config import Config
from app.schemas import JobRequestSchema, SearchRequestSchema

JOB_STATUSES = ["queued", "running", "completed", "completed_with_errors", "failed", "cancelled"]
DOCUMENT_STATUSES = ["pending", "processing", "waiting", "completed", "failed", "cancelled"]

_ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {"error": {
        "type": "object",
        "required": ["code", "message"],
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}, "details": {}},
    }},
}

_JOB = {
    "type": "object",
    "required": ["id", "status", "total_documents", "completed_documents", "failed_documents"],
    "properties": {
        "id": {"type": "string", "format": "uuid"},
        "status": {"type": "string", "enum": JOB_STATUSES},
        "total_documents": {"type": "integer"},
        "completed_documents": {"type": "integer"},
        "failed_documents": {"type": "integer"},
        "cancelled_documents": {"type": "integer"},
        "processing_documents": {"type": "integer"},
        "pending_documents": {"type": "integer"},
        "total_batches": {"type": "integer"},
        "done_batches": {"type": "integer"},
        "options": {"type": "object"},
    },
}

_DOCUMENT = {
    "type": "object",
    "required": ["id", "job_id", "document_id", "status"],
    "properties": {
        "id": {"type": "string", "format": "uuid"},
        "job_id": {"type": "string", "format": "uuid"},
        "document_id": {"type": "string"},
        "status": {"type": "string", "enum": DOCUMENT_STATUSES},
        "error_code": {"type": "string", "nullable": True},
        "error_message": {"type": "string", "nullable": True},
        "extractor": {"type": "string", "nullable": True},
        "quality": {"type": "number", "nullable": True},
        "markdown": {"type": "string", "nullable": True},
        "chunks": {"type": "array", "items": {"type": "object"}},
        "parent_id": {"type": "string", "format": "uuid", "nullable": True},
        "attachments": {"type": "array", "items": {"type": "object"}},
    },
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any] | str, description: str) -> dict[str, Any]:
    body = _ref(schema) if isinstance(schema, str) else schema
    return {"description": description, "content": {"application/json": {"schema": body}}}


def _errors(*statuses: int) -> dict[str, Any]:
    reasons = {400: "invalid request (every field error listed)", 401: "missing or unknown API key",
               404: "not found (or another tenant's)", 409: "conflicts with the current state",
               413: "over a size or count limit", 415: "content type the service cannot parse",
               422: "the document failed to parse"}
    return {str(s): _json("Error", reasons[s]) for s in statuses}


def _path_id(name: str, what: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": what,
            "schema": {"type": "string", "format": "uuid"}}


def _paging(statuses: list[str]) -> list[dict[str, Any]]:
    return [
        {"name": "status", "in": "query", "schema": {"type": "string", "enum": statuses}},
        {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 500,
                                                    "default": 50}},
        {"name": "offset", "in": "query",
         "schema": {"type": "integer", "minimum": 0, "maximum": 1_000_000_000, "default": 0}},
    ]


def _upload_body(many: bool) -> dict[str, Any]:
    binary = {"type": "string", "format": "binary"}
    return {"type": "object", "required": ["file"],
            "properties": {"file": {"type": "array", "items": binary} if many else binary,
                           **({"options": {"type": "string", "description": "job options as JSON"}}
                              if many else {})}}


def build_spec(config: Config) -> dict[str, Any]:
    spec = APISpec(title="pagemill", version="1", openapi_version="3.0.3",
                   plugins=[MarshmallowPlugin()],
                   info={"description": "Durable document ingestion and hybrid search."})
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    spec.components.schema("JobRequest", schema=JobRequestSchema)
    spec.components.schema("SearchRequest", schema=SearchRequestSchema)
    for name, schema in (("Error", _ERROR), ("Job", _JOB), ("Document", _DOCUMENT)):
        spec.components.schema(name, schema)
    job_id = _path_id("job_id", "the job's id")
    document_uuid = _path_id("document_uuid", "the document row's id (from the job's document list)")
    spec.path("/healthz", operations={"get": {
        "summary": "Liveness and database reachability", "security": [],
        "responses": {"200": _json({"type": "object"}, "healthy"),
                      "503": _json("Error", "database unreachable")}}})
    spec.path("/v1/jobs", operations={
        "post": {
            "summary": f"Submit 1-{config.max_documents_per_job} documents",
            "parameters": [{"name": "Idempotency-Key", "in": "header",
                            "schema": {"type": "string", "maxLength": 255}}],
            "requestBody": {"required": True, "content": {
                "application/json": {"schema": _ref("JobRequest")},
                "multipart/form-data": {"schema": _upload_body(many=True)}}},
            "responses": {"202": _json("Job", "accepted"),
                          "200": _json("Job", "replay of an earlier request"),
                          **_errors(400, 401, 409, 413, 415)}},
        "get": {"summary": "The caller's jobs, newest first", "parameters": _paging(JOB_STATUSES),
                "responses": {"200": _json({"type": "object", "required": ["jobs"], "properties": {
                    "jobs": {"type": "array", "items": _ref("Job")},
                    "next_offset": {"type": "integer", "nullable": True}}}, "a page of jobs"),
                    **_errors(400, 401)}},
    })
    spec.path("/v1/jobs/{job_id}", operations={"get": {
        "summary": "A job's status and progress", "parameters": [job_id],
        "responses": {"200": _json("Job", "the job"), **_errors(401, 404)}}})
    spec.path("/v1/jobs/{job_id}/documents", operations={"get": {
        "summary": "A job's documents and their outcomes",
        "parameters": [job_id, *_paging(DOCUMENT_STATUSES)],
        "responses": {"200": _json({"type": "object", "required": ["documents"], "properties": {
            "documents": {"type": "array", "items": _ref("Document")},
            "next_offset": {"type": "integer", "nullable": True}}}, "a page of documents"),
            **_errors(400, 401, 404)}}})
    spec.path("/v1/jobs/{job_id}/events", operations={"get": {
        "summary": "Progress as Server-Sent Events until the job ends", "parameters": [job_id],
        "responses": {"200": {"description": "event stream",
                              "content": {"text/event-stream": {"schema": {"type": "string"}}}},
                      **_errors(401, 404)}}})
    spec.path("/v1/jobs/{job_id}/cancel", operations={"post": {
        "summary": "Cancel every unfinished document", "parameters": [job_id],
        "responses": {"200": _json("Job", "the job after cancelling"), **_errors(401, 404)}}})
    spec.path("/v1/jobs/{job_id}/retry", operations={"post": {
        "summary": "Re-run the failed documents", "parameters": [job_id],
        "responses": {"202": _json("Job", "re-queued"), **_errors(401, 404, 409)}}})
    spec.path("/v1/documents/{document_uuid}", operations={
        "get": {"summary": "Markdown, chunks, extractor, quality and attempts", "parameters": [document_uuid],
                "responses": {"200": _json("Document", "the document"), **_errors(401, 404)}},
        "delete": {"summary": "Delete a document with its chunks, postings and bytes",
                   "parameters": [document_uuid],
                   "responses": {"204": {"description": "deleted"}, **_errors(401, 404)}},
    })
    spec.path("/v1/parse", operations={"post": {
        "summary": (f"Parse one small document now (up to {config.parse_max_pages} pages, "
                    f"{config.parse_max_bytes} bytes)"),
        "requestBody": {"required": True,
                        "content": {"multipart/form-data": {"schema": _upload_body(many=False)}}},
        "responses": {"200": _json({"type": "object", "required": ["job_id", "document"], "properties": {
            "job_id": {"type": "string", "format": "uuid"}, "document": _ref("Document")}}, "parsed"),
            "202": _json({"type": "object", "required": ["job_id"]}, "not done within the deadline"),
            **_errors(400, 401, 413, 415, 422)}}})
    spec.path("/v1/uploads", operations={"post": {
        "summary": "A presigned URL for one direct upload to object storage",
        "responses": {"201": _json({"type": "object", "required": ["object_key", "upload_url"]},
                                   "where to PUT the bytes"), **_errors(401, 409)}}})
    spec.path("/v1/search", operations={"post": {
        "summary": "Hybrid, BM25 or dense search over the caller's documents",
        "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("SearchRequest")}}},
        "responses": {"200": _json({"type": "object", "required": ["results"], "properties": {
            "results": {"type": "array", "items": {"type": "object"}}}}, "ranked results"),
            **_errors(400, 401)}}})
    out = spec.to_dict()
    out["security"] = [{"bearer": []}]
    return out
