"""Request rate limits per API key (GCRA) and usage per key: ``rate_limit_arrivals``,
``api_keys.rate_limit_per_minute``, ``jobs.api_key_id`` and ``documents_usage``.

``rate_limit_arrivals`` holds one *theoretical arrival time* per API key, the whole state of
the generic cell rate algorithm (app/domain/rate_limits.py), and whether the key's latest request was
admitted (what the one statement that decides a request returns: a refusal leaves ``tat`` as
it was, so ``tat`` alone cannot tell).  It is UNLOGGED because every authenticated request
writes it, reads included: a transaction that writes only unlogged tables logs no change and
does not wait for a WAL flush at commit, so the limit costs a row update per request, not an
fsync.  After a crash PostgreSQL empties it, which only forgives the requests of the last
minute.  A key's row goes with the key.

``api_keys.rate_limit_per_minute`` overrides ``PAGEMILL_RATE_LIMIT_PER_MINUTE`` for one key
(``NULL``: the setting; ``0``: unlimited).

``jobs.api_key_id`` records which key submitted a job, so that usage can be told per key.
Jobs submitted before this revision have ``NULL`` there and count under no key.  No foreign
key: what a key consumed is billing history and outlives the key.

``documents_usage`` serves ``GET /v1/usage`` (app/domain/usage.py): a tenant's terminal documents in
order of the time they finished, carrying the columns the statement reads, so that it can
be answered from the index alone (once VACUUM has marked the pages all-visible).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01
"""

from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE UNLOGGED TABLE rate_limit_arrivals (
            api_key_id  uuid PRIMARY KEY REFERENCES api_keys(id) ON DELETE CASCADE,
            tat         timestamptz NOT NULL,
            admitted    boolean NOT NULL
        );
        ALTER TABLE api_keys ADD COLUMN rate_limit_per_minute integer
            CHECK (rate_limit_per_minute >= 0);
        ALTER TABLE jobs ADD COLUMN api_key_id uuid;
        CREATE INDEX documents_usage ON documents (tenant_id, finished_at)
            INCLUDE (job_id, status, page_count, size_bytes, parent_id)
            WHERE status IN ('completed', 'failed');
    """)


def downgrade() -> None:
    op.execute("""
        DROP INDEX documents_usage;
        ALTER TABLE jobs DROP COLUMN api_key_id;
        ALTER TABLE api_keys DROP COLUMN rate_limit_per_minute;
        DROP TABLE rate_limit_arrivals;
    """)
