"""What a document write costs with BM25 postings in blocks: rewriting blocks in the indexing
transaction against a delta table merged later (bench/bm25_blocks.py says why it matters).

    python -m bench.bm25_blocks_writes --chunks 200000 --documents 200

On a scratch copy of the 'abs-inline-128' blocks that bench/bm25_blocks.py built in the search
bench's database, for documents of 10 chunks drawn like the corpus's (60-139 Zipf terms each,
chunk ids above every existing one, as new chunks get):

- rewrite: each document one transaction that appends its postings to each of its terms' last
  block (or starts a block when the last is full) -- what keeping the blocks current inside the
  indexing transaction costs;
- delta: each document one transaction inserting its postings into ``bench_bm25_w_delta``
  (term_id, chunk_id, tf, doc_length, impact; key (term_id, chunk_id)), a table as small as the
  writes since the last merge;
- merge: all those delta rows into the blocks in one transaction (each touched term's last,
  unfilled block and its new postings re-cut into full blocks), then the delta emptied.

Champion maintenance and tombstones are not in these numbers (the design in bench/bm25_blocks.py
describes them).  Nothing of the bench corpus is changed: the scratch tables are dropped first
and left behind for inspection.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, TextClause, text

from bench.bm25_blocks import Variant
from bench.database import add_home_argument, bench_tenant
from bench.search import VOCABULARY

BLOCK = 128
SOURCE = Variant.parse(f"abs-inline-{BLOCK}")

#: The scratch copy of the blocks and an empty delta beside it.
_SCRATCH = [
    "DROP TABLE IF EXISTS bench_bm25_w_blocks",
    "DROP TABLE IF EXISTS bench_bm25_w_delta",
    f"CREATE TABLE bench_bm25_w_blocks AS SELECT * FROM {SOURCE.table}",
    "ALTER TABLE bench_bm25_w_blocks ADD PRIMARY KEY (term_id, last_chunk) "
    "INCLUDE (first_chunk, max_impact)",
    """CREATE TABLE bench_bm25_w_delta (term_id bigint NOT NULL, chunk_id bigint NOT NULL,
           tf int NOT NULL, doc_length int NOT NULL, impact real NOT NULL,
           PRIMARY KEY (term_id, chunk_id))""",
    "VACUUM ANALYZE bench_bm25_w_blocks",
]

#: A document's postings as rows (the parameters: parallel arrays, as the service's writer binds).
_POSTINGS = """
    SELECT p.term_id, p.chunk_id, p.tf, p.dl,
           bm25_term_score(1.0::float8, p.tf, p.dl, s.impact_avgdl, s.impact_k1, s.impact_b)::real AS impact
    FROM unnest(CAST(:terms AS bigint[]), CAST(:chunks AS bigint[]), CAST(:tfs AS int[]),
                CAST(:lens AS int[])) AS p(term_id, chunk_id, tf, dl)
    CROSS JOIN (SELECT impact_avgdl, impact_k1, impact_b FROM bm25_stats WHERE tenant_id = :tenant) s
"""

#: Rewrite: each term's new postings appended to its last block when they fit, else a new block.
_REWRITE = text(f"""
WITH p AS ({_POSTINGS}),
g AS (
    SELECT term_id, min(chunk_id) AS first, max(chunk_id) AS last, max(impact) AS mi,
           array_agg(chunk_id::int4 ORDER BY chunk_id) AS ids,
           array_agg(tf::int2 ORDER BY chunk_id) AS tfs, array_agg(dl::int2 ORDER BY chunk_id) AS lens
    FROM p GROUP BY term_id
),
tail AS (
    SELECT DISTINCT ON (b.term_id) b.term_id, b.last_chunk, cardinality(b.chunk_ids) AS n
    FROM bench_bm25_w_blocks b JOIN g ON g.term_id = b.term_id
    ORDER BY b.term_id, b.last_chunk DESC
),
appended AS (
    UPDATE bench_bm25_w_blocks b
    SET last_chunk = g.last, max_impact = greatest(b.max_impact, (g.mi::float8 * (1.0 + 1e-6))::real),
        chunk_ids = b.chunk_ids || g.ids, tfs = b.tfs || g.tfs, lens = b.lens || g.lens
    FROM g JOIN tail t ON t.term_id = g.term_id
    WHERE b.term_id = t.term_id AND b.last_chunk = t.last_chunk AND t.n + cardinality(g.ids) <= {BLOCK}
    RETURNING b.term_id
)
INSERT INTO bench_bm25_w_blocks (term_id, last_chunk, first_chunk, max_impact, chunk_ids, tfs, lens)
SELECT g.term_id, g.last, g.first, (g.mi::float8 * (1.0 + 1e-6))::real, g.ids, g.tfs, g.lens
FROM g WHERE g.term_id NOT IN (SELECT term_id FROM appended)
""")

_DELTA = text(f"INSERT INTO bench_bm25_w_delta (term_id, chunk_id, tf, doc_length, impact) {_POSTINGS}")

#: Merge: every term of the delta loses its last block if unfilled, whose postings join the
#: term's delta rows, re-cut into blocks of BLOCK; then the delta is emptied.
_MERGE = [text(f"""
WITH tails AS (
    DELETE FROM bench_bm25_w_blocks b
    USING (SELECT DISTINCT ON (x.term_id) x.term_id, x.last_chunk
           FROM bench_bm25_w_blocks x
           WHERE x.term_id IN (SELECT DISTINCT term_id FROM bench_bm25_w_delta)
           ORDER BY x.term_id, x.last_chunk DESC) t
    WHERE b.term_id = t.term_id AND b.last_chunk = t.last_chunk AND cardinality(b.chunk_ids) < {BLOCK}
    RETURNING b.*
),
postings AS (
    SELECT t.term_id, u.c::bigint AS chunk_id, u.tf::int AS tf, u.dl::int AS dl,
           bm25_term_score(1.0::float8, u.tf::int, u.dl::int, s.impact_avgdl, s.impact_k1,
                           s.impact_b) AS impact
    FROM tails t CROSS JOIN LATERAL unnest(t.chunk_ids, t.tfs, t.lens) AS u(c, tf, dl)
    CROSS JOIN (SELECT impact_avgdl, impact_k1, impact_b FROM bm25_stats WHERE tenant_id = :tenant) s
    UNION ALL
    SELECT term_id, chunk_id, tf, doc_length, impact FROM bench_bm25_w_delta
)
INSERT INTO bench_bm25_w_blocks (term_id, last_chunk, first_chunk, max_impact, chunk_ids, tfs, lens)
SELECT term_id, max(chunk_id), min(chunk_id), (max(impact)::float8 * (1.0 + 1e-6))::real,
       array_agg(chunk_id::int4 ORDER BY chunk_id), array_agg(tf::int2 ORDER BY chunk_id),
       array_agg(dl::int2 ORDER BY chunk_id)
FROM (SELECT *, (row_number() OVER (PARTITION BY term_id ORDER BY chunk_id) - 1) / {BLOCK} AS blk
      FROM postings) p
GROUP BY term_id, blk
"""), text("DELETE FROM bench_bm25_w_delta")]


def _documents(engine: Engine, tenant: str, count: int, seed: int = 7) -> list[dict[str, Any]]:
    """``count`` documents of 10 chunks, as parameter sets (term ids, chunk ids, tfs, lengths)."""
    with engine.connect() as conn:
        ids: dict[str, int] = {term: term_id for term, term_id in conn.execute(
            text("SELECT term, id FROM bm25_terms WHERE tenant_id = :t"), {"t": tenant})}
        next_id = int(conn.execute(text("SELECT max(id) FROM chunks")).scalar_one()) + 1_000_000
    rng = random.Random(seed)
    documents = []
    for _ in range(count):
        terms: list[int] = []
        chunks: list[int] = []
        tfs: list[int] = []
        lens: list[int] = []
        for _ in range(10):
            words = [f"t{int(VOCABULARY ** rng.random())}" for _ in range(60 + rng.randrange(80))]
            counts: dict[int, int] = {}
            for word in words:
                if word in ids:
                    counts[ids[word]] = counts.get(ids[word], 0) + 1
            for term_id, tf in counts.items():
                terms.append(term_id)
                chunks.append(next_id)
                tfs.append(tf)
                lens.append(len(words))
            next_id += 1
        documents.append({"tenant": tenant, "terms": terms, "chunks": chunks, "tfs": tfs, "lens": lens})
    return documents


def _each(engine: Engine, statement: TextClause, documents: list[dict[str, Any]]) -> list[float]:
    """ms per document, each in a transaction of its own."""
    times = []
    for doc in documents:
        started = time.perf_counter()
        with engine.begin() as conn:
            conn.execute(statement, doc)
        times.append((time.perf_counter() - started) * 1000)
    return times


def run(home: Path, chunks: int, count: int) -> None:
    engine, tenant, have = bench_tenant(home / "pgdata", f"pagemill_bench_{chunks}", f"search-{chunks}")
    with engine.connect() as conn:
        if not have or not conn.execute(text("SELECT to_regclass(:t) IS NOT NULL"),
                                        {"t": SOURCE.table}).scalar_one():
            raise SystemExit(f"run python -m bench.bm25_blocks --chunks {chunks} "
                             f"--variants {SOURCE.name} first")
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        for scratch in _SCRATCH:
            conn.execute(text(scratch))
    documents = _documents(engine, tenant, 2 * count)
    postings = sum(len(d["terms"]) for d in documents[:count])
    rewrite = _each(engine, _REWRITE, documents[:count])
    delta = _each(engine, _DELTA, documents[count:])
    started = time.perf_counter()
    with engine.begin() as conn:
        for statement in _MERGE:
            conn.execute(statement, {"tenant": tenant})
    merge = time.perf_counter() - started
    print(f"{count} documents of 10 chunks, {postings / count:.0f} postings each, into the "
          f"{chunks:,}-chunk blocks ({SOURCE.name}):")
    print("| write | ms per document (median) | p95 ms |")
    print("|---|---:|---:|")
    for label, times in (("rewrite the blocks in the transaction", rewrite),
                         ("insert into the delta", delta)):
        p95 = sorted(times)[int(.95 * len(times))]
        print(f"| {label} | {statistics.median(times):.1f} | {p95:.1f} |")
    print(f"merge of the delta ({count} documents) into the blocks: {merge:.2f} s, "
          f"{merge / count * 1000:.1f} ms per document")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=200_000)
    parser.add_argument("--documents", type=int, default=200)
    add_home_argument(parser)
    args = parser.parse_args()
    run(Path(args.home), args.chunks, args.documents)


if __name__ == "__main__":
    main()
