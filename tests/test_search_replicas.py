"""Search from a real PostgreSQL streaming standby (issue 33, item 4): reads are served there,
a stopped or lagging replica is left out and search still answers, and a search asked to see
a finished job (``after_job``) waits for the replica to replay it or is served by the primary.

The primary and its standby are this module's own servers (tests/streaming_replica.py), from
the embedded server's binaries.  What a replica served is shown two ways: the runtime's count
of reads per server, and the replica's own view (with its replay paused, it does not have
what the primary has).
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from app.api import create_app
from app.api.context import EXTENSION
from app.config import Config
from app.domain import jobs
from app.domain.auth import authenticate, create_key
from app.domain.jobs import NewDocument
from app.domain.search_reads import PRIMARY, SearchReads
from app.infra.db import get_engine, upgrade_schema
from app.infra.storage import LocalStorage
from app.runtime import Runtime
from app.services.processing import process_batch
from app.services.search_request import SearchRequest, serve_search
from app.services.staging import stage_document
from app.services.submission import stage_record
from tests.conftest import bearer
from tests.streaming_replica import Pair, start_pair

# Starts servers of its own (initdb, pg_basebackup, pg_ctl).
pytestmark = pytest.mark.system


@pytest.fixture(scope="module")
def pair() -> Iterator[Pair]:
    servers = start_pair()
    try:
        upgrade_schema(servers.primary.url)  # streamed to the standby like any other write
        servers.caught_up()
        yield servers
    finally:
        get_engine(servers.primary.url).dispose()
        servers.close()


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("replicas-home")


@pytest.fixture(scope="module", autouse=True)
def _environment(home: Path) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HF_HUB_OFFLINE", "1")  # the model is in the cache; no hub requests
        # Where this process's metric samples go when no earlier test claimed a directory.
        patch.setenv("PAGEMILL_HOME", os.environ.get("PAGEMILL_HOME") or str(home))
        yield


@pytest.fixture
def app_for(pair: Pair, home: Path) -> Callable[..., Flask]:
    """An API on the primary whose searches read from the standby (or from ``search_urls``),
    with the replica settings given; a new runtime each time, so no test inherits another's
    replica left out."""
    def make(**database: Any) -> Flask:
        settings = {"url": pair.primary.url, "search_urls": (pair.standby.url,),
                    "search_replica_max_lag": 30.0, "search_replica_wait": 0.3,
                    "search_replica_retry": 60.0, **database}
        config = Config(home=home).with_overrides(
            database=settings, embedding={"preload": False}, extraction={"isolation": False},
            limits={"rate_limit_per_minute": 0})
        return create_app(config)

    return make


@pytest.fixture
def key(pair: Pair) -> str:
    with get_engine(pair.primary.url).begin() as conn:
        return create_key(conn, f"replicas-{uuid.uuid4().hex[:8]}")


def _tenant(pair: Pair, key: str) -> str:
    with get_engine(pair.primary.url).connect() as conn:
        principal = authenticate(conn, key)
    assert principal is not None
    return principal.tenant_id


def _runtime(app: Flask) -> Runtime:
    runtime: Runtime = app.extensions[EXTENSION]
    return runtime


def _storage(app: Flask) -> LocalStorage:
    return LocalStorage(_runtime(app).config.home / "objects")


def _job(app: Flask, tenant: str, document: NewDocument) -> str:
    """A job of one document, written on the primary and left unprocessed."""
    with _runtime(app).engine.begin() as conn:
        job_id, _ = jobs.create_job(conn, tenant, [document], batch_size=10)
    return job_id


def _record(app: Flask, tenant: str, doc_id: str, text: str) -> NewDocument:
    return stage_record(_storage(app), tenant, {"id": doc_id, "title": doc_id, "text": text, "metadata": {}})


def _ingest(app: Flask, tenant: str, doc_id: str, text: str, outcome: str = "completed",
            document: NewDocument | None = None) -> str:
    """A job of one document, processed and finalised on the primary as a worker does it."""
    runtime = _runtime(app)
    job_id = _job(app, tenant, document or _record(app, tenant, doc_id, text))
    process_batch(runtime.engine, _storage(app), runtime.config, job_id, 0)
    with runtime.engine.begin() as conn:
        assert jobs.finalize_job(conn, job_id) == outcome
    return job_id


def _counted(served_by: str, reason: str) -> float:
    """pagemill_search_reads_total of this process for those labels."""
    from app.infra.metrics import series_module

    value = series_module().REGISTRY.get_sample_value(
        "pagemill_search_reads_total", {"served_by": served_by, "reason": reason})
    return value or 0.0


def _reads(app: Flask) -> SearchReads:
    reads: SearchReads = app.extensions[EXTENSION].search_reads
    return reads


def _search(app: Flask, key: str, query: str, **body: Any) -> tuple[int, Any]:
    answer = app.test_client().post("/v1/search", headers=bearer(key),
                                    json={"query": query, "mode": "bm25", **body})
    return answer.status_code, answer.get_json()


def _found(app: Flask, key: str, query: str, **body: Any) -> list[str]:
    status, answer = _search(app, key, query, **body)
    assert status == 200, answer
    return sorted(hit["document_id"] for hit in answer["results"])


def test_searches_are_read_on_the_replica_and_after_job_waits_for_it(pair: Pair, app_for, key: str) -> None:
    app = app_for()
    tenant = _tenant(pair, key)
    _ingest(app, tenant, "fins", "Zebrafish regrow their fins within weeks.")
    pair.caught_up()
    assert _found(app, key, "zebrafish") == ["fins"]
    assert _reads(app).served == {"replica-0": 1}

    pair.pause_replay()
    try:
        hearts = _ingest(app, tenant, "hearts", "Zebrafish hearts regenerate after injury.")
        # The replica's view is the one from before the pause: the search was read there.
        assert _found(app, key, "zebrafish") == ["fins"]
        assert _reads(app).served == {"replica-0": 2}
        # Asked to see the job, the search waits the 0.3 s for the paused replica, then the
        # primary answers it, with the job's document.
        began = time.monotonic()
        assert _found(app, key, "zebrafish", after_job=hearts) == ["fins", "hearts"]
        assert time.monotonic() - began >= 0.3
        assert _reads(app).served == {"replica-0": 2, PRIMARY: 1}
    finally:
        pair.resume_replay()

    # Replay running: the replica replays the job within the wait and serves the search.
    patient = app_for(search_replica_wait=10.0)
    pair.caught_up()
    assert _found(patient, key, "zebrafish") == ["fins", "hearts"]  # its runtime has seen the replica fresh
    pair.pause_replay()
    tails = _ingest(patient, tenant, "tails", "Zebrafish tails beat fast.")
    resume = threading.Timer(0.2, pair.resume_replay)
    resume.start()
    try:
        began = time.monotonic()
        assert _found(patient, key, "zebrafish", after_job=tails) == ["fins", "hearts", "tails"]
        assert time.monotonic() - began >= 0.2  # it waited for the replay
        assert _reads(patient).served == {"replica-0": 2}
    finally:
        resume.join()
    # And with nothing to wait for, at once.
    assert _found(patient, key, "zebrafish", after_job=hearts) == ["fins", "hearts", "tails"]
    assert _reads(patient).served == {"replica-0": 3}


def test_after_job_must_name_a_job_of_the_caller(pair: Pair, app_for, key: str) -> None:
    app = app_for()
    status, answer = _search(app, key, "zebrafish", after_job=str(uuid.uuid4()))
    assert status == 404 and answer["error"]["code"] == "not_found"
    with get_engine(pair.primary.url).begin() as conn:
        other = create_key(conn, f"other-{uuid.uuid4().hex[:8]}")
    theirs = _ingest(app, _tenant(pair, other), "theirs", "Zebrafish of another tenant.")
    status, answer = _search(app, key, "zebrafish", after_job=theirs)
    assert status == 404
    assert answer["error"]["code"] == "not_found" and answer["error"]["details"] == {"after_job": theirs}
    status, answer = _search(app, key, "zebrafish", after_job="not-a-uuid")
    assert status == 400
    assert _reads(app).served == {}  # nothing was searched


def test_a_running_job_is_searched_on_the_primary(pair: Pair, app_for, key: str) -> None:
    app = app_for()
    tenant = _tenant(pair, key)
    running = _job(app, tenant, _record(app, tenant, "r", "Medaka too."))
    served = serve_search(_runtime(app), tenant, SearchRequest("medaka", mode="bm25", after_job=running))
    assert (served.by, served.reason, served.value) == (PRIMARY, "asked", [])
    pair.caught_up()
    served = serve_search(_runtime(app), tenant, SearchRequest("medaka", mode="bm25"))
    assert (served.by, served.reason) == ("replica-0", "replica")


def test_a_cancelled_job_has_a_position_and_a_retry_takes_it_away(pair: Pair, app_for, key: str) -> None:
    app = app_for()
    runtime = _runtime(app)
    tenant = _tenant(pair, key)
    cancelled = _job(app, tenant, _record(app, tenant, "c", "Guppies."))
    with runtime.engine.begin() as conn:
        assert jobs.cancel_job(conn, tenant, cancelled) == "cancelled"
    bad = stage_document(_storage(app), tenant, "broken.pdf", b"%PDF-1.4\n garbage", source="upload",
                         filename="broken.pdf")
    failed = _ingest(app, tenant, "broken.pdf", "", outcome="failed", document=bad)
    pair.caught_up()
    for job_id in (cancelled, failed):
        served = serve_search(runtime, tenant, SearchRequest("guppies", mode="bm25", after_job=job_id))
        assert (served.by, served.reason) == ("replica-0", "replica")
    with runtime.engine.begin() as conn:
        assert jobs.reopen_failed(conn, tenant, failed) is not None
        assert jobs.commit_lsn(conn, tenant, failed) is None  # running again: no position yet
    served = serve_search(runtime, tenant, SearchRequest("guppies", mode="bm25", after_job=failed))
    assert (served.by, served.reason) == (PRIMARY, "asked")


def test_a_stopped_replica_is_left_out_and_search_still_answers(pair: Pair, app_for, key: str) -> None:
    tenant = _tenant(pair, key)
    # replica-0 was never there (nothing listens on its port), replica-1 is the standby.
    nowhere = pair.standby.url.replace(f":{pair.standby.port}/", f":{_closed_port()}/")
    app = app_for(search_urls=(nowhere, pair.standby.url), search_replica_retry=1.0)
    counted = _counted("replica-1", "replica"), _counted(PRIMARY, "replicas_unusable")
    _ingest(app, tenant, "gills", "Zebrafish gills exchange gases.")
    pair.caught_up()
    assert _found(app, key, "zebrafish") == ["gills"]  # replica-0 refused; replica-1 answered
    assert _found(app, key, "zebrafish") == ["gills"]  # replica-0 left out: not even tried
    assert _reads(app).served == {"replica-1": 2}

    pair.standby.stop()
    try:
        began = time.monotonic()
        assert _found(app, key, "zebrafish") == ["gills"]  # the primary answers
        assert _found(app, key, "zebrafish") == ["gills"]
        assert time.monotonic() - began < 5  # a refused connection costs no timeout
        assert _reads(app).served == {"replica-1": 2, PRIMARY: 2}
    finally:
        pair.standby.start()
    pair.caught_up()
    time.sleep(1.0)  # the retry period: the standby is tried again, and serves
    assert _found(app, key, "zebrafish") == ["gills"]
    assert _reads(app).served == {"replica-1": 3, PRIMARY: 2}
    # The same in the metric an operator watches.
    assert (_counted("replica-1", "replica") - counted[0],
            _counted(PRIMARY, "replicas_unusable") - counted[1]) == (3, 2)


def test_a_lagging_replica_is_left_out_until_it_catches_up(pair: Pair, app_for, key: str) -> None:
    tenant = _tenant(pair, key)
    # Longer than indexing one document and answering one search take, even on a busy machine
    # (2 s was not: on a loaded CI machine the search after the ingest met a replica already
    # past the bound, and the primary answered it).
    lag = 5.0
    app = app_for(search_replica_max_lag=lag)
    _ingest(app, tenant, "scales", "Zebrafish scales are thin.")
    pair.caught_up()
    assert _found(app, key, "zebrafish") == ["scales"]
    pair.pause_replay()
    try:
        began = time.monotonic()
        _ingest(app, tenant, "stripes", "Zebrafish stripes are blue.")  # WAL the replica lacks
        assert time.monotonic() - began < lag / 2
        assert _found(app, key, "zebrafish") == ["scales"]  # behind, but not yet for `lag`
        time.sleep(lag + 0.1)
        assert _found(app, key, "zebrafish") == ["scales", "stripes"]  # the primary's answer
        assert _reads(app).served == {"replica-0": 2, PRIMARY: 1}
    finally:
        pair.resume_replay()
    pair.caught_up()
    assert _found(app, key, "zebrafish") == ["scales", "stripes"]  # caught up: asked again, and serves
    time.sleep(lag + 0.1)  # a replica with everything is not lagging, however long ago the last write
    assert _found(app, key, "zebrafish") == ["scales", "stripes"]
    assert _reads(app).served == {"replica-0": 4, PRIMARY: 1}


def test_a_read_the_replica_cannot_answer_is_answered_by_the_primary(pair: Pair, app_for) -> None:
    """A schema the replica has not replayed yet (new code before its migration reached the
    replica): the read fails there, the primary answers, and the replica stays in."""
    from sqlalchemy import text

    app = app_for()
    reads = _reads(app)
    table = f"added_{uuid.uuid4().hex[:8]}"
    pair.caught_up()
    assert reads.run(lambda conn: 1).by == "replica-0"  # and its runtime has seen it fresh
    pair.pause_replay()
    try:
        with get_engine(pair.primary.url).begin() as conn:
            conn.execute(text(f"CREATE TABLE {table} AS SELECT 42 AS answer"))
        served = reads.run(lambda conn: conn.execute(text(f"SELECT answer FROM {table}")).scalar_one())
        assert (served.value, served.by, served.reason) == (42, PRIMARY, "replica_error")
    finally:
        pair.resume_replay()
    pair.caught_up()
    again = reads.run(lambda conn: conn.execute(text(f"SELECT answer FROM {table}")).scalar_one())
    assert (again.value, again.by) == (42, "replica-0")  # not left out
    with get_engine(pair.primary.url).begin() as conn:
        conn.execute(text(f"DROP TABLE {table}"))


def test_a_server_that_replays_no_wal_is_read_without_a_lag_check_but_not_after_a_job(
        pair: Pair, app_for, key: str) -> None:
    """The primary itself named as a replica: it answers (read-only), lag is not measured, and
    it cannot say whether it has a job, so after_job goes elsewhere."""
    tenant = _tenant(pair, key)
    app = app_for(search_urls=(pair.primary.url,))
    job = _ingest(app, tenant, "eyes", "Zebrafish eyes see ultraviolet.")
    served = serve_search(_runtime(app), tenant, SearchRequest("zebrafish", mode="bm25"))
    assert (served.by, [h.document_id for h in served.value]) == ("replica-0", ["eyes"])
    served = serve_search(_runtime(app), tenant, SearchRequest("zebrafish", mode="bm25", after_job=job))
    assert (served.by, served.reason) == (PRIMARY, "replicas_unusable")


def test_doctor_says_where_each_replica_stands(pair: Pair, app_for) -> None:
    from app.cli.doctor import _replica_checks

    nowhere = pair.standby.url.replace(f":{pair.standby.port}/", f":{_closed_port()}/")
    config = _runtime(app_for(search_urls=(pair.standby.url, nowhere, pair.primary.url))).config
    pair.caught_up()
    found = {c.check: c for c in _replica_checks(config, get_engine(pair.primary.url))}
    assert list(found) == ["search replica replica-0", "search replica replica-1", "search replica replica-2"]
    assert not any(c.required for c in found.values())  # the primary answers without them
    standby, refused, primary = found.values()
    assert standby.ok and "a streaming standby, replayed " in standby.detail
    assert not refused.ok and "is unreachable" in refused.detail and "Connection refused" in refused.detail
    assert not primary.ok and "not a streaming standby" in primary.detail


def _closed_port() -> int:
    import socket

    with socket.socket() as sock:  # bound, never listening, closed: connections are refused
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port
