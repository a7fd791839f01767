"""``pagemill demo``: the quick start — ingest the sample documents, then search them."""

from __future__ import annotations

import os

import click

from app.cli.ingest import ingest
from app.cli.search import search

QUERIES = ("how does the broker avoid losing messages", "RFC 7231", "vector index recall")


@click.command()
@click.option("--wait/--no-wait", default=True)
@click.pass_context
def demo(ctx: click.Context, wait: bool) -> None:
    """Ingest the sample documents shipped with pagemill and run a few searches."""
    from app.infra.db import PROJECT_ROOT

    samples_dir = PROJECT_ROOT / "samples"
    samples = os.path.relpath(samples_dir)
    if samples.startswith(".."):
        samples = str(samples_dir)
    ctx.invoke(ingest, paths=(samples,), jsonl=None, tenant=None, wait=wait, batch_size=None)
    for query in QUERIES:
        ctx.invoke(search, query=query, queries=None, k=3, mode="hybrid", as_json=False,
                   all_chunks=False, tenant=None, fusion=None, alpha=None, mime_types=())
