"""Request validation (marshmallow): a 400 lists every field error at once."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema


class TextRecordSchema(Schema):
    """A document in a JSON job: a text record (``text``) or a URL to fetch (``url``)."""

    id = fields.String(required=True, validate=validate.Length(min=1, max=512))
    title = fields.String(load_default="", validate=validate.Length(max=4096))
    text = fields.String()
    url = fields.String(validate=validate.Length(min=1, max=4096))
    # A direct upload's key, as POST /v1/uploads returned it.
    object_key = fields.String(validate=validate.Regexp(r"^uploads/[0-9a-f]{32}$",
                                                        error="not a key from POST /v1/uploads"))
    metadata = fields.Dict(keys=fields.String(), load_default=dict)

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
    annotation_schema = fields.Dict(validate=_json_schema)
    # Opens encrypted PDFs and Office files.
    password = fields.String(validate=validate.Length(min=1, max=1024))

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
    document_ids = fields.List(fields.String(), validate=validate.Length(min=1, max=1000))
    job_id = fields.UUID()
    metadata = fields.Dict(keys=fields.String())
    mime_types = fields.List(fields.String(), validate=validate.Length(min=1, max=50))
    indexed_after = fields.AwareDateTime(default_timezone=None)
    indexed_before = fields.AwareDateTime(default_timezone=None)


class SearchRequestSchema(Schema):
    query = fields.String(required=True, validate=validate.Length(min=1, max=4096))
    k = fields.Integer(load_default=10, validate=validate.Range(min=1, max=200))
    mode = fields.String(load_default="hybrid",
                         validate=validate.OneOf(["hybrid", "bm25", "dense"]))
    collapse = fields.Boolean(load_default=True)
    filters = fields.Nested(SearchFiltersSchema, load_default=dict)
    # Unset: the server's configuration (PAGEMILL_FUSION, PAGEMILL_ALPHA).
    fusion = fields.String(validate=validate.OneOf(["rrf", "weighted"]))
    alpha = fields.Float(validate=validate.Range(min=0.0, max=1.0))
    ef_search = fields.Integer(validate=validate.Range(min=1, max=1000))
