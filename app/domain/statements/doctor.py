"""The statements of app/cli/doctor.py: catalog reads that tell an operator what is installed."""

from __future__ import annotations

from sqlalchemy import text

#: The pgvector version the server can install (none: the extension is not on the server).
VECTOR_AVAILABLE = text("SELECT default_version FROM pg_available_extensions WHERE name = 'vector'")

#: The pgvector version installed in this database (none: not yet, `pagemill migrate` does it).
VECTOR_INSTALLED = text("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
