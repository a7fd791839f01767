"""Documents: one document's outcome, Markdown, chunks and extraction report; deleting it."""

from __future__ import annotations

from flask import Response, jsonify

from app.api.auth import keyed_blueprint
from app.api.context import runtime, tenant_id
from app.api.errors import ApiError
from app.api.openapi import Answer, documented
from app.api.responses import DocumentDetailSchema
from app.domain import jobs
from app.services import deletion

blueprint = keyed_blueprint("documents", __name__, url_prefix="/v1/documents")


@blueprint.get("/<document_uuid>")
@documented("Markdown, chunks, extractor, quality and attempts",
            responses={200: Answer(DocumentDetailSchema, "the document")}, errors=(404,))
def get_document(document_uuid: str) -> Response:
    with runtime().engine.connect() as conn:
        doc = jobs.get_document(conn, tenant_id(), document_uuid)
    if doc is None:
        raise ApiError(404, "not_found", f"document {document_uuid} not found")
    return jsonify(DocumentDetailSchema().dump(doc))


@blueprint.delete("/<document_uuid>")
@documented("Delete a document with its chunks, postings and bytes",
            responses={204: Answer(None, "deleted")}, errors=(404,))
def delete_document(document_uuid: str) -> tuple[str, int]:
    if not deletion.delete_document(runtime().engine, runtime().storage, tenant_id(), document_uuid):
        raise ApiError(404, "not_found", f"document {document_uuid} not found")
    return "", 204
