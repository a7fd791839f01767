"""The lease keeper: one thread per consuming connection (and process) that keeps the
messages it holds leased, writes acks a busy consumer has not written yet, and does the
broker's housekeeping (queue and message expiry)."""

from __future__ import annotations

import logging
import os
import threading
from typing import TYPE_CHECKING

from sqlalchemy.exc import DBAPIError, OperationalError

from tasks.broker import statements as sql

if TYPE_CHECKING:
    from tasks.broker.transport import Transport

log = logging.getLogger(__name__)

#: The longest wait between two rounds: often enough for the shortest x-expires Celery uses
#: (10 s for reply queues) and for acks deferred by a consumer busy between fetches.
MAX_INTERVAL = 3.0


class LeaseKeeper:
    """Renews the lease of every message this connection holds, claimed or delivered, until
    it is acked or released, every ``visibility_timeout / 3`` seconds (or 3 s if sooner).

    A process killed with SIGKILL simply stops renewing: its messages become visible again
    when their leases expire.  Each round also marks the queues this connection consumes as
    used and expires abandoned queues and messages.
    """

    def __init__(self, transport: Transport) -> None:
        self.transport = transport
        self._ids: set[int] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pid = os.getpid()

    def hold(self, row_id: int) -> None:
        with self._lock:
            self._ids.add(row_id)
        self.start()

    def release(self, row_id: int) -> None:
        with self._lock:
            self._ids.discard(row_id)

    def start(self) -> None:
        with self._lock:
            if self._thread is None or self._pid != os.getpid():
                self._pid = os.getpid()
                self._thread = threading.Thread(target=self._run, name="pagemill-broker-lease",
                                                daemon=True)
                self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _lease(self) -> float:
        """Seconds of a lease: the channels' ``visibility_timeout`` (one per connection)."""
        channels = list(self.transport.channels)
        return float(min((ch.visibility_timeout for ch in channels),
                         default=self.transport.Channel.visibility_timeout))

    def _run(self) -> None:
        while True:
            lease = self._lease()
            if self._stop.wait(min(lease / 3, MAX_INTERVAL)):
                return
            self._round(lease)

    def _round(self, lease: float) -> None:
        with self._lock:
            ids = sorted(self._ids)
        queues = sorted({q for ch in list(self.transport.channels) for q in ch.consumed_queues})
        # A consumer busy between fetches (or one that stopped calling drain_events) still
        # has its acks written before their leases could expire.
        self.transport.flush_acks()
        try:
            with self.transport.engine.begin() as conn:
                conn.execute(sql.RELAXED)
                if ids:
                    conn.execute(sql.RENEW, {"ids": ids, "lease": lease})
                if queues:
                    conn.execute(sql.TOUCH_QUEUES, {"queues": queues})
                conn.execute(sql.EXPIRE_QUEUES)
                conn.execute(sql.EXPIRE_MESSAGES)
        except (OperationalError, DBAPIError):
            log.warning("broker housekeeping failed", exc_info=True)
