"""Which embedder made a tenant's vectors: ``tenants.embedder`` and ``search_documents.embedder``.

Vectors of different embedders (torch, onnx, onnx-int8: the same weights, cosine ≈ 0.99 but
not equal) are never mixed in one tenant's index.  ``tenants.embedder`` is pinned by the
first document indexed (the worker's ``PAGEMILL_EMBEDDER``); from then on every worker embeds
that tenant's chunks, and search embeds its queries, with the pinned one, whatever its own
setting.  ``pagemill reembed --tenant T --embedder E`` re-embeds every chunk and moves the pin
in one transaction.  ``search_documents.embedder`` records what made each document's chunks.

Before this revision the only default was torch (ONNX was opt-in and new): tenants that
have documents are pinned to torch, and their documents recorded so.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-01
"""

from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE tenants ADD COLUMN embedder text")
    op.execute("ALTER TABLE search_documents ADD COLUMN embedder text")
    op.execute("UPDATE search_documents SET embedder = 'torch'")
    op.execute("UPDATE tenants t SET embedder = 'torch' "
               "WHERE EXISTS (SELECT 1 FROM search_documents d WHERE d.tenant_id = t.id)")


def downgrade() -> None:
    op.execute("ALTER TABLE search_documents DROP COLUMN embedder")
    op.execute("ALTER TABLE tenants DROP COLUMN embedder")
