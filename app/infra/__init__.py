"""Infrastructure: the database engine and embedded server, object storage, fetching URLs,
logs and request ids, webhook delivery and signing, metrics.  Knows nothing of jobs.

Imports only config (and libraries), never domain, services, api or cli
(tests/test_architecture.py)."""
