"""The rows and states pagemill keeps, and the SQL that reads and changes them (statements/):
jobs and documents, admission and the publisher interface it hands batches to, keys, usage,
limits, provider state, bulk loads, webhooks and events.

Imports infra and config, never the runtime, services, api or cli (tests/test_architecture.py)."""
