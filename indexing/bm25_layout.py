"""The BM25 index's storage layout (migration 0030): its constants and the SQL fragments that
encode and decode a block, shared by the writers (indexing/bm25_writes.py) and the merge
(indexing/bm25_merge.py), so that both cut and read blocks one way.

``bm25_blocks`` (term_id, last_chunk) -> first_chunk, max_impact, offs2 | offs4, tfs, lens:
a term's merged postings in chunk-id order, at most BLOCK a block, offsets from first_chunk
(int2 when the block spans fewer than OFFS2_SPAN ids).  ``bm25_top`` (term_id, blk): the
champions, each term's best postings (df above the tenant's C) in impact order.  ``bm25_delta``
holds the postings of chunks written since the last merge, ``bm25_dead`` the merged chunks
deleted since.  A posting's impact is ``bm25_term_score(1.0, tf, length, ...)`` with the
tenant's bm25_stats parameters; block bounds are stored as real rounded up by ROUND_UP.
"""

from __future__ import annotations

#: Postings a block holds at most (bench/bm25_blocks.py measured 64 / 128 / 256: 128).
BLOCK = 128

#: A block spanning fewer chunk ids than this stores its offsets as int2.
OFFS2_SPAN = 32768

#: tf and chunk lengths are stored as int2.
INT2_MAX = 32767

#: The least champion list size C (bm25_stats.champions); C grows with the corpus.
MIN_CHAMPIONS = 4096

#: A block's bound, float8 -> real rounded up: the real never falls below a posting's float8
#: impact (the search compares in float8).  Applied to an aggregate of float8 impacts.
ROUND_UP = "(({}) * (1.0::float8 + 1e-6))::real"

#: A posting's impact with the tenant's parameters (columns tf, len; a joined `s` bm25_stats row).
IMPACT = "bm25_term_score(1.0::float8, {tf}, {len}, s.impact_avgdl, s.impact_k1, s.impact_b)"

#: A block's arrays, aggregated over rows (chunk_id, tf, len, first = the block's least chunk
#: id) in chunk-id order: offs2, offs4 (exactly one non-null), tfs, lens.  (Both aggregates
#: are computed before the CASE picks one, so the int2 array is cast from int4.)
PACK = f"""CASE WHEN max(chunk_id) - min(chunk_id) < {OFFS2_SPAN}
     THEN array_agg((chunk_id - first)::int4 ORDER BY chunk_id)::int2[] END,
CASE WHEN max(chunk_id) - min(chunk_id) >= {OFFS2_SPAN}
     THEN array_agg((chunk_id - first)::int4 ORDER BY chunk_id) END,
array_agg(tf::int2 ORDER BY chunk_id), array_agg(len::int2 ORDER BY chunk_id)"""

#: A block row `{b}` decoded in FROM: ``CROSS JOIN LATERAL`` this gives u(off, tf, len); the
#: chunk id is {b}.first_chunk + u.off.
UNPACK = "unnest(coalesce({b}.offs2::int4[], {b}.offs4), {b}.tfs, {b}.lens) AS u(off, tf, len)"


def champions_for(chunk_count: int) -> int:
    """C for a tenant of ``chunk_count`` chunks: max(4096, the next power of two >= N / 64)
    (bench/bm25_blocks.py: 4096 served 200k chunks, 16384 1M; about 11 % of the postings at
    any C)."""
    wanted = -(-chunk_count // 64)
    return max(MIN_CHAMPIONS, 1 << max(0, wanted - 1).bit_length())
