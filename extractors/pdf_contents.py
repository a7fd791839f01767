"""Tables of contents on a PDF page: which lines are the entries of one, at what depth, and
their Markdown (a nested list).  The structure stage (:mod:`extractors.pdf_structure`) keeps
those lines out of its headings and out of its tables.

A contents entry is a row of lines ending in a page label (``12``, ``iv``), reached by

- **dot leaders**: ``2.1 Method ........ 14`` (dots, middle dots, ellipses or underscores), or
- **a page column**: the label alone at the right, apart from the title, its right edge aligned
  with the other entries' labels (a right tab stop without a leader).

A run of entries (a title wrapped over two rows joins the entry below it) is a table of
contents when there is no mistaking it: three or more dot-leader entries whose labels do not go
back (two under a "Contents" title, going back or not); or three or more page-column entries
whose labels are aligned and do not go back, under a contents title ("Contents", "Table of
Contents", "Inhalt", "Sommaire", ...) or with most titles numbered as sections or drawn again
elsewhere in the document (the headings they point at).  A table with a column of whole numbers
has neither.  On the page after one with entries, a contents may go on without its title: there
two entries are enough, and one with leaders.  Entries set far apart are spaced evenly: the
first gap of a run is judged by the next.

Contents set in two or three text columns are read column by column: a strip no line of the
entries' band crosses, with whole entries (a title and its label on one baseline) on both
sides, parts the page's lines (a row is never an entry of the left column and one of the
right).  A magazine's or annual report's contents may put the page label before the title
(``42  Management Discussion``, a wrapped title's rest under the title): such entries count
only under a contents title (above the columns) or after one such run on the page, three or
more with labels that go up by more than one now and then (a list of sections numbered 1, 2,
3 has labels too), their labels at one or two left edges.

Depth: by indentation (the distinct left edges of the entries, left to right, over all the
pages of a contents that runs over several); by the section numbering ("2.1" is depth 2) when
all entries start at one edge; by the entries' type when none is numbered either (bold or
larger entries are the parts, two or three types of two entries or more each).
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
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
_LEADERS_ONLY = re.compile(rf"^(?:[.·•…‥_]\s?){{3,}}\s*(?P<page>{_LABEL})$", re.IGNORECASE)
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
# A page label, then a title: "42 Management Discussion".
_LEADING_ENTRY = re.compile(rf"^{_LABEL}\s+\S*[^\W\d_]", re.IGNORECASE)
_SECTION_NUMBER = re.compile(r"^((\d{1,2}(\.\d{1,2}){0,4}|[A-Z](\.\d{1,2}){1,4})\.?|[A-Z]\.|[IVX]{1,5}\.)"
                             r"\s+\S")
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
    # Which text column of the page the entry is in (0: the first, or the page has one), and
    # its left edge as if its column were the first (indentation across columns and pages).
    column: int = 0
    left: float | None = None

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
    return re.sub(r"^(\d{1,2}(\.\d{1,2}){0,4}\.?|[a-z](\.\d{1,2}){1,4}\.?|[a-z]\.|[ivx]{1,5}\.)\s+", "", text)


@dataclass
class _Row:
    lines: list[Line]
    title: str = ""
    page_label: str = ""
    leader: bool = False  # reached by dot leaders (else a page column, or no label)
    leading: bool = False  # the label before the title ("42  Management Discussion")

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
    """The entries of the tables of contents among one page's ``lines`` (column by column when
    the contents are set in text columns; an empty list when there is none).  ``drawn_elsewhere``
    says whether a key (:func:`text_key`) is a line's on another page of the document: entries
    whose title is drawn elsewhere point at headings.  ``continued``: the page before ended in
    a table of contents, which may go on here with its last entries and no title (one entry
    with leaders is enough then, as under a contents title two are)."""
    columns = _contents_columns(lines)
    titles = [line for line in lines if _CONTENTS_TITLE.match(line.text)] if len(columns) > 1 else []
    entries: list[ContentsEntry] = []
    for index, column in enumerate(columns):
        rows = [_read_row(row) for row in _rows(column)]
        found = _title_first(rows, drawn_elsewhere or _nowhere, continued, titles)
        if not found:
            found = _label_first(_rows(column), lines, after_contents=bool(entries) or continued)
        for entry in found:
            entry.column = index
        entries.extend(found)
    if len(columns) > 1 and entries:
        _align_columns(entries)
    return entries


def _title_first(rows: list[_Row], drawn_elsewhere: Callable[[str], bool], continued: bool,
                 titles: list[Line]) -> list[ContentsEntry]:
    """Entries with the label after the title (leaders or a page column); ``titles``: the
    page's contents titles, for a column whose first entry is under the title of the page's
    columns, not under its own."""
    entries: list[ContentsEntry] = []
    start = 0
    while start < len(rows):
        run, end = _run(rows, start)
        titled = bool(run) and _titled_above(run[0][0], titles)
        if run and _is_contents(run, rows[start - 1] if start else None, drawn_elsewhere,
                                continued, titled):
            entries.extend(_entries(run))
            start = end
        elif _leaders_going_back(run):
            start = end  # (figures on leaders: no entry of the run opens a contents either)
        else:
            start += 1
    return entries


def _titled_above(row: _Row, titles: list[Line]) -> bool:
    """A contents title above ``row`` and near it (over the columns, with a part title or two
    between), though not in its column."""
    height = row.bottom - row.top
    return any(line.bottom <= row.top and row.top - line.bottom <= 6 * height for line in titles)


def _same_baseline(a: Line, b: Line) -> bool:
    return abs((a.top + a.bottom) - (b.top + b.bottom)) / 2 <= 0.35 * max(a.height, b.height, 1.0)


def _baseline_neighbours(lines: Sequence[Line]) -> dict[int, list[int]]:
    """For each line (by index), the other lines on its baseline (:func:`_same_baseline`), left
    to right.  Only lines whose middles are within reach of each other are compared (a page
    has hundreds of lines, few on any one baseline)."""
    reach = 0.35 * max([1.0, *(line.height for line in lines)])
    middles = sorted(((line.top + line.bottom) / 2, i) for i, line in enumerate(lines))
    keys = [middle for middle, _ in middles]
    neighbours: dict[int, list[int]] = {}
    for middle, i in middles:
        near = (j for _, j in middles[bisect.bisect_left(keys, middle - reach):
                                      bisect.bisect_right(keys, middle + reach)])
        neighbours[i] = sorted((j for j in near if j != i and _same_baseline(lines[i], lines[j])),
                               key=lambda j: (lines[j].x0, j))
    return neighbours


def _whole_entries(lines: Sequence[Line]) -> list[tuple[float, float, float, float]]:
    """The boxes (x0, top, x1, bottom) of entries whole on one baseline: a title with the page
    label right of it (leaders between, or a tab), or a page label with the title right after
    it, for finding the columns they are set in."""
    bare = [_PAGE_LABEL.match(line.text.strip()) is not None for line in lines]
    leading = [_LEADING_ENTRY.match(line.text.strip()) is not None for line in lines]
    leaders = [_LEADER_ENTRY.match(line.text.strip()) for line in lines]
    # (Fewer than four lines that could hold an entry: no columns of entries to find.)
    if sum(1 for i in range(len(lines)) if bare[i] or leading[i] or leaders[i]) < 4:
        return []
    alpha = [any(ch.isalpha() for ch in line.text) for line in lines]
    neighbours = _baseline_neighbours(lines)
    # A baseline that ends in a page label is read title first ([title][12][title][14]), any
    # other label first ([12][title][14][title]).
    title_first = [bare[max([i, *neighbours[i]], key=lambda j: lines[j].x1)] for i in range(len(lines))]
    boxes = []
    titles_of_labels: set[int] = set()
    labels_of_titles: set[int] = set()
    for i, line in enumerate(lines):
        leader = leaders[i]
        if leader and any(ch.isalpha() for ch in leader.group("title")):
            boxes.append((line.x0, line.top, line.x1, line.bottom))
            continue
        if not bare[i] or not title_first[i]:
            continue
        left = [j for j in neighbours[i] if lines[j].x1 <= line.x0]
        for j in reversed(left):  # nearest first, over a leader line of its own
            if alpha[j]:
                if not bare[j]:
                    boxes.append((lines[j].x0, line.top, line.x1, line.bottom))
                    titles_of_labels.add(j)
                    labels_of_titles.add(i)
                break
            if bare[j]:
                break
    for i, line in enumerate(lines):
        if i in titles_of_labels or i in labels_of_titles or title_first[i]:
            continue
        if leading[i]:
            boxes.append((line.x0, line.top, line.x1, line.bottom))
        elif bare[i]:
            right = [j for j in neighbours[i] if lines[j].x0 >= line.x1]
            if right and alpha[right[0]] and lines[right[0]].x0 - line.x1 <= 3 * max(line.height, 1.0):
                j = right[0]
                boxes.append((line.x0, line.top, lines[j].x1, lines[j].bottom))
    return boxes


def split_at_labels(lines: Sequence[Line]) -> list[Line]:
    """Lines cut after a page label followed, two ems or more away, by a title: in a contents
    set in columns a column's label and the next column's title may be one line (the gap
    between them no wider than the page column's tab).  Lines without such a gap are kept; so
    is a line whose first word is the figure when no title stands left of it on its baseline:
    an entry's section number hung a tab before its title ("1   Scope   1"), not a label."""
    out: list[Line] = []
    for line in lines:
        gap = 2 * max(line.size, 1.0)
        cut = next((i for i in range(1, len(line.words))
                    if line.words[i].x0 - line.words[i - 1].x1 >= gap
                    and _PAGE_LABEL.match(line.words[i - 1].text)
                    and any(ch.isalpha() for ch in line.words[i].text)), None)
        if cut == 1 and not any(other is not line and other.x1 <= line.x0 and _same_baseline(other, line)
                                for other in lines):
            cut = None
        if cut is None:
            out.append(line)
            continue
        for words in (line.words[:cut], line.words[cut:]):
            out.append(replace(line, words=words, x0=min(w.x0 for w in words), x1=max(w.x1 for w in words),
                               top=min(w.top for w in words), bottom=max(w.bottom for w in words)))
    return out


def _contents_columns(lines: Sequence[Line]) -> list[list[Line]]:
    """The page's lines by text column of its contents, left to right (one list when the
    entries are in one column).  A column gutter is a strip at least 6 points wide that no line
    of the entries' band crosses, with two whole entries or more on each side: the strip
    between a column's titles and its page labels has titles alone on its left.  Lines that
    cross a gutter (a title over the columns, a paragraph under them) are in no column."""
    boxes = _densest(_whole_entries(lines))
    if len(boxes) < 4:
        return [list(lines)]
    top, bottom = min(b[1] for b in boxes), max(b[3] for b in boxes)
    band = [line for line in lines if line.bottom > top and line.top < bottom]
    left = int(min(line.x0 for line in band))
    right = int(max(line.x1 for line in band)) + 1
    crossing = [0] * (right - left + 1)
    for line in band:
        for x in range(int(line.x0) - left, min(right - left, int(line.x1) - left) + 1):
            crossing[x] += 1
    cuts: list[float] = []
    x = 0
    while x <= right - left:
        if crossing[x]:
            x += 1
            continue
        start = x
        while x <= right - left and not crossing[x]:
            x += 1
        g0, g1 = left + start, left + x - 1
        if g1 - g0 < 6:
            continue
        before = sum(1 for b in boxes if b[2] <= g0 + 1)
        after = sum(1 for b in boxes if b[0] >= g1 - 1)
        across = sum(1 for b in boxes if b[0] < g0 and b[2] > g1)  # (a label set apart from its title)
        if before >= 2 and after >= 2 and 2 * across <= min(before, after):
            cuts.append((g0 + g1) / 2)
    if not cuts:
        return [list(lines)]
    columns: list[list[Line]] = [[] for _ in range(len(cuts) + 1)]
    for line in lines:
        if any(line.x0 < cut < line.x1 for cut in cuts):
            continue
        columns[sum(1 for cut in cuts if (line.x0 + line.x1) / 2 > cut)].append(line)
    return columns


def _densest(boxes: list[tuple[float, float, float, float]]) -> list[tuple[float, float, float, float]]:
    """The largest group of entry boxes with no vertical gap of more than three lines between
    them (a numbered paragraph under the contents is not in their band)."""
    groups: list[list[tuple[float, float, float, float]]] = []
    bottom = 0.0
    for box in sorted(boxes, key=lambda b: b[1]):
        if groups and box[1] - bottom <= 3 * (box[3] - box[1]):
            groups[-1].append(box)
            bottom = max(bottom, box[3])
        else:
            groups.append([box])
            bottom = box[3]
    return max(groups, key=len, default=[])


def _align_columns(entries: list[ContentsEntry]) -> None:
    """Depths over all the columns of a page, each column's entries moved left by its own
    edge: a right column that holds no top-level entry nests as the left one."""
    edges: dict[int, float] = {}
    for entry in entries:
        if entry.lines:
            x0 = entry.lines[0].x0
            edges[entry.column] = min(edges.get(entry.column, x0), x0)
    first = min(edges.values(), default=0.0)
    lefts = []
    for entry in entries:
        x0 = entry.lines[0].x0 if entry.lines else first
        entry.left = x0 - edges.get(entry.column, first) + first
        lefts.append(entry.left)
    _set_depths(entries, lefts)


def _label_first(rows: list[list[Line]], page: Sequence[Line], after_contents: bool) -> list[ContentsEntry]:
    """Entries whose page label comes before the title, the rest of a wrapped title under the
    title, a part title ("Corporate Overview") at the labels' edge between them or above them."""
    titles = [line for line in page if _CONTENTS_TITLE.match(line.text)]
    entries: list[ContentsEntry] = []
    index = 0
    while index < len(rows):
        run, end = _leading_run(rows, index)
        labelled = [entry for entry in run if entry.page_label]
        if labelled and _is_leading_contents(labelled, run, titles, after_contents or bool(entries)):
            _set_depths(run, [entry.lines[0].x0 for entry in run])
            entries.extend(run)
            index = end
        else:
            index += 1
    return entries


def _leading(row: list[Line]) -> tuple[str, str, float] | None:
    """A row that starts with a page label and goes on with a title: the label, the title and
    the title's left edge."""
    # (A row's lines far apart are no entry: the pieces of other columns on its baseline.)
    if any(b.x0 - a.x1 > 4 * max(a.size, 1.0) for a, b in zip(row, row[1:], strict=False)):
        return None
    words = [word for line in row for word in line.words]
    if len(words) < 2 or not _PAGE_LABEL.match(words[0].text):
        return None
    title = " ".join(word.text for word in words[1:])
    if not any(ch.isalpha() for ch in title) or (len(row) > 1 and _PAGE_LABEL.match(row[-1].text.strip())):
        return None
    return words[0].text, title, words[1].x0


def _leading_run(rows: list[list[Line]], start: int) -> tuple[list[ContentsEntry], int]:
    """Label-first entries from ``rows[start]`` on (with a part title just above the first):
    the entries and the index after them."""
    run: list[ContentsEntry] = []
    title_x = 0.0
    label_x: list[float] = []
    index = start
    first = _leading(rows[start])
    if first is None:
        return [], start + 1
    if start > 0 and _part_title(rows[start - 1], rows[start], rows[start][0].x0):
        run.append(ContentsEntry(_text(rows[start - 1]), "", list(rows[start - 1])))
    previous = rows[start - 1] if run else None
    continuations = 0
    while index < len(rows):
        row = rows[index]
        if previous is not None:
            gap = min(line.top for line in row) - max(line.bottom for line in previous)
            height = max(line.bottom for line in previous) - min(line.top for line in previous)
            if gap < -0.5 * height or gap > 2.5 * height:
                break
        leading = _leading(row)
        if leading is None and index + 1 < len(rows):
            leading = _label_over_title(row, rows[index + 1])
            if leading is not None:  # the title in the row below the label (beside an icon)
                row = row + rows[index + 1]
                index += 1
        if leading is not None:
            label, title, title_x = leading
            label_x.append(row[0].x0)
            run.append(ContentsEntry(title, label, list(row)))
            continuations = 0
        elif run and run[-1].page_label and continuations < 2 and abs(row[0].x0 - title_x) <= 3.0:
            run[-1].title += " " + _text(row)  # the rest of a wrapped title, under it
            run[-1].lines.extend(row)
            continuations += 1
        elif (run and label_x and index + 1 < len(rows) and _leading(rows[index + 1]) is not None
              and _part_title(row, rows[index + 1], min(label_x))):
            run.append(ContentsEntry(_text(row), "", list(row)))
            continuations = 2
        else:
            break
        previous = row
        index += 1
    while run and not run[-1].page_label:
        run.pop()
        index -= 1
    return run, index


def _label_over_title(row: list[Line], below: list[Line]) -> tuple[str, str, float] | None:
    """A page label alone in its row and the title in the row right under it, at its left edge."""
    label = row[0].text.strip()
    if len(row) != 1 or not _PAGE_LABEL.match(label) or abs(below[0].x0 - row[0].x0) > 3.0:
        return None
    gap = min(line.top for line in below) - row[0].bottom
    title = _text(below)
    if (not -0.5 * row[0].height <= gap <= row[0].height or not any(ch.isalpha() for ch in title)
            or _leading(below) is not None):
        return None
    return label, title, below[0].x0


def _part_title(row: list[Line], below: list[Line], label_x: float) -> bool:
    """A short row without a label at the labels' left edge, just above an entry."""
    gap = min(line.top for line in below) - max(line.bottom for line in row)
    height = max(line.bottom for line in row) - min(line.top for line in row)
    return (abs(row[0].x0 - label_x) <= 3.0 and _leading(row) is None and 0 <= gap <= 1.5 * height
            and len(_text(row)) <= 40 and any(ch.isalpha() for ch in _text(row))
            and not _CONTENTS_TITLE.match(_text(row)) and not _PAGE_LABEL.match(row[-1].text.strip()))


def _text(row: list[Line]) -> str:
    return " ".join(line.text for line in row)


def _is_leading_contents(labelled: list[ContentsEntry], run: list[ContentsEntry], titles: list[Line],
                         after_contents: bool) -> bool:
    """Label-first entries are a contents under a contents title near above them (or after
    another such run on the page), three or more (two after another run), labels that go up,
    by more than one somewhere, at one or two left edges."""
    if len(labelled) < (2 if after_contents else _MIN_ENTRIES):
        return False
    top = run[0].lines[0]
    height = top.bottom - top.top
    titled = any(line.bottom <= top.top and top.top - line.bottom <= 6 * height for line in titles)
    if not (titled or after_contents):
        return False
    values = [_label_value(entry.page_label) for entry in labelled]
    if any(b <= a for a, b in zip(values, values[1:], strict=False)):
        return False
    if all(b - a == 10_000 for a, b in zip(values, values[1:], strict=False)):
        return False  # 1, 2, 3: sections numbered, not pages
    edges: list[float] = []
    for x in sorted(entry.lines[0].x0 for entry in labelled):
        if not edges or x - edges[-1] > 3.0:
            edges.append(x)
    return len(edges) <= 2


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
    alone = _LEADERS_ONLY.match(text)
    if leader and any(ch.isalpha() for ch in leader.group("title")):
        row.title, row.page_label, row.leader = leader.group("title"), leader.group("page"), True
    elif alone:  # a wrapped title's leaders and label, the title above
        row.page_label, row.leader = alone.group("page"), True
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
        if row.page_label and (row.title or pending):
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
                 continued: bool = False, titled_above: bool = False) -> bool:
    labelled = [entry[-1] for entry in run]
    leaders = sum(1 for row in labelled if row.leader)
    if continued and leaders >= 1 and leaders == len(labelled):
        return True
    if len(labelled) < 2:
        return False
    titled = continued or titled_above or (above is not None and bool(_CONTENTS_TITLE.match(above.text)))
    if titled and leaders >= 2:
        return True
    # (Untitled, the labels must not go back: a note's figures set on a tab leader, "Wages and
    # salaries ........ 307", under 1,000 each, read like page labels but rise and fall.)
    if leaders >= _MIN_ENTRIES and not _leaders_going_back(run):
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


def _leaders_going_back(run: list[list[_Row]]) -> bool:
    """Three or more entries reached by leaders whose labels go back: a table's figures set on
    tab leaders, not a contents; what is left of the run after its first rows is not one either."""
    labels = [entry[-1].page_label for entry in run if entry[-1].leader]
    return len(labels) >= _MIN_ENTRIES and not _ascending(labels)


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
    return roman_value(label)


def roman_value(numeral: str) -> int:
    """A Roman numeral's value, in either case ("iv" 4, "XII" 12): read from the right, a
    letter worth less than one after it is taken away."""
    total, previous = 0, 0
    for ch in reversed(numeral.lower()):
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
    _set_depths(entries, [entry.left if entry.left is not None else entry.lines[0].x0 for entry in entries])


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
