"""The embedder a tenant's index is built with, and moving a tenant to another one.

Vectors of different embedders are never mixed in one tenant's index: torch, onnx and
onnx-int8 run the same weights, but their vectors differ a little (cosine ≈ 0.99), and a
query embedded by one ranks the chunks of another slightly off.  So a tenant is *pinned*
(``tenants.embedder``, migration 0021) by the first document indexed, to the embedder of the
worker that indexed it; every later document of the tenant is embedded with the pinned one,
whatever the indexing worker's ``PAGEMILL_EMBEDDER``, and so is every query.  Changing
``PAGEMILL_EMBEDDER`` therefore applies to new tenants; :func:`reembed` moves an existing one:
it embeds every chunk again outside any transaction, then, in one transaction under the
tenant's index lock, embeds what was indexed meanwhile, writes all the new vectors and moves
the pin.  Searches see either all old vectors or all new ones.

Index writes check the pin under the same lock (:func:`check_pin`, called by
indexing/store.py's ``replace_document``), so a document embedded just before a move is
embedded again, never written with the old vectors.

The statements are named and documented below; tests/test_embedder.py runs them.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from sqlalchemy import Connection, Engine, text

from indexing.chunking import Chunk, looks_like_table
from indexing.index_lock import LOCK_TENANT

#: The tenant's embedder, set to :embedder if it has none yet (the first document written pins
#: it, under the tenant's index lock).
_PIN = text("""
UPDATE tenants SET embedder = coalesce(embedder, :embedder)
WHERE id = CAST(:tenant AS uuid)
RETURNING embedder
""")

#: The tenant's pinned embedder, NULL when nothing was indexed for it yet.
_PINNED = text("SELECT embedder FROM tenants WHERE id = CAST(:tenant AS uuid)")

#: A window of the tenant's chunks by id, with what their embedding text is made of.
_CHUNKS_AFTER = text("""
SELECT id, text, heading_path
FROM chunks
WHERE tenant_id = CAST(:tenant AS uuid) AND id > :after
ORDER BY id
LIMIT :limit
""")

#: Every chunk id of the tenant (to find those written after the bulk pass read them).
_CHUNK_IDS = text("SELECT id FROM chunks WHERE tenant_id = CAST(:tenant AS uuid)")

#: Chunks by id, with what their embedding text is made of.
_CHUNKS_BY_ID = text("SELECT id, text, heading_path FROM chunks WHERE id = ANY(CAST(:ids AS bigint[]))")

#: New vectors for chunks by id (one statement per window, unnest).
_WRITE_VECTORS = text("""
UPDATE chunks c SET embedding = CAST(u.vec AS halfvec)
FROM unnest(CAST(:ids AS bigint[]), CAST(:vectors AS text[])) AS u(id, vec)
WHERE c.id = u.id
""")

#: The tenant's index now holds :embedder's vectors; so do its documents.
_MOVE_PIN = text("UPDATE tenants SET embedder = :embedder WHERE id = CAST(:tenant AS uuid)")
#: The tenant's documents now say which embedder made their vectors.
_MARK_DOCUMENTS = text("UPDATE search_documents SET embedder = :embedder "
                       "WHERE tenant_id = CAST(:tenant AS uuid)")

WINDOW = 256


class EmbedderChanged(Exception):
    """The tenant was moved to another embedder after this document's chunks were embedded."""

    def __init__(self, pinned: str) -> None:
        super().__init__(f"the tenant's index is now built with {pinned}")
        self.pinned = pinned


def pin(conn: Connection, tenant_id: str, embedder: str) -> str:
    """The embedder the tenant's chunks must be embedded with (pinning ``embedder`` if the
    tenant has none yet)."""
    return str(conn.execute(_PIN, {"tenant": tenant_id, "embedder": embedder}).scalar_one())


def pinned(conn: Connection, tenant_id: str) -> str | None:
    """The tenant's embedder, or None when nothing was indexed for it yet."""
    value = conn.execute(_PINNED, {"tenant": tenant_id}).scalar()
    return None if value is None else str(value)


#: Every embedder some tenant's index is built with.
_PINNED_EMBEDDERS = text("SELECT DISTINCT embedder FROM tenants WHERE embedder IS NOT NULL ORDER BY embedder")


def pinned_embedders(conn: Connection) -> list[str]:
    """The embedders searches will embed queries with (a tenant's each)."""
    return [str(e) for e in conn.execute(_PINNED_EMBEDDERS).scalars()]


def check_pin(conn: Connection, tenant_id: str, embedder: str) -> None:
    """Inside an index write, under the tenant's lock: raise :class:`EmbedderChanged` when the
    tenant is pinned to another embedder than the one that made the vectors being written;
    pin a tenant that has none (its first document).  A read, and a write only once."""
    current = pinned(conn, tenant_id)
    if current is None:
        current = pin(conn, tenant_id, embedder)
    if current != embedder:
        raise EmbedderChanged(current)


def embedding_text(body: str, heading_path: list[str] | tuple[str, ...]) -> str:
    """What was embedded for a stored chunk (indexing/chunking.py's ``Chunk.embed_text``)."""
    chunk = Chunk(body, tuple(heading_path), None, None, 0, is_table=looks_like_table(body))
    return chunk.embed_text


Embed = Callable[[list[str]], np.ndarray]


def _window(conn: Connection, tenant_id: str, after: int, limit: int) -> list[tuple[int, str]]:
    rows = conn.execute(_CHUNKS_AFTER, {"tenant": tenant_id, "after": after, "limit": limit})
    return [(int(r.id), embedding_text(r.text, r.heading_path or [])) for r in rows]


def reembed(engine: Engine, tenant_id: str, embedder: str, embed: Embed,
            progress: Callable[[int], None] | None = None) -> int:
    """Embed every chunk of the tenant with ``embedder`` (``embed`` runs it) and move the
    tenant's pin to it; returns how many chunks were embedded.

    The bulk is embedded outside any transaction; then one transaction takes the tenant's
    index lock (index writes wait), embeds the chunks indexed since (new ids), writes every
    vector and moves the pin, so that searches see the old index or the new one, never a mix.
    """
    # indexing/store.py imports this module for check_pin: its names are taken here, late.
    from indexing.store import vector_literal

    staged: dict[int, np.ndarray] = {}
    after = 0
    while True:
        with engine.connect() as conn:
            window = _window(conn, tenant_id, after, WINDOW)
        if not window:
            break
        vectors = embed([t for _, t in window])
        staged.update({cid: v for (cid, _), v in zip(window, vectors, strict=True)})
        after = window[-1][0]
        if progress is not None:
            progress(len(staged))
    with engine.begin() as conn:
        conn.execute(LOCK_TENANT, {"tenant": tenant_id})
        # Chunks written since their window was read: ids not staged (ids only, then texts).
        missing = [i for i in conn.execute(_CHUNK_IDS, {"tenant": tenant_id}).scalars() if i not in staged]
        late = [(int(r.id), embedding_text(r.text, r.heading_path or []))
                for r in conn.execute(_CHUNKS_BY_ID, {"ids": missing})] if missing else []
        if late:
            staged.update({cid: v for (cid, _), v in zip(late, embed([t for _, t in late]), strict=True)})
        ids = list(staged)
        for start in range(0, len(ids), WINDOW):
            part = ids[start:start + WINDOW]
            # Chunks deleted meanwhile match nothing: the UPDATE skips them.
            conn.execute(_WRITE_VECTORS, {"ids": part, "vectors": [vector_literal(staged[i]) for i in part]})
        conn.execute(_MOVE_PIN, {"tenant": tenant_id, "embedder": embedder})
        conn.execute(_MARK_DOCUMENTS, {"tenant": tenant_id, "embedder": embedder})
    return len(staged)
