"""Webhooks in the Standard Webhooks format: endpoints, one delivery per (endpoint, event), and
every attempt; the events themselves are written by triggers, in the transaction of the change.

``webhook_endpoints``: a tenant's receivers, each with the event types it wants.  Its signing
secret is stored as a Fernet token (app/domain/secret_options.py), never readable; after a rotation
the previous one keeps signing until ``previous_secret_expires_at``.  ``disabled_at`` is set
when the receiver answers 410 Gone.

``webhook_deliveries``: the database-held schedule.  ``next_attempt_at`` of a ``pending`` row
says when it is due; workers claim due rows with ``FOR UPDATE SKIP LOCKED`` from the partial
index ``webhook_deliveries_due`` and move ``next_attempt_at`` past the attempt (a lease), so a
worker killed mid-attempt leaves the row due again later, never lost.

``webhook_attempts``: what each attempt got (status code or error, and how long it took).

Events: a job whose status becomes terminal, and a submitted document (not an attachment) that
becomes completed or failed, write an ``outbox`` row from a trigger, in the same transaction as
the change, whatever code path made it.  Document events are written only for tenants with an
endpoint that wants them (most tenants have none; a job of 10,000 documents would otherwise
write 10,000 rows nobody reads); job events always, as before.  A statement trigger on
``outbox`` fans every new event out to the tenant's endpoints that want it in one
``INSERT ... SELECT`` per statement.  Payloads carry ids, statuses, counts and links, never
document text.  Job events replace the earlier ``job.finished`` topic.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-01
"""

from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

UPGRADE = r"""
CREATE TABLE webhook_endpoints (
    id                          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    tenant_id                   uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    url                         text NOT NULL,
    events                      text[] NOT NULL,
    description                 text,
    secret                      text NOT NULL,
    previous_secret             text,
    previous_secret_expires_at  timestamptz,
    disabled_at                 timestamptz,
    disabled_reason             text,
    created_at                  timestamptz NOT NULL DEFAULT now(),
    updated_at                  timestamptz NOT NULL DEFAULT now()
);
-- The fan-out and the document trigger look up a tenant's live endpoints.
CREATE INDEX webhook_endpoints_tenant ON webhook_endpoints (tenant_id) WHERE disabled_at IS NULL;

CREATE TABLE webhook_deliveries (
    id                bigserial PRIMARY KEY,
    endpoint_id       uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    event_id          bigint NOT NULL REFERENCES outbox(id) ON DELETE CASCADE,
    status            text NOT NULL DEFAULT 'pending'
                      CHECK (status IN ('pending', 'delivered', 'dead', 'disabled')),
    attempts          integer NOT NULL DEFAULT 0,
    next_attempt_at   timestamptz NOT NULL DEFAULT now(),
    last_status_code  integer,
    last_error        text,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    delivered_at      timestamptz,
    UNIQUE (endpoint_id, event_id)
);
-- Claiming: due pending rows in order of due time; settled rows leave the index.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
-- An endpoint's delivery listing, newest event first.
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, event_id DESC);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

CREATE TABLE webhook_attempts (
    id            bigserial PRIMARY KEY,
    delivery_id   bigint NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
    attempted_at  timestamptz NOT NULL DEFAULT now(),
    status_code   integer,
    error         text,
    duration_ms   integer NOT NULL
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, id);

CREATE FUNCTION webhook_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO webhook_deliveries (endpoint_id, event_id)
    SELECT e.id, o.id
    FROM new_events o
    JOIN webhook_endpoints e ON e.tenant_id = o.tenant_id AND e.disabled_at IS NULL
                            AND o.topic = ANY(e.events)
    -- An endpoint is not told about its own exhausted deliveries (it is the one not answering).
    WHERE o.topic <> 'webhook.exhausted' OR o.payload->>'endpoint_id' IS DISTINCT FROM e.id::text;
    RETURN NULL;
END $$;
CREATE TRIGGER outbox_webhook_fan_out AFTER INSERT ON outbox
    REFERENCING NEW TABLE AS new_events
    FOR EACH STATEMENT EXECUTE FUNCTION webhook_fan_out();

CREATE FUNCTION webhook_job_event() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER jobs_webhook_event AFTER UPDATE OF status ON jobs
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status
                       AND NEW.status IN ('completed', 'completed_with_errors', 'failed', 'cancelled'))
    EXECUTE FUNCTION webhook_job_event();

CREATE FUNCTION webhook_document_event() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER documents_webhook_event AFTER UPDATE OF status ON documents
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status
                       AND NEW.status IN ('completed', 'failed') AND NEW.parent_id IS NULL)
    EXECUTE FUNCTION webhook_document_event();
"""

DOWNGRADE = r"""
DROP TRIGGER IF EXISTS documents_webhook_event ON documents;
DROP TRIGGER IF EXISTS jobs_webhook_event ON jobs;
DROP TRIGGER IF EXISTS outbox_webhook_fan_out ON outbox;
DROP FUNCTION IF EXISTS webhook_document_event(), webhook_job_event(), webhook_fan_out();
DROP TABLE IF EXISTS webhook_attempts, webhook_deliveries, webhook_endpoints;
"""


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute(DOWNGRADE)
