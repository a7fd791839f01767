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

from indexing import store
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
    inlined = re.compile(r"\(p\.tf\)::double precision")
    with engine.begin() as conn:
        _index(conn, tenant, "a", "alpha beta beta gamma", DEFAULTS.k1, DEFAULTS.b)
        for rounds, collapse, filtered in ((3, True, False), (1, False, True)):
            params = replace(DEFAULTS, bm25_rounds=rounds)
            binds = {**bind_parameters(tenant, ["alpha", "beta"], 10, collapse, params),
                     **(dict.fromkeys(_FILTER_BINDS) if filtered else {})}
            plan = _plan(conn, build_sql("bm25", collapse, filtered, rounds=rounds), binds)
            assert "bm25_term_score(" not in plan and inlined.search(plan), (rounds, collapse)
        plan = _plan(conn, str(store._REFRESH_IMPACTS), {"tenant": tenant})
        assert "bm25_term_score(" not in plan and inlined.search(plan)
        chunks = [Chunk("alpha delta", (), None, None, 2)]
        doc = store.IndexedDocument(tenant, "x", None, None, "s", None, None, "{}")
        binds = store._chunk_params(
            tenant, [0], [store.DocumentWrite(doc, chunks, np.full((1, 384), 0.05, dtype=np.float32))])
        plan = _plan(conn, str(store._INSERT_CHUNKS_AND_POSTINGS), binds)
        assert "bm25_term_score(" not in plan and inlined.search(plan)
        definition = conn.execute(text("""
            SELECT p.provolatile, p.proparallel, p.proconfig IS NULL AS no_settings, l.lanname
            FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
            WHERE p.proname = 'bm25_term_score'""")).one()
        assert tuple(definition) == ("i", "s", True, "sql")


_IMPACTS = text("""
    SELECT p.impact, CAST(bm25_term_score(1.0, p.tf, p.doc_length, s.impact_avgdl,
                                          s.impact_k1, s.impact_b) AS real) AS by_function,
           -- The formula as both writers spelled it out before migration 0013.
           CAST(p.tf * (s.impact_k1 + 1) / (p.tf + s.impact_k1 * (1 - s.impact_b
                + s.impact_b * p.doc_length / s.impact_avgdl)) AS real) AS by_formula,
           s.impact_k1, s.impact_b
    FROM bm25_postings p JOIN bm25_terms t ON t.id = p.term_id
    JOIN bm25_stats s ON s.tenant_id = t.tenant_id WHERE t.tenant_id = :t""")


def test_both_writers_store_the_function_at_weight_one_as_the_formula_gave_it(engine, tenant):
    with engine.begin() as conn:
        for i, body in enumerate(["alpha beta beta gamma", "alpha " * 7 + "delta", "beta gamma"]):
            _index(conn, tenant, f"d{i}", body, 1.3, 0.6)
        written = conn.execute(_IMPACTS, {"t": tenant}).all()
        refreshed = refresh_impacts(conn, tenant, k1=1.1, b=0.7)
        rewritten = conn.execute(_IMPACTS, {"t": tenant}).all()
    assert refreshed == len(written) == len(rewritten) == 7
    for rows, k1_b in ((written, (1.3, 0.6)), (rewritten, (1.1, 0.7))):
        assert all(r.impact == r.by_function == r.by_formula for r in rows)
        assert {(r.impact_k1, r.impact_b) for r in rows} == {k1_b}
    assert [r.impact for r in written] != [r.impact for r in rewritten]


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
