"""Attachments as documents of their own: an e-mail's attachments become child rows of the
e-mail's document (``parent_id``), each with its own outcome, bytes and index entry.

Job progress counts the documents a client submitted (rows without a parent); children are
listed under their parent.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-30
"""

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        ALTER TABLE documents ADD COLUMN parent_id uuid REFERENCES documents(id) ON DELETE CASCADE;
        CREATE INDEX documents_parent ON documents (parent_id) WHERE parent_id IS NOT NULL;
        ALTER TABLE documents DROP CONSTRAINT documents_source_check;
        ALTER TABLE documents ADD CONSTRAINT documents_source_check
            CHECK (source IN ('upload', 'path', 'record', 'url', 'object', 'attachment'));
    """)


def downgrade() -> None:
    op.execute("""
        DELETE FROM documents WHERE parent_id IS NOT NULL;
        ALTER TABLE documents DROP CONSTRAINT documents_source_check;
        ALTER TABLE documents ADD CONSTRAINT documents_source_check
            CHECK (source IN ('upload', 'path', 'record', 'url', 'object'));
        DROP INDEX documents_parent;
        ALTER TABLE documents DROP COLUMN parent_id;
    """)
