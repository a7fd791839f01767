"""The interface between admission and the workers: a publisher sends one admitted batch's
message to the broker.  app/ defines it; tasks/publisher.py implements it with Celery, and a
runtime (app/runtime.py) holds the one its process uses."""

from __future__ import annotations

from typing import Protocol

from app.domain.admission import AdmittedBatch


class Publisher(Protocol):
    def publish(self, batch: AdmittedBatch) -> None:
        """Send ``batch``'s message (its task id deterministic, so a second send of the same
        batch is a duplicate the worker recognises).  Raises when the broker does not take it:
        the batch then stays admitted but unpublished, for the reconciler."""
