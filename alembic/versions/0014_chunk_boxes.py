"""Where each chunk's text is on its pages: ``chunks.boxes``.

A JSON array of ``{"page", "x0", "top", "x1", "bottom", "width", "height"}`` objects, one
per block of the source the chunk's text came from: PDF points from the page's top-left
corner as displayed, with the page's own width and height so that a client can scale a
highlight onto a rendered page of any size.  ``NULL`` where the source has no positions
(Office files, HTML, plain text, pages without a text layer or OCR boxes), and for chunks
indexed before this revision until their documents are re-ingested.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01
"""

from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # No default and no rewrite: a nullable column without a default is a catalogue change.
    op.execute("ALTER TABLE chunks ADD COLUMN boxes jsonb")


def downgrade() -> None:
    op.execute("ALTER TABLE chunks DROP COLUMN boxes")
