"""unstructured (``fast`` strategy, no hub models): e-mail with attachments, RTF, ODT, EPUB,
XML, TSV and legacy Office files, and the fallback for anything docling fails on.

unstructured loads the spaCy model ``en_core_web_sm`` for its text heuristics and downloads
it when missing, which fails offline.  A blank English pipeline with a sentencizer takes its
place: sentence splitting works; part-of-speech tags are empty, so element categories
(title vs narrative text) are approximate -- the text itself is unaffected.
"""

from __future__ import annotations

import io
import os
from functools import lru_cache
from typing import Any

from extractors.base import (
    EngineUnavailable,
    ExtractionError,
    ExtractionResult,
    ExtractOptions,
    Page,
    Table,
)
from extractors.engine import Engine, Request
from extractors.mime import (
    LONG_TAIL_TYPES,
    MIME_CSV,
    MIME_DOC,
    MIME_EML,
    MIME_HTML,
    MIME_MSG,
    MIME_PPT,
    OFFICE_TYPES,
)
from extractors.tables import html_table

NAME = "unstructured"
_NEEDS_LIBREOFFICE = {MIME_DOC: ".doc", MIME_PPT: ".ppt"}


@lru_cache(maxsize=1)
def _offline_nlp() -> Any:
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    return nlp


@lru_cache(maxsize=1)
def _partition() -> Any:
    os.environ.setdefault("UNSTRUCTURED_DISABLE_NOTICE", "1")
    import unstructured.nlp.tokenize as tokenize
    from unstructured.partition.auto import partition

    # Replaces the loader that would download en_core_web_sm (see module docstring).
    tokenize._get_nlp = _offline_nlp
    return partition


def _check_libreoffice(mime_type: str) -> None:
    import shutil

    if mime_type in _NEEDS_LIBREOFFICE and shutil.which("soffice") is None:
        raise EngineUnavailable(f"legacy {_NEEDS_LIBREOFFICE[mime_type]} files need LibreOffice "
                                "(soffice), which is not installed")


def _to_markdown(elements: list[Any]) -> tuple[str, list[Table], str | None]:
    lines: list[str] = []
    tables: list[Table] = []
    title = None
    for element in elements:
        text = str(element).strip()
        if not text:
            continue
        category = element.category
        if category == "Table":
            html = getattr(element.metadata, "text_as_html", None)
            table = html_table(html, getattr(element.metadata, "page_number", None)) if html else None
            if table is not None:
                tables.append(table)
                lines.append(table.markdown)
                continue
        if category == "Title" and len(text) < 200:
            title = title or text
            lines.append(f"## {text}")
        elif category == "ListItem":
            lines.append(f"- {text}")
        else:
            lines.append(text)
    return "\n\n".join(lines), tables, title


def _mail_header(elements: list[Any]) -> list[str]:
    if not elements:
        return []
    meta = elements[0].metadata
    header = []
    for label, value in (("Subject", getattr(meta, "subject", None)),
                         ("From", getattr(meta, "sent_from", None)),
                         ("To", getattr(meta, "sent_to", None))):
        if value:
            header.append(f"**{label}:** {', '.join(value) if isinstance(value, list) else value}")
    return header


def _partition_document(data: bytes, mime_type: str, filename: str | None) -> ExtractionResult:
    _check_libreoffice(mime_type)
    partition_fn = _partition()
    try:
        # Attachments are parsed by pagemill's own router (extractors/mail.py).
        elements = partition_fn(file=io.BytesIO(data), metadata_filename=filename or "document",
                                strategy="fast", process_attachments=False)
    except (ImportError, FileNotFoundError) as exc:
        raise EngineUnavailable(f"unstructured cannot parse {mime_type} here: {exc}") from exc
    except Exception as exc:
        raise ExtractionError("corrupt", f"unstructured could not read the file: "
                              f"{type(exc).__name__}: {exc}") from exc
    markdown, tables, title = _to_markdown(elements)
    parts = []
    if mime_type in (MIME_EML, MIME_MSG):
        header = _mail_header(elements)
        title = next((h.split(":** ", 1)[1] for h in header if h.startswith("**Subject")), title)
        parts.append("\n".join(header))
    parts.append(markdown)
    text = "\n\n".join(p for p in parts if p.strip())
    if not text.strip() and data.strip():
        # unstructured returns no elements, silently, for inputs it could not handle: that is
        # a failure to escalate, not an empty document.
        raise ExtractionError("no_text", "unstructured returned no text from a non-empty file")
    return ExtractionResult(pages=[Page(text, engine=NAME)], extractor=NAME, mime_type=mime_type,
                            title=title, tables=tables)


class UnstructuredEngine(Engine):
    name = NAME
    # Its own long tail, and the formats it reads when docling fails on them.
    accepts = LONG_TAIL_TYPES | OFFICE_TYPES | {MIME_HTML, MIME_CSV}

    def extract(self, request: Request, options: ExtractOptions) -> ExtractionResult:
        return _partition_document(request.data, request.mime_type, request.filename)


ENGINE = UnstructuredEngine()
