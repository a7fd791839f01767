"""Speech-to-text providers behind the OpenAI-compatible ``POST {base}/audio/transcriptions``.

Groq and OpenAI speak the same wire format (multipart ``file`` and ``model``,
``response_format=verbose_json``, ``timestamp_granularities[]=segment``), so one client, the
``openai`` SDK with a per-provider base URL, talks to both.  This module sends one audio piece
to the providers in their configured order and decides, from each answer, whether the piece
goes to the next provider (429 past the Retry-After cap, timeouts, connection errors, 5xx) or
the document fails (any other 4xx: the provider refused this input).  Every call is recorded
as a :class:`TranscriptionAttempt`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from extractors.base import Attempt, ExtractionError

# The variables a deployment sets to enable each provider; named in the no_transcriber error.
PROVIDER_VARIABLES = {"groq": "GROQ_API_KEY", "openai": "OPENAI_API_KEY"}
DEFAULT_BASE_URLS = {"groq": "https://api.groq.com/openai/v1", "openai": "https://api.openai.com/v1"}
# whisper-1: OpenAI's gpt-4o transcribe models return no segments, and segments carry the times.
DEFAULT_MODELS = {"groq": "whisper-large-v3-turbo", "openai": "whisper-1"}


@dataclass(frozen=True)
class TranscriberSettings:
    """One provider as configured (``api_key`` may be unset: the provider is then skipped)."""

    name: str
    api_key: str | None = field(default=None, repr=False)  # never in a log or traceback
    base_url: str | None = None
    model: str = ""
    timeout: float = 300.0


@dataclass(frozen=True)
class TranscriptionSettings:
    """The providers in the order they are tried, and how long a 429 may be waited out."""

    providers: tuple[TranscriberSettings, ...] = ()
    # A 429 whose Retry-After is at most this many seconds is waited out and the same provider
    # asked again (once per piece); a longer one sends the piece to the next provider.
    retry_after_cap: float = 30.0
    # Providers other workers found rate-limited, with the epoch time their cool-down ends
    # (app/domain/provider_cooldowns.py, read by the pipeline): asked last until then.
    cooling_until: tuple[tuple[str, float], ...] = ()

    @property
    def usable(self) -> tuple[TranscriberSettings, ...]:
        return tuple(p for p in self.providers if p.api_key)


@dataclass
class TranscriptionAttempt(Attempt):
    """One provider call for one piece: where the piece sits in the media, and the answer."""

    piece: int | None = None
    offset_s: float | None = None
    duration_s: float | None = None
    # The HTTP status, or None when no answer came (timeout, connection error).
    status: int | None = None
    # A 429's Retry-After in seconds (None when absent or an HTTP date).
    retry_after_s: float | None = None


@dataclass(frozen=True)
class Segment:
    """A stretch of speech with its text, in seconds from the start of the media."""

    start: float
    end: float
    text: str


@dataclass(frozen=True)
class Piece:
    """A stretch of the mono 16 kHz track sent to a provider on its own."""

    index: int
    offset_s: float
    duration_s: float
    data: bytes
    filename: str = "piece.flac"


def no_transcriber_error(settings: TranscriptionSettings | None) -> ExtractionError:
    order = [p.name for p in settings.providers] if settings else list(PROVIDER_VARIABLES)
    variables = " or ".join(PROVIDER_VARIABLES.get(name, f"{name.upper()}_API_KEY") for name in order)
    return ExtractionError("no_transcriber", "audio and video need a transcription provider and none "
                           f"is configured: set {variables or 'GROQ_API_KEY or OPENAI_API_KEY'} "
                           "(PAGEMILL_TRANSCRIBERS gives their order)")


@lru_cache(maxsize=8)
def _client(settings: TranscriberSettings) -> Any:
    # Imported here: the SDK is only needed by workers that see media.  Its own retries are
    # off (max_retries=0): falling over to the next provider is this module's decision.
    from openai import OpenAI

    return OpenAI(api_key=settings.api_key,
                  base_url=settings.base_url or DEFAULT_BASE_URLS.get(settings.name),
                  timeout=settings.timeout, max_retries=0)


def _segments(response: Any) -> list[Segment]:
    raw = getattr(response, "segments", None) or []
    segments = [Segment(float(s.start), float(s.end), str(s.text).strip()) for s in raw]
    if not segments and str(getattr(response, "text", "") or "").strip():
        # A provider that sent text but no segments: one segment over the whole piece.
        duration = float(getattr(response, "duration", 0.0) or 0.0)
        segments = [Segment(0.0, duration, str(response.text).strip())]
    return [s for s in segments if s.text]


def _retry_after(headers: Any) -> float | None:
    raw = headers.get("retry-after") if headers is not None else None
    try:
        return max(0.0, float(raw)) if raw is not None else None
    except ValueError:
        return None  # an HTTP date: treated as "too long to wait here"


def _call(provider: TranscriberSettings, piece: Piece) -> list[Segment]:
    response = _client(provider).audio.transcriptions.create(
        file=(piece.filename, piece.data, "audio/flac"), model=provider.model,
        response_format="verbose_json", timestamp_granularities=["segment"])
    return _segments(response)


def cooling_from(settings: TranscriptionSettings) -> dict[str, float]:
    """The shared cool-downs as :func:`transcribe`'s ``cooling`` (monotonic deadlines)."""
    now, wall = time.monotonic(), time.time()
    return {name: now + until - wall for name, until in settings.cooling_until if until > wall}


def transcribe(piece: Piece, settings: TranscriptionSettings, cooling: dict[str, float] | None = None,
               sleep: Callable[[float], None] = time.sleep
               ) -> tuple[list[Segment], list[TranscriptionAttempt]]:
    """The piece's segments (times relative to the piece) from the first provider that answers.

    ``cooling`` maps a provider to the monotonic time its last 429 asked us to wait until; the
    caller keeps it across the pieces of one document, so that a rate-limited provider is
    tried last (not skipped: it may be the only one) until then, and updated here.

    Raises ExtractionError: ``no_transcriber`` when no provider has a key, ``provider_error``
    on a 4xx other than 429 (the provider's message) or when every provider failed (each
    error named); the attempts travel with the error.
    """
    import openai

    providers = settings.usable
    if not providers:
        raise no_transcriber_error(settings)
    cooling = {} if cooling is None else cooling
    now = time.monotonic()
    providers = tuple(sorted(providers, key=lambda p: cooling.get(p.name, 0.0) > now))
    attempts: list[TranscriptionAttempt] = []
    for provider in providers:
        waited = False
        while True:
            started = time.monotonic()
            attempt = TranscriptionAttempt(engine=provider.name, seconds=0.0, piece=piece.index,
                                           offset_s=round(piece.offset_s, 3),
                                           duration_s=round(piece.duration_s, 3))
            attempts.append(attempt)
            try:
                segments = _call(provider, piece)
            except openai.APIStatusError as exc:
                attempt.seconds = round(time.monotonic() - started, 3)
                attempt.status, attempt.error_code = exc.status_code, "provider_error"
                attempt.error = f"{exc.status_code}: {exc.message}"
                if exc.status_code == 429:
                    delay = attempt.retry_after_s = _retry_after(exc.response.headers)
                    if not waited and delay is not None and delay <= settings.retry_after_cap:
                        waited = True
                        sleep(delay)
                        continue
                    attempt.error_code = "rate_limited"
                    cooling[provider.name] = time.monotonic() + (delay if delay is not None
                                                                 else settings.retry_after_cap)
                    break
                if exc.status_code >= 500:
                    break
                raise ExtractionError("provider_error", f"{provider.name} refused the audio "
                                      f"(piece {piece.index}): {attempt.error}",
                                      list[Attempt](attempts)) from exc
            except (openai.APITimeoutError, openai.APIConnectionError) as exc:
                # APITimeoutError is an APIConnectionError: both mean no answer came.
                attempt.seconds = round(time.monotonic() - started, 3)
                attempt.error_code = "timeout" if isinstance(exc, openai.APITimeoutError) else "unreachable"
                attempt.error = f"{type(exc).__name__}: {exc}"
                break
            attempt.seconds = round(time.monotonic() - started, 3)
            attempt.status, attempt.chosen = 200, True
            return segments, attempts
    failures = "; ".join(f"{a.engine}: {a.error}" for a in attempts)
    raise ExtractionError("provider_error", f"no transcription provider could transcribe piece "
                          f"{piece.index}: {failures}", list[Attempt](attempts))
