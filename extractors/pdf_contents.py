"""Tables of contents on a PDF page: which lines are the entries of one, at what depth, and
their Markdown (a nested list).  The structure stage (:mod:`extractors.pdf_structure`) keeps
those lines out of its headings and out of its tables.

A contents entry is a row of lines ending in a page label (``12``, ``iv``), reached by

- **dot leaders**: ``2.1 Method ........ 14`` (dots, middle dots, ellipses or underscores), or
- **a page column**: the label alone at the right, apart from the title, its right edge aligned
  with the other entries' labels (a right tab stop without a leader).

A run of entries (a title wrapped over two rows joins the entry below it) is a table of
contents when there is no mistaking it: three or more dot-leader entries (two under a
"Contents" title); or three or more page-column entries whose labels are aligned and do not go
back, under a contents title ("Contents", "Table of Contents", "Inhalt", "Sommaire", ...) or
with most titles numbered as sections or drawn again elsewhere in the document (the headings
they point at).  A table with a column of whole numbers has neither.  On the page after
one with entries, a contents may go on without its title: there two entries are enough, and
one with leaders.  Entries set far apart are spaced evenly: the first gap of a run is judged
by the next.

Depth: by indentation (the distinct left edges of the entries, left to right, over all the
pages of a contents that runs over several); by the section numbering ("2.1" is depth 2) when
all entries start at one edge; by the entries' type when none is numbered either (bold or
larger entries are the parts, two or three types of two entries or more each).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from extractors.pdf_drafts import Line
    from extractors.pdf_words import Word

# A page label: a page number, a roman one, a chapter-page number ("2-14", "A-3": manuals and
# government reports number pages per chapter or appendix) or a page range ("12–15"), after
# an optional "Page" / "p." / "pp." (Word's contents templates, reports' lists of tables).
_LABEL_WORD = r"(?:(?:page|pages|p\.|pp\.)\s?)?"
_LABEL = rf"({_LABEL_WORD}(?:\d{{1,4}}(?:[-–]\d{{1,4}})?|[A-Z][-–]\d{{1,3}}|[ivxlcdm]{{1,7}}))"
_PAGE_LABEL = re.compile(rf"^{_LABEL}$", re.IGNORECASE)
# The same label's parts, for its order (_label_value): a number, or an appendix letter, then a page.
_LABEL_PARTS = re.compile(rf"^{_LABEL_WORD}(?:(\d+)|([A-Z])[-–])?(?:[-–]?(\d+))?$", re.IGNORECASE)
# Title, leaders (three or more dots, spaced or not), page label.
_LEADER_ENTRY = re.compile(rf"^(?P<title>.*?\S)\s*(?:[.·•…‥_]\s?){{3,}}\s*(?P<page>{_LABEL})$", re.IGNORECASE)
_LEADER_WORD = re.compile(r"[.·…‥_]{3,}")
_CONTENTS_TITLE = re.compile(
    r"^\s*(table\s+of\s+contents|contents|content|inhalt|inhaltsverzeichnis|sommaire|"
    r"table\s+des\s+mati[eè]res|[íi]ndice|contenido|inhoud|indholdsfortegnelse|innehåll|spis\s+treści|"
    r"содержание|оглавление|目次|目录|"
    # Lists of figures and tables are contents too: entries, a page column, nothing else.
    r"(list\s+of|table\s+of)\s+(figures|tables|illustrations|charts|maps|exhibits|boxes|graphs|diagrams|plates)"
    r"(\s+and\s+(figures|tables|charts|maps|boxes))?|"
    r"abbildungsverzeichnis|tabellenverzeichnis|liste\s+des\s+(figures|tableaux|illustrations)|"
    r"table\s+des\s+(figures|illustrations))\s*:?\s*$", re.IGNORECASE)
_SECTION_NUMBER = re.compile(r"^((\d{1,2}(\.\d{1,2}){0,4})\.?|[A-Z]\.|[IVX]{1,5}\.)\s+\S")
# An entry of a list of figures or tables: a caption's label and number ("Figure 3:", "Table
# A.2", "Abbildung 4."), then its title.
_CAPTION_ENTRY = re.compile(r"^(figure|fig\.|table|chart|map|exhibit|box|graph|plate|illustration|"
                            r"abbildung|abb\.|tabelle|tab\.|tableau)\s+[A-Z]?\d{1,3}([.-]\d{1,3})*[.:]?\s+\S",
                            re.IGNORECASE)
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
# Page-column labels of one table of contents end within this many points of each other.
_ALIGNED = 4.0
_MIN_ENTRIES = 3


@dataclass
class ContentsEntry:
    """One entry of a table of contents and the lines it is drawn with."""

    title: str  # without leaders and page label
    page_label: str  # "12", "iv"; "" for a part title without one
    lines: list[Line] = field(default_factory=list)
    depth: int = 1

    @property
    def markdown(self) -> str:
        """A Markdown list item, indented two spaces per depth below the first."""
        title = " ".join(self.title.split())
        # "1. Introduction" after "- " would open an ordered list inside the item.
        title = re.sub(r"^(\d{1,3})([.)])(\s)", r"\1\\\2\3", title)
        if title.startswith(("#", ">", "|", "+", "-", "*")):
            title = "\\" + title
        label = f" {self.page_label}" if self.page_label else ""
        return "  " * (self.depth - 1) + f"- {title}{label}"


def contents_title(text: str) -> bool:
    """Whether a line is a table of contents' title ("Contents", "Inhalt", ...)."""
    return bool(_CONTENTS_TITLE.match(text))


def might_hold_contents(words: Sequence[Word]) -> bool:
    """A cheap test before the full one: some words are dot leaders, or three or more bare page
    labels end at one right edge."""
    kinds = [_word_kind(w.text) for w in words]
    if sum(1 for leader, _ in kinds if leader) >= 2:
        return True
    edges = Counter(round(w.x1 / _ALIGNED) for w, (_, label) in zip(words, kinds, strict=True) if label)
    return any(n >= _MIN_ENTRIES for n in edges.values())


@lru_cache(maxsize=1 << 16)
def _word_kind(text: str) -> tuple[bool, bool]:
    """Whether a word is a dot leader, and whether it is a bare page label.  (Cached: every
    word of every page is asked, twice, and the same texts recur.)"""
    return bool(_LEADER_WORD.search(text)), bool(_PAGE_LABEL.match(text))


@lru_cache(maxsize=1 << 16)
def text_key(text: str) -> str:
    """A line's or a title's text for matching an entry to its heading: NFKC, lower case,
    whitespace collapsed, a leading section number dropped.  (Cached: every line of the
    document is keyed, some several times.)"""
    text = " ".join(unicodedata.normalize("NFKC", text).lower().split())
    return re.sub(r"^(\d{1,2}(\.\d{1,2}){0,4}\.?|[a-z]\.|[ivx]{1,5}\.)\s+", "", text)


@dataclass
class _Row:
    lines: list[Line]
    title: str = ""
    page_label: str = ""
    leader: bool = False  # reached by dot leaders (else a page column, or no label)

    @property
    def top(self) -> float:
        return min(line.top for line in self.lines)

    @property
    def bottom(self) -> float:
        return max(line.bottom for line in self.lines)

    @property
    def x0(self) -> float:
        return min(line.x0 for line in self.lines)

    @property
    def label_x1(self) -> float:
        return self.lines[-1].x1

    @property
    def text(self) -> str:
        return " ".join(line.text for line in self.lines)


def find_contents(lines: Sequence[Line], drawn_elsewhere: Callable[[str], bool] | None = None,
                  continued: bool = False) -> list[ContentsEntry]:
    """The entries of the tables of contents among one page's ``lines`` (in the order they
    were given; an empty list when there is none).  ``drawn_elsewhere`` says whether a key
    (:func:`text_key`) is a line's on another page of the document: entries whose title is
    drawn elsewhere point at headings.  ``continued``: the page before ended in a table of
    contents, which may go on here with its last entries and no title (one entry with leaders
    is enough then, as under a contents title two are)."""
    rows = [_read_row(row) for row in _rows(lines)]
    entries: list[ContentsEntry] = []
    start = 0
    while start < len(rows):
        run, end = _run(rows, start)
        if run and _is_contents(run, rows[start - 1] if start else None, drawn_elsewhere or _nowhere,
                                continued):
            entries.extend(_entries(run))
            start = end
        else:
            start += 1
    return entries


def _rows(lines: Sequence[Line]) -> list[list[Line]]:
    """Lines on one baseline, left to right (a title and its page label split apart by a
    wide gap)."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda line: (line.top + line.bottom) / 2):
        centre = (line.top + line.bottom) / 2
        if rows and min(x.top for x in rows[-1]) <= centre <= max(x.bottom for x in rows[-1]):
            rows[-1].append(line)
        else:
            rows.append([line])
    return [sorted(row, key=lambda line: line.x0) for row in rows]


def _read_row(lines: list[Line]) -> _Row:
    row = _Row(lines)
    text = row.text.strip()
    leader = _LEADER_ENTRY.match(text)
    if leader and any(ch.isalpha() for ch in leader.group("title")):
        row.title, row.page_label, row.leader = leader.group("title"), leader.group("page"), True
    elif len(lines) >= 2 and _PAGE_LABEL.match(lines[-1].text.strip()):
        title = " ".join(line.text for line in lines[:-1])
        if any(ch.isalpha() for ch in title) and not _is_number_row(lines[:-1]):
            row.title, row.page_label = title, lines[-1].text.strip()
    return row


def _is_number_row(lines: list[Line]) -> bool:
    """Title parts that are numbers too (a table's figures), not the words of a title."""
    return sum(1 for line in lines if re.fullmatch(r"[\d.,%()\-–+ ]+", line.text)) >= 1


def _run(rows: list[_Row], start: int) -> tuple[list[list[_Row]], int]:
    """Entries from ``rows[start]`` on: each entry is its rows (up to two wrapped title rows
    above the row with the page label).  Returns the entries and the index after them."""
    run: list[list[_Row]] = []
    pending: list[_Row] = []
    index = start
    spacing = 0.0
    while index < len(rows):
        row = rows[index]
        previous = pending[-1] if pending else (run[-1][-1] if run else None)
        if previous is not None:
            gap = row.top - previous.bottom
            height = previous.bottom - previous.top
            if gap < -0.5 * height or (gap > max(2.5 * height, 3 * spacing)
                                       and not (spacing == 0 and _spaced_alike(rows, index, gap, height))):
                break
            spacing = max(spacing, gap)
        if row.page_label:
            run.append([*pending, row])
            pending = []
        elif len(pending) < 2 and run and not _CONTENTS_TITLE.match(row.text):
            pending.append(row)  # a title wrapped onto the next row, or a part title
        else:
            break
        index += 1
    return run, index - len(pending)


def _spaced_alike(rows: list[_Row], index: int, gap: float, height: float) -> bool:
    """Whether the gap above ``rows[index]`` is also the gap below it: entries set far apart
    (generous paragraph spacing) are spaced evenly, so the first gap of a run, which has no
    earlier gap to compare with, is measured against the next."""
    if index + 1 >= len(rows):
        return False
    below = rows[index + 1].top - rows[index].bottom
    return abs(below - gap) <= 0.25 * height + 1.0


def _nowhere(key: str) -> bool:
    return False


def _is_contents(run: list[list[_Row]], above: _Row | None, drawn_elsewhere: Callable[[str], bool],
                 continued: bool = False) -> bool:
    labelled = [entry[-1] for entry in run]
    leaders = sum(1 for row in labelled if row.leader)
    if continued and leaders >= 1 and leaders == len(labelled):
        return True
    if len(labelled) < 2:
        return False
    titled = continued or (above is not None and bool(_CONTENTS_TITLE.match(above.text)))
    if leaders >= _MIN_ENTRIES or (titled and leaders >= 2):
        return True
    column = [row for row in labelled if not row.leader]
    if len(column) < (2 if titled else _MIN_ENTRIES):
        return False
    edges = sorted(row.label_x1 for row in column)
    middle = edges[len(edges) // 2]
    if sum(1 for x in edges if abs(x - middle) <= _ALIGNED) < 0.8 * len(edges):
        return False
    if not _ascending([row.page_label for row in column]):
        return False
    if titled:
        return True
    titles = [" ".join(r.text for r in entry[:-1]) + " " + entry[-1].title for entry in run]
    numbered = sum(1 for t in titles if _SECTION_NUMBER.match(t.strip()) or _CAPTION_ENTRY.match(t.strip()))
    drawn = sum(1 for t in titles if drawn_elsewhere(text_key(t)))
    return max(numbered, drawn) >= 0.5 * len(titles)


def _ascending(labels: list[str]) -> bool:
    """Page labels that mostly do not go back (roman front matter before arabic pages)."""
    values = [_label_value(label) for label in labels]
    back = sum(1 for a, b in zip(values, values[1:], strict=False) if b < a)
    return back <= max(0, (len(values) - 1) // 5)


def _label_value(label: str) -> int:
    """A page label's place in the document: roman front matter, then arabic pages (a
    chapter-page number or a range by its first page: chapter, then page), then appendices'
    lettered pages."""
    parts = _LABEL_PARTS.match(label.strip())
    if parts and (parts.group(1) or parts.group(3)):
        number, letter, page = parts.groups()
        if letter:
            return 1_000_000_000 + (ord(letter.upper()) - ord("A")) * 10_000 + int(page or 0)
        if number and page:
            return 10_000 + int(number) * 10_000 + int(page)
        return 10_000 + int(number or page) * 10_000  # after every roman number
    total, previous = 0, 0
    for ch in reversed(label.lower()):
        value = _ROMAN_VALUES[ch]
        total += -value if value < previous else value
        previous = max(previous, value)
    return total


def _entries(run: list[list[_Row]]) -> list[ContentsEntry]:
    entries = []
    for rows in run:
        last = rows[-1]
        title = " ".join([*(r.text for r in rows[:-1]), last.title])
        lines = [line for row in rows for line in row.lines]
        entries.append(ContentsEntry(title, last.page_label, lines))
    _set_depths(entries, [rows[0].x0 for rows in run])
    return entries


def nest_across_pages(pages: list[tuple[list[ContentsEntry], float]]) -> None:
    """Depths for a table of contents that runs over several pages (each page's entries and
    the left edge of its text), from the indentation of all its entries: one page may hold no
    entry of some depth (a second page that starts inside a section), and its own indentation
    alone would misplace every level.  Pages whose text starts at other left edges (mirrored
    margins) keep their own depths."""
    pages = [(entries, margin) for entries, margin in pages if entries]
    if len(pages) < 2 or max(m for _, m in pages) - min(m for _, m in pages) > 3.0:
        return
    entries = [entry for page, _ in pages for entry in page]
    _set_depths(entries, [entry.lines[0].x0 for entry in entries])


def _set_depths(entries: list[ContentsEntry], lefts: list[float]) -> None:
    """Depth by indentation (left edges within 3 points are one), else by section numbering,
    else by the entries' type: with none numbered, entries set bolder or larger are the parts
    and the others their sections (a booklet's chapters in bold, their sections regular, all
    at one edge)."""
    edges: list[float] = []
    for x in sorted(lefts):
        if not edges or x - edges[-1] > 3.0:
            edges.append(x)
    if len(edges) > 1:
        for entry, x in zip(entries, lefts, strict=True):
            entry.depth = 1 + max(i for i, edge in enumerate(edges) if x >= edge - 3.0)
        return
    numbers = [re.match(r"^(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s", entry.title) for entry in entries]
    for entry, number in zip(entries, numbers, strict=True):
        entry.depth = number.group(1).count(".") + 1 if number else 1
    if not any(numbers):
        _depths_by_type(entries)


def _depths_by_type(entries: list[ContentsEntry]) -> None:
    """Depths from the entries' size and weight, most prominent first, when they are set in
    two or three types, each of two entries or more (one bold entry is emphasis)."""
    def key(entry: ContentsEntry) -> tuple[float, bool]:
        line = entry.lines[0]
        return round(line.size * 2) / 2, line.bold

    counts = Counter(key(entry) for entry in entries if entry.lines)
    if not 2 <= len(counts) <= 3 or min(counts.values()) < 2:
        return
    ranks = sorted(counts, reverse=True)
    for entry in entries:
        if entry.lines:
            entry.depth = ranks.index(key(entry)) + 1
