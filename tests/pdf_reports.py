"""Born-digital multi-page reports with known structure, for measuring the PDF structure stage.

`generate_report(seed)` lays out a report with reportlab's platypus and returns its PDF bytes
with the ground truth: headings (text, level), paragraphs, list items, tables (cells) and the
running header and per-page footers. A seed fixes everything (text, fonts, sizes, numbering,
footer style), so every seed is a different report and the same seed is the same report.

What every report holds: a summary section with an unnumbered heading, numbered or unnumbered
headings at three levels in sizes and weights that change with the seed, justified and ragged
paragraphs wrapping over several lines, a bullet list and a numbered list (some items wrap to
two lines), a ruled table and an unruled table with right-aligned numeric columns, one
two-column page, a running header (the report title) and a page-number footer ("Page N of M"
or "N"). Paragraphs and tables are kept whole on one page or column (KeepTogether), so each
truth paragraph is one run of lines a structure stage can find without joining across pages.
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass, field
from typing import Any

from reportlab.lib import colors
from reportlab.lib.enums import TA_JUSTIFY, TA_LEFT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen import canvas as pdf_canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    KeepTogether,
    ListFlowable,
    ListItem,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

# Plain English words (no hyphens, no digits) so bag-of-words and text matching are exact.
_WORDS = (
    "account action activity advice agency analysis annual approach area assessment asset "
    "balance basis benefit budget business capacity capital carbon case change client "
    "committee community company condition contract control cost council country customer "
    "data decision delivery demand design detail development device direction discussion "
    "effect effort energy estimate evidence example expansion experience factor feature "
    "figure finance forecast framework function funding future growth guidance health "
    "impact income industry information initiative input interest investment issue labour "
    "level market measure method model network objective operation option order output "
    "partner payment performance period plan policy portfolio position practice pressure "
    "price priority process product programme progress project property proposal quality "
    "quarter range rate reason record region report request research resource response "
    "result revenue review risk safety sales sample scale scheme sector service share "
    "signal source staff standard strategy structure study supply support survey system "
    "target team technology term trend unit usage value volume water network workforce"
).split()
_VERBS = (
    "improved reduced increased supported delivered reviewed measured extended shaped "
    "affected confirmed reflected exceeded balanced addressed limited expanded tracked"
).split()
_LINKS = ("across", "within", "against", "through", "despite", "beyond", "under", "over")
_TOPICS = (
    "Regional Operations", "Market Outlook", "Financial Performance", "Supply Chain",
    "Workforce Planning", "Customer Experience", "Risk Management", "Capital Projects",
    "Energy Transition", "Digital Services", "Water Quality", "Research Programme",
)
_LABELS = (
    "North", "South", "East", "West", "Central", "Coastal", "Highland", "Metro",
    "Rural", "Harbour", "Valley", "Plains",
)


@dataclass(frozen=True)
class Heading:
    text: str
    level: int  # 1, 2 or 3
    numbered: bool


@dataclass(frozen=True)
class TruthParagraph:
    text: str
    justified: bool
    in_columns: bool  # laid out on the two-column page


@dataclass(frozen=True)
class TruthListItem:
    text: str  # without its bullet or number
    marker: str  # "•" or "3."


@dataclass(frozen=True)
class TruthTable:
    cells: list[list[str]]  # header row first
    ruled: bool


@dataclass
class GeneratedReport:
    seed: int
    pdf: bytes
    title: str
    headings: list[Heading] = field(default_factory=list)
    paragraphs: list[TruthParagraph] = field(default_factory=list)
    list_items: list[TruthListItem] = field(default_factory=list)
    tables: list[TruthTable] = field(default_factory=list)
    header: str = ""  # the running header on every page
    footers: list[str] = field(default_factory=list)  # one per page, in page order
    page_count: int = 0
    # The Markdown a perfect structure stage would write, block by block in reading order.
    expected_blocks: list[str] = field(default_factory=list)

    @property
    def expected_markdown(self) -> str:
        return "\n\n".join(self.expected_blocks) + "\n"

    def body_words(self) -> list[str]:
        """Every word of the body (headings, paragraphs, list items, table cells), in order of kind."""
        texts = [h.text for h in self.headings] + [p.text for p in self.paragraphs]
        texts += [i.text for i in self.list_items]
        texts += [cell for t in self.tables for row in t.cells for cell in row]
        return " ".join(texts).split()


@dataclass(frozen=True)
class _Look:
    """The typography a seed picks: what a structure stage has to tell apart."""

    body_font: str
    bold_font: str
    italic_bold_font: str
    body_size: float
    sizes: tuple[float, float, float]  # heading levels 1..3
    level3_italic: bool
    numbered: bool
    footer_of_total: bool  # "Page N of M" rather than "N"
    header_rule: bool
    pagesize: tuple[float, float]


_FAMILIES = (
    ("Helvetica", "Helvetica-Bold", "Helvetica-BoldOblique"),
    ("Times-Roman", "Times-Bold", "Times-BoldItalic"),
)


def _pick_look(rng: random.Random) -> _Look:
    body, bold, bold_italic = rng.choice(_FAMILIES)
    body_size = rng.choice((9.5, 10.0, 10.5))
    return _Look(
        body_font=body,
        bold_font=bold,
        italic_bold_font=bold_italic,
        body_size=body_size,
        sizes=(
            rng.choice((15.0, 16.0, 18.0)),
            rng.choice((12.0, 13.0, 14.0)),
            rng.choice((body_size, body_size + 1)),
        ),
        level3_italic=rng.random() < 0.5,
        numbered=rng.random() < 0.7,
        footer_of_total=rng.random() < 0.5,
        header_rule=rng.random() < 0.5,
        pagesize=rng.choice((A4, LETTER)),
    )


class _Writer:
    """Draws random text and keeps the ground truth beside the flowables it makes."""

    def __init__(self, rng: random.Random, look: _Look, report: GeneratedReport) -> None:
        self.rng = rng
        self.look = look
        self.report = report
        self.story: list[Flowable] = []
        self.in_columns = False
        self.body = ParagraphStyle(
            "body", fontName=look.body_font, fontSize=look.body_size, leading=look.body_size * 1.25,
            spaceAfter=look.body_size * 0.8,
        )
        self.heading_styles = [
            ParagraphStyle(
                f"h{level}", fontName=self._heading_font(level), fontSize=size, leading=size * 1.25,
                spaceBefore=size * 0.9, spaceAfter=size * 0.5, keepWithNext=1,
            )
            for level, size in enumerate(look.sizes, start=1)
        ]
        self.numbers = [0, 0, 0]

    def _heading_font(self, level: int) -> str:
        if level == 3 and self.look.level3_italic:
            return self.look.italic_bold_font
        return self.look.bold_font

    def words(self, low: int, high: int) -> list[str]:
        return [self.rng.choice(_WORDS) for _ in range(self.rng.randint(low, high))]

    def sentence(self) -> str:
        subject = self.words(1, 3)
        rest = self.words(3, 9)
        text = " ".join([*subject, self.rng.choice(_VERBS), *rest[:3], self.rng.choice(_LINKS), *rest[3:]])
        return text[0].upper() + text[1:] + "."

    def heading(self, level: int, title: str | None = None) -> None:
        numbered = self.look.numbered and title is None
        if title is None:
            title = " ".join(w.capitalize() for w in self.words(2, 4))
        text = title
        if numbered:
            self.numbers[level - 1] += 1
            for deeper in range(level, 3):
                self.numbers[deeper] = 0
            number = ".".join(str(n) for n in self.numbers[:level])
            text = f"{number}. {title}" if level == 1 else f"{number} {title}"
        self.report.headings.append(Heading(text, level, numbered))
        self.report.expected_blocks.append(f"{'#' * level} {text}")
        self.story.append(Paragraph(text, self.heading_styles[level - 1]))

    def paragraph(self, sentences: tuple[int, int] = (3, 6)) -> None:
        text = " ".join(self.sentence() for _ in range(self.rng.randint(*sentences)))
        justified = self.rng.random() < 0.5
        style = ParagraphStyle("p", parent=self.body, alignment=TA_JUSTIFY if justified else TA_LEFT)
        self.report.paragraphs.append(TruthParagraph(text, justified, self.in_columns))
        self.report.expected_blocks.append(text)
        self.story.append(KeepTogether([Paragraph(text, style)]))

    def bullet_list(self, numbered: bool) -> None:
        items: list[ListItem] = []
        lines: list[str] = []
        for index in range(self.rng.randint(3, 5)):
            # Every other item is long enough to wrap to a second line.
            count = (14, 22) if index % 2 else (3, 8)
            words = self.words(*count)
            text = " ".join(words)
            text = text[0].upper() + text[1:]
            self.report.list_items.append(TruthListItem(text, f"{index + 1}." if numbered else "•"))
            items.append(ListItem(Paragraph(text, self.body), leftIndent=18))
            lines.append(f"{index + 1}. {text}" if numbered else f"- {text}")
        self.report.expected_blocks.append("\n".join(lines))
        kind = {"bulletType": "1", "bulletFormat": "%s."}
        if not numbered:
            kind = {"bulletType": "bullet", "start": "•"}
        font = {"bulletFontName": self.look.body_font, "bulletFontSize": self.look.body_size}
        self.story.append(ListFlowable(items, **kind, **font))
        self.story.append(Spacer(1, self.look.body_size * 0.6))

    def table(self, ruled: bool) -> None:
        columns = self.rng.randint(3, 5)
        rows = self.rng.randint(4, 7)
        labels = self.rng.sample(_LABELS, rows)
        periods = [self.rng.choice(("Q1", "Q2", "Q3", "Q4", "FY")) for _ in range(columns - 1)]
        header = ["Region"] + [f"{period} {2020 + i}" for i, period in enumerate(periods)]
        # One number format per column, as real reports have (counts, amounts, shares).
        formats = [self.rng.choice(("{:,.0f}", "{:.1f}", "{:.2f}%")) for _ in range(columns - 1)]
        scales = [1.0 if f == "{:,.0f}" else 1000.0 for f in formats]
        cells = [header]
        for label in labels:
            row = [label]
            for fmt, scale in zip(formats, scales, strict=True):
                row.append(fmt.format(self.rng.uniform(1, 99999) / scale))
            cells.append(row)
        self.report.tables.append(TruthTable(cells, ruled))
        markdown_rows = [f"| {' | '.join(row)} |" for row in cells]
        markdown_rows.insert(1, "|" + "---|" * columns)
        self.report.expected_blocks.append("\n".join(markdown_rows))
        commands: list[tuple[Any, ...]] = [
            ("FONTNAME", (0, 0), (-1, 0), self.look.bold_font),
            ("FONTNAME", (0, 1), (-1, -1), self.look.body_font),
            ("FONTSIZE", (0, 0), (-1, -1), self.look.body_size - 0.5),
            ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ]
        if ruled:
            commands.append(("GRID", (0, 0), (-1, -1), 0.5, colors.black))
        table = Table(cells, style=TableStyle(commands), hAlign="LEFT")
        self.story.append(KeepTogether([table, Spacer(1, self.look.body_size)]))


def _running_canvas(header: str, look: _Look) -> type[pdf_canvas.Canvas]:
    """A canvas that draws the header and the footer once the page count is known."""

    class RunningCanvas(pdf_canvas.Canvas):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.page_states: list[dict[str, Any]] = []

        def showPage(self) -> None:  # noqa: N802 - reportlab's name
            self.page_states.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self.page_states)
            for state in self.page_states:
                self.__dict__.update(state)
                self._draw_running(total)
                super().showPage()
            super().save()

        def _draw_running(self, total: int) -> None:
            width, height = look.pagesize
            self.setFont(look.body_font, look.body_size - 1)
            self.drawString(56, height - 40, header)
            if look.header_rule:
                self.setLineWidth(0.5)
                self.line(56, height - 45, width - 56, height - 45)
            page = self._pageNumber
            footer = f"Page {page} of {total}" if look.footer_of_total else str(page)
            self.drawCentredString(width / 2, 32, footer)

    return RunningCanvas


def _templates(look: _Look) -> list[PageTemplate]:
    width, height = look.pagesize
    margin, top, bottom = 56.0, 64.0, 56.0
    inner = width - 2 * margin
    one = Frame(margin, bottom, inner, height - top - bottom, id="one")
    gap = 18.0
    half = (inner - gap) / 2
    left = Frame(margin, bottom, half, height - top - bottom, id="left")
    right = Frame(margin + half + gap, bottom, half, height - top - bottom, id="right")
    return [PageTemplate(id="one", frames=[one]), PageTemplate(id="two", frames=[left, right])]


def _write_story(writer: _Writer) -> None:
    rng = writer.rng
    writer.heading(1, "Summary")
    writer.paragraph()
    writer.paragraph((2, 4))
    writer.bullet_list(numbered=False)
    sections = rng.randint(3, 4)
    columns_at = rng.randint(1, sections - 1)
    ruled_at, unruled_at = rng.sample(range(sections), 2)
    numbered_list_at = rng.randrange(sections)
    for section in range(sections):
        if section == columns_at:
            writer.story += [NextPageTemplate("two"), PageBreak()]
            writer.in_columns = True
        writer.heading(1)
        writer.paragraph()
        for sub in range(rng.randint(1, 2)):
            writer.heading(2)
            writer.paragraph()
            if sub == 0 and section == ruled_at and not writer.in_columns:
                writer.table(ruled=True)
            if sub == 0 and section == unruled_at and not writer.in_columns:
                writer.table(ruled=False)
            if rng.random() < 0.6 or (section == 0 and sub == 0):
                writer.heading(3)
                writer.paragraph((2, 4))
        if section == numbered_list_at:
            writer.bullet_list(numbered=True)
        writer.paragraph((2, 5))
        if writer.in_columns:
            # Enough text that the left column fills and the right one is read after it.
            writer.heading(2)
            for _ in range(5):
                writer.paragraph()
            writer.story += [NextPageTemplate("one"), PageBreak()]
            writer.in_columns = False
    # A table scheduled in the two-column section still belongs to the report.
    have = {t.ruled for t in writer.report.tables}
    for ruled in (True, False):
        if ruled not in have:
            writer.heading(2)
            writer.paragraph((2, 3))
            writer.table(ruled=ruled)


def generate_report(seed: int) -> GeneratedReport:
    """One report for `seed`: its PDF bytes and the structure it was written with."""
    rng = random.Random(seed)
    look = _pick_look(rng)
    topic = rng.choice(_TOPICS)
    title = f"{topic} Report {2019 + rng.randrange(8)}"
    report = GeneratedReport(seed=seed, pdf=b"", title=title, header=title)
    writer = _Writer(rng, look, report)
    _write_story(writer)
    buffer = io.BytesIO()
    document = BaseDocTemplate(
        buffer, pagesize=look.pagesize, title=title, author="pagemill tests", invariant=1,
        pageTemplates=_templates(look),
    )
    document.build(writer.story, canvasmaker=_running_canvas(title, look))
    report.pdf = buffer.getvalue()
    report.page_count = document.page
    report.footers = [
        f"Page {n} of {report.page_count}" if look.footer_of_total else str(n)
        for n in range(1, report.page_count + 1)
    ]
    return report
