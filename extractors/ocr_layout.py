"""Tesseract's word boxes as a :class:`~extractors.pdf_words.PageLayout`: the input the PDF
structure stage (:mod:`extractors.pdf_structure`) reads, so OCRed pages get headings,
paragraphs, lists and tables as born-digital ones do.

The input is ``pytesseract.image_to_data(..., output_type=Output.DICT)`` (or Tesseract's TSV
read the same way): one row per page, block, paragraph, line and word, with pixel boxes.

Tesseract gives no font: what the structure stage needs from one is made up here.

- **Size**: the line's band (the upper quartile of its words' ink tops to the lower quartile
  of their bottoms: ascenders to descenders, robust to a stray mark, and not the x-height
  of a word like "on"), taken as 0.9 em: a font's ink from ascender to descender is 0.9 to
  0.95 of its size (Times, Helvetica), and the structure stage measures gaps in ems.  A
  line without descenders or ascenders measures up to half less, and the structure stage
  ends a paragraph at a change of size: so the lines of a Tesseract paragraph (``par_num``)
  take its tallest band (a line far taller than the rest, a heading Tesseract put in the
  paragraph, keeps its own), and lines near the page's body size take the body size.
- **Vertical box**: every word of a line spans the line's band, extended down to the
  paragraph's size when the line has no descenders, as a PDF text layer's loose character
  boxes span the font's height: ink boxes would put "on" and "yes" at different heights on
  one baseline, and a line of capitals would seem further from the next one.
- ``bold`` is False and ``font`` empty (Tesseract 4 and 5 do not report them), ``italic``
  False; headings are then found by size and numbering only.
- Coordinates are multiplied by ``points_per_pixel``: the page width in points over the
  image width in pixels for a rendered PDF page, 1.0 for a standalone image (its boxes stay
  in pixels).  Low-confidence words are kept (text quality is judged on the text); rows
  with ``conf`` below 0 (not words) and empty words are dropped.
- Not text: words of bars ("|", a ruled table's vertical rules) become vertical rulings,
  words of underscores are dropped; a bullet read as "¢", "©" or "e" becomes "•" on the
  line of the text it marks.  The page's plain text keeps them as Tesseract read them.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from extractors.pdf_structure import PageStructure
from extractors.pdf_words import PageLayout, Ruling, Word

_WORD_LEVEL = 5
# Ink height from ascender to descender, in ems.
_INK_PER_EM = 0.9
# A word this much taller than its line's median word is not measured for the line's band.
_OUTLIER = 1.5
# A line this much taller than its paragraph's median keeps its own size.
_OWN_SIZE = 1.25
# Lines whose ink height is within these ratios of the page's body text are body text: a
# line of capitals and digits measures 0.77 of one with descenders, one of x-height
# letters 0.55, and the structure stage would end a paragraph there; 1.1 stays below its
# heading threshold (1.15).
_BODY_BAND = (0.55, 1.1)
# What Tesseract reads a bullet as (a lone symbol, or "e" and "o" for round bullets).
_BULLET_MISREADS = frozenset("•●▪■□◦‣∙·¢©®«»°*eo")
# A table's vertical rules, read as words of bars.
_BARS = frozenset("|¦")
# Tesseract's reading of a wide justified space (or a form's blank): no text, and a word
# in the gap would make the structure stage see the line's one wide gap as a cell gap.
_BLANKS = frozenset("_")
# Markdown's marks, left out when OCR lines are looked for in the structured Markdown.
_MARKS = str.maketrans({"#": " ", "|": " ", "\\": " ", "*": " ", "-": " ", "•": " "})
# Lines of fewer words are table cells and labels, which the structure stage rightly moves.
_ORDER_MIN_WORDS = 3


# A word and its box in pixels: text, left, top, right, bottom.
_Box = tuple[str, float, float, float, float]


@dataclass
class _Line:
    key: tuple[int, int, int, int]  # page, block, paragraph, line numbers
    words: list[_Box] = field(default_factory=list)

    @property
    def band(self) -> tuple[float, float]:
        """Top and bottom of the line's text: quartiles of its words' tops and bottoms, over
        words at most half again as tall as the line's median word (a speck of a noisy scan
        or a bracket joined to a word would set a short line's band)."""
        heights = sorted(w[4] - w[2] for w in self.words)
        limit = _OUTLIER * heights[len(heights) // 2]
        words = [w for w in self.words if w[4] - w[2] <= limit] or self.words
        tops = sorted(w[2] for w in words)
        bottoms = sorted(w[4] for w in words)
        return _quantile(tops, 0.25), _quantile(bottoms, 0.75)

    @property
    def ink(self) -> float:
        top, bottom = self.band
        return bottom - top


def _quantile(values: Sequence[float], share: float) -> float:
    """The value ``share`` of the way up sorted ``values`` (nearest rank)."""
    return values[min(len(values) - 1, round(share * (len(values) - 1)))]


def _number(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return -1.0


def _lines(data: Mapping[str, Sequence[Any]]) -> tuple[list[_Line], list[_Box]]:
    """The word rows grouped by (page, block, paragraph, line), in Tesseract's reading
    order, and the boxes of words that are bars (a table's vertical rules)."""
    lines: dict[tuple[int, int, int, int], _Line] = {}
    bars: list[_Box] = []
    columns = ("level", "page_num", "block_num", "par_num", "line_num", "left", "top", "width",
               "height", "conf", "text")
    level, page, block, par, line, left, top, width, height, conf, text = (data[c] for c in columns)
    for i in range(len(text)):
        word = str(text[i] or "").strip()
        if int(_number(level[i])) != _WORD_LEVEL or not word or _number(conf[i]) < 0:
            continue
        x0, y0 = float(left[i]), float(top[i])
        box = (word, x0, y0, x0 + float(width[i]), y0 + float(height[i]))
        if set(word) <= _BARS:
            bars.append(box)
            continue
        if set(word) <= _BLANKS:
            continue
        key = (int(page[i]), int(block[i]), int(par[i]), int(line[i]))
        lines.setdefault(key, _Line(key)).words.append(box)
    return _join_bullets(list(lines.values())), bars


def _bullet_like(text: str) -> bool:
    return len(text) <= 2 and set(text) <= _BULLET_MISREADS | {"."} and text != "."


def _join_bullets(lines: list[_Line]) -> list[_Line]:
    """A bullet Tesseract read as a symbol ("¢", "©", "e", "°°") at the start of a line,
    set apart from the text it marks, becomes "•" on that text's line (Tesseract often
    makes it a line of its own, whose band is the bullet's, not the text's)."""
    bands = {id(line): line.band for line in lines}
    for line in lines:
        if not line.words or not _bullet_like(line.words[0][0]):
            continue
        mark = line.words[0]
        centre = (mark[2] + mark[4]) / 2
        if len(line.words) > 1:
            target, first = line, line.words[1]
        else:
            beside = [(other, other.words[0]) for other in lines
                      if other is not line and other.words and other.words[0][1] > mark[3]
                      and bands[id(other)][0] <= centre <= bands[id(other)][1]]
            if not beside:
                continue
            target, first = min(beside, key=lambda pair: pair[1][1])
        top, bottom = bands[id(target)]
        tall = bottom - top
        if not 0.4 * tall <= first[1] - mark[3] <= 4 * tall or mark[4] - mark[2] > 0.9 * tall:
            continue  # a word of the text, not a mark before it
        bullet = ("•", *mark[1:])
        if target is line:
            line.words[0] = bullet
        else:
            line.words.clear()
            target.words.insert(0, bullet)
    return [line for line in lines if line.words]


def _inks(lines: list[_Line]) -> list[float]:
    """Each line's ink height (pixels) from ascender to descender, as far as it can be told.

    A line's band misses its descenders when few of its words have any, its ascenders (a
    line of digits), or both ("team area over."): the lines of a paragraph take the tallest
    band among them (lines far above the paragraph's median, a heading in it, keep their
    own), then lines near the page's body height take that height."""
    inks = [line.ink for line in lines]
    by_par: dict[tuple[int, int, int], list[int]] = {}
    for index, line in enumerate(lines):
        by_par.setdefault(line.key[:3], []).append(index)
    for indices in by_par.values():
        median = statistics.median(inks[i] for i in indices)
        near = [i for i in indices if inks[i] <= _OWN_SIZE * median]
        if near:
            tallest = max(inks[i] for i in near)
            for i in near:
                inks[i] = tallest
    weights = [sum(len(w[0]) for w in line.words) for line in lines]
    body = _weighted_median(inks, weights)
    return [body if _BODY_BAND[0] * body <= ink <= _BODY_BAND[1] * body else ink for ink in inks]


def _weighted_median(values: list[float], weights: list[int]) -> float:
    pairs = sorted(zip(values, weights, strict=True))
    half, seen = sum(weights) / 2, 0
    for value, weight in pairs:
        seen += weight
        if seen >= half:
            return value
    return pairs[-1][0] if pairs else 0.0


def _sideways(lines: list[_Line]) -> bool:
    """Whether most words stand taller than wide: Tesseract read the page's lines running
    down it (a page scanned sideways, read well enough not to be turned)."""
    long_words = [w for line in lines for w in line.words if len(w[0]) >= 3]
    upright = sum(1 for _, x0, top, x1, bottom in long_words if bottom - top > x1 - x0)
    return bool(long_words) and upright > len(long_words) / 2


def layout_from_data(data: Mapping[str, Sequence[Any]], number: int, image_size: tuple[int, int],
                     points_per_pixel: float = 1.0) -> PageLayout | None:
    """Page ``number``'s layout from Tesseract's word data for an image of ``image_size``
    pixels (width, height), in units of ``points_per_pixel``; None when the text runs down
    the page (the structure stage reads lines across it)."""
    scale = points_per_pixel
    lines, bars = _lines(data)
    if _sideways(lines):
        return None
    words: list[Word] = []
    for index, (line, ink) in enumerate(zip(lines, _inks(lines), strict=True)):
        top, bottom = line.band
        bottom = max(bottom, top + ink)
        size = ink / _INK_PER_EM * scale
        for text, x0, _, x1, _ in line.words:
            words.append(Word(text, x0 * scale, top * scale, x1 * scale, bottom * scale, size,
                              bold=False, font="", line=index))
    # Bars as vertical rules, for the ruled table finder (which needs horizontal ones too,
    # that Tesseract does not give).
    rulings = [Ruling((x0 + x1) / 2 * scale, top * scale, (x0 + x1) / 2 * scale, bottom * scale)
               for _, x0, top, x1, bottom in bars]
    width, height = image_size
    return PageLayout(number, width * scale, height * scale, words, rulings)


def _flat(text: str) -> str:
    """Text without Markdown's marks (headings, table pipes, escapes, list bullets) and with
    whitespace collapsed, for finding OCR lines in the structured Markdown."""
    return " ".join(text.translate(_MARKS).split())



def reading_order_kept(layout: PageLayout, found: PageStructure) -> float:
    """The share of Tesseract's consecutive lines (of three words or more) that follow each
    other in the structured Markdown as well: low when the structure stage merged lines
    across a narrow gutter or interleaved a caption with the columns, which Tesseract's own
    page segmentation had kept apart.  Running lines and tables, which the structure stage
    rightly takes out or rewrites, are left out; 1.0 when there is nothing to compare."""
    running = {_flat(text) for text in found.running}
    tables = [b.box for b in found.blocks if b.kind == "table"]
    lines: dict[int, list[Word]] = {}
    for word in layout.words:
        lines.setdefault(word.line, []).append(word)
    texts = []
    for _, words in sorted(lines.items()):
        text = _flat(" ".join(w.text for w in words))
        x, y = (words[0].x0 + words[-1].x1) / 2, (words[0].top + words[0].bottom) / 2
        in_table = any(x0 <= x <= x1 and top <= y <= bottom for x0, top, x1, bottom in tables)
        if text not in running and not in_table:
            texts.append(text)
    flat = _flat(found.markdown)
    pairs = kept = 0
    for first, second in zip(texts, texts[1:], strict=False):
        if len(first.split()) < _ORDER_MIN_WORDS or len(second.split()) < _ORDER_MIN_WORDS:
            continue
        pairs += 1
        at = flat.find(first)
        kept += at >= 0 and flat.startswith(second, at + len(first) + 1)
    return kept / pairs if pairs else 1.0
