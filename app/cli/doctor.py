"""``pagemill doctor``: which extraction engines and models this machine has, and why not."""

from __future__ import annotations

import json
from dataclasses import asdict

import click

from app.cli.context import CliContext, pass_cli


@click.command()
@click.option("--json", "as_json", is_flag=True)
@pass_cli
def doctor(cli: CliContext, as_json: bool) -> None:
    """Which extraction engines and models this machine has, and why not when missing."""
    from extractors.capabilities import check_all

    found = check_all(cli.config.extract_options())
    if as_json:
        click.echo(json.dumps([asdict(c) for c in found]))
        return
    for capability in found:
        mark = "ok " if capability.available else "-- "
        click.echo(f"{mark} {capability.engine}: {capability.detail}")
