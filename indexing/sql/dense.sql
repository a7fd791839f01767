{#- Dense top-N by pgvector's HNSW index over the tenant's chunks (with the filters inside, so
    that top-N is taken among matching chunks).  The query is cast to halfvec, the column's type
    (migration 0027), so that the operator is the one the graph indexes.  Context: filtered. -#}
{% import "macros.sql" as m %}
dense AS (
    SELECT chunk_id, 1.0::float8 - distance AS score,
           row_number() OVER (ORDER BY distance, chunk_id) AS rank
    FROM (
        SELECT c.id AS chunk_id, c.embedding <=> CAST(:qvec AS halfvec) AS distance
        FROM chunks c{% if filtered %}{{ m.filter_join("c") }}{% endif %}

        WHERE c.tenant_id = :tenant
        ORDER BY distance
        LIMIT :candidates
    ) nearest
)