"""Staging a document before its job is written: its type sniffed from its bytes, what pagemill
cannot parse refused (a 415, or a per-document error for an attachment or a fetched URL), and
its bytes stored under their content hash.

Apart from :mod:`app.domain.jobs` so that the processes that only read and write job rows (workers'
bookkeeping, the reconciler, the read views) do not import the extractors' routing table and
every engine behind it: sniffing needs it, the rows do not.
"""

from __future__ import annotations

import hashlib
from typing import Any

from app.domain.jobs import NewDocument
from app.infra.storage import Storage
from extractors.sniff import PARSEABLE, sniff


class UnsupportedDocument(ValueError):
    def __init__(self, external_id: str, reason: str) -> None:
        super().__init__(f"{external_id}: {reason}")
        self.external_id = external_id
        self.reason = reason


def object_key_for(tenant_id: str, sha256: str) -> str:
    # Content-addressed: re-uploading the same bytes (a client retry) rewrites the same object.
    return f"{tenant_id}/sha256/{sha256[:2]}/{sha256}"


def stage_document(
    storage: Storage,
    tenant_id: str,
    external_id: str,
    data: bytes,
    source: str,
    filename: str | None = None,
    declared_mime: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> NewDocument:
    """Sniff and store the bytes of one document; raise :class:`UnsupportedDocument` first."""
    mime = sniff(data, filename=filename, declared=declared_mime)
    if mime is None or mime not in PARSEABLE:
        raise UnsupportedDocument(external_id, f"content type not supported: {mime or 'unrecognised'}")
    digest = hashlib.sha256(data).hexdigest()
    key = object_key_for(tenant_id, digest)
    if not storage.exists(key):
        storage.put(key, data)
    return NewDocument(external_id=external_id, source=source, object_key=key, mime_type=mime,
                       size_bytes=len(data), sha256=digest, filename=filename,
                       metadata=metadata or {})
