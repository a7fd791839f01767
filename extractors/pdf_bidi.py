"""Right-to-left lines (Hebrew, Arabic, Persian) of a PDF page in logical order: the order a
reader reads their words in, which is not left to right on the page.

What PDFium gives (checked on generated pages drawn in visual order, as producers draw them,
and on docling's right-to-left PDFs): each text object's characters in logical order (PDFium
runs the bidi algorithm over a text object and reads a right-to-left one backwards), Arabic
presentation forms mapped back to their base letters, and a box per character, so that a
right-to-left word's characters come with falling x.  :mod:`extractors.pdf_words` keeps such a
word whole; what is left is the order of the **words** of a line, which the structure stage
takes from their positions (left to right) and which this module turns into reading order.

That is rule L2 of the Unicode bidi algorithm (UAX #9) applied to words instead of
characters, on a line whose paragraph direction is right to left: right-to-left words at level
1, Latin words and figures at level 2, a neutral word (a dash, a bullet) at level 2 between two
level-2 words and at 1 otherwise; then every run at level >= 2 is reversed, and the whole
line.  Visual order to logical order and back are the same permutation for these levels, so
the words left to right become the words in reading order, a Latin run of several words
(``Open Source``) keeping its own order inside the right-to-left line.

Libraries checked: python-bidi 0.6 (the Rust ``unicode-bidi`` crate) returns only a display
string, neither levels nor the permutation, so it cannot order positioned words; its legacy
pure-Python ``bidi.algorithm`` gives levels per character of a logical-order string, which is
not what a page holds.  The directions of characters come from :func:`unicodedata.bidirectional`
(the Unicode database of the standard library), which is all rule L2 on words needs.  The
tests' generator uses python-bidi and arabic-reshaper to draw the visual order.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from extractors.pdf_words import Word

# The blocks of the right-to-left scripts: Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan,
# Mandaic, Arabic Extended, and the Hebrew and Arabic presentation forms (Forms-A, Forms-B; not
# the variation selectors, vertical and small forms between them, nor the byte order mark).  A
# first, cheap test on code points (Latin pages never reach the Unicode database); whether a
# character is a right-to-left letter is its bidi class (rtl_letter).
RTL_LOW, RTL_HIGH = 0x0590, 0x08FF
FORMS_LOW = 0xFB1D
_FORMS_A_HIGH, _FORMS_B_LOW, _FORMS_B_HIGH = 0xFDFF, 0xFE70, 0xFEFC
_RTL_BLOCKS = "\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc"
_RTL_CLASSES = frozenset(("R", "AL"))

T = TypeVar("T")


def rtl_code(code: int) -> bool:
    """Whether a code point is in a right-to-left script's block (its letters, marks and
    digits: Arabic-Indic digits run left to right, but a word of them is set in one)."""
    return RTL_LOW <= code <= RTL_HIGH or FORMS_LOW <= code <= _FORMS_A_HIGH \
        or _FORMS_B_LOW <= code <= _FORMS_B_HIGH


def presentation_form(code: int) -> bool:
    """Whether a code point is a Hebrew or Arabic presentation form (a letter's joining form, a
    ligature, a letter with its points): text searched holds the letters it stands for."""
    return FORMS_LOW <= code <= _FORMS_A_HIGH or _FORMS_B_LOW <= code <= _FORMS_B_HIGH


def rtl_letter(ch: str) -> bool:
    """Whether a character is strongly right to left (bidi class R or AL: a Hebrew, Arabic,
    Syriac... letter or one of their presentation forms), as no letter of another script is
    (Devanagari, Thai and Chinese are left to right, whatever their code points)."""
    return unicodedata.bidirectional(ch) in _RTL_CLASSES


# The code points of the blocks above that are right-to-left letters (rtl_letter), looked up
# once here: a right-to-left page's every character is asked.
RTL_LETTER_CODES = frozenset(
    code for low, high in ((RTL_LOW, RTL_HIGH), (FORMS_LOW, _FORMS_A_HIGH), (_FORMS_B_LOW, _FORMS_B_HIGH))
    for code in range(low, high + 1) if rtl_letter(chr(code)))

_RTL_TEXT = re.compile(f"[{_RTL_BLOCKS}]")


def has_rtl(text: str) -> bool:
    """Whether ``text`` holds a character of a right-to-left script (see rtl_code)."""
    return _RTL_TEXT.search(text) is not None


def _kind(text: str) -> str:
    """A word's direction from its first strong character: "R" (right to left), "L" (Latin),
    "N" (a figure: European or Arabic-Indic digits), "" (neutral: dashes, bullets)."""
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if kind in ("R", "AL"):
            return "R"
        if kind == "L":
            return "L"
        if kind in ("EN", "AN"):
            return "N"
    return ""


def logical_order(items: Sequence[T], texts: Sequence[str]) -> list[T]:
    """``items`` (the words of one right-to-left line, left to right on the page; ``texts``
    their texts) in reading order."""
    kinds = [_kind(text) for text in texts]
    levels = [1 if kind == "R" else 2 if kind else 0 for kind in kinds]
    strong = [(i, level) for i, level in enumerate(levels) if level]
    for i, level in enumerate(levels):
        if not level:  # a neutral word: level 2 only between two level-2 words
            left = next((lv for j, lv in reversed(strong) if j < i), 1)
            right = next((lv for j, lv in strong if j > i), 1)
            levels[i] = 2 if left == right == 2 else 1
    out = list(items)
    start = None
    for i in range(len(out) + 1):  # reverse each run at level 2 ...
        if i < len(out) and levels[i] == 2 and not (start is not None and _apart(kinds, start, i)):
            if start is None:
                start = i
            continue
        if start is not None:
            out[start:i] = out[start:i][::-1]
            start = i if i < len(out) and levels[i] == 2 else None
    return out[::-1]  # ... then the whole line (everything is at level 1 or more)


def ltr_order(items: Sequence[T], texts: Sequence[str]) -> list[T]:
    """``items`` (the words of a left-to-right line, left to right on the page; ``texts``
    their texts) in reading order: each run of right-to-left words inside it (two Arabic words
    quoted in an English sentence), from such a word to such a word with no Latin one between
    (neutral words and figures between them are in the run: rule N1 sets them right to left),
    is read right to left, as rule L2 lays it out; the rest stays as it is."""
    kinds = [_kind(text) for text in texts]
    out = list(items)
    start = None  # the first word of the run being read
    end = -1  # its last right-to-left word
    for i in range(len(out) + 1):
        kind = kinds[i] if i < len(out) else "L"
        if kind == "R":
            if start is None:
                start = i
            end = i
        elif kind == "L" and start is not None:
            out[start:end + 1] = out[start:end + 1][::-1]
            start = None
    return out


def _apart(kinds: Sequence[str], start: int, i: int) -> bool:
    """Whether word ``i`` starts a run of its own after the level-2 run from ``start`` (left
    to right).  Two figures side by side are apart, read right to left: the space between
    them resolves to right to left (UAX #9 rule N1); unless a Latin word leads the run, which
    makes the figures after it Latin (rule W7: ``ISO 9001 350``).  A figure before a Latin
    word looks the same on the page whether it reads before it or after: taken as after."""
    return kinds[i] == kinds[i - 1] == "N" and "L" not in kinds[start:i]


def rtl_line(texts: Sequence[str]) -> bool:
    """Whether a line (or a page) is right to left: more of its letters are in right-to-left
    scripts than not (a Hebrew line citing ``ISO 9001`` is; an English line quoting a Hebrew
    word is not)."""
    # (Counted per distinct character: a page passes here whole, and its letters are few; the
    # bidi class is looked up once a character, not once an occurrence.)
    rtl = other = 0
    for ch, n in Counter("".join(texts)).items():
        if ch.isalpha():
            if rtl_letter(ch):
                rtl += n
            else:
                other += n
    return rtl > other


def line_text(texts: Sequence[str]) -> str:
    """The words of a line (left to right on the page) as text in reading order."""
    if has_rtl("".join(texts)):
        texts = [_unmirror(text) for text in logical_order(texts, texts)] if rtl_line(texts) \
            else ltr_order(texts, texts)
    return " ".join(texts)


# Brackets a right-to-left line draws mirrored: a producer writes the glyph shown, ")" where
# the text opens a parenthesis (UAX #9 rule L4), and PDFium reads that code.
_MIRROR = str.maketrans("()[]{}<>«»‹›", ")(][}{><»«›‹")
_OPENING, _CLOSING = "([{<«‹", ")]}>»›"
_BRACKETS = _OPENING + _CLOSING


# A figure ending a sentence or numbering an item, a currency sign before it or not: PDFium
# gives the stop first (``.2024``, ``.1``, ``.₪49.90``), as it stands, left of the figure.
_STOP_BEFORE_FIGURE = re.compile(r"^([.,:;!?)\u060c\u061b\u061f]+)"
                                 r"([$\u00a3\u00a5\u20a0-\u20cf]?\d(?:.*\d)?)$")
# A hyphen, minus or plus before a figure (a Hebrew prefix joined to a number, "ב-120", a signed
# figure, "-5.2%"), or both (a prefix's hyphen and the figure's sign, "ל--5", "ל-+3"): in a
# right-to-left paragraph the bidi algorithm sets them right of the figure, the first rightmost,
# where PDFium gives them (``120-``, ``5.2%-``, ``5--``, ``3+-``).
_SIGN_AFTER_FIGURE = re.compile(r"^(\d(?:.*\d)?[%\u066a]?)([-+\u2010-\u2013\u2212]{1,2})$")
# A figure in Arabic-Indic digits and its per cent sign after it ("+٣٫٦٪"): the sign is no part
# of the figure's run (UAX #9 rule W5 joins it to European digits only), so it stands left of
# the figure, and a plus or minus right of it: PDFium gives ``٪٣٫٦+``.
_INDIC_PER_CENT = re.compile(r"^\u066a([\u0660-\u0669\u06f0-\u06f9](?:.*\d)?)([-+\u2010-\u2013\u2212]?)$")
_DASHES = "-\u2010\u2011\u2012\u2013\u2212"
# A word of figures and the signs between them, no letter (``20-10``, ``%3.5-``).  After an
# Arabic letter its digits are Arabic numbers (UAX #9 rule W2): a hyphen, a plus, a per cent
# sign between or round them is no part of a number's run and is set right to left, so each
# number stands in order but the pieces are drawn backwards ("10-20" as ``20-10``, a phone's
# "04-1234567" as ``1234567-04``, "-3.5%" as ``%3.5-``); a separator between two numbers
# ("12/03/2024", "14:30", "3.5") joins them in one run (rule W4).
_FIGURES_ONLY = re.compile(rf"^[^\w]*\d[^a-zA-Z{_RTL_BLOCKS}]*$")
_ARABIC_NUMBER_PIECE = re.compile(r"\d+(?:[.,:/\u066b\u066c]\d+)*|.", re.DOTALL)


def _unmirror(text: str, signed: bool = True) -> str:
    """A word of a right-to-left line with its brackets as written, unless it is a Latin word
    (inside a Latin run brackets are not mirrored); a stop before a figure after it; a sign
    after a figure before it unless not ``signed``."""
    if _kind(text) == "L":
        return text
    stop = _STOP_BEFORE_FIGURE.match(text)
    if stop:
        text = stop.group(2) + stop.group(1)
    return (_sign_first(text) if signed else text).translate(_MIRROR)


def _sign_first(text: str) -> str:
    """A figure PDFium gave with its signs where the bidi algorithm sets them (see
    _SIGN_AFTER_FIGURE and _INDIC_PER_CENT) as written."""
    signed = _SIGN_AFTER_FIGURE.match(text)
    if signed:
        return signed.group(2)[::-1] + signed.group(1)
    indic = _INDIC_PER_CENT.match(text)
    return indic.group(2) + indic.group(1) + "\u066a" if indic else text


def logical_words(words: list[Word]) -> list[Word]:
    """The words of a right-to-left line (left to right on the page) in reading order, their
    brackets as written, and a bracket or stop that PDFium read as a word of its own but that
    touches its neighbour in reading order joined to it (``[`` + ``2024]``, ``2024`` + ``.``),
    as is a figure after a hyphen that touches the word before it (``ב`` + ``-120``), and a
    Latin word or a figure after a Hebrew prefix's hyphen that it touches (``ו-`` +
    ``RabbitMQ``: "ו-RabbitMQ", typed so)."""
    out: list[Word] = []
    strong = "R"  # the bidi class of the last letter read (the line's direction before any)
    reach = _touching(words)
    for word in logical_order(words, [w.text for w in words]):
        text = word.text
        if strong == "AL" and _FIGURES_ONLY.match(text):
            text = _arabic_number_run(text)
        # (After a Latin letter a figure runs on the Latin run, left to right as written (rule
        # W7): a hyphen right of it is the right-to-left text's, "ב-Microsoft Office 365" read
        # ``365-``, no sign of the figure's.)
        text = _unmirror(text, signed=strong != "L")
        strong = next((c for c in (unicodedata.bidirectional(ch) for ch in reversed(text) if ch.isalpha())
                       if c in ("L", "R", "AL")), strong)
        last = out[-1] if out else None
        if last is not None and (_kind(text) == "" or _kind(last.text) == "" or text[0] in _DASHES
                                 or (last.text[-1] in _DASHES and _kind(last.text) == "R"
                                     and _kind(text) in ("L", "N"))
                                 or last.text[-1] in _OPENING or text[0] in _CLOSING) and \
                min(abs(word.x0 - last.x1), abs(last.x0 - word.x1)) <= min(0.25 * word.size, reach):
            out[-1] = replace(last, text=last.text + text, x0=min(last.x0, word.x0),
                              top=min(last.top, word.top), x1=max(last.x1, word.x1),
                              bottom=max(last.bottom, word.bottom))
            continue
        out.append(word if text == word.text else replace(word, text=text))
    return out


def _touching(words: list[Word]) -> float:
    """How far apart two words of a right-to-left line may stand and still touch: under half
    the line's word space (the median gap between its words, four gaps or more), so that a
    hyphen set a space apart stays apart (Persian "اصلی - کالای" in a font whose word space is
    a quarter of its size); no bound of the line's own with fewer gaps."""
    ordered = sorted(words, key=lambda w: w.x0)
    gaps = sorted(b.x0 - a.x1 for a, b in zip(ordered, ordered[1:], strict=False))
    return 0.5 * gaps[len(gaps) // 2] if len(gaps) >= 4 else float("inf")


def _arabic_number_run(text: str) -> str:
    """A word of figures after an Arabic letter (see _FIGURES_ONLY) with its pieces in the
    order written: the numbers and the signs between and round them drawn backwards, put back;
    a bracket at either end stays where PDFium gives it, which is already where it is read
    (the bracket enclosing the run, "(16.9)" given ``16.9(``, is no piece of the number's run:
    turned round with it, it read "()16.9")."""
    start, end = 0, len(text)
    while start < end and text[start] in _BRACKETS:
        start += 1
    while end > start and text[end - 1] in _BRACKETS:
        end -= 1
    return text[:start] + "".join(reversed(_ARABIC_NUMBER_PIECE.findall(text[start:end]))) + text[end:]


def logical_columns(cells: list[list[str]]) -> list[list[str]] | None:
    """A table's rows (cells left to right) with the rightmost column first when the table is
    right to left (most of its letters are in right-to-left scripts: its first column is on
    the right); None for a left-to-right table.  A cell of a signed figure alone has its sign
    first (its paragraph is right to left too, though it holds no letter to tell)."""
    if not _rtl_table(cells):
        return None
    return [[_rtl_cell(cell) for cell in row[::-1]] for row in cells]


def signed_cells(cells: list[list[str]]) -> list[list[str]]:
    """A table's rows in reading order already (a tagged table's, as its tree orders them) with
    each signed figure's sign first when the table is right to left (see logical_columns)."""
    if not _rtl_table(cells):
        return cells
    return [[_rtl_cell(cell) for cell in row] for row in cells]


def _rtl_cell(cell: str) -> str:
    """A cell of a right-to-left table as written: a signed figure with its sign first; a cell
    of no letter (its words left to right on the page, a space apart) is a right-to-left
    paragraph of its own, which the table finder read as a line of no direction: its words
    read right to left (two figures a space apart), a bracket PDFium read as a word of its own
    joined to the word after it, and brackets drawn mirrored (the text opening with a closing
    one or ending with an opening one: ")" and "5.2(" for "(5.2)") as written."""
    if any(ch.isalpha() for ch in cell) or " " not in cell and not (cell[:1] in _CLOSING
                                                                    or cell[-1:] in _OPENING):
        return _sign_first(cell)
    text = ""
    for word in cell.split()[::-1]:
        text += word if not text or all(ch in _OPENING + _CLOSING for ch in text.split()[-1]) else " " + word
    if text[:1] in _CLOSING or text[-1:] in _OPENING:
        text = text.translate(_MIRROR)
    return _sign_first(text)


def rtl_words(line: list[Word]) -> list[Word]:
    """One line's words (left to right) in reading order: a right-to-left line's as
    logical_words gives them, a left-to-right one's as ltr_order gives them."""
    texts = [w.text for w in line]
    if not has_rtl("".join(texts)):
        return line
    return logical_words(line) if rtl_line(texts) else ltr_order(line, texts)


def _rtl_table(cells: list[list[str]]) -> bool:
    texts = [cell for row in cells for cell in row]
    return has_rtl("".join(texts)) and rtl_line(texts)
