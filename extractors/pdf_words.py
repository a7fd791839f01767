"""Positioned text and ruling lines of one PDF page, read from its text layer with PDFium:
the input of the structure stage (:mod:`extractors.pdf_structure`) and the table finder
(:mod:`extractors.pdf_tables`).

Coordinates are PDF points with the origin at the page's **top-left** corner (y grows
downwards, as in reading order), whatever the page's own coordinate system or rotation.

Words are read character by character with PDFium's text page API (one box call per
character, one font look-up per word); rulings from the page's path objects.  A small digit
raised right after a word (a footnote number set as a superscript: "2023" and a raised "1")
stays on the word as Unicode's superscript digit ("2023¹"), not as another digit of it.  PDFium gives a
right-to-left word's letters in logical order, so they run leftwards: such a word is kept
whole, its lam-alef ligatures in logical order (:mod:`extractors.pdf_bidi` orders its line).

Text that does not stand upright on the page as displayed (a page whose ``/Rotate`` turns its
upright content, a landscape table printed sideways on a portrait page, a page upside down)
is read in its own frame, where it is upright: otherwise every character is a line of its own
and a table comes out transposed with its words reversed.  A page that is mostly such text is
read wholly in that frame; a large turned region on an upright page is read in its frame and
placed where it stands (:class:`Placement`).  Such a layout's coordinates are those frames',
not the displayed page's: :meth:`PageLayout.to_page` puts the boxes the structure stage finds
back on the page as displayed.
"""

from __future__ import annotations

import ctypes
import math
import re
import struct
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from operator import attrgetter
from typing import TYPE_CHECKING, Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from extractors.pdf_bidi import (
    FORMS_LOW,
    RTL_HIGH,
    RTL_LETTER_CODES,
    RTL_LOW,
    has_rtl,
    presentation_form,
    rtl_code,
    rtl_letter,
)

if TYPE_CHECKING:
    from extractors.pdf_structure import PageStructure

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Word:
    """A run of characters without a space, in one font, on one baseline."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    size: float  # font size in points (the glyph box height when the font says nothing)
    bold: bool
    italic: bool = False
    font: str = ""
    # Index of the line this word belongs to on its page (words in reading order of PDFium).
    line: int = 0
    # What may set a body-size title apart when nothing else does (read by _read_accents for
    # the first word of a short line and of the line after it, never for every word): its first
    # character's fill colour as 0xRRGGBB (-1: not read), and whether its letters after the
    # first are capitals set smaller (small capitals).
    colour: int = -1
    small_caps: bool = False


def _new_word(text: str, x0: float, top: float, x1: float, bottom: float, size: float, bold: bool,
              italic: bool, font: str, line: int) -> Word:
    """``Word(...)`` for the reader, which makes one per word of every page: a frozen
    dataclass's ``__init__`` sets each field through ``object.__setattr__``, six times the
    cost of filling the instance's dictionary at once (the same word, equal and hashed alike:
    tests/test_pdf_words.py holds them to it)."""
    word = object.__new__(Word)
    word.__dict__.update(text=text, x0=x0, top=top, x1=x1, bottom=bottom, size=size, bold=bold,
                         italic=italic, font=font, line=line)
    return word


@dataclass(frozen=True)
class Ruling:
    """A horizontal or vertical straight line segment drawn on the page (a path stroke, a
    thin filled rectangle, or one edge of a rectangle): what ruled tables are made of."""

    x0: float
    top: float
    x1: float
    bottom: float

    @property
    def horizontal(self) -> bool:
        return (self.bottom - self.top) <= (self.x1 - self.x0)


@dataclass
class PageLayout:
    number: int  # 1-based
    width: float
    height: float
    words: list[Word] = field(default_factory=list)
    rulings: list[Ruling] = field(default_factory=list)
    # Text set at an angle (arXiv's margin stamp, turned column headers): kept out of the
    # words, whose lines and columns it would scramble; its boxes are where it is drawn.
    turned: list[Word] = field(default_factory=list)
    # Text read in a turned frame (see the module's docstring): where its boxes are in this
    # layout and how they map back onto the page as displayed; empty for upright pages.
    placements: list[Placement] = field(default_factory=list)
    # Pages set one under the other in this layout (a spread's halves, extractors.pdf_spreads):
    # each one's top and bottom; empty when the layout is one page.
    stacked: list[tuple[float, float]] = field(default_factory=list)
    # The boxes of the page's pictures (its image objects; those inside a form XObject are
    # not read): a ruled grid of photographs and their captions is no table (pdf_table_grids).
    # Empty for a page read in a turned frame.
    pictures: list[Box] = field(default_factory=list)
    # The strips between justified columns of running text (extractors.pdf_justified_gutters),
    # found once from the page's rows by the structure pass and read by both the table finder
    # and the line builder; None when not found yet (the table finder then finds them itself).
    gutters: list[tuple[float, float]] | None = None

    def page_box(self, box: Box) -> Box:
        """A box of this layout on the page as displayed."""
        x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        for placement in self.placements:
            if placement.holds(x, y):
                return placement.to_page(box)
        return box

    def to_page(self, found: PageStructure) -> None:
        """The structure found on this layout (block and table boxes, the page size) put back
        on the page as displayed, for provenance: a chunk's boxes are where a viewer shows
        its text."""
        if not self.placements:
            return
        for block in found.blocks:
            block.box = self.page_box(block.box)
        for table in found.tables:
            table.x0, table.top, table.x1, table.bottom = self.page_box(
                (table.x0, table.top, table.x1, table.bottom))
        found.size = self.placements[0].shown


@dataclass(frozen=True)
class Placement:
    """Text turned ``turn`` degrees (counter-clockwise) on the page as displayed, read in its
    own upright frame and set into the layout shifted by (``dx``, ``dy``): the layout box
    (``x0``, ``top``, ``x1``, ``bottom``) holds it.  ``shown`` is the displayed page's size."""

    turn: int
    dx: float
    dy: float
    x0: float
    top: float
    x1: float
    bottom: float
    shown: tuple[float, float]

    def holds(self, x: float, y: float) -> bool:
        return self.x0 - 1 <= x <= self.x1 + 1 and self.top - 1 <= y <= self.bottom + 1

    def to_page(self, box: Box) -> Box:
        x0, top, x1, bottom = box
        return _unturn((x0 - self.dx, top - self.dy, x1 - self.dx, bottom - self.dy), self.turn, *self.shown)


def _turn(box: Box, turn: int, width: float, height: float) -> Box:
    """A box on the displayed page (``width`` x ``height``) in the frame where text turned
    ``turn`` degrees counter-clockwise is upright (read left to right, lines top to bottom)."""
    x0, top, x1, bottom = box
    if turn == 90:  # read bottom to top: the text's lines follow one another rightwards
        return height - bottom, x0, height - top, x1
    if turn == 180:
        return width - x1, height - bottom, width - x0, height - top
    if turn == 270:  # read top to bottom: lines follow leftwards
        return top, width - x1, bottom, width - x0
    return box


def _unturn(box: Box, turn: int, width: float, height: float) -> Box:
    """The inverse of :func:`_turn`: a box of the text's frame on the displayed page."""
    u0, v0, u1, v1 = box
    if turn == 90:
        return v0, height - u1, v1, height - u0
    if turn == 180:
        return width - u1, height - v1, width - u0, height - v0
    if turn == 270:
        return width - v1, u0, width - v0, u1
    return box


# Fonts whose name says bold although their weight and flags do not.
_BOLD_NAMES = ("bold", "black", "heavy", "semibold", "demibold", "-bd", ",bd")
_ITALIC_NAMES = ("italic", "oblique")
# TeX's bold fonts say so only in their names: CMBX10, SFBX1200 (bold extended), CMB10.
_TEX_BOLD = re.compile(r"bx\d|(^|\+)cmb\d")
_FLAG_ITALIC = 1 << 6
_FLAG_FORCE_BOLD = 1 << 18
# PDFium's weight is worked out from the font descriptor's StemV, which many producers write
# at random (ICDAR 2013's US reports: AGaramondPro-Regular at "768", TimesNewRomanPSMT at
# "700", the same documents' Helvetica-Bold at "525"): a whole document's body read as bold,
# so its bold headings are no bolder than its text and are lost.  A name that says a regular
# weight ("-Regular", "Times-Roman", "-Book", "-Light", Monotype's "PSMT") or is the bare
# name of a standard or core system face (whose bold is always named "-Bold", ",Bold",
# "-BoldMT") outweighs the weight; the ForceBold flag and bold names still count.
_REGULAR_NAMES = re.compile(r"[-,_](regular|roman|book|light|thin|normal|plain)\b|psmt$")
_CORE_FACES = frozenset(("helvetica", "arial", "arialmt", "courier", "couriernew", "couriernewpsmt",
                         "times", "timesnewroman", "timesnewromanps", "verdana", "tahoma", "georgia",
                         "calibri", "cambria", "garamond", "lucidasans", "trebuchetms", "palatino",
                         "bookantiqua", "centurygothic", "segoeui", "liberationsans", "liberationserif"))
# PDFium marks a hyphen it found at a line end as U+0002 (and FPDFText_GetText as U+FFFE):
# a hyphen for the structure stage, which leaves the joining to text_repair.join_hyphenated.
_SOFT_HYPHEN = 0x02
# Control characters that end a word whatever their box: tab, line and page breaks, carriage
# return (any other stands for a glyph: see _WordReader.inside).
_BREAKS = frozenset((9, 10, 11, 12, 13))
# Turned glyphs drawn one at a time are one word while the gap between their (loose) boxes
# along the line is under this share of the line's thickness (glyphs of a word touch; a space,
# a quarter of an em, is over it), and they stand level across the line within _TURNED_LEVEL.
_TURNED_JOIN = 0.12
_TURNED_LEVEL = 0.3
_LAM = "\u0644"
# A loose box's reach over and under the baseline, in font sizes, where PDFium gives a glyph's
# tight box instead (a typical text face's ascent and descent: DejaVu Sans .93 and .24,
# Liberation Sans .91 and .21).
_ASCENT, _DESCENT = 0.9, 0.22
# A footnote number set as a superscript right after a figure or a word ("2023" and a raised
# "1", "Central" and a raised "3": a statistical table's note markers): a digit whose box is
# at most _RAISED_HEIGHT of the word's height and whose foot stands at least _RAISED_BY of it
# above the word's foot.  It stays on the word as Unicode's superscript digit ("2023¹"), as
# drawn: read as an ordinary digit it makes another figure ("20231"); NFKC folds it back.
_RAISED_HEIGHT = 0.9
_RAISED_BY = 0.25
_SUPERSCRIPT_DIGITS = str.maketrans("0123456789",
                                    "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")
_ALEF_LAM = re.compile("[\u0627\u0623\u0625\u0622]\u0644")
_RULE_THICKNESS = 2.0  # a path or rectangle thinner than this (points) is a line
_MAX_PATH_SEGMENTS = 400  # paths with more segments are drawings (charts, glyph outlines)
# A list's bullet drawn as a shape, not typed as a glyph (a browser's disc, circle or square
# marker): a small filled shape about as wide as high, this share of its item's font size, a
# little before the item's first word and level with it.
# (A chart legend's keys, set one under the other before their labels, are drawn larger.)
_DRAWN_BULLET_SIZE = (0.15, 0.5)
_DRAWN_BULLET_GAP = 2.0  # the most space between it and its word, in the word's font sizes
# A page with more small filled shapes than this draws a chart or a map (a scatter plot's
# markers), not lists: none of them is read as a bullet.
_MAX_DRAWN_BULLETS = 200
# Letters set apart by tracking (a report's kicker "G O V E R N A N C E", a spaced-out
# heading): PDFium puts a space between letters drawn this far apart, so each letter comes as
# a word of its own.  A run of at least _SPACED_MIN_LETTERS one-letter words on one line, in
# one font and size, at gaps of at most _SPACED_RUN_GAP font sizes (a tracked space between
# two words included), the least of them at most _SPACED_MAX_GAP, the letters' gaps differing
# by at most _SPACED_EVEN (tracking is even; single letters in table cells stand at gaps that
# vary with the glyphs' widths), is spaced-out text: a gap _SPACED_WORD_GAP times the run's
# least one or more is a space between its words.  Letters only: a row of one-digit cells in
# a dense table stands like tracked digits.
_SPACED_MIN_LETTERS = 4
_SPACED_RUN_GAP = 1.5
_SPACED_MAX_GAP = 0.6
_SPACED_EVEN = 0.15
_SPACED_WORD_GAP = 1.6
# Marks a spaced-out word carries between two of its letters, tracked as its letters are
# ("C H A I R ' S", "W E L L - B E I N G"): read inside the word, not as words of their own.
_SPACED_INNER = "'\u2019-\u2010"
# A line of at most this many words may be a title: its first word's colour and small capitals
# are read (_read_accents), and the colour of the line after it (the text it would head).
_ACCENT_LINE_WORDS = 8
# Small capitals: the letters after a word's capital are capitals at this share of its size
# (a word processor sets them at 0.8, a browser that synthesises them at 0.7), on its baseline
# (their origins within _SMALL_CAPS_LEVEL of its size; a raised letter is a superscript).  A
# drop cap is larger than twice its text.
_SMALL_CAPS_SCALE = (0.6, 0.9)
_SMALL_CAPS_LEVEL = 0.15


@dataclass
class _Frame:
    """The page's visible area (its crop box) and rotation: PDF user space to top-left space;
    with ``turn``, to the frame where text turned that much on the displayed page is upright."""

    left: float
    bottom: float
    right: float
    top: float
    rotation: int
    turn: int = 0

    @property
    def shown(self) -> tuple[float, float]:
        """The displayed page's width and height."""
        width, height = self.right - self.left, self.top - self.bottom
        return (height, width) if self.rotation in (90, 270) else (width, height)

    @property
    def size(self) -> tuple[float, float]:
        width, height = self.shown
        return (height, width) if self.turn in (90, 270) else (width, height)

    def turned(self, turn: int) -> _Frame:
        return replace(self, turn=turn)

    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        """A PDF-space box (any corner order) as (x0, top, x1, bottom) on the displayed page
        (in the turned frame with ``turn``)."""
        if self.turn:
            return _turn(self.shown_box(x0, y0, x1, y1), self.turn, *self.shown)
        return self.shown_box(x0, y0, x1, y1)

    def shown_box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        """A PDF-space box (any corner order) as (x0, top, x1, bottom) on the displayed page."""
        xs, ys = (min(x0, x1), max(x0, x1)), (min(y0, y1), max(y0, y1))
        if self.rotation == 90:
            return ys[0] - self.bottom, xs[0] - self.left, ys[1] - self.bottom, xs[1] - self.left
        if self.rotation == 180:
            return self.right - xs[1], ys[0] - self.bottom, self.right - xs[0], ys[1] - self.bottom
        if self.rotation == 270:
            return self.top - ys[1], self.right - xs[1], self.top - ys[0], self.right - xs[0]
        return xs[0] - self.left, self.top - ys[1], xs[1] - self.left, self.top - ys[0]


def _frame(page: pdfium.PdfPage) -> _Frame:
    left, bottom, right, top = page.get_cropbox()
    return _Frame(left, bottom, right, top, page.get_rotation() % 360)


def _bare(function: Any, restype: Any) -> Any:
    """A PDFium function of pypdfium2's bindings, called without their argument checks and
    pointer conversions: those cost more than PDFium's own work in the calls made once per
    character, which then pass a ``c_void_p`` handle, Python ints and ``byref`` pointers."""
    address = ctypes.cast(function, ctypes.c_void_p).value
    assert address is not None
    # No argument types listed: a C function takes the arguments it is given as they are.
    return ctypes.CFUNCTYPE(restype)(address)


# FPDFText_GetLooseCharBox(text page, index, FS_RECTF*) -> bool, once per character.
_LOOSE_CHAR_BOX = _bare(pdfium_c.FPDFText_GetLooseCharBox, ctypes.c_int)
# FPDFText_GetTextObject(text page, index) -> the object's address (an int) or None, once a
# word: a pointer result converted to an int at once, not through ctypes.cast.
_TEXT_OBJECT = _bare(pdfium_c.FPDFText_GetTextObject, ctypes.c_void_p)
# FPDFText_GetUnicode(text page, index) -> code, once per character of a page whose text
# FPDFText_GetText does not give index by index.
_UNICODE = _bare(pdfium_c.FPDFText_GetUnicode, ctypes.c_uint)
# FPDFTextObj_GetFont(text object) -> the font's address, once per text object.
_TEXT_OBJECT_FONT = _bare(pdfium_c.FPDFTextObj_GetFont, ctypes.c_void_p)
# FPDFText_GetFillColor(text page, index, &R, &G, &B, &A) -> bool, once per short line;
# FPDFText_GetFontSize(text page, index) -> size and FPDFText_GetCharOrigin(text page, index,
# &x, &y) -> bool, for a short line's first two characters (_small_caps).
_FILL_COLOUR = _bare(pdfium_c.FPDFText_GetFillColor, ctypes.c_int)
_FONT_SIZE = _bare(pdfium_c.FPDFText_GetFontSize, ctypes.c_double)
_CHAR_ORIGIN = _bare(pdfium_c.FPDFText_GetCharOrigin, ctypes.c_int)
# An FS_RECTF (left, top, right, bottom) read in one call rather than four field look-ups.
_RECT = struct.Struct("4f")


def _handle(textpage: pdfium.PdfTextPage) -> ctypes.c_void_p:
    """The text page's handle as the bare calls take it."""
    return ctypes.cast(textpage.raw, ctypes.c_void_p)


class _Style:
    """Font size, weight and name of the character starting a word (one look-up per word:
    fonts rarely change inside a word, and per-character calls would halve the page rate)."""

    def __init__(self, textpage: pdfium.PdfTextPage) -> None:
        self.raw = textpage.raw
        self.handle = _handle(textpage)
        self.name = ctypes.create_string_buffer(128)
        self.flags = ctypes.c_int(0)
        self.matrix = pdfium_c.FS_MATRIX()
        self.names: dict[str, str] = {}
        self.by_object: dict[int, tuple[float, bool, bool, str, int]] = {}
        # Weight and name belong to the font, which many text objects share.
        self.by_font: dict[int, tuple[bool, bool, str]] = {}

    def font_name(self, font: str) -> str:
        """One string object per font name (a page has thousands of words, a few fonts)."""
        return self.names.setdefault(font, font)

    def at(self, index: int) -> tuple[float, bool, bool, str, int]:
        """The style of the character at ``index``: looked up once per text object (a text
        object has one font, size and direction, and usually holds a line or more).  The
        direction is the baseline's angle in PDF space (0, 90, 180 or 270 degrees counter-
        clockwise), or -1 for any other angle."""
        key = _TEXT_OBJECT(self.handle, index)
        if key is None:
            return self.look_up(index)
        style = self.by_object.get(key)
        if style is None:
            style = self.by_object[key] = self.look_up(index, key)
        return style

    def look_up(self, index: int, text_object: int | None = None) -> tuple[float, bool, bool, str, int]:
        """The style of the character at ``index`` (of ``text_object`` when it has one)."""
        size = pdfium_c.FPDFText_GetFontSize(self.raw, index)
        direction = 0
        if pdfium_c.FPDFText_GetMatrix(self.raw, index, self.matrix):
            m = self.matrix
            # The size as drawn: fonts are often set at size 1 and scaled by the text matrix.
            size *= (m.c ** 2 + m.d ** 2) ** 0.5
            if abs(m.b) + abs(m.c) > 0.1 * (abs(m.a) + abs(m.d)) or (m.a < 0 and m.d < 0):
                direction = _direction(m.a, m.b, m.c, m.d)
        # PDFium reads weight, flags and name from the character's text object's font.
        font_key = _TEXT_OBJECT_FONT(ctypes.c_void_p(text_object)) if text_object is not None else None
        face = self.by_font.get(font_key) if font_key is not None else None
        if face is None:
            face = self.face(index)
            if font_key is not None:
                self.by_font[font_key] = face
        bold, italic, font = face
        return float(size), bold, italic, font, direction

    def face(self, index: int) -> tuple[bool, bool, str]:
        """Bold, italic and the font's name, for the character at ``index``."""
        weight = pdfium_c.FPDFText_GetFontWeight(self.raw, index)
        length = pdfium_c.FPDFText_GetFontInfo(self.raw, index, self.name, 128, ctypes.byref(self.flags))
        font = self.name.value.decode("latin-1", "replace") if 0 < length <= 128 else ""
        lower = font.lower()
        flags = self.flags.value
        named = any(n in lower for n in _BOLD_NAMES) or bool(_TEX_BOLD.search(lower))
        bare = lower.split("+", 1)[-1]
        regular = not named and (bool(_REGULAR_NAMES.search(bare)) or bare in _CORE_FACES)
        bold = (weight >= 600 and not regular) or bool(flags & _FLAG_FORCE_BOLD) or named
        italic = bool(flags & _FLAG_ITALIC) or any(n in lower for n in _ITALIC_NAMES)
        return bold, italic, font


def _direction(a: float, b: float, c: float, d: float) -> int:
    """A text matrix's baseline angle, counter-clockwise, as 0, 90, 180 or 270 degrees; -1
    for text set at another angle, or mirrored (which no frame turns upright)."""
    if a * d - b * c <= 0:
        return -1
    angle = math.degrees(math.atan2(b, a)) % 360
    quarter = round(angle / 90) % 4 * 90
    off = abs(angle - quarter)
    return quarter if min(off, 360 - off) <= 6 else -1


def _page_units(raw: Any, count: int) -> list[int]:
    """The page's text in one call (UTF-16 units, one per character index, and a final 0)
    instead of one FPDFText_GetUnicode call per character; per character when the text
    FPDFText_GetText gives does not line up with the indices (it drops some characters),
    each code cut to 16 bits as a UTF-16 unit array would keep it."""
    units = (ctypes.c_ushort * (count + 1))()
    if pdfium_c.FPDFText_GetText(raw, 0, count, units) - 1 == count:
        return units[:]  # a list: indexing it costs less than indexing the ctypes array
    handle = ctypes.cast(raw, ctypes.c_void_p)
    return [_UNICODE(handle, i) & 0xFFFF for i in range(count)] + [0]


class _WordReader:
    """Characters into words, one pass over the page's character indices."""

    def __init__(self, textpage: pdfium.PdfTextPage, frame: _Frame) -> None:
        self.raw = textpage.raw
        self.frame = frame
        self.style = _Style(textpage)
        self.words: list[Word] = []
        self.chars: list[str] = []
        self.box = [0.0, 0.0, 0.0, 0.0]
        self.start = 0
        self.line = 0
        # Words of text set at an angle (a margin stamp, a turned column header), and the
        # angle of each on this frame (counter-clockwise degrees, -1 for an odd angle).
        self.rotated: list[Word] = []
        self.rotated_turns: list[int] = []
        self.rotated_at_space = True
        # Text turned 90, 180 or 270 degrees on this frame: (first index, end index, characters)
        # of each piece, by angle, for reading it again in its own frame.
        self.spans: dict[int, list[tuple[int, int, int]]] = {}
        self.units: list[int] = []
        self.count = 0
        self.rtl = False  # a right-to-left letter (bidi class R or AL) was read
        # Right-to-left letters (bidi class R or AL: Hebrew, Arabic; not figures, nor letters of
        # other scripts) of the word being read that extended its box rightwards and leftwards: a
        # right-to-left word given rightwards is in visual order (see visual_word).  (They are
        # read by add, never on the fast path.)
        self.rightward = self.leftward = 0
        # The first character index of each upright word, as ``words`` holds them (for
        # typed_space_before).
        self.starts: list[int] = []

    def flush(self, at_space: bool = True, end: int = 0) -> None:
        """The word read so far, ending before character ``end``."""
        if self.chars:
            # (StyleReader.at inline for the text objects met before: a page's every word.)
            style = self.style
            key = _TEXT_OBJECT(style.handle, self.start)
            found = style.by_object.get(key) if key is not None else None
            size, bold, italic, font, direction = found if found is not None else style.at(self.start)
            x0, top, x1, bottom = self.box
            if not 0.3 * (bottom - top) <= size <= 3 * (bottom - top):
                size = bottom - top  # no usable size from the font
            text = "".join(self.chars)
            if self.rightward > self.leftward and has_rtl(text):
                text = self.visual_word(text, end)
            elif _LAM in text:
                text = self.lam_alef(text, end)
            word = _new_word(text, x0, top, x1, bottom, size, bold, italic,
                             style.names.setdefault(font, font), self.line)  # (font_name, inline)
            # The angle on this frame: the page's /Rotate (clockwise) and the frame's own turn
            # take the text's angle in PDF space back.
            turn = (direction - self.frame.rotation - self.frame.turn) % 360 if direction >= 0 else -1
            if not turn:
                self.words.append(word)
                self.starts.append(self.start)
            else:
                if turn > 0:
                    self.spans.setdefault(turn, []).append((self.start, max(end, self.start + 1),
                                                            len(word.text)))
                if self.rotated and (not self.rotated_at_space
                                     or _runs_on(self.rotated[-1], self.rotated_turns[-1], word, turn)):
                    # Turned text is read a character at a time (each one a "line" of its
                    # own on this frame): its pieces, until a space, are one word.
                    last = self.rotated[-1]
                    self.rotated[-1] = replace(last, text=last.text + word.text, x0=min(last.x0, x0),
                                               top=min(last.top, top), x1=max(last.x1, x1),
                                               bottom=max(last.bottom, bottom))
                else:
                    self.rotated.append(word)
                    self.rotated_turns.append(turn)
                self.rotated_at_space = at_space
            self.chars.clear()
            self.rightward = self.leftward = 0
        elif at_space:
            self.rotated_at_space = True

    def typed_space_before(self, at: int) -> bool:
        """Whether the upright word ``words[at]`` comes right after a space the text holds (one
        the producer wrote, not one PDFium put in for a gap)."""
        start = self.starts[at]
        return start > 0 and self.units[start - 1] == 32 \
            and not pdfium_c.FPDFText_IsGenerated(self.raw, start - 1)

    def space(self, index: int, code: int) -> None:
        """A space, a line end or a control character at ``index``: the end of the word being
        read, unless it is a control character drawn over the word (see inside)."""
        if code < 32 and self.chars and code not in _BREAKS and self.inside(index):
            return
        self.flush(end=index)
        self.line += code == 10

    def inside(self, index: int) -> bool:
        """Whether the control character at ``index`` (no letter, no space) stands over the
        word being read, most of its box within the word's: a glyph of no advance the font maps
        to no text (Writer's Arabic in DejaVu Sans draws one after each letter of a title, a
        letter apart), not a break between two words (a font without a map gives its space
        glyph's code, 3, whose box stands after the word)."""
        rect = pdfium_c.FS_RECTF()
        if not pdfium_c.FPDFText_GetLooseCharBox(self.raw, index, rect):
            return True  # nothing drawn
        x0, _, x1, _ = self.frame.box(rect.left, rect.bottom, rect.right, rect.top)
        box = self.box
        return min(x1, box[2]) - max(x0, box[0]) >= 0.5 * (x1 - x0)

    def join_across_misplaced_spaces(self) -> None:
        """Right-to-left words a typed space PDFium put on the wrong side of a glyph split
        apart: Chromium's lam-alef with tanween ("جزيلاً") comes after a space that stands left
        of it, at its origin, where the word ends, so that it was read as a word of its own
        ("جزي لاً").  A right-to-left word left of the word before it whose typed space stands
        wholly left of it, not between the two, is the end of that word."""
        words, starts, units = self.words, self.starts, self.units
        if len(words) < 2 or len(words) != len(starts):
            return
        rect = pdfium_c.FS_RECTF()
        out: list[Word] = []
        kept: list[int] = []
        for word, start in zip(words, starts, strict=True):
            last = out[-1] if out else None
            if last is not None and start > 0 and units[start - 1] == 32 and last.line == word.line \
                    and word.x1 <= last.x0 + 0.1 * word.size and has_rtl(word.text) and has_rtl(last.text) \
                    and pdfium_c.FPDFText_GetLooseCharBox(self.raw, start - 1, rect):
                x0, top, x1, bottom = self.frame.box(rect.left, rect.bottom, rect.right, rect.top)
                if x1 <= word.x0 - 0.05 * word.size and word.top <= (top + bottom) / 2 <= word.bottom:
                    out[-1] = replace(last, text=last.text + word.text, x0=word.x0,
                                      top=min(last.top, word.top), bottom=max(last.bottom, word.bottom))
                    continue
            out.append(word)
            kept.append(start)
        self.words, self.starts = out, kept

    def same_origin(self, a: int, b: int) -> bool:
        """Whether the characters at ``a`` and ``b`` are drawn at one origin (one glyph's)."""
        xa, xb, y = ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
        return bool(pdfium_c.FPDFText_GetCharOrigin(self.raw, a, xa, y)
                    and pdfium_c.FPDFText_GetCharOrigin(self.raw, b, xb, y)) \
            and abs(xa.value - xb.value) <= 0.01

    def visual_word(self, text: str, end: int) -> str:
        """A right-to-left word PDFium gave in visual order (left to right), in logical order.
        Chromium writes shaped Arabic glyph by glyph, each in a span whose ActualText is its
        letters, inside a ``/ReversedChars`` mark (the glyphs drawn in visual order); PDFium
        leaves many such words as drawn.  Their glyphs are read right to left, each glyph's
        letters (a lam-alef ligature's two, which share its box) and a figure's digits kept in
        order; a full stop PDFium put at the end, left of the word, stays there.  The letters
        of one glyph (one ActualText span: a final alef and its tanween, a lam-alef and its
        tanween) share its origin, each with a slice of its box, in either order, and not
        always one after the other: they are one glyph, its letters right to left and its
        marks after them ("اً", never "ًا")."""
        if end - self.start != len(text):  # characters and indices do not align
            return "".join(reversed(re.findall(r"\d+|\D", text)))
        rect = pdfium_c.FS_RECTF()
        x, y = ctypes.c_double(), ctypes.c_double()
        # [[(centre, character), ...], left, right, origin, sliced] of each glyph (or figure;
        # sliced: letters of one glyph found by their origin, each with its slice of its box)
        units: list[list] = []
        for at, ch in enumerate(text):
            pdfium_c.FPDFText_GetLooseCharBox(self.raw, self.start + at, rect)
            origin = x.value if pdfium_c.FPDFText_GetCharOrigin(self.raw, self.start + at, x, y) else None
            last = units[-1] if units else None
            glyph = next((unit for unit in units if origin is not None and unit[3] is not None
                          and abs(unit[3] - origin) <= 0.01), None) if has_rtl(ch) else None
            if glyph is not None:
                glyph[4] = True
            elif last is not None and ((rect.left, rect.right) == (last[1], last[2])
                                       or (ch.isdigit() and last[0][-1][1].isdigit())):
                glyph = last
            if glyph is not None:
                glyph[0].append((rect.left + rect.right, ch))
                glyph[1] = min(glyph[1], rect.left)
                glyph[2] = max(glyph[2], rect.right)
            else:
                units.append([[(rect.left + rect.right, ch)], rect.left, rect.right, origin, False])
        units.sort(key=lambda unit: -(unit[1] + unit[2]))
        return "".join(_glyph_letters(unit[0]) if unit[4] else "".join(ch for _, ch in unit[0])
                       for unit in units)

    def lam_alef(self, text: str, end: int) -> str:
        """PDFium splits an Arabic lam-alef ligature glyph into alef then lam (visual order),
        both with the ligature's box: put them in logical order, lam then alef (as
        :func:`extractors.text_repair.repair_lam_alef` does for plain text).  An alef before
        the lam of the next letters (``ال``) has a box of its own and stays."""
        if not _ALEF_LAM.search(text):
            return text
        indices: Sequence[int] = range(self.start, end)
        if len(indices) != len(text):  # glyphs of no text read over the word (see inside)?
            indices = [i for i in indices if self.units[i] >= 32 or self.units[i] == _SOFT_HYPHEN]
            if len(indices) != len(text):
                return text  # characters and indices do not align: left as read
        chars = list(text)
        first, second = pdfium_c.FS_RECTF(), pdfium_c.FS_RECTF()
        for match in _ALEF_LAM.finditer(text):
            at = match.start()
            if pdfium_c.FPDFText_GetLooseCharBox(self.raw, indices[at], first) and \
                    pdfium_c.FPDFText_GetLooseCharBox(self.raw, indices[at + 1], second) and \
                    (first.left, first.right) == (second.left, second.right):
                chars[at], chars[at + 1] = chars[at + 1], chars[at]
        return "".join(chars)

    def glyph_extent(self, index: int, char_box: Box) -> Box:
        """A right-to-left letter's loose box reaching a font's ascent and descent over its
        baseline.  A glyph PDFium reads from a marked span's ActualText (how Chromium writes
        shaped Arabic, a span per glyph) gets its glyph's tight box as its loose box: a dot
        under the line was a line of its own, and the word fell apart.  A loose box lower
        than the font's size is a glyph's too, over the font's descent (Writer's Arabic in
        DejaVu Sans: an alef twice as tall as the letter before it, which ended the word):
        it is stretched to the font's reach."""
        frame = self.frame
        left, right, low, high = (ctypes.c_double() for _ in range(4))
        if frame.rotation or frame.turn \
                or not pdfium_c.FPDFText_GetCharBox(self.raw, index, left, right, low, high):
            return char_box
        tight = frame.box(left.value, low.value, right.value, high.value)
        size = self.style.at(index)[0]
        glyph = all(abs(a - b) <= 0.01 for a, b in zip(tight, char_box, strict=True))
        if not glyph and char_box[3] - char_box[1] >= size:
            return char_box  # a font's box, not the glyph's
        x, y = ctypes.c_double(), ctypes.c_double()
        if not pdfium_c.FPDFText_GetCharOrigin(self.raw, index, x, y):
            return char_box
        _, top, _, bottom = frame.box(x.value, y.value - _DESCENT * size, x.value, y.value + _ASCENT * size)
        if glyph:
            return char_box[0], top, char_box[2], bottom
        return char_box[0], min(top, char_box[1]), char_box[2], max(bottom, char_box[3])

    def read(self) -> list[Word]:
        raw, frame = self.raw, self.frame
        count = pdfium_c.FPDFText_CountChars(raw)
        if count <= 0:
            return []
        units = self.units = _page_units(raw, count)
        self.count = count
        width, height = frame.size
        rect = pdfium_c.FS_RECTF()
        upright, left, page_top = frame.rotation == 0, frame.left, frame.top
        # The per-character calls, bound once (see _bare).
        loose_box, handle, rect_ref = _LOOSE_CHAR_BOX, self.style.handle, ctypes.byref(rect)
        unpack = _RECT.unpack_from
        raised, rise = _SUPERSCRIPT_DIGITS, _RAISED_BY
        rtl_low, rtl_high = RTL_LOW, RTL_HIGH
        box, chars = self.box, self.chars  # changed in place, never replaced
        for index in range(count):
            code = units[index]
            if code == 0xFFFE:  # FPDFText_GetText writes the line-end hyphen so
                code = pdfium_c.FPDFText_GetUnicode(raw, index)
            if (code <= 32 and code != _SOFT_HYPHEN) or code == 0xFFFE or \
                    (code >= 0x85 and chr(code).isspace()):
                self.flush(end=index) if code == 32 else self.space(index, code)
                continue
            if not loose_box(handle, index, rect_ref):
                if code == _SOFT_HYPHEN and chars:
                    chars.append("-")  # a line-end hyphen PDFium gives no box
                continue
            r_left, r_top, r_right, r_bottom = unpack(rect)
            if upright:  # the common case, without a call per character
                x0, top = r_left - left, page_top - r_top
                x1, bottom = r_right - left, page_top - r_bottom
            else:
                x0, top, x1, bottom = frame.box(r_left, r_bottom, r_right, r_top)
            if x1 < 0 or x0 > width or bottom < 0 or top > height:
                continue  # outside the visible page, as get_text_bounded leaves it out
            if chars and (32 < code < rtl_low or rtl_high < code < 0xD800):
                # The common case inline (a call per character costs a fifth of the page
                # rate): the next letter of the word being read; not a Hebrew or Arabic
                # letter, whose box may need mending (see glyph_extent).
                tall = box[3] - box[1]
                half = 0.5 * tall
                # (abs() spelled out as a chained comparison: the same for every float.)
                if x0 - box[2] <= half and -half <= top - box[1] <= half and x0 >= box[0] - half:
                    # (A raised footnote number; the first test, one comparison, fails for
                    # almost every character: letters of a font share their loose box's foot.)
                    code = raised.get(code, code) if bottom < box[3] and box[3] - bottom >= rise * tall \
                        and bottom - top <= _RAISED_HEIGHT * tall else code
                    if x1 > box[2]:
                        box[2] = x1
                    if x0 < box[0] and (code >= rtl_low or rtl_code(ord(chars[-1]))
                                        or rtl_code(ord(chars[0]))):
                        # (A glyph drawn left of the one before it: a Devanagari vowel sign
                        # set before its consonant; a hyphen after a right-to-left letter,
                        # "ו-"; a bracket after that hyphen in a word that opened with a
                        # right-to-left letter, "ל-(", else left out of the word's box, which
                        # then stood apart from the figure it opens.  Right-to-left letters
                        # never come here.)
                        box[0] = x0
                    if top < box[1]:
                        box[1] = top
                    if bottom > box[3]:
                        box[3] = bottom
                    chars.append(chr(code))
                    continue
            self.add(index, code, units, count, (x0, top, x1, bottom))
        self.flush(end=count)
        return self.words

    def read_spans(self, spans: list[tuple[int, int, int]], units: list[int], count: int) -> list[Word]:
        """The characters of ``spans`` (pieces another reader found turned) read again on this
        reader's frame, where they stand upright: words in reading order, lines as lines.
        Every character goes through :meth:`add` (turned text is rare; no fast path)."""
        raw, frame = self.raw, self.frame
        keep = bytearray(count + 1)
        for start, end, _ in spans:
            keep[start:end] = b"\x01" * (end - start)
        width, height = frame.size
        rect = pdfium_c.FS_RECTF()
        for index in range(spans[0][0], spans[-1][1]):
            code = units[index]
            if code == 0xFFFE:
                code = pdfium_c.FPDFText_GetUnicode(raw, index)
            if (code <= 32 and code != _SOFT_HYPHEN) or code == 0xFFFE or \
                    (code >= 0x85 and chr(code).isspace()):
                self.flush(end=index)
                self.line += code == 10
                continue
            if not keep[index]:  # text of another direction between two pieces
                self.flush(at_space=False, end=index)
                continue
            if not pdfium_c.FPDFText_GetLooseCharBox(raw, index, rect):
                if code == _SOFT_HYPHEN and self.chars:
                    self.chars.append("-")
                continue
            x0, top, x1, bottom = frame.box(rect.left, rect.bottom, rect.right, rect.top)
            if x1 < 0 or x0 > width or bottom < 0 or top > height:
                continue
            self.add(index, code, units, count, (x0, top, x1, bottom))
        self.flush(end=spans[-1][1])
        return self.words

    def add(self, index: int, code: int, units: list[int], count: int,
            char_box: tuple[float, float, float, float]) -> None:
        box = self.box
        in_block = code >= RTL_LOW and rtl_code(code)
        if in_block:  # a letter, mark or figure of a right-to-left script
            if not self.rtl and code in RTL_LETTER_CODES:
                self.rtl = True
            # (A letter standing as high and low as the word so far has a font's box: most do.)
            if not (self.chars and char_box[1] == box[1] and char_box[3] == box[3]):
                char_box = self.glyph_extent(index, char_box)
        x0, top, x1, bottom = char_box
        if self.chars:
            tall = box[3] - box[1]
            # A right-to-left word's next letter (PDFium gives them in logical order) stands
            # to the left of the word: it goes on the word when it touches its left edge; so
            # does the punctuation after it (a full stop, a comma).
            # (Level with the word: its top, or its foot where the font gives glyphs' boxes
            # standing on one foot, Writer's figures in DejaVu Sans by Arabic text: a full
            # stop's box a third of a digit's, which ended "16.9" at the stop.)
            level = abs(top - box[1]) <= 0.5 * tall or abs(bottom - box[3]) <= 0.01 * tall
            leftward = (in_block or (rtl_code(ord(self.chars[-1])) and not chr(code).isalnum())) \
                and x0 < box[0] and x1 >= box[0] - 0.5 * tall and level
            if not leftward and (x0 - box[2] > 0.5 * tall or not level or x0 < box[0] - 0.5 * tall):
                self.flush(at_space=False, end=index)
                if not level:
                    self.line += 1
        if not self.chars:
            self.start = index
            box[:] = [x0, top, x1, bottom]
        else:
            # (Arabic-Indic figures run rightwards; a letter out of the blocks asked as it is.)
            if code >= RTL_LOW and (code in RTL_LETTER_CODES if in_block else rtl_letter(chr(code))):
                # (A letter after a mark, both slices of one glyph of Chromium's, the mark's
                # to the right, "ًا": no step of the word's.)
                self.leftward += x0 < box[0] and not (unicodedata.combining(self.chars[-1])
                                                      and self.same_origin(index - 1, index))
                self.rightward += x1 > box[2]
            box[:] = [min(box[0], x0), min(box[1], top), max(box[2], x1), max(box[3], bottom)]
        if 0xD800 <= code < 0xDC00 and index + 1 < count and 0xDC00 <= units[index + 1] < 0xE000:
            # A character beyond the BMP: its low surrogate follows (and is skipped).
            self.chars.append(chr(0x10000 + ((code - 0xD800) << 10) + (units[index + 1] - 0xDC00)))
        elif code >= FORMS_LOW and presentation_form(code):
            # A presentation form PDFium left as it is (it gives most as their letters): the
            # letters it stands for, which the text is searched by.
            self.chars.append(unicodedata.normalize("NFKC", chr(code)))
        elif not 0xD800 <= code < 0xE000:
            self.chars.append("-" if code == _SOFT_HYPHEN else chr(code))


def _glyph_letters(chars: list[tuple[float, str]]) -> str:
    """The letters of one right-to-left glyph (see _WordReader.visual_word), each with the
    centre of its slice of the glyph's box, in logical order: right to left (as read when the
    slices are the same), its combining marks last."""
    ordered = sorted(chars, key=lambda item: -item[0])
    return "".join(ch for _, ch in ordered if not unicodedata.combining(ch)) + \
        "".join(ch for _, ch in ordered if unicodedata.combining(ch))


def _never(_: int) -> bool:
    return False


def _shifted(typed_space_before: Callable[[int], bool], start: int, k: int) -> bool:
    return typed_space_before(start + k)


def join_spaced_letters(words: list[Word], typed_space_before: Callable[[int], bool] = _never) -> list[Word]:
    """``words`` with each run of letter-spaced letters joined into its words (see
    _SPACED_MIN_LETTERS): "G O V E R N A N C E" is one word.  ``typed_space_before(at)``
    tells whether the text holds a space right before ``words[at]`` (see _spaced_words).
    (Every upright word of every page passes here: the runs are looked for from the
    one-character words only, and the words between them copied as they are.)"""
    count = len(words)
    out: list[Word] = []
    done = 0  # words before this one are in ``out`` or joined
    for start in [at for at in range(count) if len(words[at].text) == 1]:
        if start < done or not _spaced_letter(words[start]):
            continue
        end = start + 1
        while end < count and _spaced_next(words[end - 1], words[end]):
            end += 1
        while words[end - 1].text in _SPACED_INNER:  # (a mark ends no run: it goes inside words)
            end -= 1
        if end - start >= _SPACED_MIN_LETTERS:
            out.extend(words[done:start])
            beside = [w for w in (words[start - 1] if start else None, words[end] if end < count else None)
                      if w is not None and w.line == words[start].line and len(w.text) >= 2]
            out.extend(_spaced_words(words[start:end], beside, partial(_shifted, typed_space_before, start)))
            done = end
    if not done:
        return words
    out.extend(words[done:])
    return out


def _spaced_letter(word: Word) -> bool:
    """A one-letter word that may be a letter of a letter-spaced word: any script's but a
    right-to-left one's (whose letters PDFium gives leftwards)."""
    return len(word.text) == 1 and word.text.isalpha() and not rtl_letter(word.text)


def _spaced_next(last: Word, word: Word) -> bool:
    """Whether ``word`` may go on a run of letter-spaced letters ending in ``last``: one letter
    of the same line, font and size, close after it, or a mark a word carries inside it
    (_SPACED_INNER) after a letter."""
    gap = word.x0 - last.x1
    inner = word.text in _SPACED_INNER and _spaced_letter(last)
    return (_spaced_letter(word) or inner) and (word.line == last.line and word.font == last.font
            and word.bold == last.bold and abs(word.size - last.size) <= 0.05 * last.size
            and -0.05 * last.size <= gap <= _SPACED_RUN_GAP * last.size
            and (inner or min(word.bottom, last.bottom) - max(word.top, last.top) > 0.5 * min(
                word.bottom - word.top, last.bottom - last.top)))


def _spaced_words(run: list[Word], beside: list[Word], typed_space_before: Callable[[int], bool]
                  ) -> list[Word]:
    """A run of one-letter words as the words it spells out, or as it is when its gaps are
    uneven (letters in a row of narrow cells), when the text holds a space between two of its
    letters (one-letter words typed a space apart, "the marks A B C D", a grid's labels in a
    listing: tracking leaves no space, or one PDFium puts in), or when a word of two or more
    characters stands beside it no further off than its letters stand apart (the run's
    neighbours in a sentence whose spaces PDFium put in, as it does for TeX's and a browser's:
    a tracked word's neighbours are letters read apart too) -- ``beside``, the words just
    before and after it on its line; ``typed_space_before(k)``, whether the text holds a
    space before ``run[k]``."""
    gaps = [b.x0 - a.x1 for a, b in zip(run, run[1:], strict=False)]
    least = min(gaps)
    if least > _SPACED_MAX_GAP * run[0].size:
        return run
    word_gap = _SPACED_WORD_GAP * max(least, 0.05 * run[0].size)
    breaks = [gap >= word_gap for gap in gaps]
    letters = [gap for gap, cut in zip(gaps, breaks, strict=True) if not cut]
    if not letters or max(letters) - least > _SPACED_EVEN * run[0].size:
        return run
    if any(not cut and typed_space_before(k) for k, cut in enumerate(breaks, 1)):
        return run
    if any(max(w.x0 - run[-1].x1, run[0].x0 - w.x1) < word_gap for w in beside):
        return run
    out: list[Word] = []
    first = 0
    for index, cut in enumerate(breaks):
        if cut:
            out.append(_spelled(run[first:index + 1]))
            first = index + 1
    out.append(_spelled(run[first:]))
    return out


def _spelled(letters: list[Word]) -> Word:
    first = letters[0]
    if len(letters) == 1:
        return first
    return replace(first, text="".join(w.text for w in letters), x1=letters[-1].x1,
                   top=min(w.top for w in letters), bottom=max(w.bottom for w in letters))


def _runs_on(last: Word, last_turn: int, piece: Word, turn: int) -> bool:
    """``piece`` goes on the turned word ``last`` along its line: the same turn, level with it
    across the line and touching its end (a gap under _TURNED_JOIN of the line's thickness).
    LibreOffice and Word draw a table cell's turned text (Word's "text direction" btLr/tbRl,
    column headings set upwards) a glyph at a time; PDFium puts a generated line break
    between every two glyphs and no space where a word ends (the space is not drawn), so
    only the glyphs' places say which are one word: "Q4" and "2020" in "Q4 2020"."""
    if turn != last_turn or turn not in (90, 180, 270):
        return False
    if turn == 180:
        thick = min(last.bottom - last.top, piece.bottom - piece.top)
        level = abs(last.top - piece.top) <= _TURNED_LEVEL * thick
        gap = last.x0 - piece.x1  # upside down: the line runs leftwards
    else:
        thick = min(last.x1 - last.x0, piece.x1 - piece.x0)
        level = abs(last.x0 - piece.x0) <= _TURNED_LEVEL * thick and \
            abs(last.x1 - piece.x1) <= _TURNED_LEVEL * thick
        # 90: the line runs up the page (the next glyph above); 270: down it.
        gap = last.top - piece.bottom if turn == 90 else piece.top - last.bottom
    return thick > 0 and level and -_TURNED_JOIN * thick <= gap <= _TURNED_JOIN * thick


def _attach_rtl_punctuation(words: list[Word]) -> list[Word]:
    """A full stop or comma PDFium put before the right-to-left word it ends (it orders a
    text object of mostly Latin letters left to right), standing just left of that word: the
    end of the word, as in logical order, not a word of its own."""
    out: list[Word] = []
    for word in words:
        last = out[-1] if out else None
        if last is not None and not any(ch.isalnum() for ch in last.text) and has_rtl(word.text) \
                and last.line == word.line and -1 <= word.x0 - last.x1 <= 0.3 * word.size \
                and abs(last.bottom - word.bottom) <= 0.3 * word.size:
            out[-1] = replace(word, text=word.text + last.text, x0=last.x0, top=min(last.top, word.top))
            continue
        out.append(word)
    return out


def _rtl_marks(text: str) -> bool:
    """Whether ``text`` is combining marks of a right-to-left script alone (Hebrew points,
    Arabic vowel signs and tanween)."""
    return all(unicodedata.combining(ch) and rtl_code(ord(ch)) for ch in text)


# A right-to-left word's marks PDFium gives after the stop or comma that ends it ("دائما،ً"):
# they sit on its last letter.
_MARKS_AFTER_STOP = re.compile("([.,:;!?\u060c\u061b\u061f]+)([\u064b-\u065f\u0670\u0591-\u05bd]+)$")


def _attach_rtl_marks(words: list[Word]) -> list[Word]:
    """A right-to-left word's combining marks that PDFium read apart put back on it: marks
    alone as a word (Writer sets an Arabic tanween raised over a word's final alef, and PDFium
    reads it as a line of its own) go on the word they stand over, after the letter under
    them (counted from the word's right end); a word that opens with marks (PDFium put a space
    before Chromium's glyph of a tanween and its alef, "لاحق ًا") is the end of the word before
    it on its line; marks after the stop that ends a word go before it."""
    if not any(_rtl_marks(w.text[:1]) or _MARKS_AFTER_STOP.search(w.text) for w in words):
        return words
    out: list[Word] = []
    alone: list[Word] = []
    for word in words:
        text = _MARKS_AFTER_STOP.sub(r"\2\1", word.text)
        last = out[-1] if out else None
        if _rtl_marks(text):
            alone.append(word)
        elif _rtl_marks(text[:1]) and last is not None and last.line == word.line and has_rtl(last.text):
            out[-1] = replace(last, text=last.text + text, x0=min(last.x0, word.x0),
                              top=min(last.top, word.top), x1=max(last.x1, word.x1),
                              bottom=max(last.bottom, word.bottom))
        else:
            out.append(word if text == word.text else replace(word, text=text))
    for marks in alone:
        centre = (marks.x0 + marks.x1) / 2
        under = [i for i, w in enumerate(out) if w.x0 <= centre <= w.x1 and has_rtl(w.text)
                 and min(w.bottom, marks.bottom) - max(w.top, marks.top) > 0]
        if not under:
            out.append(marks)
            continue
        at = min(under, key=lambda i: abs((out[i].top + out[i].bottom) - (marks.top + marks.bottom)))
        word = out[at]
        letters = len(word.text.rstrip(".,:;!?\u060c\u061b\u061f"))
        share = (word.x1 - centre) / max(word.x1 - word.x0, 0.01)
        cut = min(max(round(share * letters), 1), letters)
        out[at] = replace(word, text=word.text[:cut] + marks.text + word.text[cut:],
                          top=min(word.top, marks.top))
    return out


def read_rulings(page: pdfium.PdfPage, frame: _Frame) -> list[Ruling]:
    """Straight horizontal and vertical lines drawn on the page: thin paths and the edges of
    rectangles (what table rules and cell borders are drawn with)."""
    return read_paths(page, frame)[0]


def read_paths(page: pdfium.PdfPage, frame: _Frame) -> tuple[list[Ruling], list[Box], list[Box]]:
    """The page's rulings (:func:`read_rulings`), the boxes of its small filled shapes
    about as wide as high (what a list's bullets drawn as shapes are) and those of its
    pictures (image objects), in one pass.

    PDFium's raw object calls, not ``page.get_objects()``: that wraps every object of the
    page (text objects by the thousand) in Python to keep the few paths."""
    width, height = frame.size
    rulings: list[Ruling] = []
    dots: list[Box] = []
    pictures: list[Box] = []
    width_out = ctypes.c_float(0.0)
    fill, stroke = ctypes.c_int(0), ctypes.c_int(0)
    left, bottom_, right, top_ = ctypes.c_float(), ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
    for index in range(pdfium_c.FPDFPage_CountObjects(page.raw)):
        obj = pdfium_c.FPDFPage_GetObject(page.raw, index)
        kind = pdfium_c.FPDFPageObj_GetType(obj) if obj else None
        if kind not in (pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_IMAGE) or \
                not pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom_, right, top_):
            continue
        if kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
            pictures.append(frame.box(left.value, bottom_.value, right.value, top_.value))
            continue
        x0, top, x1, bottom = frame.box(left.value, bottom_.value, right.value, top_.value)
        drawn = pdfium_c.FPDFPath_GetDrawMode(obj, fill, stroke)
        square = 0.7 <= (x1 - x0) / max(bottom - top, 0.01) <= 1.4
        if drawn and fill.value and square and 1.0 <= x1 - x0 <= 12:
            dots.append((x0, top, x1, bottom))
        if drawn and stroke.value and \
                pdfium_c.FPDFPageObj_GetStrokeWidth(obj, width_out):
            # The bounds include half the pen's width on each side: the line is in the middle.
            inset = min(width_out.value / 2, (x1 - x0) / 2, (bottom - top) / 2)
            x0, top, x1, bottom = x0 + inset, top + inset, x1 - inset, bottom - inset
        w, h = x1 - x0, bottom - top
        if w <= _RULE_THICKNESS or h <= _RULE_THICKNESS:
            if max(w, h) >= 3:
                rulings.append(Ruling(x0, top, x1, bottom))
            continue
        if w * h > 0.5 * width * height:
            continue  # a page background or frame, not a table's
        segments = pdfium_c.FPDFPath_CountSegments(obj)
        if 0 < segments <= 6:  # a rectangle (move, 3-4 lines, close)
            rulings += [Ruling(x0, top, x1, top), Ruling(x0, bottom, x1, bottom),
                        Ruling(x0, top, x0, bottom), Ruling(x1, top, x1, bottom)]
        elif segments <= _MAX_PATH_SEGMENTS:
            rulings += _path_lines(obj, segments, frame)
    return rulings, dots, pictures


def with_drawn_bullets(words: list[Word], dots: list[Box]) -> list[Word]:
    """``words`` with a "•" before each word a drawn bullet marks: a dot (:func:`read_paths`)
    the size of a bullet for that word's font, level with it and a little before it, with no
    word between them nor just before the dot on its line (a dot inside a line, a chart
    legend's key, marks no item).  Typed bullets are words already; drawn ones (Chromium
    draws a list's discs and squares as paths) would leave the item's lines to run together
    as one paragraph."""
    if not dots or not words or len(dots) > _MAX_DRAWN_BULLETS:
        return words
    marked: dict[int, Word] = {}
    for x0, top, x1, bottom in dots:
        middle = (top + bottom) / 2
        level = [w for w in words if w.top <= middle <= w.bottom]
        after = [w for w in level if w.x0 >= x1 - 0.5]
        if not after:
            continue
        word = min(after, key=lambda w: w.x0)
        low, high = _DRAWN_BULLET_SIZE
        if not (low * word.size <= bottom - top <= high * word.size) \
                or word.x0 - x1 > _DRAWN_BULLET_GAP * word.size \
                or any(w.x1 <= x0 + 0.5 and x0 - w.x1 <= _DRAWN_BULLET_GAP * word.size for w in level):
            continue
        marked[id(word)] = _new_word("\u2022", x0, word.top, x1, word.bottom, word.size, word.bold,
                                     word.italic, word.font, word.line)
    if not marked:
        return words
    out: list[Word] = []
    for word in words:
        if id(word) in marked:
            out.append(marked[id(word)])
        out.append(word)
    return out


def _path_lines(obj: Any, segments: int, frame: _Frame) -> list[Ruling]:
    """The axis-parallel straight segments of a path that draws many (a grid in one path)."""
    matrix = pdfium_c.FS_MATRIX()
    if not pdfium_c.FPDFPageObj_GetMatrix(obj, matrix):
        return []
    x, y = ctypes.c_float(), ctypes.c_float()
    lines: list[Ruling] = []
    previous: tuple[float, float] | None = None
    for index in range(segments):
        segment = pdfium_c.FPDFPath_GetPathSegment(obj, index)
        if not pdfium_c.FPDFPathSegment_GetPoint(segment, x, y):
            continue
        point = (matrix.a * x.value + matrix.c * y.value + matrix.e,
                 matrix.b * x.value + matrix.d * y.value + matrix.f)
        kind = pdfium_c.FPDFPathSegment_GetType(segment)
        if kind == pdfium_c.FPDF_SEGMENT_LINETO and previous is not None:
            dx, dy = abs(point[0] - previous[0]), abs(point[1] - previous[1])
            if (dx < 0.5 <= dy or dy < 0.5 <= dx) and max(dx, dy) >= 3:
                lines.append(Ruling(*frame.box(previous[0], previous[1], point[0], point[1])))
        previous = point
    return lines


# Text turned on the page becomes a region read in its own frame from this many characters
# and lines in that frame (a table: a header and two rows); less (a margin stamp, turned
# column headers) stays turned text.
_REGION_CHARS = 40
_REGION_LINES = 3
# Turned column headings (see _column_headings): a heading's own lines are at most
# _HEADING_LINES line heights apart, two headings at least _HEADINGS_APART.
_HEADING_LINES = 1.6
_HEADINGS_APART = 2.5


def read_layout(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, number: int) -> PageLayout:
    """One page's words and rulings, on the page as displayed (top-left origin), or in the
    frame of the text when most of it is turned (see the module's docstring)."""
    frame = _frame(page)
    width, height = frame.size
    reader = _WordReader(textpage, frame)
    reader.read()
    _read_accents(reader)
    if reader.rtl:
        reader.join_across_misplaced_spaces()
        reader.words = _attach_rtl_marks(_attach_rtl_punctuation(reader.words))
    # (Right-to-left punctuation moved, the words no longer line up with their starts.)
    reader.words = join_spaced_letters(reader.words, _never if reader.rtl else reader.typed_space_before)
    if not reader.spans:  # the common case: nothing turned by a quarter
        rulings, dots, pictures = read_paths(page, frame)
        words = with_drawn_bullets(reader.words, dots)
        return PageLayout(number, width, height, words, rulings, _turned(reader), pictures=pictures)
    return _turned_layout(page, textpage, number, frame, reader)


def _read_accents(reader: _WordReader) -> None:
    """The colour and small capitals of the words that open short lines (a title's length,
    _ACCENT_LINE_WORDS words or fewer: a heading set at the body's size and weight may be set
    apart by them alone), and the colour of the word opening the line after each (the text it
    would head, and the body's colour): a few calls per page, where reading each character's
    colour would cost the fast track a call per character (pdf_headings.head_accent_titles
    reads them).  Lines are PDFium's (``Word.line``), before spaced letters are joined, while
    ``reader.starts`` still gives each word's first character."""
    words, starts = reader.words, reader.starts
    if not words:
        return
    firsts = [0]
    firsts += [i for i in range(1, len(words)) if words[i].line != words[i - 1].line]
    lines = len(firsts)
    firsts.append(len(words))  # (the end of the last line)
    look: dict[int, bool] = {}  # word index -> whether it opens a short line (to look for small capitals)
    for k in range(lines):
        first = firsts[k]
        if firsts[k + 1] - first <= _ACCENT_LINE_WORDS:
            look[first] = True  # (over the False its line was given as the line after a short one)
            if k + 1 < lines:
                look[firsts[k + 1]] = False
    handle = reader.style.handle
    red, green, blue, alpha = (ctypes.c_uint() for _ in range(4))
    channels = ctypes.byref(red), ctypes.byref(green), ctypes.byref(blue), ctypes.byref(alpha)
    for at, short in look.items():
        word, start = words[at], starts[at]
        # (The reader's own words, not yet seen by anyone: given their look as _new_word gives a
        # word its fields, not copied; a call per word read would count.)
        fields = word.__dict__
        fields["colour"] = (red.value << 16 | green.value << 8 | blue.value) \
            if _FILL_COLOUR(handle, start, *channels) else -1
        text = word.text
        if short and text[:1].isupper() and text[1:2].isalpha() and _small_caps(handle, start):
            fields["small_caps"] = True


def _small_caps(handle: ctypes.c_void_p, start: int) -> bool:
    """Whether a word opening with a capital then a letter (its first character at ``start``)
    goes on in capitals set smaller on its baseline (see _SMALL_CAPS_SCALE): its second
    character's font size and origin against its first's.  (A browser maps the small capitals
    it synthesises back to the lower-case letters typed: the text may be "Finance" or
    "FINANCE"; their loose boxes are their glyphs' boxes, so font sizes are compared.)"""
    size, small = _FONT_SIZE(handle, start), _FONT_SIZE(handle, start + 1)
    low, high = _SMALL_CAPS_SCALE
    if not (size > 0 and low * size <= small <= high * size):
        return False
    x, y, next_y = ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    return bool(_CHAR_ORIGIN(handle, start, ctypes.byref(x), ctypes.byref(y))
                and _CHAR_ORIGIN(handle, start + 1, ctypes.byref(x), ctypes.byref(next_y))) \
        and abs(next_y.value - y.value) <= _SMALL_CAPS_LEVEL * size


def _turned(reader: _WordReader) -> list[Word]:
    """Words set at an angle; when they are most of the page (a page drawn turned),
    they are the page's words instead and this is empty."""
    text = attrgetter("text")
    if sum(map(len, map(text, reader.rotated))) > sum(map(len, map(text, reader.words))):
        reader.words.extend(reader.rotated)
        reader.rotated = []
    return reader.rotated


def _turned_layout(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, number: int, frame: _Frame,
                   reader: _WordReader) -> PageLayout:
    """A page with text turned a quarter or half turn.  With upright text on it (a sideways
    table between an upright running header and page number), the page stays upright and
    each direction with enough text is a region read in its own frame, placed where it
    stands; when a region's place is taken, the page is read in the frame of its most text
    instead (a page shown turned by its /Rotate), the other directions placed likewise or
    left as turned text."""
    turned = _TurnedText(page, textpage, frame, reader)
    chars = turned.chars
    if chars[0]:
        layout = turned.layout(number, 0, strict=True)
        if layout is not None:
            return layout
    base = max(chars, key=lambda turn: (chars[turn], turn == 0))
    layout = turned.layout(number, base, strict=False)
    assert layout is not None  # (never None unless strict)
    return layout


class _TurnedText:
    """The words of each direction of a page, read in their own frames once, and layouts of
    the page in the frame of one of them (the base)."""

    def __init__(self, page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, frame: _Frame,
                 reader: _WordReader) -> None:
        self.page, self.textpage, self.frame, self.reader = page, textpage, frame, reader
        self.chars = {turn: sum(n for _, _, n in spans) for turn, spans in reader.spans.items()}
        self.chars[0] = sum(len(w.text) for w in reader.words)
        self.read: dict[int, list[Word]] = {0: reader.words}

    def words_of(self, turn: int) -> list[Word]:
        """The words of text turned ``turn`` degrees, in the frame where they stand upright."""
        if turn not in self.read:
            other = _WordReader(self.textpage, self.frame.turned(turn))
            self.read[turn] = other.read_spans(self.reader.spans[turn], self.reader.units, self.reader.count)
        return self.read[turn]

    def layout(self, number: int, base: int, strict: bool) -> PageLayout | None:
        """The page in the frame of the text turned ``base`` degrees; None when ``strict`` and
        a region of another direction has no place of its own."""
        reader, shown, chars = self.reader, self.frame.shown, self.chars
        base_frame = self.frame.turned(base)
        width, height = base_frame.size
        words = list(self.words_of(base))
        rulings = read_rulings(self.page, base_frame)
        placements: list[Placement] = []
        placed: set[int] = {base}
        line = max((w.line for w in words), default=0) + 1
        for turn in sorted(chars, key=lambda t: -chars[t]):
            if turn in placed or chars[turn] < _REGION_CHARS:
                continue
            region = self.words_of(turn)
            if _rows(region) < _REGION_LINES or _column_headings(region):
                continue
            own = _region_rulings(region, turn, base, shown, rulings)
            others = [r for i, r in enumerate(rulings) if i not in own]
            placement = _placement(region, list(own.values()), turn, base, shown, (width, height),
                                   words, others)
            if placement is None:
                if strict:
                    return None
                continue
            placed.add(turn)
            dx, dy = placement.dx, placement.dy
            words += [replace(_moved(w, (w.x0 + dx, w.top + dy, w.x1 + dx, w.bottom + dy)),
                              line=line + w.line) for w in region]
            line = max(w.line for w in words) + 1
            rulings = [Ruling(own[i].x0 + dx, own[i].top + dy, own[i].x1 + dx, own[i].bottom + dy)
                       if i in own else r for i, r in enumerate(rulings)]
            placements.append(placement)
        if base:  # the rest of the layout is the base frame: turned back as a whole
            placements.append(Placement(base, 0.0, 0.0, -math.inf, -math.inf, math.inf, math.inf, shown))
        # What is left: turned pieces of other directions, and upright words on a turned page.
        rest = [w for w, turn in zip(reader.rotated, reader.rotated_turns, strict=True) if turn not in placed]
        if 0 not in placed:
            rest += reader.words
        turned = [_moved(w, _turn((w.x0, w.top, w.x1, w.bottom), base, *shown)) for w in rest] \
            if base else rest
        if not base and not placements and sum(len(w.text) for w in turned) > chars[0]:
            words, turned = words + turned, []  # mostly text at odd angles, as _turned does
        return PageLayout(number, width, height, words, rulings, turned, placements)


def _rows(words: list[Word]) -> int:
    """How many lines ``words`` stand on, by their vertical centres (PDFium's line breaks,
    which ``Word.line`` counts, are missing between table rows drawn as separate objects
    with no text between them: a sideways table then read as one line)."""
    if not words:
        return 0
    tall = sorted(w.bottom - w.top for w in words)[len(words) // 2]
    centres = sorted((w.top + w.bottom) / 2 for w in words)
    return 1 + sum(1 for a, b in zip(centres, centres[1:], strict=False) if b - a > 0.5 * tall)


def _column_headings(words: list[Word]) -> bool:
    """Whether turned text read in its own frame is a table's column headings set on their
    side (Word's btLr/tbRl cells over narrow columns of figures), not a sideways table or a
    turned paragraph: its lines, each one run of words with no cell gap (a heading, not a
    row of cells), stand in groups (a heading's own lines, close together) set far apart
    from one another (_HEADINGS_APART line heights or more: the columns' pitch).  Such
    headings stay turned words, for the table under them to take (see
    :func:`extractors.pdf_tables._with_turned_header`)."""
    tall = sorted(w.bottom - w.top for w in words)[len(words) // 2]
    lines: list[list[Word]] = []
    for w in sorted(words, key=lambda w: (w.top + w.bottom) / 2):
        middle = (w.top + w.bottom) / 2
        if lines and middle - (lines[-1][-1].top + lines[-1][-1].bottom) / 2 <= 0.5 * tall:
            lines[-1].append(w)
        else:
            lines.append([w])
    for line in lines:
        line.sort(key=lambda w: w.x0)
        if any(b.x0 - a.x1 > tall for a, b in zip(line, line[1:], strict=False)):
            return False
    centres = [sum((w.top + w.bottom) / 2 for w in line) / len(line) for line in lines]
    gaps = [b - a for a, b in zip(centres, centres[1:], strict=False)]
    apart = [gap for gap in gaps if gap > _HEADING_LINES * tall]
    return len(apart) >= 1 and all(gap >= _HEADINGS_APART * tall for gap in apart)


def _moved(word: Word, box: Box) -> Word:
    return replace(word, x0=box[0], top=box[1], x1=box[2], bottom=box[3])


def _region_rulings(region: list[Word], turn: int, base: int, shown: tuple[float, float],
                    rulings: list[Ruling]) -> dict[int, Ruling]:
    """The rulings (by index, in the region's own frame) of a region read in its own frame:
    those touching its words' footprint on the page, or a ruling already taken, and lying
    within reach of it (a table's grid reaches past its text: the padding of the first
    column, the width of the last)."""
    own = (min(w.x0 for w in region), min(w.top for w in region),
           max(w.x1 for w in region), max(w.bottom for w in region))
    x0, top, x1, bottom = _turn(_unturn(own, turn, *shown), base, *shown)
    reach_x, reach_y = max(20.0, 0.4 * (x1 - x0)), max(20.0, 0.4 * (bottom - top))
    reach = [r for r in enumerate(rulings) if x0 - reach_x <= r[1].x0 and r[1].x1 <= x1 + reach_x
             and top - reach_y <= r[1].top and r[1].bottom <= bottom + reach_y]
    near = 3.0
    taken: dict[int, Ruling] = {}
    for _ in range(3):  # a grid's far rules touch the ones near the text, not the text
        grown = False
        for i, r in reach:
            if i not in taken and r.x0 <= x1 + near and r.x1 >= x0 - near and r.top <= bottom + near \
                    and r.bottom >= top - near:
                taken[i] = r
                grown = True
        if not grown:
            break
        grid = list(taken.values())
        x0, top = min(x0, *(r.x0 for r in grid)), min(top, *(r.top for r in grid))
        x1, bottom = max(x1, *(r.x1 for r in grid)), max(bottom, *(r.bottom for r in grid))
    return {i: Ruling(*_turn(_unturn((r.x0, r.top, r.x1, r.bottom), base, *shown), turn, *shown))
            for i, r in taken.items()}


def _placement(region: list[Word], rulings: list[Ruling], turn: int, base: int, shown: tuple[float, float],
               size: tuple[float, float], words: list[Word], others: list[Ruling]) -> Placement | None:
    """Where a region read in its own frame (its words and rulings) goes in the base frame:
    the top-left corner of its footprint on the page, moved in so that it stays on the page
    (a sideways table longer than the page is wide runs past its right edge); None when the
    place is taken by text or rulings of the base (turned column headers over a table's
    columns, a margin stamp beside the body), whose lines and grids it would join."""
    boxes = [(w.x0, w.top, w.x1, w.bottom) for w in region] + [(r.x0, r.top, r.x1, r.bottom) for r in rulings]
    u0, v0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    u1, v1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    x0, top, _, _ = _turn(_unturn((u0, v0, u1, v1), turn, *shown), base, *shown)
    wide, tall = u1 - u0, v1 - v0
    x0 = max(0.0, min(x0, size[0] - wide))
    top = max(0.0, min(top, size[1] - tall))
    for w in words:
        x, y = (w.x0 + w.x1) / 2, (w.top + w.bottom) / 2
        if x0 - 1 <= x <= x0 + wide + 1 and top - 1 <= y <= top + tall + 1:
            return None
    for r in others:
        x, y = (r.x0 + r.x1) / 2, (r.top + r.bottom) / 2
        if x0 + 1 < x < x0 + wide - 1 and top + 1 < y < top + tall - 1:
            return None
    return Placement(turn, x0 - u0, top - v0, x0, top, x0 + wide, top + tall, shown)


def read_layouts(data: bytes, password: str | None = None, max_pages: int | None = None) -> list[PageLayout]:
    """Every page's layout (the fast track reads layouts inside its own page loop instead)."""
    from extractors.pdf_text import open_pdf

    with open_pdf(data, password) as pdf:
        count = len(pdf) if max_pages is None else min(len(pdf), max_pages)
        layouts = []
        for index in range(count):
            page = pdf[index]
            layouts.append(read_layout(page, page.get_textpage(), index + 1))
        return layouts
