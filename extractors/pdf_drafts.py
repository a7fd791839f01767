"""The structure stage's working types, shared by the rules that draft a page's blocks
(:mod:`extractors.pdf_structure`) and those that decide its headings
(:mod:`extractors.pdf_headings`): a line of words, a block before its heading level is known,
the document's body style, and the shapes of a line's text both sets of rules read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from operator import attrgetter
from typing import Any

from extractors.pdf_contents import ContentsEntry
from extractors.pdf_table_model import FoundTable
from extractors.pdf_words import Word

# An item number opening a line ("1.", "(a)", "iv)"): a list item's marker, and not a title's
# first word.
ITEM_NUMBER = re.compile(r"^(\(?(\d{1,3}|[a-z]|[ivx]{1,5})[.)])\s+(?=\S)")
# A table of contents line: dot leaders and a page number.
LEADERS = re.compile(r"(\.\s?){4,}\s*[\divxlc]+\s*$", re.IGNORECASE)
# What a sentence (or a label) ends with.
SENTENCE_END = (".", "!", "?", ":", ";")
# What a font's name adds to its family's in some producers' names ("TimesNewRomanPSMT").
FACE_SUFFIX = re.compile(r"(psmt|mt|ps)$")
# Typewriter faces (matched inside a font's family name): a block set in one holds code or data.
FIXED_PITCH = ("mono", "courier", "consol", "menlo", "monaco", "code", "typewriter", "inconsolata")


@lru_cache(maxsize=1024)
def font_family(font: str) -> str:
    """A font's family: its name without the subset tag ("ABCDEF+") and style ("-Bold").
    (Cached: asked for every word, of a document's few fonts.)"""
    name = font.split("+", 1)[-1]
    return re.split(r"[-,]", name, maxsplit=1)[0].lower()


@lru_cache(maxsize=256)
def _face(family: str) -> str:
    """A font family's name without what some producers add to it (see FACE_SUFFIX)."""
    return FACE_SUFFIX.sub("", family)


# (Read off every line and word the rules ask about: attrgetter() maps them in C.)
_TEXT, _SIZE = attrgetter("text"), attrgetter("size")
_X0, _TOP, _X1, _BOTTOM = attrgetter("x0"), attrgetter("top"), attrgetter("x1"), attrgetter("bottom")


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
        return " ".join(map(_TEXT, self.words))

    @cached_property
    def face(self) -> str:
        """The typeface most of the line's characters are set in, one name for its weights and
        slants ("ArialMT" and "Arial-BoldMT" both "arial"; weight and slant are told apart
        elsewhere).  (Made once: asked of every line the paragraph rules compare.)"""
        fonts = {word.font for word in self.words}
        if len(fonts) <= 1:  # (most lines: one font)
            return _face(font_family(fonts.pop())) if fonts else ""
        families: dict[str, int] = {}
        for word in self.words:
            family = font_family(word.font)
            families[family] = families.get(family, 0) + len(word.text)
        return _face(max(families, key=families.__getitem__))

    @property
    def height(self) -> float:
        return self.bottom - self.top


# A word space, in the line's font sizes, as the line breaker leaves it (see next_word_fits).
WORD_SPACE = 0.25


def next_word_fits(line: Line, below: Line, right: float) -> bool:
    """Whether ``below``'s first word would have fitted after ``line``, a word space apart,
    before ``right``: a line broken short of its measure, where a line broken full would not
    have taken it (the test the paragraph and the heading rules both make of a wrap)."""
    first = below.words[0]
    return line.x1 + WORD_SPACE * line.size + (first.x1 - first.x0) <= right


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
class Style:
    """The document's body font, and the heading font sizes in rank order."""

    body_size: float
    body_bold: bool
    body_family: str = ""

    @property
    def body_face(self) -> str:
        """The body's typeface named as :attr:`Line.face` names a line's (the family without
        what some producers add to it, FACE_SUFFIX), so that the two compare."""
        return _face(self.body_family)


@dataclass
class Draft:
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
    # A box's label ("Note" over a callout's text, see pdf_headings.unhead_box_labels): the
    # box's text follows it, so it neither ends a heading's section nor pairs with a heading.
    boxed: bool = False
    # A heading set apart from the body by its typeface alone (pdf_headings._set_apart): it
    # stays one only over running text (pdf_headings.settle_heading_faces).
    by_face: bool = False
    # A bold line of the body's size left text for its sentence's shape
    # (pdf_headings._sentence_shaped): a heading still where the document sets its headings
    # so (pdf_headings.head_sentences_in_heading_faces).
    sentence: bool = False
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
        lines = self.lines
        return (min(map(_X0, lines)), min(map(_TOP, lines)), max(map(_X1, lines)), max(map(_BOTTOM, lines)))

    @property
    def size(self) -> float:
        return max(map(_SIZE, self.lines))

    @property
    def bold(self) -> bool:
        return all(line.bold for line in self.lines)

    @property
    def text(self) -> str:
        return " ".join(map(_TEXT, self.lines))
