"""Positioned text and ruling lines of one PDF page, read from its text layer with PDFium:
the input of the structure stage (:mod:`extractors.pdf_structure`) and the table finder
(:mod:`extractors.pdf_tables`).

Coordinates are PDF points with the origin at the page's **top-left** corner (y grows
downwards, as in reading order), whatever the page's own coordinate system or rotation.

Words are read character by character with PDFium's text page API (one box call per
character, one font look-up per word); rulings from the page's path objects.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass, field, replace
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c


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


# Fonts whose name says bold although their weight and flags do not.
_BOLD_NAMES = ("bold", "black", "heavy", "semibold", "demibold", "-bd", ",bd")
_ITALIC_NAMES = ("italic", "oblique")
# TeX's bold fonts say so only in their names: CMBX10, SFBX1200 (bold extended), CMB10.
_TEX_BOLD = re.compile(r"bx\d|(^|\+)cmb\d")
_FLAG_ITALIC = 1 << 6
_FLAG_FORCE_BOLD = 1 << 18
# PDFium marks a hyphen it found at a line end as U+0002 (and FPDFText_GetText as U+FFFE):
# a hyphen for the structure stage, which leaves the joining to text_repair.join_hyphenated.
_SOFT_HYPHEN = 0x02
_RULE_THICKNESS = 2.0  # a path or rectangle thinner than this (points) is a line
_MAX_PATH_SEGMENTS = 400  # paths with more segments are drawings (charts, glyph outlines)


@dataclass
class _Frame:
    """The page's visible area (its crop box) and rotation: PDF user space to top-left space."""

    left: float
    bottom: float
    right: float
    top: float
    rotation: int

    @property
    def size(self) -> tuple[float, float]:
        width, height = self.right - self.left, self.top - self.bottom
        return (height, width) if self.rotation in (90, 270) else (width, height)

    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
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


class _Style:
    """Font size, weight and name of the character starting a word (one look-up per word:
    fonts rarely change inside a word, and per-character calls would halve the page rate)."""

    def __init__(self, textpage: pdfium.PdfTextPage) -> None:
        self.raw = textpage.raw
        self.name = ctypes.create_string_buffer(128)
        self.flags = ctypes.c_int(0)
        self.matrix = pdfium_c.FS_MATRIX()
        self.names: dict[str, str] = {}
        self.by_object: dict[int, tuple[float, bool, bool, str, bool]] = {}

    def font_name(self, font: str) -> str:
        """One string object per font name (a page has thousands of words, a few fonts)."""
        return self.names.setdefault(font, font)

    def at(self, index: int) -> tuple[float, bool, bool, str, bool]:
        """The style of the character at ``index``: looked up once per text object (a text
        object has one font and size, and usually holds a line or more)."""
        obj = pdfium_c.FPDFText_GetTextObject(self.raw, index)
        key = ctypes.cast(obj, ctypes.c_void_p).value if obj else None
        if key is None:
            return self.look_up(index)
        style = self.by_object.get(key)
        if style is None:
            style = self.by_object[key] = self.look_up(index)
        return style

    def look_up(self, index: int) -> tuple[float, bool, bool, str, bool]:
        size = pdfium_c.FPDFText_GetFontSize(self.raw, index)
        rotated = False
        if pdfium_c.FPDFText_GetMatrix(self.raw, index, self.matrix):
            m = self.matrix
            # The size as drawn: fonts are often set at size 1 and scaled by the text matrix.
            size *= (m.c ** 2 + m.d ** 2) ** 0.5
            rotated = abs(m.b) + abs(m.c) > 0.1 * (abs(m.a) + abs(m.d))
        weight = pdfium_c.FPDFText_GetFontWeight(self.raw, index)
        length = pdfium_c.FPDFText_GetFontInfo(self.raw, index, self.name, 128, ctypes.byref(self.flags))
        font = self.name.value.decode("latin-1", "replace") if 0 < length <= 128 else ""
        lower = font.lower()
        flags = self.flags.value
        bold = weight >= 600 or bool(flags & _FLAG_FORCE_BOLD) or any(n in lower for n in _BOLD_NAMES) \
            or bool(_TEX_BOLD.search(lower))
        italic = bool(flags & _FLAG_ITALIC) or any(n in lower for n in _ITALIC_NAMES)
        return float(size), bold, italic, font, rotated


def read_words(textpage: pdfium.PdfTextPage, frame: _Frame) -> tuple[list[Word], list[Word]]:
    """The page's words (PDFium's characters split at spaces, line breaks and gaps), and the
    words of text set at an angle."""
    reader = _WordReader(textpage, frame)
    reader.read()
    turned = reader.turned()
    return reader.words, turned


def _page_units(raw: Any, count: int) -> Any:
    """The page's text in one call (UTF-16 units, one per character index) instead of one
    FPDFText_GetUnicode call per character."""
    units = (ctypes.c_ushort * (count + 1))()
    if pdfium_c.FPDFText_GetText(raw, 0, count, units) - 1 != count:
        units = (ctypes.c_ushort * (count + 1))(*[pdfium_c.FPDFText_GetUnicode(raw, i) for i in range(count)])
    return units


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
        # Words of text set at an angle (a margin stamp, a turned column header).
        self.rotated: list[Word] = []
        self.rotated_at_space = True

    def flush(self, at_space: bool = True) -> None:
        if self.chars:
            size, bold, italic, font, rotated = self.style.at(self.start)
            x0, top, x1, bottom = self.box
            if not 0.3 * (bottom - top) <= size <= 3 * (bottom - top):
                size = bottom - top  # no usable size from the font
            word = Word("".join(self.chars), x0, top, x1, bottom, size, bold, italic,
                        self.style.font_name(font), self.line)
            if not rotated:
                self.words.append(word)
            elif self.rotated and not self.rotated_at_space:
                # Turned text is read a character at a time (each one a "line" of its own
                # on the page as displayed): its pieces, until a space, are one word.
                last = self.rotated[-1]
                self.rotated[-1] = replace(last, text=last.text + word.text, x0=min(last.x0, x0),
                                           top=min(last.top, top), x1=max(last.x1, x1),
                                           bottom=max(last.bottom, bottom))
            else:
                self.rotated.append(word)
            if rotated:
                self.rotated_at_space = at_space
            self.chars.clear()
        elif at_space:
            self.rotated_at_space = True

    def read(self) -> list[Word]:
        raw, frame = self.raw, self.frame
        count = pdfium_c.FPDFText_CountChars(raw)
        if count <= 0:
            return []
        units = _page_units(raw, count)
        width, height = frame.size
        rect = pdfium_c.FS_RECTF()
        upright, left, page_top = frame.rotation == 0, frame.left, frame.top
        loose_box = pdfium_c.FPDFText_GetLooseCharBox
        box, chars = self.box, self.chars  # changed in place, never replaced
        for index in range(count):
            code = units[index]
            if code == 0xFFFE:  # FPDFText_GetText writes the line-end hyphen so
                code = pdfium_c.FPDFText_GetUnicode(raw, index)
            if (code <= 32 and code != _SOFT_HYPHEN) or code == 0xFFFE or \
                    (code >= 0x85 and chr(code).isspace()):
                self.flush()
                self.line += code == 10
                continue
            if not loose_box(raw, index, rect):
                if code == _SOFT_HYPHEN and chars:
                    chars.append("-")  # a line-end hyphen PDFium gives no box
                continue
            if upright:  # the common case, without a call per character
                x0, top = rect.left - left, page_top - rect.top
                x1, bottom = rect.right - left, page_top - rect.bottom
            else:
                x0, top, x1, bottom = frame.box(rect.left, rect.bottom, rect.right, rect.top)
            if x1 < 0 or x0 > width or bottom < 0 or top > height:
                continue  # outside the visible page, as get_text_bounded leaves it out
            if chars and 32 < code < 0xD800:
                # The common case inline (a call per character costs a fifth of the page
                # rate): the next letter of the word being read.
                tall = box[3] - box[1]
                half = 0.5 * tall
                if x0 - box[2] <= half and abs(top - box[1]) <= half and x0 >= box[0] - half:
                    if x1 > box[2]:
                        box[2] = x1
                    if top < box[1]:
                        box[1] = top
                    if bottom > box[3]:
                        box[3] = bottom
                    chars.append(chr(code))
                    continue
            self.add(index, code, units, count, (x0, top, x1, bottom))
        self.flush()
        return self.words

    def turned(self) -> list[Word]:
        """Words set at an angle; when they are most of the page (a page drawn turned),
        they are the page's words instead and this is empty."""
        if sum(len(w.text) for w in self.rotated) > sum(len(w.text) for w in self.words):
            self.words.extend(self.rotated)
            self.rotated = []
        return self.rotated

    def add(self, index: int, code: int, units: Any, count: int,
            char_box: tuple[float, float, float, float]) -> None:
        x0, top, x1, bottom = char_box
        box = self.box
        if self.chars:
            tall = box[3] - box[1]
            if x0 - box[2] > 0.5 * tall or abs(top - box[1]) > 0.5 * tall or x0 < box[0] - 0.5 * tall:
                self.flush(at_space=False)
                if abs(top - box[1]) > 0.5 * tall:
                    self.line += 1
        if not self.chars:
            self.start = index
            box[:] = [x0, top, x1, bottom]
        else:
            box[:] = [min(box[0], x0), min(box[1], top), max(box[2], x1), max(box[3], bottom)]
        if 0xD800 <= code < 0xDC00 and index + 1 < count and 0xDC00 <= units[index + 1] < 0xE000:
            # A character beyond the BMP: its low surrogate follows (and is skipped).
            self.chars.append(chr(0x10000 + ((code - 0xD800) << 10) + (units[index + 1] - 0xDC00)))
        elif not 0xD800 <= code < 0xE000:
            self.chars.append("-" if code == _SOFT_HYPHEN else chr(code))


def read_rulings(page: pdfium.PdfPage, frame: _Frame) -> list[Ruling]:
    """Straight horizontal and vertical lines drawn on the page: thin paths and the edges of
    rectangles (what table rules and cell borders are drawn with).

    PDFium's raw object calls, not ``page.get_objects()``: that wraps every object of the
    page (text objects by the thousand) in Python to keep the few paths."""
    width, height = frame.size
    rulings: list[Ruling] = []
    width_out = ctypes.c_float(0.0)
    fill, stroke = ctypes.c_int(0), ctypes.c_int(0)
    left, bottom_, right, top_ = ctypes.c_float(), ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
    for index in range(pdfium_c.FPDFPage_CountObjects(page.raw)):
        obj = pdfium_c.FPDFPage_GetObject(page.raw, index)
        if not obj or pdfium_c.FPDFPageObj_GetType(obj) != pdfium_c.FPDF_PAGEOBJ_PATH or \
                not pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom_, right, top_):
            continue
        x0, top, x1, bottom = frame.box(left.value, bottom_.value, right.value, top_.value)
        if pdfium_c.FPDFPath_GetDrawMode(obj, fill, stroke) and stroke.value and \
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
    return rulings


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


def read_layout(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, number: int) -> PageLayout:
    """One page's words and rulings, on the page as displayed (top-left origin)."""
    frame = _frame(page)
    width, height = frame.size
    words, turned = read_words(textpage, frame)
    return PageLayout(number, width, height, words, read_rulings(page, frame), turned)


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
