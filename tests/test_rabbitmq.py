"""The broker moves to RabbitMQ with ``BROKER_URL=amqp://…`` and no code change: a private
``rabbitmq-server`` (Debian's) is started on free ports, and ``pagemill ingest samples --wait``
runs its job through it -- the CLI publishes there and the worker it starts consumes from
there -- against a database of its own.  The machine's shared RabbitMQ (5672) is never used.

As root, Debian's ``rabbitmq-server`` re-executes itself as the ``rabbitmq`` user (``su``), so
every folder it writes is one that user owns, and it is stopped by the pid it writes to
``RABBITMQ_PID_FILE``."""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from app.infra.db import get_engine
from tests.conftest import ROOT, free_port, wait_for

SERVER = shutil.which("rabbitmq-server") or (
    "/usr/sbin/rabbitmq-server" if os.path.exists("/usr/sbin/rabbitmq-server") else None)

pytestmark = [
    pytest.mark.skipif(SERVER is None, reason="rabbitmq-server is not installed "
                                              "(apt-get install rabbitmq-server; .ci/setup does)"),
    pytest.mark.skipif(os.geteuid() != 0, reason="Debian's rabbitmq-server starts only as root "
                                                 "(it then runs as the rabbitmq user)"),
]



def _amqp_accepts(url: str) -> bool:
    from kombu import Connection

    try:
        with Connection(url, connect_timeout=2) as connection:
            connection.ensure_connection(max_retries=1, timeout=2)
    except Exception:  # not up yet
        return False
    return True


def _stop(pid_file: Path, launcher: subprocess.Popen[bytes]) -> None:
    """SIGTERM the server by its pid (it runs in a process group of its own, under su), wait
    for it to go; then make sure the launcher (our child) is gone too."""
    try:
        pid = int(pid_file.read_text().strip())
    except (OSError, ValueError):
        pid = None
    if pid is not None:
        try:
            os.kill(pid, signal.SIGTERM)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                os.kill(pid, 0)
                time.sleep(0.2)
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        launcher.wait(timeout=30)
    except subprocess.TimeoutExpired:
        launcher.kill()
        launcher.wait()


@pytest.fixture
def rabbitmq() -> Iterator[str]:
    """The AMQP URL of a RabbitMQ node of this test's own, stopped and removed afterwards."""
    assert SERVER is not None
    port, dist_port = free_port(), free_port()
    assert 5672 not in (port, dist_port)
    user = pwd.getpwnam("rabbitmq")
    base = Path(tempfile.mkdtemp(prefix="pagemill-rabbitmq-"))
    # /etc/rabbitmq/rabbitmq.conf may name the shared node's listener (127.0.0.1:5672): this
    # node reads a configuration of its own.  consumer_timeout as docs/DEPLOY.md advises
    # (RabbitMQ's 30 minutes is under a batch's task_time_limit; tasks are acked late).
    (base / "rabbitmq.conf").write_text(f"listeners.tcp.local = 127.0.0.1:{port}\n"
                                        "consumer_timeout = 3600000\n")
    (base / "enabled_plugins").write_text("[].\n")  # no management listener on 15672
    for path in (base, base / "rabbitmq.conf", base / "enabled_plugins"):
        os.chown(path, user.pw_uid, user.pw_gid)
    env = {**os.environ,
           "RABBITMQ_NODENAME": f"pagemill-test-{uuid.uuid4().hex[:8]}@localhost",
           "RABBITMQ_NODE_IP_ADDRESS": "127.0.0.1",
           "RABBITMQ_NODE_PORT": str(port),
           "RABBITMQ_DIST_PORT": str(dist_port),
           "RABBITMQ_CONFIG_FILE": str(base / "rabbitmq.conf"),
           "RABBITMQ_MNESIA_BASE": str(base / "mnesia"),
           "RABBITMQ_LOG_BASE": str(base / "log"),
           "RABBITMQ_ENABLED_PLUGINS_FILE": str(base / "enabled_plugins"),
           "RABBITMQ_FEATURE_FLAGS_FILE": str(base / "feature_flags"),
           "RABBITMQ_PID_FILE": str(base / "rabbitmq.pid")}
    url = f"amqp://guest:guest@127.0.0.1:{port}//"
    started = time.monotonic()
    with (base / "server.out").open("wb") as out:
        launcher = subprocess.Popen([SERVER], env=env, stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True)
    try:
        def up() -> bool:
            if launcher.poll() is not None:
                raise AssertionError(f"rabbitmq-server exited with {launcher.returncode}: "
                                     f"{(base / 'server.out').read_text()[-2000:]}")
            return _amqp_accepts(url)

        wait_for(up, timeout=120, interval=0.5, what="the private RabbitMQ to accept AMQP")
        print(f"private RabbitMQ on port {port} accepted AMQP after {time.monotonic() - started:.1f} s")
        yield url
    finally:
        _stop(base / "rabbitmq.pid", launcher)
        shutil.rmtree(base, ignore_errors=True)



@pytest.mark.system
def test_a_job_runs_through_a_real_rabbitmq(rabbitmq: str, private_database: str,
                                            test_env: dict[str, str]) -> None:
    """...and the trace context rides in the AMQP message's headers: the worker's task spans
    are children of the command's publishes (tests/test_traces.py has the receiver)."""
    from tests.test_traces import Receiver

    receiver = Receiver()
    env = {**test_env, "DATABASE_URL": private_database, "BROKER_URL": rabbitmq,
           "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url, "OTEL_BSP_SCHEDULE_DELAY": "100"}
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "app.cli", "ingest", "samples", "--wait",
                             "--tenant", f"rabbitmq-{uuid.uuid4().hex[:8]}"],
                            env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
    print(f"ingest samples --wait through RabbitMQ took {time.monotonic() - started:.1f} s")
    assert result.returncode == 0, result.stderr
    assert "no worker is running: starting one for this job" in result.stderr
    assert "completed (4 completed, 0 failed)" in result.stderr
    with get_engine(private_database).connect() as conn:
        statuses = conn.execute(text("SELECT status, count(*) FROM jobs GROUP BY status")).all()
        # The database's own broker tables saw none of it: the messages went to RabbitMQ.
        on_database = conn.execute(text("SELECT (SELECT count(*) FROM broker_messages)"
                                        " + (SELECT count(*) FROM broker_bindings)")).scalar_one()
    assert [tuple(row) for row in statuses] == [("completed", 1)]
    assert on_database == 0
    # The task queue lives on this RabbitMQ (a passive declare fails for an unknown queue).
    from kombu import Connection

    with Connection(rabbitmq, connect_timeout=5) as connection:
        _name, messages, _consumers = connection.default_channel.queue_declare(queue="pagemill",
                                                                               passive=True)
    assert messages == 0
    with get_engine(private_database).connect() as conn:
        trace_id = conn.execute(text("SELECT traceparent FROM jobs")).scalar_one().split("-")[1]

    def runs() -> list[dict[str, object]]:
        return [s for s in receiver.trace(trace_id) if s["name"] == "run/pagemill.ingest_batch"]

    try:
        wait_for(lambda: bool(runs()), timeout=60, what="the task's span in the command's trace")
        publishes = {s["span_id"]: s for s in receiver.trace(trace_id)
                     if s["name"] == "apply_async/pagemill.ingest_batch"}
        assert publishes and all(s["process"] == "cli" for s in publishes.values())
        assert all(run["parent"] in publishes and run["process"] == "worker" for run in runs())
    finally:
        receiver.close()
