{#- Round n of the first pass (bm25.sql, step 1).  Context: n, rounds, filtered, collapse.

Round 1 reads the first :depth1 champion blocks of each cut term; a middle round only the
champion blocks that can hold a posting adding at least the term's share of the previous
round's theta (`level`); a last round after two or more reads all of them.  A term whose whole
list is at most :whole times what the round would read of its champions is read in full
instead (and so is a term without champions): a list cut just short leaves a rest that keeps
most chunks open (bench/bm25_blocks.py measured its p99 queries to be those). -#}
{% import "macros.sql" as m %}
{% set whole_list = n > 2 and n == rounds %}
{% if n > 1 and not whole_list %}
{#- Round n's level, from round n-1's theta: a round proves its answer when the rests sum
    below theta, and a term whose best posting adds less than an even share of theta needs
    none of its postings read for that.  So, taking the cut terms by bound from the smallest,
    those whose bound times the terms left is within what the smaller ones leave of theta (1 %
    under it, so that a round ending on the same theta still proves it) are set aside; the
    first that is not sets the level, its even share of what is left (water-filling; the terms
    set aside are exactly those before it).  None left: no block needs reading.  Only
    efficiency rests on the level: every round proves its answer from what it read. #}
level{{ n }} AS MATERIALIZED (
    SELECT coalesce((
        SELECT (x.budget - x.below) / x.others
        FROM (SELECT u.ub, 0.99::float8 * (SELECT v FROM theta{{ n - 1 }}) AS budget,
                     coalesce(sum(u.ub) OVER (ORDER BY u.ub ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
                              0.0::float8) AS below,
                     count(*) OVER () - row_number() OVER (ORDER BY u.ub) + 1 AS others
              FROM (SELECT r.w * r.drift * (SELECT max(b.max_impact) FROM bm25_blocks b
                                            WHERE b.term_id = r.term_id)::float8 AS ub
                    FROM rests{{ n - 1 }} r WHERE r.cut AND NOT (SELECT v FROM proven{{ n - 1 }})) u) x
        WHERE x.ub * x.others > x.budget - x.below
        ORDER BY x.ub LIMIT 1), 'Infinity'::float8) AS level
),
{% endif %}
-- Each term: cut (a prefix of its champions read) or read in full, and its rest: 0 when read
-- in full, else the bound of every posting the round did not read (the last champion block
-- read, its least impact, rounded up when stored); `mark`, its bit when cut, else none.
rests{{ n }} AS MATERIALIZED (
    SELECT w.term_id, w.w, w.avgdl, w.drift, w.df, m.depth,
           m.depth IS NOT NULL AND w.df > CAST(:whole AS float8) * m.depth * {{ block }} AS cut,
           CASE WHEN m.depth IS NOT NULL AND w.df > CAST(:whole AS float8) * m.depth * {{ block }}
                THEN w.w * m.impact * w.drift ELSE 0.0::float8 END AS rest,
           w.pos, w.none,
           CASE WHEN m.depth IS NOT NULL AND w.df > CAST(:whole AS float8) * m.depth * {{ block }}
                THEN CAST(set_bit(w.none, w.pos, 1) AS varbit) ELSE w.none END AS mark
    FROM weights w
    -- How many champion blocks, from the first, the round reads (none: the term has none).
    LEFT JOIN LATERAL (
        SELECT count(*) AS depth, min(c.min_impact)::float8 AS impact
{% if n == 1 %}
        FROM bm25_top c WHERE c.term_id = w.term_id AND c.blk < :depth1
{% elif whole_list %}
        FROM bm25_top c WHERE c.term_id = w.term_id
{% else %}
        FROM (SELECT t.min_impact, lag(t.min_impact) OVER (ORDER BY t.blk) AS above
              FROM bm25_top t WHERE t.term_id = w.term_id) c
        WHERE c.above IS NULL OR w.w * c.above::float8 * w.drift >= (SELECT level FROM level{{ n }})
{% endif %}
        HAVING count(*) > 0
    ) m ON true
{% if n == 1 %}
    WHERE (SELECT value FROM plan) = 'blocks'
{% else %}
    WHERE NOT (SELECT v FROM proven{{ n - 1 }})
{% endif %}
),
unread{{ n }} AS MATERIALIZED (SELECT coalesce(sum(rest), 0.0::float8) AS v FROM rests{{ n }}),
-- The chunks read: the cut terms' champion prefixes, every posting of the other terms, and
-- every delta posting of every term.  A chunk's postings are all in the delta or all in the
-- blocks (the merge moves whole chunks), so a delta chunk is known in each term it holds and
-- the blocks rightly find it in none.  Merged chunks deleted since (bm25_dead) and, with a
-- filter, chunks it rejects are dropped before theta is taken, so theta is the k-th of the
-- chunks the search may return.
seen{{ n }} AS MATERIALIZED (
    SELECT g.* FROM (
        SELECT w.chunk_id, sum({{ m.part("w.tf", "w.dl", "w") }}) AS lb, sum(w.rest) AS seen_rest,
               bit_or(w.mark) AS known_terms
        FROM (
            SELECT w.term_id, w.w, w.avgdl, w.rest, w.mark, {{ m.decode("b") }}
            FROM rests{{ n }} w JOIN bm25_top b ON b.term_id = w.term_id AND b.blk < w.depth
            WHERE w.cut
            UNION ALL
            SELECT w.term_id, w.w, w.avgdl, w.rest, w.mark, {{ m.decode("b") }}
            FROM rests{{ n }} w JOIN bm25_blocks b ON b.term_id = w.term_id
            WHERE NOT w.cut
            UNION ALL
            SELECT w.term_id, w.w, w.avgdl, w.rest, w.mark, d.chunk_id, d.tf, d.doc_length AS dl
            FROM rests{{ n }} w JOIN bm25_delta d ON d.term_id = w.term_id
        ) w
        GROUP BY w.chunk_id
    ) g
    WHERE {{ m.live_chunk(filtered, "g.chunk_id") }}
),
-- The :probe chunks of highest lower bound completed exactly: theta over exact scores proves
-- rounds that lower bounds cannot and, through the level, makes the next round read less.
seed_exact{{ n }} AS MATERIALIZED (
    SELECT c.chunk_id, c.known, {{ m.complete("c", "rests%d" % n) }} AS score
    FROM (SELECT chunk_id, lb AS known, known_terms
          FROM seen{{ n }} ORDER BY lb DESC, chunk_id LIMIT :probe) c
),
-- The k-th best exact score known (macros.sql, kth: with collapse the k-th best document's),
-- a lower bound of the true one (an earlier round's too), lowered by a relative 1e-9 so that
-- rounding in the sums can only make the search read more.
theta{{ n }} AS MATERIALIZED (
    SELECT greatest({{ m.kth("score", "seed_exact%d" % n, collapse) }} * (1.0::float8 - 1e-9::float8){% if n > 1 %}, (SELECT v FROM theta{{ n - 1 }}){% endif %}) AS v
),
-- (On the scan path round 1 reads nothing and counts as proven, so that no later one runs.)
proven{{ n }} AS MATERIALIZED (
    SELECT {% if n == 1 %}(SELECT value FROM plan) = 'scan' OR {% endif %}(SELECT v FROM theta{{ n }}) > (SELECT v FROM unread{{ n }}) * (1.0::float8 + 1e-9::float8) AS v
)
