-- indexing/sql/search.sql rendered with mode=dense collapse=False filtered=False fusion=weighted rounds=3.
-- Generated: regenerate with `.venv/bin/python -m tests.render_search_sql` after changing indexing/sql/.
WITH
dense AS (
    SELECT chunk_id, 1.0::float8 - distance AS score,
           row_number() OVER (ORDER BY distance, chunk_id) AS rank
    FROM (
        SELECT c.id AS chunk_id, c.embedding <=> CAST(:qvec AS halfvec) AS distance
        FROM chunks c
        WHERE c.tenant_id = :tenant
        ORDER BY distance
        LIMIT :candidates
    ) nearest
),
fused AS (
    SELECT chunk_id, score, rank AS dense_rank, score AS dense_score,
           NULL::bigint AS bm25_rank, NULL::float8 AS bm25_score
    FROM dense
),
ranked AS (
    SELECT * FROM (
        SELECT DISTINCT ON (f.chunk_id) f.chunk_id, f.score, f.dense_rank, f.dense_score,
               f.bm25_rank, f.bm25_score, c.search_document_id
        FROM fused f
        -- Key probes per candidate, as OFFSET 0 keeps them: a generic plan, not knowing how
        -- few candidates there are, would otherwise hash the whole chunks table.
        CROSS JOIN LATERAL (SELECT c.search_document_id FROM chunks c
                            WHERE c.id = f.chunk_id AND c.tenant_id = :tenant OFFSET 0) c
        ORDER BY f.chunk_id, f.score DESC, f.chunk_id
    ) best
    ORDER BY score DESC, chunk_id
    LIMIT :k
)
SELECT sd.external_id AS document_id, r.chunk_id, r.score, c.text, c.heading_path, c.page_start,
       c.page_end, c.boxes, c.start_s, c.end_s, r.dense_rank, r.dense_score, r.bm25_rank, r.bm25_score,
       sd.title, sd.mime_type, sd.source_document_id::text AS document_uuid,
       NULL::text AS bm25_path
FROM ranked r
CROSS JOIN LATERAL (SELECT c.text, c.heading_path, c.page_start, c.page_end, c.boxes, c.start_s,
                           c.end_s FROM chunks c
                    WHERE c.id = r.chunk_id OFFSET 0) c
CROSS JOIN LATERAL (SELECT sd.external_id, sd.title, sd.mime_type, sd.source_document_id
                    FROM search_documents sd
                    WHERE sd.id = r.search_document_id OFFSET 0) sd
ORDER BY r.score DESC, r.chunk_id
