"""The request that created a job: ``jobs.request_id``.

The API's request id (the client's ``X-Request-ID`` or a ULID it made) is stored with the job
and sent with its Celery messages, so that a job's worker log lines, its webhook bodies and
the API request that caused them share one id.  ``NULL`` for jobs created before this revision.
The webhook events of migration 0016 carry it too (``data.request_id``): their trigger
functions are replaced by the same ones with that field added.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-01
"""

from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


# Migration 0016's event functions with ``request_id`` added (a past migration never changes:
# these replace them).
EVENTS_WITH_REQUEST_ID = r"""
CREATE OR REPLACE FUNCTION webhook_job_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO outbox (tenant_id, topic, payload)
    SELECT NEW.tenant_id, 'job.' || NEW.status, jsonb_build_object(
        'job_id', NEW.id::text,
        'status', NEW.status,
        'retries', NEW.retries,
        'request_id', NEW.request_id,
        'counts', jsonb_build_object(
            'total', count(*),
            'completed', count(*) FILTER (WHERE d.status = 'completed'),
            'failed', count(*) FILTER (WHERE d.status = 'failed'),
            'cancelled', count(*) FILTER (WHERE d.status = 'cancelled')),
        'links', jsonb_build_object(
            'job', '/v1/jobs/' || NEW.id::text,
            'documents', '/v1/jobs/' || NEW.id::text || '/documents'))
    FROM documents d WHERE d.job_id = NEW.id AND d.parent_id IS NULL;
    RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION webhook_document_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM webhook_endpoints e
               WHERE e.tenant_id = NEW.tenant_id AND e.disabled_at IS NULL
                 AND 'document.' || NEW.status = ANY(e.events)) THEN
        INSERT INTO outbox (tenant_id, topic, payload)
        VALUES (NEW.tenant_id, 'document.' || NEW.status, jsonb_build_object(
            'id', NEW.id::text,
            'document_id', NEW.external_id,
            'job_id', NEW.job_id::text,
            'request_id', (SELECT j.request_id FROM jobs j WHERE j.id = NEW.job_id),
            'status', NEW.status,
            'error_code', NEW.error_code,
            'error_message', left(NEW.error_message, 500),
            'page_count', NEW.page_count,
            'chunk_count', NEW.chunk_count,
            'links', jsonb_build_object(
                'document', '/v1/documents/' || NEW.id::text,
                'job', '/v1/jobs/' || NEW.job_id::text)));
    END IF;
    RETURN NULL;
END $$;
"""

# 0016's functions as they were, for the downgrade.
EVENTS_WITHOUT_REQUEST_ID = r"""
CREATE OR REPLACE FUNCTION webhook_job_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO outbox (tenant_id, topic, payload)
    SELECT NEW.tenant_id, 'job.' || NEW.status, jsonb_build_object(
        'job_id', NEW.id::text,
        'status', NEW.status,
        'retries', NEW.retries,
        'counts', jsonb_build_object(
            'total', count(*),
            'completed', count(*) FILTER (WHERE d.status = 'completed'),
            'failed', count(*) FILTER (WHERE d.status = 'failed'),
            'cancelled', count(*) FILTER (WHERE d.status = 'cancelled')),
        'links', jsonb_build_object(
            'job', '/v1/jobs/' || NEW.id::text,
            'documents', '/v1/jobs/' || NEW.id::text || '/documents'))
    FROM documents d WHERE d.job_id = NEW.id AND d.parent_id IS NULL;
    RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION webhook_document_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM webhook_endpoints e
               WHERE e.tenant_id = NEW.tenant_id AND e.disabled_at IS NULL
                 AND 'document.' || NEW.status = ANY(e.events)) THEN
        INSERT INTO outbox (tenant_id, topic, payload)
        VALUES (NEW.tenant_id, 'document.' || NEW.status, jsonb_build_object(
            'id', NEW.id::text,
            'document_id', NEW.external_id,
            'job_id', NEW.job_id::text,
            'status', NEW.status,
            'error_code', NEW.error_code,
            'error_message', left(NEW.error_message, 500),
            'page_count', NEW.page_count,
            'chunk_count', NEW.chunk_count,
            'links', jsonb_build_object(
                'document', '/v1/documents/' || NEW.id::text,
                'job', '/v1/jobs/' || NEW.job_id::text)));
    END IF;
    RETURN NULL;
END $$;
"""


def upgrade() -> None:
    op.execute("ALTER TABLE jobs ADD COLUMN request_id text")
    op.execute(EVENTS_WITH_REQUEST_ID)


def downgrade() -> None:
    op.execute(EVENTS_WITHOUT_REQUEST_ID)
    op.execute("ALTER TABLE jobs DROP COLUMN request_id")
