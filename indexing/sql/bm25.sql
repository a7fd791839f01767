{#- BM25's CTEs, ending in `bm25` (chunk_id, score, rank) and `safe` (the path taken).
    Context: rounds, collapse, filtered, leads.

Okapi BM25 with Lucene's IDF, ln(1 + (N - df + 0.5) / (df + 0.5)).  The term and statistics
CTEs are MATERIALIZED so they are computed once, not once per posting row, and every constant
is float8 so the arithmetic never falls into slow numeric.

Early termination, exact by construction, in rounds (each run only when the previous one could
not prove its answer; see bm25_round.sql):
  1. each round reads, per query term, its postings of highest impact by an index-only scan on
     (term id, impact DESC) that carries tf and length -- round 1 the first :depth1, later
     rounds up to :depth<n> of those that add at least a threshold drawn from the previous
     round's theta (bm25_level.sql), so common terms of little weight are hardly read;
  2. the chunks read get a lower bound (contributions read) and an upper bound (plus the most
     each term they were not seen in can still add); a chunk never read is bounded by
     `unread`, the sum of those rests, scaled up by how far the average length drifted since
     impacts were computed; the :probe best lower bounds are completed at once;
  3. the round is proven when theta -- the exact_k-th best of those scores, or with one result
     per document the k-th best document's (macros.sql, kth) -- beats `unread`; then only the
     chunks that could still reach the top are completed, by index lookups: the :stage best
     upper bounds first (lifting theta), then the rest one lead term at a time
     (bm25_lead.sql), dropping those that fall below theta, and the survivors in the others;
  4. when no round proves its answer, MaxScore (below) reads in full only the postings of the
     terms that can still matter -- or, with bm25_exact off, the last round's candidates stand
     ('budget').  The plain scan answers when there are few postings or the impacts were
     computed with other parameters.  Each path's branch carries a one-time filter, so
     PostgreSQL never executes the paths not taken.
One posting's contribution is the same expression in every path (macros.sql, part), so that
they cannot disagree. -#}
{% import "macros.sql" as m %}
{% set last = "r%d" % rounds %}
q AS MATERIALIZED (
    -- Each query term's weight: how often the query says it, or with query expansion its share
    -- of the expanded query (indexing/feedback.py).
    SELECT term, sum(weight)::float8 AS qtf
    FROM unnest(CAST(:terms AS text[]), CAST(:term_weights AS float8[])) AS u(term, weight)
    GROUP BY term
),
stats AS MATERIALIZED (
    SELECT chunk_count::float8 AS n,
           total_length::float8 / greatest(chunk_count, 1)::float8 AS avgdl,
           impact_avgdl, impact_k1, impact_b,
           -- How far above its stored impact a posting's contribution can now be (the average
           -- length grew since impacts were computed); every bound is scaled by it.
           greatest(1.0::float8, total_length::float8 / greatest(chunk_count, 1) / impact_avgdl) AS drift
    FROM bm25_stats WHERE tenant_id = :tenant
),
weights AS MATERIALIZED (
    SELECT t.id AS term_id,
           q.qtf * ln(1.0::float8 + (stats.n - t.df + 0.5::float8) / (t.df + 0.5::float8)) AS w,
           stats.avgdl, t.df
    FROM q
    JOIN bm25_terms t ON t.tenant_id = :tenant AND t.term = q.term
    CROSS JOIN stats
),
plan AS MATERIALIZED (
    -- 'scan' when there are few postings in all (cheaper than any bookkeeping) or when the
    -- impacts were computed with another k1 and b.
    SELECT CASE WHEN (SELECT coalesce(sum(df), 0) FROM weights) <= :scan_below THEN 'scan'
                WHEN NOT coalesce(s.impact_k1 = CAST(:k1 AS float8) AND s.impact_b = CAST(:b AS float8),
                                  false) THEN 'scan'
                ELSE 'rounds'
           END AS value
    FROM stats s
){% for n in range(1, rounds + 1) %},
{% include "bm25_round.sql" %}
{% endfor %},
{# MaxScore, when no round proved its answer, with theta the last round's theta over exact
    scores (a lower bound on the true one).  Terms whose upper bounds (weight x highest impact)
    sum to less than theta, taken from the smallest, are optional: a chunk holding only those
    cannot reach the top.  So the answer lies among chunks holding an essential term -- their
    postings are read in full -- and of those only chunks whose partial score plus the optional
    terms' bounds reaches theta are completed, by primary-key probes. #}
safe AS MATERIALIZED (
    SELECT CASE WHEN (SELECT value FROM plan) = 'scan' THEN 'scan'
{% for n in range(1, rounds + 1) %}
                WHEN (SELECT proven FROM r{{ n }}_verdict) THEN 'exact{{ n }}'
{% endfor %}
                WHEN CAST(:exact AS boolean) THEN 'maxscore'
                ELSE 'budget'
           END AS path
),
split AS MATERIALIZED (
    SELECT b.term_id, b.w, b.avgdl, b.ub,
           sum(b.ub) OVER (ORDER BY b.ub, b.term_id) < (SELECT theta FROM {{ last }}_verdict) AS optional
    FROM (
        SELECT w.term_id, w.w, w.avgdl,
               w.w * m.impact * (SELECT drift FROM stats) AS ub
        FROM weights w
        CROSS JOIN LATERAL (
            SELECT p.impact::float8 AS impact FROM bm25_postings p
            WHERE p.term_id = w.term_id
            ORDER BY p.impact DESC LIMIT 1
        ) m
        WHERE (SELECT path FROM safe) = 'maxscore'
    ) b
),
partial AS MATERIALIZED (
    SELECT p.chunk_id, sum({{ m.part() }}) AS score
    FROM split weights
    JOIN bm25_postings p ON p.term_id = weights.term_id{{ m.bm25_filter(filtered) }}
    WHERE NOT weights.optional
    GROUP BY p.chunk_id
    HAVING sum({{ m.part() }}) + (SELECT coalesce(sum(ub) FILTER (WHERE optional), 0.0::float8) FROM split)
           >= (SELECT theta FROM {{ last }}_verdict)
),
completed AS (
    SELECT c.chunk_id, c.score + coalesce(o.score, 0.0::float8) AS score
    FROM partial c
    CROSS JOIN LATERAL (
        SELECT sum({{ m.part() }}) AS score
        FROM split weights
        JOIN bm25_postings p ON p.term_id = weights.term_id AND p.chunk_id = c.chunk_id
        WHERE weights.optional
    ) o
),
bm25 AS (
    SELECT chunk_id, score, row_number() OVER (ORDER BY score DESC, chunk_id) AS rank
    FROM (
{% for n in range(1, rounds + 1) %}
        SELECT chunk_id, score FROM r{{ n }}_scored WHERE (SELECT path FROM safe) = 'exact{{ n }}'
        UNION ALL
{% endfor %}
        -- Out of budget: the last round's candidates, exactly scored, stand unproven.
        SELECT chunk_id, score FROM {{ last }}_scored WHERE (SELECT path FROM safe) = 'budget'
        UNION ALL
        SELECT chunk_id, score FROM (
            -- The last round's exact scores fill the ranks below theta that MaxScore pruned.
            SELECT chunk_id, max(score) AS score
            FROM (SELECT chunk_id, score FROM completed
                  UNION ALL SELECT chunk_id, score FROM {{ last }}_scored) m
            GROUP BY chunk_id
            ORDER BY score DESC, chunk_id
            LIMIT :candidates
        ) maxscore
        WHERE (SELECT path FROM safe) = 'maxscore'
        UNION ALL
        SELECT chunk_id, score FROM (
            SELECT p.chunk_id,
                   sum({{ m.part() }}) AS score
            FROM weights
            JOIN bm25_postings p ON p.term_id = weights.term_id{{ m.bm25_filter(filtered) }}
            GROUP BY p.chunk_id
            ORDER BY score DESC, p.chunk_id
            LIMIT :candidates
        ) scan
        WHERE (SELECT path FROM safe) = 'scan'
    ) scored
)