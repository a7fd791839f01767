"""Transcription seconds per API key per UTC day (app/domain/transcription_quota.py,
app/services/transcription_metering.py) against the real database: the reservation that refuses a
recording over its key's limit before any provider hears it, the settlement to what was
sent, two recordings racing for the last seconds, the key option of ``pagemill keys`` and the
seconds in ``GET /v1/usage``."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from sqlalchemy import Engine, text

from app.config import Config
from app.domain import jobs, transcription_quota
from app.domain.auth import create_key, set_key_transcription_limit
from app.domain.transcription_quota import Refusal, Reservation
from app.infra.storage import LocalStorage
from app.services import staging
from app.services.transcription_metering import recording_seconds, seconds_sent
from extractors import ExtractionError
from tests.conftest import ROOT, bearer
from tests.fake_transcriber import Answer, FakeTranscriber

needs_ffmpeg = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="ffmpeg is not installed")


def _keyed_job(engine: Engine, key: str | None, tenant_name: str | None = None) -> tuple[str, str]:
    """(job id, tenant id) of an empty job of ``key`` (None: a job from the CLI)."""
    with engine.begin() as conn:
        if key is not None:
            key_id, tenant_id = conn.execute(text("SELECT id::text, tenant_id::text FROM api_keys "
                                                  "WHERE prefix = :p"), {"p": key.split("_")[1]}).one()
        else:
            key_id = None
            tenant_id = conn.execute(text("SELECT id::text FROM tenants WHERE name = :n"),
                                     {"n": tenant_name}).scalar_one()
        doc = jobs.NewDocument(external_id="r", source="record", object_key=None, mime_type=None,
                               size_bytes=None, sha256=None)
        job_id, _ = jobs.create_job(conn, tenant_id, [doc], 10, api_key_id=key_id)
    return job_id, tenant_id


def _new_key(engine: Engine, limit: int | None) -> tuple[str, str]:
    """(full key, tenant name) of a new key with this transcription limit."""
    name = f"tq-{uuid.uuid4().hex[:10]}"
    with engine.begin() as conn:
        return create_key(conn, name, transcription_seconds_per_day=limit), name


def _reserve(engine: Engine, job_id: str, seconds: float, default: int = 0) -> Reservation | Refusal | None:
    with engine.begin() as conn:
        return transcription_quota.reserve(conn, job_id, seconds, default)


def _metered(engine: Engine, tenant_id: str) -> dict[str | None, float]:
    """Seconds metered today per key of the tenant."""
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT api_key_id::text, seconds FROM transcription_usage WHERE "
                                 "tenant_id = CAST(:t AS uuid) AND day = (now() AT TIME ZONE 'UTC')::date"),
                            {"t": tenant_id}).all()
    return {row[0]: round(row[1], 3) for row in rows}


# --- the statements ---------------------------------------------------------------------------


def test_a_reservation_over_the_keys_limit_is_refused_and_charges_nothing(engine: Engine) -> None:
    key, _ = _new_key(engine, 10)
    job_id, tenant_id = _keyed_job(engine, key)
    first = _reserve(engine, job_id, 6)
    assert isinstance(first, Reservation) and first.seconds == 6 and first.api_key_id is not None
    refused = _reserve(engine, job_id, 5)
    assert refused == Refusal(limit_seconds=10, used_seconds=6.0, requested_seconds=5.0)
    assert "4 s of its 10 s" in refused.message() and "--transcription-limit" in refused.message()
    assert _metered(engine, tenant_id) == {first.api_key_id: 6.0}
    assert isinstance(_reserve(engine, job_id, 4), Reservation)  # exactly the limit fits
    assert isinstance(_reserve(engine, job_id, 0.5), Refusal)
    # A day's first recording longer than the whole limit is refused too (no row to conflict).
    other, _ = _new_key(engine, 10)
    other_job, other_tenant = _keyed_job(engine, other)
    assert isinstance(_reserve(engine, other_job, 11), Refusal)
    assert _metered(engine, other_tenant) == {}


def test_the_configured_limit_applies_to_keys_without_their_own(engine: Engine) -> None:
    key, tenant_name = _new_key(engine, None)
    job_id, tenant_id = _keyed_job(engine, key)
    assert isinstance(_reserve(engine, job_id, 8, default=10), Reservation)
    assert isinstance(_reserve(engine, job_id, 8, default=10), Refusal)
    assert isinstance(_reserve(engine, job_id, 8, default=0), Reservation)  # 0: unlimited
    # The key's own 0 is unlimited whatever the setting; its own N replaces the setting.
    with engine.begin() as conn:
        set_key_transcription_limit(conn, key.split("_")[1], 0)
    assert isinstance(_reserve(engine, job_id, 1000, default=10), Reservation)
    with engine.begin() as conn:
        set_key_transcription_limit(conn, key.split("_")[1], 2000)
    assert isinstance(_reserve(engine, job_id, 1000, default=10), Refusal)  # 1016 + 1000 > 2000
    # A job from the CLI: metered under no key, never limited.
    cli_job, _ = _keyed_job(engine, None, tenant_name)
    assert isinstance(_reserve(engine, cli_job, 50, default=10), Reservation)
    assert isinstance(_reserve(engine, cli_job, 50, default=10), Reservation)
    metered = _metered(engine, tenant_id)
    assert metered[None] == 100.0 and len(metered) == 2
    # A job deleted meanwhile: nothing to reserve against.
    assert _reserve(engine, str(uuid.uuid4()), 1) is None


def test_settling_replaces_the_reservation_by_what_was_sent(engine: Engine) -> None:
    key, _ = _new_key(engine, 100)
    job_id, tenant_id = _keyed_job(engine, key)
    reservation = _reserve(engine, job_id, 60)
    assert isinstance(reservation, Reservation)
    with engine.begin() as conn:
        transcription_quota.settle(conn, reservation, 58.25)
    assert _metered(engine, tenant_id) == {reservation.api_key_id: 58.25}
    # Released seconds are free again: 58.25 + 41.75 = 100.
    second = _reserve(engine, job_id, 41.75)
    assert isinstance(second, Reservation)
    with engine.begin() as conn:
        transcription_quota.settle(conn, second, 0)  # it failed before any provider call
    assert _metered(engine, tenant_id) == {reservation.api_key_id: 58.25}


def test_two_recordings_racing_for_the_last_seconds_one_wins(engine: Engine) -> None:
    """The first reservation holds its (new) row uncommitted while the second is issued: the
    second waits for it, then sees its seconds and is refused."""
    key, _ = _new_key(engine, 10)
    job_id, tenant_id = _keyed_job(engine, key)
    outcomes: list[object] = []
    with engine.connect() as first:
        with first.begin():
            won = transcription_quota.reserve(first, job_id, 6, 0)
            racer = threading.Thread(target=lambda: outcomes.append(_reserve(engine, job_id, 6)))
            racer.start()
            racer.join(timeout=1.0)
            assert racer.is_alive(), "the second reservation did not wait for the first's row"
        racer.join(timeout=30)
    assert isinstance(won, Reservation) and isinstance(outcomes[0], Refusal)
    assert _metered(engine, tenant_id) == {won.api_key_id: 6.0}


def test_many_recordings_at_once_never_pass_the_limit(engine: Engine) -> None:
    key, _ = _new_key(engine, 10)
    job_id, tenant_id = _keyed_job(engine, key)
    start = threading.Barrier(8)
    outcomes: list[object] = []

    def race() -> None:
        start.wait()
        outcomes.append(_reserve(engine, job_id, 3))

    racers = [threading.Thread(target=race) for _ in range(8)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(timeout=60)
    assert sum(isinstance(o, Reservation) for o in outcomes) == 3
    assert sum(isinstance(o, Refusal) for o in outcomes) == 5
    assert list(_metered(engine, tenant_id).values()) == [9.0]


def test_what_a_failure_sent_is_the_pieces_some_provider_was_called_for() -> None:
    from extractors.transcribers import TranscriptionAttempt

    tried = [TranscriptionAttempt("groq", 1.0, piece=0, duration_s=600.0, status=429),
             TranscriptionAttempt("openai", 1.0, piece=0, duration_s=600.0, status=200),
             TranscriptionAttempt("groq", 1.0, piece=1, duration_s=301.5, status=500)]
    assert seconds_sent(ExtractionError("provider_error", "no", tried), 900.0) == 900.0  # at most reserved
    assert seconds_sent(ExtractionError("provider_error", "no", tried), 1000.0) == 901.5
    assert seconds_sent(ExtractionError("no_audio", "none"), 900.0) == 0.0
    # The parser process killed: its record of calls is lost with it.
    assert seconds_sent(ExtractionError("timeout", "killed"), 900.0) == 900.0


# --- the worker -------------------------------------------------------------------------------


def _tone(tmp: Path, name: str, seconds: float, *args: str) -> bytes:
    target = tmp / name
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                    f"sine=frequency=440:duration={seconds}", *args, str(target)], check=True)
    return target.read_bytes()


@pytest.mark.system
@needs_ffmpeg
def test_a_stream_without_a_duration_is_decoded_to_count_its_seconds(tmp_path: Path) -> None:
    from extractors.media import MediaSettings
    from extractors.sniff import sniff

    def seconds(data: bytes, **settings: float) -> float | None:
        return recording_seconds(data, sniff(data, filename="upload.bin"), MediaSettings(**settings))

    # WebM written to a pipe carries no duration in its header (a browser's recordings neither).
    piped = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i",
                            "sine=frequency=440:duration=3", "-c:a", "libopus", "-f", "webm", "pipe:1"],
                           capture_output=True, check=True).stdout
    assert seconds(piped) == pytest.approx(3.0, abs=0.1)
    assert seconds(_tone(tmp_path, "a.wav", 4)) == pytest.approx(4.0, abs=0.05)
    assert seconds(_tone(tmp_path, "b.wav", 4), max_seconds=3) is None  # too_large before any call
    silent = tmp_path / "silent.mp4"
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "color=c=red:s=32x32:d=1", "-an", str(silent)], check=True)
    assert seconds(silent.read_bytes()) is None  # no_audio before any call


@pytest.fixture(scope="module")
def groq() -> Iterator[FakeTranscriber]:
    server = FakeTranscriber("groq").start()
    yield server
    server.stop()


@needs_ffmpeg
@pytest.mark.system
def test_the_worker_refuses_a_recording_over_the_limit_before_any_provider_call(
        engine: Engine, storage: LocalStorage, config: Config, groq: FakeTranscriber, tmp_path: Path) -> None:
    from app.services.processing import process_batch

    groq.calls.clear()
    groq.script.clear()
    settings = config.with_overrides(transcription={"groq_api_key": "test-key",
                                                    "groq_base_url": groq.base_url,
                                                    "transcribers": ("groq",)})
    key, _ = _new_key(engine, 10)
    with engine.connect() as conn:
        key_id, tenant_id = conn.execute(text("SELECT id::text, tenant_id::text FROM api_keys WHERE "
                                              "prefix = :p"), {"p": key.split("_")[1]}).one()

    def run(name: str, seconds: float) -> tuple[str, str | None, str | None]:
        recording = staging.stage_document(storage, tenant_id, name, _tone(tmp_path, name, seconds),
                                        source="upload", filename=name)
        with engine.begin() as conn:
            job_id, _ = jobs.create_job(conn, tenant_id, [recording], 10, api_key_id=key_id)
        process_batch(engine, storage, settings, job_id, 0)
        with engine.connect() as conn:
            row = conn.execute(text("SELECT status, error_code, error_message FROM documents "
                                    "WHERE job_id = :j"), {"j": job_id}).one()
        return row[0], row[1], row[2]

    assert run("first.wav", 6)[:2] == ("completed", None)
    assert len(groq.calls) == 1
    assert _metered(engine, tenant_id) == {key_id: pytest.approx(6.0, abs=0.05)}

    status, code, message = run("second.wav", 6)
    assert (status, code) == ("failed", "quota_exceeded") and "10 s" in (message or "")
    assert len(groq.calls) == 1  # never sent
    assert _metered(engine, tenant_id) == {key_id: pytest.approx(6.0, abs=0.05)}

    # A provider that refuses the piece: the piece was sent, and is charged.
    groq.script.append(Answer(400, message="bad audio"))
    assert run("third.wav", 3)[:2] == ("failed", "provider_error")
    assert _metered(engine, tenant_id) == {key_id: pytest.approx(9.0, abs=0.1)}

    with engine.begin() as conn:
        set_key_transcription_limit(conn, key_id, 0)
    assert run("fourth.wav", 6)[:2] == ("completed", None)
    assert _metered(engine, tenant_id) == {key_id: pytest.approx(15.0, abs=0.1)}


@needs_ffmpeg
@pytest.mark.system
def test_a_recording_inside_an_e_mail_is_metered(engine: Engine, storage: LocalStorage, config: Config,
                                                  groq: FakeTranscriber, tmp_path: Path) -> None:
    """The router transcribes it within the e-mail's extraction, before its length could be
    checked: it cannot be refused, but its seconds count against the key's day."""
    from email.message import EmailMessage

    from app.services.processing import process_batch

    groq.calls.clear()
    groq.script.clear()
    settings = config.with_overrides(transcription={"groq_api_key": "test-key",
                                                    "groq_base_url": groq.base_url,
                                                    "transcribers": ("groq",)})
    key, _ = _new_key(engine, 10)
    with engine.connect() as conn:
        key_id, tenant_id = conn.execute(text("SELECT id::text, tenant_id::text FROM api_keys WHERE "
                                              "prefix = :p"), {"p": key.split("_")[1]}).one()
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "a@example.org", "b@example.org", "Voice note"
    message.set_content("The recording of this morning's call is attached.")
    message.add_attachment(_tone(tmp_path, "call.wav", 4), maintype="audio", subtype="wav",
                           filename="call.wav")
    mail = staging.stage_document(storage, tenant_id, "note.eml", message.as_bytes(), source="upload",
                               filename="note.eml")
    with engine.begin() as conn:
        job_id, _ = jobs.create_job(conn, tenant_id, [mail], 10, api_key_id=key_id)
    process_batch(engine, storage, settings, job_id, 0)
    with engine.connect() as conn:
        statuses = dict(conn.execute(text("SELECT external_id, status FROM documents WHERE job_id = :j"),
                                     {"j": job_id}).all())
    assert statuses == {"note.eml": "completed", "note.eml#call.wav": "completed"}
    assert len(groq.calls) == 1
    assert _metered(engine, tenant_id) == {key_id: pytest.approx(4.0, abs=0.05)}


_SUBMIT = """
import io, json, sys
from pathlib import Path
from app.api import create_app
from app.config import Config

key, folder = sys.argv[1], Path(sys.argv[2])
files = [(io.BytesIO((folder / name).read_bytes()), name) for name in ("a.wav", "b.wav")]
app = create_app(Config.from_env())
answer = app.test_client().post(
    "/v1/jobs", data={"files": files}, headers={"Authorization": f"Bearer {key}"},
    content_type="multipart/form-data")
print(json.dumps([answer.status_code, answer.get_json()]))
"""


@needs_ffmpeg
@pytest.mark.system
def test_a_real_worker_holds_a_key_to_its_limit(test_env: dict[str, str], config: Config,
                                                private_database: str, groq: FakeTranscriber,
                                                tmp_path: Path) -> None:
    """Two 6 s recordings in one job of a key allowed 10 s a day, through the API and a real
    worker: the first is transcribed, the second fails as ``quota_exceeded`` without reaching
    the provider, and the key's usage shows the seconds sent."""
    from app.api import create_app
    from app.infra.db import get_engine
    from tests.conftest import start_worker, stop_worker, wait_for

    groq.calls.clear()
    groq.script.clear()
    env = {**test_env, "DATABASE_URL": private_database, "GROQ_API_KEY": "test-key",
           "GROQ_BASE_URL": groq.base_url, "PAGEMILL_TRANSCRIBERS": "groq"}
    engine = get_engine(private_database)
    key, _ = _new_key(engine, 10)
    for name in ("a.wav", "b.wav"):
        _tone(tmp_path, name, 6)
    # Submitted by an API process of the private database's own: an app made here would publish
    # through this process's runtime, which is the shared test database's.
    submitted = subprocess.run([sys.executable, "-c", _SUBMIT, key, str(tmp_path)], env=env, cwd=ROOT,
                               capture_output=True, text=True, timeout=300)
    assert submitted.returncode == 0, submitted.stderr[-2000:]
    status, body = json.loads(submitted.stdout.strip().splitlines()[-1])
    assert status == 202, body
    job_id = body["id"]
    client = create_app(config.with_overrides(database={"url": private_database})).test_client()  # reads only
    proc = start_worker(env, engine)
    try:
        def finished() -> bool:
            job = client.get(f"/v1/jobs/{job_id}", headers=bearer(key)).get_json()
            return job["status"] in ("completed", "completed_with_errors", "failed")

        wait_for(finished, timeout=240, interval=0.5, what="the job")
    finally:
        stop_worker(proc)
    listed = client.get(f"/v1/jobs/{job_id}/documents", headers=bearer(key)).get_json()["documents"]
    outcomes = {d["document_id"]: (d["status"], d["error_code"]) for d in listed}
    assert outcomes == {"a.wav": ("completed", None), "b.wav": ("failed", "quota_exceeded")}, listed
    assert len(groq.calls) == 1
    with engine.connect() as conn:
        today = conn.execute(text("SELECT (now() AT TIME ZONE 'UTC')::date")).scalar_one()
    usage = client.get(f"/v1/usage?from={today}&to={today}", headers=bearer(key)).get_json()
    assert [(row["documents_completed"], row["documents_failed"]) for row in usage["usage"]] == [(1, 1)]
    assert usage["usage"][0]["transcription_seconds"] == pytest.approx(6.0, abs=0.05)


# --- pagemill keys and GET /v1/usage ---------------------------------------------------------


def _pagemill(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.system
def test_keys_create_and_update_set_a_keys_own_transcription_limit(test_env: dict[str, str]) -> None:
    tenant = f"tq-cli-{uuid.uuid4().hex[:8]}"
    created = _pagemill(test_env, "keys", "create", "--tenant", tenant, "--transcription-limit", "3600")
    assert created.returncode == 0, created.stderr
    prefix = created.stdout.strip().split("_")[1]

    def listed() -> dict:
        (key,) = json.loads(_pagemill(test_env, "keys", "list", "--tenant", tenant, "--json").stdout)
        return key

    assert listed()["transcription_seconds_per_day"] == 3600
    table = _pagemill(test_env, "keys", "list", "--tenant", tenant).stdout.splitlines()
    assert "TRANSCRIBE S/DAY" in table[0] and " 3600 " in table[1]
    updated = _pagemill(test_env, "keys", "update", prefix, "--transcription-limit", "0")
    assert updated.returncode == 0 and "transcription limit unlimited" in updated.stdout, updated.stderr
    assert listed()["transcription_seconds_per_day"] == 0
    updated = _pagemill(test_env, "keys", "update", prefix, "--transcription-limit", "default")
    assert updated.returncode == 0 and "transcription limit default" in updated.stdout, updated.stderr
    key = listed()
    # Only that limit changed.
    assert (key["transcription_seconds_per_day"], key["rate_limit_per_minute"], key["concurrency"]) == \
        (None, None, None)
    for bad in ("-1", "an hour"):
        refused = _pagemill(test_env, "keys", "update", prefix, "--transcription-limit", bad)
        assert refused.returncode != 0 and "whole number" in refused.stderr
    nothing = _pagemill(test_env, "keys", "update", prefix)
    assert nothing.returncode == 2 and "--transcription-limit" in nothing.stderr


def test_usage_shows_the_seconds_transcribed_per_key_and_day(client: FlaskClient, engine: Engine) -> None:
    key, tenant_name = _new_key(engine, None)
    job_id, tenant_id = _keyed_job(engine, key)
    cli_job, _ = _keyed_job(engine, None, tenant_name)
    with engine.begin() as conn:
        transcription_quota.charge(conn, job_id, 61.5)
        transcription_quota.charge(conn, job_id, 0.25)
        transcription_quota.charge(conn, cli_job, 10)
        today = conn.execute(text("SELECT (now() AT TIME ZONE 'UTC')::date")).scalar_one()
        # A document of the key that finished today: its row carries both.
        conn.execute(text("""
            INSERT INTO documents (tenant_id, job_id, external_id, batch_no, source, status, page_count,
                                   size_bytes, finished_at)
            VALUES (:t, :j, 'done', 0, 'upload', 'completed', 1, 100, now())
        """), {"t": tenant_id, "j": job_id})
    key_id = _key_of(engine, job_id)
    body = client.get(f"/v1/usage?from={today - timedelta(days=1)}&to={today}",
                      headers=bearer(key)).get_json()
    rows = {r["api_key_id"]: r for r in body["usage"]}
    assert set(rows) == {key_id, None}
    assert (rows[key_id]["transcription_seconds"], rows[key_id]["documents_completed"]) == (61.75, 1)
    assert rows[key_id]["day"] == str(today) and rows[key_id]["key_prefix"] == key.split("_")[1]
    # Seconds without any document finished that day (the CLI job's) still make a row.
    assert (rows[None]["transcription_seconds"], rows[None]["documents_completed"], rows[None]["bytes"]) == \
        (10.0, 0, 0)
    assert body["totals"]["transcription_seconds"] == 71.75 and body["totals"]["documents_completed"] == 1
    # Another day shows none of it.
    earlier = client.get(f"/v1/usage?from={date(2030, 1, 1)}&to={date(2030, 1, 2)}", headers=bearer(key))
    assert earlier.get_json()["usage"] == []


def _key_of(engine: Engine, job_id: str) -> str:
    with engine.connect() as conn:
        return conn.execute(text("SELECT api_key_id::text FROM jobs WHERE id = :j"),
                            {"j": job_id}).scalar_one()


# --- the migration ----------------------------------------------------------------------------


def test_migration_0025_goes_up_and_down(scratch_database: str) -> None:
    from app.infra.db import downgrade_schema, get_engine, upgrade_schema

    def schema() -> tuple[bool, bool]:
        with get_engine(scratch_database).connect() as conn:
            table = conn.execute(text("SELECT 1 FROM pg_class WHERE relname = 'transcription_usage'")).first()
            column = conn.execute(text(
                "SELECT 1 FROM information_schema.columns WHERE table_name = 'api_keys' "
                "AND column_name = 'transcription_seconds_per_day'")).first()
        return table is not None, column is not None

    upgrade_schema(scratch_database, "0025")
    assert schema() == (True, True)
    downgrade_schema(scratch_database, "0024")
    assert schema() == (False, False)
    upgrade_schema(scratch_database, "0025")
    assert schema() == (True, True)
