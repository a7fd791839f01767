"""pagemill: durable document ingestion and hybrid search on one PostgreSQL."""
