"""Search SQL: BM25 over the postings tables, dense over pgvector HNSW, and their fusion.

Every statement filters by tenant in every branch.  Hybrid search is one statement:
dense top-N and BM25 top-N fused by Reciprocal Rank Fusion.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

import numpy as np
from sqlalchemy import Connection, text

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
    # Postings read per query term before the exact re-scoring (early termination), and
    # the total postings below which the plain scan is used directly.
    bm25_depth: int = 300
    bm25_scan_below: int = 20_000


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

    def as_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


# Okapi BM25 with Lucene's IDF, ln(1 + (N - df + 0.5) / (df + 0.5)).  The term and
# statistics CTEs are MATERIALIZED so they are computed once, not once per posting row,
# and every constant is float8 so the arithmetic never falls into slow numeric.
#
# Early termination, exact by construction:
#   1. `top`: for each query term, only its :depth postings of highest impact (an index scan
#      on (tenant, term, impact DESC));
#   2. `exact`: the candidates' exact scores over all query terms (primary-key probes);
#   3. `bound`: no chunk outside the candidates can score more than the sum, over the terms
#      that were cut short, of weight x the last impact read -- scaled up by how far the
#      average length drifted since impacts were computed;
#   4. `safe`: the candidates' top N stands when the N-th score beats that bound (or no term
#      was cut short) and impacts were computed with this k1 and b;
#   5. otherwise MaxScore (below) reads in full only the postings of the terms that can
#      still matter.  The plain scan over every posting answers when there are few postings
#      or the impacts were computed with other parameters.  Each path's branch carries a
#      one-time filter, so PostgreSQL never executes the paths not taken.
# One posting's contribution, summed per chunk: the same expression in both paths, so that
# the candidate phase and the plain scan cannot disagree.
_SCORE = """sum(weights.w * p.tf * (CAST(:k1 AS float8) + 1.0::float8)
               / (p.tf + CAST(:k1 AS float8) * (1.0::float8 - CAST(:b AS float8)
                  + CAST(:b AS float8) * p.doc_length / weights.avgdl)))"""

_BM25_CTE = """
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
    SELECT q.term,
           q.qtf * ln(1.0::float8 + (stats.n - t.df + 0.5::float8) / (t.df + 0.5::float8)) AS w,
           stats.avgdl, t.df
    FROM q
    JOIN bm25_terms t ON t.tenant_id = :tenant AND t.term = q.term
    CROSS JOIN stats
),
top AS MATERIALIZED (
    SELECT w.term, w.df > :depth AS cut, p.chunk_id, p.tf, p.doc_length, p.impact
    FROM weights w
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.doc_length, p.impact FROM bm25_postings p
        WHERE p.tenant_id = :tenant AND p.term = w.term
        ORDER BY p.impact DESC
        LIMIT :depth
    ) p
),
-- Every candidate's postings: those already read for the terms read in full, and a
-- primary-key probe per candidate for each term that was cut short.
contrib AS (
    SELECT t.term, t.chunk_id, t.tf, t.doc_length FROM top t WHERE NOT t.cut
    UNION ALL
    SELECT p.term, p.chunk_id, p.tf, p.doc_length
    FROM (SELECT DISTINCT chunk_id FROM top) c
    CROSS JOIN (SELECT term FROM weights WHERE df > :depth) w
    -- LATERAL ... LIMIT 1 (the key is unique) keeps these primary-key probes: a flattened
    -- join lets the planner hash-join the term's whole posting list instead.
    CROSS JOIN LATERAL (
        SELECT p.term, p.chunk_id, p.tf, p.doc_length FROM bm25_postings p
        WHERE p.tenant_id = :tenant AND p.term = w.term AND p.chunk_id = c.chunk_id
        LIMIT 1
    ) p
),
exact AS MATERIALIZED (
    SELECT p.chunk_id,
           {score} AS score
    FROM contrib p
    JOIN weights ON weights.term = p.term{bm25_filter}
    GROUP BY p.chunk_id
    ORDER BY score DESC, p.chunk_id
    LIMIT :candidates
),
-- The candidates' exact_k-th exact score: a lower bound on the true one (0 when fewer).
theta AS MATERIALIZED (
    SELECT coalesce((SELECT score FROM exact ORDER BY score DESC, chunk_id OFFSET :exact_k - 1 LIMIT 1),
                    0.0::float8) AS value
),
bound AS MATERIALIZED (
    SELECT coalesce(sum(w.w * cut.theta), 0.0::float8) * (SELECT drift FROM stats) AS value,
           coalesce(bool_or(w.df > :depth), false) AS truncated
    FROM weights w
    LEFT JOIN (SELECT term, min(impact)::float8 AS theta FROM top GROUP BY term) cut
        ON cut.term = w.term AND w.df > :depth
),
safe AS MATERIALIZED (
    -- Which path answers: 'scan' when there are few postings in all (cheaper than any
    -- bookkeeping; CASE keeps the candidate phase from running at all) or when impacts were
    -- computed with another k1 and b; 'exact' when the candidates' top is proven; otherwise
    -- 'maxscore'.
    SELECT CASE WHEN (SELECT coalesce(sum(df), 0) FROM weights) <= :scan_below THEN 'scan'
                WHEN NOT coalesce(s.impact_k1 = CAST(:k1 AS float8) AND s.impact_b = CAST(:b AS float8),
                                  false) THEN 'scan'
                WHEN NOT (SELECT truncated FROM bound)
                     OR (SELECT value FROM theta) > (SELECT value FROM bound) THEN 'exact'
                ELSE 'maxscore'
           END AS path
    FROM stats s
),
-- MaxScore, when the bound did not hold.  Terms whose upper bounds (weight x highest impact) sum to
-- less than theta, taken from the smallest, are optional: a chunk holding only those cannot
-- reach the top.  So the answer lies among chunks holding an essential term -- their
-- postings are read in full -- and of those only chunks whose partial score plus the
-- optional terms' bounds reaches theta are completed, by primary-key probes.
split AS MATERIALIZED (
    SELECT b.term, b.w, b.avgdl, b.ub,
           sum(b.ub) OVER (ORDER BY b.ub, b.term) < (SELECT value FROM theta) AS optional
    FROM (
        SELECT w.term, w.w, w.avgdl,
               w.w * m.impact * (SELECT drift FROM stats) AS ub
        FROM weights w
        CROSS JOIN LATERAL (
            SELECT p.impact::float8 AS impact FROM bm25_postings p
            WHERE p.tenant_id = :tenant AND p.term = w.term
            ORDER BY p.impact DESC LIMIT 1
        ) m
    ) b
),
partial AS MATERIALIZED (
    SELECT p.chunk_id, {score} AS score
    FROM split weights
    JOIN bm25_postings p ON p.tenant_id = :tenant AND p.term = weights.term{bm25_filter}
    WHERE NOT weights.optional
    GROUP BY p.chunk_id
    HAVING {score} + (SELECT coalesce(sum(ub) FILTER (WHERE optional), 0.0::float8) FROM split)
           >= (SELECT value FROM theta)
),
completed AS (
    SELECT c.chunk_id, c.score + coalesce(o.score, 0.0::float8) AS score
    FROM partial c
    CROSS JOIN LATERAL (
        SELECT {score} AS score
        FROM split weights
        JOIN bm25_postings p ON p.tenant_id = :tenant AND p.term = weights.term AND p.chunk_id = c.chunk_id
        WHERE weights.optional
    ) o
),
bm25 AS (
    SELECT chunk_id, score, row_number() OVER (ORDER BY score DESC, chunk_id) AS rank
    FROM (
        SELECT chunk_id, score FROM exact WHERE (SELECT path FROM safe) = 'exact'
        UNION ALL
        SELECT chunk_id, score FROM (
            -- The candidates' exact scores fill the ranks below theta that MaxScore pruned.
            SELECT chunk_id, max(score) AS score
            FROM (SELECT chunk_id, score FROM completed UNION ALL SELECT chunk_id, score FROM exact) m
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
            JOIN bm25_postings p ON p.tenant_id = :tenant AND p.term = weights.term{bm25_filter}
            GROUP BY p.chunk_id
            ORDER BY score DESC, p.chunk_id
            LIMIT :candidates
        ) scan
        WHERE (SELECT path FROM safe) = 'scan'
    ) scored
)
""".replace("{score}", _SCORE)

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
        JOIN chunks c ON c.id = f.chunk_id AND c.tenant_id = :tenant
        ORDER BY {distinct}, f.score DESC, f.chunk_id
    ) best
    ORDER BY score DESC, chunk_id
    LIMIT :k
)
SELECT sd.external_id AS document_id, r.chunk_id, r.score, c.text, c.heading_path, c.page_start,
       c.page_end, r.dense_rank, r.dense_score, r.bm25_rank, r.bm25_score, sd.title, sd.mime_type
FROM ranked r
JOIN chunks c ON c.id = r.chunk_id
JOIN search_documents sd ON sd.id = r.search_document_id
ORDER BY r.score DESC, r.chunk_id
"""


def build_sql(mode: Mode, collapse: bool, filtered: bool = False, fusion: Fusion = "rrf") -> str:
    bm25 = _BM25_CTE.replace(
        "{bm25_filter}",
        "\n        JOIN chunks fc ON fc.id = p.chunk_id" + _FILTER_JOIN.format(chunk="fc")
        if filtered else "")
    dense = _DENSE_CTE.replace("{dense_filter}", _FILTER_JOIN.format(chunk="c") if filtered else "")
    ctes = {"hybrid": [dense, bm25], "bm25": [bm25], "dense": [dense]}[mode]
    distinct = "c.search_document_id" if collapse else "f.chunk_id"
    fused = _WEIGHTED if mode == "hybrid" and fusion == "weighted" else _FUSED[mode]
    return ("WITH " + ",".join(ctes + [fused]) + _SELECT.format(distinct=distinct))


def _bind(tenant_id: str, terms: list[str], k: int, collapse: bool,
          params: SearchParams) -> dict[str, object]:
    return {
        "tenant": tenant_id, "k": k, "terms": terms, "k1": params.k1, "b": params.b,
        "rrf_k": params.rrf_k, "candidates": max(params.candidates, k * (4 if collapse else 1)),
        "alpha": params.alpha, "depth": params.bm25_depth, "scan_below": params.bm25_scan_below,
        # The ranks that must be exact: what the caller will see (k documents may need up to
        # 4k chunks).  Candidates ranked below them come from the two-phase path as they are.
        "exact_k": k * (4 if collapse else 1),
    }


def bm25_path(conn: Connection, tenant_id: str, query: str, k: int = 10, collapse: bool = True,
              params: SearchParams | None = None) -> str:
    """Which path answers this BM25 query ('scan', 'exact' or 'maxscore'); for benchmarks
    and tests."""
    sql = "WITH " + _BM25_CTE.replace("{bm25_filter}", "") + "SELECT (SELECT path FROM safe) AS path"
    bind = _bind(tenant_id, analyze(query), k, collapse, params or SearchParams())
    return str(conn.execute(text(sql), bind).scalar_one())


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
    bind = _bind(tenant_id, terms, k, collapse, params)
    if mode != "bm25":
        if query_vector is None:
            query_vector = embed([query])[0]
        bind["qvec"] = vector_literal(query_vector)
        # Iterative scans keep filtered HNSW searches from returning fewer rows than asked.
        conn.execute(text("SELECT set_config('hnsw.ef_search', :ef, true), "
                          "set_config('hnsw.iterative_scan', 'relaxed_order', true)"),
                     {"ef": str(max(params.ef_search, bind["candidates"]))})
    filtered = filters is not None and filters.active
    if filtered:
        assert filters is not None
        bind.update({
            "f_docs": filters.document_ids or None, "f_job": filters.job_id,
            "f_meta": json.dumps(filters.metadata) if filters.metadata else None,
            "f_mimes": filters.mime_types or None, "f_after": filters.indexed_after,
            "f_before": filters.indexed_before})
    rows = conn.execute(text(build_sql(mode, collapse, filtered, params.fusion)), bind).mappings().all()
    return [Hit(**{**row, "heading_path": list(row["heading_path"] or []),
                   "snippet": snippet(row["text"], query) if snippets else None}) for row in rows]
