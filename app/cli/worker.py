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
@click.option("--queues", "-Q", default=None, metavar="NAMES",
              help="Comma-separated queues to take: pagemill (documents), pagemill.media (audio "
                   "and video). Default: both.")
@pass_cli
def worker(cli: CliContext, concurrency: int | None, loglevel: str, beat: bool,
           queues: str | None) -> None:
    """Run a Celery worker (starts the embedded database if needed)."""
    from app.infra.embedded import DatabaseUnavailable
    from tasks.worker import run_worker

    try:
        # run_worker installs its SIGTERM handler before it starts the database, so that
        # the embedded server is released however the worker is stopped.
        run_worker(concurrency, loglevel, beat, config=cli.config, queues=queues)
    except DatabaseUnavailable as exc:
        raise click.ClickException(str(exc)) from exc


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, type=int, envvar="PORT", show_default=True, show_envvar=True,
              help="Port to listen on; without --port, $PORT (as a platform sets it), then 8000.")
@click.option("--worker/--no-worker", default=True,
              help="Also run a worker, restarted with backoff whenever it dies.")
@pass_cli
def serve(cli: CliContext, host: str, port: int, worker: bool) -> None:
    """Run the API (gunicorn, PAGEMILL_WEB_WORKERS x PAGEMILL_WEB_THREADS) and a worker."""
    import signal

    from app.web_server import spawn_api_server, stop_api_server
    from tasks.worker import SupervisedWorker, raise_system_exit

    # SIGTERM runs exit handlers (stop the server and the worker, release the embedded
    # database) first.
    signal.signal(signal.SIGTERM, raise_system_exit)
    cli.runtime  # noqa: B018 - the database up (and migrated) before the API answers
    # This process owns the Prometheus samples of the API and the worker it starts (both
    # inherit PROMETHEUS_MULTIPROC_DIR): claimed before either starts.
    from app.infra.metrics import directory

    directory.claim(cli.config.metrics_samples_dir)
    supervised = SupervisedWorker(beat=True) if worker else None
    if supervised is not None:
        supervised.start()
    server = spawn_api_server(host, port)
    try:
        code = server.wait()
        if code:
            raise click.ClickException(f"the API server exited with status {code}")
    finally:
        stop_api_server(server)
        if supervised is not None:
            supervised.stop()
