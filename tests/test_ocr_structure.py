"""Structure for OCRed pages: Tesseract's word boxes through the PDF structure stage."""

from __future__ import annotations

import io
import re
import shutil
from dataclasses import replace
from typing import Any

import pytest

from extractors import extract, ocr
from extractors.base import ExtractOptions
from extractors.engine import OcrEngine
from extractors.ocr_layout import layout_from_data, reading_order_kept
from extractors.pdf_structure import PageStructure
from extractors.pdf_words import PageLayout
from tests.corpus import CORPUS, needs_corpus

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None,
                                     reason="the tesseract binary is not installed (apt-get tesseract-ocr)")
OPTIONS = replace(ExtractOptions(), ocr_engines=("tesseract",))
TESSERACT = CORPUS / "tesseract-ocr-test"
TITLE = "Quarterly Water Report"
FIRST = ("The regional network delivered clean water to every district during the quarter,",
         "and the maintenance teams replaced old pipes along the northern valley before the",
         "winter storms arrived.")
SECOND = ("Demand grew in the coastal towns while the harbour plant was under review, so the",
          "council approved a temporary supply contract with the neighbouring utility.")
ROWS = (("Region", "2022", "2023", "Change"), ("North", "1,204", "1,315", "9.2"),
        ("South", "987", "1,022", "3.5"), ("Coastal", "2,410", "2,388", "-0.9"),
        ("Valley", "655", "702", "7.2"))


# ------------------------------------------------------------------ Tesseract's data by hand


Row = tuple[int, int, int, int, int, int, int, int, float, str]


def _data(rows: list[Row]) -> dict[str, list[Any]]:
    """image_to_data's DICT from (level, block, par, line, left, top, width, height, conf, text)."""
    keys = ("level", "block_num", "par_num", "line_num", "left", "top", "width", "height", "conf", "text")
    data: dict[str, list[Any]] = {key: [] for key in ("page_num", "word_num", *keys)}
    for row in rows:
        data["page_num"].append(1)
        data["word_num"].append(1)
        for key, value in zip(keys, row, strict=True):
            data[key].append(value)
    return data


def _word_rows(block: int, par: int, line: int, top: int, words: list[str], height: int,
               left: int = 100, conf: float = 95.0) -> list[Row]:
    rows = []
    for text in words:
        width = 18 * len(text)
        rows.append((5, block, par, line, left, top, width, height, conf, text))
        left += width + 20
    return rows


HAND_MADE = _data(
    [(1, 0, 0, 0, 0, 0, 2000, 2800, -1, ""), (2, 1, 0, 0, 100, 200, 900, 80, -1, "")]
    + _word_rows(1, 1, 1, 200, ["Annual", "Review"], 80)
    + _word_rows(2, 1, 1, 400, ["the", "first", "line", "of", "body", "text"], 40)
    + [(5, 2, 1, 1, 900, 400, 30, 40, -1, " "), (5, 2, 1, 1, 616, 400, 36, 40, 3.0, "xq")]
    + _word_rows(2, 1, 2, 460, ["and", "its", "second", "line", "follows"], 30)
)


def test_layout_from_tesseract_data_scales_boxes_and_sizes_lines():
    layout = layout_from_data(HAND_MADE, 3, (2000, 2800), points_per_pixel=0.36)
    assert layout is not None
    assert layout.number == 3 and (layout.width, layout.height) == pytest.approx((720.0, 1008.0))
    texts = [w.text for w in layout.words]
    # Rows that are not words (conf -1) and empty words go; a low-confidence word stays.
    assert texts == ["Annual", "Review", "the", "first", "line", "of", "body", "text", "xq",
                     "and", "its", "second", "line", "follows"]
    assert [w.line for w in layout.words] == [0, 0] + [1] * 7 + [2] * 5
    assert all(not w.bold and w.font == "" for w in layout.words)
    heading, body, second = layout.words[0], layout.words[2], layout.words[-1]
    assert heading.x0 == pytest.approx(36.0) and heading.top == pytest.approx(72.0)
    # Size: the line's ink height (ascenders to descenders) as 0.9 em, in points.
    assert heading.size == pytest.approx(80 / 0.9 * 0.36)
    assert body.size == pytest.approx(40 / 0.9 * 0.36)
    # A line of the same paragraph measured shorter (no descenders) takes the paragraph's
    # size, and its words reach down as far as that size would.
    assert second.size == body.size and second.bottom - second.top == pytest.approx(body.bottom - body.top)


def test_bullets_bars_and_blanks_are_not_taken_for_words():
    data = _data(
        # A bullet read as "¢", a line of its own left of its item's text.
        [(5, 1, 1, 1, 100, 412, 16, 16, 60.0, "¢")]
        + _word_rows(2, 1, 1, 400, ["Network", "policy", "system"], 40, left=160)
        # A ruled table's row: its vertical rules read as bars; a justified gap read as "_".
        + [(5, 3, 1, 1, 90, 500, 4, 44, 93.0, "|"), (5, 3, 1, 1, 100, 500, 90, 40, 95.0, "North"),
           (5, 3, 1, 1, 200, 500, 4, 44, 93.0, "|"), (5, 3, 1, 1, 220, 500, 30, 4, 30.0, "_"),
           (5, 3, 1, 1, 260, 500, 90, 40, 95.0, "1,204")]
    )
    layout = layout_from_data(data, 1, (1000, 1000))
    assert layout is not None
    assert [w.text for w in layout.words] == ["•", "Network", "policy", "system", "North", "1,204"]
    bullet, item = layout.words[0], layout.words[1]
    assert bullet.line == item.line and (bullet.top, bullet.bottom) == (item.top, item.bottom)
    assert [(r.x0, r.top, r.x1, r.bottom) for r in layout.rulings] == [(92.0, 500.0, 92.0, 544.0),
                                                                      (202.0, 500.0, 202.0, 544.0)]


def test_text_running_down_the_page_gives_no_layout():
    sideways = _data([(5, 1, 1, 1, 100, 100 + 200 * i, 40, 180, 90.0, word)
                      for i, word in enumerate(["text", "read", "sideways"])])
    assert layout_from_data(sideways, 1, (1000, 1000)) is None


def test_reading_order_kept_notices_lines_merged_across_columns():
    layout = layout_from_data(HAND_MADE, 1, (2000, 2800))
    assert layout is not None
    good = "# Annual Review\n\nthe first line of body text xq and its second line follows"
    assert reading_order_kept(layout, PageStructure(1, good)) == 1.0
    bad = "the first line of and its second line follows body text xq"
    assert reading_order_kept(layout, PageStructure(1, bad)) == 0.0
    # Lines the structure stage took out as running lines are not looked for.
    taken_out = PageStructure(1, "Annual Review", running=["the first line of body text xq"])
    assert reading_order_kept(layout, taken_out) == 1.0


# -------------------------------------------------------- the OCR path with a layout engine


class _BoxEngine(OcrEngine):
    """An OCR engine that reads every image as HAND_MADE: the structure step without
    tesseract."""

    name = "boxes"

    def recognise(self, image: Any, options: ExtractOptions) -> str:
        return "Annual Review\n\nthe first line of body text xq\nand its second line follows"

    def recognise_layout(self, image: Any, options: ExtractOptions, number: int,
                         points_per_pixel: float = 1.0) -> tuple[str, PageLayout | None]:
        layout = layout_from_data(HAND_MADE, number, image.size, points_per_pixel)
        return self.recognise(image, options), layout


def _box_pages(monkeypatch: pytest.MonkeyPatch, count: int = 1, **kwargs: Any) -> tuple[list[Any], list[str]]:
    from PIL import Image

    monkeypatch.setitem(ocr.ENGINES, "boxes", _BoxEngine())
    options = replace(ExtractOptions(), ocr_engines=("boxes",))
    images = [(n, Image.new("RGB", (2000, 2800), "white")) for n in range(1, count + 1)]
    pages, _, warnings = ocr.ocr_pages(images, options, **kwargs)
    return pages, warnings


def test_lines_recurring_at_the_top_of_ocred_pages_are_running_headers(monkeypatch):
    pages, _ = _box_pages(monkeypatch, count=3)
    for page in pages:
        assert page.running == ["Annual Review"]
        assert page.markdown == "the first line of body text xq and its second line follows"
        assert [b["kind"] for b in page.blocks] == ["header", "paragraph"]


def test_ocr_pages_structure_a_read_with_word_boxes(monkeypatch):
    pages, warnings = _box_pages(monkeypatch, page_widths={1: 720.0})
    assert not warnings
    (page,) = pages
    assert page.size == pytest.approx((720.0, 1008.0))
    assert page.markdown.splitlines()[0] == "# Annual Review"
    assert [b["kind"] for b in page.blocks] == ["heading", "paragraph"]
    # Boxes in points of the page: 720 points over 2,000 pixels.
    assert page.blocks[0]["box"] == pytest.approx([36.0, 72.0, 0.36 * 336, 100.8], abs=0.1)
    # Quality is the plain text's.
    assert page.quality == ocr.assess(_BoxEngine().recognise(None, ExtractOptions())).score


def test_standalone_image_boxes_stay_in_pixels(monkeypatch):
    pages, _ = _box_pages(monkeypatch)
    assert pages[0].blocks[0]["box"][:2] == [100.0, 200.0]


def test_a_failing_structure_stage_keeps_the_plain_text(monkeypatch):
    def broken(layouts: list[PageLayout], **options: Any) -> list[Any]:
        raise ValueError("boom")

    monkeypatch.setattr(ocr, "structure", broken)
    pages, warnings = _box_pages(monkeypatch)
    assert pages[0].markdown == _BoxEngine().recognise(None, ExtractOptions())
    assert pages[0].blocks == []
    assert any("structure stage failed" in w and "boom" in w for w in warnings)


@pytest.mark.parametrize("angle", [90, 180, 270])
def test_boxes_read_on_a_turned_image_are_put_back_on_the_page(angle):
    # A 200 x 100 page; a box near its top-left corner, seen on the image turned upright.
    width, height = 200.0, 100.0
    box = (10.0, 20.0, 30.0, 25.0)
    turned = {90: (75.0, 10.0, 80.0, 30.0), 180: (170.0, 75.0, 190.0, 80.0),
              270: (20.0, 170.0, 25.0, 190.0)}[angle]
    turned_size = (height, width) if angle in (90, 270) else (width, height)
    assert ocr._displayed(turned, angle, *turned_size) == box


# ------------------------------------------------------------------ a scanned page, for real


@pytest.mark.system
@needs_tesseract
@needs_corpus
@pytest.mark.parametrize("name, angle", [("phototest-rotated-180.png", 180), ("phototest-rotated-L.png", 90)])
def test_a_page_turned_for_ocr_gets_boxes_on_the_page_as_given(name, angle):
    upright = extract((TESSERACT / "phototest.tif").read_bytes(), filename="a.tif", options=OPTIONS)
    turned = extract((TESSERACT / name).read_bytes(), filename=name, options=OPTIONS)
    assert f"rotated {angle} degrees" in " ".join(turned.warnings)
    width, height = upright.pages[0].size
    expected = []
    for block in upright.pages[0].blocks:
        x0, top, x1, bottom = block["box"]
        # The upright page turned back: half a turn, or a quarter turn counter-clockwise.
        expected.append([width - x1, height - bottom, width - x0, height - top] if angle == 180
                        else [top, width - x1, bottom, width - x0])
    assert turned.pages[0].size == ((width, height) if angle == 180 else (height, width))
    got = [v for block in turned.pages[0].blocks for v in block["box"]]
    assert got == pytest.approx([v for box in expected for v in box], abs=3)


def _page_pdf() -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    page = canvas.Canvas(buffer, pagesize=A4)
    height = A4[1]
    page.setFont("Helvetica-Bold", 22)
    page.drawString(72, height - 90, TITLE)
    page.setFont("Helvetica", 11)
    y = height - 130
    for lines in (FIRST, SECOND):
        for line in lines:
            page.drawString(72, y, line)
            y -= 15
        y -= 14
    y -= 10
    for row in ROWS:
        page.drawString(72, y, row[0])
        for x, cell in zip((250, 340, 430), row[1:], strict=True):
            page.drawRightString(x, y, cell)
        y -= 16
    page.showPage()
    page.save()
    return buffer.getvalue()


def _scan(noise: bool) -> Any:
    """The page rendered at 200 dpi in grey, with speckles and a slight skew when ``noise``."""
    import random

    import pypdfium2 as pdfium

    image = pdfium.PdfDocument(_page_pdf())[0].render(scale=200 / 72).to_pil().convert("L")
    if noise:
        rng = random.Random(7)
        pixels = image.load()
        for _ in range(image.width * image.height // 500):
            x, y = rng.randrange(image.width), rng.randrange(image.height)
            pixels[x, y] = 0 if pixels[x, y] > 128 else 255
        image = image.rotate(0.3, fillcolor=255)
    return image


def _image_pdf(image: Any) -> bytes:
    out = io.BytesIO()
    image.save(out, "PDF", resolution=200)
    return out.getvalue()


def _flat(text: str) -> str:
    return " ".join(text.split())


def _assert_structured(result: Any, width: float, height: float, exact: bool = True) -> None:
    """Heading, two paragraphs, the table's rows, boxes on the page; ``exact`` for a clean
    scan, whose words Tesseract reads without a slip (speckles cost a few characters)."""
    (page,) = result.pages
    markdown = page.markdown
    assert f"# {TITLE}" in markdown.splitlines()
    paragraphs = [b for b in page.blocks if b["kind"] == "paragraph"]
    first = [b for b in paragraphs if "network delivered" in b["text"] and "winter storms" in b["text"]]
    second = [b for b in paragraphs if "coastal towns" in b["text"] and "neighbouring utility" in b["text"]]
    assert len(first) == len(second) == 1 and first != second
    if exact:
        assert _flat(" ".join(FIRST)) in _flat(markdown) and _flat(" ".join(SECOND)) in _flat(markdown)
    # The table: a Markdown table when the unruled table finder takes it, else aligned rows;
    # either way a line per row, starting with its label, with its four cells.
    lines = markdown.splitlines()
    for row in ROWS:
        line = next(line for line in lines if line.lstrip("| ").startswith(row[0]))
        if exact:
            assert re.search(r"\s*\|?\s*".join(re.escape(cell) for cell in row), line), row
        assert len(re.findall(r"[\w,.-]+", line.replace("|", " "))) >= len(row), line
    for block in page.blocks:
        x0, top, x1, bottom = block["box"]
        assert 0 <= x0 < x1 <= width and 0 <= top < bottom <= height, block


@pytest.mark.system
@needs_tesseract
@pytest.mark.parametrize("noise", [False, True])
def test_scanned_pdf_page_gets_heading_paragraphs_and_table(noise):
    result = extract(_image_pdf(_scan(noise)), filename="scan.pdf", options=OPTIONS)
    assert result.route == "pdf-ocr" and result.pages[0].engine == "tesseract"
    # The image-only PDF is A4 at 200 dpi: 595 x 842 points.
    _assert_structured(result, 596.0, 843.0, exact=not noise)
    kinds = [b["kind"] for b in result.pages[0].blocks]
    print(noise, kinds, "|" in result.markdown)
    assert kinds[0] == "heading"


@pytest.mark.system
@needs_tesseract
def test_scanned_image_gets_structure_with_pixel_boxes():
    image = _scan(noise=False)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    result = extract(buffer.getvalue(), filename="scan.png", options=OPTIONS)
    assert result.route == "ocr"
    _assert_structured(result, float(image.width), float(image.height))
    # Pixels, not points: the heading starts about an inch (200 pixels) from the left.
    assert 190 <= result.pages[0].blocks[0]["box"][0] <= 215
