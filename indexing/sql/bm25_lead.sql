{#- Lead pass i (bm25.sql, step 4): the candidates completed in the cut term of i-th largest
    rest, dropping those whose bound then falls below theta (unless held by floor) -- by probes
    (a key lookup each, ~5 us) while they are few, else by a merge: the candidates gathered
    by the block that can hold them, each such block fetched once and its candidates' slots
    found by binary search, once they outnumber the term's blocks :merge times (the ends of all
    its blocks are read to place them).  Context: i, block. -#}
{% import "macros.sql" as m %}
lead{{ i }} AS MATERIALIZED (
    SELECT * FROM split WHERE cut ORDER BY rest DESC, term_id OFFSET {{ i - 1 }} LIMIT 1
),
need{{ i }} AS MATERIALIZED (
    SELECT c.* FROM led{{ i - 1 }} c CROSS JOIN lead{{ i }} w WHERE get_bit(c.known_terms, w.pos) = 0
),
merge{{ i }} AS MATERIALIZED (
    SELECT (SELECT count(*) FROM need{{ i }}) > CAST(:merge AS float8) * w.df / {{ block }} AS v
    FROM lead{{ i }} w
),
-- Each candidate's block is the one of least last_chunk at or above it: found by a binary
-- search of the term's block ends, in order in one array (width_bucket: how many end below
-- the chunk), no lookups and no sort of the candidates (a running minimum over the ends and
-- the candidates sorted together cost several ms at 10,000 candidates); a chunk past the
-- last end is in no block.  The candidates are gathered per block, so that each block is
-- fetched once and the candidates searched in it (a block's 128 postings decoded and joined
-- to the candidates cost more than its candidates' binary searches).
touched{{ i }} AS MATERIALIZED (
    SELECT x.ends[width_bucket(x.chunk_id - 1, x.ends) + 1] AS block, array_agg(x.chunk_id) AS chunks
    -- The ends a scalar subquery, built once (joined, the plan rebuilt them per candidate).
    FROM (SELECT c.chunk_id, (SELECT array_agg(b.last_chunk ORDER BY b.last_chunk)
                              FROM lead{{ i }} w JOIN bm25_blocks b ON b.term_id = w.term_id) AS ends
          FROM need{{ i }} c
          WHERE (SELECT v FROM merge{{ i }})
          OFFSET 0) x
    WHERE x.chunk_id <= x.ends[cardinality(x.ends)]
    GROUP BY 1
),
found{{ i }} AS MATERIALIZED (
    SELECT c.chunk_id, x.part
    FROM need{{ i }} c CROSS JOIN lead{{ i }} w CROSS JOIN LATERAL {{ m.probe("w", "w.term_id", "c.chunk_id") }} x
    WHERE NOT (SELECT v FROM merge{{ i }})
    UNION ALL
    SELECT s.chunk_id, {{ m.part("b.tfs[s.i]::int", "b.lens[s.i]::int", "w") }}
    FROM lead{{ i }} w CROSS JOIN touched{{ i }} t
    JOIN bm25_blocks b ON b.term_id = w.term_id AND b.last_chunk = t.block
    CROSS JOIN LATERAL (SELECT u.chunk_id, {{ m.slot("b", "u.chunk_id") }} AS i
                        FROM unnest(t.chunks) AS u(chunk_id)
                        -- As in the probe: the slot searched once.
                        OFFSET 0) s
    WHERE {{ m.in_slot("b", "s.i", "s.chunk_id") }}
),
-- Aggregated, not joined: CTEs carry no statistics, and a plan that takes need and found for
-- a row or two each joins them by a nested loop (measured: 15,000 x 6,000 rows, 8 s).
led{{ i }} AS MATERIALIZED (
    SELECT g.chunk_id, g.known + g.part AS known, g.known_terms | w.mark AS known_terms,
           g.bound - w.rest + g.part AS bound, g.held
    FROM (SELECT u.chunk_id, max(u.known) AS known, bit_or(u.known_terms) AS known_terms,
                 max(u.bound) AS bound, bool_or(u.held) AS held,
                 coalesce(sum(u.part), 0.0::float8) AS part
          FROM (SELECT c.chunk_id, c.known, c.known_terms, c.bound, c.held, NULL::float8 AS part
                FROM need{{ i }} c
                UNION ALL
                SELECT f.chunk_id, NULL, NULL, NULL, NULL, f.part FROM found{{ i }} f) u
          GROUP BY u.chunk_id) g
    CROSS JOIN lead{{ i }} w
    WHERE g.held OR g.bound - w.rest + g.part >= (SELECT v FROM theta_best)
    UNION ALL
    SELECT c.* FROM led{{ i - 1 }} c
    WHERE NOT EXISTS (SELECT 1 FROM lead{{ i }} w WHERE get_bit(c.known_terms, w.pos) = 0)
)
