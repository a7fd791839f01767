"""Secret job options (``password``) are write-only: encrypted where jobs are submitted,
decrypted only where the worker opens the document, never in an answer, an event or a log.
Through the real API, a real worker and the real database."""

from __future__ import annotations

import io
import json
import logging
import multiprocessing
import secrets
import stat
import uuid
from dataclasses import replace
from pathlib import Path

import pytest
from cryptography.fernet import Fernet
from sqlalchemy import text

from app.api import create_app
from app.domain import jobs, secret_options
from app.domain.secret_options import SecretKeyUnavailable, blind, home_key, reveal, seal
from app.services import staging
from app.services.processing import process_batch
from tests.conftest import bearer, hold_job, wait_for

_auth = bearer


def _tenant(engine, key: str) -> str:
    from app.domain.auth import authenticate

    with engine.begin() as conn:
        return authenticate(conn, key).tenant_id


def _tenant_jobs(engine, tenant: str) -> int:
    with engine.connect() as conn:
        return conn.execute(text("SELECT count(*) FROM jobs WHERE tenant_id = :t"),
                            {"t": tenant}).scalar_one()


def encrypted_docx(phrase: str, password: str) -> bytes:
    """A Word document holding ``phrase``, encrypted with ``password`` (ECMA-376 agile)."""
    import docx
    from msoffcrypto.format.ooxml import OOXMLFile

    document = docx.Document()
    document.add_heading("Locked minutes", level=1)
    document.add_paragraph(f"The committee agreed on {phrase} after a long debate.")
    plain = io.BytesIO()
    document.save(plain)
    locked = io.BytesIO()
    OOXMLFile(io.BytesIO(plain.getvalue())).encrypt(password, locked)
    return locked.getvalue()


def _events(client, key: str, job_id: str) -> str:
    """The job's event stream, read until its end event (the job is already terminal)."""
    response = client.get(f"/v1/jobs/{job_id}/events", headers=_auth(key), buffered=False)
    assert response.status_code == 200
    frames = []
    for chunk in response.response:
        frames.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
        if frames[-1].startswith("event: end"):
            break
    response.close()
    return "".join(frames)


def test_the_password_opens_the_document_and_is_never_returned_nor_stored_readable(
        client, key, engine, worker, caplog):
    caplog.set_level(logging.DEBUG)
    password = f"pw-{secrets.token_hex(8)}"
    phrase = f"zephyr{secrets.token_hex(4)}"
    upload = {"files": [(io.BytesIO(encrypted_docx(phrase, password)), "minutes.docx")],
              "options": json.dumps({"password": password})}
    created = client.post("/v1/jobs", data=upload, headers=_auth(key), content_type="multipart/form-data")
    assert created.status_code == 202, created.get_json()
    assert password not in created.get_data(as_text=True)
    job = created.get_json()
    assert job["options"] == {} and job["secret_options"] == ["password"]

    with engine.connect() as conn:
        stored = conn.execute(text("SELECT options::text FROM jobs WHERE id = :id"),
                              {"id": job["id"]}).scalar_one()
    assert password not in stored
    assert json.loads(stored)["password"]["fernet"].startswith("gAAAA")

    def finished():
        body = client.get(f"/v1/jobs/{job['id']}", headers=_auth(key))
        return body if body.get_json()["status"] not in ("queued", "running") else None

    done = wait_for(finished, timeout=240, what="the encrypted document's job")
    assert password not in done.get_data(as_text=True)
    assert done.get_json()["status"] == "completed", client.get(
        f"/v1/jobs/{job['id']}/documents", headers=_auth(key)).get_json()
    assert done.get_json()["secret_options"] == ["password"]

    # The worker opened it: its words are indexed and found.
    documents = client.get(f"/v1/jobs/{job['id']}/documents", headers=_auth(key)).get_json()
    detail = client.get(f"/v1/documents/{documents['documents'][0]['id']}", headers=_auth(key))
    assert phrase in detail.get_json()["markdown"] and password not in detail.get_data(as_text=True)
    hits = client.post("/v1/search", json={"query": phrase, "mode": "bm25"}, headers=_auth(key)).get_json()
    assert [h["document_id"] for h in hits["results"]][:1] == ["minutes.docx"]

    listing = client.get("/v1/jobs", headers=_auth(key))
    assert [j["id"] for j in listing.get_json()["jobs"]] == [job["id"]]
    assert password not in listing.get_data(as_text=True)
    assert listing.get_json()["jobs"][0]["secret_options"] == ["password"]
    stream = _events(client, key, job["id"])
    assert '"secret_options": ["password"]' in stream and password not in stream
    assert password not in caplog.text


def test_a_json_job_with_a_password_shows_only_that_one_was_given(client, key, engine):
    body = {"documents": [{"id": "a", "text": "plain"}],
            "options": {"password": "hunter2-json", "provider": "mistral-batch"}}
    created = client.post("/v1/jobs", json=body, headers=_auth(key))
    assert created.status_code == 202, created.get_json()
    job = created.get_json()
    assert job["options"] == {"provider": "mistral-batch"} and job["secret_options"] == ["password"]
    assert "hunter2-json" not in created.get_data(as_text=True)
    plain = client.post("/v1/jobs", json={"documents": [{"id": "b", "text": "x"}]}, headers=_auth(key))
    assert plain.get_json()["secret_options"] == []


def test_an_idempotent_replay_with_a_password_works_and_its_fingerprint_hides_it(client, key, engine):
    """The stored request fingerprint hashes the password as a keyed digest: a plain SHA-256
    of the body would let anyone who reads the jobs table test password guesses offline."""
    import hashlib

    body = {"documents": [{"id": "a", "text": "plain"}], "options": {"password": "hunter2-idem"}}
    headers = {**_auth(key), "Idempotency-Key": f"idem-{uuid.uuid4().hex}"}
    first = client.post("/v1/jobs", json=body, headers=headers)
    again = client.post("/v1/jobs", json=body, headers=headers)
    assert (first.status_code, again.status_code) == (202, 200)
    assert again.get_json()["id"] == first.get_json()["id"]
    other = {**body, "options": {"password": "another-one"}}
    assert client.post("/v1/jobs", json=other, headers=headers).status_code == 409
    with engine.connect() as conn:
        stored = conn.execute(text("SELECT request_sha256 FROM jobs WHERE id = :j"),
                              {"j": first.get_json()["id"]}).scalar_one()
    plain = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    assert stored != plain


def test_rows_written_before_encryption_are_not_shown_either(client, key, engine, config):
    tenant = _tenant(engine, key)
    doc = jobs.NewDocument(external_id="old", source="record", object_key=None, mime_type=None,
                           size_bytes=None, sha256=None)
    with engine.begin() as conn:  # as a row from before this change holds it
        job_id, _ = jobs.create_job(conn, tenant, [doc], 10, {"password": "legacy-plain"})
        hold_job(conn, job_id)  # not for a worker: only its answer is looked at
    answer = client.get(f"/v1/jobs/{job_id}", headers=_auth(key))
    assert "legacy-plain" not in answer.get_data(as_text=True)
    assert answer.get_json()["secret_options"] == ["password"]
    assert reveal(config, {"password": "legacy-plain"}, "password") == "legacy-plain"  # still opens


def test_openapi_says_secret_options_are_write_only(client):
    job = client.get("/openapi.json").get_json()["components"]["schemas"]["Job"]
    assert "secret_options" in job["required"]
    assert job["properties"]["secret_options"]["type"] == "array"
    assert "never returned" in job["properties"]["secret_options"]["description"]
    assert "without secret ones" in job["properties"]["options"]["description"]


def test_without_a_key_on_an_external_database_a_password_is_a_400_and_nothing_is_written(
        config, key, engine):
    assert config.database.url is not None  # the tests' database is given by DATABASE_URL
    keyless = create_app(config.with_overrides(secrets={"key": None})).test_client()
    tenant = _tenant(engine, key)
    body = {"documents": [{"id": "a", "text": "x"}], "options": {"password": "never-stored"}}
    refused = keyless.post("/v1/jobs", json=body, headers=_auth(key))
    assert refused.status_code == 400
    error = refused.get_json()["error"]
    assert error["code"] == "secret_key_missing" and "PAGEMILL_SECRET_KEY" in error["message"]
    assert "never-stored" not in refused.get_data(as_text=True)
    assert _tenant_jobs(engine, tenant) == 0
    # A job without secrets needs no key.
    fine = keyless.post("/v1/jobs", json={"documents": [{"id": "b", "text": "x"}]}, headers=_auth(key))
    assert fine.status_code == 202
    bad_key = create_app(config.with_overrides(secrets={"key": "not-a-key"})).test_client()
    refused = bad_key.post("/v1/jobs", json=body, headers=_auth(key))
    assert refused.status_code == 400 and "Fernet keys" in refused.get_json()["error"]["message"]
    assert _tenant_jobs(engine, tenant) == 1


def test_a_wrong_key_fails_the_document_with_its_own_code(engine, storage, config, tenant):
    sealed = seal(config, {"password": "right-password"})
    doc = staging.stage_document(storage, tenant, "locked.docx", encrypted_docx("x", "right-password"),
                              source="upload", filename="locked.docx")
    other = staging.stage_document(storage, tenant, "open.md", b"# Open\n\nNo secrets here at all.",
                                source="upload", filename="open.md")
    with engine.begin() as conn:
        job_id, _ = jobs.create_job(conn, tenant, [doc, other], 10, sealed)
    rotated_away = config.with_overrides(secrets={"key": Fernet.generate_key().decode()})
    outcome = process_batch(engine, storage, rotated_away, job_id, 0)
    # The job's options are one: none of its documents is tried without them.
    assert (outcome.completed, outcome.failed) == (0, 2)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT status, error_code, error_message FROM documents "
                                 "WHERE job_id = :j"), {"j": job_id}).all()
    assert {(row.status, row.error_code) for row in rows} == {("failed", "secret_unreadable")}
    assert all("PAGEMILL_SECRET_KEY" in row.error_message and "right-password" not in row.error_message
               for row in rows)


def test_rotation_decrypts_with_any_listed_key_and_encrypts_with_the_first(config):
    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    before = seal(config.with_overrides(secrets={"key": old}),
                  {"password": "opensesame", "provider": "mistral-batch"})
    assert before["provider"] == "mistral-batch" and "opensesame" not in json.dumps(before)
    rotating = config.with_overrides(secrets={"key": f"{new}, {old}"})
    assert reveal(rotating, before, "password") == "opensesame"
    after = seal(rotating, {"password": "q"})
    assert reveal(config.with_overrides(secrets={"key": new}), after, "password") == "q"
    with pytest.raises(Exception) as caught:
        reveal(config.with_overrides(secrets={"key": old}), after, "password")
    assert getattr(caught.value, "code", None) == "secret_unreadable"
    assert reveal(rotating, {}, "password") is None


def test_a_client_cannot_pass_a_ready_made_token(config):
    forged = {"fernet": seal(config, {"password": "x"})["password"]["fernet"]}
    sealed = seal(config, {"password": forged})
    assert reveal(config, sealed, "password") == forged  # encrypted as given, not adopted


def test_fingerprints_of_secrets_are_keyed(config):
    one, two = blind(config, {"password": "1234"}), blind(config, {"password": "1234"})
    assert one == two and "1234" not in json.dumps(one)
    assert blind(config, {"password": "1235"}) != one
    other_key = config.with_overrides(secrets={"key": Fernet.generate_key().decode()})
    assert blind(other_key, {"password": "1234"}) != one
    with pytest.raises(SecretKeyUnavailable):
        blind(config.with_overrides(secrets={"key": None}), {"password": "1234"})


def _make_key(home: str, start: multiprocessing.synchronize.Event, out: multiprocessing.Queue) -> None:
    start.wait()
    out.put(home_key(Path(home)))


@pytest.mark.system
def test_the_embedded_default_makes_one_private_key_file_under_concurrency(config, tmp_path):
    home = tmp_path / "home"
    context = multiprocessing.get_context("spawn")
    start, out = context.Event(), context.Queue()
    racers = [context.Process(target=_make_key, args=(str(home), start, out)) for _ in range(8)]
    for racer in racers:
        racer.start()
    start.set()
    keys = {out.get(timeout=60) for _ in racers}
    for racer in racers:
        racer.join(timeout=60)
    assert len(keys) == 1
    key_file = home / secret_options.KEY_FILE
    assert key_file.read_bytes().strip() == keys.pop()
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert sorted(p.name for p in home.iterdir()) == [secret_options.KEY_FILE]  # no leftovers

    embedded = replace(config.with_overrides(database={"url": None}, secrets={"key": None}), home=home)
    sealed = seal(embedded, {"password": "embedded"})
    assert reveal(embedded, sealed, "password") == "embedded"
    assert "embedded" not in json.dumps(sealed)
