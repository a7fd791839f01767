"""What a tagged PDF's structure tree says about each page, read with PDFium's structure-tree
API (``FPDF_StructTree_*``, ``FPDF_StructElement_*``) and its marked-content marks: headings,
tables, list items, paragraphs and artifacts.

Exports from Word, LibreOffice or InDesign with "tagged PDF" on carry a tree of structure
elements (``H1``..``H6``, ``H``, ``P``, ``L``, ``Table``...) whose leaves are marked-content
ids (MCIDs); each text object of the page's content says which MCID it is drawn under.  An
element's text and boxes are those of the text objects under its MCIDs.  What the tree reads:

- headings: ``H1``..``H6``, ``H`` (its level from the ``Sect`` elements around it), ``Title``;
- tables: ``Table`` > (``THead``/``TBody``/``TFoot`` >) ``TR`` > ``TH``/``TD``, each cell
  placed on the table's grid by its ``ColSpan`` and ``RowSpan`` attributes (a cell the page
  draws nothing of, an empty one, is left out of the page's tree by PDFium: an empty cell;
  marked content right under a ``TR``, a striped row's background, is no cell);
- list items: ``L`` > ``LI`` > ``Lbl`` and ``LBody``, a list inside an item's body one level
  deeper;
- paragraphs (``P`` outside tables and lists): the boxes of their text objects, prose that
  the table finder must not read as a table;
- artifacts: text drawn under an ``/Artifact`` mark (running headers and footers, page
  numbers), which the tree leaves out on purpose.

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

Box = tuple[float, float, float, float]

# Structure types that are headings: H1..H6 say their level, H takes it from the Sect
# elements around it; Title (PDF 2.0) is the document's title, above them all.
_HEADING_TYPE = re.compile(r"^H([1-6])?$")
_TITLE_TYPE = "Title"
_SECTION_TYPE = "Sect"
_TABLE_TYPE = "Table"
_ROW_GROUPS = ("THead", "TBody", "TFoot")
_ROW_TYPE = "TR"
_CELL_TYPES = ("TH", "TD")
_LIST_TYPE = "L"
_ITEM_TYPE = "LI"
_LABEL_TYPE = "Lbl"
_PROSE_TYPE = "P"
_ARTIFACT_MARK = "Artifact"
# A hostile or broken tree must not cost more than this per page.
_MAX_ELEMENTS = 20_000
_MAX_DEPTH = 64
_MAX_LEVEL = 6
# Spans beyond this are a broken attribute, not a table; a grid of more slots than this is
# not read (the slots are allocated from the spans).
_MAX_SPAN = 64
_MAX_SLOTS = 20_000
_TYPE_BUFFER = 64
_MARK_BUFFER = 32


@dataclass(frozen=True)
class TaggedHeading:
    """A heading element of the structure tree, with its text as drawn on the page."""

    text: str  # its text objects' text, in content order, whitespace collapsed
    # 1..6: from H1..H6, or from the Sect nesting of a plain H; 0 for the document's Title.
    level: int
    # The union of its text objects' boxes, in the top-left page coordinates of
    # :mod:`extractors.pdf_words`.
    box: Box


@dataclass(frozen=True)
class TaggedCell:
    """A table cell: its place on the table's grid and its text as drawn."""

    row: int
    column: int
    rows: int  # RowSpan
    columns: int  # ColSpan
    header: bool  # TH
    text: str  # "" for a cell that draws nothing
    boxes: tuple[Box, ...]  # its text objects' boxes


@dataclass(frozen=True)
class TaggedTable:
    """A table element's cells on this page, row by row as the tree orders them."""

    cells: tuple[TaggedCell, ...]
    row_count: int
    column_count: int

    @property
    def box(self) -> Box:
        return union([box for cell in self.cells for box in cell.boxes])


@dataclass(frozen=True)
class TaggedItem:
    """A list item: its label (a bullet, a number) and body text as drawn, and its depth."""

    label: str
    text: str  # the body's text (the label's too when the exporter did not tag it Lbl)
    depth: int  # 1 for an item of a top-level list, one more per list it is nested in
    boxes: tuple[Box, ...]  # its text objects' boxes, label and body (not nested lists)


@dataclass(frozen=True)
class TaggedRegion:
    """Where the text under one element (a paragraph) or one mark (an artifact) is drawn (its
    text is not read: only the boxes are compared with the page's words, and reading every
    paragraph's text would double the cost of reading the tags)."""

    boxes: tuple[Box, ...]


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
    tables: list[TaggedTable] = field(default_factory=list)
    items: list[TaggedItem] = field(default_factory=list)
    prose: list[TaggedRegion] = field(default_factory=list)
    artifacts: list[TaggedRegion] = field(default_factory=list)


def is_tagged(pdf: pdfium.PdfDocument) -> bool:
    """Whether the catalog says the document is tagged (MarkInfo /Marked and a StructTreeRoot)."""
    try:
        return bool(pdfium_c.FPDFCatalog_IsTagged(pdf.raw))
    except (AttributeError, pdfium.PdfiumError):  # an older PDFium without the call
        return False


def read_page_tags(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, number: int) -> PageTags:
    """What the page's structure tree says; ``tagged`` is False (and nothing else is read)
    when the page has no structure tree or its text is mostly not marked content."""
    objects = _text_objects(page)
    # (Text drawn as an artifact is outside the tree on purpose: a page of a heading and a
    # line under a running header and footer is tagged though most of its objects are those.)
    content = [mcid for obj, mcid in objects if mcid >= 0 or not _artifact(obj)]
    if not content or sum(1 for mcid in content if mcid >= 0) < 0.5 * len(content):
        return PageTags(number, False)
    tree = pdfium_c.FPDF_StructTree_GetForPage(page.raw)
    if not tree:
        return PageTags(number, False)
    walker = _Walker()
    try:
        for index in range(pdfium_c.FPDF_StructTree_CountChildren(tree)):
            element = pdfium_c.FPDF_StructTree_GetChildAtIndex(tree, index)
            if element:
                walker.walk(element, 0, 0, 0)
    finally:
        pdfium_c.FPDF_StructTree_Close(tree)
    return _Drawn(page, textpage, objects).page_tags(number, walker)


# ------------------------------------------------------------------------ the tree


@dataclass
class _Cell:
    header: bool
    rows: int
    columns: int
    mcids: list[int]


@dataclass
class _Item:
    depth: int
    label: list[int]
    body: list[int]


class _Walker:
    """Depth-first over the structure elements, collecting the elements this module reads
    with the MCIDs of their subtrees (a heading's text may sit in Span or Link children)."""

    def __init__(self) -> None:
        self.headings: list[tuple[int, list[int]]] = []  # (level, MCIDs)
        self.tables: list[list[list[_Cell | None]]] = []  # rows of cells; None: an empty cell
        self.items: list[_Item] = []
        self.prose: list[list[int]] = []
        self.seen = 0
        self.type_buffer = ctypes.create_string_buffer(_TYPE_BUFFER)

    def element_type(self, element: Any) -> str:
        # The role-mapped standard type: a custom "Heading 1" style mapped to H1 reads H1.
        length = pdfium_c.FPDF_StructElement_GetType(element, self.type_buffer, _TYPE_BUFFER)
        if length <= 2 or length > _TYPE_BUFFER:
            return ""
        return self.type_buffer.raw[:length - 2].decode("utf-16-le", "replace")

    def children(self, element: Any) -> list[Any]:
        """The element's child elements; None for a child PDFium left out (marked content,
        or an element that draws nothing on this page)."""
        return [pdfium_c.FPDF_StructElement_GetChildAtIndex(element, index) or None
                for index in range(pdfium_c.FPDF_StructElement_CountChildren(element))]

    def spent(self, depth: int) -> bool:
        self.seen += 1
        return self.seen > _MAX_ELEMENTS or depth > _MAX_DEPTH

    def walk(self, element: Any, depth: int, sections: int, lists: int) -> None:
        if self.spent(depth):
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
            self.headings.append((level, self.collect(element, depth)))
            return
        if kind == _TABLE_TYPE:
            self.table(element, depth)
            return
        if kind == _LIST_TYPE:
            self.list(element, depth, lists + 1)
            return
        if kind == _PROSE_TYPE:
            self.prose.append(self.collect(element, depth))
            return
        inner = sections + (1 if kind == _SECTION_TYPE else 0)
        for child in self.children(element):
            if child:
                self.walk(child, depth + 1, inner, lists)

    def collect(self, element: Any, depth: int, mcids: list[int] | None = None,
                skip: str = "") -> list[int]:
        """The MCIDs of the element's subtree drawn on this page, in order; subtrees of type
        ``skip`` left out.  MCIDs number a page's marked content: an element drawn over two
        pages (a table's cell broken by a page break) names MCIDs of both, and PDFium's
        ``GetMarkedContentIdAtIndex`` gives them all, whatever their page (page 2's MCID 0 read
        as page 1's: the cell took the page's first heading in); its kids'
        ``GetChildMarkedContentID`` gives only this page's."""
        found: list[int] = [] if mcids is None else mcids
        if self.spent(depth):
            return found
        for index, child in enumerate(self.children(element)):
            if child is None:
                mcid = pdfium_c.FPDF_StructElement_GetChildMarkedContentID(element, index)
                if mcid >= 0:
                    found.append(mcid)
            elif not (skip and self.element_type(child) == skip):
                self.collect(child, depth + 1, found, skip)
        return found

    def table(self, element: Any, depth: int) -> None:
        rows: list[list[_Cell | None]] = []
        for child in self.children(element):
            if not child:
                continue
            kind = self.element_type(child)
            groups = [row for row in self.children(child) if row] if kind in _ROW_GROUPS else [child]
            for row in groups:
                if self.spent(depth + 2) or self.element_type(row) != _ROW_TYPE:
                    continue
                cells: list[_Cell | None] = []
                for index, cell in enumerate(self.children(row)):
                    if not cell:
                        # Marked content right under the row is what the row itself draws (a
                        # striped row's background, Chromium): no cell.  Else an empty cell
                        # (a TD with no content).
                        if pdfium_c.FPDF_StructElement_GetChildMarkedContentID(row, index) < 0:
                            cells.append(None)
                        continue
                    cell_kind = self.element_type(cell)
                    if cell_kind in _CELL_TYPES:
                        cells.append(_Cell(cell_kind == "TH", _span(cell, b"RowSpan"),
                                           _span(cell, b"ColSpan"), self.collect(cell, depth + 3)))
                rows.append(cells)
        if rows:
            self.tables.append(rows)

    def list(self, element: Any, depth: int, level: int) -> None:
        for child in self.children(element):
            if not child or self.spent(depth + 1):
                continue
            kind = self.element_type(child)
            if kind == _LIST_TYPE:  # a list directly in a list: one level deeper
                self.list(child, depth + 1, level + 1)
                continue
            if kind != _ITEM_TYPE:
                continue
            item = _Item(level, [], [])
            self.items.append(item)
            for part in self.children(child):
                if not part:
                    continue
                if self.element_type(part) == _LABEL_TYPE:
                    self.collect(part, depth + 2, item.label)
                    continue
                # The body without its nested lists, which are items of their own.
                self.collect(part, depth + 2, item.body, skip=_LIST_TYPE)
                self.nested_lists(part, depth + 2, level)

    def nested_lists(self, element: Any, depth: int, level: int) -> None:
        for child in self.children(element):
            if not child or self.spent(depth + 1):
                continue
            if self.element_type(child) == _LIST_TYPE:
                self.list(child, depth + 1, level + 1)
            else:
                self.nested_lists(child, depth + 1, level)


def _span(element: Any, name: bytes) -> int:
    """A cell's ColSpan or RowSpan: a number in one of its attribute dictionaries (1 when
    none says)."""
    value = ctypes.c_float()
    for index in range(pdfium_c.FPDF_StructElement_GetAttributeCount(element)):
        attributes = pdfium_c.FPDF_StructElement_GetAttributeAtIndex(element, index)
        if not attributes:
            continue
        found = pdfium_c.FPDF_StructElement_Attr_GetValue(attributes, name)
        if found and pdfium_c.FPDF_StructElement_Attr_GetType(found) == pdfium_c.FPDF_OBJECT_NUMBER \
                and pdfium_c.FPDF_StructElement_Attr_GetNumberValue(found, value):
            return max(1, min(_MAX_SPAN, int(value.value)))
    return 1


# ---------------------------------------------------------------- the drawn content


class _Drawn:
    """The page's text objects by MCID, their text and boxes."""

    def __init__(self, page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, objects: list[tuple[Any, int]]):
        self.textpage = textpage
        self.frame = _frame(page)
        self.objects = objects
        self.by_mcid: dict[int, list[Any]] = {}
        for obj, mcid in objects:
            if mcid >= 0:
                self.by_mcid.setdefault(mcid, []).append(obj)

    def drawn(self, mcids: list[int]) -> list[Any]:
        return [obj for mcid in mcids for obj in self.by_mcid.get(mcid, [])]

    def text(self, objects: list[Any]) -> str:
        return " ".join(" ".join(_object_text(obj, self.textpage) for obj in objects).split())

    def boxes(self, objects: list[Any]) -> tuple[Box, ...]:
        return tuple(self.frame.box(*_object_bounds(obj)) for obj in objects)

    def page_tags(self, number: int, walker: _Walker) -> PageTags:
        result = PageTags(number, True)
        for level, mcids in walker.headings:
            drawn = self.drawn(mcids)
            if not drawn:
                if mcids:
                    result.missing += 1
                continue
            text = self.text(drawn)
            if text:
                result.headings.append(TaggedHeading(text, level, union(list(self.boxes(drawn)))))
        result.tables = [table for rows in walker.tables if (table := self.table(rows)) is not None]
        for item in walker.items:
            label, body = self.drawn(item.label), self.drawn(item.body)
            if body or label:
                result.items.append(TaggedItem(self.text(label), self.text(body), item.depth,
                                               self.boxes(label + body)))
        for mcids in walker.prose:
            drawn = self.drawn(mcids)
            if drawn:
                result.prose.append(TaggedRegion(self.boxes(drawn)))
        result.artifacts = self.artifacts()
        return result

    def table(self, rows: list[list[_Cell | None]]) -> TaggedTable | None:
        """The rows' cells placed on a grid: each cell in the first free slot of its row
        (slots taken by a row span from above are skipped), spanning its columns and rows."""
        taken: set[tuple[int, int]] = set()
        cells: list[TaggedCell] = []
        rows = _dropped_rows_restored(rows)
        for row, found in enumerate(rows):
            column = 0
            for cell in found:
                while (row, column) in taken:
                    column += 1
                spans = (1, 1) if cell is None else (cell.rows, cell.columns)
                taken.update((row + r, column + c) for r in range(spans[0]) for c in range(spans[1]))
                if len(taken) > _MAX_SLOTS:
                    return None
                if cell is not None:
                    drawn = self.drawn(cell.mcids)
                    cells.append(TaggedCell(row, column, cell.rows, cell.columns, cell.header,
                                            self.text(drawn), self.boxes(drawn)))
                column += spans[1]
        if not any(cell.boxes for cell in cells):
            return None  # a table of another page (or one that draws nothing)
        return TaggedTable(tuple(cells), len(rows), max(c for _, c in taken) + 1)

    def artifacts(self) -> list[TaggedRegion]:
        """Text objects outside the tree drawn under an /Artifact mark."""
        return [TaggedRegion(self.boxes([obj])) for obj, mcid in self.objects if mcid < 0 and _artifact(obj)]


def _artifact(obj: Any) -> bool:
    """Whether a text object is drawn under an /Artifact mark."""
    name = (ctypes.c_ushort * _MARK_BUFFER)()
    length = ctypes.c_ulong()
    for index in range(pdfium_c.FPDFPageObj_CountMarks(obj)):
        mark = pdfium_c.FPDFPageObj_GetMark(obj, index)
        if mark and pdfium_c.FPDFPageObjMark_GetName(mark, name, ctypes.sizeof(name), length) \
                and bytes(name)[:max(0, length.value - 2)].decode("utf-16-le", "replace") == _ARTIFACT_MARK:
            return True
    return False


def _dropped_rows_restored(rows: list[list[_Cell | None]]) -> list[list[_Cell | None]]:
    """The rows with an empty row put back where the tree left out a row that cells above
    span down into: a row whose cells fill the table's width by themselves, under cells
    spanning down into it, is the row after the one they span (Chromium leaves out a header
    row that draws nothing as tagged, candidates' names set sideways under their parties,
    "Ward" and "Turnout %" spanning both rows: the first ward's row then took the names' row's
    slots, each of its cells a column right of its own)."""
    def width(cells: list[_Cell | None]) -> int:
        return sum(1 if cell is None else cell.columns for cell in cells)

    full = max((width(cells) for cells in rows), default=0)
    out: list[list[_Cell | None]] = []
    spanned: dict[int, int] = {}  # per row of ``out``, the slots spanned into it from above
    for cells in rows:
        row = len(out)
        if spanned.get(row) and width(cells) == full \
                and all(cell is not None and cell.rows == 1 for cell in cells):
            out.append([])  # (the row the cells above span into: they take all its slots they reach)
            row += 1
        out.append(cells)
        for cell in cells:
            if cell is not None:
                for below in range(row + 1, row + cell.rows):
                    spanned[below] = spanned.get(below, 0) + cell.columns
    return out


def union(boxes: list[Box]) -> Box:
    """The box around ``boxes`` (all zero for none)."""
    if not boxes:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


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
