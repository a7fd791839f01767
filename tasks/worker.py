"""Running a Celery worker for pagemill, and supervising one started on someone's behalf.

``run_worker`` is what ``pagemill worker`` runs.  ``spawn_worker`` starts one as a child for
the length of a command (``pagemill ingest --wait`` with no worker running, ``pagemill
serve``): the child watches its parent and shuts down warmly when the parent is gone, even if
the parent was killed without a chance to clean up, and ``stop_worker`` gives it a minute to
finish its task before killing it.  ``SupervisedWorker`` (``pagemill serve``) also starts a
new one whenever the worker dies, with a growing delay (:class:`RestartBackoff`).
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from dataclasses import dataclass
from types import FrameType

from app.config import Config, LoggingConfig
from tasks.runtime import prepared_runtime

log = logging.getLogger(__name__)

PARENT_ENV = "PAGEMILL_PARENT_PID"
PARENT_POLL_SECONDS = 2.0
STOP_GRACE_SECONDS = 60.0


def raise_system_exit(signum: int, _frame: FrameType | None) -> None:
    """SIGTERM as SystemExit, so that exit handlers run (they release this process's hold on
    the embedded server and stop any worker it started)."""
    raise SystemExit(128 + signum)


def run_worker(concurrency: int | None = None, loglevel: str = "WARNING", beat: bool = False,
               config: Config | None = None, queues: str | None = None) -> None:
    """Run a Celery worker in this process (starts the embedded database if needed).
    ``queues``: comma-separated queue names to take (default: all of celeryconfig's)."""
    # Until Celery installs its warm-shutdown handler, SIGTERM must still run exit handlers.
    signal.signal(signal.SIGTERM, raise_system_exit)
    config = config or Config.from_env()
    n = concurrency or config.processing.concurrency
    if config.embedding.torch_threads == 0:
        # One model thread pool per pool process (they inherit this runtime when forked):
        # more threads than cores only thrash on 2 cores.
        config = config.with_overrides(embedding={"torch_threads": max(1, (os.cpu_count() or 1) // n)})
    runtime = prepared_runtime(config)
    from tasks.celery import app as celery_app

    _exit_with_parent()
    # Celery warns about running as root; pagemill's content is JSON only (no pickle).
    warnings.filterwarnings("ignore", message="You're running the worker with superuser")
    argv = ["worker", f"--loglevel={loglevel}", f"--concurrency={n}",
            f"--hostname={worker_nodename(os.getpid())}", "--without-gossip", "--without-mingle",
            "--without-heartbeat"]
    if queues:
        argv += [f"--queues={queues}"]
    if beat:
        argv += ["--beat", f"--schedule={runtime.config.home / 'celerybeat-schedule'}"]
    # This worker's Prometheus samples (app/infra/metrics/directory.py): claimed before Celery's
    # command line loads its plugins (Flower's imports prometheus_client).
    from app.infra.metrics import directory

    directory.claim(runtime.config.metrics_samples_dir)
    celery_app.worker_main(argv)


def worker_nodename(pid: int) -> str:
    """The Celery node name of the worker process ``pid`` on this host: its heartbeat row's
    hostname (tasks/heartbeat.py), which its supervisor clears when it dies."""
    return f"pagemill-{pid}@{socket.gethostname()}"


def spawn_worker(*, beat: bool = False) -> subprocess.Popen[bytes]:
    """A worker child of this process, for as long as this process lives."""
    # SIGTERM (a supervisor, `kill`) must run our cleanup, which stops this worker.
    signal.signal(signal.SIGTERM, raise_system_exit)
    return _start_child(beat)


def _start_child(beat: bool) -> subprocess.Popen[bytes]:
    env = {**os.environ, PARENT_ENV: str(os.getpid())}
    args = ["--beat"] if beat else []
    # A session of its own: the worker and its pool are one process group, killed together.
    return subprocess.Popen([sys.executable, "-m", "tasks", "worker", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=None, start_new_session=True)


def stop_worker(worker: subprocess.Popen[bytes]) -> None:
    if worker.poll() is None:
        worker.send_signal(signal.SIGTERM)  # warm shutdown: finish the current task
        try:
            worker.wait(timeout=STOP_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
    _kill_group(worker.pid)


def _kill_group(pid: int) -> None:
    """Kill what is left of the process group a worker led (pool processes orphaned when the
    worker itself was killed).  Its id stays reserved while any member lives, so this reaches
    nobody else."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


@dataclass(frozen=True)
class RestartBackoff:
    """How long to wait before restarting a dead worker: ``first`` seconds, doubled after
    each restart up to ``longest``; a worker that stayed up ``reset_after`` seconds counts as
    healthy, and the next restart after its death waits ``first`` again."""

    first: float = 1.0
    longest: float = 30.0
    reset_after: float = 60.0

    def next_delay(self, previous: float | None, uptime: float) -> float:
        if previous is None or uptime >= self.reset_after:
            return self.first
        return min(previous * 2, self.longest)


class SupervisedWorker:
    """A worker child that is started again, after :class:`RestartBackoff`'s delay, whenever
    its process dies (killed, out of memory, crashed) until :meth:`stop`.  Each restart is
    logged with the exit status and the delay."""

    def __init__(self, *, beat: bool = False, backoff: RestartBackoff | None = None) -> None:
        self.beat = beat
        self.backoff = backoff or RestartBackoff()
        self._proc: subprocess.Popen[bytes] | None = None
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._watcher: threading.Thread | None = None

    def start(self) -> None:
        """Start the worker and its watcher (call from the main thread: it installs the
        SIGTERM handler that lets this process stop its worker)."""
        signal.signal(signal.SIGTERM, raise_system_exit)
        self._proc = _start_child(self.beat)
        self._watcher = threading.Thread(target=self._watch, name="pagemill-worker-supervisor",
                                         daemon=True)
        self._watcher.start()

    def stop(self) -> None:
        """Stop supervising, then stop the current worker (warm shutdown, see stop_worker)."""
        with self._lock:
            self._stopping.set()
            proc = self._proc
        if proc is not None:
            stop_worker(proc)
        if self._watcher is not None:
            self._watcher.join(timeout=5)

    def _watch(self) -> None:
        delay: float | None = None
        while not self._stopping.is_set():
            proc = self._proc
            assert proc is not None
            started = time.monotonic()
            code = proc.wait()
            if self._stopping.is_set():
                return
            uptime = time.monotonic() - started
            _kill_group(proc.pid)
            _forget_heartbeat(proc.pid)
            delay = self.backoff.next_delay(delay, uptime)
            log.warning("worker %s exited with status %s after %.0f s; restarting it in %.0f s",
                        proc.pid, code, uptime, delay)
            if self._stopping.wait(delay):
                return
            with self._lock:
                if self._stopping.is_set():
                    return
                self._proc = _start_child(self.beat)
            log.warning("worker restarted as %s", self._proc.pid)


def _forget_heartbeat(pid: int) -> None:
    """A dead worker's heartbeat row would count it as live for a while (STALE_AFTER_SECONDS
    in app/domain/worker_heartbeats.py); its supervisor knows better, and clears it at once."""
    from app.domain.worker_heartbeats import forget
    from tasks.runtime import get_runtime

    try:
        with get_runtime().engine.begin() as conn:
            forget(conn, worker_nodename(pid))
    except Exception:  # the database may be down too; the row then goes stale on its own
        log.warning("could not clear the heartbeat of worker %s", pid, exc_info=True)


def _exit_with_parent() -> None:
    """A worker started by ``spawn_worker`` stops (warm shutdown) when its parent is gone."""
    raw = os.environ.pop(PARENT_ENV, None)
    if not raw:
        return
    parent = int(raw)

    def watch() -> None:
        import psutil

        while psutil.pid_exists(parent):
            time.sleep(PARENT_POLL_SECONDS)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="pagemill-parent-watch", daemon=True).start()


def main(argv: list[str] | None = None) -> None:
    """``python -m tasks worker [--beat]``: what ``spawn_worker`` starts (no CLI needed)."""
    parser = argparse.ArgumentParser(prog="python -m tasks", description="Run a pagemill worker.")
    parser.add_argument("command", choices=["worker"])
    parser.add_argument("--concurrency", "-c", type=int, default=None)
    # The level of the process that starts it (`pagemill serve` passes its environment on).
    settings = LoggingConfig.from_env()
    parser.add_argument("--loglevel", default=settings.level)
    parser.add_argument("--beat", action="store_true", help="also run the periodic reconciler")
    args = parser.parse_args(argv)
    from app.infra import logs

    logs.configure(args.loglevel.upper(), settings.format)
    run_worker(args.concurrency, args.loglevel, args.beat)
