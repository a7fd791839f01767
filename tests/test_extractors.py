from pathlib import Path

import pytest

from extractors import ExtractionError, extract
from extractors.sniff import MIME_RECORD

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"


def test_pdf_text_layer_page_by_page():
    result = extract((ROOT / "samples" / "maintenance-report.pdf").read_bytes())
    assert result.extractor == "pdfium-text"
    assert result.page_count == 2
    assert "1.2 million pages" in result.pages[0].markdown
    assert "No job was lost" in result.pages[1].markdown
    assert [p.number for p in result.pages] == [1, 2]


def test_markdown_keeps_headings_and_title():
    result = extract(b"# Title\n\nBody", filename="a.md")
    assert result.extractor == "markdown" and result.title == "Title"


def test_type_comes_from_bytes_not_name():
    # A PDF named .txt is parsed as a PDF.
    data = (ROOT / "samples" / "maintenance-report.pdf").read_bytes()
    assert extract(data, filename="notes.txt").extractor == "pdfium-text"


@pytest.mark.parametrize("data, code", [
    (b"", "empty"),
    (b"   \n ", "empty"),
    (bytes(range(256)) * 20, "unsupported"),
])
def test_bad_input_fails_with_a_code(data, code):
    with pytest.raises(ExtractionError) as info:
        extract(data, filename="x.bin")
    assert info.value.code == code


def test_record_title_becomes_heading():
    result = extract(b'{"id": "1", "title": "T", "text": "body"}', declared=MIME_RECORD)
    assert result.markdown == "# T\n\nbody"


@pytest.mark.skipif(not (CORPUS / "docling" / "pdf_password").exists(), reason="corpus absent")
def test_encrypted_pdf_is_reported_as_encrypted():
    pdf = next((CORPUS / "docling" / "pdf_password").rglob("*.pdf"))
    with pytest.raises(ExtractionError) as info:
        extract(pdf.read_bytes())
    assert info.value.code == "encrypted"


_TEXTBOXES = CORPUS / "docling" / "docx" / "sources" / "textbox.docx"


@pytest.mark.skipif(not _TEXTBOXES.exists(), reason="corpus absent: docling/docx/sources/textbox.docx")
@pytest.mark.system  # importing docling runs `uname -p` (platform.platform())
def test_office_drawings_are_never_rendered_with_libreoffice(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Word file of 18 text boxes: their text is read, and docling never looks for
    LibreOffice to turn the shapes into pictures (one ``soffice`` start per shape)."""
    from docling.backend import mspowerpoint_backend, msword_backend

    from extractors import docling

    asked: list[str] = []

    def look_for_libreoffice() -> None:
        asked.append("converter")

    for backend in (msword_backend, mspowerpoint_backend):
        monkeypatch.setattr(backend, "get_docx_to_pdf_converter", look_for_libreoffice)
    docling._converter.cache_clear()  # a converter built before the patch holds no state of it
    result = extract(_TEXTBOXES.read_bytes(), filename=_TEXTBOXES.name)
    assert result.extractor == "docling"
    assert "Student falls ill" in result.markdown and "<!-- image -->" not in result.markdown
    assert asked == []


def test_routing_table_routes_every_parseable_type_once():
    from extractors.routes import PARSEABLE, ROUTES, route_for
    from extractors.sniff import PARSEABLE as SNIFF_PARSEABLE

    assert SNIFF_PARSEABLE is PARSEABLE
    routed = [mime for route in ROUTES for mime in route.types]
    assert len(routed) == len(set(routed)) and set(routed) == PARSEABLE
    for route in ROUTES:
        assert (route.pipeline is None) != (route.unwrap is None), route.name
        for engine in route.fast + route.quality:
            assert route.types <= engine.accepts, (route.name, engine.name)
        assert all(route_for(mime) is route for mime in route.types)
    assert route_for("audio/midi") is None and route_for(None) is None


def test_every_default_ocr_engine_is_an_engine_object():
    from extractors.base import ExtractOptions
    from extractors.engine import OcrEngine
    from extractors.ocr import ENGINES

    assert set(ExtractOptions().ocr_engines) <= set(ENGINES)
    assert all(isinstance(engine, OcrEngine) and engine.name == name for name, engine in ENGINES.items())


def _pipeline_label(pipeline) -> str:
    inner = getattr(pipeline, "__wrapped__", None)  # on_utf8(...)
    if inner is not None:
        return f"{pipeline.__qualname__.split('.')[0]}({_pipeline_label(inner)})"
    module = pipeline.__module__.removeprefix("extractors.")
    return pipeline.__name__ if module == "pipelines" else f"{module}.{pipeline.__name__}"


def _routing_table() -> str:
    """ROUTES as the table of extractors/routes.py's docstring shows it."""
    from extractors import mime
    from extractors.routes import ROUTES

    names = {value: name.removeprefix("MIME_") for name, value in vars(mime).items()
             if name.startswith("MIME_")}
    rows = [("route", "types", "pipeline", "engines (fast; quality)")]
    for route in ROUTES:
        runs = (_pipeline_label(route.pipeline) if route.pipeline is not None
                else "unwrap: " + _pipeline_label(route.unwrap))
        engines = ", ".join(e.name for e in route.fast)
        if route.quality:
            engines += "; " + ", ".join(e.name for e in route.quality)
        types = sorted(names.get(m) or m.split("/")[1].upper() for m in route.types)
        rows.append((route.name, " ".join(types), runs, engines))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    rule = "  ".join("=" * w for w in widths)

    def line(row: tuple[str, ...]) -> str:
        return "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()

    return "\n".join([rule, line(rows[0]), rule, *map(line, rows[1:]), rule])


def test_the_routing_tables_docstring_shows_the_table():
    from extractors import routes

    table = _routing_table()
    assert table in (routes.__doc__ or ""), f"paste into extractors/routes.py's docstring:\n{table}"


def test_a_row_giving_a_pipeline_the_wrong_number_of_engines_fails_at_import():
    from extractors import images, pdf, pdf_text, plaintext
    from extractors.engine import Route
    from extractors.mime import IMAGE_TYPES, MIME_PDF, MIME_TEXT
    from extractors.pipelines import on_utf8, run_chain, run_one
    from extractors.routes import _by_type

    text = frozenset({MIME_TEXT})
    for bad in (Route("none", text, run_one), Route("two", text, run_one, fast=(plaintext.ENGINE,) * 2),
                Route("wrapped", text, on_utf8(run_one)),
                Route("pdf", frozenset({MIME_PDF}), pdf.run),
                Route("ocr", IMAGE_TYPES, images.run, fast=(plaintext.ENGINE,))):
        with pytest.raises(ValueError, match="fast engine"):
            _by_type((bad,))
    # A chain takes any number.
    _by_type((Route("chain", frozenset({MIME_PDF}), run_chain, fast=(pdf_text.ENGINE,) * 2),))


@pytest.mark.parametrize("configured", [False, True])
def test_doctor_and_ocr_give_one_reason_for_mistral_without_a_key(configured):
    from dataclasses import replace

    from PIL import Image

    from extractors.base import ExtractOptions
    from extractors.capabilities import check_all
    from extractors.mistral import MistralSettings
    from extractors.ocr import ocr_pages

    reason = "Mistral OCR is not configured (MISTRAL_API_KEY is not set)"
    options = replace(ExtractOptions(), ocr_engines=("mistral",),
                      mistral=MistralSettings(api_key=None) if configured else None)
    found = {c.engine: c for c in check_all(options)}
    assert (found["mistral OCR"].available, found["mistral OCR"].detail) == (False, reason)
    _, attempts, _ = ocr_pages([(1, Image.new("RGB", (64, 64), "white"))], options)
    assert [(a.engine, a.error_code, a.error) for a in attempts] == \
        [("mistral", "engine_unavailable", reason)]
