"""The general ways a route runs its engines: one engine, or a chain that escalates on quality.

The special routes have pipelines of their own: PDFs (:mod:`extractors.pdf`), images
(:mod:`extractors.images`), mail (:mod:`extractors.mail`).  Every engine run of a chain is
recorded as an Attempt.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import replace

from extractors.base import Attempt, EngineUnavailable, ExtractionError, ExtractionResult, ExtractOptions
from extractors.engine import Engine, Pipeline, Request, Route
from extractors.quality import assess
from extractors.text_decoding import as_utf8


def timed(engine: Engine, request: Request, options: ExtractOptions
          ) -> tuple[ExtractionResult | None, Attempt, Exception | None]:
    """Run one engine: its result (``None`` on failure), the Attempt, and the error if any."""
    started = time.monotonic()
    try:
        result = engine.extract(request, options)
    except (ExtractionError, EngineUnavailable) as exc:
        code = exc.code if isinstance(exc, ExtractionError) else "engine_unavailable"
        return None, Attempt(engine.name, round(time.monotonic() - started, 3), error_code=code,
                             error=str(exc)), exc
    except Exception as exc:  # an engine bug fails over to the next engine, recorded
        return None, Attempt(engine.name, round(time.monotonic() - started, 3), error_code="engine_error",
                             error=f"{type(exc).__name__}: {exc}"), exc
    score = assess(result.markdown).score
    return result, Attempt(engine.name, round(time.monotonic() - started, 3), score=score), None


def chain(engines: Sequence[Engine], request: Request, options: ExtractOptions,
          route: str) -> ExtractionResult:
    """Run engines in order until one yields text of acceptable quality; keep the best."""
    attempts: list[Attempt] = []
    best: tuple[float, ExtractionResult, Attempt] | None = None
    last_error: Exception | None = None
    for engine in engines:
        result, attempt, error = timed(engine, request, options)
        attempts.append(attempt)
        if result is None:
            last_error = error
            continue
        score = attempt.score or 0.0
        if not result.markdown.strip():
            attempt.error_code, attempt.error = "no_text", f"{engine.name} returned no text"
            continue
        if best is None or score > best[0]:
            best = (score, result, attempt)
        if score >= options.quality_threshold:
            break
    if best is None:
        raise _no_result(last_error, attempts)
    _, result, attempt = best
    attempt.chosen = True
    result.attempts = attempts
    result.route = route
    return result


def _no_result(last_error: Exception | None, attempts: list[Attempt]) -> ExtractionError:
    """Why a chain ended without text: the last engine's own code, when it names one."""
    if isinstance(last_error, ExtractionError) and last_error.code != "no_text":
        return ExtractionError(last_error.code, last_error.message, attempts)
    if isinstance(last_error, EngineUnavailable):
        return ExtractionError("unsupported", str(last_error), attempts)
    return ExtractionError("no_text", "no engine extracted any text from the document", attempts)


def run_one(request: Request, route: Route, options: ExtractOptions) -> ExtractionResult:
    """The route's single engine, its errors passed on as they are (no Attempt recorded)."""
    (engine,) = route.fast
    result = engine.extract(request, options)
    result.route = route.name
    return result


def run_chain(request: Request, route: Route, options: ExtractOptions) -> ExtractionResult:
    """The route's engines as a :func:`chain`."""
    return chain(route.fast, request, options, route.name)


def on_utf8(pipeline: Pipeline) -> Pipeline:
    """``pipeline`` given UTF-16 text re-encoded as UTF-8 (engines mis-read UTF-16 mail and XML)."""
    # ``__wrapped__`` (and no borrowed name) lets the routing table's checks and its
    # documentation see which pipeline runs underneath.
    @functools.wraps(pipeline, assigned=())
    def run(request: Request, route: Route, options: ExtractOptions) -> ExtractionResult:
        return pipeline(replace(request, data=as_utf8(request.data)), route, options)

    return run
