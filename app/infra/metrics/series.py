"""The metric objects every process records into (see app/infra/metrics/__init__.py for the
functions that do).  Import this module only through :func:`app.infra.metrics.series_module`: the
sample directory must be claimed before prometheus_client is first imported, because
prometheus_client decides at import whether this process writes its samples to files."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram

# The objects live in a registry of their own, exported only by a process whose samples stay
# in memory (app/infra/metrics/directory.py's fallback); in multiprocess mode the files are read.
REGISTRY = CollectorRegistry(auto_describe=False)

#: The stages of pagemill_stage_seconds, in the order a document goes through them.
STAGES = ("fetch", "extract", "ocr", "chunk", "embed", "index")

# From a text file's milliseconds to a scanned book's OCR (tens of minutes).
_STAGE_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
                  600.0, 1800.0)
_REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)

# Exposed as pagemill_documents_total (prometheus_client adds the suffix); the database-side
# gauge pagemill_documents{status} is a different family.
DOCUMENTS = Counter("pagemill_documents", "Documents (attachments included) that reached completed "
                    "or failed, by outcome and extractor (none: a failure; unchanged: an identical "
                    "indexed document adopted without extraction)",
                    ["outcome", "extractor"], registry=REGISTRY)
STAGE_SECONDS = Histogram("pagemill_stage_seconds", "Seconds one document spent in a stage of "
                          "the pipeline (ocr: the OCR engines' share of extract)", ["stage"],
                          buckets=_STAGE_BUCKETS, registry=REGISTRY)
HTTP_REQUEST_SECONDS = Histogram("pagemill_http_request_seconds", "Seconds the API took to "
                                 "answer, by URL rule (not the raw path) and status",
                                 ["route", "status"], buckets=_REQUEST_BUCKETS, registry=REGISTRY)
# Where searches were read (app/domain/search_reads.py): how much load the replicas take, and
# why the primary served the rest.
SEARCH_READS = Counter("pagemill_search_reads", "Searches by the server that answered them (primary, "
                       "replica-0, ...; in PAGEMILL_SEARCH_DATABASE_URLS order) and why (replica; or "
                       "why the primary: no_replicas, asked, replicas_unusable, wait_timed_out, "
                       "replica_error)",
                       ["served_by", "reason"], registry=REGISTRY)
