{#- Round n of early termination, at depth :depth<n>.  Context: n, rounds, collapse,
    filtered, leads.

`rest` is, for a term cut short, the most a posting not read can add (weight x the best impact
left x drift), 0 for a term read in full.  A chunk read scores at least its lower bound `lb`
(the contributions read) and at most `lb` plus the rests of the cut terms it was not seen in;
a chunk never read scores at most the sum of the rests, `unread`.  So the answer lies among the
chunks read once theta (the exact_k-th best of the lower bounds and the :probe exact scores, or
the k-th best document's; macros.sql, kth) beats `unread`: the round is proven, and only the
chunks that could still reach theta (or whose lower bound is among the top :candidates, floor)
are completed.  A closing round -- every round after the first, and the last -- completes those
chunks even unproven and tries theta over the exact scores against `unread` (with bm25_exact
off it completes only the :complete_limit best upper bounds).  Closing rounds: with three
rounds at 1M chunks, round 2 so closed proved every query that it proves as the last of two,
and round 3 answered the rest mostly in 10-45 % less time than MaxScore (docs/BENCHMARKS.md,
session 9).  Only complete chunks are ranked, and a chunk left incomplete cannot displace one
from the top :candidates, so every score is exact.
`rest` counts the postings a round will read before `top` reads them, so that every row of
`top` carries its term's rest and `seen` aggregates without a join; the second pass reads index
pages the first has just brought in. -#}
{% import "macros.sql" as m %}
{% set leads_range = range(1, leads + 1) %}
{% if n > 1 %}
{% include "bm25_level.sql" %},
{% endif %}
r{{ n }}_rest AS MATERIALIZED (
    SELECT r.term_id, r.w, r.avgdl, r.df, r.top, r.thr, r.depth, r.read < r.df AS cut,
           CASE WHEN r.read >= r.df THEN 0.0::float8
                -- Stopped by the threshold: the best posting left is the first below it.
                WHEN r.read < r.depth THEN r.w * (
                    SELECT p.impact::float8 FROM bm25_postings p
                    WHERE p.term_id = r.term_id AND p.impact < r.thr
                    ORDER BY p.impact DESC LIMIT 1) * (SELECT drift FROM stats)
                ELSE r.w * r.last * (SELECT drift FROM stats) END AS rest
    FROM (
        SELECT w.term_id, w.w, w.avgdl, w.df, t.thr, t.depth, l.read, l.last, l.top
        FROM weights w
{# Round 1 reads the first :depth1 postings of every term; later rounds read, up to their
    depth, only postings that add at least their threshold (bm25_level.sql).  Terms round 1
    read whole are read in full again (threshold 0). #}
{% if n == 1 %}
        CROSS JOIN LATERAL (SELECT 0.0::float8 AS thr,
{% else %}
        CROSS JOIN LATERAL (SELECT CASE WHEN w.df <= :whole * :depth1 THEN 0.0::float8
                ELSE (SELECT level FROM r{{ n }}_level) / (w.w * (SELECT drift FROM stats)) END AS thr,
{% endif %}
                                   CASE WHEN w.df <= :whole * :depth{{ n }} THEN w.df
                                        ELSE :depth{{ n }} END AS depth) t
        CROSS JOIN LATERAL (
            SELECT count(*) AS read, min(x.impact)::float8 AS last, max(x.impact)::float8 AS top
            FROM (
                SELECT p.impact FROM bm25_postings p
                WHERE p.term_id = w.term_id AND p.impact >= t.thr
                ORDER BY p.impact DESC LIMIT t.depth
            ) x
        ) l
{% if n == 1 %}
        WHERE (SELECT value FROM plan) = 'rounds'
{% else %}
        WHERE NOT (SELECT proven FROM r{{ n - 1 }}_verdict)
{% endif %}
    ) r
),
-- The cut terms by rest, largest first (completions go in this order; see the lead passes).
r{{ n }}_order AS MATERIALIZED (
    SELECT term_id, w, avgdl, rest, row_number() OVER (ORDER BY rest DESC, term_id) AS pos
    FROM r{{ n }}_rest WHERE cut
),
r{{ n }}_top AS MATERIALIZED (
    SELECT weights.term_id, p.chunk_id, {{ m.part() }} AS part, weights.rest, weights.cut
    FROM r{{ n }}_rest weights
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.doc_length FROM bm25_postings p
        WHERE p.term_id = weights.term_id AND p.impact >= weights.thr
        ORDER BY p.impact DESC
        LIMIT weights.depth
    ) p
),
r{{ n }}_unread AS MATERIALIZED (
    SELECT coalesce(sum(rest), 0.0::float8) AS ub, count(*) FILTER (WHERE cut) AS cuts FROM r{{ n }}_rest
),
r{{ n }}_seen AS MATERIALIZED (
    SELECT p.chunk_id, sum(p.part) AS lb, sum(p.rest) AS seen_rest,
           count(*) FILTER (WHERE p.cut) AS seen_cuts,
{# Whether a chunk was read in the j-th cut term, carried along to the lead passes. #}
{% for j in leads_range %}
           bool_or(p.term_id = (SELECT term_id FROM r{{ n }}_order WHERE pos = {{ j }})) AS seen{{ j }}{{ "," if not loop.last }}
{% endfor %}
    FROM r{{ n }}_top p{{ m.bm25_filter(filtered) }}
    GROUP BY p.chunk_id
),
r{{ n }}_best AS MATERIALIZED (
    -- The best lower bounds, read once: theta and floor come from them.
    SELECT chunk_id, lb, seen_cuts FROM r{{ n }}_seen ORDER BY lb DESC LIMIT greatest(:candidates, :probe)
),
-- The :probe best of them not read in full are completed at once (a few primary-key
-- probes): a lower bound misses the terms a chunk was not seen in, so theta over exact
-- scores is far higher -- it proves rounds that lower bounds cannot and, through the
-- threshold, makes the next round read fewer postings.
r{{ n }}_probe AS MATERIALIZED (
    SELECT chunk_id FROM r{{ n }}_best
    WHERE seen_cuts < (SELECT cuts FROM r{{ n }}_unread)
    ORDER BY lb DESC LIMIT :probe
),
r{{ n }}_probed AS MATERIALIZED ({{ m.complete(n, "SELECT chunk_id FROM r%d_probe" % n) }}),
-- Each of the best chunks at its exact score when probed, else at its lower bound: never
-- above its true score, so theta over these stays a lower bound of the true k-th.
r{{ n }}_known AS MATERIALIZED (
    SELECT b.chunk_id, b.lb + coalesce(x.extra, 0.0::float8) AS v
    FROM r{{ n }}_best b LEFT JOIN r{{ n }}_probed x ON x.chunk_id = b.chunk_id
),
r{{ n }}_bar AS MATERIALIZED (
    SELECT b.theta, b.floor,
           (SELECT cuts FROM r{{ n }}_unread) = 0 OR b.theta > (SELECT ub FROM r{{ n }}_unread) AS proven
    FROM (SELECT {{ m.kth("v", "r%d_known" % n, collapse) }} AS theta,
                 coalesce((SELECT lb FROM r{{ n }}_best ORDER BY lb DESC
                           OFFSET :candidates - 1 LIMIT 1), 0.0::float8) AS floor) b
),
-- Only chunks whose lower bound reaches floor or whose upper bound reaches theta can rank
-- among the top :candidates: at least :candidates complete chunks score floor or more.  Read
-- only when the round is proven or closing.
r{{ n }}_reach AS MATERIALIZED (
    SELECT o.chunk_id, o.lb, o.ub, o.seen_cuts{% for j in leads_range %}, o.seen{{ j }}{% endfor %} FROM (
        SELECT s.chunk_id, s.lb, s.lb + (SELECT ub FROM r{{ n }}_unread) - s.seen_rest AS ub, s.seen_cuts{% for j in leads_range %}, s.seen{{ j }}{% endfor %}

        FROM r{{ n }}_seen s
        WHERE ({{ "true" if closing(n) else "false" }} OR (SELECT proven FROM r{{ n }}_bar))
    ) o
    WHERE o.lb >= (SELECT floor FROM r{{ n }}_bar) OR o.ub >= (SELECT theta FROM r{{ n }}_bar)
),
-- Completion in two stages.  Theta from :probe chunks can sit well below the true k-th
-- score when scores are flat (common terms), and then every chunk read looks able to reach
-- it.  So the :stage best upper bounds among those are completed first; theta over what is
-- then known exactly (over lifted) is far closer to the true one, and of the rest only the
-- chunks that can still reach it are completed.  Every chunk completed here would also be
-- completed without the stage: it only skips some.
r{{ n }}_stage AS MATERIALIZED (
    SELECT o.chunk_id, o.lb FROM r{{ n }}_reach o
    WHERE o.seen_cuts < (SELECT cuts FROM r{{ n }}_unread)
      AND o.chunk_id NOT IN (SELECT chunk_id FROM r{{ n }}_probe)
    ORDER BY o.ub DESC, o.chunk_id
    LIMIT :stage
),
r{{ n }}_staged AS MATERIALIZED ({{ m.complete(n, "SELECT chunk_id FROM r%d_stage" % n) }}),
-- Exact scores of the probed and staged chunks, lower bounds of the other best ones.
r{{ n }}_lifted AS MATERIALIZED (
    SELECT chunk_id, max(v) AS v FROM (
        SELECT chunk_id, v FROM r{{ n }}_known
        UNION ALL
        SELECT t.chunk_id, t.lb + coalesce(x.extra, 0.0::float8)
        FROM r{{ n }}_stage t LEFT JOIN r{{ n }}_staged x ON x.chunk_id = t.chunk_id
    ) v
    GROUP BY chunk_id
),
r{{ n }}_lift AS MATERIALIZED (
    SELECT greatest((SELECT theta FROM r{{ n }}_bar), {{ m.kth("v", "r%d_lifted" % n, collapse) }}) AS theta
),
r{{ n }}_consider AS MATERIALIZED (
    SELECT o.chunk_id, o.lb, o.ub, o.seen_cuts{% for j in leads_range %}, o.seen{{ j }}{% endfor %} FROM r{{ n }}_reach o
    WHERE o.lb >= (SELECT floor FROM r{{ n }}_bar) OR o.ub >= (SELECT theta FROM r{{ n }}_lift)
),
-- The open chunks: within reach of the lifted theta (or floor), not complete yet.  The lead
-- term passes take them from keep0 to keep{{ leads }}.
r{{ n }}_keep0 AS MATERIALIZED (
    SELECT o.chunk_id, o.lb, o.ub, 0.0::float8 AS extra{% for j in leads_range %}, o.seen{{ j }}{% endfor %} FROM r{{ n }}_consider o
    WHERE o.seen_cuts < (SELECT cuts FROM r{{ n }}_unread)
      AND o.chunk_id NOT IN (SELECT chunk_id FROM r{{ n }}_stage)
      AND o.chunk_id NOT IN (SELECT chunk_id FROM r{{ n }}_probe)
    ORDER BY o.ub DESC
    -- Unproven and out of budget, only the chunks with the best upper bounds are completed
    -- (the staged ones count towards the limit).
    LIMIT CASE WHEN (SELECT proven FROM r{{ n }}_bar) OR CAST(:exact AS boolean) THEN NULL
               ELSE greatest(:complete_limit - (SELECT count(*) FROM r{{ n }}_stage), 0) END
),
{% for j in leads_range %}
{% include "bm25_lead.sql" %},
{% endfor %}
{# After the lead passes, the chunks left in the other cut terms. #}
r{{ n }}_completed AS MATERIALIZED ({{ m.complete(n, "SELECT chunk_id FROM r%d_keep%d" % (n, leads),
    " AND weights.term_id NOT IN (SELECT term_id FROM r%d_order WHERE pos <= %d)" % (n, leads)) }}),
r{{ n }}_scored AS MATERIALIZED (
    SELECT s.chunk_id, s.lb + coalesce(x.extra, 0.0::float8) + coalesce(g.extra, 0.0::float8)
                            + coalesce(k.extra, 0.0::float8) + coalesce(c.extra, 0.0::float8) AS score
    FROM r{{ n }}_consider s LEFT JOIN r{{ n }}_completed c ON c.chunk_id = s.chunk_id
    LEFT JOIN r{{ n }}_keep{{ leads }} k ON k.chunk_id = s.chunk_id
    LEFT JOIN r{{ n }}_staged g ON g.chunk_id = s.chunk_id
    LEFT JOIN r{{ n }}_probed x ON x.chunk_id = s.chunk_id
    WHERE s.seen_cuts = (SELECT cuts FROM r{{ n }}_unread) OR k.chunk_id IS NOT NULL
          OR s.chunk_id IN (SELECT chunk_id FROM r{{ n }}_stage)
          OR s.chunk_id IN (SELECT chunk_id FROM r{{ n }}_probe)
    -- Out of budget some chunks above floor stay incomplete: the fully read ones below it
    -- then fill the ranks.
    UNION ALL
    SELECT s.chunk_id, s.lb FROM r{{ n }}_seen s
    WHERE {{ "true" if closing(n) else "false" }} AND NOT (SELECT proven FROM r{{ n }}_bar) AND NOT CAST(:exact AS boolean)
      -- (Read in full, such a chunk's upper bound is its lower bound: it is not in consider.)
      AND s.seen_cuts = (SELECT cuts FROM r{{ n }}_unread) AND s.lb < (SELECT floor FROM r{{ n }}_bar)
    ORDER BY score DESC, chunk_id
    LIMIT :candidates
),
{# Only a closing round's verdict tries theta over exact scores (the next round's threshold
    and MaxScore start from it).  Round 1 (when not the last) stands or falls by its bar alone,
    and its scores are never computed unless it is proven: most queries it cannot prove are
    cheaper to read deeper than to complete, and the rest are proven by the next round's
    completion. #}
{% if closing(n) %}
r{{ n }}_verdict AS MATERIALIZED (
    SELECT t.theta,
           (SELECT proven FROM r{{ n }}_bar)
           OR (CAST(:exact AS boolean) AND t.theta > (SELECT ub FROM r{{ n }}_unread)) AS proven
    FROM (SELECT {{ m.kth("score", "r%d_scored" % n, collapse) }} AS theta) t
)
{%- else %}
r{{ n }}_verdict AS MATERIALIZED (
    SELECT (SELECT proven FROM r{{ n }}_bar) AS proven
)
{%- endif %}
