{#- `fused`: every candidate's final score and the ranks and scores of its branches.
    Context: mode, fusion, norm. -#}
fused AS (
{% if mode == "hybrid" and fusion == "weighted" and norm == "zscore" %}
{# Z-scores over each branch's candidates (their mean subtracted, divided by their population
    standard deviation); a chunk missing from a branch gets the branch's lowest.  A branch with
    one distinct score (a single BM25 match: an identifier) has no spread to divide by: as with
    min-max, its candidates count 1 and the others 0.  Chosen over min-max on SciFact train
    (indexing/ranking.py). #}
    SELECT coalesce(d.chunk_id, b.chunk_id) AS chunk_id,
           CAST(:alpha AS float8) * CASE WHEN dn.lo = dn.hi THEN CASE WHEN d.score IS NULL THEN 0.0::float8
                                                                    ELSE 1.0::float8 END
               ELSE (coalesce(d.score, dn.lo) - dn.mu) / dn.sd END
           + (1.0::float8 - CAST(:alpha AS float8)) * CASE WHEN bn.lo = bn.hi OR bn.lo IS NULL
                   THEN CASE WHEN b.score IS NULL THEN 0.0::float8 ELSE 1.0::float8 END
               ELSE (coalesce(b.score, bn.lo) - bn.mu) / bn.sd END AS score,
           d.rank AS dense_rank, d.score AS dense_score, b.rank AS bm25_rank, b.score AS bm25_score
    FROM dense d FULL OUTER JOIN bm25 b ON b.chunk_id = d.chunk_id
    CROSS JOIN (SELECT min(score) AS lo, max(score) AS hi, avg(score) AS mu, stddev_pop(score) AS sd
                FROM dense) dn
    CROSS JOIN (SELECT min(score) AS lo, max(score) AS hi, avg(score) AS mu, stddev_pop(score) AS sd
                FROM bm25) bn
{% elif mode == "hybrid" and fusion == "weighted" %}
{# Min-max normalisation over each branch's candidates; a branch with one distinct score
    counts 1 for its candidates.  A chunk missing from a branch gets 0 from it. #}
    SELECT coalesce(d.chunk_id, b.chunk_id) AS chunk_id,
           CAST(:alpha AS float8) * CASE WHEN d.score IS NULL THEN 0.0::float8
               ELSE coalesce((d.score - dn.lo) / nullif(dn.hi - dn.lo, 0), 1.0::float8) END
           + (1.0::float8 - CAST(:alpha AS float8)) * CASE WHEN b.score IS NULL THEN 0.0::float8
               ELSE coalesce((b.score - bn.lo) / nullif(bn.hi - bn.lo, 0), 1.0::float8) END AS score,
           d.rank AS dense_rank, d.score AS dense_score, b.rank AS bm25_rank, b.score AS bm25_score
    FROM dense d FULL OUTER JOIN bm25 b ON b.chunk_id = d.chunk_id
    CROSS JOIN (SELECT min(score) AS lo, max(score) AS hi FROM dense) dn
    CROSS JOIN (SELECT min(score) AS lo, max(score) AS hi FROM bm25) bn
{% elif mode == "hybrid" %}
{# Reciprocal Rank Fusion. #}
    SELECT coalesce(d.chunk_id, b.chunk_id) AS chunk_id,
           coalesce(1.0::float8 / (CAST(:rrf_k AS float8) + d.rank), 0)
             + coalesce(1.0::float8 / (CAST(:rrf_k AS float8) + b.rank), 0) AS score,
           d.rank AS dense_rank, d.score AS dense_score, b.rank AS bm25_rank, b.score AS bm25_score
    FROM dense d FULL OUTER JOIN bm25 b ON b.chunk_id = d.chunk_id
{% elif mode == "bm25" %}
    SELECT chunk_id, score, NULL::bigint AS dense_rank, NULL::float8 AS dense_score,
           rank AS bm25_rank, score AS bm25_score
    FROM bm25
{% else %}
    SELECT chunk_id, score, rank AS dense_rank, score AS dense_score,
           NULL::bigint AS bm25_rank, NULL::float8 AS bm25_score
    FROM dense
{% endif %}
)