"""The headings a tagged PDF names in its structure tree, page by page, read with PDFium's
structure-tree API (``FPDF_StructTree_*``, ``FPDF_StructElement_*``).

Exports from Word, LibreOffice or InDesign with "tagged PDF" on carry a tree of structure
elements (``H1``..``H6``, ``H``, ``P``, ``L``, ``Table``...) whose leaves are marked-content
ids (MCIDs); each text object of the page's content says which MCID it is drawn under.  A
heading element's text and box are those of the text objects under its MCIDs.

This module only reads: whether to believe the tags (a tree is often wrong) is decided where
they meet the page's lines, in :mod:`extractors.pdf_evidence`.  Untagged documents cost one
catalog look-up (:func:`is_tagged`).
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass, field
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from extractors.pdf_words import _frame

# Structure types that are headings: H1..H6 say their level, H takes it from the Sect
# elements around it; Title (PDF 2.0) is the document's title, above them all.
_HEADING_TYPE = re.compile(r"^H([1-6])?$")
_TITLE_TYPE = "Title"
_SECTION_TYPE = "Sect"
# A hostile or broken tree must not cost more than this per page.
_MAX_ELEMENTS = 20_000
_MAX_DEPTH = 64
_MAX_LEVEL = 6
_TYPE_BUFFER = 64


@dataclass(frozen=True)
class TaggedHeading:
    """A heading element of the structure tree, with its text as drawn on the page."""

    text: str  # its text objects' text, in content order, whitespace collapsed
    # 1..6: from H1..H6, or from the Sect nesting of a plain H; 0 for the document's Title.
    level: int
    # The union of its text objects' boxes, in the top-left page coordinates of
    # :mod:`extractors.pdf_words`.
    box: tuple[float, float, float, float]


@dataclass
class PageTags:
    """What the structure tree says about one page."""

    number: int  # 1-based
    # The page has a structure tree and most of its text objects are marked content (a
    # "tagged" catalog over untagged pages says nothing about them).
    tagged: bool
    headings: list[TaggedHeading] = field(default_factory=list)
    # Heading elements that have MCIDs but no text object under them: a tree pointing at
    # content that is not there (it is not believed).
    missing: int = 0


def is_tagged(pdf: pdfium.PdfDocument) -> bool:
    """Whether the catalog says the document is tagged (MarkInfo /Marked and a StructTreeRoot)."""
    try:
        return bool(pdfium_c.FPDFCatalog_IsTagged(pdf.raw))
    except (AttributeError, pdfium.PdfiumError):  # an older PDFium without the call
        return False


def read_page_tags(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, number: int) -> PageTags:
    """The page's tagged headings; ``tagged`` is False (and no headings) when the page has no
    structure tree or its text is mostly not marked content."""
    objects = _text_objects(page)
    if not objects or sum(1 for _, mcid in objects if mcid >= 0) < 0.5 * len(objects):
        return PageTags(number, False)
    tree = pdfium_c.FPDF_StructTree_GetForPage(page.raw)
    if not tree:
        return PageTags(number, False)
    try:
        found: list[tuple[str, int, list[int]]] = []
        walker = _Walker(found)
        for index in range(pdfium_c.FPDF_StructTree_CountChildren(tree)):
            element = pdfium_c.FPDF_StructTree_GetChildAtIndex(tree, index)
            if element:
                walker.walk(element, 0, 0)
    finally:
        pdfium_c.FPDF_StructTree_Close(tree)
    result = PageTags(number, True)
    if not found:
        return result
    frame = _frame(page)
    by_mcid: dict[int, list[Any]] = {}
    for obj, mcid in objects:
        if mcid >= 0:
            by_mcid.setdefault(mcid, []).append(obj)
    for _kind, level, mcids in found:
        drawn = [obj for mcid in mcids for obj in by_mcid.get(mcid, [])]
        if not drawn:
            if mcids:
                result.missing += 1
            continue
        text = " ".join(" ".join(_object_text(obj, textpage) for obj in drawn).split())
        boxes = [frame.box(*_object_bounds(obj)) for obj in drawn]
        box = (min(b[0] for b in boxes), min(b[1] for b in boxes),
               max(b[2] for b in boxes), max(b[3] for b in boxes))
        if text:
            result.headings.append(TaggedHeading(text, level, box))
    return result


class _Walker:
    """Depth-first over the structure elements, collecting heading elements with the MCIDs of
    their whole subtree (a heading's text may sit in Span or Link children)."""

    def __init__(self, found: list[tuple[str, int, list[int]]]) -> None:
        self.found = found
        self.seen = 0
        self.type_buffer = ctypes.create_string_buffer(_TYPE_BUFFER)

    def element_type(self, element: Any) -> str:
        # The role-mapped standard type: a custom "Heading 1" style mapped to H1 reads H1.
        length = pdfium_c.FPDF_StructElement_GetType(element, self.type_buffer, _TYPE_BUFFER)
        if length <= 2 or length > _TYPE_BUFFER:
            return ""
        return self.type_buffer.raw[:length - 2].decode("utf-16-le", "replace")

    def walk(self, element: Any, depth: int, sections: int) -> None:
        self.seen += 1
        if self.seen > _MAX_ELEMENTS or depth > _MAX_DEPTH:
            return
        kind = self.element_type(element)
        match = _HEADING_TYPE.match(kind)
        if match or kind == _TITLE_TYPE:
            if kind == _TITLE_TYPE:
                level = 0
            elif match and match.group(1):
                level = int(match.group(1))
            else:  # a plain H: the depth of its section (Document > Sect > H is level 1)
                level = max(1, min(_MAX_LEVEL, sections))
            mcids: list[int] = []
            self.collect(element, mcids, depth)
            self.found.append((kind, level, mcids))
            return
        inner = sections + (1 if kind == _SECTION_TYPE else 0)
        for index in range(pdfium_c.FPDF_StructElement_CountChildren(element)):
            child = pdfium_c.FPDF_StructElement_GetChildAtIndex(element, index)
            if child:
                self.walk(child, depth + 1, inner)

    def collect(self, element: Any, mcids: list[int], depth: int) -> None:
        self.seen += 1
        if self.seen > _MAX_ELEMENTS or depth > _MAX_DEPTH:
            return
        for index in range(pdfium_c.FPDF_StructElement_GetMarkedContentIdCount(element)):
            mcid = pdfium_c.FPDF_StructElement_GetMarkedContentIdAtIndex(element, index)
            if mcid >= 0:
                mcids.append(mcid)
        for index in range(pdfium_c.FPDF_StructElement_CountChildren(element)):
            child = pdfium_c.FPDF_StructElement_GetChildAtIndex(element, index)
            if child:
                self.collect(child, mcids, depth + 1)


def _text_objects(page: pdfium.PdfPage) -> list[tuple[Any, int]]:
    """The page's top-level text objects with their MCIDs (-1: not marked content).  Text in
    form XObjects is left out: its boxes are in the form's space, and a page drawing its text
    that way reads as untagged here (the heuristics take it)."""
    raw = page.raw
    out = []
    for index in range(pdfium_c.FPDFPage_CountObjects(raw)):
        obj = pdfium_c.FPDFPage_GetObject(raw, index)
        if obj and pdfium_c.FPDFPageObj_GetType(obj) == pdfium_c.FPDF_PAGEOBJ_TEXT:
            out.append((obj, pdfium_c.FPDFPageObj_GetMarkedContentID(obj)))
    return out


def _object_text(obj: Any, textpage: pdfium.PdfTextPage) -> str:
    length = pdfium_c.FPDFTextObj_GetText(obj, textpage.raw, None, 0)
    if length <= 2:
        return ""
    units = (ctypes.c_ushort * (length // 2))()
    pdfium_c.FPDFTextObj_GetText(obj, textpage.raw, units, length)
    return bytes(units)[:length - 2].decode("utf-16-le", "replace")


def _object_bounds(obj: Any) -> tuple[float, float, float, float]:
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom, right, top)
    return left.value, bottom.value, right.value, top.value
