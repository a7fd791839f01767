"""What the media route costs before any provider is called: ffmpeg's track (mono 16 kHz FLAC
with silencedetect in the same pass) and the cutting of pieces, per hour of audio.

    .venv/bin/python -m bench.media_split                # 20 minutes of synthetic speech-like audio
    .venv/bin/python -m bench.media_split --minutes 60

The input is made by ffmpeg: noise bursts of 4-11 s (a "sentence") separated by 0.6-1.5 s of
silence, as an MP3 at 64 kb/s (what recordings are often uploaded as); the pieces are the
defaults' (600 s, 1.5 s overlap) unless --piece-seconds says otherwise.  Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import tempfile
import time
from pathlib import Path

from extractors.media import MediaSettings, cut_piece, plan_pieces, probe, to_track


def speech_like(target: Path, minutes: float, seed: int = 7) -> list[tuple[float, float]]:
    """An MP3 of noise bursts and silences; returns the bursts' (start, end) in seconds.

    One concat of lavfi sources (an aevalsrc expression over hundreds of bursts would be
    unwieldy), rendered once."""
    rng = random.Random(seed)
    total, parts, bursts = 0.0, [], []
    while total < minutes * 60:
        talk, pause = round(rng.uniform(4, 11), 2), round(rng.uniform(0.6, 1.5), 2)
        parts.append(f"anoisesrc=d={talk}:c=pink:a=0.3:r=16000,aformat=channel_layouts=mono[a{len(parts)}]")
        parts.append(f"anullsrc=r=16000:cl=mono,atrim=0:{pause}[a{len(parts)}]")
        bursts.append((total, total + talk))
        total += talk + pause
    graph = ";".join(parts) + ";" + "".join(f"[a{i}]" for i in range(len(parts))) + \
        f"concat=n={len(parts)}:v=0:a=1[out]"
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-filter_complex", graph, "-map", "[out]",
                    "-c:a", "libmp3lame", "-b:a", "64k", str(target)], check=True)
    return bursts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--piece-seconds", type=float, default=MediaSettings.piece_seconds)
    args = parser.parse_args()
    settings = MediaSettings(piece_seconds=args.piece_seconds)
    with tempfile.TemporaryDirectory(prefix="pagemill-bench-media-") as folder:
        work = Path(folder)
        source, track = work / "talk.mp3", work / "track.flac"
        began = time.monotonic()
        speech_like(source, args.minutes)
        made = time.monotonic() - began
        began = time.monotonic()
        info = probe(source, "ffprobe")
        silences = to_track(source, track, settings, "ffmpeg", info.duration)
        tracked = time.monotonic() - began
        duration = probe(track, "ffprobe").duration or 0.0
        began = time.monotonic()
        spans = plan_pieces(duration, silences, min(settings.piece_seconds,
                                                    settings.piece_bytes / 32_000 * 0.97),
                            settings.overlap_seconds)
        pieces = [cut_piece(track, span, i, "ffmpeg", work) for i, span in enumerate(spans)]
        cut = time.monotonic() - began
        in_silence = sum(any(a <= s.keep_until <= b for a, b in silences) for s in spans[:-1])
        hours = duration / 3600
        print(json.dumps({
            "audio_s": round(duration, 1), "source_bytes": source.stat().st_size,
            "track_bytes": track.stat().st_size, "silences": len(silences), "pieces": len(pieces),
            "cuts_in_silence": f"{in_silence}/{len(spans) - 1}",
            "largest_piece_bytes": max(len(p.data) for p in pieces),
            "longest_piece_s": round(max(p.duration_s for p in pieces), 1),
            "make_input_s": round(made, 2), "track_and_silences_s": round(tracked, 2),
            "cut_pieces_s": round(cut, 2),
            "seconds_per_audio_hour": round((tracked + cut) / hours, 1) if hours else None}))


if __name__ == "__main__":
    main()
