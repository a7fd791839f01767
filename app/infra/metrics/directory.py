"""Where this machine's processes keep their Prometheus samples (prometheus_client's
multiprocess mode: every process writes its samples to files, and a scrape adds them up).

Each process tree that owns samples -- ``pagemill serve``, a Celery worker's main process
(``pagemill worker``, ``celery -A tasks worker``), gunicorn's master -- claims a directory of
its own, ``<PAGEMILL_METRICS_DIR>/<pid>-<start time>``, empty at start, and exports it as
``PROMETHEUS_MULTIPROC_DIR`` before anything imports prometheus_client, so that the processes
it forks or starts (pool processes, gunicorn workers, the supervised worker) write there too.
A process started with ``PROMETHEUS_MULTIPROC_DIR`` already set joins that directory: whoever
set it (a parent, or an operator) owns it and wipes it.

A scrape (:func:`sample_files`) reads every owner's directory.  A dead owner's directory is
removed by the next owner to start only when no owner on the machine is alive: while any
process keeps running, the samples of one that restarted stay counted, so the machine's
counters never go down, except when everything restarts (a reset, as Prometheus expects).
Nothing here imports prometheus_client.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
from pathlib import Path

import psutil

log = logging.getLogger(__name__)

ENV = "PROMETHEUS_MULTIPROC_DIR"
# Older prometheus_client releases read the lower-case name; both switch multiprocess mode on.
_ENV_NAMES = (ENV, "prometheus_multiproc_dir")
_OWNER = re.compile(r"^(\d+)-(\d+)$")


def current() -> Path | None:
    """This process's sample directory, if it has one."""
    for name in _ENV_NAMES:
        if os.environ.get(name):
            return Path(os.environ[name])
    return None


def _name_of(pid: int) -> str:
    # The start time tells a live owner from an unrelated process that was given its pid later.
    return f"{pid}-{int(psutil.Process(pid).create_time())}"


def _alive(name: str) -> bool:
    match = _OWNER.match(name)
    if match is None:
        return False
    try:
        return _name_of(int(match.group(1))) == name
    except psutil.Error:
        return False


def claim(base: Path) -> Path | None:
    """Give this process (and what it starts from now on) a sample directory: the inherited
    one, or a fresh one of its own under ``base``.  None when ``base`` cannot be written: the
    process then keeps its samples in memory, and only its own scrapes see them."""
    inherited = current()
    try:
        if inherited is not None:
            inherited.mkdir(parents=True, exist_ok=True)
            return inherited
        base.mkdir(parents=True, exist_ok=True)
        owners = [entry for entry in base.iterdir() if entry.is_dir()]
        if not any(_alive(entry.name) for entry in owners):
            for entry in owners:
                shutil.rmtree(entry, ignore_errors=True)
        own = base / _name_of(os.getpid())
        shutil.rmtree(own, ignore_errors=True)
        own.mkdir()
    except OSError as exc:
        log.warning("metrics stay in this process's memory: cannot write %s (%s)", base, exc)
        return None
    os.environ[ENV] = str(own)
    return own


def sample_files(base: Path) -> list[str]:
    """Every sample file on the machine: each owner's under ``base``, and this process's own
    directory's when it lies elsewhere (an operator's ``PROMETHEUS_MULTIPROC_DIR``)."""
    directories = sorted(entry for entry in base.glob("*") if entry.is_dir()) if base.is_dir() else []
    own = current()
    if own is not None and own.parent.resolve() != base.resolve():
        directories.append(own)
    return [str(path) for directory in directories for path in sorted(directory.glob("*.db"))]
