"""The structure a PDF already carries, its tags and its outline, applied to the heading
decisions of the structure stage (:mod:`extractors.pdf_structure`).

Per page, one source decides the headings, in this order:

- ``tags``: the document's structure tree names headings (:mod:`extractors.pdf_tags`) and
  this page's tags are believable: the page is tagged, every tagged heading's text is the text
  drawn where it is, and not (almost) every line is a heading.  The lines under a heading
  element are headings at its level; the font styles (size, weight) of those lines are the
  document's heading styles, and a block the heuristics took for a heading stays one only in
  such a style set apart from the body by size or typeface (a "Contents" title set like
  Heading 1 but tagged P) or when set larger than all of them (the document's title: PDF 1.x
  has no Title type, exporters tag it P).  A bold body line tagged P is not a heading, even
  when Heading 3 is set bold at the body's size.
- ``outline``: the document's outline (:mod:`extractors.pdf_outline`) matches lines of the
  page.  When three or more entries match (a "rich" outline), matched lines are headings at
  the entry's depth, their styles are the heading styles as above, and a paragraph set in one
  of them (apart from the body by size or typeface) becomes a heading too: the outline names
  most, not all, of a document's headings.  Fewer matches only give their depth to headings
  the heuristics found.
- ``contents``: the document's own table of contents (:mod:`extractors.pdf_contents`), on the
  pages neither the tags nor the outline decided.  Its entries are matched, in order, to
  blocks after it; when most entries (and three or more) match, matched blocks are headings
  at the entry's depth and their styles are the heading styles.  A heuristic heading in a
  style the contents confirm but not listed in them is not a heading (a contents that lists a
  style's headings lists them all: a bold line set like a listed Heading 3 is emphasis); one
  in no confirmed style is not a heading when set at least as prominently as the least
  prominent confirmed style (a bold 12-point lead between Heading 2 and the body), and is kept
  below it (a Heading 4 the contents leave out); a contents title ("Contents") is kept.
- ``heuristics``: the stage's own rules (any page the above leave alone).

A title kept above the evidence's levels is level 1 and moves every other heading one level
down, as the heuristics rank a title above its sections.

A tree or an outline that says nothing true about a page is ignored there: wrong tags are
common (exporters tag whole pages as H, or point at content that is not drawn).

Beyond headings, a page's tags decide (each where they agree with what the page draws):

- its tables (:func:`tagged_tables`): a ``Table`` element of two rows and two columns or more
  whose cells hold the words drawn where they are, rows going down the page and columns
  across it, is one of the page's tables, cells spanning as the tree says (a column no cell
  fills, an empty spacer between groups of columns, left out; a row whose empty cells the
  tree leaves out, as Chromium does, placed under the columns its cells are drawn in); a table the
  heuristics found over it, or over text the tree tags as list items or as paragraphs that
  wrap (a bulleted list, prose set in columns), is not.  A tagged table that disagrees with
  the page (a tree pointing at the wrong content, a table wider than the page) is left to
  the heuristics.
- its list items (:func:`tagged_list_items`): the lines of one ``LI`` are one list item, at
  the depth of its list's nesting.
- its running lines (:func:`drawn_as_artifact`): text marked as an artifact above or below
  the page's content is a running header or footer.
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from itertools import groupby
from operator import attrgetter
from typing import TYPE_CHECKING

from extractors.pdf_bidi import has_rtl, rtl_words, signed_cells
from extractors.pdf_broken_words import ColumnEdges, broken_at_edge, broken_joined, plural_end_set_right
from extractors.pdf_contents import contents_title
from extractors.pdf_drafts import font_family
from extractors.pdf_outline import OutlineEntry, title_key
from extractors.pdf_table_model import FoundTable
from extractors.pdf_table_rows import unit_alone
from extractors.pdf_tags import (
    Box,
    PageTags,
    TaggedCell,
    TaggedHeading,
    TaggedItem,
    TaggedRegion,
    TaggedTable,
    union,
)
from extractors.tables import cells_to_markdown

if TYPE_CHECKING:
    from extractors.pdf_drafts import Draft, Line, Style
    from extractors.pdf_words import PageLayout, Ruling, Word

TAGS = "tags"
OUTLINE = "outline"
CONTENTS = "contents"
HEURISTICS = "heuristics"

# A line set smaller than this share of the body's size is small print: no section the
# contents leave out is set so.
_SMALL_PRINT = 0.95
# Outline entries matched on their pages before the outline calibrates heading styles.
RICH_OUTLINE = 3
# Table of contents entries matched after it before they decide headings: this many, and
# this share of the entries (a list that merely looks like contents matches little).
_CONTENTS_MIN_MATCHED = 3
_CONTENTS_MATCHED_SHARE = 0.7
# A tagged page whose lines are (almost) all headings: a tree that tags everything H.
_ALL_HEADINGS_SHARE = 0.9
_ALL_HEADINGS_MIN_LINES = 4
# Tagged text and drawn text agree when their keys are this similar (ligatures, a hyphen
# PDFium marks at a line end, a glyph without Unicode may differ).
_SAME_TEXT = 0.85
# Outline titles and lines: fuzzy match above this similarity, only for longer titles.
_SAME_TITLE = 0.92
_FUZZY_MIN_CHARS = 10
# Slack around a tagged heading's box (points) when deciding what is drawn inside it.
_BOX_SLACK = 1.5
_MAX_LEVEL = 6
# An item number and the item's first letter with no space between them.
_GLUED_NUMBER = re.compile(r"^(\d{1,3}[.)])(?=[^\W\d_])")
# A table the heuristics found whose words are mostly in tagged paragraphs is prose.
_PROSE_SHARE = 0.5
# A paragraph holding this share of a ruled table's words holds the whole grid (see
# _tagged_as_prose).
_WHOLE_GRID = 0.9
# Turned headings stand at most this many points above a tagged table's first body row (a
# header row of names set sideways; see _turned_headings).
_TURNED_REACH = 200.0
# A heuristic table overlapping a tagged one by this share of its own area is that table.
_SAME_TABLE = 0.3
# The kinds of block the evidence may turn into headings or back into text; others (tables,
# table of contents entries) are left as the stage made them.
_TEXT_KINDS = ("heading", "paragraph", "list_item")


@dataclass
class DocumentEvidence:
    """The tags (by 1-based page number; empty for untagged documents) and outline of one
    document, and what reading them cost."""

    tags: dict[int, PageTags] = field(default_factory=dict)
    outline: list[OutlineEntry] = field(default_factory=list)
    seconds: float = 0.0


def apply_evidence(evidence: DocumentEvidence, layouts: list[PageLayout], drafts: dict[int, list[Draft]],
                   style: Style, heading_shaped: Callable[[Draft], bool]) -> dict[int, str]:
    """Set the headings (kind and level) of the pages the evidence decides, in place, and
    return their sources by page number (pages left to the heuristics are not in it).

    ``drafts`` are each page's blocks in reading order, classified by the heuristics;
    ``heading_shaped`` says whether a block could be a heading at all (short, not a sentence,
    not a caption): a line set in a heading style must also be shaped like one."""
    sources: dict[int, str] = {}
    if any(page.headings for page in evidence.tags.values()):
        believed = [layout.number for layout in layouts
                    if layout.number in evidence.tags and layout.number in drafts
                    and _believable(evidence.tags[layout.number], layout, drafts[layout.number])]
        confirmed: list[tuple[Draft, int]] = []
        for number in believed:
            drafts[number] = _tagged_drafts(drafts[number], evidence.tags[number].headings, confirmed)
        if confirmed:
            _calibrate({number: drafts[number] for number in believed}, confirmed, style, heading_shaped,
                       promote=False, strict=True)
            sources.update((number, TAGS) for number in believed)
    rest = {number: page for number, page in drafts.items() if number not in sources}
    sources.update(_apply_outline(evidence.outline, rest, style, heading_shaped))
    rest = {number: page for number, page in drafts.items() if number not in sources}
    sources.update(_apply_contents(rest, style, heading_shaped))
    return sources


def _style_key(draft: Draft) -> tuple[float, bool, str]:
    """A block's font style as heading styles are told apart: size to half a point, weight,
    and the family most of its characters are set in (Word's Heading 3 is the body's size and
    bold, but in the headings' typeface)."""
    families: Counter[str] = Counter()
    for line in draft.lines:
        for word in line.words:
            families[font_family(word.font)] += len(word.text)
    family = families.most_common(1)[0][0] if families else ""
    return round(draft.size * 2) / 2, draft.bold, family


def _calibrate(pages: dict[int, list[Draft]], confirmed: list[tuple[Draft, int]], style: Style,
               heading_shaped: Callable[[Draft], bool], promote: bool,
               listed: Callable[[Draft], bool] | None = None, strict: bool = False) -> None:
    """Headings of ``pages`` from the ``confirmed`` ones (block, level; level 0 for a title)
    and their styles: see the module's docstring.  ``promote``: paragraphs set in a confirmed
    style become headings too.  ``listed`` (a table of contents' calibration): whether a
    heading the heuristics found is one the contents had to list if it were one; headings in a
    confirmed style are then dropped, and headings in no confirmed style are dropped only when
    set at least as prominently as the least prominent confirmed style (the contents stop at
    some depth: what is set below it may be a heading they leave out).  ``strict`` (tags
    and outlines, which name headings one by one): a heading they do not name keeps, or a
    paragraph gets, a confirmed style's level only when that style is set apart from the body
    by size or typeface (a contents title set like Heading 1); bold at the body's size in its
    typeface is also how body text is emphasised, and the lines they do not name in it are."""
    decided = {id(draft) for draft, _ in confirmed}
    titles = [draft for draft, level in confirmed if level == 0]
    levels: dict[tuple[float, bool, str], Counter[int]] = {}
    for draft, level in confirmed:
        draft.kind, draft.level, draft.number_depth = "heading", level, 0
        if level:
            levels.setdefault(_style_key(draft), Counter())[level] += 1
    heading_styles = {key: counts.most_common(1)[0][0] for key, counts in levels.items()}
    if listed is not None:
        _drop_styles_listed_in_part(pages, levels, heading_styles, decided, listed)
    largest = max((size for size, _, _ in heading_styles), default=0.0)
    deepest = max(heading_styles.values(), default=0)
    least = min((_prominence(key) for key, level in heading_styles.items() if level == deepest),
                default=(0.0, False))
    for page in pages.values():
        for draft in page:
            if draft.kind not in _TEXT_KINDS or id(draft) in decided:
                continue
            key = _style_key(draft)
            if draft.kind == "heading" and listed is not None:
                if key[0] > largest + 0.5:
                    titles.append(draft)
                else:
                    _contents_decision(draft, key, listed(draft), heading_styles, least, style)
                continue
            if draft.kind == "heading":
                if key in heading_styles and (not strict or _set_apart(key, style)):
                    draft.level, draft.number_depth = heading_styles[key], 0
                elif heading_styles and key[0] > largest + 0.5:
                    titles.append(draft)  # the document's title, which tags and outlines leave out
                else:
                    draft.kind = "list_item" if draft.marker else "paragraph"
                    draft.level, draft.number_depth = None, 0
            elif promote and draft.kind == "paragraph" and key in heading_styles and _distinct(key, style) \
                    and (not strict or _set_apart(key, style)) and heading_shaped(draft) and not draft.label:
                draft.kind, draft.level, draft.number_depth = "heading", heading_styles[key], 0
    if titles:
        _put_titles_first(pages, titles)


def _drop_styles_listed_in_part(pages: dict[int, list[Draft]],
                                levels: dict[tuple[float, bool, str], Counter[int]],
                                heading_styles: dict[tuple[float, bool, str], int], decided: set[int],
                                listed: Callable[[Draft], bool]) -> None:
    """A style the contents list fewer than half of the headings of is no heading style of
    theirs: a contents that names a style's headings names them all, so a box's or a panel's
    title it lists ("Hormone receptor, HER2 and gene tests", set like the dozens of unlisted
    sub-sections "Blood tests", "Bone scan") says nothing of that style.  The listed blocks stay
    headings; the others in the style are judged as set below the contents' depth."""
    unlisted: Counter[tuple[float, bool, str]] = Counter(
        _style_key(draft) for page in pages.values() for draft in page
        if draft.kind == "heading" and id(draft) not in decided and listed(draft))
    for key, counts in levels.items():
        if unlisted[key] > sum(counts.values()):
            del heading_styles[key]


def _put_titles_first(pages: dict[int, list[Draft]], titles: list[Draft]) -> None:
    """The titles at level 1, every other heading one level further down."""
    for page in pages.values():
        for draft in page:
            if draft.kind == "heading" and draft.level:
                draft.level = min(_MAX_LEVEL, draft.level + 1)
    for draft in titles:
        draft.kind, draft.level, draft.number_depth = "heading", 1, 0


def _contents_decision(draft: Draft, key: tuple[float, bool, str], listed: bool,
                       heading_styles: dict[tuple[float, bool, str], int], least: tuple[float, bool],
                       style: Style) -> None:
    """A heuristic heading the contents do not list: see _calibrate's ``listed``."""
    deepest = max(heading_styles.values(), default=0)
    if not listed:
        # Outside the contents' reach (before it, its own title): the heuristics' heading
        # stays, at the level of its style when it has a confirmed one.
        if key in heading_styles:
            draft.level, draft.number_depth = heading_styles[key], 0
    elif key not in heading_styles and _prominence(key) < least and key[0] >= _SMALL_PRINT * style.body_size:
        # Set below every listed level: a heading the contents leave out; but not one set
        # smaller than the running text (a table's row label, a figure's, a glossary's term).
        draft.level, draft.number_depth = min(_MAX_LEVEL, deepest + 1), 0
    else:
        draft.kind = "list_item" if draft.marker else "paragraph"
        draft.level, draft.number_depth = None, 0


def _set_apart(key: tuple[float, bool, str], style: Style) -> bool:
    """A style that differs from the body's by more than weight: size or typeface."""
    size, _, family = key
    return size >= style.body_size * 1.05 or (bool(family) and family != style.body_family)


def _prominence(key: tuple[float, bool, str]) -> tuple[float, bool]:
    """How prominently a style is set, to compare with another: size, then weight."""
    return key[0], key[1]


def _distinct(key: tuple[float, bool, str], style: Style) -> bool:
    """A heading style that body text is not set in: lines in it can be promoted (an outline
    entry set like the body is a heading, its look-alikes are not)."""
    size, bold, family = key
    return size >= style.body_size * 1.05 or (bold and not style.body_bold) \
        or (family != style.body_family and size >= style.body_size * 0.95)


# ---------------------------------------------------------------------------------- tags


def _inside(x: float, y: float, box: tuple[float, float, float, float]) -> bool:
    return box[0] - _BOX_SLACK <= x <= box[2] + _BOX_SLACK and box[1] - _BOX_SLACK <= y <= box[3] + _BOX_SLACK


def _word_inside(word: Word, heading: TaggedHeading) -> bool:
    return _inside((word.x0 + word.x1) / 2, (word.top + word.bottom) / 2, heading.box)


def _same_text(a: str, b: str, threshold: float) -> bool:
    if a == b:
        return True
    if not (a and b) or 2.0 * min(len(a), len(b)) / (len(a) + len(b)) < threshold:
        return False  # (real_quick_ratio(), an upper bound of ratio(), without a matcher)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    # (quick_ratio() bounds ratio() from above too, and costs a count of characters, not a
    # search for the longest blocks.)
    return matcher.quick_ratio() >= threshold and matcher.ratio() >= threshold


def _believable(tags: PageTags, layout: PageLayout, drafts: list[Draft]) -> bool:
    """Whether the page's tags can decide its headings (see the module's docstring)."""
    if not tags.tagged or tags.missing:
        return False
    for heading in tags.headings:
        drawn = " ".join(w.text for w in layout.words if _word_inside(w, heading))
        if not _same_text(title_key(drawn), title_key(heading.text), _SAME_TEXT):
            return False
    lines = [line for draft in drafts for line in draft.lines]
    covered = sum(1 for line in lines if _line_heading(line.words, tags.headings) is not None)
    return not (len(lines) >= _ALL_HEADINGS_MIN_LINES and covered >= _ALL_HEADINGS_SHARE * len(lines))


def _line_heading(words: list[Word], headings: list[TaggedHeading]) -> int | None:
    """The index of the tagged heading most of the line's words are drawn in, if any."""
    for index, heading in enumerate(headings):
        if sum(1 for w in words if _word_inside(w, heading)) * 2 > len(words):
            return index
    return None


def _runs(lines: list[Line],
          element_of: Callable[[list[Word]], int | None]) -> list[tuple[int | None, list[Line]]]:
    """A block's lines in runs of one tagged element each (None: lines in none), by the index
    ``element_of`` gives a line's words."""
    runs: list[tuple[int | None, list[Line]]] = []
    for line in lines:
        index = element_of(line.words)
        if runs and runs[-1][0] == index:
            runs[-1][1].append(line)
        else:
            runs.append((index, [line]))
    return runs


def _tagged_drafts(drafts: list[Draft], headings: list[TaggedHeading],
                   confirmed: list[tuple[Draft, int]]) -> list[Draft]:
    """The page's blocks cut where their lines pass in or out of a heading element; the lines
    of one heading element are one block, added to ``confirmed`` with its level.  A block
    holding a heading's lines and others is cut: its other parts are text."""
    out: list[Draft] = []
    last_heading: int | None = None
    for draft in drafts:
        if draft.kind not in _TEXT_KINDS:
            out.append(draft)
            last_heading = None
            continue
        runs = _runs(draft.lines, lambda words: _line_heading(words, headings))
        if len(runs) == 1 and runs[0][0] is None:
            out.append(draft)  # no heading element in it: calibrated by its style
            last_heading = None
            continue
        for position, (index, lines) in enumerate(runs):
            if index is not None and index == last_heading and out and out[-1].kind == "heading":
                out[-1].lines.extend(lines)  # one heading element the heuristics cut in two
                continue
            if index is not None:
                part = replace(draft, kind="heading", lines=lines, marker="", level=None, number_depth=0)
                confirmed.append((part, min(_MAX_LEVEL, headings[index].level)))
            else:
                marker = draft.marker if position == 0 else ""
                part = replace(draft, kind="list_item" if marker else "paragraph", lines=lines,
                               marker=marker, level=None, number_depth=0)
            out.append(part)
            last_heading = index
    return out


# ------------------------------------------------------------------------------- outline


def _match_outline(entries: list[OutlineEntry], drafts: dict[int, list[Draft]],
                   heading_shaped: Callable[[Draft], bool]) -> list[tuple[Draft, int, int]]:
    """(block, level, page number) for each entry whose title is a block's text on the page
    it jumps to (or the next one: destinations often point just above a heading at a page
    end); each block is matched once, the first in reading order."""
    matched: list[tuple[Draft, int, int]] = []
    used: set[int] = set()
    keys: dict[int, str] = {}
    for entry in entries:
        title = title_key(entry.title)
        if entry.page is None or len(title) < 2:
            continue
        for number in (entry.page, entry.page + 1):
            found = _find_title(title, drafts.get(number, []), used, keys, heading_shaped)
            if found is not None:
                used.add(id(found))
                matched.append((found, min(_MAX_LEVEL, entry.level), number))
                break
    return matched


def _find_title(title: str, drafts: list[Draft], used: set[int], keys: dict[int, str],
                heading_shaped: Callable[[Draft], bool]) -> Draft | None:
    candidates = [d for d in drafts if d.kind in _TEXT_KINDS and id(d) not in used and heading_shaped(d)]
    for draft in candidates:
        if keys.setdefault(id(draft), title_key(draft.text)) == title:
            return draft
    if len(title) >= _FUZZY_MIN_CHARS:
        for draft in candidates:
            if _same_text(keys[id(draft)], title, _SAME_TITLE):
                return draft
    return None


def _apply_outline(entries: list[OutlineEntry], drafts: dict[int, list[Draft]], style: Style,
                   heading_shaped: Callable[[Draft], bool]) -> dict[int, str]:
    if not entries or not drafts:
        return {}
    matches = _match_outline(entries, drafts, heading_shaped)
    if not matches:
        return {}  # an outline that names nothing on these pages says nothing about them
    confirmed = [(draft, level) for draft, level, _ in matches]
    if len(matches) < RICH_OUTLINE:
        # Too few to tell heading styles, and a lone entry is often the document's title
        # matching its running title: the matches place headings the heuristics found, at
        # the outline's depth, and make none of a line the heuristics read as text.
        sources: dict[int, str] = {}
        for draft, level, number in matches:
            if draft.kind == "heading":
                draft.level, draft.number_depth = level, 0
                sources[number] = OUTLINE
        return sources
    pages = {number: page for number, page in drafts.items() if page}
    _calibrate(pages, confirmed, style, heading_shaped, promote=True, strict=True)
    return dict.fromkeys(pages, OUTLINE)


# ------------------------------------------------------------------- table of contents


def _apply_contents(drafts: dict[int, list[Draft]], style: Style,
                    heading_shaped: Callable[[Draft], bool]) -> dict[int, str]:
    """Headings of the pages after a table of contents from its entries (see the module's
    docstring); the pages it decides, by number."""
    numbers = sorted(number for number, page in drafts.items() if page)
    entries: list[tuple[str, int, int]] = []  # (title key, depth, page number of the entry)
    seen: set[int] = set()
    for number in numbers:
        for draft in drafts[number]:
            if draft.contents is not None and id(draft.contents) not in seen:
                seen.add(id(draft.contents))
                entries.append((title_key(draft.contents.title), draft.contents.depth, number))
    if len(entries) < _CONTENTS_MIN_MATCHED:
        return {}
    first = entries[0][2]
    after = [number for number in numbers if number >= first]
    order = [draft for number in after for draft in drafts[number]]
    matched = _match_contents(entries, order, heading_shaped)
    if len(matched) < _CONTENTS_MIN_MATCHED or len(matched) < _CONTENTS_MATCHED_SHARE * len(entries):
        return {}
    last_entry = max(position for position, draft in enumerate(order) if draft.contents is not None)
    reach = {id(draft) for draft in order[last_entry + 1:]}
    # The contents title ("Contents") is set like a heading and lists nothing: it stays.
    titles = {id(draft) for draft in order[:last_entry + 1]
              if draft.kind == "heading" and contents_title(draft.text)}
    # Text drawn among the entries that was not read as one (a first entry apart from the
    # rest, its page label on a line of its own) still names a heading.
    drawn = {title_key(draft.text) for draft in order[:last_entry + 1] if draft.contents is None}

    def listed(draft: Draft) -> bool:
        return id(draft) in reach and id(draft) not in titles and title_key(draft.text) not in drawn

    pages = {number: drafts[number] for number in after}
    # Levels: the contents' depth; a title above the first entry's level keeps level 1 (the
    # calibration moves the others down one).
    _calibrate(pages, matched, style, heading_shaped, promote=False, listed=listed)
    return dict.fromkeys(pages, CONTENTS)


def _match_contents(entries: list[tuple[str, int, int]], order: list[Draft],
                    heading_shaped: Callable[[Draft], bool]) -> list[tuple[Draft, int]]:
    """(block, level) for each entry (title key, depth, page) whose title is a block's text;
    ``order`` is the blocks from the contents' first page on, in reading order.  Entries are
    matched in order, each to the first unused block from the last match on (page labels are
    printed numbers, not page indexes, and may be off), else anywhere (a page read in the
    wrong column order puts a heading before the one listed above it)."""
    # The blocks that could be headings, once: (position in order, title key).
    candidates = [(position, title_key(draft.text)) for position, draft in enumerate(order)
                  if draft.kind in _TEXT_KINDS and heading_shaped(draft)]
    matched: list[tuple[Draft, int]] = []
    used: set[int] = set()

    def find(title: str, start: int, end: int) -> int | None:
        for fuzzy in (False, True):
            if fuzzy and len(title) < _FUZZY_MIN_CHARS:
                break
            for position, key in candidates:
                if not start <= position < end or position in used:
                    continue
                # (Similar enough texts are of about one length: the cheap test first.)
                if key == title or (fuzzy and abs(len(key) - len(title)) <= 0.2 * len(title)
                                    and _same_text(key, title, _SAME_TITLE)):
                    return position
        return None

    at = 0
    for title, depth, _ in entries:
        if len(title) < 2:
            continue
        position = find(title, at, len(order))
        if position is None:
            position = find(title, 0, at)
        else:
            at = position + 1
        if position is not None:
            used.add(position)
            matched.append((order[position], min(_MAX_LEVEL, depth)))
    return matched


# ------------------------------------------------------------------ tags: tables, lists


def _in_boxes(word: Word, boxes: tuple[Box, ...]) -> bool:
    x, y = (word.x0 + word.x1) / 2, (word.top + word.bottom) / 2
    return any(_inside(x, y, box) or _flat_inside(word, x, box) for box in boxes)


def _flat_inside(word: Word, x: float, box: Box) -> bool:
    """Whether a box much lower than the word, and as wide as most of it, is that word's: a
    text object's box is its glyphs' ink, and the ink of a word of ".." (not available, in
    statistics) or "_" lies on the baseline, well off the middle of the word's line.  (One
    glyph's box, a comma's in "117,229" where Chromium draws each glyph apart, holds no word:
    a tree whose cells hold their words only so may be one that contradicts the page.)"""
    middle = (box[3] + box[1]) / 2
    return (box[3] - box[1]) * 2 < word.bottom - word.top and word.top <= middle <= word.bottom \
        and (box[2] - box[0]) * 2 >= word.x1 - word.x0 and box[0] - _BOX_SLACK <= x <= box[2] + _BOX_SLACK


def _drawn_text(words: list[Word], boxes: tuple[Box, ...]) -> list[Word]:
    """The words drawn in ``boxes``, in reading order (PDFium's lines, then left to right)."""
    return sorted((w for w in words if _in_boxes(w, boxes)), key=lambda w: (w.line, w.x0))


def _agrees(text: str, boxes: tuple[Box, ...], words: list[Word]) -> bool:
    """Whether a tagged element's text is the text drawn where it is."""
    drawn = " ".join(w.text for w in _drawn_text(words, boxes))
    return _same_text(title_key(drawn), title_key(text), _SAME_TEXT)


def tagged_tables(tags: PageTags | None, words: list[Word], found: list[FoundTable],
                  turned: list[Word] | None = None, rulings: list[Ruling] | None = None) -> list[FoundTable]:
    """The page's tables (``found``: the heuristics'), as its tags have them (see the module's
    docstring); ``found`` itself when the page has no believable tags.  ``turned``: the page's
    words set at an angle, which a tagged cell may hold (a column heading set upwards);
    ``rulings``: the page's, whose rules around a cell say where a word broken over its lines
    met the cell's edge."""
    if tags is None or not tags.tagged or not words:
        return found
    # (A table that contradicts the page, a tree pointing at the wrong content or a table
    # wider than the page, is left to the heuristics.)
    drawn = words + list(turned or ())
    rules = [r for r in rulings or () if not r.horizontal]
    made = [_found_table(_short_rows_placed(table), drawn, turned or [], rules) for table in tags.tables
            if table.row_count >= 2 and table.column_count >= 2 and _table_agrees(table, drawn)]
    kept = [table for table in found
            if not any(_overlap(table, other) >= _SAME_TABLE for other in made)
            and not _tagged_as_prose(table, tags, words)]
    if len(kept) == len(found) and not made:
        return found
    return sorted(kept + made, key=lambda table: (table.top, table.x0))


def _table_agrees(table: TaggedTable, words: list[Word]) -> bool:
    """Each cell holds the words drawn where it is, rows go down the page, and each row's
    cells go across it in column order (one direction for the whole table: right to left in
    a Hebrew or Arabic table)."""
    if not all(_agrees(cell.text, cell.boxes, words) for cell in table.cells if cell.boxes):
        return False
    rows: dict[int, list[tuple[int, Box]]] = {}
    for cell in table.cells:
        if cell.boxes:
            rows.setdefault(cell.row, []).append((cell.column, union(list(cell.boxes))))
    centres = [sorted((box[1] + box[3]) / 2 for _, box in rows[row]) for row in sorted(rows)]
    middles = [values[len(values) // 2] for values in centres]
    if any(lower <= upper for upper, lower in zip(middles, middles[1:], strict=False)):
        return False
    directions = set()
    for cells in rows.values():
        xs = [(box[0] + box[2]) / 2 for _, box in sorted(cells)]
        for left, right in zip(xs, xs[1:], strict=False):
            directions.add(right > left)
    return len(directions) <= 1


def _short_rows_placed(table: TaggedTable) -> TaggedTable:
    """The cells of rows shorter than the table placed in the columns they are drawn under.
    Chromium leaves an empty cell (a statement's "Note" cell on a row without a note, a subtotal's
    empty label) out of the tree, and a row's cells then fill its first slots, each a column to
    the left of where it stands.  The columns' extents are those of the rows that fill every slot
    (two or more); a short row is moved when each of its cells overlaps one column most, the
    columns in its cells' order; a row with a spanning cell, or a cell under no column, stays."""
    rows: dict[int, list[TaggedCell]] = {}
    for cell in table.cells:
        rows.setdefault(cell.row, []).append(cell)
    count = table.column_count

    def single(cells: list[TaggedCell]) -> bool:
        return all(cell.boxes and cell.rows == 1 and cell.columns == 1 for cell in cells)

    full = [cells for cells in rows.values() if len(cells) == count and single(cells)]
    short = [cells for cells in rows.values() if 0 < len(cells) < count and single(cells)]
    if len(full) < 2 or not short:
        return table
    extents = []
    for c in range(count):
        boxes = [union(list(cells[c].boxes)) for cells in full]
        extents.append((min(box[0] for box in boxes), max(box[2] for box in boxes)))
    moved: dict[int, TaggedCell] = {}
    for cells in short:
        placed = []
        for cell in cells:
            x0, _, x1, _ = union(list(cell.boxes))
            overlaps = [min(x1, right) - max(x0, left) for left, right in extents]
            best = max(range(count), key=lambda c: overlaps[c])
            if overlaps[best] <= 0:
                break
            placed.append(best)
        if len(placed) != len(cells) or any(b <= a for a, b in zip(placed, placed[1:], strict=False)):
            continue
        for cell, column in zip(cells, placed, strict=True):
            if column != cell.column:
                moved[id(cell)] = replace(cell, column=column)
    if not moved:
        return table
    return replace(table, cells=tuple(moved.get(id(cell), cell) for cell in table.cells))


def _found_table(table: TaggedTable, words: list[Word], turned: list[Word],
                 rules: list[Ruling] | None = None) -> FoundTable:
    """A tagged table as the table finder writes one: a spanning cell's text in its first
    slot, the header rows those of TH cells only (one when the tree has none); the turned
    words its cells hold are the table's (no loose text)."""
    cells = [[""] * table.column_count for _ in range(table.row_count)]
    header = [True] * table.row_count
    order = {id(w): index for index, w in enumerate(turned)}
    drawn = {id(cell): _drawn_text(words, cell.boxes) if cell.boxes else [] for cell in table.cells}
    # The columns' edges as the cells' lines show them (the tree draws no rule), for a word
    # broken where its cell ends.
    lines: dict[tuple[int, int], list[Word]] = {}
    for cell in table.cells:
        if cell.columns == 1:
            for w in drawn[id(cell)]:
                if id(w) not in order:
                    lines.setdefault((id(cell), w.line), []).append(w)
    cell_of = {id(cell): cell for cell in table.cells}
    edges = ColumnEdges(((cell_of[key].row, cell_of[key].column), cell_of[key].column, ws[0].x0, ws[-1].x1)
                        for (key, _), ws in lines.items())
    # Units alone on a line of their cell ("kN" under "Load"), by cell: a plural's "s" level
    # with another cell's is a unit too ("Rise" over "s" beside "Load" over "kN").
    units = [(key, ws[0]) for (key, _), ws in lines.items() if len(ws) == 1 and unit_alone(ws[0].text)]
    for cell in table.cells:
        # Turned words in the order they are drawn (up or down their lines, their lines in
        # turn): their line counts and x say nothing of it.
        upright = [w for w in drawn[id(cell)] if id(w) not in order]
        if any(has_rtl(w.text) for w in upright):  # a right-to-left line's words in reading order
            upright = [w for _, line in groupby(upright, key=attrgetter("line"))
                       for w in rtl_words(list(line))]
        sideways = sorted((w for w in drawn[id(cell)] if id(w) in order), key=lambda w: order[id(w)])
        beside = [w for key, w in units if key != id(cell) and cell_of[key].row == cell.row]
        texts = (_lines_text(upright, cell, edges, rules, beside), *(w.text for w in sideways))
        cells[cell.row][cell.column] = " ".join(filter(None, texts))
        header[cell.row] = header[cell.row] and cell.header
    header_rows = next((row for row, is_header in enumerate(header) if not is_header), table.row_count)
    x0, top, x1, bottom = table.box
    taken = [w for cell in table.cells if cell.boxes for w in _drawn_text(turned, cell.boxes)]
    taken += _turned_headings(table, cells, [w for w in turned if w not in taken], max(1, header_rows))
    # A column no cell fills, header included, is a spacer (a narrow empty column set between
    # two groups of figures, as the untagged reading never finds one): not a column.
    filled = [c for c in range(table.column_count) if any(row[c] for row in cells)]
    if 2 <= len(filled) < table.column_count:
        cells = [[row[c] for c in filled] for row in cells]
    if taken:
        top = min([top, *(w.top for w in taken)])
    cells = signed_cells(cells)
    return FoundTable(x0, top, x1, bottom, cells, cells_to_markdown(cells), header_rows=max(1, header_rows),
                      turned=tuple(taken))


def _lines_text(words: list[Word], cell: TaggedCell, edges: ColumnEdges,
                rules: list[Ruling] | None = None, units: Sequence[Word] = ()) -> str:
    """A cell's upright words, in reading order, as text: a word LibreOffice broke over the
    cell's lines is whole again (see extractors.pdf_broken_words; ``edges``: its table's, as
    its text shows them; ``rules``: the page's vertical rules, which show them where the
    cell is ruled; ``units``: units alone on their lines in the row's other cells, beside
    which an "s" is a unit, not a plural's end)."""
    ruled = _ruled_edges(words, rules) if rules and words else None
    text = ""
    for index, word in enumerate(words):
        if not index:
            text = word.text
        elif word.line != words[index - 1].line:
            piece = words[index - 1]
            alone = index < 2 or words[index - 2].line != piece.line
            ends = index + 1 == len(words) or words[index + 1].line != word.line  # (the end alone)
            own = ((cell.row, cell.column),)
            inner = (ruled or edges.inner(cell.column, own)) if alone and ends and cell.columns == 1 else None
            broken = inner is not None and broken_at_edge(piece, word, *inner) \
                or alone and ends and plural_end_set_right(piece, word) \
                and not any(u.top < word.bottom and u.bottom > word.top for u in units)
            text = broken_joined(text, word.text, alone, broken)
        else:
            text = f"{text} {word.text}"
    return text


def _ruled_edges(words: list[Word], rules: list[Ruling]) -> tuple[float, float] | None:
    """A cell's inner edges where vertical rules stand either side of its words over their whole
    height (a ruled table: the rule left of the words nearest them, and right): the rules less
    the padding, as far as the text stands off the left rule."""
    x0, x1 = min(w.x0 for w in words), max(w.x1 for w in words)
    top, bottom = min(w.top for w in words), max(w.bottom for w in words)
    spans = [r for r in rules if r.top <= top + 1.0 and r.bottom >= bottom - 1.0]
    left = max((r.x1 for r in spans if r.x1 <= x0 + 0.5), default=None)
    right = min((r.x0 for r in spans if r.x0 >= x1 - 0.5), default=None)
    if left is None or right is None:
        return None
    padding = x0 - left
    return x0, right - padding


def _turned_headings(table: TaggedTable, cells: list[list[str]], turned: list[Word],
                     header_rows: int) -> list[Word]:
    """Turned words standing over the body's columns, above its first row, put into the top
    row's cells the tree leaves empty there (Chromium tags a heading set sideways, CSS
    writing-mode, under no cell the page draws: its TH comes out empty); the words taken.
    Each goes to the column whose body cells' span, widened to the middle of the gutters, holds
    its middle (the columns in their order on the page, whichever way the table runs); in the
    order drawn."""
    body = [cell for cell in table.cells if cell.row >= header_rows and cell.boxes and cell.columns == 1]
    # The headings' row: the top one, or a header row below it that draws nothing at all (a row
    # the tree left out, see extractors.pdf_tags: names set sideways under their parties).
    target = next((row for row in range(header_rows - 1, 0, -1) if not any(cells[row])), 0)
    if not turned or not body or all(cells[target]):
        return []
    spans: dict[int, tuple[float, float]] = {}
    for cell in body:
        box = union(list(cell.boxes))
        old = spans.get(cell.column)
        spans[cell.column] = (box[0], box[2]) if old is None else (min(old[0], box[0]), max(old[1], box[2]))
    # The columns left to right on the page: a right-to-left table's first column is its rightmost.
    columns = sorted(spans, key=lambda column: spans[column][0])
    bounds = [(spans[a][1] + spans[b][0]) / 2 for a, b in zip(columns, columns[1:], strict=False)]
    first = min(union(list(cell.boxes))[1] for cell in body)
    left = spans[columns[0]][0] - (bounds[0] - spans[columns[0]][1] if bounds else 0.0)
    right = spans[columns[-1]][1] + (spans[columns[-1]][0] - bounds[-1] if bounds else 0.0)
    placed: dict[int, list[Word]] = {}
    for w in turned:
        middle = (w.x0 + w.x1) / 2
        if w.bottom > first + 1 or w.top < first - _TURNED_REACH or not left <= middle <= right:
            continue
        column = columns[bisect.bisect(bounds, middle)]
        if not cells[target][column]:
            placed.setdefault(column, []).append(w)
    if len(placed) < 2:  # one turned text over a table: an axis title, a stamp
        return []
    for column, ws in placed.items():
        cells[target][column] = " ".join(w.text for w in ws)
    return [w for ws in placed.values() for w in ws]


def _overlap(table: FoundTable, other: FoundTable) -> float:
    """The share of ``table``'s area that ``other`` covers."""
    width = min(table.x1, other.x1) - max(table.x0, other.x0)
    height = min(table.bottom, other.bottom) - max(table.top, other.top)
    area = (table.x1 - table.x0) * (table.bottom - table.top)
    return width * height / area if width > 0 and height > 0 and area > 0 else 0.0


def _tagged_as_prose(table: FoundTable, tags: PageTags, words: list[Word]) -> bool:
    """Whether a table the heuristics found is text the tree tags as list items (a bulleted
    list's markers look like a table's first column) or paragraphs: most of its words are in
    them, and in list items, or in paragraphs one of which runs over two rows of it (prose
    set in columns).  A paragraph per row is how a table set with tab stops is tagged: it
    stays a table; so does a drawn grid whose words one paragraph holds nearly all of (a
    layout program tagging the frame of a panel of shaded boxes as one paragraph says nothing
    of how its text is read)."""
    inside = [w for w in words if table.x0 - 1 <= (w.x0 + w.x1) / 2 <= table.x1 + 1
              and table.top - 1 <= (w.top + w.bottom) / 2 <= table.bottom + 1]
    if not inside or not (tags.prose or tags.items):
        return False
    items = [w for w in inside if any(_in_boxes(w, item.boxes) for item in tags.items)]
    if len(items) > _PROSE_SHARE * len(inside):
        return True
    in_prose = 0
    wraps = False
    for paragraph in tags.prose:
        held = [w for w in inside if _in_boxes(w, paragraph.boxes)]
        in_prose += len(held)
        if table.ruled and len(held) >= _WHOLE_GRID * len(inside):
            return False
        if held:
            centres = [(w.top + w.bottom) / 2 for w in held]
            wraps = wraps or max(centres) - min(centres) > max(w.bottom - w.top for w in held)
    return wraps and len(items) + in_prose > _PROSE_SHARE * len(inside)


def tagged_list_items(tags: PageTags | None, words: list[Word], drafts: list[Draft],
                      marker_of: Callable[[Line], str]) -> list[Draft]:
    """The page's blocks with the lines of each tagged list item as one list item at its
    depth (see the module's docstring); ``drafts`` itself when the page's items disagree with
    what it draws.  ``marker_of`` reads a line's bullet or item number."""
    if tags is None or not tags.tagged or not tags.items \
            or not all(_agrees(item.label + " " + item.text, item.boxes, words) for item in tags.items):
        return drafts
    out: list[Draft] = []
    last: int | None = None
    for draft in drafts:
        if draft.kind not in _TEXT_KINDS:
            out.append(draft)
            last = None
            continue
        runs = _runs(draft.lines, lambda words: _line_item(words, tags.items))
        if len(runs) == 1 and runs[0][0] is None:
            out.append(draft)
            last = None
            continue
        for position, (index, lines) in enumerate(runs):
            if index is not None and index == last and out[-1].kind == "list_item":
                out[-1].lines.extend(lines)  # one item the heuristics cut in two
                continue
            if index is not None:
                marker = marker_of(lines[0]) or _glued_number(lines[0].text)
                part = replace(draft, kind="list_item", lines=lines, marker=marker, level=None,
                               number_depth=0, label=False, depth=tags.items[index].depth)
            else:
                marker = draft.marker if position == 0 else ""
                part = replace(draft, kind="list_item" if marker else "paragraph", lines=lines, marker=marker)
            out.append(part)
            last = index
    return out


def _glued_number(text: str) -> str:
    """An item number drawn without a space before the item's text ("10.Budget": a tab after
    the number, which the text layer does not keep): in a tagged list item, its label."""
    match = _GLUED_NUMBER.match(text)
    return match.group(1) if match else ""


def _line_item(words: list[Word], items: list[TaggedItem]) -> int | None:
    """The index of the tagged list item most of the line's words are drawn in, if any."""
    for index, item in enumerate(items):
        if sum(1 for w in words if _in_boxes(w, item.boxes)) * 2 > len(words):
            return index
    return None


def drawn_as_artifact(line: Line, artifacts: list[TaggedRegion]) -> bool:
    """Whether most of a line's words are text the page marks as an artifact."""
    boxes = tuple(box for artifact in artifacts for box in artifact.boxes)
    return bool(boxes) and sum(1 for w in line.words if _in_boxes(w, boxes)) * 2 > len(line.words)
