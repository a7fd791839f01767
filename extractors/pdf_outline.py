"""A PDF's outline (bookmarks), read with pypdfium2, and how its titles are compared with the
text of a page's lines.

Word and LibreOffice export their headings as bookmarks (one per heading, nested as the
headings are); authors and typesetters add them to long documents.  An entry names a title,
a nesting depth and the page it jumps to: where it matches a line of that page, that line is
a heading, at the entry's depth.  Whether and how the matches are used is decided in
:mod:`extractors.pdf_evidence`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

import pypdfium2 as pdfium

# Outlines are read to this depth and this many entries (a hostile file may hold millions).
_MAX_DEPTH = 8
_MAX_ENTRIES = 5_000
# A section number before a title ("2.1", "IV.", "A.", "Chapter 3:") the line or the entry
# may carry without the other.
_NUMBERING = re.compile(r"^\s*((chapter|section|part|appendix|annex)\s+)?"
                        r"(\d{1,3}(\.\d{1,3}){0,5}[.):]?|([A-Z]|[IVXLC]{1,6})[.):])\s+", re.IGNORECASE)
_NOT_WORD = re.compile(r"[\W_]+")


@dataclass(frozen=True)
class OutlineEntry:
    title: str
    level: int  # 1 for top-level entries
    page: int | None  # 1-based page the entry jumps to; None when it jumps nowhere on a page


def read_outline(pdf: pdfium.PdfDocument) -> list[OutlineEntry]:
    """The outline's entries in document order (empty when the document has none or it is
    unreadable: an outline is a hint, never a reason to fail)."""
    entries: list[OutlineEntry] = []
    try:
        for bookmark in pdf.get_toc(max_depth=_MAX_DEPTH):
            if len(entries) >= _MAX_ENTRIES:
                break
            title = " ".join(bookmark.get_title().split())
            dest = bookmark.get_dest()
            index = dest.get_index() if dest is not None else None
            page = index + 1 if index is not None and index >= 0 else None
            if title:
                entries.append(OutlineEntry(title, bookmark.level + 1, page))
    except (pdfium.PdfiumError, ValueError, OSError):
        return entries
    return entries


def title_key(text: str) -> str:
    """Text as outline titles and lines are compared: compatibility forms folded, a leading
    section number dropped, then only letters and digits, lower case (so "2.1  Methods" and
    "Methods", or "Results\u2013Part A" and "Results - Part A", are one key)."""
    text = unicodedata.normalize("NFKC", text).replace("\x02", "").replace("\u00ad", "")
    text = _NUMBERING.sub("", text, count=1)
    return _NOT_WORD.sub("", text).lower()
