"""docling: Office formats (DOCX, PPTX, XLSX), HTML and CSV to Markdown with headings,
lists and tables; PDFs through its layout-model pipeline only when the model is installed.

docling's standard PDF pipeline needs the layout model ``docling-layout-heron`` even with
OCR and table structure off, and downloads it from the hub on first use.  Offline it is
taken from an artifacts directory (``DOCLING_ARTIFACTS_PATH``); when the model is not there
PDFs go to the text-layer + OCR engines, and the reason is recorded on the document.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path
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
from extractors.mime import MIME_CSV, MIME_DOCX, MIME_HTML, MIME_MARKDOWN, MIME_PDF, MIME_PPTX, MIME_XLSX
from extractors.tables import cells_to_markdown

NAME = "docling"
LAYOUT_MODEL_DIR = "docling-project--docling-layout-heron"
_SUFFIX = {MIME_DOCX: ".docx", MIME_PPTX: ".pptx", MIME_XLSX: ".xlsx", MIME_HTML: ".html",
           MIME_CSV: ".csv", MIME_MARKDOWN: ".md", MIME_PDF: ".pdf"}


def check_pdf_models(artifacts_path: str | None) -> None:
    """Raise EngineUnavailable with the reason when docling cannot parse PDFs offline here."""
    if not artifacts_path:
        raise EngineUnavailable("docling PDF pipeline disabled: DOCLING_ARTIFACTS_PATH is not set "
                                f"(it needs {LAYOUT_MODEL_DIR}, which cannot be downloaded here)")
    if not (Path(artifacts_path) / LAYOUT_MODEL_DIR).is_dir():
        raise EngineUnavailable(f"docling PDF pipeline disabled: {LAYOUT_MODEL_DIR} not found in "
                                f"{artifacts_path}")


def _office_backends() -> tuple[type, type]:
    """docling's Word and PowerPoint backends, never rasterising a drawing with LibreOffice.

    Where LibreOffice is installed (it is here: it reads legacy Office formats), docling
    renders every DrawingML shape and chart without an embedded image into a picture by
    starting ``soffice`` once per shape, 1.5 s each: a Word file with 18 text boxes took 33 s,
    and one with thousands of shapes would reach the hard time limit.  The picture is never
    used here (the Markdown keeps no images, and the shapes' text is read either way), so
    the converter is marked as looked for and absent.  docling has no option for this
    (``render_chart_images`` covers charts only); tests/test_extractors.py fails if a later
    docling starts LibreOffice anyway.
    """
    from docling.backend.mspowerpoint_backend import MsPowerpointDocumentBackend
    from docling.backend.msword_backend import MsWordDocumentBackend

    class WordBackend(MsWordDocumentBackend):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.docx_to_pdf_converter = None
            self.docx_to_pdf_converter_init = True
            self.display_drawingml_warning = False

    class PowerpointBackend(MsPowerpointDocumentBackend):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.pptx_to_pdf_converter = None
            self.pptx_to_pdf_converter_init = True

    return WordBackend, PowerpointBackend


@lru_cache(maxsize=2)
def _converter(artifacts_path: str | None) -> Any:
    from docling.datamodel.base_models import InputFormat
    from docling.datamodel.pipeline_options import PdfPipelineOptions
    from docling.document_converter import (
        DocumentConverter,
        FormatOption,
        PdfFormatOption,
        PowerpointFormatOption,
        WordFormatOption,
    )

    formats = [InputFormat.DOCX, InputFormat.PPTX, InputFormat.XLSX, InputFormat.HTML,
               InputFormat.CSV, InputFormat.MD]
    word, powerpoint = _office_backends()
    options: dict[InputFormat, FormatOption] = {InputFormat.DOCX: WordFormatOption(backend=word),
                                                InputFormat.PPTX: PowerpointFormatOption(backend=powerpoint)}
    if artifacts_path:
        formats.append(InputFormat.PDF)
        pdf = PdfPipelineOptions(artifacts_path=artifacts_path, do_ocr=False)
        options[InputFormat.PDF] = PdfFormatOption(pipeline_options=pdf)
    return DocumentConverter(allowed_formats=formats, format_options=options)


def _tables(document: Any) -> list[Table]:
    tables: list[Table] = []
    for item in document.tables:
        try:
            frame = item.export_to_dataframe(doc=document)
        except Exception:  # a malformed table must not lose the document's text
            continue
        cells = [[str(c) for c in frame.columns]] + [[str(v) for v in row] for row in frame.values.tolist()]
        page = item.prov[0].page_no if getattr(item, "prov", None) else None
        tables.append(Table(cells=cells, markdown=cells_to_markdown(cells), page=page))
    return tables


def _add_office_parts(document: Any, data: bytes, mime_type: str, pages: list[Page]) -> None:
    """Sheet names as headings of their pages (people search spreadsheets by them) and slide
    comments under their slides, which docling's export leaves out."""
    from docling_core.types.doc import GroupLabel

    if mime_type == MIME_XLSX:
        sheets = [g.name for g in document.groups if g.label == GroupLabel.SHEET]
        if len(sheets) == len(pages):
            for page, name in zip(pages, sheets, strict=True):
                page.markdown = f"## {name}\n\n{page.markdown}".rstrip()
    elif mime_type == MIME_PPTX:
        from extractors.ooxml import slide_comments

        for number, lines in slide_comments(data).items():
            slide = next((p for p in pages if p.number == number), pages[-1] if len(pages) == 1 else None)
            if slide is not None:
                slide.markdown = "\n\n".join([slide.markdown, *lines]).strip()


def _convert(data: bytes, mime_type: str, filename: str | None = None,
             artifacts_path: str | None = None) -> ExtractionResult:
    from docling.datamodel.base_models import ConversionStatus, DocumentStream

    if mime_type == MIME_PDF:
        check_pdf_models(artifacts_path)
    stem = Path(filename).stem if filename else "document"
    source = DocumentStream(name=f"{stem}{_SUFFIX[mime_type]}", stream=io.BytesIO(data))
    try:
        result = _converter(artifacts_path).convert(source, raises_on_error=False)
    except Exception as exc:
        raise ExtractionError("corrupt", f"docling could not read the file: {type(exc).__name__}: "
                              f"{exc}") from exc
    if result.status not in (ConversionStatus.SUCCESS, ConversionStatus.PARTIAL_SUCCESS):
        errors = "; ".join(str(e.error_message) for e in result.errors) or str(result.status)
        raise ExtractionError("corrupt", f"docling could not convert the file: {errors}")
    from docling_core.types.doc import ContentLayer

    document = result.document
    # Cell comments are content people search for in spreadsheets (slide comments are added
    # by _add_office_parts); Word comments and speaker notes stay out.
    layers = {ContentLayer.BODY, ContentLayer.NOTES} if mime_type == MIME_XLSX else {ContentLayer.BODY}
    page_numbers = sorted(document.pages) if document.pages else []
    if len(page_numbers) > 1:
        pages = [Page(document.export_to_markdown(page_no=n, included_content_layers=layers), number=n,
                      engine=NAME) for n in page_numbers]
    else:
        pages = [Page(document.export_to_markdown(included_content_layers=layers),
                      number=page_numbers[0] if page_numbers else None, engine=NAME)]
    _add_office_parts(document, data, mime_type, pages)
    title = next((line[2:].strip() for p in pages for line in p.markdown.splitlines()
                  if line.startswith("# ")), None)
    warnings = [str(e.error_message) for e in result.errors]
    return ExtractionResult(pages=pages, extractor=NAME, mime_type=mime_type, title=title,
                            page_count=len(page_numbers) or None, tables=_tables(document),
                            warnings=warnings)


class DoclingEngine(Engine):
    """Office formats, HTML and CSV (no models needed)."""

    name = NAME
    accepts = frozenset(_SUFFIX) - {MIME_PDF}

    def extract(self, request: Request, options: ExtractOptions) -> ExtractionResult:
        return _convert(request.data, request.mime_type, request.filename)


class DoclingPdfLayout(Engine):
    """PDFs through docling's layout model: headings, reading order and tables."""

    name = NAME
    label = "docling PDF layout model"
    accepts = frozenset({MIME_PDF})

    def check(self, options: ExtractOptions) -> None:
        check_pdf_models(options.docling_artifacts_path)

    def extract(self, request: Request, options: ExtractOptions) -> ExtractionResult:
        return _convert(request.data, MIME_PDF, request.filename, options.docling_artifacts_path)


ENGINE = DoclingEngine()
PDF_LAYOUT = DoclingPdfLayout()
