"""Checks of whether a deployment can do work, shared by the readiness probe (``/readyz``)
and ``pagemill doctor``: the schema at the code's newest migration, the broker reachable.
Each answers what is wrong and what to do, or ``None`` when all is well."""

from __future__ import annotations

from sqlalchemy import Connection

from app.db import applied_revisions, schema_heads


def schema_problem(conn: Connection) -> str | None:
    """Why the connected database's schema is not the one this code expects, or ``None``."""
    applied, heads = applied_revisions(conn), schema_heads()
    if applied == heads:
        return None
    return (f"the database's schema is at {', '.join(sorted(applied)) or 'no revision'}"
            f", the code expects {', '.join(sorted(heads))}: run `pagemill migrate`")


def connect_broker(url: str, timeout: float = 3.0) -> None:
    """Open and close a connection to the broker at ``url`` (``BROKER_URL``: RabbitMQ, Redis,
    ...); raises whatever kombu raises when it cannot, after one retry."""
    from kombu import Connection as BrokerConnection

    with BrokerConnection(url, connect_timeout=timeout) as connection:
        connection.ensure_connection(max_retries=1, timeout=timeout)
