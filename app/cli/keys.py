"""``pagemill keys``: API keys of tenants."""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING

import click

from app.cli.context import CliContext, pass_cli

if TYPE_CHECKING:
    from app.domain.auth import KeyInfo


@click.group()
def keys() -> None:
    """Manage API keys."""


class KeyLimitType(click.ParamType):
    """A key's own limit: a whole number >= ``minimum``, or ``default`` (None) for the
    configured one."""

    name = "N|default"

    def __init__(self, minimum: int) -> None:
        self.minimum = minimum

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> int | None:
        if value is None or isinstance(value, int):
            return value
        text = str(value).strip().lower()
        if text == "default":
            return None
        if not text.isdigit() or int(text) < self.minimum:
            self.fail(f"{value!r} is neither a whole number >= {self.minimum} nor 'default'", param, ctx)
        return int(text)


# Requests a minute (0: unlimited); batches running at once (at least one); seconds
# transcribed a UTC day (0: unlimited).
RATE_LIMIT = KeyLimitType(minimum=0)
CONCURRENCY = KeyLimitType(minimum=1)
TRANSCRIPTION_LIMIT = KeyLimitType(minimum=0)


_CONCURRENCY_HELP = ("the key's own limit of batches running at once across all workers, or "
                     "'default' for PAGEMILL_KEY_CONCURRENCY")
_RATE_LIMIT_HELP = ("the key's own limit in requests a minute (0: unlimited), or 'default' for "
                    "PAGEMILL_RATE_LIMIT_PER_MINUTE")
_TRANSCRIPTION_HELP = ("the key's own limit in seconds of audio and video transcribed a UTC day "
                       "(0: unlimited), or 'default' for PAGEMILL_TRANSCRIPTION_SECONDS_PER_DAY")


@keys.command("create")
@click.option("--tenant", required=True)
@click.option("--name", default=None)
@click.option("--rate-limit", "rate_limit", type=RATE_LIMIT, default=None, help=_RATE_LIMIT_HELP)
@click.option("--concurrency", type=CONCURRENCY, default=None, help=_CONCURRENCY_HELP)
@click.option("--transcription-limit", "transcription_limit", type=TRANSCRIPTION_LIMIT, default=None,
              help=_TRANSCRIPTION_HELP)
@pass_cli
def keys_create(cli: CliContext, tenant: str, name: str | None, rate_limit: int | None,
                concurrency: int | None, transcription_limit: int | None) -> None:
    """Create an API key for TENANT (printed once)."""
    from app.domain.auth import create_key

    with cli.runtime.engine.begin() as conn:
        key = create_key(conn, tenant, name, rate_limit_per_minute=rate_limit, concurrency=concurrency,
                         transcription_seconds_per_day=transcription_limit)
    click.echo(key)


@keys.command("update")
@click.argument("key_id")
@click.option("--rate-limit", "rate_limit", type=RATE_LIMIT, default=None, help=_RATE_LIMIT_HELP)
@click.option("--concurrency", type=CONCURRENCY, default=None, help=_CONCURRENCY_HELP)
@click.option("--transcription-limit", "transcription_limit", type=TRANSCRIPTION_LIMIT, default=None,
              help=_TRANSCRIPTION_HELP)
@click.pass_context
def keys_update(ctx: click.Context, key_id: str, rate_limit: int | None, concurrency: int | None,
                transcription_limit: int | None) -> None:
    """Change the key KEY_ID (its id, or its prefix); takes effect at its next request (rate
    limit), the next admission of a batch (concurrency) or its next recording (transcription
    limit).  An option left out is unchanged."""
    from app.domain.auth import set_key_concurrency, set_key_rate_limit, set_key_transcription_limit

    given = {name for name in ("rate_limit", "concurrency", "transcription_limit")
             if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT}
    if not given:
        raise click.UsageError("give --rate-limit, --concurrency or --transcription-limit")
    cli: CliContext = ctx.obj
    with cli.runtime.engine.begin() as conn:
        key = set_key_rate_limit(conn, key_id, rate_limit) if "rate_limit" in given else None
        if "concurrency" in given:
            key = set_key_concurrency(conn, key_id, concurrency)
        if "transcription_limit" in given:
            key = set_key_transcription_limit(conn, key_id, transcription_limit)
    if key is None:
        raise click.ClickException(f"no API key has the id or prefix {key_id!r}")
    click.echo(f"key {key.id} ({key.tenant}, {key.prefix}): rate limit {_rate_limit(key)}, "
               f"concurrency {_concurrency(key)}, transcription limit {_transcription_limit(key)}")


@keys.command("list")
@click.option("--tenant", default=None, help="Only this tenant's keys (default: every tenant's).")
@click.option("--json", "as_json", is_flag=True, help="A JSON array of objects, one per key.")
@pass_cli
def keys_list(cli: CliContext, tenant: str | None, as_json: bool) -> None:
    """List API keys: id, tenant, name, prefix, created, last used, own limits, revoked (never
    a secret)."""
    from app.domain.auth import list_keys

    with cli.runtime.engine.connect() as conn:
        found = list_keys(conn, tenant)
    if as_json:
        click.echo(json.dumps([_key_object(key) for key in found], indent=2))
        return
    rows = [("ID", "TENANT", "NAME", "PREFIX", "CREATED", "LAST USED", "RATE/MIN", "CONCURRENCY",
             "TRANSCRIBE S/DAY", "REVOKED")]
    rows += [(key.id, key.tenant, key.name or "-", key.prefix, _when(key.created_at),
              _when(key.last_used_at), _rate_limit(key), _concurrency(key), _transcription_limit(key),
              _when(key.revoked_at))
             for key in found]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())


@keys.command("revoke")
@click.argument("key_id")
@pass_cli
def keys_revoke(cli: CliContext, key_id: str) -> None:
    """Revoke the key KEY_ID (its id, or its prefix: the part after 'pm_'); the next request
    with it is refused with 401."""
    from app.domain.auth import revoke_key

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


def _concurrency(key: KeyInfo) -> str:
    return "default" if key.concurrency is None else str(key.concurrency)


def _rate_limit(key: KeyInfo) -> str:
    if key.rate_limit_per_minute is None:
        return "default"
    return "unlimited" if key.rate_limit_per_minute == 0 else str(key.rate_limit_per_minute)


def _transcription_limit(key: KeyInfo) -> str:
    if key.transcription_seconds_per_day is None:
        return "default"
    return "unlimited" if key.transcription_seconds_per_day == 0 else str(key.transcription_seconds_per_day)


def _key_object(key: KeyInfo) -> dict[str, str | int | None]:
    return {"id": key.id, "tenant": key.tenant, "name": key.name, "prefix": key.prefix,
            "created_at": key.created_at.isoformat(),
            "last_used_at": key.last_used_at.isoformat() if key.last_used_at else None,
            "revoked_at": key.revoked_at.isoformat() if key.revoked_at else None,
            "rate_limit_per_minute": key.rate_limit_per_minute, "concurrency": key.concurrency,
            "transcription_seconds_per_day": key.transcription_seconds_per_day}
