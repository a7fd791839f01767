"""Audio and video: detection, the ffmpeg track and its pieces, transcription providers with
fallback (two local fake servers standing in for Groq and OpenAI), and the merged transcript.

Media are made here with ffmpeg (a few seconds each); the JFK clip of ../shared/corpus is used
when it is there."""

from __future__ import annotations

import dataclasses
import shutil
import struct
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from extractors.base import ExtractionError, ExtractOptions
from extractors.media import MediaSettings, Span, merge, plan_pieces, timestamp
from extractors.mime import MEDIA_TYPES, MIME_MP3, MIME_WAV
from extractors.router import extract
from extractors.sniff import parseable, sniff
from extractors.transcribers import Segment, TranscriberSettings, TranscriptionSettings
from tests.access_watch import RequestLog, WatchedFifo
from tests.corpus import CORPUS
from tests.fake_transcriber import Answer, FakeTranscriber

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="ffmpeg is not installed")

JFK = CORPUS / "audio-jfk"
# Tone bursts of 2 s every 3 s: sound at [0,2], [3,5], [6,8], [9,11], [12,14], silence between.
BURSTS = "aevalsrc='if(lt(mod(t\\,3)\\,2)\\,0.5*sin(2*PI*440*t)\\,0)':d=14:s=16000"
TONE = "sine=frequency=440:duration=3"


def _ffmpeg(tmp: Path, name: str, *args: str) -> bytes:
    target = tmp / name
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args, str(target)], check=True)
    return target.read_bytes()


@pytest.fixture(scope="module")
def groq() -> Iterator[FakeTranscriber]:
    server = FakeTranscriber("groq").start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def openai_fake() -> Iterator[FakeTranscriber]:
    server = FakeTranscriber("openai").start()
    yield server
    server.stop()


@pytest.fixture
def fakes(groq: FakeTranscriber, openai_fake: FakeTranscriber) -> tuple[FakeTranscriber, FakeTranscriber]:
    for server in (groq, openai_fake):
        server.script.clear()
        server.calls.clear()
        server.transcript = None
    return groq, openai_fake


def _options(*servers: FakeTranscriber, timeout: float = 10.0, **media: float) -> ExtractOptions:
    providers = tuple(TranscriberSettings(s.name, f"key-{s.name}", s.base_url, f"model-{s.name}", timeout)
                      for s in servers)
    settings = MediaSettings(transcription=TranscriptionSettings(providers, retry_after_cap=2.0), **media)
    return ExtractOptions(media=settings)


def _timed_extract(data: bytes, options: ExtractOptions, what: str):  # noqa: ANN202
    started = time.monotonic()
    try:
        return extract(data, options=options)
    finally:
        print(f"{what}: {time.monotonic() - started:.2f} s")


# One file of each kind the media route reads (ffmpeg's arguments to make it).
MADE = {
    "a.wav": ("-f", "lavfi", "-i", TONE), "a.flac": ("-f", "lavfi", "-i", TONE),
    "a.mp3": ("-f", "lavfi", "-i", TONE), "a.m4a": ("-f", "lavfi", "-i", TONE, "-c:a", "aac"),
    "a.opus": ("-f", "lavfi", "-i", TONE, "-c:a", "libopus"),
    "a.mp4": ("-f", "lavfi", "-i", "color=c=blue:s=32x32:d=1", "-f", "lavfi", "-i", TONE, "-shortest"),
    "a.mov": ("-f", "lavfi", "-i", "color=c=blue:s=32x32:d=1", "-f", "lavfi", "-i", TONE, "-shortest"),
    "a.webm": ("-f", "lavfi", "-i", TONE, "-c:a", "libopus", "-f", "webm"),
    "a.mkv": ("-f", "lavfi", "-i", "color=c=blue:s=32x32:d=1", "-f", "lavfi", "-i", TONE, "-shortest"),
    # ADTS AAC behind an ID3 tag, which filetype calls audio/mpeg.
    "a.aac": ("-f", "lavfi", "-i", TONE, "-c:a", "aac", "-f", "adts"),
}


@pytest.mark.system
def test_audio_and_video_are_detected_by_content_and_accepted(tmp_path: Path) -> None:
    made = {name: args for name, args in MADE.items() if name != "a.aac"}
    seen = {}
    for name, args in made.items():
        data = _ffmpeg(tmp_path, name, *args)
        # The name says nothing: the bytes do.
        seen[name] = sniff(data, filename="upload.bin")
        assert seen[name] in MEDIA_TYPES, (name, seen[name])
        assert parseable(data, filename="upload.bin") == seen[name]
    print(seen)
    assert len(set(seen.values())) >= 8


@pytest.mark.system
def test_each_kind_of_media_is_read_by_the_demuxer_of_its_sniffed_type(tmp_path: Path, fakes) -> None:
    """Confined to its type's demuxers (``-format_whitelist``, then ``-f``), every kind of file the
    route takes still goes through; an ID3 tag before AAC is read as AAC."""
    groq, _ = fakes
    read_by = {}
    for name, args in MADE.items():
        data = _ffmpeg(tmp_path, name, *args)
        if name == "a.aac":
            data = _id3(data)
        result = extract(data, filename="upload.bin", options=_options(groq))
        read_by[name] = (result.mime_type, result.signals["demuxer"])
        assert "groq heard sound 1" in result.markdown, name
    print(read_by)
    assert read_by["a.aac"] == (MIME_MP3, "aac") and read_by["a.mp3"] == (MIME_MP3, "mp3")
    assert {read_by[n][1] for n in ("a.m4a", "a.mp4", "a.mov")} == {"mov"}
    assert {read_by[n][1] for n in ("a.webm", "a.mkv")} == {"matroska"}
    assert [read_by[n][1] for n in ("a.wav", "a.flac", "a.opus")] == ["wav", "flac", "ogg"]


@pytest.mark.system
def test_no_provider_fails_as_no_transcriber_naming_the_variables(tmp_path: Path) -> None:
    from app.config import Config

    data = _ffmpeg(tmp_path, "a.wav", "-f", "lavfi", "-i", TONE)
    for options in (ExtractOptions(), Config.from_env({"PAGEMILL_HOME": str(tmp_path)}).extract_options()):
        with pytest.raises(ExtractionError) as info:
            extract(data, options=options)
        assert info.value.code == "no_transcriber"
        assert "GROQ_API_KEY" in info.value.message and "OPENAI_API_KEY" in info.value.message


@pytest.mark.system
def test_a_video_without_audio_fails_as_no_audio(tmp_path: Path, fakes) -> None:
    groq, _ = fakes
    data = _ffmpeg(tmp_path, "silent.mp4", "-f", "lavfi", "-i", "color=c=red:s=32x32:d=1", "-an")
    with pytest.raises(ExtractionError) as info:
        extract(data, options=_options(groq))
    assert info.value.code == "no_audio" and not groq.calls


@pytest.mark.system
def test_media_over_the_duration_limit_fails_as_too_large(tmp_path: Path, fakes) -> None:
    groq, _ = fakes
    data = _ffmpeg(tmp_path, "a.wav", "-f", "lavfi", "-i", TONE)
    with pytest.raises(ExtractionError) as info:
        extract(data, options=_options(groq, max_seconds=2))
    assert info.value.code == "too_large" and "PAGEMILL_MEDIA_MAX_SECONDS" in info.value.message


@pytest.mark.system
def test_without_ffmpeg_the_document_fails_with_a_clear_error(tmp_path: Path, fakes,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    groq, _ = fakes
    data = _ffmpeg(tmp_path, "a.wav", "-f", "lavfi", "-i", TONE)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(ExtractionError) as info:
        extract(data, options=_options(groq))
    assert info.value.code == "engine_unavailable" and "ffmpeg" in info.value.message


def _id3(body: bytes) -> bytes:
    """``body`` behind an empty ID3v2.4 tag: filetype then calls it audio/mpeg, and ffmpeg skips
    the tag before it guesses a format -- how a playlist passes for an MP3."""
    return b"ID3\x04\x00\x00\x00\x00\x00\x00" + body


def _hls(*uris: str) -> str:
    return "#EXTM3U\n#EXT-X-TARGETDURATION:10\n" + "".join(f"#EXTINF:3,\n{u}\n" for u in uris) + \
        "#EXT-X-ENDLIST\n"


def _ffconcat(*paths: str) -> str:
    return "ffconcat version 1.0\n" + "".join(f"file '{p}'\n" for p in paths)


# What a hostile upload names, filled in by the ``watches`` fixture: {fifo} a file outside the
# upload, {pattern} an image-sequence pattern whose first match is such a file, {http} a local
# HTTP server.
DISGUISES = {
    "hls-path": _hls("{fifo}"),
    "hls-file-url": _hls("file://{fifo}"),
    "hls-http": _hls("{http}/segment.mp3"),
    "hls-variant-http": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\n{http}/variant.m3u8\n",
    "hls-pattern": _hls("{pattern}"),
    "ffconcat-path": _ffconcat("{fifo}"),
    "ffconcat-http": _ffconcat("{http}/part.mp3"),
    "ffconcat-pattern": _ffconcat("{pattern}"),
}


@pytest.fixture
def watches(tmp_path: Path) -> Iterator[SimpleNamespace]:
    """FIFOs outside the upload (one named by a path, one matched by an image-sequence
    pattern) and an HTTP server, each telling whether it was opened (tests/access_watch.py)."""
    outside = tmp_path / "outside"
    outside.mkdir()
    fifos = [WatchedFifo(outside / "secret.mp3"), WatchedFifo(outside / "frame001.mp3")]
    server = RequestLog()
    try:
        yield SimpleNamespace(
            names={"fifo": str(fifos[0].path), "pattern": str(outside / "frame%03d.mp3"),
                   "http": server.base_url},
            opened=lambda: [f.path.name for f in fifos if f.stop()], requests=server.paths)
    finally:
        for fifo in fifos:
            fifo.stop()
        server.stop()


def _disguised(name: str, names: dict[str, str]) -> bytes:
    return _id3(DISGUISES[name].format(**names).encode())


@pytest.mark.system
def test_the_watches_see_an_unconfined_ffprobe_follow_a_playlist(tmp_path: Path, watches) -> None:
    """The control: plain ffprobe (what media.py ran before) on a disguised playlist opens the
    FIFO it names, so the watch would catch the route doing so.  A playlist read from a file may
    name only files (ffmpeg's default protocol whitelist for ``file``), so the HTTP watch is
    shown to work with the protocols widened on purpose."""
    upload = tmp_path / "playlist.mp3"
    upload.write_bytes(_disguised("hls-path", watches.names))
    subprocess.run(["ffprobe", "-v", "error", "-show_format", str(upload)], capture_output=True,
                   timeout=60, check=False)
    upload.write_bytes(_disguised("hls-http", watches.names))
    subprocess.run(["ffprobe", "-v", "error", "-protocol_whitelist", "file,http,tcp", "-show_format",
                    str(upload)], capture_output=True, timeout=60, check=False)
    assert watches.opened() == ["secret.mp3"]
    assert watches.requests == ["/segment.mp3"]


@pytest.mark.system
@pytest.mark.parametrize("disguise", sorted(DISGUISES))
def test_an_upload_naming_other_files_or_urls_fails_having_opened_nothing(fakes, watches,
                                                                          disguise: str) -> None:
    """An ID3 tag before a playlist or a concat list, naming a local file (by path, ``file:`` URL
    or image-sequence pattern) or a URL: sniffed as MP3, it is read by the MP3 and AAC demuxers
    only, so it fails as ``unsupported`` on its own and nothing it names is opened.

    "Opened" is seen, not inferred: the local files are FIFOs, and a process opening one to read
    is stuck in ``open`` until the watch, polling with a non-blocking open for writing, sees it
    (no access times, which relatime mounts skip; no race between polls); the URLs point at a
    local server that records every request (tests/access_watch.py).  Before this confinement
    the ``hls-path`` and ``hls-file-url`` uploads opened their FIFO."""
    groq, _ = fakes
    data = _disguised(disguise, watches.names)
    assert sniff(data, filename="talk.mp3") == MIME_MP3
    with pytest.raises(ExtractionError) as info:
        extract(data, filename="talk.mp3", options=_options(groq))
    print(disguise, info.value.code, info.value.message)
    assert watches.opened() == [] and watches.requests == [] and not groq.calls
    assert info.value.code == "unsupported"


def _wav(sample_rate: int, data_bytes: int) -> bytes:
    """A PCM WAV declaring 8-bit mono at ``sample_rate`` Hz, with ``data_bytes`` of silence."""
    fmt = struct.pack("<HHIIHH", 1, 1, sample_rate, sample_rate, 1, 8)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + \
        struct.pack("<I", data_bytes) + b"\x80" * data_bytes
    return b"RIFF" + struct.pack("<I", len(body)) + body


@pytest.mark.system
def test_media_lasting_far_longer_than_its_bytes_allow_fails_before_any_provider_call(fakes) -> None:
    """3.6 kB declaring 1 Hz would be an hour of audio (seven 600 s provider calls)."""
    groq, _ = fakes
    data = _wav(1, 3600)
    assert sniff(data) == MIME_WAV and len(data) < 3700
    with pytest.raises(ExtractionError) as info:
        extract(data, options=_options(groq))
    print(info.value.message)
    assert info.value.code == "too_large" and "PAGEMILL_MEDIA_MIN_BYTES_PER_SECOND" in info.value.message
    assert not groq.calls
    # The floor is a setting: at 0 only the duration limit is left to refuse the hour.
    with pytest.raises(ExtractionError) as info:
        extract(data, options=_options(groq, min_bytes_per_second=0, max_seconds=600))
    assert info.value.code == "too_large" and "PAGEMILL_MEDIA_MAX_SECONDS" in info.value.message


@pytest.mark.system
def test_a_duration_the_probe_cannot_tell_is_bounded_while_decoding(fakes, monkeypatch) -> None:
    """When ffprobe gives no duration (streamed formats may not say), decoding stops a second
    past what the upload's bytes allow, and the track's duration is refused."""
    import extractors.media as media

    groq, _ = fakes
    real_probe = media.probe

    def no_duration_for_the_upload(path: Path, *args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        found = real_probe(path, *args, **kwargs)
        return dataclasses.replace(found, duration=None) if path.name == "source" else found

    monkeypatch.setattr(media, "probe", no_duration_for_the_upload)
    started = time.monotonic()
    with pytest.raises(ExtractionError) as info:
        extract(_wav(1, 3600), options=_options(groq))
    print(info.value.message, f"{time.monotonic() - started:.2f} s")
    assert info.value.code == "too_large" and "PAGEMILL_MEDIA_MIN_BYTES_PER_SECOND" in info.value.message
    assert "decoded" in info.value.message and not groq.calls


@pytest.mark.system
@pytest.mark.parametrize("upload", ["id3-garbage", "wav-without-data", "mp4-head", "hls"])
def test_media_errors_never_show_the_workers_temporary_paths(tmp_path: Path, fakes, upload: str) -> None:
    """ffmpeg names its input in its messages (``/tmp/pagemill-media-.../source: Invalid data
    found``); the document's error names "the upload" instead."""
    groq, _ = fakes
    mp4 = _ffmpeg(tmp_path, "a.mp4", "-f", "lavfi", "-i", "color=c=blue:s=32x32:d=1", "-f", "lavfi",
                  "-i", TONE, "-shortest")
    data = {"id3-garbage": _id3(bytes(range(256)) * 8),
            "wav-without-data": _wav(8000, 0)[:36],
            "mp4-head": mp4[:600],
            "hls": _id3(_hls(str(tmp_path / "a.mp4")).encode())}[upload]
    with pytest.raises(ExtractionError) as info:
        extract(data, options=_options(groq))
    print(upload, info.value.code, info.value.message)
    assert info.value.code in ("corrupt", "unsupported")
    assert tempfile.gettempdir() not in info.value.message and "pagemill-media" not in info.value.message


def test_pieces_are_cut_in_silences_when_there_are_some_and_hard_otherwise() -> None:
    silences = [(2.0, 3.0), (5.0, 6.0), (8.0, 9.0), (11.0, 12.0)]
    spans = plan_pieces(14.0, silences, max_seconds=5.0, overlap=1.0)
    assert [s.start for s in spans] == [0.0, 2.5, 5.5, 8.5, 11.5]
    assert all(s.end - s.start <= 5.0 for s in spans) and spans[-1].end == 14.0
    for before, after in zip(spans, spans[1:], strict=False):
        assert before.end == after.start + 1.0 and before.keep_until == after.start
    hard = plan_pieces(12.0, [], max_seconds=5.0, overlap=1.5)
    assert [(s.start, s.end) for s in hard] == [(0.0, 5.0), (3.5, 8.5), (7.0, 12.0)]
    assert plan_pieces(4.0, [], max_seconds=5.0, overlap=1.0) == [Span(0.0, 4.0, 4.0)]


def test_merge_shifts_segments_and_drops_the_overlaps_duplicates() -> None:
    first = (Span(0.0, 6.0, 5.0), [Segment(0.0, 2.0, "one"), Segment(2.5, 4.8, "two"),
                                   Segment(5.2, 6.0, "thr")])  # cut off: the next piece has it
    second = (Span(5.0, 10.0, 10.0), [Segment(0.0, 0.2, "two"),  # tail of "two", same words
                                      Segment(0.1, 2.0, "three"), Segment(2.5, 4.0, "four")])
    merged = merge([first, second])
    assert [(s.start, s.end, s.text) for s in merged] == [
        (0.0, 2.0, "one"), (2.5, 5.2, "two"), (5.1, 7.0, "three"), (7.5, 9.0, "four")]
    assert timestamp(75.9) == "01:15" and timestamp(3725) == "1:02:05"


@pytest.mark.system
def test_long_audio_is_split_at_silences_and_times_come_back_absolute(tmp_path: Path, fakes) -> None:
    groq, _ = fakes
    data = _ffmpeg(tmp_path, "bursts.flac", "-f", "lavfi", "-i", BURSTS)
    options = _options(groq, piece_seconds=5.0, overlap_seconds=1.0)
    result = _timed_extract(data, options, "14 s in 5 s pieces")
    pieces = result.signals["pieces"]
    print(pieces)
    assert len(pieces) >= 3 and all(p["duration_s"] <= 5.01 for p in pieces)
    # Every cut is inside a silence (2-3, 5-6, 8-9, 11-12 s), never in a burst.
    assert all(any(a < p["offset_s"] < b for a, b in ((2, 3), (5, 6), (8, 9), (11, 12))) for p in pieces[1:])
    segments = result.signals["segments"]
    # One segment per burst, at its absolute time: none lost, none doubled by the overlap.
    assert [round(s["start"]) for s in segments] == [0, 3, 6, 9, 12]
    assert all(abs(s["end"] - s["start"] - 2.0) < 0.3 for s in segments)
    assert len(groq.calls) == len(pieces)
    call = groq.calls[0]
    assert (call.model, call.response_format) == ("model-groq", "verbose_json")
    assert call.granularities == ["segment"]
    assert call.authorization == "Bearer key-groq" and call.filename.endswith(".flac")
    attempts = result.report()["attempts"]
    assert [(a["piece"], a["engine"], a["status"]) for a in attempts] == [
        (i, "groq", 200) for i in range(len(pieces))]
    assert [a["offset_s"] for a in attempts] == [p["offset_s"] for p in pieces]
    # The byte limit binds too: pieces of at most 100 kB (3 s of 16 kHz mono).
    small = extract(data, options=_options(groq, piece_bytes=100_000, overlap_seconds=0.5))
    assert len(small.signals["pieces"]) > len(pieces)
    assert all(p["bytes"] <= 100_000 and p["duration_s"] <= 3.1 for p in small.signals["pieces"])
    # Cut hard inside bursts now (no silence in reach): every burst still heard, nothing
    # heard where there was silence.
    heard = small.signals["segments"]
    assert {0, 3, 6, 9, 12} <= {round(s["start"]) for s in heard}
    assert all((s["start"] + s["end"]) / 2 % 3 < 2 for s in heard)
    # The Markdown: a timestamp per paragraph (the 1 s pauses keep the bursts in one paragraph).
    assert result.markdown.startswith("[00:00] groq heard sound 1")


@pytest.mark.system
@pytest.mark.parametrize("failure", [Answer(429, retry_after=120), Answer(500), "drop", "slow"],
                         ids=["429-past-the-cap", "500", "connection-dropped", "timeout"])
def test_the_piece_falls_over_to_the_next_provider(tmp_path: Path, fakes, failure) -> None:
    groq, openai_fake = fakes
    groq.script.append(failure)
    data = _ffmpeg(tmp_path, "a.wav", "-f", "lavfi", "-i", TONE)
    # The slow answer (3 s) is past this timeout; every other answer is well within it.
    result = _timed_extract(data, _options(groq, openai_fake, timeout=1.5), f"fallback after {failure}")
    attempts = result.report()["attempts"]
    assert [a["engine"] for a in attempts] == ["groq", "openai"]
    assert attempts[0]["chosen"] is False and attempts[0]["error"] and attempts[1]["chosen"] is True
    assert attempts[0]["status"] == (failure.status if isinstance(failure, Answer) else None)
    assert result.extractor == "openai" and "openai heard sound 1" in result.markdown
    assert len(openai_fake.calls) == 1 and openai_fake.calls[0].model == "model-openai"


@pytest.mark.system
def test_a_rate_limited_provider_is_asked_last_for_the_documents_next_pieces(tmp_path: Path, fakes) -> None:
    groq, openai_fake = fakes
    groq.script.append(Answer(429, retry_after=120))
    data = _ffmpeg(tmp_path, "bursts.flac", "-f", "lavfi", "-i", BURSTS)
    result = extract(data, options=_options(groq, openai_fake, piece_seconds=5.0, overlap_seconds=1.0))
    pieces = len(result.signals["pieces"])
    assert len(groq.calls) == 1 and len(openai_fake.calls) == pieces
    tried = [(a["engine"], a["piece"]) for a in result.report()["attempts"]]
    assert tried[:2] == [("groq", 0), ("openai", 0)]


@pytest.mark.system
def test_a_provider_other_workers_found_rate_limited_is_asked_last_from_the_first_piece(
        tmp_path: Path, fakes) -> None:
    groq, openai_fake = fakes
    data = _ffmpeg(tmp_path, "a.wav", "-f", "lavfi", "-i", TONE)
    options = _options(groq, openai_fake)
    assert options.media is not None
    cooling = dataclasses.replace(options.media.transcription, cooling_until=(("groq", time.time() + 600),))
    options = dataclasses.replace(options, media=dataclasses.replace(options.media, transcription=cooling))
    result = extract(data, options=options)
    assert not groq.calls and len(openai_fake.calls) == 1
    assert result.signals["cooling"] == ["groq"] and result.extractor == "openai"
    # The cooling provider is still the last resort: it may be the only one that answers.
    openai_fake.script.append(Answer(503, message="overloaded"))
    result = extract(data, options=options)
    tried = [(a["engine"], a["status"]) for a in result.report()["attempts"]]
    assert tried == [("openai", 503), ("groq", 200)]
    # A cool-down that has ended is no cool-down.
    expired = dataclasses.replace(cooling, cooling_until=(("groq", time.time() - 1),))
    result = extract(data, options=dataclasses.replace(options, media=dataclasses.replace(
        options.media, transcription=expired)))
    assert result.extractor == "groq" and result.signals["cooling"] == []


def test_cooldowns_are_shared_through_the_database_and_never_shortened(engine) -> None:
    import uuid

    from sqlalchemy import text

    from app.domain import provider_cooldowns
    from extractors.transcribers import TranscriptionAttempt

    name = f"provider-{uuid.uuid4().hex[:8]}"
    limited = TranscriptionAttempt(engine=name, seconds=0.1, status=429, error_code="rate_limited",
                                   error="429: rate limit reached for audio seconds", retry_after_s=120.0)
    with engine.begin() as conn:
        assert provider_cooldowns.record(conn, [limited]) == [name]
        first = {c.provider: c.until for c in provider_cooldowns.active(conn)}[name]
        # The Retry-After from the moment it was recorded (both set by one statement).
        asked = conn.execute(text("SELECT extract(epoch FROM until - updated_at) FROM provider_cooldowns "
                                  "WHERE provider = :p"), {"p": name}).scalar_one()
    assert float(asked) == 120.0
    shorter = TranscriptionAttempt(engine=name, seconds=0.1, status=429, error_code="rate_limited",
                                   error="429: again", retry_after_s=5.0)
    ok = TranscriptionAttempt(engine=f"{name}-other", seconds=0.1, status=200, chosen=True)
    with engine.begin() as conn:
        assert provider_cooldowns.record(conn, [shorter, ok]) == [name]
        row = next(c for c in provider_cooldowns.active(conn) if c.provider == name)
    assert row.until == pytest.approx(first, abs=0.01)
    assert (row.hits, row.last_error) == (2, "429: again")
    # No Retry-After: the default; a day: capped.
    def asked(retry_after: float | None) -> float:
        attempt = dataclasses.replace(limited, retry_after_s=retry_after)
        return provider_cooldowns.rate_limited([attempt])[name][0]

    assert asked(None) == provider_cooldowns.DEFAULT_COOLDOWN_SECONDS
    assert asked(86400.0) == provider_cooldowns.MAX_COOLDOWN_SECONDS


@pytest.mark.system
def test_a_short_retry_after_is_waited_out_on_the_same_provider(tmp_path: Path, fakes) -> None:
    groq, openai_fake = fakes
    groq.script.append(Answer(429, retry_after=0.2))
    data = _ffmpeg(tmp_path, "a.wav", "-f", "lavfi", "-i", TONE)
    result = extract(data, options=_options(groq, openai_fake))
    assert [(a["engine"], a["status"]) for a in result.report()["attempts"]] == [("groq", 429), ("groq", 200)]
    assert not openai_fake.calls


@pytest.mark.system
def test_a_4xx_fails_the_document_with_the_providers_message(tmp_path: Path, fakes) -> None:
    groq, openai_fake = fakes
    groq.script.append(Answer(400, message="audio file is too short"))
    data = _ffmpeg(tmp_path, "a.wav", "-f", "lavfi", "-i", TONE)
    with pytest.raises(ExtractionError) as info:
        extract(data, options=_options(groq, openai_fake))
    assert info.value.code == "provider_error" and "audio file is too short" in info.value.message
    assert [a.status for a in info.value.attempts] == [400] and not openai_fake.calls


@pytest.mark.system
def test_every_provider_failing_fails_the_document_with_each_error(tmp_path: Path, fakes) -> None:
    groq, openai_fake = fakes
    groq.script.append(Answer(429, retry_after=600, message="rate limit reached for audio seconds"))
    openai_fake.script.append(Answer(503, message="overloaded"))
    data = _ffmpeg(tmp_path, "a.wav", "-f", "lavfi", "-i", TONE)
    with pytest.raises(ExtractionError) as info:
        extract(data, options=_options(groq, openai_fake))
    assert info.value.code == "provider_error"
    assert "rate limit reached" in info.value.message and "overloaded" in info.value.message
    assert [(a.engine, a.status, a.error_code) for a in info.value.attempts] == [
        ("groq", 429, "rate_limited"), ("openai", 503, "provider_error")]


def test_providers_come_from_the_environment_in_order_and_only_with_a_key(tmp_path: Path) -> None:
    from app.config import Config

    env = {"PAGEMILL_HOME": str(tmp_path), "OPENAI_API_KEY": "sk-x", "GROQ_BASE_URL": "http://g/v1",
           "PAGEMILL_TRANSCRIBERS": "openai,groq", "PAGEMILL_MEDIA_MAX_SECONDS": "60"}
    media = Config.from_env(env).extract_options().media
    assert media is not None and media.max_seconds == 60
    assert [p.name for p in media.transcription.providers] == ["openai", "groq"]
    assert [p.name for p in media.transcription.usable] == ["openai"]
    assert media.transcription.providers[0].model == "whisper-1"
    assert media.transcription.providers[1].model == "whisper-large-v3-turbo"
    assert "sk-x" not in repr(media)
    assert media.min_bytes_per_second == MediaSettings.min_bytes_per_second
    floor = Config.from_env({**env, "PAGEMILL_MEDIA_MIN_BYTES_PER_SECOND": "10"}).extract_options().media
    assert floor is not None and floor.min_bytes_per_second == 10
    with pytest.raises(ValueError, match="unknown providers"):
        Config.from_env({**env, "PAGEMILL_TRANSCRIBERS": "groq,whisperx"}).extract_options()


@pytest.mark.system
@pytest.mark.skipif(not JFK.exists(), reason="../shared/corpus/audio-jfk is absent")
def test_the_jfk_clip_goes_through_as_wav_flac_mp3_and_mp4(tmp_path: Path, fakes) -> None:
    groq, _ = fakes
    groq.transcript = (JFK / "jfk.transcript.txt").read_text().strip()
    mp4 = _ffmpeg(tmp_path, "jfk.mp4", "-f", "lavfi", "-i", "color=c=black:s=64x64:r=5", "-i",
                  str(JFK / "jfk.wav"), "-shortest", "-c:a", "aac")
    clips = [(n, (JFK / n).read_bytes()) for n in ("jfk.wav", "jfk.flac", "jfk.mp3")]
    for name, data in [*clips, ("jfk.mp4", mp4)]:
        result = _timed_extract(data, _options(groq), name)
        assert result.mime_type in MEDIA_TYPES and result.route == "media"
        assert abs(result.signals["duration_s"] - 11.0) < 0.2, name
        assert result.markdown.startswith("[00:00] And so my fellow Americans"), name
        assert result.language == "en"
    # Forced into pieces: still one transcript, each piece's times offset.
    groq.calls.clear()
    result = _timed_extract(clips[0][1], _options(groq, piece_seconds=5.0), "jfk in pieces")
    pieces = result.signals["pieces"]
    assert len(pieces) == len(groq.calls) >= 3
    assert [a["offset_s"] for a in result.report()["attempts"]] == [p["offset_s"] for p in pieces]


def test_transcripts_are_chunked_into_overlapping_time_windows_of_whole_segments() -> None:
    from indexing.chunking import chunk_transcript

    segments = [(i * 5.0, i * 5.0 + 4.5, f"segment {i} says something") for i in range(40)]
    chunks = chunk_transcript(segments, window_seconds=60, overlap_seconds=10, max_tokens=256)
    assert [(c.start_s, c.end_s) for c in chunks] == [(0.0, 59.5), (50.0, 109.5), (100.0, 159.5),
                                                      (150.0, 199.5)]
    assert all(c.end_s - c.start_s <= 60 for c in chunks)
    # Whole segments only, every one in some chunk.
    assert chunks[0].text.startswith("segment 0 says")
    assert chunks[0].text.endswith("segment 11 says something")
    assert {i for i in range(40)} == {int(w) for c in chunks for w in c.text.split()[1::4]}
    # The token window binds before the time window does.
    tight = chunk_transcript(segments, window_seconds=60, overlap_seconds=10, max_tokens=40)
    assert len(tight) > len(chunks) and all(c.token_count <= 40 for c in tight)
    assert chunk_transcript([]) == []


@pytest.mark.skipif(not JFK.exists(), reason="../shared/corpus/audio-jfk is absent")
@pytest.mark.system
def test_a_phrase_of_the_clip_is_found_with_the_seconds_it_was_heard(fakes, engine, tenant) -> None:
    import numpy as np

    from indexing.chunking import chunk_transcript
    from indexing.ranking import DEFAULTS
    from indexing.search import search
    from indexing.store import IndexedDocument, replace_document

    groq, _ = fakes
    # Two segments, as whisper splits the clip (whisper.cpp's word timings: the second clause
    # starts near 4.8 s).
    groq.transcript = [(0.0, 4.8, "And so my fellow Americans,"),
                       (4.8, 11.0, "ask not what your country can do for you, ask what you can do "
                                   "for your country.")]
    result = extract((JFK / "jfk.wav").read_bytes(), options=_options(groq))
    assert result.markdown.startswith("[00:00] And so my fellow Americans,")
    segments = [(s["start"], s["end"], s["text"]) for s in result.signals["segments"]]
    # Windows shorter than the clip: one chunk per segment.
    chunks = chunk_transcript(segments, window_seconds=4.0, overlap_seconds=1.0)
    assert [(c.start_s, c.end_s) for c in chunks] == [(0.0, 4.8), (4.8, 11.0)]
    doc = IndexedDocument(tenant, "jfk", None, None, "jfk", result.mime_type, None, "{}")
    with engine.begin() as conn:
        replace_document(conn, doc, chunks, np.full((len(chunks), 384), 0.05, dtype=np.float32),
                         k1=DEFAULTS.k1, b=DEFAULTS.b)
        hits = search(conn, tenant, "what your country can do", k=3, mode="bm25", collapse=False,
                      params=DEFAULTS)
        other = search(conn, tenant, "fellow americans", k=3, mode="bm25", collapse=False, params=DEFAULTS)
    assert (hits[0].start_s, hits[0].end_s) == (4.8, 11.0) and "your country" in hits[0].text
    assert (other[0].start_s, other[0].end_s) == (0.0, 4.8)


@pytest.fixture(scope="module")
def private_database(database_url: str) -> Iterator[str]:
    """A database of its own, so that only this module's worker (the one with the fake
    provider's address) takes this module's documents."""
    from tests.conftest import private_database_url

    with private_database_url(database_url) as url:
        yield url


@pytest.mark.skipif(not JFK.exists(), reason="../shared/corpus/audio-jfk is absent")
@pytest.mark.system
def test_media_documents_go_through_the_worker(test_env, private_database, fakes, tmp_path: Path) -> None:
    """Submitted by the CLI, on the media queue, transcribed by a worker through the fake
    providers, searchable; a video without sound fails on its own and the job completes.  The
    primary's 429 puts it on the cool-down every worker reads: the next job's recording goes
    straight to the fallback."""
    import json
    import sys
    import uuid

    from sqlalchemy import text

    from app.infra.db import get_engine
    from tests.conftest import ROOT, start_worker, stop_worker

    groq, openai_fake = fakes
    groq.transcript = openai_fake.transcript = (JFK / "jfk.transcript.txt").read_text().strip()
    groq.script.append(Answer(429, retry_after=600, message="rate limit reached for audio seconds"))
    env = {**test_env, "DATABASE_URL": private_database, "GROQ_API_KEY": "test-key",
           "GROQ_BASE_URL": groq.base_url, "OPENAI_API_KEY": "test-key",
           "OPENAI_BASE_URL": openai_fake.base_url, "PAGEMILL_TRANSCRIBERS": "groq,openai"}
    shutil.copy(JFK / "jfk.mp3", tmp_path / "speech.mp3")
    shutil.copy(JFK / "jfk.flac", tmp_path / "again.flac")
    _ffmpeg(tmp_path, "silent.mp4", "-f", "lavfi", "-i", "color=c=red:s=32x32:d=1", "-an")
    tenant = f"media-{uuid.uuid4().hex[:8]}"
    engine = get_engine(private_database)

    def ingest(*names: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "app.cli", "ingest", *(str(tmp_path / n) for n in names),
                               "--tenant", tenant, "--wait"],
                              env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)

    started = time.monotonic()
    proc = start_worker(env, engine)
    try:
        submitted = ingest("speech.mp3", "silent.mp4")
        print(f"worker start + ingest: {time.monotonic() - started:.1f} s")
        again = ingest("again.flac")
        with engine.connect() as conn:
            rows = {r.filename: r for r in conn.execute(text(
                "SELECT d.filename, d.status, d.error_code, d.mime_type, d.extractor, b.media_documents "
                "FROM documents d JOIN batches b ON b.job_id = d.job_id AND b.batch_no = d.batch_no "
                "JOIN jobs j ON j.id = d.job_id JOIN tenants t ON t.id = j.tenant_id "
                "WHERE t.name = :t"), {"t": tenant})}
            cooling = conn.execute(text("SELECT provider, until > now() + interval '5 minutes' AS long, "
                                        "last_error FROM provider_cooldowns")).all()
        assert rows["speech.mp3"].status == "completed", (rows, submitted.stdout, submitted.stderr)
        assert rows["again.flac"].status == "completed", (rows, again.stdout, again.stderr)
        assert rows["speech.mp3"].mime_type == "audio/mpeg"
        assert (rows["silent.mp4"].status, rows["silent.mp4"].error_code) == ("failed", "no_audio")
        # Both recordings of the first job in one batch, which went to the media queue.
        assert rows["speech.mp3"].media_documents == 2 and rows["again.flac"].media_documents == 1
        assert rows["speech.mp3"].extractor == rows["again.flac"].extractor == "openai"
        assert [(c.provider, c.long) for c in cooling] == [("groq", True)]
        assert "rate limit reached" in cooling[0].last_error
        found = subprocess.run([sys.executable, "-m", "app.cli", "search", "what your country can do",
                                "--mode", "bm25", "--json", "--tenant", tenant],
                               env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert found.returncode == 0, found.stderr
        hits = json.loads(found.stdout)["results"]
        assert hits and "your country" in hits[0]["text"]
        assert hits[0]["start_s"] is not None and hits[0]["end_s"] > hits[0]["start_s"]
    finally:
        stop_worker(proc)
    # groq was asked once (its 429); the second job's recording never went to it.
    assert [c.status for c in groq.calls] == [429]
    assert [c.filename for c in openai_fake.calls] == ["piece-0000.flac", "piece-0000.flac"]


@pytest.mark.system
def test_twenty_minutes_are_cut_in_silences_and_every_burst_comes_back_once(tmp_path: Path, fakes) -> None:
    from bench.media_split import speech_like

    groq, _ = fakes
    bursts = speech_like(tmp_path / "talk.mp3", minutes=20)
    result = _timed_extract((tmp_path / "talk.mp3").read_bytes(), _options(groq, timeout=60),
                            "20 minutes, default pieces")
    pieces = result.signals["pieces"]
    print(pieces)
    assert len(pieces) == 3 and all(p["bytes"] < 24 * 1024 * 1024 and p["duration_s"] <= 600 for p in pieces)
    # Each cut lies in a pause between bursts.
    assert all(not any(a < p["offset_s"] < b for a, b in bursts) for p in pieces[1:])
    starts = [s["start"] for s in result.signals["segments"]]
    assert len(starts) == len(bursts)
    assert all(abs(start - burst[0]) < 0.2 for start, burst in zip(starts, bursts, strict=True))


@pytest.mark.system
def test_a_track_longer_than_its_reservation_is_refused_before_any_provider_call(fakes, tmp_path) -> None:
    """The worker reserves a recording's seconds by its header (app/services/transcription_metering.py);
    a track that decodes to more than that (a header that understates) is refused as
    ``quota_exceeded`` before a provider hears it, and one within it goes through."""
    groq, _ = fakes
    data = _ffmpeg(tmp_path, "a.wav", "-f", "lavfi", "-i", TONE)  # 3 s
    with pytest.raises(ExtractionError) as info:
        extract(data, options=_options(groq, transcribe_at_most=1.0))
    assert info.value.code == "quota_exceeded" and "reserved" in info.value.message
    assert not groq.calls
    result = extract(data, options=_options(groq, transcribe_at_most=3.0))
    assert result.route == "media" and len(groq.calls) == 1
