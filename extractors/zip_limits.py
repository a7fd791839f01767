"""ZIP-based formats (DOCX, PPTX, XLSX, ODF, EPUB) checked before any parser opens them.

A few kilobytes of ZIP can inflate to gigabytes of XML, and the parsers behind them
(python-docx, openpyxl, docling, lxml) read whole parts into memory and then spend minutes
on them.  The central directory states every entry's compressed and uncompressed size, and
Python's ``zipfile`` (which all of those parsers read through) never returns more than the
stated uncompressed size: a lying entry fails its CRC check instead.  So checking the stated
sizes is enough, and costs no decompression.

The limits are those of Apache POI's ``ZipSecureFile`` (an entry may inflate at most 100
times, small entries exempt), plus the same ratio for the package as a whole (so that many
small exempt entries cannot add up to a bomb), a total and an entry count.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass

from extractors.base import ExtractionError

ZIP_MAGIC = b"PK\x03\x04"


@dataclass(frozen=True)
class ZipLimits:
    max_total_bytes: int = 256 * 1024 * 1024
    max_ratio: float = 100.0
    # Entries smaller than this are not held to the ratio: tiny, highly repetitive parts
    # (styles, relationships) compress far better than 100:1 and cost nothing.  A package
    # inflating to more than 8 times this is held to the ratio as a whole.
    ratio_grace_bytes: int = 1024 * 1024
    max_entries: int = 10_000


def check_zip_package(data: bytes, limits: ZipLimits) -> None:
    """Raise ``too_large`` when the package would inflate beyond ``limits``; a file that is
    not a readable ZIP is left for its parser to report."""
    if not data.startswith(ZIP_MAGIC):
        return
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            entries = package.infolist()
    except (zipfile.BadZipFile, OSError, EOFError, ValueError):
        return
    if len(entries) > limits.max_entries:
        raise ExtractionError("too_large", f"the package has {len(entries)} entries "
                              f"(limit {limits.max_entries})")
    total = packed = 0
    for entry in entries:
        total += entry.file_size
        packed += entry.compress_size
        ratio = entry.file_size / max(entry.compress_size, 1)
        if entry.file_size > limits.ratio_grace_bytes and ratio > limits.max_ratio:
            raise ExtractionError(
                "too_large", f"part {entry.filename!r} inflates {ratio:.0f} times "
                f"({entry.compress_size} to {entry.file_size} bytes; limit {limits.max_ratio:.0f}): "
                "refused as a likely decompression bomb")
    if total > 8 * limits.ratio_grace_bytes and total / max(packed, 1) > limits.max_ratio:
        raise ExtractionError(
            "too_large", f"the package inflates {total / max(packed, 1):.0f} times ({packed} to "
            f"{total} bytes; limit {limits.max_ratio:.0f}): refused as a likely decompression bomb")
    if total > limits.max_total_bytes:
        raise ExtractionError("too_large", f"the package inflates to {total} bytes "
                              f"(limit {limits.max_total_bytes})")
