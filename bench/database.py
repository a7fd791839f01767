"""A benchmark's own database on an embedded server in its own home, reused across runs."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from sqlalchemy import Connection, Engine, text

from app.domain.auth import ensure_tenant
from app.infra.db import get_engine, upgrade_schema
from app.infra.embedded import start_embedded


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


#: Where bench/search.py keeps its server and corpora, and the scripts that read them look.
SEARCH_HOME = "/tmp/pagemill-bench-search"


def add_home_argument(parser: argparse.ArgumentParser, default: str = SEARCH_HOME) -> None:
    """``--home``: the benchmark server's home, PAGEMILL_BENCH_HOME or ``default`` unless given."""
    parser.add_argument("--home", default=os.environ.get("PAGEMILL_BENCH_HOME", default),
                        help="the benchmark server's home (env PAGEMILL_BENCH_HOME; default %(default)s)")


def search_corpus(home: Path, size: int) -> tuple[Engine, str, int]:
    """The engine, tenant and chunk count of the ``size``-chunk corpus that bench/search.py
    built under ``home``; exits, saying how to build it, when there is none (the scripts that
    compare versions on it must not start generating one)."""
    engine, tenant, have = bench_tenant(home / "pgdata", f"pagemill_bench_{size}", f"search-{size}")
    if not have:
        raise SystemExit(f"no {size:,}-chunk corpus under {home}: build it with "
                         f"python -m bench.search --sizes {size} first")
    return engine, tenant, have


def enter_vocabulary(conn: Connection, tenant: str, size: int) -> None:
    """Terms t1..t<size> into the tenant's dictionary (df 0): postings name their term by id,
    so a bulk load enters its vocabulary first, as indexing/store.py enters a document's."""
    conn.execute(text("""
        INSERT INTO bm25_terms (tenant_id, term, df)
        SELECT :t, 't' || g, 0 FROM generate_series(1, :v) g
        ON CONFLICT (tenant_id, term) DO NOTHING"""), {"t": tenant, "v": size})


def drop_unused_terms(conn: Connection, tenant: str) -> None:
    """The vocabulary's terms that no chunk drew, as deleting their last posting would."""
    conn.execute(text("DELETE FROM bm25_terms WHERE tenant_id = :t AND df = 0"), {"t": tenant})
