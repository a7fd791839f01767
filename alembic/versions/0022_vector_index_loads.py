"""Bulk loads: jobs that ingest with the HNSW graph dropped, rebuilt once they are all done.

A job expected to add more than ``PAGEMILL_HNSW_BULK_SHARE`` of the chunks already indexed
(and at least ``PAGEMILL_HNSW_BULK_MIN_CHUNKS``) is a bulk load: its first batch drops the
graph, every batch then inserts without maintaining it, and when the last running bulk load
ends the graph is built once (app/domain/bulk_loads.py).  Rows stay as history: ``ended_at`` when
the job ended, ``built_at`` when the graph was rebuilt after it.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-01
"""

from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE TABLE vector_index_loads (
            job_id           uuid PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
            expected_chunks  bigint NOT NULL,
            indexed_chunks   bigint NOT NULL,
            started_at       timestamptz NOT NULL DEFAULT now(),
            ended_at         timestamptz,
            built_at         timestamptz
        )
    """)


def downgrade() -> None:
    op.execute("DROP TABLE vector_index_loads")
