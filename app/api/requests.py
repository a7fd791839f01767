"""What the API accepts, as marshmallow schemas: request bodies and query arguments (the
search body, shared with the CLI, is app/services/search_request.py's).

A 400 lists every field error at once; the same schemas describe the requests in
``/openapi.json`` (app/api/openapi.py), so the description cannot drift from what is accepted.
What no schema can check comes first, here too: JSON nested deeper than the limit is refused
before it is parsed (:class:`ApiJsonProvider`), and URL arguments PostgreSQL could not store
before any view reads them (:func:`refuse_unstorable_arguments`).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

import numpy as np
from flask import request
from flask.json.provider import DefaultJSONProvider
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
from app.domain.jobs import DOCUMENT_STATES, JOB_STATES
from app.domain.storable import JsonObject, Text, storable
from app.domain.usage import MAX_DAYS
from app.domain.webhooks import DELIVERY_STATES, EVENT_TYPES

# Pages further than this are refused (PostgreSQL's OFFSET is a bigint; nobody pages this far).
MAX_OFFSET = 1_000_000_000

# Where create_app puts config.api.max_json_depth for the JSON provider.
MAX_JSON_DEPTH = "PAGEMILL_MAX_JSON_DEPTH"

# The depth scan's view of each byte: opens +1, closes -1 (0xff as int8), quotes 2, else 0.
_QUOTE = 2
_STEP_OF = {ord("["): 1, ord("{"): 1, ord("]"): 0xFF, ord("}"): 0xFF, ord('"'): _QUOTE}
_STEPS = bytes(_STEP_OF.get(byte, 0) for byte in range(256))
# Bytes scanned per vector step: bounds the scan's memory whatever the body's size.
_SCAN_CHUNK = 1 << 22


def _utf8(raw: str | bytes) -> bytes:
    """The JSON text as UTF-8, where no byte of a multi-byte character is a quote or a bracket.
    ``json.loads`` also takes UTF-16 and UTF-32 bytes, whose characters can contain those
    bytes (U+2200 is ``00 22``): they are re-encoded so that the scan sees what it parses."""
    if isinstance(raw, str):
        return raw.encode("utf-8", "surrogatepass")
    encoding = json.detect_encoding(raw)
    if encoding.startswith("utf-8"):
        return raw
    return raw.decode(encoding, "surrogatepass").encode("utf-8", "surrogatepass")


def json_depth_exceeds(raw: str | bytes, limit: int) -> bool:
    """Whether JSON text nests arrays and objects more than ``limit`` deep, in one linear pass
    that never parses it (the standard library's parser recurses once per level: 10,000
    levels are a RecursionError, and orjson's limit is a fixed 1,024).

    Escaped backslashes, then escaped quotes, are dropped; every quote left opens or closes a
    string, so a bracket counts when an even number of quotes precede it.  Malformed text
    (unclosed strings or brackets) counts as deep as it could make the parser go before it
    fails, never less.  Vectorised with numpy, in chunks: about a second per 100 MB."""
    text = _utf8(raw).replace(b"\\\\", b"").replace(b'\\"', b"")
    if text.count(b"[") + text.count(b"{") <= limit:
        return False
    steps = np.frombuffer(text.translate(_STEPS), dtype=np.int8)
    depth = quotes = 0
    for start in range(0, len(steps), _SCAN_CHUNK):
        chunk = steps[start:start + _SCAN_CHUNK]
        marks = chunk[np.flatnonzero(chunk)]
        if not len(marks):
            continue
        is_quote = marks == _QUOTE
        seen = np.cumsum(is_quote, dtype=np.int64) + quotes
        walk = np.cumsum(np.where(((seen & 1) == 0) & ~is_quote, marks, 0), dtype=np.int64) + depth
        if int(walk.max()) > limit:
            return True
        depth, quotes = int(walk[-1]), int(seen[-1])
    return False


def parse_json(raw: str | bytes, max_depth: int, **kwargs: Any) -> Any:
    """``json.loads``, with nesting deeper than ``max_depth`` a 400 before parsing starts.
    Invalid JSON still raises ``ValueError``, as ``json.loads`` does."""
    too_deep = ApiError(400, "validation_error", f"JSON is nested deeper than {max_depth} levels",
                        {"max_depth": max_depth})
    if json_depth_exceeds(raw, max_depth):
        raise too_deep
    try:
        return json.loads(raw, **kwargs)
    except RecursionError as exc:  # a limit configured above what the interpreter's stack takes
        raise too_deep from exc


class ApiJsonProvider(DefaultJSONProvider):
    """How the API parses JSON, whoever asks (``request.get_json`` in any view, ``silent`` or
    not): with the nesting-depth limit checked first, as a 400."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return parse_json(s, self._app.config[MAX_JSON_DEPTH], **kwargs)


def refuse_unstorable_arguments() -> None:
    """Before every request: URL arguments (query, and path) holding a NUL character or an
    unpaired surrogate are a 400, whichever view reads them and whether or not its schema
    would look at them; such a string would otherwise reach PostgreSQL and fail there."""
    errors: dict[str, list[str]] = {}
    arguments = [*request.args.lists(), *((name, [value]) for name, value in
                                          (request.view_args or {}).items() if isinstance(value, str))]
    for name, values in arguments:
        try:
            storable(name)
            storable(values)
        except ValidationError as exc:
            errors[name] = list(exc.messages)
    if errors:
        raise ApiError(400, "validation_error", "invalid URL arguments", errors)


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
        # One pass (a Counter): counting each id in the list is quadratic in its length.
        counts = Counter(d["id"] for d in data.get("documents", []))
        repeated = sorted(i for i, n in counts.items() if n > 1)
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


class ChunkWindowQuery(Schema):
    """``?start=&count=`` or ``?around=&count=`` of a document's chunks; unknown query
    arguments are ignored."""

    class Meta:
        unknown = EXCLUDE

    start = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_OFFSET),
                           metadata={"description": "position of the first chunk (0-based)"})
    count = fields.Integer(load_default=10, validate=validate.Range(min=1, max=100),
                           metadata={"description": "how many chunks"})
    around = fields.Integer(load_default=None, validate=validate.Range(min=1),
                            metadata={"description": "a chunk id (a search hit's chunk_id): the "
                                                     "window is centred on it, start is ignored"})


@dataclass(frozen=True)
class IndexedPage:
    """One page of the indexed documents, as the query asked for it."""

    limit: int
    after: str | None = None
    prefix: str | None = None
    mime_type: str | None = None


class IndexedPageQuery(Schema):
    """``?limit=&after=&prefix=&mime_type=`` of ``GET /v1/documents``: a keyset page (``after``
    the last id of the page before), not an offset, so that a large index pages at one cost."""

    class Meta:
        unknown = EXCLUDE

    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500))
    after = Text(validate=validate.Length(min=1, max=1024), metadata={
        "description": "the last document_id of the page before (its next_after)"})
    prefix = Text(validate=validate.Length(min=1, max=1024), metadata={
        "description": "only document ids starting with this"})
    mime_type = Text(validate=validate.Length(min=1, max=255))

    @post_load
    def page(self, data: dict[str, Any], **_: object) -> IndexedPage:
        return IndexedPage(**data)


class MarkdownWindowQuery(Schema):
    """``?offset=&max_chars=`` of a document's Markdown; unknown query arguments are ignored."""

    class Meta:
        unknown = EXCLUDE

    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_OFFSET),
                            metadata={"description": "first character (0-based)"})
    max_chars = fields.Integer(load_default=20_000, validate=validate.Range(min=1, max=1_000_000),
                               metadata={"description": "most characters to return"})


class WebhookRequestSchema(Schema):
    """A webhook endpoint to create: where to POST, and which events."""

    url = Text(required=True, validate=validate.Length(min=1, max=2048))
    events = fields.List(fields.String(validate=validate.OneOf(EVENT_TYPES)), required=True,
                         validate=validate.Length(min=1, max=len(EVENT_TYPES)))
    description = Text(validate=validate.Length(max=1024))


class WebhookDeliveryPageQuery(PageQuery):
    status = fields.String(validate=validate.OneOf(DELIVERY_STATES))


class JobPageQuery(PageQuery):
    status = fields.String(validate=validate.OneOf(JOB_STATES))


class DocumentPageQuery(PageQuery):
    status = fields.String(validate=validate.OneOf(DOCUMENT_STATES))


# Up to the last day whose next day a date can still hold (a range ends at its next midnight).
_USAGE_DAY = validate.Range(max=date.max - timedelta(days=1))


@dataclass(frozen=True)
class DayRange:
    """UTC days from ``first`` to ``last``, both included."""

    first: date
    last: date


class UsageQuery(Schema):
    """``?from=YYYY-MM-DD&to=YYYY-MM-DD`` of GET /v1/usage: UTC days, both included, at most
    MAX_DAYS of them; unknown query arguments are ignored."""

    class Meta:
        unknown = EXCLUDE

    first = fields.Date(data_key="from", required=True, format="%Y-%m-%d", validate=_USAGE_DAY,
                        metadata={"description": "the first UTC day, YYYY-MM-DD"})
    last = fields.Date(data_key="to", required=True, format="%Y-%m-%d", validate=_USAGE_DAY,
                       metadata={"description": f"the last UTC day, YYYY-MM-DD, included: from and "
                                                f"to span at most {MAX_DAYS} days"})

    @validates_schema
    def ordered_and_bounded(self, data: dict[str, Any], **_: object) -> None:
        first, last = data.get("first"), data.get("last")
        if first is None or last is None:
            return
        if last < first:
            raise ValidationError("must not be before from", "to")
        if (last - first).days + 1 > MAX_DAYS:
            raise ValidationError(f"a range is at most {MAX_DAYS} days", "to")

    @post_load
    def day_range(self, data: dict[str, Any], **_: object) -> DayRange:
        return DayRange(**data)


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
