"""The routing table: each sniffed type -> the pipeline that runs it -> its engines in order.

One row per family of types; a type is in at most one row, every type in a row is one that
each of the row's engines accepts, and a pipeline that takes a fixed number of engines is
given that many (all checked when this module is imported).  The types of all rows are
what pagemill can parse (``PARSEABLE``, answered with 415 otherwise).

Adding a format: a module with its engine (an :class:`extractors.engine.Engine`), its MIME
type in :mod:`extractors.mime` and its detection in :mod:`extractors.sniff`, and a row here.

============  ================================  ================================  =======================
route         types                             pipeline                          engines (fast; quality)
============  ================================  ================================  =======================
record        RECORD                            run_one                           record
text          MARKDOWN TEXT                     run_one                           plaintext
pdf           PDF                               pdf.run                           pdfium-text; docling
ocr           BMP GIF JPEG PNG TIFF WEBP        images.run
docling       CSV DOCX HTML PPTX XLSX           run_chain                         docling, unstructured
unstructured  EML MSG                           on_utf8(mail.run)                 unstructured
unstructured  DOC EPUB ODT PPT RTF TSV XLS XML  on_utf8(run_chain)                unstructured
decrypt       ENCRYPTED_OFFICE                  unwrap: encrypted_office.decrypt
media         FLAC M4A MP3 OGG WAV              media.run
media         M4V MKV MOV MP4 WEBM              media.run
============  ================================  ================================  =======================

The table is ``ROUTES`` below, written out (types by their ``extractors.mime`` names, engines
by name); tests/test_extractors.py fails, printing the table to paste here, when they differ.
What the rows do beyond their engines:

- PDF: the text layer page by page, OCR of its weak pages (the engines of
  ``options.ocr_engines``), and docling's layout model instead when every page is good.
- images: each frame through the OCR engines of ``options.ocr_engines``.
- mail: attachments are read through the router, each a document of its own.
- DOC XLS PPT: unstructured needs LibreOffice for them.
- media: ffmpeg makes a mono 16 kHz track, cut at silences into pieces; each piece goes to the
  transcription providers of ``options.media`` in order (:mod:`extractors.transcribers`).
- encrypted OOXML: decrypted with ``options.password`` (msoffcrypto), then sniffed and routed
  again, once.
"""

from __future__ import annotations

import inspect

from extractors import (
    docling,
    encrypted_office,
    images,
    mail,
    media,
    pdf,
    pdf_text,
    plaintext,
    record,
    unstructured,
)
from extractors.engine import Pipeline, Route
from extractors.mime import (
    AUDIO_TYPES,
    IMAGE_TYPES,
    LONG_TAIL_TYPES,
    MAIL_TYPES,
    MIME_CSV,
    MIME_ENCRYPTED_OFFICE,
    MIME_HTML,
    MIME_PDF,
    MIME_RECORD,
    OFFICE_TYPES,
    TEXT_TYPES,
    VIDEO_TYPES,
)
from extractors.pipelines import on_utf8, run_chain, run_one

ROUTES: tuple[Route, ...] = (
    Route("record", frozenset({MIME_RECORD}), run_one, fast=(record.ENGINE,)),
    Route("text", TEXT_TYPES, run_one, fast=(plaintext.ENGINE,)),
    Route("pdf", frozenset({MIME_PDF}), pdf.run, fast=(pdf_text.ENGINE,), quality=(docling.PDF_LAYOUT,)),
    Route("ocr", IMAGE_TYPES, images.run),
    Route("docling", OFFICE_TYPES | {MIME_HTML, MIME_CSV}, run_chain,
          fast=(docling.ENGINE, unstructured.ENGINE)),
    Route("unstructured", MAIL_TYPES, on_utf8(mail.run), fast=(unstructured.ENGINE,)),
    Route("unstructured", LONG_TAIL_TYPES - MAIL_TYPES, on_utf8(run_chain), fast=(unstructured.ENGINE,)),
    Route("decrypt", frozenset({MIME_ENCRYPTED_OFFICE}), unwrap=encrypted_office.decrypt),
    # Two rows, one pipeline: audio and video differ only in what ffmpeg leaves out (-vn).
    Route("media", AUDIO_TYPES, media.run),
    Route("media", VIDEO_TYPES, media.run),
)


# Pipelines that take a fixed number of fast-track engines (run_one and pdf.run unpack
# ``(engine,) = route.fast``; images.run reads options.ocr_engines instead), so that a row
# giving them another number fails at import, not on its first document.
_FAST_ENGINES: dict[Pipeline, int] = {run_one: 1, pdf.run: 1, images.run: 0, media.run: 0}


def _check(route: Route) -> None:
    if (route.pipeline is None) == (route.unwrap is None):
        raise ValueError(f"route {route.name!r} needs exactly one of a pipeline and an unwrap step")
    if route.pipeline is not None:
        expected = _FAST_ENGINES.get(inspect.unwrap(route.pipeline))
        if expected is not None and len(route.fast) != expected:
            raise ValueError(f"route {route.name!r}: its pipeline takes {expected} fast engine(s), "
                             f"the row gives {len(route.fast)}")
    for engine in route.fast + route.quality:
        if not route.types <= engine.accepts:
            raise ValueError(f"route {route.name!r}: {engine.name} does not accept "
                             f"{sorted(route.types - engine.accepts)}")


def _by_type(routes: tuple[Route, ...]) -> dict[str, Route]:
    table: dict[str, Route] = {}
    for route in routes:
        _check(route)
        for mime in route.types:
            if mime in table:
                raise ValueError(f"{mime} is routed twice ({table[mime].name!r}, {route.name!r})")
            table[mime] = route
    return table


_BY_TYPE = _by_type(ROUTES)
# Every type the router has a path for.  Anything else is answered with 415 at submission.
PARSEABLE = frozenset(_BY_TYPE)


def route_for(mime_type: str | None) -> Route | None:
    """The row for a sniffed type; ``None`` when pagemill cannot parse it."""
    return _BY_TYPE.get(mime_type) if mime_type is not None else None
