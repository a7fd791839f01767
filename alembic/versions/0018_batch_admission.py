"""Fair admission of batches: per-key concurrency held in the database.

A batch is written ``queued`` and *waiting* (``admitted_at IS NULL``); app/domain/admission.py admits
waiting batches -- sets ``admitted_at`` and publishes their tasks -- only while their key has
a free slot, round-robin across keys, so that no worker ever holds a batch that must wait and
one key's backlog cannot queue ahead of another key's work.

- ``batches.slot_key``: the concurrency group, the submitting API key's id, or
  ``tenant:<id>`` for jobs without a key (CLI);
- ``batches.heavy``: a batch of a heavy kind (remote OCR), held to the stricter limit;
- ``batches.priority``: its broker priority (sync parse: 9), admitted first within its key;
- ``batches.admitted_at`` / ``published_at``: when a slot was given and when its task was
  published (a slot given but never published is re-published by the reconciler);
- ``api_keys.concurrency``: a key's own limit (``pagemill keys create --concurrency N``),
  replacing ``PAGEMILL_KEY_CONCURRENCY``.

Batches written before this revision were published at submission (as a chord): they are
marked admitted and published, so they neither wait nor get published twice.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-01
"""

from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        ALTER TABLE batches
            ADD COLUMN slot_key text,
            ADD COLUMN heavy boolean NOT NULL DEFAULT false,
            ADD COLUMN priority smallint NOT NULL DEFAULT 0,
            ADD COLUMN admitted_at timestamptz,
            ADD COLUMN published_at timestamptz;
        UPDATE batches SET admitted_at = now(), published_at = now();
        ALTER TABLE api_keys ADD COLUMN concurrency integer
            CHECK (concurrency IS NULL OR concurrency >= 1);
        -- What admission reads: the waiting batches, and the admitted ones still holding a slot.
        CREATE INDEX batches_waiting ON batches (slot_key, priority DESC, job_id, batch_no)
            WHERE admitted_at IS NULL AND status = 'queued';
        CREATE INDEX batches_holding ON batches (slot_key)
            WHERE admitted_at IS NOT NULL AND status <> 'done';
    """)


def downgrade() -> None:
    op.execute("""
        DROP INDEX IF EXISTS batches_holding;
        DROP INDEX IF EXISTS batches_waiting;
        ALTER TABLE api_keys DROP COLUMN concurrency;
        ALTER TABLE batches DROP COLUMN published_at, DROP COLUMN admitted_at,
            DROP COLUMN priority, DROP COLUMN heavy, DROP COLUMN slot_key;
    """)
