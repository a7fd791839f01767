"""Delivering webhooks: the Celery task ``pagemill.deliver_webhooks``, which claims due
deliveries (app/webhooks.py), sends them signed (app/webhook_signing.py) under the SSRF policy
(app/webhook_delivery.py) and records what each attempt got.

Who runs it, none of them required for correctness (the schedule is in the database):

- after the worker task whose commits wrote events (a batch, a job's finalisation, the
  reconciler, a provider step): :func:`kick_after_task`, when something is due;
- itself, when the earliest retry is due before the next sweep (a 5 s retry does not wait
  for the sweeper);
- the sweeper, ``SWEEPER`` in ``celeryconfig.beat_schedule`` (Celery beat, ``pagemill worker
  --beat``): whatever is due whose task was lost (a worker killed between
  its commit and the publish, the broker down, an API cancel, which publishes nothing).

Runs may overlap: ``FOR UPDATE SKIP LOCKED`` gives each due delivery to one of them.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from celery.signals import task_postrun
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError

from app import webhooks
from app.config import Config
from app.secret_options import SecretKeyUnavailable, fernet
from app.url_fetch import UrlPolicy
from app.webhook_delivery import AttemptOutcome, post
from app.webhook_signing import signature_header
from tasks.celery_app import app
from tasks.runtime import get_runtime

log = logging.getLogger(__name__)

TASK_NAME = "pagemill.deliver_webhooks"
# The sweeper's entry in celeryconfig.beat_schedule, where its period is stated.
SWEEPER = "deliver-webhooks"
# Ahead of queued batches (the broker orders each queue by priority): a notification should
# not wait behind a tenant's backlog of documents.
PRIORITY = 5
# Deliveries one claim takes, all sent at once, one thread each.
CLAIM_SIZE = 10
# A claimed delivery is due again this long after its time limit if its worker vanished (the
# claim's requests all start at once, so each ends within the time limit of its start).
LEASE_MARGIN_SECONDS = 10.0
# A run stops claiming after this long and leaves the rest to its successor, so that one run
# does not keep a worker process from its other tasks.
RUN_SECONDS = 60.0
# Tasks whose transactions can write events: once they end, their commits are done.
_EVENT_WRITERS = frozenset({"pagemill.ingest_batch", "pagemill.finalize_job",
                            "pagemill.reconcile_jobs", "pagemill.provider_submit",
                            "pagemill.provider_check"})


def _signing_secrets(config: Config, tokens: list[str]) -> list[str] | None:
    from cryptography.fernet import InvalidToken

    try:
        keys = fernet(config)
        return [keys.decrypt(token.encode("ascii")).decode("ascii") for token in tokens]
    except (SecretKeyUnavailable, InvalidToken, UnicodeError):
        return None


def attempt(claimed: webhooks.ClaimedDelivery, config: Config, policy: UrlPolicy) -> AttemptOutcome:
    """Send one claimed delivery, signed with each of its endpoint's live secrets."""
    secrets = _signing_secrets(config, claimed.secret_tokens)
    if secrets is None:
        return AttemptOutcome(None, "the endpoint's signing secret cannot be decrypted with this "
                              "worker's key (PAGEMILL_SECRET_KEY)", 0)
    timestamp = int(time.time())
    headers = {"webhook-id": claimed.message_id, "webhook-timestamp": str(timestamp),
               "webhook-signature": signature_header(secrets, claimed.message_id, timestamp,
                                                     claimed.body)}
    return post(claimed.url, claimed.body, headers, policy, config.webhook_timeout)


def deliver_due(engine: Engine, config: Config, run_seconds: float = RUN_SECONDS) -> dict[str, int]:
    """Send what is due, a claim at a time, until nothing is or ``run_seconds`` have passed;
    returns how many deliveries ended in each status."""
    lease = config.webhook_timeout + LEASE_MARGIN_SECONDS
    policy = config.url_policy()
    counts: Counter[str] = Counter()
    started = time.monotonic()
    with ThreadPoolExecutor(CLAIM_SIZE, thread_name_prefix="pagemill-webhook") as senders:
        while time.monotonic() - started < run_seconds:
            with engine.begin() as conn:
                claimed = webhooks.claim_due(conn, CLAIM_SIZE, lease)
            if not claimed:
                break
            outcomes = list(senders.map(lambda c: attempt(c, config, policy), claimed))
            with engine.begin() as conn:
                for delivery, outcome in zip(claimed, outcomes, strict=True):
                    status = webhooks.record_outcome(conn, delivery, outcome,
                                                     config.webhook_retry_schedule)
                    counts[status] += 1
                    if status == "dead":
                        log.warning("webhook delivery exhausted", extra={
                            "endpoint_id": delivery.endpoint_id, "event_id": delivery.message_id,
                            "attempts": delivery.attempts, "error": outcome.error})
    return dict(counts)


def publish(countdown: float = 0.0, priority: int = PRIORITY) -> None:
    """Enqueue a run (best effort: the sweeper makes up for a publish that fails)."""
    try:
        deliver_webhooks.apply_async(countdown=countdown or None, priority=priority)
    except Exception:  # the broker being down must not fail the caller
        log.warning("could not enqueue webhook delivery; the sweeper will", exc_info=True)


def _schedule_successor(engine: Engine) -> None:
    with engine.connect() as conn:
        due_in = webhooks.seconds_until_due(conn)
    if due_in is not None and due_in < float(app.conf.beat_schedule[SWEEPER]["schedule"]):
        # In turn with batches, not ahead of them: a backlog of deliveries (a slow receiver,
        # thousands of events) must not keep a worker from ingesting.
        publish(due_in, priority=0)


@app.task(name=TASK_NAME, autoretry_for=(OperationalError,), max_retries=3, ignore_result=True)
def deliver_webhooks() -> dict[str, int]:
    runtime = get_runtime()
    counts = deliver_due(runtime.engine, runtime.config)
    _schedule_successor(runtime.engine)
    return counts


@task_postrun.connect
def kick_after_task(task: Any = None, **_: Any) -> None:
    """After a task that may have written events, a delivery run if something is due now."""
    if getattr(task, "name", None) in _EVENT_WRITERS:
        kick_if_due(get_runtime().engine)


def kick_if_due(engine: Engine) -> None:
    """A delivery run now if a delivery is due (after a commit that may have written events:
    a task's, or the API's cancel and delete); never raises."""
    try:
        with engine.connect() as conn:
            due_in = webhooks.seconds_until_due(conn)
    except Exception:  # a hook after the real work must never fail it
        log.warning("could not look for due webhook deliveries", exc_info=True)
        return
    if due_in is not None and due_in < 1.0:
        publish()
