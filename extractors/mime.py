"""The MIME types pagemill tells apart, as constants.

:mod:`extractors.sniff` decides which of them a document is; :mod:`extractors.routes` says
which engines read each one.  Engines import their types from here (not from ``sniff``,
which reads the routing table and so imports the engines).
"""

from __future__ import annotations

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

# Audio and video, as extractors.sniff (filetype's magic numbers) names them; Opus is in Ogg.
MIME_MP3 = "audio/mpeg"
MIME_M4A = "audio/mp4"
MIME_WAV = "audio/x-wav"
MIME_FLAC = "audio/x-flac"
MIME_OGG = "audio/ogg"
MIME_MP4 = "video/mp4"
MIME_M4V = "video/x-m4v"
MIME_MOV = "video/quicktime"
MIME_WEBM = "video/webm"
MIME_MKV = "video/x-matroska"

IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/tiff", "image/webp", "image/gif",
                         "image/bmp"})
OFFICE_TYPES = frozenset({MIME_DOCX, MIME_PPTX, MIME_XLSX})
MAIL_TYPES = frozenset({MIME_EML, MIME_MSG})
TEXT_TYPES = frozenset({MIME_TEXT, MIME_MARKDOWN})
# What unstructured parses for us (the long tail); legacy binary Office needs LibreOffice.
LONG_TAIL_TYPES = MAIL_TYPES | frozenset({MIME_RTF, MIME_ODT, MIME_EPUB, MIME_XML, MIME_TSV,
                                          MIME_DOC, MIME_XLS, MIME_PPT})
# What ffmpeg turns into a track for transcription (extractors.media).
AUDIO_TYPES = frozenset({MIME_MP3, MIME_M4A, MIME_WAV, MIME_FLAC, MIME_OGG})
VIDEO_TYPES = frozenset({MIME_MP4, MIME_M4V, MIME_MOV, MIME_WEBM, MIME_MKV})
MEDIA_TYPES = AUDIO_TYPES | VIDEO_TYPES
