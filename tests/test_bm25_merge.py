"""The BM25 write side in blocks (migration 0030; indexing/store.py, bm25_writes.py,
bm25_merge.py): after any sequence of inserts, replaces and deletes with merges between, the
tables decode to exactly the postings an independent analysis of the live chunks gives, df and
statistics are exact, blocks and champions keep their invariants, and a concurrent reader never
sees half a document."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter, defaultdict

import numpy as np
import pytest
from sqlalchemy import Connection, Engine, text

from indexing import bm25_layout, bm25_merge
from indexing.analyzer import term_frequencies
from indexing.bm25_layout import BLOCK, OFFS2_SPAN
from indexing.chunking import Chunk, context_text
from indexing.ranking import DEFAULTS
from indexing.store import (
    ChunkTooLong,
    DocumentWrite,
    IndexedDocument,
    delete_document,
    refresh_impacts,
    replace_documents,
)

VOCAB = [f"w{i}" for i in range(120)]


@pytest.fixture
def small_champions(monkeypatch: pytest.MonkeyPatch) -> None:
    """C from 8 up (N / 64 beyond), so that a few hundred chunks have champion lists."""
    monkeypatch.setattr(bm25_layout, "MIN_CHAMPIONS", 8)


def _words(rng: random.Random, n: int) -> str:
    return " ".join(VOCAB[min(int(rng.paretovariate(0.8)) - 1, len(VOCAB) - 1)] for _ in range(n))


def _write(tenant: str, name: str, rng: random.Random, chunks: int | None = None) -> DocumentWrite:
    """A document of 1-4 chunks of Zipf text under headings (the heading path is indexed)."""
    count = chunks if chunks is not None else rng.randint(1, 4)
    body = [Chunk(_words(rng, rng.randint(3, 50)), ("Report", f"part {rng.choice(VOCAB)}") if n % 2 else (),
                  None, None, 10) for n in range(count)]
    vectors = np.random.default_rng(rng.randrange(10**6)).normal(size=(count, 384)).astype(np.float32)
    doc = IndexedDocument(tenant, name, None, None, f"{name}-{rng.random()}", "text/plain", None, "{}")
    return DocumentWrite(doc, body, vectors)


def _index(engine: Engine, writes: list[DocumentWrite]) -> None:
    with engine.begin() as conn:
        replace_documents(conn, writes, k1=DEFAULTS.k1, b=DEFAULTS.b)


def _merge(engine: Engine, tenant: str) -> bm25_merge.MergeResult:
    with engine.begin() as conn:
        return bm25_merge.merge(conn, tenant)


#: Every block of the tenant decoded, with each posting's impact (as the merge computes it).
_BLOCKS = text(f"""
SELECT b.term_id, b.last_chunk, b.first_chunk, b.max_impact::float8 AS bound, b.offs2, b.offs4,
       cardinality(b.tfs) AS n, cardinality(b.lens) AS n_lens,
       array_agg(b.first_chunk + u.off ORDER BY u.ord) AS chunks,
       array_agg({bm25_layout.IMPACT.format(tf="u.tf", len="u.len")} ORDER BY u.ord) AS impacts
FROM bm25_blocks b JOIN bm25_terms t ON t.id = b.term_id AND t.tenant_id = :tenant
CROSS JOIN bm25_stats s
CROSS JOIN LATERAL unnest(coalesce(b.offs2::int4[], b.offs4), b.tfs, b.lens)
                   WITH ORDINALITY AS u(off, tf, len, ord)
WHERE s.tenant_id = :tenant
GROUP BY b.term_id, b.last_chunk, b.first_chunk, b.max_impact, b.offs2, b.offs4, b.tfs, b.lens
ORDER BY b.term_id, b.last_chunk
""")

_TOP = text(f"""
SELECT b.term_id, b.blk, b.first_chunk, b.min_impact::float8 AS bound, b.offs2, b.offs4,
       array_agg(b.first_chunk + u.off ORDER BY u.ord) AS chunks,
       array_agg({bm25_layout.IMPACT.format(tf="u.tf", len="u.len")} ORDER BY u.ord) AS impacts
FROM bm25_top b JOIN bm25_terms t ON t.id = b.term_id AND t.tenant_id = :tenant
CROSS JOIN bm25_stats s
CROSS JOIN LATERAL unnest(coalesce(b.offs2::int4[], b.offs4), b.tfs, b.lens)
                   WITH ORDINALITY AS u(off, tf, len, ord)
WHERE s.tenant_id = :tenant
GROUP BY b.term_id, b.blk, b.first_chunk, b.min_impact, b.offs2, b.offs4
ORDER BY b.term_id, b.blk
""")

#: Champion lists written by more than one transaction: re-cut from a block after the first.
_PARTLY_RECUT = text("""
SELECT count(*) FROM (SELECT x.term_id FROM bm25_top x JOIN bm25_terms t ON t.id = x.term_id
                      WHERE t.tenant_id = :tenant GROUP BY x.term_id
                      HAVING count(DISTINCT x.xmin::text) > 1) p""")

_CHUNKS = text("SELECT id, text, heading_path, bm25_length FROM chunks WHERE tenant_id = :tenant")
_TERMS = text("SELECT id, term, df FROM bm25_terms WHERE tenant_id = :tenant")
_STATS = text("""SELECT chunk_count, total_length, champions, delta_postings,
                        (SELECT count(*) FROM bm25_delta d JOIN bm25_terms t ON t.id = d.term_id
                         WHERE t.tenant_id = :tenant) AS delta_rows,
                        (SELECT count(*) FROM bm25_dead WHERE tenant_id = :tenant) AS dead_rows
                 FROM bm25_stats WHERE tenant_id = :tenant""")


def check_index(conn: Connection, tenant: str, *, merged: bool) -> dict[str, int]:
    """Everything the module docstring promises, against the live chunks re-analysed; with
    ``merged``, also that the delta and the tombstones are empty.  Returns a few counts."""
    chunks = conn.execute(_CHUNKS, {"tenant": tenant}).all()
    terms = {int(r.id): (str(r.term), int(r.df)) for r in conn.execute(_TERMS, {"tenant": tenant})}
    expected = set()
    for c in chunks:
        counts, length = term_frequencies(context_text(tuple(c.heading_path or ()), c.text))
        assert length == c.bm25_length
        expected |= {(term, int(c.id), tf, length) for term, tf in counts.items()}
    got = {(terms[t][0], c, tf, n) for t, c, tf, n in bm25_merge.live_postings(conn, tenant)}
    assert len(got) == len(bm25_merge.live_postings(conn, tenant))  # no posting twice
    assert got == expected
    df = Counter(term for term, _, _, _ in expected)
    assert {term: d for term, d in terms.values() if d} == dict(df)
    stats = conn.execute(_STATS, {"tenant": tenant}).one()
    assert (stats.chunk_count, stats.total_length) == (len(chunks), sum(c.bm25_length for c in chunks))
    assert stats.delta_postings == stats.delta_rows
    if merged:
        assert stats.delta_rows == 0 and stats.dead_rows == 0
    # Blocks: disjoint chunk-id ranges per term, the encoding, and max_impact a bound.
    impact: dict[tuple[int, int], float] = {}
    last: dict[int, int] = {}
    offs4 = 0
    dead = {int(c) for c in conn.execute(text("SELECT chunk_id FROM bm25_dead WHERE tenant_id = :tenant"),
                                         {"tenant": tenant}).scalars()}
    for b in conn.execute(_BLOCKS, {"tenant": tenant}):
        assert 0 < b.n == b.n_lens == len(b.chunks) <= BLOCK
        assert b.chunks == sorted(set(b.chunks))
        assert (b.chunks[0], b.chunks[-1]) == (b.first_chunk, b.last_chunk)
        assert b.first_chunk > last.get(b.term_id, -1)
        last[b.term_id] = b.last_chunk
        assert (b.offs2 is None) != (b.offs4 is None)
        assert (b.offs2 is not None) == (b.last_chunk - b.first_chunk < OFFS2_SPAN)
        offs4 += b.offs4 is not None
        assert b.bound >= max(b.impacts)
        impact |= {(b.term_id, c): i for c, i in zip(b.chunks, b.impacts, strict=True) if c not in dead}
    # Champions: blocks 0..n-1 in impact order; block k's min_impact bounds every merged live
    # posting of the term outside blocks 0..k.
    tops: dict[int, list[tuple[int, float, list[int], list[float]]]] = defaultdict(list)
    for b in conn.execute(_TOP, {"tenant": tenant}):
        tops[b.term_id].append((b.blk, b.bound, b.chunks, b.impacts))
        assert b.chunks == sorted(b.chunks) and b.chunks[0] == b.first_chunk
        assert (b.offs2 is not None) == (b.chunks[-1] - b.first_chunk < OFFS2_SPAN)
    champion_postings = 0
    for term_id, blocks in tops.items():
        assert [blk for blk, _, _, _ in blocks] == list(range(len(blocks)))
        seen: set[int] = set()
        previous_least = float("inf")
        for _, bound, chunk_ids, impacts in blocks:
            assert max(impacts) <= previous_least
            previous_least = min(impacts)
            seen |= set(chunk_ids)
            assert all(impact[(term_id, c)] == i
                       for c, i in zip(chunk_ids, impacts, strict=True) if c not in dead)
            rest = [i for (t, c), i in impact.items() if t == term_id and c not in seen]
            assert bound >= min(impacts)
            assert all(i <= bound for i in rest), (term_id, bound, max(rest, default=0))
        champion_postings += len(seen)
    return {"postings": len(got), "champion_terms": len(tops), "champion_postings": champion_postings,
            "offs4_blocks": offs4, "blocks": sum(1 for _ in last)}


@pytest.mark.parametrize("least_c", [8, 256])
def test_any_sequence_of_writes_and_merges_keeps_the_index_exact(engine: Engine, tenant: str, least_c: int,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """C from 8 (lists of one block) and from 256 (of several: merges re-cut them from the
    first block a new posting reaches, keeping those before)."""
    monkeypatch.setattr(bm25_layout, "MIN_CHAMPIONS", least_c)
    rng = random.Random(33)
    live: set[str] = set()
    counter = 0

    def new_names(n: int) -> list[str]:
        nonlocal counter
        counter += n
        return [f"d{i}" for i in range(counter - n, counter)]

    _index(engine, [_write(tenant, name, rng) for name in new_names(300)])
    live |= {f"d{i}" for i in range(300)}
    with engine.begin() as conn:
        check_index(conn, tenant, merged=False)
        first = bm25_merge.rebuild(conn, tenant)
        assert first.rebuilt and first.postings > 2000
        built = check_index(conn, tenant, merged=True)
    assert built["champion_terms"] >= (5 if least_c < BLOCK else 1) and built["blocks"] > 0
    merges = []
    partly = 0
    for step in range(12):
        if step == 5:  # chunk ids jump: blocks of rare terms then span more than int2 offsets
            with engine.begin() as conn:
                conn.execute(text("SELECT setval(pg_get_serial_sequence('chunks', 'id'), "
                                  "(SELECT max(id) FROM chunks) + 40000)"))
        only_new = step in (1, 7)  # merges without tombstones re-cut champions from a later block
        batch = [_write(tenant, name, rng) for name in new_names(1 if only_new else rng.randint(5, 40))]
        replaced = [] if only_new else rng.sample(sorted(live), rng.randint(1, 15))
        batch += [_write(tenant, name, rng) for name in replaced]
        _index(engine, batch)
        live |= {w.doc.external_id for w in batch}
        with engine.begin() as conn:
            for name in rng.sample(sorted(live), 0 if only_new else rng.randint(1, 12)):
                assert delete_document(conn, tenant, name)
                live.discard(name)
            check_index(conn, tenant, merged=False)
        if step % 3 != 2:  # some rounds leave the delta and tombstones for the next
            merges.append(_merge(engine, tenant))
            with engine.begin() as conn:
                after = check_index(conn, tenant, merged=True)
                partly += conn.execute(_PARTLY_RECUT, {"tenant": tenant}).scalar_one()
    assert any(m.tombstones for m in merges) and any(m.delta_postings for m in merges)
    assert any(m.champions_recut for m in merges) and any(m.blocks_written for m in merges)
    assert after["offs4_blocks"] > 0
    assert (partly > 0) == (least_c > BLOCK)  # lists of several blocks were re-cut from a later one
    # Documents written after a merge and deleted before the next never reach the blocks.
    _merge(engine, tenant)
    _index(engine, [_write(tenant, "fleeting", rng)])
    with engine.begin() as conn:
        assert delete_document(conn, tenant, "fleeting")
        assert conn.execute(text("SELECT count(*) FROM bm25_dead WHERE tenant_id = :t"),
                            {"t": tenant}).scalar() == 0
    # refresh_impacts rebuilds with the corpus's average length: still exact.
    with engine.begin() as conn:
        refreshed = refresh_impacts(conn, tenant, k1=1.1, b=0.6)
        assert refreshed == check_index(conn, tenant, merged=True)["postings"]


def test_terms_passing_twice_c_get_champions_and_c_grows_with_the_corpus(engine: Engine, tenant: str,
                                                                          small_champions: None) -> None:
    rng = random.Random(5)
    _index(engine, [_write(tenant, f"a{i}", rng, chunks=1) for i in range(200)])
    with engine.begin() as conn:
        bm25_merge.rebuild(conn, tenant)
        c = conn.execute(text("SELECT champions FROM bm25_stats WHERE tenant_id = :t"),
                         {"t": tenant}).scalar()
        assert c == 8  # 200 chunks / 64 -> 4, at least 8
    # A term nobody used, now in 30 new chunks: df 30 > 2·8, champions built by the merge.
    rare = [DocumentWrite(IndexedDocument(tenant, f"r{i}", None, None, f"r{i}", None, None, "{}"),
                          [Chunk(f"zebra {_words(rng, 5)}", (), None, None, 6)],
                          np.zeros((1, 384), dtype=np.float32) + 0.1) for i in range(30)]
    _index(engine, rare)
    merged = _merge(engine, tenant)
    assert merged.champions_built >= 1 and not merged.rebuilt
    with engine.begin() as conn:
        zebra = conn.execute(text("SELECT count(*) FROM bm25_top x JOIN bm25_terms t ON t.id = x.term_id "
                                  "WHERE t.tenant_id = :t AND t.term = 'zebra'"), {"t": tenant}).scalar()
        assert zebra == 1
        check_index(conn, tenant, merged=True)
    # Past 64·C chunks C doubles: the merge rebuilds instead.
    _index(engine, [_write(tenant, f"b{i}", rng, chunks=1) for i in range(400)])
    grown = _merge(engine, tenant)
    assert grown.rebuilt
    with engine.begin() as conn:
        assert conn.execute(text("SELECT champions FROM bm25_stats WHERE tenant_id = :t"),
                            {"t": tenant}).scalar() == 16
        check_index(conn, tenant, merged=True)


def test_a_deleted_chunk_the_analyzer_no_longer_reads_alike_is_found_by_decoding(engine: Engine,
                                                                                  tenant: str) -> None:
    rng = random.Random(8)
    _index(engine, [_write(tenant, f"d{i}", rng, chunks=2) for i in range(20)])
    _merge(engine, tenant)
    with engine.begin() as conn:
        # As if the analyzer had changed since: the stored text no longer gives its postings.
        conn.execute(text("""UPDATE chunks SET text = 'entirely other words' FROM search_documents d
                             WHERE d.id = chunks.search_document_id AND d.external_id = 'd3'"""))
        assert delete_document(conn, tenant, "d3")
        check_index(conn, tenant, merged=False)
    _merge(engine, tenant)
    with engine.begin() as conn:
        check_index(conn, tenant, merged=True)


def test_a_chunk_longer_than_the_int2_lengths_fails_its_document(engine: Engine, tenant: str) -> None:
    rng = random.Random(2)
    long = DocumentWrite(IndexedDocument(tenant, "huge.txt", None, None, "h", None, None, "{}"),
                         [Chunk("word " * 32768, (), None, None, 32768)],
                         np.zeros((1, 384), dtype=np.float32))
    with engine.begin() as conn, \
            pytest.raises(ChunkTooLong, match=r"'huge.txt': chunk 0 has 32768 BM25 terms"):
        replace_documents(conn, [_write(tenant, "fine", rng), long], k1=DEFAULTS.k1, b=DEFAULTS.b)
    assert issubclass(ChunkTooLong, ValueError)
    _index(engine, [_write(tenant, "fine", rng)])  # nothing of the failed write is left
    with engine.begin() as conn:
        check_index(conn, tenant, merged=False)


def test_merges_due_past_the_threshold_only(engine: Engine, tenant: str) -> None:
    rng = random.Random(4)
    _index(engine, [_write(tenant, f"d{i}", rng, chunks=2) for i in range(10)])
    with engine.connect() as conn:
        pending = conn.execute(text("SELECT delta_postings FROM bm25_stats WHERE tenant_id = :t"),
                               {"t": tenant}).scalar_one()
    assert pending > 0
    assert bm25_merge.merge_due(engine, [tenant], pending) == {}
    done = bm25_merge.merge_due(engine, [tenant], pending - 1)
    assert done[tenant].delta_postings == pending
    with engine.begin() as conn:
        check_index(conn, tenant, merged=True)


#: One snapshot: each chunk's visible postings (blocks less tombstones, and the delta) against
#: its length, postings of chunks that are gone, live chunks without postings, and df.
_WHOLE = text(f"""
WITH live AS ({bm25_merge.LIVE_SQL}),
per_chunk AS (SELECT chunk_id, sum(tf) AS s, count(*) AS n FROM live GROUP BY chunk_id)
SELECT (SELECT count(*) FROM per_chunk p LEFT JOIN chunks c ON c.id = p.chunk_id
        WHERE c.id IS NULL) AS orphans,
       (SELECT count(*) FROM per_chunk p JOIN chunks c ON c.id = p.chunk_id
        WHERE c.bm25_length <> p.s) AS partial,
       (SELECT count(*) FROM chunks c WHERE c.tenant_id = :tenant AND c.bm25_length > 0
          AND NOT EXISTS (SELECT 1 FROM per_chunk p WHERE p.chunk_id = c.id)) AS missing,
       (SELECT coalesce(sum(n), 0) FROM per_chunk)
           = (SELECT sum(df) FROM bm25_terms WHERE tenant_id = :tenant)
           AS df_exact,
       (SELECT count(*) FROM search_documents d WHERE d.tenant_id = :tenant
          AND d.chunk_count <> (SELECT count(*) FROM chunks c WHERE c.search_document_id = d.id)) AS torn
""")


def test_a_reader_sees_every_document_wholly_or_not_at_all_during_writes_and_merges(
        engine: Engine, tenant: str, small_champions: None) -> None:
    rng = random.Random(21)
    _index(engine, [_write(tenant, f"d{i}", rng, chunks=3) for i in range(150)])
    with engine.begin() as conn:
        bm25_merge.rebuild(conn, tenant)
    stop = threading.Event()
    errors: list[BaseException] = []
    reads = Counter[str]()

    def guarded(work):  # type: ignore[no-untyped-def]
        def run() -> None:
            try:
                while not stop.is_set():
                    work()
            except BaseException as exc:  # noqa: BLE001 - reported by the main thread
                errors.append(exc)
                stop.set()
        return run

    writer_rng = random.Random(22)

    def write() -> None:
        name = f"d{writer_rng.randrange(200)}"
        if writer_rng.random() < 0.3:
            with engine.begin() as conn:
                delete_document(conn, tenant, name)
        else:
            _index(engine, [_write(tenant, name, writer_rng, chunks=3)])
        reads["writes"] += 1

    def merge() -> None:
        _merge(engine, tenant)
        reads["merges"] += 1
        time.sleep(0.05)

    def read() -> None:
        with engine.connect() as conn:
            row = conn.execute(_WHOLE, {"tenant": tenant}).one()
        assert (row.orphans, row.partial, row.missing, row.torn) == (0, 0, 0, 0) and row.df_exact, row
        reads["reads"] += 1

    threads = [threading.Thread(target=guarded(w)) for w in (write, merge, read, read)]
    for t in threads:
        t.start()
    time.sleep(20)
    stop.set()
    for t in threads:
        t.join(60)
    assert not errors, errors[0]
    assert reads["writes"] > 50 and reads["merges"] > 10 and reads["reads"] > 20, reads
    _merge(engine, tenant)
    with engine.begin() as conn:
        check_index(conn, tenant, merged=True)


@pytest.mark.system
def test_the_cli_merges_and_rebuilds_a_tenant(engine: Engine, tenant: str, test_env: dict[str, str]) -> None:
    import subprocess
    import sys

    from tests.conftest import ROOT

    rng = random.Random(6)
    _index(engine, [_write(tenant, f"d{i}", rng) for i in range(10)])
    with engine.connect() as conn:
        name = conn.execute(text("SELECT name FROM tenants WHERE id = :t"), {"t": tenant}).scalar_one()
    for args, said in ((["bm25", "merge", "--tenant", name], "deleted chunks merged"),
                       (["bm25", "merge", "--rebuild", "--tenant", name], "rebuilt"),
                       (["bm25", "refresh", "--tenant", name], "postings refreshed")):
        done = subprocess.run([sys.executable, "-m", "app.cli", *args], env=test_env, cwd=ROOT,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and said in done.stdout, done.stderr
        with engine.begin() as conn:
            check_index(conn, tenant, merged=True)


def _exact_top(conn: Connection, tenant: str, query: list[str], k: int) -> list[tuple[int, float]]:
    """Okapi BM25 with Lucene's IDF over the live chunks re-analysed: the independent answer."""
    import math

    chunks = conn.execute(_CHUNKS, {"tenant": tenant}).all()
    counts = {int(c.id): term_frequencies(context_text(tuple(c.heading_path or ()), c.text))
              for c in chunks}
    n, avgdl = len(counts), sum(length for _, length in counts.values()) / len(counts)
    df = Counter(term for tfs, _ in counts.values() for term in tfs)
    scores = {}
    for chunk, (tfs, length) in counts.items():
        score = sum(math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) * tfs[t] * (DEFAULTS.k1 + 1)
                    / (tfs[t] + DEFAULTS.k1 * (1 - DEFAULTS.b + DEFAULTS.b * length / avgdl))
                    for t in query if t in tfs)
        if score > 0:
            scores[chunk] = score
    return sorted(scores.items(), key=lambda cs: (-cs[1], cs[0]))[:k]


def test_search_over_merged_blocks_champions_delta_and_tombstones_is_exact(engine: Engine, tenant: str,
                                                                           small_champions: None) -> None:
    """The search (indexing/sql/bm25*.sql) reads exactly these tables: after a build, merges,
    and unmerged writes and deletions, its top 10 are the exact ones."""
    from indexing.analyzer import analyze
    from indexing.search import SearchParams, search

    rng = random.Random(40)
    _index(engine, [_write(tenant, f"d{i}", rng) for i in range(250)])
    with engine.begin() as conn:
        bm25_merge.rebuild(conn, tenant)
    for step in range(3):
        names = sorted({rng.randrange(300) for _ in range(30)})
        _index(engine, [_write(tenant, f"d{i}", rng) for i in names])
        with engine.begin() as conn:
            for name in {f"d{rng.randrange(300)}" for _ in range(10)}:
                delete_document(conn, tenant, name)
        if step < 2:
            _merge(engine, tenant)  # the last round stays in the delta and the tombstones
    queries = [" ".join(rng.choice(VOCAB[:40]) for _ in range(rng.randint(1, 4))) for _ in range(30)]
    with engine.begin() as conn:
        assert conn.execute(text("SELECT count(*) FROM bm25_dead WHERE tenant_id = :t"),
                            {"t": tenant}).scalar()
        for query in queries:
            want = _exact_top(conn, tenant, analyze(query), 10)
            hits = search(conn, tenant, query, k=10, mode="bm25", collapse=False, params=SearchParams(),
                          snippets=False)
            got = [(h.chunk_id, h.score) for h in hits]
            assert [s for _, s in got] == pytest.approx([s for _, s in want], rel=1e-9), query
            tied = len({round(s, 9) for _, s in want}) < len(want)  # ties may swap chunks of one score
            assert tied or {c for c, _ in got} == {c for c, _ in want}, query
