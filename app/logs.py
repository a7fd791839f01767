"""Structured logging: ``key=value`` lines carrying the boundary fields of the pipeline."""

from __future__ import annotations

import logging
import sys

FIELDS = ("job_id", "batch_id", "document_id", "task_id", "tenant_id", "error_code", "status",
          "chunks", "extractor", "documents")


class KeyValueFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        extras = [f"{name}={getattr(record, name)}" for name in FIELDS if hasattr(record, name)]
        return f"{line} {' '.join(extras)}" if extras else line


def configure(level: str = "INFO") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(KeyValueFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for noisy in ("sentence_transformers", "transformers", "httpx", "urllib3", "botocore"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
