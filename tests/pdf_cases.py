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
- ``page_crossing_table``: a long table that starts mid-page and runs on over the next
  page(s), its header repeated on each page or not; in some seeds a decoy: a table that
  fills a page and a different table at the top of the next one.
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
