"""Request rate limits per API key (GCRA in PostgreSQL, app/domain/rate_limits.py) against the real
API and database: the statement itself, driven through its clock parameter (never by
sleeping); the fields on every authenticated response; 429s that store and queue nothing."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from sqlalchemy import Engine, text
from werkzeug.test import TestResponse

from app.api import create_app
from app.config import Config
from app.domain.auth import authenticate, create_key
from app.domain.rate_limits import RateDecision, RatePolicy, admit, policy_for
from tests.conftest import ROOT, bearer

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
RATE_FIELD = re.compile(r'^"default";r=(\d+);t=(\d+)$')


def _key_id(engine: Engine, key: str) -> str:
    with engine.connect() as conn:
        return str(conn.execute(text("SELECT id FROM api_keys WHERE prefix = :p"),
                                {"p": key.split("_")[1]}).scalar_one())


def _tenant_id(engine: Engine, key: str) -> str:
    with engine.connect() as conn:
        return str(conn.execute(text("SELECT tenant_id FROM api_keys WHERE prefix = :p"),
                                {"p": key.split("_")[1]}).scalar_one())


def _admit(engine: Engine, key_id: str, policy: RatePolicy, now: datetime) -> RateDecision:
    with engine.begin() as conn:
        return admit(conn, key_id, policy, now)


def _rate(response: TestResponse) -> tuple[int, int]:
    found = RATE_FIELD.match(response.headers["RateLimit"])
    assert found, response.headers["RateLimit"]
    return int(found.group(1)), int(found.group(2))


# --- the statement --------------------------------------------------------------------------


def test_gcra_admits_the_burst_then_the_steady_rate(engine: Engine, key: str) -> None:
    """60 a minute (one a second) with a burst of 5, on a clock the test sets."""
    key_id, policy = _key_id(engine, key), RatePolicy(per_minute=60, burst=5)
    burst = [_admit(engine, key_id, policy, T0) for _ in range(5)]
    assert all(d.admitted for d in burst)
    assert [d.remaining for d in burst] == [4, 3, 2, 1, 0]
    assert [d.reset for d in burst] == [1, 2, 3, 4, 5]  # until the whole burst is back

    refused = _admit(engine, key_id, policy, T0)
    assert not refused.admitted and refused.remaining == 0
    assert refused.retry_after == 1 and refused.reset == 1
    # Half a second on: still nothing, and the refusals did not push the arrival time on.
    later = _admit(engine, key_id, policy, T0 + timedelta(milliseconds=500))
    assert not later.admitted and later.retry_after == 1

    # Then one a second, the steady rate: each second admits exactly one more.
    for second in range(1, 4):
        now = T0 + timedelta(seconds=second)
        assert _admit(engine, key_id, policy, now).admitted
        assert not _admit(engine, key_id, policy, now).admitted

    # Idle for long enough, the whole burst is available again, not more.
    rested = T0 + timedelta(minutes=10)
    decisions = [_admit(engine, key_id, policy, rested) for _ in range(6)]
    assert [d.admitted for d in decisions] == [True] * 5 + [False]


def test_gcra_records_one_row_and_refusals_leave_it(engine: Engine, key: str) -> None:
    key_id, policy = _key_id(engine, key), RatePolicy(per_minute=6, burst=1)  # one per 10 s

    def arrival() -> datetime:
        with engine.connect() as conn:
            return conn.execute(text("SELECT tat FROM rate_limit_arrivals WHERE api_key_id = :k"),
                                {"k": key_id}).scalar_one()

    assert _admit(engine, key_id, policy, T0).admitted
    assert arrival() == T0 + timedelta(seconds=10)
    refused = _admit(engine, key_id, policy, T0 + timedelta(seconds=3))
    assert not refused.admitted and refused.retry_after == 7
    assert arrival() == T0 + timedelta(seconds=10)
    assert _admit(engine, key_id, policy, T0 + timedelta(seconds=10)).admitted
    assert arrival() == T0 + timedelta(seconds=20)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM rate_limit_arrivals WHERE api_key_id = :k"),
                            {"k": key_id}).scalar_one() == 1


def test_gcra_decides_concurrent_requests_one_at_a_time(engine: Engine, key: str) -> None:
    """Requests of one key at the same instant from many connections: exactly the burst is
    admitted (the upsert locks the key's row; no lost update)."""
    key_id, policy = _key_id(engine, key), RatePolicy(per_minute=60, burst=7)
    verdicts: list[bool] = []
    lock, start = threading.Lock(), threading.Barrier(16)

    def request() -> None:
        start.wait()
        for _ in range(3):
            admitted = _admit(engine, key_id, policy, T0).admitted
            with lock:
                verdicts.append(admitted)

    threads = [threading.Thread(target=request) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(verdicts) == 48 and sum(verdicts) == 7


def test_the_database_clock_is_used_by_default(engine: Engine, key: str) -> None:
    key_id, policy = _key_id(engine, key), RatePolicy(per_minute=1, burst=2)
    with engine.begin() as conn:
        first, second, third = (admit(conn, key_id, policy) for _ in range(3))
    assert first.admitted and second.admitted and not third.admitted
    assert third.retry_after >= 1


def test_policies() -> None:
    assert policy_for(600, None) == RatePolicy(600, 600)
    assert policy_for(600, 60).header == '"default";q=600;w=60'
    assert not policy_for(0, None).enabled
    with pytest.raises(ValueError):
        RatePolicy(-1, 1)
    assert Config.from_env({"PAGEMILL_RATE_LIMIT_PER_MINUTE": "90"}).limits.rate_limit_per_minute == 90
    assert Config.from_env({}).limits.rate_limit_per_minute == 600
    assert Config.from_env({"PAGEMILL_RATE_LIMIT_BURST": "12"}).limits.rate_limit_burst == 12
    assert Config.from_env({"PAGEMILL_RATE_LIMIT_BURST": ""}).limits.rate_limit_burst is None


# --- the API --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tight(config: Config) -> FlaskClient:
    """An API allowing one request a minute with a burst of 3: the 4th request within a minute
    is over, however slow the machine."""
    return create_app(config.with_overrides(limits={"rate_limit_per_minute": 1,
                                                    "rate_limit_burst": 3})).test_client()


def test_every_authenticated_response_carries_the_fields(client: FlaskClient, key: str) -> None:
    for response in (client.get("/v1/jobs", headers=bearer(key)),
                     client.get(f"/v1/jobs/{uuid.uuid4()}", headers=bearer(key)),   # 404
                     client.get("/v1/jobs?limit=0", headers=bearer(key)),           # 400
                     client.post("/v1/search", json={"query": "x"}, headers=bearer(key))):
        assert response.status_code in (200, 400, 404), response.data[:300]
        assert response.headers["RateLimit-Policy"] == '"default";q=600;w=60'
        remaining, reset = _rate(response)
        assert 0 < remaining < 600 and 1 <= reset <= 60
        assert "Retry-After" not in response.headers


def test_unauthenticated_requests_are_not_limited(tight: FlaskClient, key: str) -> None:
    for _ in range(6):
        for path in ("/healthz", "/openapi.json"):
            response = tight.get(path)
            assert response.status_code == 200 and "RateLimit" not in response.headers
        response = tight.get("/v1/jobs")
        assert response.status_code == 401 and "RateLimit" not in response.headers
        response = tight.get("/v1/jobs", headers=bearer("pm_abcdef_nope"))
        assert response.status_code == 401 and "RateLimit" not in response.headers


def test_over_the_limit_is_a_429_with_retry_after(tight: FlaskClient, key: str, engine: Engine) -> None:
    answers = [tight.get("/v1/jobs", headers=bearer(key)) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 200]
    assert [_rate(a)[0] for a in answers] == [2, 1, 0]
    refused = tight.get("/v1/jobs", headers=bearer(key))
    assert refused.status_code == 429 and refused.content_type == "application/json"
    error = refused.get_json()["error"]
    assert error["code"] == "rate_limited" and error["details"]["limit"] == 1
    retry_after = int(refused.headers["Retry-After"])
    assert retry_after >= 1 and error["details"]["retry_after"] == retry_after
    assert refused.headers["RateLimit-Policy"] == '"default";q=1;w=60'
    remaining, reset = _rate(refused)
    assert remaining == 0 and reset <= retry_after  # Retry-After is never earlier than t
    # Another key of the same tenant has a limit of its own.
    with engine.begin() as conn:
        tenant = conn.execute(text("SELECT t.name FROM tenants t JOIN api_keys k ON k.tenant_id = t.id "
                                   "WHERE k.prefix = :p"), {"p": key.split("_")[1]}).scalar_one()
        other = create_key(conn, tenant)
    assert tight.get("/v1/jobs", headers=bearer(other)).status_code == 200


def _objects(root: Path, tenant_id: str) -> int:
    """Objects stored under the tenant's prefix (what staging a document writes)."""
    return sum(1 for path in (root / tenant_id).rglob("*") if path.is_file())


def test_a_refused_submission_stores_and_queues_nothing(tight: FlaskClient, key: str, engine: Engine,
                                                        config: Config) -> None:
    tenant_id = _tenant_id(engine, key)
    objects_root = Path(config.storage_url.removeprefix("file://"))

    def counts() -> tuple[int, int, int, int]:
        with engine.connect() as conn:
            jobs = conn.execute(text("SELECT count(*) FROM jobs WHERE tenant_id = :t"),
                                {"t": tenant_id}).scalar_one()
            documents = conn.execute(text("SELECT count(*) FROM documents WHERE tenant_id = :t"),
                                     {"t": tenant_id}).scalar_one()
            # Ids only grow; a worker consuming meanwhile can only lower the newest.
            newest = conn.execute(text("SELECT coalesce(max(id), 0) FROM broker_messages")).scalar_one()
        return jobs, documents, newest, _objects(objects_root, tenant_id)

    for _ in range(3):
        assert tight.get("/v1/jobs", headers=bearer(key)).status_code == 200
    before = counts()
    refusals = [
        tight.post("/v1/jobs", json={"documents": [{"id": "a", "text": "some text to store"}]},
                   headers=bearer(key)),
        tight.post("/v1/jobs", data={"files": [(io.BytesIO(b"# A heading\n\nbody\n"), "a.md")]},
                   headers=bearer(key), content_type="multipart/form-data"),
        tight.post("/v1/uploads", data={"file": (io.BytesIO(b"# Upload\n"), "u.md")},
                   headers=bearer(key), content_type="multipart/form-data"),
        tight.post("/v1/parse", data={"file": (io.BytesIO(b"# Parse\n"), "p.md")},
                   headers=bearer(key), content_type="multipart/form-data"),
    ]
    assert [r.status_code for r in refusals] == [429] * 4, [r.data[:200] for r in refusals]
    jobs, documents, newest, objects = counts()
    assert (jobs, documents, objects) == (before[0], before[1], before[3])
    assert newest <= before[2], "a refused request published a message"
    # The same submission once admitted does all three: the counts above could have moved.
    admitted = create_app(config.with_overrides(limits={"rate_limit_per_minute": 0})).test_client().post(
        "/v1/jobs", json={"documents": [{"id": "a", "text": "some text to store"}]}, headers=bearer(key))
    assert admitted.status_code == 202
    jobs, documents, newest, objects = counts()
    assert jobs == before[0] + 1 and documents == before[1] + 1 and objects == before[3] + 1
    assert newest > before[2]


def test_a_keys_own_limit_replaces_the_configured_one(tight: FlaskClient, engine: Engine, key: str) -> None:
    key_id = _key_id(engine, key)
    with engine.begin() as conn:
        conn.execute(text("UPDATE api_keys SET rate_limit_per_minute = 120 WHERE id = :k"), {"k": key_id})
    response = tight.get("/v1/jobs", headers=bearer(key))
    assert response.headers["RateLimit-Policy"] == '"default";q=120;w=60'
    with engine.begin() as conn:
        conn.execute(text("UPDATE api_keys SET rate_limit_per_minute = 0 WHERE id = :k"), {"k": key_id})
    for _ in range(10):  # unlimited: never refused, and no fields
        response = tight.get("/v1/jobs", headers=bearer(key))
        assert response.status_code == 200 and "RateLimit" not in response.headers


def _pagemill(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.system
def test_keys_create_and_update_set_a_keys_own_limit(test_env: dict[str, str], client: FlaskClient) -> None:
    tenant = f"limits-{uuid.uuid4().hex[:10]}"
    created = _pagemill(test_env, "keys", "create", "--tenant", tenant, "--rate-limit", "2")
    assert created.returncode == 0, created.stderr
    key = created.stdout.strip()
    # 2 a minute, and (no burst configured) a minute's worth at once.
    answers = [client.get("/v1/jobs", headers=bearer(key)) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert answers[0].headers["RateLimit-Policy"] == '"default";q=2;w=60'

    prefix = key.split("_")[1]
    updated = _pagemill(test_env, "keys", "update", prefix, "--rate-limit", "default")
    assert updated.returncode == 0 and "rate limit default" in updated.stdout, updated.stderr
    assert client.get("/v1/jobs", headers=bearer(key)).headers["RateLimit-Policy"] == '"default";q=600;w=60'
    listed = json.loads(_pagemill(test_env, "keys", "list", "--tenant", tenant, "--json").stdout)
    assert listed[0]["rate_limit_per_minute"] is None
    assert _pagemill(test_env, "keys", "update", prefix, "--rate-limit", "0").returncode == 0
    listed = json.loads(_pagemill(test_env, "keys", "list", "--tenant", tenant, "--json").stdout)
    assert listed[0]["rate_limit_per_minute"] == 0

    for bad in ("-1", "lots"):
        refused = _pagemill(test_env, "keys", "update", prefix, "--rate-limit", bad)
        assert refused.returncode != 0 and "whole number" in refused.stderr
    missing = _pagemill(test_env, "keys", "update", "nosuchprefix", "--rate-limit", "5")
    assert missing.returncode != 0 and "no API key" in missing.stderr


def test_zero_disables_the_limit(config: Config, key: str) -> None:
    free = create_app(config.with_overrides(limits={"rate_limit_per_minute": 0})).test_client()
    for _ in range(10):
        response = free.get("/v1/jobs", headers=bearer(key))
        assert response.status_code == 200
        assert "RateLimit" not in response.headers and "RateLimit-Policy" not in response.headers


def test_openapi_documents_the_429_and_the_fields(client: FlaskClient) -> None:
    paths = client.get("/openapi.json").get_json()["paths"]
    listing = paths["/v1/jobs"]["get"]["responses"]
    assert "429" in listing and "Retry-After" in listing["429"]["headers"]
    assert {"RateLimit", "RateLimit-Policy"} <= set(listing["200"]["headers"])
    assert "429" not in paths["/healthz"]["get"]["responses"]


# --- what the limiter costs -----------------------------------------------------------------


def test_limiter_overhead_per_request(config: Config, engine: Engine) -> None:
    """500 authenticated GETs with and without the limiter, side by side; prints the ratio
    (a measurement, never asserted: timings depend on the machine)."""
    with engine.begin() as conn:
        key = create_key(conn, f"bench-{uuid.uuid4().hex[:10]}")
    apps = {"without": create_app(config.with_overrides(limits={"rate_limit_per_minute": 0})).test_client(),
            "with": create_app(config.with_overrides(limits={"rate_limit_per_minute": 10**7,
                                                             "rate_limit_burst": 10**6})).test_client()}
    for client in apps.values():  # warm: pool, plans, the key's row
        for _ in range(20):
            assert client.get("/v1/jobs?limit=1", headers=bearer(key)).status_code == 200
    spent = {name: 0.0 for name in apps}
    for _ in range(5):  # interleaved rounds, so that drift on the machine hits both alike
        for name, client in apps.items():
            started = time.perf_counter()
            for _ in range(100):
                client.get("/v1/jobs?limit=1", headers=bearer(key))
            spent[name] += time.perf_counter() - started
    per_request = {name: seconds / 500 * 1000 for name, seconds in spent.items()}
    print(f"\nrate limiter overhead, 500 GET /v1/jobs: {per_request['without']:.3f} ms/request "
          f"without, {per_request['with']:.3f} ms with, ratio "
          f"{per_request['with'] / per_request['without']:.3f}")

    # The same, closer: the authenticating transaction alone, with and without the statement.
    key_id, policy = _key_id(engine, key), RatePolicy(per_minute=10**7, burst=10**6)
    alone = {"without": 0.0, "with": 0.0}
    for _ in range(5):
        for name in alone:
            started = time.perf_counter()
            for _ in range(100):
                with engine.begin() as conn:
                    authenticate(conn, key)
                    if name == "with":
                        admit(conn, key_id, policy)
            alone[name] += time.perf_counter() - started
    per_transaction = {name: seconds / 500 * 1000 for name, seconds in alone.items()}
    print(f"authenticating transaction: {per_transaction['without']:.3f} ms without, "
          f"{per_transaction['with']:.3f} ms with the GCRA statement "
          f"(+{per_transaction['with'] - per_transaction['without']:.3f} ms)")
