"""The lock every writer of a tenant's search index takes, in its own transaction.

Chunk writers (indexing/store.py), the BM25 merge (indexing/bm25_merge.py) and the embedder
pin (indexing/tenant_embedders.py) serialise on it per tenant: the statistics row and term
rows are then updated in one order only, so concurrent workers cannot deadlock on them, and a
merge never runs beside a write of the same tenant.  Its own module so that each of them can
take it without importing the others.
"""

from __future__ import annotations

from sqlalchemy import text

#: Serialises index writes per tenant, until the transaction ends.
LOCK_TENANT = text("SELECT pg_advisory_xact_lock(hashtextextended('pagemill-index:' || :tenant, 0))")
