"""Fair admission (app/domain/admission.py): the SQL against hand-made jobs, then real workers.

Keys share nothing: each key holds at most its limit of slots, heavy batches at most the heavy
limit, slots go round-robin, and a key with a backlog of many batches never keeps another
key's single batch waiting for a slot."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from app.domain import admission, jobs
from app.domain.auth import create_key
from app.infra.db import get_engine
from tests.conftest import ROOT, private_database_url, start_worker, terminate, wait_for


@pytest.fixture(scope="module")
def engine(database_url: str) -> Iterator[Engine]:
    """A database of this module's own: admission takes every waiting batch of every key, so a
    worker of another test on the shared database (started earlier in this test process)
    would admit these tests' jobs between their steps."""
    with private_database_url(database_url) as url:
        yield get_engine(url)


def _key(engine: Engine, tenant: str, concurrency: int | None = None) -> tuple[str, str]:
    """(key id, tenant id) of a new key."""
    with engine.begin() as conn:
        key = create_key(conn, tenant)
        row = conn.execute(text("SELECT id::text, tenant_id::text FROM api_keys WHERE prefix = :p"),
                           {"p": key.split("_")[1]}).one()
        if concurrency is not None:
            conn.execute(text("UPDATE api_keys SET concurrency = :c WHERE id = CAST(:k AS uuid)"),
                         {"c": concurrency, "k": row[0]})
    return row[0], row[1]


def _job(engine: Engine, key: tuple[str, str], batches: int, options: dict | None = None,
         published: bool = True, priority: int = 0) -> str:
    docs = [jobs.NewDocument(external_id=f"d{i}", source="record", object_key=None, mime_type=None,
                             size_bytes=None, sha256=None) for i in range(batches)]
    with engine.begin() as conn:
        job_id, _ = jobs.create_job(conn, key[1], docs, 1, options, api_key_id=key[0],
                                    priority=priority)
        if published:
            jobs.mark_handed(conn, job_id)
    return job_id


def _admit(engine: Engine, jobs_of_interest: set[str], limit: int = 4, heavy: int = 1
           ) -> list[admission.AdmittedBatch]:
    with engine.begin() as conn:
        admitted = admission.admit(conn, limit, heavy)
    return [b for b in admitted if b.job_id in jobs_of_interest]


def _finish(engine: Engine, batch: admission.AdmittedBatch) -> None:
    with engine.begin() as conn:
        jobs.finish_batch(conn, batch.job_id, batch.batch_no)


def test_a_backlog_gets_its_limit_and_a_single_batch_its_slot_at_once(engine, tenant):
    backlog, single = _key(engine, f"a-{uuid.uuid4().hex[:8]}"), _key(engine, f"b-{uuid.uuid4().hex[:8]}")
    big = _job(engine, backlog, 200)
    small = _job(engine, single, 1)
    admitted = _admit(engine, {big, small})
    assert sorted(b.job_id for b in admitted) == sorted([big] * 4 + [small])
    # Round-robin: every key's first batch before any key's second.
    assert {admitted[0].job_id, admitted[1].job_id} == {big, small}
    assert [b.batch_no for b in admitted if b.job_id == big] == [0, 1, 2, 3]
    assert _admit(engine, {big, small}) == []  # no slot is free: nothing more, however often
    _finish(engine, admitted[0] if admitted[0].job_id == big else admitted[1])
    (next_one,) = _admit(engine, {big, small})
    assert (next_one.job_id, next_one.batch_no) == (big, 4)


def test_a_keys_own_limit_and_the_heavy_limit_hold(engine, tenant):
    narrow = _key(engine, f"n-{uuid.uuid4().hex[:8]}", concurrency=2)
    mixed = _key(engine, f"m-{uuid.uuid4().hex[:8]}")
    narrow_job = _job(engine, narrow, 10)
    heavy_job = _job(engine, mixed, 5, {"provider": "mistral-batch"})
    light_job = _job(engine, mixed, 5)  # written after: behind the heavy backlog in age
    admitted = _admit(engine, {narrow_job, heavy_job, light_job}, limit=4, heavy=1)
    by_job = {j: [b.batch_no for b in admitted if b.job_id == j] for j in (narrow_job, heavy_job, light_job)}
    assert len(by_job[narrow_job]) == 2  # its own limit
    # One heavy batch at a time; the light ones behind it still get the key's other slots.
    assert by_job[heavy_job] == [0] and by_job[light_job] == [0, 1, 2]


def test_a_batch_of_audio_or_video_is_heavy_and_goes_to_the_media_queue(engine, tenant, tmp_path):
    import celeryconfig
    from app.config import Config
    from tasks.publisher import MEDIA_HARD_LIMIT_MARGIN, MEDIA_QUEUE, _routing

    key = _key(engine, f"v-{uuid.uuid4().hex[:8]}")
    mimes = ["application/pdf", "audio/mpeg", "video/mp4", "text/plain", "audio/wav"]
    docs = [jobs.NewDocument(external_id=f"d{i}", source="upload", object_key=f"k{i}", mime_type=mime,
                             size_bytes=10, sha256="0" * 64) for i, mime in enumerate(mimes)]
    with engine.begin() as conn:
        job_id, _ = jobs.create_job(conn, key[1], docs, 2, api_key_id=key[0])
        jobs.mark_handed(conn, job_id)
        rows = conn.execute(text("SELECT batch_no, heavy, media_documents FROM batches "
                                 "WHERE job_id = CAST(:j AS uuid) ORDER BY batch_no"), {"j": job_id}).all()
    assert [tuple(r) for r in rows] == [(0, True, 1), (1, True, 1), (2, True, 1)]
    admitted = {b.batch_no: b for b in _admit(engine, {job_id}, limit=4, heavy=4)}
    assert {n: b.media_documents for n, b in admitted.items()} == {0: 1, 1: 1, 2: 1}
    # The queue exists in the static settings (a worker without -Q takes it), and the limit
    # grows by the media limit per recording.
    assert MEDIA_QUEUE in [q.name for q in celeryconfig.task_queues]
    config = Config.from_env({"PAGEMILL_HOME": str(tmp_path), "PAGEMILL_MEDIA_TIME_LIMIT": "1000"})
    two = admission.AdmittedBatch(job_id, 0, 0, 0, None, media_documents=2)
    assert _routing(two, config) == {
        "queue": MEDIA_QUEUE, "soft_time_limit": celeryconfig.task_soft_time_limit + 2000.0,
        "time_limit": celeryconfig.task_soft_time_limit + 2000.0 + MEDIA_HARD_LIMIT_MARGIN}
    assert _routing(admission.AdmittedBatch(job_id, 0, 0, 0, None), config) == {}


def test_unpublished_cancelled_and_prioritised_jobs(engine, tenant):
    key = _key(engine, f"p-{uuid.uuid4().hex[:8]}", concurrency=1)
    unpublished = _job(engine, key, 3, published=False)  # not handed over: never admitted
    bulk = _job(engine, key, 3)
    urgent = _job(engine, key, 1, priority=9)  # sync parse: first within its key
    with engine.begin() as conn:
        cancelled = _job(engine, key, 2)
        jobs.cancel_job(conn, key[1], cancelled)
    admitted = _admit(engine, {unpublished, bulk, urgent, cancelled})
    assert [(b.job_id, b.priority) for b in admitted] == [(urgent, 9)]


def test_a_lost_publish_is_found_again(engine, tenant):
    key = _key(engine, f"l-{uuid.uuid4().hex[:8]}")
    job_id = _job(engine, key, 2)
    admitted = _admit(engine, {job_id})
    assert len(admitted) == 2
    with engine.begin() as conn:
        admission.mark_published(conn, admitted[:1])
        conn.execute(text("UPDATE batches SET admitted_at = admitted_at - interval '1 minute' "
                          "WHERE job_id = CAST(:j AS uuid)"), {"j": job_id})
        lost = admission.admitted_unpublished(conn, 30)
    assert [(b.job_id, b.batch_no) for b in lost if b.job_id == job_id] == [(job_id, admitted[1].batch_no)]



def _ingest(env: dict[str, str], records: Path, tenant: str, batch_size: int) -> str:
    done = subprocess.run([sys.executable, "-m", "app.cli", "ingest", "--jsonl", str(records),
                           "--tenant", tenant, "--batch-size", str(batch_size)],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.system
def test_three_workers_never_run_more_of_a_key_than_its_limit(test_env, private_database, tmp_path):
    """Three worker processes, a limit of 2: the backlog's batches never overlap more than two
    at a time (from the batches' own start and end times), and a second tenant's single
    document submitted after the backlog finishes before the backlog does."""
    env = {**test_env, "DATABASE_URL": private_database, "PAGEMILL_KEY_CONCURRENCY": "2",
           "PAGEMILL_WORKER_CONCURRENCY": "3"}
    engine = get_engine(private_database)
    text_of = " ".join(f"Sentence {i} keeps the message until it is acknowledged." for i in range(60))
    backlog = tmp_path / "backlog.jsonl"
    backlog.write_text("".join(json.dumps({"id": f"b{i}", "text": text_of}) + "\n" for i in range(8)))
    single = tmp_path / "single.jsonl"
    single.write_text(json.dumps({"id": "s0", "text": "one small document"}) + "\n")
    worker = start_worker(env, engine)
    try:
        big = _ingest(env, backlog, "backlog", 1)
        small = _ingest(env, single, "single", 1)

        def finished() -> bool:
            with engine.connect() as conn:
                return conn.execute(text("SELECT count(*) FROM jobs WHERE status = 'completed' "
                                         "AND id IN (CAST(:a AS uuid), CAST(:b AS uuid))"),
                                    {"a": big, "b": small}).scalar_one() == 2

        wait_for(finished, timeout=600, interval=1, what="both jobs")
    finally:
        terminate(worker)
    with engine.connect() as conn:
        spans = conn.execute(text("SELECT started_at, finished_at FROM batches WHERE job_id = "
                                  "CAST(:j AS uuid)"), {"j": big}).all()
        small_done = conn.execute(text("SELECT finished_at FROM jobs WHERE id = CAST(:j AS uuid)"),
                                  {"j": small}).scalar_one()
    events = sorted([(s, 1) for s, _ in spans] + [(f, -1) for _, f in spans])
    running = most = 0
    for _, step in events:
        running += step
        most = max(most, running)
    print(f"most backlog batches running at once: {most} (limit 2, 3 worker processes)")
    assert most <= 2
    assert most == 2  # the limit is used, not just respected
    assert small_done < max(f for _, f in spans)  # not queued behind the backlog


@pytest.mark.system
def test_a_worker_killed_holding_a_slot_gives_it_back_within_its_lease(test_env, private_database,
                                                                      tmp_path):
    """A key limited to one slot; its worker is SIGKILLed in the middle of the first batch.
    The batch keeps the slot -- nobody else of the key runs meanwhile -- until the broker's
    lease (5 s here) gives its task to the next worker, which finishes it; then the second
    batch gets the slot. Every document is indexed once."""
    import os
    import signal
    import time

    env = {**test_env, "DATABASE_URL": private_database, "PAGEMILL_KEY_CONCURRENCY": "1",
           "PAGEMILL_BROKER_VISIBILITY_TIMEOUT": "5"}
    engine = get_engine(private_database)
    body = " ".join(f"Sentence {i} keeps the message until it is acknowledged." for i in range(400))
    records = tmp_path / "two.jsonl"
    records.write_text("".join(json.dumps({"id": f"k{i}", "text": body}) + "\n" for i in range(2)))
    first = start_worker(env, engine)
    second = None
    try:
        job_id = _ingest(env, records, "killed", 1)

        def batch(n: int) -> tuple:
            with engine.connect() as conn:
                return conn.execute(text("SELECT status, deliveries, admitted_at, started_at FROM batches "
                                         "WHERE job_id = CAST(:j AS uuid) AND batch_no = :n"),
                                    {"j": job_id, "n": n}).one()

        wait_for(lambda: batch(0).status == "running", timeout=120, interval=0.1, what="batch 0 running")
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()
        killed_at = time.monotonic()
        assert batch(1).admitted_at is None  # the slot is still batch 0's
        second = start_worker(env, engine)

        def done() -> bool:
            with engine.connect() as conn:
                return conn.execute(text("SELECT status FROM jobs WHERE id = CAST(:j AS uuid)"),
                                    {"j": job_id}).scalar_one() == "completed"

        wait_for(done, timeout=300, interval=0.5, what="the job after the kill")
        print(f"job completed {time.monotonic() - killed_at:.1f} s after the kill (lease 5 s)")
    finally:
        if second is not None:
            terminate(second)
        if first.poll() is None:
            terminate(first)
    assert batch(0).deliveries == 2 and batch(1).deliveries == 1
    with engine.connect() as conn:
        indexed = conn.execute(text("SELECT count(*) FROM search_documents sd JOIN documents d "
                                    "ON d.id = sd.source_document_id WHERE d.job_id = :j"),
                               {"j": job_id}).scalar_one()
    assert indexed == 2


def _pagemill(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.system
def test_keys_create_and_update_set_a_keys_own_concurrency(test_env):
    tenant = f"conc-{uuid.uuid4().hex[:8]}"
    created = _pagemill(test_env, "keys", "create", "--tenant", tenant, "--concurrency", "2")
    assert created.returncode == 0, created.stderr
    prefix = created.stdout.strip().split("_")[1]

    def listed() -> dict:
        out = _pagemill(test_env, "keys", "list", "--tenant", tenant, "--json")
        (key,) = json.loads(out.stdout)
        return key

    assert listed()["concurrency"] == 2
    updated = _pagemill(test_env, "keys", "update", prefix, "--concurrency", "default")
    assert updated.returncode == 0 and "concurrency default" in updated.stdout, updated.stderr
    assert listed()["concurrency"] is None and listed()["rate_limit_per_minute"] is None
    assert _pagemill(test_env, "keys", "update", prefix, "--concurrency", "0").returncode == 2
    nothing = _pagemill(test_env, "keys", "update", prefix)
    assert nothing.returncode == 2 and "--concurrency" in nothing.stderr
