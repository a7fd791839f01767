"""The worker's side of the transcription limit (app/domain/transcription_quota.py): how long a
recording lasts before any provider hears it, the reservation of those seconds (or the
document's ``quota_exceeded`` failure), and the settlement to what was actually sent.

The duration is probed here, in the worker, before the extractor runs: the extractor may run
in a child process without the database (extractors/isolation.py), and the media route calls
the providers as soon as it has cut the first piece.  ffprobe runs once more than before (it
reads a header: milliseconds), confined as the route confines it (extractors/media.py's
demuxers of the sniffed type, the file protocol only), and a stream whose header has no
duration (a browser's WebM) is decoded once to count its seconds, which costs far less than
transcribing it.  A header that understates the length is not caught here: the settlement
charges the decoded length, which may take the key past its limit by that recording.
"""

from __future__ import annotations

import logging
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from sqlalchemy import Engine

from app.config import Config
from app.domain import transcription_quota
from app.domain.jobs import WorkDocument
from app.domain.transcription_quota import Refusal, Reservation
from extractors import ExtractionError, ExtractionResult
from extractors.media import DEMUXERS, MediaSettings, check_duration, input_options, longest_plausible, probe

log = logging.getLogger(__name__)

# ffmpeg's progress line: how far it has decoded ("time=00:01:02.50").
_DECODED = re.compile(r"time=(\d+):(\d{2}):(\d{2}(?:\.\d+)?)")
# Failures that come without the route's record of provider calls (the parser process was
# killed, or died): what was sent is unknown, so the reservation stays charged.
_UNACCOUNTED = frozenset({"timeout", "cancelled", "extractor_crashed", "internal_error"})


def _decoded_seconds(source: Path, ffmpeg: str, demuxer: str, longest: float) -> float | None:
    """Seconds ffmpeg decodes of the audio, read as the media route reads it (``demuxer`` only,
    at most ``longest`` + 1 s); None when it cannot say."""
    confined = input_options(source, (demuxer,), force=True)
    try:
        done = subprocess.run([ffmpeg, "-nostdin", "-hide_banner", *confined[:-1], "-i", confined[-1],
                               "-t", str(longest + 1), "-vn", "-sn", "-dn", "-f", "null", "-"],
                              capture_output=True, text=True, timeout=60 + longest / 4,
                              check=False, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None
    found = _DECODED.findall(done.stderr)
    if done.returncode != 0 or not found:
        return None
    hours, minutes, seconds = found[-1]
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds)


def recording_seconds(data: bytes, mime_type: str, settings: MediaSettings) -> float | None:
    """How many seconds of this recording the media route (extractors/media.py) will send to
    providers, or None when it will send none because it refuses the recording first: no
    ffmpeg (``engine_unavailable``), a type it does not read, no audio stream (``no_audio``),
    a duration over the limit or over what the bytes can hold (``too_large``).  The duration
    ffprobe reads, read as the route reads it (the type's demuxers only); else the decoded
    one; else the most the route would decode.  Raises ``corrupt`` or ``unsupported`` when
    ffprobe cannot read the file as its type, as the route would."""
    ffmpeg, ffprobe = shutil.which("ffmpeg"), shutil.which("ffprobe")
    demuxers = DEMUXERS.get(mime_type)
    if not ffmpeg or not ffprobe or demuxers is None:
        return None
    size = len(data)
    longest = longest_plausible(size, settings)
    with tempfile.TemporaryDirectory(prefix="pagemill-duration-") as folder:
        source = Path(folder) / "source"
        source.write_bytes(data)
        info = probe(source, ffprobe, demuxers, what=f"this {mime_type}")
        if not info.has_audio:
            return None
        try:
            check_duration(info.duration, size, settings, decoded=False)
        except ExtractionError:
            return None
        duration = info.duration
        if duration is None and info.demuxer is not None:
            duration = _decoded_seconds(source, ffmpeg, info.demuxer, longest)
    if duration is None:
        return longest
    return duration if duration <= longest else None


def reserve(engine: Engine, doc: WorkDocument, data: bytes, config: Config) -> Reservation | None:
    """Reserve the recording's seconds against its key's daily limit before it is extracted:
    the reservation (None: nothing will be sent, nothing to reserve), or ``quota_exceeded``
    when the key has not that many seconds left today."""
    if doc.mime_type is None:
        return None
    seconds = recording_seconds(data, doc.mime_type, config.media_settings())
    if seconds is None:
        return None
    with engine.begin() as conn:
        outcome = transcription_quota.reserve(conn, doc.job_id, seconds,
                                              config.limits.transcription_seconds_per_day)
    if isinstance(outcome, Refusal):
        raise ExtractionError("quota_exceeded", outcome.message())
    if outcome is None:
        raise ExtractionError("cancelled", "the document's job was deleted before it was transcribed")
    return outcome


def seconds_sent(outcome: ExtractionResult | ExtractionError, reserved: float) -> float:
    """What a recording's transcription actually sent: the decoded track's duration when it
    succeeded; on a failure, the pieces some provider was called for (each once, at most the
    reservation; none when it failed before the first call), or the whole reservation when the
    failure does not say (the parser process was killed)."""
    if isinstance(outcome, ExtractionResult):
        duration = outcome.signals.get("duration_s") if outcome.route == "media" else None
        return float(duration) if isinstance(duration, int | float) else reserved
    if outcome.code in _UNACCOUNTED:
        return reserved
    pieces: dict[int, float] = {}
    for attempt in outcome.attempts:
        piece, duration = getattr(attempt, "piece", None), getattr(attempt, "duration_s", None)
        if piece is not None and duration is not None:
            pieces[piece] = float(duration)
    return min(reserved, sum(pieces.values()))


def settle(engine: Engine, doc: WorkDocument, reservation: Reservation | None,
           outcome: ExtractionResult | ExtractionError) -> None:
    """Settle the reservation to what was sent.  A failure to do so is logged, never the
    document's failure: the reservation then stays charged, the most that could be sent."""
    if reservation is None:
        return
    sent = seconds_sent(outcome, reservation.seconds)
    try:
        with engine.begin() as conn:
            transcription_quota.settle(conn, reservation, sent)
    except Exception:
        log.warning("could not settle a transcription reservation", exc_info=True,
                    extra={"job_id": doc.job_id, "document_uuid": doc.id, "reserved_s": reservation.seconds,
                           "sent_s": sent})


def _attached(result: ExtractionResult) -> list[ExtractionResult]:
    """The results of every attachment read with ``result``, attachments of attachments too."""
    found: list[ExtractionResult] = []
    for attachment in result.attachments:
        if attachment.result is not None:
            found += [attachment.result, *_attached(attachment.result)]
    return found


def charge_attachments(engine: Engine, parent: WorkDocument, result: ExtractionResult) -> None:
    """Meter the recordings an e-mail carried, transcribed with it (the router reads
    attachments inside the e-mail's extraction, before their length could be checked): they
    count against the key's day, and later recordings see them, but these were not refused."""
    seconds = sum(seconds_sent(found, 0.0) for found in _attached(result) if found.route == "media")
    if not seconds:
        return
    try:
        with engine.begin() as conn:
            transcription_quota.charge(conn, parent.job_id, seconds)
    except Exception:
        log.warning("could not meter an e-mail's recordings", exc_info=True,
                    extra={"job_id": parent.job_id, "document_uuid": parent.id, "seconds": seconds})
