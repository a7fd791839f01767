"""What a request works with: the process's runtime (configuration, engine, storage) and,
on ``/v1`` routes, the caller authenticated by :mod:`app.api.auth`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import current_app, g

from app.config import Config
from app.domain.auth import Principal

if TYPE_CHECKING:
    from app.runtime import Runtime

EXTENSION = "pagemill"


def runtime() -> Runtime:
    runtime: Runtime = current_app.extensions[EXTENSION]
    return runtime


def config() -> Config:
    return runtime().config


def principal() -> Principal:
    """The caller of a ``/v1`` route (set before the view runs)."""
    caller: Principal = g.principal
    return caller


def tenant_id() -> str:
    return principal().tenant_id
