"""Small generated PDFs, one failure class each, with their ground truth: the classes of layout
the held-back public PDFs showed the structure stage failing on (issue 32), made here so rules
can be written and tuned on documents that are not the test.

`CASES` maps a class name to a maker; `make_case(name, seed)` returns a `GeneratedReport`
(`tests/pdf_reports.py`'s truth type: headings, paragraphs, tables, expected blocks), so
`bench/pdf_structure.py --cases` scores every class with the same measures as the reports.  A
seed fixes the words, numbers, sizes and fonts; each class keeps its layout and varies the rest.

Classes (each maker's docstring says what its documents hold):
- ``rotated_table``: a landscape table drawn sideways on a portrait page, and a page turned by
  ``/Rotate`` whose content reads upright on screen.
- ``rtl_text``: a right-to-left page of Hebrew and Arabic headings and paragraphs, right-aligned,
  with Latin words and figures mixed in, drawn in visual order as producers do.
- ``rtl_table``: a right-to-left table (first column on the right, header row in Hebrew or
  Arabic, figures in the cells) between right-to-left paragraphs.
- ``page_crossing_table``: a long table that starts mid-page and runs on over the next
  page(s), its header repeated on each page or not; in some seeds a decoy: a table that
  fills a page and a different table at the top of the next one.
- ``ledger_continued``: a long ledger over pages without its header repeated, its dates and
  references a narrow gutter apart that only the header shows; in some seeds a decoy ledger.
- ``two_level_header``, ``three_level_header``: borderless tables whose header has groups
  (years, a measure) centred over the sub-columns below them.
- ``spaced_cells``: borderless cells holding spaces ("New South Wales", "11 111111111",
  "12 500").
- ``dense_listing``: a borderless listing of many columns with gutters narrower than a cell
  gap.
- ``table_styles``: tables neither fully ruled nor bare: shaded rows, a dark header row with
  white text, hairlines under every row, an outer frame.
- ``financial_statement``: a balance sheet: section rows alone in the label column, a notes
  column, amounts in brackets, total rows under hairlines.
- ``wrapped_headers``: borderless column headings wrapped over two lines, wider than the
  narrow columns of counts under them.

Heading impostors (lines set like headings that are not sections, each class mixed with real
headings so recall is measured too): ``captions_notes`` (table and figure captions, "Source:"
and "Note:" lines), ``lead_ins`` (bold phrases that open a paragraph), ``form_fields`` (bold
form labels), ``running_titles`` (a running header below the usual header band),
``letter_blocks`` (letterhead, addresses, date, subject line, signature), ``bold_numbered_items``
(bold numbered list items among numbered sections), ``cover_callouts`` (a cover page's title
block, pull quotes, key figures), ``chart_labels`` (a chart's text, larger than the body),
``paper_front_matter`` (a paper's authors, affiliations, dates and keywords under its title),
``chart_categories`` (a chart's category labels, bold or large, one under another beside
figures), ``letter_subjects`` (a letter's bold subject line without "Re:"), ``titled_values``
(an unnumbered title set like a heading directly over a table).
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas as pdf_canvas
from reportlab.platypus import Table, TableStyle

from tests.pdf_reports import _LABELS, _WORDS, GeneratedReport, Heading, TruthParagraph, TruthTable

Maker = Callable[[int], GeneratedReport]
CASES: dict[str, Maker] = {}


def case(name: str) -> Callable[[Maker], Maker]:
    """Registers a maker under `name` (the class name `--cases` selects)."""

    def register(maker: Maker) -> Maker:
        CASES[name] = maker
        return maker

    return register


def make_case(name: str, seed: int) -> GeneratedReport:
    return CASES[name](seed)


# ---------------------------------------------------------------- shared drawing helpers


def sentence(rng: random.Random, low: int = 6, high: int = 12) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(low, high))]
    text = " ".join(words)
    return text[0].upper() + text[1:] + "."


def title_words(rng: random.Random, count: int = 3) -> str:
    return " ".join(w.capitalize() for w in rng.sample(_WORDS, count))


def numeric_table(rng: random.Random, columns: int, rows: int) -> list[list[str]]:
    """A header row ("Region", "Q1 2021", ...) and rows of a label and right-aligned numbers."""
    labels = rng.sample(_LABELS, rows)
    periods = [rng.choice(("Q1", "Q2", "Q3", "Q4", "FY")) for _ in range(columns - 1)]
    header = ["Region"] + [f"{period} {2020 + i}" for i, period in enumerate(periods)]
    formats = [rng.choice(("{:,.0f}", "{:.1f}", "{:.2f}%")) for _ in range(columns - 1)]
    cells = [header]
    for label in labels:
        row = [label]
        for fmt in formats:
            scale = 1.0 if fmt == "{:,.0f}" else 1000.0
            row.append(fmt.format(rng.uniform(1, 99999) / scale))
        cells.append(row)
    return cells


def markdown_table(cells: list[list[str]]) -> str:
    rows = [f"| {' | '.join(row)} |" for row in cells]
    rows.insert(1, "|" + "---|" * len(cells[0]))
    return "\n".join(rows)


def draw_paragraph(canvas: Any, text: str, x: float, y: float, width: float, font: str = "Helvetica",
                   size: float = 10.0) -> float:
    """Draws `text` wrapped to `width` from baseline `y` down; returns the y below it."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    canvas.setFont(font, size)
    line: list[str] = []
    for word in text.split():
        if line and stringWidth(" ".join([*line, word]), font, size) > width:
            canvas.drawString(x, y, " ".join(line))
            y -= size * 1.3
            line = []
        line.append(word)
    if line:
        canvas.drawString(x, y, " ".join(line))
        y -= size * 1.3
    return y - size * 0.8


def _table_flowable(cells: list[list[str]], ruled: bool, size: float = 9.5) -> Table:
    commands: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
        ("FONTNAME", (0, 1), (-1, -1), "Helvetica"),
        ("FONTSIZE", (0, 0), (-1, -1), size),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
    ]
    if ruled:
        commands.append(("GRID", (0, 0), (-1, -1), 0.5, colors.black))
    return Table(cells, style=TableStyle(commands), hAlign="LEFT")


def _opened_page(seed: int, title: str, rng: random.Random,
                 sentences: int) -> tuple[GeneratedReport, io.BytesIO, Any, float]:
    """An A4 report's first page begun: a level-1 heading and a paragraph of ``sentences``
    sentences under it, in the truth and drawn; the report, its buffer, the canvas, and the
    height under the paragraph."""
    report = GeneratedReport(seed=seed, pdf=b"", title=title)
    buffer = io.BytesIO()
    width, height = A4
    canvas = pdf_canvas.Canvas(buffer, pagesize=A4, invariant=1)
    canvas.setTitle(report.title)
    heading = title_words(rng)
    report.headings.append(Heading(heading, 1, False))
    report.expected_blocks.append(f"# {heading}")
    canvas.setFont("Helvetica-Bold", 16)
    canvas.drawString(56, height - 72, heading)
    text = " ".join(sentence(rng) for _ in range(sentences))
    report.paragraphs.append(TruthParagraph(text, False, False))
    report.expected_blocks.append(text)
    return report, buffer, canvas, draw_paragraph(canvas, text, 56, height - 100, width - 112)


# ---------------------------------------------------------------- the classes


@case("rotated_table")
def rotated_table(seed: int) -> GeneratedReport:
    """Page 1 (portrait): a heading, a paragraph, then a wide table drawn turned 90° (its top
    towards the page's left edge, as a landscape table in a portrait report).  Page 2 carries
    ``/Rotate 90`` and content drawn so that it reads upright once the viewer turns the page:
    a heading, a paragraph and a table."""
    rng = random.Random(seed)
    report, buffer, canvas, _ = _opened_page(seed, f"Rotation {seed}", rng, 3)
    width, height = A4
    cells = numeric_table(rng, rng.randint(6, 8), rng.randint(5, 8))
    ruled = rng.random() < 0.5
    report.tables.append(TruthTable(cells, ruled))
    report.expected_blocks.append(markdown_table(cells))
    table = _table_flowable(cells, ruled)
    tw, th = table.wrapOn(canvas, height - 200, width - 112)
    canvas.saveState()
    # Turned 90° counter-clockwise about a point in the lower half: reads bottom to top.
    canvas.translate(width - 80, 120)
    canvas.rotate(90)
    table.drawOn(canvas, 0, 0)
    canvas.restoreState()
    canvas.showPage()

    # Page 2: /Rotate 90 turns the displayed page clockwise; content is drawn turned the other
    # way in user space so it is upright on screen (a landscape page stored portrait).
    # reportlab swaps the media box of a page it rotates by 90 (it keeps the displayed page in
    # the canvas's size): a landscape canvas size makes the stored page portrait, 842 wide as
    # shown.  (With A4 kept, the page showed portrait, 595 wide, and cut the content at 595.)
    canvas.setPageSize((height, width))
    canvas.setPageRotation(90)
    canvas.saveState()
    canvas.translate(width, 0)
    canvas.rotate(90)
    shown_width, shown_height = height, width
    heading = title_words(rng)
    report.headings.append(Heading(heading, 1, False))
    report.expected_blocks.append(f"# {heading}")
    canvas.setFont("Helvetica-Bold", 16)
    canvas.drawString(56, shown_height - 72, heading)
    text = " ".join(sentence(rng) for _ in range(3))
    report.paragraphs.append(TruthParagraph(text, False, False))
    report.expected_blocks.append(text)
    y = draw_paragraph(canvas, text, 56, shown_height - 100, shown_width - 112)
    cells = numeric_table(rng, rng.randint(5, 7), rng.randint(4, 6))
    ruled = rng.random() < 0.5
    report.tables.append(TruthTable(cells, ruled))
    report.expected_blocks.append(markdown_table(cells))
    table = _table_flowable(cells, ruled)
    _, th = table.wrapOn(canvas, shown_width - 112, shown_height)
    table.drawOn(canvas, 56, y - th - 10)
    canvas.restoreState()
    canvas.showPage()
    canvas.save()
    report.pdf = buffer.getvalue()
    report.page_count = 2
    return report


_TURNED_NAMES = ("Net migration", "Persons employed", "Median pay", "Births", "Households",
                 "Deaths", "Dwellings", "Income support", "Pupils", "Hospital beds")


@case("turned_headers")
def turned_headers(seed: int) -> GeneratedReport:
    """A heading, a paragraph and a table whose column headings are set on their side over
    narrow columns of figures (read upwards or, by seed, downwards, as Word's cell text
    direction btLr/tbRl sets them), the first column's heading upright at the top of its cell;
    no grid (bare, or rules above and below as statistical offices set them), so the columns
    are found by alignment; a closing paragraph."""
    rng = random.Random(seed)
    report, buffer, canvas, below = _opened_page(seed, f"Turned headers {seed}", rng, 2)
    width, height = A4
    top = below - 6
    columns = rng.randint(4, 7)
    cells = numeric_table(rng, columns, rng.randint(4, 7))
    cells[0] = [cells[0][0], *(f"{name} {year}" for name, year in
                               zip(rng.sample(_TURNED_NAMES, columns - 1), range(2019, 2019 + columns),
                                   strict=False))]
    report.tables.append(TruthTable(cells, False))
    report.expected_blocks.append(markdown_table(cells))
    size = rng.choice((8.5, 9.0, 9.5))
    pitch = rng.choice((50.0, 58.0, 66.0))
    lefts = [56.0] + [56.0 + 90.0 + pitch * (c - 1) for c in range(1, columns)]
    band = 8.0 + max(len(t) for t in cells[0]) * size * 0.55  # the header row's height
    upwards = rng.random() < 0.5
    canvas.setFont("Helvetica-Bold", size)
    canvas.drawString(lefts[0], top - size, cells[0][0])  # at the top of its cell
    for c in range(1, columns):
        canvas.saveState()
        if upwards:  # from the foot of the cell up
            canvas.translate(lefts[c] + pitch / 2, top - band)
            canvas.rotate(90)
        else:  # from the top of the cell down
            canvas.translate(lefts[c] + pitch / 2 - size, top - 2)
            canvas.rotate(-90)
        canvas.drawString(0, 0, cells[0][c])
        canvas.restoreState()
    canvas.setFont("Helvetica", size)
    y = top - band - 4 - size * 1.6
    for row in cells[1:]:
        canvas.drawString(lefts[0], y, row[0])
        for c in range(1, columns):
            canvas.drawRightString(lefts[c] + pitch - 8, y, row[c])
        y -= size * 1.6
    if rng.random() < 0.5:  # rules above, under the header and below, none between columns
        right = lefts[-1] + pitch
        canvas.setLineWidth(0.5)
        for rule in (top + 3, top - band - 2, y + size * 0.9):
            canvas.line(56, rule, right, rule)
    text = " ".join(sentence(rng) for _ in range(2))
    report.paragraphs.append(TruthParagraph(text, False, False))
    report.expected_blocks.append(text)
    draw_paragraph(canvas, text, 56, y - 14, width - 112)
    canvas.showPage()
    canvas.save()
    report.pdf = buffer.getvalue()
    report.page_count = 1
    return report


# ---------------------------------------------------------------- right-to-left scripts

# Hebrew and Arabic words (no digits, no punctuation) and the Latin words and figures real
# right-to-left documents mix in; a two-word Latin run tests that it keeps its own order.
_HEBREW = (
    "דוח שנתי תקציב הכנסות הוצאות פרויקט חברה שוק מחקר פיתוח לקוחות שירות איכות צמיחה "
    "תוכנית ניהול מערכת נתונים תוצאות רבעון אזור מכירות עובדים השקעה סיכום מטרה שנה חדש "
    "גדול טוב מדיניות סיכון"
).split()
_ARABIC = (
    "تقرير سنوي ميزانية الإيرادات المصروفات مشروع شركة السوق بحث تطوير العملاء خدمة جودة "
    "نمو خطة إدارة نظام بيانات نتائج الربع منطقة المبيعات الموظفين استثمار ملخص هدف سنة "
    "جديد كبير جيد السياسة"
).split()
_LATIN_RUNS = ("PDF", "Python", "ISO 9001", "Open Source", "API", "2024", "1998", "350", "42")
# Region names of one or two words (a cell whose words must come out in reading order too).
_RTL_REGIONS = {"hebrew": ("צפון", "דרום", "מזרח", "מערב", "מרכז", "חוף", "עמק", "הרים", "צפון מערב",
                           "דרום מזרח", "אזור המרכז"),
                "arabic": ("الشمال", "الجنوب", "الشرق", "الغرب", "الوسط", "الساحل", "الوادي", "الجبال",
                           "الشمال الغربي", "الجنوب الشرقي", "المنطقة الوسطى")}
_RTL_HEADERS = {"hebrew": ("אזור", "מכירות", "הכנסות", "עובדים", "צמיחה", "לקוחות"),
                "arabic": ("المنطقة", "المبيعات", "الإيرادات", "الموظفين", "النمو", "العملاء")}
_DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
_DEJAVU_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def _rtl_fonts() -> tuple[str, str]:
    """DejaVu Sans (regular, bold) registered with reportlab: it has Hebrew and Arabic glyphs
    (presentation forms too), which reportlab's standard fonts lack."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if "DejaVuSans" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont("DejaVuSans", _DEJAVU))
        pdfmetrics.registerFont(TTFont("DejaVuSans-Bold", _DEJAVU_BOLD))
    return "DejaVuSans", "DejaVuSans-Bold"


def visual(text: str) -> str:
    """Logical-order text as a PDF producer draws it (reportlab does neither shaping nor
    bidi): Arabic letters in their joining forms (arabic-reshaper), then the characters in
    display order for a right-to-left line (python-bidi's Unicode bidi algorithm)."""
    import arabic_reshaper
    from bidi import get_display

    return str(get_display(arabic_reshaper.reshape(text), base_dir="R"))


def rtl_sentence(rng: random.Random, script: str, low: int = 8, high: int = 14) -> str:
    words = list(_HEBREW if script == "hebrew" else _ARABIC)
    out = [rng.choice(words) for _ in range(rng.randint(low, high))]
    for _ in range(rng.randint(0, 2)):  # Latin words and figures mixed in, never first
        out.insert(rng.randint(1, len(out) - 1), rng.choice(_LATIN_RUNS))
    return " ".join(out) + "."


def draw_rtl_paragraph(canvas: Any, text: str, right: float, y: float, width: float, font: str,
                       size: float) -> float:
    """Logical-order `text` wrapped to `width` (lines broken in logical order), each line
    drawn right-aligned at `right` in visual order; returns the y below it."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    canvas.setFont(font, size)
    line: list[str] = []
    for word in text.split():
        if line and stringWidth(visual(" ".join([*line, word])), font, size) > width:
            canvas.drawRightString(right, y, visual(" ".join(line)))
            y -= size * 1.35
            line = []
        line.append(word)
    if line:
        canvas.drawRightString(right, y, visual(" ".join(line)))
        y -= size * 1.35
    return y - size * 0.9


@case("rtl_text")
def rtl_text(seed: int) -> GeneratedReport:
    """One right-to-left page: a Hebrew or Arabic title, then three sections (Hebrew and
    Arabic headings, right-aligned), each with a paragraph or two of right-aligned lines that
    mix in Latin words and figures.  Drawn as producers do, in visual order with Arabic
    shaped; the truth is the logical-order text."""
    rng = random.Random(seed)
    regular, bold = _rtl_fonts()
    report = GeneratedReport(seed=seed, pdf=b"", title=f"RTL {seed}")
    buffer = io.BytesIO()
    width, height = A4
    canvas = pdf_canvas.Canvas(buffer, pagesize=A4, invariant=1)
    canvas.setTitle(report.title)
    right, measure = width - 56, width - 112
    body = rng.choice((10.0, 10.5, 11.0))
    first = rng.choice(("hebrew", "arabic"))
    title = " ".join(rng.sample(_HEBREW if first == "hebrew" else _ARABIC, 3))
    report.headings.append(Heading(title, 1, False))
    report.expected_blocks.append(f"# {title}")
    canvas.setFont(bold, 18)
    canvas.drawRightString(right, height - 72, visual(title))
    y = height - 110
    for section in range(3):
        script = first if section != 1 else ("arabic" if first == "hebrew" else "hebrew")
        heading = " ".join(rng.sample(_HEBREW if script == "hebrew" else _ARABIC, rng.randint(2, 3)))
        report.headings.append(Heading(heading, 2, False))
        report.expected_blocks.append(f"## {heading}")
        canvas.setFont(bold, 14)
        canvas.drawRightString(right, y, visual(heading))
        y -= 26
        for _ in range(rng.randint(1, 2)):
            text = " ".join(rtl_sentence(rng, script) for _ in range(rng.randint(2, 3)))
            report.paragraphs.append(TruthParagraph(text, False, False))
            report.expected_blocks.append(text)
            y = draw_rtl_paragraph(canvas, text, right, y, measure, regular, body)
        y -= 8
    canvas.showPage()
    canvas.save()
    report.pdf = buffer.getvalue()
    report.page_count = 1
    return report


def _rtl_table_cells(rng: random.Random, script: str, columns: int, rows: int) -> list[list[str]]:
    """A header row of words in `script` and rows of a region name and figures, in logical
    order: the first column is the one a reader meets first, on the right."""
    header = list(_RTL_HEADERS[script][:columns])
    year = rng.randint(2019, 2024)
    for c in range(1, columns):  # some headers name their year: a word and a figure in a cell
        if rng.random() < 0.4:
            header[c] = f"{header[c]} {year + c}"
    cells = [header]
    for region in rng.sample(_RTL_REGIONS[script], rows):
        row = [region]
        for _ in range(columns - 1):
            fmt, high = rng.choice((("{:,.0f}", 99999.0), ("{:.1f}", 999.0), ("{:.1f}%", 100.0)))
            row.append(fmt.format(rng.uniform(1, high)))
        cells.append(row)
    return cells


def draw_rtl_table(canvas: Any, cells: list[list[str]], right: float, top: float, widths: list[float],
                   fonts: tuple[str, str], size: float, ruled: bool) -> float:
    """`cells` (logical order) drawn right to left: column 0 at `right`, each cell's text
    right-aligned in its column (a column widened to hold its widest cell and a gap); a grid
    when `ruled`.  Returns the y below the table."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    pitch = size * 2.0
    edges = [right]
    for c, w in enumerate(widths):
        widest = max(stringWidth(visual(row[c]), fonts[1] if r == 0 else fonts[0], size)
                     for r, row in enumerate(cells))
        edges.append(edges[-1] - max(w, widest + 2.5 * size))
    for r, row in enumerate(cells):
        canvas.setFont(fonts[1] if r == 0 else fonts[0], size)
        baseline = top - r * pitch - size * 1.35
        for c, text in enumerate(row):
            canvas.drawRightString(edges[c] - 4, baseline, visual(text))
    bottom = top - pitch * len(cells)
    if ruled:
        canvas.setLineWidth(0.5)
        for r in range(len(cells) + 1):
            canvas.line(edges[-1], top - r * pitch, right, top - r * pitch)
        for x in edges:
            canvas.line(x, top, x, bottom)
    return bottom


@case("rtl_table")
def rtl_table(seed: int) -> GeneratedReport:
    """A right-to-left page: a heading and a paragraph (Hebrew or Arabic), then a table whose
    first column (region names) is on the right, header row in the same script and figures
    in the other cells, ruled or not, and a closing paragraph."""
    rng = random.Random(seed)
    fonts = _rtl_fonts()
    script = rng.choice(("hebrew", "arabic"))
    words = _HEBREW if script == "hebrew" else _ARABIC
    report = GeneratedReport(seed=seed, pdf=b"", title=f"RTL table {seed}")
    buffer = io.BytesIO()
    width, height = A4
    canvas = pdf_canvas.Canvas(buffer, pagesize=A4, invariant=1)
    canvas.setTitle(report.title)
    right, measure = width - 56, width - 112
    body = rng.choice((10.0, 10.5, 11.0))
    heading = " ".join(rng.sample(words, 3))
    report.headings.append(Heading(heading, 1, False))
    report.expected_blocks.append(f"# {heading}")
    canvas.setFont(fonts[1], 16)
    canvas.drawRightString(right, height - 72, visual(heading))
    text = " ".join(rtl_sentence(rng, script) for _ in range(3))
    report.paragraphs.append(TruthParagraph(text, False, False))
    report.expected_blocks.append(text)
    y = draw_rtl_paragraph(canvas, text, right, height - 104, measure, fonts[0], body)
    columns = rng.randint(4, 6)
    cells = _rtl_table_cells(rng, script, columns, rng.randint(4, 7))
    ruled = rng.random() < 0.5
    report.tables.append(TruthTable(cells, ruled))
    report.expected_blocks.append(markdown_table(cells))
    widths = [rng.choice((80.0, 90.0))] + [rng.choice((64.0, 72.0, 80.0))] * (columns - 1)
    y = draw_rtl_table(canvas, cells, right, y - 6, widths, fonts, body - 0.5, ruled)
    text = " ".join(rtl_sentence(rng, script) for _ in range(2))
    report.paragraphs.append(TruthParagraph(text, False, False))
    report.expected_blocks.append(text)
    draw_rtl_paragraph(canvas, text, right, y - 24, measure, fonts[0], body)
    canvas.showPage()
    canvas.save()
    report.pdf = buffer.getvalue()
    report.page_count = 1
    return report


def long_table(rng: random.Random, columns: int, rows: int, first: str = "Region") -> list[list[str]]:
    """A header row and `rows` rows of a unique label and numbers, one format per column."""
    names = rng.sample(_LABELS, len(_LABELS))
    periods = [rng.choice(("Q1", "Q2", "Q3", "Q4", "FY")) for _ in range(columns - 1)]
    start = rng.randint(2010, 2020)
    header = [first] + [f"{period} {start + i}" for i, period in enumerate(periods)]
    formats = [rng.choice(("{:,.0f}", "{:.1f}", "{:.2f}%")) for _ in range(columns - 1)]
    cells = [header]
    for index in range(rows):
        row = [f"{names[index % len(names)]} {index // len(names) + 1}"]
        for fmt in formats:
            scale = 1.0 if fmt == "{:,.0f}" else 1000.0
            row.append(fmt.format(rng.uniform(1, 99999) / scale))
        cells.append(row)
    return cells


def _long_table_flowable(cells: list[list[str]], ruled: bool, repeat: bool, look: Any) -> Table:
    commands: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, 0), look.bold_font),
        ("FONTNAME", (0, 1), (-1, -1), look.body_font),
        ("FONTSIZE", (0, 0), (-1, -1), look.body_size - 0.5),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
    ]
    if ruled:
        commands.append(("GRID", (0, 0), (-1, -1), 0.5, colors.black))
    return Table(cells, style=TableStyle(commands), hAlign="LEFT", repeatRows=1 if repeat else 0)


def _page_filling_rows(rng: random.Random, columns: int, ruled: bool, look: Any, room: tuple[float, float],
                       first: str) -> list[list[str]]:
    """A table with as many rows as fill a whole frame of ``room`` (width, height)."""
    rows = 4
    while True:
        cells = long_table(random.Random(rng.random()), columns, rows + 1, first)
        _, needed = _long_table_flowable(cells, ruled, False, look).wrap(*room)
        if needed > room[1]:
            return long_table(rng, columns, rows, first)
        rows += 1


@case("page_crossing_table")
def page_crossing_table(seed: int) -> GeneratedReport:
    """A report (platypus, running header and page footer as tests/pdf_reports.py's) where a
    long table of 25-60 rows, ruled or not, starts mid-page and continues on the next page or
    two, its header row repeated at the top of each page (``repeatRows=1``) in some seeds and
    not in others; a paragraph and a heading follow it.  The truth is one table.  In about
    half the seeds a decoy follows on a fresh page: a table that fills the page, then at the
    top of the next page a different table (another first column and periods, sometimes
    another column count), with a heading between them in some seeds: two tables."""
    writer, title = _report_writer(seed, "Report")
    rng, look, report = writer.rng, writer.look, writer.report
    writer.heading(1)
    for _ in range(rng.randint(1, 3)):
        writer.paragraph()
    writer.heading(2)
    writer.paragraph((1, 3))
    ruled = rng.random() < 0.5
    cells = long_table(rng, rng.randint(3, 6), rng.randint(25, 60))
    report.tables.append(TruthTable(cells, ruled))
    report.expected_blocks.append(markdown_table(cells))
    writer.story.append(_long_table_flowable(cells, ruled, rng.random() < 0.5, look))
    writer.paragraph((2, 4))
    writer.heading(2)
    writer.paragraph()
    if rng.random() < 0.5:
        width, height = look.pagesize
        room = (width - 2 * 56.0 - 12, height - 64.0 - 56.0 - 12)  # the frame less its padding
        columns = rng.randint(3, 5)
        filling = _page_filling_rows(rng, columns, ruled, look, room, "Region")
        other = long_table(rng, columns + rng.choice((0, 0, 1)), rng.randint(5, 9), "District")
        _decoys(writer, [(filling, _long_table_flowable(filling, ruled, False, look)),
                         (other, _long_table_flowable(other, ruled, False, look))], ruled)
    return _built(writer, title)


def _report_writer(seed: int, noun: str) -> tuple[Any, str]:
    """A report's writer (tests/pdf_reports.py's look drawn from ``seed``) and its title."""
    from tests.pdf_reports import _pick_look, _Writer

    rng = random.Random(seed)
    look = _pick_look(rng)
    title = f"{title_words(rng, 2)} {noun} {2019 + rng.randrange(8)}"
    return _Writer(rng, look, GeneratedReport(seed=seed, pdf=b"", title=title, header=title)), title


def _decoys(writer: Any, tables: list[tuple[list[list[str]], Table]], ruled: bool) -> None:
    """A page break, then the two decoy tables (their cells and flowables), a heading between
    them in some seeds, and paragraphs after."""
    from reportlab.platypus import PageBreak

    writer.story.append(PageBreak())
    for index, (cells, flowable) in enumerate(tables):
        if index and writer.rng.random() < 0.5:
            writer.heading(2)
        writer.report.tables.append(TruthTable(cells, ruled))
        writer.report.expected_blocks.append(markdown_table(cells))
        writer.story.append(flowable)
    writer.paragraph((2, 3))


def _built(writer: Any, title: str) -> GeneratedReport:
    """The report of ``writer``'s story, typeset on one page template with its running lines."""
    from reportlab.platypus import BaseDocTemplate

    from tests.pdf_reports import _running_canvas, _templates

    look, report = writer.look, writer.report
    buffer = io.BytesIO()
    document = BaseDocTemplate(buffer, pagesize=look.pagesize, title=title, author="pagemill tests",
                               invariant=1, pageTemplates=_templates(look)[:1])
    document.build(writer.story, canvasmaker=_running_canvas(title, look))
    report.pdf = buffer.getvalue()
    report.page_count = document.page
    report.footers = [f"Page {n} of {report.page_count}" if look.footer_of_total else str(n)
                      for n in range(1, report.page_count + 1)]
    return report


def ledger_rows(rng: random.Random, rows: int, first: str = "Item", paid: bool = True) -> list[list[str]]:
    """A ledger's header and `rows` rows: a label, a date, a reference, an amount (a share
    paid)."""
    names = rng.sample(_LABELS, len(_LABELS))
    header = [first, "Date", "Reference", "Amount"] + (["Paid"] if paid else [])
    cells = [header]
    for index in range(rows):
        date = f"{rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/2023"
        row = [f"{names[index % len(names)]} {index // len(names) + 1}", date,
               f"INV-{rng.randint(10000, 99999)}", f"£{rng.randint(1000, 1999999):,}"]
        if paid:
            row.append(f"{rng.uniform(-20, 60):.1f}%")
        cells.append(row)
    return cells


def _ledger_flowable(cells: list[list[str]], gutter: float, look: Any, rule: bool) -> Table:
    """A ledger as a spreadsheet prints one: header labels left-aligned, dates right-aligned
    against references left-aligned `gutter` points away, amounts right-aligned, no header
    repeated on the next page; a rule under the header or none."""
    commands: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, 0), look.bold_font),
        ("FONTNAME", (0, 1), (-1, -1), look.body_font),
        ("FONTSIZE", (0, 0), (-1, -1), look.body_size - 0.5),
        ("ALIGN", (1, 1), (1, -1), "RIGHT"),
        ("ALIGN", (3, 1), (-1, -1), "RIGHT"),
        ("RIGHTPADDING", (1, 0), (1, -1), gutter / 2),
        ("LEFTPADDING", (2, 0), (2, -1), gutter / 2),
    ]
    if rule:
        commands.append(("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black))
    return Table(cells, style=TableStyle(commands), hAlign="LEFT", repeatRows=0)


@case("ledger_continued")
def ledger_continued(seed: int) -> GeneratedReport:
    """A report (platypus, running header and page footer) where a long ledger of 40-90 rows
    starts mid-page and runs on over the next page or two without its header: right-aligned
    dates against left-aligned references 3-4 pt apart, a gutter only the header's labels
    show (on the next page nothing confirms it).  The truth is one table.  In about half the
    seeds a decoy follows on a fresh page: a ledger that fills the page, then at the top of
    the next page a different ledger (another first column, its own header, with or without
    the share paid), a heading between them in some seeds: two tables."""
    writer, title = _report_writer(seed, "Accounts")
    rng, look, report = writer.rng, writer.look, writer.report
    writer.heading(1)
    writer.paragraph((1, 3))
    gutter, rule = rng.uniform(3.0, 4.0), rng.random() < 0.5
    cells = ledger_rows(rng, rng.randint(40, 90), paid=rng.random() < 0.7)
    report.tables.append(TruthTable(cells, False))
    report.expected_blocks.append(markdown_table(cells))
    writer.story.append(_ledger_flowable(cells, gutter, look, rule))
    writer.paragraph((2, 4))
    if rng.random() < 0.5:
        width, height = look.pagesize
        room = (width - 2 * 56.0 - 12, height - 64.0 - 56.0 - 12)  # the frame less its padding
        count = 4
        while _ledger_flowable(ledger_rows(random.Random(0), count + 1), gutter, look,
                               rule).wrap(*room)[1] <= room[1]:
            count += 1
        filling = ledger_rows(rng, count)
        other = ledger_rows(rng, rng.randint(5, 9), "Supplier", paid=rng.random() < 0.5)
        _decoys(writer, [(filling, _ledger_flowable(filling, gutter, look, rule)),
                         (other, _ledger_flowable(other, gutter, look, rule))], False)
    return _built(writer, title)


# ---------------------------------------------------------------- harder borderless tables


_STATES = ("New South Wales", "Victoria", "Queensland", "South Australia", "Western Australia",
           "Tasmania", "Northern Territory", "Australian Capital Territory", "North Island",
           "South Island", "Bay of Plenty", "Hawke's Bay")


class _Story:
    """A one-column page under construction: its truth and its flowables, opened by a heading
    of three title words (drawn from ``rng`` first)."""

    def __init__(self, seed: int, title: str, rng: random.Random) -> None:
        from reportlab.lib.styles import ParagraphStyle
        from reportlab.platypus import Paragraph

        self.title, self.rng = title, rng
        self.report = GeneratedReport(seed=seed, pdf=b"", title=title)
        heading = title_words(rng)
        self.report.headings.append(Heading(heading, 1, False))
        self.report.expected_blocks.append(f"# {heading}")
        self.body = ParagraphStyle("body", fontName="Helvetica", fontSize=10, leading=13, spaceAfter=8)
        self.flowables: list[Any] = [Paragraph(heading, ParagraphStyle(
            "h1", fontName="Helvetica-Bold", fontSize=16, leading=20, spaceAfter=10))]

    def paragraph(self) -> None:
        """A paragraph of three sentences."""
        from reportlab.platypus import Paragraph

        text = " ".join(sentence(self.rng) for _ in range(3))
        self.report.paragraphs.append(TruthParagraph(text, False, False))
        self.report.expected_blocks.append(text)
        self.flowables.append(Paragraph(text, self.body))

    def table(self, cells: list[list[str]], commands: list[tuple[Any, ...]], align: str = "LEFT",
              drawn: list[list[str]] | None = None) -> None:
        """A table with no grid of its own (truth: unruled), set apart by a little space;
        ``drawn``: the cells as drawn when they differ from the truth (line breaks in cells)."""
        from reportlab.platypus import Spacer

        self.report.tables.append(TruthTable(cells, False))
        self.report.expected_blocks.append(markdown_table(cells))
        table = Table(drawn or cells, style=TableStyle(commands), hAlign=align)
        self.flowables += [Spacer(1, 4), table, Spacer(1, 10)]

    def built(self) -> GeneratedReport:
        """The report with its PDF (A4, fixed margins, reproducible bytes)."""
        from reportlab.platypus import SimpleDocTemplate

        buffer = io.BytesIO()
        document = SimpleDocTemplate(buffer, pagesize=A4, title=self.title, invariant=1, leftMargin=56,
                                     rightMargin=56, topMargin=64, bottomMargin=56)
        document.build(self.flowables)
        self.report.pdf = buffer.getvalue()
        self.report.page_count = document.page
        return self.report


def _borderless_page(seed: int, title: str, cells: list[list[str]], spans: list[tuple[int, int, int]],
                     header_rows: int, rng: random.Random, size: float, padding: float = 6.0,
                     booktabs: bool = False, align: str = "RIGHT") -> GeneratedReport:
    """A heading, a paragraph, the borderless table `cells` (a spanning header cell's text in
    the first cell it covers; `spans` (row, first, last column) centre it over its columns),
    and a closing paragraph; figure columns aligned `align`.  `booktabs` draws rules above
    and below the table and under the header, none between columns (so it is read by
    alignment, not as a grid)."""
    page = _Story(seed, title, rng)
    for _ in range(2):
        page.paragraph()
        if len(page.flowables) == 2:
            commands: list[tuple[Any, ...]] = [
                ("FONTNAME", (0, 0), (-1, header_rows - 1), "Helvetica-Bold"),
                ("FONTNAME", (0, header_rows), (-1, -1), "Helvetica"),
                ("FONTSIZE", (0, 0), (-1, -1), size),
                ("LEADING", (0, 0), (-1, -1), size * 1.2),
                ("ALIGN", (1, 0), (-1, -1), align),
                ("LEFTPADDING", (0, 0), (-1, -1), padding / 2),
                ("RIGHTPADDING", (0, 0), (-1, -1), padding / 2),
            ]
            for row, first, last in spans:
                commands += [("SPAN", (first, row), (last, row)),
                             ("ALIGN", (first, row), (last, row), "CENTER")]
            if booktabs:
                commands += [("LINEABOVE", (0, 0), (-1, 0), 1.0, colors.black),
                             ("LINEBELOW", (0, header_rows - 1), (-1, header_rows - 1), 0.5, colors.black),
                             ("LINEBELOW", (0, -1), (-1, -1), 1.0, colors.black)]
            page.table(cells, commands)
    return page.built()


def _figures(rng: random.Random, count: int) -> list[str]:
    """`count` figures of one format (a column's cells)."""
    fmt, high = rng.choice((("{:,.0f}", 99999.0), ("{:.1f}", 999.0), ("{:.1f}%", 100.0)))
    return [fmt.format(rng.uniform(1, high)) for _ in range(count)]


def _grouped_header(rng: random.Random, levels: int) -> tuple[list[list[str]], list[tuple[int, int, int]],
                                                              int]:
    """Header rows of a table with `levels` header levels: the stub ("Region") in the top
    row, then groups spanning their sub-columns (a measure over years over quarters); the
    spanning text in the first column it covers.  Returns rows, spans and the column count."""
    quarters = rng.choice((["Q1", "Q2"], ["Q1", "Q2", "Q3"], ["H1", "H2"], ["Q3", "Q4"], ["Plan", "Actual"]))
    years = [str(y) for y in range(rng.randint(2018, 2022), 2030)][:rng.randint(2, 3 if levels == 2 else 2)]
    columns = 1 + len(quarters) * len(years)
    rows: list[list[str]] = []
    spans: list[tuple[int, int, int]] = []
    if levels == 3:
        measure = rng.choice(("Revenue", "Sales volume", "Operating cost", "Customers served"))
        rows.append(["Region", measure] + [""] * (columns - 2))
        spans.append((0, 1, columns - 1))
    year_row = [""] * columns
    for i, year in enumerate(years):
        first = 1 + i * len(quarters)
        year_row[first] = year
        spans.append((len(rows), first, first + len(quarters) - 1))
    if levels == 2:
        year_row[0] = "Region"
    rows.append(year_row)
    rows.append([""] + quarters * len(years))
    return rows, spans, columns


def _multi_level_table(seed: int, levels: int) -> GeneratedReport:
    rng = random.Random(seed)
    header, spans, columns = _grouped_header(rng, levels)
    labels = rng.sample(_LABELS, rng.randint(4, 8))
    columns_of_figures = [_figures(rng, len(labels)) for _ in range(columns - 1)]
    cells = header + [[label] + [col[r] for col in columns_of_figures] for r, label in enumerate(labels)]
    return _borderless_page(seed, f"Grouped {levels} {seed}", cells, spans, len(header), rng,
                            rng.choice((8.5, 9.0, 9.5)), padding=rng.choice((8.0, 10.0, 12.0)),
                            booktabs=rng.random() < 0.5)


@case("two_level_header")
def two_level_header(seed: int) -> GeneratedReport:
    """A borderless table whose header has a row of groups (years, centred) spanning the
    sub-columns (quarters) of the row under it, the stub heading "Region" in the top row;
    rows of a region and figures.  Booktabs-style rules (top, under the header, bottom) in
    some seeds.  Spanning header text is truth in the first column it covers."""
    return _multi_level_table(seed, 2)


@case("three_level_header")
def three_level_header(seed: int) -> GeneratedReport:
    """As ``two_level_header`` with one more level on top: a measure spanning every figure
    column, over years, over quarters."""
    return _multi_level_table(seed, 3)


@case("spaced_cells")
def spaced_cells(seed: int) -> GeneratedReport:
    """A borderless table whose cells hold spaces: multi-word state names ("New South
    Wales"), account numbers in two groups ("11 111111111"), figures with a space as the
    thousands separator ("12 500", right-aligned), and a plain figure column."""
    rng = random.Random(seed)
    states = rng.sample(_STATES, rng.randint(5, 9))
    prefix = f"{rng.randint(10, 99)}"
    header = ["State", rng.choice(("Account", "Licence no.", "Register")),
              rng.choice(("Population", "Households", "Area km2")), rng.choice(("Growth %", "Share %"))]
    cells = [header]
    for state in states:
        number = f"{rng.randint(1, 9_999_999):,}".replace(",", " ")
        account = f"{prefix} {rng.randint(100_000_000, 999_999_999)}"
        cells.append([state, account, number, f"{rng.uniform(-5, 15):.1f}"])
    return _borderless_page(seed, f"Spaced {seed}", cells, [], 1, rng, rng.choice((9.0, 9.5, 10.0)),
                            padding=rng.choice((10.0, 14.0, 18.0)), booktabs=rng.random() < 0.5)


_TABLE_STYLES = ("zebra", "shaded_header", "row_rules", "box", "shaded_box")


@case("table_styles")
def table_styles(seed: int) -> GeneratedReport:
    """Two tables in the house styles of statistical offices and annual reports, neither a
    full grid nor bare: rows shaded in turn with no lines (``zebra``), a header row of white
    bold text on a dark fill (``shaded_header``), a hairline under every row and no column
    rules (``row_rules``), only an outer frame and a rule under the header (``box``), or a
    shaded header inside a frame (``shaded_box``); paragraphs before, between and after."""
    rng = random.Random(seed)
    page = _Story(seed, f"Styled tables {seed}", rng)
    size = rng.choice((8.5, 9.0, 9.5))
    fill = rng.choice((colors.HexColor("#1F3864"), colors.HexColor("#2E74B5"), colors.HexColor("#404040")))
    light = rng.choice((colors.HexColor("#DEEAF6"), colors.HexColor("#F2F2F2"), colors.HexColor("#E2EFD9")))
    for style in rng.sample(_TABLE_STYLES, 2):
        page.paragraph()
        cells = numeric_table(rng, rng.randint(3, 6), rng.randint(5, 9))
        commands: list[tuple[Any, ...]] = [
            ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
            ("FONTNAME", (0, 1), (-1, -1), "Helvetica"),
            ("FONTSIZE", (0, 0), (-1, -1), size),
            ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
            ("TOPPADDING", (0, 0), (-1, -1), rng.choice((2, 3, 4))),
            ("BOTTOMPADDING", (0, 0), (-1, -1), rng.choice((2, 3, 4))),
        ]
        if style == "zebra":
            commands += [("ROWBACKGROUNDS", (0, 1), (-1, -1), [light, colors.white]),
                         ("LINEBELOW", (0, 0), (-1, 0), 0.75, fill)]
        if style in ("shaded_header", "shaded_box"):
            commands += [("BACKGROUND", (0, 0), (-1, 0), fill), ("TEXTCOLOR", (0, 0), (-1, 0), colors.white)]
        if style == "row_rules":
            commands += [("LINEBELOW", (0, 0), (-1, -1), 0.25, colors.grey),
                         ("LINEABOVE", (0, 0), (-1, 0), 0.75, colors.black)]
        if style in ("box", "shaded_box"):
            commands += [("BOX", (0, 0), (-1, -1), 0.75, colors.black),
                         ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black)]
        page.table(cells, commands, align=rng.choice(("LEFT", "CENTER")))
    page.paragraph()
    return page.built()


_STATEMENT_SECTIONS = {
    "Non-current assets": ["Property, plant and equipment", "Intangible assets", "Investments in associates",
                           "Deferred tax assets", "Right-of-use assets"],
    "Current assets": ["Inventories", "Trade and other receivables", "Cash and cash equivalents",
                       "Derivative financial instruments", "Current tax assets"],
    "Current liabilities": ["Trade and other payables", "Borrowings", "Lease liabilities", "Provisions",
                            "Current tax liabilities"],
}


@case("financial_statement")
def financial_statement(seed: int) -> GeneratedReport:
    """A company report's balance sheet, borderless: a label column whose section rows
    ("Current assets") stand alone in the first column, line items indented under them, a
    narrow "Notes" column of small numbers (blank on some rows), two year columns of amounts
    with negatives in brackets, and a bold total row under each section with a hairline over
    its figures; paragraphs before and after."""
    rng = random.Random(seed)
    page = _Story(seed, f"Balance sheet {seed}", rng)
    page.paragraph()
    year = rng.randint(2019, 2024)
    unit = rng.choice(("£m", "$m", "€000"))
    # The unit under the year on a line of its own in some seeds, as most reports set it.
    stacked = rng.random() < 0.5
    cells = [["", "Notes", f"{year} {unit}", f"{year - 1} {unit}"]]
    drawn = [["", "Notes", f"{year}\n{unit}", f"{year - 1}\n{unit}"]] if stacked else cells[:1]
    bold_rows, total_rows = [0], []
    for section in rng.sample(list(_STATEMENT_SECTIONS), rng.randint(2, 3)):
        cells.append([section, "", "", ""])
        bold_rows.append(len(cells) - 1)
        for item in rng.sample(_STATEMENT_SECTIONS[section], rng.randint(2, 4)):
            note = str(rng.randint(3, 28)) if rng.random() < 0.7 else ""
            amounts = [rng.randint(-900, 9_000) for _ in range(2)]
            cells.append([item, note] + [f"({-a:,})" if a < 0 else f"{a:,}" for a in amounts])
        cells.append([f"Total {section[0].lower()}{section[1:]}", "",
                      f"{rng.randint(1_000, 30_000):,}", f"{rng.randint(1_000, 30_000):,}"])
        bold_rows.append(len(cells) - 1)
        total_rows.append(len(cells) - 1)
    size = rng.choice((8.5, 9.0, 9.5))
    commands: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, -1), "Helvetica"),
        ("FONTSIZE", (0, 0), (-1, -1), size),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
        ("LINEBELOW", (2, 0), (-1, 0), 0.5, colors.black),
    ]
    for row in bold_rows:
        commands.append(("FONTNAME", (0, row), (-1, row), "Helvetica-Bold"))
    for row in total_rows:
        commands.append(("LINEABOVE", (2, row), (-1, row), 0.5, colors.black))
    page.table(cells, commands, drawn=drawn + cells[1:])
    page.paragraph()
    return page.built()


# Two-line column headings: (top line, bottom line).  Counts head narrow columns of small
# numbers; measures head columns of figures.
_COUNT_HEADINGS = (("#", "encoders"), ("#", "decoders"), ("No. of", "sites"), ("No. of", "visits"),
                   ("Batch", "size"), ("Team", "members"), ("Open", "cases"))
_MEASURE_HEADINGS = (("Mean", "score"), ("Time", "(secs)"), ("Recall", "(0.75)"), ("Share of", "total (%)"),
                     ("Unit", "cost"), ("Median", "wait (days)"))


@case("wrapped_headers")
def wrapped_headers(seed: int) -> GeneratedReport:
    """A borderless table whose column headings are wrapped over two lines ("#" over
    "encoders", "Time" over "(secs)"), centred over narrow columns of small counts and a
    left-aligned column of words: a heading's lower line is wider than the counts under it
    and passes the middle of the gap to the next column without reaching its words.  The
    words column's one-line heading stands on the header's bottom or top line.  Truth: each
    heading one cell, its lines joined by a space; one header row."""
    rng = random.Random(seed)
    page = _Story(seed, f"Wrapped headings {seed}", rng)
    page.paragraph()
    counts = rng.sample(_COUNT_HEADINGS, rng.randint(1, 2))
    measures = rng.sample(_MEASURE_HEADINGS, rng.randint(2, 3))
    stub = rng.choice(("Method", "Region", "Language", "Setting"))
    labels = rng.sample(_LABELS, rng.randint(4, 7))
    drawn = [[f"{top}\n{bottom}" for top, bottom in counts] + [stub]
             + [f"{top}\n{bottom}" for top, bottom in measures]]
    figures = [_figures(rng, len(labels)) for _ in measures]
    body = [[str(rng.randint(1, 12)) for _ in counts] + [label] + [column[r] for column in figures]
            for r, label in enumerate(labels)]
    truth = [[" ".join(cell.split("\n")) for cell in drawn[0]]] + body
    size = rng.choice((8.5, 9.0, 9.5))
    words_column = len(counts)
    commands: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, -1), "Helvetica"),
        ("FONTSIZE", (0, 0), (-1, -1), size),
        ("LEADING", (0, 0), (-1, -1), size * 1.2),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("ALIGN", (words_column, 1), (words_column, -1), "LEFT"),
        ("ALIGN", (words_column + 1, 1), (-1, -1), rng.choice(("CENTER", "RIGHT"))),
        ("VALIGN", (0, 0), (-1, 0), rng.choice(("BOTTOM", "TOP"))),
        ("LINEABOVE", (0, 0), (-1, 0), 1.0, colors.black),
        ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
        ("LINEBELOW", (0, -1), (-1, -1), 1.0, colors.black),
    ]
    page.table(truth, commands, drawn=drawn + body)
    page.paragraph()
    return page.built()


@case("dense_listing")
def dense_listing(seed: int) -> GeneratedReport:
    """A borderless listing of many columns (7-10) in a small font with narrow gutters
    (less than a cell gap): codes, one-word items, figures, dates and status words."""
    rng = random.Random(seed)
    columns = rng.randint(7, 10)
    kinds = ["code", "item"] + rng.sample(["qty", "price", "date", "status", "unit", "share", "region",
                                           "count"], columns - 2)
    names = {"code": "Code", "item": "Item", "qty": "Qty", "price": "Price", "date": "Date",
             "status": "Status", "unit": "Unit", "share": "Share", "region": "Region", "count": "Count"}
    header = [names[k] for k in kinds]
    cells = [header]
    for _ in range(rng.randint(8, 16)):
        row = []
        for kind in kinds:
            row.append({
                "code": lambda: f"{rng.choice('ABCDEFGH')}{rng.randint(100, 999)}",
                "item": lambda: rng.choice(_WORDS),
                "qty": lambda: str(rng.randint(1, 500)),
                "price": lambda: f"{rng.uniform(1, 999):.2f}",
                "date": lambda: f"{rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}",
                "status": lambda: rng.choice(("open", "closed", "held", "sent")),
                "unit": lambda: rng.choice(("kg", "m", "pcs", "l", "box")),
                "share": lambda: f"{rng.uniform(0, 100):.1f}%",
                "region": lambda: rng.choice(_LABELS),
                "count": lambda: str(rng.randint(0, 99)),
            }[kind]())
        cells.append(row)
    size = rng.choice((7.0, 7.5, 8.0))
    return _borderless_page(seed, f"Listing {seed}", cells, [], 1, rng, size,
                            padding=size * rng.choice((0.35, 0.45, 0.55)),
                            align=rng.choice(("LEFT", "RIGHT")))


# ---------------------------------------------------------------- heading impostors
#
# Lines real documents set like headings (bold, larger, alone on a line) that are not sections:
# captions and source notes, bold lead-ins, form labels, running titles below the header band,
# letter blocks, bold numbered items, cover page lines and pull quotes, chart labels.  Each class
# mixes them with real headings (numbered or not, larger or bold at the body's size), so a rule
# that drops impostors and real headings alike loses recall.

_FAMILY_FONTS = (("Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique"),
                 ("Times-Roman", "Times-Bold", "Times-Italic", "Times-BoldItalic"))
_ORGANISATIONS = ("Office for National Statistics", "Department of Transport", "Northfield Water plc",
                  "City Council Planning Service", "Bureau of Regional Statistics", "Harbour Energy Group")
_SURVEYS = ("Labour Force Survey", "Annual Population Survey", "Business Register", "Household Panel",
            "Customer Survey", "Asset Register")
_PEOPLE = ("Jane Smith", "Ahmed Khan", "Maria Lopez", "David Jones", "Priya Patel", "Tom O'Neill",
           "Anna Schmidt", "Chen Wei")
_ROLES = ("Head of Operations", "Chief Executive", "Planning Officer", "Finance Director",
          "Programme Manager", "Senior Statistician")
_STREETS = ("12 High Street", "4 Mill Lane", "Unit 7, Riverside Park", "88 Station Road", "2 Church Row")
_TOWNS = ("Northfield NF1 2AB", "Easton EA4 9QP", "Westbury WB2 7LL", "Southport SP8 3DD")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "September", "October",
           "November", "December")


class _Sheet:
    """A document drawn top down on canvas pages with a seed's typography, keeping the truth
    beside what it draws: real headings, paragraphs and tables go into the report; impostors
    (``line``) are drawn and left out of it.  ``y`` is the next baseline."""

    def __init__(self, rng: random.Random, seed: int, title: str, top: float = 64.0) -> None:
        self.rng = rng
        self.report = GeneratedReport(seed=seed, pdf=b"", title=title)
        self.regular, self.bold, self.italic, self.bold_italic = rng.choice(_FAMILY_FONTS)
        self.body = rng.choice((9.0, 9.5, 10.0, 10.5, 11.0))
        # Heading sizes of levels 1..3: the third bold at the body's size in some seeds.
        self.sizes = (rng.choice((15.0, 16.0, 18.0)), rng.choice((12.5, 13.0, 14.0)),
                      rng.choice((self.body, self.body + 1.0)))
        self.numbered = rng.random() < 0.5
        self.numbers = [0, 0, 0]
        self.buffer = io.BytesIO()
        self.width, self.height = rng.choice((A4, (612.0, 792.0)))
        self.canvas = pdf_canvas.Canvas(self.buffer, pagesize=(self.width, self.height), invariant=1)
        self.canvas.setTitle(title)
        self.left, self.right = 56.0, self.width - 56.0
        self.top = top
        self.bottom = 64.0
        self.y = self.height - top
        self.pages = 1
        # Drawn on each page as it is finished (running headers and footers): (sheet, page number).
        self.running: list[Callable[[_Sheet, int], None]] = []

    # -- layout

    def room(self, needed: float) -> None:
        if self.y - needed < self.bottom:
            self.new_page()

    def new_page(self) -> None:
        for draw in self.running:
            draw(self, self.pages)
        self.canvas.showPage()
        self.pages += 1
        self.y = self.height - self.top

    def at_top(self) -> bool:
        return self.y >= self.height - self.top - 1

    def finish(self) -> GeneratedReport:
        for draw in self.running:
            draw(self, self.pages)
        self.canvas.showPage()
        self.canvas.save()
        self.report.pdf = self.buffer.getvalue()
        self.report.page_count = self.pages
        return self.report

    # -- truth

    def heading(self, level: int, text: str | None = None, numbered: bool | None = None,
                size: float | None = None) -> str:
        """A real heading of `level` (bold, the level's size unless `size`), numbered as the
        seed says."""
        numbered = self.numbered if numbered is None else numbered
        text = text or title_words(self.rng, self.rng.randint(2, 4))
        if numbered:
            self.numbers[level - 1] += 1
            self.numbers[level:] = [0] * (3 - level)
            # (Levels above that were never numbered, an unnumbered title's, add no "0.".)
            parts = self.numbers[:level]
            while len(parts) > 1 and parts[0] == 0:
                parts = parts[1:]
            text = f"{'.'.join(str(n) for n in parts)} {text}"
        size = size or self.sizes[level - 1]
        self.room(size * 2 + self.body * 4)
        if not self.at_top():
            self.y -= size * 0.9
        self.canvas.setFont(self.bold, size)
        self.canvas.drawString(self.left, self.y, text)
        self.y -= size * 0.5 + self.body * 1.3
        self.report.headings.append(Heading(text, level, numbered))
        self.report.expected_blocks.append(f"{'#' * level} {text}")
        return text

    def paragraph(self, sentences: tuple[int, int] = (2, 4), text: str | None = None) -> str:
        text = text or " ".join(sentence(self.rng) for _ in range(self.rng.randint(*sentences)))
        self.room(self.body * 4)
        self.report.paragraphs.append(TruthParagraph(text, False, False))
        self.report.expected_blocks.append(text)
        self.y = draw_paragraph(self.canvas, text, self.left, self.y, self.right - self.left, self.regular,
                                self.body)
        return text

    def table(self, cells: list[list[str]], ruled: bool) -> None:
        self.report.tables.append(TruthTable(cells, ruled))
        self.report.expected_blocks.append(markdown_table(cells))
        table = _table_flowable(cells, ruled, self.body - 0.5)
        _, tall = table.wrapOn(self.canvas, self.right - self.left, self.height)
        self.room(tall + self.body * 2)
        top = self.y + self.body * 0.9
        table.drawOn(self.canvas, self.left, top - tall)
        self.y = top - tall - self.body * 1.6

    # -- impostors and other text outside the truth

    def line(self, text: str, font: str | None = None, size: float | None = None, x: float | None = None,
             align: str = "left", after: float = 0.4) -> None:
        """One line set as `font` and `size` (the body's by default), not in the truth."""
        size = size or self.body
        self.room(size * 2)
        self.canvas.setFont(font or self.regular, size)
        if align == "right":
            self.canvas.drawRightString(x if x is not None else self.right, self.y, text)
        elif align == "centre":
            self.canvas.drawCentredString(x if x is not None else self.width / 2, self.y, text)
        else:
            self.canvas.drawString(x if x is not None else self.left, self.y, text)
        self.y -= size * 1.3 + size * after

    def runs(self, runs: list[tuple[str, str]], indent: float = 0.0, hang: float = 0.0) -> list[str]:
        """Text of several fonts (`runs` of (text, font)) wrapped to the column as one paragraph,
        each word in its run's font; lines after the first start at `hang`.  Returns the lines'
        texts."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        words = [(word, font) for text, font in runs for word in text.split()]
        space = stringWidth(" ", self.regular, self.body)
        lines: list[list[tuple[str, str]]] = [[]]
        width = indent
        for word, font in words:
            w = stringWidth(word, font, self.body)
            if lines[-1] and width + space + w > self.right - self.left:
                lines.append([])
                width = hang
            width += (space if lines[-1] else 0.0) + w
            lines[-1].append((word, font))
        self.room(self.body * 1.3 * len(lines) + self.body)
        for index, line in enumerate(lines):
            x = self.left + (indent if index == 0 else hang)
            for word, font in line:
                self.canvas.setFont(font, self.body)
                self.canvas.drawString(x, self.y, word)
                x += stringWidth(word, font, self.body) + space
            self.y -= self.body * 1.3
        self.y -= self.body * 0.8
        return [" ".join(word for word, _ in line) for line in lines]


def _heading_font(sheet: _Sheet, size: float) -> str:
    """Bold, or regular when the size alone sets the line apart."""
    return sheet.bold if size < sheet.body * 1.3 or sheet.rng.random() < 0.6 else sheet.regular


def _caption_text(rng: random.Random, kind: str, number: int) -> str:
    by = rng.choice(("by region", "by sector", "by age group", "per quarter"))
    subject = f"{rng.choice(_WORDS).capitalize()} {by}"
    year = rng.randint(2015, 2024)
    label = rng.choice((f"{kind} {number}", f"{kind} {number}", f"{kind.upper()} {number}",
                        f"{kind} {rng.choice('ABCS')}{number}", f"{kind} {number}.{rng.randint(1, 9)}"))
    separator = rng.choice((".", ":", " –", ""))
    return f"{label}{separator} {subject}, {year}"


@case("captions_notes")
def captions_notes(seed: int) -> GeneratedReport:
    """Sections whose tables and figures carry captions set like headings: "Table 3. Output by
    region, 2021", "FIGURE 2:", "Table A4", "Chart 1.2 –" (bold at the body's size or larger,
    or regular and larger; above a table, below a figure drawn as a grey box), an unnumbered
    bold title above some tables, and "Source:", "Sources:", "Note:", "Base:" lines under them
    (bold or italic, without a full stop).  Real headings: levels 1 and 2, numbered or not."""
    rng = random.Random(seed)
    sheet = _Sheet(rng, seed, f"Captions {seed}")
    sheet.heading(1)
    sheet.paragraph()
    for number in range(1, rng.randint(3, 4)):
        sheet.heading(rng.choice((1, 2)))
        sheet.paragraph()
        kind = rng.choice(("Table", "Table", "Figure", "Chart", "Exhibit", "Graph"))
        size = rng.choice((sheet.body, sheet.body, sheet.body + 1, sheet.body + 2))
        font = rng.choice((sheet.bold, sheet.bold, sheet.bold_italic)) if size < sheet.body * 1.15 \
            else _heading_font(sheet, size)
        caption = _caption_text(rng, kind, number)
        if kind in ("Table", "Exhibit"):
            if rng.random() < 0.3:  # an unnumbered title instead
                caption = (f"{rng.choice(_WORDS).capitalize()} and {rng.choice(_WORDS)} by region, "
                           f"{rng.randint(2015, 2024)}")
                font, size = sheet.bold, sheet.body
            sheet.line(caption, font, size, after=0.2)
            sheet.table(numeric_table(rng, rng.randint(3, 5), rng.randint(3, 6)), rng.random() < 0.5)
        else:
            sheet.room(150)
            sheet.canvas.setFillGray(0.85)
            sheet.canvas.rect(sheet.left, sheet.y - 110, 260, 110, fill=1, stroke=0)
            sheet.canvas.setFillGray(0)
            sheet.y -= 110 + sheet.body * 1.6
            sheet.line(caption, font, size, after=0.2)
        source = f"{rng.choice(_ORGANISATIONS)}, {rng.choice(_SURVEYS)}"
        notes = [rng.choice((f"Source: {source}", f"Sources: {source} and {rng.choice(_SURVEYS)}",
                             f"Source: {source} {rng.randint(2015, 2024)}"))]
        if rng.random() < 0.6:
            notes.append(rng.choice(("Note: figures may not sum because of rounding",
                                     "Notes: provisional figures for the latest quarter",
                                     "Base: all adults aged 16 and over",
                                     "Note: excludes the capital region")))
        rng.shuffle(notes)
        note_font = rng.choice((sheet.bold, sheet.bold, sheet.italic, sheet.bold_italic))
        for note in notes:
            sheet.line(note, note_font, sheet.body, after=0.2)
        sheet.y -= sheet.body
        sheet.paragraph()
    return sheet.finish()


@case("lead_ins")
def lead_ins(seed: int) -> GeneratedReport:
    """Paragraphs that open with a bold phrase run into their text: a lead-in long enough that
    the first line is (almost) all bold, or one that fills the first line and runs on into the
    second; and definition-style paragraphs whose bold term stands a tab's width before the
    text on the same baseline.  The paragraph, lead-in included, is one block.  Real headings
    around them: levels 1 to 3 (the third bold at about the body's size in some seeds)."""
    rng = random.Random(seed)
    sheet = _Sheet(rng, seed, f"Lead-ins {seed}")
    sheet.heading(1)
    sheet.paragraph()
    for _ in range(rng.randint(2, 3)):
        sheet.heading(2)
        sheet.paragraph((1, 3))
        for _ in range(rng.randint(1, 3)):
            kind = rng.choice(("fills", "runs_on", "tab"))
            if kind == "tab":
                term = title_words(rng, rng.randint(1, 3))
                text = " ".join(sentence(rng) for _ in range(rng.randint(1, 3)))
                from reportlab.pdfbase.pdfmetrics import stringWidth

                sheet.room(sheet.body * 6)
                sheet.canvas.setFont(sheet.bold, sheet.body)
                sheet.canvas.drawString(sheet.left, sheet.y, term)
                gap = stringWidth(term, sheet.bold, sheet.body) + sheet.body * rng.choice((1.5, 2.5, 4.0))
                tab = max(gap, rng.choice((110.0, 130.0)))
                # The text hangs at the tab: its lines after the first start there too.
                saved = sheet.left
                sheet.left = saved + tab
                sheet.report.paragraphs.append(TruthParagraph(f"{term} {text}", False, False))
                sheet.report.expected_blocks.append(f"{term} {text}")
                sheet.y = draw_paragraph(sheet.canvas, text, sheet.left, sheet.y, sheet.right - sheet.left,
                                         sheet.regular, sheet.body)
                sheet.left = saved
                continue
            words = rng.randint(9, 13) if kind == "fills" else rng.randint(15, 22)
            lead = " ".join(rng.choice(_WORDS) for _ in range(words))
            lead = lead[0].upper() + lead[1:] + rng.choice((".", ":", "", " –"))
            rest = " ".join(sentence(rng) for _ in range(rng.randint(2, 3)))
            rest = rest[0].lower() + rest[1:] if lead[-1] not in ".:" else rest
            sheet.room(sheet.body * 8)
            sheet.report.paragraphs.append(TruthParagraph(f"{lead} {rest}", False, False))
            sheet.report.expected_blocks.append(f"{lead} {rest}")
            sheet.runs([(lead, sheet.bold), (rest, sheet.regular)])
        if rng.random() < 0.6:
            sheet.heading(3)
            sheet.paragraph()
    return sheet.finish()


@case("form_fields")
def form_fields(seed: int) -> GeneratedReport:
    """An application form: a title and "Part" headings (numbered or not), an instruction
    paragraph under each, and fields whose bold labels are not headings: a label with its
    value on the same baseline a column to the right ("Applicant name   Jane Smith"), a label
    with its value on the line below, a label with an empty ruled field, a label ending in a
    colon.  A declaration paragraph and "Signature" / "Date" labels end it."""
    rng = random.Random(seed)
    sheet = _Sheet(rng, seed, f"Form {seed}")
    sheet.heading(1, rng.choice(("Application for ", "Request for ", "Registration of "))
                     + rng.choice(("a Licence", "Planning Permission", "a Grant", "Business Rates Relief")),
                  numbered=False)
    sheet.paragraph((1, 2))
    fields = [("Applicant name", lambda: rng.choice(_PEOPLE)), ("Date of birth", lambda: _date(rng, True)),
              ("Email address", lambda: f"{rng.choice(_PEOPLE).split()[0].lower()}@example.org"),
              ("Telephone", lambda: f"0{rng.randint(1000, 9999)} {rng.randint(100000, 999999)}"),
              ("Address", lambda: rng.choice(_STREETS)),
              ("Postcode", lambda: rng.choice(_TOWNS).split(" ", 1)[1]),
              ("Reference number", lambda: f"{rng.choice('ABCDEFG')}{rng.randint(10000, 99999)}"),
              ("Organisation", lambda: rng.choice(_ORGANISATIONS)),
              ("Position held", lambda: rng.choice(_ROLES)),
              ("Amount requested", lambda: f"£{rng.randint(500, 50000):,}"),
              ("Start date", lambda: _date(rng, False)), ("Site address", lambda: rng.choice(_STREETS))]
    parts = rng.randint(2, 3)
    value_x = sheet.left + rng.choice((150.0, 170.0, 200.0))
    for part in range(parts):
        title = rng.choice(("Applicant details", "Your organisation", "About the project", "Contact details",
                            "Site information", "Funding"))
        sheet.heading(2, rng.choice((f"Part {chr(65 + part)} – {title}", f"Section {part + 1}: {title}",
                                     title)), numbered=False)
        sheet.paragraph((1, 2))
        style = rng.choice(("beside", "below", "mixed"))
        colon = rng.random() < 0.4
        for label, value in rng.sample(fields, rng.randint(3, 5)):
            shown = f"{label}:" if colon else label
            how = style if style != "mixed" else rng.choice(("beside", "below", "empty"))
            sheet.room(sheet.body * 4)
            if how == "beside":
                sheet.canvas.setFont(sheet.regular, sheet.body)
                sheet.canvas.drawString(value_x, sheet.y, value())
                sheet.line(shown, sheet.bold, after=0.9)
            elif how == "below":
                sheet.line(shown, sheet.bold, after=0.1)
                sheet.line(value(), sheet.regular, after=0.9)
            else:
                sheet.canvas.setLineWidth(0.5)
                sheet.canvas.line(value_x, sheet.y - 2, sheet.right, sheet.y - 2)
                sheet.line(shown, sheet.bold, after=1.2)
        sheet.y -= sheet.body
    sheet.heading(2, rng.choice(("Declaration", f"Part {chr(65 + parts)} – Declaration")), numbered=False)
    sheet.paragraph((2, 3))
    for label in ("Signature", "Date", "Name in capitals")[:rng.randint(2, 3)]:
        sheet.canvas.setLineWidth(0.5)
        sheet.canvas.line(value_x, sheet.y - 2, sheet.right, sheet.y - 2)
        sheet.line(label + (":" if rng.random() < 0.4 else ""), sheet.bold, after=1.4)
    return sheet.finish()


def _date(rng: random.Random, numeric: bool) -> str:
    if numeric:
        return f"{rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/{rng.randint(1950, 2005)}"
    return f"{rng.randint(1, 28)} {rng.choice(_MONTHS)} {rng.randint(2019, 2025)}"


@case("running_titles")
def running_titles(seed: int) -> GeneratedReport:
    """A report of three or four pages whose running header (the report's title, bold or not,
    with the chapter's name on the right in some seeds, or alternating sides on even and odd
    pages) stands lower than the usual header band (a deep top margin), and whose footer
    holds the organisation and the title in bold above the page number.  The title is the
    first page's heading too, in large type; sections follow."""
    rng = random.Random(seed)
    title = f"{rng.choice(('Annual', 'Quarterly', 'Regional', 'Technical'))} {title_words(rng, 2)} Report"
    sheet = _Sheet(rng, seed, title)
    header_at = rng.uniform(0.115, 0.14) * sheet.height
    sheet.top = header_at + rng.choice((36.0, 44.0))
    sheet.y = sheet.height - sheet.top
    sheet.bottom = 110.0
    organisation = rng.choice(_ORGANISATIONS)
    header_font = rng.choice((sheet.bold, sheet.regular, sheet.italic))
    header_size = rng.choice((sheet.body, sheet.body - 1))
    alternate = rng.random() < 0.4
    footer_bold = rng.random() < 0.7

    def draw(s: _Sheet, page: int) -> None:
        s.canvas.setFont(header_font, header_size)
        y = s.height - header_at
        if alternate and page % 2 == 0:
            s.canvas.drawRightString(s.right, y, title)
        else:
            s.canvas.drawString(s.left, y, title)
        s.canvas.setLineWidth(0.5)
        s.canvas.line(s.left, y - 4, s.right, y - 4)
        s.canvas.setFont(s.bold if footer_bold else s.regular, s.body - 0.5)
        s.canvas.drawString(s.left, s.bottom - 24, f"{organisation} | {title}")
        s.canvas.setFont(s.regular, s.body - 0.5)
        s.canvas.drawRightString(s.right, s.bottom - 24, str(page))

    sheet.running.append(draw)
    sheet.report.header = title
    sheet.sizes = (rng.choice((20.0, 22.0)), sheet.sizes[0], sheet.sizes[1])
    sheet.heading(1, title, numbered=False)
    sheet.paragraph()
    while sheet.pages < rng.randint(3, 4):
        sheet.heading(2)
        sheet.paragraph((3, 5))
        sheet.paragraph((2, 4))
        if rng.random() < 0.5:
            sheet.heading(3)
            sheet.paragraph((2, 4))
    return sheet.finish()


@case("letter_blocks")
def letter_blocks(seed: int) -> GeneratedReport:
    """A letter: a letterhead (the organisation in bold, larger in some seeds, its address
    right-aligned), the date, the recipient's address block (the name bold in some seeds), a
    reference line, the salutation, a bold subject line ("Re: ..."), paragraphs under two or
    three bold body-size headings (the letter's real headings), and a signature block
    ("Yours sincerely", a bold name, a job title, the organisation)."""
    rng = random.Random(seed)
    sheet = _Sheet(rng, seed, f"Letter {seed}", top=56.0)
    organisation = rng.choice(_ORGANISATIONS)
    sheet.line(organisation, sheet.bold, rng.choice((sheet.body, sheet.body + 2, sheet.body + 4)),
               align="right", after=0.1)
    telephone = f"Tel 0{rng.randint(1000, 9999)} {rng.randint(100000, 999999)}"
    for text in (rng.choice(_STREETS), rng.choice(_TOWNS), telephone):
        sheet.line(text, sheet.regular, sheet.body - 1, align="right", after=0.0)
    sheet.y -= sheet.body * 2
    recipient = rng.choice(_PEOPLE)
    name_font = sheet.bold if rng.random() < 0.5 else sheet.regular
    sheet.line(recipient, name_font, after=0.0)
    for text in (rng.choice(_ROLES), rng.choice(_ORGANISATIONS), rng.choice(_STREETS), rng.choice(_TOWNS)):
        sheet.line(text, after=0.0)
    sheet.y -= sheet.body
    sheet.line(_date(rng, False), sheet.bold if rng.random() < 0.3 else sheet.regular, after=0.6)
    sheet.line(f"Our ref: {rng.choice('ABCDEF')}{rng.choice('GHJK')}/{rng.randint(100, 999)}", after=1.0)
    sheet.line(f"Dear {rng.choice(('Ms', 'Mr', 'Dr'))} {recipient.split()[-1]},", after=0.6)
    subject = rng.choice(("Re: ", "Subject: ", "")) + rng.choice((
        "Application for planning permission at the old mill site", "Your grant application",
        "Review of the water supply contract", "Outcome of the licence review"))
    sheet.line(subject, sheet.bold, after=0.6)
    sheet.sizes = (sheet.body, sheet.body, sheet.body)
    sheet.paragraph((2, 3))
    for title in rng.sample(("Background", "Our decision", "What happens next", "Your right to appeal",
                             "Conditions of the grant"), rng.randint(2, 3)):
        sheet.heading(1, title, numbered=False)
        sheet.paragraph((2, 4))
    sheet.line(rng.choice(("Yours sincerely,", "Yours faithfully,", "Kind regards,")), after=2.5)
    sheet.line(rng.choice(_PEOPLE), sheet.bold, after=0.0)
    sheet.line(rng.choice(_ROLES), after=0.0)
    sheet.line(organisation, after=0.8)
    if rng.random() < 0.5:
        sheet.line(f"Enc: {rng.choice(('Site plan', 'Conditions', 'Invoice'))}", after=0.0)
    return sheet.finish()


@case("bold_numbered_items")
def bold_numbered_items(seed: int) -> GeneratedReport:
    """Numbered sections ("1 Introduction", "2.1 Scope", larger and bold) holding lists whose
    items are bold and numbered like sections: a run of one-line items ("1. Improve the
    survey's coverage") one under the other, or items each followed by their explanation
    hung under the item's text.  The items are not headings."""
    rng = random.Random(seed)
    sheet = _Sheet(rng, seed, f"Numbered items {seed}")
    sheet.numbered = True
    sheet.sizes = (sheet.sizes[0], sheet.sizes[1], sheet.sizes[1])
    sheet.heading(1)
    sheet.paragraph()
    for _ in range(rng.randint(2, 3)):
        sheet.heading(2)
        sheet.paragraph((1, 3))
        style = rng.choice(("1.", "1)", "(1)", "(a)"))
        hung = rng.random() < 0.5
        for index in range(rng.randint(3, 5)):
            number = str(index + 1) if "1" in style else "abcdefg"[index]
            marker = style.replace("1", number).replace("a", number)
            item = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(3, 7)))
            item = rng.choice(_VERB_FIRST) + " " + item
            from reportlab.pdfbase.pdfmetrics import stringWidth

            sheet.room(sheet.body * 6)
            sheet.canvas.setFont(sheet.bold, sheet.body)
            sheet.canvas.drawString(sheet.left, sheet.y, marker)
            text_x = sheet.left + max(stringWidth(marker, sheet.bold, sheet.body) + 4, 18.0)
            sheet.canvas.drawString(text_x, sheet.y, item)
            sheet.y -= sheet.body * 1.3
            if hung:
                text = " ".join(sentence(rng) for _ in range(rng.randint(1, 2)))
                saved = sheet.left
                sheet.left = text_x
                sheet.report.paragraphs.append(TruthParagraph(text, False, False))
                sheet.report.expected_blocks.append(text)
                sheet.y = draw_paragraph(sheet.canvas, text, sheet.left, sheet.y, sheet.right - sheet.left,
                                         sheet.regular, sheet.body)
                sheet.left = saved
            else:
                sheet.y -= sheet.body * 0.2
        sheet.y -= sheet.body * 0.6
        sheet.paragraph((2, 3))
    return sheet.finish()


_VERB_FIRST = ("Improve", "Reduce", "Publish", "Review", "Extend", "Strengthen", "Simplify", "Agree")


@case("cover_callouts")
def cover_callouts(seed: int) -> GeneratedReport:
    """A cover page (a large title, the one heading there; a subtitle, the organisation, a
    date such as "March 2024" and a version line in large type), then pages of sections with
    pull quotes in large italic or bold type (in quotation marks, an attribution under some)
    and key figures ("£4.2bn" very large, a larger line under it saying what it counts)."""
    rng = random.Random(seed)
    sheet = _Sheet(rng, seed, f"Cover {seed}")
    kind = rng.choice(("Strategy", "Review", "Plan"))
    title = f"{title_words(rng, rng.randint(2, 3))} {kind} {rng.randint(2020, 2030)}"
    sheet.y = sheet.height * rng.uniform(0.55, 0.7)
    from reportlab.pdfbase.pdfmetrics import stringWidth

    big = rng.choice((26.0, 28.0, 32.0))
    while stringWidth(title, sheet.bold, big) > sheet.right - sheet.left:
        big -= 2
    sheet.numbered = False
    sheet.canvas.setFont(sheet.bold, big)
    sheet.canvas.drawString(sheet.left, sheet.y, title)
    sheet.report.headings.append(Heading(title, 1, False))
    sheet.report.expected_blocks.append(f"# {title}")
    sheet.y -= big * 1.6
    sheet.line(rng.choice(("Delivering better services for everyone", "Our plan for the next five years",
                           "Findings and recommendations of the review")),
               rng.choice((sheet.regular, sheet.italic, sheet.bold)), rng.choice((16.0, 18.0)), after=1.5)
    sheet.line(rng.choice(_ORGANISATIONS), sheet.regular, rng.choice((13.0, 14.0)), after=0.3)
    sheet.line(rng.choice((f"{rng.choice(_MONTHS)} {rng.randint(2019, 2025)}", _date(rng, False))),
               sheet.regular, rng.choice((13.0, 14.0)), after=0.3)
    if rng.random() < 0.5:
        sheet.line(f"Version {rng.randint(1, 3)}.{rng.randint(0, 9)}", sheet.regular, 12.0)
    sheet.new_page()
    for index in range(rng.randint(3, 4)):
        level = 2 if index == 0 or rng.random() < 0.6 else 3
        sheet.heading(level, size=sheet.sizes[level - 2])
        sheet.paragraph()
        if rng.random() < 0.6:
            quote = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(5, 9)))
            mark = rng.choice((("“", "”"), ('"', '"')))
            size = rng.choice((13.0, 14.0, 16.0))
            sheet.y -= size * 0.5
            sheet.line(f"{mark[0]}{quote[0].upper()}{quote[1:]}{mark[1]}",
                       rng.choice((sheet.italic, sheet.bold_italic, sheet.bold)), size, x=sheet.left + 20,
                       after=0.3)
            if rng.random() < 0.6:
                sheet.line(f"– {rng.choice(_PEOPLE)}, {rng.choice(_ROLES)}", sheet.bold, sheet.body,
                           x=sheet.left + 20,
                           after=1.0)
        else:
            figure = rng.choice((f"£{rng.randint(1, 9)}.{rng.randint(1, 9)}bn", f"{rng.randint(10, 99)}%",
                                 f"{rng.randint(2, 900)}k", f"£{rng.randint(10, 500)}m"))
            sheet.y -= 10
            sheet.line(figure, sheet.bold, rng.choice((24.0, 28.0, 32.0)), x=sheet.left + 20, after=0.2)
            sheet.line(rng.choice(("of customers were satisfied", "invested in new assets",
                                   "homes connected to the network", "saved through the programme")),
                       sheet.regular, rng.choice((12.0, 13.0, 14.0)), x=sheet.left + 20, after=1.0)
        sheet.paragraph()
    return sheet.finish()


@case("chart_labels")
def chart_labels(seed: int) -> GeneratedReport:
    """Sections with a bar chart drawn as vector graphics and text, its text in a font larger
    than the body or bold (charts scaled into the page): a title above ("Figure 2: ..."
    or an unnumbered one), an axis title, value labels on the axis, category labels under
    the bars, a legend of coloured keys with series names one under another, value labels
    over the bars; a source line under the chart."""
    rng = random.Random(seed)
    sheet = _Sheet(rng, seed, f"Chart {seed}")
    sheet.heading(1)
    sheet.paragraph()
    for number in range(1, rng.randint(2, 3) + 1):
        sheet.heading(2)
        sheet.paragraph()
        size = rng.choice((sheet.body + 1, sheet.body + 2, sheet.body + 3))
        label_font = rng.choice((sheet.regular, sheet.bold))
        sheet.room(260)
        if rng.random() < 0.5:
            title = _caption_text(rng, "Figure", number)
        else:
            title = f"{rng.choice(_WORDS).capitalize()} by region, {rng.choice(('£m', 'thousands', '%'))}"
        sheet.line(title, sheet.bold, size, after=0.6)
        categories = rng.sample(_LABELS, rng.randint(3, 5))
        series = rng.sample(("2022", "2023", "2024", "Target", "Actual", "Forecast"), rng.randint(2, 3))
        top = sheet.y
        plot_left, plot_bottom, plot_height = sheet.left + 40, top - 170, 150
        canvas = sheet.canvas
        canvas.setFont(label_font, size)
        canvas.drawString(sheet.left, top - 8, rng.choice(("£ million", "Thousands", "Per cent")))
        high = rng.choice((50, 100, 200, 500))
        for tick in range(5):
            y = plot_bottom + plot_height * tick / 4
            canvas.setFont(sheet.regular, size)
            canvas.drawRightString(plot_left - 6, y - size * 0.3, f"{high * tick // 4}")
            canvas.setLineWidth(0.3)
            canvas.line(plot_left, y, plot_left + 300, y)
        group = 300 / len(categories)
        bar = group * 0.7 / len(series)
        for c, category in enumerate(categories):
            x = plot_left + c * group + group * 0.15
            for s, _ in enumerate(series):
                value = rng.uniform(0.1, 1.0)
                canvas.setFillGray(0.2 + 0.25 * s)
                canvas.rect(x + s * bar, plot_bottom, bar * 0.9, plot_height * value, fill=1, stroke=0)
                canvas.setFillGray(0)
                if rng.random() < 0.3:
                    canvas.setFont(sheet.regular, size - 1)
                    canvas.drawCentredString(x + s * bar + bar * 0.45, plot_bottom + plot_height * value + 2,
                                             f"{high * value:.0f}")
            canvas.setFont(label_font, size)
            canvas.drawCentredString(plot_left + c * group + group / 2, plot_bottom - size * 1.4, category)
        for s, name in enumerate(series):
            y = top - 30 - s * size * 1.8
            canvas.setFillGray(0.2 + 0.25 * s)
            canvas.rect(plot_left + 320, y - 1, 8, 8, fill=1, stroke=0)
            canvas.setFillGray(0)
            canvas.setFont(label_font, size)
            canvas.drawString(plot_left + 334, y, name)
        sheet.y = plot_bottom - size * 3.2
        sheet.line(f"Source: {rng.choice(_ORGANISATIONS)}", rng.choice((sheet.italic, sheet.bold)),
                   sheet.body - 1,
                   after=1.0)
        sheet.paragraph()
    return sheet.finish()


@case("paper_front_matter")
def paper_front_matter(seed: int) -> GeneratedReport:
    """A paper's first page: the title (large, bold, the first heading), then its front matter
    set larger than the body or bold: the authors' names with affiliation marks, the
    affiliations (italic in some seeds), an e-mail line, a "Received: ..." date line; an
    "Abstract" heading and its paragraph, a bold "Keywords:" line; then numbered sections
    ("1 Introduction") with their text."""
    rng = random.Random(seed)
    sheet = _Sheet(rng, seed, f"Paper {seed}")
    title = f"{title_words(rng, rng.randint(3, 5))} for {title_words(rng, 2)}"
    sheet.sizes = (rng.choice((16.0, 17.0, 18.0)), sheet.sizes[1], sheet.sizes[2])
    sheet.heading(1, title, numbered=False)
    people = rng.sample(_PEOPLE, rng.randint(2, 4))
    names = [f"{name}{rng.randint(1, 2)}" for name in people]
    author_size = rng.choice((sheet.body + 1, sheet.body + 2, 12.0))
    sheet.line(", ".join(names[:-1]) + f" and {names[-1]}", rng.choice((sheet.regular, sheet.bold)),
               author_size, after=0.3)
    for number in (1, 2):
        unit = rng.choice(("Department of", "School of", "Institute for"))
        place = rng.choice(("University of Northfield", "Easton College", "Westbury Institute"))
        sheet.line(f"{number} {unit} {rng.choice(_WORDS).capitalize()}, {place}",
                   rng.choice((sheet.italic, sheet.regular)), sheet.body, after=0.0)
    sheet.line(", ".join(f"{p.split()[0].lower()}.{p.split()[-1].lower().replace(chr(39), '')}@example.ac.uk"
                         for p in people[:2]), sheet.regular, sheet.body - 1, after=0.3)
    sheet.line(f"Received: {_date(rng, False)}; accepted: {_date(rng, False)}", sheet.regular,
               sheet.body - 1, after=1.0)
    sheet.numbered = False
    sheet.heading(2, "Abstract", numbered=False,
                  size=rng.choice((sheet.body, sheet.body + 1, sheet.sizes[1])))
    sheet.paragraph((4, 6))
    sheet.line("Keywords: " + ", ".join(rng.sample(_WORDS, rng.randint(3, 5))), sheet.bold, sheet.body,
               after=1.0)
    sheet.numbered = True
    for title in ("Introduction", "Related Work", "Method", "Results")[:rng.randint(2, 4)]:
        sheet.heading(1, title, size=sheet.sizes[1])  # (numbered "1", "2": the title is unnumbered)
        sheet.paragraph((3, 5))
        if rng.random() < 0.4:
            sheet.heading(2, size=sheet.sizes[2])
            sheet.paragraph((2, 4))
    return sheet.finish()


_CATEGORIES = ("North East", "North West", "Yorkshire", "Midlands", "London", "South East", "South West",
               "Wales", "Scotland", "Households", "Businesses", "Public sector", "Renewables", "Gas", "Coal",
               "Nuclear", "Imports", "Other")


@case("chart_categories")
def chart_categories(seed: int) -> GeneratedReport:
    """Sections (numbered or not) each with a chart whose category labels are short lines set
    bold or larger than the body, one under another, each beside a number: a horizontal bar
    chart (the category left of its bar, left- or right-aligned, its value at the bar's end)
    or a legend (a coloured key, the category, its share to its right or left).  The chart's title is
    a caption ("Figure 2: ..."), a source line under the chart, then the section's text."""
    rng = random.Random(seed)
    sheet = _Sheet(rng, seed, f"Categories {seed}")
    sheet.heading(1)
    sheet.paragraph()
    canvas = sheet.canvas
    for number in range(1, rng.randint(2, 3) + 1):
        sheet.heading(2)
        sheet.paragraph()
        if rng.random() < 0.4:
            sheet.heading(3)
            sheet.paragraph((1, 3))
        size = rng.choice((sheet.body, sheet.body + 1, sheet.body + 2, sheet.body + 3))
        font = sheet.bold if size < sheet.body * 1.15 or rng.random() < 0.6 else sheet.regular
        categories = rng.sample(_CATEGORIES, rng.randint(3, 6))
        pitch = size * rng.choice((1.8, 2.2, 2.6))
        sheet.room(sheet.body * 6 + pitch * len(categories) + 40)
        sheet.line(_caption_text(rng, "Figure", number), sheet.bold, sheet.body, after=1.0)
        if rng.random() < 0.6:  # horizontal bars
            bar_left = sheet.left + rng.choice((110.0, 130.0))
            right_aligned = rng.random() < 0.5
            unit = rng.choice(("", "%", "k"))
            for s, category in enumerate(categories):
                value = rng.uniform(5, 95)
                canvas.setFont(font, size)
                if right_aligned:
                    canvas.drawRightString(bar_left - 6, sheet.y, category)
                else:
                    canvas.drawString(sheet.left, sheet.y, category)
                canvas.setFillGray(0.3 + 0.1 * (s % 3))
                canvas.rect(bar_left, sheet.y - size * 0.2, value * 2.6, size, fill=1, stroke=0)
                canvas.setFillGray(0)
                canvas.setFont(sheet.regular, rng.choice((sheet.body - 1, sheet.body, size)))
                canvas.drawString(bar_left + value * 2.6 + 4, sheet.y, f"{value:.1f}{unit}")
                sheet.y -= pitch
        else:  # a pie's legend
            shares = [rng.uniform(5, 40) for _ in categories]
            total = sum(shares)
            canvas.circle(sheet.left + 50, sheet.y - pitch * len(categories) / 2 + size, 40, stroke=1, fill=0)
            key_x = sheet.left + 120
            share_first = rng.random() < 0.4  # "41%  Households"
            for s, category in enumerate(categories):
                canvas.setFillGray(0.2 + 0.12 * s)
                canvas.rect(key_x, sheet.y - 1, 8, 8, fill=1, stroke=0)
                canvas.setFillGray(0)
                canvas.setFont(font, size)
                canvas.drawString(key_x + (64 if share_first else 14), sheet.y, category)
                canvas.setFont(sheet.regular, rng.choice((sheet.body, size)))
                canvas.drawRightString(key_x + (50 if share_first else 200), sheet.y,
                                       f"{100 * shares[s] / total:.0f}%")
                sheet.y -= pitch
        sheet.y -= sheet.body
        sheet.line(f"Source: {rng.choice(_ORGANISATIONS)}", sheet.italic, sheet.body - 1, after=1.0)
        sheet.paragraph()
    return sheet.finish()


_SUBJECTS = ("Application for planning permission at the old mill site", "Your grant application",
             "Review of the water supply contract", "Outcome of the licence review",
             "Change to your council tax band", "Proposed changes to the bus timetable",
             "Renewal of your premises licence", "Annual review of your tenancy")


@case("letter_subjects")
def letter_subjects(seed: int) -> GeneratedReport:
    """A letter whose subject line has no "Re:": a letterhead, the recipient's address block, the
    date, then the subject set bold (larger than the body or in capitals in some seeds) above
    or below the salutation ("Dear Ms Khan,"); paragraphs under two or three bold headings (the
    letter's real ones, at the body's size or larger), and a signature block."""
    rng = random.Random(seed)
    sheet = _Sheet(rng, seed, f"Subject {seed}", top=56.0)
    organisation = rng.choice(_ORGANISATIONS)
    sheet.line(organisation, rng.choice((sheet.bold, sheet.regular)),
               rng.choice((sheet.body, sheet.body + 2)), align="right", after=0.1)
    for text in (rng.choice(_STREETS), rng.choice(_TOWNS)):
        sheet.line(text, sheet.regular, sheet.body - 1, align="right", after=0.0)
    sheet.y -= sheet.body * 2
    recipient = rng.choice(_PEOPLE)
    sheet.line(recipient, after=0.0)
    for text in (rng.choice(_STREETS), rng.choice(_TOWNS)):
        sheet.line(text, after=0.0)
    sheet.y -= sheet.body
    sheet.line(_date(rng, False), after=1.0)
    subject = rng.choice(_SUBJECTS)
    if rng.random() < 0.3:
        subject = subject.upper()
    subject_size = rng.choice((sheet.body, sheet.body, sheet.body + 1, sheet.body + 2))
    salutation = f"Dear {rng.choice(('Ms', 'Mr', 'Dr'))} {recipient.split()[-1]},"
    if rng.random() < 0.5:
        sheet.line(subject, sheet.bold, subject_size, after=0.8)
        sheet.line(salutation, after=0.6)
    else:
        sheet.line(salutation, after=0.6)
        sheet.line(subject, sheet.bold, subject_size, after=0.6)
    heading_size = rng.choice((sheet.body, sheet.body, sheet.body + 1, sheet.body + 2))
    sheet.sizes = (heading_size, heading_size, heading_size)
    sheet.numbered = False
    sheet.paragraph((2, 3))
    for title in rng.sample(("Background", "Our decision", "What happens next", "Your right to appeal",
                             "Conditions of the grant", "How to contact us"), rng.randint(2, 3)):
        sheet.heading(1, title)
        sheet.paragraph((2, 4))
    sheet.line(rng.choice(("Yours sincerely,", "Yours faithfully,")), after=2.5)
    sheet.line(rng.choice(_PEOPLE), rng.choice((sheet.bold, sheet.regular)), after=0.0)
    sheet.line(rng.choice(_ROLES), after=0.0)
    return sheet.finish()


_VALUE_TITLES = ("Passenger journeys by region", "Household income by age group", "Key figures",
                 "Staff numbers by directorate", "Spending by service area", "Energy use by site",
                 "Complaints received by quarter", "Visitors by month")


@case("titled_values")
def titled_values(seed: int) -> GeneratedReport:
    """Sections (numbered or not) whose text is followed by a table under an unnumbered title set
    like a heading: bold, at the body's size or larger (as large as the sections' headings in
    some seeds), with a year or a unit after it in some ("Key figures, 2023", "Spending by
    service area (£m)"), directly over the table, ruled or not; the section's text goes on
    under the table."""
    rng = random.Random(seed)
    sheet = _Sheet(rng, seed, f"Values {seed}")
    sheet.heading(1)
    sheet.paragraph()
    titles = rng.sample(_VALUE_TITLES, 3)
    for index in range(rng.randint(2, 3)):
        sheet.heading(2)
        sheet.paragraph()
        title = titles[index] + rng.choice(("", "", f", {rng.randint(2015, 2024)}", " (£m)", " (thousands)"))
        size = rng.choice((sheet.body, sheet.body + 1, sheet.body + 2, sheet.sizes[1]))
        cells = numeric_table(rng, rng.randint(3, 5), rng.randint(3, 6))
        sheet.room(size * 2 + sheet.body * 1.5 * len(cells) + sheet.body * 4)
        sheet.y -= sheet.body * 0.5
        sheet.line(title, sheet.bold, size, after=rng.choice((0.2, 0.5)))
        sheet.table(cells, ruled=rng.random() < 0.5)
        sheet.paragraph((1, 3))
        if rng.random() < 0.4:
            sheet.heading(3)
            sheet.paragraph((2, 3))
    return sheet.finish()
