"""Delivering webhooks on their own capacity: a :class:`WebhookSender` in every worker's main
process, beside (never inside) the pool that ingests documents.

The deliveries table is the queue (app/domain/webhooks.py: ``pending`` rows due at their
``next_attempt_at``, claimed with ``FOR UPDATE SKIP LOCKED`` and leased).  The sender's loop
claims as many due deliveries as it has free sending threads (``PAGEMILL_WEBHOOK_CONCURRENCY``),
fairly across tenants and endpoints and within each one's share
(``PAGEMILL_WEBHOOK_TENANT_CONCURRENCY``, ``PAGEMILL_WEBHOOK_ENDPOINT_CONCURRENCY``, counted
over every sender through the leases), hands each to a thread that makes the attempt under its
deadline (app/infra/webhook_delivery.py), and records each outcome as it comes back, in a savepoint
of its own.  So:

- a hanging or dripping receiver costs one sending thread for at most the attempt's deadline,
  never an ingestion slot; one tenant's receivers cannot hold more than its share of the
  threads, and an endpoint that keeps getting no answer is paused by the breaker
  (app/domain/webhooks.py's :func:`breaker_pause`);
- an attempt that raises anything at all is recorded as that attempt's failure, with the
  exception's class; the loop goes on with the next delivery, and no delivery's outcome is
  written with another's;
- an endpoint deleted or disabled while its attempts are in flight has them cut at once (the
  loop looks every ``LIVENESS_SECONDS``).

Several workers' senders share the table: the claim's ``SKIP LOCKED`` gives each due delivery
to one of them, and a sender killed mid-attempt leaves its deliveries due again when their
leases end (delivery is at least once; receivers deduplicate on ``webhook-id``).  The loop
polls for due work every ``PAGEMILL_WEBHOOK_POLL_SECONDS`` and whenever an attempt ends;
``PAGEMILL_WEBHOOK_CONCURRENCY=0`` runs no sender in that worker.

Deliveries used to be a Celery task (``pagemill.deliver_webhooks``) run by the ingestion pool;
the task is kept, doing nothing, for the messages an upgrade finds in the broker.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from celery.signals import worker_ready, worker_shutdown
from sqlalchemy import Connection, Engine

from app.config import Config
from app.domain import webhooks
from app.domain.secret_options import SecretKeyUnavailable, fernet
from app.infra import traces
from app.infra.url_fetch import UrlPolicy
from app.infra.webhook_delivery import ABORTED_ERROR, AttemptGuard, AttemptOutcome, post
from app.infra.webhook_signing import signature_header
from tasks.celery import app
from tasks.runtime import get_runtime

log = logging.getLogger(__name__)

LEGACY_TASK_NAME = "pagemill.deliver_webhooks"
# A claimed delivery is due again this long after its deadline if its sender vanished.
LEASE_MARGIN_SECONDS = 10.0
# How often the endpoints of the attempts in flight are checked for deletion.
LIVENESS_SECONDS = 1.0
# After an attempt ends, how long the loop waits for others to end before recording.
LINGER_SECONDS = 0.005


def _signing_secrets(config: Config, tokens: list[str]) -> list[str] | None:
    from cryptography.fernet import InvalidToken

    try:
        keys = fernet(config)
        return [keys.decrypt(token.encode("ascii")).decode("ascii") for token in tokens]
    except (SecretKeyUnavailable, InvalidToken, UnicodeError):
        return None


def attempt(claimed: webhooks.ClaimedDelivery, config: Config, policy: UrlPolicy,
            guard: AttemptGuard | None = None) -> AttemptOutcome:
    """Send one claimed delivery, signed with each of its endpoint's live secrets."""
    secrets = _signing_secrets(config, claimed.secret_tokens)
    if secrets is None:
        return AttemptOutcome(None, "the endpoint's signing secret cannot be decrypted with this "
                              "worker's key (PAGEMILL_SECRET_KEY)", 0)
    timestamp = int(time.time())
    headers = {"webhook-id": claimed.message_id, "webhook-timestamp": str(timestamp),
               "webhook-signature": signature_header(secrets, claimed.message_id, timestamp,
                                                     claimed.body)}
    return post(claimed.url, claimed.body, headers, policy, config.webhooks.timeout, guard)


def safe_attempt(claimed: webhooks.ClaimedDelivery, config: Config, policy: UrlPolicy,
                 guard: AttemptGuard) -> AttemptOutcome:
    """:func:`attempt`, with whatever it raises turned into the attempt's failure; a span of
    its own when the worker traces (app/infra/traces.py)."""
    started = time.monotonic()
    with traces.span("pagemill.webhook_delivery", **{
            "pagemill.endpoint_id": claimed.endpoint_id, "pagemill.event_id": claimed.message_id,
            "pagemill.topic": claimed.topic, "pagemill.attempt": claimed.attempts + 1}) as sending:
        try:
            outcome = attempt(claimed, config, policy, guard)
        except Exception as exc:  # a receiver or a URL must never break the run: record it
            log.warning("webhook attempt raised", exc_info=True,
                        extra={"endpoint_id": claimed.endpoint_id, "event_id": claimed.message_id})
            outcome = AttemptOutcome(None, f"{type(exc).__name__}: {exc}"[:500],
                                     int((time.monotonic() - started) * 1000))
        traces.set_attributes(sending, **{"http.response.status_code": outcome.status_code,
                                          "pagemill.outcome": outcome.error or "delivered"})
        return outcome


@dataclass
class _InFlight:
    claimed: webhooks.ClaimedDelivery
    guard: AttemptGuard = field(default_factory=AttemptGuard)


class WebhookSender:
    """Sends due deliveries on a bounded pool of threads; :meth:`run` until told to stop, or
    :meth:`drain` until nothing is due (tests, benchmarks)."""

    def __init__(self, engine: Engine, config: Config) -> None:
        self.engine = engine
        self.config = config
        self.policy = UrlPolicy.from_config(config)
        self.concurrency = max(1, config.webhooks.concurrency)
        self.shares = webhooks.SenderShares(tenant=config.webhooks.tenant_concurrency,
                                            endpoint=config.webhooks.endpoint_concurrency)
        self.lease = config.webhooks.timeout + LEASE_MARGIN_SECONDS
        self._threads = ThreadPoolExecutor(self.concurrency, thread_name_prefix="pagemill-webhook")
        self._in_flight: dict[int, _InFlight] = {}
        self._done: queue.SimpleQueue[tuple[_InFlight, AttemptOutcome | None]] = queue.SimpleQueue()
        self._last_liveness = 0.0
        self.counts: Counter[str] = Counter()

    # -- the loop --------------------------------------------------------------------------

    def run(self, stop: threading.Event) -> None:
        """Until ``stop`` is set; then the attempts in flight are finished and recorded."""
        while not stop.is_set():
            try:
                self.step(wait=self.config.webhooks.poll_seconds)
            except Exception:  # the database may restart: keep going, the leases keep order
                log.warning("webhook sender step failed", exc_info=True)
                stop.wait(self.config.webhooks.poll_seconds)
        self.close()

    def drain(self, run_seconds: float = 60.0) -> dict[str, int]:
        """Send until nothing is due and nothing is in flight, or ``run_seconds`` passed;
        returns how many deliveries ended in each status."""
        started = time.monotonic()
        while time.monotonic() - started < run_seconds:
            claimed = self.step(wait=0.05)
            if not claimed and not self._in_flight and self._done.empty():
                break
        self.close()
        return dict(self.counts)

    def step(self, wait: float) -> int:
        """Record what came back, stop attempts to deleted endpoints, claim into the free
        threads; then wait up to ``wait`` s for an attempt to end.  Returns how many were
        claimed."""
        self._stop_attempts_to_gone_endpoints()
        # One transaction records what came back and claims what fits (a commit per step, not
        # two: at hundreds of deliveries a second the commits are the cost).
        with self.engine.begin() as conn:
            self._record_finished(conn)
            claimed = self._claim(conn)
        self._start(claimed)
        if not claimed or len(self._in_flight) >= self.concurrency:
            self._wait_for_an_attempt(wait)
        return len(claimed)

    def close(self) -> None:
        """Wait for the attempts in flight (each ends within its deadline) and record them."""
        while self._in_flight:
            self._wait_for_an_attempt(1.0)
            with self.engine.begin() as conn:
                self._record_finished(conn)
        self._threads.shutdown(wait=True)

    # -- its parts -------------------------------------------------------------------------

    def _claim(self, conn: Connection) -> list[webhooks.ClaimedDelivery]:
        free = self.concurrency - len(self._in_flight)
        if free <= 0:
            return []
        return webhooks.claim_due(conn, free, self.lease, self.shares)

    def _start(self, claimed: list[webhooks.ClaimedDelivery]) -> None:
        """Send what was claimed (after its claim committed: the lease must hold first)."""
        for delivery in claimed:
            item = _InFlight(delivery)
            self._in_flight[delivery.id] = item
            self._threads.submit(self._send, item)

    def _send(self, item: _InFlight) -> None:
        if item.guard.aborted:  # its endpoint went away while it waited for a thread
            self._done.put((item, None))
            return
        self._done.put((item, safe_attempt(item.claimed, self.config, self.policy, item.guard)))

    def _wait_for_an_attempt(self, seconds: float) -> None:
        try:
            finished = self._done.get(timeout=seconds)
        except queue.Empty:
            return
        self._done.put(finished)  # recorded by _record_finished, with the others
        if len(self._in_flight) > 1:
            # Attempts to healthy receivers end a few milliseconds apart: lingering a moment
            # records and replaces several in one transaction instead of one each.
            time.sleep(LINGER_SECONDS)

    def _record_finished(self, conn: Connection) -> None:
        finished: list[tuple[_InFlight, AttemptOutcome | None]] = []
        while True:
            try:
                finished.append(self._done.get_nowait())
            except queue.Empty:
                break
        for item, _ in finished:
            self._in_flight.pop(item.claimed.id, None)
        if not finished:
            return
        statuses: list[str | None]
        try:
            with conn.begin_nested():  # all at once, the usual case
                statuses = [self._record(conn, item, outcome) for item, outcome in finished]
        except Exception:
            # One of them could not be recorded: each again in a savepoint of its own, so that
            # one delivery's failure never undoes another's.
            statuses = [self._record_alone(conn, item, outcome) for item, outcome in finished]
        self.counts.update(status for status in statuses if status)

    def _record_alone(self, conn: Connection, item: _InFlight,
                      outcome: AttemptOutcome | None) -> str | None:
        try:
            with conn.begin_nested():
                return self._record(conn, item, outcome)
        except Exception:
            log.warning("could not record a webhook attempt; its lease will make it due again",
                        exc_info=True, extra={"endpoint_id": item.claimed.endpoint_id,
                                              "event_id": item.claimed.message_id})
            return None

    def _record(self, conn: Connection, item: _InFlight, outcome: AttemptOutcome | None) -> str:
        claimed = item.claimed
        if outcome is None or outcome.error == ABORTED_ERROR:
            # Cut short because its endpoint is gone or disabled: not an attempt of the
            # receiver's to count; nothing to record if the endpoint was deleted.
            webhooks.release_lease(conn, claimed)
            return "stopped"
        status = webhooks.record_outcome(conn, claimed, outcome, self.config.webhooks.retry_schedule)
        if status == "dead":
            log.warning("webhook delivery exhausted", extra={
                "endpoint_id": claimed.endpoint_id, "event_id": claimed.message_id,
                "attempts": claimed.attempts, "error": outcome.error})
        return status

    def _stop_attempts_to_gone_endpoints(self) -> None:
        now = time.monotonic()
        if not self._in_flight or now - self._last_liveness < LIVENESS_SECONDS:
            return
        self._last_liveness = now
        items = list(self._in_flight.values())
        with self.engine.connect() as conn:
            live = webhooks.live_endpoints(conn, [i.claimed.endpoint_id for i in items])
        for item in items:
            if item.claimed.endpoint_id not in live:
                item.guard.abort()


def deliver_due(engine: Engine, config: Config, run_seconds: float = 60.0) -> dict[str, int]:
    """Send what is due until nothing is, or ``run_seconds`` have passed (a sender of its
    own; tests and benchmarks call this)."""
    return WebhookSender(engine, config).drain(run_seconds)


# -- in the worker --------------------------------------------------------------------------

_stop = threading.Event()
_thread: threading.Thread | None = None


@worker_ready.connect
def _start_sender(**_: Any) -> None:
    """Every worker's main process runs a sender (after the pool forked, like the heartbeat)."""
    global _thread
    runtime = get_runtime()
    if runtime.config.webhooks.concurrency <= 0:
        return
    sender = WebhookSender(runtime.engine, runtime.config)
    _stop.clear()
    _thread = threading.Thread(target=sender.run, args=(_stop,), name="pagemill-webhook-sender",
                               daemon=True)
    _thread.start()


@worker_shutdown.connect
def _stop_sender(**_: Any) -> None:
    """Warm shutdown: the attempts in flight end (within their deadline) and are recorded."""
    _stop.set()
    if _thread is not None:
        _thread.join(timeout=get_runtime().config.webhooks.timeout + 5)


@app.task(name=LEGACY_TASK_NAME, ignore_result=True)
def deliver_webhooks() -> dict[str, int]:
    """Kept for messages published before deliveries moved to the sender: does nothing."""
    return {}
