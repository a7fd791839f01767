"""pagemill's MCP server: the tools (``search``, ``get_document``, ``get_chunks``, ``ingest``,
``job_status``) and the document resource an agent uses, on the official SDK's ``MCPServer``.

Each tool is one or two calls of the REST API (app/mcp/api_calls.py) with the caller's
credential, reshaped for an agent: a document's Markdown and chunks are cut to the range asked
for, so that reading around a hit never sends a 500-page document through the model's context.
The SDK derives each tool's JSON schema from its signature; argument types and enums are
checked there, value limits (``k``, a job's size, ...) by the API, and a refusal of either
kind is a tool error carrying the API's error code (:meth:`PagemillMcpServer.call_tool`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal
from urllib.parse import quote

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.domain.jobs import JOB_STATES
from app.mcp.api_calls import ApiCaller, ApiRefusal

# Resolves the headers a tool's API call carries (its credential) from the MCP request.
HeadersOf = Callable[[Context], Mapping[str, str]]

DOCUMENT_URI = "pagemill://documents/{document_uuid}"
# The argument naming a document, alike in every tool that reads one.
DocumentUuid = Annotated[str, Field(description="document_uuid of a hit, or id from job_status")]
INSTRUCTIONS = (
    "pagemill parses documents (PDF, Office, HTML, e-mail, images, recordings, plain text) into "
    "Markdown and chunks and searches them (BM25, dense vectors, or both fused). Typical use: "
    "`search` for passages; each hit has a document_uuid and a chunk_id: call `get_chunks` with "
    "around_chunk_id to read the text around a hit, or `get_document` to read its Markdown page "
    "by page. `ingest` adds texts or https URLs as a job; poll `job_status` until its status is "
    "no longer queued or running before searching them. Errors are JSON "
    '{"error": {"code", "message", "status"}} with the REST API\'s codes.')

_READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                             open_world_hint=False)
# The chunk fields an agent reads; the rest (token counts, row ids of other tables) stay out.
_CHUNK_FIELDS = ("id", "chunk_no", "text", "heading_path", "page_start", "page_end", "boxes",
                 "start_s", "end_s")
_DOCUMENT_FIELDS = ("id", "job_id", "document_id", "status", "error_code", "error_message", "filename",
                    "mime_type", "source", "url", "extractor", "page_count", "chunk_count", "metadata",
                    "language", "quality", "indexed")


class SearchFilters(BaseModel):
    """Restricts a search; every filter given must hold."""

    model_config = ConfigDict(extra="forbid")

    document_ids: list[str] | None = Field(None, description="only these documents (the ids given at ingest)")
    job_id: str | None = Field(None, description="only documents of this job")
    metadata: dict[str, Any] | None = Field(
        None, description="only documents whose metadata contains all of these key/value pairs")
    mime_types: list[str] | None = Field(None, description="only these types, e.g. application/pdf")
    indexed_after: str | None = Field(None, description="ISO 8601 instant: indexed at or after it")
    indexed_before: str | None = Field(None, description="ISO 8601 instant: indexed before it")


class IngestDocument(BaseModel):
    """One document of a job: its text, or an https URL a worker fetches (exactly one)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="your id for the document (search hits name it as document_id); "
                                "ingesting the same id again replaces its content")
    text: str | None = Field(None, description="the document's text (Markdown is kept as such)")
    url: str | None = Field(None, description="an https URL on a public address to fetch and parse")
    title: str | None = Field(None, description="a title, shown with hits")
    metadata: dict[str, Any] | None = Field(None, description="JSON object stored with the document, "
                                                              "usable in search filters")


class PagemillMcpServer(MCPServer):
    """``MCPServer`` whose tool errors are the API's error body as JSON (text and structured
    content): ``{"error": {"code", "message", "status", "details"?}}``.  An argument the
    schema refuses is the API's ``validation_error`` (400), its details by field."""

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context[Any, Any] | None = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ApiRefusal):
                return tool_error(cause)
            if isinstance(cause, ValidationError):
                return tool_error(ApiRefusal(400, "validation_error", f"invalid arguments for {name}",
                                             validation_details(cause)))
            raise


def validation_details(error: ValidationError) -> dict[str, list[str]]:
    """Pydantic's errors by field, as the API's marshmallow ones are: ``{"k": ["..."]}``."""
    details: dict[str, list[str]] = {}
    for item in error.errors(include_url=False, include_input=False):
        details.setdefault(".".join(str(part) for part in item["loc"]) or "_schema", []).append(item["msg"])
    return details


def tool_error(refusal: ApiRefusal) -> CallToolResult:
    body = refusal.body()
    return CallToolResult(content=[TextContent(type="text", text=json.dumps(body))],
                          structured_content=body, is_error=True)


def _segment(value: str) -> str:
    """An id in a path, quoted: a ``?`` or ``#`` in it cannot add a query to the API call (a
    ``/`` is decoded again in PATH_INFO, as WSGI does; such an id matches no document or job)."""
    return quote(value, safe="")


def build_server(caller: ApiCaller, headers_of: HeadersOf) -> PagemillMcpServer:
    """The MCP server whose tools call the API through ``caller`` with the headers
    ``headers_of`` gives for each request (bearer over HTTP, the configured key on stdio)."""
    server = PagemillMcpServer("pagemill", title="pagemill", instructions=INSTRUCTIONS)

    async def api(ctx: Context, method: str, path: str, body: Any = None,
                  query: Mapping[str, Any] | None = None, extra: Mapping[str, str] | None = None) -> Any:
        headers = {**headers_of(ctx), **(extra or {})}
        # The API's views are synchronous (database, embedder): off the event loop.
        return await anyio.to_thread.run_sync(
            lambda: caller.call(method, path, headers, body=body, query=query))

    @server.tool(annotations=_READ_ONLY, description=(
        "Search the caller's documents. Returns ranked hits, each with document_id (the id given at "
        "ingest), document_uuid (for get_document/get_chunks), chunk_id, title, heading_path, "
        "page_start/page_end, boxes (where the text is on its pages), snippet (matching terms in "
        "**bold**), text (the whole chunk) and score. One hit per document unless all_chunks."))
    async def search(
            ctx: Context,
            query: Annotated[str, Field(description="what to look for, in words")],
            mode: Annotated[Literal["hybrid", "bm25", "dense"], Field(
                description="hybrid (default): keywords and meaning fused; bm25: exact words; "
                            "dense: meaning only")] = "hybrid",
            k: Annotated[int, Field(description="how many hits, 1-200")] = 10,
            filters: Annotated[SearchFilters | None, Field(description="restrict the search")] = None,
            all_chunks: Annotated[bool, Field(
                description="every matching chunk instead of the best one per document")] = False,
            after_job: Annotated[str | None, Field(
                description="the id of a job you ingested that this search must see (its documents "
                            "are then searched even if a read replica has not caught up yet)")] = None,
            rerank: Annotated[bool | None, Field(
                description="the server's reranker (a cross-encoder) reorders the first results: "
                            "unset, as the server is configured; false skips it; true requires it")] = None,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"query": query, "mode": mode, "k": k, "collapse": not all_chunks}
        if rerank is not None:
            body["rerank"] = rerank
        if filters is not None:
            body["filters"] = filters.model_dump(exclude_none=True)
        if after_job is not None:
            body["after_job"] = after_job
        results: dict[str, Any] = await api(ctx, "POST", "/v1/search", body)
        return results

    @server.tool(annotations=_READ_ONLY, description=(
        "Read one document: its status, type, pages and metadata, and its Markdown from character "
        "`offset`, at most `max_chars` of it; `next_offset` continues (null at the end)."))
    async def get_document(
            ctx: Context,
            document_uuid: DocumentUuid,
            offset: Annotated[int, Field(ge=0, description="first character of the Markdown to return")] = 0,
            max_chars: Annotated[int, Field(ge=1, le=100_000,
                                            description="most characters to return")] = 20_000,
    ) -> dict[str, Any]:
        # Only the window is read, in the database (GET /v1/documents/<uuid>/markdown).
        window = await api(ctx, "GET", f"/v1/documents/{_segment(document_uuid)}/markdown",
                           query={"offset": offset, "max_chars": max_chars})
        return {**{name: window.get(name) for name in _DOCUMENT_FIELDS},
                **{name: window[name] for name in ("markdown", "offset", "total_chars", "next_offset")}}

    @server.tool(annotations=_READ_ONLY, description=(
        "Read a document's chunks in order: `count` chunks from chunk number `start`, or centred "
        "on `around_chunk_id` (a hit's chunk_id) to read the context of a hit. Each chunk has its "
        "text, heading_path, pages and boxes."))
    async def get_chunks(
            ctx: Context,
            document_uuid: DocumentUuid,
            start: Annotated[int, Field(ge=0, description="first chunk number (0-based)")] = 0,
            count: Annotated[int, Field(ge=1, le=50, description="how many chunks")] = 5,
            around_chunk_id: Annotated[int | None, Field(
                description="centre the window on this chunk (overrides start)")] = None,
    ) -> dict[str, Any]:
        query: dict[str, Any] = {"start": start, "count": count}
        if around_chunk_id is not None:
            query["around"] = around_chunk_id
        window = await api(ctx, "GET", f"/v1/documents/{_segment(document_uuid)}/chunks", query=query)
        return {"document_uuid": document_uuid, "document_id": window["document_id"],
                "total_chunks": window["total_chunks"], "start": window["start"],
                "next_start": window["next_start"],
                "chunks": [{name: chunk.get(name) for name in _CHUNK_FIELDS} for chunk in window["chunks"]]}

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False,
                                             idempotent_hint=False, open_world_hint=True), description=(
        "Add documents to the caller's index as one job: each is a text or an https URL to fetch. "
        "Returns the job (its id and status); poll job_status until it is no longer queued or "
        "running. An idempotency_key makes a retried call return the same job."))
    async def ingest(
            ctx: Context,
            documents: Annotated[list[IngestDocument], Field(description="the documents, each with an id")],
            idempotency_key: Annotated[str | None, Field(
                description="the same key and documents within 24 h return the original job")] = None,
    ) -> dict[str, Any]:
        body = {"documents": [d.model_dump(exclude_none=True) for d in documents]}
        job: dict[str, Any] = await api(ctx, "POST", "/v1/jobs", body,
                                        extra={"Idempotency-Key": idempotency_key or ""})
        return job

    @server.tool(annotations=_READ_ONLY, description=(
        "What is in the index: documents by document_id (the id given at ingest), each with its "
        "document_uuid (for get_document and get_chunks), title, type, chunk count and when it was "
        "indexed; a page of `limit` at a time, `after` the previous page's next_after; `prefix` "
        "keeps ids starting with it (a folder)."))
    async def list_documents(
            ctx: Context,
            prefix: Annotated[str | None, Field(description="only document ids starting with this")] = None,
            mime_type: Annotated[str | None, Field(description="only documents of this type")] = None,
            limit: Annotated[int, Field(ge=1, le=500, description="documents per page")] = 50,
            after: Annotated[str | None, Field(description="the previous page's next_after")] = None,
    ) -> dict[str, Any]:
        query: dict[str, Any] = {"limit": limit, **{name: value for name, value in (
            ("prefix", prefix), ("mime_type", mime_type), ("after", after)) if value}}
        page: dict[str, Any] = await api(ctx, "GET", "/v1/documents", query=query)
        return page

    @server.tool(annotations=_READ_ONLY, description=(
        f"A job's status ({', '.join(JOB_STATES)}) and "
        "counts. With include_documents, also its documents: id (document_uuid), document_id, "
        "status and error_code of each (at most 100, those of document_status if given)."))
    async def job_status(
            ctx: Context,
            job_id: Annotated[str, Field(description="the id ingest returned")],
            include_documents: Annotated[bool, Field(description="list the job's documents too")] = False,
            document_status: Annotated[Literal["pending", "processing", "waiting", "completed", "failed",
                                               "cancelled"] | None, Field(
                description="only documents in this state")] = None,
    ) -> dict[str, Any]:
        job: dict[str, Any] = await api(ctx, "GET", f"/v1/jobs/{_segment(job_id)}")
        if include_documents:
            query = {"limit": 100, **({"status": document_status} if document_status else {})}
            page = await api(ctx, "GET", f"/v1/jobs/{_segment(job_id)}/documents", query=query)
            job["documents"] = [{name: d.get(name) for name in (
                "id", "document_id", "status", "error_code", "error_message", "page_count", "chunk_count")}
                for d in page["documents"]]
        return job

    @server.resource(DOCUMENT_URI, name="document", mime_type="text/markdown", description=(
        "A document's whole Markdown, by its document_uuid (prefer get_document or get_chunks "
        "for long documents)."))
    async def document(document_uuid: str, ctx: Context) -> str:
        try:
            found = await api(ctx, "GET", f"/v1/documents/{_segment(document_uuid)}")
        except ApiRefusal as exc:
            raise ResourceError(json.dumps(exc.body())) from exc
        markdown: str = found.get("markdown") or ""
        return markdown

    return server
