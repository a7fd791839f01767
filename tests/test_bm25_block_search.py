"""BM25 search over postings in blocks (indexing/sql/bm25.sql) gives the exact scan's top-k
on every path: blocks of four postings and champion lists of sixteen, so that a corpus of a few
hundred one-chunk documents has cut terms, level rounds, lists read whole, essential blocks
and the sweep, lead passes by probes and by merges -- and unmerged writes and tombstones on
top, with and without collapse and filters, in and out of budget."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import numpy as np
import pytest
from sqlalchemy import Connection, Engine, text

from indexing.analyzer import analyze
from indexing.bm25_merge import LIVE_SQL, rebuild
from indexing.chunking import Chunk
from indexing.ranking import DEFAULTS, SearchParams
from indexing.search import LEAD_PASSES, Filters, bind_parameters, bm25_ctes, search
from indexing.store import DocumentWrite, IndexedDocument, delete_document, replace_documents

VOCAB = [f"w{i}" for i in range(80)]

#: Every chunk's exact BM25 score for the query terms, straight from the live postings
#: (bm25_merge.LIVE_SQL: the blocks decoded less tombstones, and the delta; the service's
#: formula, Lucene's IDF).
_EXACT = text(f"""
WITH q AS (SELECT term, count(*)::float8 AS qtf FROM unnest(CAST(:terms AS text[])) AS term GROUP BY term),
s AS (SELECT chunk_count::float8 AS n, total_length::float8 / greatest(chunk_count, 1) AS avgdl
      FROM bm25_stats WHERE tenant_id = :tenant),
w AS (SELECT t.id AS term_id, q.qtf * ln(1.0::float8 + (s.n - t.df + 0.5) / (t.df + 0.5)) AS w, s.avgdl
      FROM q JOIN bm25_terms t ON t.tenant_id = :tenant AND t.term = q.term CROSS JOIN s)
SELECT l.chunk_id,
       sum(bm25_term_score(w.w, l.tf, l.len, w.avgdl, CAST(:k1 AS float8), CAST(:b AS float8))) AS score
FROM ({LIVE_SQL}) l JOIN w ON w.term_id = l.term_id
GROUP BY l.chunk_id ORDER BY score DESC, l.chunk_id LIMIT :k""")



def _documents(tenant: str, names: range, seed: int) -> list[DocumentWrite]:
    """One-chunk documents d<name> of Zipf-like text over 80 terms: common terms hold most
    chunks, lengths vary (so impacts differ), and tfs repeat (so scores tie)."""
    rng = random.Random(seed)
    writes = []
    for i in names:
        words = [VOCAB[min(int(rng.paretovariate(0.9)) - 1, len(VOCAB) - 1)]
                 for _ in range(rng.randint(4, 40))]
        doc = IndexedDocument(tenant, f"d{i}", None, None, f"sha{i}-{seed}", "text/plain", None, "{}")
        vector = np.random.default_rng(i).normal(size=(1, 384)).astype(np.float32)
        writes.append(DocumentWrite(doc, [Chunk(" ".join(words), (), None, None, len(words))], vector))
    return writes


def _queries() -> list[str]:
    rng = random.Random(9)
    return [" ".join(VOCAB[min(int(rng.paretovariate(0.7)) - 1, len(VOCAB) - 1)]
                     for _ in range(rng.randint(1, 5))) for _ in range(40)] + ["w0 w0 w1", "nope"]


def _corpus(engine: Engine, tenant: str, writes_after: bool) -> None:
    """600 documents cut into blocks of 4 with champions of 16; with ``writes_after``, then 60
    deleted and 40 replaced (tombstones) and the 40 and 80 new ones left in the delta."""
    with engine.begin() as conn:
        replace_documents(conn, _documents(tenant, range(600), 5), k1=DEFAULTS.k1, b=DEFAULTS.b)
        rebuild(conn, tenant, block=4, champions=16)
    if writes_after:
        with engine.begin() as conn:
            for i in range(60):
                assert delete_document(conn, tenant, f"d{i}")
            written = _documents(tenant, range(100, 140), 6) + _documents(tenant, range(600, 680), 7)
            replace_documents(conn, written, k1=DEFAULTS.k1, b=DEFAULTS.b)


def _exact(conn: Connection, tenant: str, query: str, k: int = 10) -> list[tuple[int, float]]:
    return [(r.chunk_id, r.score) for r in conn.execute(_EXACT, {
        "tenant": tenant, "terms": analyze(query), "k": k, "k1": DEFAULTS.k1, "b": DEFAULTS.b})]


def agrees(got: list[tuple[int, float]], exact: list[tuple[int, float]]) -> bool:
    """The same scores rank by rank (relative 1e-9), and the same chunks but where scores tie
    (float rounding of the sums may order ties either way; a tie at the k-th rank may bring in
    another chunk of that score)."""
    if len(got) != len(exact):
        return False
    if not all(math.isclose(g[1], e[1], rel_tol=1e-9, abs_tol=1e-12)
               for g, e in zip(got, exact, strict=True)):
        return False
    last = exact[-1][1] if exact else 0.0
    strict = {c for c, s in exact if not math.isclose(s, last, rel_tol=1e-9)}
    return strict <= {c for c, _ in got}


#: What each step of a query did, from the statement's own CTEs (context: bm25_ctes).
_DID = """
SELECT (SELECT path FROM safe) AS path, (SELECT count(*) FROM rests WHERE cut) AS cut,
       (SELECT count(*) FROM rests WHERE depth IS NOT NULL AND NOT cut) AS whole,
       (SELECT count(*) FROM essential) AS essential, (SELECT count(*) FROM partial) AS unseen,
       (SELECT count(*) FROM led0) - (SELECT count(*) FROM led{leads}) AS dropped,
       {merged} AS merged, {probed} AS probed, {third} AS third"""


def _did(conn: Connection, tenant: str, query: str, params: SearchParams, collapse: bool):
    merged = " + ".join(f"(SELECT count(*) FROM touched{i})" for i in range(1, LEAD_PASSES + 1))
    probed = " + ".join(f"(SELECT count(*) FROM need{i} WHERE NOT (SELECT v FROM merge{i}))"
                        for i in range(1, LEAD_PASSES + 1))
    # Round 3 ran: it reads every champion, after round 2 read those above its level.
    third = "(SELECT count(*) FROM rests3)" if params.bm25_rounds >= 3 else "0"
    sql = "WITH " + bm25_ctes(params.bm25_rounds, collapse) + _DID.format(
        leads=LEAD_PASSES, merged=merged, probed=probed, third=third)
    return conn.execute(text(sql), bind_parameters(tenant, analyze(query), 10, collapse, params)).one()


#: (depth, rounds, whole, probe): depth 4 is one champion block; whole 0 cuts every term with
#: champions, 2 reads a list of up to twice a round's champions whole.
_SETTINGS = [SearchParams(bm25_scan_below=0, bm25_depth=depth, bm25_rounds=rounds, bm25_whole=whole,
                          bm25_probe=probe, candidates=candidates)
             for depth, rounds, whole, probe, candidates in
             ((4, 1, 0.0, 3, 10), (4, 2, 0.0, 1, 10), (4, 3, 0.0, 3, 10), (8, 3, 2.0, 20, 10),
              (4, 3, 0.0, 1, 100))]


@pytest.mark.parametrize("writes_after", [False, True])
def test_every_path_gives_the_exact_top_k(engine, tenant, writes_after):
    _corpus(engine, tenant, writes_after)
    taken = {"exact1": 0, "exact2": 0, "maxscore": 0, "cut": 0, "whole": 0, "essential": 0, "unseen": 0,
             "dropped": 0, "merged": 0, "probed": 0, "third": 0}
    with engine.connect() as conn:
        for query in _queries():
            want = _exact(conn, tenant, query)
            for params in _SETTINGS:
                got = search(conn, tenant, query, k=10, mode="bm25", collapse=False, params=params,
                             snippets=False)
                assert agrees([(h.chunk_id, h.score) for h in got], want), (query, params)
                did = _did(conn, tenant, query, params, False)
                taken[did.path] = taken.get(did.path, 0) + 1
                for key in ("cut", "whole", "essential", "unseen", "dropped", "merged", "probed", "third"):
                    taken[key] += bool(getattr(did, key))
            conn.rollback()
    assert all(taken.values()), taken


def test_unmerged_writes_and_tombstones_are_read(engine, tenant):
    """Without the delta the new documents go missing, without the tombstones deleted ones
    come back: each table changes some answers."""
    _corpus(engine, tenant, writes_after=True)
    params = _SETTINGS[2]
    with engine.connect() as conn:
        wants = {q: _exact(conn, tenant, q) for q in _queries()}
        for table in ("bm25_dead", "bm25_delta"):
            conn.execute(text(f"DELETE FROM {table} WHERE true"))
            wrong = sum(not agrees([(h.chunk_id, h.score) for h in search(
                conn, tenant, q, k=10, mode="bm25", collapse=False, params=params, snippets=False)], want)
                for q, want in wants.items())
            conn.rollback()
            assert wrong >= 5, (table, wrong)


def test_collapse_filters_and_budget_keep_their_contracts(engine, tenant):
    """Collapsed and filtered searches give the plain scan's answer on every setting; out of
    budget (bm25_exact off) each hit is exactly scored and the path says 'budget'."""
    _corpus(engine, tenant, writes_after=True)
    plain = SearchParams(bm25_scan_below=10**9)
    some = Filters(document_ids=[f"d{i}" for i in range(0, 700, 3)])
    budget = 0
    with engine.connect() as conn:
        for query in _queries():
            every = dict(_exact(conn, tenant, query, k=10_000))
            for collapse, filters in ((True, None), (False, some), (True, some)):
                full = search(conn, tenant, query, k=10, mode="bm25", collapse=collapse, params=plain,
                              filters=filters, snippets=False)
                assert {h.bm25_path for h in full} <= {"scan"}
                if filters is not None:
                    assert all(int(h.document_id[1:]) % 3 == 0 for h in full)
                for params in _SETTINGS:
                    got = search(conn, tenant, query, k=10, mode="bm25", collapse=collapse, params=params,
                                 filters=filters, snippets=False)
                    assert agrees([(h.chunk_id, h.score) for h in got],
                                  [(h.chunk_id, h.score) for h in full]), (query, collapse, params)
            bounded = search(conn, tenant, query, k=10, mode="bm25", collapse=False, snippets=False,
                             params=replace(_SETTINGS[0], bm25_exact=False, bm25_complete_limit=2))
            for hit in bounded:
                assert math.isclose(hit.score, every[hit.chunk_id], rel_tol=1e-9), (query, hit)
            budget += bool(bounded) and bounded[0].bm25_path == "budget"
            conn.rollback()
    assert budget >= 3, budget
