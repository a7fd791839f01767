"""Migrations that rewrite data keep it: each runs on a database of its own, filled in the
layout it starts from, up and back down."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from sqlalchemy import text

from app.infra.db import downgrade_schema, get_engine, upgrade_schema
from indexing.search import search
from indexing.store import vector_literal

# Two tenants that share a term ("alpha"), so that term ids must keep them apart.
_DOCUMENTS = {
    "a": {"a1": "alpha beta beta gamma", "a2": "alpha delta"},
    "b": {"b1": "alpha alpha epsilon", "b2": "zeta"},
}


def _fill_text_layout(url: str) -> dict[str, str]:
    """Documents indexed as revision 0011 stored them: postings keyed by (tenant, term)."""
    tenants = {}
    with get_engine(url).begin() as conn:
        for name, documents in _DOCUMENTS.items():
            tenant = conn.execute(text("INSERT INTO tenants (name) VALUES (:n) RETURNING id"),
                                  {"n": name}).scalar_one()
            tenants[name] = str(tenant)
            conn.execute(text("INSERT INTO bm25_stats (tenant_id, impact_avgdl, impact_k1, impact_b) "
                              "VALUES (:t, 3, 0.9, 0.4)"), {"t": tenant})
            for external_id, body in documents.items():
                sdid = conn.execute(text("""
                    INSERT INTO search_documents (tenant_id, external_id, content_sha256, chunk_count)
                    VALUES (:t, :e, 'x', 1) RETURNING id"""), {"t": tenant, "e": external_id}).scalar_one()
                words = body.split()
                chunk = conn.execute(text("""
                    INSERT INTO chunks (tenant_id, search_document_id, chunk_no, text, token_count,
                                        bm25_length, embedding)
                    VALUES (:t, :sd, 0, :body, :n, :n, CAST(:v AS vector)) RETURNING id"""),
                    {"t": tenant, "sd": sdid, "body": body, "n": len(words),
                     "v": vector_literal(np.full(384, 0.05))}).scalar_one()
                for term in sorted(set(words)):
                    conn.execute(text("""
                        INSERT INTO bm25_postings (tenant_id, term, chunk_id, tf, doc_length, impact)
                        VALUES (:t, :term, :c, :tf, :n, :tf)"""),
                        {"t": tenant, "term": term, "c": chunk, "tf": words.count(term), "n": len(words)})
    return tenants


def _postings(url: str) -> set[tuple[str, str, str, int, int]]:
    """Every posting as (tenant, term, document, tf, length), whichever layout holds it."""
    with get_engine(url).connect() as conn:
        by_id = conn.execute(text("SELECT 1 FROM information_schema.columns WHERE "
                                  "table_name = 'bm25_postings' AND column_name = 'term_id'")).first()
        term = ("JOIN bm25_terms t ON t.id = p.term_id" if by_id
                else "JOIN bm25_terms t ON t.tenant_id = p.tenant_id AND t.term = p.term")
        rows = conn.execute(text(f"""
            SELECT t.tenant_id::text, t.term, sd.external_id, p.tf, p.doc_length
            FROM bm25_postings p {term}
            JOIN chunks c ON c.id = p.chunk_id JOIN search_documents sd ON sd.id = c.search_document_id"""))
        return {tuple(r) for r in rows}


def _dictionary(url: str) -> set[tuple[str, str, int]]:
    with get_engine(url).connect() as conn:
        return {tuple(r) for r in conn.execute(
            text("SELECT tenant_id::text, term, df FROM bm25_terms"))}


def test_term_ids_migration_keeps_every_posting_and_df_both_ways(scratch_database):
    upgrade_schema(scratch_database, "0011")
    tenants = _fill_text_layout(scratch_database)
    postings, dictionary = _postings(scratch_database), _dictionary(scratch_database)
    assert len(postings) == 8 and (tenants["a"], "alpha", 2) in dictionary

    upgrade_schema(scratch_database, "0029")  # the last revision with bm25_postings
    assert _postings(scratch_database) == postings
    assert _dictionary(scratch_database) == dictionary
    engine = get_engine(scratch_database)
    with engine.begin() as conn:
        # (Today's search reads the blocks of 0030: the postings of 0029 are read directly.)
        hits = conn.execute(text("""
            SELECT sd.external_id FROM bm25_postings p JOIN bm25_terms t ON t.id = p.term_id
            JOIN chunks c ON c.id = p.chunk_id JOIN search_documents sd ON sd.id = c.search_document_id
            WHERE t.tenant_id = :t AND t.term = 'alpha'"""), {"t": tenants["b"]}).scalars().all()
        assert hits == ["b1"]  # tenant a's "alpha" is another term id
        # The triggers follow postings by term id: a deleted document's terms lose their df.
        conn.execute(text("DELETE FROM search_documents WHERE external_id = 'a1'"))
    after_delete = _dictionary(scratch_database)
    assert (tenants["a"], "alpha", 1) in after_delete
    assert not any(t == tenants["a"] and term in ("beta", "gamma") for t, term, _ in after_delete)

    downgrade_schema(scratch_database, "0011")
    assert _postings(scratch_database) == {p for p in postings if p[2] != "a1"}
    assert _dictionary(scratch_database) == after_delete


def test_migration_0013_creates_the_function_and_takes_it_back(scratch_database):
    exists = text("SELECT count(*) FROM pg_proc WHERE proname = 'bm25_term_score'")
    score = text("SELECT bm25_term_score(2.0, 3, 10, 12.5, 0.9, 0.4)")
    upgrade_schema(scratch_database, "0012")
    engine = get_engine(scratch_database)
    with engine.connect() as conn:
        assert conn.execute(exists).scalar_one() == 0
    upgrade_schema(scratch_database, "0013")
    with engine.connect() as conn:
        assert conn.execute(exists).scalar_one() == 1
        expected = 2.0 * 3 * (0.9 + 1.0) / (3 + 0.9 * (1.0 - 0.4 + 0.4 * 10 / 12.5))
        assert conn.execute(score).scalar_one() == expected
    downgrade_schema(scratch_database, "0012")
    with engine.connect() as conn:
        assert conn.execute(exists).scalar_one() == 0
    upgrade_schema(scratch_database)
    with engine.connect() as conn:
        assert conn.execute(exists).scalar_one() == 1


def test_migration_0026_renames_the_jobs_handed_column_keeping_its_values(scratch_database):
    upgrade_schema(scratch_database, "0025")
    engine = get_engine(scratch_database)
    with engine.begin() as conn:
        tenant = conn.execute(text("INSERT INTO tenants (name) VALUES ('t') RETURNING id")).scalar_one()
        handed, waiting = (conn.execute(text(
            "INSERT INTO jobs (tenant_id, status, total_documents, batch_size, published_at) "
            "VALUES (:t, 'queued', 1, 1, :at) RETURNING id"),
            {"t": tenant, "at": at}).scalar_one() for at in ("2026-12-01T10:00:00Z", None))
    upgrade_schema(scratch_database, "0026")
    read = text("SELECT id, handed_at IS NOT NULL FROM jobs ORDER BY handed_at NULLS LAST")
    with engine.connect() as conn:
        assert [tuple(r) for r in conn.execute(read)] == [(handed, True), (waiting, False)]
    downgrade_schema(scratch_database, "0025")
    with engine.connect() as conn:
        kept = text("SELECT count(*) FROM jobs WHERE published_at IS NOT NULL")
        assert conn.execute(kept).scalar_one() == 1


_COLUMN = text("SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
               "WHERE attrelid = 'chunks'::regclass AND attname = 'embedding'")
_GRAPH = text("SELECT pg_get_indexdef('chunks_embedding_hnsw'::regclass)")


def _fill_vectors(url: str, vectors: np.ndarray) -> str:
    """One chunk per vector, written as float32 ``vector`` rows (the layout before 0027)."""
    with get_engine(url).begin() as conn:
        tenant = str(conn.execute(text("INSERT INTO tenants (name) VALUES ('v') RETURNING id")).scalar_one())
        for i, vector in enumerate(vectors):
            sdid = conn.execute(text("""
                INSERT INTO search_documents (tenant_id, external_id, content_sha256, chunk_count)
                VALUES (:t, :e, 'x', 1) RETURNING id"""), {"t": tenant, "e": f"d{i}"}).scalar_one()
            conn.execute(text("""
                INSERT INTO chunks (tenant_id, search_document_id, chunk_no, text, token_count,
                                    bm25_length, embedding)
                VALUES (:t, :sd, 0, 'x', 1, 1, CAST(:v AS vector))"""),
                {"t": tenant, "sd": sdid, "v": vector_literal(vector)})
    return tenant


def _stored(url: str) -> dict[str, np.ndarray]:
    with get_engine(url).connect() as conn:
        rows = conn.execute(text("""
            SELECT sd.external_id, CAST(c.embedding AS real[]) AS v
            FROM chunks c JOIN search_documents sd ON sd.id = c.search_document_id"""))
        return {r.external_id: np.array(r.v, dtype=np.float32) for r in rows}


def _dense(url: str, tenant: str, query: np.ndarray) -> list[str]:
    with get_engine(url).begin() as conn:
        return [h.document_id for h in search(conn, tenant, "q", k=5, mode="dense", collapse=False,
                                              query_vector=query, snippets=False)]


def test_migration_0027_turns_the_vectors_and_their_graph_into_halfvec_and_back(scratch_database):
    from indexing.vector_index import build_hnsw, drop_hnsw

    rng = np.random.default_rng(26)
    vectors = rng.standard_normal((40, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    upgrade_schema(scratch_database, "0026")
    tenant = _fill_vectors(scratch_database, vectors)
    engine = get_engine(scratch_database)
    with engine.connect() as conn:
        assert conn.execute(_COLUMN).scalar_one() == "vector(384)"
    # The query nearest to d7, then d3: the order must survive the rounding to float16.
    query = vectors[7] + 0.5 * vectors[3]
    before = _dense(scratch_database, tenant, query)
    assert before[:2] == ["d7", "d3"]
    written = _stored(scratch_database)

    upgrade_schema(scratch_database, "0027")
    with engine.connect() as conn:
        assert conn.execute(_COLUMN).scalar_one() == "halfvec(384)"
        assert "USING hnsw (embedding halfvec_cosine_ops)" in conn.execute(_GRAPH).scalar_one()
    halved = _stored(scratch_database)
    assert len(halved) == 40
    for key, vector in written.items():  # each value the nearest float16
        assert np.array_equal(halved[key], vector.astype(np.float16).astype(np.float32))
    assert _dense(scratch_database, tenant, query) == before
    # The runtime's rebuild (bulk loads, `pagemill hnsw build`) makes the graph the migration made.
    with engine.connect() as conn:
        migrated = conn.execute(_GRAPH).scalar_one()
    assert drop_hnsw(engine) and build_hnsw(engine) > 0
    with engine.connect() as conn:
        assert conn.execute(_GRAPH).scalar_one() == migrated

    downgrade_schema(scratch_database, "0026")
    with engine.connect() as conn:
        assert conn.execute(_COLUMN).scalar_one() == "vector(384)"
        assert "USING hnsw (embedding vector_cosine_ops)" in conn.execute(_GRAPH).scalar_one()
    restored = _stored(scratch_database)
    assert all(np.array_equal(restored[k], v) for k, v in halved.items())  # float16 is exact in float32
    assert _dense(scratch_database, tenant, query) == before


def test_migration_0027_leaves_a_graph_dropped_for_a_bulk_load_to_the_load(scratch_database):
    from indexing.vector_index import build_hnsw, drop_hnsw, hnsw_state

    upgrade_schema(scratch_database, "0026")
    engine = get_engine(scratch_database)
    assert drop_hnsw(engine)
    upgrade_schema(scratch_database, "0027")
    with engine.connect() as conn:
        assert conn.execute(_COLUMN).scalar_one() == "halfvec(384)"
    assert hnsw_state(engine) == "absent"
    assert build_hnsw(engine) >= 0 and hnsw_state(engine) == "ready"  # the runtime's definition fits
    with engine.connect() as conn:
        assert "USING hnsw (embedding halfvec_cosine_ops)" in conn.execute(_GRAPH).scalar_one()


@pytest.mark.parametrize("revision, column, kind", [
    # A job finished before 0028 has no position: its after_job searches go to the primary.
    ("0028", "commit_lsn", "pg_lsn"),
    # A job written before 0029 joins no trace: its tasks start their own.
    ("0029", "traceparent", "text"),
])
def test_a_new_jobs_column_starts_empty_and_goes_back(scratch_database, revision: str, column: str,
                                                      kind: str) -> None:
    found = text("SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
                 "WHERE attrelid = 'jobs'::regclass AND attname = :c AND NOT attisdropped")
    before = f"{int(revision) - 1:04d}"
    upgrade_schema(scratch_database, before)
    engine = get_engine(scratch_database)
    with engine.begin() as conn:
        tenant = conn.execute(text("INSERT INTO tenants (name) VALUES ('t') RETURNING id")).scalar_one()
        conn.execute(text("INSERT INTO jobs (tenant_id, status, total_documents, batch_size) "
                          "VALUES (:t, 'completed', 1, 1)"), {"t": tenant})
    upgrade_schema(scratch_database, revision)
    with engine.connect() as conn:
        assert conn.execute(found, {"c": column}).scalar_one() == kind
        assert conn.execute(text(f"SELECT {column} FROM jobs")).scalar_one() is None
    downgrade_schema(scratch_database, before)
    with engine.connect() as conn:
        assert conn.execute(found, {"c": column}).scalar_one_or_none() is None


def _fill_postings_layout(url: str, tenants: int = 2, chunks: int = 4200) -> dict[str, str]:
    """Tenants indexed as revision 0029 stored them (one bm25_postings row a posting), the first
    with ``chunks`` one-chunk documents whose commonest term passes C = 4096 (champions), the
    second with a jump in chunk ids (blocks whose offsets need int4)."""
    import random

    from indexing.analyzer import term_frequencies

    rng = random.Random(30)
    vocabulary = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]
    names = {}
    with get_engine(url).begin() as conn:
        for n in range(tenants):
            tenant = str(conn.execute(text("INSERT INTO tenants (name) VALUES (:n) RETURNING id"),
                                      {"n": f"t{n}"}).scalar_one())
            names[f"t{n}"] = tenant
            conn.execute(text("INSERT INTO bm25_stats (tenant_id, impact_avgdl, impact_k1, impact_b) "
                              "VALUES (:t, 6, 0.9, 0.4)"), {"t": tenant})
            conn.execute(text("INSERT INTO bm25_terms (tenant_id, term, df) "
                              "SELECT :t, unnest(CAST(:v AS text[])), 0"), {"t": tenant, "v": vocabulary})
            count = chunks if n == 0 else 300
            bodies = ["alpha " + " ".join(rng.choice(vocabulary) for _ in range(rng.randint(1, 12)))
                      for _ in range(count)]
            sdids = conn.execute(text("""
                INSERT INTO search_documents (tenant_id, external_id, content_sha256, chunk_count)
                SELECT :t, 'd' || i, 'x', 1 FROM generate_series(0, :n - 1) AS i RETURNING id"""),
                {"t": tenant, "n": count}).scalars().all()
            for i, (sdid, body) in enumerate(zip(sorted(sdids), bodies, strict=True)):
                if n == 1 and i == count // 2:
                    conn.execute(text("SELECT setval(pg_get_serial_sequence('chunks', 'id'), "
                                      "(SELECT max(id) FROM chunks) + 50000)"))
                counts, length = term_frequencies(body)
                chunk = conn.execute(text("""
                    INSERT INTO chunks (tenant_id, search_document_id, chunk_no, text, token_count,
                                        bm25_length, embedding)
                    VALUES (:t, :sd, 0, :body, :n, :n, CAST(:v AS halfvec)) RETURNING id"""),
                    {"t": tenant, "sd": sdid, "body": body, "n": length,
                     "v": vector_literal(np.full(384, 0.05))}).scalar_one()
                conn.execute(text("""
                    INSERT INTO bm25_postings (term_id, chunk_id, tf, doc_length, impact)
                    SELECT t.id, :c, p.tf, :n, bm25_term_score(1.0::float8, p.tf, :n, 6, 0.9, 0.4)
                    FROM unnest(CAST(:terms AS text[]), CAST(:tfs AS int[])) AS p(term, tf)
                    JOIN bm25_terms t ON t.tenant_id = :t AND t.term = p.term"""),
                    {"t": tenant, "c": chunk, "n": length, "terms": list(counts),
                     "tfs": list(counts.values())})
    return names


_IMPACTS = text("""SELECT t.tenant_id::text, t.term, p.chunk_id, p.tf, p.doc_length, p.impact
                   FROM bm25_postings p JOIN bm25_terms t ON t.id = p.term_id""")


def test_migration_0030_puts_the_postings_in_blocks_and_back(scratch_database):
    from indexing import bm25_merge
    from indexing.store import delete_document
    from tests.test_bm25_merge import check_index

    upgrade_schema(scratch_database, "0029")
    tenants = _fill_postings_layout(scratch_database)
    engine = get_engine(scratch_database)
    with engine.connect() as conn:
        before = {tuple(r) for r in conn.execute(_IMPACTS)}
    dictionary = _dictionary(scratch_database)
    assert len(before) > 20000

    upgrade_schema(scratch_database, "0030")
    with engine.begin() as conn:
        terms = {int(i): (str(t), term) for i, t, term in conn.execute(
            text("SELECT id, tenant_id::text, term FROM bm25_terms"))}
        decoded = {(terms[term][0], terms[term][1], chunk, tf, length)
                   for tenant in tenants.values()
                   for term, chunk, tf, length in bm25_merge.live_postings(conn, tenant)}
        assert decoded == {p[:5] for p in before}
        assert _dictionary(scratch_database) == dictionary
        big = check_index(conn, tenants["t0"], merged=True)
        assert big["champion_terms"] >= 1 and big["champion_postings"] >= 4096
        assert check_index(conn, tenants["t1"], merged=True)["offs4_blocks"] > 0
        # The writers work on the migrated tables: a deletion tombstones, a merge applies it.
        d7 = conn.execute(text("""SELECT c.id FROM chunks c
                                  JOIN search_documents d ON d.id = c.search_document_id
                                  WHERE d.tenant_id = :t AND d.external_id = 'd7'"""),
                          {"t": tenants["t0"]}).scalar_one()
        assert delete_document(conn, tenants["t0"], "d7")
        assert bm25_merge.merge(conn, tenants["t0"]).tombstones == 1
        check_index(conn, tenants["t0"], merged=True)

    downgrade_schema(scratch_database, "0029")
    with engine.connect() as conn:
        after = {tuple(r) for r in conn.execute(_IMPACTS)}
        df = {(t, term): d for t, term, d in conn.execute(
            text("SELECT tenant_id::text, term, df FROM bm25_terms"))}
    # Every posting but d7's, impacts as the writers stored them.
    assert after == {p for p in before if p[2] != d7}
    assert df == dict(Counter((p[0], p[1]) for p in after))
