"""pagemill's durable kombu transport, against the real database and real worker processes."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid

import pytest
from kombu import Connection
from kombu.transport import TRANSPORT_ALIASES
from sqlalchemy import make_url, text

from tasks.broker import BrokerTablesMissing, dead_letters, requeue_dead_letters
from tests.conftest import ROOT, free_port, wait_for

TRANSPORT_ALIASES.setdefault("pagemill", "tasks.broker:Transport")


@pytest.fixture
def queue_name() -> str:
    return f"q-{uuid.uuid4().hex[:10]}"


def _conn(database_url: str, **options) -> Connection:
    return Connection("pagemill+" + database_url, transport_options=options)


def _rows(engine, queue: str) -> int:
    with engine.connect() as conn:
        return conn.execute(text("SELECT count(*) FROM broker_messages WHERE queue = :q"),
                            {"q": queue}).scalar_one()


def test_ack_deletes_and_requeue_redelivers(database_url, engine, queue_name):
    with _conn(database_url) as conn:
        q = conn.SimpleQueue(queue_name)
        # One message at a time: without a prefetch limit, drain_events hands the consumer
        # every ready message at once (as an AMQP broker pushes them; kombu's suite asks it).
        q.consumer.qos(prefetch_count=1)
        for i in range(3):
            q.put({"n": i})
        assert _rows(engine, queue_name) == 3
        first = q.get(timeout=5)
        assert first.payload == {"n": 0}
        first.ack()
        # Acks are written with the next fetch, when the consumer idles, or by the lease
        # keeper within a few seconds -- here the consumer does nothing, so the keeper does.
        wait_for(lambda: _rows(engine, queue_name) == 2, timeout=10, what="ack written")
        second = q.get(timeout=5)
        second.requeue()
        again = q.get(timeout=5)
        assert again.payload == {"n": 1}
        assert again._raw.get("redelivered") is True
        again.ack()
        # Without the keeper, the ack is written when the consumer next waits for work.
        keeper = conn.transport.lease_keeper
        keeper.stop()
        if keeper._thread is not None:
            keeper._thread.join(10)
        q.get(timeout=5).ack()
        assert _rows(engine, queue_name) == 1
        with pytest.raises(q.Empty):
            q.get(timeout=0.2)
        assert _rows(engine, queue_name) == 0
        q.close()


def test_expired_messages_are_never_delivered(database_url, engine, queue_name):
    """kombu's per-message `expiration` (Celery's `expires`) is kept by the broker: past it,
    a message is skipped by every fetch and removed by housekeeping."""
    with _conn(database_url, visibility_timeout=3) as conn:
        q = conn.SimpleQueue(queue_name)
        q.put({"n": "stale"}, expiration=0.2)
        q.put({"n": "fresh"}, expiration=60)
        q.put({"n": "forever"})
        time.sleep(0.5)
        assert [q.get(timeout=5).payload["n"] for _ in range(2)] == ["fresh", "forever"]
        with pytest.raises(q.Empty):
            q.get(timeout=1)
        # The lease keeper's housekeeping (every second at this lease) deletes the stale row.
        wait_for(lambda: _rows(engine, queue_name) == 2, timeout=15, what="expired row removed")
        q.close()


def test_unacked_message_is_redelivered_after_its_lease(database_url, queue_name):
    with _conn(database_url, visibility_timeout=1) as a, _conn(database_url) as b:
        qa, qb = a.SimpleQueue(queue_name), b.SimpleQueue(queue_name)
        qa.put("work")
        taken = qa.get(timeout=5)
        assert taken.payload == "work"
        a.transport.lease_keeper.stop()  # as if the holder was killed: nobody renews the lease
        with pytest.raises(qb.Empty):
            qb.get(timeout=0.3)
        redelivered = qb.get(timeout=10)
        assert redelivered.payload == "work"
        redelivered.ack()


def test_live_holder_keeps_its_lease(database_url, queue_name):
    with _conn(database_url, visibility_timeout=1) as a, _conn(database_url) as b:
        qa, qb = a.SimpleQueue(queue_name), b.SimpleQueue(queue_name)
        qa.put("long task")
        taken = qa.get(timeout=5)
        with pytest.raises(qb.Empty):
            qb.get(timeout=3)  # three lease periods: renewed, never redelivered
        taken.ack()


def test_priority_orders_delivery(database_url, queue_name):
    with _conn(database_url) as conn:
        q = conn.SimpleQueue(queue_name)
        q.put("low", priority=0)
        q.put("high", priority=9)
        assert q.get(timeout=5).payload == "high"
        q.close()


def test_poison_message_goes_to_dead_letters_and_can_be_requeued(
        database_url, engine, queue_name):
    with _conn(database_url, max_deliveries=2) as conn:
        q = conn.SimpleQueue(queue_name)
        q.put("poison")
        for _ in range(2):
            q.get(timeout=5).requeue()
        with pytest.raises(q.Empty):
            q.get(timeout=0.5)
        assert _rows(engine, queue_name) == 0
        buried = [d for d in dead_letters(engine) if d.queue == queue_name]
        assert len(buried) == 1 and buried[0].deliveries == 3
        assert requeue_dead_letters(engine, [buried[0].id]) == 1
        assert q.get(timeout=5).payload == "poison"
        q.close()


def _drain(url: str, queue: str, out: multiprocessing.Queue, ready, go) -> None:
    got = []
    with _conn(url) as conn:
        q = conn.SimpleQueue(queue)
        ready.release()
        go.wait(60)  # all consumers start together, so they really compete
        while True:
            try:
                message = q.get(timeout=2)
            except q.Empty:
                break
            got.append(message.payload)
            message.ack()
    out.put(got)


@pytest.mark.system
def test_four_consumers_receive_every_message_exactly_once(database_url, engine, queue_name):
    total = 5000  # the figure: 4 consumers, 5,000 messages
    with _conn(database_url) as conn:
        q = conn.SimpleQueue(queue_name)
        for i in range(total):
            q.put(i)
    ctx = multiprocessing.get_context("spawn")
    out, ready, go = ctx.Queue(), ctx.Semaphore(0), ctx.Event()
    procs = [ctx.Process(target=_drain, args=(database_url, queue_name, out, ready, go))
             for _ in range(4)]
    for p in procs:
        p.start()
    for _ in procs:
        assert ready.acquire(timeout=120)
    go.set()
    results = [out.get(timeout=180) for _ in procs]
    for p in procs:
        p.join(30)
    delivered = sorted(n for r in results for n in r)
    assert delivered == list(range(total))
    assert sum(1 for r in results if r) >= 3  # the work was actually shared
    assert _rows(engine, queue_name) == 0


def _start_celery_worker(env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "tests.broker_app", "worker", "--concurrency=2",
         "--loglevel=WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat",
         f"--hostname=broker-test-{uuid.uuid4().hex[:6]}@%h"],
        env=env, cwd=ROOT, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@pytest.mark.system
def test_sigkill_loop_loses_no_task(database_url, engine, test_env, queue_name):
    """Kill the worker (main process and children) with SIGKILL again and again while it
    holds running and prefetched tasks; every task still completes."""
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE IF NOT EXISTS broker_test_runs (run text, n int, "
                          "phase text, pid int, at timestamptz DEFAULT now())"))
    env = {**test_env, "BROKER_TEST_QUEUE": queue_name, "BROKER_TEST_VISIBILITY": "3",
           "BROKER_TEST_PREFETCH": "4"}
    os.environ.update({"BROKER_TEST_QUEUE": queue_name})
    sys.modules.pop("tests.broker_app", None)
    from tests import broker_app

    broker_app.app.conf.task_default_queue = queue_name
    run = uuid.uuid4().hex
    total = 60
    for n in range(total):
        broker_app.record.apply_async((run, n, 0.3), queue=queue_name)

    def done() -> int:
        with engine.connect() as conn:
            return conn.execute(text("SELECT count(DISTINCT n) FROM broker_test_runs "
                                     "WHERE run = :r AND phase = 'done'"), {"r": run}).scalar_one()

    kills = 0
    for _ in range(4):
        worker = _start_celery_worker(env)
        # Let it take work: kill it while tasks are running and others are prefetched.
        before = done()
        try:
            wait_for(lambda b=before: done() >= b + 3, timeout=90, what="progress before kill")
        finally:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()
            kills += 1
    worker = _start_celery_worker(env)
    try:
        wait_for(lambda: done() == total, timeout=240, interval=1, what="all tasks done")
        # Acks are deferred to the next claim or the end of the loop iteration: an idle, live
        # worker has deleted every acknowledged row (nothing waits for shutdown).
        wait_for(lambda: _rows(engine, queue_name) == 0, timeout=30, what="acked rows deleted")
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(60)
    with engine.connect() as conn:
        started_twice = conn.execute(text("""
            SELECT count(*) FROM (SELECT n FROM broker_test_runs WHERE run = :r AND phase = 'start'
                                  GROUP BY n HAVING count(*) > 1) s"""), {"r": run}).scalar_one()
    assert kills == 4
    assert done() == total  # 0 lost
    assert started_twice > 0  # the kills really interrupted work that then ran again


def test_routing_is_shared_between_processes_and_idle_queues_expire(database_url, engine):
    from kombu import Exchange, Queue

    fanout = Exchange(f"fan-{uuid.uuid4().hex[:6]}", type="fanout")
    names = [f"sub-{uuid.uuid4().hex[:6]}" for _ in range(2)]
    with _conn(database_url) as subscriber:
        for name in names:
            Queue(name, fanout, expires=1, message_ttl=60).bind(subscriber.default_channel).declare()
    # Another connection (as another process would) publishes without knowing the queues.
    with _conn(database_url) as publisher:
        publisher.Producer().publish({"hello": 1}, exchange=fanout.name, routing_key="",
                                     declare=[])
    assert [_rows(engine, n) for n in names] == [1, 1]
    # Nobody consumes: after x-expires (1 s) the housekeeper removes queues and messages.
    with _conn(database_url) as housekeeper:
        housekeeper.transport.lease_keeper.start()
        wait_for(lambda: all(_rows(engine, n) == 0 for n in names), timeout=20,
                 what="expired queues dropped")
        housekeeper.transport.lease_keeper.stop()
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM broker_bindings WHERE queue = ANY(:q)"),
                            {"q": names}).scalar_one() == 0



@pytest.mark.system
def test_inspect_and_flower_see_the_worker_and_its_tasks(database_url, test_env, queue_name):
    import json as jsonlib
    import urllib.request

    env = {**test_env, "BROKER_TEST_QUEUE": queue_name, "FLOWER_UNAUTHENTICATED_API": "true"}
    hostname = f"mon-{uuid.uuid4().hex[:6]}@test"
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "tests.broker_app", "worker", "-E",
         "--concurrency=1", "--loglevel=WARNING", "--without-gossip", "--without-mingle",
         f"--hostname={hostname}"],
        env=env, cwd=ROOT, start_new_session=True, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    port = free_port()
    flower = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "tests.broker_app", "flower", f"--port={port}",
         "--address=127.0.0.1"], env=env, cwd=ROOT, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def ping() -> bool:
            out = subprocess.run([sys.executable, "-m", "celery", "-A", "tests.broker_app",
                                  "inspect", "ping", "-d", hostname, "--timeout=2"],
                                 env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
            return out.returncode == 0 and "pong" in out.stdout

        wait_for(ping, timeout=90, interval=1, what="inspect ping reply")

        def api(path: str):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
                    return jsonlib.loads(r.read())
            except OSError:
                return None

        wait_for(lambda: hostname in (api("/api/workers?refresh=1") or {}), timeout=90,
                 interval=1, what="Flower lists the worker")
        os.environ["BROKER_TEST_QUEUE"] = queue_name
        from tests import broker_app

        run = uuid.uuid4().hex
        with engine_for(database_url).begin() as conn:
            conn.execute(text("CREATE TABLE IF NOT EXISTS broker_test_runs (run text, n int, "
                              "phase text, pid int, at timestamptz DEFAULT now())"))
        ids = [broker_app.record.apply_async((run, n, 0.05), queue=queue_name).id
               for n in range(3)]

        def states():
            tasks = api("/api/tasks") or {}
            return {i: tasks.get(i, {}).get("state") for i in ids}

        wait_for(lambda: set(states().values()) == {"SUCCESS"}, timeout=90, interval=1,
                 what="Flower shows the task states")
    finally:
        for proc in (flower, worker):
            proc.send_signal(signal.SIGTERM)
        for proc in (flower, worker):
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)


def engine_for(url: str):
    from app.infra.db import get_engine

    return get_engine(url)


def test_schema_install_is_idempotent(database_url):
    from app.infra.db import upgrade_schema

    upgrade_schema(database_url)
    upgrade_schema(database_url)


def test_a_database_without_the_broker_tables_fails_to_connect_naming_the_fix(database_url):
    """The transport runs no DDL: connecting to a database not migrated (or migrated only to
    before 0010) raises BrokerTablesMissing, a connection error, naming `pagemill migrate`."""
    from sqlalchemy import make_url

    from app.infra.db import get_engine, upgrade_schema
    from app.infra.embedded import create_database

    name = f"pagemill_bare_{uuid.uuid4().hex[:8]}"
    admin = make_url(database_url).set(database="postgres").render_as_string(hide_password=False)
    create_database(admin, name)
    bare = make_url(database_url).set(database=name).render_as_string(hide_password=False)
    try:
        with _conn(bare) as conn:
            assert BrokerTablesMissing in conn.connection_errors
            with pytest.raises(BrokerTablesMissing, match="pagemill migrate") as missing:
                conn.connect()
        # The fix names the broker's database, which need not be DATABASE_URL's.
        message, url = str(missing.value), make_url(bare)
        where = f"{url.host}:{url.port}" if url.host else url.query["host"]  # TCP or socket
        assert f"database {name!r} on {where}" in message
        assert f"`DATABASE_URL={url._replace(password=None).render_as_string()} pagemill migrate`" \
            in message
        assert "pgvector" in message
        if url.password:
            assert url.password not in message
        with pytest.raises(BrokerTablesMissing, match="pagemill migrate"):
            dead_letters(get_engine(bare))
        upgrade_schema(bare, "0009")  # the tables, without 0010's expiry column
        with _conn(bare) as conn, pytest.raises(BrokerTablesMissing,
                                                match=r"broker_messages\.expires_at"):
            conn.connect()
        upgrade_schema(bare)
        with _conn(bare) as conn:
            q = conn.SimpleQueue("after-migrate")
            q.put("works")
            message = q.get(timeout=5)
            assert message.payload == "works"
            message.ack()
            q.close()
    finally:
        get_engine(bare).dispose()
        with get_engine(admin).connect().execution_options(isolation_level="AUTOCOMMIT") as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.mark.system
def test_dead_letters_cli_lists_and_requeues(database_url, engine, test_env, queue_name):
    with _conn(database_url, max_deliveries=1) as conn:
        q = conn.SimpleQueue(queue_name)
        q.put("poison")
        q.get(timeout=5).requeue()
        with pytest.raises(q.Empty):
            q.get(timeout=0.5)
        buried = [d.id for d in dead_letters(engine) if d.queue == queue_name]
        assert len(buried) == 1

        def cli(*args: str) -> str:
            out = subprocess.run([sys.executable, "-m", "app.cli", "broker", "dead-letters", *args],
                                 env=test_env, cwd=ROOT, capture_output=True, text=True, timeout=120)
            assert out.returncode == 0, out.stderr
            return out.stdout

        assert f"{buried[0]}\t{queue_name}" in cli()
        assert "requeued 1 message(s)" in cli("--requeue", "--id", str(buried[0]))
        assert q.get(timeout=5).payload == "poison"
        q.close()


@pytest.mark.system
def test_a_task_longer_than_the_lease_runs_once_while_its_worker_lives(
        database_url, engine, test_env, queue_name):
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE IF NOT EXISTS broker_test_runs (run text, n int, "
                          "phase text, pid int, at timestamptz DEFAULT now())"))
    env = {**test_env, "BROKER_TEST_QUEUE": queue_name, "BROKER_TEST_VISIBILITY": "1.5"}
    from tests import broker_app

    run = uuid.uuid4().hex
    broker_app.record.apply_async((run, 0, 6.0), queue=queue_name)  # 4 lease periods
    worker = _start_celery_worker(env)
    try:
        def phases() -> list[str]:
            with engine.connect() as conn:
                return conn.execute(text("SELECT phase FROM broker_test_runs WHERE run = :r "
                                         "ORDER BY at"), {"r": run}).scalars().all()

        wait_for(lambda: "done" in phases(), timeout=90, what="long task done")
        time.sleep(2)  # a redelivery, had there been one, would have started by now
        assert phases() == ["start", "done"]
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(60)
    assert _rows(engine, queue_name) == 0


def test_tables_missing_survives_pickling():
    """Celery may pickle an exception to send it to another process."""
    exc = BrokerTablesMissing("postgresql+psycopg://broker@db.example:5433/otherdb",
                              ["broker_messages", "broker_queues"])
    again = pickle.loads(pickle.dumps(exc))
    assert type(again) is BrokerTablesMissing
    assert str(again) == str(exc)
    assert (again.url, again.database, again.missing) == (exc.url, "otherdb", exc.missing)
    assert "database 'otherdb' on db.example:5433" in str(again)


def test_transport_options_given_as_strings_are_numbers(database_url, engine, queue_name):
    """Options read from the environment arrive as strings; kombu sets them as given."""
    with _conn(database_url, visibility_timeout="5", max_deliveries="2", fetch_limit="3",
               polling_interval="0.5") as conn:
        channel = conn.default_channel
        assert (channel.visibility_timeout, channel.max_deliveries, channel.fetch_limit) \
            == (5.0, 2, 3)
        assert conn.transport.polling_interval == 0.5
        q = conn.SimpleQueue(queue_name)
        q.consumer.qos(prefetch_count=10)  # the claim takes min(room, fetch_limit)
        q.put("poison")
        for _ in range(2):
            q.get(timeout=5).requeue()
        with pytest.raises(q.Empty):
            q.get(timeout=0.5)  # its third delivery exceeds max_deliveries
        assert [d.deliveries for d in dead_letters(engine) if d.queue == queue_name] == [3]
        q.close()


def _count_claim_rounds(transport) -> list[int]:
    """Count the transport's claim rounds from now on (in the one item of the list returned):
    a waiting consumer that spins shows up as thousands of them."""
    rounds = [0]
    drain_ready = transport._drain_ready

    def counted() -> int:
        rounds[0] += 1
        return drain_ready()

    transport._drain_ready = counted
    return rounds


def test_a_lost_listen_connection_is_re_established_without_spinning(
        database_url, engine, queue_name):
    """Kill the LISTEN connection while a consumer waits in drain_events: it reconnects,
    a later publish still wakes it at once, and it does not spin in between."""
    from kombu import Consumer, Queue

    # A 30 s safety-net poll: only a NOTIFY can deliver the message promptly.
    with _conn(database_url, polling_interval=30) as conn, _conn(database_url) as publisher:
        transport = conn.transport
        received: list[float] = []
        consumer = Consumer(conn.default_channel, [Queue(queue_name)], accept=["json"],
                            callbacks=[lambda body, message: (received.append(time.monotonic()),
                                                              message.ack())])
        consumer.consume()
        rounds = _count_claim_rounds(transport)
        errors: list[BaseException] = []

        def consume() -> None:
            try:
                conn.drain_events(timeout=20)
            except BaseException as exc:  # noqa: BLE001 -- reported by the test thread
                errors.append(exc)

        waiter = threading.Thread(target=consume, daemon=True)
        waiter.start()
        wait_for(lambda: transport._listener is not None and rounds[0] >= 1, timeout=10,
                 what="consumer waiting on LISTEN")
        killed = transport._listener.info.backend_pid
        with engine.connect() as db:
            assert db.execute(text("SELECT pg_terminate_backend(:pid)"),
                              {"pid": killed}).scalar_one()

        def listening_again() -> bool:
            listener = transport._listener
            return listener is not None and not listener.closed \
                and listener.info.backend_pid != killed

        wait_for(listening_again, timeout=10, what="LISTEN connection re-established")
        time.sleep(1.0)  # a spinning loop would run thousands of rounds here
        idle_rounds = rounds[0]
        sent = time.monotonic()
        publisher.SimpleQueue(queue_name).put({"after": "reconnect"})
        waiter.join(10)
        assert not waiter.is_alive() and not errors, errors
        assert received and received[0] - sent < 3.0  # woken by NOTIFY, not the 30 s poll
        assert idle_rounds <= 5, f"{idle_rounds} claim rounds while idle: the loop spun"
        consumer.cancel()


def test_a_lost_listen_connection_that_cannot_come_back_polls_instead_of_spinning(
        database_url, engine, queue_name, monkeypatch):
    """While the LISTEN connection cannot be re-established, drain_events sleeps through each
    wait (a claim per polling interval) and delivers what the polls find."""
    import psycopg

    with _conn(database_url, polling_interval=0.5) as conn, _conn(database_url) as publisher:
        q = conn.SimpleQueue(queue_name)
        transport = conn.transport
        rounds = _count_claim_rounds(transport)
        got: list[object] = []
        waiter = threading.Thread(target=lambda: got.append(q.get(timeout=20).payload),
                                  daemon=True)
        waiter.start()
        wait_for(lambda: transport._listener is not None and rounds[0] >= 1, timeout=10,
                 what="consumer waiting on LISTEN")

        class RefusingPsycopg:
            """psycopg as the transport's LISTEN side sees it: every new connection refused.
            Only the transport's name is replaced: the engines' pools (the consumer's polls,
            the publisher, this test's own queries) must still connect."""

            def __getattr__(self, name: str) -> object:
                return getattr(psycopg, name)

            @staticmethod
            def connect(*args: object, **kwargs: object) -> None:
                raise psycopg.OperationalError("LISTEN refused (test)")

        from tasks.broker import transport as transport_module

        monkeypatch.setattr(transport_module, "psycopg", RefusingPsycopg())
        with engine.connect() as db:
            db.execute(text("SELECT pg_terminate_backend(:pid)"),
                       {"pid": transport._listener.info.backend_pid})
        wait_for(lambda: transport._listener is None, timeout=10, what="LISTEN connection lost")
        before = rounds[0]
        time.sleep(2.0)
        assert rounds[0] - before <= 6, f"{rounds[0] - before} claim rounds in 2 s: the loop spun"
        publisher.SimpleQueue(queue_name).put("found by a poll")
        waiter.join(5)  # no NOTIFY reaches it: the next poll (0.5 s) finds the message
        assert got == ["found by a poll"]
        q.close()


class _Blackhole:
    """A TCP port that accepts connections (the kernel does) and never answers: a server
    that hangs, or a slow network path, as libpq sees it."""

    def __enter__(self) -> int:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        return int(self.sock.getsockname()[1])

    def __exit__(self, *exc: object) -> None:
        self.sock.close()


def test_kombu_connect_timeout_bounds_connecting_to_a_silent_server(database_url):
    """kombu's connect_timeout (Celery's broker_connection_timeout) reaches psycopg, for the
    pool and for the LISTEN connection; psycopg alone would wait 130 s."""
    with _Blackhole() as port:
        url = make_url(database_url).set(host="127.0.0.1", port=port, query={})
        silent = "pagemill+" + url.render_as_string(hide_password=False)
        with Connection(silent, connect_timeout=2) as conn:
            assert conn.transport.connect_timeout == 2
            started = time.monotonic()
            with pytest.raises(conn.connection_errors):
                conn.transport.establish_connection()
            assert time.monotonic() - started < 6
            started = time.monotonic()
            with pytest.raises(conn.connection_errors):
                conn.transport._ensure_listener()
            assert time.monotonic() - started < 6
        # Celery's float timeouts are rounded up to libpq's whole seconds.
        with Connection(silent, connect_timeout=0.4) as conn:
            assert conn.transport.connect_timeout == 1
        # The URL's own connect_timeout wins over kombu's.
        with Connection(silent + "?connect_timeout=3", connect_timeout=2) as conn:
            assert conn.transport.connect_timeout is None
            started = time.monotonic()
            with pytest.raises(conn.connection_errors):
                conn.transport.establish_connection()
            assert 2.5 < time.monotonic() - started < 7


# A plain Celery app in a fresh interpreter: the transport alone, nothing of pagemill's app.
_PLAIN_CELERY_APP = """
import logging, sys
handlers = list(logging.getLogger().handlers)
import tasks.broker
from celery import Celery

app = Celery("plain", broker=sys.argv[1])
app.conf.task_default_queue = sys.argv[2]

@app.task(name="plain.add")
def add(a, b):
    return a + b

add.delay(2, 3)
with app.connection_for_read() as conn:
    message = conn.SimpleQueue(sys.argv[2]).get(timeout=20)
    assert message.headers["task"] == "plain.add", message.headers
    message.ack()
loaded = sorted(m for m in sys.modules if m == "app" or m.startswith(("app.", "tasks.celery", "flask")))
assert not loaded, loaded
assert logging.getLogger().handlers == handlers, "the transport configured logging"
print("ok")
"""


@pytest.mark.system
def test_any_celery_app_can_use_the_transport_without_pagemills_app(database_url, queue_name):
    """Importing ``tasks.broker`` registers the ``pagemill+`` URL scheme and nothing else: a
    plain Celery app sends a task over it and reads it back, and neither pagemill's
    application, its Celery app nor its logging set-up was loaded."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PAGEMILL_", "DATABASE_URL", "BROKER_URL"))}
    done = subprocess.run([sys.executable, "-c", _PLAIN_CELERY_APP, "pagemill+" + database_url, queue_name],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "ok"
