"""Chunking, embedding, BM25 postings and search.  Knows nothing of extractors or Celery."""
