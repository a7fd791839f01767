"""The text layer of PDFs, page by page, with pypdfium2 (PDFium), and page rendering for OCR."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from extractors.base import ExtractionError, ExtractionResult, ExtractOptions, Page, Table
from extractors.engine import Engine, Request
from extractors.mime import MIME_PDF
from extractors.pdf_evidence import DocumentEvidence
from extractors.pdf_outline import read_outline
from extractors.pdf_spreads import stack_spread
from extractors.pdf_structure import PageStructure, structure
from extractors.pdf_tags import is_tagged, read_page_tags
from extractors.pdf_words import PageLayout, read_layout
from extractors.tables import cells_to_markdown
from extractors.text_repair import repair_lam_alef, space_script_boundaries

if TYPE_CHECKING:
    from PIL.Image import Image

NAME = "pdfium-text"

# PDFium's error text for a password-protected file.
_PASSWORD_ERRORS = ("password", "security")
# Blocks of the structure kept per page (the parse report shows them; a page has far fewer).
MAX_BLOCKS_PER_PAGE = 500


@dataclass
class PdfText:
    pages: list[Page]
    title: str | None
    signals: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


@contextmanager
def open_pdf(data: bytes, password: str | None = None) -> Iterator[pdfium.PdfDocument]:
    try:
        pdf = pdfium.PdfDocument(data, password=password)
    except pdfium.PdfiumError as exc:
        message = str(exc)
        if any(word in message.lower() for word in _PASSWORD_ERRORS):
            hint = "the password given is wrong" if password else "pass options.password"
            raise ExtractionError("encrypted", f"PDF is password-protected ({hint}): {message}") from exc
        raise ExtractionError("corrupt", f"PDF cannot be opened: {message}") from exc
    try:
        yield pdf
    finally:
        pdf.close()


def _metadata(pdf: pdfium.PdfDocument, key: str) -> str | None:
    try:
        return (pdf.get_metadata_value(key) or "").strip() or None
    except (pdfium.PdfiumError, KeyError):
        return None


def _image_count(page: pdfium.PdfPage) -> int:
    """Images on the page and in its forms (not in forms inside forms), as
    ``page.get_objects(filter=[FPDF_PAGEOBJ_IMAGE], max_depth=2)`` counts them, with PDFium's
    raw calls: that wraps every object of the page (text objects by the thousand) in Python
    to keep the few images (a fortieth of the fast track's time)."""
    try:
        return _images_in(page.raw, pdfium_c.FPDFPage_CountObjects, pdfium_c.FPDFPage_GetObject, forms=True)
    except pdfium.PdfiumError:
        return 0


def _images_in(parent: Any, count_objects: Any, get_object: Any, forms: bool) -> int:
    count = count_objects(parent)
    if count < 0:
        raise pdfium.PdfiumError("Failed to get number of pageobjects.")
    images = 0
    for index in range(count):
        obj = get_object(parent, index)
        if not obj:
            raise pdfium.PdfiumError("Failed to get pageobject.")
        kind = pdfium_c.FPDFPageObj_GetType(obj)
        if kind == pdfium_c.FPDF_PAGEOBJ_UNKNOWN:  # (get_objects gives up on the page there)
            raise pdfium.PdfiumError("Failed to determine pageobject type.")
        if kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
            images += 1
        elif kind == pdfium_c.FPDF_PAGEOBJ_FORM and forms:
            images += _images_in(obj, pdfium_c.FPDFFormObj_CountObjects, pdfium_c.FPDFFormObj_GetObject,
                                 forms=False)
    return images


def read_text_layer(data: bytes, password: str | None = None, max_pages: int | None = None) -> PdfText:
    """Every page's text layer plus the signals the router decides on."""
    with open_pdf(data, password) as pdf:
        count = len(pdf)
        if count == 0:
            raise ExtractionError("empty", "PDF has no pages")
        if max_pages is not None and count > max_pages:
            raise ExtractionError("too_large", f"PDF has {count} pages; the limit is {max_pages}")
        pages: list[Page] = []
        warnings: list[str] = []
        images: list[int] = []
        layouts: list[PageLayout] = []
        evidence = DocumentEvidence()
        tagged = is_tagged(pdf)
        for index in range(count):
            layout = PageLayout(index + 1, 0.0, 0.0)
            text: str | None = ""
            try:
                page = pdf[index]
                textpage = page.get_textpage()
                images.append(_image_count(page))
                layout = _layout(page, textpage, index + 1, warnings)
                if layout.words:
                    text = None  # the structure stage writes it; read only if it does not
                    if tagged:
                        _read_tags(page, textpage, index + 1, evidence, warnings)
                else:
                    layout = PageLayout(index + 1, 0.0, 0.0)
                    text = _plain_text(textpage)
            except pdfium.PdfiumError as exc:
                warnings.append(f"page {index + 1}: text layer unreadable ({exc})")
                images.append(0)
            pages.append(Page(text or "", number=index + 1, engine=NAME))
            layouts.append(layout)
        unread = {page.number for page, layout in zip(pages, layouts, strict=True) if layout.words}
        if unread:
            _read_outline(pdf, evidence, warnings)
        try:
            structured = structure(layouts, evidence)
            for layout, found in zip(layouts, structured, strict=True):
                layout.to_page(found)  # text read in a turned frame: boxes on the page as shown
            _parts_to_pages(layouts, structured)
            tables = _apply_structure(pages, structured)
        except Exception as exc:  # a structure bug must not cost the document its text
            warnings.append(f"structure stage failed, plain text kept ({type(exc).__name__}: {exc})")
            tables = []
            for page in pages:
                if page.number in unread:
                    page.markdown, page.blocks, page.running, page.size = "", [], [], None
        for page in pages:
            # The structure stage wrote nothing (or only running lines): the plain text.  (Not
            # a page that holds only rows of a table begun on an earlier page, written there.)
            if page.number is not None and page.number in unread and not page.markdown.strip() \
                    and not any(block["kind"] == "table_continued" for block in page.blocks):
                page.markdown = _page_text(pdf, page.number, warnings)
        signals = {
            "page_count": count,
            "bytes_per_page": len(data) // count,
            "producer": _metadata(pdf, "Producer"),
            "creator": _metadata(pdf, "Creator"),
            "images_per_page": round(sum(images) / count, 2),
            "chars_per_page": [len(p.markdown) for p in pages],
            "structure": {
                "headings": sum(1 for p in pages for b in p.blocks if b["kind"] == "heading"),
                "tables": len(tables),
                "running_lines": sum(len(p.running) for p in pages),
                # Pages by what decided their headings (tags, outline, heuristics).
                "sources": dict(Counter(p.structure for p in pages if p.structure)),
                "tagged": tagged,
                "outline_entries": len(evidence.outline),
                "evidence_ms": round(evidence.seconds * 1000, 1),
            },
        }
        return PdfText(pages, _metadata(pdf, "Title"), signals, warnings, tables)


def _parts_to_pages(layouts: list[PageLayout], structured: list[PageStructure]) -> None:
    """The parts of tables joined over pages put on their own pages as shown (each part is
    on a page of its own, which may be turned: :meth:`PageLayout.to_page` moved only the
    boxes of the page a block is on)."""
    by_number = {layout.number: layout for layout in layouts}
    for found in structured:
        for block in found.blocks:
            for part in block.parts:
                layout = by_number[part.page]
                part.box = layout.page_box(part.box)
                if layout.placements:
                    part.size = layout.placements[0].shown


def _read_tags(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, number: int,
               evidence: DocumentEvidence, warnings: list[str]) -> None:
    """What the page's tags say (headings, tables, list items, paragraphs, artifacts) into
    ``evidence`` (a broken tree only costs the page its tags: the heuristics take it)."""
    started = time.perf_counter()
    try:
        evidence.tags[number] = read_page_tags(page, textpage, number)
    except Exception as exc:  # PDFium on a malformed tree: the heuristics are still good
        warnings.append(f"page {number}: structure tree unreadable ({type(exc).__name__}: {exc})")
    evidence.seconds += time.perf_counter() - started


def _read_outline(pdf: pdfium.PdfDocument, evidence: DocumentEvidence, warnings: list[str]) -> None:
    started = time.perf_counter()
    try:
        evidence.outline = read_outline(pdf)
    except Exception as exc:  # an outline is a hint, never a reason to fail
        warnings.append(f"outline unreadable ({type(exc).__name__}: {exc})")
    evidence.seconds += time.perf_counter() - started


def _plain_text(textpage: pdfium.PdfTextPage) -> str:
    """The page's text as PDFium lays it out (a line per text line), for pages the structure
    stage does not read."""
    text = repair_lam_alef(textpage, textpage.get_text_bounded())
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    return space_script_boundaries(text).strip()


def _page_text(pdf: pdfium.PdfDocument, number: int, warnings: list[str]) -> str:
    """The plain text of a page whose structure came to nothing, read again: most pages never
    need it, and reading every page's text twice cost a tenth of the fast track's time."""
    try:
        return _plain_text(pdf[number - 1].get_textpage())
    except pdfium.PdfiumError as exc:
        warnings.append(f"page {number}: text layer unreadable ({exc})")
        return ""


def _layout(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, number: int,
            warnings: list[str]) -> PageLayout:
    """The page's words and rulings; an empty layout (the page keeps its plain text) when
    PDFium cannot give them."""
    try:
        return stack_spread(read_layout(page, textpage, number))
    except Exception as exc:  # malformed content streams: the plain text is still good
        warnings.append(f"page {number}: layout unreadable, plain text kept ({type(exc).__name__}: {exc})")
        return PageLayout(number, 0.0, 0.0)


def _apply_structure(pages: list[Page], structured: list[PageStructure]) -> list[Table]:
    """Pages take their structured Markdown, running lines and blocks; the tables found.

    A page the structure stage did not read (no text, an unreadable layout) keeps its plain
    text; so does one whose every line was a running header or footer, which would otherwise
    look empty and be sent to OCR for nothing."""
    tables: list[Table] = []
    for page, found in zip(pages, structured, strict=True):
        if not found.blocks:
            continue
        page.running = found.running
        page.blocks = [block.report() for block in found.blocks[:MAX_BLOCKS_PER_PAGE]]
        page.size = found.size
        page.structure = found.source
        if found.markdown.strip():
            page.markdown = space_script_boundaries(found.markdown)
            if page.markdown != found.markdown:  # spaces inserted: the offsets moved
                for block in page.blocks:
                    block.pop("span", None)
        tables.extend(Table(cells=t.cells, markdown=t.markdown or cells_to_markdown(t.cells),
                            page=page.number) for t in found.tables)
    return tables


def render_pages(data: bytes, numbers: list[int], dpi: int, password: str | None = None,
                 max_pixels: int | None = None) -> Iterator[tuple[int, Image]]:
    """PIL images of the given 1-based pages, one at a time (a 2,000-page scan stays small)."""
    scale = dpi / 72.0
    with open_pdf(data, password) as pdf:
        for number in numbers:
            page = pdf[number - 1]
            width, height = page.get_size()
            pixels = width * scale * height * scale
            if max_pixels and pixels > max_pixels:
                # A poster-sized page at full resolution would exhaust memory: scale it down.
                scale_here = scale * (max_pixels / pixels) ** 0.5
            else:
                scale_here = scale
            yield number, page.render(scale=scale_here).to_pil()


class TextLayerEngine(Engine):
    """The text layer as it is, page by page, with the signals the PDF route decides on."""

    name = NAME
    accepts = frozenset({MIME_PDF})

    def extract(self, request: Request, options: ExtractOptions) -> ExtractionResult:
        layer = read_text_layer(request.data, options.password, options.max_pages)
        return ExtractionResult(pages=layer.pages, extractor=NAME, mime_type=MIME_PDF, title=layer.title,
                                page_count=len(layer.pages), warnings=layer.warnings,
                                signals=layer.signals, tables=layer.tables)


ENGINE = TextLayerEngine()
