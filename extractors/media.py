"""The media route: audio and video read as their transcript, with times.

ffprobe says what the file holds (duration, streams); ffmpeg makes one mono 16 kHz FLAC track
of it (``-vn -ac 1 -ar 16000``: small uploads, and what speech models resample to anyway) and,
in the same pass, finds the silences (``silencedetect``).  A track longer than a provider
takes is cut at silences into pieces with a little overlap, each piece's offset kept; the
pieces go to the transcription providers (:mod:`extractors.transcribers`), their segments are
shifted back to absolute times, and the overlap's duplicates are dropped.  The Markdown is the
transcript, a timestamp per paragraph; the segments are kept in the result's signals.

What an upload may make ffmpeg do is confined (:func:`input_options`):

- *Only the upload's bytes are read.*  ffmpeg picks its demuxer by content unless told, and some
  demuxers read a list of other inputs and open them: a playlist (``hls``) or a concat list
  behind an ID3 tag passes for an MP3 and would pull in a local file or a URL.  The demuxers
  allowed for an upload are those of its sniffed type only (:data:`DEMUXERS`), none of which
  follows a name in the file; ffprobe guesses among them alone (``-format_whitelist``), ffmpeg
  is then told the one it found (``-f``), and a file that reads as anything else fails as
  ``unsupported``.  The only protocol is ``file`` (``-protocol_whitelist``), for the one path
  given: a pipe would do for some formats, but an MP4 with its index at the end decodes to
  nothing without seeking, and a WAV or an Ogg stream read from a pipe has no duration.
- *Cost follows the bytes sent.*  A header may claim hours the file cannot hold (a 3.6 kB WAV
  declaring 1 Hz plays for an hour, seven provider calls): an upload lasting longer than its
  size at ``min_bytes_per_second`` fails as ``too_large``, by its probed duration before
  decoding and by its decoded track's, and decoding stops a second past that length.
- *Messages name no worker path.*  ffmpeg names its input in its errors; every message this
  module raises says "the upload" (or the file's own name) instead of the temporary path.
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
from extractors.mime import (
    MIME_FLAC,
    MIME_M4A,
    MIME_M4V,
    MIME_MKV,
    MIME_MOV,
    MIME_MP3,
    MIME_MP4,
    MIME_OGG,
    MIME_WAV,
    MIME_WEBM,
)
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

# The ffmpeg demuxers that may read an upload of each sniffed type.  Each reads the bytes it is
# given and nothing else: none opens a file or URL the input names, unlike the playlists and
# lists ffmpeg would otherwise choose by content (hls, concat, dash, ...) or image2, which
# expands a name pattern.  An ID3 tag may also head ADTS AAC, which filetype calls audio/mpeg.
DEMUXERS: dict[str, tuple[str, ...]] = {
    MIME_MP3: ("mp3", "aac"),
    MIME_WAV: ("wav",),
    MIME_FLAC: ("flac",),
    MIME_OGG: ("ogg",),
    MIME_M4A: ("mov",), MIME_MP4: ("mov",), MIME_M4V: ("mov",), MIME_MOV: ("mov",),
    MIME_WEBM: ("matroska",), MIME_MKV: ("matroska",),
}
ANY_MEDIA_DEMUXERS = tuple(sorted({name for names in DEMUXERS.values() for name in names}))
# The track and its pieces are this module's own FLAC.
TRACK_DEMUXERS = ("flac",)
# mov can point at media in other files ("data references"); ffmpeg does not follow them by
# default, and is told so, in case a build or a later version differs.  ffmpeg (unlike ffprobe)
# refuses an option the demuxer it runs lacks, so these go only where that demuxer is the one
# allowed (every upload's; only a caller of to_track without a demuxer relies on the default).
_DEMUXER_OPTIONS: dict[str, tuple[str, ...]] = {"mov": ("-enable_drefs", "0")}
# The upload's name in the work folder; messages call it "the upload".
_UPLOAD = "source"
_REFUSED_FORMAT = re.compile(r"\[([\w,]+) @ 0x[0-9a-f]+\] Format not on whitelist")


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
    # The fewest bytes a second of upload may take (0: no floor): media lasting longer than its
    # size allows at this rate are refused, so a header cannot claim hours of provider time
    # for a few bytes.  Measured lows: speech in Speex at 2.15 kbit/s (Ogg) 379 B/s, in Opus at
    # 6 kbit/s 811 B/s; digital silence in AAC at 8 kbit/s (M4A) 127 B/s, in FLAC 177 B/s.
    # Half the lowest is 64 B/s, which still refuses a 1 Hz WAV header by 64 times.
    min_bytes_per_second: float = 64.0
    # Seconds the worker reserved against the key's transcription limit for this recording (by
    # its header: app/services/transcription_metering.py); None when no limit applies.  A track that
    # decodes to more than that (a header that understates the length) is refused before any
    # provider hears it, as the reservation would have refused the true length.
    transcribe_at_most: float | None = None
    transcription: TranscriptionSettings = field(default_factory=TranscriptionSettings)


@dataclass(frozen=True)
class Probe:
    """What ffprobe found: the duration (``None`` when the file does not say), the streams,
    and the demuxer that read it (one of those allowed; decoding uses the same)."""

    duration: float | None
    streams: list[dict[str, Any]]
    demuxer: str | None = None

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


def _temporary_path() -> re.Pattern[str]:
    roots = sorted({tempfile.gettempdir(), str(Path(tempfile.gettempdir()).resolve())}, key=len,
                   reverse=True)
    return re.compile(r"(?:file:)?(?:" + "|".join(re.escape(root) for root in roots) +
                      r")/[^\s:'\"]*")


def _named(match: re.Match[str]) -> str:
    name = Path(match.group(0)).name
    return "the upload" if name == _UPLOAD else name or "a temporary file"


def without_paths(text: str) -> str:
    """``text`` with each path in the temporary folder (the worker's, never the tenant's
    business) replaced by what the file is: "the upload", or its own name (``track.flac``)."""
    return _temporary_path().sub(_named, text)


def _last_line(text: str) -> str:
    """The last line ffmpeg wrote (its error), without temporary paths."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return without_paths(lines[-1]) if lines else "no message"


def input_options(path: Path, demuxers: tuple[str, ...], force: bool) -> list[str]:
    """ffmpeg's or ffprobe's options to read ``path`` and nothing else, then its URL.

    Only ``demuxers`` may read it (``-format_whitelist``; with ``force``, which needs exactly
    one, that one is named with ``-f`` and nothing is guessed) and only the ``file`` protocol
    may open anything (``-protocol_whitelist``); what a demuxer could fetch besides, none of
    :data:`DEMUXERS` does.  ``file:`` before the path keeps a colon in it from naming a protocol.
    ffmpeg wants ``-i`` before the URL, ffprobe nothing.
    """
    if force and len(demuxers) != 1:
        raise ValueError(f"one demuxer can be forced, not {demuxers}")
    options = ["-protocol_whitelist", "file", "-format_whitelist", ",".join(demuxers)]
    if force:
        options += ["-f", demuxers[0]]
    if len(demuxers) == 1:  # the demuxer that will read it, if any does: its options are safe to give
        options += _DEMUXER_OPTIONS.get(demuxers[0], ())
    return [*options, f"file:{path}"]


def _refused(stderr: str, demuxers: tuple[str, ...], what: str) -> ExtractionError | None:
    """``unsupported`` when ffmpeg found the file to be of a format not allowed for it."""
    found = _REFUSED_FORMAT.search(stderr)
    if found is None:
        return None
    return ExtractionError("unsupported", f"{what} reads as {found.group(1)!r} to ffmpeg, not as "
                           f"{' or '.join(demuxers)}, the only formats it is read as (whatever names other "
                           "files or URLs, such as a playlist or a list of files, is never followed)")


def probe(path: Path, ffprobe: str, demuxers: tuple[str, ...] = ANY_MEDIA_DEMUXERS,
          what: str = "the upload") -> Probe:
    """Duration, streams and demuxer from ffprobe's JSON, read by one of ``demuxers`` only
    (:func:`input_options`): ``unsupported`` when the file is of another format, ``corrupt``
    when it cannot be read.  ``what`` names the file in messages."""
    done = _run([ffprobe, "-v", "error", *input_options(path, demuxers, force=False),
                 "-print_format", "json", "-show_format", "-show_streams"], timeout=60)
    if done.returncode != 0:
        raise _refused(done.stderr, demuxers, what) or \
            ExtractionError("corrupt", f"ffprobe cannot read {what}: {_last_line(done.stderr)}")
    try:
        info = json.loads(done.stdout or "{}")
    except json.JSONDecodeError as exc:
        raise ExtractionError("corrupt", f"ffprobe's report on {what} is not JSON") from exc
    named = str(info.get("format", {}).get("format_name", "")).split(",")
    demuxer = next((d for d in demuxers if d in named), None)
    if demuxer is None:  # the whitelist should have refused it already
        raise ExtractionError("unsupported", f"{what} reads as {','.join(named)!r} to ffmpeg, not as "
                              f"{' or '.join(demuxers)}")
    streams = [{key: s.get(key) for key in ("index", "codec_type", "codec_name", "duration",
                                            "sample_rate", "channels", "width", "height") if key in s}
               for s in info.get("streams", [])]
    raw = info.get("format", {}).get("duration")
    durations = [float(s["duration"]) for s in streams if s.get("duration") not in (None, "N/A")]
    duration = float(raw) if raw not in (None, "N/A") else (max(durations) if durations else None)
    return Probe(duration, streams, demuxer)


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
             duration: float | None, demuxer: str | None = None,
             longest: float | None = None) -> list[tuple[float, float]]:
    """The mono 16 kHz FLAC track of ``source`` in ``target``; returns the silences found.

    ``source`` is read by ``demuxer`` alone (the one :func:`probe` found; without it, by
    whichever of :data:`ANY_MEDIA_DEMUXERS` ffmpeg guesses) and decoding stops one second past
    ``longest`` (default: ``settings.max_seconds``), so that a file whose header lies about its
    length is still caught by the track's duration, at the cost of that second.
    """
    detect = f"silencedetect=noise={settings.silence_db}dB:d={settings.silence_seconds}"
    limit = settings.max_seconds if longest is None else longest
    source_input = input_options(source, (demuxer,), force=True) if demuxer else \
        input_options(source, ANY_MEDIA_DEMUXERS, force=False)
    done = _run([ffmpeg, "-nostdin", "-hide_banner", "-nostats", *source_input[:-1], "-i", source_input[-1],
                 "-t", str(limit + 1), "-vn", "-sn", "-dn", "-af", detect, "-ac", "1",
                 "-ar", str(SAMPLE_RATE), "-c:a", "flac", "-y", str(target)],
                timeout=60 + (duration or limit) / 4)
    if done.returncode != 0 or not target.exists():
        raise _refused(done.stderr, (demuxer,) if demuxer else ANY_MEDIA_DEMUXERS, "the upload") or \
            ExtractionError("corrupt", f"ffmpeg cannot decode the audio: {_last_line(done.stderr)}")
    return parse_silences(done.stderr, duration or 0.0)


def longest_plausible(size: int, settings: MediaSettings) -> float:
    """How long an upload of ``size`` bytes may last: ``settings.max_seconds``, and no more than
    its bytes at ``settings.min_bytes_per_second`` (when that is set)."""
    if settings.min_bytes_per_second <= 0:
        return settings.max_seconds
    return min(settings.max_seconds, size / settings.min_bytes_per_second)


def check_duration(duration: float | None, size: int, settings: MediaSettings, decoded: bool) -> None:
    """``too_large`` when ``duration`` is past the limit or past what ``size`` bytes can hold;
    ``decoded`` says whether it is the decoded track's (else the upload's declared one)."""
    if duration is None:
        return
    said = "decoded to at least" if decoded else "lasts"
    if duration > settings.max_seconds:
        raise ExtractionError("too_large", f"the upload {said} {duration:.0f} s; the limit is "
                              f"{settings.max_seconds:.0f} s (PAGEMILL_MEDIA_MAX_SECONDS)")
    floor = settings.min_bytes_per_second
    if floor > 0 and duration > size / floor:
        raise ExtractionError("too_large", f"the upload {said} {duration:.0f} s in {size} bytes "
                              f"({size / duration:.1f} bytes a second), but no real recording takes under "
                              f"{floor:g} (PAGEMILL_MEDIA_MIN_BYTES_PER_SECOND): its header claims more "
                              f"time than its bytes hold, which is {size / floor:.0f} s at most")


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
    """Piece ``index`` of this module's FLAC ``track``: ``span``, as FLAC in ``workdir``."""
    target = workdir / f"piece-{index:04d}.flac"
    track_input = input_options(track, TRACK_DEMUXERS, force=True)
    # -ss before -i seeks accurately when decoding (the default): offsets are exact to a sample.
    done = _run([ffmpeg, "-nostdin", "-v", "error", "-ss", f"{span.start:.3f}", "-t",
                 f"{span.end - span.start:.3f}", *track_input[:-1], "-i", track_input[-1], "-c:a", "flac",
                 "-y", str(target)], timeout=120)
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
    demuxers = DEMUXERS.get(request.mime_type)
    if demuxers is None:
        raise ExtractionError("unsupported", f"{request.mime_type} is not a type the media route reads")
    size = len(request.data)
    with tempfile.TemporaryDirectory(prefix="pagemill-media-") as folder:
        workdir = Path(folder)
        source = workdir / _UPLOAD
        source.write_bytes(request.data)
        info = probe(source, ffprobe, demuxers, what=f"this {request.mime_type}")
        if not info.has_audio:
            raise ExtractionError("no_audio", f"this {request.mime_type} has no audio stream")
        check_duration(info.duration, size, settings, decoded=False)
        if not settings.transcription.usable:
            raise no_transcriber_error(settings.transcription)
        started = time.monotonic()
        track = workdir / "track.flac"
        silences = to_track(source, track, settings, ffmpeg, info.duration, info.demuxer,
                            longest_plausible(size, settings))
        decoded = probe(track, ffprobe, TRACK_DEMUXERS, what="the track").duration
        check_duration(decoded, size, settings, decoded=True)
        duration = decoded or info.duration or 0.0
        reserved = settings.transcribe_at_most
        if reserved is not None and duration > reserved + 1.0:
            raise ExtractionError("quota_exceeded", f"the upload decoded to {duration:.0f} s, more "
                                  f"than the {reserved:.0f} s reserved for it against its key's "
                                  "transcription limit (its header said less): nothing was sent")
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
    signals = {"duration_s": round(duration, 3), "demuxer": info.demuxer, "streams": info.streams,
               "pieces": pieces, "silences": len(silences), "prepare_seconds": prepared,
               "cooling": cooled, "segments": [asdict(s) for s in merged]}
    return ExtractionResult(pages=[Page(transcript_markdown(merged), engine="+".join(providers))],
                            extractor="+".join(providers) or "transcription", mime_type=request.mime_type,
                            attempts=list(attempts), route=route.name, signals=signals)
