"""``pagemill jobs`` and ``pagemill job ID``: the operator's view of jobs and their failures.

The API shows a tenant its own jobs; these commands run beside the database, so they show
every tenant's unless ``--tenant`` names one.  Counts come from :mod:`app.domain.jobs`' progress
query, the same the API answers with."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from datetime import datetime
from typing import TYPE_CHECKING, Any

import click

from app.cli.context import CliContext, pass_cli

if TYPE_CHECKING:
    from sqlalchemy import Connection

    # app.domain.jobs loads the extractors' sniffing (and PDFium): not for `pagemill --help`.
    from app.domain.jobs import DocumentOutcome, JobProgress

# Failed documents listed by `pagemill job` unless --failures says otherwise.
FAILURES_LISTED = 100
# The failures read to count them: a job has at most PAGEMILL_MAX_DOCUMENTS_PER_JOB documents
# plus their attachments, so this bound is only ever reached by an attachment-heavy job.
FAILURES_READ = 10_000
# A message longer than this is cut in the text view (--json has it whole).
MESSAGE_CHARS = 300


@click.command()
@click.option("--status", default=None, help="Only jobs in this state (queued, running, completed, "
                                             "completed_with_errors, failed, cancelled).")
@click.option("--limit", type=click.IntRange(1, 1000), default=20, show_default=True)
@click.option("--tenant", default=None, help="Only this tenant's jobs (default: every tenant's).")
@click.option("--json", "as_json", is_flag=True, help="A JSON array of objects, one per job.")
@pass_cli
def jobs(cli: CliContext, status: str | None, limit: int, tenant: str | None, as_json: bool) -> None:
    """List jobs, newest first, with their status and document counts."""
    from app.domain import jobs as job_queries

    if status is not None and status not in job_queries.JOB_STATES:
        raise click.BadParameter(f"{status!r} is not one of {', '.join(job_queries.JOB_STATES)}",
                                 param_hint="--status")
    with cli.runtime.engine.connect() as conn:
        found = _newest_jobs(conn, tenant, status, limit)
    if as_json:
        click.echo(json.dumps([_job_object(progress, name) for progress, name in found], indent=2))
        return
    if not found:
        click.echo("no jobs" + (f" of tenant {tenant!r}" if tenant else "")
                   + (f" with status {status}" if status else ""))
        return
    rows = [("ID", "TENANT", "STATUS", "DOCS", "DONE", "FAILED", "CANCELLED", "ACTIVE", "CREATED")]
    rows += [(p.id, name, p.status, str(p.total_documents), str(p.completed_documents),
              str(p.failed_documents), str(p.cancelled_documents),
              str(p.pending_documents + p.processing_documents), _when(p.created_at))
             for p, name in found]
    _echo_table(rows)


@click.command()
@click.argument("job_id")
@click.option("--tenant", default=None, help="Only if the job is this tenant's.")
@click.option("--failures", "failures_listed", type=click.IntRange(0), default=FAILURES_LISTED,
              show_default=True, help="List at most this many failed documents.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: the job and its failures.")
@pass_cli
def job(cli: CliContext, job_id: str, tenant: str | None, failures_listed: int, as_json: bool) -> None:
    """Show job JOB_ID: its status, document counts and failed documents."""
    from app.domain import jobs as job_queries

    with cli.runtime.engine.connect() as conn:
        tenant_id = existing_tenant_id(conn, tenant) if tenant else None
        progress = job_queries.job_progress(conn, job_id, tenant_id)
        if progress is None:
            raise click.ClickException(f"job {job_id} not found"
                                       + (f" for tenant {tenant!r}" if tenant else ""))
        name = tenant or _tenant_name(conn, progress.tenant_id)
        failures = (job_queries.failed_documents(conn, progress.tenant_id, job_id, FAILURES_READ)
                    if progress.failed_documents else [])
    if as_json:
        click.echo(json.dumps({**_job_object(progress, name),
                               "failures": [_failure_object(f) for f in failures[:failures_listed]],
                               "failures_total": len(failures)}, indent=2))
        return
    click.echo(f"job {progress.id} (tenant {name}): {progress.status}")
    click.echo(f"  created {_when(progress.created_at)}, finished {_when(progress.finished_at)}")
    click.echo(f"  {progress.total_documents} document(s): {progress.completed_documents} completed, "
               f"{progress.failed_documents} failed, {progress.cancelled_documents} cancelled, "
               f"{progress.processing_documents} processing, {progress.pending_documents} pending")
    click.echo(f"  batches: {progress.done_batches} of {progress.total_batches} done")
    for line in failure_lines(failures, failures_listed, None):
        click.echo(line)


def failure_lines(failures: Sequence[DocumentOutcome], shown: int, job_id: str | None) -> list[str]:
    """Lines naming each failed document (external id, error code, message), at most ``shown``
    of them, then how many more and, given ``job_id``, the command that lists them all."""
    lines = [f"  failed {_one_line(f.document_id)}: {f.error_code or '-'}: "
             f"{_one_line(f.error_message or '', MESSAGE_CHARS)}" for f in failures[:shown]]
    more = len(failures) - shown
    if more > 0:
        lines.append(f"  and {more} more" + (f" — pagemill job {job_id}" if job_id else
                                             " (--failures N lists more)"))
    return lines


def _newest_jobs(conn: Connection, tenant: str | None, status: str | None,
                 limit: int) -> list[tuple[JobProgress, str]]:
    """(progress, tenant name) of the newest jobs; one query for one tenant (the API's), one
    per job across tenants (``limit`` bounds them)."""
    from app.domain import jobs as job_queries
    from app.domain.statements import cli_jobs as sql

    if tenant is not None:
        tenant_id = existing_tenant_id(conn, tenant)
        return [(p, tenant) for p in job_queries.list_jobs(conn, tenant_id, status, limit, 0)]
    rows = conn.execute(sql.NEWEST_JOBS, {"status": status, "limit": limit}).all()
    found = []
    for row in rows:
        progress = job_queries.job_progress(conn, row.id, None)
        if progress is not None:  # deleted between the two reads
            found.append((progress, str(row.name)))
    return found


def existing_tenant_id(conn: Connection, name: str) -> str:
    """The id of the tenant named ``name``; never creates one (these commands only read)."""
    from app.domain.statements import cli_jobs as sql

    found = conn.execute(sql.TENANT_ID, {"name": name}).scalar_one_or_none()
    if found is None:
        raise click.ClickException(f"no tenant is named {name!r}")
    return str(found)


def _tenant_name(conn: Connection, tenant_id: str) -> str:
    from app.domain.statements import cli_jobs as sql

    return str(conn.execute(sql.TENANT_NAME, {"id": tenant_id}).scalar_one())


def _job_object(progress: JobProgress, tenant_name: str) -> dict[str, Any]:
    """The job as JSON; like the API, secret options (password) by name only, never a value."""
    from app.domain.secret_options import public_options, secret_names

    fields = {k: v.isoformat() if isinstance(v, datetime) else v for k, v in asdict(progress).items()}
    return {**fields, "tenant": tenant_name, "options": public_options(progress.options),
            "secret_options": secret_names(progress.options)}


def _failure_object(failure: DocumentOutcome) -> dict[str, Any]:
    return {"id": failure.id, "external_id": failure.document_id, "error_code": failure.error_code,
            "message": failure.error_message, "parent_id": failure.parent_id}


def _one_line(value: str, limit: int | None = None) -> str:
    """``value`` on one line and harmless on a terminal (ids and messages come from documents)."""
    from app.infra.logs import escape_control

    shown = escape_control(value)
    if limit is not None and len(shown) > limit:
        shown = shown[: limit - 1] + "…"
    return shown


def _when(moment: datetime | None) -> str:
    return moment.isoformat(timespec="seconds") if moment is not None else "-"


def _echo_table(rows: Sequence[tuple[str, ...]]) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
