"""Transcription metered per API key and UTC day, bounded by a per-key limit:
``transcription_usage`` and ``api_keys.transcription_seconds_per_day``.

``transcription_usage`` holds the seconds of recordings transcribed per tenant, key and UTC
day (app/domain/transcription_quota.py).  A recording's probed duration is added *before* any
provider is called, in the one statement that also checks the key's limit, so that two
recordings racing cannot both pass a limit only one fits; once the transcription ended the row
is adjusted to what was actually sent (the decoded track's duration; on a failure, the pieces
some provider was called for; nothing when none was).  ``api_key_id`` is ``NULL`` for jobs
without a key (the CLI), as in ``jobs.api_key_id``: metered, never limited.  No foreign key to
``api_keys``: what a key consumed is billing history and outlives the key.  ``NULL`` keys
cannot share a primary key, so the row is identified by a unique index over the key with
``NULL`` read as the nil UUID (``NULLS NOT DISTINCT`` needs PostgreSQL 15; 14 is supported).
``GET /v1/usage`` reads it by (tenant, day).

``api_keys.transcription_seconds_per_day`` overrides ``PAGEMILL_TRANSCRIPTION_SECONDS_PER_DAY``
for one key (``NULL``: the setting; ``0``: unlimited), set by ``pagemill keys create|update
--transcription-limit N|default``.

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-02
"""

from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE TABLE transcription_usage (
            tenant_id   uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
            api_key_id  uuid,
            day         date NOT NULL,
            seconds     double precision NOT NULL DEFAULT 0 CHECK (seconds >= 0)
        );
        CREATE UNIQUE INDEX transcription_usage_meter ON transcription_usage
            (tenant_id, day, coalesce(api_key_id, '00000000-0000-0000-0000-000000000000'::uuid));
        ALTER TABLE api_keys ADD COLUMN transcription_seconds_per_day integer
            CHECK (transcription_seconds_per_day >= 0);
    """)


def downgrade() -> None:
    op.execute("""
        ALTER TABLE api_keys DROP COLUMN transcription_seconds_per_day;
        DROP TABLE transcription_usage;
    """)
