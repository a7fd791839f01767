"""The search statement as files: the rendered references are current, every variant renders
with only the binds search gives, and BM25's term contribution is one inlined SQL function
(migration 0013) that search and both impact writers call."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

import numpy as np
import pytest
from sqlalchemy import text

from indexing import bm25_merge, store
from indexing.bm25_layout import BLOCK
from indexing.chunking import Chunk
from indexing.ranking import DEFAULTS, FUSIONS, NORMALISATIONS
from indexing.search import MODES, bind_parameters, build_path_sql, build_sql
from indexing.store import IndexedDocument, refresh_impacts, replace_document
from tests.render_search_sql import COMMAND, REFERENCES, VARIANTS

_FILTER_BINDS = {"f_docs", "f_job", "f_meta", "f_mimes", "f_after", "f_before"}


def test_the_checked_in_statements_are_what_the_templates_render():
    stale = [v.name for v in VARIANTS
             if not (REFERENCES / v.name).exists() or (REFERENCES / v.name).read_text() != v.render()]
    extra = sorted({p.name for p in REFERENCES.glob("*.sql")} - {v.name for v in VARIANTS})
    assert not stale and not extra, (
        f"tests/search_sql/ is out of date ({stale or extra}): run `{COMMAND}` and review the diff")


def _binds(sql: str) -> set[str]:
    # SQLAlchemy's own reading of the statement's :name parameters.
    return set(text(sql)._bindparams)


def test_every_variant_renders_with_the_binds_search_gives():
    def given(rounds: int) -> set[str]:
        return set(bind_parameters("t", ["a"], 10, True, replace(DEFAULTS, bm25_rounds=rounds))) | {"qvec"}

    for mode, collapse, filtered, fusion, rounds, norm in itertools.product(
            MODES, (False, True), (False, True), FUSIONS, (1, 2, 3, 4), NORMALISATIONS):
        sql = build_sql(mode, collapse, filtered, fusion, rounds, norm)
        assert "{{" not in sql and "{%" not in sql and "{#" not in sql
        binds = _binds(sql)
        assert binds <= given(rounds) | (_FILTER_BINDS if filtered else set()), binds - given(rounds)
        assert filtered == bool(binds & _FILTER_BINDS)
        # The term contribution is written once, in the function; search only calls it.
        assert ("bm25_term_score(" in sql) == (mode != "dense")
        assert "k1 + 1" not in sql and "(k1" not in sql
        assert len(re.findall(r"\bproven(\d+) AS", sql)) == (0 if mode == "dense" else rounds)
    assert _binds(build_path_sql(3, True)) <= given(3)
    with pytest.raises(ValueError, match="at least 1"):
        build_sql("bm25", True, rounds=0)


def _index(conn, tenant: str, name: str, body: str, k1: float, b: float) -> None:
    doc = IndexedDocument(tenant, name, None, None, name, "text/plain", None, "{}")
    replace_document(conn, doc, [Chunk(body, (), None, None, len(body.split()))],
                     np.full((1, 384), 0.05, dtype=np.float32), k1=k1, b=b)


def _plan(conn, sql: str, binds: dict[str, object]) -> str:
    return "\n".join(conn.execute(text("EXPLAIN (VERBOSE) " + sql), binds).scalars())


def test_bm25_term_score_is_inlined_where_search_and_the_writers_call_it(engine, tenant):
    """PostgreSQL inlines the function: the plans show its arithmetic on the postings' columns,
    never a call, so it costs what the written-out expression cost."""
    # (A decoded posting's tf, from the union of a term's sources: "*SELECT* 1".tf.)
    inlined = re.compile(r"\(\"\*SELECT\* \d\"\.tf\)::double precision")
    with engine.begin() as conn:
        _index(conn, tenant, "a", "alpha beta beta gamma", DEFAULTS.k1, DEFAULTS.b)
        for rounds, collapse, filtered in ((3, True, False), (1, False, True)):
            params = replace(DEFAULTS, bm25_rounds=rounds)
            binds = {**bind_parameters(tenant, ["alpha", "beta"], 10, collapse, params),
                     **(dict.fromkeys(_FILTER_BINDS) if filtered else {})}
            plan = _plan(conn, build_sql("bm25", collapse, filtered, rounds=rounds), binds)
            assert "bm25_term_score(" not in plan and inlined.search(plan), (rounds, collapse)
        # Impacts are computed by the merge since migration 0030 (the writers store none): its
        # statements read temporary tables, made first.
        for statement in (*bm25_merge._NEW, *bm25_merge._DEAD, *bm25_merge._ROOM):
            conn.execute(statement, {"tenant": tenant, "block": BLOCK})
        for statement in (bm25_merge._APPEND, bm25_merge._DROP_DEAD):
            plan = _plan(conn, str(statement), {"tenant": tenant, "block": BLOCK})
            assert "bm25_term_score(" not in plan and "(s.impact_k1 + '1'::double precision)" in plan
        definition = conn.execute(text("""
            SELECT p.provolatile, p.proparallel, p.proconfig IS NULL AS no_settings, l.lanname
            FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
            WHERE p.proname = 'bm25_term_score'""")).one()
        assert tuple(definition) == ("i", "s", True, "sql")


_IMPACTS = text("""
    SELECT b.max_impact,
           CAST(max(bm25_term_score(1.0, u.tf, u.len, s.impact_avgdl, s.impact_k1, s.impact_b))
                * (1.0::float8 + 1e-6) AS real) AS by_function,
           -- The formula as both writers spelled it out before migration 0013.
           CAST(max(u.tf * (s.impact_k1 + 1) / (u.tf + s.impact_k1 * (1 - s.impact_b
                + s.impact_b * u.len / s.impact_avgdl))) * (1.0::float8 + 1e-6) AS real) AS by_formula,
           s.impact_k1, s.impact_b, count(*) AS postings
    FROM bm25_blocks b JOIN bm25_terms t ON t.id = b.term_id
    CROSS JOIN LATERAL unnest(coalesce(b.offs2::int4[], b.offs4), b.tfs, b.lens) AS u(off, tf, len)
    JOIN bm25_stats s ON s.tenant_id = t.tenant_id WHERE t.tenant_id = :t
    GROUP BY b.term_id, b.last_chunk, b.max_impact, s.impact_k1, s.impact_b
    ORDER BY b.term_id""")


def test_block_bounds_are_the_function_at_weight_one_as_the_formula_gave_it(engine, tenant):
    """Impacts are not stored per posting since migration 0030: a block's max_impact is the
    best of its postings' (rounded up), recomputed by every merge and rebuild."""
    from indexing.bm25_merge import merge

    with engine.begin() as conn:
        for i, body in enumerate(["alpha beta beta gamma", "alpha " * 7 + "delta", "beta gamma"]):
            _index(conn, tenant, f"d{i}", body, 1.3, 0.6)
        merge(conn, tenant)
        written = conn.execute(_IMPACTS, {"t": tenant}).all()
        refreshed = refresh_impacts(conn, tenant, k1=1.1, b=0.7)
        rewritten = conn.execute(_IMPACTS, {"t": tenant}).all()
    assert refreshed == sum(r.postings for r in written) == sum(r.postings for r in rewritten) == 7
    for rows, k1_b in ((written, (1.3, 0.6)), (rewritten, (1.1, 0.7))):
        assert all(r.max_impact == r.by_function == r.by_formula for r in rows)
        assert {(r.impact_k1, r.impact_b) for r in rows} == {k1_b}
    assert [r.max_impact for r in written] != [r.max_impact for r in rewritten]


def test_dense_search_orders_by_the_hnsw_graph(engine, tenant):
    """The distance is the column's own operator (halfvec <=> halfvec since migration 0027), so
    the graph can answer ORDER BY distance: with sorting and plain scans priced out the plan
    still finds a way, and it is the graph (a distance it cannot answer, such as one over the
    column cast back to vector, leaves only a sort)."""
    with engine.begin() as conn:
        _index(conn, tenant, "a", "alpha beta", DEFAULTS.k1, DEFAULTS.b)
        for setting in ("enable_sort", "enable_seqscan", "enable_bitmapscan"):
            conn.execute(text(f"SET LOCAL {setting} = off"))
        binds = {**bind_parameters(tenant, ["alpha"], 10, False, DEFAULTS),
                 "qvec": store.vector_literal(np.full(384, 0.05, dtype=np.float32))}
        for mode in ("dense", "hybrid"):
            plan = _plan(conn, build_sql(mode, False, False, rounds=DEFAULTS.bm25_rounds), binds)
            assert "Index Scan using chunks_embedding_hnsw" in plan, (mode, plan)
