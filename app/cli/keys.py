"""``pagemill keys``: API keys of tenants."""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING

import click

from app.cli.context import CliContext, pass_cli

if TYPE_CHECKING:
    from app.auth import KeyInfo


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


@keys.command("list")
@click.option("--tenant", default=None, help="Only this tenant's keys (default: every tenant's).")
@click.option("--json", "as_json", is_flag=True, help="A JSON array of objects, one per key.")
@pass_cli
def keys_list(cli: CliContext, tenant: str | None, as_json: bool) -> None:
    """List API keys: id, tenant, name, prefix, created, last used, revoked (never a secret)."""
    from app.auth import list_keys

    with cli.runtime.engine.connect() as conn:
        found = list_keys(conn, tenant)
    if as_json:
        click.echo(json.dumps([_key_object(key) for key in found], indent=2))
        return
    rows = [("ID", "TENANT", "NAME", "PREFIX", "CREATED", "LAST USED", "REVOKED")]
    rows += [(key.id, key.tenant, key.name or "-", key.prefix, _when(key.created_at),
              _when(key.last_used_at), _when(key.revoked_at)) for key in found]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())


@keys.command("revoke")
@click.argument("key_id")
@pass_cli
def keys_revoke(cli: CliContext, key_id: str) -> None:
    """Revoke the key KEY_ID (its id, or its prefix: the part after 'pm_'); the next request
    with it is refused with 401."""
    from app.auth import revoke_key

    with cli.runtime.engine.begin() as conn:
        revoked = revoke_key(conn, key_id)
    if revoked is None:
        raise click.ClickException(f"no API key has the id or prefix {key_id!r}")
    key, before = revoked
    if before:
        click.echo(f"key {key.id} ({key.tenant}, {key.prefix}) was already revoked at "
                   f"{_when(key.revoked_at)}")
    else:
        click.echo(f"revoked key {key.id} ({key.tenant}, {key.prefix})")


def _when(moment: datetime | None) -> str:
    return moment.isoformat(timespec="seconds") if moment is not None else "-"


def _key_object(key: KeyInfo) -> dict[str, str | None]:
    return {"id": key.id, "tenant": key.tenant, "name": key.name, "prefix": key.prefix,
            "created_at": key.created_at.isoformat(),
            "last_used_at": key.last_used_at.isoformat() if key.last_used_at else None,
            "revoked_at": key.revoked_at.isoformat() if key.revoked_at else None}
