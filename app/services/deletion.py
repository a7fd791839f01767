"""Deleting a document: its row (and every attachment below it) is marked deleted and its
index entries removed in one transaction; stored bytes go after the commit, so a failure
there leaves an orphan object, never a row that points at nothing."""

from __future__ import annotations

from sqlalchemy import Engine

from app.domain import jobs
from app.infra.storage import Storage
from indexing.store import delete_document as unindex


def delete_document(engine: Engine, storage: Storage, tenant_id: str, document_uuid: str) -> bool:
    """Delete one of the tenant's documents; ``False`` when there is no such document."""
    with engine.begin() as conn:
        jobs.lock_job_of_document(conn, tenant_id, document_uuid)  # lock order: job, then rows
        gone = jobs.mark_document_deleted(conn, tenant_id, document_uuid)
        if gone is None:
            return False
        children = jobs.attachment_ids(conn, tenant_id, document_uuid)
        removed = [gone, *filter(None, (jobs.mark_document_deleted(conn, tenant_id, child)
                                        for child in children))]
        for item in removed:
            if item.indexed:
                unindex(conn, tenant_id, item.external_id)
    for item in removed:
        if item.object_key:
            storage.delete(item.object_key)
    return True
