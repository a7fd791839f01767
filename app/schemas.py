"""Request validation (marshmallow): a 400 lists every field error at once."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

_UNSTORABLE = "text cannot contain NUL characters or unpaired surrogates"


def storable(value: Any) -> None:
    """PostgreSQL text and jsonb hold neither U+0000 nor unpaired surrogates (which are not
    UTF-8): refuse them in any string, key or nested value, rather than fail at the insert."""
    if isinstance(value, str):
        if "\x00" in value:
            raise ValidationError(_UNSTORABLE)
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ValidationError(_UNSTORABLE) from exc
    elif isinstance(value, dict):
        for key, item in value.items():
            storable(key)
            storable(item)
    elif isinstance(value, list):
        for item in value:
            storable(item)


class Text(fields.String):
    """A string PostgreSQL can store."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        storable(text)
        return text


class JsonObject(fields.Dict):
    """A JSON object PostgreSQL's jsonb can store."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> dict:
        out = super()._deserialize(value, attr, data, **kwargs)
        storable(out)
        return out


class Instant(fields.AwareDateTime):
    """An aware timestamp, in UTC, within what PostgreSQL's timestamptz accepts (its zone
    offsets stop at 15:59)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> datetime:
        moment = super()._deserialize(value, attr, data, **kwargs)
        offset = moment.utcoffset()
        if offset is not None and abs(offset.total_seconds()) >= 16 * 3600:
            raise ValidationError("time zone offset out of range (at most 15:59)")
        try:
            return moment.astimezone(UTC)
        except OverflowError as exc:
            raise ValidationError("date out of range") from exc


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
    def one_source(self, data: dict, **_: object) -> None:
        if sum(key in data for key in ("text", "url", "object_key")) != 1:
            raise ValidationError("give exactly one of text, url or object_key", "text")


def _json_schema(value: dict) -> None:
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
    def annotation_needs_provider(self, data: dict, **_: object) -> None:
        if "annotation_schema" in data and "provider" not in data:
            raise ValidationError("annotation_schema needs a provider", "annotation_schema")


class JobRequestSchema(Schema):
    documents = fields.List(fields.Nested(TextRecordSchema), required=True,
                            validate=validate.Length(min=1))
    options = fields.Nested(JobOptionsSchema, load_default=dict)

    @validates_schema
    def unique_ids(self, data: dict, **_: object) -> None:
        ids = [d["id"] for d in data.get("documents", [])]
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        if repeated:
            raise ValidationError(f"document ids must be unique; repeated: {repeated[:10]}",
                                  "documents")


class SearchFiltersSchema(Schema):
    document_ids = fields.List(Text(), validate=validate.Length(min=1, max=1000))
    job_id = fields.UUID()
    metadata = JsonObject(keys=fields.String())
    mime_types = fields.List(Text(), validate=validate.Length(min=1, max=50))
    indexed_after = Instant(default_timezone=None)
    indexed_before = Instant(default_timezone=None)


class SearchRequestSchema(Schema):
    query = Text(required=True, validate=validate.Length(min=1, max=4096))
    k = fields.Integer(load_default=10, validate=validate.Range(min=1, max=200))
    mode = fields.String(load_default="hybrid",
                         validate=validate.OneOf(["hybrid", "bm25", "dense"]))
    collapse = fields.Boolean(load_default=True)
    filters = fields.Nested(SearchFiltersSchema, load_default=dict)
    # Unset: the server's configuration (PAGEMILL_FUSION, PAGEMILL_ALPHA).
    fusion = fields.String(validate=validate.OneOf(["rrf", "weighted"]))
    alpha = fields.Float(validate=validate.Range(min=0.0, max=1.0))
    ef_search = fields.Integer(validate=validate.Range(min=1, max=1000))
    # Unset: PAGEMILL_BM25_EXACT.  False lets BM25 stop after its last round of early
    # termination with the best candidates found (each exactly scored) instead of reading
    # on until the ranking is proven; the response's bm25_path says 'budget' when it did.
    bm25_exact = fields.Boolean()
