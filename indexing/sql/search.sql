{#- The search statement: one statement per variant, rendered by indexing/search.py from these
    files (Jinja2 with StrictUndefined; bind parameters are SQLAlchemy's :name).  Context:
    mode ('bm25', 'dense', 'hybrid'), collapse, filtered, fusion ('rrf', 'weighted'), rounds,
    leads, closing(n).  The rendered variants are checked in under tests/search_sql/.

Every branch reads only the tenant's rows: dense filters chunks by tenant, BM25 reads the
postings of term ids from the tenant's own dictionary.  Hybrid search is one statement: dense
top-N and BM25 top-N fused by weighted scores (or by Reciprocal Rank Fusion).

With collapse, each document is represented by its best chunk.  Only the final k rows fetch
their text and their document's identity (the candidates need just their chunk's document id
to collapse: the dense branch's candidates bring theirs from its scan, the others' are looked up
together). -#}
{% set distinct = "f.search_document_id" if collapse else "f.chunk_id" %}
WITH
{% if mode != "bm25" %}
{% include "dense.sql" %},
{% endif %}
{% if mode != "dense" %}
{% include "bm25.sql" %},
{% endif %}
{% include "fused.sql" %},
{% if mode != "dense" %}
-- The documents of the candidates the dense branch did not read, in one scan of the key over
-- all their ids (= ANY), not a probe each.
looked AS MATERIALIZED (
    SELECT c.id AS chunk_id, c.search_document_id FROM chunks c
    WHERE c.id = ANY(ARRAY(SELECT chunk_id FROM fused WHERE search_document_id IS NULL))
      AND c.tenant_id = :tenant
),
{% endif %}
ranked AS (
    SELECT * FROM (
        SELECT DISTINCT ON ({{ distinct }}) f.chunk_id, f.score, f.dense_rank, f.dense_score,
               f.bm25_rank, f.bm25_score, f.search_document_id
{% if mode == "dense" %}
        FROM fused f
{% else %}
        FROM (SELECT f.chunk_id, f.score, f.dense_rank, f.dense_score, f.bm25_rank, f.bm25_score,
                     coalesce(f.search_document_id, l.search_document_id) AS search_document_id
              FROM fused f LEFT JOIN looked l ON l.chunk_id = f.chunk_id) f
        -- (A chunk not found, as by the probe it replaces, is no candidate.)
        WHERE f.search_document_id IS NOT NULL
{% endif %}
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
