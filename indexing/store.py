"""Writing documents' chunks, vectors and BM25 postings, a batch of documents in one set of statements.

Re-indexing a document (same tenant and external id) replaces its chunks; BM25 document
frequencies and corpus statistics stay exact (the schema's triggers count chunks and new
postings, indexing/bm25_writes.py takes removed ones out).  New postings go to the delta;
indexing/bm25_merge.py moves them into the blocks later.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy import Connection, text

from indexing import bm25_merge, bm25_writes, tenant_embedders
from indexing.analyzer import term_frequencies
from indexing.bm25_layout import INT2_MAX
from indexing.chunking import Chunk
from indexing.index_lock import LOCK_TENANT

_PATH_SEPARATOR = "\x1f"


#: One row per (tenant, external id) written, with what it was made from; the ids come back
#: with their external ids (RETURNING's order is not the input's).
_UPSERT_DOCUMENTS = text("""
INSERT INTO search_documents AS sd
    (tenant_id, external_id, source_document_id, job_id, content_sha256, mime_type, title,
     metadata, chunk_count, embedder, indexed_at)
SELECT :tenant, u.external_id, CAST(u.source_document_id AS uuid), CAST(u.job_id AS uuid), u.sha,
       u.mime, u.title, CAST(u.metadata AS jsonb), u.chunk_count, :embedder, now()
FROM unnest(CAST(:external_ids AS text[]), CAST(:source_document_ids AS text[]),
            CAST(:job_ids AS text[]), CAST(:shas AS text[]), CAST(:mimes AS text[]),
            CAST(:titles AS text[]), CAST(:metadata AS text[]), CAST(:chunk_counts AS int[]))
     AS u(external_id, source_document_id, job_id, sha, mime, title, metadata, chunk_count)
ORDER BY u.external_id
ON CONFLICT (tenant_id, external_id) DO UPDATE SET
    source_document_id = excluded.source_document_id, job_id = excluded.job_id,
    content_sha256 = excluded.content_sha256, mime_type = excluded.mime_type,
    title = excluded.title, metadata = excluded.metadata, chunk_count = excluded.chunk_count,
    embedder = excluded.embedder, indexed_at = now()
RETURNING id, external_id
""")

#: The chunks of documents being replaced or deleted; their vectors go with them.
_DELETE_CHUNKS = text("DELETE FROM chunks WHERE search_document_id = ANY(CAST(:sdids AS bigint[]))")

#: Every chunk of the documents written, then their postings into the delta (merged into the
#: blocks later: indexing/bm25_merge.py), joined back to the new chunk ids by (document, chunk
#: number).  The delta's trigger counts them into df and bm25_stats.delta_postings.
_INSERT_CHUNKS_AND_POSTINGS = text("""
WITH new_chunks AS (
    INSERT INTO chunks (tenant_id, search_document_id, chunk_no, text, heading_path, page_start,
                        page_end, token_count, bm25_length, embedding, boxes, start_s, end_s)
    SELECT :tenant, u.sdid, u.no, u.body,
           CASE WHEN u.path = '' THEN '{}'::text[] ELSE string_to_array(u.path, E'\\x1f') END,
           u.page_start, u.page_end, u.tokens, u.length, CAST(u.vec AS halfvec),
           CAST(u.boxes AS jsonb), u.start_s, u.end_s
    FROM unnest(CAST(:sdids AS bigint[]), CAST(:nos AS int[]), CAST(:bodies AS text[]),
                CAST(:paths AS text[]), CAST(:page_starts AS int[]), CAST(:page_ends AS int[]),
                CAST(:tokens AS int[]), CAST(:lengths AS int[]), CAST(:vectors AS text[]),
                CAST(:boxes AS text[]), CAST(:starts AS float8[]), CAST(:ends AS float8[]))
         AS u(sdid, no, body, path, page_start, page_end, tokens, length, vec, boxes, start_s, end_s)
    RETURNING id, search_document_id, chunk_no, bm25_length
)
INSERT INTO bm25_delta (term_id, chunk_id, tf, doc_length)
SELECT t.id, c.id, p.tf, c.bm25_length
FROM unnest(CAST(:p_sdids AS bigint[]), CAST(:p_nos AS int[]), CAST(:p_terms AS text[]),
            CAST(:p_tfs AS int[])) AS p(sdid, no, term, tf)
JOIN new_chunks c ON c.search_document_id = p.sdid AND c.chunk_no = p.no
-- (LATERAL ... LIMIT 1: a key lookup per posting; a join hashes the tenant's dictionary.)
CROSS JOIN LATERAL (SELECT x.id FROM bm25_terms x
                    WHERE x.tenant_id = :tenant AND x.term = p.term LIMIT 1) t
ORDER BY t.id
""")

#: Postings name their term by id, so a document's new terms enter the dictionary first (df
#: 0 until the delta's trigger counts them).  Terms are never deleted at df 0 (the blocks may
#: hold a term's dead postings until the next merge drops them).
_ENSURE_TERMS = text("""
INSERT INTO bm25_terms (tenant_id, term, df)
SELECT :tenant, term, 0 FROM unnest(CAST(:terms AS text[])) AS term ORDER BY term
ON CONFLICT (tenant_id, term) DO NOTHING
""")

#: A tenant's first document fixes the parameters its impacts are computed with: the k1 and
#: b the writer is given (the configured ones) and its own average length, standing in for
#: the corpus's.  So are those of a tenant left without chunks (no impact depends on them).
#: Otherwise the tenant's parameters stand, so that all its impacts agree; refresh_impacts()
#: brings them up to date.
_ENSURE_IMPACT_PARAMS = text("""
INSERT INTO bm25_stats AS s (tenant_id, impact_avgdl, impact_k1, impact_b)
VALUES (:tenant, :avgdl, :k1, :b)
ON CONFLICT (tenant_id) DO UPDATE SET
    impact_avgdl = EXCLUDED.impact_avgdl, impact_k1 = EXCLUDED.impact_k1, impact_b = EXCLUDED.impact_b
-- (The three are always set together, so one of them tells whether the tenant has any.)
WHERE s.chunk_count = 0 OR s.impact_avgdl IS NULL
""")

#: The tenant's impact parameters brought to its corpus as it is now (refresh_impacts()).
_REFRESH_STATS = text("""
UPDATE bm25_stats SET impact_avgdl = total_length::float8 / greatest(chunk_count, 1),
                      impact_k1 = :k1, impact_b = :b
WHERE tenant_id = :tenant
""")

#: What is indexed under one external id, to tell an unchanged document from a replaced one.
_FIND_INDEXED = text("""
SELECT id, content_sha256, chunk_count, source_document_id FROM search_documents
WHERE tenant_id = :tenant AND external_id = :external_id
""")

#: An unchanged document's row taken over by the job that sent it again (no re-indexing).
_ADOPT = text("""
UPDATE search_documents SET source_document_id = :source_document_id, job_id = :job_id,
    metadata = CAST(:metadata AS jsonb), indexed_at = now()
WHERE id = :sdid
""")

#: A document's row removed from the index, once its postings and chunks are gone.
_DELETE_DOCUMENT = text("DELETE FROM search_documents WHERE id = :sdid")

#: A tenant has a statistics row from its first indexed document on (_ENSURE_IMPACT_PARAMS).
_INDEXED_TENANTS = text("SELECT tenant_id FROM bm25_stats ORDER BY tenant_id")


@dataclass(frozen=True)
class IndexedDocument:
    tenant_id: str
    external_id: str
    source_document_id: str | None
    job_id: str | None
    content_sha256: str
    mime_type: str | None
    title: str | None
    metadata_json: str


def vector_literal(vector: np.ndarray) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in vector.tolist()) + "]"


def adopt_if_unchanged(conn: Connection, doc: IndexedDocument) -> int | None:
    """If the same content is already indexed under this id, point it at ``doc`` and return
    its chunk count; otherwise ``None``.  Saves re-embedding on replays and re-ingests."""
    row = conn.execute(
        _FIND_INDEXED, {"tenant": doc.tenant_id, "external_id": doc.external_id}
    ).one_or_none()
    if row is None or row.content_sha256 != doc.content_sha256:
        return None
    conn.execute(_ADOPT, {"sdid": row.id, "source_document_id": doc.source_document_id,
                          "job_id": doc.job_id, "metadata": doc.metadata_json})
    return int(row.chunk_count)


@dataclass(frozen=True)
class IndexedContent:
    search_document_id: int
    chunk_count: int
    source_document_id: str | None


#: The content hash indexed under each of these external ids (those indexed at all).
_INDEXED_HASHES = text("""
SELECT external_id, content_sha256 FROM search_documents
WHERE tenant_id = :tenant AND external_id = ANY(CAST(:external_ids AS text[]))
""")


def indexed_hashes(conn: Connection, tenant_id: str, external_ids: Sequence[str]) -> dict[str, str]:
    """``external id -> content hash`` of what is indexed under these ids."""
    rows = conn.execute(_INDEXED_HASHES, {"tenant": tenant_id, "external_ids": list(external_ids)})
    return {str(r.external_id): str(r.content_sha256) for r in rows}


def find_unchanged(conn: Connection, tenant_id: str, external_id: str,
                   content_sha256: str) -> IndexedContent | None:
    """What is indexed under this id when it was made from the same content and recipe."""
    row = conn.execute(_FIND_INDEXED, {"tenant": tenant_id, "external_id": external_id}).one_or_none()
    if row is None or row.content_sha256 != content_sha256:
        return None
    source = str(row.source_document_id) if row.source_document_id else None
    return IndexedContent(int(row.id), int(row.chunk_count), source)


def adopt(conn: Connection, indexed: IndexedContent, source_document_id: str, job_id: str,
          metadata_json: str) -> None:
    """Point indexed content at a newer document row (its chunks stay as they are)."""
    conn.execute(_ADOPT, {"sdid": indexed.search_document_id, "source_document_id": source_document_id,
                          "job_id": job_id, "metadata": metadata_json})


@dataclass(frozen=True)
class DocumentWrite:
    """One document to index: what it is, its chunks and their vectors (one row each)."""

    doc: IndexedDocument
    chunks: Sequence[Chunk]
    vectors: np.ndarray


def replace_document(
    conn: Connection, doc: IndexedDocument, chunks: Sequence[Chunk], vectors: np.ndarray, *,
    k1: float, b: float, embedder: str | None = None,
) -> int:
    """:func:`replace_documents` for one document; returns its row id."""
    return replace_documents(conn, [DocumentWrite(doc, chunks, vectors)], k1=k1, b=b, embedder=embedder)[0]


def replace_documents(
    conn: Connection, writes: Sequence[DocumentWrite], *, k1: float, b: float,
    embedder: str | None = None,
) -> list[int]:
    """Replace everything indexed for each (tenant, external id) with its chunks, for
    documents of one tenant with distinct external ids, in one statement per step (a
    batch's documents cost the statements of one); returns their row ids, in order.

    ``embedder``: what made the vectors, recorded on the documents and checked against the
    tenant's pin under the tenant's lock (indexing/tenant_embedders.py: raises
    ``EmbedderChanged`` when the tenant was moved meanwhile; pins a tenant that had none).

    ``k1`` and ``b`` are the BM25 parameters search runs with (the configured ones): a tenant
    without chunks takes them for its impacts, so that early termination serves its queries
    from the start; a tenant that has chunks keeps its own until :func:`refresh_impacts`.
    The caller owns the transaction: commit it to publish the new chunks atomically.
    """
    if not writes:
        return []
    tenant = writes[0].doc.tenant_id
    external_ids = [w.doc.external_id for w in writes]
    if any(w.doc.tenant_id != tenant for w in writes):
        raise ValueError("documents of several tenants in one write")
    if len(set(external_ids)) != len(external_ids):
        raise ValueError("an external id twice in one write")
    for w in writes:
        if len(w.chunks) != len(w.vectors):
            raise ValueError(f"{w.doc.external_id}: {len(w.chunks)} chunks but {len(w.vectors)} vectors")
    analysed = [_analyse(w) for w in writes]
    conn.execute(LOCK_TENANT, {"tenant": tenant})
    if embedder is not None:
        tenant_embedders.check_pin(conn, tenant, embedder)
    returned = conn.execute(_UPSERT_DOCUMENTS, {
        "tenant": tenant, "embedder": embedder, "external_ids": external_ids,
        "source_document_ids": [w.doc.source_document_id for w in writes],
        "job_ids": [w.doc.job_id for w in writes],
        "shas": [w.doc.content_sha256 for w in writes], "mimes": [w.doc.mime_type for w in writes],
        "titles": [w.doc.title for w in writes], "metadata": [w.doc.metadata_json for w in writes],
        "chunk_counts": [len(w.chunks) for w in writes],
    }).all()
    by_external_id = {str(row.external_id): int(row.id) for row in returned}
    sdids = [by_external_id[e] for e in external_ids]
    bm25_writes.remove_chunks(conn, tenant, sdids)
    conn.execute(_DELETE_CHUNKS, {"sdids": sdids})
    if any(w.chunks for w in writes):
        params = _chunk_params(tenant, sdids, writes, analysed)
        conn.execute(_ENSURE_IMPACT_PARAMS, {
            "tenant": tenant, "k1": k1, "b": b,
            "avgdl": max(1.0, sum(params["lengths"]) / len(params["lengths"]))})
        conn.execute(_ENSURE_TERMS, {"tenant": tenant, "terms": sorted(set(params["p_terms"]))})
        conn.execute(_INSERT_CHUNKS_AND_POSTINGS, params)
    return sdids


def refresh_impacts(conn: Connection, tenant_id: str, *, k1: float, b: float) -> int:
    """Recompute the tenant's impacts with its current average length and the given k1, b
    (the ones search runs with): impacts are not stored per posting, so its blocks' bounds and
    champions are rebuilt (bm25_merge.rebuild, which merges the delta too); returns the
    postings.  Needed only for speed: search stays exact when impacts are stale or were
    computed with other parameters."""
    conn.execute(LOCK_TENANT, {"tenant": tenant_id})
    conn.execute(_REFRESH_STATS, {"tenant": tenant_id, "k1": k1, "b": b})
    return bm25_merge.rebuild(conn, tenant_id).postings


def indexed_tenants(conn: Connection) -> list[str]:
    """Every tenant that has BM25 statistics (has indexed something)."""
    rows = conn.execute(_INDEXED_TENANTS).scalars()
    return [str(t) for t in rows]


def delete_document(conn: Connection, tenant_id: str, external_id: str) -> bool:
    row = conn.execute(_FIND_INDEXED, {"tenant": tenant_id, "external_id": external_id}).one_or_none()
    if row is None:
        return False
    conn.execute(LOCK_TENANT, {"tenant": tenant_id})
    bm25_writes.remove_chunks(conn, tenant_id, [row.id])
    conn.execute(_DELETE_CHUNKS, {"sdids": [row.id]})
    conn.execute(_DELETE_DOCUMENT, {"sdid": row.id})
    return True


class ChunkTooLong(ValueError):
    """A chunk with more BM25 terms than the index's int2 lengths hold: its document fails."""


def _analyse(write: DocumentWrite) -> list[tuple[Counter[str], int]]:
    """Each chunk's term counts and BM25 length; raises :class:`ChunkTooLong` naming the
    document when a chunk's length (so also a tf) does not fit the blocks' int2 arrays."""
    analysed = [term_frequencies(chunk.context_text) for chunk in write.chunks]
    for no, (_, length) in enumerate(analysed):
        if length > INT2_MAX:
            raise ChunkTooLong(f"document {write.doc.external_id!r}: chunk {no} has {length} BM25 terms, "
                               f"more than the index holds ({INT2_MAX}); split it into smaller chunks")
    return analysed


def _chunk_params(tenant_id: str, sdids: Sequence[int], writes: Sequence[DocumentWrite],
                  analysed: Sequence[list[tuple[Counter[str], int]]]) -> dict[str, Any]:
    """The bind parameters of _INSERT_CHUNKS_AND_POSTINGS: one array element per chunk, and
    one per (chunk, term) for the postings."""
    chunks = [(sdid, no, chunk, counted) for sdid, w, a in zip(sdids, writes, analysed, strict=True)
              for no, (chunk, counted) in enumerate(zip(w.chunks, a, strict=True))]
    p_sdids: list[int] = []
    p_nos: list[int] = []
    p_terms: list[str] = []
    p_tfs: list[int] = []
    lengths: list[int] = []
    for sdid, no, _, (counts, length) in chunks:
        lengths.append(length)
        for term, tf in counts.items():
            p_sdids.append(sdid)
            p_nos.append(no)
            p_terms.append(term)
            p_tfs.append(tf)
    return {
        "tenant": tenant_id,
        "sdids": [sdid for sdid, _, _, _ in chunks],
        "nos": [no for _, no, _, _ in chunks],
        "bodies": [c.text for _, _, c, _ in chunks],
        "paths": [
            _PATH_SEPARATOR.join(h.replace(_PATH_SEPARATOR, " ") for h in c.heading_path)
            for _, _, c, _ in chunks
        ],
        "page_starts": [c.page_start for _, _, c, _ in chunks],
        "page_ends": [c.page_end for _, _, c, _ in chunks],
        # NULL, not [], for chunks of sources without positions.
        "boxes": [json.dumps([b.as_json() for b in c.boxes]) if c.boxes else None for _, _, c, _ in chunks],
        "starts": [c.start_s for _, _, c, _ in chunks],
        "ends": [c.end_s for _, _, c, _ in chunks],
        "tokens": [c.token_count for _, _, c, _ in chunks],
        "lengths": lengths,
        "vectors": [vector_literal(v) for w in writes for v in w.vectors],
        "p_sdids": p_sdids,
        "p_nos": p_nos,
        "p_terms": p_terms,
        "p_tfs": p_tfs,
    }
