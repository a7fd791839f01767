"""``pagemill ingest``: files, folders and JSONL text records into a job; ``--wait`` follows
it to the end (starting a worker for its duration when none is running)."""

from __future__ import annotations

import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any

import click

from app.cli.context import CliContext, pass_cli

if TYPE_CHECKING:
    # app.domain.jobs loads the extractors' sniffing (and PDFium): not for `pagemill --help`.
    from app.domain.jobs import JobProgress, NewDocument

POLL_SECONDS = 0.5
# Failed documents listed after the progress bar; `pagemill job ID` lists the rest.
FAILURES_SHOWN = 20


def read_records(path: str) -> list[dict[str, Any]]:
    """The records of a JSONL file; a bad line stops the command with its number."""
    from app.services.submission import parse_record

    records = []
    with open(path, encoding="utf-8") as fh:
        for line_no, line in enumerate(fh, 1):
            if line.strip():
                try:
                    records.append(parse_record(line, line_no))
                except ValueError as exc:
                    raise click.ClickException(f"{path}: {exc}") from exc
    return records


def _staged(cli: CliContext, tenant_id: str, paths: tuple[str, ...], jsonl: str | None) -> list[NewDocument]:
    from app.services.submission import stage_files, stage_record

    storage = cli.runtime.storage
    documents: list[NewDocument] = []
    if paths:
        try:
            staged, skipped = stage_files(storage, tenant_id, paths)
        except FileNotFoundError as exc:
            raise click.ClickException(str(exc)) from exc
        for item in skipped:
            click.echo(f"skipped {item.external_id}: {item.reason}", err=True)
        documents.extend(staged)
    if jsonl:
        documents.extend(stage_record(storage, tenant_id, r) for r in read_records(jsonl))
    return documents


@click.command()
@click.argument("paths", nargs=-1)
@click.option("--jsonl", "jsonl", type=click.Path(exists=True, dir_okay=False),
              help="Text records, one JSON object per line: id (or _id), title, text, metadata.")
@click.option("--tenant", default=None, help="Tenant name (default: PAGEMILL_DEFAULT_TENANT).")
@click.option("--wait/--no-wait", default=False, help="Show progress and return when done.")
@click.option("--batch-size", type=int, default=None)
@pass_cli
def ingest(cli: CliContext, paths: tuple[str, ...], jsonl: str | None, tenant: str | None, wait: bool,
           batch_size: int | None) -> None:
    """Ingest files and folders (recursively), or text records with --jsonl."""
    from app.infra import traces
    from app.services.submission import submit_job

    if not paths and not jsonl:
        raise click.UsageError("give PATH... or --jsonl FILE")
    tenant_id = cli.tenant_id(tenant)
    # Started before staging: the worker's start and model load overlap staging and submission.
    worker = worker_unless_running(cli) if wait else None
    try:
        documents = _staged(cli, tenant_id, paths, jsonl)
        if not documents:
            raise click.ClickException("nothing to ingest")
        # The command is the root of the job's trace when OTEL_EXPORTER_OTLP_ENDPOINT is set
        # (app/infra/traces.py), as the request is for a job sent to the API.
        traces.start(cli.config.tracing, "cli")
        try:
            with traces.span("pagemill ingest", **{"pagemill.documents": len(documents)}):
                job_id = submit_job(cli.runtime, tenant_id, documents,
                                    batch_size or cli.config.jobs.batch_size)
        except ValueError as exc:
            raise click.ClickException(str(exc)) from exc
    except BaseException:
        if worker is not None:
            from tasks.worker import stop_worker

            stop_worker(worker)
        raise
    click.echo(f"job {job_id}: {len(documents)} document(s) queued", err=True)
    if not wait:
        click.echo(job_id)
        return
    if follow_job(cli, job_id, tenant_id, worker) not in ("completed", "completed_with_errors"):
        sys.exit(1)


def worker_unless_running(cli: CliContext) -> subprocess.Popen[bytes] | None:
    """A worker for this command's length when none is running (its heartbeat rows say)."""
    from app.domain.worker_heartbeats import live_workers
    from tasks.worker import spawn_worker

    with cli.runtime.engine.connect() as conn:
        if live_workers(conn):
            return None
    click.echo("no worker is running: starting one for this job", err=True)
    return spawn_worker()


def follow_job(cli: CliContext, job_id: str, tenant_id: str,
               worker: subprocess.Popen[bytes] | None = None) -> str:
    """Show the job's progress until it ends; its final status.  ``worker``: one this command
    started (:func:`worker_unless_running`), stopped at the end, after any HNSW build."""
    from tasks.worker import stop_worker

    try:
        status = _show_progress(cli, job_id, tenant_id, worker)
        if worker is not None:
            _await_vector_index(cli, job_id, worker)
    finally:
        if worker is not None:
            stop_worker(worker)
    return status


# How long `ingest --wait` waits for the HNSW graph after a bulk load before it stops the
# worker it started (the reconciler of the next worker builds it otherwise).
BUILD_WAIT_SECONDS = 3600.0


def _await_vector_index(cli: CliContext, job_id: str, worker: subprocess.Popen[bytes]) -> None:
    """The job was a bulk load (app/domain/bulk_loads.py): the worker this command started builds the
    HNSW graph now; stopping it first would leave dense search without its graph."""
    from app.domain import bulk_loads

    engine = cli.runtime.engine
    deadline = time.monotonic() + BUILD_WAIT_SECONDS
    told = False
    while time.monotonic() < deadline and worker.poll() is None:
        with engine.connect() as conn:
            if not bulk_loads.awaiting_build(conn, job_id):
                return
        if not told:
            click.echo("building the vector index (HNSW) over the new chunks", err=True)
            told = True
        time.sleep(POLL_SECONDS)


def _show_progress(cli: CliContext, job_id: str, tenant_id: str,
                   worker: subprocess.Popen[bytes] | None) -> str:
    from app.domain import jobs

    engine = cli.runtime.engine
    progress = _poll(cli, job_id, tenant_id)
    with click.progressbar(length=progress.total_documents, label="ingesting", file=sys.stderr) as bar:
        done = 0
        while True:
            finished = progress.completed_documents + progress.failed_documents
            bar.update(finished - done)
            done = finished
            if progress.status in jobs.TERMINAL_JOB_STATES:
                break
            if progress.settled == progress.total_documents:
                # Every document is terminal: settle the job here too, so a lost chord
                # callback cannot leave us waiting (finalising is idempotent).
                with engine.begin() as conn:
                    jobs.finalize_job(conn, job_id)
            if worker is not None and worker.poll() is not None:
                raise click.ClickException(f"the worker exited with code {worker.returncode}")
            time.sleep(POLL_SECONDS)
            progress = _poll(cli, job_id, tenant_id)
    click.echo(f"job {job_id}: {progress.status} ({progress.completed_documents} completed,"
               f" {progress.failed_documents} failed)", err=True)
    if progress.failed_documents:
        from app.cli.jobs import FAILURES_READ, failure_lines

        # Every failure is read so that the last line can say how many were not shown.
        with engine.connect() as conn:
            failures = jobs.failed_documents(conn, tenant_id, job_id, FAILURES_READ)
        for line in failure_lines(failures, FAILURES_SHOWN, job_id):
            click.echo(line, err=True)
    return progress.status


def _poll(cli: CliContext, job_id: str, tenant_id: str) -> JobProgress:
    from app.domain import jobs

    with cli.runtime.engine.connect() as conn:
        progress = jobs.job_progress(conn, job_id, tenant_id)
    if progress is None:
        raise click.ClickException(f"job {job_id} not found")
    return progress
