"""BM25 from the postings tables: scores equal the rank-bm25 oracle (Lucene IDF), and the
statistics stay exact through re-index and delete."""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import replace

import numpy as np
import pytest
from rank_bm25 import BM25Okapi
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from app.domain.auth import ensure_tenant
from indexing.analyzer import analyze
from indexing.bm25_merge import LIVE_SQL, live_postings, rebuild
from indexing.chunking import Chunk
from indexing.ranking import DEFAULTS, FUSIONS
from indexing.search import Filters, SearchParams, bind_parameters, bm25_path, build_sql, search
from indexing.store import (
    DocumentWrite,
    IndexedDocument,
    delete_document,
    replace_document,
    replace_documents,
)

VOCAB = [f"word{i}" for i in range(60)] + ["protein", "cells", "cancer", "v2.3.1", "tumour"]

# Every mode, hybrid under each fusion (the default is only one of them).
MODES_AND_FUSIONS = [("bm25", DEFAULTS.fusion), ("dense", DEFAULTS.fusion),
                     *(("hybrid", fusion) for fusion in FUSIONS)]


class LuceneBM25(BM25Okapi):
    """rank-bm25 with Lucene's IDF, ln(1 + (N - df + 0.5) / (df + 0.5))."""

    def _calc_idf(self, nd):
        for word, freq in nd.items():
            self.idf[word] = math.log(1 + (self.corpus_size - freq + 0.5) / (freq + 0.5))


def _random_text(rng: random.Random) -> str:
    n = rng.randint(3, 60)
    # Zipf-like: low indices far more frequent, so df varies widely.
    return " ".join(VOCAB[min(int(rng.paretovariate(1.2)) - 1, len(VOCAB) - 1)] for _ in range(n))


def _padded(words: list[str]) -> str:
    """Every chunk 16 tokens long, so that impacts order by tf alone."""
    return " ".join(words + ["zzfill"] * (16 - len(words)))


def _index(engine, tenant: str, external_id: str, body: str,
           metadata: str = "{}", mime_type: str = "text/plain", vector=None,
           k1: float = DEFAULTS.k1, b: float = DEFAULTS.b) -> None:
    doc = IndexedDocument(tenant_id=tenant, external_id=external_id, source_document_id=None,
                          job_id=None, content_sha256=str(hash(body)), mime_type=mime_type,
                          title=None, metadata_json=metadata)
    chunk = Chunk(body, (), None, None, len(body.split()))
    if vector is None:
        vec = np.random.default_rng(abs(hash(external_id)) % 2**32).normal(size=(1, 384))
        vec /= np.linalg.norm(vec)
    else:
        vec = np.asarray(vector, dtype=np.float32).reshape(1, 384)
    with engine.begin() as conn:
        replace_document(conn, doc, [chunk], vec.astype(np.float32), k1=k1, b=b)


def _index_random_corpus(engine, tenant: str) -> None:
    """400 documents doc0..doc399 of Zipf-like random text, the same every time."""
    rng = random.Random(11)
    for i in range(400):
        _index(engine, tenant, f"doc{i}", _random_text(rng))


def _stats(engine, tenant: str):
    with engine.connect() as conn:
        terms = conn.execute(text(
            "SELECT term, df FROM bm25_terms WHERE tenant_id = :t ORDER BY term"), {"t": tenant}).all()
        stats = conn.execute(text(
            "SELECT chunk_count, total_length FROM bm25_stats WHERE tenant_id = :t"), {"t": tenant}).one()
        postings = len(live_postings(conn, tenant))
    # Terms stay in the dictionary at df 0 (blocks may hold their dead postings until a merge).
    return [tuple(r) for r in terms if r.df > 0], tuple(stats), postings


def test_scores_equal_rank_bm25_with_lucene_idf(engine, tenant):
    rng = random.Random(7)
    corpus = {f"d{i}": _random_text(rng) for i in range(80)}
    for doc_id, body in corpus.items():
        _index(engine, tenant, doc_id, body)
    ids = list(corpus)
    oracle = LuceneBM25([analyze(corpus[i]) for i in ids], k1=0.9, b=0.4)
    for query in ["protein cells", "word0 word3 cancer", "tumour tumour word12", "v2.3.1"]:
        expected = dict(zip(ids, oracle.get_scores(analyze(query)), strict=True))
        with engine.begin() as conn:
            hits = search(conn, tenant, query, k=100, mode="bm25", collapse=False,
                          params=SearchParams(k1=0.9, b=0.4, candidates=100))
        assert hits, query
        got = {h.document_id: h.bm25_score for h in hits}
        for doc_id, score in got.items():
            assert score == pytest.approx(expected[doc_id], rel=1e-6), (query, doc_id)
        # Every document the oracle scores above zero is returned.
        assert {d for d, s in expected.items() if s > 0} == set(got)


def test_reindex_and_delete_restore_exact_statistics(engine, tenant):
    rng = random.Random(11)
    bodies = {f"d{i}": _random_text(rng) for i in range(12)}
    for doc_id, body in bodies.items():
        _index(engine, tenant, doc_id, body)
    before = _stats(engine, tenant)

    # Re-index one document with other content, then back: statistics return exactly.
    _index(engine, tenant, "d3", "entirely different words protein protein")
    assert _stats(engine, tenant) != before
    _index(engine, tenant, "d3", bodies["d3"])
    assert _stats(engine, tenant) == before

    # Deleting documents leaves exactly what a fresh index of the rest would hold.
    with engine.begin() as conn:
        assert delete_document(conn, tenant, "d0")
        assert delete_document(conn, tenant, "d5")
        assert not delete_document(conn, tenant, "missing")
    with engine.begin() as conn:
        fresh = ensure_tenant(conn, f"fresh-{tenant}")
    for doc_id, body in bodies.items():
        if doc_id not in ("d0", "d5"):
            _index(engine, fresh, doc_id, body)
    assert _stats(engine, tenant) == _stats(engine, fresh)


def _index_contents(engine, tenant: str) -> dict[str, object]:
    """Everything the index holds for a tenant, without row ids."""
    with engine.connect() as conn:
        chunks = conn.execute(text("""
            SELECT d.external_id, c.chunk_no, c.text, c.bm25_length, c.embedding::text AS vec
            FROM chunks c JOIN search_documents d ON d.id = c.search_document_id
            WHERE c.tenant_id = :t ORDER BY 1, 2"""), {"t": tenant}).all()
        postings = conn.execute(text(f"""
            SELECT d.external_id, c.chunk_no, t.term, p.tf, p.len
            FROM ({LIVE_SQL}) p JOIN bm25_terms t ON t.id = p.term_id
            JOIN chunks c ON c.id = p.chunk_id JOIN search_documents d ON d.id = c.search_document_id
            WHERE c.tenant_id = :t ORDER BY 1, 2, 3"""), {"t": tenant, "tenant": tenant}).all()
        terms = conn.execute(text("SELECT term, df FROM bm25_terms WHERE tenant_id = :t AND df > 0 "
                                  "ORDER BY term"), {"t": tenant}).all()
        stats = conn.execute(text("""SELECT chunk_count, total_length, impact_avgdl, impact_k1, impact_b
                                     FROM bm25_stats WHERE tenant_id = :t"""), {"t": tenant}).one()
        documents = conn.execute(text("""SELECT external_id, chunk_count, content_sha256 FROM search_documents
                                         WHERE tenant_id = :t ORDER BY 1"""), {"t": tenant}).all()
    return {"chunks": chunks, "postings": postings, "terms": terms, "stats": stats, "documents": documents}


def test_documents_written_together_index_as_written_one_by_one(engine, tenant):
    """replace_documents (a batch's documents in one set of statements) leaves the index, its
    postings, document frequencies and statistics exactly as writing each alone does, also
    when it replaces documents indexed before; the first write's average length sets the
    impacts' parameters either way."""
    rng = random.Random(5)

    def corpus(version: int) -> list[DocumentWrite]:
        writes = []
        for i in range(12):
            bodies = [_random_text(rng) for _ in range(1 + (i + version) % 3)] if i != 7 else []
            chunks = [Chunk(b, ("Part", f"p{n}"), n + 1, n + 1, len(b.split())) for n, b in enumerate(bodies)]
            vectors = np.random.default_rng(i * 10 + version).normal(size=(len(chunks), 384))
            writes.append(DocumentWrite(IndexedDocument(tenant, f"d{i}", None, None, f"v{version}-{i}",
                                                        "text/plain", None, "{}"), chunks,
                                        vectors.astype(np.float32)))
        return writes

    first, second = corpus(0), corpus(1)
    with engine.begin() as conn:
        together = ensure_tenant(conn, f"together-{tenant}")
    for writes, replacing in ((first, False), (second[3:9], True)):
        with engine.begin() as conn:
            moved = [replace(w, doc=replace(w.doc, tenant_id=together)) for w in writes]
            ids = replace_documents(conn, moved, k1=DEFAULTS.k1, b=DEFAULTS.b)
        assert len(set(ids)) == len(writes)
        for w in writes:
            with engine.begin() as conn:
                replace_document(conn, w.doc, w.chunks, w.vectors, k1=DEFAULTS.k1, b=DEFAULTS.b)
        if not replacing:
            # One by one, the first document's length set the parameters: give the tenant the
            # batch's, as the write together did, for a like-for-like comparison.
            with engine.begin() as conn:
                conn.execute(text("""UPDATE bm25_stats SET impact_avgdl = o.impact_avgdl FROM bm25_stats o
                                     WHERE bm25_stats.tenant_id = :t AND o.tenant_id = :o"""),
                             {"t": tenant, "o": together})
        assert _index_contents(engine, together) == _index_contents(engine, tenant)
    with engine.begin() as conn, pytest.raises(ValueError, match="twice"):
        replace_documents(conn, [first[0], first[0]], k1=DEFAULTS.k1, b=DEFAULTS.b)


def test_postings_of_a_term_missing_from_the_dictionary_are_refused(engine, tenant):
    _index(engine, tenant, "d", "protein folding")
    with engine.connect() as conn:
        chunk = conn.execute(text("SELECT id FROM chunks WHERE tenant_id = :t"), {"t": tenant}).scalar_one()
        unknown = conn.execute(text("SELECT max(id) + 1 FROM bm25_terms")).scalar_one()
    # A writer that skipped entering the term: the posting would be invisible to search and
    # to df, so the statement fails instead.
    with pytest.raises(IntegrityError, match="not in bm25_terms"), engine.begin() as conn:
        conn.execute(text("INSERT INTO bm25_delta (term_id, chunk_id, tf, doc_length) "
                          "VALUES (:id, :c, 1, 2)"), {"id": unknown, "c": chunk})
    assert _stats(engine, tenant)[2] == 2


def test_reindexing_never_duplicates_chunks(engine, tenant):
    for _ in range(3):
        _index(engine, tenant, "same", "protein folding in cells")
    with engine.connect() as conn:
        n = conn.execute(text("SELECT count(*) FROM chunks WHERE tenant_id = :t"),
                         {"t": tenant}).scalar_one()
    assert n == 1


def test_search_never_crosses_tenants(engine, tenant):
    with engine.begin() as conn:
        other = ensure_tenant(conn, f"other-{tenant}")
    _index(engine, tenant, "mine", "secret protein data")
    _index(engine, other, "theirs", "secret protein data")
    for mode, fusion in MODES_AND_FUSIONS:
        with engine.begin() as conn:
            hits = search(conn, tenant, "secret protein", k=10, mode=mode,
                          query_vector=np.ones(384, dtype=np.float32) / math.sqrt(384),
                          params=SearchParams(fusion=fusion))
        assert [h.document_id for h in hits] == ["mine"], (mode, fusion)


def test_filters_apply_inside_both_branches(engine, tenant):
    for i in range(30):  # many strong matches outside the filter
        _index(engine, tenant, f"noise{i}", "protein folding protein folding", '{"lang": "en"}')
    _index(engine, tenant, "wanted", "protein folding once", '{"lang": "fr", "year": 2020}')
    _index(engine, tenant, "other", "protein", '{"lang": "fr", "year": 2021}')
    vector = np.ones(384, dtype=np.float32) / math.sqrt(384)
    for mode, fusion in MODES_AND_FUSIONS:
        params = SearchParams(candidates=5, fusion=fusion)
        with engine.begin() as conn:
            by_id = search(conn, tenant, "protein folding", k=5, mode=mode,
                           query_vector=vector, params=params,
                           filters=Filters(document_ids=["wanted"]))
            by_meta = search(conn, tenant, "protein folding", k=5, mode=mode,
                             query_vector=vector, params=params,
                             filters=Filters(metadata={"lang": "fr"}))
            narrow = search(conn, tenant, "protein folding", k=5, mode=mode,
                            query_vector=vector, params=params,
                            filters=Filters(metadata={"lang": "fr", "year": 2021}))
        assert [h.document_id for h in by_id] == ["wanted"], (mode, fusion)
        assert sorted(h.document_id for h in by_meta) == ["other", "wanted"], (mode, fusion)
        assert [h.document_id for h in narrow] == ["other"], (mode, fusion)


def test_exact_identifiers_are_found_by_bm25_and_hybrid(engine, tenant):
    from indexing.embedding import embed

    codes = [f"E-45{n:02d}" for n in range(40)]
    bodies = {code: f"The ingestion worker stopped with error code {code} because the queue "
                    f"refused the batch; restart it after checking the broker." for code in codes}
    bodies["rfc"] = "Status codes and caching are defined by RFC 7231, the HTTP/1.1 semantics."
    bodies["other-rfc"] = "Status codes and caching are defined by RFC 7230, the HTTP/1.1 message syntax."
    vectors = embed(list(bodies.values()))
    for (external_id, body), vector in zip(bodies.items(), vectors, strict=True):
        _index(engine, tenant, external_id, body, vector=vector)
    for query, expected in (("error E-4521", "E-4521"), ("e-4521", "E-4521"), ("E_4521 broker", "E-4521"),
                            ("rfc7231", "rfc"), ("RFC-7231 status codes", "rfc")):
        qvec = embed([query])[0]
        with engine.begin() as conn:
            bm25 = search(conn, tenant, query, k=3, mode="bm25")
            for fusion in FUSIONS:
                hybrid = search(conn, tenant, query, k=3, mode="hybrid", query_vector=qvec,
                                params=SearchParams(fusion=fusion))
                assert hybrid[0].document_id == expected, (query, fusion, [h.document_id for h in hybrid])
                assert "**" in (hybrid[0].snippet or ""), (query, fusion)
        assert bm25[0].document_id == expected, (query, [h.document_id for h in bm25])


def test_mime_type_and_date_filters_and_weighted_fusion(engine, tenant):
    _index(engine, tenant, "a.pdf", "protein folding protein", mime_type="application/pdf")
    _index(engine, tenant, "b.txt", "protein folding", mime_type="text/plain")
    _index(engine, tenant, "c.txt", "protein", mime_type="text/plain")
    vector = np.ones(384, dtype=np.float32) / math.sqrt(384)
    with engine.begin() as conn:
        for fusion in FUSIONS:
            params = SearchParams(fusion=fusion)
            pdf_only = search(conn, tenant, "protein folding", k=5, query_vector=vector, params=params,
                              filters=Filters(mime_types=["application/pdf"]))
            future = search(conn, tenant, "protein folding", k=5, query_vector=vector, params=params,
                            filters=Filters(indexed_after="2999-01-01T00:00:00+00:00"))
            past = search(conn, tenant, "protein folding", k=5, query_vector=vector, params=params,
                          filters=Filters(indexed_before="2999-01-01T00:00:00+00:00"))
            assert [h.document_id for h in pdf_only] == ["a.pdf"], fusion
            assert pdf_only[0].mime_type == "application/pdf", fusion
            assert future == [] and len(past) == 3, fusion
        bm25 = search(conn, tenant, "protein folding", k=3, mode="bm25")
        dense = search(conn, tenant, "protein folding", k=3, mode="dense", query_vector=vector)
        only_bm25 = search(conn, tenant, "protein folding", k=3, query_vector=vector,
                           params=SearchParams(fusion="weighted", alpha=0.0))
        only_dense = search(conn, tenant, "protein folding", k=3, query_vector=vector,
                            params=SearchParams(fusion="weighted", alpha=1.0))
        min_max = search(conn, tenant, "protein folding", k=3, query_vector=vector,
                         params=SearchParams(fusion="weighted", alpha=0.0, normalisation="minmax"))
    assert [h.document_id for h in only_bm25] == [h.document_id for h in bm25]
    assert [h.document_id for h in min_max] == [h.document_id for h in bm25]
    assert only_dense[0].document_id == dense[0].document_id
    # z-scores (the default): each BM25 score less the candidates' mean, over their spread;
    # min-max: onto [0, 1].
    raw = [h.bm25_score for h in bm25]
    mean, spread = statistics.fmean(raw), statistics.pstdev(raw)
    assert [h.score for h in only_bm25] == pytest.approx([(s - mean) / spread for s in raw])
    assert [h.score for h in min_max] == pytest.approx([(s - min(raw)) / (max(raw) - min(raw)) for s in raw])


def _never_executed_scans(conn, tenant, query, params):
    """How many postings scans in the plan never ran (the plain scan skipped)."""
    import json as _json

    bind = bind_parameters(tenant, analyze(query), 10, False, params)
    sql = "EXPLAIN (ANALYZE, FORMAT JSON) " + build_sql("bm25", False, rounds=params.bm25_rounds)
    plan = conn.execute(text(sql), bind).scalar_one()
    plan = plan if isinstance(plan, list) else _json.loads(plan)

    def walk(node):
        yield node
        for child in node.get("Plans", []):
            yield from walk(child)

    return sum(1 for node in walk(plan[0]["Plan"])
               if node.get("Relation Name") in ("bm25_blocks", "bm25_delta")
               and node.get("Actual Loops") == 0)


def _path(conn, tenant, query, params):
    return bm25_path(conn, tenant, query, k=10, collapse=False, params=params)


def test_early_termination_returns_exactly_what_the_full_scan_returns(engine, tenant):
    _index_random_corpus(engine, tenant)
    queries = ["word0", "word0 word1", "word0 word1 word2 protein", "word3 cancer", "tumour v2.3.1",
               "word0 word0 word5", "cells word1 word7 word9", "nothingmatches", "word2 word40",
               "word1 word2 word3 word4", "word5 word6 word30 word31", "word0 word8 word19"]
    # Blocks of 4 and champion lists of 16, so that a small corpus has cut terms (every path:
    # tests/test_bm25_block_search.py); depth 4 is one champion block, 8 two.
    with engine.begin() as conn:
        rebuild(conn, tenant, block=4, champions=16)
    plain = SearchParams(candidates=10, bm25_scan_below=10**9)
    paths = []
    with engine.begin() as conn:
        for depth, rounds, whole, probe in ((4, 1, 0.0, 40), (8, 1, 0.0, 40), (4, 3, 0.0, 40),
                                            (8, 2, 0.0, 40), (64, 1, 4.0, 100), (4, 2, 0.0, 1),
                                            (8, 1, 0.0, 1)):
            shallow = SearchParams(candidates=10, bm25_depth=depth, bm25_rounds=rounds, bm25_scan_below=0,
                                   bm25_whole=whole, bm25_probe=probe)
            for query in queries:
                for collapse in (False, True):
                    fast = search(conn, tenant, query, k=10, mode="bm25", collapse=collapse, params=shallow)
                    full = search(conn, tenant, query, k=10, mode="bm25", collapse=collapse, params=plain)
                    got = [(h.chunk_id, round(h.score, 9)) for h in fast]
                    assert got == [(h.chunk_id, round(h.score, 9)) for h in full], (query, depth, collapse)
                paths.append(_path(conn, tenant, query, shallow))
                # Filters apply inside every path.
                some = Filters(document_ids=[f"doc{i}" for i in range(0, 400, 3)])
                fast = search(conn, tenant, query, k=10, mode="bm25", params=shallow, filters=some)
                full = search(conn, tenant, query, k=10, mode="bm25", params=plain, filters=some)
                assert [h.chunk_id for h in fast] == [h.chunk_id for h in full], (query, depth)
                assert all(int(h.document_id[3:]) % 3 == 0 for h in fast)
        # Rounds and MaxScore each answered some of them.
        assert {"exact1", "exact2", "maxscore"} <= set(paths), paths
        # Most of those answers came from prepared statements run with their generic plan,
        # as on a pooled connection of the service.
        generic = conn.execute(text(
            "SELECT coalesce(sum(generic_plans), 0) FROM pg_prepared_statements")).scalar_one()
        assert generic >= 100, generic
        assert _never_executed_scans(conn, tenant, "word0 word1", SearchParams(
            candidates=10, bm25_depth=4, bm25_whole=0.0, bm25_scan_below=0)) > 0
        # Below the threshold the candidate phase never runs: the plain scan answers alone.
        assert _path(conn, tenant, "word0 word1", SearchParams(bm25_scan_below=10**9)) == "scan"
        assert _never_executed_scans(conn, tenant, "word0 word1", SearchParams(
            candidates=10, bm25_depth=8, bm25_scan_below=10**9)) >= 1


def test_a_round_proves_against_the_exact_scores_of_its_best_candidates(engine, tenant):
    """Round 1 reads the two best postings of 'alpha' (tf 8, 3) and of 'beta' (tf 8, 3); the
    best chunks hold both terms but were read in one list only.  Their lower bounds (tf 8 of
    one term) are below what two unread postings of tf 3 could add, so lower bounds cannot
    prove the top hit; their exact scores (tf 8 + tf 2) can, and the round completes its
    best candidates before judging."""
    bodies = {"A": " ".join(["alpha"] * 8 + ["beta"] * 2), "B": " ".join(["beta"] * 8 + ["alpha"] * 2),
              "E": "alpha alpha alpha", "F": "beta beta beta"}
    bodies.update({f"C{i}": "alpha" for i in range(6)})
    bodies.update({f"D{i}": "beta" for i in range(6)})
    bodies.update({f"N{i}": "other" for i in range(40)})
    for name, body in bodies.items():
        _index(engine, tenant, name, _padded(body.split()))
    # Two rounds: only the last one completes every candidate regardless.
    two_rounds = SearchParams(candidates=10, bm25_depth=2, bm25_rounds=2, bm25_scan_below=0)
    plain = SearchParams(candidates=10, bm25_scan_below=10**9)
    with engine.begin() as conn:
        fast = search(conn, tenant, "alpha beta", k=1, mode="bm25", collapse=False, params=two_rounds)
        full = search(conn, tenant, "alpha beta", k=1, mode="bm25", collapse=False, params=plain)
        path = bm25_path(conn, tenant, "alpha beta", k=1, collapse=False, params=two_rounds)
    assert [(h.document_id, round(h.score, 9)) for h in fast] == [
        (h.document_id, round(h.score, 9)) for h in full]
    assert full[0].document_id in ("A", "B")
    assert path == "exact1"


def test_an_open_chunk_read_in_the_lead_term_keeps_its_bound(engine, tenant):
    """X (lead x2, other x3) was read in the lead term's list, not in the other's, and its
    lower bound is below floor: it is open, and only its rest in 'other' bounds it.  Round 1
    proves the top two (theta 'lead x3' beats what unread postings can add), and X is among
    them: a pass that charged X the lead term's rest again would drop it."""
    # In chunk order, so that ties in impact are read in this order.
    _index(engine, tenant, "A", _padded(["lead"] * 3 + ["other"]))
    _index(engine, tenant, "G", _padded(["lead"] * 3))
    for i in range(3):
        _index(engine, tenant, f"P{i}", _padded(["other"] * 3))
    _index(engine, tenant, "X", _padded(["lead"] * 2 + ["other"] * 3))
    _index(engine, tenant, "Y", _padded(["lead"]))
    for i in range(40):
        _index(engine, tenant, f"F{i}", _padded(["other"]))
    for i in range(30):
        _index(engine, tenant, f"N{i}", _padded(["nothing"]))
    params = SearchParams(candidates=2, bm25_depth=3, bm25_rounds=1, bm25_scan_below=0, bm25_probe=1)
    plain = SearchParams(candidates=2, bm25_scan_below=10**9)
    with engine.begin() as conn:
        fast = search(conn, tenant, "lead other", k=2, mode="bm25", collapse=False, params=params)
        full = search(conn, tenant, "lead other", k=2, mode="bm25", collapse=False, params=plain)
    assert [h.document_id for h in full] == ["A", "X"]
    assert [(h.document_id, round(h.score, 9)) for h in fast] == [
        (h.document_id, round(h.score, 9)) for h in full]
    assert fast[0].bm25_path == "exact1"


def test_collapsed_rounds_prove_the_top_documents_not_four_times_as_many_chunks(engine, tenant):
    """With one result per document, a round proves its answer against the k-th best
    document (its best chunk), not the 4k-th best chunk: on documents of one chunk each the
    paths are those of the uncollapsed search, and on documents of several chunks the
    answer still equals the plain scan's."""
    rng = random.Random(5)
    for i in range(300):
        _index(engine, tenant, f"single{i}", _random_text(rng))
    queries = ["word0 word1", "word0 word1 word2 protein", "word3 cancer", "word2 word40",
               "word1 word2 word3 word4", "word5 word6 word30 word31", "word0 word8 word19"]
    shallow = SearchParams(candidates=10, bm25_depth=3, bm25_rounds=3, bm25_scan_below=0)
    with engine.begin() as conn:
        collapsed = [bm25_path(conn, tenant, q, k=10, collapse=True, params=shallow) for q in queries]
        flat = [bm25_path(conn, tenant, q, k=10, collapse=False, params=shallow) for q in queries]
    assert collapsed == flat
    assert any(p.startswith("exact") for p in collapsed), collapsed

    with engine.begin() as conn:
        other = ensure_tenant(conn, f"multi-{tenant}")
    for i in range(120):
        doc = IndexedDocument(tenant_id=other, external_id=f"multi{i}", source_document_id=None,
                              job_id=None, content_sha256=f"m{i}", mime_type="text/plain",
                              title=None, metadata_json="{}")
        bodies = [_random_text(rng) for _ in range(rng.randint(1, 6))]
        chunks = [Chunk(b, (), None, None, len(b.split())) for b in bodies]
        vectors = np.random.default_rng(i).normal(size=(len(chunks), 384)).astype(np.float32)
        with engine.begin() as conn:
            replace_document(conn, doc, chunks, vectors, k1=DEFAULTS.k1, b=DEFAULTS.b)
    plain = SearchParams(candidates=10, bm25_scan_below=10**9)
    paths = []
    with engine.begin() as conn:
        for depth, rounds in ((3, 1), (3, 3), (8, 2)):
            fast_params = SearchParams(candidates=10, bm25_depth=depth, bm25_rounds=rounds,
                                       bm25_scan_below=0)
            for query in queries:
                fast = search(conn, other, query, k=10, mode="bm25", params=fast_params)
                full = search(conn, other, query, k=10, mode="bm25", params=plain)
                assert ([(h.document_id, h.chunk_id, round(h.score, 9)) for h in fast]
                        == [(h.document_id, h.chunk_id, round(h.score, 9)) for h in full]), query
                paths.append(fast[0].bm25_path if fast else None)
    assert any(p and p.startswith("exact") for p in paths), paths


def test_stale_impacts_stay_exact_and_refresh_restores_them(engine, tenant):
    from indexing.store import refresh_impacts

    rng = random.Random(5)
    _index(engine, tenant, "first", "word0 word1 " * 3)  # fixes impact avgdl at a short length
    for i in range(150):
        _index(engine, tenant, f"doc{i}", _random_text(rng) + " word0 word0 word0 word0 word0 word0")
    shallow = SearchParams(candidates=10, bm25_depth=5, bm25_scan_below=0)
    deep = SearchParams(candidates=10, bm25_depth=10**6, bm25_scan_below=0)
    with engine.begin() as conn:
        stale = [h.chunk_id for h in search(conn, tenant, "word0 word1", k=10, mode="bm25", params=shallow)]
        full = [h.chunk_id for h in search(conn, tenant, "word0 word1", k=10, mode="bm25", params=deep)]
        assert stale == full
        assert refresh_impacts(conn, tenant, k1=DEFAULTS.k1, b=DEFAULTS.b) > 0
        avgdl, impact_avgdl = conn.execute(text(
            "SELECT total_length::float8 / chunk_count, impact_avgdl FROM bm25_stats WHERE tenant_id = :t"),
            {"t": tenant}).one()
        assert abs(avgdl - impact_avgdl) < 1e-9
        fresh = [h.chunk_id for h in search(conn, tenant, "word0 word1", k=10, mode="bm25", params=shallow)]
    assert fresh == full


def test_dense_search_stays_exact_while_the_hnsw_graph_is_rebuilt(engine, tenant):
    import numpy as np

    from indexing.store import vector_literal
    from indexing.vector_index import build_hnsw, drop_hnsw, hnsw_state

    rng = random.Random(3)
    for i in range(30):
        _index(engine, tenant, f"v{i}", _random_text(rng))
    query = np.random.default_rng(3).standard_normal(384).astype(np.float32)
    query /= np.linalg.norm(query)

    def dense() -> list[int]:
        with engine.begin() as conn:
            return [h.chunk_id for h in search(conn, tenant, "q", k=5, mode="dense", collapse=False,
                                               query_vector=query)]

    with engine.begin() as conn:
        # The reference never uses the graph: filtered by tenant, an HNSW scan returns only the
        # tenant's chunks among its ef_search nearest of all tenants' (other tests' too).
        conn.execute(text("SET LOCAL enable_indexscan = off"))
        exact = conn.execute(text("SELECT id FROM chunks WHERE tenant_id = :t "
                                  "ORDER BY embedding <=> CAST(:q AS halfvec), id LIMIT 5"),
                             {"t": tenant, "q": vector_literal(query)}).scalars().all()
    assert hnsw_state(engine) == "ready"
    try:
        assert drop_hnsw(engine) and hnsw_state(engine) == "absent"
        assert dense() == exact  # no graph: every vector compared, exactly
    finally:
        assert build_hnsw(engine) > 0
    assert hnsw_state(engine) == "ready" and build_hnsw(engine) == 0.0


def test_a_tenant_indexed_with_configured_k1_and_b_is_served_by_early_termination(engine, tenant):
    """k1 and b other than the defaults, set as a user sets them (PAGEMILL_BM25_K1/_B): the
    tenant's first document computes its impacts with them, so queries take the rounds (not
    the plain scan, which other impact parameters would force) and answer what the scan
    answers."""
    from app.config import Config

    config = Config.from_env({"PAGEMILL_BM25_K1": "1.5", "PAGEMILL_BM25_B": "0.75"})
    assert (config.search.k1, config.search.b) != (DEFAULTS.k1, DEFAULTS.b)
    rng = random.Random(17)
    for i in range(300):
        _index(engine, tenant, f"doc{i}", _random_text(rng), k1=config.search.k1, b=config.search.b)
    with engine.connect() as conn:
        stored = conn.execute(text("SELECT impact_k1, impact_b FROM bm25_stats WHERE tenant_id = :t"),
                              {"t": tenant}).one()
    assert tuple(stored) == (1.5, 0.75)
    fast = config.search_params(candidates=10, bm25_depth=3, bm25_scan_below=0)
    plain = config.search_params(candidates=10, bm25_scan_below=10**9)
    paths = []
    with engine.begin() as conn:
        for query in ["word0 word1", "word0 word1 word2 protein", "word3 cancer", "word1 word2 word3 word4",
                      "word5 word6 word30 word31", "word0 word8 word19"]:
            for collapse in (False, True):
                got = search(conn, tenant, query, k=10, mode="bm25", collapse=collapse, params=fast)
                full = search(conn, tenant, query, k=10, mode="bm25", collapse=collapse, params=plain)
                assert got and [(h.chunk_id, round(h.score, 9)) for h in got] == [
                    (h.chunk_id, round(h.score, 9)) for h in full], (query, collapse)
                assert {h.bm25_path for h in full} == {"scan"}
                paths.append(got[0].bm25_path)
        # The defaults' k1 and b do not match these impacts: the plain scan answers.
        defaults = replace(fast, k1=DEFAULTS.k1, b=DEFAULTS.b)
        assert bm25_path(conn, tenant, "word0 word1", params=defaults) == "scan"
    assert "scan" not in paths, paths
    assert any(p.startswith("exact") for p in paths), paths


def test_a_tenant_left_without_chunks_takes_the_writers_k1_and_b(engine, tenant):
    """Impact parameters stand while any impact depends on them; a tenant emptied takes the
    next writer's, as a new one does."""
    stored = text("SELECT impact_k1, impact_b FROM bm25_stats WHERE tenant_id = :t")
    _index(engine, tenant, "a", "alpha beta", k1=0.9, b=0.4)
    _index(engine, tenant, "b", "alpha gamma", k1=1.5, b=0.75)
    with engine.begin() as conn:
        assert tuple(conn.execute(stored, {"t": tenant}).one()) == (0.9, 0.4)
        assert delete_document(conn, tenant, "a") and delete_document(conn, tenant, "b")
    _index(engine, tenant, "c", "alpha delta", k1=1.5, b=0.75)
    with engine.begin() as conn:
        assert tuple(conn.execute(stored, {"t": tenant}).one()) == (1.5, 0.75)
