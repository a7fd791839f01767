"""Running a Celery worker for pagemill, and supervising one started on someone's behalf.

``run_worker`` is what ``pagemill worker`` runs.  ``spawn_worker`` starts one as a child for
the length of a command (``pagemill ingest --wait`` with no worker running, ``pagemill
serve``): the child watches its parent and shuts down warmly when the parent is gone, even if
the parent was killed without a chance to clean up, and ``stop_worker`` gives it a minute to
finish its task before killing it.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
import time
import warnings
from types import FrameType

from app.config import Config
from tasks.runtime import prepared_runtime

PARENT_ENV = "PAGEMILL_PARENT_PID"
PARENT_POLL_SECONDS = 2.0
STOP_GRACE_SECONDS = 60.0


def raise_system_exit(signum: int, _frame: FrameType | None) -> None:
    """SIGTERM as SystemExit, so that exit handlers run (they release this process's hold on
    the embedded server and stop any worker it started)."""
    raise SystemExit(128 + signum)


def run_worker(concurrency: int | None = None, loglevel: str = "WARNING", beat: bool = False,
               config: Config | None = None) -> None:
    """Run a Celery worker in this process (starts the embedded database if needed)."""
    # Until Celery installs its warm-shutdown handler, SIGTERM must still run exit handlers.
    signal.signal(signal.SIGTERM, raise_system_exit)
    runtime = prepared_runtime(config)
    from tasks import app as celery_app

    _exit_with_parent()
    n = concurrency or runtime.config.worker_concurrency
    # Celery warns about running as root; pagemill's content is JSON only (no pickle).
    warnings.filterwarnings("ignore", message="You're running the worker with superuser")
    # One torch thread pool per process: more threads than cores only thrash on 2 cores.
    os.environ.setdefault("PAGEMILL_TORCH_THREADS", str(max(1, (os.cpu_count() or 1) // n)))
    argv = ["worker", f"--loglevel={loglevel}", f"--concurrency={n}",
            f"--hostname=pagemill-{os.getpid()}@%h", "--without-gossip", "--without-mingle",
            "--without-heartbeat"]
    if beat:
        argv += ["--beat", f"--schedule={runtime.config.home / 'celerybeat-schedule'}"]
    celery_app.worker_main(argv)


def spawn_worker(*, beat: bool = False) -> subprocess.Popen[bytes]:
    """A worker child of this process, for as long as this process lives."""
    # SIGTERM (a supervisor, `kill`) must run our cleanup, which stops this worker.
    signal.signal(signal.SIGTERM, raise_system_exit)
    env = {**os.environ, PARENT_ENV: str(os.getpid())}
    args = ["--beat"] if beat else []
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
    parser.add_argument("--loglevel", default="WARNING")
    parser.add_argument("--beat", action="store_true", help="also run the periodic reconciler")
    args = parser.parse_args(argv)
    from app import logs

    logs.configure(os.environ.get("PAGEMILL_LOG_LEVEL", "WARNING").upper())
    run_worker(args.concurrency, args.loglevel, args.beat)
