"""Media batches on a queue of their own, and transcription providers' cool-downs.

- ``batches.media_documents``: how many audio or video documents the batch holds.  A batch
  with any goes to the ``pagemill.media`` queue, its time limit raised by
  ``PAGEMILL_MEDIA_TIME_LIMIT`` per recording, so a worker given only that queue takes long
  recordings and no document waits behind them.  Batches written before this revision
  keep 0: their tasks are already in the ordinary queue.
- ``provider_cooldowns``: a provider that kept answering 429 (app/domain/provider_cooldowns.py),
  until when every worker asks it last, with the error that put it there.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-01
"""

from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE batches ADD COLUMN media_documents integer NOT NULL DEFAULT 0")
    op.execute("""
        CREATE TABLE provider_cooldowns (
            provider    text PRIMARY KEY,
            until       timestamptz NOT NULL,
            hits        integer NOT NULL DEFAULT 1,
            last_error  text,
            updated_at  timestamptz NOT NULL DEFAULT now()
        )
    """)


def downgrade() -> None:
    op.execute("DROP TABLE provider_cooldowns")
    op.execute("ALTER TABLE batches DROP COLUMN media_documents")
