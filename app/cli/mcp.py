"""``pagemill mcp``: the MCP server on stdio, for desktop agents that start their tools as
child processes (Claude Desktop, editors).  Its tools call the API application in this process
with ``PAGEMILL_API_KEY`` as the bearer (app/mcp/api_calls.py), so the key's tenant, rate limit
and limits apply exactly as over HTTP; stdout carries only the protocol, logs go to stderr."""

from __future__ import annotations

import click

from app.cli.context import CliContext, pass_cli


@click.command("mcp")
@pass_cli
def mcp(cli: CliContext) -> None:
    """Serve the MCP tools on stdin/stdout with the key in PAGEMILL_API_KEY."""
    key = cli.config.api.mcp_api_key
    if not key:
        raise click.ClickException("PAGEMILL_API_KEY is not set: create a key with "
                                   "`pagemill keys create --tenant NAME` and pass it in the environment")
    from app.api import create_app
    from app.mcp.api_calls import ApiCaller
    from app.mcp.tools import build_server

    cli.runtime  # noqa: B018 - the database up (and migrated) before the first tool call
    credential = {"Authorization": f"Bearer {key}"}
    build_server(ApiCaller(create_app(cli.config)), lambda _ctx: credential).run("stdio")
