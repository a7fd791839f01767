"""The BM25 merge: a tenant's delta postings into its blocks and champions, its tombstoned
chunks out of them (the layout: indexing/bm25_layout.py), in one transaction under the
tenant's index lock, so that every search sees a document wholly before or wholly after it.

:func:`merge`, in order (each step one statement below, documented there):

1. the delta's postings of the tenant (with their impacts) and its tombstones, as (term,
   chunk) pairs, into two temporary tables;
2. the blocks holding a tombstoned chunk are rewritten without it (deleted when emptied);
3. each term's new postings appended (chunk ids only grow within a tenant, whose writers hold
   its lock while they insert, so the new postings follow every merged one): to its last
   block's arrays when they fit there, else that block, when not full, is re-cut with them;
4. champions: a term that has them takes its new postings whose impact is at least its bound
   (its last champion block's min_impact, before this merge) and loses its tombstoned ones; its
   list is re-cut in impact order.  It may so grow beyond C; every bound stays valid:
   let m be the old list's least impact and B = up(m) its stored bound (up: the rounding up
   to real, monotone), so every posting outside the old list is <= m <= B.  The new list's
   least impact m' is that of a surviving old champion (>= m) or of a joined posting (>= B >=
   m), so m' >= m and B' = up(m') >= B.  A posting outside the new list was outside the old
   (<= B) or is a new one that did not join (< B): both <= B'.  Block k's bound is the least
   impact of block k rounded up, >= every later champion (impact order) and >= B' >= every
   outsider.  Terms without champions whose df now exceeds 2·C get them built from their
   blocks (the 2 keeps a term near C from being rebuilt at every merge);
5. the tenant's delta rows and tombstones deleted, its pending count zeroed.

:func:`rebuild` decodes everything live of a tenant, sets C for its size and cuts blocks and
champions afresh: the merge runs it instead when C is due to grow (the tenant passed 64·C
chunks, so C doubles: about when its chunk count doubled since C was set), and
store.refresh_impacts after changing the impact parameters.

:func:`merge_due` runs after an indexing transaction commits (app/services/processing.py): a
merge for each tenant whose unmerged postings exceed the threshold (PAGEMILL_BM25_MERGE_AT).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import Connection, Engine, text

from indexing.bm25_layout import BLOCK, IMPACT, OFFS2_SPAN, PACK, ROUND_UP, UNPACK, champions_for
from indexing.index_lock import LOCK_TENANT

log = logging.getLogger(__name__)

_PER_TENANT_IMPACT = IMPACT.format(tf="p.tf", len="p.len")

#: The tenant's tombstones.
_TOMBSTONES = text("SELECT count(*) FROM bm25_dead WHERE tenant_id = :tenant")

#: What a merge did, counted from its working tables: the postings it moves, the deleted
#: chunks it drops, the terms whose champion lists it re-cuts; and a rebuild's postings.
_MOVED = text("SELECT count(*) FROM bm25_merge_new")
#: (See _MOVED.)
_DEAD_CHUNKS = text("SELECT count(DISTINCT chunk_id) FROM bm25_merge_dead")
#: (See _MOVED.)
_RECUT_TERMS = text("SELECT count(DISTINCT term_id) FROM bm25_top WHERE term_id IN "
                    "(SELECT term_id FROM bm25_merge_bounds)")
#: (See _MOVED.)
_REBUILT_POSTINGS = text("SELECT count(*) FROM bm25_merge_all")

#: The tenant's champion list size, chunk count and unmerged postings.
_STATS = text("SELECT champions, chunk_count, delta_postings FROM bm25_stats WHERE tenant_id = :tenant")

#: The merge's sorts (a champion re-cut sorts ~2M postings at 200,000 chunks) in memory: the
#: default 4 MB spilled them to disk (measured 73 MB of temporary files a merge).  For this
#: transaction only.
_WORK_MEM = text("SET LOCAL work_mem = '256MB'")

#: Only one merge of a tenant at a time is worth running: a second one skips (the first takes
#: what the second would have).  Not the index lock: writers hold that only briefly.
_TRY_MERGE_LOCK = text(
    "SELECT pg_try_advisory_xact_lock(hashtextextended('pagemill-bm25-merge:' || :tenant, 0))")

#: Step 1: the tenant's delta postings with their impacts (temporary, dropped at commit).
_NEW = [text("DROP TABLE IF EXISTS bm25_merge_new"), text(f"""
CREATE TEMP TABLE bm25_merge_new ON COMMIT DROP AS
SELECT p.term_id, p.chunk_id, p.tf, p.len, {_PER_TENANT_IMPACT} AS impact
FROM (SELECT d.term_id, d.chunk_id, d.tf, d.doc_length AS len
      FROM bm25_delta d JOIN bm25_terms t ON t.id = d.term_id AND t.tenant_id = :tenant) p
CROSS JOIN bm25_stats s WHERE s.tenant_id = :tenant
"""), text("ANALYZE bm25_merge_new")]

#: Step 1: the tenant's tombstones as (term, chunk) pairs (the terms the writer verified).
_DEAD = [text("DROP TABLE IF EXISTS bm25_merge_dead"), text("""
CREATE TEMP TABLE bm25_merge_dead ON COMMIT DROP AS
SELECT x.chunk_id, unnest(x.term_ids) AS term_id FROM bm25_dead x WHERE x.tenant_id = :tenant
"""), text("ANALYZE bm25_merge_dead")]

#: Step 2: each block holding a tombstoned chunk (by key: the term's block of least last_chunk
#: >= the chunk) rewritten without the tombstoned chunks; a block left empty is not written
#: back.  Block boundaries stay (one block in, at most one out), so ranges stay disjoint.
_DROP_DEAD = text(f"""
WITH hit AS (
    SELECT DISTINCT b.term_id, b.last_chunk
    FROM bm25_merge_dead d
    CROSS JOIN LATERAL (SELECT x.term_id, x.last_chunk, x.first_chunk FROM bm25_blocks x
                        WHERE x.term_id = d.term_id AND x.last_chunk >= d.chunk_id
                        ORDER BY x.last_chunk LIMIT 1) b
    WHERE b.first_chunk <= d.chunk_id
),
old AS (
    DELETE FROM bm25_blocks b USING hit WHERE b.term_id = hit.term_id AND b.last_chunk = hit.last_chunk
    RETURNING b.*
),
live AS (
    SELECT o.term_id, o.last_chunk AS blk, o.first_chunk + u.off AS chunk_id, u.tf::int AS tf,
           u.len::int AS len
    FROM old o CROSS JOIN LATERAL {UNPACK.format(b="o")}
    WHERE NOT EXISTS (SELECT 1 FROM bm25_dead x WHERE x.chunk_id = o.first_chunk + u.off)
)
INSERT INTO bm25_blocks (term_id, last_chunk, first_chunk, max_impact, offs2, offs4, tfs, lens)
SELECT term_id, max(chunk_id), min(chunk_id), {ROUND_UP.format("max(impact)")}, {PACK}
FROM (SELECT p.*, {_PER_TENANT_IMPACT} AS impact,
             min(p.chunk_id) OVER (PARTITION BY p.term_id, p.blk) AS first
      FROM live p CROSS JOIN bm25_stats s WHERE s.tenant_id = :tenant) p
GROUP BY term_id, blk
""")

#: Step 3: the terms whose last block has room for all their new postings (most of a merge's
#: terms are rare: a posting or two each), with that block's key.
_ROOM = [text("DROP TABLE IF EXISTS bm25_merge_room"), text("""
CREATE TEMP TABLE bm25_merge_room ON COMMIT DROP AS
SELECT n.term_id, l.last_chunk
FROM (SELECT term_id, count(*) AS n FROM bm25_merge_new GROUP BY term_id) n
CROSS JOIN LATERAL (SELECT x.last_chunk, cardinality(x.tfs) AS held FROM bm25_blocks x
                    WHERE x.term_id = n.term_id ORDER BY x.last_chunk DESC LIMIT 1) l
WHERE l.held + n.n <= :block
"""), text("ANALYZE bm25_merge_room")]

#: Step 3, terms with room: the new postings appended to the last block's arrays (they follow
#: its chunk ids), its offsets widened to int4 when the block comes to span OFFS2_SPAN ids;
#: max_impact the greater bound (rounding up is monotone, so this is the rounded-up maximum).
_APPEND_IN_PLACE = text(f"""
UPDATE bm25_blocks b
SET last_chunk = g.last,
    max_impact = greatest(b.max_impact, {ROUND_UP.format("g.best")}),
    offs2 = CASE WHEN g.last - b.first_chunk < {OFFS2_SPAN}
                 THEN b.offs2 || (SELECT array_agg((c - b.first_chunk)::int2 ORDER BY c)
                                  FROM unnest(g.ids) c) END,
    offs4 = CASE WHEN g.last - b.first_chunk >= {OFFS2_SPAN}
                 THEN coalesce(b.offs4, b.offs2::int4[])
                      || (SELECT array_agg((c - b.first_chunk)::int4 ORDER BY c) FROM unnest(g.ids) c) END,
    tfs = b.tfs || g.tfs, lens = b.lens || g.lens
FROM (SELECT n.term_id, r.last_chunk AS key, max(n.chunk_id) AS last, max(n.impact) AS best,
             array_agg(n.chunk_id ORDER BY n.chunk_id) AS ids,
             array_agg(n.tf::int2 ORDER BY n.chunk_id) AS tfs,
             array_agg(n.len::int2 ORDER BY n.chunk_id) AS lens
      FROM bm25_merge_new n JOIN bm25_merge_room r ON r.term_id = n.term_id
      GROUP BY n.term_id, r.last_chunk) g
WHERE b.term_id = g.term_id AND b.last_chunk = g.key
""")

#: Step 3, the other terms: the last block, when not full, is deleted and its postings re-cut
#: with the new ones into blocks of BLOCK in chunk-id order (a new term's postings alone).
_APPEND = text(f"""
WITH tails AS (
    DELETE FROM bm25_blocks b
    USING (SELECT n.term_id, l.last_chunk
           FROM (SELECT DISTINCT term_id FROM bm25_merge_new
                 WHERE term_id NOT IN (SELECT term_id FROM bm25_merge_room)) n
           CROSS JOIN LATERAL (SELECT x.last_chunk FROM bm25_blocks x WHERE x.term_id = n.term_id
                               ORDER BY x.last_chunk DESC LIMIT 1) l) t
    WHERE b.term_id = t.term_id AND b.last_chunk = t.last_chunk AND cardinality(b.tfs) < :block
    RETURNING b.*
),
postings AS (
    SELECT t.term_id, t.first_chunk + u.off AS chunk_id, u.tf::int AS tf, u.len::int AS len
    FROM tails t CROSS JOIN LATERAL {UNPACK.format(b="t")}
    UNION ALL
    SELECT term_id, chunk_id, tf, len FROM bm25_merge_new
    WHERE term_id NOT IN (SELECT term_id FROM bm25_merge_room)
)
INSERT INTO bm25_blocks (term_id, last_chunk, first_chunk, max_impact, offs2, offs4, tfs, lens)
SELECT term_id, max(chunk_id), min(chunk_id), {ROUND_UP.format("max(impact)")}, {PACK}
FROM (SELECT p.*, min(p.chunk_id) OVER (PARTITION BY p.term_id, p.blk) AS first
      FROM (SELECT p.*, {_PER_TENANT_IMPACT} AS impact,
                   (row_number() OVER (PARTITION BY p.term_id ORDER BY p.chunk_id) - 1) / :block AS blk
            FROM postings p CROSS JOIN bm25_stats s WHERE s.tenant_id = :tenant) p) p
GROUP BY term_id, blk
""")

#: Step 4: the current bound of each term of this merge that has champions.
_BOUNDS = [text("DROP TABLE IF EXISTS bm25_merge_bounds"), text("""
CREATE TEMP TABLE bm25_merge_bounds ON COMMIT DROP AS
SELECT m.term_id, b.min_impact AS bound
FROM (SELECT term_id FROM bm25_merge_new UNION SELECT term_id FROM bm25_merge_dead) m
CROSS JOIN LATERAL (SELECT x.min_impact FROM bm25_top x WHERE x.term_id = m.term_id
                    ORDER BY x.blk DESC LIMIT 1) b
""")]

#: Step 4: champion lists that gain new postings (impact >= bound) or may lose tombstoned ones,
#: decoded from the first block that can change (k0) on, changed and re-cut in impact order
#: (impact DESC, chunk_id) into blocks k0, k0 + 1, ...  A list losing a tombstoned chunk is
#: re-cut whole (where the chunk is is not known without decoding).  A list only gaining keeps
#: its blocks whose least impact is above every joining posting's: stored min_impact m' is the
#: least impact m rounded up by a relative 1e-6 (and to real, 6e-8), so m' * (1 - 1e-5) < m, and
#: a block kept by "m' * (1 - 1e-5) > the best joining impact" has every posting above each
#: joining one: it stays as it is, first in the order, and its bound stays valid (what follows
#: it is below its least impact, the outsiders below the list's bound, module docstring).
_RECUT_CHAMPIONS = text(f"""
WITH joining AS (
    SELECT n.term_id, n.chunk_id, n.tf, n.len, n.impact
    FROM bm25_merge_new n JOIN bm25_merge_bounds b ON b.term_id = n.term_id
    WHERE n.impact >= b.bound::float8
),
cut AS (
    SELECT j.term_id,
           (SELECT coalesce(min(x.blk), 0) FROM bm25_top x
            WHERE x.term_id = j.term_id AND x.min_impact::float8 * (1.0::float8 - 1e-5) <= j.best) AS k0
    FROM (SELECT term_id, max(impact) AS best FROM joining GROUP BY term_id) j
    WHERE j.term_id NOT IN (SELECT term_id FROM bm25_merge_dead)
    UNION ALL
    SELECT DISTINCT d.term_id, 0 FROM bm25_merge_dead d JOIN bm25_merge_bounds b ON b.term_id = d.term_id
),
old AS (
    DELETE FROM bm25_top x USING cut WHERE x.term_id = cut.term_id AND x.blk >= cut.k0
    RETURNING x.*, cut.k0
),
kept AS (
    SELECT o.term_id, o.k0, o.first_chunk + u.off AS chunk_id, u.tf::int AS tf, u.len::int AS len
    FROM old o CROSS JOIN LATERAL {UNPACK.format(b="o")}
    WHERE NOT EXISTS (SELECT 1 FROM bm25_dead x WHERE x.chunk_id = o.first_chunk + u.off)
),
list AS (
    SELECT p.term_id, p.k0, p.chunk_id, p.tf, p.len, {_PER_TENANT_IMPACT} AS impact
    FROM kept p CROSS JOIN bm25_stats s WHERE s.tenant_id = :tenant
    UNION ALL
    SELECT j.term_id, c.k0, j.chunk_id, j.tf, j.len, j.impact
    FROM joining j JOIN cut c ON c.term_id = j.term_id
)
INSERT INTO bm25_top (term_id, blk, first_chunk, min_impact, offs2, offs4, tfs, lens)
SELECT term_id, blk, min(chunk_id), {ROUND_UP.format("min(impact)")}, {PACK}
FROM (SELECT p.*, min(p.chunk_id) OVER (PARTITION BY p.term_id, p.blk) AS first
      FROM (SELECT l.*, l.k0 + (row_number() OVER (PARTITION BY l.term_id
                                                   ORDER BY l.impact DESC, l.chunk_id) - 1) / :block AS blk
            FROM list l) p) p
GROUP BY term_id, blk
""")

#: Champions for the postings of `terms` (a CTE the statement starts with): each term's C best
#: by impact from `source` (rows term_id, chunk_id, tf, len, impact), in blocks 0, 1, ...
_CHAMPIONS_OF = f"""
INSERT INTO bm25_top (term_id, blk, first_chunk, min_impact, offs2, offs4, tfs, lens)
SELECT term_id, blk, min(chunk_id), {ROUND_UP.format("min(impact)")}, {PACK}
FROM (SELECT p.*, min(p.chunk_id) OVER (PARTITION BY p.term_id, p.blk) AS first
      FROM (SELECT r.*, r.rn / :block AS blk
            FROM (SELECT p.*, row_number() OVER (PARTITION BY p.term_id
                                                 ORDER BY p.impact DESC, p.chunk_id) - 1 AS rn
                  FROM {{source}} p WHERE p.term_id IN (SELECT term_id FROM terms)) r
            WHERE r.rn < :champions) p) p
GROUP BY term_id, blk
"""

#: Step 4: terms of this merge without champions whose df now exceeds 2·C: built from their
#: blocks (which hold no tombstoned chunk and every new posting by now).
_NEW_CHAMPIONS = text(f"""
WITH terms AS (
    SELECT t.id AS term_id FROM bm25_terms t
    WHERE t.tenant_id = :tenant AND t.df > 2 * :champions
      AND t.id IN (SELECT term_id FROM bm25_merge_new UNION SELECT term_id FROM bm25_merge_dead)
      AND NOT EXISTS (SELECT 1 FROM bm25_top x WHERE x.term_id = t.id)
),
postings AS (
    SELECT p.term_id, p.chunk_id, p.tf, p.len, {_PER_TENANT_IMPACT} AS impact
    FROM (SELECT b.term_id, b.first_chunk + u.off AS chunk_id, u.tf::int AS tf, u.len::int AS len
          FROM bm25_blocks b CROSS JOIN LATERAL {UNPACK.format(b="b")}
          WHERE b.term_id IN (SELECT term_id FROM terms)) p
    CROSS JOIN bm25_stats s WHERE s.tenant_id = :tenant
)
{_CHAMPIONS_OF.format(source="postings")}
""")

#: Step 5: what was merged leaves the delta and the tombstones.
_CLEAR = [
    text("DELETE FROM bm25_delta d USING bm25_terms t WHERE t.id = d.term_id AND t.tenant_id = :tenant"),
    text("DELETE FROM bm25_dead WHERE tenant_id = :tenant"),
    text("UPDATE bm25_stats SET delta_postings = 0 WHERE tenant_id = :tenant"),
]

#: Every live posting of the tenant (term_id, chunk_id, tf, len): its blocks less tombstoned
#: chunks, and its delta.
LIVE_SQL = f"""
SELECT b.term_id, b.first_chunk + u.off AS chunk_id, u.tf::int AS tf, u.len::int AS len
FROM bm25_blocks b JOIN bm25_terms t ON t.id = b.term_id AND t.tenant_id = :tenant
CROSS JOIN LATERAL {UNPACK.format(b="b")}
WHERE NOT EXISTS (SELECT 1 FROM bm25_dead x WHERE x.chunk_id = b.first_chunk + u.off)
UNION ALL
SELECT d.term_id, d.chunk_id, d.tf, d.doc_length
FROM bm25_delta d JOIN bm25_terms t ON t.id = d.term_id AND t.tenant_id = :tenant
"""

LIVE_POSTINGS = text(LIVE_SQL)

#: Rebuild: every live posting of the tenant with its impact under the current parameters.
_ALL = [text("DROP TABLE IF EXISTS bm25_merge_all"), text(f"""
CREATE TEMP TABLE bm25_merge_all ON COMMIT DROP AS
SELECT p.term_id, p.chunk_id, p.tf, p.len, {_PER_TENANT_IMPACT} AS impact
FROM ({LIVE_SQL}) p CROSS JOIN bm25_stats s WHERE s.tenant_id = :tenant
""")]

#: Rebuild: the tenant's blocks, champions, delta and tombstones go (all live postings are in
#: bm25_merge_all); C is set for its size.
_CLEAR_ALL = [
    text("DELETE FROM bm25_blocks b USING bm25_terms t WHERE t.id = b.term_id AND t.tenant_id = :tenant"),
    text("DELETE FROM bm25_top b USING bm25_terms t WHERE t.id = b.term_id AND t.tenant_id = :tenant"),
    *_CLEAR,
    text("UPDATE bm25_stats SET champions = :champions WHERE tenant_id = :tenant"),
]

#: Rebuild: blocks cut afresh from every live posting.
_FILL = text(f"""
INSERT INTO bm25_blocks (term_id, last_chunk, first_chunk, max_impact, offs2, offs4, tfs, lens)
SELECT term_id, max(chunk_id), min(chunk_id), {ROUND_UP.format("max(impact)")}, {PACK}
FROM (SELECT p.*, min(p.chunk_id) OVER (PARTITION BY p.term_id, p.blk) AS first
      FROM (SELECT p.*, (row_number() OVER (PARTITION BY p.term_id ORDER BY p.chunk_id) - 1) / :block AS blk
            FROM bm25_merge_all p) p) p
GROUP BY term_id, blk
ORDER BY term_id, max(chunk_id)
""")

#: Rebuild: champions of every term with df > C.
_FILL_CHAMPIONS = text(f"""
WITH terms AS (SELECT id AS term_id FROM bm25_terms WHERE tenant_id = :tenant AND df > :champions)
{_CHAMPIONS_OF.format(source="bm25_merge_all")}
""")

#: The unmerged postings of these tenants (bm25_stats.delta_postings, kept by the writers).
_PENDING = text("SELECT tenant_id::text, delta_postings FROM bm25_stats "
                "WHERE tenant_id = ANY(CAST(:tenants AS uuid[]))")


@dataclass(frozen=True)
class MergeResult:
    """What a merge did: postings moved from the delta, tombstones applied, blocks written
    (rewritten without dead chunks or appended to), champion lists re-cut and newly built;
    ``rebuilt``: the tenant was rebuilt instead (``postings``: all it holds then)."""

    delta_postings: int = 0
    tombstones: int = 0
    blocks_written: int = 0
    champions_recut: int = 0
    champions_built: int = 0
    rebuilt: bool = False
    postings: int = 0
    seconds: float = 0.0


def live_postings(conn: Connection, tenant_id: str) -> list[tuple[int, int, int, int]]:
    """Every posting the tenant's index holds, as (term id, chunk id, tf, length), sorted:
    what search scores (for checks and tests; it decodes every block)."""
    return sorted((int(r.term_id), int(r.chunk_id), int(r.tf), int(r.len))
                  for r in conn.execute(LIVE_POSTINGS, {"tenant": tenant_id}))


def merge(conn: Connection, tenant_id: str) -> MergeResult:
    """Merge the tenant's delta and tombstones into its blocks and champions (the module's
    steps), in the caller's transaction, under the tenant's index lock."""
    began = time.monotonic()
    conn.execute(LOCK_TENANT, {"tenant": tenant_id})
    stats = conn.execute(_STATS, {"tenant": tenant_id}).one_or_none()
    if stats is None:
        return MergeResult()
    if champions_for(int(stats.chunk_count)) > int(stats.champions):
        return rebuild(conn, tenant_id)
    bind = {"tenant": tenant_id, "champions": int(stats.champions), "block": BLOCK}
    conn.execute(_WORK_MEM)
    for statement in (*_NEW, *_DEAD):
        conn.execute(statement, bind)
    moved = int(conn.execute(_MOVED).scalar_one())
    dead = int(conn.execute(_DEAD_CHUNKS).scalar_one())
    if moved == 0 and dead == 0:
        return MergeResult(seconds=time.monotonic() - began)
    written = conn.execute(_DROP_DEAD, bind).rowcount
    for statement in _ROOM:
        conn.execute(statement, bind)
    written += conn.execute(_APPEND_IN_PLACE, bind).rowcount
    written += conn.execute(_APPEND, bind).rowcount
    for statement in _BOUNDS:
        conn.execute(statement, bind)
    recut = conn.execute(_RECUT_TERMS).scalar_one()
    conn.execute(_RECUT_CHAMPIONS, bind)
    built = conn.execute(_NEW_CHAMPIONS, bind).rowcount
    for statement in _CLEAR:
        conn.execute(statement, bind)
    return MergeResult(moved, dead, written, int(recut), built, seconds=time.monotonic() - began)


def rebuild(conn: Connection, tenant_id: str, *, block: int = BLOCK,
            champions: int | None = None) -> MergeResult:
    """Decode everything live of the tenant (blocks less tombstones, and the delta), set its C
    for its size (or to ``champions``), and cut its blocks (of ``block`` postings) and
    champions afresh with the current impact parameters; in the caller's transaction, under
    the tenant's index lock.  Tests cut tiny blocks and lists, so that a small corpus takes
    every path of the search; the search is exact whatever their sizes."""
    began = time.monotonic()
    conn.execute(LOCK_TENANT, {"tenant": tenant_id})
    stats = conn.execute(_STATS, {"tenant": tenant_id}).one_or_none()
    if stats is None:
        return MergeResult(rebuilt=True)
    if not 1 <= block <= BLOCK:
        raise ValueError(f"blocks hold 1 to {BLOCK} postings, not {block}")
    size = champions_for(int(stats.chunk_count)) if champions is None else champions
    bind = {"tenant": tenant_id, "champions": size, "block": block}
    conn.execute(_WORK_MEM)
    for statement in _ALL:
        conn.execute(statement, bind)
    dead = int(conn.execute(_TOMBSTONES, bind).scalar_one())
    for statement in _CLEAR_ALL:
        conn.execute(statement, bind)
    blocks = conn.execute(_FILL, bind).rowcount
    built = conn.execute(_FILL_CHAMPIONS, bind).rowcount
    postings = int(conn.execute(_REBUILT_POSTINGS).scalar_one())
    return MergeResult(int(stats.delta_postings), dead, blocks, 0, built, rebuilt=True, postings=postings,
                       seconds=time.monotonic() - began)


def merge_due(engine: Engine, tenant_ids: Iterable[str], threshold: int) -> dict[str, MergeResult]:
    """Merge each of these tenants whose unmerged postings exceed ``threshold``, each in a
    transaction of its own, skipping one another process is merging.  Errors are logged, not
    raised: the documents are indexed and searchable from the delta all the same."""
    done: dict[str, MergeResult] = {}
    tenants = sorted(set(tenant_ids))
    if not tenants:
        return done
    try:
        with engine.connect() as conn:
            pending = {t: int(n) for t, n in conn.execute(_PENDING, {"tenants": tenants})}
    except Exception:
        log.exception("reading the BM25 delta's size failed")
        return done
    for tenant in tenants:
        if pending.get(tenant, 0) <= threshold:
            continue
        try:
            with engine.begin() as conn:
                if not conn.execute(_TRY_MERGE_LOCK, {"tenant": tenant}).scalar_one():
                    continue
                result = merge(conn, tenant)
            done[tenant] = result
            log.info("bm25 merge", extra={"tenant_id": tenant, "postings": result.delta_postings,
                                          "tombstones": result.tombstones, "rebuilt": result.rebuilt,
                                          "seconds": round(result.seconds, 3)})
        except Exception:
            log.exception("bm25 merge failed", extra={"tenant_id": tenant})
    return done
