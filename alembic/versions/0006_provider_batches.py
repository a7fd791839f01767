"""Remote OCR provider batches, documents waiting on a provider, structured annotations.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30
"""

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        ALTER TABLE documents DROP CONSTRAINT documents_status_check;
        -- 'waiting': handed to a remote provider's batch; not terminal, not retried by a
        -- redelivered batch task (only 'pending' and 'processing' are claimed).
        ALTER TABLE documents ADD CONSTRAINT documents_status_check CHECK
            (status IN ('pending', 'processing', 'waiting', 'completed', 'failed', 'cancelled'));
        ALTER TABLE documents ADD COLUMN annotation jsonb;

        CREATE TABLE provider_batches (
            id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
            job_id           uuid NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
            batch_no         integer NOT NULL,
            provider         text NOT NULL,
            status           text NOT NULL DEFAULT 'submitting'
                             CHECK (status IN ('submitting', 'submitted', 'succeeded', 'failed',
                                               'timed_out')),
            provider_job_id  text,
            input_file_id    text,
            provider_status  text,
            checks           integer NOT NULL DEFAULT 0,
            submit_attempts  integer NOT NULL DEFAULT 0,
            error            text,
            raw_output_key   text,
            created_at       timestamptz NOT NULL DEFAULT now(),
            submitted_at     timestamptz,
            next_check_at    timestamptz,
            deadline         timestamptz NOT NULL,
            finished_at      timestamptz,
            UNIQUE (job_id, batch_no)
        );
        CREATE INDEX provider_batches_open ON provider_batches (next_check_at)
            WHERE status IN ('submitting', 'submitted');
    """)


def downgrade() -> None:
    op.execute("""
        DROP TABLE provider_batches;
        ALTER TABLE documents DROP COLUMN annotation;
        ALTER TABLE documents DROP CONSTRAINT documents_status_check;
        ALTER TABLE documents ADD CONSTRAINT documents_status_check CHECK
            (status IN ('pending', 'processing', 'completed', 'failed', 'cancelled'));
    """)
