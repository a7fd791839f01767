"""The block prototype of bench/bm25_blocks.py: variant specs and the agreement check (unit),
and its search, on every layout, giving the exact scan's top-k on a small corpus (db)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from sqlalchemy import Engine, text

from bench.bm25_blocks import (
    EXACT,
    LEADS,
    ROUNDS,
    Settings,
    Variant,
    agrees,
    bind,
    build,
    statement,
    to_delta,
    tombstone,
)
from indexing.analyzer import analyze
from indexing.chunking import Chunk
from indexing.ranking import DEFAULTS
from indexing.store import DocumentWrite, IndexedDocument, delete_document, replace_documents

VOCAB = [f"w{i}" for i in range(80)]


@pytest.mark.unit
def test_variant_specs_round_trip() -> None:
    v = Variant.parse("for-table-64-lz4-c4096")
    assert (v.enc, v.lengths, v.block, v.compression, v.champions) == ("for", "table", 64, "lz4", 4096)
    assert v.name == "for-table-64-lz4-c4096"
    assert v.table == "bench_bm25_blocks_for_table_64_lz4"
    assert v.top == "bench_bm25_blocks_for_table_64_lz4_top4096"
    assert Variant.parse("abs-inline-128").name == "abs-inline-128"
    for bad in ("abs-inline", "gap-inline-128", "abs-inline-1", "abs-inline-128-zstd", "abs-inline-128-c64x",
                "abs-inline-128-c16"):
        with pytest.raises(ValueError):
            Variant.parse(bad)


@pytest.mark.unit
def test_agreement_allows_only_ties_to_reorder() -> None:
    exact = [(1, 3.0), (2, 2.0), (3, 2.0), (4, 1.0)]
    assert agrees(exact, exact)
    assert agrees([(1, 3.0), (3, 2.0 + 1e-12), (2, 2.0), (4, 1.0)], exact)
    assert not agrees([(1, 3.0), (2, 2.0), (4, 1.0), (3, 2.0)], exact)
    assert not agrees([(1, 3.0), (2, 2.0), (3, 2.0), (5, 1.0 - 1e-6)], exact)
    assert agrees([(1, 3.0), (2, 2.0), (3, 2.0), (5, 1.0)], exact)  # a tie at the k-th rank
    assert not agrees(exact[:3], exact)


@pytest.mark.unit
@pytest.mark.parametrize("spec", ["abs-inline-128", "for-table-64-c256", "abs-inline-256-pglz-c4096"])
def test_statement_renders(spec: str) -> None:
    sql = statement(Variant.parse(spec))
    assert "bm25_term_score" in sql and "{{" not in sql and "{%" not in sql


def _documents(tenant: str, names: range, seed: int) -> list[DocumentWrite]:
    """One-chunk documents d<name> of Zipf-like text over 80 terms: common terms hold most
    chunks, lengths vary (so impacts differ), and tfs repeat (so scores tie)."""
    rng = random.Random(seed)
    writes = []
    for i in names:
        words = [VOCAB[min(int(rng.paretovariate(0.9)) - 1, len(VOCAB) - 1)]
                 for _ in range(rng.randint(4, 40))]
        body = " ".join(words)
        doc = IndexedDocument(tenant, f"d{i}", None, None, f"sha{i}-{seed}", "text/plain", None, "{}")
        vector = np.random.default_rng(i).normal(size=(1, 384)).astype(np.float32)
        writes.append(DocumentWrite(doc, [Chunk(body, (), None, None, len(words))], vector))
    return writes


def _corpus(engine: Engine, tenant: str) -> None:
    """600 one-chunk documents."""
    with engine.begin() as conn:
        replace_documents(conn, _documents(tenant, range(600), 5), k1=DEFAULTS.k1, b=DEFAULTS.b)


def _queries() -> list[list[str]]:
    rng = random.Random(9)
    return [[VOCAB[min(int(rng.paretovariate(0.7)) - 1, len(VOCAB) - 1)]
             for _ in range(rng.randint(1, 5))] for _ in range(40)] + [["w0", "w0", "w1"], ["nope"]]


def _paths(rendered: str, v: Variant) -> str:
    """The same statement ending in what each path did instead of the answer."""
    third = ("NOT (SELECT v FROM proven1) AND NOT (SELECT v FROM proven2)"
             if v.champions and ROUNDS > 2 else "false")
    merged = " + ".join(f"(SELECT count(*) FROM touched{i})" for i in range(1, LEADS + 1))
    probed = " + ".join(f"(SELECT count(*) FROM need{i} WHERE NOT (SELECT v FROM merge{i}))"
                        for i in range(1, LEADS + 1))
    return rendered[:rendered.rindex("SELECT chunk_id, score FROM answer")] + f"""
        SELECT (SELECT count(*) FROM rests WHERE cut) AS cut, (SELECT v FROM proven1) AS proven,
               {third} AS third, (SELECT count(*) FROM rests WHERE depth IS NOT NULL AND NOT cut) AS whole,
               (SELECT count(*) FROM essential) AS essential, (SELECT count(*) FROM partial) AS unseen,
               (SELECT count(*) FROM led0) - (SELECT count(*) FROM led{LEADS}) AS dropped,
               {merged} AS merged, {probed} AS probed"""


@pytest.mark.parametrize("spec", ["abs-inline-4-c8", "for-table-4-c8", "abs-inline-4"])
def test_block_search_is_exact(engine: Engine, tenant: str, spec: str) -> None:
    """Tiny blocks and champion lists, so that every path runs: cut terms, the level round and
    the third, lists read whole instead of their champions, essential blocks and the sweep,
    lead passes by probes and by merges, probes; each query at several settings."""
    _corpus(engine, tenant)
    variant = Variant.parse(spec)
    build(engine, tenant, variant, rebuild=True)
    rendered = statement(variant)
    sql = text(rendered)
    paths = text(_paths(rendered, variant))
    taken = {"cut": 0, "unproven": 0, "essential": 0, "unseen": 0, "dropped": 0, "merged": 0, "probed": 0}
    if variant.champions:
        taken |= {"third": 0, "whole": 0}
    queries = _queries()
    # (seeds, probe, share, depth1, whole, merge): merge 0 completes every pass by a merge,
    # 1e9 none; whole 0 reads no champion term in full.
    settings_tried = (Settings(2, 3, 1.0, 1, 0.0, 0.0), Settings(1, 1, 0.5, 2, 4.0, 1e9),
                      Settings(3, 20, 0.7, 1, 2.0, 0.5), Settings(2, 2, 1.0, 1, 0.0, 1e9))
    with engine.connect() as conn:
        for words in queries:
            terms = analyze(" ".join(words))
            exact = [(r.chunk_id, r.score) for r in conn.execute(EXACT, bind(tenant, terms, 10))]
            for settings in settings_tried:
                got = [(r.chunk_id, r.score) for r in conn.execute(sql, bind(tenant, terms, 10, settings))]
                assert agrees(got, exact), (words, settings, got, exact)
                did = conn.execute(paths, bind(tenant, terms, 10, settings)).one()
                for key in taken:
                    taken[key] += bool(not did.proven if key == "unproven" else getattr(did, key))
    assert all(taken.values()), taken


_LAST_CHUNK = text("SELECT max(id) FROM chunks WHERE tenant_id = :t")

#: The chunks of documents, by external id.
_CHUNKS_OF = text("""SELECT c.id FROM chunks c JOIN search_documents d ON d.id = c.search_document_id
                     WHERE d.tenant_id = :t AND d.external_id = ANY(:names)""")


@pytest.mark.parametrize("spec", ["abs-inline-4-c8", "for-inline-4-c8"])
def test_block_search_reads_the_delta_and_the_tombstones(engine: Engine, tenant: str, spec: str) -> None:
    """After the blocks were built: 60 documents deleted and 40 replaced (their chunks
    tombstoned), the 40 replacements and 80 new documents in the delta.  Every answer is the
    exact scan's over the live corpus (its N, df and average length as the writers left
    them), and without either write-side table some answers would not be."""
    _corpus(engine, tenant)
    variant = Variant.parse(spec)
    build(engine, tenant, variant, rebuild=True)
    with engine.begin() as conn:
        watermark = conn.execute(_LAST_CHUNK, {"t": tenant}).scalar_one()
        gone = [f"d{i}" for i in range(60)] + [f"d{i}" for i in range(100, 140)]
        dead = [int(c) for c in conn.execute(_CHUNKS_OF, {"t": tenant, "names": gone}).scalars()]
        for name in gone[:60]:
            assert delete_document(conn, tenant, name)
        written = _documents(tenant, range(100, 140), 6) + _documents(tenant, range(600, 680), 7)
        replace_documents(conn, written, k1=DEFAULTS.k1, b=DEFAULTS.b)
        tombstone(conn, variant, dead)
        moved = to_delta(conn, variant, watermark)
    assert len(dead) == 100 and moved > 500
    sql = text(statement(variant))
    settings_tried = (Settings(2, 3, 1.0, 1, 0.0, 0.0), Settings(1, 1, 0.5, 2, 4.0, 1e9),
                      Settings(3, 20, 0.7, 1, 2.0, 0.5))
    newest = 0
    with engine.connect() as conn:
        exact = {}
        for words in _queries():
            terms = analyze(" ".join(words))
            want = [(r.chunk_id, r.score) for r in conn.execute(EXACT, bind(tenant, terms, 10))]
            exact[tuple(words)] = want
            newest += any(c > watermark for c, _ in want)
            for settings in settings_tried:
                got = [(r.chunk_id, r.score) for r in conn.execute(sql, bind(tenant, terms, 10, settings))]
                assert agrees(got, want), (words, settings, got, want)
        assert newest >= 10
        # Either side ignored, answers go wrong: dead chunks ranked, or new ones missed.
        for table in (variant.dead, variant.delta):
            conn.rollback()
            conn.execute(text(f"DELETE FROM {table}"))
            wrong = sum(not agrees([(r.chunk_id, r.score) for r in conn.execute(
                sql, bind(tenant, analyze(" ".join(words)), 10, settings_tried[0]))], want)
                for words, want in exact.items())
            conn.rollback()
            assert wrong >= 5, (table, wrong)
