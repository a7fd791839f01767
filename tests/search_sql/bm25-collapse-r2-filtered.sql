-- indexing/sql/search.sql rendered with mode=bm25 collapse=True filtered=True fusion=weighted rounds=2.
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
),
r1_rest AS MATERIALIZED (
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
        CROSS JOIN LATERAL (SELECT 0.0::float8 AS thr,
                                   CASE WHEN w.df <= :whole * :depth1 THEN w.df
                                        ELSE :depth1 END AS depth) t
        CROSS JOIN LATERAL (
            SELECT count(*) AS read, min(x.impact)::float8 AS last, max(x.impact)::float8 AS top
            FROM (
                SELECT p.impact FROM bm25_postings p
                WHERE p.term_id = w.term_id AND p.impact >= t.thr
                ORDER BY p.impact DESC LIMIT t.depth
            ) x
        ) l
        WHERE (SELECT value FROM plan) = 'rounds'
    ) r
),
-- The cut terms by rest, largest first (completions go in this order; see the lead passes).
r1_order AS MATERIALIZED (
    SELECT term_id, w, avgdl, rest, row_number() OVER (ORDER BY rest DESC, term_id) AS pos
    FROM r1_rest WHERE cut
),
r1_top AS MATERIALIZED (
    SELECT weights.term_id, p.chunk_id, bm25_term_score(weights.w, p.tf, p.doc_length, weights.avgdl, CAST(:k1 AS float8), CAST(:b AS float8)) AS part, weights.rest, weights.cut
    FROM r1_rest weights
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.doc_length FROM bm25_postings p
        WHERE p.term_id = weights.term_id AND p.impact >= weights.thr
        ORDER BY p.impact DESC
        LIMIT weights.depth
    ) p
),
r1_unread AS MATERIALIZED (
    SELECT coalesce(sum(rest), 0.0::float8) AS ub, count(*) FILTER (WHERE cut) AS cuts FROM r1_rest
),
r1_seen AS MATERIALIZED (
    SELECT p.chunk_id, sum(p.part) AS lb, sum(p.rest) AS seen_rest,
           count(*) FILTER (WHERE p.cut) AS seen_cuts,
           bool_or(p.term_id = (SELECT term_id FROM r1_order WHERE pos = 1)) AS seen1,
           bool_or(p.term_id = (SELECT term_id FROM r1_order WHERE pos = 2)) AS seen2
    FROM r1_top p
        JOIN chunks fc ON fc.id = p.chunk_id
        JOIN search_documents fsd ON fsd.id = fc.search_document_id
            AND (CAST(:f_docs AS text[]) IS NULL OR fsd.external_id = ANY(CAST(:f_docs AS text[])))
            AND (CAST(:f_job AS uuid) IS NULL OR fsd.job_id = CAST(:f_job AS uuid))
            AND (CAST(:f_meta AS jsonb) IS NULL OR fsd.metadata @> CAST(:f_meta AS jsonb))
            AND (CAST(:f_mimes AS text[]) IS NULL OR fsd.mime_type = ANY(CAST(:f_mimes AS text[])))
            AND (CAST(:f_after AS timestamptz) IS NULL
                 OR fsd.indexed_at >= CAST(:f_after AS timestamptz))
            AND (CAST(:f_before AS timestamptz) IS NULL
                 OR fsd.indexed_at < CAST(:f_before AS timestamptz))
    GROUP BY p.chunk_id
),
r1_best AS MATERIALIZED (
    -- The best lower bounds, read once: theta and floor come from them.
    SELECT chunk_id, lb, seen_cuts FROM r1_seen ORDER BY lb DESC LIMIT greatest(:candidates, :probe)
),
-- The :probe best of them not read in full are completed at once (a few primary-key
-- probes): a lower bound misses the terms a chunk was not seen in, so theta over exact
-- scores is far higher -- it proves rounds that lower bounds cannot and, through the
-- threshold, makes the next round read fewer postings.
r1_probe AS MATERIALIZED (
    SELECT chunk_id FROM r1_best
    WHERE seen_cuts < (SELECT cuts FROM r1_unread)
    ORDER BY lb DESC LIMIT :probe
),
r1_probed AS MATERIALIZED (
    SELECT p.chunk_id, sum(bm25_term_score(weights.w, p.tf, p.doc_length, weights.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))) AS extra
    FROM r1_rest weights
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.doc_length FROM bm25_postings p
        WHERE p.term_id = weights.term_id
          AND p.chunk_id = ANY(ARRAY(SELECT chunk_id FROM r1_probe))
        -- Kept a per-term probe of the primary key: pulled up into a join, a generic plan
        -- reads every posting of the open chunks through the chunk index instead.
        OFFSET 0
    ) p
    WHERE weights.cut
      -- Postings read in this round are already in the lower bound.
      AND NOT EXISTS (SELECT 1 FROM r1_top t WHERE t.term_id = weights.term_id AND t.chunk_id = p.chunk_id)
    GROUP BY p.chunk_id
),
-- Each of the best chunks at its exact score when probed, else at its lower bound: never
-- above its true score, so theta over these stays a lower bound of the true k-th.
r1_known AS MATERIALIZED (
    SELECT b.chunk_id, b.lb + coalesce(x.extra, 0.0::float8) AS v
    FROM r1_best b LEFT JOIN r1_probed x ON x.chunk_id = b.chunk_id
),
r1_bar AS MATERIALIZED (
    SELECT b.theta, b.floor,
           (SELECT cuts FROM r1_unread) = 0 OR b.theta > (SELECT ub FROM r1_unread) AS proven
    FROM (SELECT coalesce(
        (SELECT d.v FROM (
            SELECT DISTINCT ON (c.search_document_id) s.v
            FROM (SELECT chunk_id, v AS v FROM r1_known ORDER BY v DESC LIMIT :exact_k) s
            JOIN chunks c ON c.id = s.chunk_id
            ORDER BY c.search_document_id, s.v DESC) d
         ORDER BY d.v DESC OFFSET :k - 1 LIMIT 1),
        coalesce((SELECT v FROM r1_known ORDER BY v DESC OFFSET :exact_k - 1 LIMIT 1),
                 0.0::float8)) AS theta,
                 coalesce((SELECT lb FROM r1_best ORDER BY lb DESC
                           OFFSET :candidates - 1 LIMIT 1), 0.0::float8) AS floor) b
),
-- Only chunks whose lower bound reaches floor or whose upper bound reaches theta can rank
-- among the top :candidates: at least :candidates complete chunks score floor or more.  Read
-- only when the round is proven or closing.
r1_reach AS MATERIALIZED (
    SELECT o.chunk_id, o.lb, o.ub, o.seen_cuts, o.seen1, o.seen2 FROM (
        SELECT s.chunk_id, s.lb, s.lb + (SELECT ub FROM r1_unread) - s.seen_rest AS ub, s.seen_cuts, s.seen1, s.seen2
        FROM r1_seen s
        WHERE (false OR (SELECT proven FROM r1_bar))
    ) o
    WHERE o.lb >= (SELECT floor FROM r1_bar) OR o.ub >= (SELECT theta FROM r1_bar)
),
-- Completion in two stages.  Theta from :probe chunks can sit well below the true k-th
-- score when scores are flat (common terms), and then every chunk read looks able to reach
-- it.  So the :stage best upper bounds among those are completed first; theta over what is
-- then known exactly (over lifted) is far closer to the true one, and of the rest only the
-- chunks that can still reach it are completed.  Every chunk completed here would also be
-- completed without the stage: it only skips some.
r1_stage AS MATERIALIZED (
    SELECT o.chunk_id, o.lb FROM r1_reach o
    WHERE o.seen_cuts < (SELECT cuts FROM r1_unread)
      AND o.chunk_id NOT IN (SELECT chunk_id FROM r1_probe)
    ORDER BY o.ub DESC, o.chunk_id
    LIMIT :stage
),
r1_staged AS MATERIALIZED (
    SELECT p.chunk_id, sum(bm25_term_score(weights.w, p.tf, p.doc_length, weights.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))) AS extra
    FROM r1_rest weights
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.doc_length FROM bm25_postings p
        WHERE p.term_id = weights.term_id
          AND p.chunk_id = ANY(ARRAY(SELECT chunk_id FROM r1_stage))
        -- Kept a per-term probe of the primary key: pulled up into a join, a generic plan
        -- reads every posting of the open chunks through the chunk index instead.
        OFFSET 0
    ) p
    WHERE weights.cut
      -- Postings read in this round are already in the lower bound.
      AND NOT EXISTS (SELECT 1 FROM r1_top t WHERE t.term_id = weights.term_id AND t.chunk_id = p.chunk_id)
    GROUP BY p.chunk_id
),
-- Exact scores of the probed and staged chunks, lower bounds of the other best ones.
r1_lifted AS MATERIALIZED (
    SELECT chunk_id, max(v) AS v FROM (
        SELECT chunk_id, v FROM r1_known
        UNION ALL
        SELECT t.chunk_id, t.lb + coalesce(x.extra, 0.0::float8)
        FROM r1_stage t LEFT JOIN r1_staged x ON x.chunk_id = t.chunk_id
    ) v
    GROUP BY chunk_id
),
r1_lift AS MATERIALIZED (
    SELECT greatest((SELECT theta FROM r1_bar), coalesce(
        (SELECT d.v FROM (
            SELECT DISTINCT ON (c.search_document_id) s.v
            FROM (SELECT chunk_id, v AS v FROM r1_lifted ORDER BY v DESC LIMIT :exact_k) s
            JOIN chunks c ON c.id = s.chunk_id
            ORDER BY c.search_document_id, s.v DESC) d
         ORDER BY d.v DESC OFFSET :k - 1 LIMIT 1),
        coalesce((SELECT v FROM r1_lifted ORDER BY v DESC OFFSET :exact_k - 1 LIMIT 1),
                 0.0::float8))) AS theta
),
r1_consider AS MATERIALIZED (
    SELECT o.chunk_id, o.lb, o.ub, o.seen_cuts, o.seen1, o.seen2 FROM r1_reach o
    WHERE o.lb >= (SELECT floor FROM r1_bar) OR o.ub >= (SELECT theta FROM r1_lift)
),
-- The open chunks: within reach of the lifted theta (or floor), not complete yet.  The lead
-- term passes take them from keep0 to keep2.
r1_keep0 AS MATERIALIZED (
    SELECT o.chunk_id, o.lb, o.ub, 0.0::float8 AS extra, o.seen1, o.seen2 FROM r1_consider o
    WHERE o.seen_cuts < (SELECT cuts FROM r1_unread)
      AND o.chunk_id NOT IN (SELECT chunk_id FROM r1_stage)
      AND o.chunk_id NOT IN (SELECT chunk_id FROM r1_probe)
    ORDER BY o.ub DESC
    -- Unproven and out of budget, only the chunks with the best upper bounds are completed
    -- (the staged ones count towards the limit).
    LIMIT CASE WHEN (SELECT proven FROM r1_bar) OR CAST(:exact AS boolean) THEN NULL
               ELSE greatest(:complete_limit - (SELECT count(*) FROM r1_stage), 0) END
),
r1_led1 AS MATERIALIZED (
    SELECT p.chunk_id, bm25_term_score(weights.w, p.tf, p.doc_length, weights.avgdl, CAST(:k1 AS float8), CAST(:b AS float8)) AS extra
    FROM (SELECT * FROM r1_order WHERE pos = 1) weights
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.doc_length FROM bm25_postings p
        WHERE p.term_id = weights.term_id
          AND p.chunk_id = ANY(ARRAY(SELECT chunk_id FROM r1_keep0 WHERE NOT seen1))
        OFFSET 0
    ) p
),
r1_keep1 AS MATERIALIZED (
    SELECT u.chunk_id, max(u.lb) AS lb, sum(u.ub) AS ub, sum(u.extra) AS extra, bool_or(u.seen1) AS seen1, bool_or(u.seen2) AS seen2
    FROM (
        SELECT o.chunk_id, o.lb,
               o.ub - CASE WHEN o.seen1 THEN 0.0::float8
                           ELSE coalesce((SELECT rest FROM r1_order WHERE pos = 1), 0.0::float8)
                      END AS ub,
               o.extra, o.seen1, o.seen2
        FROM r1_keep0 o
        UNION ALL
        SELECT l.chunk_id, NULL, l.extra, l.extra, NULL::boolean, NULL::boolean FROM r1_led1 l
    ) u
    GROUP BY u.chunk_id
    HAVING max(u.lb) >= (SELECT floor FROM r1_bar) OR sum(u.ub) >= (SELECT theta FROM r1_lift)
),
r1_led2 AS MATERIALIZED (
    SELECT p.chunk_id, bm25_term_score(weights.w, p.tf, p.doc_length, weights.avgdl, CAST(:k1 AS float8), CAST(:b AS float8)) AS extra
    FROM (SELECT * FROM r1_order WHERE pos = 2) weights
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.doc_length FROM bm25_postings p
        WHERE p.term_id = weights.term_id
          AND p.chunk_id = ANY(ARRAY(SELECT chunk_id FROM r1_keep1 WHERE NOT seen2))
        OFFSET 0
    ) p
),
r1_keep2 AS MATERIALIZED (
    SELECT u.chunk_id, max(u.lb) AS lb, sum(u.ub) AS ub, sum(u.extra) AS extra, bool_or(u.seen1) AS seen1, bool_or(u.seen2) AS seen2
    FROM (
        SELECT o.chunk_id, o.lb,
               o.ub - CASE WHEN o.seen2 THEN 0.0::float8
                           ELSE coalesce((SELECT rest FROM r1_order WHERE pos = 2), 0.0::float8)
                      END AS ub,
               o.extra, o.seen1, o.seen2
        FROM r1_keep1 o
        UNION ALL
        SELECT l.chunk_id, NULL, l.extra, l.extra, NULL::boolean, NULL::boolean FROM r1_led2 l
    ) u
    GROUP BY u.chunk_id
    HAVING max(u.lb) >= (SELECT floor FROM r1_bar) OR sum(u.ub) >= (SELECT theta FROM r1_lift)
),
r1_completed AS MATERIALIZED (
    SELECT p.chunk_id, sum(bm25_term_score(weights.w, p.tf, p.doc_length, weights.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))) AS extra
    FROM r1_rest weights
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.doc_length FROM bm25_postings p
        WHERE p.term_id = weights.term_id
          AND p.chunk_id = ANY(ARRAY(SELECT chunk_id FROM r1_keep2))
        -- Kept a per-term probe of the primary key: pulled up into a join, a generic plan
        -- reads every posting of the open chunks through the chunk index instead.
        OFFSET 0
    ) p
    WHERE weights.cut AND weights.term_id NOT IN (SELECT term_id FROM r1_order WHERE pos <= 2)
      -- Postings read in this round are already in the lower bound.
      AND NOT EXISTS (SELECT 1 FROM r1_top t WHERE t.term_id = weights.term_id AND t.chunk_id = p.chunk_id)
    GROUP BY p.chunk_id
),
r1_scored AS MATERIALIZED (
    SELECT s.chunk_id, s.lb + coalesce(x.extra, 0.0::float8) + coalesce(g.extra, 0.0::float8)
                            + coalesce(k.extra, 0.0::float8) + coalesce(c.extra, 0.0::float8) AS score
    FROM r1_consider s LEFT JOIN r1_completed c ON c.chunk_id = s.chunk_id
    LEFT JOIN r1_keep2 k ON k.chunk_id = s.chunk_id
    LEFT JOIN r1_staged g ON g.chunk_id = s.chunk_id
    LEFT JOIN r1_probed x ON x.chunk_id = s.chunk_id
    WHERE s.seen_cuts = (SELECT cuts FROM r1_unread) OR k.chunk_id IS NOT NULL
          OR s.chunk_id IN (SELECT chunk_id FROM r1_stage)
          OR s.chunk_id IN (SELECT chunk_id FROM r1_probe)
    -- Out of budget some chunks above floor stay incomplete: the fully read ones below it
    -- then fill the ranks.
    UNION ALL
    SELECT s.chunk_id, s.lb FROM r1_seen s
    WHERE false AND NOT (SELECT proven FROM r1_bar) AND NOT CAST(:exact AS boolean)
      -- (Read in full, such a chunk's upper bound is its lower bound: it is not in consider.)
      AND s.seen_cuts = (SELECT cuts FROM r1_unread) AND s.lb < (SELECT floor FROM r1_bar)
    ORDER BY score DESC, chunk_id
    LIMIT :candidates
),
r1_verdict AS MATERIALIZED (
    SELECT (SELECT proven FROM r1_bar) AS proven
),
r2_level AS MATERIALIZED (
    SELECT CASE WHEN count(*) FILTER (WHERE NOT x.small) = 0 THEN 'Infinity'::float8
                ELSE (max(x.budget) - coalesce(sum(x.ub) FILTER (WHERE x.small), 0.0::float8))
                     / count(*) FILTER (WHERE NOT x.small) END AS level
    FROM (
        SELECT u.ub, b.budget,
               u.ub * (count(*) OVER () - row_number() OVER o + 1)
                 <= b.budget - coalesce(sum(u.ub) OVER (o ROWS BETWEEN UNBOUNDED PRECEDING
                                                        AND 1 PRECEDING), 0.0::float8) AS small
        FROM (SELECT r.w * r.top * (SELECT drift FROM stats) AS ub FROM r1_rest r
              WHERE r.df > :whole * :depth1) u
        CROSS JOIN (SELECT 0.99::float8 * (SELECT theta FROM r1_bar) AS budget) b
        WINDOW o AS (ORDER BY u.ub)
    ) x
),
r2_rest AS MATERIALIZED (
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
        CROSS JOIN LATERAL (SELECT CASE WHEN w.df <= :whole * :depth1 THEN 0.0::float8
                ELSE (SELECT level FROM r2_level) / (w.w * (SELECT drift FROM stats)) END AS thr,
                                   CASE WHEN w.df <= :whole * :depth2 THEN w.df
                                        ELSE :depth2 END AS depth) t
        CROSS JOIN LATERAL (
            SELECT count(*) AS read, min(x.impact)::float8 AS last, max(x.impact)::float8 AS top
            FROM (
                SELECT p.impact FROM bm25_postings p
                WHERE p.term_id = w.term_id AND p.impact >= t.thr
                ORDER BY p.impact DESC LIMIT t.depth
            ) x
        ) l
        WHERE NOT (SELECT proven FROM r1_verdict)
    ) r
),
-- The cut terms by rest, largest first (completions go in this order; see the lead passes).
r2_order AS MATERIALIZED (
    SELECT term_id, w, avgdl, rest, row_number() OVER (ORDER BY rest DESC, term_id) AS pos
    FROM r2_rest WHERE cut
),
r2_top AS MATERIALIZED (
    SELECT weights.term_id, p.chunk_id, bm25_term_score(weights.w, p.tf, p.doc_length, weights.avgdl, CAST(:k1 AS float8), CAST(:b AS float8)) AS part, weights.rest, weights.cut
    FROM r2_rest weights
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.doc_length FROM bm25_postings p
        WHERE p.term_id = weights.term_id AND p.impact >= weights.thr
        ORDER BY p.impact DESC
        LIMIT weights.depth
    ) p
),
r2_unread AS MATERIALIZED (
    SELECT coalesce(sum(rest), 0.0::float8) AS ub, count(*) FILTER (WHERE cut) AS cuts FROM r2_rest
),
r2_seen AS MATERIALIZED (
    SELECT p.chunk_id, sum(p.part) AS lb, sum(p.rest) AS seen_rest,
           count(*) FILTER (WHERE p.cut) AS seen_cuts,
           bool_or(p.term_id = (SELECT term_id FROM r2_order WHERE pos = 1)) AS seen1,
           bool_or(p.term_id = (SELECT term_id FROM r2_order WHERE pos = 2)) AS seen2
    FROM r2_top p
        JOIN chunks fc ON fc.id = p.chunk_id
        JOIN search_documents fsd ON fsd.id = fc.search_document_id
            AND (CAST(:f_docs AS text[]) IS NULL OR fsd.external_id = ANY(CAST(:f_docs AS text[])))
            AND (CAST(:f_job AS uuid) IS NULL OR fsd.job_id = CAST(:f_job AS uuid))
            AND (CAST(:f_meta AS jsonb) IS NULL OR fsd.metadata @> CAST(:f_meta AS jsonb))
            AND (CAST(:f_mimes AS text[]) IS NULL OR fsd.mime_type = ANY(CAST(:f_mimes AS text[])))
            AND (CAST(:f_after AS timestamptz) IS NULL
                 OR fsd.indexed_at >= CAST(:f_after AS timestamptz))
            AND (CAST(:f_before AS timestamptz) IS NULL
                 OR fsd.indexed_at < CAST(:f_before AS timestamptz))
    GROUP BY p.chunk_id
),
r2_best AS MATERIALIZED (
    -- The best lower bounds, read once: theta and floor come from them.
    SELECT chunk_id, lb, seen_cuts FROM r2_seen ORDER BY lb DESC LIMIT greatest(:candidates, :probe)
),
-- The :probe best of them not read in full are completed at once (a few primary-key
-- probes): a lower bound misses the terms a chunk was not seen in, so theta over exact
-- scores is far higher -- it proves rounds that lower bounds cannot and, through the
-- threshold, makes the next round read fewer postings.
r2_probe AS MATERIALIZED (
    SELECT chunk_id FROM r2_best
    WHERE seen_cuts < (SELECT cuts FROM r2_unread)
    ORDER BY lb DESC LIMIT :probe
),
r2_probed AS MATERIALIZED (
    SELECT p.chunk_id, sum(bm25_term_score(weights.w, p.tf, p.doc_length, weights.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))) AS extra
    FROM r2_rest weights
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.doc_length FROM bm25_postings p
        WHERE p.term_id = weights.term_id
          AND p.chunk_id = ANY(ARRAY(SELECT chunk_id FROM r2_probe))
        -- Kept a per-term probe of the primary key: pulled up into a join, a generic plan
        -- reads every posting of the open chunks through the chunk index instead.
        OFFSET 0
    ) p
    WHERE weights.cut
      -- Postings read in this round are already in the lower bound.
      AND NOT EXISTS (SELECT 1 FROM r2_top t WHERE t.term_id = weights.term_id AND t.chunk_id = p.chunk_id)
    GROUP BY p.chunk_id
),
-- Each of the best chunks at its exact score when probed, else at its lower bound: never
-- above its true score, so theta over these stays a lower bound of the true k-th.
r2_known AS MATERIALIZED (
    SELECT b.chunk_id, b.lb + coalesce(x.extra, 0.0::float8) AS v
    FROM r2_best b LEFT JOIN r2_probed x ON x.chunk_id = b.chunk_id
),
r2_bar AS MATERIALIZED (
    SELECT b.theta, b.floor,
           (SELECT cuts FROM r2_unread) = 0 OR b.theta > (SELECT ub FROM r2_unread) AS proven
    FROM (SELECT coalesce(
        (SELECT d.v FROM (
            SELECT DISTINCT ON (c.search_document_id) s.v
            FROM (SELECT chunk_id, v AS v FROM r2_known ORDER BY v DESC LIMIT :exact_k) s
            JOIN chunks c ON c.id = s.chunk_id
            ORDER BY c.search_document_id, s.v DESC) d
         ORDER BY d.v DESC OFFSET :k - 1 LIMIT 1),
        coalesce((SELECT v FROM r2_known ORDER BY v DESC OFFSET :exact_k - 1 LIMIT 1),
                 0.0::float8)) AS theta,
                 coalesce((SELECT lb FROM r2_best ORDER BY lb DESC
                           OFFSET :candidates - 1 LIMIT 1), 0.0::float8) AS floor) b
),
-- Only chunks whose lower bound reaches floor or whose upper bound reaches theta can rank
-- among the top :candidates: at least :candidates complete chunks score floor or more.  Read
-- only when the round is proven or closing.
r2_reach AS MATERIALIZED (
    SELECT o.chunk_id, o.lb, o.ub, o.seen_cuts, o.seen1, o.seen2 FROM (
        SELECT s.chunk_id, s.lb, s.lb + (SELECT ub FROM r2_unread) - s.seen_rest AS ub, s.seen_cuts, s.seen1, s.seen2
        FROM r2_seen s
        WHERE (true OR (SELECT proven FROM r2_bar))
    ) o
    WHERE o.lb >= (SELECT floor FROM r2_bar) OR o.ub >= (SELECT theta FROM r2_bar)
),
-- Completion in two stages.  Theta from :probe chunks can sit well below the true k-th
-- score when scores are flat (common terms), and then every chunk read looks able to reach
-- it.  So the :stage best upper bounds among those are completed first; theta over what is
-- then known exactly (over lifted) is far closer to the true one, and of the rest only the
-- chunks that can still reach it are completed.  Every chunk completed here would also be
-- completed without the stage: it only skips some.
r2_stage AS MATERIALIZED (
    SELECT o.chunk_id, o.lb FROM r2_reach o
    WHERE o.seen_cuts < (SELECT cuts FROM r2_unread)
      AND o.chunk_id NOT IN (SELECT chunk_id FROM r2_probe)
    ORDER BY o.ub DESC, o.chunk_id
    LIMIT :stage
),
r2_staged AS MATERIALIZED (
    SELECT p.chunk_id, sum(bm25_term_score(weights.w, p.tf, p.doc_length, weights.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))) AS extra
    FROM r2_rest weights
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.doc_length FROM bm25_postings p
        WHERE p.term_id = weights.term_id
          AND p.chunk_id = ANY(ARRAY(SELECT chunk_id FROM r2_stage))
        -- Kept a per-term probe of the primary key: pulled up into a join, a generic plan
        -- reads every posting of the open chunks through the chunk index instead.
        OFFSET 0
    ) p
    WHERE weights.cut
      -- Postings read in this round are already in the lower bound.
      AND NOT EXISTS (SELECT 1 FROM r2_top t WHERE t.term_id = weights.term_id AND t.chunk_id = p.chunk_id)
    GROUP BY p.chunk_id
),
-- Exact scores of the probed and staged chunks, lower bounds of the other best ones.
r2_lifted AS MATERIALIZED (
    SELECT chunk_id, max(v) AS v FROM (
        SELECT chunk_id, v FROM r2_known
        UNION ALL
        SELECT t.chunk_id, t.lb + coalesce(x.extra, 0.0::float8)
        FROM r2_stage t LEFT JOIN r2_staged x ON x.chunk_id = t.chunk_id
    ) v
    GROUP BY chunk_id
),
r2_lift AS MATERIALIZED (
    SELECT greatest((SELECT theta FROM r2_bar), coalesce(
        (SELECT d.v FROM (
            SELECT DISTINCT ON (c.search_document_id) s.v
            FROM (SELECT chunk_id, v AS v FROM r2_lifted ORDER BY v DESC LIMIT :exact_k) s
            JOIN chunks c ON c.id = s.chunk_id
            ORDER BY c.search_document_id, s.v DESC) d
         ORDER BY d.v DESC OFFSET :k - 1 LIMIT 1),
        coalesce((SELECT v FROM r2_lifted ORDER BY v DESC OFFSET :exact_k - 1 LIMIT 1),
                 0.0::float8))) AS theta
),
r2_consider AS MATERIALIZED (
    SELECT o.chunk_id, o.lb, o.ub, o.seen_cuts, o.seen1, o.seen2 FROM r2_reach o
    WHERE o.lb >= (SELECT floor FROM r2_bar) OR o.ub >= (SELECT theta FROM r2_lift)
),
-- The open chunks: within reach of the lifted theta (or floor), not complete yet.  The lead
-- term passes take them from keep0 to keep2.
r2_keep0 AS MATERIALIZED (
    SELECT o.chunk_id, o.lb, o.ub, 0.0::float8 AS extra, o.seen1, o.seen2 FROM r2_consider o
    WHERE o.seen_cuts < (SELECT cuts FROM r2_unread)
      AND o.chunk_id NOT IN (SELECT chunk_id FROM r2_stage)
      AND o.chunk_id NOT IN (SELECT chunk_id FROM r2_probe)
    ORDER BY o.ub DESC
    -- Unproven and out of budget, only the chunks with the best upper bounds are completed
    -- (the staged ones count towards the limit).
    LIMIT CASE WHEN (SELECT proven FROM r2_bar) OR CAST(:exact AS boolean) THEN NULL
               ELSE greatest(:complete_limit - (SELECT count(*) FROM r2_stage), 0) END
),
r2_led1 AS MATERIALIZED (
    SELECT p.chunk_id, bm25_term_score(weights.w, p.tf, p.doc_length, weights.avgdl, CAST(:k1 AS float8), CAST(:b AS float8)) AS extra
    FROM (SELECT * FROM r2_order WHERE pos = 1) weights
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.doc_length FROM bm25_postings p
        WHERE p.term_id = weights.term_id
          AND p.chunk_id = ANY(ARRAY(SELECT chunk_id FROM r2_keep0 WHERE NOT seen1))
        OFFSET 0
    ) p
),
r2_keep1 AS MATERIALIZED (
    SELECT u.chunk_id, max(u.lb) AS lb, sum(u.ub) AS ub, sum(u.extra) AS extra, bool_or(u.seen1) AS seen1, bool_or(u.seen2) AS seen2
    FROM (
        SELECT o.chunk_id, o.lb,
               o.ub - CASE WHEN o.seen1 THEN 0.0::float8
                           ELSE coalesce((SELECT rest FROM r2_order WHERE pos = 1), 0.0::float8)
                      END AS ub,
               o.extra, o.seen1, o.seen2
        FROM r2_keep0 o
        UNION ALL
        SELECT l.chunk_id, NULL, l.extra, l.extra, NULL::boolean, NULL::boolean FROM r2_led1 l
    ) u
    GROUP BY u.chunk_id
    HAVING max(u.lb) >= (SELECT floor FROM r2_bar) OR sum(u.ub) >= (SELECT theta FROM r2_lift)
),
r2_led2 AS MATERIALIZED (
    SELECT p.chunk_id, bm25_term_score(weights.w, p.tf, p.doc_length, weights.avgdl, CAST(:k1 AS float8), CAST(:b AS float8)) AS extra
    FROM (SELECT * FROM r2_order WHERE pos = 2) weights
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.doc_length FROM bm25_postings p
        WHERE p.term_id = weights.term_id
          AND p.chunk_id = ANY(ARRAY(SELECT chunk_id FROM r2_keep1 WHERE NOT seen2))
        OFFSET 0
    ) p
),
r2_keep2 AS MATERIALIZED (
    SELECT u.chunk_id, max(u.lb) AS lb, sum(u.ub) AS ub, sum(u.extra) AS extra, bool_or(u.seen1) AS seen1, bool_or(u.seen2) AS seen2
    FROM (
        SELECT o.chunk_id, o.lb,
               o.ub - CASE WHEN o.seen2 THEN 0.0::float8
                           ELSE coalesce((SELECT rest FROM r2_order WHERE pos = 2), 0.0::float8)
                      END AS ub,
               o.extra, o.seen1, o.seen2
        FROM r2_keep1 o
        UNION ALL
        SELECT l.chunk_id, NULL, l.extra, l.extra, NULL::boolean, NULL::boolean FROM r2_led2 l
    ) u
    GROUP BY u.chunk_id
    HAVING max(u.lb) >= (SELECT floor FROM r2_bar) OR sum(u.ub) >= (SELECT theta FROM r2_lift)
),
r2_completed AS MATERIALIZED (
    SELECT p.chunk_id, sum(bm25_term_score(weights.w, p.tf, p.doc_length, weights.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))) AS extra
    FROM r2_rest weights
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.doc_length FROM bm25_postings p
        WHERE p.term_id = weights.term_id
          AND p.chunk_id = ANY(ARRAY(SELECT chunk_id FROM r2_keep2))
        -- Kept a per-term probe of the primary key: pulled up into a join, a generic plan
        -- reads every posting of the open chunks through the chunk index instead.
        OFFSET 0
    ) p
    WHERE weights.cut AND weights.term_id NOT IN (SELECT term_id FROM r2_order WHERE pos <= 2)
      -- Postings read in this round are already in the lower bound.
      AND NOT EXISTS (SELECT 1 FROM r2_top t WHERE t.term_id = weights.term_id AND t.chunk_id = p.chunk_id)
    GROUP BY p.chunk_id
),
r2_scored AS MATERIALIZED (
    SELECT s.chunk_id, s.lb + coalesce(x.extra, 0.0::float8) + coalesce(g.extra, 0.0::float8)
                            + coalesce(k.extra, 0.0::float8) + coalesce(c.extra, 0.0::float8) AS score
    FROM r2_consider s LEFT JOIN r2_completed c ON c.chunk_id = s.chunk_id
    LEFT JOIN r2_keep2 k ON k.chunk_id = s.chunk_id
    LEFT JOIN r2_staged g ON g.chunk_id = s.chunk_id
    LEFT JOIN r2_probed x ON x.chunk_id = s.chunk_id
    WHERE s.seen_cuts = (SELECT cuts FROM r2_unread) OR k.chunk_id IS NOT NULL
          OR s.chunk_id IN (SELECT chunk_id FROM r2_stage)
          OR s.chunk_id IN (SELECT chunk_id FROM r2_probe)
    -- Out of budget some chunks above floor stay incomplete: the fully read ones below it
    -- then fill the ranks.
    UNION ALL
    SELECT s.chunk_id, s.lb FROM r2_seen s
    WHERE true AND NOT (SELECT proven FROM r2_bar) AND NOT CAST(:exact AS boolean)
      -- (Read in full, such a chunk's upper bound is its lower bound: it is not in consider.)
      AND s.seen_cuts = (SELECT cuts FROM r2_unread) AND s.lb < (SELECT floor FROM r2_bar)
    ORDER BY score DESC, chunk_id
    LIMIT :candidates
),
r2_verdict AS MATERIALIZED (
    SELECT t.theta,
           (SELECT proven FROM r2_bar)
           OR (CAST(:exact AS boolean) AND t.theta > (SELECT ub FROM r2_unread)) AS proven
    FROM (SELECT coalesce(
        (SELECT d.v FROM (
            SELECT DISTINCT ON (c.search_document_id) s.v
            FROM (SELECT chunk_id, score AS v FROM r2_scored ORDER BY score DESC LIMIT :exact_k) s
            JOIN chunks c ON c.id = s.chunk_id
            ORDER BY c.search_document_id, s.v DESC) d
         ORDER BY d.v DESC OFFSET :k - 1 LIMIT 1),
        coalesce((SELECT score FROM r2_scored ORDER BY score DESC OFFSET :exact_k - 1 LIMIT 1),
                 0.0::float8)) AS theta) t
),
safe AS MATERIALIZED (
    SELECT CASE WHEN (SELECT value FROM plan) = 'scan' THEN 'scan'
                WHEN (SELECT proven FROM r1_verdict) THEN 'exact1'
                WHEN (SELECT proven FROM r2_verdict) THEN 'exact2'
                WHEN CAST(:exact AS boolean) THEN 'maxscore'
                ELSE 'budget'
           END AS path
),
split AS MATERIALIZED (
    SELECT b.term_id, b.w, b.avgdl, b.ub,
           sum(b.ub) OVER (ORDER BY b.ub, b.term_id) < (SELECT theta FROM r2_verdict) AS optional
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
    SELECT p.chunk_id, sum(bm25_term_score(weights.w, p.tf, p.doc_length, weights.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))) AS score
    FROM split weights
    JOIN bm25_postings p ON p.term_id = weights.term_id
        JOIN chunks fc ON fc.id = p.chunk_id
        JOIN search_documents fsd ON fsd.id = fc.search_document_id
            AND (CAST(:f_docs AS text[]) IS NULL OR fsd.external_id = ANY(CAST(:f_docs AS text[])))
            AND (CAST(:f_job AS uuid) IS NULL OR fsd.job_id = CAST(:f_job AS uuid))
            AND (CAST(:f_meta AS jsonb) IS NULL OR fsd.metadata @> CAST(:f_meta AS jsonb))
            AND (CAST(:f_mimes AS text[]) IS NULL OR fsd.mime_type = ANY(CAST(:f_mimes AS text[])))
            AND (CAST(:f_after AS timestamptz) IS NULL
                 OR fsd.indexed_at >= CAST(:f_after AS timestamptz))
            AND (CAST(:f_before AS timestamptz) IS NULL
                 OR fsd.indexed_at < CAST(:f_before AS timestamptz))
    WHERE NOT weights.optional
    GROUP BY p.chunk_id
    HAVING sum(bm25_term_score(weights.w, p.tf, p.doc_length, weights.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))) + (SELECT coalesce(sum(ub) FILTER (WHERE optional), 0.0::float8) FROM split)
           >= (SELECT theta FROM r2_verdict)
),
completed AS (
    SELECT c.chunk_id, c.score + coalesce(o.score, 0.0::float8) AS score
    FROM partial c
    CROSS JOIN LATERAL (
        SELECT sum(bm25_term_score(weights.w, p.tf, p.doc_length, weights.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))) AS score
        FROM split weights
        JOIN bm25_postings p ON p.term_id = weights.term_id AND p.chunk_id = c.chunk_id
        WHERE weights.optional
    ) o
),
bm25 AS (
    SELECT chunk_id, score, row_number() OVER (ORDER BY score DESC, chunk_id) AS rank
    FROM (
        SELECT chunk_id, score FROM r1_scored WHERE (SELECT path FROM safe) = 'exact1'
        UNION ALL
        SELECT chunk_id, score FROM r2_scored WHERE (SELECT path FROM safe) = 'exact2'
        UNION ALL
        -- Out of budget: the last round's candidates, exactly scored, stand unproven.
        SELECT chunk_id, score FROM r2_scored WHERE (SELECT path FROM safe) = 'budget'
        UNION ALL
        SELECT chunk_id, score FROM (
            -- The last round's exact scores fill the ranks below theta that MaxScore pruned.
            SELECT chunk_id, max(score) AS score
            FROM (SELECT chunk_id, score FROM completed
                  UNION ALL SELECT chunk_id, score FROM r2_scored) m
            GROUP BY chunk_id
            ORDER BY score DESC, chunk_id
            LIMIT :candidates
        ) maxscore
        WHERE (SELECT path FROM safe) = 'maxscore'
        UNION ALL
        SELECT chunk_id, score FROM (
            SELECT p.chunk_id,
                   sum(bm25_term_score(weights.w, p.tf, p.doc_length, weights.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))) AS score
            FROM weights
            JOIN bm25_postings p ON p.term_id = weights.term_id
        JOIN chunks fc ON fc.id = p.chunk_id
        JOIN search_documents fsd ON fsd.id = fc.search_document_id
            AND (CAST(:f_docs AS text[]) IS NULL OR fsd.external_id = ANY(CAST(:f_docs AS text[])))
            AND (CAST(:f_job AS uuid) IS NULL OR fsd.job_id = CAST(:f_job AS uuid))
            AND (CAST(:f_meta AS jsonb) IS NULL OR fsd.metadata @> CAST(:f_meta AS jsonb))
            AND (CAST(:f_mimes AS text[]) IS NULL OR fsd.mime_type = ANY(CAST(:f_mimes AS text[])))
            AND (CAST(:f_after AS timestamptz) IS NULL
                 OR fsd.indexed_at >= CAST(:f_after AS timestamptz))
            AND (CAST(:f_before AS timestamptz) IS NULL
                 OR fsd.indexed_at < CAST(:f_before AS timestamptz))
            GROUP BY p.chunk_id
            ORDER BY score DESC, p.chunk_id
            LIMIT :candidates
        ) scan
        WHERE (SELECT path FROM safe) = 'scan'
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
