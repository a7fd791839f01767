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
- ``two_level_header``, ``three_level_header``: borderless tables whose header has groups
  (years, a measure) centred over the sub-columns below them.
- ``spaced_cells``: borderless cells holding spaces ("New South Wales", "11 111111111",
  "12 500").
- ``dense_listing``: a borderless listing of many columns with gutters narrower than a cell
  gap.
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


# ---------------------------------------------------------------- the classes


@case("rotated_table")
def rotated_table(seed: int) -> GeneratedReport:
    """Page 1 (portrait): a heading, a paragraph, then a wide table drawn turned 90° (its top
    towards the page's left edge, as a landscape table in a portrait report).  Page 2 carries
    ``/Rotate 90`` and content drawn so that it reads upright once the viewer turns the page:
    a heading, a paragraph and a table."""
    rng = random.Random(seed)
    report = GeneratedReport(seed=seed, pdf=b"", title=f"Rotation {seed}")
    buffer = io.BytesIO()
    width, height = A4
    canvas = pdf_canvas.Canvas(buffer, pagesize=A4, invariant=1)
    canvas.setTitle(report.title)

    heading = title_words(rng)
    report.headings.append(Heading(heading, 1, False))
    report.expected_blocks.append(f"# {heading}")
    canvas.setFont("Helvetica-Bold", 16)
    canvas.drawString(56, height - 72, heading)
    text = " ".join(sentence(rng) for _ in range(3))
    report.paragraphs.append(TruthParagraph(text, False, False))
    report.expected_blocks.append(text)
    draw_paragraph(canvas, text, 56, height - 100, width - 112)
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
    from reportlab.platypus import BaseDocTemplate, PageBreak

    from tests.pdf_reports import _pick_look, _running_canvas, _templates, _Writer

    rng = random.Random(seed)
    look = _pick_look(rng)
    title = f"{title_words(rng, 2)} Report {2019 + rng.randrange(8)}"
    report = GeneratedReport(seed=seed, pdf=b"", title=title, header=title)
    writer = _Writer(rng, look, report)
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
        writer.story.append(PageBreak())
        for decoy in (filling, other):
            if decoy is other and rng.random() < 0.5:
                writer.heading(2)
            report.tables.append(TruthTable(decoy, ruled))
            report.expected_blocks.append(markdown_table(decoy))
            writer.story.append(_long_table_flowable(decoy, ruled, False, look))
        writer.paragraph((2, 3))
    buffer = io.BytesIO()
    document = BaseDocTemplate(buffer, pagesize=look.pagesize, title=title, author="pagemill tests",
                               invariant=1, pageTemplates=_templates(look)[:1])
    document.build(writer.story, canvasmaker=_running_canvas(title, look))
    report.pdf = buffer.getvalue()
    report.page_count = document.page
    report.footers = [f"Page {n} of {report.page_count}" if look.footer_of_total else str(n)
                      for n in range(1, report.page_count + 1)]
    return report


# ---------------------------------------------------------------- harder borderless tables


_STATES = ("New South Wales", "Victoria", "Queensland", "South Australia", "Western Australia",
           "Tasmania", "Northern Territory", "Australian Capital Territory", "North Island",
           "South Island", "Bay of Plenty", "Hawke's Bay")


def _borderless_page(seed: int, title: str, cells: list[list[str]], spans: list[tuple[int, int, int]],
                     header_rows: int, rng: random.Random, size: float, padding: float = 6.0,
                     booktabs: bool = False, align: str = "RIGHT") -> GeneratedReport:
    """A heading, a paragraph, the borderless table `cells` (a spanning header cell's text in
    the first cell it covers; `spans` (row, first, last column) centre it over its columns),
    and a closing paragraph; figure columns aligned `align`.  `booktabs` draws rules above
    and below the table and under the header, none between columns (so it is read by
    alignment, not as a grid)."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer

    report = GeneratedReport(seed=seed, pdf=b"", title=title)
    heading = title_words(rng)
    report.headings.append(Heading(heading, 1, False))
    report.expected_blocks.append(f"# {heading}")
    body = ParagraphStyle("body", fontName="Helvetica", fontSize=10, leading=13, spaceAfter=8)
    story: list[Any] = [Paragraph(heading, ParagraphStyle("h1", fontName="Helvetica-Bold", fontSize=16,
                                                          leading=20, spaceAfter=10))]
    for _ in range(2):
        text = " ".join(sentence(rng) for _ in range(3))
        report.paragraphs.append(TruthParagraph(text, False, False))
        report.expected_blocks.append(text)
        story.append(Paragraph(text, body))
        if len(story) == 2:
            report.tables.append(TruthTable(cells, False))
            report.expected_blocks.append(markdown_table(cells))
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
            story += [Spacer(1, 4), Table(cells, style=TableStyle(commands), hAlign="LEFT"), Spacer(1, 10)]
    buffer = io.BytesIO()
    document = SimpleDocTemplate(buffer, pagesize=A4, title=title, invariant=1, leftMargin=56,
                                 rightMargin=56, topMargin=64, bottomMargin=56)
    document.build(story)
    report.pdf = buffer.getvalue()
    report.page_count = document.page
    return report


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
