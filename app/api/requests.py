"""What the API accepts, as marshmallow schemas: request bodies and query arguments (the
search body, shared with the CLI, is app/search_request.py's).

A 400 lists every field error at once; the same schemas describe the requests in
``/openapi.json`` (app/api/openapi.py), so the description cannot drift from what is accepted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import request
from marshmallow import (
    EXCLUDE,
    Schema,
    ValidationError,
    fields,
    post_load,
    pre_load,
    validate,
    validates_schema,
)

from app.api.errors import ApiError
from app.jobs import DOCUMENT_STATES, JOB_STATES
from app.storable import JsonObject, Text

# Pages further than this are refused (PostgreSQL's OFFSET is a bigint; nobody pages this far).
MAX_OFFSET = 1_000_000_000

class TextRecordSchema(Schema):
    """A document in a JSON job: a text record (``text``) or a URL to fetch (``url``)."""

    id = Text(required=True, validate=validate.Length(min=1, max=512))
    title = Text(load_default="", validate=validate.Length(max=4096))
    text = Text()
    url = Text(validate=validate.Length(min=1, max=4096))
    # A direct upload's key, as POST /v1/uploads returned it.
    object_key = fields.String(validate=validate.Regexp(r"^uploads/[0-9a-f]{32}$",
                                                        error="not a key from POST /v1/uploads"))
    metadata = JsonObject(keys=fields.String(), load_default=dict)

    @validates_schema
    def one_source(self, data: dict[str, Any], **_: object) -> None:
        if sum(key in data for key in ("text", "url", "object_key")) != 1:
            raise ValidationError("give exactly one of text, url or object_key", "text")


def _json_schema(value: dict[str, Any]) -> None:
    import jsonschema

    try:
        jsonschema.Draft202012Validator.check_schema(value)
    except jsonschema.SchemaError as exc:
        raise ValidationError(f"not a valid JSON schema: {exc.message}") from exc


class JobOptionsSchema(Schema):
    """Per-job options; unknown keys are an error, not silently ignored."""

    # Remote batch OCR for every document of the job (tasks/provider.py).
    provider = fields.String(validate=validate.OneOf(["mistral-batch"]))
    # JSON schema of a structured annotation the provider extracts per document.
    annotation_schema = JsonObject(validate=_json_schema)
    # Opens encrypted PDFs and Office files.
    password = Text(validate=validate.Length(min=1, max=1024))

    @validates_schema
    def annotation_needs_provider(self, data: dict[str, Any], **_: object) -> None:
        if "annotation_schema" in data and "provider" not in data:
            raise ValidationError("annotation_schema needs a provider", "annotation_schema")


class JobRequestSchema(Schema):
    documents = fields.List(fields.Nested(TextRecordSchema), required=True,
                            validate=validate.Length(min=1))
    options = fields.Nested(JobOptionsSchema, load_default=dict)

    @validates_schema
    def unique_ids(self, data: dict[str, Any], **_: object) -> None:
        ids = [d["id"] for d in data.get("documents", [])]
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        if repeated:
            raise ValidationError(f"document ids must be unique; repeated: {repeated[:10]}",
                                  "documents")


@dataclass(frozen=True)
class Page:
    """One page of a listing, as the query asked for it."""

    limit: int
    offset: int
    status: str | None = None

    def next_offset(self, rows: int) -> int | None:
        """Where the next page starts; ``None`` when this one was not full (the last)."""
        return self.offset + self.limit if rows == self.limit else None


class PageQuery(Schema):
    """``?limit=&offset=`` of a listing; unknown query arguments are ignored, as is usual."""

    class Meta:
        unknown = EXCLUDE

    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_OFFSET))

    @pre_load
    def blank_status_is_no_filter(self, data: Any, **_: object) -> Any:
        if isinstance(data, dict) and data.get("status") == "":
            data = {k: v for k, v in data.items() if k != "status"}
        return data

    @post_load
    def page(self, data: dict[str, Any], **_: object) -> Page:
        return Page(**data)


class JobPageQuery(PageQuery):
    status = fields.String(validate=validate.OneOf(JOB_STATES))


class DocumentPageQuery(PageQuery):
    status = fields.String(validate=validate.OneOf(DOCUMENT_STATES))


def load_query(schema: Schema) -> Any:
    """The request's query arguments through ``schema``; a 400 lists what is wrong."""
    try:
        return schema.load(request.args.to_dict())
    except ValidationError as exc:
        raise ApiError(400, "validation_error", "invalid query arguments", exc.messages) from exc


def load_json(schema: Schema, payload: Any) -> Any:
    """A JSON body through ``schema``; a 400 lists every field error at once."""
    try:
        return schema.load(payload)
    except ValidationError as exc:
        raise ApiError(400, "validation_error", "invalid request", exc.messages) from exc
