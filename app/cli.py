"""The ``pagemill`` command line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import warnings
from typing import Any

import click

from app import jobs, logs
from app.auth import create_key, ensure_tenant
from app.db import PROJECT_ROOT, upgrade_schema
from app.embedded import DatabaseUnavailable
from app.jobs import TERMINAL_JOB_STATES

SAMPLES_DIR = PROJECT_ROOT / "samples"


def _runtime():  # type: ignore[no-untyped-def]
    from tasks.runtime import get_runtime

    runtime = get_runtime()
    try:
        url = runtime.database_url
    except DatabaseUnavailable as exc:
        raise click.ClickException(str(exc)) from exc
    if runtime.config.uses_embedded_database:
        upgrade_schema(url)
    return runtime


@click.group()
@click.option("--log-level", default=lambda: os.environ.get("PAGEMILL_LOG_LEVEL", "WARNING"),
              show_default="WARNING")
def main(log_level: str) -> None:
    """pagemill: document ingestion and hybrid search on one PostgreSQL."""
    logs.configure(log_level.upper())


@main.command()
def migrate() -> None:
    """Apply database migrations (alembic upgrade head)."""
    from tasks.runtime import get_runtime

    try:
        upgrade_schema(get_runtime().database_url)
    except DatabaseUnavailable as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo("schema is up to date")


def _read_records(path: str) -> list[dict[str, Any]]:
    from app.submission import parse_record

    records = []
    with open(path, encoding="utf-8") as fh:
        for line_no, line in enumerate(fh, 1):
            if line.strip():
                try:
                    records.append(parse_record(line, line_no))
                except ValueError as exc:
                    raise click.ClickException(f"{path}: {exc}") from exc
    return records


@main.command()
@click.argument("paths", nargs=-1)
@click.option("--jsonl", "jsonl", type=click.Path(exists=True, dir_okay=False),
              help="Text records, one JSON object per line: id (or _id), title, text, metadata.")
@click.option("--tenant", default=None, help="Tenant name (default: PAGEMILL_DEFAULT_TENANT).")
@click.option("--wait/--no-wait", default=False, help="Show progress and return when done.")
@click.option("--batch-size", type=int, default=None)
def ingest(paths: tuple[str, ...], jsonl: str | None, tenant: str | None, wait: bool,
           batch_size: int | None) -> None:
    """Ingest files and folders (recursively), or text records with --jsonl."""
    from app.submission import stage_files, stage_record, submit_job

    if not paths and not jsonl:
        raise click.UsageError("give PATH... or --jsonl FILE")
    runtime = _runtime()
    with runtime.engine.begin() as conn:
        tenant_id = ensure_tenant(conn, tenant or runtime.config.default_tenant)
    documents = []
    if paths:
        try:
            staged, skipped = stage_files(runtime.storage, tenant_id, paths)
        except FileNotFoundError as exc:
            raise click.ClickException(str(exc)) from exc
        for item in skipped:
            click.echo(f"skipped {item.external_id}: {item.reason}", err=True)
        documents.extend(staged)
    if jsonl:
        documents.extend(stage_record(runtime.storage, tenant_id, r) for r in _read_records(jsonl))
    if not documents:
        raise click.ClickException("nothing to ingest")
    try:
        job_id = submit_job(runtime.engine, tenant_id, documents,
                            batch_size or runtime.config.batch_size)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"job {job_id}: {len(documents)} document(s) queued", err=True)
    if wait:
        status = _wait_for_job(runtime, job_id, tenant_id)
        if status not in ("completed", "completed_with_errors"):
            sys.exit(1)
    else:
        click.echo(job_id)


def _wait_for_job(runtime, job_id: str, tenant_id: str) -> str:  # type: ignore[no-untyped-def]
    from tasks.heartbeat import live_workers

    worker = None
    with runtime.engine.connect() as conn:
        if not live_workers(conn):
            click.echo("no worker is running: starting one for this job", err=True)
            worker = _spawn_worker()
    try:
        progress = _poll(runtime, job_id, tenant_id)
        total = progress["total_documents"]
        with click.progressbar(length=total, label="ingesting", file=sys.stderr) as bar:
            done = 0
            while True:
                finished = progress["completed_documents"] + progress["failed_documents"]
                bar.update(finished - done)
                done = finished
                if progress["status"] in TERMINAL_JOB_STATES:
                    break
                if finished + progress["cancelled_documents"] == total:
                    # Every document is terminal: settle the job here too, so a lost chord
                    # callback cannot leave us waiting (finalising is idempotent).
                    with runtime.engine.begin() as conn:
                        jobs.finalize_job(conn, job_id)
                if worker is not None and worker.poll() is not None:
                    raise click.ClickException(f"the worker exited with code {worker.returncode}")
                time.sleep(0.5)
                progress = _poll(runtime, job_id, tenant_id)
    finally:
        if worker is not None:
            _stop_worker(worker)
    click.echo(f"job {job_id}: {progress['status']} ({progress['completed_documents']} completed,"
               f" {progress['failed_documents']} failed)", err=True)
    if progress["failed_documents"]:
        _print_failures(runtime, job_id)
    return str(progress["status"])


def _poll(runtime, job_id: str, tenant_id: str) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    with runtime.engine.connect() as conn:
        progress = jobs.job_progress(conn, job_id, tenant_id)
    if progress is None:
        raise click.ClickException(f"job {job_id} not found")
    return progress


def _print_failures(runtime, job_id: str) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy import text

    with runtime.engine.connect() as conn:
        rows = conn.execute(text("""
            SELECT external_id, error_code, error_message FROM documents
            WHERE job_id = :job AND status = 'failed' ORDER BY external_id LIMIT 20
        """), {"job": job_id}).all()
    for row in rows:
        click.echo(f"  failed {row.external_id}: {row.error_code}: {row.error_message}", err=True)


def _spawn_worker(*args: str) -> subprocess.Popen[bytes]:
    # SIGTERM (a supervisor, `kill`) must run our cleanup, which stops this worker.
    signal.signal(signal.SIGTERM, _raise_system_exit)
    env = {**os.environ, PARENT_ENV: str(os.getpid())}
    return subprocess.Popen([sys.executable, "-m", "app.cli", "worker", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=None, start_new_session=True)


PARENT_ENV = "PAGEMILL_PARENT_PID"


def _raise_system_exit(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def _exit_with_parent() -> None:
    """A worker started for a CLI command stops (warm shutdown) when that command is gone,
    even if it was killed without a chance to clean up."""
    raw = os.environ.pop(PARENT_ENV, None)
    if not raw:
        return
    parent = int(raw)

    def watch() -> None:
        import psutil

        while psutil.pid_exists(parent):
            time.sleep(2)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="pagemill-parent-watch", daemon=True).start()


def _stop_worker(worker: subprocess.Popen[bytes]) -> None:
    if worker.poll() is None:
        worker.send_signal(signal.SIGTERM)  # warm shutdown: finish the current task
        try:
            worker.wait(timeout=60)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


@main.command()
@click.option("--concurrency", "-c", type=int, default=None)
@click.option("--loglevel", default="WARNING")
@click.option("--beat/--no-beat", default=False,
              help="Also run the periodic reconciler (only one beat per deployment).")
def worker(concurrency: int | None, loglevel: str, beat: bool) -> None:
    """Run a Celery worker (starts the embedded database if needed)."""
    # Until Celery installs its warm-shutdown handler, SIGTERM must still run exit handlers
    # (they release this process's hold on the embedded server).
    signal.signal(signal.SIGTERM, _raise_system_exit)
    runtime = _runtime()
    from tasks import app as celery_app

    _exit_with_parent()
    n = concurrency or runtime.config.worker_concurrency
    # Celery warns about running as root; pagemill's content is JSON only (no pickle).
    warnings.filterwarnings("ignore", message="You're running the worker with superuser")
    # One torch thread pool per process: more threads than cores only thrash on 2 cores.
    os.environ.setdefault("PAGEMILL_TORCH_THREADS", str(max(1, (os.cpu_count() or 1) // n)))
    argv = ["worker", f"--loglevel={loglevel}", f"--concurrency={n}",
            f"--hostname=pagemill-{os.getpid()}@%h", "--without-gossip", "--without-mingle",
            "--without-heartbeat"]
    if beat:
        argv += ["--beat", f"--schedule={runtime.config.home / 'celerybeat-schedule'}"]
    celery_app.worker_main(argv)


@main.command()
@click.argument("query", required=False)
@click.option("--queries", type=click.Path(exists=True, dir_okay=False),
              help="JSONL of queries ({\"_id\", \"text\"}); prints one JSON line per query.")
@click.option("--k", type=int, default=10, show_default=True)
@click.option("--mode", type=click.Choice(["hybrid", "bm25", "dense"]), default="hybrid",
              show_default=True)
@click.option("--json", "as_json", is_flag=True, help="JSON output.")
@click.option("--all-chunks", is_flag=True, help="Do not collapse results to one per document.")
@click.option("--fusion", type=click.Choice(["rrf", "weighted"]), default=None,
              help="Hybrid fusion: reciprocal ranks, or alpha-weighted normalised scores "
                   "(default: PAGEMILL_FUSION, weighted).")
@click.option("--alpha", type=click.FloatRange(0, 1), default=None,
              help="Weight of the dense score with --fusion weighted (default: PAGEMILL_ALPHA, 0.5).")
@click.option("--mime-type", "mime_types", multiple=True, help="Only documents of this type.")
@click.option("--tenant", default=None)
def search(query: str | None, queries: str | None, k: int, mode: str, as_json: bool,
           all_chunks: bool, tenant: str | None, fusion: str | None, alpha: float | None,
           mime_types: tuple[str, ...]) -> None:
    """Search the index (hybrid: pgvector + BM25 fused by RRF)."""
    from indexing.embedding import embed
    from indexing.search import Filters
    from indexing.search import search as run_search

    if bool(query) == bool(queries):
        raise click.UsageError("give either QUERY or --queries FILE")
    runtime = _runtime()
    cfg = runtime.config
    # Options given on the command line override the configuration.
    params = cfg.search_params(**{name: value for name, value in (("fusion", fusion), ("alpha", alpha))
                                  if value is not None})
    filters = Filters(mime_types=list(mime_types) or None)
    with runtime.engine.begin() as conn:
        tenant_id = ensure_tenant(conn, tenant or cfg.default_tenant)
    items: list[tuple[str, str]]
    if queries:
        items = []
        with open(queries, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    q = json.loads(line)
                    items.append((str(q.get("_id", q.get("id"))), q["text"]))
    else:
        items = [("query", query or "")]
    vectors = embed([t for _, t in items]) if mode != "bm25" else [None] * len(items)
    for (query_id, text_), vector in zip(items, vectors, strict=True):
        with runtime.engine.begin() as conn:
            hits = run_search(conn, tenant_id, text_, k=k, mode=mode,  # type: ignore[arg-type]
                              collapse=not all_chunks, params=params, query_vector=vector,
                              filters=filters)
        if as_json or queries:
            click.echo(json.dumps({"query_id": query_id, "results": [
                {"document_id": h.document_id, "chunk_id": h.chunk_id, "score": h.score,
                 "snippet": h.snippet, "text": h.text} for h in hits]}, ensure_ascii=False))
        else:
            click.echo(f"query: {text_}  ({mode}, top {k})")
            for rank, h in enumerate(hits, 1):
                heading = " > ".join(h.heading_path)
                click.echo(f"{rank:2d}. {h.score:.4f}  {h.document_id}"
                           + (f"  [{heading}]" if heading else ""))
                click.echo(f"      {h.snippet}")
            if not hits:
                click.echo("   (no results)")


def _attachment_outcomes(result: Any) -> list[dict[str, Any]]:
    """Every attachment below a result, depth first, as the pipeline would store it."""
    out = []
    for attachment in result.attachments:
        child = attachment.result
        out.append({"name": attachment.name, "status": "completed" if child else "failed",
                    "error_code": attachment.error_code, "error_message": attachment.error_message,
                    "extractor": child.extractor if child else None,
                    "markdown": child.markdown if child else None})
        if child:
            out.extend({**item, "name": f"{attachment.name}/{item['name']}"}
                       for item in _attachment_outcomes(child))
    return out



@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per file: extractor, route, attempts, quality, per-page text.")
@click.option("--password", default=None, help="Password for encrypted PDFs and Office files.")
@click.option("--isolation/--no-isolation", default=None,
              help="Parse in a killable child process (default: PAGEMILL_EXTRACT_ISOLATION).")
def parse(paths: tuple[str, ...], as_json: bool, password: str | None, isolation: bool | None) -> None:
    """Route and extract files without indexing them; print Markdown or JSON.

    Every file ends with text or a failure code; the exit status is 1 if any failed."""
    from dataclasses import asdict

    from app.config import Config
    from extractors.base import ExtractionError
    from extractors.isolation import InProcessExtractor, IsolatedExtractor

    config = Config.from_env()
    isolated = config.extract_isolation if isolation is None else isolation
    extractor = (IsolatedExtractor(memory_limit_bytes=config.extract_memory_limit) if isolated
                 else InProcessExtractor())
    failed = 0
    try:
        for path in paths:
            with open(path, "rb") as handle:
                data = handle.read()
            started = time.monotonic()
            try:
                result = extractor.extract(data, filename=os.path.basename(path),
                                           options=config.extract_options(password),
                                           timeout=config.extract_hard_timeout)
            except ExtractionError as exc:
                failed += 1
                outcome = {"path": path, "status": "failed", "error_code": exc.code,
                           "error_message": exc.message, "attempts": [asdict(a) for a in exc.attempts]}
                if not as_json:
                    click.echo(f"{path}: failed: {exc.code}: {exc.message}", err=True)
            else:
                outcome = {"path": path, "status": "completed", **result.report(),
                           "title": result.title, "markdown": result.markdown,
                           "page_text": [{"number": p.number, "text": p.markdown} for p in result.pages],
                           "tables": [asdict(t) for t in result.tables],
                           "attachments": _attachment_outcomes(result)}
                if not as_json:
                    click.echo(result.markdown)
                    for item in outcome["attachments"]:
                        click.echo(f"\n---\nattachment {item['name']}: {item['status']}"
                                   + (f" ({item['error_code']})" if item["error_code"] else ""))
                        if item["markdown"]:
                            click.echo(item["markdown"])
            outcome["seconds"] = round(time.monotonic() - started, 3)
            if as_json:
                click.echo(json.dumps(outcome, ensure_ascii=False, default=str))
    finally:
        extractor.close()
    if failed:
        sys.exit(1)


@main.command()
@click.option("--json", "as_json", is_flag=True)
def doctor(as_json: bool) -> None:
    """Which extraction engines and models this machine has, and why not when missing."""
    from dataclasses import asdict

    from app.config import Config
    from extractors.capabilities import check_all

    found = check_all(Config.from_env().extract_options())
    if as_json:
        click.echo(json.dumps([asdict(c) for c in found]))
        return
    for capability in found:
        mark = "ok " if capability.available else "-- "
        click.echo(f"{mark} {capability.engine}: {capability.detail}")


@main.group()
def bm25() -> None:
    """Maintain the BM25 index."""


@bm25.command("refresh")
@click.option("--tenant", default=None, help="Tenant name (default: every tenant).")
def bm25_refresh(tenant: str | None) -> None:
    """Recompute posting impacts with the current average chunk length and BM25 k1/b.

    Search stays exact without it; stale impacts only make early termination succeed less
    often (run it after the corpus grew or shrank a lot, or after changing k1/b)."""
    from sqlalchemy import text

    from indexing.store import refresh_impacts

    runtime = _runtime()
    cfg = runtime.config
    with runtime.engine.begin() as conn:
        if tenant:
            tenants = [ensure_tenant(conn, tenant)]
        else:
            tenants = [str(t) for t in conn.execute(text("SELECT tenant_id FROM bm25_stats")).scalars()]
    for tenant_id in tenants:
        with runtime.engine.begin() as conn:
            n = refresh_impacts(conn, tenant_id, k1=cfg.bm25_k1, b=cfg.bm25_b)
        click.echo(f"tenant {tenant_id}: {n} postings refreshed")


@main.group()
def hnsw() -> None:
    """Drop and rebuild the vector index around bulk loads."""


@hnsw.command("drop")
def hnsw_drop() -> None:
    """Drop the HNSW graph before a load that adds a large share of the index (dense search
    stays exact meanwhile, scanning every vector)."""
    from indexing.vector_index import drop_hnsw

    click.echo("dropped" if drop_hnsw(_runtime().engine) else "no HNSW index to drop")


@hnsw.command("build")
def hnsw_build() -> None:
    """Build the HNSW graph (concurrently; ingest and search go on)."""
    from indexing.vector_index import build_hnsw

    seconds = build_hnsw(_runtime().engine)
    click.echo(f"built in {seconds:.0f} s" if seconds else "the HNSW index is already there")


@main.group()
def broker() -> None:
    """Inspect the durable broker."""


@broker.command("dead-letters")
@click.option("--requeue", is_flag=True, help="Put dead letters back on their queues.")
@click.option("--id", "ids", multiple=True, type=int, help="Only these dead letters.")
def broker_dead_letters(requeue: bool, ids: tuple[int, ...]) -> None:
    """List messages that exhausted their deliveries, or requeue them."""
    from tasks.broker import dead_letters, install_schema, requeue_dead_letters

    runtime = _runtime()
    install_schema(runtime.engine)
    if requeue:
        n = requeue_dead_letters(runtime.engine, list(ids) or None)
        click.echo(f"requeued {n} message(s)")
        return
    rows = [r for r in dead_letters(runtime.engine) if not ids or r.id in ids]
    for r in rows:
        click.echo(f"{r.id}\t{r.queue}\t{r.task or '-'}\t{r.task_id or '-'}\t{r.deliveries}\t"
                   f"{r.died_at:%Y-%m-%d %H:%M:%S}\t{r.reason}")
    if not rows:
        click.echo("no dead letters")


@main.group()
def keys() -> None:
    """Manage API keys."""


@keys.command("create")
@click.option("--tenant", required=True)
@click.option("--name", default=None)
def keys_create(tenant: str, name: str | None) -> None:
    """Create an API key for TENANT (printed once)."""
    runtime = _runtime()
    with runtime.engine.begin() as conn:
        key = create_key(conn, tenant, name)
    click.echo(key)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, type=int, show_default=True)
@click.option("--worker/--no-worker", default=True, help="Also run a worker.")
def serve(host: str, port: int, worker: bool) -> None:
    """Run the API and a worker for local use."""
    from app.api import create_app

    runtime = _runtime()
    worker_proc = _spawn_worker("--beat") if worker else None
    try:
        create_app(runtime.config).run(host=host, port=port, threaded=True)
    finally:
        if worker_proc is not None:
            _stop_worker(worker_proc)


@main.command()
@click.option("--wait/--no-wait", default=True)
def demo(wait: bool) -> None:
    """Ingest the sample documents shipped with pagemill and run a few searches."""
    ctx = click.get_current_context()
    samples = os.path.relpath(SAMPLES_DIR)
    if samples.startswith(".."):
        samples = str(SAMPLES_DIR)
    ctx.invoke(ingest, paths=(samples,), jsonl=None, tenant=None, wait=wait,
               batch_size=None)
    for q in ("how does the broker avoid losing messages", "RFC 7231", "vector index recall"):
        ctx.invoke(search, query=q, queries=None, k=3, mode="hybrid", as_json=False,
                   all_chunks=False, tenant=None)


if __name__ == "__main__":
    main()
