"""Word documents with known structure, typeset to PDF by LibreOffice: a development corpus for
the PDF structure stage that no rule was written against (bench/office_corpus.py builds it,
bench/pdf_structure.py --office scores it, tests/test_pdf_contents.py converts a few).

`generate_document(seed)` writes a DOCX with python-docx and returns it with its ground truth:
headings (text, level), tables (cells, header row first), the table of contents' entries, and
the lines set to look like headings that are not (wholly bold sentences and labels, captions).
A seed fixes everything: fonts (Liberation Serif/Sans, DejaVu Serif/Sans), sizes, heading
weights and numbering, page size and margins, whether there is a title and a table of contents
and how its entries are set (dot leaders, a right-aligned page column without leaders).

The table of contents is a real TOC field (what Word saves: `TOC \\o "1-3" \\h \\z \\u`) whose
result is written here as Word writes it, one "TOC n" paragraph per entry with a right tab stop
and the page number; LibreOffice imports it as a contents index and exports it as typed.  The
page numbers are estimated from the text before each heading (close, not exact: no rule may
depend on them being right).

`generate_document(seed, hard=True)` adds, from a second random stream (the same seed's plain
document is unchanged, the hard one is it plus the decoys), what real documents hold that
looks like a heading and is not: wholly bold short paragraphs, some set a size larger, next to
a Heading 3 set at body size and bold; bold table titles and italic or capitalised source lines
around tables; "NOTES" labels; bold list items; key-value lines ("Date: 12 May 2024"); numbered
body paragraphs ("2.1 The committee ..."); short body lines; a signature block; the document's
title as a running header.  And what makes real headings harder to keep: long headings that
wrap onto two lines, a two-column section, front matter with roman page numbers in a table of
contents spread over two pages.

`convert(paths, outdir, tagged=...)` runs `soffice --headless --convert-to pdf` once for many
documents with a private profile directory (a shared profile serialises concurrent runs and
keeps state between them).
"""

from __future__ import annotations

import io
import json
import random
import shutil
import subprocess
import tempfile
from copy import deepcopy
from dataclasses import dataclass, field, replace
from pathlib import Path

from docx import Document
from docx.enum.section import WD_ORIENT
from docx.enum.style import WD_STYLE_TYPE
from docx.enum.text import WD_TAB_ALIGNMENT, WD_TAB_LEADER
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Inches, Pt, RGBColor
from docx.text.paragraph import Paragraph

_NOUNS = (
    "assessment budget catchment committee contractor corridor county delivery depot district "
    "drainage engineer estate facility fleet footway grant harbour highway inspection junction "
    "landowner licence maintenance network operator parish pavement permit pipeline planning "
    "programme reservoir resident route schedule scheme signal station street supplier survey "
    "tender traffic tunnel upgrade utility valve vehicle warden workshop yard"
).split()
_VERBS = ("approved", "completed", "inspected", "extended", "reviewed", "funded", "delayed",
          "replaced", "monitored", "recorded", "reported", "scheduled", "tested", "upgraded")
_LINKS = ("near", "along", "beside", "behind", "beyond", "under", "within", "around")
_TOPICS = ("Highway Maintenance", "Flood Resilience", "Bridge Inspection", "Street Lighting",
           "Depot Operations", "Winter Service", "Cycle Network", "Drainage Renewal",
           "Tunnel Safety", "Harbour Works", "Fleet Replacement", "Parking Review")
_SECTION_WORDS = ("Background", "Scope", "Method", "Findings", "Costs", "Risks", "Timetable",
                  "Consultation", "Recommendations", "Procurement", "Governance", "Monitoring",
                  "Resources", "Options", "Outcomes", "Lessons", "Appendix", "Funding")
_FAMILIES = ("Liberation Serif", "Liberation Sans", "DejaVu Serif", "DejaVu Sans")
_CONTENTS_TITLES = ("Contents", "Table of Contents", "Contents", "Inhalt", "Sommaire")


@dataclass(frozen=True)
class OfficeHeading:
    text: str
    level: int  # 1 for the title (when there is one) or Heading 1, one more per style level


@dataclass(frozen=True)
class OfficeTable:
    cells: list[list[str]]  # header row first
    ruled: bool


@dataclass
class OfficeDocument:
    seed: int
    name: str
    docx: bytes
    headings: list[OfficeHeading] = field(default_factory=list)
    tables: list[OfficeTable] = field(default_factory=list)
    contents_title: str = ""  # "" when the document has no table of contents
    contents: list[str] = field(default_factory=list)  # entry texts, without page numbers
    contents_leaders: bool = True  # dot leaders, or page numbers in a right-aligned column alone
    decoys: list[str] = field(default_factory=list)  # bold lines and captions: not headings
    look: dict[str, object] = field(default_factory=dict)

    def truth(self) -> dict[str, object]:
        """The ground truth as JSON-ready data (written beside the corpus' PDFs)."""
        return {"seed": self.seed, "name": self.name, "look": self.look,
                "headings": [[h.text, h.level] for h in self.headings],
                "tables": [{"cells": t.cells, "ruled": t.ruled} for t in self.tables],
                "contents_title": self.contents_title, "contents": self.contents,
                "contents_leaders": self.contents_leaders, "decoys": self.decoys}

    @classmethod
    def from_truth(cls, data: dict[str, object]) -> OfficeDocument:
        doc = cls(seed=int(data["seed"]), name=str(data["name"]), docx=b"")  # type: ignore[call-overload]
        doc.headings = [OfficeHeading(str(t), int(level)) for t, level in data["headings"]]  # type: ignore[attr-defined]
        doc.tables = [OfficeTable(t["cells"], bool(t["ruled"])) for t in data["tables"]]  # type: ignore[attr-defined]
        doc.contents_title = str(data["contents_title"])
        doc.contents = list(data["contents"])  # type: ignore[call-overload]
        doc.contents_leaders = bool(data["contents_leaders"])
        doc.decoys = list(data["decoys"])  # type: ignore[call-overload]
        doc.look = dict(data["look"])  # type: ignore[call-overload]
        return doc


@dataclass(frozen=True)
class _Look:
    body_font: str
    heading_font: str
    body_size: float
    heading_sizes: tuple[float, float, float]
    level3_bold: bool  # else italic, the same size as the body or one point larger
    numbered: bool
    title: bool
    contents: bool
    leaders: bool
    landscape: bool
    letter: bool
    margin: float  # inches
    heading_colour: bool


def _pick_look(rng: random.Random) -> _Look:
    body_font = rng.choice(_FAMILIES)
    body_size = rng.choice((10.0, 10.5, 11.0, 12.0))
    return _Look(
        body_font=body_font,
        heading_font=rng.choice((body_font, body_font, *_FAMILIES)),
        body_size=body_size,
        heading_sizes=(rng.choice((16.0, 18.0, 20.0)), rng.choice((13.0, 14.0)),
                       rng.choice((body_size, body_size + 1))),
        level3_bold=rng.random() < 0.75,
        numbered=rng.random() < 0.5,
        title=rng.random() < 0.8,
        contents=rng.random() < 0.75,
        leaders=rng.random() < 0.7,
        landscape=rng.random() < 0.1,
        letter=rng.random() < 0.5,
        margin=rng.choice((0.8, 1.0, 1.25)),
        heading_colour=rng.random() < 0.5,
    )


def _harden_look(look: _Look, extra: random.Random) -> _Look:
    """A hard document's look: often a Heading 3 set at the body's size and bold (Word's own
    default), the style that bold body lines are easiest to mistake for."""
    if extra.random() < 0.6:
        sizes = look.heading_sizes
        return replace(look, heading_sizes=(sizes[0], sizes[1], look.body_size), level3_bold=True)
    return look


def _set_font(style: object, family: str, size: float, bold: bool | None, italic: bool | None = None) -> None:
    font = style.font  # type: ignore[attr-defined]
    font.name = family
    font.size = Pt(size)
    font.bold = bold
    font.italic = italic
    # The template's heading styles name theme fonts (Calibri Light), which win over font.name.
    fonts = style.element.rPr.find(qn("w:rFonts"))  # type: ignore[attr-defined]
    for attribute in ("w:asciiTheme", "w:hAnsiTheme", "w:eastAsiaTheme", "w:cstheme"):
        fonts.attrib.pop(qn(attribute), None)
    for attribute in ("w:ascii", "w:hAnsi", "w:cs", "w:eastAsia"):
        fonts.set(qn(attribute), family)


def _field(paragraph: Paragraph, instruction: str) -> None:
    """A simple field (PAGE) in a paragraph: what a page-number footer is."""
    simple = OxmlElement("w:fldSimple")
    simple.set(qn("w:instr"), instruction)
    run = OxmlElement("w:r")
    text = OxmlElement("w:t")
    text.text = "1"
    run.append(text)
    simple.append(run)
    paragraph._p.append(simple)


def _field_char(paragraph: Paragraph, kind: str, instruction: str = "") -> None:
    run = paragraph.add_run()
    char = OxmlElement("w:fldChar")
    char.set(qn("w:fldCharType"), kind)
    run._r.append(char)
    if instruction:
        code = paragraph.add_run()._r
        text = OxmlElement("w:instrText")
        text.set(qn("xml:space"), "preserve")
        text.text = instruction
        code.append(text)
        separate = paragraph.add_run()._r
        char = OxmlElement("w:fldChar")
        char.set(qn("w:fldCharType"), "separate")
        separate.append(char)


_COLUMN_SPACE = 425 * 635  # the gap between text columns (EMU; 425 twips, 0.75 cm)


class _Writer:
    def __init__(self, rng: random.Random, look: _Look, doc: OfficeDocument) -> None:
        self.rng = rng
        self.look = look
        self.doc = doc
        self.word = Document()
        self.numbers = [0, 0, 0]
        self.table_number = 0
        self.figure_number = 0
        self.chars = 0  # body characters written, for the contents' page estimate
        self.text_columns = 1  # the text columns of the part being written (see columns())
        # The decoys' own random stream (None for a plain document): drawing them from the
        # main one would change every plain document after the first decoy.
        self.extra: random.Random | None = None
        # (entry text, level, page estimate or a front matter's roman page label)
        self.contents_slot: list[tuple[str, int, int | str]] = []
        self._styles()
        self._page()

    # -- set-up

    def _styles(self) -> None:
        look, styles = self.look, self.word.styles
        _set_font(styles["Normal"], look.body_font, look.body_size, None)
        styles["Normal"].paragraph_format.space_after = Pt(look.body_size * 0.6)
        for level, size in enumerate(look.heading_sizes, start=1):
            style = styles[f"Heading {level}"]
            bold = level < 3 or look.level3_bold
            _set_font(style, look.heading_font, size, bold, italic=None if bold else True)
            style.font.color.rgb = RGBColor(0x1F, 0x3A, 0x60) if look.heading_colour else RGBColor(0, 0, 0)
            style.paragraph_format.space_before = Pt(size * 0.9)
            style.paragraph_format.space_after = Pt(size * 0.4)
        _set_font(styles["Title"], look.heading_font, look.heading_sizes[0] + 6, True)
        _set_font(styles["TOC Heading"], look.heading_font, look.heading_sizes[0], True)
        for name in ("List Bullet", "List Number", "Caption"):
            styles[name].font.name = look.body_font
        for level in (1, 2, 3):
            name = f"TOC {level}"
            if name not in [s.name for s in styles]:
                style = styles.add_style(name, WD_STYLE_TYPE.PARAGRAPH)
                style.base_style = styles["Normal"]
            styles[name].paragraph_format.left_indent = Inches(0.25 * (level - 1))
            styles[name].paragraph_format.space_after = Pt(3)

    def _page(self) -> None:
        section = self.word.sections[0]
        width, height = (Inches(8.5), Inches(11)) if self.look.letter else (Inches(8.27), Inches(11.69))
        if self.look.landscape:
            section.orientation = WD_ORIENT.LANDSCAPE
            width, height = height, width
        section.page_width, section.page_height = width, height
        for side in ("left_margin", "right_margin", "top_margin", "bottom_margin"):
            setattr(section, side, Inches(self.look.margin))
        self.text_width = width - 2 * Inches(self.look.margin)
        self.text_height = height - 2 * Inches(self.look.margin)
        footer = section.footer.paragraphs[0]
        footer.alignment = 1
        if self.rng.random() < 0.5:
            footer.add_run("Page ")
        _field(footer, "PAGE")

    # -- text

    def words(self, low: int, high: int) -> list[str]:
        return [self.rng.choice(_NOUNS) for _ in range(self.rng.randint(low, high))]

    def sentence(self) -> str:
        a, b = self.words(1, 3), self.words(1, 2)
        text = f"The {' '.join(a)} was {self.rng.choice(_VERBS)} {self.rng.choice(_LINKS)} the {' '.join(b)}"
        if self.rng.random() < 0.5:
            text += f" and the {' '.join(self.words(1, 2))} {self.rng.choice(_VERBS)}"
        return text + "."

    def paragraph(self, sentences: tuple[int, int] = (2, 6)) -> None:
        parts = [self.sentence() for _ in range(self.rng.randint(*sentences))]
        paragraph = self.word.add_paragraph()
        bold_at = self.rng.randrange(len(parts)) if self.rng.random() < 0.35 else -1
        for index, part in enumerate(parts):
            if index == bold_at:  # a bold phrase inside the paragraph, not a line of its own
                head, _, tail = part.partition(" was ")
                paragraph.add_run(head).bold = True
                paragraph.add_run(f" was {tail} ")
            else:
                paragraph.add_run(part + " ")
        self.chars += sum(len(p) for p in parts)

    # -- structure

    def heading(self, level: int, title: str) -> None:
        self.numbers[level - 1] += 1
        for deeper in range(level, 3):
            self.numbers[deeper] = 0
        text = title
        if self.look.numbered:
            number = ".".join(str(n) for n in self.numbers[:level])
            text = f"{number}. {title}" if level == 1 else f"{number} {title}"
        self.word.add_heading(text, level)
        shift = 1 if self.look.title else 0
        self.doc.headings.append(OfficeHeading(text, level + shift))
        self.contents_slot.append((text, level, self.page_estimate()))
        self.chars += 150  # a heading's spacing, as body text

    def bullets(self, numbered: bool) -> None:
        style = "List Number" if numbered else "List Bullet"
        for _ in range(self.rng.randint(3, 5)):
            words = self.words(3, 9 if self.rng.random() < 0.8 else 22)
            self.word.add_paragraph(" ".join(words).capitalize(), style=style)
            self.chars += 60

    def decoy(self) -> None:
        """A wholly bold paragraph that is not a heading: a sentence, or a label before a list."""
        if self.rng.random() < 0.5:
            text = self.rng.choice(("Note: ", "Important: ", "")) + self.sentence()
            self.word.add_paragraph().add_run(text).bold = True
            self.doc.decoys.append(text)
        else:
            text = self.rng.choice(("Key points:", "Actions agreed:", "The board noted:", "In summary:"))
            self.word.add_paragraph().add_run(text).bold = True
            self.doc.decoys.append(text)
            self.bullets(numbered=False)

    def table(self, title: str = "") -> None:
        self.table_number += 1
        columns = self.rng.randint(3, 5)
        header = ["Item", *self.rng.sample(("Budget", "Spent", "Forecast", "Variance", "Status", "Owner",
                                             "Start", "Finish"), columns - 1)]
        rows = [header]
        for _ in range(self.rng.randint(3, 7)):
            label = " ".join(self.words(1, 2)).capitalize()
            rows.append([label, *(f"{self.rng.randint(1, 999)}.{self.rng.randint(0, 9)}0"
                                  for _ in range(columns - 1))])
        caption = f"Table {self.table_number}: {' '.join(self.words(2, 5)).capitalize()}"
        if title:  # a bold title set like a paragraph, as many reports do
            self.word.add_paragraph().add_run(title).bold = True
            self.doc.decoys.append(title)
        else:
            self.word.add_paragraph(caption, style="Caption")
            self.doc.decoys.append(caption)
        ruled = self.rng.random() < 0.75
        if self.text_columns > 1:
            # A table in a text column: python-docx sizes a new table to the page's text width,
            # where Word and LibreOffice size one inserted in a column to the column.  Left
            # page-wide, LibreOffice drew it over the next column and left its last columns out
            # of the PDF altogether; sized to the column, five columns break their words
            # ("Finis|h", "209.6|0").  Nobody sets a five-column table in half a page: such a
            # table keeps its first three columns (the draws above stand, so the documents
            # after it do not change), the first the widest (issue 32: the truth held cells no
            # reader could find, office-0013).
            columns = min(columns, 3)
            rows = [row[:columns] for row in rows]
            width = (self.text_width - _COLUMN_SPACE * (self.text_columns - 1)) // self.text_columns
            widths = [width * 2 // 5] + [width * 3 // 10] * (columns - 1)
        table = self.word.add_table(rows=len(rows), cols=columns)
        table.style = self.word.styles["Table Grid" if ruled else "Normal Table"]
        if self.text_columns > 1:
            table.autofit = False
            for grid, size in zip(table.columns, widths, strict=True):
                grid.width = size
                for cell in grid.cells:
                    cell.width = size
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                cell = table.cell(r, c).paragraphs[0]
                cell.add_run(value).bold = r == 0
                if c and r:
                    cell.alignment = 2  # figures right-aligned
        self.doc.tables.append(OfficeTable(rows, ruled))
        if title and self.extra is not None:
            source = self.extra.choice(("SOURCE: DEPOT RECORDS", "Source: council returns",
                                        "Source: annual survey"))
            paragraph = self.word.add_paragraph()
            run = paragraph.add_run(source)
            run.italic = source[1].islower() or None
            run.font.size = Pt(max(8.0, self.look.body_size - 2))
            self.doc.decoys.append(source)
        self.word.add_paragraph()
        self.chars += 120 * len(rows)

    def figure_caption(self) -> None:
        self.figure_number += 1
        caption = f"Figure {self.figure_number} {' '.join(self.words(2, 5)).capitalize()}"
        self.word.add_paragraph(caption, style="Caption")
        self.doc.decoys.append(caption)

    # -- the hard documents' decoys (see the module docstring), drawn from self.extra

    def _extra_words(self, low: int, high: int) -> list[str]:
        assert self.extra is not None
        return [self.extra.choice(_NOUNS) for _ in range(self.extra.randint(low, high))]

    def _extra_sentence(self) -> str:
        assert self.extra is not None
        a, b = self._extra_words(1, 3), self._extra_words(1, 2)
        verb, link = self.extra.choice(_VERBS), self.extra.choice(_LINKS)
        return f"The {' '.join(a)} was {verb} {link} the {' '.join(b)}."

    def _decoy_paragraph(self, text: str, bold: bool = False, italic: bool = False,
                         size: float | None = None, alignment: int | None = None) -> None:
        paragraph = self.word.add_paragraph()
        run = paragraph.add_run(text)
        run.bold, run.italic = bold or None, italic or None
        if size is not None:
            run.font.size = Pt(size)
        if alignment is not None:
            paragraph.alignment = alignment
        self.doc.decoys.append(text)
        self.chars += len(text) + 60

    def hard_decoys(self) -> None:
        """One or two of the decoys after a section's first paragraph."""
        extra = self.extra
        assert extra is not None
        for _ in range(extra.randint(1, 2)):
            roll = extra.random()
            if roll < 0.18:  # a wholly bold short paragraph, no punctuation, then body text
                words = self._extra_words(3, 6)
                text = f"All {' '.join(words[:-1])} must be {extra.choice(_VERBS)} by the {words[-1]}"
                self._decoy_paragraph(text, bold=True)
                self.paragraph((1, 3))
            elif roll < 0.3:  # a bold lead paragraph a size larger than the body
                text = " ".join(self._extra_sentence() for _ in range(extra.randint(1, 2)))
                self._decoy_paragraph(text, bold=True, size=self.look.body_size + 1)
                self.paragraph((1, 3))
            elif roll < 0.42:  # an all-caps label before numbered notes
                label = extra.choice(("NOTES", "NOTE", "KEY ISSUES"))
                self._decoy_paragraph(label, bold=extra.random() < 0.5)
                for number in range(1, extra.randint(2, 4)):
                    text = f"{number}. {self._extra_sentence()}"
                    self.word.add_paragraph(text)
                    self.chars += len(text)
            elif roll < 0.54:  # numbered body paragraphs, numbered like sections
                for number in range(1, extra.randint(2, 4)):
                    text = f"{self.numbers[0] or 1}.{number} {self._extra_sentence()}"
                    if extra.random() < 0.5:
                        text += " " + self._extra_sentence()
                    self._decoy_paragraph(text)
            elif roll < 0.64:  # bold list items
                for _ in range(extra.randint(2, 4)):
                    paragraph = self.word.add_paragraph(style="List Bullet")
                    paragraph.add_run(" ".join(self._extra_words(2, 5)).capitalize()).bold = True
                    self.chars += 60
            elif roll < 0.76:  # an italic lead-in and a short one-line paragraph in body font
                paragraph = self.word.add_paragraph()
                lead = extra.choice(("Context. ", "In practice, ", "By comparison, "))
                paragraph.add_run(lead).italic = True
                paragraph.add_run(" ".join(self._extra_sentence() for _ in range(3)))
                self._decoy_paragraph(f"See the {' '.join(self._extra_words(1, 2))} register for details")
            elif roll < 0.88:  # key-value lines
                for key, value in (("Date", f"{extra.randint(1, 28)} May {extra.randint(2019, 2025)}"),
                                   ("Reference", f"HM/{extra.randint(2019, 2025)}/{extra.randint(1, 99)}"),
                                   ("Status", extra.choice(("Final", "Draft", "For decision")))):
                    paragraph = self.word.add_paragraph()
                    paragraph.paragraph_format.space_after = Pt(0)
                    bold = extra.random() < 0.5
                    paragraph.add_run(f"{key}: ").bold = True
                    paragraph.add_run(value).bold = bold or None
                    self.doc.decoys.append(f"{key}: {value}")
                    self.chars += 60
            else:  # a bold table title (no "Table N") above a table, a source line below
                title = " ".join(self._extra_words(2, 4)).capitalize()
                self.table(title=f"{title}, {extra.randint(2019, 2025)}")

    def front_matter(self) -> None:
        """Unnumbered sections before the first numbered one, listed in the contents with
        roman page numbers."""
        for name, label in (("Foreword", "ii"), ("Executive Summary", "iii")):
            self.word.add_heading(name, 1)
            self.doc.headings.append(OfficeHeading(name, 1 + int(self.look.title)))
            self.contents_slot.append((name, 1, label))
            self.paragraph()

    def signature(self) -> None:
        assert self.extra is not None
        name = f"{self.extra.choice('ACDJKMPRS')}. {self.extra.choice(('Smith', 'Patel', 'Jones', 'Okafor'))}"
        for text, bold in (("Signed", False), (name, True), ("Director of Highways", False),
                           (f"{self.extra.randint(1, 28)} June {self.extra.randint(2019, 2025)}", False)):
            paragraph = self.word.add_paragraph()
            paragraph.paragraph_format.space_after = Pt(0)
            paragraph.add_run(text).bold = bold or None
            self.doc.decoys.append(text)

    def columns(self, count: int) -> None:
        """End the section so far with `count` text columns (Word keeps a section's properties
        in the paragraph that ends it): called with 1 before the two-column part and 2 after."""
        properties = OxmlElement("w:sectPr")
        kind = OxmlElement("w:type")
        kind.set(qn("w:val"), "continuous")
        properties.append(kind)
        body = self.word.sections[0]._sectPr
        for tag in ("w:pgSz", "w:pgMar"):
            found = body.find(qn(tag))
            if found is not None:
                properties.append(deepcopy(found))
        cols = OxmlElement("w:cols")
        cols.set(qn("w:num"), str(count))
        cols.set(qn("w:space"), str(_COLUMN_SPACE // 635))  # in twips
        properties.append(cols)
        paragraph = self.word.add_paragraph()
        paragraph._p.get_or_add_pPr().append(properties)
        # What follows this paragraph is the next section: two columns after the first call.
        self.text_columns = 2 if count == 1 else 1

    def page_estimate(self) -> int:
        # About 15 characters per inch of line and 5 lines per inch of page at 11 points, less
        # the room headings, tables and paragraph spacing take.
        width, height = self.text_width / 914400, self.text_height / 914400
        chars_per_page = 10 * width * 4 * height * (11.0 / self.look.body_size) ** 2
        return 1 + int(self.chars / chars_per_page)


def _contents(writer: _Writer, title: str, entries: list[tuple[str, int, int | str]], leaders: bool,
              first_page: int) -> None:
    """The contents page: a title, then one "TOC n" paragraph per entry inside a TOC field."""
    word = writer.word
    word.add_paragraph(title, style="TOC Heading")
    tab_at = writer.text_width
    for index, (text, level, page) in enumerate(entries):
        paragraph = word.add_paragraph(style=f"TOC {level}")
        paragraph.paragraph_format.tab_stops.add_tab_stop(
            tab_at, WD_TAB_ALIGNMENT.RIGHT, WD_TAB_LEADER.DOTS if leaders else WD_TAB_LEADER.SPACES)
        if index == 0:
            _field_char(paragraph, "begin", ' TOC \\o "1-3" \\h \\z \\u ')
        paragraph.add_run(text)
        paragraph.add_run("\t" + (page if isinstance(page, str) else str(page + first_page)))
        if index == len(entries) - 1:
            _field_char(paragraph, "end")


def _write_sections(body: _Writer, rng: random.Random, extra: random.Random | None, sections: list[str],
                    topic: str) -> None:
    """The numbered sections, their subsections, tables, lists and decoys."""
    two_columns = extra.randrange(2, len(sections)) if extra is not None and extra.random() < 0.5 else -1
    for index, name in enumerate(sections):
        long_name = rng.random() < 0.3  # (drawn before the noun, as it always was)
        title = f"{name} of the {topic.split()[0]} {rng.choice(_NOUNS)}".title() if long_name else name
        if extra is not None and index == 0:
            # A heading long enough to wrap, in the body and in the contents.
            title = f"{name} to the review of {topic.lower()} arrangements across the " \
                    f"{' and '.join(body._extra_words(2, 2))} districts of the county"
        body.heading(1, title)
        body.paragraph()
        if extra is not None:
            body.hard_decoys()
        if index == two_columns:
            body.columns(1)
        if index == 1:
            body.table()
        for sub in range(rng.randint(1, 3)):
            body.heading(2, " ".join(body.words(1, 3)).title())
            body.paragraph()
            if extra is not None and extra.random() < 0.4:
                body.hard_decoys()
            roll = rng.random()
            if roll < 0.25:
                body.decoy()
            elif roll < 0.45:
                body.bullets(numbered=rng.random() < 0.4)
            elif roll < 0.55:
                body.figure_caption()
            if rng.random() < 0.35:
                body.heading(3, " ".join(body.words(2, 3)).capitalize())
                body.paragraph()
            if sub == 0 and rng.random() < 0.3:
                body.table()
            body.paragraph((1, 4))
        if index == two_columns:
            body.columns(2)


def generate_document(seed: int, hard: bool = False) -> OfficeDocument:
    """The document of `seed`; `hard` adds the decoys (see the module docstring), drawn from a
    second random stream so that the plain document of a seed stays what it was."""
    rng = random.Random(seed)
    look = _pick_look(rng)
    extra = random.Random(seed * 1_000_003 + 17) if hard else None
    if extra is not None:
        look = _harden_look(look, extra)
    topic = rng.choice(_TOPICS)
    doc = OfficeDocument(seed=seed, name=f"office-{seed:04d}", docx=b"",
                         look={k: v for k, v in vars(look).items()})
    body = _Writer(rng, look, doc)
    body.extra = extra
    # The body is written into its own python-docx Document first, so the contents page (which
    # comes first but needs every heading) can be written before it into the final one.
    sections = rng.sample(_SECTION_WORDS, rng.randint(4, 6))
    if extra is not None:
        body.front_matter()
    _write_sections(body, rng, extra, sections, topic)
    if extra is not None:
        body.signature()
    final = _Writer(random.Random(seed), look, OfficeDocument(seed, doc.name, b""))
    if look.title:
        title = f"{topic} Report {2018 + rng.randrange(8)}"
        final.word.add_paragraph(title, style="Title")
        doc.headings.insert(0, OfficeHeading(title, 1))
        month = rng.choice(("March", "June", "October"))
        final.word.add_paragraph(f"Prepared by the {rng.choice(_NOUNS)} team, {month}")
    if extra is not None:  # the document's title as a running header on every page
        final.word.sections[0].header.paragraphs[0].text = f"{topic} Report"
    if look.contents:
        doc.contents_title = rng.choice(_CONTENTS_TITLES)
        doc.contents_leaders = look.leaders
        depth = rng.choice((2, 3))
        entries = [entry for entry in body.contents_slot if entry[1] <= depth]
        doc.contents = [text for text, _, _ in entries]
        # Word's "TOC Heading" is set like Heading 1: a heading at Heading 1's level.
        doc.headings.insert(1 if look.title else 0, OfficeHeading(doc.contents_title, 1 + int(look.title)))
        for level in (1, 2, 3) if extra is not None else ():  # spaced out: over two pages
            final.word.styles[f"TOC {level}"].paragraph_format.space_after = Pt(16)
        # The body starts on the page after the contents: its first heading breaks the page.
        _contents(final, doc.contents_title, entries, look.leaders, 1)
        first = body.word.paragraphs[0]
        first.paragraph_format.page_break_before = True
    for element in list(body.word.element.body):
        if element.tag != qn("w:sectPr"):
            final.word.element.body.append(element)
    buffer = io.BytesIO()
    final.word.save(buffer)
    doc.docx = buffer.getvalue()
    return doc


def convert(paths: list[Path], outdir: Path, tagged: bool = False, timeout: float = 600,
            bookmarks: bool | None = None) -> list[Path]:
    """Each DOCX in `paths` as PDF in `outdir` (same stem), in one LibreOffice run with a
    private profile: tagged (structure tree, /MarkInfo) with an outline when asked, else
    neither; `bookmarks` set apart from `tagged` gives an untagged PDF with an outline."""
    # The untagged export also leaves out the outline (bookmarks from the headings, on by
    # default): it is the PDF that carries no structure at all, what the heuristics alone must read.
    options = {"UseTaggedPDF": tagged, "ExportBookmarks": tagged if bookmarks is None else bookmarks}
    return libreoffice_pdf(paths, outdir, "writer_pdf_Export", options, timeout)


_SOFFICE_BATCH = 200  # files per soffice run, well under the arguments it reads (see below)


def libreoffice_pdf(paths: list[Path], outdir: Path, export_filter: str, options: dict[str, bool],
                    timeout: float = 600) -> list[Path]:
    """Each file in `paths` as PDF in `outdir` (same stem), in one LibreOffice run with a
    private profile per call, through `export_filter` ("writer_pdf_Export", "calc_pdf_Export")
    with the PDF export's boolean `options`; `timeout` bounds each run of up to
    _SOFFICE_BATCH files."""
    soffice = shutil.which("soffice")
    if soffice is None:
        raise RuntimeError("soffice (LibreOffice) is not installed")
    # LibreOffice 7.4 takes the PDF export filter's options as JSON after the filter name.
    target = f"pdf:{export_filter}:" + json.dumps(
        {name: {"type": "boolean", "value": str(value).lower()} for name, value in options.items()})
    outdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="lo-profile-") as profile:
        # soffice drops arguments past about 250 without a word and exits 0 (of 249 probe
        # documents after its 7 options, the last three were never converted): a batch of
        # files per run.
        for start in range(0, len(paths), _SOFFICE_BATCH):
            batch = paths[start:start + _SOFFICE_BATCH]
            subprocess.run([soffice, "--headless", "--norestore", f"-env:UserInstallation=file://{profile}",
                            "--convert-to", target, "--outdir", str(outdir), *map(str, batch)],
                           check=True, capture_output=True, timeout=timeout)
    out = [outdir / f"{p.stem}.pdf" for p in paths]
    missing = [p.name for p in out if not p.exists()]
    if missing:
        raise RuntimeError(f"LibreOffice wrote no PDF for {missing}")
    return out
