"""What the BM25 write side costs in blocks (indexing/bm25_merge.py): documents written into
the delta, replaced (tombstones) and merged, on a tenant of synthetic chunks.

    python -m bench.bm25_merge --chunks 20000 --documents 200

The tenant (``--chunks`` one at a time in documents of 10, 60-139 Zipf terms each over a
50,000-term vocabulary, as bench/search.py draws them) is written through the service's own
writer (store.replace_documents) and rebuilt into blocks once, in the bench home's database
``pagemill_bench_merge_<chunks>`` (reused by later runs; each run's documents are deleted and
merged away at its end).  Then, each document in its own transaction:

- write: ``--documents`` new documents of 10 chunks (postings into the delta);
- merge: those postings into the blocks, in one merge, and in merges of PAGEMILL_BM25_MERGE_AT
  (20,000) postings as the workers run them;
- replace: the same documents written again (their merged chunks tombstoned, the new ones in
  the delta), then merged.

Measured 2026-12-05 (this 2-core machine, shared; 818 postings a document; ms per document
include the chunks, vectors and HNSW inserts of the write):

    --chunks 20000 --documents 200            write  p95   merge s  merge ms/doc
    new documents, one merge                   23.3  27.1    1.49      7.4
    replaced, one merge                        37.7  44.2    2.95     14.7
    replaced, a merge every 20,000 postings    37.9  42.1    8.30     41.5  (9 merges)
    --chunks 200000 --documents 200
    new documents, one merge                   24.0  30.9    4.45     22.3
    replaced, one merge                        38.5  46.7    8.32     41.6
    replaced, a merge every 20,000 postings    38.4  44.7   33.08    165.4  (9 merges)
    --chunks 200000 --documents 400 --merge-at 100000
    replaced, a merge every 100,000 postings   38.4  50.1   24.84     62.1  (4 merges)

Where a merge's time goes at 200,000 chunks (25 replaced documents, 20,804 postings): the
champion re-cut 2.8 s (445 lists, 1.8M postings decoded, sorted by impact and cut again: a
tombstone or a new posting above a list's first blocks moves every posting after it), the
blocks holding tombstoned chunks 1.0 s (8,160 blocks), appending 0.3 s (8,392 terms).  So a
merge costs about the same whatever it moves: merging less often (PAGEMILL_BM25_MERGE_AT) is
what makes it cheaper per document.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

import numpy as np
from sqlalchemy import Engine, text

from bench.database import add_home_argument, bench_tenant
from indexing import bm25_merge
from indexing.chunking import Chunk
from indexing.ranking import DEFAULTS
from indexing.store import DocumentWrite, IndexedDocument, delete_document, replace_documents

VOCABULARY = 50_000
CHUNKS_PER_DOCUMENT = 10


def _document(tenant: str, name: str, rng: random.Random, version: int) -> DocumentWrite:
    chunks = [Chunk(" ".join(f"t{int(VOCABULARY ** rng.random())}" for _ in range(60 + rng.randrange(80))),
                    (), None, None, 100) for _ in range(CHUNKS_PER_DOCUMENT)]
    vectors = np.full((CHUNKS_PER_DOCUMENT, 384), 0.05, dtype=np.float32)
    doc = IndexedDocument(tenant, name, None, None, f"{name}-{version}", "text/plain", None, "{}")
    return DocumentWrite(doc, chunks, vectors)


def _fill(engine: Engine, tenant: str, chunks: int) -> None:
    rng = random.Random(1)
    documents = chunks // CHUNKS_PER_DOCUMENT
    for start in range(0, documents, 50):
        with engine.begin() as conn:
            replace_documents(conn, [_document(tenant, f"base{i}", rng, 0)
                                     for i in range(start, min(documents, start + 50))],
                              k1=DEFAULTS.k1, b=DEFAULTS.b)
    with engine.begin() as conn:
        bm25_merge.rebuild(conn, tenant)
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text("VACUUM (ANALYZE)"))


def _each(engine: Engine, writes: list[DocumentWrite]) -> list[float]:
    times = []
    for w in writes:
        began = time.perf_counter()
        with engine.begin() as conn:
            replace_documents(conn, [w], k1=DEFAULTS.k1, b=DEFAULTS.b)
        times.append((time.perf_counter() - began) * 1000)
    return times


def _merge(engine: Engine, tenant: str) -> bm25_merge.MergeResult:
    with engine.begin() as conn:
        return bm25_merge.merge(conn, tenant)


def _p95(times: list[float]) -> float:
    return sorted(times)[int(.95 * len(times))]


def run(home: Path, chunks: int, count: int, merge_at: int) -> None:
    engine, tenant, have = bench_tenant(home / "pgdata", f"pagemill_bench_merge_{chunks}", f"merge-{chunks}")
    if have < chunks:
        print(f"writing the {chunks:,}-chunk tenant ...", flush=True)
        _fill(engine, tenant, chunks)
    rng = random.Random(2)
    first = [_document(tenant, f"new{i}", rng, 1) for i in range(count)]
    second = [_document(tenant, f"new{i}", rng, 2) for i in range(count)]
    postings = sum(len(set(c.text.split())) for w in first for c in w.chunks)
    print(f"{count} documents of {CHUNKS_PER_DOCUMENT} chunks, {postings / count:.0f} postings each, "
          f"into a tenant of {chunks:,} chunks:")
    print("| step | ms per document (median) | p95 ms | merge s | merge ms per document |")
    print("|---|---:|---:|---:|---:|")
    write = _each(engine, first)
    merged = _merge(engine, tenant)
    print(f"| write new (delta), then one merge | {statistics.median(write):.1f} | {_p95(write):.1f} | "
          f"{merged.seconds:.2f} | {merged.seconds / count * 1000:.1f} |")
    replace = _each(engine, second)
    merged = _merge(engine, tenant)
    print(f"| replace (tombstones + delta), then one merge | {statistics.median(replace):.1f} | "
          f"{_p95(replace):.1f} | {merged.seconds:.2f} | {merged.seconds / count * 1000:.1f} |")
    # As the workers run: a merge whenever the delta passes merge_at postings.
    third = [_document(tenant, f"new{i}", rng, 3) for i in range(count)]
    times, merges = [], []
    for w in third:
        times += _each(engine, [w])
        with engine.connect() as conn:
            pending = conn.execute(text("SELECT delta_postings FROM bm25_stats WHERE tenant_id = :t"),
                                   {"t": tenant}).scalar_one()
        if pending > merge_at:
            merges.append(_merge(engine, tenant).seconds)
    merges.append(_merge(engine, tenant).seconds)
    print(f"| replace, merged every {merge_at:,} postings ({len(merges)} merges) | "
          f"{statistics.median(times):.1f} | {_p95(times):.1f} | {sum(merges):.2f} | "
          f"{sum(merges) / count * 1000:.1f} |")
    with engine.begin() as conn:
        for w in third:
            delete_document(conn, tenant, w.doc.external_id)
    _merge(engine, tenant)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=20_000)
    parser.add_argument("--documents", type=int, default=200)
    parser.add_argument("--merge-at", type=int, default=20_000)
    add_home_argument(parser, "/tmp/pagemill-bench-merge")
    args = parser.parse_args()
    run(Path(args.home), args.chunks, args.documents, args.merge_at)


if __name__ == "__main__":
    main()
