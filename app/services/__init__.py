"""The workflow steps, each a plain function taking a ``Runtime``: submitting, staging,
dispatching and deleting jobs, the search request, readiness, loading embedders.  They
combine the domain's rows with infrastructure.

Imports domain, infra, the runtime and config, never api or cli (tests/test_architecture.py)."""
