"""Documents: the indexed ones, page by page; one document's outcome, Markdown, chunks and
extraction report; a window of its chunks; deleting it."""

from __future__ import annotations

from flask import Response, jsonify

from app.api.auth import keyed_blueprint
from app.api.context import runtime, tenant_id
from app.api.errors import ApiError
from app.api.openapi import Answer, documented
from app.api.requests import ChunkWindowQuery, IndexedPage, IndexedPageQuery, MarkdownWindowQuery, load_query
from app.api.responses import (
    ChunkWindowSchema,
    DocumentDetailSchema,
    IndexedDocumentPageSchema,
    MarkdownWindowSchema,
)
from app.domain import jobs
from app.services import deletion

blueprint = keyed_blueprint("documents", __name__, url_prefix="/v1/documents")


@blueprint.get("")
@documented("The caller's indexed documents (what search reads), by document id, a page at a time",
            query=IndexedPageQuery,
            responses={200: Answer(IndexedDocumentPageSchema, "a page of documents")}, errors=(400,))
def list_documents() -> Response:
    page: IndexedPage = load_query(IndexedPageQuery())
    with runtime().engine.connect() as conn:
        rows = jobs.list_indexed(conn, tenant_id(), page.after, page.limit, page.prefix, page.mime_type)
    last = rows[-1].document_id if len(rows) == page.limit else None
    return jsonify(IndexedDocumentPageSchema().dump({"documents": rows, "next_after": last}))


@blueprint.get("/<document_uuid>")
@documented("Markdown, chunks, extractor, quality and attempts",
            responses={200: Answer(DocumentDetailSchema, "the document")}, errors=(404,))
def get_document(document_uuid: str) -> Response:
    with runtime().engine.connect() as conn:
        doc = jobs.get_document(conn, tenant_id(), document_uuid)
    if doc is None:
        raise ApiError(404, "not_found", f"document {document_uuid} not found")
    return jsonify(DocumentDetailSchema().dump(doc))


@blueprint.get("/<document_uuid>/markdown")
@documented("Some of a document's Markdown, from a character offset, with its status and type "
            "(a page of a long document without loading the rest or its chunks)",
            query=MarkdownWindowQuery,
            responses={200: Answer(MarkdownWindowSchema, "the document and its Markdown from offset")},
            errors=(400, 404))
def get_markdown(document_uuid: str) -> Response:
    asked = load_query(MarkdownWindowQuery())
    with runtime().engine.connect() as conn:
        window = jobs.markdown_window(conn, tenant_id(), document_uuid, asked["offset"], asked["max_chars"])
    if window is None:
        raise ApiError(404, "not_found", f"document {document_uuid} not found")
    return jsonify(MarkdownWindowSchema().dump(window))


@blueprint.get("/<document_uuid>/chunks")
@documented("A window of a document's indexed chunks, in order: from a position, or centred on a "
            "search hit's chunk (the text around a hit without the whole document)",
            query=ChunkWindowQuery,
            responses={200: Answer(ChunkWindowSchema, "the chunks")}, errors=(400, 404))
def get_chunk_window(document_uuid: str) -> Response:
    asked = load_query(ChunkWindowQuery())
    try:
        with runtime().engine.connect() as conn:
            window = jobs.chunk_window(conn, tenant_id(), document_uuid, asked["start"], asked["count"],
                                       asked["around"])
    except jobs.UnknownChunk as exc:
        raise ApiError(404, "not_found", str(exc)) from exc
    if window is None:
        raise ApiError(404, "not_found", f"document {document_uuid} not found")
    return jsonify(ChunkWindowSchema().dump(window))


@blueprint.delete("/<document_uuid>")
@documented("Delete a document with its chunks, postings and bytes",
            responses={204: Answer(None, "deleted")}, errors=(404,))
def delete_document(document_uuid: str) -> tuple[str, int]:
    if not deletion.delete_document(runtime().engine, runtime().storage, tenant_id(), document_uuid):
        raise ApiError(404, "not_found", f"document {document_uuid} not found")
    return "", 204
