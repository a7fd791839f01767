"""What fair admission costs: one admission run (app/domain/admission.py's ``admit_batches``) as the
backlog of waiting batches grows, and the overhead per dispatched batch.

    python bench/admission.py [--keys 50] [--backlogs 100,1000,10000] [--runs 20]

On a fresh embedded PostgreSQL in a temporary home: ``--keys`` API keys, each with one job of
backlog/keys single-document batches handed to admission.  For each backlog size: ``--runs``
admission runs, each after one admitted batch of every key is marked done (so every run gives
out one slot per key, as batches finishing all over the deployment would), timing the run's
transaction (advisory lock, the statement, commit) and ``mark_published``.  Prints a Markdown
table: the median and worst run, and the median per batch admitted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import Engine, text  # noqa: E402

from app.domain import admission, jobs  # noqa: E402
from app.domain.auth import create_key  # noqa: E402
from app.infra.db import get_engine, upgrade_schema  # noqa: E402
from app.infra.embedded import start_embedded, stop_embedded  # noqa: E402

LIMIT = 4


def _fill(engine: Engine, keys: int, backlog: int) -> None:
    per_key = max(1, backlog // keys)
    docs = [jobs.NewDocument(external_id=f"d{i}", source="record", object_key=None, mime_type=None,
                             size_bytes=None, sha256=None) for i in range(per_key)]
    with engine.begin() as conn:
        for k in range(keys):
            key = create_key(conn, f"bench-{uuid.uuid4().hex[:8]}-{k}")
            key_id, tenant = conn.execute(text(
                "SELECT id::text, tenant_id::text FROM api_keys WHERE prefix = :p"),
                {"p": key.split("_")[1]}).one()
            job_id, _ = jobs.create_job(conn, tenant, docs, 1, api_key_id=key_id)
            jobs.mark_handed(conn, job_id)


def _measure(engine: Engine, runs: int) -> tuple[list[float], list[int]]:
    with engine.begin() as conn:  # the first run fills every key's slots
        admission.admit(conn, LIMIT, 1)
    seconds, admitted = [], []
    for _ in range(runs):
        with engine.begin() as conn:  # one batch of every key finishes
            conn.execute(text("""
                UPDATE batches b SET status = 'done', finished_at = now()
                FROM (SELECT DISTINCT ON (slot_key) job_id, batch_no FROM batches
                      WHERE admitted_at IS NOT NULL AND status <> 'done'
                      ORDER BY slot_key, admitted_at) f
                WHERE b.job_id = f.job_id AND b.batch_no = f.batch_no"""))
        started = time.perf_counter()
        with engine.begin() as conn:
            batches = admission.admit(conn, LIMIT, 1)
        with engine.begin() as conn:
            admission.mark_published(conn, batches)
        seconds.append(time.perf_counter() - started)
        admitted.append(len(batches))
    return seconds, admitted


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--keys", type=int, default=50)
    parser.add_argument("--backlogs", default="100,1000,10000")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    print("| waiting batches | keys | run median (ms) | run worst (ms) | batches per run | per batch (ms) |")
    print("|---:|---:|---:|---:|---:|---:|")
    for backlog in (int(b) for b in args.backlogs.split(",")):
        home = Path(tempfile.mkdtemp(prefix="pm-adm-"))
        url = start_embedded(home / "pgdata", database="pagemill")
        try:
            upgrade_schema(url)
            engine = get_engine(url)
            _fill(engine, args.keys, backlog)
            with engine.connect() as conn:
                conn.execute(text("ANALYZE batches"))
            seconds, admitted = _measure(engine, args.runs)
            run = statistics.median(seconds) * 1000
            per = statistics.median(s / max(n, 1) for s, n in zip(seconds, admitted, strict=True)) * 1000
            print(f"| {backlog} | {args.keys} | {run:.1f} | {max(seconds) * 1000:.1f} | "
                  f"{statistics.median(admitted):.0f} | {per:.2f} |")
            engine.dispose()
        finally:
            stop_embedded(home / "pgdata")


if __name__ == "__main__":
    main()
