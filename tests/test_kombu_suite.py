"""kombu's own transport integration suite, run on pagemill's transport (tasks/broker).

The test classes are kombu's: ``t/integration/common.py`` from the sdist of the installed kombu
version, fetched at test time with ``pip download`` (and cached in the temp directory), never
copied into this repository.  This module only provides what kombu's own ``t/integration/test_*.py``
modules provide: a ``connection`` to a reachable broker and an ``invalid_connection`` to an
unreachable one.  When the sdist cannot be fetched (no network to PyPI), the module is skipped
with the reason.

The broker is a database of its own on the test server, migrated to head, so that kombu's fixed
queue names ("test", "priority_test", ...) start empty as they do on kombu's CI brokers.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import socket
import subprocess
import sys
import tarfile
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import kombu
import pytest
from kombu.transport import TRANSPORT_ALIASES
from sqlalchemy import make_url, text

from app.infra.db import get_engine, upgrade_schema
from app.infra.embedded import create_database

TRANSPORT_ALIASES.setdefault("pagemill", "tasks.broker:Transport")

KOMBU_VERSION = importlib.metadata.version("kombu")
SUITE = f"kombu-{KOMBU_VERSION}/t/integration/common.py"


def _fetch_suite() -> Path:
    """kombu's ``t/integration/common.py`` of the installed version, from its sdist on PyPI."""
    cache = Path(os.environ.get("PAGEMILL_KOMBU_SDIST_DIR")
                 or Path(tempfile.gettempdir()) / "pagemill-kombu-sdist")
    suite = cache / SUITE
    if suite.is_file():
        return suite
    cache.mkdir(parents=True, exist_ok=True)
    sdist = cache / f"kombu-{KOMBU_VERSION}.tar.gz"
    if not sdist.is_file():
        result = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
             "--quiet", "--timeout", "30", "--retries", "1", "--dest", str(cache),
             f"kombu=={KOMBU_VERSION}"],
            capture_output=True, text=True, timeout=600)
        if result.returncode != 0 or not sdist.is_file():
            raise RuntimeError(f"pip download kombu=={KOMBU_VERSION} failed: "
                               f"{(result.stderr or result.stdout).strip()[-500:]}")
    with tarfile.open(sdist) as archive:
        archive.extract(SUITE, cache, filter="data")
    return suite


def _load_suite() -> ModuleType:
    try:
        path = _fetch_suite()
    except (OSError, RuntimeError, KeyError, tarfile.TarError,
            subprocess.TimeoutExpired) as exc:
        pytest.skip(f"kombu's integration suite could not be fetched: {exc}",
                    allow_module_level=True)
    spec = importlib.util.spec_from_file_location("kombu_integration_common", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Any: the suite's classes are only known once the module is loaded.
common: Any = _load_suite()


@pytest.fixture(scope="module")
def broker_url(database_url: str) -> Iterator[str]:
    """A fresh database on the test server, migrated to head: the broker's own tables only
    come from the migrations."""
    name = f"pagemill_kombu_{uuid.uuid4().hex[:8]}"
    url = make_url(database_url)
    admin = url.set(database="postgres").render_as_string(hide_password=False)
    create_database(admin, name)
    fresh = url.set(database=name).render_as_string(hide_password=False)
    upgrade_schema(fresh)
    yield "pagemill+" + fresh
    get_engine(fresh).dispose()
    # FORCE: the transport's own pools (one per URL and process) still hold connections.
    with get_engine(admin).connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def connection(broker_url: str) -> kombu.Connection:
    return kombu.Connection(broker_url)


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def invalid_connection(database_url: str) -> kombu.Connection:
    """The same transport pointed at a port where no server listens."""
    url = make_url(database_url).set(host="127.0.0.1", port=_closed_port(), query={})
    return kombu.Connection(
        "pagemill+" + url.render_as_string(hide_password=False) + "?connect_timeout=2")


class TestBasicFunctionality(common.BasicFunctionality):
    pass


class TestExchangeTypes(common.BaseExchangeTypes):
    pass


class TestTimeToLive(common.BaseTimeToLive):
    pass


class TestPriority(common.BasePriority):
    # kombu's default PRIORITY_ORDER, "asc": higher numbers are delivered first, as with
    # py-amqp (kombu's redis tests override it with the reverse).
    pass


class TestMessage(common.BaseMessage):
    pass
