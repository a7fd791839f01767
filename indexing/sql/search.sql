{#- The search statement: one statement per variant, rendered by indexing/search.py from these
    files (Jinja2 with StrictUndefined; bind parameters are SQLAlchemy's :name).  Context:
    mode ('bm25', 'dense', 'hybrid'), collapse, filtered, fusion ('rrf', 'weighted'), rounds,
    leads, closing(n).  The rendered variants are checked in under tests/search_sql/.

Every branch reads only the tenant's rows: dense filters chunks by tenant, BM25 reads the
postings of term ids from the tenant's own dictionary.  Hybrid search is one statement: dense
top-N and BM25 top-N fused by weighted scores (or by Reciprocal Rank Fusion).

With collapse, each document is represented by its best chunk.  Only the final k rows fetch
their text and their document's identity (the candidates need just their chunk's document id
to collapse). -#}
{% set distinct = "c.search_document_id" if collapse else "f.chunk_id" %}
WITH
{% if mode != "bm25" %}
{% include "dense.sql" %},
{% endif %}
{% if mode != "dense" %}
{% include "bm25.sql" %},
{% endif %}
{% include "fused.sql" %},
ranked AS (
    SELECT * FROM (
        SELECT DISTINCT ON ({{ distinct }}) f.chunk_id, f.score, f.dense_rank, f.dense_score,
               f.bm25_rank, f.bm25_score, c.search_document_id
        FROM fused f
        -- Key probes per candidate, as OFFSET 0 keeps them: a generic plan, not knowing how
        -- few candidates there are, would otherwise hash the whole chunks table.
        CROSS JOIN LATERAL (SELECT c.search_document_id FROM chunks c
                            WHERE c.id = f.chunk_id AND c.tenant_id = :tenant OFFSET 0) c
        ORDER BY {{ distinct }}, f.score DESC, f.chunk_id
    ) best
    ORDER BY score DESC, chunk_id
    LIMIT :k
)
SELECT sd.external_id AS document_id, r.chunk_id, r.score, c.text, c.heading_path, c.page_start,
       c.page_end, c.boxes, c.start_s, c.end_s, r.dense_rank, r.dense_score, r.bm25_rank, r.bm25_score,
       sd.title, sd.mime_type, sd.source_document_id::text AS document_uuid,
       {{ "NULL::text" if mode == "dense" else "(SELECT path FROM safe)" }} AS bm25_path
FROM ranked r
CROSS JOIN LATERAL (SELECT c.text, c.heading_path, c.page_start, c.page_end, c.boxes, c.start_s,
                           c.end_s FROM chunks c
                    WHERE c.id = r.chunk_id OFFSET 0) c
CROSS JOIN LATERAL (SELECT sd.external_id, sd.title, sd.mime_type, sd.source_document_id
                    FROM search_documents sd
                    WHERE sd.id = r.search_document_id OFFSET 0) sd
ORDER BY r.score DESC, r.chunk_id
