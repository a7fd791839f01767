{#- Exact BM25 top-k over postings in blocks (bench/bm25_blocks.py), one statement.  Rendered
    with Jinja2 (StrictUndefined); bind parameters are SQLAlchemy's :name.  Context:
      table      the blocks in chunk-id order (key term_id, last_chunk);
      top        the champions: each common term's best postings in impact order, in blocks;
      champions  whether the first pass reads `top` (else the :seeds chunk-id blocks of each
                 term with the highest max impact);
      enc        'abs' (chunk ids as int4[]) or 'for' (offsets from first_chunk: int2[] when
                 the block spans < 32768 ids, else int4[]);
      lengths    'inline' (each posting's chunk length, int2[] in the block) or 'table'
                 (bench_bm25_lengths, one row per chunk);
      block      postings a block holds;
      rounds     rounds over the champions (1: depth1 blocks, 2: those above a level, 3: all);
      leads      cut terms the candidates are completed in one at a time before the rest;
      writes     whether the write-side tables are read (lengths 'inline' only): `delta`, the
                 postings (term_id, chunk_id, tf, doc_length, impact) of the chunks written
                 since the last merge (ids above its watermark), and `dead` (chunk_id), the
                 merged chunks deleted since.

Scores are the service's (indexing/sql/macros.sql): bm25_term_score(weight, tf, length, avgdl,
k1, b) summed over the query's terms, float8 throughout, Lucene's IDF, the query term's count
a factor of its weight.  Bounds are impacts (at the tenant's impact parameters, rounded up when
stored as real) x weight x drift, as the service bounds postings.

  1. First pass, in rounds (each only when the one before did not prove its answer).  Terms
     with few postings are read in full.  Of the others ("cut" terms) a prefix of their
     champions is read -- round 1 the first :depth1 blocks, round 2 those that can hold a
     posting above the term's share of round 1's theta, round 3 all -- or their :seeds best
     blocks without champions; a term whose whole list is at most :whole times that prefix is
     read in full instead.  A chunk not read in a cut term scores at most the term's `rest` in
     it (weight x the lowest impact of the prefix, or the best impact of the blocks not read).
     A chunk seen gets `lb`, the contributions read.
  2. theta: the :probe chunks of highest lb, completed exactly (a probe: the one block of the
     term whose id range can hold the chunk, by the key (term_id, last_chunk), then the chunk's
     slot by array_position); the k-th best (or an earlier round's, if higher), lowered by a
     relative 1e-9 so that rounding in the sums can only make the search read more.  A round
     is proven when theta beats the sum of the rests; the first proven round answers, else
     the last.
  3. Chunks never seen score at most the sum of the rests of the terms they hold.  MaxScore on
     the rests: the cut terms whose rests, from the smallest, sum to less than :share x theta
     are optional; an unseen chunk that can reach theta holds an essential term.  Block-max on
     the essential terms, as a sweep over chunk ids: the sum of the essential blocks' bounds
     (each capped by its term's rest) covering a segment, plus the optional rests, bounds every
     unseen chunk there; only essential blocks overlapping a segment where it reaches theta are
     decoded.  (When the rests sum to less than theta, every term is optional: nothing more is
     read -- the first pass proved its answer.)
  4. Candidates: seen chunks whose lb + the rests of the cut terms they were not seen in reach
     theta, and unseen ones whose essential contributions + the optional rests do.  The :probe
     best are completed (theta may rise), then the candidates are completed in the :leads cut
     terms of largest rest one at a time, each pass dropping those whose bound falls below
     theta -- by probes while they are few, by a merge (the term's blocks that can hold a
     candidate, found by one sort, decoded and joined) once they outnumber the term's blocks
     :merge times -- and the survivors are completed in the remaining terms by probes.  The k
     best exact scores are the answer, ties by chunk id.
Exact: every chunk scoring at least theta is a candidate (seen: its bound holds its score;
unseen: it holds an essential term, lies in a hot segment, so all its essential blocks are
read) and survives every pass (each bound holds its score); at least k chunks score at least
theta (it is the k-th best exact score of real chunks); a chunk whose computed score is
incomplete (a pruned block, a dropped candidate) is below theta by those same bounds.
With writes: the delta is read in full in the first pass (a delta chunk is then seen and known
in every term it holds), tombstoned chunks are dropped from what is seen before theta is taken
and from the unseen candidates (so theta stays the k-th of live chunks), and every bound still
holds (a dead posting only loosens a block's or champion list's bound).  N, df and the average
length are the tenant's current ones (bm25_stats, bm25_terms), as the writers keep them. -#}
{#- Block `b`'s postings, as select-list columns (chunk_id bigint, tf int[, dl int]): set-
    returning functions in the select list run in lock step without a tuplestore, about twice
    as fast as unnest(a, b, c) in FROM (measured). -#}
{% macro unnest(b) -%}
{% if enc == "abs" %}unnest({{ b }}.chunk_ids)::bigint{% else %}{{ b }}.first_chunk + unnest(coalesce({{ b }}.offs2::int4[], {{ b }}.offs4)){% endif %} AS chunk_id,
           unnest({{ b }}.tfs)::int AS tf{% if lengths == "inline" %}, unnest({{ b }}.lens)::int AS dl{% endif %}
{%- endmacro %}
{#- The chunk length of decoded rows `d`, and the join that provides it with lengths 'table'
    (a join per posting decoded: measured against lengths in the blocks). -#}
{% macro dl(d) -%}
{% if lengths == "inline" %}{{ d }}.dl{% else %}l.length{% endif %}
{%- endmacro %}
{% macro dl_join(d) -%}
{% if lengths == "table" %} JOIN bench_bm25_lengths l ON l.chunk_id = {{ d }}.chunk_id{% endif %}
{%- endmacro %}
{#- One posting's contribution, `w` carrying the term's weight and avgdl; float8 throughout. -#}
{% macro part(tf, length) -%}
bm25_term_score(w.w, {{ tf }}, {{ length }}, w.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))
{%- endmacro %}
{#- Term `term`'s contribution to chunk `chunk`, one row or none. -#}
{% macro probe(term, chunk) -%}
(SELECT {{ part("b.tfs[s.i]::int", ("b.lens[s.i]::int" if lengths == "inline" else
                                    "(SELECT l.length FROM bench_bm25_lengths l WHERE l.chunk_id = " ~ chunk ~ ")")) }} AS part
 FROM (SELECT * FROM {{ table }} b WHERE b.term_id = {{ term }} AND b.last_chunk >= {{ chunk }}
       ORDER BY b.last_chunk LIMIT 1) b
{% if enc == "abs" %}
 CROSS JOIN LATERAL (SELECT array_position(b.chunk_ids, {{ chunk }}::int4) AS i) s
{% else %}
 CROSS JOIN LATERAL (SELECT CASE WHEN {{ chunk }} < b.first_chunk THEN NULL
                                 WHEN b.offs2 IS NOT NULL THEN array_position(b.offs2, ({{ chunk }} - b.first_chunk)::int2)
                                 ELSE array_position(b.offs4, ({{ chunk }} - b.first_chunk)::int4) END AS i) s
{% endif %}
 WHERE s.i IS NOT NULL)
{%- endmacro %}
{#- A candidate `c`'s exact score: what is known plus probes of the cut terms not known. -#}
{% macro complete(c, rests="rests") -%}
{{ c }}.known + coalesce((
               SELECT sum(x.part) FROM {{ rests }} w CROSS JOIN LATERAL {{ probe("w.term_id", c ~ ".chunk_id") }} x
               WHERE w.cut AND w.term_id <> ALL({{ c }}.known_terms)), 0.0::float8)
{%- endmacro %}
WITH q AS MATERIALIZED (
    SELECT term, count(*)::float8 AS qtf FROM unnest(CAST(:terms AS text[])) AS term GROUP BY term
),
stats AS MATERIALIZED (
    SELECT chunk_count::float8 AS n,
           total_length::float8 / greatest(chunk_count, 1)::float8 AS avgdl,
           greatest(1.0::float8, total_length::float8 / greatest(chunk_count, 1) / impact_avgdl) AS drift
    FROM bm25_stats WHERE tenant_id = :tenant
),
weights AS MATERIALIZED (
    SELECT t.id AS term_id,
           q.qtf * ln(1.0::float8 + (stats.n - t.df + 0.5::float8) / (t.df + 0.5::float8)) AS w,
           stats.avgdl, stats.drift, t.df
    FROM q
    JOIN bm25_terms t ON t.tenant_id = :tenant AND t.term = q.term
    CROSS JOIN stats
),
{#- The first pass, in two rounds with champions: round 1 reads the first :depth1 champion
    blocks of each term that has them; round 2, unless round 1 proved its answer (no unseen
    chunk can reach theta), reads of each such term only the champion blocks that can hold a
    posting adding at least its share of round 1's theta (level2), so terms of little weight
    are hardly read.  A term whose list is at most :whole times what a round would read of its
    champions is read in full instead: a list cut just short leaves a rest that keeps most
    chunks open (measured: the p99 queries of the two fixed passes were of such terms). #}
{% set passes = rounds if champions else 1 %}
{% for n in range(1, passes + 1) %}
{% set whole_list = n > 2 and n == passes %}
{% if n > 1 and not whole_list %}
{#- Round n's level, from round n-1's theta: a round proves its answer when the rests sum below
    theta, and a term whose best posting adds less than an even share of theta needs none of
    its postings read for that.  So, taking the cut terms by bound from the smallest, those
    whose bound times the terms left is within what the smaller ones leave of theta (1 % under
    it, so that a round ending on the same theta still proves it) are set aside; the first that
    is not sets the level, its even share of what is left (water-filling, as the service's
    indexing/sql/bm25_level.sql; the terms set aside are exactly those before it).  None left:
    no block needs reading.  Only efficiency rests on the level: every round proves its answer
    from what it read. #}
level{{ n }} AS MATERIALIZED (
    SELECT coalesce((
        SELECT (x.budget - x.below) / x.others
        FROM (SELECT u.ub, 0.99::float8 * (SELECT v FROM theta{{ n - 1 }}) AS budget,
                     coalesce(sum(u.ub) OVER (ORDER BY u.ub ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
                              0.0::float8) AS below,
                     count(*) OVER () - row_number() OVER (ORDER BY u.ub) + 1 AS others
              FROM (SELECT r.w * r.drift * (SELECT max(b.max_impact) FROM {{ table }} b
                                            WHERE b.term_id = r.term_id)::float8 AS ub
                    FROM rests{{ n - 1 }} r WHERE r.cut AND NOT (SELECT v FROM proven{{ n - 1 }})) u) x
        WHERE x.ub * x.others > x.budget - x.below
        ORDER BY x.ub LIMIT 1), 'Infinity'::float8) AS level
),
{% endif %}
-- Each term: cut (champions, or best blocks, read) or read in full, and its rest (0 when
-- read in full).
rests{{ n }} AS MATERIALIZED (
    SELECT w.term_id, w.w, w.avgdl, w.drift, w.df, m.depth,
{% if champions %}
           m.depth IS NOT NULL AND w.df > CAST(:whole AS float8) * m.depth * {{ block }} AS cut,
           CASE WHEN m.depth IS NOT NULL AND w.df > CAST(:whole AS float8) * m.depth * {{ block }}
                THEN w.w * m.impact * w.drift ELSE 0.0::float8 END AS rest
{% else %}
           m.impact IS NOT NULL AS cut, coalesce(w.w * m.impact * w.drift, 0.0::float8) AS rest
{% endif %}
    FROM weights w
{% if champions %}
    -- How many champion blocks, from the first, the round reads (none: the term has no
    -- champions); the last one's least impact bounds every posting of the term after it.
    LEFT JOIN LATERAL (
        SELECT count(*) AS depth, min(c.min_impact)::float8 AS impact
{% if n == 1 %}
        FROM {{ top }} c WHERE c.term_id = w.term_id AND c.blk < :depth1
{% elif whole_list %}
        FROM {{ top }} c WHERE c.term_id = w.term_id
{% else %}
        FROM (SELECT t.min_impact, lag(t.min_impact) OVER (ORDER BY t.blk) AS above
              FROM {{ top }} t WHERE t.term_id = w.term_id) c
        WHERE c.above IS NULL OR w.w * c.above::float8 * w.drift >= (SELECT level FROM level{{ n }})
{% endif %}
        HAVING count(*) > 0
    ) m ON true
{% else %}
    CROSS JOIN LATERAL (SELECT (SELECT b.max_impact::float8 FROM {{ table }} b WHERE b.term_id = w.term_id
                                ORDER BY b.max_impact DESC OFFSET :seeds LIMIT 1) AS impact, NULL::bigint AS depth) m
{% endif %}
{% if n > 1 %}
    WHERE NOT (SELECT v FROM proven{{ n - 1 }})
{% endif %}
),
unread{{ n }} AS MATERIALIZED (SELECT coalesce(sum(rest), 0.0::float8) AS v FROM rests{{ n }}),
-- The cut terms' champions (or best blocks), every posting of the others.
seen{{ n }} AS MATERIALIZED (
    SELECT w.chunk_id, sum({{ part("w.tf", dl("w")) }}) AS lb, sum(w.rest) AS seen_rest,
           array_agg(w.term_id) FILTER (WHERE w.cut) AS known_terms
    FROM (
{% if champions %}
        SELECT w.term_id, w.w, w.avgdl, w.rest, w.cut, {{ unnest("b") }}
        FROM rests{{ n }} w JOIN {{ top }} b ON b.term_id = w.term_id AND b.blk < w.depth
        WHERE w.cut
{% else %}
        SELECT w.term_id, w.w, w.avgdl, w.rest, w.cut, {{ unnest("b") }}
        FROM rests{{ n }} w
        CROSS JOIN LATERAL (SELECT b.last_chunk FROM {{ table }} b WHERE b.term_id = w.term_id
                            ORDER BY b.max_impact DESC LIMIT :seeds) s
        JOIN {{ table }} b ON b.term_id = w.term_id AND b.last_chunk = s.last_chunk
        WHERE w.cut
{% endif %}
        UNION ALL
        SELECT w.term_id, w.w, w.avgdl, w.rest, w.cut, {{ unnest("b") }}
        FROM rests{{ n }} w JOIN {{ table }} b ON b.term_id = w.term_id
        WHERE NOT w.cut
{% if writes %}
        UNION ALL
        -- The newest chunks' postings, every one of each query term: a chunk's postings are
        -- all in the delta or all in the blocks, so a delta chunk is known in each cut term
        -- it holds, and the blocks (probes, merges) rightly find it in none.
        SELECT w.term_id, w.w, w.avgdl, w.rest, w.cut, d.chunk_id, d.tf, d.doc_length AS dl
        FROM rests{{ n }} w JOIN {{ delta }} d ON d.term_id = w.term_id
{% endif %}
    ) w{{ dl_join("w") }}
{% if writes %}
    WHERE NOT EXISTS (SELECT 1 FROM {{ dead }} x WHERE x.chunk_id = w.chunk_id)
{% endif %}
    GROUP BY w.chunk_id
),
seed_exact{{ n }} AS MATERIALIZED (
    SELECT c.chunk_id, {{ complete("c", "rests%d" % n) }} AS score
    FROM (SELECT chunk_id, lb AS known, coalesce(known_terms, '{}') AS known_terms
          FROM seen{{ n }} ORDER BY lb DESC, chunk_id LIMIT :probe) c
),
-- The k-th best exact score known (a lower bound of the true k-th; an earlier round's too).
theta{{ n }} AS MATERIALIZED (
    SELECT greatest(coalesce((SELECT score FROM seed_exact{{ n }} ORDER BY score DESC OFFSET :k - 1 LIMIT 1),
                             0.0::float8) * (1.0::float8 - 1e-9::float8){% if n > 1 %}, (SELECT v FROM theta{{ n - 1 }}){% endif %}) AS v
),
proven{{ n }} AS MATERIALIZED (
    SELECT (SELECT v FROM theta{{ n }}) > (SELECT v FROM unread{{ n }}) * (1.0::float8 + 1e-9::float8) AS v
),
{% endfor %}
{#- The round that answers: the first that proved its answer, else the last. #}
{% macro answers(n) -%}
{% for j in range(1, n) %}NOT (SELECT v FROM proven{{ j }}) AND {% endfor %}{% if n < passes %}(SELECT v FROM proven{{ n }}){% else %}true{% endif %}
{%- endmacro %}
{% for name in ("rests", "unread", "seen", "theta") %}
{{ name }} AS MATERIALIZED (
{% for n in range(1, passes + 1) %}
{% if not loop.first %}
    UNION ALL
{% endif %}
    SELECT * FROM {{ name }}{{ n }} WHERE {{ answers(n) }}
{% endfor %}
),
{% endfor %}
split AS MATERIALIZED (
    SELECT r.term_id, r.w, r.avgdl, r.drift, r.df, r.rest, r.cut,
           sum(r.rest) OVER (ORDER BY r.rest, r.term_id) < (SELECT v FROM theta) * CAST(:share AS float8) AS optional
    FROM rests r
),
optional AS MATERIALIZED (
    SELECT coalesce(sum(rest) FILTER (WHERE optional), 0.0::float8) AS ub FROM split
),
-- Every essential block's id range and bound (capped by the rest), from the key index alone.
essential AS MATERIALIZED (
    SELECT s.term_id, b.first_chunk, b.last_chunk, least(s.w * b.max_impact * s.drift, s.rest) AS ub
    FROM split s
    JOIN {{ table }} b ON b.term_id = s.term_id
    WHERE s.cut AND NOT s.optional
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
-- The unseen chunks of the essential blocks read, by their essential contributions.
partial AS MATERIALIZED (
    SELECT w.chunk_id, sum({{ part("w.tf", dl("w")) }}) AS known
    FROM (
        SELECT w.term_id, w.w, w.avgdl, {{ unnest("b") }}
        FROM essential e
        JOIN {{ table }} b ON b.term_id = e.term_id AND b.last_chunk = e.last_chunk
        JOIN split w ON w.term_id = e.term_id
        WHERE int8range(e.first_chunk, e.last_chunk, '[]') && (SELECT r FROM hot)
    ) w{{ dl_join("w") }}
    WHERE NOT EXISTS (SELECT 1 FROM seen x WHERE x.chunk_id = w.chunk_id)
{% if writes %}
      AND NOT EXISTS (SELECT 1 FROM {{ dead }} x WHERE x.chunk_id = w.chunk_id)
{% endif %}
    GROUP BY w.chunk_id
    HAVING sum({{ part("w.tf", dl("w")) }}) + (SELECT ub FROM optional) >= (SELECT v FROM theta)
),
cands AS MATERIALIZED (
    SELECT s.chunk_id, s.lb AS known, coalesce(s.known_terms, '{}') AS known_terms,
           s.lb + (SELECT v FROM unread) - s.seen_rest AS bound
    FROM seen s
    WHERE s.lb + (SELECT v FROM unread) - s.seen_rest >= (SELECT v FROM theta)
    UNION ALL
    SELECT p.chunk_id, p.known,
           (SELECT coalesce(array_agg(term_id), '{}') FROM split WHERE cut AND NOT optional),
           p.known + (SELECT ub FROM optional)
    FROM partial p
),
-- The :probe best candidates completed: theta may rise.
best AS MATERIALIZED (
    SELECT c.chunk_id, {{ complete("c") }} AS score
    FROM (SELECT * FROM cands ORDER BY known DESC, chunk_id LIMIT :probe) c
),
theta_best AS MATERIALIZED (
    SELECT greatest((SELECT v FROM theta),
                    coalesce((SELECT score FROM best ORDER BY score DESC OFFSET :k - 1 LIMIT 1),
                             0.0::float8) * (1.0::float8 - 1e-9::float8)) AS v
),
led0 AS MATERIALIZED (
    SELECT chunk_id, known, known_terms, bound FROM cands WHERE bound >= (SELECT v FROM theta_best)
),
{#- Pass i completes the candidates in the cut term of i-th largest rest, dropping those whose
    bound then falls below theta: by probes (a key lookup each, ~5 us) while they are few, else
    by a merge -- the term's blocks that can hold a candidate decoded (~0.1 us a posting) and
    joined to the candidates -- once they outnumber the term's blocks :merge times. #}
{% for i in range(1, leads + 1) %}
lead{{ i }} AS MATERIALIZED (
    SELECT * FROM split WHERE cut ORDER BY rest DESC, term_id OFFSET {{ i - 1 }} LIMIT 1
),
need{{ i }} AS MATERIALIZED (
    SELECT c.* FROM led{{ i - 1 }} c CROSS JOIN lead{{ i }} w WHERE w.term_id <> ALL(c.known_terms)
),
merge{{ i }} AS MATERIALIZED (
    SELECT (SELECT count(*) FROM need{{ i }}) > CAST(:merge AS float8) * w.df / {{ block }} AS v
    FROM lead{{ i }} w
),
-- Each candidate's block is the one of least last_chunk at or above it: a running minimum
-- over the block ends and the candidates in descending order (one sort, no lookups).
touched{{ i }} AS MATERIALIZED (
    SELECT DISTINCT e.block
    FROM (SELECT e.kind, min(e.pos) FILTER (WHERE e.kind = 0) OVER (ORDER BY e.pos DESC, e.kind) AS block
          FROM (SELECT 0 AS kind, b.last_chunk AS pos
                FROM lead{{ i }} w JOIN {{ table }} b ON b.term_id = w.term_id
                UNION ALL
                SELECT 1, c.chunk_id FROM need{{ i }} c) e
          WHERE (SELECT v FROM merge{{ i }})) e
    WHERE e.kind = 1 AND e.block IS NOT NULL
),
found{{ i }} AS MATERIALIZED (
    SELECT c.chunk_id, x.part
    FROM need{{ i }} c CROSS JOIN lead{{ i }} w CROSS JOIN LATERAL {{ probe("w.term_id", "c.chunk_id") }} x
    WHERE NOT (SELECT v FROM merge{{ i }})
    UNION ALL
    SELECT w.chunk_id, {{ part("w.tf", dl("w")) }}
    FROM (SELECT d.* FROM (SELECT w.w, w.avgdl, {{ unnest("b") }}
                           FROM lead{{ i }} w CROSS JOIN touched{{ i }} t
                           JOIN {{ table }} b ON b.term_id = w.term_id AND b.last_chunk = t.block) d
          WHERE d.chunk_id IN (SELECT chunk_id FROM need{{ i }})) w{{ dl_join("w") }}
),
led{{ i }} AS MATERIALIZED (
    SELECT c.chunk_id, c.known + coalesce(f.part, 0.0::float8) AS known,
           c.known_terms || w.term_id AS known_terms,
           c.bound - w.rest + coalesce(f.part, 0.0::float8) AS bound
    FROM need{{ i }} c CROSS JOIN lead{{ i }} w LEFT JOIN found{{ i }} f ON f.chunk_id = c.chunk_id
    WHERE c.bound - w.rest + coalesce(f.part, 0.0::float8) >= (SELECT v FROM theta_best)
    UNION ALL
    SELECT c.* FROM led{{ i - 1 }} c
    WHERE NOT EXISTS (SELECT 1 FROM lead{{ i }} w WHERE w.term_id <> ALL(c.known_terms))
),
{% endfor %}
answer AS (
    SELECT chunk_id, max(score) AS score
    FROM (SELECT chunk_id, score FROM best
          UNION ALL
          SELECT c.chunk_id, {{ complete("c") }} FROM led{{ leads }} c) scored
    GROUP BY chunk_id
)
SELECT chunk_id, score FROM answer ORDER BY score DESC, chunk_id LIMIT :k
