"""The interface between the workflow and the workers: a publisher sends the messages that
make workers act — an admitted batch to ingest, a rebuild of the vector index, the next step
of a provider batch.  app/ defines it; tasks/publisher.py implements it with Celery, and a
runtime (app/runtime.py) holds the one its process uses."""

from __future__ import annotations

from typing import Protocol

from app.domain.admission import AdmittedBatch


class Publisher(Protocol):
    def publish(self, batch: AdmittedBatch) -> None:
        """Send ``batch``'s message (its task id deterministic, so a second send of the same
        batch is a duplicate the worker recognises).  Raises when the broker does not take it:
        the batch then stays admitted but unpublished, for the reconciler."""

    def build_vector_index(self) -> None:
        """Ask for the HNSW graph to be built once the bulk loads are over
        (app/domain/bulk_loads.py); a build already running makes a second one a no-op."""

    def resume_provider_batch(self, batch_id: str, submitting: bool) -> None:
        """Ask for a provider batch's next step now: its submission when ``submitting``, else
        a check of its results (app/domain/provider_batches.py)."""
