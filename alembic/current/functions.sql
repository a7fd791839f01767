-- The functions and triggers of pagemill's schema after every migration, as
-- PostgreSQL prints them (pg_get_functiondef, pg_get_triggerdef).  Generated, do not
-- edit: change them with a migration, then run .venv/bin/python -m tests.render_schema
-- (tests/test_schema.py compares this file with a freshly migrated database).

-- Functions

CREATE OR REPLACE FUNCTION public.bm25_chunks_added()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    INSERT INTO bm25_stats AS s (tenant_id, chunk_count, total_length)
    SELECT tenant_id, count(*), sum(bm25_length) FROM new_rows GROUP BY tenant_id
    ON CONFLICT (tenant_id) DO UPDATE
        SET chunk_count = s.chunk_count + excluded.chunk_count,
            total_length = s.total_length + excluded.total_length;
    RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.bm25_chunks_removed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    UPDATE bm25_stats s SET chunk_count = s.chunk_count - g.n, total_length = s.total_length - g.len
    FROM (SELECT tenant_id, count(*) AS n, sum(bm25_length) AS len FROM old_rows GROUP BY tenant_id) g
    WHERE s.tenant_id = g.tenant_id;
    RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.bm25_delta_added()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
    expected bigint;
    updated bigint;
BEGIN
    WITH added AS (SELECT term_id, count(*) AS n FROM new_rows GROUP BY term_id),
         counted AS (UPDATE bm25_terms t SET df = t.df + added.n FROM added
                     WHERE t.id = added.term_id RETURNING t.tenant_id, added.n),
         pending AS (UPDATE bm25_stats s SET delta_postings = s.delta_postings + c.n
                     FROM (SELECT tenant_id, sum(n) AS n FROM counted GROUP BY tenant_id) c
                     WHERE s.tenant_id = c.tenant_id RETURNING 1)
    SELECT (SELECT count(*) FROM added), (SELECT count(*) FROM counted) INTO expected, updated;
    IF updated <> expected THEN
        RAISE EXCEPTION 'bm25_delta: % of % term ids are not in bm25_terms',
            expected - updated, expected USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.bm25_term_score(weight double precision, tf integer, doc_length integer, avgdl double precision, k1 double precision, b double precision)
 RETURNS double precision
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
RETURN (((weight * (tf)::double precision) * (k1 + (1.0)::double precision)) / ((tf)::double precision + (k1 * (((1.0)::double precision - b) + ((b * (doc_length)::double precision) / avgdl)))));

CREATE OR REPLACE FUNCTION public.notify_job_event()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
        BEGIN
            -- The payload names the job; listeners re-read progress from the rows.  (Two
            -- branches: NEW.job_id does not exist on a jobs row.)
            IF TG_TABLE_NAME = 'jobs' THEN
                PERFORM pg_notify('pagemill_job_events', NEW.id::text);
            ELSE
                PERFORM pg_notify('pagemill_job_events', NEW.job_id::text);
            END IF;
            RETURN NULL;
        END $function$;

CREATE OR REPLACE FUNCTION public.webhook_document_event()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
END $function$;

CREATE OR REPLACE FUNCTION public.webhook_fan_out()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    INSERT INTO webhook_deliveries (endpoint_id, event_id)
    SELECT e.id, o.id
    FROM new_events o
    JOIN webhook_endpoints e ON e.tenant_id = o.tenant_id AND e.disabled_at IS NULL
                            AND o.topic = ANY(e.events)
    -- An endpoint is not told about its own exhausted deliveries (it is the one not answering).
    WHERE o.topic <> 'webhook.exhausted' OR o.payload->>'endpoint_id' IS DISTINCT FROM e.id::text;
    RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.webhook_job_event()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
END $function$;

-- Triggers

CREATE TRIGGER bm25_delta_ins AFTER INSERT ON bm25_delta REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bm25_delta_added();

CREATE TRIGGER bm25_chunks_del AFTER DELETE ON chunks REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bm25_chunks_removed();

CREATE TRIGGER bm25_chunks_ins AFTER INSERT ON chunks REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bm25_chunks_added();

CREATE TRIGGER documents_status_notify AFTER UPDATE OF status ON documents FOR EACH ROW WHEN (old.status IS DISTINCT FROM new.status) EXECUTE FUNCTION notify_job_event();

CREATE TRIGGER documents_webhook_event AFTER UPDATE OF status ON documents FOR EACH ROW WHEN (old.status IS DISTINCT FROM new.status AND (new.status = ANY (ARRAY['completed'::text, 'failed'::text])) AND new.parent_id IS NULL) EXECUTE FUNCTION webhook_document_event();

CREATE TRIGGER jobs_status_notify AFTER UPDATE OF status ON jobs FOR EACH ROW WHEN (old.status IS DISTINCT FROM new.status) EXECUTE FUNCTION notify_job_event();

CREATE TRIGGER jobs_webhook_event AFTER UPDATE OF status ON jobs FOR EACH ROW WHEN (old.status IS DISTINCT FROM new.status AND (new.status = ANY (ARRAY['completed'::text, 'completed_with_errors'::text, 'failed'::text, 'cancelled'::text]))) EXECUTE FUNCTION webhook_job_event();

CREATE TRIGGER outbox_webhook_fan_out AFTER INSERT ON outbox REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION webhook_fan_out();
