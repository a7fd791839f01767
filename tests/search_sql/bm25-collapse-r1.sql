-- indexing/sql/search.sql rendered with mode=bm25 collapse=True filtered=False fusion=weighted rounds=1.
-- Generated: regenerate with `.venv/bin/python -m tests.render_search_sql` after changing indexing/sql/.
WITH
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
-- Each term: cut (a prefix of its champions read) or read in full, and its rest: 0 when read
-- in full, else the bound of every posting the round did not read (the last champion block
-- read, its least impact, rounded up when stored); `mark`, its bit when cut, else none.
rests1 AS MATERIALIZED (
    SELECT w.term_id, w.w, w.avgdl, w.drift, w.df, m.depth,
           m.depth IS NOT NULL AND w.df > CAST(:whole AS float8) * m.depth * 128 AS cut,
           CASE WHEN m.depth IS NOT NULL AND w.df > CAST(:whole AS float8) * m.depth * 128
                THEN w.w * m.impact * w.drift ELSE 0.0::float8 END AS rest,
           w.pos, w.none,
           CASE WHEN m.depth IS NOT NULL AND w.df > CAST(:whole AS float8) * m.depth * 128
                THEN CAST(set_bit(w.none, w.pos, 1) AS varbit) ELSE w.none END AS mark
    FROM weights w
    -- How many champion blocks, from the first, the round reads (none: the term has none).
    LEFT JOIN LATERAL (
        SELECT count(*) AS depth, min(c.min_impact)::float8 AS impact
        FROM bm25_top c WHERE c.term_id = w.term_id AND c.blk < :depth1
        HAVING count(*) > 0
    ) m ON true
    WHERE (SELECT value FROM plan) = 'blocks'
),
unread1 AS MATERIALIZED (SELECT coalesce(sum(rest), 0.0::float8) AS v FROM rests1),
-- The chunks read: the cut terms' champion prefixes, every posting of the other terms, and
-- every delta posting of every term.  A chunk's postings are all in the delta or all in the
-- blocks (the merge moves whole chunks), so a delta chunk is known in each term it holds and
-- the blocks rightly find it in none.  Merged chunks deleted since (bm25_dead) and, with a
-- filter, chunks it rejects are dropped before theta is taken, so theta is the k-th of the
-- chunks the search may return.
seen1 AS MATERIALIZED (
    SELECT g.* FROM (
        SELECT w.chunk_id, sum(bm25_term_score(w.w, w.tf, w.dl, w.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))) AS lb, sum(w.rest) AS seen_rest,
               bit_or(w.mark) AS known_terms
        FROM (
            SELECT w.term_id, w.w, w.avgdl, w.rest, w.mark, b.first_chunk + unnest(coalesce(b.offs2::int4[], b.offs4)) AS chunk_id,
           unnest(b.tfs)::int AS tf, unnest(b.lens)::int AS dl
            FROM rests1 w JOIN bm25_top b ON b.term_id = w.term_id AND b.blk < w.depth
            WHERE w.cut
            UNION ALL
            SELECT w.term_id, w.w, w.avgdl, w.rest, w.mark, b.first_chunk + unnest(coalesce(b.offs2::int4[], b.offs4)) AS chunk_id,
           unnest(b.tfs)::int AS tf, unnest(b.lens)::int AS dl
            FROM rests1 w JOIN bm25_blocks b ON b.term_id = w.term_id
            WHERE NOT w.cut
            UNION ALL
            SELECT w.term_id, w.w, w.avgdl, w.rest, w.mark, d.chunk_id, d.tf, d.doc_length AS dl
            FROM rests1 w JOIN bm25_delta d ON d.term_id = w.term_id
        ) w
        GROUP BY w.chunk_id
    ) g
    WHERE (NOT (SELECT v FROM dead) OR NOT EXISTS (SELECT 1 FROM bm25_dead x WHERE x.chunk_id = g.chunk_id))
),
-- The :probe chunks of highest lower bound completed exactly: theta over exact scores proves
-- rounds that lower bounds cannot and, through the level, makes the next round read less.
seed_exact1 AS MATERIALIZED (
    SELECT c.chunk_id, c.known, c.known + coalesce((
               SELECT sum(x.part) FROM rests1 w CROSS JOIN LATERAL (SELECT bm25_term_score(w.w, b.tfs[s.i]::int, b.lens[s.i]::int, w.avgdl, CAST(:k1 AS float8), CAST(:b AS float8)) AS part
 FROM (SELECT b.first_chunk, b.offs2, b.offs4, b.tfs, b.lens FROM bm25_blocks b
       WHERE b.term_id = w.term_id AND b.last_chunk >= c.chunk_id
       ORDER BY b.last_chunk LIMIT 1) b
 CROSS JOIN LATERAL (SELECT CASE WHEN c.chunk_id < b.first_chunk THEN NULL
                                 WHEN b.offs2 IS NOT NULL THEN width_bucket((c.chunk_id - b.first_chunk)::int2, b.offs2)
                                 ELSE width_bucket((c.chunk_id - b.first_chunk)::int4, b.offs4) END AS i
                     -- Kept a subquery, so that the slot is searched once: pulled up, it would be
                     -- searched again wherever the inlined score reads tf or the length.
                     OFFSET 0) s
 WHERE coalesce(b.offs2[s.i]::int8, b.offs4[s.i]) = c.chunk_id - b.first_chunk) x
               WHERE w.cut AND get_bit(c.known_terms, w.pos) = 0), 0.0::float8) AS score
    FROM (SELECT chunk_id, lb AS known, known_terms
          FROM seen1 ORDER BY lb DESC, chunk_id LIMIT :probe) c
),
-- The k-th best exact score known (macros.sql, kth: with collapse the k-th best document's),
-- a lower bound of the true one (an earlier round's too), lowered by a relative 1e-9 so that
-- rounding in the sums can only make the search read more.
theta1 AS MATERIALIZED (
    SELECT greatest(coalesce(
        (SELECT d.v FROM (
            SELECT DISTINCT ON (c.search_document_id) s.v
            FROM (SELECT chunk_id, score AS v FROM seed_exact1 ORDER BY score DESC LIMIT :exact_k) s
            JOIN chunks c ON c.id = s.chunk_id
            ORDER BY c.search_document_id, s.v DESC) d
         ORDER BY d.v DESC OFFSET :k - 1 LIMIT 1),
        coalesce((SELECT score FROM seed_exact1 ORDER BY score DESC OFFSET :exact_k - 1 LIMIT 1),
                 0.0::float8)) * (1.0::float8 - 1e-9::float8)) AS v
),
-- (On the scan path round 1 reads nothing and counts as proven, so that no later one runs.)
proven1 AS MATERIALIZED (
    SELECT (SELECT value FROM plan) = 'scan' OR (SELECT v FROM theta1) > (SELECT v FROM unread1) * (1.0::float8 + 1e-9::float8) AS v
)
,
rests AS MATERIALIZED (
    SELECT * FROM rests1 WHERE true
),
unread AS MATERIALIZED (
    SELECT * FROM unread1 WHERE true
),
seen AS NOT MATERIALIZED (
    SELECT * FROM seen1 WHERE true
),
seed_exact AS MATERIALIZED (
    SELECT * FROM seed_exact1 WHERE true
),
theta AS MATERIALIZED (
    SELECT * FROM theta1 WHERE true
),
proven AS MATERIALIZED (
    SELECT * FROM proven1 WHERE true
),
safe AS MATERIALIZED (
    SELECT CASE WHEN (SELECT value FROM plan) = 'scan' THEN 'scan'
                WHEN (SELECT v FROM proven1) THEN 'exact1'
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
        SELECT w.chunk_id, sum(bm25_term_score(w.w, w.tf, w.dl, w.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))) AS known
        FROM (
            SELECT w.term_id, w.w, w.avgdl, b.first_chunk + unnest(coalesce(b.offs2::int4[], b.offs4)) AS chunk_id,
           unnest(b.tfs)::int AS tf, unnest(b.lens)::int AS dl
            FROM essential e
            JOIN bm25_blocks b ON b.term_id = e.term_id AND b.last_chunk = e.last_chunk
            JOIN split w ON w.term_id = e.term_id
            WHERE int8range(e.first_chunk, e.last_chunk, '[]') && (SELECT r FROM hot)
        ) w
        WHERE NOT EXISTS (SELECT 1 FROM seen x WHERE x.chunk_id = w.chunk_id)
        GROUP BY w.chunk_id
        HAVING sum(bm25_term_score(w.w, w.tf, w.dl, w.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))) + (SELECT ub FROM optional) >= (SELECT v FROM theta)
    ) g
    WHERE (NOT (SELECT v FROM dead) OR NOT EXISTS (SELECT 1 FROM bm25_dead x WHERE x.chunk_id = g.chunk_id))
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
    SELECT c.chunk_id, c.known + coalesce((
               SELECT sum(x.part) FROM rests w CROSS JOIN LATERAL (SELECT bm25_term_score(w.w, b.tfs[s.i]::int, b.lens[s.i]::int, w.avgdl, CAST(:k1 AS float8), CAST(:b AS float8)) AS part
 FROM (SELECT b.first_chunk, b.offs2, b.offs4, b.tfs, b.lens FROM bm25_blocks b
       WHERE b.term_id = w.term_id AND b.last_chunk >= c.chunk_id
       ORDER BY b.last_chunk LIMIT 1) b
 CROSS JOIN LATERAL (SELECT CASE WHEN c.chunk_id < b.first_chunk THEN NULL
                                 WHEN b.offs2 IS NOT NULL THEN width_bucket((c.chunk_id - b.first_chunk)::int2, b.offs2)
                                 ELSE width_bucket((c.chunk_id - b.first_chunk)::int4, b.offs4) END AS i
                     -- Kept a subquery, so that the slot is searched once: pulled up, it would be
                     -- searched again wherever the inlined score reads tf or the length.
                     OFFSET 0) s
 WHERE coalesce(b.offs2[s.i]::int8, b.offs4[s.i]) = c.chunk_id - b.first_chunk) x
               WHERE w.cut AND get_bit(c.known_terms, w.pos) = 0), 0.0::float8) AS score
    FROM (SELECT * FROM cands ORDER BY known DESC, chunk_id LIMIT :probe) c
    WHERE NOT (SELECT v FROM reused)
),
theta_best AS MATERIALIZED (
    SELECT greatest((SELECT v FROM theta),
                    coalesce(
        (SELECT d.v FROM (
            SELECT DISTINCT ON (c.search_document_id) s.v
            FROM (SELECT chunk_id, score AS v FROM best ORDER BY score DESC LIMIT :exact_k) s
            JOIN chunks c ON c.id = s.chunk_id
            ORDER BY c.search_document_id, s.v DESC) d
         ORDER BY d.v DESC OFFSET :k - 1 LIMIT 1),
        coalesce((SELECT score FROM best ORDER BY score DESC OFFSET :exact_k - 1 LIMIT 1),
                 0.0::float8)) * (1.0::float8 - 1e-9::float8)) AS v
),
led0 AS MATERIALIZED (
    SELECT c.chunk_id, c.known, c.known_terms, c.bound, c.held FROM cands c
    WHERE (c.held OR c.bound >= (SELECT v FROM theta_best))
      AND c.chunk_id NOT IN (SELECT chunk_id FROM best)
    ORDER BY c.bound DESC, c.chunk_id
    -- Out of budget, only the candidates of best bound are completed.
    LIMIT CASE WHEN (SELECT path FROM safe) = 'budget' THEN :complete_limit END
),
lead1 AS MATERIALIZED (
    SELECT * FROM split WHERE cut ORDER BY rest DESC, term_id OFFSET 0 LIMIT 1
),
need1 AS MATERIALIZED (
    SELECT c.* FROM led0 c CROSS JOIN lead1 w WHERE get_bit(c.known_terms, w.pos) = 0
),
merge1 AS MATERIALIZED (
    SELECT (SELECT count(*) FROM need1) > CAST(:merge AS float8) * w.df / 128 AS v
    FROM lead1 w
),
-- Each candidate's block is the one of least last_chunk at or above it: found by a binary
-- search of the term's block ends, in order in one array (width_bucket: how many end below
-- the chunk), no lookups and no sort of the candidates (a running minimum over the ends and
-- the candidates sorted together cost several ms at 10,000 candidates); a chunk past the
-- last end is in no block.  The candidates are gathered per block, so that each block is
-- fetched once and the candidates searched in it (a block's 128 postings decoded and joined
-- to the candidates cost more than its candidates' binary searches).
touched1 AS MATERIALIZED (
    SELECT x.ends[width_bucket(x.chunk_id - 1, x.ends) + 1] AS block, array_agg(x.chunk_id) AS chunks
    -- The ends a scalar subquery, built once (joined, the plan rebuilt them per candidate).
    FROM (SELECT c.chunk_id, (SELECT array_agg(b.last_chunk ORDER BY b.last_chunk)
                              FROM lead1 w JOIN bm25_blocks b ON b.term_id = w.term_id) AS ends
          FROM need1 c
          WHERE (SELECT v FROM merge1)
          OFFSET 0) x
    WHERE x.chunk_id <= x.ends[cardinality(x.ends)]
    GROUP BY 1
),
found1 AS MATERIALIZED (
    SELECT c.chunk_id, x.part
    FROM need1 c CROSS JOIN lead1 w CROSS JOIN LATERAL (SELECT bm25_term_score(w.w, b.tfs[s.i]::int, b.lens[s.i]::int, w.avgdl, CAST(:k1 AS float8), CAST(:b AS float8)) AS part
 FROM (SELECT b.first_chunk, b.offs2, b.offs4, b.tfs, b.lens FROM bm25_blocks b
       WHERE b.term_id = w.term_id AND b.last_chunk >= c.chunk_id
       ORDER BY b.last_chunk LIMIT 1) b
 CROSS JOIN LATERAL (SELECT CASE WHEN c.chunk_id < b.first_chunk THEN NULL
                                 WHEN b.offs2 IS NOT NULL THEN width_bucket((c.chunk_id - b.first_chunk)::int2, b.offs2)
                                 ELSE width_bucket((c.chunk_id - b.first_chunk)::int4, b.offs4) END AS i
                     -- Kept a subquery, so that the slot is searched once: pulled up, it would be
                     -- searched again wherever the inlined score reads tf or the length.
                     OFFSET 0) s
 WHERE coalesce(b.offs2[s.i]::int8, b.offs4[s.i]) = c.chunk_id - b.first_chunk) x
    WHERE NOT (SELECT v FROM merge1)
    UNION ALL
    SELECT s.chunk_id, bm25_term_score(w.w, b.tfs[s.i]::int, b.lens[s.i]::int, w.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))
    FROM lead1 w CROSS JOIN touched1 t
    JOIN bm25_blocks b ON b.term_id = w.term_id AND b.last_chunk = t.block
    CROSS JOIN LATERAL (SELECT u.chunk_id, CASE WHEN u.chunk_id < b.first_chunk THEN NULL
                                 WHEN b.offs2 IS NOT NULL THEN width_bucket((u.chunk_id - b.first_chunk)::int2, b.offs2)
                                 ELSE width_bucket((u.chunk_id - b.first_chunk)::int4, b.offs4) END AS i
                        FROM unnest(t.chunks) AS u(chunk_id)
                        -- As in the probe: the slot searched once.
                        OFFSET 0) s
    WHERE coalesce(b.offs2[s.i]::int8, b.offs4[s.i]) = s.chunk_id - b.first_chunk
),
-- Aggregated, not joined: CTEs carry no statistics, and a plan that takes need and found for
-- a row or two each joins them by a nested loop (measured: 15,000 x 6,000 rows, 8 s).
led1 AS MATERIALIZED (
    SELECT g.chunk_id, g.known + g.part AS known, g.known_terms | w.mark AS known_terms,
           g.bound - w.rest + g.part AS bound, g.held
    FROM (SELECT u.chunk_id, max(u.known) AS known, bit_or(u.known_terms) AS known_terms,
                 max(u.bound) AS bound, bool_or(u.held) AS held,
                 coalesce(sum(u.part), 0.0::float8) AS part
          FROM (SELECT c.chunk_id, c.known, c.known_terms, c.bound, c.held, NULL::float8 AS part
                FROM need1 c
                UNION ALL
                SELECT f.chunk_id, NULL, NULL, NULL, NULL, f.part FROM found1 f) u
          GROUP BY u.chunk_id) g
    CROSS JOIN lead1 w
    WHERE g.held OR g.bound - w.rest + g.part >= (SELECT v FROM theta_best)
    UNION ALL
    SELECT c.* FROM led0 c
    WHERE NOT EXISTS (SELECT 1 FROM lead1 w WHERE get_bit(c.known_terms, w.pos) = 0)
)
,
lead2 AS MATERIALIZED (
    SELECT * FROM split WHERE cut ORDER BY rest DESC, term_id OFFSET 1 LIMIT 1
),
need2 AS MATERIALIZED (
    SELECT c.* FROM led1 c CROSS JOIN lead2 w WHERE get_bit(c.known_terms, w.pos) = 0
),
merge2 AS MATERIALIZED (
    SELECT (SELECT count(*) FROM need2) > CAST(:merge AS float8) * w.df / 128 AS v
    FROM lead2 w
),
-- Each candidate's block is the one of least last_chunk at or above it: found by a binary
-- search of the term's block ends, in order in one array (width_bucket: how many end below
-- the chunk), no lookups and no sort of the candidates (a running minimum over the ends and
-- the candidates sorted together cost several ms at 10,000 candidates); a chunk past the
-- last end is in no block.  The candidates are gathered per block, so that each block is
-- fetched once and the candidates searched in it (a block's 128 postings decoded and joined
-- to the candidates cost more than its candidates' binary searches).
touched2 AS MATERIALIZED (
    SELECT x.ends[width_bucket(x.chunk_id - 1, x.ends) + 1] AS block, array_agg(x.chunk_id) AS chunks
    -- The ends a scalar subquery, built once (joined, the plan rebuilt them per candidate).
    FROM (SELECT c.chunk_id, (SELECT array_agg(b.last_chunk ORDER BY b.last_chunk)
                              FROM lead2 w JOIN bm25_blocks b ON b.term_id = w.term_id) AS ends
          FROM need2 c
          WHERE (SELECT v FROM merge2)
          OFFSET 0) x
    WHERE x.chunk_id <= x.ends[cardinality(x.ends)]
    GROUP BY 1
),
found2 AS MATERIALIZED (
    SELECT c.chunk_id, x.part
    FROM need2 c CROSS JOIN lead2 w CROSS JOIN LATERAL (SELECT bm25_term_score(w.w, b.tfs[s.i]::int, b.lens[s.i]::int, w.avgdl, CAST(:k1 AS float8), CAST(:b AS float8)) AS part
 FROM (SELECT b.first_chunk, b.offs2, b.offs4, b.tfs, b.lens FROM bm25_blocks b
       WHERE b.term_id = w.term_id AND b.last_chunk >= c.chunk_id
       ORDER BY b.last_chunk LIMIT 1) b
 CROSS JOIN LATERAL (SELECT CASE WHEN c.chunk_id < b.first_chunk THEN NULL
                                 WHEN b.offs2 IS NOT NULL THEN width_bucket((c.chunk_id - b.first_chunk)::int2, b.offs2)
                                 ELSE width_bucket((c.chunk_id - b.first_chunk)::int4, b.offs4) END AS i
                     -- Kept a subquery, so that the slot is searched once: pulled up, it would be
                     -- searched again wherever the inlined score reads tf or the length.
                     OFFSET 0) s
 WHERE coalesce(b.offs2[s.i]::int8, b.offs4[s.i]) = c.chunk_id - b.first_chunk) x
    WHERE NOT (SELECT v FROM merge2)
    UNION ALL
    SELECT s.chunk_id, bm25_term_score(w.w, b.tfs[s.i]::int, b.lens[s.i]::int, w.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))
    FROM lead2 w CROSS JOIN touched2 t
    JOIN bm25_blocks b ON b.term_id = w.term_id AND b.last_chunk = t.block
    CROSS JOIN LATERAL (SELECT u.chunk_id, CASE WHEN u.chunk_id < b.first_chunk THEN NULL
                                 WHEN b.offs2 IS NOT NULL THEN width_bucket((u.chunk_id - b.first_chunk)::int2, b.offs2)
                                 ELSE width_bucket((u.chunk_id - b.first_chunk)::int4, b.offs4) END AS i
                        FROM unnest(t.chunks) AS u(chunk_id)
                        -- As in the probe: the slot searched once.
                        OFFSET 0) s
    WHERE coalesce(b.offs2[s.i]::int8, b.offs4[s.i]) = s.chunk_id - b.first_chunk
),
-- Aggregated, not joined: CTEs carry no statistics, and a plan that takes need and found for
-- a row or two each joins them by a nested loop (measured: 15,000 x 6,000 rows, 8 s).
led2 AS MATERIALIZED (
    SELECT g.chunk_id, g.known + g.part AS known, g.known_terms | w.mark AS known_terms,
           g.bound - w.rest + g.part AS bound, g.held
    FROM (SELECT u.chunk_id, max(u.known) AS known, bit_or(u.known_terms) AS known_terms,
                 max(u.bound) AS bound, bool_or(u.held) AS held,
                 coalesce(sum(u.part), 0.0::float8) AS part
          FROM (SELECT c.chunk_id, c.known, c.known_terms, c.bound, c.held, NULL::float8 AS part
                FROM need2 c
                UNION ALL
                SELECT f.chunk_id, NULL, NULL, NULL, NULL, f.part FROM found2 f) u
          GROUP BY u.chunk_id) g
    CROSS JOIN lead2 w
    WHERE g.held OR g.bound - w.rest + g.part >= (SELECT v FROM theta_best)
    UNION ALL
    SELECT c.* FROM led1 c
    WHERE NOT EXISTS (SELECT 1 FROM lead2 w WHERE get_bit(c.known_terms, w.pos) = 0)
)
,
lead3 AS MATERIALIZED (
    SELECT * FROM split WHERE cut ORDER BY rest DESC, term_id OFFSET 2 LIMIT 1
),
need3 AS MATERIALIZED (
    SELECT c.* FROM led2 c CROSS JOIN lead3 w WHERE get_bit(c.known_terms, w.pos) = 0
),
merge3 AS MATERIALIZED (
    SELECT (SELECT count(*) FROM need3) > CAST(:merge AS float8) * w.df / 128 AS v
    FROM lead3 w
),
-- Each candidate's block is the one of least last_chunk at or above it: found by a binary
-- search of the term's block ends, in order in one array (width_bucket: how many end below
-- the chunk), no lookups and no sort of the candidates (a running minimum over the ends and
-- the candidates sorted together cost several ms at 10,000 candidates); a chunk past the
-- last end is in no block.  The candidates are gathered per block, so that each block is
-- fetched once and the candidates searched in it (a block's 128 postings decoded and joined
-- to the candidates cost more than its candidates' binary searches).
touched3 AS MATERIALIZED (
    SELECT x.ends[width_bucket(x.chunk_id - 1, x.ends) + 1] AS block, array_agg(x.chunk_id) AS chunks
    -- The ends a scalar subquery, built once (joined, the plan rebuilt them per candidate).
    FROM (SELECT c.chunk_id, (SELECT array_agg(b.last_chunk ORDER BY b.last_chunk)
                              FROM lead3 w JOIN bm25_blocks b ON b.term_id = w.term_id) AS ends
          FROM need3 c
          WHERE (SELECT v FROM merge3)
          OFFSET 0) x
    WHERE x.chunk_id <= x.ends[cardinality(x.ends)]
    GROUP BY 1
),
found3 AS MATERIALIZED (
    SELECT c.chunk_id, x.part
    FROM need3 c CROSS JOIN lead3 w CROSS JOIN LATERAL (SELECT bm25_term_score(w.w, b.tfs[s.i]::int, b.lens[s.i]::int, w.avgdl, CAST(:k1 AS float8), CAST(:b AS float8)) AS part
 FROM (SELECT b.first_chunk, b.offs2, b.offs4, b.tfs, b.lens FROM bm25_blocks b
       WHERE b.term_id = w.term_id AND b.last_chunk >= c.chunk_id
       ORDER BY b.last_chunk LIMIT 1) b
 CROSS JOIN LATERAL (SELECT CASE WHEN c.chunk_id < b.first_chunk THEN NULL
                                 WHEN b.offs2 IS NOT NULL THEN width_bucket((c.chunk_id - b.first_chunk)::int2, b.offs2)
                                 ELSE width_bucket((c.chunk_id - b.first_chunk)::int4, b.offs4) END AS i
                     -- Kept a subquery, so that the slot is searched once: pulled up, it would be
                     -- searched again wherever the inlined score reads tf or the length.
                     OFFSET 0) s
 WHERE coalesce(b.offs2[s.i]::int8, b.offs4[s.i]) = c.chunk_id - b.first_chunk) x
    WHERE NOT (SELECT v FROM merge3)
    UNION ALL
    SELECT s.chunk_id, bm25_term_score(w.w, b.tfs[s.i]::int, b.lens[s.i]::int, w.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))
    FROM lead3 w CROSS JOIN touched3 t
    JOIN bm25_blocks b ON b.term_id = w.term_id AND b.last_chunk = t.block
    CROSS JOIN LATERAL (SELECT u.chunk_id, CASE WHEN u.chunk_id < b.first_chunk THEN NULL
                                 WHEN b.offs2 IS NOT NULL THEN width_bucket((u.chunk_id - b.first_chunk)::int2, b.offs2)
                                 ELSE width_bucket((u.chunk_id - b.first_chunk)::int4, b.offs4) END AS i
                        FROM unnest(t.chunks) AS u(chunk_id)
                        -- As in the probe: the slot searched once.
                        OFFSET 0) s
    WHERE coalesce(b.offs2[s.i]::int8, b.offs4[s.i]) = s.chunk_id - b.first_chunk
),
-- Aggregated, not joined: CTEs carry no statistics, and a plan that takes need and found for
-- a row or two each joins them by a nested loop (measured: 15,000 x 6,000 rows, 8 s).
led3 AS MATERIALIZED (
    SELECT g.chunk_id, g.known + g.part AS known, g.known_terms | w.mark AS known_terms,
           g.bound - w.rest + g.part AS bound, g.held
    FROM (SELECT u.chunk_id, max(u.known) AS known, bit_or(u.known_terms) AS known_terms,
                 max(u.bound) AS bound, bool_or(u.held) AS held,
                 coalesce(sum(u.part), 0.0::float8) AS part
          FROM (SELECT c.chunk_id, c.known, c.known_terms, c.bound, c.held, NULL::float8 AS part
                FROM need3 c
                UNION ALL
                SELECT f.chunk_id, NULL, NULL, NULL, NULL, f.part FROM found3 f) u
          GROUP BY u.chunk_id) g
    CROSS JOIN lead3 w
    WHERE g.held OR g.bound - w.rest + g.part >= (SELECT v FROM theta_best)
    UNION ALL
    SELECT c.* FROM led2 c
    WHERE NOT EXISTS (SELECT 1 FROM lead3 w WHERE get_bit(c.known_terms, w.pos) = 0)
)
,
scan AS MATERIALIZED (
    SELECT g.chunk_id, g.score FROM (
        SELECT w.chunk_id, sum(bm25_term_score(w.w, w.tf, w.dl, w.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))) AS score
        FROM (
            SELECT w.w, w.avgdl, b.first_chunk + unnest(coalesce(b.offs2::int4[], b.offs4)) AS chunk_id,
           unnest(b.tfs)::int AS tf, unnest(b.lens)::int AS dl
            FROM weights w JOIN bm25_blocks b ON b.term_id = w.term_id
            WHERE (SELECT value FROM plan) = 'scan'
            UNION ALL
            SELECT w.w, w.avgdl, d.chunk_id, d.tf, d.doc_length
            FROM weights w JOIN bm25_delta d ON d.term_id = w.term_id
            WHERE (SELECT value FROM plan) = 'scan'
        ) w
        GROUP BY w.chunk_id
    ) g
    WHERE (NOT (SELECT v FROM dead) OR NOT EXISTS (SELECT 1 FROM bm25_dead x WHERE x.chunk_id = g.chunk_id))
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
                  SELECT c.chunk_id, c.known + coalesce((
               SELECT sum(x.part) FROM rests w CROSS JOIN LATERAL (SELECT bm25_term_score(w.w, b.tfs[s.i]::int, b.lens[s.i]::int, w.avgdl, CAST(:k1 AS float8), CAST(:b AS float8)) AS part
 FROM (SELECT b.first_chunk, b.offs2, b.offs4, b.tfs, b.lens FROM bm25_blocks b
       WHERE b.term_id = w.term_id AND b.last_chunk >= c.chunk_id
       ORDER BY b.last_chunk LIMIT 1) b
 CROSS JOIN LATERAL (SELECT CASE WHEN c.chunk_id < b.first_chunk THEN NULL
                                 WHEN b.offs2 IS NOT NULL THEN width_bucket((c.chunk_id - b.first_chunk)::int2, b.offs2)
                                 ELSE width_bucket((c.chunk_id - b.first_chunk)::int4, b.offs4) END AS i
                     -- Kept a subquery, so that the slot is searched once: pulled up, it would be
                     -- searched again wherever the inlined score reads tf or the length.
                     OFFSET 0) s
 WHERE coalesce(b.offs2[s.i]::int8, b.offs4[s.i]) = c.chunk_id - b.first_chunk) x
               WHERE w.cut AND get_bit(c.known_terms, w.pos) = 0), 0.0::float8) FROM led3 c) scored
            GROUP BY chunk_id
            ORDER BY score DESC, chunk_id
            LIMIT :candidates
        ) blocks
        WHERE (SELECT value FROM plan) = 'blocks'
    ) scored
),
fused AS (
    SELECT chunk_id, score, NULL::bigint AS dense_rank, NULL::float8 AS dense_score,
           rank AS bm25_rank, score AS bm25_score
    FROM bm25
),
ranked AS (
    SELECT * FROM (
        SELECT DISTINCT ON (c.search_document_id) f.chunk_id, f.score, f.dense_rank, f.dense_score,
               f.bm25_rank, f.bm25_score, c.search_document_id
        FROM fused f
        -- Key probes per candidate, as OFFSET 0 keeps them: a generic plan, not knowing how
        -- few candidates there are, would otherwise hash the whole chunks table.
        CROSS JOIN LATERAL (SELECT c.search_document_id FROM chunks c
                            WHERE c.id = f.chunk_id AND c.tenant_id = :tenant OFFSET 0) c
        ORDER BY c.search_document_id, f.score DESC, f.chunk_id
    ) best
    ORDER BY score DESC, chunk_id
    LIMIT :k
)
SELECT sd.external_id AS document_id, r.chunk_id, r.score, c.text, c.heading_path, c.page_start,
       c.page_end, c.boxes, c.start_s, c.end_s, r.dense_rank, r.dense_score, r.bm25_rank, r.bm25_score,
       sd.title, sd.mime_type, sd.source_document_id::text AS document_uuid,
       (SELECT path FROM safe) AS bm25_path
FROM ranked r
CROSS JOIN LATERAL (SELECT c.text, c.heading_path, c.page_start, c.page_end, c.boxes, c.start_s,
                           c.end_s FROM chunks c
                    WHERE c.id = r.chunk_id OFFSET 0) c
CROSS JOIN LATERAL (SELECT sd.external_id, sd.title, sd.mime_type, sd.source_document_id
                    FROM search_documents sd
                    WHERE sd.id = r.search_document_id OFFSET 0) sd
ORDER BY r.score DESC, r.chunk_id
