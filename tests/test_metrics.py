"""Prometheus metrics: ``/metrics`` on an API started by the Procfile's ``web`` line (gunicorn,
two processes) adds up the samples of a separate worker process after a job; the database-side
gauges' statements against the real schema; the sample directories' ownership rules; and that
importing pagemill imports no prometheus_client (it must be imported after the directory is
claimed)."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import psutil
import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text

from app.domain.database_gauges import (
    DOCUMENT_STATUSES,
    DatabaseGauges,
    read_documents,
    read_queues,
)
from app.domain.statements.metrics import HAS_WEBHOOKS
from app.infra.metrics import directory
from tests.conftest import ROOT, bearer, free_port, terminate, wait_for

STAGES_OF_A_TEXT_DOCUMENT = ("fetch", "extract", "chunk", "embed", "index")


def _samples(body: str) -> dict[str, list[tuple[dict[str, str], float]]]:
    """Sample name -> [(labels, value)], from Prometheus's text format."""
    found: dict[str, list[tuple[dict[str, str], float]]] = {}
    for family in text_string_to_metric_families(body):
        for sample in family.samples:
            found.setdefault(sample.name, []).append((dict(sample.labels), sample.value))
    return found


def _total(samples: list[tuple[dict[str, str], float]], **labels: str) -> float:
    return sum(value for have, value in samples if all(have.get(k) == v for k, v in labels.items()))


def _procfile_line(name: str) -> str:
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith(f"{name}:"):
            return line.partition(":")[2].strip()
    raise AssertionError(f"no {name} line in the Procfile")



def _start_procfile(name: str, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """The Procfile's ``name`` line through bash, as a platform runs it, in a session of its own."""
    env = {**env, "PATH": f"{Path(sys.executable).parent}:{env['PATH']}"}
    env.pop(directory.ENV, None)
    with open(log, "wb") as out:
        return subprocess.Popen(["bash", "-c", _procfile_line(name)], env=env, cwd=ROOT, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    os.killpg(proc.pid, signal.SIGTERM)  # bash and what it started: a warm stop
    terminate(proc)


@pytest.fixture
def web(test_env, test_home):
    """The Procfile's ``web`` process (app/web_server.py: gunicorn, two processes) on the
    test database; its base URL."""
    port = free_port()
    log = test_home / f"web-{port}.log"
    proc = _start_procfile("web", {**test_env, "PORT": str(port)}, log)
    base = f"http://127.0.0.1:{port}"

    def up() -> bool:
        assert proc.poll() is None, log.read_text()
        try:
            return requests.get(f"{base}/healthz", timeout=5).status_code == 200
        except requests.ConnectionError:
            return False

    wait_for(up, timeout=120, interval=0.5, what="the Procfile's web process")
    yield base
    _stop(proc)


@pytest.fixture
def procfile_worker(test_env, test_home, engine):
    """The Procfile's ``worker`` process (``celery -A tasks worker``), a process tree of its own."""
    log = test_home / "procfile-worker.log"
    proc = _start_procfile("worker", {**test_env, "WORKER_CONCURRENCY": "1"}, log)

    def beating() -> bool:
        assert proc.poll() is None, log.read_text()
        pids = [proc.pid] + [c.pid for c in psutil.Process(proc.pid).children(recursive=True)]
        with engine.connect() as conn:
            return bool(conn.execute(text("SELECT 1 FROM worker_heartbeats WHERE pid = ANY(:pids)"),
                                     {"pids": pids}).first())

    wait_for(beating, timeout=120, interval=0.5, what="the Procfile's worker heartbeat")
    yield proc
    _stop(proc)


@pytest.mark.system
def test_metrics_add_up_the_worker_and_the_api_after_a_job(web, procfile_worker, key):
    """The Procfile's web and worker lines, each its own process tree: after a job, a scrape
    of any web process adds up what the worker's pool process and the web processes recorded
    (a session worker, if another test started one, writes to the same place)."""
    documents = [{"id": f"m-{n}", "text": f"# Note {n}\n\nMetrics count document {n} once."}
                 for n in range(3)]
    answer = requests.post(f"{web}/v1/jobs", json={"documents": documents}, headers=bearer(key),
                           timeout=30)
    assert answer.status_code == 202, answer.text
    job_id = answer.json()["id"]

    def finished() -> str | None:
        job = requests.get(f"{web}/v1/jobs/{job_id}", headers=bearer(key), timeout=10).json()
        return job["status"] if job["status"] not in ("queued", "running") else None

    assert wait_for(finished, timeout=180, interval=0.5, what=f"job {job_id}") == "completed"
    scrape = requests.get(f"{web}/metrics", timeout=30)
    assert scrape.status_code == 200 and scrape.headers["Content-Type"].startswith("text/plain")
    samples = _samples(scrape.text)

    # Process side: written by the worker's pool process, read by an API process.
    assert _total(samples["pagemill_documents_total"], outcome="completed") >= len(documents)
    for stage in STAGES_OF_A_TEXT_DOCUMENT:
        assert _total(samples["pagemill_stage_seconds_count"], stage=stage) >= len(documents), stage
    requests_seen = samples["pagemill_http_request_seconds_count"]
    assert _total(requests_seen, route="/v1/jobs", status="202") >= 1
    assert _total(requests_seen, route="/v1/jobs/<job_id>", status="200") >= 1  # the rule, not the path
    assert not [labels for labels, _ in requests_seen if job_id in labels["route"]]
    # Database side.
    # Every queue of celeryconfig: documents and recordings.
    assert [labels for labels, _ in samples["pagemill_queue_depth"]] == [{"queue": "pagemill"},
                                                                         {"queue": "pagemill.media"}]
    assert [labels for labels, _ in samples["pagemill_queue_oldest_seconds"]] == [{"queue": "pagemill"},
                                                                                  {"queue": "pagemill.media"}]
    assert "pagemill_dead_letters" in samples
    assert _total(samples["pagemill_documents"], status="completed") >= len(documents)
    print(f"/metrics: {len(scrape.content)} bytes, {sum(map(len, samples.values()))} samples")


def test_queue_and_dead_letter_statements_count_ready_messages_by_queue(engine):
    queue, empty = f"metrics-{uuid.uuid4().hex[:8]}", f"metrics-empty-{uuid.uuid4().hex[:8]}"
    dead_id = 10**15 + uuid.uuid4().int % 10**12
    with engine.begin() as conn:
        conn.execute(text("""
            INSERT INTO broker_messages (queue, payload, visible_at, created_at, expires_at) VALUES
              (:q, '{}', now(), now() - interval '90 seconds', NULL),            -- ready, oldest
              (:q, '{}', now(), now() - interval '10 seconds', now() + interval '1 hour'),
              (:q, '{}', now() + interval '1 hour', now() - interval '1 hour', NULL),  -- leased
              (:q, '{}', now(), now() - interval '2 hours', now() - interval '1 second')  -- expired
        """), {"q": queue})
        conn.execute(text("""
            INSERT INTO broker_dead_letters (id, queue, priority, payload, deliveries, reason, created_at)
            VALUES (:id, :q, 0, '{}', 5, 'test', now())
        """), {"id": dead_id, "q": queue})
    try:
        with engine.begin() as conn:
            families = {family.name: family for family in read_queues(conn, (queue, empty))}
    finally:
        with engine.begin() as conn:
            conn.execute(text("DELETE FROM broker_messages WHERE queue = :q"), {"q": queue})
            conn.execute(text("DELETE FROM broker_dead_letters WHERE id = :id"), {"id": dead_id})
    depth = {s.labels["queue"]: s.value for s in families["pagemill_queue_depth"].samples}
    oldest = {s.labels["queue"]: s.value for s in families["pagemill_queue_oldest_seconds"].samples}
    assert depth == {queue: 2, empty: 0}  # leased and expired messages are not waiting
    assert 90 <= oldest[queue] < 3600 and oldest[empty] == 0
    assert families["pagemill_dead_letters"].samples[0].value >= 1


def test_document_statement_lists_every_status(engine, tenant):
    with engine.connect() as conn:  # rolled back at the end: the row is never seen by others
        before = {s.labels["status"]: s.value for s in read_documents(conn)[0].samples}
        job = conn.execute(text("INSERT INTO jobs (tenant_id, total_documents, batch_size) "
                                "VALUES (:t, 1, 1) RETURNING id"), {"t": tenant}).scalar_one()
        conn.execute(text("INSERT INTO documents (tenant_id, job_id, external_id, batch_no, source, "
                          "status) VALUES (:t, :j, 'd', 0, 'record', 'failed')"),
                     {"t": tenant, "j": job})
        families = {f.name: f for f in read_documents(conn)}
        has_webhooks = conn.execute(HAS_WEBHOOKS).scalar_one()
        conn.rollback()
    after = {s.labels["status"]: s.value for s in families["pagemill_documents"].samples}
    assert set(after) == set(DOCUMENT_STATUSES)
    assert after["failed"] == before["failed"] + 1
    assert ("pagemill_webhook_backlog" in families) == has_webhooks


def test_gauges_are_cached_and_queue_gauges_absent_without_the_database_broker(engine):
    with_broker = DatabaseGauges(lambda: engine, lambda: engine, ("pagemill",), ttl=3600)
    first = list(with_broker.collect())
    assert {"pagemill_queue_depth", "pagemill_documents"} <= {f.name for f in first}
    assert all(a is b for a, b in zip(first, with_broker.collect(), strict=True))  # one reading
    without = DatabaseGauges(lambda: engine, lambda: None, ("pagemill",), ttl=0)
    names = {f.name for f in without.collect()}
    assert "pagemill_documents" in names and not names & {"pagemill_queue_depth",
                                                          "pagemill_queue_oldest_seconds",
                                                          "pagemill_dead_letters"}


def test_scrape_with_a_redis_broker_and_with_a_token(config):
    from app.api import create_app

    redis = create_app(config.with_overrides(broker={"url": "redis://127.0.0.1:1/0"})).test_client()
    names = {f.name for f in text_string_to_metric_families(redis.get("/metrics").get_data(as_text=True))}
    assert "pagemill_documents" in names and "pagemill_queue_depth" not in names
    guarded = create_app(config.with_overrides(metrics={"token": "s3cret"})).test_client()
    assert guarded.get("/metrics").status_code == 401
    assert guarded.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert guarded.get("/metrics", headers={"Authorization": "Bearer s3cret"}).status_code == 200


def test_an_owner_clears_dead_owners_only_when_no_owner_lives(tmp_path, monkeypatch):
    monkeypatch.delenv(directory.ENV, raising=False)
    monkeypatch.delenv("prometheus_multiproc_dir", raising=False)
    base = tmp_path / "metrics"
    parent = psutil.Process(os.getppid())
    live = base / f"{parent.pid}-{int(parent.create_time())}"
    dead = base / "999999999-1"
    for owner in (live, dead):
        owner.mkdir(parents=True)
        (owner / "counter_1.db").write_bytes(b"")
    own = directory.claim(base)
    assert own is not None and own.parent == base and os.environ[directory.ENV] == str(own)
    assert dead.exists() and live.exists()  # someone is alive: the dead one's counts stay
    assert directory.claim(base) == own  # inherited from now on: joined, not claimed again
    assert str(dead / "counter_1.db") in directory.sample_files(base)

    monkeypatch.delenv(directory.ENV)
    live.rename(base / "999999998-1")  # its owner gone too
    os.rename(own, base / "999999997-1")
    fresh = directory.claim(base)
    assert fresh is not None and sorted(p.name for p in base.iterdir()) == [fresh.name]


@pytest.mark.system
def test_importing_pagemill_imports_no_prometheus_client():
    code = ("import sys, app.api, app.infra.metrics, app.services.processing, tasks.celery, "
            "app.gunicorn_conf; "
            "print('prometheus_client' in sys.modules)")
    env = {k: v for k, v in os.environ.items() if k.lower() != directory.ENV.lower()}
    found = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                           text=True, timeout=120)
    assert found.stdout.strip() == "False", found.stderr
    print(shlex.join(["python", "-c", code]))


def test_ocr_time_is_the_ocr_engines_share_of_an_extraction(config):
    from app.infra import metrics
    from app.infra.metrics import exposition
    from extractors.base import Attempt

    def ocr_count() -> float:
        body = exposition.scrape(config.metrics_samples_dir, None).decode()
        return _total(_samples(body).get("pagemill_stage_seconds_count", []), stage="ocr")

    before = ocr_count()
    metrics.observe_ocr([Attempt("pdf-fast", 0.1)], config.extraction.ocr_engines)  # no OCR engine ran
    metrics.observe_ocr([Attempt("tesseract", 1.5), Attempt("rapidocr", 0.5), Attempt("pdf-fast", 0.1)],
                        config.extraction.ocr_engines)
    assert ocr_count() == before + 1
