"""The media route: audio and video read as their transcript, with times.

ffprobe says what the file holds (duration, streams); ffmpeg makes one mono 16 kHz FLAC track
of it (``-vn -ac 1 -ar 16000``: small uploads, and what speech models resample to anyway) and,
in the same pass, finds the silences (``silencedetect``).  A track longer than a provider
takes is cut at silences into pieces with a little overlap, each piece's offset kept; the
pieces go to the transcription providers (:mod:`extractors.transcribers`), their segments are
shifted back to absolute times, and the overlap's duplicates are dropped.  The Markdown is the
transcript, a timestamp per paragraph; the segments are kept in the result's signals.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from extractors.base import ExtractionError, ExtractionResult, ExtractOptions, Page
from extractors.engine import Request, Route
from extractors.transcribers import (
    Piece,
    Segment,
    TranscriptionAttempt,
    TranscriptionSettings,
    cooling_from,
    no_transcriber_error,
    transcribe,
)

SAMPLE_RATE = 16_000
# FLAC never stores more than the raw PCM (16-bit mono: 32 kB/s) plus its frame headers, so a
# piece of piece_bytes / 32 kB/s seconds (less a margin) always fits the provider's byte limit.
_PCM_BYTES_PER_SECOND = SAMPLE_RATE * 2
_SILENCE = re.compile(r"silence_(start|end): (-?[0-9.]+)")


@dataclass(frozen=True)
class MediaSettings:
    """Limits and splitting of media documents (app.config builds it from the environment)."""

    max_seconds: float = 4 * 3600.0
    # A piece sent to a provider: at most this long and this large (Groq and OpenAI take 25 MB).
    piece_seconds: float = 600.0
    piece_bytes: int = 24 * 1024 * 1024
    overlap_seconds: float = 1.5
    # What counts as silence for cutting: quieter than silence_db for at least silence_seconds.
    silence_db: float = -35.0
    silence_seconds: float = 0.5
    transcription: TranscriptionSettings = field(default_factory=TranscriptionSettings)


@dataclass(frozen=True)
class Probe:
    duration: float | None
    streams: list[dict[str, Any]]

    @property
    def has_audio(self) -> bool:
        return any(s.get("codec_type") == "audio" for s in self.streams)


@dataclass(frozen=True)
class Span:
    """Where a piece starts and ends in the track, and up to where its segments are kept
    (``keep_until``: the next piece's start; the rest is overlap the next piece transcribes)."""

    start: float
    end: float
    keep_until: float


def _tools() -> tuple[str, str]:
    ffmpeg, ffprobe = shutil.which("ffmpeg"), shutil.which("ffprobe")
    if not ffmpeg or not ffprobe:
        raise ExtractionError("engine_unavailable", "audio and video need ffmpeg and ffprobe, which are "
                              "not installed here (Debian: apt-get install ffmpeg)")
    return ffmpeg, ffprobe


def _run(command: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as exc:
        raise ExtractionError("timeout", f"{Path(command[0]).name} took over {timeout:.0f} s") from exc


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


def probe(path: Path, ffprobe: str) -> Probe:
    """Duration and streams from ffprobe's JSON; ``corrupt`` when it cannot read the file."""
    done = _run([ffprobe, "-v", "error", "-print_format", "json", "-show_format", "-show_streams",
                 str(path)], timeout=60)
    if done.returncode != 0:
        raise ExtractionError("corrupt", f"ffprobe cannot read the media: {_last_line(done.stderr)}")
    info = json.loads(done.stdout or "{}")
    streams = [{key: s.get(key) for key in ("index", "codec_type", "codec_name", "duration",
                                            "sample_rate", "channels", "width", "height") if key in s}
               for s in info.get("streams", [])]
    raw = info.get("format", {}).get("duration")
    durations = [float(s["duration"]) for s in streams if s.get("duration") not in (None, "N/A")]
    duration = float(raw) if raw not in (None, "N/A") else (max(durations) if durations else None)
    return Probe(duration, streams)


def parse_silences(log: str, duration: float) -> list[tuple[float, float]]:
    """(start, end) of each silence silencedetect reported; one still open at the end of the
    track ends with it (and is left out when the track's duration is not known)."""
    silences: list[tuple[float, float]] = []
    start: float | None = None
    for kind, value in _SILENCE.findall(log):
        if kind == "start":
            start = max(0.0, float(value))
        elif start is not None:
            silences.append((start, float(value)))
            start = None
    if start is not None and duration > start:
        silences.append((start, duration))
    return silences


def to_track(source: Path, target: Path, settings: MediaSettings, ffmpeg: str,
             duration: float | None) -> list[tuple[float, float]]:
    """The mono 16 kHz FLAC track of ``source`` in ``target``; returns the silences found."""
    detect = f"silencedetect=noise={settings.silence_db}dB:d={settings.silence_seconds}"
    # -t: a file whose header lies about its length still stops one second past the limit.
    done = _run([ffmpeg, "-nostdin", "-hide_banner", "-nostats", "-i", str(source), "-t",
                 str(settings.max_seconds + 1), "-vn", "-sn", "-dn", "-af", detect, "-ac", "1",
                 "-ar", str(SAMPLE_RATE), "-c:a", "flac", "-y", str(target)],
                timeout=60 + (duration or settings.max_seconds) / 4)
    if done.returncode != 0 or not target.exists():
        raise ExtractionError("corrupt", f"ffmpeg cannot decode the audio: {_last_line(done.stderr)}")
    return parse_silences(done.stderr, duration or 0.0)


def plan_pieces(duration: float, silences: list[tuple[float, float]], max_seconds: float,
                overlap: float) -> list[Span]:
    """Cut [0, duration] into pieces of at most ``max_seconds`` (overlap included).

    Each cut is in the middle of the latest silence that leaves the piece at least half its
    maximum; with no such silence the piece is cut hard at its maximum.  A piece runs
    ``overlap`` seconds past its cut, where the next piece starts, so a word at a hard cut is
    heard whole by one of them.
    """
    if max_seconds <= overlap * 2:
        raise ValueError(f"a piece of {max_seconds} s cannot hold an overlap of {overlap} s")
    middles = sorted((a + b) / 2 for a, b in silences)
    spans: list[Span] = []
    start = 0.0
    while duration - start > max_seconds:
        latest = start + max_seconds - overlap
        fits = [m for m in middles if start + max_seconds / 2 <= m <= latest]
        cut = fits[-1] if fits else latest
        spans.append(Span(start, cut + overlap, cut))
        start = cut
    spans.append(Span(start, duration, duration))
    return spans


def cut_piece(track: Path, span: Span, index: int, ffmpeg: str, workdir: Path) -> Piece:
    target = workdir / f"piece-{index:04d}.flac"
    # -ss before -i seeks accurately when decoding (the default): offsets are exact to a sample.
    done = _run([ffmpeg, "-nostdin", "-v", "error", "-ss", f"{span.start:.3f}", "-t",
                 f"{span.end - span.start:.3f}", "-i", str(track), "-c:a", "flac", "-y", str(target)],
                timeout=120)
    if done.returncode != 0:
        raise ExtractionError("corrupt", f"ffmpeg cannot cut piece {index}: {_last_line(done.stderr)}")
    return Piece(index, span.start, span.end - span.start, target.read_bytes(), target.name)


def _repeats(segment: Segment, kept: Segment) -> bool:
    """Whether ``segment``, from the piece after ``kept``'s, is what ``kept`` already says: the
    same words around the cut (each piece hears them in another context, so their times differ
    a little), or mostly the same stretch of time (the tail of a sound cut hard)."""
    if segment.text == kept.text and segment.start < kept.end + 1.0:
        return True
    shared = min(kept.end, segment.end) - max(kept.start, segment.start)
    return shared > 0 and shared >= (segment.end - segment.start) / 2


def merge(pieces: list[tuple[Span, list[Segment]]]) -> list[Segment]:
    """Segments of all pieces in absolute time, each kept by the piece that owns its middle
    (a piece owns its span up to ``keep_until``); the first segment of the next piece that
    repeats the last one kept only extends that one's end."""
    merged: list[Segment] = []
    for number, (span, segments) in enumerate(pieces):
        first = True
        for segment in segments:
            shifted = Segment(round(segment.start + span.start, 3), round(segment.end + span.start, 3),
                              segment.text)
            middle = (shifted.start + shifted.end) / 2
            if middle >= span.keep_until and span.keep_until < span.end:
                continue  # in the overlap: the next piece has it whole
            if first and number and merged and _repeats(shifted, merged[-1]):
                kept = merged[-1]
                merged[-1] = Segment(kept.start, max(kept.end, shifted.end), kept.text)
                continue
            first = False
            merged.append(shifted)
    return merged


def timestamp(seconds: float) -> str:
    """``mm:ss``, or ``h:mm:ss`` from an hour on."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def paragraphs(segments: list[Segment], pause: float = 2.0, longest: float = 60.0) -> list[list[Segment]]:
    """Segments grouped into paragraphs: a new one after a pause or once one runs long."""
    groups: list[list[Segment]] = []
    for segment in segments:
        if groups and segment.start - groups[-1][-1].end < pause and \
                segment.end - groups[-1][0].start <= longest:
            groups[-1].append(segment)
        else:
            groups.append([segment])
    return groups


def transcript_markdown(segments: list[Segment]) -> str:
    return "\n\n".join(f"[{timestamp(group[0].start)}] " + " ".join(s.text for s in group)
                       for group in paragraphs(segments))


def run(request: Request, route: Route, options: ExtractOptions) -> ExtractionResult:
    """Probe, make the track, split it, transcribe each piece, merge: the transcript."""
    settings = options.media or MediaSettings()
    ffmpeg, ffprobe = _tools()
    attempts: list[TranscriptionAttempt] = []
    with tempfile.TemporaryDirectory(prefix="pagemill-media-") as folder:
        workdir = Path(folder)
        source = workdir / "source"
        source.write_bytes(request.data)
        info = probe(source, ffprobe)
        if not info.has_audio:
            raise ExtractionError("no_audio", f"this {request.mime_type} has no audio stream")
        if info.duration is not None and info.duration > settings.max_seconds:
            raise ExtractionError("too_large", f"media lasts {info.duration:.0f} s; the limit is "
                                  f"{settings.max_seconds:.0f} s (PAGEMILL_MEDIA_MAX_SECONDS)")
        if not settings.transcription.usable:
            raise no_transcriber_error(settings.transcription)
        started = time.monotonic()
        track = workdir / "track.flac"
        silences = to_track(source, track, settings, ffmpeg, info.duration)
        duration = probe(track, ffprobe).duration or info.duration or 0.0
        if duration > settings.max_seconds:
            raise ExtractionError("too_large", f"media lasts over {settings.max_seconds:.0f} s "
                                  "(PAGEMILL_MEDIA_MAX_SECONDS)")
        byte_bound = settings.piece_bytes / _PCM_BYTES_PER_SECOND * 0.97
        spans = plan_pieces(duration, silences, min(settings.piece_seconds, byte_bound),
                            settings.overlap_seconds)
        prepared = round(time.monotonic() - started, 3)
        heard: list[tuple[Span, list[Segment]]] = []
        pieces: list[dict[str, Any]] = []
        cooling = cooling_from(settings.transcription)
        cooled = sorted(cooling)  # by other documents' 429s: asked last from the start
        for index, span in enumerate(spans):
            piece = cut_piece(track, span, index, ffmpeg, workdir)
            pieces.append({"index": index, "offset_s": round(span.start, 3),
                           "duration_s": round(piece.duration_s, 3), "bytes": len(piece.data)})
            try:
                segments, tried = transcribe(piece, settings.transcription, cooling)
            except ExtractionError as exc:
                exc.attempts = attempts + list(exc.attempts)
                raise
            attempts.extend(tried)
            heard.append((span, segments))
    merged = merge(heard)
    providers = sorted({a.engine for a in attempts if a.chosen})
    signals = {"duration_s": round(duration, 3), "streams": info.streams, "pieces": pieces,
               "silences": len(silences), "prepare_seconds": prepared, "cooling": cooled,
               "segments": [asdict(s) for s in merged]}
    return ExtractionResult(pages=[Page(transcript_markdown(merged), engine="+".join(providers))],
                            extractor="+".join(providers) or "transcription", mime_type=request.mime_type,
                            attempts=list(attempts), route=route.name, signals=signals)
