"""A benchmark's own database on an embedded server in its own home, reused across runs."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, text

from app.auth import ensure_tenant
from app.db import get_engine, upgrade_schema
from app.embedded import start_embedded


def bench_tenant(pgdata: Path, database: str, tenant_name: str) -> tuple[Engine, str, int]:
    """The engine, the tenant's id and how many chunks it already holds (0: generate them)."""
    url = start_embedded(pgdata, database=database)
    upgrade_schema(url)
    engine = get_engine(url)
    with engine.begin() as conn:
        tenant = ensure_tenant(conn, tenant_name)
        have = conn.execute(text("SELECT chunk_count FROM bm25_stats WHERE tenant_id = :t"),
                            {"t": tenant}).scalar_one_or_none()
    return engine, tenant, int(have or 0)
