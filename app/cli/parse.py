"""``pagemill parse``: route and extract files without indexing them (no database needed)."""

from __future__ import annotations

import json
import os
import queue
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

import click

from app.cli.context import CliContext, pass_cli
from extractors.base import ExtractionError, ExtractionResult, ExtractOptions

if TYPE_CHECKING:
    from extractors.isolation import InProcessExtractor, IsolatedExtractor

    Extractor = IsolatedExtractor | InProcessExtractor

# Blocks listed by ``--json`` (a 2,000-page PDF would otherwise print hundreds of thousands).
MAX_BLOCKS = 2000


def attachment_outcomes(result: ExtractionResult) -> list[dict[str, Any]]:
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
                       for item in attachment_outcomes(child))
    return out


def _completed(path: str, result: ExtractionResult) -> dict[str, Any]:
    return {"path": path, "status": "completed", **result.report(), "title": result.title,
            "markdown": result.markdown,
            "page_text": [{"number": p.number, "text": p.markdown} for p in result.pages],
            "tables": [asdict(t) for t in result.tables], "attachments": attachment_outcomes(result),
            # The PDF structure stage's blocks (kind, level, page, box, text), in reading order.
            "blocks": [block for p in result.pages for block in p.blocks][:MAX_BLOCKS]}


def _print_markdown(outcome: dict[str, Any], result: ExtractionResult) -> None:
    click.echo(result.markdown)
    for item in outcome["attachments"]:
        click.echo(f"\n---\nattachment {item['name']}: {item['status']}"
                   + (f" ({item['error_code']})" if item["error_code"] else ""))
        if item["markdown"]:
            click.echo(item["markdown"])


def _parse_one(path: str, extractor: Extractor, options: ExtractOptions,
               timeout: float) -> tuple[dict[str, Any], ExtractionResult | None]:
    """One file's outcome (completed or failed, with its seconds) and its result if any."""
    with open(path, "rb") as handle:
        data = handle.read()
    started = time.monotonic()
    result: ExtractionResult | None = None
    try:
        result = extractor.extract(data, filename=os.path.basename(path), options=options,
                                   timeout=timeout)
    except ExtractionError as exc:
        outcome: dict[str, Any] = {"path": path, "status": "failed", "error_code": exc.code,
                                   "error_message": exc.message,
                                   "attempts": [asdict(a) for a in exc.attempts]}
    else:
        outcome = _completed(path, result)
    outcome["seconds"] = round(time.monotonic() - started, 3)
    return outcome, result


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per file: extractor, route, attempts, quality, per-page text.")
@click.option("--password", default=None, help="Password for encrypted PDFs and Office files.")
@click.option("--isolation/--no-isolation", default=None,
              help="Parse in a killable child process (default: PAGEMILL_EXTRACT_ISOLATION).")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Files parsed at once, each by its own parser; output stays in argument order.")
@pass_cli
def parse(cli: CliContext, paths: tuple[str, ...], as_json: bool, password: str | None,
          isolation: bool | None, jobs: int) -> None:
    """Route and extract files without indexing them; print Markdown or JSON.

    Every file ends with text or a failure code; the exit status is 1 if any failed."""
    from extractors.isolation import InProcessExtractor, IsolatedExtractor

    config = cli.config
    isolated = config.extraction.isolation if isolation is None else isolation
    options = config.extract_options(password)
    # In-process parsing shares one interpreter, so more than one at a time gains nothing.
    parsers = min(jobs, len(paths)) if isolated else 1
    idle: queue.SimpleQueue[Extractor] = queue.SimpleQueue()
    made: list[Extractor] = []
    for _ in range(parsers):
        made.append(IsolatedExtractor(memory_limit_bytes=config.extraction.memory_limit) if isolated
                    else InProcessExtractor())
        idle.put(made[-1])

    def run(path: str) -> tuple[dict[str, Any], ExtractionResult | None]:
        extractor = idle.get()
        try:
            return _parse_one(path, extractor, options, config.extraction.hard_timeout)
        finally:
            idle.put(extractor)

    failed = 0
    try:
        with ThreadPoolExecutor(max_workers=parsers, thread_name_prefix="pagemill-parse") as pool:
            for outcome, result in pool.map(run, paths):  # in argument order, as each is ready
                if outcome["status"] == "failed":
                    failed += 1
                if as_json:
                    click.echo(json.dumps(outcome, ensure_ascii=False, default=str))
                elif result is None:
                    click.echo(f"{outcome['path']}: failed: {outcome['error_code']}: "
                               f"{outcome['error_message']}", err=True)
                else:
                    _print_markdown(outcome, result)
    finally:
        for extractor in made:
            extractor.close()
    if failed:
        sys.exit(1)
