"""Structured Markdown from a born-digital PDF's positioned text, without a layout model.

The rules, in the order they run:

- **Tables** come from :func:`extractors.pdf_tables.find_tables`, or from a tagged page's
  structure tree where it agrees with the page (:mod:`extractors.pdf_evidence`); their words
  leave the prose and their Markdown takes their place in reading order.  A table the page's
  body ends with and one the next page's body starts with, in the same columns, are one
  table (:mod:`extractors.pdf_table_stitch`): all its rows are written where it starts, the
  continuation page keeps a ``table_continued`` block with the box of its part.
- **Line numbers** (:mod:`extractors.pdf_line_numbers`): a column of bare integers going down
  by one step beside running text, in a margin or a gutter (a patent's lines numbered every
  fifth), leaves the words before anything else reads them.
- **Lines**: words on one baseline, split where a gap wider than about an em separates them
  (a column gutter, a table cell); letter-spaced words are read whole
  (:func:`extractors.pdf_words.join_spaced_letters`).
- **Running headers and footers**: lines in the top or bottom band of the page, or a page's
  first or last line wherever it stands (a header below a deep top margin), whose text,
  digits aside, recurs at about the same height on other pages (page numbers, the report's
  title), or changes with the chapter, each text on a few pages at one height, together on
  enough (:func:`_mark_chapter_running`); bare page numbers ("3", "Page 3", "3 of 10");
  and, on a tagged page of a document of two pages or more, text marked as an artifact
  above or below the page's content (:mod:`extractors.pdf_evidence`).  They leave the body
  and are kept as page metadata.
- **Columns**: a vertical strip that no narrow line crosses, with text on both sides, is a
  gutter (failing columns of about equal width, a sidebar of running text beside a main
  column); columns are read one after the other, lines crossing a gutter (titles, wide
  tables) stay where they are and cut the columns above from those below.  A row of short
  items on both sides of a gutter (a band of key figures) is read across; a line below
  columns that all ended above it (a title after balanced columns) starts a new band; a
  column wholly above an earlier one (a letter's sender's address set right) is read first.
  On a page read as one column, a side head (a block of a few lines wholly left of the edge
  most lines start at, a heading in a narrow column beside its section) is read whole just
  before the text line level with its first line.
- **Blocks**: consecutive lines form a paragraph unless the gap between them, a change of
  size or weight, a first-line indent or a list marker says otherwise; a bold lead-in runs
  into its paragraph (a bold term with the text on its baseline to its right, or bold lines
  filling the measure with the text on the next line at the paragraph's pitch).
- **Headings** (:mod:`extractors.pdf_headings`): short blocks set larger or bolder than the
  body, or numbered as sections, with their levels; the lines set so that are not sections
  (captions, fields, labels, items, a cover's type...) are told apart there.
- **Lists**: blocks starting with a bullet or an item number become Markdown list items,
  their wrapped lines joined (to the margin under a number set in a first-line indent: a
  patent's claim); an item number a paragraph's sentence wrapped before ("... the valve" over
  "108. The controller") is none, nor are codes in parentheses that go down the page (a
  patent's INID codes, "(54)", "(72)", "(21)": fields); on a tagged page, the lines of each
  ``LI`` element, nested items indented (:mod:`extractors.pdf_evidence`).
- **Tables of contents** (:mod:`extractors.pdf_contents`): entries with dot leaders or a
  right-aligned page column become a nested Markdown list, never headings nor a table.

- **Right-to-left pages** (Hebrew, Arabic): a line holding right-to-left words on a page
  mostly in those scripts has its words in reading order (:mod:`extractors.pdf_bidi`); its
  paragraphs' indent and ragged end are mirrored, columns and the pieces of a row are read
  rightmost first, and a right-to-left table's rightmost column is its first.

Body size is the most common font size by character count over the whole document; a page
whose running text is set in another face at another size (a brochure bound into a report)
has its headings told against its own body instead (:func:`_page_style`).
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from operator import attrgetter, itemgetter
from typing import Any

from extractors.pdf_bidi import has_rtl, logical_columns, logical_words, ltr_order, rtl_line
from extractors.pdf_contents import (
    ContentsEntry,
    find_contents,
    might_hold_contents,
    nest_across_pages,
    split_at_labels,
    text_key,
)
from extractors.pdf_drafts import (
    FIXED_PITCH,
    ITEM_NUMBER,
    LEADERS,
    SENTENCE_END,
    Draft,
    Line,
    Style,
    TablePart,
    font_family,
    next_word_fits,
)
from extractors.pdf_evidence import (
    HEURISTICS,
    DocumentEvidence,
    apply_evidence,
    drawn_as_artifact,
    tagged_list_items,
    tagged_tables,
)
from extractors.pdf_field_lines import fields_beside_tops, opens_field
from extractors.pdf_headings import (
    HEADING_SCALE,
    annex_letters,
    classify,
    head_accent_titles,
    head_headlines,
    head_lower_case_titles,
    head_ruled_titles,
    head_sentences_in_heading_faces,
    heading_shaped,
    join_mixed_headings,
    join_section_labels,
    rank_headings,
    section_label,
    settle_heading_faces,
    unhead_box_labels,
    unhead_cover,
    unhead_empty_sections,
    unhead_field_labels,
    unhead_labels,
    unhead_other_face_labels,
    unhead_picture_titles,
    unhead_table_rows,
)
from extractors.pdf_justified_gutters import (
    column_ends,
    cut_at_gutters,
    fills_column,
    inherited_gutters,
    justified_gutters,
)
from extractors.pdf_line_numbers import line_numbers
from extractors.pdf_running_table_heads import heads_lines_under, keep_table_heads
from extractors.pdf_slides import COLUMN_LINES, find_deck, rank_under_slide_titles, settle_deck_headings
from extractors.pdf_table_model import NUMERIC, TIME_OF_DAY, FoundTable
from extractors.pdf_table_stitch import (
    BodyEdge,
    at_foot,
    at_head,
    body_extents,
    continuation_note,
    join_column_tables,
    leading_rows,
    stitch_tables,
    trailing_header,
)
from extractors.pdf_tables import find_tables
from extractors.pdf_tags import PageTags, TaggedRegion
from extractors.pdf_words import Box, PageLayout, Word
from extractors.tables import cells_to_markdown
from extractors.text_repair import join_hyphenated

# Lines whose top is above this share of the page height (or bottom below 1 minus it) may be
# running headers or footers.
_BAND = 0.11
# A running line recurs on at least this share of the document's pages (and on two).
_RECUR_SHARE = 0.3
# Same height on two pages: within this many points.
_SAME_HEIGHT = 8.0
# The lines of a row's rest over the page's first rows that the running-line rule may have
# taken for running ones (_running_rest).
_REST_LINES = 2
# A running line's slot (_mark_running_slots) is held to a closer height.
_SLOT_HEIGHT = 3.0
# A bare figure set this many times the page's commonest size is display type: no page number.
_DISPLAY_FIGURE = 1.6
_PAGE_NUMBER = re.compile(r"^[\s\-–—|/.()#]*(page|p\.|seite|pagina|página)?[\s\-–—|/.()#]*"
                          r"(of|/|von|de|sur)?[\s\-–—|/.()#]*$", re.IGNORECASE)
_DIGITS = re.compile(r"\d+")
# A number of parts alone ("3-12", "3.12", "3.1.4"): a chapter's page number, or a numbered
# entry's number set on a line of its own over its entry (a standard's term "3.1.4" over the
# term): see _entry_numbers.
_PARTS_NUMBER_KEY = re.compile(r"^#(?:[.\-–]#)+$")
# A line stops short of its column's end, and may end its paragraph, this many of its sizes
# short of it (see _indent_and_short).
_SHORT_LINE = 4.0
# A number over its entry's first line stands at most this many sizes above it, top to top (a
# line's pitch; a running line stands clear of the text block).
_ENTRY_PITCH = 1.6
# The entry's text goes on under its first line at most this many such pitches below it (a
# term's definition after a little space).
_ENTRY_GOES_ON = 1.5
# A number at either end of a running line (a page number beside the running title).
_END_NUMBER = re.compile(r"^\d+(?=\D*$|\s)|(?<=\s)\d+$|^\d+$")
# An abbreviation of initials with their dots ("U.S.", "U.K.", "e.g."), at a line's end.
_INITIALISM = re.compile(r"(?:^|\s)(?:[A-Za-z]\.){2,}$")
# A dash glued to a figure is a sign or a range ("-12 °C", "-2-5" a right-to-left section
# number), not a bullet: dashes take a bullet's place only before a space or a non-figure.
# A box to tick ("☐ Exit signs lit") opens a checklist's item like a bullet; not a form's options
# set in a row, a box before each ("☐ Yes  ☐ No"): one line, no list.
_BULLET = re.compile(r"^([•●○◦▪■□‣⁃∙·◆◇►▸➢✓✔*\uf0b7\uf0a7\uf076\uf0d8\uf0fc\uf0a8]|[\-–—](?!\d)"
                     r"|[\u2610-\u2612\u274f-\u2752](?!.*[\u2610-\u2612\u274f-\u2752]))\s*(?=\S)")
# Fonts whose glyphs are pictures: a lone character in one at a line's start is a bullet.
_SYMBOL_FONTS = ("dingbat", "wingding", "symbol", "bookmaster", "webdings")
_ROMAN = re.compile(r"^[ivxlc]{1,6}$")
# A section number alone ("2.1", "A.", "IV."; an annex's clause "A.1", "B.2.3").
_SECTION_NUMBER = re.compile(r"^(\d{1,2}(\.\d{1,2}){0,4}\.?|[A-Z](\.\d{1,2}){1,4}\.?|[A-Z]\.|[IVX]{1,5}\.)$")
# A reference's number in brackets, set a tab before its entry ("[1]  ISO 9001:2015, ..."), as
# bibliographies set them: one line with its entry, not a column of numbers beside one of text.
_REFERENCE_MARK = re.compile(r"^\[\d{1,3}\]$")
# Top to top, the lines of one paragraph of large type are at most this many sizes apart.
_LARGE_LINE_PITCH = 1.45
# A page's own running text, in a face and size other than the document's (_page_style): this
# many words at least, with this many sentences ending among them.
_PAGE_BODY_WORDS = 60
_PAGE_BODY_SENTENCES = 3


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
class PageStructure:
    number: int
    markdown: str
    blocks: list[Block] = field(default_factory=list)
    running: list[str] = field(default_factory=list)  # header and footer lines removed
    tables: list[FoundTable] = field(default_factory=list)
    size: tuple[float, float] = (0.0, 0.0)  # the page's width and height in points
    # What decided the page's headings: "tags", "outline" or "heuristics" (pdf_evidence).
    source: str = HEURISTICS


def structure(layouts: list[PageLayout], evidence: DocumentEvidence | None = None,
              join_tables: bool = True) -> list[PageStructure]:
    """Each page's structured Markdown, blocks and running lines (pages without words give
    empty Markdown, for the caller to keep its own text or OCR them).  ``evidence``, the
    document's tags and outline, decides the headings of the pages it can speak for
    (:mod:`extractors.pdf_evidence`); the heuristics rank the others'.  With ``join_tables``
    a table continued on the next page is one table (a page left holding only its rows has
    empty Markdown and a ``table_continued`` block: the caller must not fill it again)."""
    tags = evidence.tags if evidence else {}
    layouts = [_without(layout, numbers) for layout, numbers
               in zip(layouts, line_numbers([layout.words for layout in layouts]), strict=True)]
    # Each page's rows of words, and from them its justified gutters, found once: the table
    # finder and the line builder both read the gutters, and a page without tables is built
    # into lines from these rows.
    rows = {layout.number: _sorted_rows(layout.words) for layout in layouts}
    own = [justified_gutters(rows[layout.number]) for layout in layouts]
    layouts = [replace(layout, gutters=gutters) for layout, gutters in zip(
        layouts, inherited_gutters([rows[layout.number] for layout in layouts], own), strict=True)]
    # A page's gutters taken from its document's other pages also part its columns for reading.
    inherited = {layout.number: layout.gutters or [] for layout, mine in zip(layouts, own, strict=True)
                 if not mine and layout.gutters}
    # A running head that holds its page's number ("Federal Register / Vol. 91 / Notices 1403")
    # is no row of a table set a few points under it: its words are kept from the table finder.
    titled = _running_words_kept_from_tables(layouts, rows)
    tables = {layout.number: _tables(_without_words(layout, titled), tags.get(layout.number),
                                     [kept for row in rows[layout.number]
                                      if (kept := [w for w in row if id(w) not in titled])])
              for layout in layouts}
    # Turned words a table read as cells (a grid's turned column headings) are not loose text;
    # taken now, before page-crossing tables are joined into new ones.
    in_tables = {id(w) for found in tables.values() for table in found for w in table.turned}
    lines = {layout.number: build_lines(_outside(layout.words, tables[layout.number]), layout.number,
                                        layout.gutters,
                                        None if tables[layout.number] else rows[layout.number])
             for layout in layouts}
    mark_running(layouts, lines, {number: page.artifacts for number, page in tags.items()
                                  if page.tagged and page.artifacts}, tables)
    for page in lines.values():
        _keep_line_starts(page)
    _mark_contents(lines)
    if join_tables:  # (after the lines are built: the continuation's words are no text)
        for layout in layouts:
            if len(tables[layout.number]) > 1:
                tables[layout.number] = join_column_tables(
                    tables[layout.number], [line for line in lines[layout.number] if line.kind == "body"],
                    layout.words)
    adopted = _adopt_leading_rows(layouts, lines, tables) if join_tables else set()
    if join_tables:
        _adopt_trailing_header(layouts, lines, tables)
    style = _body_style([line for page in lines.values() for line in page if line.kind == "body"])
    style = _tabled_style(style, lines, layouts, tables)
    deck = find_deck(layouts, lines)
    column_lines = COLUMN_LINES if deck else _COLUMN_LINES
    titles = {number: {id(line) for line in found} for number, found in deck.titles.items()} if deck else {}
    annexes = annex_letters([line for page in lines.values() for line in page if line.kind == "body"], style)
    inherited = _with_columns_of_other_pages(inherited, lines, deck is not None)
    drafts = {layout.number: _page_blocks(layout, lines[layout.number], tables[layout.number],
                                          _page_style(lines[layout.number], style), column_lines,
                                          titles.get(layout.number), annexes,
                                          inherited.get(layout.number, []))
              for layout in layouts}
    for layout in layouts:
        drafts[layout.number] = join_section_labels(join_mixed_headings(drafts[layout.number]))
        if layout.number in tags:  # (the lines of a tagged list item are one item)
            drafts[layout.number] = tagged_list_items(tags[layout.number], layout.words,
                                                      drafts[layout.number], _list_marker)
    _list_link_contents(drafts, [layout.number for layout in layouts])
    head_ruled_titles([(drafts[layout.number], layout.rulings) for layout in layouts], style)
    head_accent_titles([draft for layout in layouts for draft in drafts[layout.number]], style)
    # A box's label first: a heading over a box is followed by the box's text, not by a label.
    for layout in layouts:
        unhead_box_labels(drafts[layout.number], layout.rulings, style)
        unhead_picture_titles(drafts[layout.number], layout.pictures, style)
    # What follows a label may be on the next page: the document's blocks in reading order.
    head_lower_case_titles([draft for layout in layouts for draft in drafts[layout.number]], style)
    unhead_other_face_labels([draft for layout in layouts for draft in drafts[layout.number]], style)
    settle_heading_faces([draft for layout in layouts for draft in drafts[layout.number]], style)
    head_sentences_in_heading_faces([draft for layout in layouts for draft in drafts[layout.number]], style)
    head_headlines([draft for layout in layouts for draft in drafts[layout.number]], style)
    unhead_labels([draft for layout in layouts for draft in drafts[layout.number]], style)
    unhead_cover(next((drafts[layout.number] for layout in layouts if drafts[layout.number]), []), style,
                 [draft for layout in layouts for draft in drafts[layout.number]])
    unhead_field_labels([draft for layout in layouts for draft in drafts[layout.number]])
    unhead_empty_sections([draft for layout in layouts for draft in drafts[layout.number]])
    sources = apply_evidence(evidence, layouts, drafts, style, heading_shaped) if evidence else {}
    if deck:  # (slides' titles outweigh a tree's bare H, which gives no level)
        settle_deck_headings(deck, layouts, drafts, heading_shaped)
    # Headings the evidence placed have their levels; the heuristics rank the rest.
    ranked = [b for blocks in drafts.values() for b in blocks if b.level is None]
    rank_headings(style, ranked)
    if deck:
        rank_under_slide_titles(deck, drafts, ranked)
    if join_tables:
        _join_page_crossing_tables(layouts, drafts, tables, adopted)
    nest_indented_items([draft for layout in layouts for draft in drafts[layout.number]])
    out = []
    for layout in layouts:
        blocks = [_render(draft, style) for draft in drafts[layout.number]]
        running = [line for line in lines[layout.number] if line.kind != "body"]
        blocks = [Block(line.kind, line.text, layout.number, (line.x0, line.top, line.x1, line.bottom))
                  for line in running if line.kind == "header"] + blocks + \
                 [Block(line.kind, line.text, layout.number, (line.x0, line.top, line.x1, line.bottom))
                  for line in running if line.kind == "footer"]
        turned = [w for w in layout.turned if id(w) not in in_tables]
        if turned:  # text set at an angle: one paragraph after the page's body
            # (Escaped like any paragraph: a chart's turned axis title "# of Incidents" is no
            # Markdown heading.)
            text = " ".join(w.text for w in turned)
            blocks.append(Block("paragraph", _escaped(text), layout.number,
                                (min(w.x0 for w in turned), min(w.top for w in turned),
                                 max(w.x1 for w in turned), max(w.bottom for w in turned))))
        markdown = _compose([b for b in blocks if b.kind not in ("header", "footer", "table_continued")])
        out.append(PageStructure(layout.number, markdown, blocks, [line.text for line in running],
                                 tables[layout.number], (layout.width, layout.height),
                                 sources.get(layout.number, HEURISTICS)))
    return out


# An item's marker standing this many of its sizes right of the item's before it is nested
# under that item (a point's "(a)" hung 0.4 inch under its paragraph's "2."); at most
# _NEST_REACH sizes (further, another column's list).
_NEST_STEP = 1.5
_NEST_REACH = 6.0


def nest_indented_items(drafts: list[Draft]) -> None:
    """List items whose nesting nothing gave (no tags), nested by where their markers stand:
    in a run of consecutive items, an item whose marker stands indented under the item before
    it (_NEST_STEP of its sizes or more, under that item's text) is one level deeper; an item
    lined up with an earlier one of the run is at its level ("(i)" and "(ii)" under "(a)",
    "(b)" back beside "(a)", "3." beside "2.").  A run is broken by anything else, and an item
    standing left of all or too far right (another column) starts one again."""
    # (Positions are measured from each page's left text edge: facing pages' margins differ,
    # and a list going on at the next page's margin is not indented under its last item.)
    left: dict[int, float] = {}
    for draft in drafts:
        if draft.kind in ("paragraph", "list_item") and draft.lines:
            edge = min(line.x0 for line in draft.lines)
            left[draft.page] = min(edge, left.get(draft.page, edge))
    stack: list[float] = []  # the run's open levels: their markers' left edges, outermost first
    last_x1: float | None = None  # the item before's right edge
    for draft in drafts:
        if draft.kind != "list_item" or draft.depth or not draft.lines or draft.table is not None \
                or draft.contents is not None:
            stack, last_x1 = [], None
            continue
        line = draft.lines[0]
        x0 = line.x0 - left.get(draft.page, 0.0)
        step = _NEST_STEP * line.size
        if last_x1 is not None and stack and stack[-1] + step <= x0 <= stack[-1] + _NEST_REACH * line.size \
                and x0 < last_x1 and not line.rtl:
            stack.append(x0)
        else:
            while stack and stack[-1] - x0 >= step:
                stack.pop()
            if not stack or abs(stack[-1] - x0) >= step:
                stack = [x0]
        if len(stack) > 1:
            draft.depth = len(stack)
        last_x1 = line.x1 - left.get(draft.page, 0.0)


def _without_words(layout: PageLayout, dropped: set[int]) -> PageLayout:
    """The page without the words whose ids are ``dropped``."""
    if not dropped or not any(id(word) in dropped for word in layout.words):
        return layout
    return replace(layout, words=[word for word in layout.words if id(word) not in dropped])


def _running_words_kept_from_tables(layouts: list[PageLayout], rows: dict[int, list[list[Word]]]) -> set[int]:
    """The ids of the words of running lines (:func:`mark_running`, read from the lines of the
    pages' top and bottom bands alone) that hold words and their page's number at an end: a
    journal's or a gazette's running head ("12823 Federal Register / Vol. 91 ... / Notices"),
    set a few points over a table at the page's head, lines up with the table's columns and
    would be read as its first row.  So are the words of a running row without a page number
    spread over the width in pieces that do not stand at the columns of the lines under it
    (:func:`_spread_running_words`); another running line without a page number is left to the
    table finder: a table's header row repeated at the head of each page it runs over is one."""
    lines: dict[int, list[Line]] = {}
    for layout in layouts:
        low, high = _BAND * layout.height, (1 - _BAND) * layout.height
        banded = [row for row in rows[layout.number]
                  if layout.stacked or min(w.top for w in row) < low or max(w.bottom for w in row) > high]
        lines[layout.number] = build_lines([w for row in banded for w in row], layout.number,
                                           layout.gutters, banded)
    mark_running(layouts, lines)
    # Each page's running rows (its running lines on one baseline, read left to right), by
    # their key without the number at an end: a key whose number differs from page to page
    # numbers the pages as the file's pages go (one offset between them on every page it is
    # on); one whose number stays (a table's header row "Region ... FY 2014" repeated at the
    # head of each page it runs over) or goes at random (a wrapped cell's line "... storms of
    # 2016" at one height on every page of a long table) does not.
    found: list[tuple[str, int, list[Line]]] = []
    spread: dict[str, list[tuple[int, list[Line]]]] = defaultdict(list)  # rows of two lines or more
    for number, page in lines.items():
        running = sorted((line for line in page if line.kind != "body"), key=attrgetter("x0"))
        for line in running:
            row = [other for other in running if other.kind == line.kind
                   and other.top < line.bottom and line.top < other.bottom]
            text = " ".join(other.text for other in row)
            ends = _END_NUMBER.findall(text)
            if line is row[0] and len(ends) == 1 and any(c.isalpha() for c in text):
                found.append((_recurring_key(_running_key(text)), int(ends[0]) - number, row))
            # (The whole baseline running: a table's header row whose first cell varies from
            # page to page, "Item" and "Supplier" over two ledgers, is no running row.)
            if line is row[0] and len(row) > 1 and any(c.isalpha() for c in text) \
                    and all(any(other is kept for kept in row) for other in page
                            if other.top < line.bottom and line.top < other.bottom):
                spread[" ".join(text.split())].append((number, row))
    offsets: dict[str, set[int]] = defaultdict(set)
    pages: Counter[str] = Counter()
    for key, offset, _ in found:
        offsets[key].add(offset)
        pages[key] += 1
    numbered = {id(word) for key, _, row in found if pages[key] >= 2 and len(offsets[key]) == 1
                for line in row for word in line.words}
    return numbered | _spread_running_words(spread, {layout.number: layout.words for layout in layouts})


def _spread_running_words(spread: dict[str, list[tuple[int, list[Line]]]],
                          words: dict[int, list[Word]]) -> set[int]:
    """The ids of the words of running rows without their page's number, spread over the page
    in pieces (``spread``: each row's pages and lines by its text), that repeat word for word
    at one height on two pages or more and do not stand as a header row over the lines under
    them on each (:func:`extractors.pdf_running_table_heads.heads_lines_under`): a company's
    running header ("Acme Holdings plc", "Annual report 2025" centred, "Notes to the accounts"
    at the right margin) set about a row's pitch over a note's table lines up with its first
    and last columns, and the table finder took it for the table's first row on each page
    (issue 32, tight accounts).  A table's header row repeated at the head of each page stands
    at the table's columns and is left to the table finder."""
    out: set[int] = set()
    for occurrences in spread.values():
        # (Top down, the occurrences within _SAME_HEIGHT of each one are a run of them that
        # only moves down the order: n log n in the pages, not each occurrence against every
        # other, for a running header on each of a long document's thousands of pages.)
        order = sorted(occurrences, key=lambda occurrence: occurrence[1][0].top)
        windows = _same_height_runs([row[0].top for _, row in order])
        recurs = _on_two_pages([page for page, _ in order], windows)
        # Each occurrence in a run on two pages or more is read against the lines under it
        # once (``opened``: how many such runs start at each place less those ending there),
        # and a run holds one that stands as no header row when the count of those before its
        # end passes the count before its start.
        opened = [0] * (len(order) + 1)
        for (start, stop), recurring in zip(windows, recurs, strict=True):
            if recurring:
                opened[start] += 1
                opened[stop] -= 1
        unheaded = [0]
        for (page, row), depth in zip(order, itertools.accumulate(opened[:-1]), strict=True):
            unheaded.append(unheaded[-1] + (depth > 0 and not heads_lines_under(row, words[page])))
        for (_, row), (start, stop), recurring in zip(order, windows, recurs, strict=True):
            if recurring and unheaded[stop] > unheaded[start]:
                out.update(id(word) for line in row for word in line.words)
    return out


def _same_height_runs(tops: list[float]) -> list[tuple[int, int]]:
    """For each of ``tops`` (in ascending order) the run of them within _SAME_HEIGHT of it
    (its start and end, the end past the run), read in one pass down the order."""
    runs = []
    start = stop = 0
    for top in tops:
        while top - tops[start] > _SAME_HEIGHT:
            start += 1
        while stop < len(tops) and tops[stop] - top <= _SAME_HEIGHT:
            stop += 1
        runs.append((start, stop))
    return runs


def _on_two_pages(pages: list[int], runs: list[tuple[int, int]]) -> list[bool]:
    """Whether each run (start and end in ``pages``, both moving only forward) spans two pages
    or more: the pages in the run counted as it slides."""
    counts: Counter[int] = Counter()
    start = stop = 0
    out = []
    for run_start, run_stop in runs:
        while stop < run_stop:
            counts[pages[stop]] += 1
            stop += 1
        while start < run_start:
            counts[pages[start]] -= 1
            if not counts[pages[start]]:
                del counts[pages[start]]
            start += 1
        out.append(len(counts) >= 2)
    return out


def _without(layout: PageLayout, numbers: set[int]) -> PageLayout:
    """The page without its line numbers (the indices of its words given,
    :mod:`extractors.pdf_line_numbers`), which are no text and would scramble its columns, its
    paragraphs and its tables."""
    if not numbers:
        return layout
    return replace(layout, words=[word for k, word in enumerate(layout.words) if k not in numbers])


def _adopt_leading_rows(layouts: list[PageLayout], lines: dict[int, list[Line]],
                        tables: dict[int, list[FoundTable]]) -> set[int]:
    """Rows of a table continued at the head of the next page that the table finder left as
    lines (:func:`extractors.pdf_table_stitch.leading_rows`) made a table there, their lines
    taken from the page; the ids of the tables so made."""
    bodies = {n: [line for line in page if line.kind == "body"] for n, page in lines.items()}
    sizes = {layout.number: (layout.width, layout.height) for layout in layouts}
    edges = _section_extents(sizes, bodies, tables)
    if edges is None:
        return set()
    adopted: set[int] = set()
    words = {layout.number: layout.words for layout in layouts}
    headers: set[str] = set()  # the header rows of the tables on the pages so far
    for layout in layouts:
        before = tables.get(layout.number - 1)
        headers |= {_row_text(" ".join(t.cells[0])) for t in before or [] if t.header_rows and t.cells}
        if not before or layout.number not in bodies:
            continue
        last = max(before, key=lambda t: t.bottom)
        if any(line.top > last.bottom and not continuation_note(line.text)
               for line in bodies[layout.number - 1]) \
                or not at_foot(last, edges.get(sizes[layout.number - 1], (0.0, float("inf")))[1]):
            continue
        first_table = min((t.top for t in tables[layout.number]), default=float("inf"))
        rows = _baseline_rows([line for line in bodies[layout.number]
                               if line.bottom < first_table and line.contents is None])
        while rows and len(rows[0]) == 1 and continuation_note(rows[0][0].text):
            rows = rows[1:]
        highest = edges.get(sizes[layout.number], (float("inf"), 0.0))[0]
        row_words = [[w for line in row for w in line.words] for row in rows]
        found = leading_rows(last, words[layout.number - 1], row_words, highest, frozenset(headers))
        if found is None:
            continue
        rest = _running_rest(lines[layout.number], rows)
        while rest and leading_rows(last, words[layout.number - 1], [*(list(line.words) for line in rest),
                                                                     *row_words],
                                    highest, frozenset(headers)) is None:
            rest = rest[1:]
        for line in rest:
            line.kind = "body"
        taken = {id(line) for row in rows for line in row
                 if found.top <= line.top and line.bottom <= found.bottom}
        lines[layout.number] = [line for line in lines[layout.number] if id(line) not in taken]
        tables[layout.number] = [found, *tables[layout.number]]
        adopted.add(id(found))
    return adopted


def _running_rest(page: list[Line], rows: list[list[Line]]) -> list[Line]:
    """The page's lowest running header lines (two at most, top down) that stand alone on
    their baselines, each right over the next and the last right over the body's first row
    (``rows``: the body's rows over its first table): maybe the rest of a row broken over the
    page that recurs at its height on another page ("the fund" of two listings' references,
    "Bakery and" over "Cafe Ltd" of two firms' names), which the running-line rule took for a
    running header.  (A table under it gives such a line back, see
    :mod:`extractors.pdf_running_table_heads`; rows the page finder left as lines do not.)"""
    running = sorted((line for line in page if line.kind == "header"), key=attrgetter("bottom"))
    if not rows:
        return []
    out: list[Line] = []
    below = min(line.top for line in rows[0])
    while running and len(out) < _REST_LINES:
        lowest = running.pop()
        if any(line.bottom > lowest.top for line in running) \
                or not 0 <= below - lowest.bottom <= 2 * lowest.height:
            break
        out.insert(0, lowest)
        below = lowest.top
    return out


def _section_extents(sizes: dict[int, tuple[float, float]], bodies: dict[int, list[Line]],
                     tables: dict[int, list[FoundTable]]
                     ) -> dict[tuple[float, float], tuple[float, float]] | None:
    """Where pages of each size start and end their body, body lines and tables together
    (:func:`extractors.pdf_table_stitch.body_extents`: a landscape section's pages end theirs
    higher up); None with fewer than two pages with a body."""
    extents = [(sizes[n], min([line.top for line in bodies[n]] + [t.top for t in tables[n]]),
                max([line.bottom for line in bodies[n]] + [t.bottom for t in tables[n]]))
               for n in bodies if bodies[n] or tables[n]]
    return body_extents(extents) if len(extents) > 1 else None


def _adopt_trailing_header(layouts: list[PageLayout], lines: dict[int, list[Line]],
                           tables: dict[int, list[FoundTable]]) -> None:
    """A header row left alone at the foot of a page, its table's body starting the next
    page (:func:`extractors.pdf_table_stitch.trailing_header`): the row's lines taken from
    the page and made the header of that table."""
    bodies = {n: [line for line in page if line.kind == "body"] for n, page in lines.items()}
    sizes = {layout.number: (layout.width, layout.height) for layout in layouts}
    edges = _section_extents(sizes, bodies, tables)
    if edges is None:
        return
    words = {layout.number: layout.words for layout in layouts}
    for layout in layouts:
        number = layout.number
        if not tables.get(number) or not bodies.get(number - 1) or number - 1 not in sizes:
            continue
        first = min(tables[number], key=lambda t: t.top)
        if any(line.bottom <= first.top for line in bodies.get(number, [])) \
                or not at_head(first, edges[sizes[number]][0]):
            continue
        rows = _baseline_rows(bodies[number - 1])
        last = sorted(rows[-1], key=lambda line: line.x0)
        bottom = max(line.bottom for line in last)
        if any(t.bottom > bottom for t in tables.get(number - 1, [])) or any(line.contents for line in last) \
                or bottom < edges[sizes[number - 1]][1] - 2.5 * last[0].height - 6.0:
            continue
        found = trailing_header(first, words[number], [line.words for line in last])
        if found is None:
            continue
        taken = {id(line) for line in last}
        lines[number - 1] = [line for line in lines[number - 1] if id(line) not in taken]
        tables[number] = [found if t is first else t for t in tables[number]]


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


def _join_page_crossing_tables(layouts: list[PageLayout], drafts: dict[int, list[Draft]],
                               tables: dict[int, list[FoundTable]], adopted: set[int]) -> None:
    """Tables continued on the next page (:mod:`extractors.pdf_table_stitch`) as one: the
    first part's draft takes the joined table, each later part's draft becomes its page's
    ``table_continued`` block, and the pages' table lists follow."""
    _join_columns_over_pages(layouts, drafts, tables, adopted)
    edges = []
    earlier: set[str] = set()  # the header rows of the tables on the pages so far
    printed: dict[int, list[Draft]] = {}  # each page's lines over its first table set aside as titles
    # Each page's lines over its first table that may be the rest of a row, and the header
    # repeated over them.
    rests: dict[int, tuple[list[Draft], list[Draft]]] = {}
    for layout in layouts:
        body = drafts[layout.number]
        if not body:
            edges.append(BodyEdge(layout.number, 0.0, 0.0, None, None,
                                  headers=_header_rows(body, tables[layout.number]),
                                  size=(layout.width, layout.height)))
            continue
        # (Notes that the table goes on may stand between its parts.)
        tabled = [d for d in body if d.table is not None or not continuation_note(d.text)] or body
        # Lines over the first table that repeat an earlier table's header rows: maybe print
        # titles, which the stitch may drop (pdf_table_stitch._print_titles).
        titles = printed[layout.number] = []
        while len(tabled) > 1 and tabled[0].table is None and _row_text(tabled[0].text) in earlier:
            titles.append(tabled.pop(0))
        # A line or two of text over the first table: maybe the rest of a row broken over the
        # page (pdf_table_stitch._row_rest), which the stitch may take into that row.
        header, rest = rests[layout.number] = _row_rest_drafts(tabled, earlier) if not titles else ([], [])
        tabled = tabled[len(header) + len(rest):]
        # (The rest of a row over the table is no group heading over its columns: the same rest
        # atop a later page, "LLC" of another firm's name, would read as its print titles.)
        headers = _header_rows([d for d in body if not any(d is r for r in rest)], tables[layout.number])
        first = tabled[0].table or _column_end_table(tabled, last=False)
        last = tabled[-1].table or _column_end_table(tabled, last=True)
        columns = any(table is not None and _set_in_columns(table, body) for table in (first, last))
        edges.append(BodyEdge(layout.number, min(d.box[1] for d in body), max(d.box[3] for d in body),
                              first, last, layout.words, id(first) in adopted,
                              tuple(d.text for d in titles) if first is not None else (), headers,
                              (layout.width, layout.height), columns,
                              tuple(tuple(line.words) for d in rest for line in d.lines)))
        earlier |= {_row_text(row) for header in headers for row in header}
    sizes = {layout.number: (layout.width, layout.height) for layout in layouts}
    for stitch in stitch_tables(edges):
        first_page, first = stitch.parts[0]
        parts = [TablePart(page, (part.x0, part.top, part.x1, part.bottom), offsets, sizes[page])
                 for (page, part), offsets in zip(stitch.parts, stitch.part_offsets(), strict=True)]
        for index, (page, _) in enumerate(stitch.parts):
            part = stitch.found_part(index)
            draft = next(d for d in drafts[page] if d.table is part)
            if part is first:
                draft.table, draft.parts = stitch.table, parts
                tables[page] = [stitch.table if t is first else t for t in tables[page]]
            else:
                draft.kind, draft.continues = "table_continued", first_page
                tables[page] = [t for t in tables[page] if t is not part]
                for title in printed.get(page, []):  # print titles the stitch dropped: running lines
                    title.kind = "print_title"
                if page in stitch.rest_pages:  # (the rest of a row: text of the joined table)
                    header, rest = rests[page]
                    for line in header:  # (the header repeated over it)
                        line.kind = "print_title"
                    for line in rest:
                        line.kind, line.continues = "table_continued", first_page


# Tables on two pages side by side start and end this close (points): Calc's rows, one height.
_SIDE_BY_SIDE = 1.5
# A sheet's columns going on hold figures in this share of their first column's body cells.
_FIGURES_GOING_ON = 0.6


def _join_columns_over_pages(layouts: list[PageLayout], drafts: dict[int, list[Draft]],
                             tables: dict[int, list[FoundTable]], adopted: set[int]) -> None:
    """A sheet wider than the page printed over pages side by side (Calc and Excel print the
    columns that do not fit on the next page, the rows at the same heights): the next page
    holds one table and nothing else, as many rows as the page's last table, its top and
    bottom those of that table (within _SIDE_BY_SIDE points), with as many header rows, and
    figures in its first column (or that table's first column repeated).  Its columns go on
    the right of that table's (a first column repeating that table's, print titles, once);
    its draft becomes the page's ``table_continued`` block.  A table under
    another one's rows is the stitch's (pdf_table_stitch), not this."""
    for before, after in itertools.pairwise(layouts):
        left, right = drafts[before.number], drafts[after.number]
        if right and all(d.table is None for d in right):
            _join_spilled_columns(before, after, left, right, tables, adopted)
            continue
        if not left or left[-1].table is None or len(right) != 1 or right[0].table is None \
                or right[0].kind != "table" or left[-1].kind != "table":
            continue
        first, second = left[-1].table, right[0].table
        if len(first.cells) != len(second.cells) or first.header_rows != second.header_rows \
                or abs(first.top - second.top) > _SIDE_BY_SIDE \
                or abs(first.bottom - second.bottom) > _SIDE_BY_SIDE:
            continue
        # (Rows going on, not columns: the header repeated whole over the next rows, a listing's
        # print titles on every full page; or a first row of figures where a heading would stand,
        # the rows going on at the header's height on a page without print titles.)
        head = max(1, first.header_rows)
        if first.cells[:head] == second.cells[:head] or _figure_row(second.cells[0]):
            continue
        skip = 1 if [row[0] for row in first.cells] == [row[0] for row in second.cells] else 0
        # (A first column headed as the other's but holding other rows is a table of its own,
        # a catalogue's next section, "Code" over other codes: a sheet's columns going on are
        # headed apart, or repeat its first column whole.)
        if not skip and first.cells[0][:1] == second.cells[0][:1]:
            continue
        # (Columns going on, not a table of its own: its first column holds figures, as a
        # sheet's columns on the right do, not labels of its own rows.)
        body = [row[skip] for row in second.cells[max(1, second.header_rows):] if len(row) > skip]
        figures = sum(bool(NUMERIC.match(text.strip())) for text in body)
        if not skip and figures < _FIGURES_GOING_ON * len(body):
            continue
        cells = [[*a, *b[skip:]] for a, b in zip(first.cells, second.cells, strict=True)]
        joined = replace(first, cells=cells, markdown=cells_to_markdown(cells))
        if id(first) in adopted:
            adopted.add(id(joined))
        left[-1].table = joined
        tables[before.number] = [joined if t is first else t for t in tables[before.number]]
        tables[after.number] = [t for t in tables[after.number] if t is not second]
        right[0].kind, right[0].continues = "table_continued", before.number


# A sheet's column going on sets its cells this share of a line's height or less off the rows
# of the table it goes on (the same row heights on both pages).
_ROW_OFF = 0.3
# Words of a cell stand closer than this share of their height; a gap wider parts columns.
_COLUMN_GAP = 0.6


def _join_spilled_columns(before: PageLayout, after: PageLayout, left: list[Draft], right: list[Draft],
                          tables: dict[int, list[FoundTable]], adopted: set[int]) -> None:
    """A sheet's columns going on over a page that the table finder took no table from (a
    single column, or columns too few rows filled to read as one): the next page holds only
    lines on the rows of the page's last table, at the same heights (within _ROW_OFF of a
    line), its first row and its last among them, and they hold figures in the body as a
    sheet's columns on the right do (_FIGURES_GOING_ON).  The lines are cut into columns at
    the gaps between their words, each row's words go into the row they stand on (the rows
    without a word on this page, a section's label, get empty cells), and the columns go on
    the right of the table; the page's drafts become ``table_continued`` blocks.  (The page's
    running lines may read a lone column's heading, a year, as a page's running head: the
    cells are read from the page's words, not from its drafts.)  The table is the page's last;
    notes under it (a sheet's rows under the table, in its first column) stay where they are."""
    holder = next((d for d in reversed(left) if d.table is not None), None)
    if holder is None or holder.kind != "table":
        return
    first = holder.table
    assert first is not None
    top, bottom = first.top - _SIDE_BY_SIDE, first.bottom + _SIDE_BY_SIDE
    # (A line whose box starts left of the page is the end of a line of the page before cut at
    # the page's edge, a title merged across the sheet's columns and centred over them: text
    # that page holds whole, no line of this one.)
    if any(d.kind not in ("paragraph", "heading") or ((d.box[1] < top or d.box[3] > bottom) and d.box[0] >= 0)
           for d in right):
        return
    inside = [w for w in before.words if w.x0 >= first.x0 - 1 and w.x1 <= first.x1 + 1
              and w.top >= top and w.bottom <= bottom]
    rows = _sorted_rows(inside)
    if len(rows) != len(first.cells):
        return
    centres = [(row[0].top + row[0].bottom) / 2 for row in rows]
    spilled = _sorted_rows([w for w in after.words if w.top >= top and w.bottom <= bottom])
    at: list[int] = []
    for row in spilled:
        height = row[0].bottom - row[0].top
        middle = (row[0].top + row[0].bottom) / 2
        near = min(range(len(centres)), key=lambda k: abs(centres[k] - middle))
        if abs(centres[near] - middle) > _ROW_OFF * height or (at and near <= at[-1]):
            return
        at.append(near)
    if not at or at[0] != 0 or at[-1] != len(rows) - 1:
        return
    spans: list[list[float]] = []
    for word in sorted((w for row in spilled for w in row), key=attrgetter("x0")):
        if spans and word.x0 - spans[-1][1] < _COLUMN_GAP * (word.bottom - word.top):
            spans[-1][1] = max(spans[-1][1], word.x1)
        else:
            spans.append([word.x0, word.x1])
    added = [[""] * len(spans) for _ in rows]
    for row, index in zip(spilled, at, strict=True):
        for word in row:
            column = next(k for k, span in enumerate(spans) if span[0] <= word.x0 <= span[1])
            added[index][column] = f"{added[index][column]} {word.text}".strip()
    body = [text for cells in added[max(1, first.header_rows):] for text in cells if text]
    if not body or sum(bool(NUMERIC.match(text)) for text in body) < _FIGURES_GOING_ON * len(body):
        return
    cells = [[*a, *b] for a, b in zip(first.cells, added, strict=True)]
    joined = replace(first, cells=cells, markdown=cells_to_markdown(cells), bounds=())
    if id(first) in adopted:
        adopted.add(id(joined))
    holder.table = joined
    tables[before.number] = [joined if t is first else t for t in tables[before.number]]
    for draft in right:
        draft.kind, draft.continues = "table_continued", before.number


def _figure_row(row: list[str]) -> bool:
    """Whether a table's first row holds figures in most of its filled cells (a body's row, no
    header: a sheet's columns on the right are headed like those on the left)."""
    filled = [text.strip() for text in row if text.strip()]
    return bool(filled) and sum(bool(NUMERIC.match(text)) for text in filled) * 2 > len(filled)


def _row_rest_drafts(body: list[Draft], headers: set[str]) -> tuple[list[Draft], list[Draft]]:
    """The paragraphs over the body's first table, when there are one or two of a line or two
    in all, right over it: what may be the rest of a row the page break cut.  Over them may
    stand a table's header row repeated, its cells paragraphs of one line on one baseline
    (LibreOffice sets the rest of the row under the repeated header, and the page finder took
    neither into the table): those first (the header rows are ``headers``, as
    :func:`_row_text` has them), then the paragraphs."""
    at = next((i for i, d in enumerate(body) if d.table is not None), None)
    if not at:
        return [], []
    cells = 0
    while cells < at and body[cells].kind == "paragraph" and len(body[cells].lines) == 1 \
            and abs(body[cells].box[1] - body[0].box[1]) <= 0.25 * body[0].lines[0].height:
        cells += 1
    row = " ".join(d.text for d in sorted(body[:cells], key=lambda d: d.box[0]))
    repeated = cells if cells >= 2 and _row_text(row) in headers else 0
    rest = body[repeated:at]
    if not rest or len(rest) > 2 or any(d.kind != "paragraph" for d in rest) \
            or sum(len(d.lines) for d in rest) > 2:
        return [], []
    return body[:repeated], rest


def _set_in_columns(table: FoundTable, body: list[Draft]) -> bool:
    """Whether text stands beside the table (it is set in a text column of the page)."""
    def beside(box: tuple[float, float, float, float]) -> bool:
        x0, top, x1, bottom = box
        return (x1 <= table.x0 + 1 or x0 >= table.x1 - 1) \
            and min(bottom, table.bottom) - max(top, table.top) > 0.5 * (bottom - top)

    return any(beside(draft.box) for draft in body if draft.table is not table)


def _column_end_table(body: list[Draft], last: bool) -> FoundTable | None:
    """On a page set in text columns whose reading order the columns' lines did not tell, the
    table the body ends with (``last``: nothing under it in its column, nothing right of it
    from its top down: the last column's end) or starts with (nothing over it in its column,
    nothing left of it from its bottom up)."""
    for draft in body if last else reversed(body):
        table = draft.table
        if table is None:
            continue
        x0, top, x1, bottom = table.x0, table.top, table.x1, table.bottom
        others = [d.box for d in body if d is not draft]
        if last and not any(
                (b[1] >= bottom - 1 and b[0] < x1 and b[2] > x0) or (b[0] >= x1 - 1 and b[3] > top)
                for b in others):
            return table
        if not last and not any(
                (b[3] <= top + 1 and b[0] < x1 and b[2] > x0) or (b[2] <= x0 + 1 and b[1] < bottom)
                for b in others):
            return table
    return None


def _header_rows(body: list[Draft], tables: list[FoundTable]) -> tuple[tuple[str, ...], ...]:
    """Each table's header rows, and for a table with a one-line paragraph set right over it
    (a group heading over the column headings the finder left out) the same rows under that
    line: the rows a spreadsheet's print titles repeat."""
    headers = []
    for table in tables:
        rows = tuple(" ".join(row) for row in table.cells[:max(1, table.header_rows)])
        headers.append(rows)
        at = next((i for i, d in enumerate(body) if d.table is table), 0)
        above = body[at - 1] if at else None
        if above is not None and above.table is None and above.kind == "paragraph" and len(above.lines) == 1 \
                and table.top - above.box[3] <= above.lines[0].height:
            headers.append((above.text, *rows))
    return tuple(headers)


def _row_text(text: str) -> str:
    return " ".join(text.split()).lower()


def _tables(layout: PageLayout, tags: PageTags | None = None,
            rows: list[list[Word]] | None = None) -> list[FoundTable]:
    """The page's tables: the table finder's, then what the page's tags say of them
    (:func:`extractors.pdf_evidence.tagged_tables`); ``rows``, the page's words grouped into
    rows (see :func:`build_lines`), when already grouped."""
    if not layout.words:
        return []
    # A table of contents' page column looks like a table's column of figures: its words are
    # not offered to the table finder (they become a list, see _mark_contents).
    entries: list[ContentsEntry] = []
    if might_hold_contents(layout.words):
        lines = build_lines(layout.words, layout.number, layout.gutters, rows)
        entries = find_contents(split_at_labels(lines))
        drawn = {id(word) for entry in entries for line in entry.lines for word in line.words}
        if drawn:
            layout = replace(layout, words=[w for w in layout.words if id(w) not in drawn])
    found = [_logical_columns(table) for table in find_tables(layout)]
    # Between contents set in columns, what the entries leave (an image's caption in one
    # column, a note in the next) lines up like a table's rows: no table crosses their gutter.
    found = [table for table in found if not _crosses_contents_columns(table, entries)]
    # (The tags' tables have the words of the whole page: a table of contents is tagged TOC.)
    if tags is None:
        return found
    return tagged_tables(tags, layout.words, found, layout.turned, layout.rulings)


def _crosses_contents_columns(table: FoundTable, entries: list[ContentsEntry]) -> bool:
    columns: dict[int, list[Line]] = defaultdict(list)
    for entry in entries:
        columns[entry.column].extend(entry.lines)
    if len(columns) < 2:
        return False
    top = min(line.top for lines in columns.values() for line in lines)
    bottom = max(line.bottom for lines in columns.values() for line in lines)
    if table.bottom <= top or table.top >= bottom:
        return False
    order = sorted(columns)
    for left, right in zip(order, order[1:], strict=False):
        cut = (max(line.x1 for line in columns[left]) + min(line.x0 for line in columns[right])) / 2
        if table.x0 < cut < table.x1:
            return True
    return False


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
        split = split_at_labels(page)
        if len(split) > len(page):  # (a column's label and the next column's title were one line)
            in_columns = find_contents(split, drawn_elsewhere, continued=bool(before))
            if any(entry.column for entry in in_columns):
                page[:] = split
                entries = in_columns
        before = entries
        found.append((entries, min(line.x0 for line in page)))
        for entry in entries:
            for line in entry.lines:
                line.contents, line.kind = entry, "body"
    nest_across_pages(found)


def _outside(words: list[Word], tables: list[FoundTable]) -> list[Word]:
    if not tables:
        return words

    # (Every word of a page with tables: the tables' boxes, a point wider, made once, and the
    # words tested in one loop.)
    boxes = [(t.x0 - 1, t.x1 + 1, t.top - 1, t.bottom + 1) for t in tables]
    out = []
    for w in words:
        x, y = (w.x0 + w.x1) / 2, (w.top + w.bottom) / 2
        for x0, x1, top, bottom in boxes:
            if x0 <= x <= x1 and top <= y <= bottom:
                break
        else:
            out.append(w)
    return out


# ---------------------------------------------------------------------------------- lines


def build_lines(words: list[Word], page: int, gutters: list[tuple[float, float]] | None = None,
                rows: list[list[Word]] | None = None) -> list[Line]:
    """Words grouped by baseline into lines, split at gaps wider than about an em; on a page
    set in justified columns (:mod:`extractors.pdf_justified_gutters`), each column's words
    grouped apart (a bold label's taller box, level with the next column's line above, took
    it into that line's row) and lines cut at the gutters.  ``gutters`` are the page's when
    already found (else found from ``words``), ``rows`` those of :func:`_sorted_rows` for
    ``words`` when already grouped."""
    if rows is None:
        rows = _sorted_rows(words)
    if gutters is None:
        gutters = justified_gutters(rows)
    if gutters:
        rows = _rows_by_column(rows, gutters)
    lines = []
    # A right-to-left page's lines that hold right-to-left words are right to left, even
    # when Latin words are most of one (``שוק Open Source טוב``); None: no such words at all.
    texts = [w.text for w in words]
    rtl = rtl_line(texts) if has_rtl("".join(texts)) else None
    ends = column_ends(words, gutters) if gutters else []
    for row in rows:
        for piece in cut_at_gutters(row, gutters):
            whole = bool(gutters) and fills_column(piece, gutters, ends)
            lines.extend(_split_row(piece, page, rtl, whole))
    # (Pieces of one row are read from the right on a right-to-left page.)
    lines.sort(key=(lambda line: (line.top, -line.x1)) if rtl else (lambda line: (line.top, line.x0)))
    return lines


def _sorted_rows(words: list[Word]) -> list[list[Word]]:
    """Words grouped by baseline into rows (:func:`_word_rows`), each sorted left to right."""
    return [sorted(row, key=attrgetter("x0")) for row in _word_rows(words)]


def _word_rows(words: list[Word]) -> list[list[Word]]:
    """Words grouped by baseline into rows."""
    rows: list[list[Word]] = []
    # Each row's vertical centre and height: those of its first word.  Comparing centres
    # (not growing extents) keeps tightly set lines, and columns whose baselines do not
    # align, from chaining into one row.
    centres: list[tuple[float, float]] = []
    # A row's other baseline: the centre and height of the first word of its height that
    # joined it off its centre (the other column's line, its baseline a few points lower,
    # came into the row of the first column's), and the left and right ends of the words
    # nearer that baseline than the row's: that line's short words ("a", "may", their
    # centres lower still), between its ends or an em or two beside them, are matched to it,
    # not left a row of their own each (a chart's label further off is not).
    others: dict[int, list[float]] = {}
    # (The words' centres made once, the sort keyed by them in C: this runs for every word.)
    middles = [(w.top + w.bottom) / 2 for w in words]
    # Each row's smallest and largest type size: a word whose size is within a tenth of both
    # is within a tenth of every word's of the row, and no other column's line beside it (see
    # _beside_at_other_size, which reads the whole row: asked only when the sizes differ).
    sizes: list[list[float]] = []
    count = 0  # len(rows)
    for at in sorted(range(len(middles)), key=middles.__getitem__):
        word, centre = words[at], middles[at]
        height = word.bottom - word.top
        size = word.size
        for index in range(count - 1, -1 if count < 4 else count - 4, -1):
            row_centre, row_height = centres[index]
            extent = sizes[index]
            # (max() spelled out: this runs for every word of every page)
            if abs(centre - row_centre) <= 0.4 * (row_height if row_height > height else height) \
                    and (0.9 * size < extent[0] and extent[1] < size / 0.9
                         or not _beside_at_other_size(word, rows[index], row_height)):
                rows[index].append(word)
                extent[0], extent[1] = min(extent[0], size), max(extent[1], size)
                if others:
                    other = others.get(index)
                    if other is not None and abs(centre - other[0]) < abs(centre - row_centre):
                        other[2], other[3] = min(other[2], word.x0), max(other[3], word.x1)
                if index not in others and abs(centre - row_centre) > 0.2 * row_height \
                        and height >= 0.9 * row_height:
                    others[index] = [centre, height, word.x0, word.x1]
                break
            other = others.get(index) if others else None
            if other is not None and abs(centre - other[0]) <= 0.4 * max(other[1], height) \
                    and word.x1 > other[2] - 2 * word.size and word.x0 < other[3] + 2 * word.size:
                rows[index].append(word)
                extent[0], extent[1] = min(extent[0], size), max(extent[1], size)
                other[2], other[3] = min(other[2], word.x0), max(other[3], word.x1)
                break
        else:
            rows.append([word])
            centres.append((centre, height))
            sizes.append([size, size])
            count += 1
    return rows


def _rows_by_column(rows: list[list[Word]], gutters: list[tuple[float, float]]) -> list[list[Word]]:
    """Rows (sorted left to right) grouped again column by column: a row that stays whole at
    the gutters (a title or a running head across the columns) is kept, the words of the
    others are grouped by baseline within their own column, each row sorted left to right."""
    middles = [(x0 + x1) / 2 for x0, x1 in gutters]
    kept: list[list[Word]] = []
    columns: list[list[Word]] = [[] for _ in range(len(middles) + 1)]
    for row in rows:
        placed = [bisect.bisect(middles, (word.x0 + word.x1) / 2) for word in row]
        # (Whole: a word across a gutter, or two words on its sides a plain space apart.)
        if any(word.x0 < middle < word.x1 for word in row for middle in middles) \
                or len(cut_at_gutters(row, gutters)) < len(set(placed)):
            kept.append(row)
            continue
        for word, column in zip(row, placed, strict=True):
            columns[column].append(word)
    return kept + [sorted(row, key=attrgetter("x0")) for column in columns for row in _word_rows(column)]


def _beside_at_other_size(word: Word, row: list[Word], row_height: float) -> bool:
    """Whether ``word`` belongs to another column's line set at another size, whose centre
    falls within the row's by chance (8.5-point references in one column beside an 11-point
    heading in the other): it stands two of its sizes or more clear of every word of the row (a
    superscript's or subscript's mark, off the baseline too, touches its word), its size differs
    from the nearest one's by a tenth or more, and the smaller type's foot is below the larger's
    by a fifth of the row's height or more (a line's words share a baseline; a patent's "(57)"
    a tab before its "ABSTRACT" stands on it)."""
    reach = 2 * word.size
    if not all(word.x0 - other.x1 > reach or other.x0 - word.x1 > reach for other in row):
        return False
    first = min(row, key=lambda other: max(other.x0 - word.x1, word.x0 - other.x1))  # the nearest
    if abs(word.size - first.size) < 0.1 * max(word.size, first.size):
        return False
    # The smaller type's foot below the larger's: no superscript (smaller and higher); a
    # subscript, smaller and lower, comes after its word (rows are filled by centres, top down).
    off = 0.2 * row_height
    return word.bottom > first.bottom + off if word.size < first.size else word.bottom < first.bottom - off


def _split_row(row: list[Word], page: int, rtl_page: bool | None, whole: bool = False) -> list[Line]:
    """A row's words as lines, split at gaps much wider than the row's usual word gap (a
    justified line's stretched spaces are all alike; a gutter or a cell boundary is not);
    ``whole``: a justified column's full line, not split at all."""
    words = [row[0]]
    for word in row[1:]:
        if not (word.text == words[-1].text and abs(word.x0 - words[-1].x0) < 1):
            words.append(word)  # (the same word twice is overprinted to look bold)
    return [_line(segment, page, rtl_page) for segment in ([words] if whole else _segments(words))]


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
    if not wide:
        return [words]
    if at == 0 and _is_bullet(words[0]) and widest <= _BULLET_HANG * size:
        return [words]
    if at == 0 and (_numbers_title(words[0], words[1]) or _REFERENCE_MARK.match(words[0].text)):
        # A section number before its title: one line, unless what follows is itself pieces
        # far apart (a row of key figures, "32   No. 1   £1.2bn", is no title).
        rest = _segments(words[1:])
        return [words] if len(rest) == 1 else [words[:1], *rest]
    if at == 0 and _times_title(words[0], words[1]) and len(_segments(words[1:])) == 1:
        return [words]  # (an agenda's line, its time a tab before its title: see _times_title)
    return _segments(words[:at + 1]) + _segments(words[at + 1:])


# A bullet or an item's number hangs at most this many sizes before its item's text; words
# further off are another column's (a paragraph's last line, "106.", beside the next column's
# line: a patent's page, its description beside its claims).
_BULLET_HANG = 8.0
# A tab sets an agenda's title this many of the time's sizes at most after the time; a line
# further off is another column's (a time alone on its line in the left column beside the
# right column's text).
_TIME_TAB = 8.0


def _times_title(time: Word, title: Word) -> bool:
    """A time of day set a tab before a title of words ("09:30   Keynote: ..."), an agenda's or a
    programme's line: one line, as a section's number before its title is, unless what follows
    is itself pieces far apart (a timetable's row, its room and its speaker in columns)."""
    return bool(TIME_OF_DAY.match(time.text)) and title.text[:1].isupper() \
        and title.x0 - time.x1 <= _TIME_TAB * time.size


def _agenda_line(line: Line) -> bool:
    """Whether ``line`` is an agenda's line, a time of day a tab before its title (see
    _times_title): a paragraph of its own, whatever the leading (the agenda typed single-spaced,
    or a paragraph set close under its last line), as a table's row would be -- but for the
    lines its title wraps onto, the next line's first word too long for room left on it (a
    clause numbered "2.10" a tab before its text)."""
    words = line.words
    if len(words) < 2 or not _times_title(words[0], words[1]):
        return False
    gaps = [b.x0 - a.x1 for a, b in itertools.pairwise(words[1:])]
    tab = words[1].x0 - words[0].x1
    return tab > 0.9 * words[0].size and tab > 2.5 * max(gaps, default=0.0)


def _numbers_title(number: Word, title: Word) -> bool:
    """A section number set a quad before its title ("5.1   Results"), or an appendix's
    letter, bold, before its bold title ("A   Proofs": no word is set a quad before the next)."""
    numbered = bool(_SECTION_NUMBER.match(number.text)) or (
        len(number.text) == 1 and number.text.isupper() and number.bold)
    return numbered and title.text[:1].isupper() and number.bold == title.bold


def _hangs_under_title(block: Draft, line: Line) -> bool:
    """Whether ``line`` starts where the title of the block's numbered first line starts, the
    number set a quad before it ("B   Alternative Similarity Functions &" over "Triplet Loss"):
    a numbered heading or paragraph wrapped with a hanging indent, not a new paragraph."""
    first = block.lines[0]
    return len(first.words) > 1 and _numbers_title(first.words[0], first.words[1]) \
        and first.words[1].x0 - first.words[0].x1 > 0.9 * first.size \
        and abs(line.x0 - first.words[1].x0) <= 1.0


def _opens_reference(line: Line) -> bool:
    return len(line.words) > 1 and bool(_REFERENCE_MARK.match(line.words[0].text))


def _hangs_under_reference(block: Draft, line: Line) -> bool:
    """Whether ``line`` is the second line of a bibliography's entry set with a hanging indent
    ("[1] J. Smith and A. Khan. Table structure recognition with graph" over "networks. In
    Proceedings ...", indented under it): the block is the entry's first line, opening with
    its number in brackets, and ``line`` opens with no such number.  (A paragraph's first-line
    indent follows a paragraph's last line, which a one-line entry filling the measure is not.)"""
    return len(block.lines) == 1 and _opens_reference(block.lines[0]) and not _opens_reference(line)


def _next_reference(block: Draft, line: Line) -> bool:
    """Whether ``line`` opens a bibliography's next entry: the block opens with its number in
    brackets ("[1]"), and so does ``line``, at the same left edge (the entry before it may end
    in a full line, or in a short one ending in "2019." that the bracket does not follow as a
    capital would)."""
    first = block.lines[0]
    # (A paragraph opening with a citation, "[3] proposed ...", may wrap before another, "[4]
    # extended it": an entry ends in a full stop, its year's or its pages'.)
    return _opens_reference(first) and _opens_reference(line) and abs(line.x0 - first.x0) <= 1.0 \
        and block.lines[-1].text.rstrip().endswith(SENTENCE_END)


def _centred_break(last: Line, line: Line, left: float, right: float, centred_run: bool) -> bool:
    """Whether ``line``, centred under the centred ``last``, opens a paragraph of its own: its
    first word would have fitted on ``last`` within the measure ``left`` to ``right``, so
    ``last`` was not wrapped there (a title block's affiliation over its line of e-mail
    addresses, each a paragraph).  A centred paragraph wraps only where its next word does not
    fit; but the measure is the page's or the column's, and a centred paragraph set narrower
    shows its wrapping where a word in lower case ends ``last`` and another opens ``line``.  In
    a column, lines sharing an edge are a justified paragraph's, indented on both sides (an
    abstract's), not centred ones; in a ``centred_run``, every line centred, two may share
    their edges by chance."""
    middle, size = (left + right) / 2, max(last.size, line.size)
    if not (_centred_on(last, middle) and _centred_on(line, middle)):
        return False
    if not centred_run and (abs(line.x0 - last.x0) <= 1.0 or abs(line.x1 - last.x1) <= 1.0
                            or min(last.x0, line.x0) < left + size or max(last.x1, line.x1) > right - size):
        return False  # (in a column, centred lines float inside its measure: one at its edge is set to it)
    if last.words[-1].text[:1].islower() and line.text[:1].islower():
        return False  # a sentence running on ("... their logical" over "structure."), set narrower
    first = line.words[0]
    return (last.x1 - last.x0) + 0.5 * size + (first.x1 - first.x0) < right - left - size


# A first-line indent is at most this many ems; a line set in further is centred or set right.
_DEEP_INDENT = 4.0


def _set_in_over_margin(last: Line, line: Line, size: float, left: float, right: float) -> bool:
    """Whether ``last``, set in deeper than a first-line indent and stopping short of the
    measure's end, ends its paragraph before ``line``, which starts at the margin (``left``),
    well left of it: a paragraph's lines start at its margin but for the first, and a first
    line indented this deep would have taken ``line``'s first word (a title block's centred
    e-mail line over an abstract run in at the margin, "Abstract. The ...").  A centred
    title's lines, none at the margin, are left to _centred_break ("(informative)" over
    "Guidance on the application" under an annex's label)."""
    if line.rtl or last.rtl or last.words[-1].text[:1].islower() and line.text[:1].islower():
        return False  # (a sentence running on in lower case: a centred paragraph set narrower)
    first = line.words[0]
    return line.x0 <= left + 0.5 * size and last.x0 - line.x0 >= _DEEP_INDENT * size \
        and last.x1 + 0.5 * size + (first.x1 - first.x0) < right - size


def _centred_on(line: Line, middle: float) -> bool:
    return abs((line.x0 + line.x1) / 2 - middle) <= 0.5 * line.size


def _centred_under(last: Line, line: Line) -> bool:
    """Whether ``line`` is centred under ``last`` and shorter, ``last`` ending no sentence: a
    centred title wrapped ("VALVE ACTUATOR HAVING A MANUAL" over "OVERRIDE"), not a paragraph's
    first line indented after a full one (whose middle is right of the full line's).  Not a
    title of its own under a paragraph's last line: a section's label ("CHAPTER II", "Article
    4") or a line in capitals under one that is not ("GENERAL PROVISIONS" under "... of the
    market, and in particular")."""
    return abs((line.x0 + line.x1) - (last.x0 + last.x1)) / 2 <= 0.3 * line.size \
        and line.x1 < last.x1 - line.size and not last.text.rstrip().endswith(SENTENCE_END) \
        and not section_label(line.text) and not (_capitals(line.text) and not _capitals(last.text))


def _capitals(text: str) -> bool:
    """Whether ``text``'s letters are capitals, two or more (scripts without case are not)."""
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) >= 2 and all(ch.isupper() for ch in letters)


def _hangs_under_value(block: Draft, line: Line) -> bool:
    """Whether ``line`` starts where a word of the block's one line starts that stands a tab
    after the word before it, the block's first word a code or a number: a field's value
    wrapped under itself ("(72)  Inventors:  Anna Müller, Munich (DE); Mary" over "Jones,
    Austin, TX (US)", set bold), a patent's front page as the offices set it."""
    first = block.lines[0]
    if len(block.lines) != 1 or len(first.words) < 2 or not _FIELD_MARK.match(first.words[0].text):
        return False
    return any(abs(line.x0 - word.x0) <= 1.0 and word.x0 - before.x1 > 0.5 * first.size
               for before, word in zip(first.words, first.words[1:], strict=False))


# What opens a field set with a hanging indent: a code in parentheses ("(54)", INID codes are
# two figures).  Not an item's number: a bold numbered item's one line over a paragraph set
# with a first-line indent at its text's start would take the paragraph in (tests/pdf_cases.py,
# bold_numbered_items).
_FIELD_MARK = re.compile(r"^\(\d{2}\)$")


def _is_bullet(word: Word) -> bool:
    """A bullet or item number set apart from its item's text (a hanging indent)."""
    if len(word.text) == 1 and (bool(_BULLET.match(word.text + " x")) or _symbol_font(word.font)):
        return True
    return bool(ITEM_NUMBER.match(word.text + " x"))


def _symbol_font(font: str) -> bool:
    lower = font.lower()
    return any(name in lower for name in _SYMBOL_FONTS)


def _line(words: list[Word], page: int, rtl_page: bool | None) -> Line:
    mixed = rtl_page is not None and any(has_rtl(w.text) for w in words)
    rtl = mixed and (rtl_page or rtl_line([w.text for w in words]))
    if rtl:  # a Hebrew or Arabic line: its words in reading order
        words = logical_words(words)
    elif mixed and len(words) > 1:  # a left-to-right line quoting right-to-left words
        words = ltr_order(words, [w.text for w in words])
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
    if first.small_caps:  # (its lower-case letters are capitals set smaller: set at its capitals' size)
        size = round(first.size, 1)
    return Line(words, x0, top, x1, bottom, size, bold_chars >= 0.7 * total, page,
                italic=italic_chars >= 0.7 * total, rtl=rtl)


# ---------------------------------------------------------------------- running lines


def _running_key(text: str) -> str:
    return " ".join(_DIGITS.sub("#", text.lower()).split())


def _recurring_key(key: str) -> str:
    """A running line's key without a page number at either end: facing pages set the number
    at the outer edge, and where it shares a line with the running title that line reads
    "16 FY 2011 Annual Report" on even pages and "FY 2011 Annual Report 17" (or the title
    alone, the number a line of its own) on odd ones -- one running footer, not a heading on
    every other page.  A page number's key ("#", "page # of #") stays as it is."""
    if _PAGE_NUMBER.match(key):
        return key
    words = key.split()
    while len(words) > 1 and words[0] == "#":
        words = words[1:]
    while len(words) > 1 and words[-1] == "#":
        words = words[:-1]
    return " ".join(words)


def _recurring_groups(candidates: list[tuple[Line, str, str]]) -> dict[tuple[str, str], list[Line]]:
    """The band's candidates by band and recurring key (_recurring_key); a key's lines whose
    end numbers are no page numbers (_numbered_by_page) by band and their own text instead."""
    by_key: dict[tuple[str, str], list[Line]] = defaultdict(list)
    for line, band, key in candidates:
        by_key[(band, _recurring_key(key))].append(line)
    for (band, key), group in list(by_key.items()):
        if not _PAGE_NUMBER.match(key) and not _numbered_by_page(group):
            del by_key[(band, key)]
            for line in group:
                by_key[(band, " ".join(line.text.lower().split()))].append(line)
    return by_key


def _numbered_by_page(group: list[Line]) -> bool:
    """Whether the numbers that the lines of one recurring key hold at an end (which
    _recurring_key leaves out as page numbers) are their pages' numbers: on two pages in a
    row they go up as the pages do ("Annual Report 16", "Annual Report 17"), as the printed
    numbers of pages do whatever their offset from the file's ("16" on the file's page 18).
    A heading that opens pages at the running head's height holds a number of its own that
    does not ("Article 2" on page 2, "Article 4" on page 3, "Article 6" on page 4): its lines
    run on no page.  Lines on pages apart agree when their numbers lie no further apart than
    their pages, and one at least ("Article 2" on page 2 and "Article 6" on page 4 do not): a
    page's number runs ahead of no page, but falls behind the pages left unnumbered and
    uncounted between (a book's plates, a full-page picture between each two pages of text,
    "7" and "8" two pages apart).  True where no two numbered lines stand on different pages
    (nothing says otherwise), where the pairs that agree are as many as those that do not (a
    report of two parts numbered from 1 each), and where a line of more than a label goes up
    by two on every page (its columns numbered)."""
    numbered = sorted((line.page, int(match.group()))
                      for line in group if (match := _END_NUMBER.search(line.text)) is not None)
    pairs = [(next_number - number, next_page - page) for (page, number), (next_page, next_number)
             in zip(numbered, numbered[1:], strict=False) if next_page > page]
    steps = [step for step, apart in pairs if apart == 1]
    # (Two a page on every page is a page's two columns numbered, "1 US 10,682,967 B2" then "3
    # US 10,682,967 B2" over a patent's columns, where the line says more than a label: a
    # label and its number, "Article 2", "Article 4", are headings whatever their steps.)
    if steps and all(step == 2 for step in steps) and len(group[0].text.split()) > 2:
        return True
    agree = sum(1 for step, apart in pairs if 1 <= step <= apart)
    return agree >= len(pairs) - agree


def _entry_numbers(group: list[Line], lines: dict[int, list[Line]], repeated: set[int]) -> set[int]:
    """The lines of a number of parts alone (one recurring key's, "#.#.#") that number an entry
    of the text rather than a page: a technical standard's term number set over its term at the
    head of a page ("3.1.4" over "rated voltage"), which recurs at the height where every page's
    text starts as a running page number does.  Such a line heads the text under it: the next
    line starts where it starts, a line's pitch below, in its size, and is no running line nor
    a text repeated at its height on another page (``repeated``: a header's running title under
    its page number).  Else the pages' sequence
    tells: a page number goes up by one on the next page ("3-12", "3-13"; "4-1" as a chapter
    starts); numbers on pages in a row that never do so number no pages ("3.1.1" then "3.1.4").
    A chapter's page number with nothing on a neighbouring page to tell stays one, and a
    number the same on two pages numbers no entry (a running date "07.12.2026", a version "1.0")."""
    parsed = [(line, [int(part) for part in _DIGITS.findall(line.text)]) for line in group]
    numbered: dict[int, list[list[int]]] = defaultdict(list)
    for line, parts in parsed:
        numbered[line.page].append(parts)
    entries: set[int] = set()
    for line, parts in parsed:
        if sum(parts in numbered[page] for page in numbered) >= 2:
            continue  # the same on pages apart: a running date or version ("07.12.2026", "1.0")
        if _heads_entry(line, lines[line.page], repeated):
            entries.add(id(line))
            continue
        before, after = numbered.get(line.page - 1, []), numbered.get(line.page + 1, [])
        if (before or after) and not any(_page_step(other, parts) for other in before) \
                and not any(_page_step(parts, other) for other in after):
            entries.add(id(line))
    return entries


def _page_step(before: list[int], after: list[int]) -> bool:
    """Whether two pages' numbers of parts follow as the printed numbers of two pages in a row
    do: the last part one up, the others the same; or a new chapter's first page."""
    if len(before) != len(after) or not before:
        return False
    if before[:-1] == after[:-1]:
        return after[-1] == before[-1] + 1
    return after[:-1] > before[:-1] and after[-1] <= 1


def _heads_entry(line: Line, page: list[Line], repeated: set[int]) -> bool:
    """Whether the line under ``line`` starts where it starts, in its size, a line's pitch below,
    and is text of the page's own, no running line (see _entry_numbers)."""
    below = [other for other in page if other.top > line.top + 0.5 * line.height
             and other.x0 <= line.x1 and line.x0 <= other.x1]
    if not below:
        return False
    under = min(below, key=attrgetter("top"))
    # (And the entry goes on under that line, as a term's definition under the term: a
    # header's second line, a running section title that changes from page to page under a
    # chapter's page number "3-12", stands clear of the text under it.)
    on = [other for other in page if other.top > under.top + 0.5 * under.height
          and other.x0 <= under.x1 and under.x0 <= other.x1]
    return under.kind == "body" and id(under) not in repeated \
        and abs(under.x0 - line.x0) <= max(1.0, 0.2 * line.size) \
        and abs(under.size - line.size) <= 0.15 * line.size \
        and under.top - line.top <= _ENTRY_PITCH * max(line.size, under.size) \
        and bool(on) and min(other.top for other in on) - under.top \
        <= _ENTRY_GOES_ON * _ENTRY_PITCH * max(under.size, line.size)


def mark_running(layouts: list[PageLayout], lines: dict[int, list[Line]],
                 artifacts: dict[int, list[TaggedRegion]] | None = None,
                 tables: dict[int, list[FoundTable]] | None = None) -> None:
    """Mark lines in the top and bottom bands that recur across pages, or are page numbers,
    as ``header`` or ``footer``, but for a table's header row repeated over its rows on the
    page (``tables``, by page number: see extractors.pdf_running_table_heads); and, in a
    document of two pages or more, lines a tagged page marks as artifacts (``artifacts``, by
    page number) above or below all its other lines."""
    candidates: list[tuple[Line, str, str]] = []
    # Where each line's page starts: the top of the page a spread's half was set under
    # (pdf_spreads) is that half's own top.
    offset: dict[int, float] = {}
    for layout in layouts:
        if not layout.stacked:
            candidates += _band_candidates(lines[layout.number], 0.0, layout.height)
        for top, bottom in layout.stacked:
            page = [line for line in lines[layout.number] if top <= line.top < bottom]
            offset.update((id(line), top) for line in page)
            candidates += _band_candidates(page, top, bottom - top)
    _feet_aligned(layouts, candidates, offset)
    pages_with_text = sum(1 for layout in layouts if lines[layout.number])
    needed = max(2, round(_RECUR_SHARE * pages_with_text))
    by_key = _recurring_groups(candidates)
    numbers: list[tuple[Line, str]] = []
    chapters: list[tuple[str, str, Line, set[int]]] = []  # recurring on too few pages alone
    # (Numbers of parts last: whether one heads an entry asks whether the line under it is a
    # running line, such as the running title under a page number in a header of two lines.)
    keys = sorted(by_key, key=lambda band_key: bool(_PARTS_NUMBER_KEY.match(band_key[1])))
    repeated: set[int] = set()
    for band, key in keys:
        group = by_key[(band, key)]
        page_number = (bool(_PAGE_NUMBER.match(key)) and "#" in key) or bool(_ROMAN.match(key))
        entries = _entry_numbers(group, lines, repeated) if _PARTS_NUMBER_KEY.match(key) else set()
        for line in group:
            if id(line) in entries:
                continue
            recurring = {other.page for other in group
                         if abs(other.top - offset.get(id(other), 0.0) - line.top + offset.get(id(line), 0.0))
                         <= _SAME_HEIGHT}
            if len(recurring) >= needed and key.strip("# "):
                line.kind = band
            elif page_number:
                numbers.append((line, band))
            elif len(recurring) >= 2 and key.strip("# "):
                chapters.append((band, key, line, recurring))
                repeated.add(id(line))
    _mark_chapter_running(chapters, needed, offset)
    banded = {id(line): band for line, band, _ in candidates}
    _mark_running_slots(candidates, lines, offset)
    for line, band in numbers:
        # A figure at the head of a page on one baseline with two or more other body lines is
        # a cell of a table row (a table continued from the page before), not a page number.
        if (band == "footer" or _row_cells(line, lines[line.page]) < 2) \
                and not _wraps_display_line(line, lines[line.page]):
            line.kind = band
            if band == "footer":
                _footer_beside(line, lines[line.page], banded)
    # (Before the artifacts: a tagged page that marks its table's header row repeated as an
    # artifact says so itself.)
    keep_table_heads(layouts, lines, tables or {})
    # Like the recurrence above, artifacts make running lines only in a document of two pages
    # or more: a one-page document's letterhead or title, drawn in its page header and marked
    # as an artifact, is written nowhere else.
    if pages_with_text >= 2:
        for number, drawn in (artifacts or {}).items():
            _mark_artifacts(lines.get(number, []), drawn)
    _keep_column_lines([lines[layout.number] for layout in layouts])


# A line of text stands under (over) the one before (after) it in its paragraph within this
# many of its sizes, and its left edge within this many sizes of that line's.
_TEXT_LEADING = 0.6
_TEXT_INDENT = 1.5


def _keep_column_lines(pages: list[list[Line]]) -> None:
    """A line marked running that the column's text goes on past -- a body line under a footer
    line (over a header line), in its column and size at its paragraph's leading -- is a line of
    that text: a running line stands outside the text block.  Two columns of one justified
    paragraph set again and again ("The estimated burden includes ...") may put its same line
    at the same height on two pages, in one column on one and in the other on the next, where
    recurrence alone reads it as a footer.  The two lines read on as one sentence's (the upper
    ends no sentence, the lower opens in lower case): a running title's line beside the
    band's other line that varies from page to page ("Chapter 2 How the money was spent" over
    "Annual Report 2025", a disclaimer over "Chapter 2 | page 4") stays running.  From the
    block's edge inwards, a line kept making the next one's neighbour."""
    for page, (band, below) in itertools.product(pages, (("footer", True), ("header", False))):
        marked = sorted((line for line in page if line.kind == band), key=attrgetter("top"),
                        reverse=below)
        for line in marked:
            if any(other.kind == "body" and abs(other.size - line.size) <= 0.3
                   and abs(other.x0 - line.x0) <= _TEXT_INDENT * line.size
                   and min(other.x1, line.x1) - max(other.x0, line.x0) > 0.5 * (line.x1 - line.x0)
                   and 0 <= ((other.top - line.bottom) if below else (line.top - other.bottom))
                   <= _TEXT_LEADING * line.size
                   and _sentence_goes_on(*((line, other) if below else (other, line)))
                   for other in page):
                line.kind = "body"


def _sentence_goes_on(upper: Line, lower: Line) -> bool:
    """Whether ``lower`` goes on the sentence ``upper`` leaves open: ``upper`` ends no sentence
    and ``lower`` opens in lower case."""
    return not upper.text.rstrip().endswith(SENTENCE_END) and lower.text.lstrip()[:1].islower()


def _feet_aligned(layouts: list[PageLayout], candidates: list[tuple[Line, str, str]],
                  offset: dict[int, float]) -> None:
    """Footer lines measured from their page's foot: on a page of another height than most (a
    landscape page among portrait ones, a Letter page in an A4 document) the footer stands as
    far above the foot as on the others, not at the same height from the top (its "B-3" would
    otherwise recur nowhere and be read into the text).  As an offset for each footer-band
    line, like a spread's half's top."""
    heights = Counter(layout.height for layout in layouts if not layout.stacked)
    if len(heights) < 2:
        return
    common = heights.most_common(1)[0][0]
    height = {layout.number: layout.height for layout in layouts if not layout.stacked}
    for line, band, _ in candidates:
        if band == "footer" and height.get(line.page, common) != common:
            offset[id(line)] = height[line.page] - common


# A running line's piece of a row is read with the body text a tab after it: within this many sizes.
_TAB_REACH = 4.0


def _keep_line_starts(page: list[Line]) -> None:
    """A line marked running that the body text on its row follows a tab's width to its right
    is that text's start, not a running line: a paragraph's number set before a tab at the
    head of a column ("[0009]" then "FIG. 2 is ...", a number at the head of other columns
    too, which recurs there as a running header's would)."""
    for line in page:
        if line.kind == "body":
            continue
        middle = (line.top + line.bottom) / 2
        if any(other.kind == "body" and 0 <= other.x0 - line.x1 <= _TAB_REACH * line.size
               and abs((other.top + other.bottom) / 2 - middle) <= 0.3 * line.height for other in page):
            line.kind = "body"


def _mark_chapter_running(chapters: list[tuple[str, str, Line, set[int]]], needed: int,
                          offset: dict[int, float]) -> None:
    """Running lines that change with the chapter: each text recurs on a few pages only (its
    chapter's), too few to count alone, but two texts or more at one height in one size, in
    one band, together recur on enough pages ("Annual report 2024 | Housing" over the housing
    chapter's pages, "... | Transport" over the next chapter's).  A page's own text does not
    repeat word for word on the next page at the same height.

    A line's slot is the lines of its band within _SLOT_HEIGHT of its height and half a point
    of its size.  The slots are counted in one pass down the heights per band and size, a
    window of the lines of the sizes near it sliding down with counts of their texts and
    pages: a long document's chapter lines are not each compared with all the others."""
    heights = [line.top - offset.get(id(line), 0.0) for _, _, line, _ in chapters]
    by_size: dict[tuple[str, float], list[int]] = defaultdict(list)
    for at, (band, _, line, _) in enumerate(chapters):
        by_size[(band, line.size)].append(at)
    # Each line's slot when it holds two texts on enough pages: (the positions of its band's
    # lines of near sizes, by height; where its slot starts and ends among them).
    full: dict[int, tuple[list[int], int, int]] = {}
    for (band, size), members in by_size.items():
        near = sorted((at for (other_band, other_size), others in by_size.items()
                       if other_band == band and abs(other_size - size) <= 0.5 for at in others),
                      key=heights.__getitem__)
        texts: Counter[str] = Counter()
        pages: Counter[int] = Counter()
        start = end = 0
        for at in sorted(members, key=heights.__getitem__):
            # (A difference of heights, as the slot's test takes it: the window's edges move
            # down monotonically with the height, a line's own always inside it.)
            while end < len(near) and heights[near[end]] - heights[at] <= _SLOT_HEIGHT:
                _, text, _, on = chapters[near[end]]
                texts[text] += 1
                pages.update(on)
                end += 1
            while heights[near[start]] - heights[at] < -_SLOT_HEIGHT:
                _, text, _, on = chapters[near[start]]
                _uncount(texts, [text])
                _uncount(pages, on)
                start += 1
            if len(texts) >= 2 and len(pages) >= needed:
                full[at] = (near, start, end)
    # In the lines' order, as each line's slot was marked whole when the line was still body.
    for at, (band, _, line, _) in enumerate(chapters):
        if line.kind != "body" or at not in full:
            continue
        near, start, end = full[at]
        for other in near[start:end]:
            chapters[other][2].kind = band


def _uncount(counts: Counter[Any], keys: Iterable[Any]) -> None:
    """Take one of each of ``keys`` out of ``counts``, those at none out of it."""
    for key in keys:
        counts[key] -= 1
        if not counts[key]:
            del counts[key]


def _mark_running_slots(candidates: list[tuple[Line, str, str]], lines: dict[int, list[Line]],
                        offset: dict[int, float]) -> None:
    """A page's first line (or last) standing where other pages' running header (footer) stands
    -- at its height, in its size -- is that page's running line even when its words differ:
    facing pages carry different running heads ("3. | INFORMATION ON SPECIFIC ZOONOSES" on odd
    pages, "Salmonella | 3.1." on even ones; a report's title on the left, its chapter's on the
    right), and a section's own heading never sits in the margin above the text block at the
    running head's height in its type.  Only where the recurrence above found running lines
    on two pages or more, and only on a page with none of its own there."""
    slots: dict[str, list[Line]] = defaultdict(list)
    for line, band, _ in candidates:
        if line.kind == band:
            slots[band].append(line)
    if not slots:
        return
    pages = {band: {other.page for other in found} for band, found in slots.items()}
    for line, band, _ in candidates:
        same_band = slots.get(band, [])
        if line.kind != "body" or len(pages.get(band, ())) < 2 or line.page in pages[band]:
            continue
        here = line.top - offset.get(id(line), 0.0)
        if not any(abs(other.top - offset.get(id(other), 0.0) - here) <= _SLOT_HEIGHT
                   and abs(other.size - line.size) <= 0.5 for other in same_band):
            continue
        page = [other for other in lines[line.page] if other.kind == "body"
                and offset.get(id(other), 0.0) == offset.get(id(line), 0.0)]
        edge = min(page, key=attrgetter("top")) if band == "header" else max(page, key=attrgetter("bottom"))
        if edge is line:
            line.kind = band


def _footer_beside(number: Line, page: list[Line], banded: dict[int, str]) -> None:
    """What stands in the footer band beside a page number runs with it ("Annex   209",
    "208   Global Report": a one-page document's footer, which no other page repeats)."""
    for other in page:
        if other.kind == "body" and banded.get(id(other)) == "footer" \
                and abs(other.top - number.top) <= _SAME_HEIGHT:
            other.kind = "footer"


def _band_candidates(page: list[Line], top: float, height: float) -> list[tuple[Line, str, str]]:
    """A page's lines that may run on every page: (line, "header" or "footer", its key).
    Below a deep top margin a running header may stand lower than the band: the page's first
    line (and likewise its last) is a candidate wherever it stands; recurring on other pages
    at the same height makes it a running line, as in the band."""
    first = min(page, key=attrgetter("top"), default=None)
    last = max(page, key=attrgetter("bottom"), default=None)
    out = []
    for line in page:
        upper = line.top - top < 0.5 * height
        if line.top - top < _BAND * height or (line is first and upper):
            out.append((line, "header", _running_key(line.text)))
        elif line.bottom - top > (1 - _BAND) * height or (line is last and not upper):
            out.append((line, "footer", _running_key(line.text)))
    return out


def _wraps_display_line(line: Line, page: list[Line]) -> bool:
    """Whether a bare figure is set in display type (well above the page's commonest size)
    directly under a line of its own size: the end of a title wrapped onto a second line
    ("Housing Supply, England:" over "2025"), not a page number, which is never set so."""
    sizes: Counter[float] = Counter()
    for other in page:
        sizes[round(other.size * 2) / 2] += len(other.text)
    if not sizes or line.size < _DISPLAY_FIGURE * sizes.most_common(1)[0][0]:
        return False
    return any(other is not line and abs(other.size - line.size) <= 0.1 * line.size
               and -0.2 * line.size <= line.top - other.bottom <= 0.6 * line.size
               and other.x0 <= line.x1 and line.x0 <= other.x1 for other in page)


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


# A document whose lines outside its tables hold less than this share of its tables' text
# has its body in its tables (_tabled_style).
_TABLED_SHARE = 0.25


def _body_style(lines: list[Line]) -> Style:
    sizes, families = _commonest([line.words for line in lines])
    if not sizes:
        return Style(10.0, False)
    body = sizes.most_common(1)[0][0]
    bold: Counter[bool] = Counter()
    for line in lines:
        if abs(round(line.size * 2) / 2 - body) <= 0.5:
            bold[line.bold] += len(line.text)
    return Style(body, bold[True] > bold[False], families.most_common(1)[0][0])


def _commonest(groups: list[list[Word]]) -> tuple[Counter[float], Counter[str]]:
    """Characters by font size (to half a point) and by font family, of the words of
    ``groups`` (a page's lines' words, or one list)."""
    # Every word of the document comes here: its text is only put with its (size, font), one
    # list call a word; the sums, the rounding and the families are per (size, font), of which
    # a document has few.  (The keys come in the words' order, so the Counters' equal counts
    # keep the first-met order most_common() breaks ties by.)
    texts: defaultdict[tuple[float, str], list[str]] = defaultdict(list)
    for words in groups:
        for word in words:
            texts[word.size, word.font].append(word.text)
    sizes: Counter[float] = Counter()
    families: Counter[str] = Counter()
    for (size_pt, font), held in texts.items():
        n = sum(map(len, held))
        size = round(size_pt * 2) / 2
        sizes[size] = sizes.get(size, 0) + n
        family = font_family(font)
        families[family] = families.get(family, 0) + n
    return sizes, families


def _tabled_style(style: Style, lines: dict[int, list[Line]], layouts: list[PageLayout],
                  tables: dict[int, list[FoundTable]]) -> Style:
    """The body style of a document whose text is nearly all in its tables (a form, a data
    sheet: the lines outside them hold under _TABLED_SHARE of the tables' characters): the
    tables' plain cells', when they hold a third of the tables' text.  The few lines outside
    are such a document's headings and notes, and would otherwise make the headings' own
    style the body (docling's right_to_left_03: bold section headings over two tables of
    bold labels and plain values); else ``style``."""
    outside = sum(len(line.text) for page in lines.values() for line in page if line.kind == "body")
    inside = []
    for layout in layouts:
        if tables[layout.number]:
            free = {id(w) for w in _outside(layout.words, tables[layout.number])}
            inside += [w for w in layout.words if id(w) not in free]
    held = sum(len(w.text) for w in inside)
    if not held or outside >= _TABLED_SHARE * held:
        return style
    plain = [w for w in inside if not w.bold]
    if 3 * sum(len(w.text) for w in plain) < held:
        return style
    sizes, families = _commonest([plain])
    return Style(sizes.most_common(1)[0][0], False, families.most_common(1)[0][0])


def _page_style(lines: list[Line], document: Style) -> Style:
    """The body style a page's headings are told against: the document's, unless the page
    runs its own text in another typeface at another size (a brochure or a reprint bound into
    a report: its 7-point serif body under 9-point headings that the report's 10-point body
    would call small).  Only running text sets a page's own body -- a page of code, of table
    figures or of a few labels in another face is still read against the document's (a page
    set in a typewriter face holds code or data, never a body of its own)."""
    lines = [line for line in lines if line.kind == "body"]
    page = _body_style(lines)
    if page.body_family == document.body_family or any(mark in page.body_family for mark in FIXED_PITCH) \
            or abs(page.body_size - document.body_size) < (HEADING_SCALE - 1) * document.body_size:
        return document
    words = [word for line in lines if abs(line.size - page.body_size) <= 0.5
             and font_family(line.words[0].font) == page.body_family for word in line.text.split()]
    lower = sum(1 for word in words if word.isalpha() and word.islower())
    sentences = sum(1 for word in words if word.endswith((".", "?", "!")) and word[:-1].isalpha())
    if len(words) < _PAGE_BODY_WORDS or lower < 0.5 * len(words) or sentences < _PAGE_BODY_SENTENCES:
        return document
    return page


# ---------------------------------------------------------------------- reading order


# A page is tested for columns from this many lines, and this many narrow ones (a slide's from
# fewer: pdf_slides.COLUMN_LINES).
_COLUMN_LINES = 8


def _gutters(lines: list[Line], column_lines: int = _COLUMN_LINES) -> list[tuple[float, float]]:
    """Vertical strips between columns: crossed by (almost) no narrow line, with narrow lines
    on both sides whose right edges mostly end near the strip (a column's edge, not ragged
    labels).  Columns of about equal width first; failing those, a sidebar of running text
    beside a main column (see _sidebar_gutters)."""
    if len(lines) < column_lines:
        return []
    left, right = min(line.x0 for line in lines), max(line.x1 for line in lines)
    width = right - left
    if width < 100:
        return []
    narrow = [line for line in lines if line.x1 - line.x0 < 0.55 * width]
    if len(narrow) >= 0.4 * len(lines) and len(narrow) >= column_lines:
        found = _strips(_below_centred_head(narrow, left, left + width / 2), left, width, _SIDE_SHARE)
        if found:
            return found
    return _sidebar_gutters(lines, left, width)


def _with_columns_of_other_pages(inherited: dict[int, list[tuple[float, float]]],
                                 lines: dict[int, list[Line]],
                                 deck: bool) -> dict[int, list[tuple[float, float]]]:
    """The gutters each page takes from its document's other pages (``inherited``, by page
    number), with those of :func:`_columns_of_other_pages` (none in a deck: its slides each set
    their own columns)."""
    out = {number: list(strips) for number, strips in inherited.items()}
    for number, strips in ({} if deck else _columns_of_other_pages(lines)).items():
        out[number] = out.get(number, []) + strips
    return out


def _columns_of_other_pages(lines: dict[int, list[Line]]) -> dict[int, list[tuple[float, float]]]:
    """For each page whose own lines prove no gutter (see _gutters), the gutters other pages of
    its document proved that its lines agree with (see _agrees_with_columns), by page number.
    A paper's last page whose second column holds the last few references beside a full first
    one proves no gutter of its own (its second side holds too little of the ink), and the
    two columns' lines would be read across, a line of each in turn."""
    bodies = {number: [line for line in page if line.kind == "body"] for number, page in lines.items()}
    own = {number: _gutters(body) for number, body in bodies.items()}
    # The gutters proved, one of each to the point, the most often proved first and no more
    # than _OTHER_PAGES_GUTTERS of them: a document has a layout or two, and a long one whose
    # pages each prove a gutter of their own would otherwise have each page without one try
    # them all (pages times pages).
    proved: Counter[tuple[int, int]] = Counter()
    first: dict[tuple[int, int], tuple[float, float]] = {}
    for found in own.values():
        for strip in found:
            key = (round(strip[0]), round(strip[1]))
            proved[key] += 1
            first.setdefault(key, strip)
    strips = [first[key] for key, _ in proved.most_common(_OTHER_PAGES_GUTTERS)]
    if not strips:
        return {}
    out = {}
    for number, body in bodies.items():
        if not own[number] and (agreed := [strip for strip in strips if _agrees_with_columns(body, strip)]):
            out[number] = agreed
    return out


# A page without a gutter of its own tries at most this many of the gutters other pages proved.
_OTHER_PAGES_GUTTERS = 4
# A page's lines agree with a gutter another page proved when at most this many cross its
# middle (a title across the columns), and each side holds this many lines of running text
# (this many words a line on average), a share of them near the gutter (its column's edge).
_CROSSING_LINES = 2
_SIDE_LINES = 3
_SIDE_WORDS = 3.0
_NEAR_GUTTER = 0.3


def _agrees_with_columns(body: list[Line], strip: tuple[float, float]) -> bool:
    """Whether a page's lines read as columns either side of ``strip``: few cross its middle,
    and on either side lines of running text, enough of them ending near its left edge
    (right of it: starting near its right edge) as a column's lines do -- not a form's labels
    and values, nor a table's cells, ragged or short."""
    middle = (strip[0] + strip[1]) / 2
    if sum(1 for line in body if line.x0 < middle < line.x1) > _CROSSING_LINES:
        return False
    before = [line for line in body if line.x1 <= middle]
    after = [line for line in body if line.x0 >= middle]
    if len(before) < _SIDE_LINES or len(after) < _SIDE_LINES:
        return False
    if any(sum(len(line.words) for line in side) < _SIDE_WORDS * len(side) for side in (before, after)):
        return False
    start, end = min(line.x0 for line in before), max(line.x1 for line in after)
    near_end = [line for line in before if strip[0] - line.x1 <= 0.2 * (strip[0] - start)]
    near_start = [line for line in after if line.x0 - strip[1] <= 0.2 * (end - strip[1])]
    return len(near_end) >= _NEAR_GUTTER * len(before) and len(near_start) >= _NEAR_GUTTER * len(after)


# Each side of a gutter between columns of about equal width holds this share of the narrow
# lines' ink; a sidebar beside a main column (about a third of the width) holds less.
_SIDE_SHARE = 0.2
_SIDEBAR_SHARE = 0.06
# Lines narrower than this share of the text's width may stand in a main column beside a
# sidebar; the sidebar's side holds this many lines of running text (this many words a line
# on average, over half its column's width): a column of figures or of labels is no sidebar.
_MAIN_COLUMN = 0.75
_SIDEBAR_LINES = 8
_SIDEBAR_WORDS = 3.0


def _sidebar_gutters(lines: list[Line], left: float, width: float) -> list[tuple[float, float]]:
    """The gutter between a main column and a sidebar of running text beside it (a designed
    report's "In this section" column, a margin column of notes): one strip, every line
    narrower than most of the width, the lesser side prose."""
    narrow = [line for line in lines if line.x1 - line.x0 < _MAIN_COLUMN * width]
    if len(narrow) < 0.8 * len(lines):
        return []
    found = _strips(narrow, left, width, _SIDEBAR_SHARE)
    if len(found) != 1:
        return []
    middle = sum(found[0]) / 2
    sides = ([line for line in narrow if line.x1 <= middle], [line for line in narrow if line.x0 >= middle])
    lesser = min(sides, key=lambda side: sum(line.x1 - line.x0 for line in side))
    if len(lesser) < _SIDEBAR_LINES:
        return []
    column = max(line.x1 for line in lesser) - min(line.x0 for line in lesser)
    words = sum(len(line.words) for line in lesser) / len(lesser)
    span = sum(line.x1 - line.x0 for line in lesser) / len(lesser)
    return found if words >= _SIDEBAR_WORDS and span >= 0.5 * column else []


def _below_centred_head(narrow: list[Line], left: float, middle: float) -> list[Line]:
    """The narrow lines without those centred on the text's ``middle`` above the columns' first
    line (the first set flush with the text's ``left`` edge): a paper's title block over its two
    columns (the authors, affiliations, e-mail addresses and "Abstract" centred across the
    gutter; the middle one of three authors' blocks side by side), full-width lines, which would
    otherwise outweigh a first page's short columns under them in the gutter."""
    flush = [line.top for line in narrow if line.x1 < middle and line.x0 <= left + line.size]
    if not flush:
        return narrow
    columns_top = min(flush)
    return [line for line in narrow if not (line.bottom <= columns_top and _centred_on(line, middle))]


def _strips(narrow: list[Line], left: float, width: float, side_share: float) -> list[tuple[float, float]]:
    """The strips between columns of ``narrow`` lines (see _gutters), each side holding
    ``side_share`` of their ink or more."""
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
        if x1 - x0 >= 6 and _sides_hold(narrow, coverage, start, b, total, x0, side_share):
            gutters.append((x0, x1))
    return gutters


def _sides_hold(narrow: list[Line], coverage: list[float], start: int, end: int, total: float,
                x0: float, side_share: float) -> bool:
    if sum(coverage[:start]) < side_share * total or sum(coverage[end:]) < side_share * total:
        return False
    before = [line for line in narrow if line.x1 <= x0 + 1]
    column_left = min(line.x0 for line in before)
    near_edge = [line for line in before if x0 - line.x1 <= 0.2 * (x0 - column_left)]
    return len(near_edge) >= 0.3 * len(before) or _justified_after(narrow, x0 + (end - start))


# A column of running text set justified: this many lines of prose end at one right edge.
_JUSTIFIED_LINES = 4
_PROSE_WORDS = 5


def _justified_after(narrow: list[Line], x1: float) -> bool:
    """Whether the lines right of a strip hold a justified paragraph (lines of prose ending at
    one right edge): a column of running text, beside ragged lines that may all stop short of
    the strip (a patent's front page, its fields on the left and its abstract on the right) --
    a form's values or a table's cells right of its labels are set ragged."""
    after = [line for line in narrow if line.x0 >= x1 - 1 and len(line.words) >= _PROSE_WORDS]
    if len(after) < _JUSTIFIED_LINES:
        return False
    edge = max(line.x1 for line in after)
    return sum(1 for line in after if edge - line.x1 <= 1.0) >= _JUSTIFIED_LINES


@dataclass
class _Item:
    """A line or a table, placed in reading order."""

    top: float
    x0: float
    x1: float
    line: Line | None = None
    table: FoundTable | None = None


def _reading_order(lines: list[Line], tables: list[FoundTable], pictures: Sequence[Box] = (),
                   drawings: Sequence[Box] = (), column_lines: int = _COLUMN_LINES,
                   over: set[int] | None = None,
                   proven: Sequence[tuple[float, float]] = ()) -> list[list[_Item]]:
    """Runs of items to be read in order: each column's lines between two full-width
    elements, then the full-width element; tables are runs of their own.  A table of
    contents set in columns is read in its columns, and so is what else stands between its
    entries (an image's caption in one column), above and below it the page as it is."""
    band = _contents_band(lines)
    if band is None:
        # (Lines ``over`` the columns, a slide's title, are not tested: its second line may be
        # centred across the gutter.)
        tested = [line for line in lines if id(line) not in over] if over else lines
        # (Gutters the document's other pages proved hold where the page's own lines are too
        # few on one side to show them: a register's last column of three lines.)
        return _column_runs(lines, tables, _gutters(tested, column_lines) or list(proven), pictures, drawings)
    top, bottom, gutters = band

    def inside(y0: float, y1: float) -> bool:
        return top <= (y0 + y1) / 2 <= bottom

    runs = _reading_order([line for line in lines if (line.top + line.bottom) / 2 < top],
                          [t for t in tables if (t.top + t.bottom) / 2 < top])
    runs += _column_runs([line for line in lines if inside(line.top, line.bottom)],
                         [t for t in tables if inside(t.top, t.bottom)], gutters)
    rest = [line for line in lines if (line.top + line.bottom) / 2 > bottom]
    return runs + _reading_order(rest, [t for t in tables if (t.top + t.bottom) / 2 > bottom])


def _contents_band(lines: list[Line]) -> tuple[float, float, list[tuple[float, float]]] | None:
    """The top and bottom of a table of contents set in columns and the gutters between its
    columns (between one column's entries' right edge and the next one's left edge)."""
    columns: dict[int, list[Line]] = defaultdict(list)
    for line in lines:
        if line.contents is not None:
            columns[line.contents.column].append(line)
    if len(columns) < 2:
        return None
    order = sorted(columns)
    gutters = []
    for left, right in zip(order, order[1:], strict=False):
        x0, x1 = max(line.x1 for line in columns[left]), min(line.x0 for line in columns[right])
        if x1 <= x0:
            return None
        gutters.append((x0, x1))
    entries = [line for column in columns.values() for line in column]
    return min(line.top for line in entries), max(line.bottom for line in entries), gutters


def _column_runs(lines: list[Line], tables: list[FoundTable], gutters: list[tuple[float, float]],
                 pictures: Sequence[Box] = (), drawings: Sequence[Box] = ()) -> list[list[_Item]]:
    items = [_Item(line.top, line.x0, line.x1, line=line) for line in lines] + \
            [_Item(t.top, t.x0, t.x1, table=t) for t in tables]
    rtl = sum(line.rtl for line in lines) > len(lines) / 2  # right-to-left: rightmost first
    if rtl:
        items.sort(key=lambda item: (item.top, -item.x1))
    else:
        side = {} if gutters else {**_side_head_tops(lines), **fields_beside_tops(lines)}
        rows = _row_tops(items)
        items.sort(key=lambda item: (side.get(id(item.line), rows.get(id(item), item.top)), item.x0))

    def column(item: _Item) -> int:
        centre = (item.x0 + item.x1) / 2
        return sum(1 for g0, g1 in gutters if centre > (g0 + g1) / 2)

    across = _rows_across(items, column) if gutters and not rtl else set()

    def spans(item: _Item) -> bool:
        return id(item) in across or any(item.x0 < g0 and item.x1 > g1 for g0, g1 in gutters)

    runs: list[list[_Item]] = []
    columns: dict[int, list[_Item]] = defaultdict(list)
    wide: list[_Item] = []
    # Each item's column, -1 across the columns (a new band's test looks ahead: _band_below).
    placed = [column(item) if gutters and not spans(item) else -1 for item in items]
    right = max((item.x1 for item in items if item.line is not None), default=0.0)
    for at in range(1, len(items)):
        if placed[at] >= 0 and placed[at - 1] < 0 and _wraps_line_across(items, at, right):
            placed[at] = -1
    below = _ColumnsBelow.of(placed)

    def flush_columns() -> None:
        for index in _column_order(columns, rtl):
            runs.extend(_split_tables(columns[index]))
        columns.clear()

    for at, item in enumerate(items):
        if placed[at] < 0 and gutters:
            flush_columns()
            wide.append(item)
            continue
        if wide:
            runs.extend(_split_tables(wide))
            wide = []
        index = placed[at] if gutters else 0
        if gutters and (_starts_band(item, index, columns, pictures, drawings, column)
                        and _band_below(items, placed, below, at)
                        or _heads_next_band(items, placed, below, at, columns)
                        or _heads_columns_below(items, placed, below, at, columns, [*pictures, *drawings])):
            flush_columns()
        columns[index].append(item)
    flush_columns()
    runs.extend(_split_tables(wide))
    return [run for run in runs if run]


def _wraps_line_across(items: list[_Item], at: int, right: float) -> bool:
    """Whether the line item at ``at``, in a column, is the wrapped end of the line across the
    columns right above it: set alike, at its paragraph's leading under it, starting within it,
    alone on its baseline, the line above filling the measure (to within three of its sizes of
    the text's ``right`` edge) and ending no sentence (a point's last word "children." hung
    under its text, left of the gutter that an act's signatures in two columns prove further
    down the page; a notice's head lines, "National Oceanic and Atmospheric Administration"
    over its docket number, stop short).  It is read with the line it ends, not as a column
    of its own."""
    above, item = items[at - 1].line, items[at].line
    if above is None or item is None or not _set_alike(above, item) \
            or above.text.rstrip().endswith(SENTENCE_END) or above.x1 < right - 3 * above.size:
        return False
    gap = item.top - above.bottom
    if not (-0.2 * item.size <= gap <= 0.55 * item.size and above.x0 - 1 <= item.x0 < above.x1):
        return False
    after = items[at + 1] if at + 1 < len(items) else None
    return after is None or after.top > item.bottom - 0.3 * (item.bottom - item.top)


def _row_tops(items: list[_Item]) -> dict[int, float]:
    """Pieces of one row read left to right: lines side by side whose middles are level (a
    field's label and its value at a tab stop, set a size larger) sort by the row's top, not
    each by its own (the larger value's top is higher: it was read before its label).  By
    ``id`` of the items; lines alone in their row are left out."""
    pieces = sorted((item for item in items if item.line is not None),
                    key=lambda item: (item.line.top + item.line.bottom) / 2)  # type: ignore[union-attr]
    tops: dict[int, float] = {}
    row: list[_Item] = []

    def close() -> None:
        if len(row) > 1:
            top = min(item.top for item in row)
            tops.update((id(item), top) for item in row)

    for item in pieces:
        line = item.line
        assert line is not None
        if row:
            first = row[0].line
            assert first is not None
            level = abs((line.top + line.bottom) - (first.top + first.bottom)) / 2 \
                <= 0.25 * min(line.bottom - line.top, first.bottom - first.top)
            if level and not any(other.x0 < item.x1 and item.x0 < other.x1 for other in row):
                row.append(item)
                continue
            close()
        row = [item]
    close()
    return tops


# A side head stands this many of its sizes left of the text column's edge at least, and holds
# this many lines at most (a heading or a label, not a column of text).
_SIDE_GAP = 0.8
_SIDE_HEAD_LINES = 4
# A text line level with a side head's first line starts at most this many of its sizes above it.
_SIDE_REACH = 3.0
# The text column's edge is where this many lines start at least.
_SIDE_COLUMN_LINES = 3


def _side_head_tops(lines: list[Line]) -> dict[int, float]:
    """Side heads, read before the text they sit level with: on a page read as one column, a
    block of a few lines standing wholly left of the edge most lines start at (a heading in a
    narrow column beside its section, as designed reports and forms set them; a number hung in
    the margin) is read just before the first line of that column level with its first line,
    all of its lines together (a side head's second line sits level with the text's second).
    Their sort tops by ``id`` of their lines; the others read by their own."""
    if len(lines) < 2 * _SIDE_COLUMN_LINES:
        return {}
    edge, count = Counter(round(line.x0) for line in lines).most_common(1)[0]
    if count < _SIDE_COLUMN_LINES:
        return {}
    column = sorted((line for line in lines if line.x0 >= edge - 1), key=attrgetter("top"))
    column_tops = [line.top for line in column]
    side = sorted((line for line in lines if line.x1 <= edge - _SIDE_GAP * line.size), key=attrgetter("top"))
    blocks: list[list[Line]] = []
    for line in side:
        last = blocks[-1][-1] if blocks else None
        if last is not None and line.top - last.bottom <= 0.6 * line.size \
                and line.x0 < last.x1 and last.x0 < line.x1:
            blocks[-1].append(line)
        else:
            blocks.append([line])
    tops: dict[int, float] = {}
    for block in blocks:
        first = block[0]
        if len(block) > _SIDE_HEAD_LINES:
            continue
        # (The column's lines level with it start above its foot: the last few before it.)
        level = None
        for at in range(bisect.bisect_left(column_tops, first.bottom) - 1, -1, -1):
            if column[at].top < first.top - _SIDE_REACH * first.size:
                break
            if column[at].bottom > first.top:
                level = column[at]
        if level is None or len(block) == 1 and level.top >= first.top:
            continue
        for at, line in enumerate(block):  # (just before the level line, in their own order)
            tops[id(line)] = min(level.top, first.top) - 0.01 + at * 1e-4
    return tops


def _column_order(columns: dict[int, list[_Item]], rtl: bool) -> list[int]:
    """The order the columns' runs are read in: across the page (from the right on a
    right-to-left page), except that a column whose text all stands above all of an earlier
    one's is read before it (a letter's sender's address set right, over the date and the
    addressee's lines set left: no column layout but two blocks one over the other)."""
    order: list[int] = []
    for index in sorted(columns, reverse=rtl):
        at = len(order)
        while at > 0 and _bottom(columns[index][-1]) <= columns[order[at - 1]][0].top:
            at -= 1
        order.insert(at, index)
    return order


def _starts_band(item: _Item, index: int, columns: dict[int, list[_Item]], pictures: Sequence[Box],
                 drawings: Sequence[Box], column: Callable[[_Item], int]) -> bool:
    """Whether a line may start a new band of the page below columns that ended above it: a
    section's title set after balanced columns (a browser's multi-column layout), over a new
    pair of columns or at the page's foot.  It stands apart from the line above it in its
    column, and every other column's text (or picture, or drawing begun under its text: a
    chart drawn in lines, the ``drawings``' boxes; not a rule across, the foot of a shaded
    box around the text) ended most of a line's height above it (see also _band_below)."""
    if item.line is None or len(columns) < 2 or not columns.get(index):
        return False
    tall = item.line.bottom - item.line.top
    if item.top - _bottom(columns[index][-1]) < tall:
        return False
    for other, held in columns.items():
        if other == index or not held:
            continue
        text_end = _bottom(held[-1])
        if item.top - text_end < _BAND_GAP * tall:
            return False  # (the pictures and drawings below can only carry it further down)
        ended = max([text_end] + [
            bottom for x0, top, x1, bottom in pictures
            if top < item.top and column(_Item(top, x0, x1)) == other] + [
            bottom for x0, top, x1, bottom in drawings
            if text_end - 1 <= top < item.top and column(_Item(top, x0, x1)) == other])
        if item.top - ended < _BAND_GAP * tall:
            return False
    return True


# A row of short items on both sides of a gutter (a band of key figures over a two-column
# body: "$89.3m  $72.3m  $4.6%") is read across, not down the columns, when it has this many
# items, each under _ACROSS_WIDTH of the page's text width, and none of those right of a
# gutter starts where that column's lines start (body text beside it would).
_ACROSS_ITEMS = 3
_ACROSS_WIDTH = 0.25
_COLUMN_EDGE = 3.0  # points: a line starting this close to a column's usual left edge is in it
# A new band starts below columns whose text ended this share of its line's height above it,
# its columns' first lines under it level to within _LEVEL of it.
_BAND_GAP = 0.75
_LEVEL = 1.0


def _rows_across(items: list[_Item], column: Callable[[_Item], int]) -> set[int]:
    """The ids of line items in rows read across the columns (see _ACROSS_ITEMS)."""
    lines = [item for item in items if item.line is not None]
    if not lines:
        return set()
    width = max(item.x1 for item in lines) - min(item.x0 for item in lines)
    edges: dict[int, float] = {}
    starts: dict[int, Counter[int]] = defaultdict(Counter)
    for item in lines:
        starts[column(item)][round(item.x0)] += 1
    for index, counts in starts.items():
        edge, count = counts.most_common(1)[0]
        if count >= 3:
            edges[index] = edge
    out: set[int] = set()
    for row in _baseline_items(lines):
        if len(row) < _ACROSS_ITEMS or any(item.x1 - item.x0 > _ACROSS_WIDTH * width for item in row):
            continue
        placed = [column(item) for item in row]
        if len(set(placed)) < 2:
            continue
        if all(index == 0 or abs(item.x0 - edges.get(index, -math.inf)) > _COLUMN_EDGE
               for item, index in zip(row, placed, strict=True)) \
                and not any(_in_running_text(item, index, lines, width, column)
                            for item, index in zip(row, placed, strict=True)):
            out.update(id(item) for item in row)
    return out


def _in_running_text(item: _Item, index: int, lines: list[_Item], width: float,
                     column: Callable[[_Item], int]) -> bool:
    """Whether a short line item of column ``index`` is set in the column's running text: a
    line of the column stands at the leading right above or below it, wider than a row's
    item (see _ACROSS_WIDTH; a paragraph's short last line, a display equation and its number
    between a paragraph's lines) or starting where it does, set alike (the next item of a
    list, its values set right): the row they happen to make with the other column's is no
    band of key figures, which stands apart from the text, its labels under it set smaller."""
    line = item.line
    assert line is not None
    lead = 0.5 * (line.bottom - line.top)
    return any(column(other) == index and other.line is not None
               and -lead < max(other.top - line.bottom, item.top - _bottom(other)) < lead
               and (other.x1 - other.x0 > _ACROSS_WIDTH * width
                    or abs(other.x0 - item.x0) <= _COLUMN_EDGE and _set_alike(other.line, line))
               for other in lines)


def _baseline_items(items: list[_Item]) -> list[list[_Item]]:
    """Line items (sorted by top) in rows of one baseline."""
    rows: list[list[_Item]] = []
    for item in items:
        line = item.line
        assert line is not None
        last = rows[-1][-1].line if rows else None
        if last is not None and abs(line.bottom - last.bottom) <= 0.3 * (line.bottom - line.top):
            rows[-1].append(item)
        else:
            rows.append([item])
    return rows


def _band_below(items: list[_Item], placed: list[int], below: _ColumnsBelow, at: int) -> bool:
    """The rest of a new band's test (_starts_band) for ``items[at]``, looking down to the next
    line across the columns: every other column that goes on below it starts again only under
    it, level with its own column's next line (to within its height), with no line set as it
    is (a new pair of columns under a title; a column that goes on beside it is one paragraph
    gap that happens to face it, one that starts again well below the other is a drawing
    facing a heading or the next band's column after a full-width title, and one that starts
    again with a heading set as it is is that column's next section, its gap facing the
    heading), and one does, unless nothing follows it in its own column (a title at the
    columns' foot).  A word processor fills the first column down past where the second one
    ends: a sub-heading there, with the second column over, starts no band."""
    index, bottom = placed[at], _bottom(items[at])
    line = items[at].line
    assert line is not None
    tall = line.bottom - line.top
    first = {where: items[next_at] for where, next_at in below.first_below(at).items()}
    others = [item for where, item in first.items() if where != index]
    if not others:
        return index not in first
    own = first.get(index)
    for after in others:
        if after.top < bottom or (own is not None and abs(after.top - own.top) > _LEVEL * tall) \
                or after.line is not None and _set_alike(after.line, line):
            return False
    return True


# Balanced columns end within this many of a line's heights of one another (_heads_columns_below).
_BALANCED = 1.5
# A block at one column's foot, the other columns ended above it and a line across the columns
# under it, starts the next band when it stands this many of its lines' heights below its
# column's text.
_BAND_HEAD_GAP = 2.0
_BAND_HEAD_LINES = 2
# ... under columns of this many lines each at least.
_BAND_HEAD_COLUMN_LINES = 6
# ... or, for the columns beside the block's own, this many.
_BAND_HEAD_SHORT_LINES = 4


def _heads_next_band(items: list[_Item], placed: list[int], below: _ColumnsBelow, at: int,
                     columns: dict[int, list[_Item]]) -> bool:
    """Whether ``items[at]`` opens a block that heads the band under it: the next item across
    the columns follows the block with nothing in the other columns between, their text
    ended above it, and the block stands well apart from the text above it in its own column
    or is lines none of which fills the column (a register notice's department, agency and
    docket lines, set in a one-column section over the notice's title, stand in the first
    column's place under the last notice's balanced columns, level with the second column's
    foot; a first column run on past the second's foot is that column's text, its lines
    full but a paragraph's last)."""
    item, index = items[at], placed[at]
    stop = below.next_across(at)
    if item.line is None or len(columns) < 2 or not columns.get(index) or stop is None:
        return False
    if any(where != index for where in below.first_below(at)):
        return False
    if any(_bottom(held[-1]) > item.top for other, held in columns.items() if other != index and held):
        return False
    # (Columns of running text above it, not a cover's few lines beside a label; at a page's
    # top, under the text run on from the page before, the other column may hold a notice's
    # last few lines, its signature and filing lines.)
    if len(columns[index]) < _BAND_HEAD_COLUMN_LINES \
            or any(0 < len(held) < _BAND_HEAD_SHORT_LINES for held in columns.values()):
        return False
    tall = item.line.bottom - item.line.top
    if item.top - _bottom(columns[index][-1]) >= _BAND_HEAD_GAP * tall:
        return True
    # (A line opening in lower case goes on its column's sentence above it: a paragraph's last
    # line under the other column's foot, "the data needed and completing the form.", over
    # the next notice's head.)
    if item.line.text[:1].islower():
        return False
    block = [items[k].line for k in range(at, stop)]
    # (The block's lines across the columns that start where it does go with it: an agency's
    # name longer than the column.)
    while stop < len(items) and placed[stop] < 0 and items[stop].line is not None \
            and abs(items[stop].x0 - item.x0) <= 1.0:
        block.append(items[stop].line)
        stop += 1
    held = [other.line for other in columns[index] if other.line is not None]
    if len(block) < _BAND_HEAD_LINES or any(line is None for line in block) or not held:
        return False
    edge = max(line.x1 for line in held)
    return all(line is not None and abs(line.x1 - edge) > line.size for line in block)


def _heads_columns_below(items: list[_Item], placed: list[int], below: _ColumnsBelow, at: int,
                         columns: dict[int, list[_Item]], boxes: Sequence[Box]) -> bool:
    """Whether ``items[at]`` opens a block of short lines in one column under balanced columns
    that heads a new pair of columns with no line across the page: the other columns' text
    ended above it and starts again only under the block, level with its own column's next
    line, nothing drawn in the gap (a register notice's department, docket and title, set in
    a one-column section but short enough to fit the first column's width, between one
    notice's columns and the next's).  In running columns the other column goes on beside
    the block, or nothing follows it there (a first column run on past the second's foot)."""
    item, index = items[at], placed[at]
    if item.line is None or len(columns) < 2 or not columns.get(index) or item.line.text[:1].islower():
        return False
    if any(_bottom(held[-1]) > item.top for other, held in columns.items() if other != index and held):
        return False
    if any(0 < len(held) < _BAND_HEAD_COLUMN_LINES for held in columns.values()):
        return False
    first = below.first_below(at)
    others = [items[k] for where, k in first.items() if where != index]
    if not others or first.get(index) is None:
        return False
    tall = item.line.bottom - item.line.top
    resume = min(other.top for other in others)
    own = below.columns[index]
    start = bisect.bisect_right(own, at)
    block = [item] + [items[k] for k in own[start:] if items[k].top < resume - _LEVEL * tall]
    rest = own[start + len(block) - 1:]
    if len(block) < _BAND_HEAD_LINES or not rest or abs(items[rest[0]].top - resume) > _LEVEL * tall:
        return False
    # (The columns above are balanced, each ending within a line and a half of the block's own
    # column above it, as a section's columns are: a newsletter's second column whose story
    # ended lines higher, "Library News" starting level with the first column's text under a
    # contact's short lines, runs on in its column.  Nor does a column going on in lower case
    # with the sentence it broke off above start a new pair of columns.)
    above = _bottom(columns[index][-1])
    if any(held and _bottom(held[-1]) < above - _BALANCED * tall for held in columns.values()) \
            or any(other.line is None or other.line.text[:1].islower() for other in others):
        return False
    held = [other.line for other in columns[index] if other.line is not None]
    edge = max((line.x1 for line in held), default=0.0)
    # (None of its lines fills the column: each stops short of its edge, or reaches past it.)
    if not held or any(piece.line is None or edge - piece.line.size <= piece.line.x1 <= edge + 1.0
                       for piece in block):
        return False
    x0, x1 = min(piece.x0 for piece in block), max(piece.x1 for piece in block)
    return not any(top < resume and bottom > item.top and (left >= x1 or right <= x0)
                   for left, top, right, bottom in boxes)


@dataclass
class _ColumnsBelow:
    """Where the items of each column stand in reading order, and the lines across the
    columns: the first item of each column after an item and before the next line across
    (which ends the band anyway) is found by bisection, not by walking the rest of the page
    for every line that may start a band (_band_below)."""

    columns: dict[int, list[int]]  # column -> positions of its items, in order
    across: list[int]  # positions of the items across the columns, in order

    @classmethod
    def of(cls, placed: list[int]) -> _ColumnsBelow:
        columns: dict[int, list[int]] = defaultdict(list)
        across = []
        for at, where in enumerate(placed):
            if where < 0:
                across.append(at)
            else:
                columns[where].append(at)
        return cls(columns, across)

    def next_across(self, at: int) -> int | None:
        """The position of the first item across the columns after ``at``, if any."""
        next_across = bisect.bisect_right(self.across, at)
        return self.across[next_across] if next_across < len(self.across) else None

    def first_below(self, at: int) -> dict[int, int]:
        """Column -> position of its first item after ``at``, before the next line across."""
        next_across = bisect.bisect_right(self.across, at)
        stop = self.across[next_across] if next_across < len(self.across) else math.inf
        first = {}
        for where, positions in self.columns.items():
            next_at = bisect.bisect_right(positions, at)
            if next_at < len(positions) and positions[next_at] < stop:
                first[where] = positions[next_at]
        return first


def _set_alike(line: Line, other: Line) -> bool:
    """Whether two lines are set alike: one weight, typeface and size (two columns' headings
    of one level)."""
    return line.bold == other.bold and line.face == other.face \
        and abs(line.size - other.size) <= 0.05 * other.size


def _bottom(item: _Item) -> float:
    if item.line is not None:
        return item.line.bottom
    assert item.table is not None
    return item.table.bottom


def _split_tables(items: list[_Item]) -> list[list[_Item]]:
    runs: list[list[_Item]] = [[]]
    for item in items:
        if item.table is not None:
            runs.extend([[item], []])
        else:
            runs[-1].append(item)
    return [run for run in runs if run]


# ----------------------------------------------------------------------------- blocks


def _page_blocks(layout: PageLayout, lines: list[Line], tables: list[FoundTable], style: Style,
                 column_lines: int = _COLUMN_LINES, over: set[int] | None = None,
                 annexes: frozenset[str] = frozenset(),
                 proven: Sequence[tuple[float, float]] = ()) -> list[Draft]:
    body = [line for line in lines if line.kind == "body"]
    drafts: list[Draft] = []
    # (Rules across are no drawing carrying a column down: a shaded box's foot, an underline.)
    drawings = [(r.x0, r.top, r.x1, r.bottom) for r in layout.rulings if r.bottom - r.top > 1]
    runs = _reading_order(body, tables, layout.pictures, drawings, column_lines, over, proven)
    measures = _justified_measures(runs)
    span = (min(line.x0 for line in body), max(line.x1 for line in body)) if body else None
    for at, run in enumerate(runs):
        if run[0].table is not None:
            drafts.append(Draft("table", [], layout.number, table=run[0].table))
            continue
        run_lines = [item.line for item in run if item.line is not None]
        right, justified = _run_measure(run_lines, measures)
        above = runs[at - 1][0].table if at else None
        if above is not None and not _wraps_at_own_measure(run_lines) and _notes_under(run_lines, above):
            right = max(right, above.x1)
        drafts.extend(_group(run_lines, right, style, layout.number, annexes, justified, span))
    unhead_table_rows(drafts, body)
    _unlist_field_codes(drafts)
    return _contents_in_column_order(_merge_contents(drafts))


def _justified_measures(runs: list[list[_Item]]) -> list[tuple[float, float]]:
    """The left and right edges of the page's runs set justified (see _justified_edge)."""
    measures = []
    for run in runs:
        lines = [item.line for item in run if item.line is not None]
        edge = _justified_edge(lines) if lines else None
        if edge is not None:
            measures.append((min(line.x0 for line in lines), edge))
    return measures


def _run_measure(lines: list[Line], measures: list[tuple[float, float]]) -> tuple[float, bool]:
    """The right edge a run's lines are measured against, and whether they are set justified:
    their own longest's, justified when most of them end flush there (_justified_edge); or,
    on a page set in justified columns, for a run of too few lines to show its measure (a
    notice's head lines over its columns, none of them full; a paragraph under a table in a
    column), that of the justified column starting where it starts when it reaches further,
    or the page's last column's when its lines reach past their column.  A run of many lines
    set ragged beside justified columns keeps its own measure, and is not justified."""
    right = max(line.x1 for line in lines)
    if _justified_edge(lines) is not None:
        return right, True
    if not measures or sum(1 for line in lines if len(line.words) >= _PROSE_WORDS) >= _JUSTIFIED_RUN_LINES:
        return right, False
    left = min(line.x0 for line in lines)
    column = [end for start, end in measures if abs(start - left) <= _COLUMN_EDGE]
    if not column:
        return right, False
    # (Past its column's edge: a run across the page, a one-column section's, measured against
    # the widest of the page's columns' ends.)
    edge = max(right, max(end for _, end in measures)) if right > max(column) + 1.0 else max([right, *column])
    return edge, True


def _wraps_at_own_measure(lines: list[Line]) -> bool:
    """Whether a run's lines show a paragraph's measure of their own: two lines or more before
    its last end short of its longest by less than a line stopping short does (_indent_and_short's
    four sizes).  A paragraph under a table wider than the text is so wrapped, and measured
    against the table a line of it ending a sentence would end it; notes under a table, each a
    sentence on a line of its own, stop short of one another."""
    right = max(line.x1 for line in lines)
    return sum(line.x1 >= right - _SHORT_LINE * line.size for line in lines[:-1]) >= 2


def _notes_under(lines: list[Line], table: FoundTable) -> bool:
    """Whether a run of lines right under a table may be its notes: flush with its left edge
    and inside its width.  The table's width is then their measure, not the run's longest
    line: a note and a source each a sentence on a short line of its own stop short of it,
    and are paragraphs apart (else none of their lines is short and they run together).  A
    paragraph under a table wider than it, and any other run, keeps its own measure."""
    size = max(line.size for line in lines)
    return abs(min(line.x0 for line in lines) - table.x0) <= 2 * size \
        and max(line.x1 for line in lines) <= table.x1 + size


# A field's code in parentheses opening a block ("(21) Appl. No.: 17/123,456", "(54) TITLE"):
# INID codes are two figures, 10 to 99.
_FIELD_CODE = re.compile(r"^\(([1-9]\d)\)\s")
# A page holds at least this many such blocks before their order is judged.
_FIELD_CODES = 3


def _unlist_field_codes(drafts: list[Draft]) -> None:
    """Blocks opening with a number in parentheses whose numbers go down in reading order (not
    to one) are fields after their codes, not a list's items nor headings: a patent's front
    page ("(54)" the title, "(72) Inventors:", then "(21) Appl. No.:", "(22) Filed:": the INID
    codes, which follow the fields' order on the page, not a count) -- two figures each, set
    in the fields' size (footnotes apart).  A list's numbers go up (by one, or past a repealed
    paragraph), or start again at one."""
    coded = [(draft, int(match.group(1))) for draft in drafts if draft.lines and draft.kind != "table"
             and (match := _FIELD_CODE.match(draft.lines[0].text))]
    if len(coded) < _FIELD_CODES:
        return
    # (Not the footnotes: a legal act's recitals "(12)", "(13)", "(14)" over a smaller footnote
    # "(15)" numbered through the act are a list, and a footnote's drop is none.)
    sizes = sorted(draft.size for draft, _ in coded)
    coded = [(draft, number) for draft, number in coded if draft.size >= 0.9 * sizes[len(sizes) // 2]]
    numbers = [number for _, number in coded]
    if not any(b < a and b != 1 for a, b in zip(numbers, numbers[1:], strict=False)):
        return
    for draft, _ in coded:
        if draft.kind in ("list_item", "heading"):
            draft.kind, draft.marker, draft.level = "paragraph", "", None
            draft.label = True


# A section number before a title ("2.", "2.1", an annex's "A.1", a lettered section's "A."), for
# matching a contents line with its heading and for an entry's depth by its number: matched on
# a line's own text as on a key in lower case, so its letter in either case.
_LEADING_NUMBER = re.compile(r"^(?:(?:\d{1,2}|[A-Za-z](?=\.\d))(\.\d{1,2}){0,4}\.?|[A-Za-z]\.)\s+")
# A contents without page labels lists at least this many of the headings after it.
_LINK_CONTENTS_ENTRIES = 3
# Entries whose left edges are this close (points) are at one depth.
_CONTENTS_INDENT = 3.0


def _title_key(text: str) -> str:
    return _LEADING_NUMBER.sub("", " ".join(text.split()).lower())


def _list_link_contents(drafts: dict[int, list[Draft]], order: list[int]) -> None:
    """A table of contents without page labels (a web page's "On this page" list of links,
    a report's list of sections): consecutive lines, read as a paragraph, as headings or as
    numbered items, each of which is the title of a heading further on, three or more -- each
    line an item of a list, not a run of text nor headings of their own.  Entries indented
    under others are nested under them (a section's subsections, "2.1 By age group" under
    "2. Governance", which a numbered list's item would otherwise run on into or leave a
    heading).  It runs before the label rules: the contents' title over it ("Contents", set
    like the other sections' headings) is followed by a list, not by short lines of text."""
    flat = [(number, draft) for number in order for draft in drafts[number]]
    # Each heading title's last place in the document: a line names a heading further on when
    # that place is after it (one pass, not a count of the later headings kept per block).
    last_heading = {_title_key(draft.text): index for index, (_, draft) in enumerate(flat)
                    if draft.kind == "heading"}
    run: list[int] = []

    def close() -> None:
        lines = [line for index in run for line in flat[index][1].lines]
        if len(lines) >= _LINK_CONTENTS_ENTRIES:
            edges: list[float] = []
            for x in sorted(line.x0 for line in lines):
                if not edges or x - edges[-1] > _CONTENTS_INDENT:
                    edges.append(x)

            numbered = [_LEADING_NUMBER.match(line.text) for line in lines]

            def depth(line: Line, known: int) -> int:
                if len(edges) >= 2:
                    return 1 + max(i for i, edge in enumerate(edges) if line.x0 >= edge - _CONTENTS_INDENT)
                if any(numbered):  # all at one edge: by the numbering ("2.1" is depth 2)
                    number = _LEADING_NUMBER.match(line.text)
                    return number.group(0).strip().rstrip(".").count(".") + 1 if number else 1
                return known  # (the tags' nesting, else not known)

            for index in run:
                number, draft = flat[index]
                position = next(i for i, d in enumerate(drafts[number]) if d is draft)
                drafts[number][position:position + 1] = [
                    Draft("list_item", [line], number, marker=draft.marker if at == 0 else "",
                          depth=depth(line, draft.depth)) for at, line in enumerate(draft.lines)]
        run.clear()

    for index, (number, draft) in enumerate(flat):
        if draft.kind in ("paragraph", "heading", "list_item") and \
                (not run or flat[run[-1]][0] == number) and \
                all(last_heading.get(_entry_key(line, draft.marker if at == 0 else ""), -1) > index
                    for at, line in enumerate(draft.lines)):
            run.append(index)
            continue
        close()
    close()


def _entry_key(line: Line, marker: str) -> str:
    """A contents line's title, as :func:`_title_key` keys a heading's."""
    return _title_key(_unmarked(line.text, marker))


def _unmarked(text: str, marker: str) -> str:
    """A line's text without its list marker ("1." before "Outlook", a bullet)."""
    return text[len(marker):] if marker and text.startswith(marker) else text


def _contents_in_column_order(drafts: list[Draft]) -> list[Draft]:
    """A table of contents set in text columns read column by column: its entries, in the order
    they were found (each column's top to bottom, left column first), where its first entry
    is; the page's reading order may have interleaved the columns row by row."""
    contents = [draft for draft in drafts if draft.contents is not None]
    if not any(draft.contents is not None and draft.contents.column for draft in contents):
        return drafts
    position = {id(draft): index for index, draft in enumerate(drafts)}
    ordered = sorted(contents, key=lambda d: (d.contents.column if d.contents else 0, position[id(d)]))
    first = min(position[id(draft)] for draft in contents)
    rest = [draft for draft in drafts if draft.contents is None]
    before = [draft for draft in rest if position[id(draft)] < first]
    after = [draft for draft in rest if position[id(draft)] > first]
    return before + ordered + after


def _merge_contents(drafts: list[Draft]) -> list[Draft]:
    """One block per table of contents entry: a page column read as a column of its own (its
    strip between titles and labels looks like a gutter) gives an entry's label a block apart."""
    first: dict[int, Draft] = {}
    out = []
    for draft in drafts:
        if draft.contents is not None and id(draft.contents) in first:
            first[id(draft.contents)].lines.extend(draft.lines)
            continue
        if draft.contents is not None:
            first[id(draft.contents)] = draft
        out.append(draft)
    return out


def _group(lines: list[Line], right: float, style: Style, page: int, annexes: frozenset[str] = frozenset(),
           justified: bool = False, text_span: tuple[float, float] | None = None) -> list[Draft]:
    """Consecutive lines of one column as paragraphs, list items and headings (``annexes``: the
    letters of the document's annexes, see annex_letters; ``justified``: the lines are set
    justified, see _run_measure; ``text_span``, the left and right ends of the page's text)."""
    drafts: list[Draft] = []
    current: Draft | None = None
    left = min((line.x0 for line in lines), default=0.0)
    pitch = _body_pitch(lines, style)
    measure = _centred_measure(lines, text_span)
    for line in lines:
        if line.contents is not None:  # a table of contents entry: a list item, whatever its look
            if current is None or current.contents is not line.contents:
                current = Draft("contents", [], page, contents=line.contents)
                drafts.append(current)
            current.lines.append(line)
            continue
        marker = _list_marker(line)
        if marker and current is not None and _numbers_mid_sentence(current, line, marker, drafts, right):
            marker = ""
        if current is not None and not marker \
                and not (_agenda_line(line) or _agenda_line(current.lines[-1])
                         and next_word_fits(current.lines[-1], line, right)) \
                and (_continues(current, line, left, right, style, pitch, measure)
                     or justified and _crowded_word(current.lines[-1], line, right)) \
                and not (justified and _ends_justified_paragraph(current, line, right)):
            current.lines.append(line)
            continue
        current = Draft("list_item" if marker else "paragraph", [line], page, marker=marker)
        drafts.append(current)
    for draft in drafts:
        classify(draft, style, (left, right), annexes)
    return drafts


# A run of lines is set justified when this many of its lines of prose, and this share of
# them, end flush (to within _FLUSH_END points) at its right edge.
_JUSTIFIED_RUN_LINES = 6
_JUSTIFIED_RUN_SHARE = 0.6
_FLUSH_END = 0.6
# A justified run's line ending a sentence this share of its size short of the run's edge (a
# word space or two: more than a justified line's end strays) ends its paragraph.
_SENTENCE_SHORT = 0.4


def _justified_edge(lines: list[Line]) -> float | None:
    """The right edge a column's run of lines is set justified to (see _JUSTIFIED_RUN_LINES):
    the one most of its lines of prose end at, whatever a line reaching past it does."""
    ends = sorted(line.x1 for line in lines if len(line.words) >= _PROSE_WORDS)
    best, count = None, 0
    for at, end in enumerate(ends):
        flush = bisect.bisect_right(ends, end + _FLUSH_END, lo=at) - at
        if flush > count:
            best, count = end, flush
    if best is None or count < _JUSTIFIED_RUN_LINES or count < _JUSTIFIED_RUN_SHARE * len(ends):
        return None
    return best + _FLUSH_END


def _crowded_word(last: Line, line: Line, right: float) -> bool:
    """Whether ``last``, in a justified run, is one word left alone because the next would not
    fit beside it, and ``line`` goes on in its weight at the paragraph's leading: a bold
    label broken over two lines, "SUPPLEMENTARY" over "INFORMATION: The agency ...", whose
    second line is mostly regular text."""
    return len(last.words) == 1 and line.words[0].bold == last.words[0].bold \
        and abs(line.size - last.size) <= 0.5 \
        and abs(line.x0 - last.x0) <= 1.0 and 0 <= line.top - last.bottom <= 0.55 * last.size \
        and not next_word_fits(last, line, right)


def _ends_justified_paragraph(block: Draft, line: Line, right: float) -> bool:
    """Whether the last line of ``block``, in a justified run, ends its paragraph before
    ``line``: it stops an em or more short of the run's edge (a justified paragraph fills every
    line but its last) and the next line does not go on in lower case -- a register notice's
    department, agency and
    docket lines, a signature's name over its title, none ending a sentence, are a paragraph
    each; so is a short bold line over a regular one (a department's name over its agency's:
    a bold lead-in running into its text fills the measure).  Two bold lines are left to the
    rules for headings (a bold title wraps short) but for one in capitals over one that is
    not (a title wrapped keeps its case)."""
    last = block.lines[-1]
    if line.top < last.bottom - 0.5 * last.size:
        return False  # (beside it: a bold run-in title's text a tab's width to its right)
    if last.bold and line.bold and not (_capitals(last.text) and not _capitals(line.text)):
        return False
    # (A paragraph's lines above, none of them flush with the edge, are set ragged: a column
    # may mix justified paragraphs and ragged ones.  Not a bold block over a line in the body's
    # weight: a title wrapped ragged, as titles are set, over a paragraph opening with a bold
    # label, "AGENCY: Environmental Protection ...", ends where its weight does.)
    if len(block.lines) > 1 and not any(right - above.x1 <= _FLUSH_END for above in block.lines[:-1]) \
            and not (block.bold and not line.bold):
        return False
    # (A line of one word cannot be spread: it is broken short inside a paragraph where the
    # next word would not fit beside it, "SUPPLEMENTARY" over "INFORMATION: The ...".)
    if len(last.words) == 1 and not next_word_fits(last, line, right):
        return False
    # (A line ending a sentence short of the edge by less than an em ends its paragraph too:
    # a justified line is spread to the edge whatever it ends with, "ACTION: Notice; request
    # for nominations." stopping 8 points short of a 9-point column's edge is a last line.)
    short = right - last.x1
    ends = short >= last.size \
        or (short >= _SENTENCE_SHORT * last.size and last.text.rstrip().endswith(SENTENCE_END))
    return ends and not line.text[:1].islower() and abs(line.size - last.size) <= 0.5


def _centred_measure(lines: list[Line], text_span: tuple[float, float] | None) -> tuple[float, float] | None:
    """The page's text span where every line of the run is centred on its middle: a title
    block across the top of a page (the title, authors, affiliations), whose own widest line
    is no measure its lines were wrapped at."""
    if text_span is None or not lines:
        return None
    middle = (text_span[0] + text_span[1]) / 2
    return text_span if all(_centred_on(line, middle) for line in lines) else None


def _numbers_mid_sentence(block: Draft, line: Line, marker: str, drafts: list[Draft], right: float) -> bool:
    """Whether an item number opening ``line`` is a figure its paragraph's sentence wrapped
    before ("... actuate the valve" over "108. The controller ...": a patent's reference
    numeral ending a sentence): the paragraph's last line fills the measure and ends no
    sentence, the line starts where that one does, and no item numbered one less comes before
    it (a list's next item follows its previous one; a list starts at one)."""
    number = marker.strip("().")
    if block.kind != "paragraph" or not number.isdigit() or int(number) <= 1:
        return False
    last = block.lines[-1]
    if last.x1 < right - 3 * last.size or last.text.rstrip().endswith(SENTENCE_END) \
            or abs(line.x0 - last.x0) > 0.8 * line.size:
        return False
    previous = str(int(number) - 1)
    return not any(draft.kind == "list_item" and draft.marker.strip("().") == previous for draft in drafts)


def _list_marker(line: Line) -> str:
    first = line.words[0]
    if len(line.words) > 1 and len(first.text) == 1 and _symbol_font(first.font):
        return first.text
    match = _BULLET.match(line.text) or ITEM_NUMBER.match(line.text)
    return match.group(1) if match else ""


# Paragraphs spaced apart by this share of the body's size or more over the run's line pitch
# (Word's 6 points after a 12-point paragraph: a gap under _continues' half a size).
_PARAGRAPH_SPACE = 0.35


def _body_pitch(lines: list[Line], style: Style) -> float:
    """The commonest step from a body line's foot to the next one's under it in a run of
    lines (to half a point), three times or more (0: not known).  A paragraph spaced from the
    one before by _PARAGRAPH_SPACE of the body's size over that step is no line of it: Word's
    "6 pt after" under 12-point text leaves a gap of 6.5 points, under the half size that
    parts paragraphs otherwise, and a preamble's lines ("THE COUNCIL OF THE EUROPEAN UNION,",
    "Whereas:") end no sentence."""
    steps: Counter[float] = Counter()
    for last, line in zip(lines, lines[1:], strict=False):
        if abs(last.size - style.body_size) <= 0.5 and abs(line.size - last.size) <= 0.2 \
                and 0 < line.bottom - last.bottom < 1.6 * last.size \
                and line.x0 < last.x1 and last.x0 < line.x1:
            steps[round(2 * (line.bottom - last.bottom)) / 2] += 1
    if not steps:
        return 0.0
    step, count = max(steps.items(), key=lambda kv: (kv[1], -kv[0]))
    return step if count >= 3 else 0.0


def _own_pitch(block: Draft, line: Line) -> bool:
    """Whether ``line`` stands under the block's last line by the step of its last two."""
    if len(block.lines) < 2:
        return False
    before, last = block.lines[-2], block.lines[-1]
    return abs((line.bottom - last.bottom) - (last.bottom - before.bottom)) <= 0.5


def _continues(block: Draft, line: Line, left: float, right: float, style: Style, pitch: float = 0.0,
               measure: tuple[float, float] | None = None) -> bool:
    """Whether ``line`` goes on the paragraph (or list item) ``block``; ``measure``, the extent
    centred lines are set within, where not the column's (see _centred_measure)."""
    last = block.lines[-1]
    if LEADERS.search(last.text):
        return False  # a table of contents entry
    if _runs_in(block, line, right) or _value_after_label(block, line):
        return True
    if _next_reference(block, line) or opens_field(block.lines, line, left, right):
        return False  # (a field's line: "Apologies: ..." under "Present: ...", one a line)
    size = min(last.size, line.size)
    gap = line.top - last.bottom
    if gap < -0.5 * size:
        return False  # back up the page
    if gap > 0.55 * max(size, style.body_size * 0.8) and not (
            size >= style.body_size * HEADING_SCALE and line.top - last.top <= _LARGE_LINE_PITCH * size):
        # A paragraph's spacing; but in large type a line without descenders leaves a wide
        # gap to the next one at an ordinary line pitch (a heading wrapped onto two lines).
        return False
    if pitch and abs(line.size - last.size) <= 0.2 and abs(last.size - style.body_size) <= 0.5 \
            and line.bottom - last.bottom >= pitch + _PARAGRAPH_SPACE * size and gap > 0.3 * size \
            and not line.text[:1].islower() and not _own_pitch(block, line):
        # A paragraph's space over the run's line pitch; not a sentence going on in lower case
        # (a line Word lowered for an inline picture or formula), nor the block's own step (a
        # sidebar or quotation set at a larger leading than the body's).
        return False
    if (line.bold != last.bold or line.italic != last.italic
            or (last.face != line.face and not _latin_end(last, line, size))) \
            and not _runs_on(last, line, right) and not _hangs_under_value(block, line):
        # (Another typeface too: a heading set at the body's size in the headings' face, a
        # sans "BACKGROUND" over serif text, as Word's and LibreOffice's lower heading styles
        # set theirs, with no space between them and the text.)
        return False
    if abs(line.size - last.size) > max(0.4, 0.04 * style.body_size) and not _display_wrap(last, line, style):
        return False
    if line.x0 > last.x1 or line.x1 < last.x0:
        return False  # not below it
    if size < style.body_size * HEADING_SCALE \
            and _centred_break(last, line, *(measure or (left, right)), centred_run=measure is not None):
        return False
    if _set_in_over_margin(last, line, size, left, right):
        return False
    if block.kind == "list_item":
        return line.x0 >= min(previous.x0 for previous in block.lines) - 1 \
            or (len(block.lines) == 1 and _wraps_to_margin(last, line, right))
    indented, short = _indent_and_short(last, line, size, left, right)
    if indented and size < style.body_size * HEADING_SCALE and not _hangs_under_title(block, line) \
            and not _hangs_under_value(block, line) and not _centred_under(last, line) \
            and not _hangs_under_reference(block, line):
        return False  # a first-line indent after a full line
    ends = last.text.rstrip().endswith(SENTENCE_END)
    if ends and size >= style.body_size * HEADING_SCALE and _INITIALISM.search(last.text.rstrip()):
        ends = False  # a title wrapped after "the U.S.": an abbreviation's dots end no heading
    # (Hebrew and Arabic have no capitals: their paragraphs end by a gap or an indent, since a
    # line of long words stops short of the column's end inside a paragraph too.)
    return not (short and ends and line.text[:1].isupper())


def _wraps_to_margin(first: Line, line: Line, right: float) -> bool:
    """Whether ``line`` goes on an item whose number is set in a first-line indent, its text
    wrapping to the margin left of the number (a patent's claim, "2. The device of claim 1,
    wherein" over "the housing ..."): the item's line fills the measure and ends no sentence,
    and ``line`` goes on the sentence in lower case."""
    return first.x1 > right - 3 * first.size and not first.text.rstrip().endswith(SENTENCE_END) \
        and line.text[:1].islower() and line.x0 < first.x0


def _runs_on(last: Line, line: Line, right: float) -> bool:
    """Whether ``line``, set in another weight or slant than ``last``, still goes on its
    sentence: ``last`` fills the column's measure and ends no sentence, and ``line`` is in the
    same size and not indented (a quotation or a term set in italics across lines of a
    paragraph).  A heading stops short of the measure, or ends where its text does."""
    size = last.size
    return last.x1 > right - 3 * size and not last.text.rstrip().endswith(SENTENCE_END) \
        and abs(line.size - size) <= 0.5 and line.x0 <= last.x0 + 0.8 * size and not line.rtl


def _display_wrap(last: Line, line: Line, style: Style) -> bool:
    """Whether two lines of display type, a line pitch apart, differ in size only as one title
    wrapped in two: the same typeface within 10% (a title fitted to its box line by line, the
    ladder's tolerance for one style), the first not ending a sentence and the second not
    opening with a section number (a section's heading set right under its chapter's).  A
    subtitle is set clearly smaller than its title, or in another weight or face."""
    return min(last.size, line.size) >= style.body_size * HEADING_SCALE \
        and abs(line.size - last.size) <= 0.1 * max(line.size, last.size) \
        and font_family(line.words[0].font) == font_family(last.words[0].font) \
        and not last.text.rstrip().endswith(SENTENCE_END) and not _SECTION_NUMBER.match(line.words[0].text)


def _value_after_label(block: Draft, line: Line) -> bool:
    """Whether ``line`` is the value a tab after a one-line label ending in a colon on its
    baseline ("(10) Patent No.:" then "US 11,234,567 B2" set bold and larger): one field."""
    last = block.lines[-1]
    return len(block.lines) == 1 and last.text.rstrip().endswith(":") \
        and 0 <= line.x0 - last.x1 <= _TAB_REACH * last.size \
        and abs((line.top + line.bottom) - (last.top + last.bottom)) <= 0.6 * min(line.height, last.height)


def _runs_in(block: Draft, line: Line, right: float) -> bool:
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


def _latin_end(last: Line, line: Line, size: float) -> bool:
    """Whether ``line``, Latin words alone set flush right under the right-to-left line
    ``last``, may be one of its paragraph's lines: the Latin word it ends in, wrapped alone
    onto its last line (in the Latin font a word processor sets Latin words in, another than
    the Hebrew or Arabic text's)."""
    return last.rtl and not line.rtl and abs(line.x1 - last.x1) <= 0.8 * size


def _indent_and_short(last: Line, line: Line, size: float, left: float, right: float) -> tuple[bool, bool]:
    """Whether ``line`` starts indented after a full ``last``, and whether ``last`` stops
    short of the column's end: on the right for left-to-right lines, mirrored for
    right-to-left ones (their first-line indent is on the right, their ragged end on the
    left), and for a line of Latin words that ends a right-to-left paragraph (_latin_end)."""
    if line.rtl or _latin_end(last, line, size):
        return line.x1 < last.x1 - 0.8 * size and last.x0 < left + 3 * size, \
            last.x0 > left + _SHORT_LINE * size
    return line.x0 > last.x0 + 0.8 * size and last.x1 > right - 3 * size, last.x1 < right - _SHORT_LINE * size


# ---------------------------------------------------------------------------- Markdown


def _join_lines(lines: list[Line]) -> str:
    """Lines of a paragraph as one; a line-end hyphen before a lower-case letter keeps its
    line break, for :func:`extractors.text_repair.join_hyphenated` to decide on the word.  A
    word's hyphen before a capital or a digit is a compound's ("Lucene-BM25", "COVID-19"):
    no word is hyphenated there, so the lines join with no space."""
    text = ""
    for line in lines:
        piece = line.text
        if not text:
            text = piece
        elif text.endswith("-") and piece[:1].islower():
            text += "\n" + piece
        elif text.endswith("-") and text[-2:-1].isalnum() and (piece[:1].isupper() or piece[:1].isdigit()):
            text += piece
        else:
            text += " " + piece
    return text


def _render(draft: Draft, style: Style) -> Block:
    if draft.kind == "print_title":  # (a table's header rows repeated over another's rows)
        return Block("header", _join_lines(draft.lines), draft.page, draft.box)
    if draft.kind == "table_continued":
        return Block("table_continued", "", draft.page, draft.box, continues=draft.continues)
    if draft.table is not None:
        return Block("table", draft.table.markdown, draft.page, draft.box, parts=draft.parts)
    if draft.contents is not None:
        return Block("list_item", draft.contents.markdown, draft.page, draft.box)
    text = _join_lines(draft.lines)
    if draft.kind == "heading":
        level = draft.level or 1
        # A heading is one Markdown line: a word broken over its lines is joined here, not left
        # to the page's repair after its line break is gone ("medium- term").  A broken word
        # becomes the word, a compound keeps its hyphen (join_hyphenated), an unknown word too.
        text = join_hyphenated(text).replace("-\n", "-")
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
    return Block("paragraph", _escaped(text), draft.page, draft.box)


def _escaped(text: str) -> str:
    """Prose that Markdown would read as markup ("# of incidents", "> 5 years") escaped."""
    return "\\" + text if text.startswith(("#", ">", "|")) else text


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
