"""Operating the broker from outside a consumer: its dead letters (``pagemill broker
dead-letters``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Engine, Row

from tasks.broker import statements as sql
from tasks.broker.database import check_tables


def dead_letters(engine: Engine, limit: int = 100) -> Sequence[Row[Any]]:
    """The newest dead letters: id, queue, deliveries, reason, created_at, died_at, and the
    Celery task name and id (``task``, ``task_id``; None for other messages).

    Raises :class:`~tasks.broker.database.BrokerTablesMissing` on a database not migrated.
    """
    check_tables(engine)
    with engine.connect() as conn:
        return conn.execute(sql.DEAD_LETTERS, {"limit": limit}).all()


def requeue_dead_letters(engine: Engine, ids: list[int] | None = None) -> int:
    """Put dead letters (all, or those of ``ids``) back on their queues with a fresh delivery
    budget; returns how many."""
    check_tables(engine)
    with engine.begin() as conn:
        rows = conn.execute(sql.REQUEUE_DEAD_LETTERS,
                            {"ids": ids, "channel": sql.NOTIFY_CHANNEL}).all()
    return len(rows)
