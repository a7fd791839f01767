{#- Fragments the search statement uses in several places.  Rendered by indexing/search.py
    (Jinja2, StrictUndefined); bind parameters are SQLAlchemy's :name. -#}

{# One posting's BM25 contribution, the same expression in every path so that they cannot
    disagree: bm25_term_score (migration 0013; PostgreSQL inlines it) of the term's weight
    (IDF x its count in the query) and the posting's tf and chunk length.  Every constant is
    float8, so the arithmetic never falls into slow numeric. -#}
{% macro part() -%}
bm25_term_score(weights.w, p.tf, p.doc_length, weights.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))
{%- endmacro %}

{# Joined into a branch only when a filter is given, so unfiltered searches pay nothing;
    `chunk` is the alias of the chunks row being filtered. -#}
{% macro filter_join(chunk) %}

        JOIN search_documents fsd ON fsd.id = {{ chunk }}.search_document_id
            AND (CAST(:f_docs AS text[]) IS NULL OR fsd.external_id = ANY(CAST(:f_docs AS text[])))
            AND (CAST(:f_job AS uuid) IS NULL OR fsd.job_id = CAST(:f_job AS uuid))
            AND (CAST(:f_meta AS jsonb) IS NULL OR fsd.metadata @> CAST(:f_meta AS jsonb))
            AND (CAST(:f_mimes AS text[]) IS NULL OR fsd.mime_type = ANY(CAST(:f_mimes AS text[])))
            AND (CAST(:f_after AS timestamptz) IS NULL
                 OR fsd.indexed_at >= CAST(:f_after AS timestamptz))
            AND (CAST(:f_before AS timestamptz) IS NULL
                 OR fsd.indexed_at < CAST(:f_before AS timestamptz))
{%- endmacro %}

{# The filter on BM25's postings rows `p` (their chunk, then its document). -#}
{% macro bm25_filter(filtered) %}
{% if filtered %}

        JOIN chunks fc ON fc.id = p.chunk_id{{ filter_join("fc") }}
{%- endif %}
{%- endmacro %}

{# theta, the value the answer must be proven against: the exact_k-th best chunk's ... -#}
{% macro kth_chunk(col, rel) -%}
coalesce((SELECT {{ col }} FROM {{ rel }} ORDER BY {{ col }} DESC OFFSET :exact_k - 1 LIMIT 1),
                 0.0::float8)
{%- endmacro %}

{# ... or, when results are collapsed to one chunk per document, the k-th best document's
    best chunk among the exact_k best: every document of the true top k scores at least that
    much, so only chunks that can reach it matter -- with one chunk per document this is the
    k-th chunk, not the 4k-th.  When the exact_k best chunks hold fewer than k documents, the
    exact_k-th chunk's value stands (the ranks beyond it are not proven, as without collapse). -#}
{% macro kth(col, rel, collapse) -%}
{% if collapse -%}
coalesce(
        (SELECT d.v FROM (
            SELECT DISTINCT ON (c.search_document_id) s.v
            FROM (SELECT chunk_id, {{ col }} AS v FROM {{ rel }} ORDER BY {{ col }} DESC LIMIT :exact_k) s
            JOIN chunks c ON c.id = s.chunk_id
            ORDER BY c.search_document_id, s.v DESC) d
         ORDER BY d.v DESC OFFSET :k - 1 LIMIT 1),
        {{ kth_chunk(col, rel) }})
{%- else -%}
{{ kth_chunk(col, rel) }}
{%- endif %}
{%- endmacro %}

{# The rest of the score of round n's chunks `ids`: their postings in the terms the round
    cut short (`terms` narrows those), less those it read.  Used for the probed, the staged
    and, after the lead passes, the open chunks. -#}
{% macro complete(n, ids, terms="") %}

    SELECT p.chunk_id, sum({{ part() }}) AS extra
    FROM r{{ n }}_rest weights
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.doc_length FROM bm25_postings p
        WHERE p.term_id = weights.term_id
          AND p.chunk_id = ANY(ARRAY({{ ids }}))
        -- Kept a per-term probe of the primary key: pulled up into a join, a generic plan
        -- reads every posting of the open chunks through the chunk index instead.
        OFFSET 0
    ) p
    WHERE weights.cut{{ terms }}
      -- Postings read in this round are already in the lower bound.
      AND NOT EXISTS (SELECT 1 FROM r{{ n }}_top t WHERE t.term_id = weights.term_id AND t.chunk_id = p.chunk_id)
    GROUP BY p.chunk_id
{% endmacro %}
