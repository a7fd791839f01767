"""Checks of whether a deployment can do work, shared by the readiness probe (``/readyz``)
and ``pagemill doctor``: the schema at the code's newest migration, the broker reachable.
Each answers what is wrong and what to do, or ``None`` when all is well."""

from __future__ import annotations

from importlib.util import find_spec

from sqlalchemy import Connection

from app.infra.db import applied_revisions, schema_heads


def schema_problem(conn: Connection) -> str | None:
    """Why the connected database's schema is not the one this code expects, or ``None``."""
    applied, heads = applied_revisions(conn), schema_heads()
    if applied == heads:
        return None
    return (f"the database's schema is at {', '.join(sorted(applied)) or 'no revision'}"
            f", the code expects {', '.join(sorted(heads))}: run `pagemill migrate`")


# BROKER_URL schemes whose client library kombu imports only when connecting, and whose
# absence it reports like a server that is down (redis: "'NoneType' object has no attribute
# 'Redis'"): scheme -> (module, pip package).
_BROKER_CLIENTS = {"redis": ("redis", "redis"), "rediss": ("redis", "redis"),
                   "sentinel": ("redis", "redis"), "mongodb": ("pymongo", "pymongo"),
                   "zookeeper": ("kazoo", "kazoo")}


def missing_broker_client(url: str) -> str | None:
    """What to install when BROKER_URL's transport needs a library that is not installed, or
    ``None``: a missing library is not a broker that is down."""
    scheme = url.split("://", 1)[0].split("+", 1)[0].lower()
    client = _BROKER_CLIENTS.get(scheme)
    if client is None or find_spec(client[0]) is not None:
        return None
    return f"the {client[1]} Python package is not installed: pip install {client[1]}"


def connect_broker(url: str, timeout: float = 3.0) -> None:
    """Open and close a connection to the broker at ``url`` (``BROKER_URL``: RabbitMQ, Redis,
    ...); raises whatever kombu raises when it cannot, after one retry."""
    from kombu import Connection as BrokerConnection

    with BrokerConnection(url, connect_timeout=timeout) as connection:
        connection.ensure_connection(max_retries=1, timeout=timeout)
