"""``pagemill reembed``: move a tenant's index to another embedder (indexing/tenant_embedders.py)."""

from __future__ import annotations

import click

from app.cli.context import CliContext, pass_cli
from indexing.embedders import EMBEDDERS


@click.command()
@click.option("--tenant", required=True, help="Tenant name.")
@click.option("--embedder", type=click.Choice(EMBEDDERS), default=None,
              help="The embedder to move to (default: PAGEMILL_EMBEDDER).")
@click.option("--force", is_flag=True,
              help="Re-embed even when the tenant is already pinned to EMBEDDER (its vectors were "
                   "made by another one: a deployment that ran PAGEMILL_EMBEDDER=onnx* before "
                   "migration 0021, which pinned every existing tenant to torch).")
@pass_cli
def reembed(cli: CliContext, tenant: str, embedder: str | None, force: bool) -> None:
    """Embed every chunk of a tenant again and move its index to EMBEDDER, in one transaction.

    A tenant's index is built with one embedder, pinned by its first document: workers embed
    its chunks, and search its queries, with that one whatever their PAGEMILL_EMBEDDER.  Run
    this after changing PAGEMILL_EMBEDDER to move existing tenants too.  Searches keep the old
    vectors until the new ones are all written; the tenant's index writes wait meanwhile."""
    from app.cli.jobs import existing_tenant_id
    from indexing import tenant_embedders
    from indexing.embedding import embed, embedder_in_use

    target = embedder or cli.config.embedding.embedder
    engine = cli.runtime.engine
    with engine.connect() as conn:
        tenant_id = existing_tenant_id(conn, tenant)
        current = tenant_embedders.pinned(conn, tenant_id)
    if current == target and not force:
        click.echo(f"tenant {tenant}: already embedded with {target}")
        return
    # Loading the model takes seconds: only once there is something to embed with it.
    if embedder_in_use(target) != target:
        raise click.ClickException(f"the {target} embedder cannot run here (see the warning above); "
                                   "nothing was changed")

    def progress(done: int) -> None:
        click.echo(f"  {done} chunks embedded", err=True)

    n = tenant_embedders.reembed(engine, tenant_id, target,
                                 lambda texts: embed(texts, embedder=target), progress)
    click.echo(f"tenant {tenant}: {n} chunks re-embedded, {current or 'nothing'} -> {target}")
