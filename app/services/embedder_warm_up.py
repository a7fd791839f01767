"""Loading the embedders an API process will embed queries with before the first search needs
them: the configured one and every tenant's pinned one (indexing/tenant_embedders.py).

Without it, the first search of each embedder in each API process waits for the model: about
4 s for torch, and for an ONNX variant whose graph is not yet in ``PAGEMILL_HOME`` the export
too (about 14 s, once per home).  The API's gunicorn workers start it after the fork
(app/gunicorn_conf.py's ``post_worker_init``), in a daemon thread: requests are served
meanwhile, and a search that arrives during a load waits for that one load (the model cache
has a lock), never loads a second copy.  A failure is logged and changes nothing: the first
search then loads, or answers 503 ``embedder_unavailable``, as it would have.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.runtime import Runtime

log = logging.getLogger(__name__)


def warm_up(runtime: Runtime) -> list[str]:
    """Load the configured embedder and every pinned one; returns the names loaded."""
    from indexing import embedding, tenant_embedders

    began = time.monotonic()
    with runtime.engine.connect() as conn:
        pinned = tenant_embedders.pinned_embedders(conn)
    names = list(dict.fromkeys([runtime.config.embedding.embedder, *pinned]))
    for name in names:
        embedding.embedder_in_use(name)
    log.info("embedders loaded before the first search",
             extra={"embedders": ",".join(names), "seconds": round(time.monotonic() - began, 2)})
    return names


def start_warm_up(runtime: Runtime) -> threading.Thread:
    """:func:`warm_up` in a daemon thread (it never holds up the process's exit)."""
    def run() -> None:
        try:
            warm_up(runtime)
        except Exception:  # the first search loads, or answers 503, as it would have
            log.warning("loading the embedders before the first search failed", exc_info=True)

    thread = threading.Thread(target=run, name="pagemill-embedder-warm-up", daemon=True)
    thread.start()
    return thread
