{#- Fragments the search statement uses in several places.  Rendered by indexing/search.py
    (Jinja2, StrictUndefined); bind parameters are SQLAlchemy's :name. -#}

{# One posting's BM25 contribution, the same expression in every path so that they cannot
    disagree: bm25_term_score (migration 0013; PostgreSQL inlines it) of the term's weight
    (IDF x its count in the query) and the posting's tf and chunk length.  Every constant is
    float8, so the arithmetic never falls into slow numeric. -#}
{% macro part(tf="p.tf", length="p.doc_length", w="weights") -%}
bm25_term_score({{ w }}.w, {{ tf }}, {{ length }}, {{ w }}.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))
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

{# Whether chunk `col` may be returned: not a merged chunk deleted since (bm25_dead), and with
    a filter, passing it (its chunk, then its document).  BM25 applies it per chunk, after
    grouping postings, so that its lookups run once a chunk and not once a posting.  The
    tombstone lookup sits behind `dead` (bm25.sql; an initplan, read once): PostgreSQL
    evaluates an OR's arms in order, so with no tombstones it is never run. -#}
{% macro live_chunk(filtered, col) -%}
(NOT (SELECT v FROM dead) OR NOT EXISTS (SELECT 1 FROM bm25_dead x WHERE x.chunk_id = {{ col }}))
{%- if filtered %}

      AND EXISTS (SELECT 1 FROM chunks fc{{ filter_join("fc") }}
                    WHERE fc.id = {{ col }})
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

{# Block `b`'s postings as select-list columns (chunk_id bigint, tf int, dl int): set-returning
    functions in the select list run in lock step without a tuplestore, about twice as fast as
    unnest(a, b, c) in FROM (bench/bm25_blocks.py).  A block's chunk ids are offsets from its
    first_chunk, int2 when it spans fewer than 32,768 ids, else int4 (migration 0030). -#}
{% macro decode(b) -%}
{{ b }}.first_chunk + unnest(coalesce({{ b }}.offs2::int4[], {{ b }}.offs4)) AS chunk_id,
           unnest({{ b }}.tfs)::int AS tf, unnest({{ b }}.lens)::int AS dl
{%- endmacro %}

{# Term `term`'s contribution (weights and avgdl from `w`) to chunk `chunk` as a row `part`,
    or no row: the one block of the term whose id range can hold the chunk (the least
    last_chunk at or above it, by the key), then the chunk's slot by a binary search of the
    block's ascending offsets: width_bucket gives how many offsets are at most the chunk's,
    the slot if the offset there is the chunk's (7 comparisons of 128, where array_position
    made up to 128 calls of the equality function: bench/search_ab.py measured it). -#}
{% macro probe(w, term, chunk) -%}
(SELECT {{ part("b.tfs[s.i]::int", "b.lens[s.i]::int", w) }} AS part
 FROM (SELECT b.first_chunk, b.offs2, b.offs4, b.tfs, b.lens FROM bm25_blocks b
       WHERE b.term_id = {{ term }} AND b.last_chunk >= {{ chunk }}
       ORDER BY b.last_chunk LIMIT 1) b
 CROSS JOIN LATERAL (SELECT {{ slot("b", chunk) }} AS i
                     -- Kept a subquery, so that the slot is searched once: pulled up, it would be
                     -- searched again wherever the inlined score reads tf or the length.
                     OFFSET 0) s
 WHERE {{ in_slot("b", "s.i", chunk) }})
{%- endmacro %}

{# Chunk `chunk`'s slot in block `b`: how many of its ascending offsets are at most the chunk's
    (width_bucket, a binary search), NULL for a chunk before the block. -#}
{% macro slot(b, chunk) -%}
CASE WHEN {{ chunk }} < {{ b }}.first_chunk THEN NULL
                                 WHEN {{ b }}.offs2 IS NOT NULL THEN width_bucket(({{ chunk }} - {{ b }}.first_chunk)::int2, {{ b }}.offs2)
                                 ELSE width_bucket(({{ chunk }} - {{ b }}.first_chunk)::int4, {{ b }}.offs4) END
{%- endmacro %}

{# Whether block `b` holds chunk `chunk` at slot `i` (macro slot): slot 0 (below the first
    offset) reads NULL, and so does a chunk before the block. -#}
{% macro in_slot(b, i, chunk) -%}
coalesce({{ b }}.offs2[{{ i }}]::int8, {{ b }}.offs4[{{ i }}]) = {{ chunk }} - {{ b }}.first_chunk
{%- endmacro %}

{# Candidate `c`'s exact score: what is known of it (`known`, over the terms `known_terms` and
    every term read in full) plus probes of the cut terms of `rests` not known.  A chunk of
    the delta is known in every term it holds (the delta is read in full), so its probes find
    nothing, as they must. -#}
{% macro complete(c, rests="rests") -%}
{{ c }}.known + coalesce((
               SELECT sum(x.part) FROM {{ rests }} w CROSS JOIN LATERAL {{ probe("w", "w.term_id", c ~ ".chunk_id") }} x
               WHERE w.cut AND get_bit({{ c }}.known_terms, w.pos) = 0), 0.0::float8)
{%- endmacro %}
