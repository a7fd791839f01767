"""NOTIFY on job and document state changes, for Server-Sent Events.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE FUNCTION notify_job_event() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            -- The payload names the job; listeners re-read progress from the rows.  (Two
            -- branches: NEW.job_id does not exist on a jobs row.)
            IF TG_TABLE_NAME = 'jobs' THEN
                PERFORM pg_notify('pagemill_job_events', NEW.id::text);
            ELSE
                PERFORM pg_notify('pagemill_job_events', NEW.job_id::text);
            END IF;
            RETURN NULL;
        END $$;

        CREATE TRIGGER documents_status_notify AFTER UPDATE OF status ON documents
            FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
            EXECUTE FUNCTION notify_job_event();
        CREATE TRIGGER jobs_status_notify AFTER UPDATE OF status ON jobs
            FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
            EXECUTE FUNCTION notify_job_event();
    """)


def downgrade() -> None:
    op.execute("""
        DROP TRIGGER IF EXISTS documents_status_notify ON documents;
        DROP TRIGGER IF EXISTS jobs_status_notify ON jobs;
        DROP FUNCTION IF EXISTS notify_job_event();
    """)
