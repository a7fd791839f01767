"""What happens around one batch's processing (app/services/processing.py), in the worker:
before the first batch, a job large enough to be a bulk load drops the HNSW graph; after each
batch, the job is finalised if this was its last work, a finished bulk load asks for the graph
to be built again, and the slot the batch held goes to the next waiting batch
(app/services/dispatch.py).  tasks/ingest.py's ``ingest_batch`` is these steps around
``process_batch``."""

from __future__ import annotations

import logging

from app.domain import bulk_loads, jobs
from app.runtime import Runtime
from app.services.dispatch import dispatch

log = logging.getLogger(__name__)


def begin_bulk_load(runtime: Runtime, job_id: str) -> bool:
    """A job that will add a large share of the index drops the HNSW graph first
    (app/domain/bulk_loads.py); ``True`` when this job became a bulk load here."""
    with runtime.engine.begin() as conn:
        began = bulk_loads.begin(conn, job_id, bulk_loads.BulkPolicy.from_config(runtime.config))
    if began:
        dropped = bulk_loads.drop_graph(runtime.engine)
        log.info("bulk load: the HNSW graph is rebuilt after this job, not maintained during it",
                 extra={"job_id": job_id, "dropped": dropped})
    return began


def finish_batch(runtime: Runtime, job_id: str) -> str | None:
    """After a batch: finalise the job when nothing is left, end its bulk load (asking for the
    graph once no bulk load remains), and dispatch the freed slot.  The job's final status,
    or ``None`` while it has work left."""
    with runtime.engine.begin() as conn:
        status = jobs.finalize_job(conn, job_id)
    if status is not None:
        log.info("job finalised", extra={"job_id": job_id, "status": status})
        with runtime.engine.begin() as conn:
            due = bulk_loads.end(conn, job_id)
        if due:
            runtime.publisher.build_vector_index()
    dispatch(runtime)
    return status
