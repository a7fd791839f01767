"""SIGTERM to a worker in the middle of a document: Celery's warm shutdown lets the task finish
(or, past the grace period, the broker's lease returns it to the queue), and the document is
indexed exactly once either way."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from sqlalchemy import text

from app.infra.db import get_engine
from tests.conftest import ROOT, start_worker, terminate, wait_for


@pytest.mark.system
def test_sigterm_mid_document_completes_it_exactly_once(test_env, private_database, tmp_path: Path):
    env = {**test_env, "DATABASE_URL": private_database}
    engine = get_engine(private_database)
    # Long enough that embedding takes seconds: the signal lands while the document is worked on.
    body = " ".join(f"Sentence {i} says the queue keeps message {i * 7} until it is acknowledged."
                    for i in range(1000))
    records = tmp_path / "long.jsonl"
    records.write_text(json.dumps({"id": "long", "title": "long", "text": body}) + "\n")
    worker = start_worker(env, engine)
    try:
        submitted = subprocess.run([sys.executable, "-m", "app.cli", "ingest", "--jsonl", str(records),
                                    "--tenant", f"term-{uuid.uuid4().hex[:8]}"],
                                   env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert submitted.returncode == 0, submitted.stderr
        job_id = submitted.stdout.strip().splitlines()[-1]

        def status() -> str | None:
            with engine.connect() as conn:
                return conn.execute(text("SELECT status FROM documents WHERE job_id = :j"),
                                    {"j": job_id}).scalar_one_or_none()

        wait_for(lambda: status() == "processing", timeout=120, interval=0.1, what="processing")
        time.sleep(1.0)  # into extraction and embedding
        stopped_at = time.monotonic()
        terminate(worker, timeout=120)
        print(f"worker stopped {time.monotonic() - stopped_at:.1f} s after SIGTERM, "
              f"exit {worker.returncode}, document {status()}")
        # Whatever the stopped worker left -- the document, if its task went back to the queue;
        # the chord's callback that finishes the job -- the next worker does.
        worker = start_worker(env, engine)

        def job_status() -> str | None:
            with engine.connect() as conn:
                found = conn.execute(text("SELECT status FROM jobs WHERE id = CAST(:j AS uuid)"),
                                     {"j": job_id}).scalar_one()
            return found if found not in ("queued", "running") else None

        wait_for(job_status, timeout=300, interval=0.5, what="the job to finish")
    finally:
        terminate(worker)
    with engine.connect() as conn:
        indexed = conn.execute(text("""
            SELECT count(DISTINCT sd.id) AS documents, count(c.id) AS chunks,
                   count(DISTINCT c.chunk_no) AS numbers, max(d.chunk_count) AS recorded
            FROM documents d
            JOIN search_documents sd ON sd.source_document_id = d.id
            JOIN chunks c ON c.search_document_id = sd.id
            WHERE d.job_id = :j
        """), {"j": job_id}).one()
        job = conn.execute(text("SELECT status FROM jobs WHERE id = CAST(:j AS uuid)"),
                           {"j": job_id}).scalar_one()
    assert indexed.documents == 1 and indexed.chunks == indexed.numbers == indexed.recorded > 30
    assert job == "completed"
