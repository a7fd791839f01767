"""Content sniffing: the type of a document comes from its bytes, not its name."""

from __future__ import annotations

MIME_PDF = "application/pdf"
MIME_TEXT = "text/plain"
MIME_MARKDOWN = "text/markdown"
MIME_RECORD = "application/vnd.pagemill.record+json"

_MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdown", ".mkd")


def decode_text(data: bytes) -> str | None:
    """Decode bytes that are text; ``None`` for binary content."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
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


def sniff(data: bytes, filename: str | None = None, declared: str | None = None) -> str | None:
    """The MIME type pagemill will parse ``data`` as, or ``None`` if it cannot parse it."""
    if declared == MIME_RECORD:
        return MIME_RECORD
    head = data[:1024]
    if b"%PDF-" in head:
        return MIME_PDF
    if decode_text(data) is not None:
        if filename and filename.lower().endswith(_MARKDOWN_SUFFIXES):
            return MIME_MARKDOWN
        if declared == MIME_MARKDOWN:
            return MIME_MARKDOWN
        return MIME_TEXT
    return None
