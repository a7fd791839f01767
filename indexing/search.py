"""Search SQL: BM25 over the postings tables, dense over pgvector HNSW, and their fusion.

Every branch reads only the tenant's rows: dense filters chunks by tenant, BM25 reads the
postings of term ids from the tenant's own dictionary.  Hybrid search is one statement:
dense top-N and BM25 top-N fused by Reciprocal Rank Fusion.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np
from sqlalchemy import Connection, TextClause, text

from indexing.analyzer import analyze
from indexing.embedding import embed
from indexing.snippets import snippet
from indexing.store import vector_literal

Mode = Literal["hybrid", "bm25", "dense"]
MODES: tuple[Mode, ...] = ("hybrid", "bm25", "dense")


Fusion = Literal["rrf", "weighted"]


@dataclass(frozen=True)
class SearchParams:
    k1: float = 0.9
    b: float = 0.4
    rrf_k: int = 60
    ef_search: int = 100
    candidates: int = 100
    # "rrf": Reciprocal Rank Fusion; "weighted": alpha * dense + (1 - alpha) * BM25, each
    # min-max normalised over its own top-N candidates.
    fusion: Fusion = "rrf"
    alpha: float = 0.5
    # Postings read per query term in the first round of early termination; each further
    # round reads bm25_growth times deeper (at most), only the postings that can still
    # matter.  Below bm25_scan_below postings in all the plain scan is used directly.
    # 1,000 then 15,000, and the scan below 40,000: at 1M chunks rounds of 150/1,500/15,000
    # and a scan below 20,000 did 8 % and then 5 % more work.  A third round (225,000)
    # answers the 1-4 % of queries left to MaxScore mostly in 10-45 % less time, but every
    # round costs every query ~0.5 ms to set up, so two is the default (docs/BENCHMARKS.md,
    # session 9).
    bm25_depth: int = 1000
    bm25_rounds: int = 2
    bm25_growth: int = 15
    # A term's list at most this many times a round's depth is read whole by that round (up
    # to the threshold): a list cut just short leaves a rest that keeps most chunks open.
    bm25_whole: float = 2.0
    # When no round proves its answer: True reads on (MaxScore) until it is exact; False
    # returns the last round's candidates, each exactly scored, as they rank.
    bm25_exact: bool = True
    # Out of budget (bm25_exact False), how many chunks are completed at most.
    bm25_complete_limit: int = 1000
    bm25_scan_below: int = 40_000
    # Chunks of best lower bound each round completes at once (at least the ranks that must
    # be exact), so that it proves against exact scores.
    bm25_probe: int = 40
    # Chunks of best upper bound completed first when a round completes its answer, so that
    # theta over their exact scores decides which of the rest need completing at all.
    bm25_stage: int = 256


@dataclass(frozen=True)
class Filters:
    """Restrictions applied inside both branches (so top-N is taken among matching chunks)."""

    document_ids: list[str] | None = None
    job_id: str | None = None
    metadata: dict[str, object] | None = None
    mime_types: list[str] | None = None
    # ISO 8601 bounds on when the document was (last) indexed: [after, before).
    indexed_after: str | None = None
    indexed_before: str | None = None

    @property
    def active(self) -> bool:
        return bool(self.document_ids or self.job_id or self.metadata or self.mime_types
                    or self.indexed_after or self.indexed_before)


# Joined into a branch only when a filter is given, so unfiltered searches pay nothing.
_FILTER_JOIN = """
        JOIN search_documents fsd ON fsd.id = {chunk}.search_document_id
            AND (CAST(:f_docs AS text[]) IS NULL OR fsd.external_id = ANY(CAST(:f_docs AS text[])))
            AND (CAST(:f_job AS uuid) IS NULL OR fsd.job_id = CAST(:f_job AS uuid))
            AND (CAST(:f_meta AS jsonb) IS NULL OR fsd.metadata @> CAST(:f_meta AS jsonb))
            AND (CAST(:f_mimes AS text[]) IS NULL OR fsd.mime_type = ANY(CAST(:f_mimes AS text[])))
            AND (CAST(:f_after AS timestamptz) IS NULL
                 OR fsd.indexed_at >= CAST(:f_after AS timestamptz))
            AND (CAST(:f_before AS timestamptz) IS NULL
                 OR fsd.indexed_at < CAST(:f_before AS timestamptz))"""


@dataclass(frozen=True)
class Hit:
    document_id: str
    chunk_id: int
    score: float
    text: str
    heading_path: list[str]
    page_start: int | None
    page_end: int | None
    dense_rank: int | None
    dense_score: float | None
    bm25_rank: int | None
    bm25_score: float | None
    title: str | None = None
    mime_type: str | None = None
    snippet: str | None = None
    # Which BM25 path ranked the candidates (the same for every hit of a search): 'scan',
    # 'exact<n>' (proven in round n), 'maxscore' (proven by MaxScore) or 'budget'
    # (bm25_exact off and no round could prove its ranking); None in dense mode.
    bm25_path: str | None = None

    def as_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


# Okapi BM25 with Lucene's IDF, ln(1 + (N - df + 0.5) / (df + 0.5)).  The term and
# statistics CTEs are MATERIALIZED so they are computed once, not once per posting row,
# and every constant is float8 so the arithmetic never falls into slow numeric.
#
# Early termination, exact by construction, in rounds (each run only when the previous
# one could not prove its answer; see _ROUND):
#   1. each round reads, per query term, its postings of highest impact by an index-only
#      scan on (term id, impact DESC) that carries tf and length -- round 1 the first
#      :depth1, later rounds up to :depth<n> of those that add at least a threshold drawn
#      from the previous round's theta (_LEVEL), so common terms of little weight are
#      hardly read;
#   2. the chunks read get a lower bound (contributions read) and an upper bound (plus the
#      most each term they were not seen in can still add); a chunk never read is bounded
#      by `unread`, the sum of those rests, scaled up by how far the average length drifted
#      since impacts were computed; the :probe best lower bounds are completed at once;
#   3. the round is proven when theta -- the exact_k-th best of those scores, or with one
#      result per document the k-th best document's (_KTH_DOCUMENT) -- beats `unread`;
#      then only the chunks that could still reach the top are completed, by index lookups:
#      the :stage best upper bounds first (lifting theta), then the rest one lead term at a
#      time (_LEAD), dropping those that fall below theta, and the survivors in the others;
#   4. when no round proves its answer, MaxScore (below) reads in full only the postings of
#      the terms that can still matter -- or, with bm25_exact off, the last round's
#      candidates stand ('budget').  The plain scan answers when there are few postings or
#      the impacts were computed with other parameters.  Each path's branch carries a
#      one-time filter, so PostgreSQL never executes the paths not taken.
# One posting's contribution is the same expression in every path, so that they cannot
# disagree.
_PART = """weights.w * p.tf * (CAST(:k1 AS float8) + 1.0::float8)
               / (p.tf + CAST(:k1 AS float8) * (1.0::float8 - CAST(:b AS float8)
                  + CAST(:b AS float8) * p.doc_length / weights.avgdl))"""
_SCORE = f"sum({_PART})"

_BM25_HEAD = """
q AS MATERIALIZED (
    SELECT term, count(*)::float8 AS qtf
    FROM unnest(CAST(:terms AS text[])) AS term GROUP BY term
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
)"""

# One round at depth :depth{n}.  `rest` is, for a term cut short, the most a posting not
# read can add (weight x the best impact left x drift), 0 for a term read in full.  A chunk
# read scores at least its lower bound `lb` (the contributions read) and at most `lb` plus
# the rests of the cut terms it was not seen in; a chunk never read scores at most the sum
# of the rests, `unread`.  So the answer lies among the chunks read once theta (the
# exact_k-th best of the lower bounds and the :probe exact scores, or the k-th best
# document's; see _KTH_DOCUMENT) beats `unread`: the round is proven, and only the chunks
# that could still reach theta (or whose lower bound is among the top :candidates, floor)
# are completed.  A closing round -- every round after the first -- completes those chunks
# even unproven and tries theta over the exact scores against `unread` (with bm25_exact off
# it completes only the :complete_limit best upper bounds).  Only complete chunks are
# ranked, and a chunk left incomplete cannot displace one from the top :candidates, so
# every score is exact.
# `rest` counts the postings a round will read before `top` reads them, so that every row
# of `top` carries its term's rest and `seen` aggregates without a join; the second pass
# reads index pages the first has just brought in.
_ROUND = """,{level}
r{n}_rest AS MATERIALIZED (
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
        CROSS JOIN LATERAL (SELECT {thr} AS thr,
                                   CASE WHEN w.df <= :whole * :depth{n} THEN w.df
                                        ELSE :depth{n} END AS depth) t
        CROSS JOIN LATERAL (
            SELECT count(*) AS read, min(x.impact)::float8 AS last, max(x.impact)::float8 AS top
            FROM (
                SELECT p.impact FROM bm25_postings p
                WHERE p.term_id = w.term_id AND p.impact >= t.thr
                ORDER BY p.impact DESC LIMIT t.depth
            ) x
        ) l
        WHERE {run}
    ) r
),
-- The cut terms by rest, largest first (completions go in this order; see _LEAD).
r{n}_order AS MATERIALIZED (
    SELECT term_id, w, avgdl, rest, row_number() OVER (ORDER BY rest DESC, term_id) AS pos
    FROM r{n}_rest WHERE cut
),
r{n}_top AS MATERIALIZED (
    SELECT weights.term_id, p.chunk_id, {part} AS part, weights.rest, weights.cut
    FROM r{n}_rest weights
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.doc_length FROM bm25_postings p
        WHERE p.term_id = weights.term_id AND p.impact >= weights.thr
        ORDER BY p.impact DESC
        LIMIT weights.depth
    ) p
),
r{n}_unread AS MATERIALIZED (
    SELECT coalesce(sum(rest), 0.0::float8) AS ub, count(*) FILTER (WHERE cut) AS cuts FROM r{n}_rest
),
r{n}_seen AS MATERIALIZED (
    SELECT p.chunk_id, sum(p.part) AS lb, sum(p.rest) AS seen_rest,
           count(*) FILTER (WHERE p.cut) AS seen_cuts, {seen_flags}
    FROM r{n}_top p{bm25_filter}
    GROUP BY p.chunk_id
),
r{n}_best AS MATERIALIZED (
    -- The best lower bounds, read once: theta and floor come from them.
    SELECT chunk_id, lb, seen_cuts FROM r{n}_seen ORDER BY lb DESC LIMIT greatest(:candidates, :probe)
),
-- The :probe best of them not read in full are completed at once (a few primary-key
-- probes): a lower bound misses the terms a chunk was not seen in, so theta over exact
-- scores is far higher -- it proves rounds that lower bounds cannot and, through the
-- threshold (_LEVEL), makes the next round read fewer postings.
r{n}_probe AS MATERIALIZED (
    SELECT chunk_id FROM r{n}_best
    WHERE seen_cuts < (SELECT cuts FROM r{n}_unread)
    ORDER BY lb DESC LIMIT :probe
),
r{n}_probed AS MATERIALIZED ({complete_probe}),
-- Each of the best chunks at its exact score when probed, else at its lower bound: never
-- above its true score, so theta over these stays a lower bound of the true k-th.
r{n}_known AS MATERIALIZED (
    SELECT b.chunk_id, b.lb + coalesce(x.extra, 0.0::float8) AS v
    FROM r{n}_best b LEFT JOIN r{n}_probed x ON x.chunk_id = b.chunk_id
),
r{n}_bar AS MATERIALIZED (
    SELECT b.theta, b.floor,
           (SELECT cuts FROM r{n}_unread) = 0 OR b.theta > (SELECT ub FROM r{n}_unread) AS proven
    FROM (SELECT {theta_seen} AS theta,
                 coalesce((SELECT lb FROM r{n}_best ORDER BY lb DESC
                           OFFSET :candidates - 1 LIMIT 1), 0.0::float8) AS floor) b
),
-- Only chunks whose lower bound reaches floor or whose upper bound reaches theta can rank
-- among the top :candidates: at least :candidates complete chunks score floor or more.  Read
-- only when the round is proven or closing.
r{n}_reach AS MATERIALIZED (
    SELECT o.chunk_id, o.lb, o.ub, o.seen_cuts{seen_o} FROM (
        SELECT s.chunk_id, s.lb, s.lb + (SELECT ub FROM r{n}_unread) - s.seen_rest AS ub, s.seen_cuts{seen_s}
        FROM r{n}_seen s
        WHERE ({closing} OR (SELECT proven FROM r{n}_bar))
    ) o
    WHERE o.lb >= (SELECT floor FROM r{n}_bar) OR o.ub >= (SELECT theta FROM r{n}_bar)
),
-- Completion in two stages.  Theta from :probe chunks can sit well below the true k-th
-- score when scores are flat (common terms), and then every chunk read looks able to reach
-- it.  So the :stage best upper bounds among those are completed first; theta over what is
-- then known exactly (_KTH over r{n}_lifted) is far closer to the true one, and of the rest
-- only the chunks that can still reach it are completed.  Every chunk completed here would
-- also be completed without the stage: it only skips some.
r{n}_stage AS MATERIALIZED (
    SELECT o.chunk_id, o.lb FROM r{n}_reach o
    WHERE o.seen_cuts < (SELECT cuts FROM r{n}_unread)
      AND o.chunk_id NOT IN (SELECT chunk_id FROM r{n}_probe)
    ORDER BY o.ub DESC, o.chunk_id
    LIMIT :stage
),
r{n}_staged AS MATERIALIZED ({complete_stage}),
-- Exact scores of the probed and staged chunks, lower bounds of the other best ones.
r{n}_lifted AS MATERIALIZED (
    SELECT chunk_id, max(v) AS v FROM (
        SELECT chunk_id, v FROM r{n}_known
        UNION ALL
        SELECT t.chunk_id, t.lb + coalesce(x.extra, 0.0::float8)
        FROM r{n}_stage t LEFT JOIN r{n}_staged x ON x.chunk_id = t.chunk_id
    ) v
    GROUP BY chunk_id
),
r{n}_lift AS MATERIALIZED (
    SELECT greatest((SELECT theta FROM r{n}_bar), {theta_lifted}) AS theta
),
r{n}_consider AS MATERIALIZED (
    SELECT o.chunk_id, o.lb, o.ub, o.seen_cuts{seen_o} FROM r{n}_reach o
    WHERE o.lb >= (SELECT floor FROM r{n}_bar) OR o.ub >= (SELECT theta FROM r{n}_lift)
),
-- The open chunks: within reach of the lifted theta (or floor), not complete yet.  The lead
-- term passes (_LEAD) take them from keep0 to keep{last_lead}.
r{n}_keep0 AS MATERIALIZED (
    SELECT o.chunk_id, o.lb, o.ub, 0.0::float8 AS extra{seen_o} FROM r{n}_consider o
    WHERE o.seen_cuts < (SELECT cuts FROM r{n}_unread)
      AND o.chunk_id NOT IN (SELECT chunk_id FROM r{n}_stage)
      AND o.chunk_id NOT IN (SELECT chunk_id FROM r{n}_probe)
    ORDER BY o.ub DESC
    -- Unproven and out of budget, only the chunks with the best upper bounds are completed
    -- (the staged ones count towards the limit).
    LIMIT CASE WHEN (SELECT proven FROM r{n}_bar) OR CAST(:exact AS boolean) THEN NULL
               ELSE greatest(:complete_limit - (SELECT count(*) FROM r{n}_stage), 0) END
),
{leads}
r{n}_completed AS MATERIALIZED ({complete_open}),
r{n}_scored AS MATERIALIZED (
    SELECT s.chunk_id, s.lb + coalesce(x.extra, 0.0::float8) + coalesce(g.extra, 0.0::float8)
                            + coalesce(k.extra, 0.0::float8) + coalesce(c.extra, 0.0::float8) AS score
    FROM r{n}_consider s LEFT JOIN r{n}_completed c ON c.chunk_id = s.chunk_id
    LEFT JOIN r{n}_keep{last_lead} k ON k.chunk_id = s.chunk_id
    LEFT JOIN r{n}_staged g ON g.chunk_id = s.chunk_id
    LEFT JOIN r{n}_probed x ON x.chunk_id = s.chunk_id
    WHERE s.seen_cuts = (SELECT cuts FROM r{n}_unread) OR k.chunk_id IS NOT NULL
          OR s.chunk_id IN (SELECT chunk_id FROM r{n}_stage)
          OR s.chunk_id IN (SELECT chunk_id FROM r{n}_probe)
    -- Out of budget some chunks above floor stay incomplete: the fully read ones below it
    -- then fill the ranks.
    UNION ALL
    SELECT s.chunk_id, s.lb FROM r{n}_seen s
    WHERE {closing} AND NOT (SELECT proven FROM r{n}_bar) AND NOT CAST(:exact AS boolean)
      -- (Read in full, such a chunk's upper bound is its lower bound: it is not in consider.)
      AND s.seen_cuts = (SELECT cuts FROM r{n}_unread) AND s.lb < (SELECT floor FROM r{n}_bar)
    ORDER BY score DESC, chunk_id
    LIMIT :candidates
),
{verdict}"""

# The open chunks are completed one cut term at a time for the first _LEADS terms of largest
# rest -- usually the rarest and heaviest -- and in the others at once.  Most open chunks do
# not hold the lead term, and once that is known their upper bound drops by its whole rest,
# mostly below theta; only the chunks that can still reach theta (or floor) go on to the
# next term.  Aggregated, not joined: CTEs carry no statistics, and a generic plan would
# join them by nested loops.
_LEADS = 2
_LEAD = """
r{n}_led{j} AS MATERIALIZED (
    SELECT p.chunk_id, {part} AS extra
    FROM (SELECT * FROM r{n}_order WHERE pos = {j}) weights
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.doc_length FROM bm25_postings p
        WHERE p.term_id = weights.term_id
          AND p.chunk_id = ANY(ARRAY(SELECT chunk_id FROM {prev} WHERE NOT seen{j}))
        OFFSET 0
    ) p
),
r{n}_keep{j} AS MATERIALIZED (
    SELECT u.chunk_id, max(u.lb) AS lb, sum(u.ub) AS ub, sum(u.extra) AS extra{seen_agg}
    FROM (
        SELECT o.chunk_id, o.lb,
               o.ub - CASE WHEN o.seen{j} THEN 0.0::float8
                           ELSE coalesce((SELECT rest FROM r{n}_order WHERE pos = {j}), 0.0::float8)
                      END AS ub,
               o.extra{seen_o}
        FROM {prev} o
        UNION ALL
        SELECT l.chunk_id, NULL, l.extra, l.extra{seen_null} FROM r{n}_led{j} l
    ) u
    GROUP BY u.chunk_id
    HAVING max(u.lb) >= (SELECT floor FROM r{n}_bar) OR sum(u.ub) >= (SELECT theta FROM r{n}_lift)
),"""

# A later round's threshold, the least contribution a posting must add to be read, from
# the previous round's theta: it proves its answer when the rests of all terms sum below
# theta, and a term whose best posting adds less than an even share of theta needs none of
# its postings read for that.  So those terms' bounds are set aside, taken from the
# smallest, and the rest of theta (1% under it, so that a round that ends with the same
# theta still proves it) is shared among the others -- water-filling -- so terms of little
# weight take none of the share.  Terms round 1 read whole (at most :whole x :depth1
# postings) are read in full again (threshold 0): cheap, and then they take none of it
# either.  Only efficiency rests on this: every round proves its answer from what it read.
_LEVEL = """
r{n}_level AS MATERIALIZED (
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
        CROSS JOIN (SELECT 0.99::float8 * {theta_before} AS budget) b
        WINDOW o AS (ORDER BY u.ub)
    ) x
),"""
# After a closing round, the larger of its two thetas (both are lower bounds of the k-th).
_THETA_CLOSED = "greatest((SELECT theta FROM r{p}_bar), (SELECT theta FROM r{p}_verdict))"
_THRESHOLD = """CASE WHEN w.df <= :whole * :depth1 THEN 0.0::float8
                ELSE (SELECT level FROM r{n}_level) / (w.w * (SELECT drift FROM stats)) END"""

# The rest of the score of the chunks {ids}: their postings in the terms a round cut short
# ({terms} narrows those), less those it read.  Used for the probed, the staged and, after
# the lead passes, the open chunks.
_COMPLETE = """
    SELECT p.chunk_id, sum({part}) AS extra
    FROM r{n}_rest weights
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.doc_length FROM bm25_postings p
        WHERE p.term_id = weights.term_id
          AND p.chunk_id = ANY(ARRAY({ids}))
        -- Kept a per-term probe of the primary key: pulled up into a join, a generic plan
        -- reads every posting of the open chunks through the chunk index instead.
        OFFSET 0
    ) p
    WHERE weights.cut{terms}
      -- Postings read in this round are already in the lower bound.
      AND NOT EXISTS (SELECT 1 FROM r{n}_top t WHERE t.term_id = weights.term_id AND t.chunk_id = p.chunk_id)
    GROUP BY p.chunk_id
"""

# Only a closing round's verdict tries theta over exact scores (the next round's threshold
# and MaxScore start from it).  Round 1 stands or falls by its bar alone, and its scores are
# never computed unless it is proven: most queries it cannot prove are cheaper to read
# deeper than to complete, and the rest are proven by the next round's completion.
_VERDICT = """r{n}_verdict AS MATERIALIZED (
    SELECT (SELECT proven FROM r{n}_bar) AS proven
)"""
_LAST_VERDICT = """r{n}_verdict AS MATERIALIZED (
    SELECT t.theta,
           (SELECT proven FROM r{n}_bar)
           OR (CAST(:exact AS boolean) AND t.theta > (SELECT ub FROM r{n}_unread)) AS proven
    FROM (SELECT {theta_scored} AS theta) t
)"""

# theta, the value the answer must be proven against: the exact_k-th best chunk's ...
_KTH_CHUNK = """coalesce((SELECT {col} FROM {rel} ORDER BY {col} DESC OFFSET :exact_k - 1 LIMIT 1),
                 0.0::float8)"""
# ... or, when results are collapsed to one chunk per document, the k-th best document's
# best chunk among the exact_k best: every document of the true top k scores at least that
# much, so only chunks that can reach it matter -- with one chunk per document this is the
# k-th chunk, not the 4k-th.  When the exact_k best chunks hold fewer than k documents, the
# exact_k-th chunk's value stands (the ranks beyond it are not proven, as without collapse).
_KTH_DOCUMENT = """coalesce(
        (SELECT d.v FROM (
            SELECT DISTINCT ON (c.search_document_id) s.v
            FROM (SELECT chunk_id, {col} AS v FROM {rel} ORDER BY {col} DESC LIMIT :exact_k) s
            JOIN chunks c ON c.id = s.chunk_id
            ORDER BY c.search_document_id, s.v DESC) d
         ORDER BY d.v DESC OFFSET :k - 1 LIMIT 1),
        """ + _KTH_CHUNK + ")"

# MaxScore, when no round proved its answer, with theta the last round's theta over exact
# scores (a lower bound on the true one).  Terms whose upper bounds (weight x highest impact)
# sum to less than theta, taken from the smallest, are optional: a chunk holding only those
# cannot reach the top.  So the answer lies among chunks holding an essential term -- their
# postings are read in full -- and of those only chunks whose partial score plus the
# optional terms' bounds reaches theta are completed, by primary-key probes.
_MAXSCORE = """,
safe AS MATERIALIZED (
    SELECT CASE WHEN (SELECT value FROM plan) = 'scan' THEN 'scan'
                {round_paths}
                WHEN CAST(:exact AS boolean) THEN 'maxscore'
                ELSE 'budget'
           END AS path
),
split AS MATERIALIZED (
    SELECT b.term_id, b.w, b.avgdl, b.ub,
           sum(b.ub) OVER (ORDER BY b.ub, b.term_id) < (SELECT theta FROM {last}_verdict) AS optional
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
    SELECT p.chunk_id, {score} AS score
    FROM split weights
    JOIN bm25_postings p ON p.term_id = weights.term_id{bm25_filter}
    WHERE NOT weights.optional
    GROUP BY p.chunk_id
    HAVING {score} + (SELECT coalesce(sum(ub) FILTER (WHERE optional), 0.0::float8) FROM split)
           >= (SELECT theta FROM {last}_verdict)
),
completed AS (
    SELECT c.chunk_id, c.score + coalesce(o.score, 0.0::float8) AS score
    FROM partial c
    CROSS JOIN LATERAL (
        SELECT {score} AS score
        FROM split weights
        JOIN bm25_postings p ON p.term_id = weights.term_id AND p.chunk_id = c.chunk_id
        WHERE weights.optional
    ) o
),
bm25 AS (
    SELECT chunk_id, score, row_number() OVER (ORDER BY score DESC, chunk_id) AS rank
    FROM (
        {round_answers}
        UNION ALL
        -- Out of budget: the last round's candidates, exactly scored, stand unproven.
        SELECT chunk_id, score FROM {last}_scored WHERE (SELECT path FROM safe) = 'budget'
        UNION ALL
        SELECT chunk_id, score FROM (
            -- The last round's exact scores fill the ranks below theta that MaxScore pruned.
            SELECT chunk_id, max(score) AS score
            FROM (SELECT chunk_id, score FROM completed
                  UNION ALL SELECT chunk_id, score FROM {last}_scored) m
            GROUP BY chunk_id
            ORDER BY score DESC, chunk_id
            LIMIT :candidates
        ) maxscore
        WHERE (SELECT path FROM safe) = 'maxscore'
        UNION ALL
        SELECT chunk_id, score FROM (
            SELECT p.chunk_id,
                   {score} AS score
            FROM weights
            JOIN bm25_postings p ON p.term_id = weights.term_id{bm25_filter}
            GROUP BY p.chunk_id
            ORDER BY score DESC, p.chunk_id
            LIMIT :candidates
        ) scan
        WHERE (SELECT path FROM safe) = 'scan'
    ) scored
)"""


def _bm25_cte(rounds: int, bm25_filter: str, collapse: bool) -> str:
    kth = _KTH_DOCUMENT if collapse else _KTH_CHUNK

    def closing(n: int) -> bool:
        # Closing rounds complete their candidates even unproven and check theta over exact
        # scores: with three rounds at 1M chunks, round 2 so closed proved every query that
        # it proves as the last of two, and round 3 answered the rest mostly in 10-45 % less
        # time than MaxScore (docs/BENCHMARKS.md, session 9).
        return n == rounds or n > 1

    parts = [_BM25_HEAD]
    for n in range(1, rounds + 1):
        run = ("(SELECT value FROM plan) = 'rounds'" if n == 1
               else f"NOT (SELECT proven FROM r{n - 1}_verdict)")
        # Round 1 reads the first :depth1 postings of every term; later rounds read, up to
        # their depth, only postings that add at least their threshold (_LEVEL).
        complete = {name: _COMPLETE.replace("{ids}", ids).replace("{terms}", terms) for name, ids, terms in (
            ("{complete_probe}", "SELECT chunk_id FROM r{n}_probe", ""),
            ("{complete_stage}", "SELECT chunk_id FROM r{n}_stage", ""),
            # After the lead passes, the chunks left in the other cut terms.
            ("{complete_open}", f"SELECT chunk_id FROM r{{n}}_keep{_LEADS}",
             f" AND weights.term_id NOT IN (SELECT term_id FROM r{{n}}_order WHERE pos <= {_LEADS})"))}
        leads = range(1, _LEADS + 1)
        before = ("" if n == 1 else
                  _LEVEL.replace("{theta_before}",
                                _THETA_CLOSED if closing(n - 1) else "(SELECT theta FROM r{p}_bar)")
                  .replace("{p}", str(n - 1)))
        fields = {"{level}": before, **complete,
                  "{leads}": "".join(_LEAD.replace("{j}", str(j)).replace("{prev}", f"r{{n}}_keep{j - 1}")
                                     for j in leads),
                  "{last_lead}": str(_LEADS),
                  # Whether a chunk was read in the j-th cut term, carried along to the passes.
                  "{seen_flags}": ", ".join(
                      f"bool_or(p.term_id = (SELECT term_id FROM r{{n}}_order WHERE pos = {j})) AS seen{j}"
                      for j in leads),
                  "{seen_s}": "".join(f", s.seen{j}" for j in leads),
                  "{seen_o}": "".join(f", o.seen{j}" for j in leads),
                  "{seen_agg}": "".join(f", bool_or(u.seen{j}) AS seen{j}" for j in leads),
                  "{seen_null}": ", NULL::boolean" * _LEADS,
                  "{thr}": "0.0::float8" if n == 1 else _THRESHOLD,
                  "{verdict}": _LAST_VERDICT if closing(n) else _VERDICT, "{n}": str(n), "{run}": run,
                  "{closing}": "true" if closing(n) else "false", "{part}": _PART,
                  "{theta_seen}": kth.format(col="v", rel=f"r{n}_known"),
                  "{theta_lifted}": kth.format(col="v", rel=f"r{n}_lifted"),
                  "{theta_scored}": kth.format(col="score", rel=f"r{n}_scored")}
        sql = _ROUND
        # In this order: the templates first, since they bring in {n} and {part}.
        for field, value in fields.items():
            sql = sql.replace(field, value)
        parts.append(sql)
    round_paths = "\n                ".join(
        f"WHEN (SELECT proven FROM r{n}_verdict) THEN 'exact{n}'" for n in range(1, rounds + 1))
    round_answers = "\n        UNION ALL\n        ".join(
        f"SELECT chunk_id, score FROM r{n}_scored WHERE (SELECT path FROM safe) = 'exact{n}'"
        for n in range(1, rounds + 1))
    parts.append(_MAXSCORE.replace("{round_paths}", round_paths)
                 .replace("{round_answers}", round_answers).replace("{last}", f"r{rounds}")
                 .replace("{score}", _SCORE))
    return "".join(parts).replace("{bm25_filter}", bm25_filter)

_DENSE_CTE = """
dense AS (
    SELECT chunk_id, 1.0::float8 - distance AS score,
           row_number() OVER (ORDER BY distance, chunk_id) AS rank
    FROM (
        SELECT c.id AS chunk_id, c.embedding <=> CAST(:qvec AS vector) AS distance
        FROM chunks c{dense_filter}
        WHERE c.tenant_id = :tenant
        ORDER BY distance
        LIMIT :candidates
    ) nearest
)
"""

# Min-max normalisation over each branch's candidates; a branch with one distinct score
# counts 1 for its candidates.  A chunk missing from a branch gets 0 from it.
_WEIGHTED = """
fused AS (
    SELECT coalesce(d.chunk_id, b.chunk_id) AS chunk_id,
           CAST(:alpha AS float8) * CASE WHEN d.score IS NULL THEN 0.0::float8
               ELSE coalesce((d.score - dn.lo) / nullif(dn.hi - dn.lo, 0), 1.0::float8) END
           + (1.0::float8 - CAST(:alpha AS float8)) * CASE WHEN b.score IS NULL THEN 0.0::float8
               ELSE coalesce((b.score - bn.lo) / nullif(bn.hi - bn.lo, 0), 1.0::float8) END AS score,
           d.rank AS dense_rank, d.score AS dense_score, b.rank AS bm25_rank, b.score AS bm25_score
    FROM dense d FULL OUTER JOIN bm25 b ON b.chunk_id = d.chunk_id
    CROSS JOIN (SELECT min(score) AS lo, max(score) AS hi FROM dense) dn
    CROSS JOIN (SELECT min(score) AS lo, max(score) AS hi FROM bm25) bn
)"""

_FUSED = {
    "hybrid": """
fused AS (
    SELECT coalesce(d.chunk_id, b.chunk_id) AS chunk_id,
           coalesce(1.0::float8 / (CAST(:rrf_k AS float8) + d.rank), 0)
             + coalesce(1.0::float8 / (CAST(:rrf_k AS float8) + b.rank), 0) AS score,
           d.rank AS dense_rank, d.score AS dense_score, b.rank AS bm25_rank, b.score AS bm25_score
    FROM dense d FULL OUTER JOIN bm25 b ON b.chunk_id = d.chunk_id
)""",
    "bm25": """
fused AS (
    SELECT chunk_id, score, NULL::bigint AS dense_rank, NULL::float8 AS dense_score,
           rank AS bm25_rank, score AS bm25_score
    FROM bm25
)""",
    "dense": """
fused AS (
    SELECT chunk_id, score, rank AS dense_rank, score AS dense_score,
           NULL::bigint AS bm25_rank, NULL::float8 AS bm25_score
    FROM dense
)""",
}

# With collapse, each document is represented by its best chunk.  Only the final k rows
# fetch their text and their document's identity (the candidates need just their chunk's
# document id to collapse).
_SELECT = """,
ranked AS (
    SELECT * FROM (
        SELECT DISTINCT ON ({distinct}) f.chunk_id, f.score, f.dense_rank, f.dense_score,
               f.bm25_rank, f.bm25_score, c.search_document_id
        FROM fused f
        -- Key probes per candidate, as OFFSET 0 keeps them: a generic plan, not knowing how
        -- few candidates there are, would otherwise hash the whole chunks table.
        CROSS JOIN LATERAL (SELECT c.search_document_id FROM chunks c
                            WHERE c.id = f.chunk_id AND c.tenant_id = :tenant OFFSET 0) c
        ORDER BY {distinct}, f.score DESC, f.chunk_id
    ) best
    ORDER BY score DESC, chunk_id
    LIMIT :k
)
SELECT sd.external_id AS document_id, r.chunk_id, r.score, c.text, c.heading_path, c.page_start,
       c.page_end, r.dense_rank, r.dense_score, r.bm25_rank, r.bm25_score, sd.title, sd.mime_type,
       {bm25_path} AS bm25_path
FROM ranked r
CROSS JOIN LATERAL (SELECT c.text, c.heading_path, c.page_start, c.page_end FROM chunks c
                    WHERE c.id = r.chunk_id OFFSET 0) c
CROSS JOIN LATERAL (SELECT sd.external_id, sd.title, sd.mime_type FROM search_documents sd
                    WHERE sd.id = r.search_document_id OFFSET 0) sd
ORDER BY r.score DESC, r.chunk_id
"""


def build_sql(mode: Mode, collapse: bool, filtered: bool = False, fusion: Fusion = "rrf",
              rounds: int = SearchParams.bm25_rounds) -> str:
    bm25 = _bm25_cte(rounds, "\n        JOIN chunks fc ON fc.id = p.chunk_id"
                     + _FILTER_JOIN.format(chunk="fc") if filtered else "", collapse)
    dense = _DENSE_CTE.replace("{dense_filter}", _FILTER_JOIN.format(chunk="c") if filtered else "")
    ctes = {"hybrid": [dense, bm25], "bm25": [bm25], "dense": [dense]}[mode]
    distinct = "c.search_document_id" if collapse else "f.chunk_id"
    fused = _WEIGHTED if mode == "hybrid" and fusion == "weighted" else _FUSED[mode]
    path = "NULL::text" if mode == "dense" else "(SELECT path FROM safe)"
    return ("WITH " + ",".join(ctes + [fused]) + _SELECT.format(distinct=distinct, bm25_path=path))


@lru_cache(maxsize=128)
def _statement(mode: Mode, collapse: bool, filtered: bool, fusion: Fusion, rounds: int) -> TextClause:
    # Built and parsed once per variant: parsing 30 kB of SQL for its bind parameters took
    # SQLAlchemy 2.3 ms, as long as executing a simple search.
    return text(build_sql(mode, collapse, filtered, fusion, rounds))


@lru_cache(maxsize=16)
def _path_statement(rounds: int, collapse: bool) -> TextClause:
    return text("WITH " + _bm25_cte(rounds, "", collapse) + " SELECT (SELECT path FROM safe) AS path")


def bind_parameters(tenant_id: str, terms: list[str], k: int, collapse: bool,
                    params: SearchParams) -> dict[str, object]:
    # The chunk ranks that must be exact: the k the caller sees, or with one result per
    # document the best 4k chunks, among which the k-th document is looked for (see
    # _KTH_DOCUMENT).  Candidates ranked below them stand as the rounds scored them.
    exact_k = k * (4 if collapse else 1)
    return {
        "tenant": tenant_id, "k": k, "terms": terms, "k1": params.k1, "b": params.b,
        "rrf_k": params.rrf_k, "candidates": max(params.candidates, exact_k),
        "alpha": params.alpha, "scan_below": params.bm25_scan_below, "exact": params.bm25_exact,
        "complete_limit": params.bm25_complete_limit,
        **{f"depth{n}": params.bm25_depth * params.bm25_growth ** (n - 1)
           for n in range(1, params.bm25_rounds + 1)},
        "exact_k": exact_k, "probe": max(params.bm25_probe, exact_k), "whole": params.bm25_whole,
        # Out of budget the staged chunks count towards the completion limit.
        "stage": (params.bm25_stage if params.bm25_exact
                  else min(params.bm25_stage, params.bm25_complete_limit)),
    }


def bm25_path(conn: Connection, tenant_id: str, query: str, k: int = 10, collapse: bool = True,
              params: SearchParams | None = None) -> str:
    """Which path answers this BM25 query ('scan', 'exact<round>' or 'maxscore'); for
    benchmarks and tests."""
    params = params or SearchParams()
    bind = bind_parameters(tenant_id, analyze(query), k, collapse, params)
    return str(conn.execute(_path_statement(params.bm25_rounds, collapse), bind).scalar_one())


def search(
    conn: Connection,
    tenant_id: str,
    query: str,
    k: int = 10,
    mode: Mode = "hybrid",
    collapse: bool = True,
    params: SearchParams | None = None,
    query_vector: np.ndarray | None = None,
    filters: Filters | None = None,
    snippets: bool = True,
) -> list[Hit]:
    """Top-``k`` chunks for ``query`` (one per document when ``collapse``); ``snippets=False``
    skips the highlighted snippets (evaluation runs that only need ids)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    params = params or SearchParams()
    terms = analyze(query)
    if mode == "bm25" and not terms:
        return []
    bind = bind_parameters(tenant_id, terms, k, collapse, params)
    filtered = filters is not None and filters.active
    # A statement run five times on a connection is prepared (psycopg); planning the search
    # afresh costs about as much as a round-1 answer, and the generic plan serves every query
    # (which path runs is decided as it runs), so it is planned once per connection.
    # Filtered searches keep per-query plans: there the filter values decide the join order.
    settings = {"plan_cache_mode": "auto" if filtered else "force_generic_plan"}
    if mode != "bm25":
        if query_vector is None:
            query_vector = embed([query])[0]
        bind["qvec"] = vector_literal(query_vector)
        settings["hnsw.ef_search"] = str(max(params.ef_search, bind["candidates"]))
        # Iterative scans keep filtered HNSW searches from returning fewer rows than asked.
        settings["hnsw.iterative_scan"] = "relaxed_order"
    conn.execute(text("SELECT " + ", ".join(
        f"set_config('{name}', :s{i}, true)" for i, name in enumerate(settings))),
        {f"s{i}": value for i, value in enumerate(settings.values())})
    if filtered:
        assert filters is not None
        bind.update({
            "f_docs": filters.document_ids or None, "f_job": filters.job_id,
            "f_meta": json.dumps(filters.metadata) if filters.metadata else None,
            "f_mimes": filters.mime_types or None, "f_after": filters.indexed_after,
            "f_before": filters.indexed_before})
    statement = _statement(mode, collapse, filtered, params.fusion, params.bm25_rounds)
    rows = conn.execute(statement, bind).mappings().all()
    return [Hit(**{**row, "heading_path": list(row["heading_path"] or []),
                   "snippet": snippet(row["text"], query) if snippets else None}) for row in rows]
