"""Whether bytes are text, and the text they hold (byte-order marks, UTF-8, legacy cp1252)."""

from __future__ import annotations


def decode_text(data: bytes) -> str | None:
    """Decode bytes that are text; ``None`` for binary content."""
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"),
                       (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            try:
                return data[len(bom):].decode(codec)
            except UnicodeDecodeError:
                return None
    if b"\x00" in data[:8192]:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        # Legacy single-byte text: accept it only if it looks like prose, not binary.
        text = data.decode("cp1252", errors="replace")
    sample = text[:8192]
    if not sample:
        return text
    printable = sum(1 for ch in sample if ch.isprintable() or ch in "\n\r\t\f")
    if printable / len(sample) < 0.95 or sample.count("\ufffd") > len(sample) * 0.01:
        return None
    return text


def as_utf8(data: bytes) -> bytes:
    """UTF-16 text (by its byte-order mark) re-encoded as UTF-8; anything else unchanged.

    Engines mis-read UTF-16 mail and XML."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = decode_text(data)
        if text is not None:
            return text.encode("utf-8")
    return data
