"""``pagemill worker`` and ``pagemill serve``: the processes that do the work (the worker
itself lives in tasks/worker.py)."""

from __future__ import annotations

import click

from app.cli.context import CliContext, pass_cli


@click.command()
@click.option("--concurrency", "-c", type=int, default=None)
@click.option("--loglevel", default="WARNING")
@click.option("--beat/--no-beat", default=False,
              help="Also run the periodic reconciler (only one beat per deployment).")
@pass_cli
def worker(cli: CliContext, concurrency: int | None, loglevel: str, beat: bool) -> None:
    """Run a Celery worker (starts the embedded database if needed)."""
    from app.embedded import DatabaseUnavailable
    from tasks.worker import run_worker

    try:
        # run_worker installs its SIGTERM handler before it starts the database, so that
        # the embedded server is released however the worker is stopped.
        run_worker(concurrency, loglevel, beat, config=cli.config)
    except DatabaseUnavailable as exc:
        raise click.ClickException(str(exc)) from exc


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, type=int, show_default=True)
@click.option("--worker/--no-worker", default=True, help="Also run a worker.")
@pass_cli
def serve(cli: CliContext, host: str, port: int, worker: bool) -> None:
    """Run the API and a worker for local use."""
    from app.api import create_app
    from tasks.worker import spawn_worker, stop_worker

    cli.runtime  # noqa: B018 - the database up (and migrated) before the API answers
    worker_proc = spawn_worker(beat=True) if worker else None
    try:
        create_app(cli.config).run(host=host, port=port, threaded=True)
    finally:
        if worker_proc is not None:
            stop_worker(worker_proc)
