"""``pagemill broker``: the durable broker's dead letters."""

from __future__ import annotations

import click

from app.cli.context import CliContext, pass_cli


@click.group()
def broker() -> None:
    """Inspect the durable broker."""


@broker.command("dead-letters")
@click.option("--requeue", is_flag=True, help="Put dead letters back on their queues.")
@click.option("--id", "ids", multiple=True, type=int, help="Only these dead letters.")
@pass_cli
def broker_dead_letters(cli: CliContext, requeue: bool, ids: tuple[int, ...]) -> None:
    """List messages that exhausted their deliveries, or requeue them."""
    from tasks.broker import BrokerTablesMissing, dead_letters, requeue_dead_letters

    engine = cli.runtime.engine
    try:
        if requeue:
            n = requeue_dead_letters(engine, list(ids) or None)
            click.echo(f"requeued {n} message(s)")
            return
        rows = [r for r in dead_letters(engine) if not ids or r.id in ids]
    except BrokerTablesMissing as exc:
        raise click.ClickException(str(exc)) from exc
    for r in rows:
        click.echo(f"{r.id}\t{r.queue}\t{r.task or '-'}\t{r.task_id or '-'}\t{r.deliveries}\t"
                   f"{r.died_at:%Y-%m-%d %H:%M:%S}\t{r.reason}")
    if not rows:
        click.echo("no dead letters")
