"""Structured Markdown from a born-digital PDF's positioned text, without a layout model.

The rules, in the order they run:

- **Tables** come from :func:`extractors.pdf_tables.find_tables`, or from a tagged page's
  structure tree where it agrees with the page (:mod:`extractors.pdf_evidence`); their words
  leave the prose and their Markdown takes their place in reading order.  A table the page's
  body ends with and one the next page's body starts with, in the same columns, are one
  table (:mod:`extractors.pdf_table_stitch`): all its rows are written where it starts, the
  continuation page keeps a ``table_continued`` block with the box of its part.
- **Lines**: words on one baseline, split where a gap wider than about an em separates them
  (a column gutter, a table cell).
- **Running headers and footers**: lines in the top or bottom band of the page, or a page's
  first or last line wherever it stands (a header below a deep top margin), whose text,
  digits aside, recurs at about the same height on other pages (page numbers, the report's
  title); bare page numbers ("3", "Page 3", "3 of 10"); and, on a tagged page of a document
  of two pages or more, text marked as an artifact above or below the page's content
  (:mod:`extractors.pdf_evidence`).  They leave the body and are kept as page metadata.
- **Columns**: a vertical strip that no narrow line crosses, with text on both sides, is a
  gutter; columns are read one after the other, lines crossing a gutter (titles, wide
  tables) stay where they are and cut the columns above from those below.
- **Blocks**: consecutive lines form a paragraph unless the gap between them, a change of
  size or weight, a first-line indent or a list marker says otherwise; a bold lead-in runs
  into its paragraph (a bold term with the text on its baseline to its right, or bold lines
  filling the measure with the text on the next line at the paragraph's pitch).
- **Headings**: short blocks in a font clearly larger than the body's, or bold where the
  body is not, or numbered as sections ("2.1 Method"); levels by font size rank, and by
  numbering depth where headings are numbered ("Chapter 2" counts as "2."), the others then
  by the numbered ones' sizes.  Not headings, however set: bulleted items,
  "Key: value" lines ("Date: 12 May 2024"), sentences (a full stop after more than eight
  words), bold body-size lines of more than ten words; and, at the body's size, a line
  followed by a table, a list or a few short lines (a table's title, a label, a name in a
  signature block), or spaced like a paragraph in a document whose headings sit closer to
  their text than to the text above.  Whatever their type, not headings either (tuned on the
  heading impostor classes of ``tests/pdf_cases.py``): captions ("Table A4", "Chart 1.2"),
  note, letter and front matter fields ("Source:", "Re:", "Keywords:"), dates, pull quotes,
  key figures ("4.2 GW"), lines starting lower case; short lines set alike one after the
  other (empty form fields, "Signature" then "Date"); numbered items (their explanation hung
  under their text, or items numbered alike one under the other); a name over an address;
  a line over a bare figure (a chart's axis title); on a cover page (the first page, no
  running text) all but the largest type, and above a first page's running text the smaller
  lines over short lines (a paper's authors over their affiliations).  A table of contents,
  when the document has one, then decides (:mod:`extractors.pdf_evidence`).
- **Lists**: blocks starting with a bullet or an item number become Markdown list items,
  their wrapped lines joined; on a tagged page, the lines of each ``LI`` element, nested
  items indented (:mod:`extractors.pdf_evidence`).
- **Tables of contents** (:mod:`extractors.pdf_contents`): entries with dot leaders or a
  right-aligned page column become a nested Markdown list, never headings nor a table; a bold
  body-size line ending in a colon is a label, and a bold line level with two or more short
  lines is a table row's cell, neither a heading.

- **Right-to-left pages** (Hebrew, Arabic): a line holding right-to-left words on a page
  mostly in those scripts has its words in reading order (:mod:`extractors.pdf_bidi`); its
  paragraphs' indent and ragged end are mirrored, columns and the pieces of a row are read
  rightmost first, and a right-to-left table's rightmost column is its first.

Body size is the most common font size by character count over the whole document.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from operator import attrgetter, itemgetter
from typing import Any

from extractors.pdf_bidi import has_rtl, logical_columns, logical_words, rtl_line
from extractors.pdf_contents import (
    ContentsEntry,
    find_contents,
    might_hold_contents,
    nest_across_pages,
    text_key,
)
from extractors.pdf_evidence import (
    HEURISTICS,
    DocumentEvidence,
    apply_evidence,
    drawn_as_artifact,
    tagged_list_items,
    tagged_tables,
)
from extractors.pdf_table_stitch import BodyEdge, at_foot, continuation_note, leading_rows, stitch_tables
from extractors.pdf_tables import FoundTable, find_tables
from extractors.pdf_tags import PageTags, TaggedRegion
from extractors.pdf_words import PageLayout, Word
from extractors.tables import cells_to_markdown

# Lines whose top is above this share of the page height (or bottom below 1 minus it) may be
# running headers or footers.
_BAND = 0.11
# A running line recurs on at least this share of the document's pages (and on two).
_RECUR_SHARE = 0.3
# Same height on two pages: within this many points.
_SAME_HEIGHT = 8.0
_PAGE_NUMBER = re.compile(r"^[\s\-–—|/.()#]*(page|p\.|seite|pagina|página)?[\s\-–—|/.()#]*"
                          r"(of|/|von|de|sur)?[\s\-–—|/.()#]*$", re.IGNORECASE)
_DIGITS = re.compile(r"\d+")
# A dash glued to a figure is a sign or a range ("-12 °C", "-2-5" a right-to-left section
# number), not a bullet: dashes take a bullet's place only before a space or a non-figure.
_BULLET = re.compile(r"^([•●○◦▪■□‣⁃∙·◆◇►▸➢✓✔*\uf0b7\uf0a7\uf076\uf0d8\uf0fc\uf0a8]|[\-–—](?!\d))\s*(?=\S)")
_ITEM_NUMBER = re.compile(r"^(\(?(\d{1,3}|[a-z]|[ivx]{1,5})[.)])\s+(?=\S)")
# Section numbers: "2", "2.1", "2.1.3", "A.", "IV." followed by a title.
_SECTION = re.compile(r"^((\d{1,2}(\.\d{1,2}){0,4})\.?|[A-Z]\.|[IVX]{1,5}\.)\s+(?=[^\W\d_])")
# A section named by its kind and number ("Chapter 1.", "Appendix B:", "Part IV", "Section 2.3"):
# numbered like "1." (or "2.3") for the depth of the headings below it.
_NAMED_SECTION = re.compile(r"^(?:chapter|part|appendix|annex|section)\s+"
                            r"(\d{1,2}(?:\.\d{1,2}){0,4}|[IVXLC]{1,6}|[A-Z])(?:[.:]|\s|$)", re.IGNORECASE)
# Fonts whose glyphs are pictures: a lone character in one at a line's start is a bullet.
_SYMBOL_FONTS = ("dingbat", "wingding", "symbol", "bookmaster", "webdings")
# A table of contents line: dot leaders and a page number.
_LEADERS = re.compile(r"(\.\s?){4,}\s*[\divxlc]+\s*$", re.IGNORECASE)
_ROMAN = re.compile(r"^[ivxlc]{1,6}$")
_SECTION_NUMBER = re.compile(r"^(\d{1,2}(\.\d{1,2}){0,4}\.?|[A-Z]\.|[IVX]{1,5}\.)$")
# Captions are set like headings (bold, on their own) but are not sections: a figure, table,
# chart... and its number ("Table 3.", "FIGURE 2:", "Table A4", "Chart 1.2", "Graph S1").
_CAPTION = re.compile(r"^(figure|fig\.|table|tab\.|chart|graph|exhibit|map|diagram|plate|abbildung|tabelle)"
                      r"\s*(\d|[A-Z]{1,2}\d|[IVX]+\b)", re.IGNORECASE)
# The keys of the fields of a letter's or memo's heading block, of a paper's front matter and
# of the notes under a table or chart ("Re: ...", "Subject: ...", "Keywords: ...", "Source:
# ...", "Notes: ..."): whatever their value and their type, these lines are not sections.
_FIELD_KEY = re.compile(r"^(re|subject|subj|from|to|cc|bcc|attn|attention|encl?|enclosures?|ref|our ref|"
                        r"your ref|sources?|notes?|base|footnotes?|key ?words|index terms|received|accepted|"
                        r"published|e-?mail|tel|telephone|fax|phone|corresponding authors?)\s*:",
                        re.IGNORECASE)
# A line that is a date and nothing else ("12 May 2024", "March 2024", "12/03/2024", "May 12,
# 2024"): a letter's or a cover's date, not a section.
_MONTH = (r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?")
_DATE = re.compile(rf"^((\d{{1,2}}(st|nd|rd|th)?\s+)?{_MONTH},?\s+(\d{{1,2}}(st|nd|rd|th)?,?\s+)?\d{{4}}"
                   r"|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{4}-\d{2}-\d{2})$", re.IGNORECASE)
# Quotation marks a pull quote opens with.
_QUOTES = "\"“”„‘’«»"
_SENTENCE_END = (".", "!", "?", ":", ";")
# What names and commands hold and titles do not: brackets, underscores, operators, a dot or a
# slash inside a word ("HR_SCHEMA.EMPLOYEES", "USAGE(*ALLOWED)").
_CODE_MARKS = re.compile(r"[()\[\]{}<>_=*\\|]|\w[./]\w")
# A key and its value on one line ("Date: 12 May 2024", "Status: Final", "Reference: HM/17"):
# a field of a memo's or a form's heading block, not a section.  The key is a word or two; a
# key ending in a section mark ("Appendix A:", "Part 2:") names a section instead.
_KEY_VALUE = re.compile(r"^(?P<key>[A-Z][\w'’/&-]*(?: [\w'’/&-]+)?):\s+(?P<value>\S.*)$")
_KEY_SECTION_MARK = re.compile(r"(?:^| )(?:\d{1,3}|[A-Z]|[IVXLC]{1,6})$")
# A full stop after four words or more, then a capitalised word: one sentence ends inside.
_SENTENCE_INSIDE = re.compile(r"(?:\S+\s+){3,}\S*[a-z]\.\s+[A-Z]")
# A line ending with a full stop after more words than this is a sentence, however it is set.
_SENTENCE_WORDS = 8
# A heading is closer to the text below it than to the text above by at least this share of
# the body size (and a point); a document sets its headings so when this share of its sure
# headings, and this many, do.
_BINDING = 0.1
_BINDING_SHARE = 0.8
_BINDING_MIN_VOTES = 3
# A bold line of the body's size with more words than this is a statement, not a title.
_BOLD_TITLE_WORDS = 10
# How much larger than the body a heading's font must be.
_HEADING_SCALE = 1.15
_HEADING_MAX_CHARS = 200
# Top to top, the lines of one paragraph of large type are at most this many sizes apart.
_LARGE_LINE_PITCH = 1.45
_HEADING_MAX_LINES = 3
# Display type (twice the body's size and more) fits few words a line: a title may wrap more.
_DISPLAY_SCALE = 1.6
_DISPLAY_MAX_LINES = 4
_MAX_LEVEL = 4
# Lines set like headings, this many in a row with nothing between, are not (_unhead_line_runs).
_LINE_RUN = 3
# Numbered headings decide the levels of the others from this many on.
_NUMBERED_HEADINGS = 3
# The lines of an address block have at most this many words.
_ADDRESS_LINE_WORDS = 6
# A paragraph of this many words (or a sentence of six) is running text: a page holding one is
# not a cover page.
_COVER_TEXT_WORDS = 15


@dataclass
class Line:
    words: list[Word]
    x0: float
    top: float
    x1: float
    bottom: float
    size: float
    bold: bool
    page: int
    kind: str = "body"  # "header" and "footer" for running lines
    italic: bool = False
    contents: ContentsEntry | None = None  # the table of contents entry the line is part of
    rtl: bool = False  # a right-to-left line (its words are in reading order, not left to right)

    @cached_property
    def text(self) -> str:
        """(Made once: the rules ask for it many times, and a line's words are never changed
        once it is built.)"""
        return " ".join(w.text for w in self.words)

    @property
    def height(self) -> float:
        return self.bottom - self.top


@dataclass
class Block:
    """One element of a page in reading order, as the ``parse --json`` report lists it."""

    kind: str  # heading, paragraph, list_item, table, header, footer
    markdown: str
    page: int
    box: tuple[float, float, float, float]
    level: int | None = None
    # Where the block's Markdown is in its page's Markdown (start, end character offsets):
    # how a chunk finds the boxes of the text it holds.  None for headers and footers.
    span: tuple[int, int] | None = None
    # A table continued over several pages: each page's part, where its rows are in the
    # block's Markdown (offsets from the block's start) and its box on that page.
    parts: list[TablePart] = field(default_factory=list)
    # A ``table_continued`` block: the page whose table block holds this part's rows.
    continues: int | None = None
    # A list item nested in the list item before it (a tagged list's depth), indented.
    nested: bool = False

    def report(self, max_text: int = 200) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "page": self.page,
                               "box": [round(v, 1) for v in self.box], "text": self.markdown[:max_text]}
        if self.level is not None:
            out["level"] = self.level
        if self.span is not None:
            out["span"] = list(self.span)
        if self.parts:
            out["pages"] = [self.parts[0].page, self.parts[-1].page]
            out["parts"] = [part.report() for part in self.parts]
        if self.continues is not None:
            out["continues"] = self.continues
        return out


@dataclass
class TablePart:
    """The rows of a page-crossing table that one page holds."""

    page: int
    box: tuple[float, float, float, float]
    offsets: tuple[int, int]  # where its rows are in the table block's Markdown
    size: tuple[float, float]  # the page's width and height

    def report(self) -> dict[str, Any]:
        return {"page": self.page, "box": [round(v, 1) for v in self.box], "offset": list(self.offsets),
                "size": [round(v, 1) for v in self.size]}


@dataclass
class PageStructure:
    number: int
    markdown: str
    blocks: list[Block] = field(default_factory=list)
    running: list[str] = field(default_factory=list)  # header and footer lines removed
    tables: list[FoundTable] = field(default_factory=list)
    size: tuple[float, float] = (0.0, 0.0)  # the page's width and height in points
    # What decided the page's headings: "tags", "outline" or "heuristics" (pdf_evidence).
    source: str = HEURISTICS


@dataclass
class _Style:
    """The document's body font, and the heading font sizes in rank order."""

    body_size: float
    body_bold: bool
    body_family: str = ""


def structure(layouts: list[PageLayout], evidence: DocumentEvidence | None = None,
              join_tables: bool = True) -> list[PageStructure]:
    """Each page's structured Markdown, blocks and running lines (pages without words give
    empty Markdown, for the caller to keep its own text or OCR them).  ``evidence``, the
    document's tags and outline, decides the headings of the pages it can speak for
    (:mod:`extractors.pdf_evidence`); the heuristics rank the others'.  With ``join_tables``
    a table continued on the next page is one table (a page left holding only its rows has
    empty Markdown and a ``table_continued`` block: the caller must not fill it again)."""
    tags = evidence.tags if evidence else {}
    tables = {layout.number: _tables(layout, tags.get(layout.number)) for layout in layouts}
    lines = {layout.number: build_lines(_outside(layout.words, tables[layout.number]), layout.number)
             for layout in layouts}
    mark_running(layouts, lines, {number: page.artifacts for number, page in tags.items()
                                  if page.tagged and page.artifacts})
    _mark_contents(lines)
    adopted = _adopt_leading_rows(layouts, lines, tables) if join_tables else set()
    style = _body_style([line for page in lines.values() for line in page if line.kind == "body"])
    drafts = {layout.number: _page_blocks(layout, lines[layout.number], tables[layout.number], style)
              for layout in layouts}
    for layout in layouts:
        if layout.number in tags:  # (the lines of a tagged list item are one item)
            drafts[layout.number] = tagged_list_items(tags[layout.number], layout.words,
                                                      drafts[layout.number], _list_marker)
    # What follows a label may be on the next page: the document's blocks in reading order.
    _unhead_labels([draft for layout in layouts for draft in drafts[layout.number]], style)
    _unhead_cover(next((drafts[layout.number] for layout in layouts if drafts[layout.number]), []), style)
    sources = apply_evidence(evidence, layouts, drafts, style, _heading_shaped) if evidence else {}
    # Headings the evidence placed have their levels; the heuristics rank the rest.
    _rank_headings(style, [b for blocks in drafts.values() for b in blocks if b.level is None])
    if join_tables:
        _join_page_crossing_tables(layouts, drafts, tables, adopted)
    out = []
    for layout in layouts:
        blocks = [_render(draft, style) for draft in drafts[layout.number]]
        running = [line for line in lines[layout.number] if line.kind != "body"]
        blocks = [Block(line.kind, line.text, layout.number, (line.x0, line.top, line.x1, line.bottom))
                  for line in running if line.kind == "header"] + blocks + \
                 [Block(line.kind, line.text, layout.number, (line.x0, line.top, line.x1, line.bottom))
                  for line in running if line.kind == "footer"]
        if layout.turned:  # text set at an angle: one paragraph after the page's body
            turned = layout.turned
            blocks.append(Block("paragraph", " ".join(w.text for w in turned), layout.number,
                                (min(w.x0 for w in turned), min(w.top for w in turned),
                                 max(w.x1 for w in turned), max(w.bottom for w in turned))))
        markdown = _compose([b for b in blocks if b.kind not in ("header", "footer", "table_continued")])
        out.append(PageStructure(layout.number, markdown, blocks, [line.text for line in running],
                                 tables[layout.number], (layout.width, layout.height),
                                 sources.get(layout.number, HEURISTICS)))
    return out


def _adopt_leading_rows(layouts: list[PageLayout], lines: dict[int, list[Line]],
                        tables: dict[int, list[FoundTable]]) -> set[int]:
    """Rows of a table continued at the head of the next page that the table finder left as
    lines (:func:`extractors.pdf_table_stitch.leading_rows`) made a table there, their lines
    taken from the page; the ids of the tables so made."""
    bodies = {n: [line for line in page if line.kind == "body"] for n, page in lines.items()}
    extents = [(min([line.top for line in bodies[n]] + [t.top for t in tables[n]]),
                max([line.bottom for line in bodies[n]] + [t.bottom for t in tables[n]]))
               for n in bodies if bodies[n] or tables[n]]
    if len(extents) < 2:
        return set()
    highest, lowest = min(top for top, _ in extents), max(bottom for _, bottom in extents)
    adopted: set[int] = set()
    words = {layout.number: layout.words for layout in layouts}
    for layout in layouts:
        before = tables.get(layout.number - 1)
        if not before or layout.number not in bodies:
            continue
        last = max(before, key=lambda t: t.bottom)
        if any(line.top > last.bottom and not continuation_note(line.text)
               for line in bodies[layout.number - 1]) or not at_foot(last, lowest):
            continue
        first_table = min((t.top for t in tables[layout.number]), default=float("inf"))
        rows = _baseline_rows([line for line in bodies[layout.number]
                               if line.bottom < first_table and line.contents is None])
        while rows and len(rows[0]) == 1 and continuation_note(rows[0][0].text):
            rows = rows[1:]
        found = leading_rows(last, words[layout.number - 1],
                             [[w for line in row for w in line.words] for row in rows], highest)
        if found is None:
            continue
        taken = {id(line) for row in rows for line in row
                 if found.top <= line.top and line.bottom <= found.bottom}
        lines[layout.number] = [line for line in lines[layout.number] if id(line) not in taken]
        tables[layout.number] = [found, *tables[layout.number]]
        adopted.add(id(found))
    return adopted


def _baseline_rows(lines: list[Line]) -> list[list[Line]]:
    """Lines on one baseline (a table row's cells split at their gaps), top down."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda line: line.top):
        centre = (line.top + line.bottom) / 2
        if rows and abs(centre - (rows[-1][0].top + rows[-1][0].bottom) / 2) <= 0.4 * line.height:
            rows[-1].append(line)
        else:
            rows.append([line])
    return rows


def _join_page_crossing_tables(layouts: list[PageLayout], drafts: dict[int, list[_Draft]],
                               tables: dict[int, list[FoundTable]], adopted: set[int]) -> None:
    """Tables continued on the next page (:mod:`extractors.pdf_table_stitch`) as one: the
    first part's draft takes the joined table, each later part's draft becomes its page's
    ``table_continued`` block, and the pages' table lists follow."""
    edges = []
    for layout in layouts:
        body = drafts[layout.number]
        if not body:
            edges.append(BodyEdge(layout.number, 0.0, 0.0, None, None))
            continue
        # (Notes that the table goes on may stand between its parts.)
        tabled = [d for d in body if d.table is not None or not continuation_note(d.text)] or body
        first = tabled[0].table
        edges.append(BodyEdge(layout.number, min(d.box[1] for d in body), max(d.box[3] for d in body),
                              first, tabled[-1].table, layout.words, id(first) in adopted))
    sizes = {layout.number: (layout.width, layout.height) for layout in layouts}
    for stitch in stitch_tables(edges):
        first_page, first = stitch.parts[0]
        parts = [TablePart(page, (part.x0, part.top, part.x1, part.bottom), offsets, sizes[page])
                 for (page, part), offsets in zip(stitch.parts, stitch.part_offsets(), strict=True)]
        for page, part in stitch.parts:
            draft = next(d for d in drafts[page] if d.table is part)
            if part is first:
                draft.table, draft.parts = stitch.table, parts
                tables[page] = [stitch.table if t is first else t for t in tables[page]]
            else:
                draft.kind, draft.continues = "table_continued", first_page
                tables[page] = [t for t in tables[page] if t is not part]


def _tables(layout: PageLayout, tags: PageTags | None = None) -> list[FoundTable]:
    """The page's tables: the table finder's, then what the page's tags say of them
    (:func:`extractors.pdf_evidence.tagged_tables`)."""
    if not layout.words:
        return []
    # A table of contents' page column looks like a table's column of figures: its words are
    # not offered to the table finder (they become a list, see _mark_contents).
    if might_hold_contents(layout.words):
        entries = find_contents(build_lines(layout.words, layout.number))
        drawn = {id(word) for entry in entries for line in entry.lines for word in line.words}
        if drawn:
            layout = replace(layout, words=[w for w in layout.words if id(w) not in drawn])
    found = [_logical_columns(table) for table in find_tables(layout)]
    # (The tags' tables have the words of the whole page: a table of contents is tagged TOC.)
    return tagged_tables(tags, layout.words, found) if tags is not None else found


def _logical_columns(table: FoundTable) -> FoundTable:
    """A right-to-left table with its columns in reading order, the rightmost first."""
    cells = logical_columns(table.cells)
    return table if cells is None else replace(table, cells=cells, markdown=cells_to_markdown(cells))


def _mark_contents(lines: dict[int, list[Line]]) -> None:
    """Mark the lines of tables of contents (:mod:`extractors.pdf_contents`) with their entry;
    a page label the running-line rule took for a page number goes back to the body."""
    everywhere = Counter(text_key(line.text) for page in lines.values() for line in page)
    found: list[tuple[list[ContentsEntry], float]] = []
    before: list[ContentsEntry] = []  # the entries of the page before
    for page in lines.values():
        # (A page after one with entries may hold a single last entry: always looked at.)
        if not before and not might_hold_contents([word for line in page for word in line.words]):
            continue
        here = Counter(text_key(line.text) for line in page)

        def drawn_elsewhere(key: str, here: Counter[str] = here) -> bool:
            return everywhere[key] > here[key]

        entries = find_contents(page, drawn_elsewhere, continued=bool(before))
        before = entries
        found.append((entries, min(line.x0 for line in page)))
        for entry in entries:
            for line in entry.lines:
                line.contents, line.kind = entry, "body"
    nest_across_pages(found)


def _outside(words: list[Word], tables: list[FoundTable]) -> list[Word]:
    if not tables:
        return words

    def inside(word: Word, table: FoundTable) -> bool:
        x, y = (word.x0 + word.x1) / 2, (word.top + word.bottom) / 2
        return table.x0 - 1 <= x <= table.x1 + 1 and table.top - 1 <= y <= table.bottom + 1

    return [w for w in words if not any(inside(w, t) for t in tables)]


# ---------------------------------------------------------------------------------- lines


def build_lines(words: list[Word], page: int) -> list[Line]:
    """Words grouped by baseline into lines, split at gaps wider than about an em."""
    rows: list[list[Word]] = []
    # Each row's vertical centre and height: those of its first word.  Comparing centres
    # (not growing extents) keeps tightly set lines, and columns whose baselines do not
    # align, from chaining into one row.
    centres: list[tuple[float, float]] = []
    for word in sorted(words, key=lambda w: (w.top + w.bottom) / 2):
        centre, height = (word.top + word.bottom) / 2, word.bottom - word.top
        for index in range(len(rows) - 1, max(-1, len(rows) - 4), -1):
            row_centre, row_height = centres[index]
            # (max() spelled out: this runs for every word of every page)
            if abs(centre - row_centre) <= 0.4 * (row_height if row_height > height else height):
                rows[index].append(word)
                break
        else:
            rows.append([word])
            centres.append((centre, height))
    lines = []
    # A right-to-left page's lines that hold right-to-left words are right to left, even
    # when Latin words are most of one (``שוק Open Source טוב``); None: no such words at all.
    texts = [w.text for w in words]
    rtl = rtl_line(texts) if has_rtl("".join(texts)) else None
    for row in rows:
        lines.extend(_split_row(sorted(row, key=attrgetter("x0")), page, rtl))
    # (Pieces of one row are read from the right on a right-to-left page.)
    lines.sort(key=(lambda line: (line.top, -line.x1)) if rtl else (lambda line: (line.top, line.x0)))
    return lines


def _split_row(row: list[Word], page: int, rtl_page: bool | None) -> list[Line]:
    """A row's words as lines, split at gaps much wider than the row's usual word gap (a
    justified line's stretched spaces are all alike; a gutter or a cell boundary is not)."""
    words = [row[0]]
    for word in row[1:]:
        if not (word.text == words[-1].text and abs(word.x0 - words[-1].x0) < 1):
            words.append(word)  # (the same word twice is overprinted to look bold)
    return [_line(segment, page, rtl_page) for segment in _segments(words)]


def _segments(words: list[Word]) -> list[list[Word]]:
    """Split at the widest gap while it is wide for the text (about an em) and for the words
    on either side of it (well over their usual gap), then split each side the same way."""
    if len(words) < 2:
        return [words]
    gaps = [b.x0 - a.x1 for a, b in zip(words, words[1:], strict=False)]
    at = max(range(len(gaps)), key=gaps.__getitem__)
    widest = gaps[at]
    others = sorted(gaps[:at] + gaps[at + 1:])
    usual = others[len(others) // 2] if others else 0.0
    size = max(words[at].size, words[at + 1].size)
    wide = widest > 0.9 * size and (widest > 2.5 * usual or widest > 2 * size)
    if not wide or (at == 0 and (_is_bullet(words[0]) or _numbers_title(words[0], words[1]))):
        return [words]
    return _segments(words[:at + 1]) + _segments(words[at + 1:])


def _numbers_title(number: Word, title: Word) -> bool:
    """A section number set a quad before its title ("5.1   Results")."""
    return bool(_SECTION_NUMBER.match(number.text)) and title.text[:1].isupper() and number.bold == title.bold


def _is_bullet(word: Word) -> bool:
    """A bullet or item number set apart from its item's text (a hanging indent)."""
    if len(word.text) == 1 and (bool(_BULLET.match(word.text + " x")) or _symbol_font(word.font)):
        return True
    return bool(_ITEM_NUMBER.match(word.text + " x"))


def _symbol_font(font: str) -> bool:
    lower = font.lower()
    return any(name in lower for name in _SYMBOL_FONTS)


def _line(words: list[Word], page: int, rtl_page: bool | None) -> Line:
    rtl = rtl_page is not None and any(has_rtl(w.text) for w in words) and \
        (rtl_page or rtl_line([w.text for w in words]))
    if rtl:  # a Hebrew or Arabic line: its words in reading order
        words = logical_words(words)
    # Characters by size, bold and italic, and the line's box, in one pass (every line of
    # every page comes here); the box's edges compared as min() and max() compare them.
    total = bold_chars = italic_chars = 0
    sizes: dict[float, int] = {}
    first = words[0]
    x0, top, x1, bottom = first.x0, first.top, first.x1, first.bottom
    for word in words:
        if word.x0 < x0:
            x0 = word.x0
        if word.top < top:
            top = word.top
        if word.x1 > x1:
            x1 = word.x1
        if word.bottom > bottom:
            bottom = word.bottom
        n = len(word.text)
        total += n
        key = round(word.size, 1)
        sizes[key] = sizes.get(key, 0) + n
        if word.bold:
            bold_chars += n
        if word.italic:
            italic_chars += n
    # The size most of the line's characters have ("Chapter 1" set small before a large
    # title); the first of equals, as Counter.most_common(1) gives it.
    size = max(sizes.items(), key=itemgetter(1))[0]
    return Line(words, x0, top, x1, bottom, size, bold_chars >= 0.7 * total, page,
                italic=italic_chars >= 0.7 * total, rtl=rtl)


# ---------------------------------------------------------------------- running lines


def _running_key(text: str) -> str:
    return " ".join(_DIGITS.sub("#", text.lower()).split())


def mark_running(layouts: list[PageLayout], lines: dict[int, list[Line]],
                 artifacts: dict[int, list[TaggedRegion]] | None = None) -> None:
    """Mark lines in the top and bottom bands that recur across pages, or are page numbers,
    as ``header`` or ``footer``; and, in a document of two pages or more, lines a tagged page
    marks as artifacts (``artifacts``, by page number) above or below all its other lines."""
    candidates: list[tuple[Line, str, str]] = []
    for layout in layouts:
        page = lines[layout.number]
        # Below a deep top margin a running header may stand lower than the band: the page's
        # first line (and likewise its last) is a candidate wherever it stands; recurring
        # on other pages at the same height makes it a running line, as in the band.
        first = min(page, key=attrgetter("top"), default=None)
        last = max(page, key=attrgetter("bottom"), default=None)
        for line in page:
            upper = line.top < 0.5 * layout.height
            if line.top < _BAND * layout.height or (line is first and upper):
                candidates.append((line, "header", _running_key(line.text)))
            elif line.bottom > (1 - _BAND) * layout.height or (line is last and not upper):
                candidates.append((line, "footer", _running_key(line.text)))
    pages_with_text = sum(1 for layout in layouts if lines[layout.number])
    needed = max(2, round(_RECUR_SHARE * pages_with_text))
    by_key: dict[tuple[str, str], list[Line]] = defaultdict(list)
    for line, band, key in candidates:
        by_key[(band, key)].append(line)
    numbers: list[tuple[Line, str]] = []
    for (band, key), group in by_key.items():
        page_number = (bool(_PAGE_NUMBER.match(key)) and "#" in key) or bool(_ROMAN.match(key))
        for line in group:
            recurring = {other.page for other in group if abs(other.top - line.top) <= _SAME_HEIGHT}
            if len(recurring) >= needed and key.strip("# "):
                line.kind = band
            elif page_number:
                numbers.append((line, band))
    for line, band in numbers:
        # A figure at the head of a page on one baseline with two or more other body lines is
        # a cell of a table row (a table continued from the page before), not a page number.
        if band == "footer" or _row_cells(line, lines[line.page]) < 2:
            line.kind = band
    # Like the recurrence above, artifacts make running lines only in a document of two pages
    # or more: a one-page document's letterhead or title, drawn in its page header and marked
    # as an artifact, is written nowhere else.
    if pages_with_text >= 2:
        for number, drawn in (artifacts or {}).items():
            _mark_artifacts(lines.get(number, []), drawn)


def _mark_artifacts(lines: list[Line], artifacts: list[TaggedRegion]) -> None:
    """Lines drawn as artifacts above the page's first other line are headers, below its last
    one footers (an artifact in between, a watermark or a decoration, is left as it is)."""
    marked = [line for line in lines if line.kind == "body" and drawn_as_artifact(line, artifacts)]
    if not marked:
        return
    content = [line for line in lines if line.kind == "body" and not any(line is m for m in marked)]
    top = min((line.top for line in content), default=float("inf"))
    bottom = max((line.bottom for line in content), default=float("-inf"))
    for line in marked:
        if line.bottom <= top:
            line.kind = "header"
        elif line.top >= bottom:
            line.kind = "footer"


def _row_cells(line: Line, page: list[Line]) -> int:
    """How many body lines other than ``line`` stand on its baseline."""
    centre = (line.top + line.bottom) / 2
    return sum(1 for other in page if other is not line and other.kind == "body"
               and abs((other.top + other.bottom) / 2 - centre) <= 0.4 * max(line.height, other.height))


# ------------------------------------------------------------------------- body style


def _body_style(lines: list[Line]) -> _Style:
    sizes: Counter[float] = Counter()
    bold: Counter[bool] = Counter()
    families: Counter[str] = Counter()
    for line in lines:
        for word in line.words:  # (every word of the document: a plain loop, no method calls)
            n = len(word.text)
            size = round(word.size * 2) / 2
            sizes[size] = sizes.get(size, 0) + n
            family = _family(word.font)
            families[family] = families.get(family, 0) + n
    if not sizes:
        return _Style(10.0, False)
    body = sizes.most_common(1)[0][0]
    for line in lines:
        if abs(round(line.size * 2) / 2 - body) <= 0.5:
            bold[line.bold] += len(line.text)
    return _Style(body, bold[True] > bold[False], families.most_common(1)[0][0])


@lru_cache(maxsize=1024)
def _family(font: str) -> str:
    """A font's family: its name without the subset tag ("ABCDEF+") and style ("-Bold").
    (Cached: asked for every word, of a document's few fonts.)"""
    name = font.split("+", 1)[-1]
    return re.split(r"[-,]", name, maxsplit=1)[0].lower()


# ---------------------------------------------------------------------- reading order


def _gutters(lines: list[Line]) -> list[tuple[float, float]]:
    """Vertical strips between columns: crossed by (almost) no narrow line, with narrow lines
    on both sides whose right edges mostly end near the strip (a column's edge, not ragged
    labels)."""
    if len(lines) < 8:
        return []
    left, right = min(line.x0 for line in lines), max(line.x1 for line in lines)
    width = right - left
    narrow = [line for line in lines if line.x1 - line.x0 < 0.55 * width]
    if width < 100 or len(narrow) < 0.4 * len(lines) or len(narrow) < 8:
        return []
    bins = int(width) + 1
    # Each narrow line adds its height to the bins it spans: marked at its two ends and summed
    # once across (a loop over every bin of every line cost 4 ms a page).
    steps = [0.0] * (bins + 1)
    for line in narrow:
        first, last = int(line.x0 - left), min(bins, int(line.x1 - left) + 1)
        if first < last:
            steps[first] += line.height
            steps[last] -= line.height
    coverage = list(itertools.accumulate(steps[:bins]))
    # The running sum leaves rounding dust where every line has ended: that is no text.
    coverage = [c if c > 1e-9 else 0.0 for c in coverage]
    total = sum(coverage)
    # A few narrow lines may cross a gutter (centred author lines above the columns): they
    # are full-width elements then, not a reason to read the page as one column.
    low = 0.12 * max(coverage)
    gutters = []
    b = 0
    while b < bins:
        if coverage[b] > low:
            b += 1
            continue
        start = b
        while b < bins and coverage[b] <= low:
            b += 1
        x0, x1 = left + start, left + b
        if x1 - x0 >= 6 and _sides_hold(narrow, coverage, start, b, total, x0):
            gutters.append((x0, x1))
    return gutters


def _sides_hold(narrow: list[Line], coverage: list[float], start: int, end: int, total: float,
                x0: float) -> bool:
    if sum(coverage[:start]) < 0.2 * total or sum(coverage[end:]) < 0.2 * total:
        return False
    before = [line for line in narrow if line.x1 <= x0 + 1]
    column_left = min(line.x0 for line in before)
    near_edge = [line for line in before if x0 - line.x1 <= 0.2 * (x0 - column_left)]
    return len(near_edge) >= 0.3 * len(before)


@dataclass
class _Item:
    """A line or a table, placed in reading order."""

    top: float
    x0: float
    x1: float
    line: Line | None = None
    table: FoundTable | None = None


def _reading_order(lines: list[Line], tables: list[FoundTable]) -> list[list[_Item]]:
    """Runs of items to be read in order: each column's lines between two full-width
    elements, then the full-width element; tables are runs of their own."""
    gutters = _gutters(lines)
    items = [_Item(line.top, line.x0, line.x1, line=line) for line in lines] + \
            [_Item(t.top, t.x0, t.x1, table=t) for t in tables]
    rtl = sum(line.rtl for line in lines) > len(lines) / 2  # right-to-left: rightmost first
    items.sort(key=(lambda item: (item.top, -item.x1)) if rtl else (lambda item: (item.top, item.x0)))

    def spans(item: _Item) -> bool:
        return any(item.x0 < g0 and item.x1 > g1 for g0, g1 in gutters)

    def column(item: _Item) -> int:
        centre = (item.x0 + item.x1) / 2
        return sum(1 for g0, g1 in gutters if centre > (g0 + g1) / 2)

    runs: list[list[_Item]] = []
    columns: dict[int, list[_Item]] = defaultdict(list)
    wide: list[_Item] = []

    def flush_columns() -> None:
        for index in sorted(columns, reverse=rtl):
            runs.extend(_split_tables(columns[index]))
        columns.clear()

    for item in items:
        if gutters and spans(item):
            flush_columns()
            wide.append(item)
        else:
            if wide:
                runs.extend(_split_tables(wide))
                wide = []
            columns[column(item) if gutters else 0].append(item)
    flush_columns()
    runs.extend(_split_tables(wide))
    return [run for run in runs if run]


def _split_tables(items: list[_Item]) -> list[list[_Item]]:
    runs: list[list[_Item]] = [[]]
    for item in items:
        if item.table is not None:
            runs.extend([[item], []])
        else:
            runs[-1].append(item)
    return [run for run in runs if run]


# ----------------------------------------------------------------------------- blocks


@dataclass
class _Draft:
    """A block before its heading level is known."""

    kind: str
    lines: list[Line]
    page: int
    table: FoundTable | None = None
    marker: str = ""
    level: int | None = None
    number_depth: int = 0
    contents: ContentsEntry | None = None
    # Set like a heading but read as text by a rule that looked at its words or what follows
    # it (a label, a bold statement): an outline's heading style does not make it one.
    label: bool = False
    # A table joined over pages: its parts (the first page's draft); a later part's draft is
    # a ``table_continued`` of the page ``continues`` names.
    parts: list[TablePart] = field(default_factory=list)
    continues: int | None = None
    # A list item's nesting, 1 for a top-level list, from the page's tags (0: not known).
    depth: int = 0

    @property
    def box(self) -> tuple[float, float, float, float]:
        if self.table is not None:
            return self.table.x0, self.table.top, self.table.x1, self.table.bottom
        return (min(line.x0 for line in self.lines), min(line.top for line in self.lines),
                max(line.x1 for line in self.lines), max(line.bottom for line in self.lines))

    @property
    def size(self) -> float:
        return max(line.size for line in self.lines)

    @property
    def bold(self) -> bool:
        return all(line.bold for line in self.lines)

    @property
    def text(self) -> str:
        return " ".join(line.text for line in self.lines)


def _page_blocks(layout: PageLayout, lines: list[Line], tables: list[FoundTable],
                 style: _Style) -> list[_Draft]:
    body = [line for line in lines if line.kind == "body"]
    drafts: list[_Draft] = []
    for run in _reading_order(body, tables):
        if run[0].table is not None:
            drafts.append(_Draft("table", [], layout.number, table=run[0].table))
            continue
        run_lines = [item.line for item in run if item.line is not None]
        right = max(line.x1 for line in run_lines)
        drafts.extend(_group(run_lines, right, style, layout.number))
    _unhead_table_rows(drafts, body)
    return _merge_contents(drafts)


def _merge_contents(drafts: list[_Draft]) -> list[_Draft]:
    """One block per table of contents entry: a page column read as a column of its own (its
    strip between titles and labels looks like a gutter) gives an entry's label a block apart."""
    first: dict[int, _Draft] = {}
    out = []
    for draft in drafts:
        if draft.contents is not None and id(draft.contents) in first:
            first[id(draft.contents)].lines.extend(draft.lines)
            continue
        if draft.contents is not None:
            first[id(draft.contents)] = draft
        out.append(draft)
    return out


def _unhead_table_rows(drafts: list[_Draft], lines: list[Line]) -> None:
    """A one-line heading on one baseline with two or more other short lines is a cell of a
    table row the table finder left out (a header row of bold column names), not a heading."""
    for draft in drafts:
        if draft.kind != "heading" or len(draft.lines) != 1:
            continue
        line = draft.lines[0]
        centre = (line.top + line.bottom) / 2
        row = [other for other in lines if other is not line and other.top <= centre <= other.bottom]
        if len(row) >= 2 and all(len(other.text.split()) <= 4 for other in row):
            draft.kind = "paragraph"


def _group(lines: list[Line], right: float, style: _Style, page: int) -> list[_Draft]:
    """Consecutive lines of one column as paragraphs, list items and headings."""
    drafts: list[_Draft] = []
    current: _Draft | None = None
    left = min((line.x0 for line in lines), default=0.0)
    for line in lines:
        if line.contents is not None:  # a table of contents entry: a list item, whatever its look
            if current is None or current.contents is not line.contents:
                current = _Draft("contents", [], page, contents=line.contents)
                drafts.append(current)
            current.lines.append(line)
            continue
        marker = _list_marker(line)
        if current is not None and not marker and _continues(current, line, left, right, style):
            current.lines.append(line)
            continue
        current = _Draft("list_item" if marker else "paragraph", [line], page, marker=marker)
        drafts.append(current)
    for draft in drafts:
        _classify(draft, style)
    return drafts


def _list_marker(line: Line) -> str:
    first = line.words[0]
    if len(line.words) > 1 and len(first.text) == 1 and _symbol_font(first.font):
        return first.text
    match = _BULLET.match(line.text) or _ITEM_NUMBER.match(line.text)
    return match.group(1) if match else ""


def _continues(block: _Draft, line: Line, left: float, right: float, style: _Style) -> bool:
    """Whether ``line`` goes on the paragraph (or list item) ``block``."""
    last = block.lines[-1]
    if _LEADERS.search(last.text):
        return False  # a table of contents entry
    if _runs_in(block, line, right):
        return True
    size = min(last.size, line.size)
    gap = line.top - last.bottom
    if gap < -0.5 * size:
        return False  # back up the page
    if gap > 0.55 * max(size, style.body_size * 0.8) and not (
            size >= style.body_size * _HEADING_SCALE and line.top - last.top <= _LARGE_LINE_PITCH * size):
        # A paragraph's spacing; but in large type a line without descenders leaves a wide
        # gap to the next one at an ordinary line pitch (a heading wrapped onto two lines).
        return False
    if abs(line.size - last.size) > max(0.4, 0.04 * style.body_size) or line.bold != last.bold \
            or line.italic != last.italic:
        return False
    if line.x0 > last.x1 or line.x1 < last.x0:
        return False  # not below it
    if block.kind == "list_item":
        return line.x0 >= block.lines[0].x0 - 1
    indented, short = _indent_and_short(last, line, size, left, right)
    if indented and size < style.body_size * _HEADING_SCALE:
        return False  # a first-line indent after a full line
    ends = last.text.rstrip().endswith(_SENTENCE_END)
    # (Hebrew and Arabic have no capitals: their paragraphs end by a gap or an indent, since a
    # line of long words stops short of the column's end inside a paragraph too.)
    return not (short and ends and line.text[:1].isupper())


def _runs_in(block: _Draft, line: Line, right: float) -> bool:
    """Whether ``line``, regular text, goes on a bold lead-in ``block``: a bold term that the
    text follows on the same baseline a tab's width to its right ("Objective   To improve the
    ..."), or bold lines that fill the column's measure and run on into the regular text on
    the next line at the paragraph's line pitch.  A heading has its line to itself and space
    under it; a form's label and its value, a table row's bold stub and its figures, read as
    one line of text then."""
    last = block.lines[-1]
    if block.kind != "paragraph" or line.bold or not all(previous.bold for previous in block.lines) \
            or line.rtl or last.rtl or abs(line.size - last.size) > 0.5:
        return False
    size = last.size
    centres_apart = abs((line.top + line.bottom) - (last.top + last.bottom)) / 2
    if len(block.lines) == 1 and line.x0 > last.x1 and centres_apart <= 0.3 * max(last.height, line.height):
        return True
    # Every bold line reaches the column's right edge (a heading's line is short of it, or it
    # would have wrapped), and the next one is at the paragraph's line pitch below it.
    full = all(previous.x1 > right - 3 * previous.size for previous in block.lines)
    return full and 0 <= line.top - last.bottom <= 0.55 * size and abs(line.x0 - block.lines[0].x0) <= 1.0


def _indent_and_short(last: Line, line: Line, size: float, left: float, right: float) -> tuple[bool, bool]:
    """Whether ``line`` starts indented after a full ``last``, and whether ``last`` stops
    short of the column's end: on the right for left-to-right lines, mirrored for
    right-to-left ones (their first-line indent is on the right, their ragged end on the
    left)."""
    if line.rtl:
        return line.x1 < last.x1 - 0.8 * size and last.x0 < left + 3 * size, last.x0 > left + 4 * size
    return line.x0 > last.x0 + 0.8 * size and last.x1 > right - 3 * size, last.x1 < right - 4 * size


def _classify(draft: _Draft, style: _Style) -> None:
    if draft.kind == "contents":
        return
    text = draft.text
    letters = sum(1 for ch in text if ch.isalpha())
    max_lines = _DISPLAY_MAX_LINES if draft.size >= style.body_size * _DISPLAY_SCALE else _HEADING_MAX_LINES
    if len(draft.lines) > max_lines or len(text) > _HEADING_MAX_CHARS or letters < 2 \
            or _CAPTION.match(text) or not _titled(text):
        return
    if draft.marker and not draft.marker[:1].isalnum() and draft.marker[:1] != "(":
        return  # a bulleted item, bold or not, is an item of a list
    section = _SECTION.match(text)
    larger = draft.size >= style.body_size * _HEADING_SCALE
    if not larger and _key_value(text):
        return
    bolder = draft.bold and not style.body_bold and draft.size >= style.body_size * 0.95
    # A slightly larger line in another typeface (a sans heading over serif text).
    if not (larger or bolder) and draft.size >= style.body_size * 1.05 and len(draft.lines) <= 2:
        bolder = _family(draft.lines[0].words[0].font) != style.body_family
    words = len(text.split())
    ends_sentence = text.rstrip().endswith((".", ",", ";")) and not text.rstrip().endswith("..")
    numbered_title = section is not None and "." in section.group(1).rstrip(".") and words <= 12
    if ends_sentence and not (larger or bolder or section):
        return
    if ends_sentence and text.rstrip().endswith(".") and words > _SENTENCE_WORDS:
        return  # a sentence set large or bold (a lead paragraph, an emphasised statement)
    if words > _SENTENCE_WORDS and _SENTENCE_INSIDE.search(text):
        return  # sentences, the last one cut at a page's or a column's end
    if _LEADERS.search(text):
        return  # a table of contents line the contents rules did not take
    if not (larger or bolder) and len(draft.lines) == 1:
        bolder = _set_apart(draft.lines[0], text)
    # A bold line of body size ending in a colon is a label ("Key points:") for what follows.
    label = text.rstrip().endswith(":") and not larger
    # Bold at the body's size with more words than a title has is an emphasised statement.
    if bolder and not larger and words > _BOLD_TITLE_WORDS and not section:
        draft.label = True
        return
    if (larger and words <= 25) or (bolder and words <= 15 and not ends_sentence and not label) or \
            (numbered_title and not ends_sentence and draft.kind == "paragraph" and len(draft.lines) == 1):
        draft.kind = "heading"
        if section and section.group(2):
            draft.number_depth = section.group(2).count(".") + 1
        elif named := _NAMED_SECTION.match(text):
            draft.number_depth = named.group(1).count(".") + 1


def _set_apart(line: Line, text: str) -> bool:
    """A line of the body's size and weight set apart as a title otherwise: a short italic line
    of capitalised words (a run-in style's sub-heading), or a line of capitals ("GENERAL
    PROVISIONS", a heading in documents typed in one font).  The rules for body-size headings
    (what follows the line, how it is spaced: _unhead_labels) still decide."""
    words = text.split()
    if text.rstrip().endswith(_SENTENCE_END) or len(words) > 8:
        return False
    if line.italic:
        return sum(1 for w in words if w[:1].isupper()) >= len(words) // 2 + 1
    # Capitals, not only letters with no lower case (Arabic and Hebrew have no case), and not
    # code: commands and names are often capitals too ("CHGFCNUSG FCNID(QIBM_DB_SECADM)").
    capitals = sum(ch.isupper() for ch in text)
    return len(words) >= 2 and capitals >= 6 and not any(ch.islower() for ch in text) \
        and not _CODE_MARKS.search(text)


def _titled(text: str) -> bool:
    """Whether a line's words could title a section whatever its type: not a note's or a
    letter's field (_FIELD_KEY), a date, a pull quote (opening with a quotation mark), a key
    figure ("£4.2bn", "92%": figures and two letters at most), or words that start lower case
    (what a larger line says of a key figure, a chart's axis title "£ million")."""
    text = text.strip()
    if _FIELD_KEY.match(text) or _DATE.match(text) or text[:1] in _QUOTES:
        return False
    letters = [ch for ch in text if ch.isalpha()]
    if len(letters) < 3 and any(ch.isdigit() for ch in text):
        return False
    # (A first word with a capital anywhere, "eBay", may open a title; scripts without case
    # are never lower case.)
    # (An item's or a section's number, "(a)", "b.", is not the first word: "(a) Methods" may be
    # a title.)
    marker = _ITEM_NUMBER.match(text)
    words = text[marker.end():].split() if marker else text.split()
    first = next((word for word in words if any(ch.isalpha() for ch in word)), "")
    return not first.islower()


def _key_value(text: str) -> bool:
    """A "Key: value" line (see _KEY_VALUE): the value holds a figure (a date, a reference)
    or is a word or two ("Status: Final")."""
    match = _KEY_VALUE.match(text.strip())
    if match is None or _KEY_SECTION_MARK.search(match.group("key")):
        return False
    value = match.group("value")
    return any(ch.isdigit() for ch in value) or len(value.split()) <= 2


def _unhead_labels(drafts: list[_Draft], style: _Style) -> None:
    """A heading set at the body's size (bold, not numbered as a section) is text when it is
    spaced as text in a document whose headings are not (see _binds), and a label when what
    follows it is not text it heads: a table (the table's title), a list (a label like
    "NOTES" before numbered notes), or short lines of a few words each (a name in a
    signature block, then a job title and a date)."""
    _unhead_numbered_items(drafts)
    _unhead_names_over_addresses(drafts)
    _unhead_over_figures(drafts)
    binding = _binding(drafts, style)
    for index, draft in enumerate(drafts):
        # (A letter and a full stop may be an initial, "D. Jones": only figures number here.)
        if draft.kind != "heading" or draft.size >= style.body_size * _HEADING_SCALE or draft.number_depth:
            continue
        after = _next_block(drafts, index)
        # (Nothing after it on the page is no sign: a heading may end a page, its text on the next.)
        if after is None:
            continue
        if binding and _binds(drafts[index - 1] if index else None, draft, after, style) is False:
            draft.kind = "list_item" if draft.marker else "paragraph"
            draft.label = True
            continue
        if after.kind in ("table", "list_item") or (
                after.kind == "paragraph" and all(len(line.text.split()) <= 4 for line in after.lines)
                and not after.text.rstrip().endswith(_SENTENCE_END)):
            draft.kind = "list_item" if draft.marker else "paragraph"
            draft.label = True
    _unhead_label_runs(drafts, style)
    _unhead_line_runs(drafts, style)


def _unhead_line_runs(drafts: list[_Draft], style: _Style) -> None:
    """Three or more short lines set alike below display type, none numbered as a section,
    with nothing between them but at most one line of small print each, are not headings
    whatever their weight: the lines of a figure or a syntax diagram ("CREATE PERMISSION
    <name>", then its one-line gloss, "ON <table>", ...), a list set large.  A section's
    heading is followed by its text at the body's size; two headings in a row are a chapter's
    and its first section's, set differently."""
    def candidate(d: _Draft) -> bool:
        return d.kind == "heading" and len(d.lines) == 1 and not d.number_depth \
            and d.size < style.body_size * _DISPLAY_SCALE

    def gloss(d: _Draft) -> bool:
        return d.kind == "paragraph" and len(d.lines) == 1 and d.size < style.body_size * 0.95

    texts = [d for d in drafts if d.kind != "contents"]
    runs: list[list[int]] = []  # positions in texts of the lines of each run
    for at, draft in enumerate(texts):
        run = runs[-1] if runs else []
        after = texts[at + 1] if at + 1 < len(texts) else None
        # (A line followed by text at the body's size heads it: a section after the figure.)
        if candidate(draft) and (after is None or gloss(after) or candidate(after)):
            last = texts[run[-1]] if run else None
            if last is not None and at - run[-1] <= 2 and abs(draft.size - last.size) <= 0.5 \
                    and draft.page == last.page and all(gloss(d) for d in texts[run[-1] + 1:at]):
                run.append(at)
            else:
                runs.append([at])
    for run in runs:
        if len(run) >= _LINE_RUN:
            for at in run:
                texts[at].kind = "list_item" if texts[at].marker else "paragraph"
                texts[at].label = True


def _number_form(draft: _Draft) -> str:
    """The shape of the number a block opens with ("N." for "3.", "(N)" for "(b)", "N.N" for
    "2.1"), "" when it has none."""
    number = draft.marker if draft.marker[:1].isalnum() or draft.marker[:1] == "(" else ""
    if not number:
        match = _SECTION.match(draft.text)
        number = match.group(1) if match else ""
    return re.sub(r"\d+|\b[a-zA-Z]\b|\b[ivxIVX]+\b", "N", number)


def _unhead_numbered_items(drafts: list[_Draft]) -> None:
    """Numbered lines set like headings that are the items of a list: an item whose
    explanation hangs under its text (the next paragraph starts where the words after the
    number start, right of the number), and items one under the other with nothing between
    them, numbered alike ("1." then "2.") from the same left edge.  A numbered section's text
    starts at the column's edge, and its next sibling comes after that text."""
    texts = [d for d in drafts if d.kind != "contents"]
    items: set[int] = set()
    for index, draft in enumerate(texts):
        form = _number_form(draft) if draft.kind == "heading" else ""
        if not form:
            continue
        after = texts[index + 1] if index + 1 < len(texts) else None
        if after is None or after.page != draft.page:
            continue
        words = draft.lines[0].words
        title_x = words[1].x0 if len(words) > 1 else draft.box[2]
        if after.kind == "paragraph" and not after.label and abs(after.box[0] - title_x) <= 2.0 \
                and title_x > draft.box[0] + 4:
            items.add(id(draft))
        elif after.kind in ("heading", "list_item") and _number_form(after) == form \
                and abs(after.box[0] - draft.box[0]) <= 2.0 and abs(after.size - draft.size) <= 0.5 \
                and after.bold == draft.bold:
            items.update((id(draft), id(after)))
    for draft in texts:
        if id(draft) in items and draft.kind == "heading":
            draft.kind = "list_item" if draft.marker else "paragraph"
            draft.number_depth = 0
            draft.label = True


def _unhead_names_over_addresses(drafts: list[_Draft]) -> None:
    """A name set large or bold over an address (a letterhead's organisation, a recipient,
    a contact): the lines under it are short, none ends a sentence, and one holds a figure
    (a street number, a postcode, a telephone number).  Whatever its size it names a sender
    or a place, not a section."""
    texts = [d for d in drafts if d.kind != "contents"]
    for index, draft in enumerate(texts):
        if draft.kind != "heading" or draft.number_depth:
            continue
        lines: list[Line] = []
        for after in texts[index + 1:]:
            if after.page != draft.page or after.kind != "paragraph" or not all(
                    _address_line(line.text) for line in after.lines):
                break
            lines += after.lines
        if len(lines) >= 2 and any(ch.isdigit() for line in lines for ch in line.text):
            draft.kind, draft.label = "paragraph", True


def _address_line(text: str) -> bool:
    """A line of an address: a few words that start with a capital or a figure ("4 Mill Lane",
    "Easton EA4 9QP", "Tel 0123 456789"), not ending a sentence (the lines of a narrow column
    of running text are short too, but run on from one to the next)."""
    text = text.strip()
    return len(text.split()) <= _ADDRESS_LINE_WORDS and not text.endswith(_SENTENCE_END) \
        and (text[:1].isdigit() or text[:1].isupper())


def _unhead_over_figures(drafts: list[_Draft]) -> None:
    """A line set like a heading with a bare figure under it (a chart's axis title over its
    scale, a legend's key over a value label), or over a short label over one (a chart's
    title over its axis title over its scale), labels the figure: a section's heading is
    followed by words."""
    texts = [d for d in drafts if d.kind != "contents"]

    def bare_figure(draft: _Draft) -> bool:
        return draft.kind == "paragraph" and sum(1 for ch in draft.text if ch.isalpha()) < 2

    def short_label(draft: _Draft) -> bool:
        return draft.kind in ("paragraph", "heading") and len(draft.lines) == 1 and not draft.number_depth \
            and len(draft.text.split()) <= 3 and not draft.text.rstrip().endswith(_SENTENCE_END)

    for index, draft in enumerate(texts):
        if draft.kind != "heading" or draft.number_depth:
            continue
        following = [d for d in texts[index + 1:index + 3] if d.page == draft.page]
        if (following and bare_figure(following[0])) or (
                len(following) == 2 and short_label(following[0]) and bare_figure(following[1])):
            draft.kind, draft.label = "paragraph", True


def _unhead_label_runs(drafts: list[_Draft], style: _Style) -> None:
    """Short lines set alike one after the other with no text between them are labels (a
    form's fields left empty, "Signature" then "Date"), not sections: a section's heading is
    followed by its text, and the next heading of its level comes after that text.  Only
    body-size lines without a section number, each beside another of the same type."""
    def short_alike(a: _Draft, b: _Draft) -> bool:
        return all(len(d.lines) == 1 and len(d.text.split()) <= 6 and d.kind in ("heading", "paragraph")
                   and not d.number_depth and d.bold for d in (a, b)) \
            and abs(a.size - b.size) <= 0.5 and a.bold == b.bold and a.lines[0].italic == b.lines[0].italic
    texts = [d for d in drafts if d.kind != "contents"]
    alike = [False] * len(texts)
    for index in range(len(texts) - 1):
        if short_alike(texts[index], texts[index + 1]):
            alike[index] = alike[index + 1] = True
    for draft, is_label in zip(texts, alike, strict=True):
        if is_label and draft.kind == "heading" and draft.size < style.body_size * _HEADING_SCALE:
            draft.kind = "list_item" if draft.marker else "paragraph"
            draft.label = True


def _unhead_cover(drafts: list[_Draft], style: _Style) -> None:
    """A cover page (the document's first page with text, holding no running text, table or
    table of contents) sets its title largest; the subtitle, the organisation, the date and the
    version under it are set large too, and are not sections: only the headings in the
    largest type there stay headings.  On a first page with running text, the front matter
    above it (a paper's authors and affiliations under its title) likewise: a heading there
    smaller than the largest, with no running text under it but a short line (an affiliation,
    an e-mail address), is not a section."""
    headings = [d for d in drafts if d.kind == "heading"]
    if len(headings) < 2 or any(d.kind in ("table", "contents", "table_continued") for d in drafts):
        return
    first_text = next((index for index, d in enumerate(drafts)
                       if d.kind in ("paragraph", "list_item") and _running_text(d.text)), None)
    if first_text is None:
        largest = max(d.size for d in headings)
        for draft in headings:
            if draft.size < 0.9 * largest:
                draft.kind, draft.label, draft.number_depth = "paragraph", True, 0
        return
    front = drafts[:first_text]
    largest = max((d.size for d in front if d.kind == "heading"), default=0.0)
    # (From the bottom up: an affiliation unheaded leaves the authors over a short line.)
    for index in range(len(front) - 1, -1, -1):
        draft, after = front[index], drafts[index + 1]
        if draft.kind == "heading" and draft.size < 0.9 * largest and after.kind == "paragraph" \
                and not _running_text(after.text):
            draft.kind, draft.label, draft.number_depth = "paragraph", True, 0


def _running_text(text: str) -> bool:
    """A paragraph of running text: a sentence of a few words, or many words."""
    words = len(text.split())
    return words >= _COVER_TEXT_WORDS or (words >= 6 and text.rstrip().endswith("."))


def _next_block(drafts: list[_Draft], index: int) -> _Draft | None:
    """The block after ``drafts[index]`` that is not a table of contents entry."""
    for position in range(index + 1, len(drafts)):
        if drafts[position].kind != "contents":
            return drafts[position]
    return None


def _binding(drafts: list[_Draft], style: _Style) -> bool:
    """Whether the document sets its headings closer to the text below them than to the text
    above (space before, little after): what its sure headings (larger than the body, or
    numbered as sections) show, when enough of them can be measured.  Documents that space
    headings like paragraphs exist (a bold line and a blank line), and there spacing says
    nothing."""
    votes = []
    for index, draft in enumerate(drafts):
        if draft.kind != "heading":
            continue
        if not (draft.size >= style.body_size * _HEADING_SCALE or draft.number_depth):
            continue  # a sure heading: larger than the body, or numbered
        after = _next_block(drafts, index)
        vote = _binds(drafts[index - 1] if index else None, draft, after, style) if after else None
        if vote is not None:
            votes.append(vote)
    return len(votes) >= _BINDING_MIN_VOTES and sum(votes) >= _BINDING_SHARE * len(votes)


def _binds(before: _Draft | None, draft: _Draft, after: _Draft, style: _Style) -> bool | None:
    """Whether a block between two blocks of text in one column sits closer to the text below
    it than to the text above (None when that cannot be measured): headings are set so, a
    bold paragraph has the body's spacing on both sides."""
    if before is None or before.page != draft.page or after.page != draft.page \
            or before.kind not in ("paragraph", "list_item") or after.kind != "paragraph":
        return None
    x0, top, x1, bottom = draft.box
    above, below = before.box, after.box
    if above[0] > x1 or above[2] < x0 or below[0] > x1 or below[2] < x0:
        return None  # not one column
    up, down = top - above[3], below[1] - bottom
    if up < 0 or down < 0:
        return None
    return up - down >= max(1.0, _BINDING * style.body_size)


def _heading_shaped(draft: _Draft) -> bool:
    """Whether a block could be a heading whatever its font: short, with letters, not a
    caption, a table of contents line or a sentence (the test a line set in a heading style
    the document's outline confirms must pass, see :mod:`extractors.pdf_evidence`)."""
    text = draft.text.rstrip()
    if len(draft.lines) > _DISPLAY_MAX_LINES or len(text) > _HEADING_MAX_CHARS or _CAPTION.match(text) \
            or _LEADERS.search(text) or sum(1 for ch in text if ch.isalpha()) < 2 or not _titled(text):
        return False
    # A bulleted item, a "Key: value" field or a label ending in a colon is none whatever its
    # style (a bold label set like a bold Heading 3 the outline confirms is still a label).
    if (draft.marker and not draft.marker[:1].isalnum() and draft.marker[:1] != "(") or _key_value(text) \
            or text.endswith(":"):
        return False
    return not (text.endswith((".", ",", ";")) and not text.endswith(".."))


def _rank_headings(style: _Style, drafts: list[_Draft]) -> None:
    """Heading levels: font sizes (then bold before regular) ranked largest first; where
    headings are numbered, by numbering depth, and the others by the numbered ones' sizes."""
    headings = [d for d in drafts if d.kind == "heading"]
    used = Counter(d.size for d in headings)
    if _set_levels(headings, _Ladder(set(used))) > _MAX_LEVEL:
        # More sizes than levels: then the ladder is made of the sizes two headings or more
        # are set in, and the display sizes used once above it (a cover's, a back page's) are
        # one level, not a level each (nine sizes of cover type used to push a report's
        # sections to level 4 of 4).  Sizes within 10% are counted together, as ranked.
        recurring = {size for size in used
                     if sum(n for near, n in used.items() if abs(near - size) <= 0.1 * max(near, size)) > 1}
        if recurring:
            _set_levels(headings, _Ladder(recurring))
    numbered = [d for d in headings if d.number_depth]
    if len(numbered) >= _NUMBERED_HEADINGS:
        _rank_by_numbering(numbered, [d for d in headings if not d.number_depth])
    elif numbered:  # one or two: a date ("3.11.") as likely as a numbering; only below their size
        _level_by_depth(numbered, capped=False)


class _Ladder:
    """Font sizes as levels, largest first; sizes within 10% of each other are one level (the
    same style measured on other glyphs).  A size above the largest is one level above."""

    def __init__(self, sizes: set[float]) -> None:
        self.tops: list[float] = []
        for size in sorted(sizes, reverse=True):
            if not self.tops or size < 0.9 * self.tops[-1]:
                self.tops.append(size)

    def rank(self, size: float) -> int:
        if size >= self.tops[0] / 0.9:
            return -1
        return next((i for i, top in enumerate(self.tops) if size >= 0.9 * top), len(self.tops))


def _set_levels(headings: list[_Draft], ladder: _Ladder) -> int:
    """Levels by the ladder's rank, then bold before regular; how many levels that needed
    (those past _MAX_LEVEL share the last)."""
    keys = sorted({(ladder.rank(d.size), not d.bold) for d in headings})
    for draft in headings:
        draft.level = min(_MAX_LEVEL, keys.index((ladder.rank(draft.size), not draft.bold)) + 1)
    return len(keys)


def _level_by_depth(numbered: list[_Draft], capped: bool) -> tuple[int, int]:
    """Numbered headings' levels: one per depth below the level the outermost are set at by
    size -- ``capped``, never below 2 nor so low that the deepest would pass _MAX_LEVEL.  The
    outermost depth and its level."""
    outer = min(d.number_depth for d in numbered)
    base = max(1, min(d.level or 1 for d in numbered if d.number_depth == outer))
    if capped:
        deepest = max(d.number_depth for d in numbered)
        base = max(1, min(2, base, _MAX_LEVEL - (deepest - outer)))
    for draft in numbered:
        draft.level = min(_MAX_LEVEL, base + draft.number_depth - outer)
    return outer, base


def _rank_by_numbering(numbered: list[_Draft], others: list[_Draft]) -> None:
    """Numbering decides the depth below the level its outermost sections are set at: "1."
    set like an unnumbered "Summary" is a level-1 heading, "1." set smaller than the
    document's title level 2 -- never lower, however many display sizes a cover or a back
    page uses ("1.1" then sits at level 4 of 4 under nine sizes of cover type); "1.1" is one
    level below "1." either way.  An unnumbered heading takes the level of the shallowest
    numbered sections set at its size or smaller ("Preface" set like "Chapter 1" is a
    chapter, "Authors" set like "1.1" a section); larger than all of them, the level above;
    smaller than all, the level below."""
    outer, base = _level_by_depth(numbered, capped=True)
    deepest = max(d.number_depth for d in numbered)
    # Each depth's size: the median of its headings' (a stray one set otherwise does not move it).
    sizes = {depth: sorted(d.size for d in numbered if d.number_depth == depth)
             for depth in range(outer, deepest + 1)}
    anchors = [(min(_MAX_LEVEL, base + depth - outer), found[len(found) // 2])
               for depth, found in sizes.items() if found]
    for draft in others:
        if draft.size >= anchors[0][1] / 0.9:
            draft.level = max(1, base - 1)
            continue
        draft.level = next((level for level, size in anchors if draft.size >= 0.9 * size),
                           min(_MAX_LEVEL, anchors[-1][0] + 1))


# ---------------------------------------------------------------------------- Markdown


def _join_lines(lines: list[Line]) -> str:
    """Lines of a paragraph as one; a line-end hyphen before a lower-case letter keeps its
    line break, for :func:`extractors.text_repair.join_hyphenated` to decide on the word."""
    text = ""
    for line in lines:
        piece = line.text
        if not text:
            text = piece
        elif text.endswith("-") and piece[:1].islower():
            text += "\n" + piece
        else:
            text += " " + piece
    return text


def _render(draft: _Draft, style: _Style) -> Block:
    if draft.kind == "table_continued":
        return Block("table_continued", "", draft.page, draft.box, continues=draft.continues)
    if draft.table is not None:
        return Block("table", draft.table.markdown, draft.page, draft.box, parts=draft.parts)
    if draft.contents is not None:
        return Block("list_item", draft.contents.markdown, draft.page, draft.box)
    text = _join_lines(draft.lines)
    if draft.kind == "heading":
        level = draft.level or 1
        return Block("heading", "#" * level + " " + " ".join(text.split()), draft.page, draft.box, level)
    if draft.kind == "list_item":
        rest = text[len(draft.marker):].lstrip()
        marker = draft.marker
        if re.fullmatch(r"\d{1,3}[.)]", marker):
            bullet = marker  # a Markdown ordered list item
        else:  # "a)", "(iv)" stay as they are written; bullet glyphs become "-"
            bullet = f"- {marker}" if marker[:1].isalnum() or marker[:1] == "(" else "-"
        # A nested item is indented under its parent's text (four spaces a level, which
        # both "- " and "10. " items take as their content's indent).
        indent = "    " * max(0, draft.depth - 1)
        return Block("list_item", f"{indent}{bullet} {rest}", draft.page, draft.box, nested=draft.depth > 1)
    if text.startswith(("#", ">", "|")):
        text = "\\" + text  # prose that Markdown would read as markup
    return Block("paragraph", text, draft.page, draft.box)


def _compose(blocks: list[Block]) -> str:
    """The page's Markdown from its blocks, blank lines between them, consecutive list items
    on consecutive lines (one Markdown list; a numbered list after a bulleted one is a list of
    its own).  Each block's ``span`` is set to where its Markdown lands."""
    out: list[str] = []
    at = 0
    previous = ""
    for block in blocks:
        family = block.kind + ("-numbered" if block.markdown[:1].isdigit() else "")
        if block.nested and previous.startswith("list_item"):
            family = previous  # (a nested item goes on the list it is in, which goes on after it)
        if out:
            out.append("\n" if block.kind == "list_item" and family == previous else "\n\n")
            at += len(out[-1])
        block.span = (at, at + len(block.markdown))
        out.append(block.markdown)
        at += len(block.markdown)
        previous = family
    return "".join(out)
