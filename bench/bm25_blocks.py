"""BM25 postings in blocks: the prototype that decides issue 33 item 1's design, measured.

    python -m bench.bm25_blocks --chunks 200000 --variants for-inline-128-c4096,abs-inline-128

Reads the corpus ``python -m bench.search --sizes N`` built (its database in the bench home,
default /tmp/pagemill-bench-search), builds block tables from the service's postings beside it
(``POSTINGS``: since migration 0030 the service's own blocks and delta, decoded; the service's
schema and search are untouched), and times over the bench's 200 queries (its
generator and seed) each variant's exact top-10 and today's pagemill BM25 (``indexing.search``)
in one run, the systems taking turns query by query.  Every answer is checked against the
exact scan (every posting of the query's terms, scored by the service's expression): the same
scores rank by rank within 1e-9 and the same chunk ids but for ties (by chunk id).

A variant is ``enc-lengths-block[-compression][-c<champions>]``:

    bench_bm25_blocks_<variant>: per term, its postings in chunk-id order cut into blocks
        term_id bigint, last_chunk bigint, first_chunk bigint,  -- key (term_id, last_chunk)
                                                                -- INCLUDE (first_chunk, max_impact)
        max_impact real,              -- the block's best impact, rounded up: its bound
        chunk_ids int4[]              -- enc 'abs'
          | offs2 int2[], offs4 int4[]  -- enc 'for': chunk id - first_chunk, int2 when the
                                        --  block spans < 32768 ids (67 % of postings here)
        tfs int2[], lens int2[]       -- lengths 'inline'; 'table': bench_bm25_lengths
                                      --  (chunk_id, length), one row per chunk, instead
    <that>_top<C>: the champions -- each term with more than C postings, its C best by
        impact, in impact-ordered blocks (term_id, blk) with min_impact: the bound of every
        posting of the term left out.

The search (bench/sql/bm25_blocks_search.sql, one statement; its header proves it exact):
first pass over the champions in rounds (2 blocks a term; then, unless that proved the answer,
the blocks above each term's water-filled share of theta; then all C) and the full lists of
rare terms (and of any term whose list is at most 4x the champion prefix a round would read);
theta from the 100 best chunks completed; then block-max MaxScore on the chunks never seen, a
sweep over chunk-id ranges deciding which blocks of the essential terms to decode; candidates
completed in the 3 cut terms of largest rest one at a time, dropping those that fall below theta
-- by probes (key lookup of the one block that can hold the chunk + array_position) while few,
by a merge (the blocks that can hold a candidate, found by one sort, decoded and hash-joined)
once they outnumber the term's blocks 6x -- the rest by probes.  It reads the design's write
side too: the delta (``<blocks>_delta``, read in full in the first pass) and the tombstones
(``<blocks>_dead``, dropped before theta); both empty after a build.

Measured (2026-12-04, this 2-core machine shared with other sessions; 200,000 chunks, 16,344,672
postings; 200 queries of 2-5 Zipf terms, 50 warm-up; all 200 answers exact for every variant):
``python -m bench.bm25_blocks --chunks 200000 --variants abs-inline-128,abs-inline-128-c4096,
for-inline-128-c4096,abs-inline-64-c4096,abs-inline-256-c4096,abs-table-128-c4096,
abs-inline-128-pglz-c4096,abs-inline-128-lz4-c4096 --json FILE``

    system                         B/posting  p50 ms  p95 ms  p99 ms
    pagemill-bm25 (today)             158.9     7.2    24.2    59.9
    for-inline-128-c4096 (chosen)      11.4     6.5    23.9   124.8
    abs-inline-128-c4096               12.8     6.3    24.2   128.4
    abs-inline-64-c4096                14.9     5.7    24.2   113.5
    abs-inline-256-c4096               11.2     6.8    25.3   147.7  (half its rows > 2 kB: pglz)
    abs-table-128-c4096                11.2    16.8    59.5   178.8  (a length join per posting)
    abs-inline-128 (no champions)      11.8     6.9    72.5   116.1
    abs-inline-128-pglz-c4096          12.8     6.2    25.6   122.6  (0 rows compressed)
    lz4: not built into the embedded server.

The same at 1,000,000 chunks (81,809,421 postings; 2026-12-04 17:10 UTC, variants built from
the corpus ``python -m bench.search --sizes 1000000`` made in 964 s):

    system                         B/posting  p50 ms  p95 ms  p99 ms
    pagemill-bm25 (today)             158.0    16.1    60.2   160.8
    for-inline-128-c4096               10.3    12.4   141.6   358.1   (built in 199 s)
    abs-inline-128-c4096               11.6    11.7   147.3   415.5   (built in 180 s)
  a second run (17:25 UTC):
    pagemill-bm25 (today)             158.0    16.6    61.1   130.2
    for-inline-128-c16384              10.3    12.9    71.4   514.7   (champions in 14 s)
    for-inline-128-c4096               10.3    12.9   152.1   341.2

So the layout meets the size target at both sizes (10.3 B/posting: 6.6x tantivy's 200k figure)
and beats today's p50, all answers exact; the tail is the search's, not the layout's: queries
of common terms only grow with the corpus (5x the postings per term at 1M), and completing tens
of thousands of candidates by probes (~5 us each) or decoding whole lists (~0.3 us a posting
with the grouping) is what SQL costs.  Champions deep enough for the corpus (C = 16384 at 1M,
the same bytes as 4096) bring p95 to 1.2x today's; p99 stays 2-4x today's (the queries the
second pass still leaves unproven then decode and probe more).  Next for the service's
search: complete large candidate sets by decoding the lead term's blocks instead of probing,
and read champions in today's rounds (deeper only as theta needs) rather than in two fixed
passes.

The tail fixed (2026-12-04 19:43 UTC, 200k, same corpus rebuilt: 16,346,136 postings; today,
the statement as it was (bench/sql on main at c760bfa; also planned generically) and as it is
now, taking turns query by query; 200/200 exact each; machine shared and loaded, so absolute
times are ~1.3x the 16:42 run's):

    system                              B/posting  p50 ms  p95 ms  p99 ms
    pagemill-bm25 (today)                   158.9    13.1    39.3    77.1
    before, planned per query (as it was)    11.4    12.3    48.4   174.8
    before, planned generically               11.4     8.2    41.7   133.5
    after (this statement)                   11.4     9.4    29.4    86.8

Where the old tail went (EXPLAIN ANALYZE of the slowest queries): terms just above C
("t4 t152 t313 t423 t30": t423 has 4,254 postings, C = 4,096) were cut with a rest as large as
their weight, so the 20,000 chunks the champions saw all stayed candidates and were probed one
term at a time (~4 us a probe, ~100-200 ms); reading such lists whole (at most 4x the prefix)
proves them in the first pass.  Queries of common terms only ("t3 t11 t5 t17 t4") still
complete 8,000 candidates (their bounds, not theta, keep them: 5,963 reach even the true
k-th score): the merge passes take them in 30-40 ms where probes took 60-90, and they remain
the p99 (C deeper, as at 1M, is what shrinks them).  Planning the statement afresh cost ~4.7 ms
a query: the service forces a generic plan for its BM25 statement, and so does this bench now.
Screened on the same corpus (one run each, noisy: p99 is the 2nd slowest of 200): whole 2 / 4 /
8 gave p99 84 / 56 / 66 ms; merge 1 / 3 / 10 alike but for #128; depth1 2 against 4 0.6-1 ms of
p50; three rounds against two and three lead passes against five, fewer ms of p95 for ~0.2 ms
of p50 each.

B/posting counts everything the search reads: blocks (heap + indexes), champions, lengths,
bm25_terms and bm25_stats (23.5 MB, 1.4 B/posting, most of it bloat from the bulk load's df
updates; today's figure counts it too).  The chosen layout's 11.4: blocks heap 8.1 (a full
block of 128 with int2 offsets is 892 bytes: 6 of payload a posting), key 0.5, the (term_id,
max_impact) index 0.4 (read only without champions: 11.1 without it), champions 1.1.  Against
tantivy's 1.6 B/posting (same corpus, docs/BENCHMARKS.md, 2026-12-03): 7.3x (today 102x).
TOAST compresses only rows over ~2 kB (TOAST_TUPLE_THRESHOLD): toast_tuple_target = 128 with
STORAGE MAIN compresses nothing; in 256-posting blocks pglz compresses the tfs 7x (mostly 1s)
and not the ids or lengths.  Champion lists cost about the same at any C (1.83M postings at C =
512, 1024, 2048 and 4096: on a Zipf vocabulary fewer terms pass a larger C), so C = 4096 is
free; C = 1024 had p95 47 ms, C = 256 34 ms (separate runs).

Decode speed (t3, 183,527 postings): unnest in the select list 10-14 ms, unnest(a, b, c) in FROM
24 ms, subscripts over generate_series 19 ms, FOR's int2[] -> int4[] cast +10 ms; the covering
B-tree index-only scan 11-17 ms; grouping by chunk (hash) adds 35-55 ms.  So blocks read about as
fast as today's index, and the floor is SQL's per-posting work: the p99 queries (all terms
common: "t3 t11 t5 t17 t4", df 81k-184k each) decode or probe tens of thousands of postings
(120-150 ms here; today's rounds 60-340 ms on the same queries), where tantivy skips at a few ns
a posting.

Recommended design for the service (issue 33 item 1):

* Layout: ``bm25_blocks`` as 'for-inline-128' (chunk ids are bigint in the service: offsets from
  a bigint first_chunk, int2 or int4) with key (term_id, last_chunk) INCLUDE (first_chunk,
  max_impact), no other index; ``bm25_top`` champions, key (term_id, blk), C growing with the
  corpus (4096 at 200k, 16384 at 1M: about N/64, rebuilt by the merge when it doubles; the same
  ~11 % of the postings at any C); lengths inline (the lengths table measured 2.6x slower);
  bm25_terms and bm25_stats as today.
* Writes stay in the document's transaction through a delta, merged in the background:
  ``bm25_delta`` (term_id, chunk_id, tf, doc_length, impact; key (term_id, chunk_id)) takes the
  postings of every chunk written since the last merge, ``bm25_dead`` (chunk_id) a tombstone
  for every merged chunk deleted or replaced.  Chunk ids only grow and are never reused, and a
  merge moves whole chunks (every chunk id up to a watermark kept in bm25_stats), so a chunk's
  postings are all in the blocks or all in the delta: the search reads the delta's rows of the
  query terms as a first-pass source read in full (exact, like a rare term's list), probes the
  delta for chunk ids above the watermark and the blocks below it, and drops tombstoned chunks
  from every candidate set before theta is taken (bounds stay valid: dead postings only loosen
  them).  df, N and total length stay exact as today, through the writers under the tenant's
  advisory lock: the delete path re-analyses the chunk's stored text for its terms (the blocks
  cannot be searched by chunk).  One document's insert, replace or delete is one transaction
  over delta and tombstones, and a merge is one transaction per batch of terms that rewrites
  their tail blocks (new ids append), the blocks holding tombstoned chunks and the champions
  (new postings above a term's rest join them; removed ones leave; the rest stays a valid
  bound), then deletes those delta rows and tombstones: under MVCC every search sees a document
  wholly before or wholly after each of them, never half.  A block rewrite inside the indexing
  transaction was rejected, measured by bench/bm25_blocks_writes.py (200 documents of 10 chunks,
  815 postings each, into the 200k blocks): rewriting each term's last block costs 19.6 ms a
  document (p95 24.9), inserting into the delta 2.8 ms (p95 3.2), and merging those 200
  documents later 1.53 s (7.7 ms a document, once, off the request path, larger batches
  sharing each term's tail rewrite); rewrites also serialise writers on the common terms' last
  blocks and leave partly filled blocks behind.
* Migration in place: a migration builds both tables from bm25_postings by the statements here
  (``_fill``, ``_champions``), switches search, then drops bm25_postings and its three indexes
  (2.6 GB at 200k).  Measured at 200k (``--rebuild``): 25 s for blocks, their key, champions (read
  from today's impact index) and VACUUM ANALYZE; bm25_postings is read whole, so like migration
  0012 it wants a maintenance window (or a build beside the live table, then a switch).
* Not measured yet: champion upkeep and tombstones in the merge, the search with a non-empty
  delta at scale (its exactness is tested: tests/test_bm25_blocks.py deletes, replaces and adds
  documents after a build), the new statement at 1M chunks, tantivy in the same run.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import jinja2
from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import NotSupportedError

from bench.database import add_home_argument, bench_tenant
from bench.search import _queries
from bench.search_load import percentile
from indexing.analyzer import analyze
from indexing.bm25_layout import UNPACK
from indexing.ranking import DEFAULTS
from indexing.search import SearchParams, search

ENCODINGS = ("abs", "for")
LENGTHS = ("inline", "table")
COMPRESSIONS = ("none", "pglz", "lz4")

#: Cut terms the candidates are completed in one at a time, largest rest first, dropping those
#: that fall below theta after each (bm25_blocks_search.sql, lead passes); the rest by probes.
LEADS = 3

#: Rounds over the champions (with champions; bm25_blocks_search.sql): the first :depth1 blocks
#: of each term, then those above the level its theta sets, then (a third) all of them.
ROUNDS = 3

_SQL = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).with_name("sql")),
    undefined=jinja2.StrictUndefined, autoescape=False, trim_blocks=True, lstrip_blocks=True,
    keep_trailing_newline=True)


@dataclass(frozen=True)
class Variant:
    """One block layout: encoding, where lengths live, block size, TOAST compression and how
    many of each term's best postings are also kept in impact order (0: none)."""

    enc: str
    lengths: str
    block: int
    compression: str = "none"
    champions: int = 0

    @classmethod
    def parse(cls, spec: str) -> Variant:
        """``enc-lengths-block[-compression][-c<champions>]``, e.g. ``abs-inline-128`` or
        ``for-inline-128-lz4-c1024``."""
        parts = spec.split("-")
        if len(parts) < 3:
            raise ValueError(f"variant {spec!r} is not enc-lengths-block[-compression][-c<n>]")
        compression, champions = "none", 0
        for part in parts[3:]:
            if part[:1] == "c" and part[1:].isdigit():
                champions = int(part[1:])
            else:
                compression = part
        variant = cls(parts[0], parts[1], int(parts[2]), compression, champions)
        if (variant.enc not in ENCODINGS or variant.lengths not in LENGTHS
                or variant.compression not in COMPRESSIONS or not 2 <= variant.block <= 4096
                or (variant.champions and variant.champions < variant.block)):
            raise ValueError(f"variant {spec!r}: enc in {ENCODINGS}, lengths in {LENGTHS}, "
                             f"compression in {COMPRESSIONS}, block 2..4096, champions 0 or >= block")
        return variant

    @property
    def name(self) -> str:
        return "-".join([self.enc, self.lengths, str(self.block)]
                        + ([self.compression] if self.compression != "none" else [])
                        + ([f"c{self.champions}"] if self.champions else []))

    @property
    def table(self) -> str:
        """The blocks in chunk-id order (whatever the champions)."""
        base = [self.enc, self.lengths, str(self.block)] + (
            [self.compression] if self.compression != "none" else [])
        return "bench_bm25_blocks_" + "_".join(base)

    @property
    def top(self) -> str:
        """The champions: each term's best postings in impact order, in blocks."""
        return f"{self.table}_top{self.champions}"

    @property
    def delta(self) -> str:
        """The postings of the chunks written since the blocks were built (the design's delta)."""
        return f"{self.table}_delta"

    @property
    def dead(self) -> str:
        """Tombstones: chunks in the blocks deleted since they were built."""
        return f"{self.table}_dead"

    @property
    def writes(self) -> bool:
        """Whether the search reads the delta and the tombstones (only with lengths inline: the
        lengths table holds the chunks of the build alone)."""
        return self.lengths == "inline"


#: The per-chunk lengths of the 'table' variants (chunk_id, length), instead of one per posting.
_LENGTHS = ["DROP TABLE IF EXISTS bench_bm25_lengths",
            """CREATE TABLE bench_bm25_lengths (chunk_id bigint NOT NULL, length int NOT NULL)""",
            """INSERT INTO bench_bm25_lengths SELECT id, bm25_length FROM chunks
               WHERE tenant_id = :t ORDER BY id""",
            "ALTER TABLE bench_bm25_lengths ADD PRIMARY KEY (chunk_id)"]


def _create(v: Variant) -> list[str]:
    """The variant's table: fixed-width columns first (no padding), arrays last."""
    statements = [f"DROP TABLE IF EXISTS {v.table}",
                  f"""CREATE TABLE {v.table} (term_id bigint NOT NULL, last_chunk bigint NOT NULL,
                      first_chunk bigint NOT NULL, max_impact real NOT NULL, {_columns(v)})"""]
    if v.compression != "none":
        # TOAST compresses a value only when the whole row exceeds ~2 kB (TOAST_TUPLE_THRESHOLD);
        # a lower toast_tuple_target and MAIN storage ask it to try smaller rows (measured).
        statements.append(f"ALTER TABLE {v.table} SET (toast_tuple_target = 128)")
        for column in (["chunk_ids"] if v.enc == "abs" else ["offs2", "offs4"]) + ["tfs"] + (
                ["lens"] if v.lengths == "inline" else []):
            statements.append(f"ALTER TABLE {v.table} ALTER COLUMN {column} SET STORAGE MAIN, "
                              f"ALTER COLUMN {column} SET COMPRESSION {v.compression}")
    return statements


def _packed(v: Variant) -> str:
    """A block's arrays, aggregated over its postings (rows with chunk_id, tf, doc_length and,
    for 'for', the block's first chunk id as `first`), in chunk-id order."""
    # (Aggregates are computed before a CASE picks one: the int2 array is cast from int4.)
    ids = ("array_agg(chunk_id::int4 ORDER BY chunk_id)" if v.enc == "abs" else
           """CASE WHEN max(chunk_id) - min(chunk_id) < 32768
                   THEN array_agg((chunk_id - first)::int4 ORDER BY chunk_id)::int2[] END,
              CASE WHEN max(chunk_id) - min(chunk_id) >= 32768
                   THEN array_agg((chunk_id - first)::int4 ORDER BY chunk_id) END""")
    lens = ", array_agg(doc_length::int2 ORDER BY chunk_id)" if v.lengths == "inline" else ""
    return f"{ids}, array_agg(tf::int2 ORDER BY chunk_id){lens}"


def _first(v: Variant) -> str:
    """The block's first chunk id over rows partitioned by (term_id, blk), which 'for' needs."""
    return "min(chunk_id) OVER (PARTITION BY term_id, blk)" if v.enc == "for" else "0"


def _columns(v: Variant) -> str:
    ids = "chunk_ids int4[] NOT NULL" if v.enc == "abs" else "offs2 int2[], offs4 int4[]"
    lens = ", lens int2[] NOT NULL" if v.lengths == "inline" else ""
    return f"{ids}, tfs int2[] NOT NULL{lens}"


def _write_tables(v: Variant) -> list[str]:
    """The write side of the design, empty: what the blocks hold is all there is."""
    return [f"DROP TABLE IF EXISTS {v.delta}", f"DROP TABLE IF EXISTS {v.dead}",
            f"""CREATE TABLE {v.delta} (term_id bigint NOT NULL, chunk_id bigint NOT NULL,
                tf int NOT NULL, doc_length int NOT NULL, impact real NOT NULL,
                PRIMARY KEY (term_id, chunk_id))""",
            f"CREATE TABLE {v.dead} (chunk_id bigint PRIMARY KEY)"]


_MISSING = text("SELECT to_regclass(:t) IS NULL")

#: Every posting the service holds (term_id, chunk_id, tf, doc_length, impact), all tenants:
#: its blocks less tombstones, and its delta (migration 0030), impacts with each tenant's
#: parameters -- what bm25_postings held before.
POSTINGS = f"""(
    SELECT p.term_id, p.chunk_id, p.tf, p.doc_length,
           bm25_term_score(1.0::float8, p.tf, p.doc_length, s.impact_avgdl, s.impact_k1, s.impact_b) AS impact
    FROM (SELECT b.term_id, b.first_chunk + u.off AS chunk_id, u.tf::int AS tf, u.len::int AS doc_length
          FROM bm25_blocks b CROSS JOIN LATERAL {UNPACK.format(b="b")}
          WHERE NOT EXISTS (SELECT 1 FROM bm25_dead x WHERE x.chunk_id = b.first_chunk + u.off)
          UNION ALL
          SELECT term_id, chunk_id, tf, doc_length FROM bm25_delta) p
    JOIN bm25_terms t ON t.id = p.term_id JOIN bm25_stats s ON s.tenant_id = t.tenant_id)"""

#: A new chunk's postings into the delta, as the design's writers put them (format: the delta).
_TO_DELTA = """INSERT INTO {}
    SELECT term_id, chunk_id, tf, doc_length, impact FROM {} p WHERE chunk_id > :w
    ON CONFLICT DO NOTHING"""

#: A deleted chunk of the blocks tombstoned, as the design's writers mark it (format: the table).
_TOMBSTONE = "INSERT INTO {} SELECT unnest(CAST(:ids AS bigint[])) ON CONFLICT DO NOTHING"


def to_delta(conn: Connection, v: Variant, watermark: int) -> int:
    """The postings of every chunk above ``watermark`` into the delta (the chunks written
    since the blocks were built from those up to it); how many."""
    return conn.execute(text(_TO_DELTA.format(v.delta, POSTINGS)), {"w": watermark}).rowcount


def tombstone(conn: Connection, v: Variant, chunk_ids: list[int]) -> None:
    """Chunks of the blocks deleted since they were built."""
    conn.execute(text(_TOMBSTONE.format(v.dead)), {"ids": chunk_ids})


def _fill(v: Variant) -> str:
    """Every term's postings in chunk-id order, cut into blocks of v.block.  max_impact is
    rounded up by a relative 1e-6 so that the real it is stored as never falls below a
    posting's float8 impact."""
    return f"""
        INSERT INTO {v.table}
        SELECT term_id, max(chunk_id), min(chunk_id), (max(impact)::float8 * (1.0 + 1e-6))::real,
               {_packed(v)}
        FROM (SELECT p.*, {_first(v)} AS first
              FROM (SELECT term_id, chunk_id, tf, doc_length, impact,
                           (row_number() OVER (PARTITION BY term_id ORDER BY chunk_id) - 1)
                           / {v.block} AS blk
                    FROM {POSTINGS} p) p) p
        GROUP BY term_id, blk
        ORDER BY term_id, max(chunk_id)"""


def _indexes(v: Variant) -> list[str]:
    return [f"ALTER TABLE {v.table} ADD PRIMARY KEY (term_id, last_chunk) INCLUDE (first_chunk, max_impact)",
            f"CREATE INDEX {v.table}_best ON {v.table} (term_id, max_impact DESC) INCLUDE (last_chunk)"]


def _champions(v: Variant) -> list[str]:
    """Each term with more than v.champions postings: its v.champions best by impact, cut in
    impact order into blocks of v.block (chunk-id order within a block, for the codecs).  A
    block's min_impact, rounded up, bounds every posting of the term after it."""
    return [
        f"DROP TABLE IF EXISTS {v.top}",
        f"""CREATE TABLE {v.top} (term_id bigint NOT NULL, blk int NOT NULL,
            first_chunk bigint NOT NULL, min_impact real NOT NULL, {_columns(v)})""",
        f"""INSERT INTO {v.top}
            SELECT term_id, blk, min(chunk_id), (min(impact)::float8 * (1.0 + 1e-6))::real, {_packed(v)}
            FROM (SELECT p.*, {_first(v)} AS first
                  FROM (SELECT r.term_id, r.chunk_id, r.tf, r.doc_length, r.impact, r.rn / {v.block} AS blk
                        FROM (SELECT p.term_id, p.chunk_id, p.tf, p.doc_length, p.impact,
                                     row_number() OVER (PARTITION BY p.term_id
                                                        ORDER BY p.impact DESC, p.chunk_id) - 1 AS rn
                              FROM {POSTINGS} p JOIN bm25_terms t ON t.id = p.term_id
                              WHERE t.df > {v.champions}) r
                        WHERE r.rn < {v.champions}) p) p
            GROUP BY term_id, blk
            ORDER BY term_id, blk""",
        f"ALTER TABLE {v.top} ADD PRIMARY KEY (term_id, blk)"]


#: The bulk session of bench/search.py: one pass over the postings, sorted in memory.
_BULK = ["SET LOCAL maintenance_work_mem = '1GB'", "SET LOCAL work_mem = '512MB'"]


def build(engine: Engine, tenant: str, v: Variant, rebuild: bool) -> float | None:
    """Builds what the variant needs and is missing (all of it with ``rebuild``): its blocks,
    its champions, the lengths table; seconds taken (None: all there)."""
    with engine.connect() as conn:
        have = {name for name in (v.table, v.top, "bench_bm25_lengths") if conn.execute(
            text("SELECT to_regclass(:t) IS NOT NULL"), {"t": name}).scalar_one()}
    if rebuild:
        have = set()
    todo = [v.table] if v.table not in have else []
    todo += [v.top] if v.champions and v.top not in have else []
    with engine.begin() as conn:
        # Blocks built afresh hold every chunk: the write side starts empty with them.
        if v.table in todo or conn.execute(_MISSING, {"t": v.delta}).scalar_one():
            for statement in _write_tables(v):
                conn.execute(text(statement))
    if not todo:
        return None
    started = time.monotonic()
    with engine.begin() as conn:
        for statement in _BULK:
            conn.execute(text(statement))
        too_big = conn.execute(text("SELECT max(id) >= 2^31 FROM chunks")).scalar_one()
        if too_big and v.enc == "abs":
            raise SystemExit("'abs' blocks hold chunk ids as int4: this corpus has larger ids")
        if v.lengths == "table" and "bench_bm25_lengths" not in have:
            for statement in _LENGTHS:
                conn.execute(text(statement), {"t": tenant})
        if v.table in todo:
            for statement in _create(v):
                conn.execute(text(statement))
            conn.execute(text(_fill(v)))
            for statement in _indexes(v):
                conn.execute(text(statement))
        if v.top in todo:
            for statement in _champions(v):
                conn.execute(text(statement))
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        # All-visible pages, for the index-only reads of the key.
        for table in todo + (["bench_bm25_lengths"] if v.lengths == "table" else []):
            conn.execute(text(f"VACUUM (ANALYZE) {table}"))
    return time.monotonic() - started


#: Everything BM25 search reads besides the block table: the dictionary and the statistics.
_SHARED_BYTES = "SELECT pg_total_relation_size('bm25_terms') + pg_total_relation_size('bm25_stats')"


def sizes(engine: Engine, v: Variant) -> dict[str, int]:
    """Bytes of the variant (heap, TOAST, maps, indexes) and of what its search also reads."""
    with engine.connect() as conn:
        def size(table: str) -> int:
            return int(conn.execute(text("SELECT pg_total_relation_size(CAST(:t AS regclass))"),
                                    {"t": table}).scalar_one())
        blocks = size(v.table)
        top = size(v.top) if v.champions else 0
        heap = conn.execute(text("SELECT pg_table_size(CAST(:t AS regclass))"), {"t": v.table}).scalar_one()
        lengths = size("bench_bm25_lengths") if v.lengths == "table" else 0
        writes = size(v.delta) + size(v.dead)
        shared = int(conn.execute(text(_SHARED_BYTES)).scalar_one())
        rows, compressed = conn.execute(text(
            f"SELECT count(*), count(*) FILTER (WHERE pg_column_compression(tfs) IS NOT NULL) "
            f"FROM {v.table}")).one()
    return {"blocks": blocks, "heap": int(heap), "champions_bytes": top, "lengths_bytes": lengths,
            "writes_bytes": writes, "shared": shared, "total": blocks + top + lengths + writes + shared,
            "rows": int(rows),
            "compressed_rows": int(compressed)}


def baseline_bytes(engine: Engine) -> int:
    """Today's: the postings (heap and both indexes), the dictionary and the statistics."""
    with engine.connect() as conn:
        return int(conn.execute(text(f"SELECT pg_total_relation_size('bm25_blocks') + "
                                     f"pg_total_relation_size('bm25_top') + ({_SHARED_BYTES})"))
                   .scalar_one())


def statement(v: Variant) -> str:
    return _SQL.get_template("bm25_blocks_search.sql").render(
        table=v.table, top=v.top, champions=bool(v.champions), enc=v.enc, lengths=v.lengths,
        block=v.block, rounds=ROUNDS, leads=LEADS, writes=v.writes, delta=v.delta, dead=v.dead)


#: The exact scorer: every posting of the query's terms, scored as the service scores them.
EXACT = text(f"""
WITH q AS MATERIALIZED (
    SELECT term, count(*)::float8 AS qtf FROM unnest(CAST(:terms AS text[])) AS term GROUP BY term
),
stats AS MATERIALIZED (
    SELECT chunk_count::float8 AS n, total_length::float8 / greatest(chunk_count, 1)::float8 AS avgdl
    FROM bm25_stats WHERE tenant_id = :tenant
),
weights AS MATERIALIZED (
    SELECT t.id AS term_id, stats.avgdl,
           q.qtf * ln(1.0::float8 + (stats.n - t.df + 0.5::float8) / (t.df + 0.5::float8)) AS w
    FROM q JOIN bm25_terms t ON t.tenant_id = :tenant AND t.term = q.term CROSS JOIN stats
)
SELECT p.chunk_id,
       sum(bm25_term_score(w.w, p.tf, p.doc_length, w.avgdl, CAST(:k1 AS float8),
                           CAST(:b AS float8))) AS score
FROM weights w JOIN {POSTINGS} p ON p.term_id = w.term_id
GROUP BY p.chunk_id
ORDER BY score DESC, p.chunk_id
LIMIT :k
""")


def agrees(got: list[tuple[int, float]], exact: list[tuple[int, float]], tolerance: float = 1e-9) -> bool:
    """Same top-k: the same scores rank by rank within ``tolerance`` (relative), and the same
    chunk ids but where a tie (scores within tolerance) lets the order differ only by the
    float rounding of the sums; the tie at the k-th rank may bring in another chunk of that
    score."""
    if len(got) != len(exact):
        return False
    for (gid, gs), (eid, es) in zip(got, exact, strict=True):
        if abs(gs - es) > tolerance * max(1.0, abs(es)):
            return False
        if gid != eid:
            tied = {c for c, s in exact if abs(s - es) <= tolerance * max(1.0, abs(es))}
            if gid not in tied and not abs(gs - exact[-1][1]) <= tolerance * max(1.0, abs(es)):
                return False
    return True


@dataclass(frozen=True)
class Settings:
    """The search's knobs (bm25_blocks_search.sql): blocks per term of the first pass without
    champions, chunks completed for theta, MaxScore's share of theta, champion blocks per term
    of the first round, how many times what a round reads of a term's champions its whole list
    may hold to be read in full instead, and how many times a term's blocks the candidates must
    outnumber to be completed in it by a merge instead of probes."""

    seeds: int = 8
    probe: int = 100
    share: float = 0.7
    depth1: int = 2
    whole: float = 4.0
    merge: float = 6.0


def bind(tenant: str, terms: list[str], k: int, settings: Settings = Settings()) -> dict[str, object]:
    """The statement's parameters (the exact scorer's too: it ignores the search's)."""
    return {"tenant": tenant, "terms": terms, "k": k, "k1": DEFAULTS.k1, "b": DEFAULTS.b,
            "seeds": settings.seeds, "probe": settings.probe, "share": settings.share,
            "depth1": settings.depth1, "whole": settings.whole, "merge": settings.merge}


Answer = list[tuple[int, float]]
System = Callable[[Connection, str], Answer]


def _timed(engine: Engine, queries: list[str], warmup: int,
           systems: dict[str, System]) -> dict[str, tuple[list[float], list[Answer]]]:
    """Each system's warm-up pass, then the queries in turn, every system answering each query
    before the next (so that load from elsewhere on a shared machine falls on all alike); each
    answer timed (ms) in a transaction of its own, as the service runs a search."""
    for answer in systems.values():
        for query in queries[:warmup]:
            with engine.begin() as conn:
                answer(conn, query)
    out: dict[str, tuple[list[float], list[Answer]]] = {name: ([], []) for name in systems}
    for query in queries:
        for name, answer in systems.items():
            started = time.perf_counter()
            with engine.begin() as conn:
                got = answer(conn, query)
            out[name][0].append((time.perf_counter() - started) * 1000)
            out[name][1].append(got)
    return out


def _latency(times: list[float]) -> dict[str, float]:
    return {"p50_ms": percentile(times, .5), "p95_ms": percentile(times, .95),
            "p99_ms": percentile(times, .99)}


def _service(tenant: str) -> System:
    """Today's pagemill BM25 (indexing.search at the service's defaults)."""
    params = SearchParams()

    def service(conn: Connection, query: str) -> Answer:
        return [(h.chunk_id, h.score) for h in search(conn, tenant, query, k=10, mode="bm25",
                                                      params=params, snippets=False)]
    return service


#: Planned once per connection, as the service plans its BM25 statement (indexing/search.py):
#: planning this statement afresh costs about as much as a first-round answer (~4.7 ms, measured).
_GENERIC_PLAN = text("SELECT set_config('plan_cache_mode', 'force_generic_plan', true)")


def _blocks(tenant: str, v: Variant, settings: Settings) -> System:
    sql = text(statement(v))

    def blocks(conn: Connection, query: str) -> Answer:
        conn.execute(_GENERIC_PLAN)
        return [(r.chunk_id, r.score) for r in conn.execute(sql, bind(tenant, analyze(query), 10, settings))]
    return blocks


def run(home: Path, chunks: int, variants: list[Variant], query_count: int, warmup: int,
        settings: Settings, rebuild: bool = False, baseline: bool = True,
        out: Path | None = None) -> dict[str, object]:
    """Every variant (and today's BM25) over the bench's queries on its ``chunks`` corpus."""
    engine, tenant, have = bench_tenant(home / "pgdata", f"pagemill_bench_{chunks}", f"search-{chunks}")
    if not have:
        raise SystemExit(f"no {chunks}-chunk corpus in {home}: run python -m bench.search --sizes {chunks}")
    with engine.connect() as conn:
        postings = int(conn.execute(text("SELECT sum(df) FROM bm25_terms WHERE tenant_id = :t"),
                                    {"t": tenant}).scalar_one())
        queries = [terms for terms, _ in _queries(engine, query_count)]
        truth = [[(r.chunk_id, r.score) for r in conn.execute(EXACT, bind(tenant, analyze(q), 10))]
                 for q in queries]
    report: dict[str, object] = {"chunks": chunks, "postings": postings, "queries": query_count,
                                 "settings": asdict(settings),
                                 "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    systems: dict[str, System] = {}
    entries: dict[str, dict[str, object]] = {}
    if baseline:
        systems["pagemill-bm25"] = _service(tenant)
        today = baseline_bytes(engine)
        entries["pagemill-bm25"] = {"bytes": today, "bytes_per_posting": today / postings}
    for v in variants:
        try:
            built = build(engine, tenant, v, rebuild)
        except NotSupportedError as e:  # lz4 on a server built without it
            report[v.name] = {"error": str(e.orig).splitlines()[0]}
            print(f"{v.name}: {report[v.name]}", flush=True)
            continue
        if built is not None:
            print(f"{v.name}: built in {built:.0f} s", flush=True)
        size = sizes(engine, v)
        entries[v.name] = {**asdict(v), **size, "bytes_per_posting": size["total"] / postings,
                           "build_s": built}
        systems[v.name] = _blocks(tenant, v, settings)
    for name, (times, got) in _timed(engine, queries, warmup, systems).items():
        wrong = [i for i, (g, t) in enumerate(zip(got, truth, strict=True)) if not agrees(g, t)]
        report[name] = {**entries[name], **_latency(times), "exact": len(queries) - len(wrong),
                        "wrong": wrong[:10]}
        print(f"{name}: {report[name]}", flush=True)
    if out:
        out.write_text(json.dumps(report, indent=2))
    return report


def main() -> None:
    defaults = Settings()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=200_000)
    parser.add_argument("--variants", default="for-inline-128-c4096",
                        help="comma-separated enc-lengths-block[-compression][-c<champions>]: enc "
                             "abs|for, lengths inline|table, compression none|pglz|lz4")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--seeds", type=int, default=defaults.seeds,
                        help="without champions: best blocks per term the first pass reads")
    parser.add_argument("--probe", type=int, default=defaults.probe,
                        help="best chunks completed exactly for theta")
    parser.add_argument("--share", type=float, default=defaults.share,
                        help="terms are optional while their rests sum to less than share x theta "
                             "(1: MaxScore's split; less makes more terms essential: decoded "
                             "instead of probed)")
    parser.add_argument("--depth1", type=int, default=defaults.depth1,
                        help="champion blocks per term the first round reads (then, unless it "
                             "proved its answer, those above the level its theta sets)")
    parser.add_argument("--whole", type=float, default=defaults.whole,
                        help="a term whose list is at most this many times what a round reads "
                             "of its champions is read in full")
    parser.add_argument("--merge", type=float, default=defaults.merge,
                        help="candidates are completed in a term by a merge over its blocks "
                             "(else by probes) when they are more than this many times its blocks")
    parser.add_argument("--rebuild", action="store_true", help="rebuild block tables that exist")
    parser.add_argument("--no-baseline", action="store_true", help="skip today's pagemill BM25")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the report to FILE")
    add_home_argument(parser)
    args = parser.parse_args()
    variants = [Variant.parse(s) for s in args.variants.split(",")]
    settings = Settings(args.seeds, args.probe, args.share, args.depth1, args.whole, args.merge)
    run(Path(args.home), args.chunks, variants, args.queries, args.warmup, settings,
        args.rebuild, not args.no_baseline, args.json)


if __name__ == "__main__":
    main()
