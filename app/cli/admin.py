"""Maintenance: ``pagemill migrate``, ``pagemill bm25 refresh|merge``, ``pagemill hnsw drop|build``."""

from __future__ import annotations

import click

from app.cli.context import CliContext, pass_cli


@click.command()
@pass_cli
def migrate(cli: CliContext) -> None:
    """Apply database migrations (alembic upgrade head)."""
    from app.infra.db import upgrade_schema

    upgrade_schema(cli.database_url)
    click.echo("schema is up to date")


@click.group()
def bm25() -> None:
    """Maintain the BM25 index."""


@bm25.command("refresh")
@click.option("--tenant", default=None, help="Tenant name (default: every tenant).")
@pass_cli
def bm25_refresh(cli: CliContext, tenant: str | None) -> None:
    """Recompute impacts with the current average chunk length and BM25 k1/b (a rebuild of
    the tenant's blocks and champions).

    Search stays exact without it; stale impacts only make early termination succeed less
    often (run it after the corpus grew or shrank a lot, or after changing k1/b)."""
    from indexing.store import indexed_tenants, refresh_impacts

    runtime = cli.runtime
    if tenant:
        tenants = [cli.tenant_id(tenant)]
    else:
        with runtime.engine.connect() as conn:
            tenants = indexed_tenants(conn)
    for tenant_id in tenants:
        with runtime.engine.begin() as conn:
            n = refresh_impacts(conn, tenant_id, k1=cli.config.search.k1, b=cli.config.search.b)
        click.echo(f"tenant {tenant_id}: {n} postings refreshed")


@bm25.command("merge")
@click.option("--tenant", default=None, help="Tenant name (default: every tenant).")
@click.option("--rebuild", is_flag=True, help="Cut every block and champion list afresh instead.")
@pass_cli
def bm25_merge(cli: CliContext, tenant: str | None, rebuild: bool) -> None:
    """Merge the postings written since the last merge into the blocks (workers do it past
    PAGEMILL_BM25_MERGE_AT), or rebuild a tenant's blocks and champions whole."""
    from indexing import bm25_merge as merging
    from indexing.store import indexed_tenants

    runtime = cli.runtime
    if tenant:
        tenants = [cli.tenant_id(tenant)]
    else:
        with runtime.engine.connect() as conn:
            tenants = indexed_tenants(conn)
    for tenant_id in tenants:
        with runtime.engine.begin() as conn:
            done = merging.rebuild(conn, tenant_id) if rebuild else merging.merge(conn, tenant_id)
        what = (f"rebuilt, {done.postings} postings" if done.rebuilt
                else f"{done.delta_postings} postings and {done.tombstones} deleted chunks merged")
        click.echo(f"tenant {tenant_id}: {what} in {done.seconds:.1f} s")


@click.group()
def hnsw() -> None:
    """The vector index: dropped and built around bulk loads, rebuilt with new options."""


@hnsw.command("drop")
@pass_cli
def hnsw_drop(cli: CliContext) -> None:
    """Drop the HNSW graph before a load that adds a large share of the index (dense search
    stays exact meanwhile, scanning every vector)."""
    from indexing.vector_index import drop_hnsw

    click.echo("dropped" if drop_hnsw(cli.runtime.engine) else "no HNSW index to drop")


@hnsw.command("build")
@pass_cli
def hnsw_build(cli: CliContext) -> None:
    """Build the HNSW graph (concurrently; ingest and search go on)."""
    from indexing.vector_index import build_hnsw

    config = cli.runtime.config
    seconds = build_hnsw(cli.runtime.engine, config.bulk_loads.build_memory, config.graph_options())
    click.echo(f"built in {seconds:.0f} s" if seconds else "the HNSW index is already there")


@hnsw.command("rebuild")
@pass_cli
def hnsw_rebuild(cli: CliContext) -> None:
    """Give the HNSW graph the configured options (PAGEMILL_HNSW_M, PAGEMILL_HNSW_EF_CONSTRUCTION):
    a new graph is built beside the live one, which serves searches until it is replaced;
    ingest goes on.  Nothing is done when the graph already has them."""
    from app.domain.bulk_loads import GraphBusy, reshape

    config = cli.runtime.config
    options = config.graph_options()
    try:
        seconds = reshape(cli.runtime.engine, options, config.bulk_loads.build_memory)
    except GraphBusy as exc:
        raise click.ClickException(f"{exc}; try again later") from exc
    what = f"m {options.m}, ef_construction {options.ef_construction}"
    click.echo(f"rebuilt with {what} in {seconds:.0f} s" if seconds is not None
               else f"the HNSW graph already has {what}")
