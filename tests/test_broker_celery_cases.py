"""What Celery's own integration suite found in pagemill's broker transport (issue 31):
redelivery visible where Celery reads it, and a publish with properties JSON cannot hold that
must not vanish.  Real PostgreSQL; a real Celery worker process where Celery's behaviour is
the point."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from kombu import Connection, Exchange, Producer, Queue
from kombu.transport import TRANSPORT_ALIASES
from sqlalchemy import Engine, text

from tasks.broker import dead_letters
from tests.conftest import ROOT, wait_for

TRANSPORT_ALIASES.setdefault("pagemill", "tasks.broker:Transport")

TRANSPORT_LOGGER = "tasks.broker.transport"


@pytest.fixture
def queue_name() -> str:
    return f"q-{uuid.uuid4().hex[:10]}"


def _conn(database_url: str, **options: Any) -> Connection:
    return Connection("pagemill+" + database_url, transport_options=options)


def _rows(engine: Engine, queue: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM broker_messages WHERE queue = :q"),
                                {"q": queue}).scalar_one())


def _deliveries(engine: Engine, queue: str) -> list[int]:
    with engine.connect() as conn:
        return list(conn.execute(text("SELECT deliveries FROM broker_messages WHERE queue = :q "
                                      "ORDER BY id"), {"q": queue}).scalars())


# -- (c) the transport: redelivered in delivery_info ----------------------------------------


def test_first_delivery_says_not_redelivered_and_a_requeued_one_says_redelivered(
        database_url, queue_name):
    with _conn(database_url) as conn:
        q = conn.SimpleQueue(queue_name)
        q.put({"n": 1})
        first = q.get(timeout=5)
        assert first.delivery_info["redelivered"] is False
        first.requeue()
        again = q.get(timeout=5)
        assert again.payload == {"n": 1}
        assert again.delivery_info["redelivered"] is True
        assert again._raw["redelivered"] is True  # where kombu's virtual transports put it
        # The routing kombu and Celery read from delivery_info is still there.
        assert again.delivery_info["routing_key"] == queue_name
        again.ack()
        q.close()


def test_a_message_whose_lease_expired_is_redelivered_with_the_flag(database_url, queue_name):
    with _conn(database_url, visibility_timeout=1) as a, _conn(database_url) as b:
        qa, qb = a.SimpleQueue(queue_name), b.SimpleQueue(queue_name)
        qa.put("work")
        assert qa.get(timeout=5).delivery_info["redelivered"] is False
        a.transport.lease_keeper.stop()  # as if its worker died: nobody renews the lease
        redelivered = qb.get(timeout=10)
        assert redelivered.payload == "work"
        assert redelivered.delivery_info["redelivered"] is True
        redelivered.ack()


def test_a_connection_closed_with_unacked_messages_flags_only_what_it_handed_out(
        database_url, engine, queue_name):
    """The held message comes back redelivered; the ones claimed into the channel's buffer
    and never handed out come back as first deliveries, their claim not counted.  (A consumer
    draining events is handed every claimed message at once, as an AMQP broker pushes them;
    basic_get hands out one and leaves the rest of the claim in the buffer.)"""
    with _conn(database_url) as publisher:
        q = publisher.SimpleQueue(queue_name)
        for n in range(3):
            q.put(n)
        q.close()
    a = _conn(database_url)
    try:
        channel = a.channel()
        channel.basic_qos(0, 10, False)  # one claim leases all three
        held = channel.basic_get(queue_name)
        assert held is not None
        held = channel.message_to_python(held)
        assert (held.payload, held.delivery_info["redelivered"]) == (0, False)
        assert _deliveries(engine, queue_name) == [1, 1, 1]
        channel.close()  # restores the unacked one, releases the buffer
    finally:
        a.release()
    assert _deliveries(engine, queue_name) == [1, 0, 0]
    with _conn(database_url) as b:
        qb = b.SimpleQueue(queue_name)
        got = {}
        for _ in range(3):
            message = qb.get(timeout=5)
            got[message.payload] = message.delivery_info["redelivered"]
            message.ack()
        assert got == {0: True, 1: False, 2: False}
        qb.close()


def test_a_message_taken_without_ack_carries_the_flag(database_url, queue_name):
    with _conn(database_url) as conn:
        channel = conn.default_channel
        Queue(queue_name, channel=channel).declare()
        Producer(channel).publish("once", routing_key=queue_name, exchange="")
        message = channel.basic_get(queue_name, no_ack=True)
        assert message is not None and message.payload == "once"
        assert message.delivery_info["redelivered"] is False


# -- (b) the transport: a property JSON cannot hold -----------------------------------------


def test_an_unserialisable_property_is_dropped_with_a_warning_and_the_message_delivered(
        database_url, queue_name, caplog):
    caplog.set_level(logging.WARNING, logger=TRANSPORT_LOGGER)
    with _conn(database_url) as conn:
        q = conn.SimpleQueue(queue_name)
        Producer(conn.default_channel).publish(
            {"n": 1}, exchange="", routing_key=queue_name, signal=object(), note="kept")
        message = q.get(timeout=5)
        assert message.payload == {"n": 1}
        assert "signal" not in message.properties
        assert message.properties["note"] == "kept"
        message.ack()
        q.close()
    warnings = [r.getMessage() for r in caplog.records if r.name == TRANSPORT_LOGGER]
    assert any("'signal'" in w and "dropped" in w for w in warnings), warnings


def test_a_fanout_publish_drops_the_property_once_and_reaches_every_queue(
        database_url, engine, caplog):
    caplog.set_level(logging.WARNING, logger=TRANSPORT_LOGGER)
    fanout = Exchange(f"fan-{uuid.uuid4().hex[:6]}", type="fanout")
    names = [f"sub-{uuid.uuid4().hex[:6]}" for _ in range(2)]
    with _conn(database_url) as conn:
        for name in names:
            Queue(name, fanout).bind(conn.default_channel).declare()
        Producer(conn.default_channel).publish({"hello": 1}, exchange=fanout.name,
                                               routing_key="", declare=[], signal=object())
        assert [_rows(engine, n) for n in names] == [1, 1]
        for name in names:
            conn.default_channel.queue_delete(name)
    warnings = [r for r in caplog.records
                if r.name == TRANSPORT_LOGGER and "'signal'" in r.getMessage()]
    assert len(warnings) == 1


def test_an_unserialisable_header_fails_the_publish_loudly(database_url, engine, queue_name):
    """Headers are the task's own: dropping one would change what runs, so the publisher gets
    the error (as py-amqp raises for a header it cannot encode)."""
    with _conn(database_url) as conn:
        Queue(queue_name, channel=conn.default_channel).declare()
        with pytest.raises(TypeError, match="not JSON serializable"):
            Producer(conn.default_channel).publish("x", exchange="", routing_key=queue_name,
                                                   headers={"obj": object()})
    assert _rows(engine, queue_name) == 0


# -- (a), (b) with a real Celery worker ---------------------------------------------------


@pytest.fixture(scope="module")
def celery_queue() -> str:
    return f"celery-cases-{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
def celery_worker(test_env: dict[str, str], engine: Engine, celery_queue: str) -> Iterator[None]:
    """One worker (prefork, acks late, as tests/broker_app.py configures it) for the cases."""
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE IF NOT EXISTS broker_test_runs (run text, n int, "
                          "phase text, pid int, at timestamptz DEFAULT now())"))
    env = {**test_env, "BROKER_TEST_QUEUE": celery_queue}
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "tests.broker_app", "worker", "--concurrency=2",
         "--loglevel=WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat",
         f"--hostname=celery-cases-{uuid.uuid4().hex[:6]}@%h"],
        env=env, cwd=ROOT, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()


def _phases(engine: Engine, run: str) -> list[str]:
    with engine.connect() as conn:
        return list(conn.execute(text("SELECT phase FROM broker_test_runs WHERE run = :r "
                                      "ORDER BY at"), {"r": run}).scalars())


def test_celery_reject_with_requeue_redelivers_and_succeeds(
        celery_worker, engine, celery_queue):
    """Celery's test_reject_with_requeue_redelivers_and_succeeds: the task rejects itself with
    requeue unless ``self.request.delivery_info['redelivered']``; it runs twice and succeeds,
    nothing is dead-lettered."""
    from tests import broker_app

    run = uuid.uuid4().hex
    broker_app.reject_until_redelivered.apply_async((run,), queue=celery_queue)
    wait_for(lambda: "done" in _phases(engine, run), timeout=90, interval=0.5,
             what="task redelivered and done")
    assert _phases(engine, run) == ["first", "redelivered", "done"]
    wait_for(lambda: _rows(engine, celery_queue) == 0, timeout=30, what="acked row deleted")
    assert not [d for d in dead_letters(engine) if d.queue == celery_queue]


def test_celery_republish_from_before_task_publish_with_its_kwargs_is_delivered(
        celery_worker, engine, celery_queue, caplog):
    """Celery's canvas case: a ``before_task_publish`` handler republishes the task with its
    ``**kwargs`` -- the signal object among them, which kombu makes a property.  Both messages
    run; Celery swallows a handler's exception, so a failing republish would simply be lost."""
    from celery.signals import before_task_publish

    from tests import broker_app

    caplog.set_level(logging.WARNING, logger=TRANSPORT_LOGGER)
    run = uuid.uuid4().hex
    failures: list[BaseException] = []

    def republish(sender: str | None = None, body: Any = None, exchange: str | None = None,
                  routing_key: str | None = None, headers: dict[str, Any] | None = None,
                  properties: dict[str, Any] | None = None, declare: Any = None,
                  retry_policy: Any = None, **kwargs: Any) -> None:
        if sender != "broker_test.record" or not body or body[0][0] != run:
            return
        assert "signal" in kwargs  # what makes the property unserialisable
        try:
            with broker_app.app.producer_pool.acquire(block=True) as producer:
                producer.publish(body, exchange=exchange, routing_key=routing_key, retry=None,
                                 retry_policy=retry_policy, serializer="json",
                                 delivery_mode=None, headers=headers, **kwargs)
        except BaseException as exc:  # Celery would only log it: make it fail the test
            failures.append(exc)
            raise

    before_task_publish.connect(republish, weak=False)
    try:
        broker_app.record.apply_async((run, 0, 0.0), queue=celery_queue)
    finally:
        before_task_publish.disconnect(republish)
    assert not failures, failures
    wait_for(lambda: _phases(engine, run).count("done") == 2, timeout=90, interval=0.5,
             what="the task and its republished copy both ran")
    warnings = [r.getMessage() for r in caplog.records if r.name == TRANSPORT_LOGGER]
    assert any("'signal'" in w for w in warnings), warnings
