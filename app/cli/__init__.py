"""The ``pagemill`` command line, in Celery's shape: one click group, one module per area
(``app/cli/<area>.py``), each imported only when its command runs or is listed, so that
``pagemill --help`` stays fast.  ``ctx.obj`` is a :class:`~app.cli.context.CliContext` that
builds the process's runtime (and starts the embedded database) only for commands that need it.

Adding a command: write it in its area's module (or a new one) and name it in ``COMMANDS``.
"""

from __future__ import annotations

import importlib

import click

from app.cli.context import CliContext
from app.config import LoggingConfig

# command name -> "module:attribute"
COMMANDS = {
    "ingest": "app.cli.ingest:ingest",
    "jobs": "app.cli.jobs:jobs",
    "job": "app.cli.jobs:job",
    "search": "app.cli.search:search",
    "parse": "app.cli.parse:parse",
    "doctor": "app.cli.doctor:doctor",
    "demo": "app.cli.demo:demo",
    "keys": "app.cli.keys:keys",
    "worker": "app.cli.worker:worker",
    "serve": "app.cli.worker:serve",
    "flower": "app.cli.flower:flower",
    "broker": "app.cli.broker:broker",
    "migrate": "app.cli.admin:migrate",
    "bm25": "app.cli.admin:bm25",
    "hnsw": "app.cli.admin:hnsw",
    "reembed": "app.cli.reembed:reembed",
    "mcp": "app.cli.mcp:mcp",
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use (click's documented pattern)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, _, attribute = target.partition(":")
        command = getattr(importlib.import_module(module), attribute)
        assert isinstance(command, click.Command), target
        return command


@click.group(cls=LazyGroup)
@click.option("--log-level", default=lambda: LoggingConfig.from_env().level,
              show_default=LoggingConfig.level)
@click.pass_context
def main(ctx: click.Context, log_level: str) -> None:
    """pagemill: document ingestion and hybrid search on one PostgreSQL."""
    from app.infra import logs

    logs.configure(log_level.upper(), LoggingConfig.from_env().format)
    ctx.obj = CliContext()
