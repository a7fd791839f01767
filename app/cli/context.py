"""What every command is handed (``ctx.obj``): the configuration, read once, and the
process's runtime built from it on first use — so ``pagemill parse`` and ``pagemill doctor``
never start a database."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

import click

from app.config import Config

if TYPE_CHECKING:
    from app.runtime import Runtime


class CliContext:
    @cached_property
    def config(self) -> Config:
        return Config.from_env()

    @cached_property
    def _runtime(self) -> Runtime:
        """The command's runtime, built from its configuration and passed to what it calls."""
        from app.runtime import Runtime

        return Runtime(self.config)

    @cached_property
    def database_url(self) -> str:
        """The database's URL (the embedded server started and migrated), or a clear error."""
        from app.infra.embedded import DatabaseUnavailable

        try:
            return self._runtime.database_url
        except DatabaseUnavailable as exc:
            raise click.ClickException(str(exc)) from exc

    @cached_property
    def runtime(self) -> Runtime:
        """The database reachable (the embedded one started and migrated), or a clear error."""
        from app.infra.embedded import DatabaseUnavailable
        from app.runtime import prepare

        try:
            return prepare(self._runtime)
        except DatabaseUnavailable as exc:
            raise click.ClickException(str(exc)) from exc

    def tenant_id(self, name: str | None) -> str:
        """The id of tenant ``name`` (default ``PAGEMILL_DEFAULT_TENANT``), created if missing."""
        from app.domain.auth import ensure_tenant

        with self.runtime.engine.begin() as conn:
            return ensure_tenant(conn, name or self.config.jobs.default_tenant)


pass_cli = click.make_pass_decorator(CliContext)
