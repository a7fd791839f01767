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

MIME_PDF = "application/pdf"
MIME_TEXT = "text/plain"
MIME_MARKDOWN = "text/markdown"
MIME_RECORD = "application/vnd.pagemill.record+json"
MIME_HTML = "text/html"
MIME_XML = "application/xml"
MIME_CSV = "text/csv"
MIME_TSV = "text/tab-separated-values"
MIME_RTF = "application/rtf"
MIME_EML = "message/rfc822"
MIME_MSG = "application/vnd.ms-outlook"
MIME_DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
MIME_PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
MIME_XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
MIME_ODT = "application/vnd.oasis.opendocument.text"
MIME_EPUB = "application/epub+zip"
MIME_DOC = "application/msword"
MIME_XLS = "application/vnd.ms-excel"
MIME_PPT = "application/vnd.ms-powerpoint"
# An OOXML file encrypted with a password is an OLE2 container holding "EncryptedPackage".
MIME_ENCRYPTED_OFFICE = "application/x-encrypted-office"

IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/tiff", "image/webp", "image/gif",
                         "image/bmp"})
OFFICE_TYPES = frozenset({MIME_DOCX, MIME_PPTX, MIME_XLSX})
# What unstructured parses for us (the long tail); legacy binary Office needs LibreOffice.
LONG_TAIL_TYPES = frozenset({MIME_EML, MIME_MSG, MIME_RTF, MIME_ODT, MIME_EPUB, MIME_XML, MIME_TSV,
                             MIME_DOC, MIME_XLS, MIME_PPT})
TEXT_TYPES = frozenset({MIME_TEXT, MIME_MARKDOWN})
# Every type the router has a path for.  Anything else is answered with 415 at submission.
PARSEABLE = (frozenset({MIME_PDF, MIME_RECORD, MIME_HTML, MIME_CSV, MIME_ENCRYPTED_OFFICE})
             | IMAGE_TYPES | OFFICE_TYPES | LONG_TAIL_TYPES | TEXT_TYPES)

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
        for part, mime in ((b"word/", MIME_DOCX), (b"ppt/", MIME_PPTX), (b"xl/", MIME_XLSX)):
            if part in head:
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

    A recognised type is not necessarily parseable (audio, for one): see ``PARSEABLE``.
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
