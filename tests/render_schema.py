"""Write the functions and triggers that the migrations leave in the database, as PostgreSQL
itself prints them, into ``alembic/current/functions.sql``: the one place to read the
current body of a trigger function (the outbox, the webhook fan-out, the job notifications,
the BM25 postings), which otherwise is in whichever migration redefined it last.

    .venv/bin/python -m tests.render_schema

Run it after a migration that changes a function or a trigger; tests/test_schema.py fails
while the file differs from what a freshly migrated database holds.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Connection, text

CURRENT = Path(__file__).resolve().parents[1] / "alembic" / "current" / "functions.sql"
COMMAND = ".venv/bin/python -m tests.render_schema"

# Functions of the public schema that no extension owns (pgvector's are its own business).
_FUNCTIONS = text("""
SELECT pg_get_functiondef(p.oid)
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'public'
  AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
ORDER BY p.proname, pg_get_function_identity_arguments(p.oid)
""")

# User triggers (not the ones PostgreSQL makes for foreign keys), by table then name.
_TRIGGERS = text("""
SELECT pg_get_triggerdef(t.oid, true)
FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND NOT t.tgisinternal
ORDER BY c.relname, t.tgname
""")


def render(conn: Connection) -> str:
    functions = [row[0].strip() + ";" for row in conn.execute(_FUNCTIONS)]
    triggers = [row[0].strip() + ";" for row in conn.execute(_TRIGGERS)]
    head = ("-- The functions and triggers of pagemill's schema after every migration, as\n"
            "-- PostgreSQL prints them (pg_get_functiondef, pg_get_triggerdef).  Generated, do not\n"
            f"-- edit: change them with a migration, then run {COMMAND}\n"
            "-- (tests/test_schema.py compares this file with a freshly migrated database).\n")
    return "\n\n".join([head + "\n-- Functions", *functions, "-- Triggers", *triggers]) + "\n"


def main() -> None:
    from app.config import Config
    from app.infra.db import get_engine, upgrade_schema
    from app.runtime import Runtime

    url = Runtime(Config.from_env()).database_url
    upgrade_schema(url)
    with get_engine(url).connect() as conn:
        CURRENT.write_text(render(conn))
    print(f"wrote {CURRENT}")


if __name__ == "__main__":
    main()
