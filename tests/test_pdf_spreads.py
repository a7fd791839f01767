"""Two pages printed side by side on one PDF page (extractors/pdf_spreads.py), and the table
rules that the docling spread showed wanting: a running footer under a table's last row, and
a checklist whose rows open with a symbol font's box."""

from __future__ import annotations

import io

from reportlab.pdfgen import canvas

from extractors import extract
from extractors.base import ExtractOptions
from extractors.pdf_spreads import stack_spread
from extractors.pdf_table_checks import _plausible
from extractors.pdf_tables import find_tables
from extractors.pdf_words import PageLayout, Word

OPTIONS = ExtractOptions(ocr_engines=())
SHEET = (1224.0, 792.0)  # two Letter pages side by side

LEFT = [
    "23. If your country has a public defender, what is the maximum caseload per lawyer?",
    "There is no such limitation on the caseload of a lawyer at one time",
    "24. Do the staff lawyers coordinate to challenge common violations of due process?",
    "Yes, at the national level of the country and its regions",
]
RIGHT = [
    "26. Are there national guidelines on how students are supervised in legal aid?",
    "Yes, there are specific guidelines for the lawyers providing services",
    "27. What type of legal aid services is a student authorized to undertake?",
    "They can represent people in administrative or civil law hearings",
]


def _spread_pdf() -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=SHEET)
    height = SHEET[1]
    pdf.setFont("Helvetica", 9)
    # The two pages' lines on different rhythms, as facing pages' are: read across the
    # sheet, their lines would interleave.
    for i, text in enumerate(LEFT):
        pdf.drawString(72, height - 80 - i * 31, text)
    for i, text in enumerate(RIGHT):
        pdf.drawString(684, height - 95 - i * 23, text)
    pdf.setFont("Helvetica-Bold", 9)
    pdf.drawString(72, 30, "208")
    pdf.drawString(110, 30, "Global Study on Legal Aid")
    pdf.drawString(684, 30, "Annex")
    pdf.drawString(1130, 30, "209")
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_a_spread_is_read_left_page_then_right_page_and_shown_where_it_stands():
    result = extract(_spread_pdf(), filename="spread.pdf", options=OPTIONS)
    markdown = result.markdown
    order = [markdown.index(text) for text in LEFT + RIGHT]
    assert order == sorted(order), markdown
    # Each page's footer (a page number and what stands beside it) is a running line.
    for footer in ("Global Study", "Annex", "208", "209"):
        assert footer not in markdown
    (page,) = result.pages
    assert page.size == SHEET
    def box(text: str) -> list[float]:
        return next(block["box"] for block in page.blocks if text[4:40] in block["text"])

    assert box(LEFT[0])[0] < 612 and box(LEFT[0])[1] < 100
    # The right page's text is boxed where it is shown, not where the layout stacked it.
    assert box(RIGHT[0])[0] > 612 and box(RIGHT[0])[1] < 120


def _word(text: str, x0: float, top: float, size: float = 9.0, font: str = "Helvetica") -> Word:
    return Word(text, x0, top, x0 + 0.5 * size * len(text), top + size, size, False, font=font)


def test_a_wide_table_across_the_middle_is_no_spread():
    # Rows whose cells stand on both halves on shared baselines: one table, however wide the
    # gap down the middle.
    words = []
    for row in range(8):
        top = 100 + row * 14
        words += [_word(f"Region {row}", 72, top), _word(f"{row * 11}", 400, top),
                  _word(f"{row * 13}", 800, top), _word(f"{row * 17}", 1100, top)]
    layout = PageLayout(1, *SHEET, words)
    assert stack_spread(layout) is layout


def test_a_spread_is_stacked_and_an_upright_portrait_page_is_not():
    left = [_word(f"left line {i} of the first page", 72, 80 + 30 * i) for i in range(10)]
    right = [_word(f"right line {i} of the other page", 684, 95 + 21 * i) for i in range(10)]
    stacked = stack_spread(PageLayout(1, *SHEET, left + right))
    assert (stacked.width, stacked.height) == (612.0, 1584.0)
    assert stacked.stacked == [(0.0, 792.0), (792.0, 1584.0)]
    moved = [w for w in stacked.words if w.text.startswith("right")]
    assert min(w.top for w in moved) >= 792 and min(w.x0 for w in moved) == 72
    assert stacked.page_box((72, 887, 100, 896)) == (684, 95, 712, 104)
    portrait = PageLayout(1, 612.0, 792.0, left)
    assert stack_spread(portrait) is portrait
    # Text across the middle: one landscape page.
    title = _word("A title set across the middle of the sheet", 500, 40)
    assert stack_spread(PageLayout(1, *SHEET, [*left, *right, title])).stacked == []


def test_a_running_footer_under_a_table_is_no_row_of_it():
    # A table ending near the page's foot (rows every 18 points, the last at 710).
    words = [_word("Item", 100, 602), _word("Cost", 300, 602), _word("Count", 400, 602)]
    for row in range(6):
        top = 620 + row * 18
        words += [_word(f"Thing{row}", 100, top), _word(f"{row + 10}.5", 300, top),
                  _word(f"{row * 3}", 400, top)]
    # The page's footer in its band, under two pitches below the last row (closer than the
    # gap that ends a table anywhere), its two runs apart.
    words += [_word("Annex", 60, 752), _word("209", 540, 752)]
    (table,) = find_tables(PageLayout(1, 612.0, 792.0, words))
    assert table.cells[-1] == ["Thing5", "15.5", "15"]
    assert all("Annex" not in cell for row in table.cells for cell in row)


def test_a_checklist_opening_each_row_with_one_symbol_is_a_table_a_margin_word_is_not():
    names = ("Children", "Women", "Migrants", "The elderly", "Refugees")
    assert _plausible([["", "", "State funded", "CSOs"]] + [["y", name, "*", "*"] for name in names])
    # The same glyph before a text alone: a list's bullets.
    assert not _plausible([["y", name] for name in names])
    # Letters of a word set down the margin beside prose: no table.
    vertical = [[letter, "words of the running text beside it", "more of the text"] for letter in "SUMMARY"]
    assert not _plausible(vertical)
