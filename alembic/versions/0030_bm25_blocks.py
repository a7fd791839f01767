"""BM25 postings in compressed blocks (issue 33 item 1): ``bm25_blocks``, ``bm25_top``,
``bm25_delta`` and ``bm25_dead`` replace ``bm25_postings`` (~159 bytes a posting; the blocks
~11, bench/bm25_blocks.py measured the layout and its search).

- ``bm25_blocks``: per term, its merged postings in chunk-id order cut into blocks of at most
  128, key (term_id, last_chunk) INCLUDE (first_chunk, max_impact); offsets from first_chunk
  in ``offs2`` (int2, when the block spans fewer than 32768 ids) or ``offs4``, with the tfs
  and the chunks' BM25 lengths aligned; ``max_impact`` the block's best impact rounded up by
  a relative 1e-6, so that the real it is stored as bounds every posting's float8 impact.
- ``bm25_top``: the champions: each term with df above the tenant's ``bm25_stats.champions``
  (C): its best postings by impact in impact order (impact DESC, chunk_id) cut into blocks
  blk = 0, 1, ...; within a block chunk-id order; ``min_impact`` (rounded up) bounds every
  posting of the term outside blocks 0..blk.
- ``bm25_delta``: every posting of the chunks written since the tenant's last merge
  (indexing/bm25_merge.py); a chunk's postings are all here or all in the blocks.
- ``bm25_dead``: merged chunks deleted or replaced since the last merge; their postings stay
  in the blocks and champions until the merge drops them.  Beside the key the search reads,
  a tombstone keeps its tenant and the chunk's term ids, so that the merge finds the blocks
  that hold it by key (the chunk's row is gone by then).

df stays exact through the writers (indexing/store.py, indexing/bm25_writes.py) and a trigger
on bm25_delta that counts inserted postings into bm25_terms.df and bm25_stats.delta_postings
(the merge's trigger: PAGEMILL_BM25_MERGE_AT) and refuses term ids missing from the
dictionary, as bm25_postings' did.  bm25_terms rows are no longer deleted at df 0: blocks may
hold a term's dead postings until a merge.

The upgrade reads bm25_postings whole (a maintenance window, like 0012's): 45 s in place at
200,000 chunks, 16.4M postings (docs/BENCHMARKS.md, 2026-12-05).  Chunks longer than 32767
BM25 terms do not fit the int2 lengths: the upgrade refuses them (none can be written from now
on either).  The downgrade decodes blocks and delta less the tombstones back into bm25_postings (impacts with
each tenant's parameters) and restores 0012's triggers.

Revision ID: 0030
Revises: 0029
Create Date: 2026-12-05
"""

from sqlalchemy import text

from alembic import op

revision = "0030"
down_revision = "0029"
branch_labels = None
depends_on = None

_TABLES = """
ALTER TABLE bm25_stats ADD COLUMN champions int NOT NULL DEFAULT 4096,
                       ADD COLUMN delta_postings bigint NOT NULL DEFAULT 0;
COMMENT ON COLUMN bm25_stats.champions IS
    'C: terms with df > C keep their best postings in bm25_top (migration 0030)';
COMMENT ON COLUMN bm25_stats.delta_postings IS
    'postings in bm25_delta: a merge is due past PAGEMILL_BM25_MERGE_AT (migration 0030)';
CREATE TABLE bm25_blocks (
    term_id     bigint NOT NULL,
    last_chunk  bigint NOT NULL,
    first_chunk bigint NOT NULL,
    max_impact  real NOT NULL,
    offs2       int2[],
    offs4       int4[],
    tfs         int2[] NOT NULL,
    lens        int2[] NOT NULL,
    PRIMARY KEY (term_id, last_chunk) INCLUDE (first_chunk, max_impact)
);
CREATE TABLE bm25_top (
    term_id     bigint NOT NULL,
    blk         int NOT NULL,
    first_chunk bigint NOT NULL,
    min_impact  real NOT NULL,
    offs2       int2[],
    offs4       int4[],
    tfs         int2[] NOT NULL,
    lens        int2[] NOT NULL,
    PRIMARY KEY (term_id, blk)
);
CREATE TABLE bm25_delta (
    term_id    bigint NOT NULL,
    chunk_id   bigint NOT NULL,
    tf         int NOT NULL,
    doc_length int NOT NULL,
    PRIMARY KEY (term_id, chunk_id)
);
-- Deleting a document finds its chunks' delta rows by chunk.
CREATE INDEX bm25_delta_chunk ON bm25_delta (chunk_id);
CREATE TABLE bm25_dead (
    chunk_id  bigint PRIMARY KEY,
    tenant_id uuid NOT NULL,
    term_ids  bigint[] NOT NULL
);
CREATE INDEX bm25_dead_tenant ON bm25_dead (tenant_id);
"""

# The postings as they are, with each tenant's impact (the formula the writers stored).
_POSTINGS = """
SELECT p.term_id, p.chunk_id, p.tf, p.doc_length,
       coalesce(bm25_term_score(1.0::float8, p.tf, p.doc_length, s.impact_avgdl, s.impact_k1, s.impact_b),
                p.impact::float8) AS impact, s.champions, t.df
FROM bm25_postings p JOIN bm25_terms t ON t.id = p.term_id JOIN bm25_stats s ON s.tenant_id = t.tenant_id
"""

# A block's arrays over rows (chunk_id, tf, doc_length, first = the block's least chunk id).
_PACKED = """
CASE WHEN max(chunk_id) - min(chunk_id) < 32768
     THEN array_agg((chunk_id - first)::int4 ORDER BY chunk_id)::int2[] END,
CASE WHEN max(chunk_id) - min(chunk_id) >= 32768
     THEN array_agg((chunk_id - first)::int4 ORDER BY chunk_id) END,
array_agg(tf::int2 ORDER BY chunk_id), array_agg(doc_length::int2 ORDER BY chunk_id)
"""

_FILL = f"""
INSERT INTO bm25_blocks (term_id, last_chunk, first_chunk, max_impact, offs2, offs4, tfs, lens)
SELECT term_id, max(chunk_id), min(chunk_id), (max(impact) * (1.0 + 1e-6))::real, {_PACKED}
FROM (SELECT p.*, min(chunk_id) OVER (PARTITION BY term_id, blk) AS first
      FROM (SELECT p.*, (row_number() OVER (PARTITION BY term_id ORDER BY chunk_id) - 1) / 128 AS blk
            FROM ({_POSTINGS}) p) p) p
GROUP BY term_id, blk
ORDER BY term_id, max(chunk_id)
"""

_CHAMPIONS = f"""
INSERT INTO bm25_top (term_id, blk, first_chunk, min_impact, offs2, offs4, tfs, lens)
SELECT term_id, blk, min(chunk_id), (min(impact) * (1.0 + 1e-6))::real, {_PACKED}
FROM (SELECT p.*, min(chunk_id) OVER (PARTITION BY term_id, blk) AS first
      FROM (SELECT r.*, r.rn / 128 AS blk
            FROM (SELECT p.*, row_number() OVER (PARTITION BY p.term_id
                                                 ORDER BY p.impact DESC, p.chunk_id) - 1 AS rn
                  FROM ({_POSTINGS}) p WHERE p.df > p.champions) r
            WHERE r.rn < r.champions) p) p
GROUP BY term_id, blk
ORDER BY term_id, blk
"""

_DELTA_TRIGGER = """
CREATE FUNCTION bm25_delta_added() RETURNS trigger LANGUAGE plpgsql AS $$
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
END $$;
CREATE TRIGGER bm25_delta_ins AFTER INSERT ON bm25_delta
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bm25_delta_added();
"""

_TOO_LONG = text("SELECT count(*) FROM chunks WHERE bm25_length > 32767")


def _champions_for(chunk_count: int) -> int:
    """max(4096, the next power of two >= chunk_count / 64) (indexing/bm25_merge.py's rule)."""
    wanted = -(-chunk_count // 64)
    return max(4096, 1 << max(0, wanted - 1).bit_length())


def upgrade() -> None:
    conn = op.get_bind()
    too_long = conn.execute(_TOO_LONG).scalar_one()
    if too_long:
        raise RuntimeError(f"{too_long} chunks are longer than 32767 BM25 terms, which the blocks' "
                           "int2 lengths cannot hold: delete or re-chunk their documents first")
    op.execute(_TABLES)
    for tenant, chunk_count in conn.execute(text("SELECT tenant_id, chunk_count FROM bm25_stats")).all():
        conn.execute(text("UPDATE bm25_stats SET champions = :c WHERE tenant_id = :t"),
                     {"c": _champions_for(int(chunk_count)), "t": tenant})
    op.execute("SET LOCAL work_mem = '256MB'")
    op.execute(_FILL)
    op.execute(_CHAMPIONS)
    op.execute("""
        DROP TABLE bm25_postings;
        DROP FUNCTION bm25_postings_added();
        DROP FUNCTION bm25_postings_removed();
    """ + _DELTA_TRIGGER)


# 0012's trigger functions, as alembic/current/functions.sql printed them before this.
_POSTINGS_TRIGGERS = """
CREATE FUNCTION bm25_postings_added() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    expected bigint;
    updated bigint;
BEGIN
    WITH added AS (SELECT term_id, count(*) AS n FROM new_rows GROUP BY term_id),
         counted AS (UPDATE bm25_terms t SET df = t.df + added.n FROM added
                     WHERE t.id = added.term_id RETURNING 1)
    SELECT (SELECT count(*) FROM added), (SELECT count(*) FROM counted) INTO expected, updated;
    IF updated <> expected THEN
        RAISE EXCEPTION 'bm25_postings: % of % term ids are not in bm25_terms',
            expected - updated, expected USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;
CREATE FUNCTION bm25_postings_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    WITH gone AS (SELECT term_id, count(*) AS n FROM old_rows GROUP BY term_id)
    UPDATE bm25_terms t SET df = t.df - gone.n FROM gone WHERE t.id = gone.term_id;
    DELETE FROM bm25_terms t USING (SELECT DISTINCT term_id FROM old_rows) g
    WHERE t.id = g.term_id AND t.df <= 0;
    RETURN NULL;
END $$;
CREATE TRIGGER bm25_postings_ins AFTER INSERT ON bm25_postings
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bm25_postings_added();
CREATE TRIGGER bm25_postings_del AFTER DELETE ON bm25_postings
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bm25_postings_removed();
"""


def downgrade() -> None:
    op.execute("""
        CREATE TABLE bm25_postings (
            term_id    bigint NOT NULL,
            chunk_id   bigint NOT NULL,
            tf         integer NOT NULL CHECK (tf > 0),
            doc_length integer NOT NULL,
            impact     real
        );
        INSERT INTO bm25_postings (term_id, chunk_id, tf, doc_length, impact)
        SELECT p.term_id, p.chunk_id, p.tf, p.doc_length,
               bm25_term_score(1.0::float8, p.tf, p.doc_length, s.impact_avgdl, s.impact_k1, s.impact_b)
        FROM (SELECT b.term_id, b.first_chunk + u.off AS chunk_id, u.tf::int AS tf, u.len::int AS doc_length
              FROM bm25_blocks b
              CROSS JOIN LATERAL unnest(coalesce(b.offs2::int4[], b.offs4), b.tfs, b.lens) AS u(off, tf, len)
              WHERE NOT EXISTS (SELECT 1 FROM bm25_dead x WHERE x.chunk_id = b.first_chunk + u.off)
              UNION ALL
              SELECT term_id, chunk_id, tf, doc_length FROM bm25_delta) p
        JOIN bm25_terms t ON t.id = p.term_id JOIN bm25_stats s ON s.tenant_id = t.tenant_id;
        ALTER TABLE bm25_postings
            ADD CONSTRAINT bm25_postings_pkey PRIMARY KEY (term_id, chunk_id) INCLUDE (tf, doc_length),
            ADD CONSTRAINT bm25_postings_chunk_id_fkey
                FOREIGN KEY (chunk_id) REFERENCES chunks(id) ON DELETE CASCADE;
        CREATE INDEX bm25_postings_chunk ON bm25_postings (chunk_id);
        CREATE INDEX bm25_postings_impact ON bm25_postings (term_id, impact DESC, chunk_id)
            INCLUDE (tf, doc_length);
        -- Terms left at df 0 (kept while blocks could hold their dead postings) go, as 0012 did.
        DELETE FROM bm25_terms WHERE df <= 0;
        DROP TABLE bm25_blocks, bm25_top, bm25_delta, bm25_dead;
        DROP FUNCTION bm25_delta_added();
        ALTER TABLE bm25_stats DROP COLUMN champions, DROP COLUMN delta_postings;
    """ + _POSTINGS_TRIGGERS)
