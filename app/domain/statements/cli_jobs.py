"""The statements of app/cli/jobs.py: what ``pagemill jobs`` reads across tenants (the API
reads one tenant's jobs only, through app/domain/jobs.py)."""

from __future__ import annotations

from sqlalchemy import text

#: The newest jobs of every tenant (:status NULL: any), with their tenant's name, at most
#: :limit; their progress is then read one job at a time.
NEWEST_JOBS = text("""
        SELECT j.id::text AS id, t.name FROM jobs j JOIN tenants t ON t.id = j.tenant_id
        WHERE CAST(:status AS text) IS NULL OR j.status = :status
        ORDER BY j.created_at DESC, j.id LIMIT :limit
    """)

#: The id of the tenant named :name (none: no such tenant; never created here).
TENANT_ID = text("SELECT id::text FROM tenants WHERE name = :name")

#: The name of tenant :id.
TENANT_NAME = text("SELECT name FROM tenants WHERE id = :id")
