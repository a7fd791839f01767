"""Initial schema: tenants, keys, jobs, batches, documents, chunks, BM25, outbox.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

UPGRADE = r"""
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE tenants (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name        text NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- Keys look like pm_<prefix>_<secret>; only a SHA-256 of the high-entropy secret is kept.
CREATE TABLE api_keys (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    tenant_id     uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    prefix        text NOT NULL UNIQUE,
    secret_sha256 text NOT NULL,
    name          text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_used_at  timestamptz,
    revoked_at    timestamptz
);

CREATE TABLE jobs (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    tenant_id        uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    status           text NOT NULL DEFAULT 'queued'
                     CHECK (status IN ('queued', 'running', 'completed', 'completed_with_errors',
                                       'failed', 'cancelled')),
    total_documents  integer NOT NULL,
    batch_size       integer NOT NULL,
    options          jsonb NOT NULL DEFAULT '{}'::jsonb,
    idempotency_key  text,
    request_sha256   text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    published_at     timestamptz,
    finished_at      timestamptz
);
CREATE INDEX jobs_tenant_created ON jobs (tenant_id, created_at DESC);
CREATE UNIQUE INDEX jobs_idempotency ON jobs (tenant_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;

CREATE TABLE batches (
    job_id       uuid NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    batch_no     integer NOT NULL,
    task_id      text NOT NULL,
    status       text NOT NULL DEFAULT 'queued'
                 CHECK (status IN ('queued', 'running', 'done')),
    deliveries   integer NOT NULL DEFAULT 0,
    started_at   timestamptz,
    finished_at  timestamptz,
    PRIMARY KEY (job_id, batch_no)
);

CREATE TABLE documents (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    tenant_id      uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    job_id         uuid NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    external_id    text NOT NULL,
    batch_no       integer NOT NULL,
    source         text NOT NULL CHECK (source IN ('upload', 'path', 'record', 'url', 'object')),
    object_key     text,
    filename       text,
    mime_type      text,
    size_bytes     bigint,
    sha256         text,
    metadata       jsonb NOT NULL DEFAULT '{}'::jsonb,
    status         text NOT NULL DEFAULT 'pending'
                   CHECK (status IN ('pending', 'processing', 'completed', 'failed', 'cancelled')),
    error_code     text,
    error_message  text,
    extractor      text,
    markdown       text,
    page_count     integer,
    chunk_count    integer,
    attempts       integer NOT NULL DEFAULT 0,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    started_at     timestamptz,
    finished_at    timestamptz,
    UNIQUE (job_id, external_id)
);
CREATE INDEX documents_job_status ON documents (job_id, status);
CREATE INDEX documents_job_batch ON documents (job_id, batch_no);
CREATE INDEX documents_tenant_external ON documents (tenant_id, external_id);

-- The searchable identity of a document: one per (tenant, external id), whichever job
-- indexed it last.  Re-ingesting replaces its chunks; it never adds a second set.
CREATE TABLE search_documents (
    id                  bigserial PRIMARY KEY,
    tenant_id           uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    external_id         text NOT NULL,
    source_document_id  uuid REFERENCES documents(id) ON DELETE SET NULL,
    job_id              uuid,
    content_sha256      text NOT NULL,
    mime_type           text,
    title               text,
    metadata            jsonb NOT NULL DEFAULT '{}'::jsonb,
    chunk_count         integer NOT NULL DEFAULT 0,
    indexed_at          timestamptz NOT NULL DEFAULT now(),
    UNIQUE (tenant_id, external_id)
);

CREATE TABLE chunks (
    id                  bigserial PRIMARY KEY,
    tenant_id           uuid NOT NULL,
    search_document_id  bigint NOT NULL REFERENCES search_documents(id) ON DELETE CASCADE,
    chunk_no            integer NOT NULL,
    text                text NOT NULL,
    heading_path        text[] NOT NULL DEFAULT '{}',
    page_start          integer,
    page_end            integer,
    token_count         integer NOT NULL,
    bm25_length         integer NOT NULL,
    embedding           vector(384) NOT NULL,
    UNIQUE (search_document_id, chunk_no)
);
CREATE INDEX chunks_tenant ON chunks (tenant_id);
CREATE INDEX chunks_embedding_hnsw ON chunks USING hnsw (embedding vector_cosine_ops)
    WITH (m = 16, ef_construction = 64);

-- BM25: postings per (tenant, term, chunk), document frequencies per term and corpus
-- statistics per tenant.  Statement-level triggers keep df and the statistics exact on
-- every insert and delete, cascades included, so no code path can let them drift.
CREATE TABLE bm25_postings (
    tenant_id  uuid NOT NULL,
    term       text NOT NULL,
    chunk_id   bigint NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
    tf         integer NOT NULL CHECK (tf > 0),
    doc_length integer NOT NULL,
    PRIMARY KEY (tenant_id, term, chunk_id)
);
CREATE INDEX bm25_postings_chunk ON bm25_postings (chunk_id);

CREATE TABLE bm25_terms (
    tenant_id  uuid NOT NULL,
    term       text NOT NULL,
    df         integer NOT NULL,
    PRIMARY KEY (tenant_id, term)
);

CREATE TABLE bm25_stats (
    tenant_id     uuid PRIMARY KEY,
    chunk_count   bigint NOT NULL DEFAULT 0,
    total_length  bigint NOT NULL DEFAULT 0
);

CREATE FUNCTION bm25_postings_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO bm25_terms AS t (tenant_id, term, df)
    SELECT tenant_id, term, count(*) FROM new_rows GROUP BY tenant_id, term ORDER BY tenant_id, term
    ON CONFLICT (tenant_id, term) DO UPDATE SET df = t.df + excluded.df;
    RETURN NULL;
END $$;

CREATE FUNCTION bm25_postings_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    WITH gone AS (
        SELECT tenant_id, term, count(*) AS n FROM old_rows GROUP BY tenant_id, term
    )
    UPDATE bm25_terms t SET df = t.df - gone.n
    FROM gone WHERE t.tenant_id = gone.tenant_id AND t.term = gone.term;
    DELETE FROM bm25_terms t USING (SELECT DISTINCT tenant_id, term FROM old_rows) g
    WHERE t.tenant_id = g.tenant_id AND t.term = g.term AND t.df <= 0;
    RETURN NULL;
END $$;

CREATE TRIGGER bm25_postings_ins AFTER INSERT ON bm25_postings
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bm25_postings_added();
CREATE TRIGGER bm25_postings_del AFTER DELETE ON bm25_postings
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bm25_postings_removed();

CREATE FUNCTION bm25_chunks_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO bm25_stats AS s (tenant_id, chunk_count, total_length)
    SELECT tenant_id, count(*), sum(bm25_length) FROM new_rows GROUP BY tenant_id
    ON CONFLICT (tenant_id) DO UPDATE
        SET chunk_count = s.chunk_count + excluded.chunk_count,
            total_length = s.total_length + excluded.total_length;
    RETURN NULL;
END $$;

CREATE FUNCTION bm25_chunks_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE bm25_stats s SET chunk_count = s.chunk_count - g.n, total_length = s.total_length - g.len
    FROM (SELECT tenant_id, count(*) AS n, sum(bm25_length) AS len FROM old_rows GROUP BY tenant_id) g
    WHERE s.tenant_id = g.tenant_id;
    RETURN NULL;
END $$;

CREATE TRIGGER bm25_chunks_ins AFTER INSERT ON chunks
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bm25_chunks_added();
CREATE TRIGGER bm25_chunks_del AFTER DELETE ON chunks
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bm25_chunks_removed();

-- Notifications to deliver (webhooks, SSE); written in the same transaction as the change.
CREATE TABLE outbox (
    id            bigserial PRIMARY KEY,
    tenant_id     uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    topic         text NOT NULL,
    payload       jsonb NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    delivered_at  timestamptz
);
CREATE INDEX outbox_undelivered ON outbox (id) WHERE delivered_at IS NULL;

-- Workers announce themselves here so that `pagemill ingest --wait` knows whether to start one.
CREATE TABLE worker_heartbeats (
    hostname      text PRIMARY KEY,
    pid           integer NOT NULL,
    started_at    timestamptz NOT NULL DEFAULT now(),
    last_seen_at  timestamptz NOT NULL DEFAULT now()
);
"""

DOWNGRADE = r"""
DROP TABLE IF EXISTS worker_heartbeats, outbox, bm25_stats, bm25_terms, bm25_postings, chunks,
    search_documents, documents, batches, jobs, api_keys, tenants CASCADE;
DROP FUNCTION IF EXISTS bm25_postings_added(), bm25_postings_removed(), bm25_chunks_added(),
    bm25_chunks_removed();
"""


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute(DOWNGRADE)
