"""``pagemill search``: one query, or a JSONL file of queries (one JSON line each out)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from app.cli.context import CliContext, pass_cli

if TYPE_CHECKING:
    from app.services.search_request import SearchRequest


def read_queries(path: str) -> list[tuple[str, str]]:
    """(id, text) of each ``{"_id"|"id", "text"}`` line."""
    items = []
    with open(path, encoding="utf-8") as fh:
        for line_no, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                query = json.loads(line)
                items.append((str(query.get("_id", query.get("id"))), str(query["text"])))
            except (ValueError, KeyError, AttributeError) as exc:
                raise click.ClickException(f"{path}: line {line_no}: not a query "
                                           f"({{\"_id\", \"text\"}}): {exc}") from exc
    return items


def search_request(text: str, choices: dict[str, Any]) -> SearchRequest:
    """The query with the command's options, validated by the schema the API loads bodies
    with (so ``--k`` and the query's length have the API's limits)."""
    from marshmallow import ValidationError

    from app.services.search_request import SearchRequestSchema

    try:
        request: SearchRequest = SearchRequestSchema().load({"query": text, **choices})
    except ValidationError as exc:
        raise click.UsageError(f"invalid search: {exc.messages}") from exc
    return request


@click.command()
@click.argument("query", required=False)
@click.option("--queries", type=click.Path(exists=True, dir_okay=False),
              help="JSONL of queries ({\"_id\", \"text\"}); prints one JSON line per query.")
@click.option("--k", type=int, default=10, show_default=True)
@click.option("--mode", type=click.Choice(["hybrid", "bm25", "dense"]), default="hybrid",
              show_default=True)
@click.option("--json", "as_json", is_flag=True, help="JSON output.")
@click.option("--all-chunks", is_flag=True, help="Do not collapse results to one per document.")
@click.option("--fusion", type=click.Choice(["rrf", "weighted"]), default=None,
              help="Hybrid fusion: reciprocal ranks, or alpha-weighted normalised scores "
                   "(default: PAGEMILL_FUSION, weighted).")
@click.option("--alpha", type=click.FloatRange(0, 1), default=None,
              help="Weight of the dense score with --fusion weighted (default: PAGEMILL_ALPHA, 0.5).")
@click.option("--normalisation", type=click.Choice(["zscore", "minmax"]), default=None,
              help="How --fusion weighted scales each branch's scores (default: "
                   "PAGEMILL_FUSION_NORMALISATION, zscore).")
@click.option("--mime-type", "mime_types", multiple=True, help="Only documents of this type.")
@click.option("--after-job", default=None, metavar="JOB_ID",
              help="See this finished job's documents: with search replicas, wait for one to have "
                   "replayed the job (PAGEMILL_SEARCH_REPLICA_WAIT_SECONDS), else ask the primary.")
@click.option("--rerank/--no-rerank", default=None,
              help="The reranking stage: on by default when PAGEMILL_RERANKER names a cross-encoder; "
                   "--rerank requires it, --no-rerank skips it.")
@click.option("--rerank-depth", type=int, default=None,
              help="How many of the first results the reranker reorders (default: PAGEMILL_RERANK_DEPTH).")
@click.option("--expand/--no-expand", default=None,
              help="Expand the BM25 query from its best documents (RM3; default: "
                   "PAGEMILL_QUERY_EXPANSION, off).")
@click.option("--tenant", default=None)
@pass_cli
def search(cli: CliContext, query: str | None, queries: str | None, k: int, mode: str, as_json: bool,
           all_chunks: bool, tenant: str | None, fusion: str | None, alpha: float | None,
           mime_types: tuple[str, ...], after_job: str | None, rerank: bool | None,
           rerank_depth: int | None, normalisation: str | None, expand: bool | None) -> None:
    """Search the index: hybrid (pgvector + BM25), BM25 or dense."""
    from dataclasses import asdict

    from app.domain.jobs import UnknownJob
    from app.services.search_request import RerankerNotConfigured, answer_search
    from extractors.media import timestamp
    from indexing import tenant_embedders
    from indexing.embedding import EmbedderUnavailable, embed
    from indexing.reranking import RerankerUnavailable

    if bool(query) == bool(queries):
        raise click.UsageError("give either QUERY or --queries FILE")
    items = read_queries(queries) if queries else [("query", query or "")]
    choices: dict[str, Any] = {"k": k, "mode": mode, "collapse": not all_chunks,
                               **({"fusion": fusion} if fusion else {}),
                               **({"alpha": alpha} if alpha is not None else {}),
                               **({"normalisation": normalisation} if normalisation else {}),
                               **({"filters": {"mime_types": list(mime_types)}} if mime_types else {}),
                               **({"after_job": after_job} if after_job else {}),
                               **({"rerank": rerank} if rerank is not None else {}),
                               **({"expand": expand} if expand is not None else {}),
                               **({"rerank_depth": rerank_depth} if rerank_depth is not None else {})}
    requests = [search_request(text, choices) for _, text in items]
    tenant_id = cli.tenant_id(tenant)
    with cli.runtime.engine.connect() as conn:  # queries embedded as the tenant's chunks were
        embedder = tenant_embedders.pinned(conn, tenant_id)
    try:
        vectors = list(embed([t for _, t in items], embedder=embedder, strict=True)) \
            if mode != "bm25" else [None] * len(items)
    except EmbedderUnavailable as exc:
        raise click.ClickException(str(exc)) from exc
    for (query_id, _), request, vector in zip(items, requests, vectors, strict=True):
        try:
            answer = answer_search(cli.runtime, tenant_id, request, query_vector=vector)
        except UnknownJob as exc:
            raise click.ClickException(f"no job {after_job} of tenant "
                                       f"{tenant or cli.config.jobs.default_tenant}") from exc
        except (RerankerNotConfigured, RerankerUnavailable) as exc:
            raise click.ClickException(str(exc)) from exc
        hits = answer.hits
        if as_json or queries:
            click.echo(json.dumps({"query_id": query_id, "results": [
                {"document_id": h.document_id, "document_uuid": h.document_uuid, "chunk_id": h.chunk_id,
                 "score": h.score,
                 **({"rerank_score": h.rerank_score} if h.rerank_score is not None else {}),
                 "page_start": h.page_start, "page_end": h.page_end, "boxes": h.boxes,
                 "start_s": h.start_s, "end_s": h.end_s,
                 "snippet": h.snippet, "text": h.text} for h in hits],
                "ranking": asdict(answer.ranking)}, ensure_ascii=False))
            continue
        click.echo(f"query: {request.query}  ({mode}, top {k})")
        for rank, h in enumerate(hits, 1):
            heading = " > ".join(h.heading_path)
            # Audio and video: where in the recording the text was heard.
            when = (f"  [{timestamp(h.start_s)}\u2013{timestamp(h.end_s)}]"
                    if h.start_s is not None and h.end_s is not None else "")
            click.echo(f"{rank:2d}. {h.score:.4f}  {h.document_id}" + when
                       + (f"  [{heading}]" if heading else ""))
            click.echo(f"      {h.snippet}")
        if not hits:
            click.echo("   (no results)")
