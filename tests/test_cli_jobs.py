"""The operator's commands about jobs and the machine: ``pagemill ingest --wait`` names the
documents that failed (at most 20, then how many more), ``pagemill jobs`` and ``pagemill job
ID`` list jobs and failures, and ``pagemill doctor`` says what is missing -- Tesseract taken off
``PATH`` makes it fail -- with machine-readable ``--json``.  Real processes, a real database,
a real worker."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from sqlalchemy import Engine

from app.domain.auth import ensure_tenant
from tests.conftest import ROOT

CORRUPT = 22
SHOWN = 20
# (tenant name, job id, the `pagemill ingest --wait` run that made it)
FailedJob = tuple[str, str, "subprocess.CompletedProcess[str]"]


def _cli(env: dict[str, str], *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def failed_job(tmp_path_factory: pytest.TempPathFactory, test_env: dict[str, str],
               worker: subprocess.Popen[bytes]) -> FailedJob:
    """(tenant name, job id, the ingest run) of a job of one good file and 22 corrupt PDFs."""
    folder = tmp_path_factory.mktemp("failing")
    (folder / "good.md").write_text("# Good\n\nA document that indexes fine.\n")
    for i in range(CORRUPT):
        (folder / f"corrupt-{i:02d}.pdf").write_bytes(b"%PDF-1.4\n%broken " + bytes([i + 1]) * 40)
    tenant = f"cli-jobs-{uuid.uuid4().hex[:8]}"
    result = _cli(test_env, "ingest", str(folder), "--tenant", tenant, "--wait")
    queued = re.search(r"job ([0-9a-f-]{36}): \d+ document\(s\) queued", result.stderr)
    assert queued, result.stderr
    job_id = queued.group(1)
    return tenant, job_id, result


def test_ingest_lists_the_failures_after_its_progress_bar(failed_job: FailedJob) -> None:
    _tenant, job_id, result = failed_job
    print(result.stderr)
    assert result.returncode == 0, result.stderr
    assert f"completed_with_errors (1 completed, {CORRUPT} failed)" in result.stderr
    failures = [line for line in result.stderr.splitlines() if line.startswith("  failed ")]
    assert len(failures) == SHOWN
    assert all(": corrupt: " in line and "/corrupt-" in line for line in failures), failures
    assert f"  and {CORRUPT - SHOWN} more — pagemill job {job_id}" in result.stderr


def test_job_shows_counts_and_every_failure(failed_job: FailedJob, test_env: dict[str, str],
                                            engine: Engine) -> None:
    tenant, job_id, _ = failed_job
    shown = _cli(test_env, "job", job_id)
    assert shown.returncode == 0, shown.stderr
    assert f"job {job_id} (tenant {tenant}): completed_with_errors" in shown.stdout
    assert f"{CORRUPT + 1} document(s): 1 completed, {CORRUPT} failed" in shown.stdout
    assert sum(line.startswith("  failed ") for line in shown.stdout.splitlines()) == CORRUPT
    assert "and " not in shown.stdout

    as_json = json.loads(_cli(test_env, "job", job_id, "--json", "--failures", "5").stdout)
    assert (as_json["id"], as_json["tenant"], as_json["status"]) == (job_id, tenant, "completed_with_errors")
    assert (as_json["completed_documents"], as_json["failed_documents"]) == (1, CORRUPT)
    assert as_json["failures_total"] == CORRUPT and len(as_json["failures"]) == 5
    assert {f["error_code"] for f in as_json["failures"]} == {"corrupt"}
    assert all(f["external_id"].endswith(".pdf") and f["message"] for f in as_json["failures"])

    # Only the owner's view when --tenant is given; an unknown job id is an error, not a crash.
    assert _cli(test_env, "job", job_id, "--tenant", tenant).returncode == 0
    other_tenant = f"cli-other-{uuid.uuid4().hex[:8]}"
    with engine.begin() as conn:
        ensure_tenant(conn, other_tenant)
    other = _cli(test_env, "job", job_id, "--tenant", other_tenant)
    assert other.returncode == 1 and "not found" in other.stderr
    missing = _cli(test_env, "job", str(uuid.uuid4()))
    assert missing.returncode == 1 and "not found" in missing.stderr


def test_jobs_lists_newest_first_by_tenant_and_status(failed_job: FailedJob,
                                                      test_env: dict[str, str]) -> None:
    tenant, job_id, _ = failed_job
    listed = _cli(test_env, "jobs", "--tenant", tenant)
    assert listed.returncode == 0, listed.stderr
    header, row = listed.stdout.splitlines()
    assert header.split()[:4] == ["ID", "TENANT", "STATUS", "DOCS"]
    assert row.split()[:6] == [job_id, tenant, "completed_with_errors", str(CORRUPT + 1), "1", str(CORRUPT)]

    everyone = json.loads(_cli(test_env, "jobs", "--status", "completed_with_errors", "--json",
                               "--limit", "1000").stdout)
    assert job_id in [j["id"] for j in everyone]
    assert {j["status"] for j in everyone} == {"completed_with_errors"}
    created = [j["created_at"] for j in everyone]
    assert created == sorted(created, reverse=True)

    assert "no jobs" in _cli(test_env, "jobs", "--tenant", tenant, "--status", "queued").stdout
    bad = _cli(test_env, "jobs", "--status", "stuck")
    assert bad.returncode == 2 and "not one of" in bad.stderr
    unknown = _cli(test_env, "jobs", "--tenant", f"nobody-{uuid.uuid4().hex[:6]}")
    assert unknown.returncode == 1 and "no tenant is named" in unknown.stderr


def _doctor(env: dict[str, str], *args: str) -> tuple[int, dict[str, dict[str, object]]]:
    proc = _cli(env, "doctor", "--json", *args, timeout=180)
    found = json.loads(proc.stdout)
    assert all(set(c) == {"check", "ok", "required", "detail"} for c in found), found
    return proc.returncode, {str(c["check"]): c for c in found}


@pytest.mark.system
def test_doctor_without_tesseract_on_path_says_so_and_fails(test_env: dict[str, str],
                                                           tmp_path: Path) -> None:
    # sys.executable is the venv's python by its absolute path: nothing else needs PATH.
    env = {**test_env, "PATH": str(tmp_path / "nonexistent")}
    code, found = _doctor(env)
    assert code == 1
    tesseract = found["tesseract"]
    assert (tesseract["ok"], tesseract["required"]) == (False, True)
    assert "apt-get install tesseract-ocr" in str(tesseract["detail"])
    # Tesseract is what failed: every other required check passed on the test database.
    assert [name for name, c in found.items() if c["required"] and not c["ok"]] == ["tesseract"]
    assert not found["ffmpeg"]["ok"] and not found["ffmpeg"]["required"]

    text = _cli(env, "doctor", timeout=180)
    assert text.returncode == 1
    assert "MISSING tesseract (required): the tesseract binary is not installed" in text.stdout
    assert "required checks failed: tesseract" in text.stderr


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract-ocr is not installed here")
@pytest.mark.system
def test_doctor_passes_with_everything_required_and_warns_about_the_rest(test_env: dict[str, str],
                                                                       tmp_path: Path, engine) -> None:
    from app.domain import provider_cooldowns
    from extractors.transcribers import TranscriptionAttempt

    env = {**test_env, "EASYOCR_MODEL_DIR": str(tmp_path), "DOCLING_ARTIFACTS_PATH": str(tmp_path),
           "GROQ_API_KEY": "gsk-doctor-secret-value"}
    env.pop("OPENAI_API_KEY", None)
    cooling = f"provider-{uuid.uuid4().hex[:8]}"
    with engine.begin() as conn:
        provider_cooldowns.record(conn, [TranscriptionAttempt(
            engine=cooling, seconds=0.1, status=429, error_code="rate_limited",
            error="429: rate limit reached", retry_after_s=300.0)])
    code, found = _doctor(env)
    assert code == 0, found
    for name in ("database", "pgvector", "migrations", "broker", "storage", "tesseract",
                 "embedding model"):
        assert found[name]["ok"] and found[name]["required"], found[name]
    assert "PostgreSQL transport" in str(found["broker"]["detail"])
    assert found["rapidocr"]["ok"]
    assert not found["easyocr"]["ok"] and "missing" in str(found["easyocr"]["detail"])
    assert "docling-layout-heron" in str(found["docling PDF layout model"]["detail"])
    # Keys: set or not, never their values (test_env sets MISTRAL_API_KEY).
    assert found["MISTRAL_API_KEY"]["ok"] and found["GROQ_API_KEY"]["ok"]
    assert not found["OPENAI_API_KEY"]["ok"] and not found["OPENAI_API_KEY"]["required"]
    assert "gsk-doctor-secret-value" not in json.dumps(found) and "test-key" not in json.dumps(found)
    # A provider on cool-down is a warning, with the 429 that put it there.
    warned = found[f"{cooling} cool-down"]
    assert (warned["ok"], warned["required"]) == (False, False)
    assert "rate limit reached" in str(warned["detail"]) and "asked last until" in str(warned["detail"])


@pytest.mark.system
def test_doctor_names_an_unreachable_broker_without_its_password(test_env: dict[str, str]) -> None:
    env = {**test_env, "BROKER_URL": "amqp://guest:hunter2@127.0.0.1:9//"}
    code, found = _doctor(env)
    assert code == 1
    broker = found["broker"]
    assert not broker["ok"] and "unreachable" in str(broker["detail"])
    assert "hunter2" not in str(broker["detail"])


@pytest.mark.system
def test_doctor_names_an_unreachable_database_and_skips_what_needs_it(test_env: dict[str, str]) -> None:
    env = {**test_env, "DATABASE_URL": "postgresql://pm:hunter2@127.0.0.1:9/pagemill"}
    code, found = _doctor(env)
    assert code == 1
    assert not found["database"]["ok"] and "unreachable" in str(found["database"]["detail"])
    for name in ("pgvector", "migrations", "broker"):
        assert not found[name]["ok"] and "not checked" in str(found[name]["detail"]), found[name]
    assert found["storage"]["ok"]
    assert "hunter2" not in json.dumps(found)
