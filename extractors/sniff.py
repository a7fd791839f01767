"""Content sniffing: the type of a document comes from its bytes, not its name.

Magic numbers of media come from ``filetype``; containers (ZIP, OLE2) are opened and
identified by their parts, because a DOCX, an EPUB and a JAR all start with ``PK``.
The file name is only a tie-breaker among text formats (Markdown, CSV, TSV).
"""

from __future__ import annotations

import io
import re
import zipfile

import filetype

from extractors.mime import (
    MIME_CSV,
    MIME_DOC,
    MIME_DOCX,
    MIME_EML,
    MIME_ENCRYPTED_OFFICE,
    MIME_EPUB,
    MIME_HTML,
    MIME_MARKDOWN,
    MIME_MSG,
    MIME_ODT,
    MIME_PDF,
    MIME_PPT,
    MIME_PPTX,
    MIME_RECORD,
    MIME_RTF,
    MIME_TEXT,
    MIME_TSV,
    MIME_XLS,
    MIME_XLSX,
    MIME_XML,
)
from extractors.routes import PARSEABLE
from extractors.text_decoding import decode_text

# The type constants live in extractors.mime and the parseable set in extractors.routes (the
# routing table); both are importable from here, where callers have always found them.
__all__ = [
    "MIME_CSV", "MIME_DOC", "MIME_DOCX", "MIME_EML", "MIME_ENCRYPTED_OFFICE", "MIME_EPUB", "MIME_HTML",
    "MIME_MARKDOWN", "MIME_MSG", "MIME_ODT", "MIME_PDF", "MIME_PPT", "MIME_PPTX", "MIME_RECORD",
    "MIME_RTF", "MIME_TEXT", "MIME_TSV", "MIME_XLS", "MIME_XLSX", "MIME_XML", "PARSEABLE",
    "decode_text", "parseable", "sniff",
]

_MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdown", ".mkd")
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_OOXML_PARTS = (("word/document.xml", MIME_DOCX), ("ppt/presentation.xml", MIME_PPTX),
                ("xl/workbook.xml", MIME_XLSX))
_ODF_MIMETYPES = {MIME_ODT.encode(): MIME_ODT, MIME_EPUB.encode(): MIME_EPUB}
_OLE_STREAMS = (("__substg1.0_", MIME_MSG), ("worddocument", MIME_DOC), ("workbook", MIME_XLS),
                ("book", MIME_XLS), ("powerpoint document", MIME_PPT),
                ("encryptedpackage", MIME_ENCRYPTED_OFFICE))
# RFC 5322 header names that, two or more at the top of a text, make it an e-mail.
_MAIL_HEADERS = re.compile(
    rb"^(from|to|subject|date|message-id|received|return-path|mime-version|delivered-to|"
    rb"reply-to|cc|x-[\w-]+|content-type):", re.IGNORECASE | re.MULTILINE)
_HTML_START = re.compile(rb"^\s*(<!--.*?-->\s*)*<(!doctype\s+html|html|head|body)[\s>]",
                         re.IGNORECASE | re.DOTALL)


def _zip_type(data: bytes) -> str | None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
            if "mimetype" in names:
                kind = archive.read("mimetype").strip()
                if kind in _ODF_MIMETYPES:
                    return _ODF_MIMETYPES[kind]
            for part, mime in _OOXML_PARTS:
                if part in names:
                    return mime
    except (zipfile.BadZipFile, OSError, KeyError, EOFError):
        # A truncated Office file still starts with a local header: name the type by the
        # first entry so that the engine reports it as corrupt rather than unsupported.
        head = data[:4096]
        for marker, mime in ((b"word/", MIME_DOCX), (b"ppt/", MIME_PPTX), (b"xl/", MIME_XLSX)):
            if marker in head:
                return mime
    return None


def _ole_type(data: bytes) -> str | None:
    import olefile

    try:
        with olefile.OleFileIO(io.BytesIO(data)) as ole:
            streams = ["/".join(entry).lower() for entry in ole.listdir(streams=True, storages=True)]
    except OSError:
        return None
    for prefix, mime in _OLE_STREAMS:
        if any(name.startswith(prefix) for name in streams):
            return mime
    return None


def _text_type(data: bytes, text: str, filename: str | None, declared: str | None) -> str:
    # Checks run on the decoded text re-encoded, so UTF-16 mail and HTML are recognised too.
    head = text[:2048].encode("utf-8", "replace")
    if head.lstrip().startswith(b"{\\rtf"):
        return MIME_RTF
    if _HTML_START.match(head):
        return MIME_HTML
    stripped = head.lstrip()
    if stripped.startswith(b"<?xml") or (stripped.startswith(b"<") and b"</" in head):
        return MIME_HTML if b"<html" in head.lower() else MIME_XML
    top = head.split(b"\n\n", 1)[0].split(b"\r\n\r\n", 1)[0]
    if len({m.group(1).lower() for m in _MAIL_HEADERS.finditer(top)}) >= 2:
        return MIME_EML
    name = (filename or "").lower()
    if name.endswith(_MARKDOWN_SUFFIXES) or declared == MIME_MARKDOWN:
        return MIME_MARKDOWN
    if name.endswith(".csv") or declared == MIME_CSV:
        return MIME_CSV
    if name.endswith((".tsv", ".tab")) or declared == MIME_TSV:
        return MIME_TSV
    return MIME_TEXT


def sniff(data: bytes, filename: str | None = None, declared: str | None = None) -> str | None:
    """The MIME type of ``data`` as pagemill sees it, or ``None`` if it is unrecognised.

    A recognised type is not necessarily parseable (MIDI, for one): see ``PARSEABLE``, the
    types that have a row in the routing table (:mod:`extractors.routes`).
    """
    if declared == MIME_RECORD:
        return MIME_RECORD
    if b"%PDF-" in data[:1024]:
        return MIME_PDF
    if data.startswith(_OLE_MAGIC):
        return _ole_type(data)
    if data.startswith(b"PK\x03\x04"):
        return _zip_type(data)
    kind = filetype.guess_mime(data[:8192])
    if kind:
        return kind
    text = decode_text(data)
    if text is not None:
        return _text_type(data, text, filename, declared)
    return None


def parseable(data: bytes, filename: str | None = None, declared: str | None = None) -> str | None:
    """The sniffed type when pagemill can parse it, else ``None`` (HTTP 415)."""
    mime = sniff(data, filename=filename, declared=declared)
    return mime if mime in PARSEABLE else None
