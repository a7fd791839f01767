"""Where each chunk of a recording is in time: ``chunks.start_s`` and ``chunks.end_s``.

Seconds from the start of the audio or video the chunk's transcript segments were heard in
(the first segment's start, the last one's end).  ``NULL`` for every other source, and for
nothing before this revision: media documents could not be indexed until now.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-01
"""

from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Nullable, no default: a catalogue change, no table rewrite.
    op.execute("ALTER TABLE chunks ADD COLUMN start_s double precision, ADD COLUMN end_s double precision")


def downgrade() -> None:
    op.execute("ALTER TABLE chunks DROP COLUMN start_s, DROP COLUMN end_s")
