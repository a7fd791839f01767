"""``pagemill keys list`` and ``pagemill keys revoke`` through the real command line, against
the real database: a listing never shows a secret or its hash, and a revoked key is refused
(401) by the very next request."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from datetime import datetime

import pytest
from sqlalchemy import text

from app.api import create_app
from tests.conftest import ROOT, hold_job


def pagemill(env: dict[str, str], *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "app.cli", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    if check:
        assert done.returncode == 0, done.stderr
    return done


@pytest.fixture
def tenant_name() -> str:
    return f"keys-{uuid.uuid4().hex[:10]}"


def _listing(env: dict[str, str], tenant: str) -> list[dict]:
    return json.loads(pagemill(env, "keys", "list", "--tenant", tenant, "--json").stdout)


@pytest.mark.system
def test_list_shows_every_key_of_a_tenant_and_never_a_secret(test_env, engine, tenant_name):
    first = pagemill(test_env, "keys", "create", "--tenant", tenant_name, "--name", "ci").stdout.strip()
    second = pagemill(test_env, "keys", "create", "--tenant", tenant_name).stdout.strip()
    other = pagemill(test_env, "keys", "create", "--tenant", tenant_name + "-other").stdout.strip()

    listed = _listing(test_env, tenant_name)
    assert [k["prefix"] for k in listed] == [first.split("_")[1], second.split("_")[1]]
    assert {k["tenant"] for k in listed} == {tenant_name}
    assert [k["name"] for k in listed] == ["ci", None]
    assert all(k["revoked_at"] is None and k["last_used_at"] is None and k["created_at"]
               for k in listed)
    with engine.connect() as conn:
        digests = conn.execute(text("SELECT secret_sha256 FROM api_keys k JOIN tenants t"
                                    " ON t.id = k.tenant_id WHERE t.name = :n"),
                               {"n": tenant_name}).scalars().all()
        ids = conn.execute(text("SELECT k.id::text FROM api_keys k JOIN tenants t ON t.id ="
                                " k.tenant_id WHERE t.name = :n ORDER BY k.created_at, k.id"),
                           {"n": tenant_name}).scalars().all()
    assert [k["id"] for k in listed] == ids

    table = pagemill(test_env, "keys", "list", "--tenant", tenant_name).stdout
    everything = pagemill(test_env, "keys", "list", "--json").stdout
    assert other.split("_")[1] in everything and other.split("_")[1] not in table
    for shown in (table, everything, json.dumps(listed)):
        for key in (first, second, other):
            assert key.split("_", 2)[2] not in shown  # the secret
        for digest in digests:
            assert digest not in shown
    assert "PREFIX" in table.splitlines()[0] and first.split("_")[1] in table


@pytest.mark.system
def test_list_of_an_unknown_tenant_is_empty_and_creates_nothing(test_env, engine, tenant_name):
    assert _listing(test_env, tenant_name) == []
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM tenants WHERE name = :n"),
                            {"n": tenant_name}).scalar_one() == 0


@pytest.mark.system
def test_revoke_is_refused_by_the_next_request(test_env, config, tenant_name):
    key = pagemill(test_env, "keys", "create", "--tenant", tenant_name).stdout.strip()
    spare = pagemill(test_env, "keys", "create", "--tenant", tenant_name).stdout.strip()
    client = create_app(config).test_client()

    def status(k: str) -> int:
        return client.get("/v1/jobs", headers={"Authorization": f"Bearer {k}"}).status_code

    assert status(key) == 200 and status(spare) == 200  # and the app has now seen the key
    listed = {k["prefix"]: k for k in _listing(test_env, tenant_name)}
    target = listed[key.split("_")[1]]
    assert target["last_used_at"] is not None

    done = pagemill(test_env, "keys", "revoke", target["id"])
    assert target["id"] in done.stdout + done.stderr
    response = client.get("/v1/jobs", headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 401
    assert response.get_json()["error"]["code"] == "unauthorized"
    assert status(spare) == 200  # only that key

    after = {k["prefix"]: k for k in _listing(test_env, tenant_name)}
    assert after[key.split("_")[1]]["revoked_at"] is not None
    assert after[spare.split("_")[1]]["revoked_at"] is None
    table = pagemill(test_env, "keys", "list", "--tenant", tenant_name).stdout.splitlines()
    revoked_row = next(row for row in table if key.split("_")[1] in row)
    spare_row = next(row for row in table if spare.split("_")[1] in row)
    revoked_at = datetime.fromisoformat(after[key.split("_")[1]]["revoked_at"])
    assert revoked_row.split()[-1] == revoked_at.isoformat(timespec="seconds")
    assert spare_row.split()[-1] == "-"

    # Revoking again keeps the first revocation time and says so.
    again = pagemill(test_env, "keys", "revoke", target["id"])
    assert "already revoked" in again.stdout + again.stderr
    assert _listing(test_env, tenant_name)[0]["revoked_at"] == after[key.split("_")[1]]["revoked_at"]


@pytest.mark.system
def test_revoke_by_prefix(test_env, config, tenant_name):
    key = pagemill(test_env, "keys", "create", "--tenant", tenant_name).stdout.strip()
    pagemill(test_env, "keys", "revoke", key.split("_")[1])
    client = create_app(config).test_client()
    assert client.get("/v1/jobs", headers={"Authorization": f"Bearer {key}"}).status_code == 401


# Fixed values: a test's id must be the same in every pytest-xdist worker that collects it.
@pytest.mark.parametrize("wrong", ["f5dabab1-8cfb-4466-8544-ab620cdee784", "not-a-key-id",
                                   "'; DROP TABLE api_keys; --"])
@pytest.mark.system
def test_revoking_an_unknown_key_fails_cleanly(test_env, wrong):
    done = pagemill(test_env, "keys", "revoke", wrong, check=False)
    assert done.returncode == 1 and "no API key" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.system
def test_revoking_a_key_ends_its_open_event_stream(test_env, config, engine, tenant_name):
    from app.domain import jobs

    key = pagemill(test_env, "keys", "create", "--tenant", tenant_name).stdout.strip()
    with engine.begin() as conn:
        tenant_id = conn.execute(text("SELECT id::text FROM tenants WHERE name = :n"),
                                 {"n": tenant_name}).scalar_one()
        doc = jobs.NewDocument(external_id="idle", source="record", object_key=None, mime_type=None,
                               size_bytes=None, sha256=None)
        job_id, _ = jobs.create_job(conn, tenant_id, [doc], 10)
        hold_job(conn, job_id)  # nobody works on it: it stays queued
    # The periodic re-read, made quick.
    client = create_app(config.with_overrides(api={"event_keepalive_seconds": 0.5})).test_client()
    response = client.get(f"/v1/jobs/{job_id}/events", headers={"Authorization": f"Bearer {key}"},
                          buffered=False)
    assert response.status_code == 200
    frames = iter(response.response)
    assert next(frames).decode().startswith("event: progress")
    pagemill(test_env, "keys", "revoke", key.split("_")[1])
    rest: list[str] = []
    for chunk in frames:  # keep-alives every 0.5 s until the stream ends (bounded: ~10 s)
        rest.append(chunk.decode())
        if rest[-1].startswith("event: ") or len(rest) > 20:
            break
    response.close()
    assert rest[-1] == 'event: error\ndata: {"code": "unauthorized"}\n\n'
    with engine.begin() as conn:
        jobs.cancel_job(conn, tenant_id, job_id)
