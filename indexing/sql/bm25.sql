{#- BM25's CTEs, ending in `bm25` (chunk_id, score, rank) and `safe` (the path taken).
    Context: rounds, collapse, filtered, leads, block.

Okapi BM25 with Lucene's IDF, ln(1 + (N - df + 0.5) / (df + 0.5)), over postings in blocks
(migration 0030): per term, its merged postings in chunk-id order cut into blocks of
{{ block }} (bm25_blocks, key (term_id, last_chunk), each block with its best impact), each
common term's best postings again in impact order (bm25_top, the champions, each block with
its least impact), the postings of the chunks written since the last merge (bm25_delta) and
the merged chunks deleted since (bm25_dead).  N, df and the average length are the tenant's
current ones (bm25_stats, bm25_terms), kept exact by the writers (indexing/store.py).  The
term and statistics CTEs are MATERIALIZED so they are computed once, and every constant is
float8 so the arithmetic never falls into slow numeric.  Bounds are stored impacts (the
contribution at weight 1 with the tenant's impact parameters, rounded up when stored as real)
x weight x drift (how far the average length grew since impacts were computed).

  1. First pass, in rounds, each run only when the one before did not prove its answer
     (bm25_pass.sql): terms with few postings are read in full, of the others ("cut" terms)
     a prefix of their champions; the delta is read in full.  A chunk not read in a cut term
     scores at most the term's `rest` in it.  A chunk read gets `lb`, the contributions read.
  2. theta: the :probe chunks of highest lb completed exactly (probes: the one block of the
     term whose id range can hold the chunk), the k-th best (macros.sql, kth).  A round is
     proven when theta beats the sum of the rests ('exact<n>'); the first proven round
     answers, else the last.
  3. Chunks never read score at most the sum of the rests of the terms they hold.  MaxScore on
     the rests: the cut terms whose rests, from the smallest, sum to less than :share x theta
     are optional; an unread chunk that can reach theta holds an essential term.  Block-max on
     the essential terms, as a sweep over chunk ids: the essential blocks' bounds (each capped
     by its term's rest) covering a segment, plus the optional rests, bound every unread chunk
     there; only essential blocks overlapping a segment where that reaches theta are decoded
     ('maxscore'; when the round was proven every term is optional and nothing more is read).
     With bm25_exact off this step is skipped and, unproven, the :complete_limit candidates
     of best bound are completed and stand ('budget').
  4. Candidates: chunks read whose lb plus the rests of the cut terms they were not read in
     reach theta, unread ones whose essential contributions plus the optional rests do, and
     the :candidates of best lb (held: the ranks below the exact ones are filled from them).
     The :probe best are completed (theta may rise), then the rest in the :leads cut terms of
     largest rest one at a time (bm25_lead.sql), each pass dropping those whose bound falls
     below theta, and the survivors in the other terms by probes.
Exact: every chunk scoring at least theta is a candidate and survives every pass (each bound
holds its score); at least k chunks (documents) score at least theta; a chunk whose score is
incomplete is below theta by those same bounds.  Dead postings only loosen a bound.  The
plain scan ('scan') answers when there are few postings or the impacts were computed with
other parameters; each path's branch carries a one-time filter, so PostgreSQL never executes
the paths not taken.  One posting's contribution is the same expression in every path
(macros.sql, part). -#}
{% import "macros.sql" as m %}
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
           greatest(1.0::float8, total_length::float8 / greatest(chunk_count, 1) / impact_avgdl) AS drift
    FROM bm25_stats WHERE tenant_id = :tenant
),
-- Whether the tenant has merged chunks deleted since the last merge, asked once: without any
-- (the common state, and always right after a merge) live_chunk skips the tombstone lookup it
-- would otherwise make for every chunk read (~0.5 us a chunk, bench/search_ab.py).  Tombstones
-- carry their chunk's tenant, and every chunk read is the tenant's (its term ids are).
dead AS MATERIALIZED (
    SELECT EXISTS (SELECT 1 FROM bm25_dead x WHERE x.tenant_id = :tenant) AS v
),
-- Each term's place in the bit strings that say which cut terms a chunk was read in
-- (`known_terms`: bit `pos` set; `none`, every bit clear).  A bit string, not an array of
-- term ids: array_agg's state is planned at 8 kB a group, so a hash aggregate over more
-- than ~8,000 chunks spilled to disk, and built an array per chunk (bench/search_ab.py).
-- Numbered as the rows come (OVER (), no sort): a sort would reorder the terms, and so the
-- order their parts are summed in, the last bit of a score.
weights AS MATERIALIZED (
    SELECT t.id AS term_id,
           q.qtf * ln(1.0::float8 + (stats.n - t.df + 0.5::float8) / (t.df + 0.5::float8)) AS w,
           stats.avgdl, stats.drift, t.df,
           (row_number() OVER () - 1)::int AS pos,
           CAST(repeat('0', count(*) OVER ()::int) AS varbit) AS none
    FROM q
    JOIN bm25_terms t ON t.tenant_id = :tenant AND t.term = q.term
    CROSS JOIN stats
    WHERE t.df > 0
),
plan AS MATERIALIZED (
    -- 'scan' when there are few postings in all (cheaper than any bookkeeping) or when the
    -- impacts were computed with another k1 and b (then no stored bound holds).
    SELECT CASE WHEN (SELECT coalesce(sum(df), 0) FROM weights) <= :scan_below THEN 'scan'
                WHEN NOT coalesce(s.impact_k1 = CAST(:k1 AS float8) AND s.impact_b = CAST(:b AS float8),
                                  false) THEN 'scan'
                ELSE 'blocks'
           END AS value
    FROM stats s
),
{% for n in range(1, rounds + 1) %}
{% include "bm25_pass.sql" %},
{% endfor %}
{#- The round that answers: the first that proved its answer, else the last.  Its chunks read
    (`seen`, thousands of rows in a later round) are not copied again: each reader scans the
    round's own materialized rows through the one-time filters. #}
{% macro answers(n) -%}
{% for j in range(1, n) %}NOT (SELECT v FROM proven{{ j }}) AND {% endfor %}{% if n < rounds %}(SELECT v FROM proven{{ n }}){% else %}true{% endif %}
{%- endmacro %}
{% for name in ("rests", "unread", "seen", "seed_exact", "theta", "proven") %}
{{ name }} AS {{ "NOT " if name == "seen" }}MATERIALIZED (
{% for n in range(1, rounds + 1) %}
{% if not loop.first %}
    UNION ALL
{% endif %}
    SELECT * FROM {{ name }}{{ n }} WHERE {{ answers(n) }}
{% endfor %}
),
{% endfor %}
safe AS MATERIALIZED (
    SELECT CASE WHEN (SELECT value FROM plan) = 'scan' THEN 'scan'
{% for n in range(1, rounds + 1) %}
                WHEN (SELECT v FROM proven{{ n }}) THEN 'exact{{ n }}'
{% endfor %}
                WHEN CAST(:exact AS boolean) THEN 'maxscore'
                ELSE 'budget'
           END AS path
),
split AS MATERIALIZED (
    SELECT r.term_id, r.w, r.avgdl, r.drift, r.df, r.rest, r.cut, r.pos, r.mark, r.none,
           sum(r.rest) OVER (ORDER BY r.rest, r.term_id) < (SELECT v FROM theta) * CAST(:share AS float8) AS optional
    FROM rests r
),
optional AS MATERIALIZED (
    SELECT coalesce(sum(rest) FILTER (WHERE optional), 0.0::float8) AS ub FROM split
),
-- Every essential block's id range and bound (capped by the rest), from the key index alone;
-- none out of budget.
essential AS MATERIALIZED (
    SELECT s.term_id, b.first_chunk, b.last_chunk, least(s.w * b.max_impact * s.drift, s.rest) AS ub
    FROM split s
    JOIN bm25_blocks b ON b.term_id = s.term_id
    WHERE s.cut AND NOT s.optional AND (SELECT path FROM safe) <> 'budget'
),
edges AS (
    SELECT e.pos, sum(e.delta) AS delta
    FROM (SELECT first_chunk AS pos, ub AS delta FROM essential
          UNION ALL SELECT last_chunk + 1, -ub FROM essential) e
    GROUP BY e.pos
),
hot AS MATERIALIZED (
    SELECT range_agg(int8range(s.pos, s.nxt)) AS r
    FROM (SELECT pos, lead(pos) OVER (ORDER BY pos) AS nxt,
                 sum(delta) OVER (ORDER BY pos) AS level
          FROM edges) s
    WHERE s.nxt IS NOT NULL
      AND s.level + (SELECT ub FROM optional) >= (SELECT v FROM theta)
),
-- The unread chunks of the essential blocks decoded, by their essential contributions.
partial AS MATERIALIZED (
    SELECT g.* FROM (
        SELECT w.chunk_id, sum({{ m.part("w.tf", "w.dl", "w") }}) AS known
        FROM (
            SELECT w.term_id, w.w, w.avgdl, {{ m.decode("b") }}
            FROM essential e
            JOIN bm25_blocks b ON b.term_id = e.term_id AND b.last_chunk = e.last_chunk
            JOIN split w ON w.term_id = e.term_id
            WHERE int8range(e.first_chunk, e.last_chunk, '[]') && (SELECT r FROM hot)
        ) w
        WHERE NOT EXISTS (SELECT 1 FROM seen x WHERE x.chunk_id = w.chunk_id)
        GROUP BY w.chunk_id
        HAVING sum({{ m.part("w.tf", "w.dl", "w") }}) + (SELECT ub FROM optional) >= (SELECT v FROM theta)
    ) g
    WHERE {{ m.live_chunk(filtered, "g.chunk_id") }}
),
-- The ranks below the exact ones are filled from the chunks of best lower bound: at least
-- :candidates chunks score floor or more, so those held are completed whatever their bound.
-- With as many candidates as probes (the default) that is the least lower bound of the
-- answering round's seed_exact, its :probe best (all of seen, and so all held, when seen is
-- smaller): no second sort of seen, thousands of rows in a later round.
floor AS MATERIALIZED (
    SELECT CASE WHEN CAST(:candidates AS int) = CAST(:probe AS int)
                THEN coalesce((SELECT min(known) FROM seed_exact), 0.0::float8)
                ELSE coalesce((SELECT lb FROM seen ORDER BY lb DESC OFFSET :candidates - 1 LIMIT 1),
                              0.0::float8) END AS v
),
cands AS MATERIALIZED (
    SELECT s.chunk_id, s.lb AS known, s.known_terms,
           s.lb + (SELECT v FROM unread) - s.seen_rest AS bound, s.lb >= (SELECT v FROM floor) AS held
    FROM seen s
    WHERE s.lb + (SELECT v FROM unread) - s.seen_rest >= (SELECT v FROM theta)
       OR s.lb >= (SELECT v FROM floor)
    UNION ALL
    SELECT p.chunk_id, p.known,
           (SELECT bit_or(CASE WHEN optional THEN none ELSE mark END) FROM split),
           p.known + (SELECT ub FROM optional), false
    FROM partial p
),
-- The :probe best candidates completed: theta may rise.  A proven round has completed them
-- already (seed_exact), and its scores are taken as they are: nothing was read after it, and
-- with :candidates at least :probe every one of its :probe chunks of best lower bound is held
-- (floor is the :candidates-th lower bound), so they are the :probe best candidates.  (With
-- fewer candidates than probes, cands drops some of them: they are completed as before.)
reused AS MATERIALIZED (
    SELECT (SELECT path FROM safe) LIKE 'exact%' AND CAST(:candidates AS int) >= CAST(:probe AS int) AS v
),
best AS MATERIALIZED (
    SELECT e.chunk_id, e.score FROM seed_exact e
    WHERE (SELECT v FROM reused)
    UNION ALL
    SELECT c.chunk_id, {{ m.complete("c") }} AS score
    FROM (SELECT * FROM cands ORDER BY known DESC, chunk_id LIMIT :probe) c
    WHERE NOT (SELECT v FROM reused)
),
theta_best AS MATERIALIZED (
    SELECT greatest((SELECT v FROM theta),
                    {{ m.kth("score", "best", collapse) }} * (1.0::float8 - 1e-9::float8)) AS v
),
led0 AS MATERIALIZED (
    SELECT c.chunk_id, c.known, c.known_terms, c.bound, c.held FROM cands c
    WHERE (c.held OR c.bound >= (SELECT v FROM theta_best))
      AND c.chunk_id NOT IN (SELECT chunk_id FROM best)
    ORDER BY c.bound DESC, c.chunk_id
    -- Out of budget, only the candidates of best bound are completed.
    LIMIT CASE WHEN (SELECT path FROM safe) = 'budget' THEN :complete_limit END
),
{% for i in range(1, leads + 1) %}
{% include "bm25_lead.sql" %},
{% endfor %}
scan AS MATERIALIZED (
    SELECT g.chunk_id, g.score FROM (
        SELECT w.chunk_id, sum({{ m.part("w.tf", "w.dl", "w") }}) AS score
        FROM (
            SELECT w.w, w.avgdl, {{ m.decode("b") }}
            FROM weights w JOIN bm25_blocks b ON b.term_id = w.term_id
            WHERE (SELECT value FROM plan) = 'scan'
            UNION ALL
            SELECT w.w, w.avgdl, d.chunk_id, d.tf, d.doc_length
            FROM weights w JOIN bm25_delta d ON d.term_id = w.term_id
            WHERE (SELECT value FROM plan) = 'scan'
        ) w
        GROUP BY w.chunk_id
    ) g
    WHERE {{ m.live_chunk(filtered, "g.chunk_id") }}
    ORDER BY g.score DESC, g.chunk_id
    LIMIT :candidates
),
bm25 AS (
    SELECT chunk_id, score, row_number() OVER (ORDER BY score DESC, chunk_id) AS rank
    FROM (
        SELECT chunk_id, score FROM scan
        UNION ALL
        SELECT chunk_id, score FROM (
            SELECT chunk_id, max(score) AS score
            FROM (SELECT chunk_id, score FROM best
                  UNION ALL
                  SELECT c.chunk_id, {{ m.complete("c") }} FROM led{{ leads }} c) scored
            GROUP BY chunk_id
            ORDER BY score DESC, chunk_id
            LIMIT :candidates
        ) blocks
        WHERE (SELECT value FROM plan) = 'blocks'
    ) scored
)