"""``pagemill keys``: API keys of tenants."""

from __future__ import annotations

import click

from app.cli.context import CliContext, pass_cli


@click.group()
def keys() -> None:
    """Manage API keys."""


@keys.command("create")
@click.option("--tenant", required=True)
@click.option("--name", default=None)
@pass_cli
def keys_create(cli: CliContext, tenant: str, name: str | None) -> None:
    """Create an API key for TENANT (printed once)."""
    from app.auth import create_key

    with cli.runtime.engine.begin() as conn:
        key = create_key(conn, tenant, name)
    click.echo(key)
