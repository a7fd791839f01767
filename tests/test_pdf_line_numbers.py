"""Line numbers beside running text (a patent's description numbered every fifth line in the
gutter and the margin, a pleading's every line in the margin) are no text: not in the
paragraphs, not a column of their own, not a table's column; a table's column of row numbers or
of years five apart, and figures in sentences, stay (office probe patent_spec, 2026-12-06)."""

from __future__ import annotations

from typing import Any

from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth

from extractors.pdf_line_numbers import _steps
from extractors.pdf_line_numbers import line_numbers as pages_line_numbers
from extractors.pdf_words import Word
from tests.pdf_output import drawn_pdf, markdown_of, wrapped_lines

TEXT = ("The housing supports the sensor and the controller in the embodiment shown, and the valve "
        "closes when the pressure in the line drops below the threshold set by the operator. ")
LEFT = ("[0001] " + TEXT * 4).strip()
RIGHT = ("[0002] " + TEXT.replace("housing", "bracket") * 4).strip()


def _columns_page(canvas: Any, step: int = 5, gutter: bool = True, margin: bool = True) -> None:
    """Two columns of 10-point prose, every ``step``-th line numbered (12 points, right-aligned)
    left of each column: the first column's numbers in the margin, the second's in the gutter."""
    width, height = A4
    column = (width - 72 * 2 - 30) / 2
    count = 0
    for x, text, numbered in ((72, LEFT, margin), (72 + column + 30, RIGHT, gutter)):
        y = height - 90
        for line in wrapped_lines(text, column, "Times-Roman", 10):
            count += 1
            canvas.setFont("Times-Roman", 10)
            canvas.drawString(x, y, line)
            if numbered and count % step == 0:
                canvas.setFont("Times-Roman", 12)
                canvas.drawRightString(x - 8, y, str(count))
            y -= 12


def test_gutter_and_margin_line_numbers_are_no_text() -> None:
    markdown = markdown_of(drawn_pdf(_columns_page))
    paragraphs = [" ".join(p.split()) for p in markdown.split("\n\n")]
    assert paragraphs == [LEFT, RIGHT]


def line_numbers(words: list[Word]) -> set[int]:
    """One page's line numbers."""
    return pages_line_numbers([words])[0]


def _word(text: str, x0: float, y: float, size: float = 10.0) -> Word:
    return Word(text, x0, y, x0 + stringWidth(text, "Times-Roman", size), y + size, size, False)


def _right(text: str, x1: float, y: float) -> Word:
    """A word set flush right at ``x1``."""
    return _word(text, x1 - stringWidth(text, "Times-Roman", 10), y)


def _prose_rows(x: float, top: float, rows: int, pitch: float = 12.0) -> list[Word]:
    words = []
    for row in range(rows):
        at = x
        for text in "the valve closes when the pressure drops below its threshold".split():
            words.append(_word(text, at, top + row * pitch))
            at = words[-1].x1 + 2.5
    return words


def test_every_fifth_line_numbered_left_of_prose() -> None:
    words = _prose_rows(100, 100, 20)
    numbers = [_right(str(n), 80, 100 + (n - 1) * 12) for n in (5, 10, 15, 20)]
    found = line_numbers([*words, *numbers])
    assert found == set(range(len(words), len(words) + 4))


def test_a_column_of_years_five_apart_beside_its_rows_stays() -> None:
    """A table's first column of years five apart: its rows follow one another, no lines
    between them (and cells beside them, not prose)."""
    words = []
    for row, year in enumerate((2005, 2010, 2015, 2020)):
        for text, x in ((str(year)[2:], 80), ("1,234", 150), ("5,678", 250)):
            words.append(_word(text, x, 100 + row * 12))
    assert line_numbers(words) == set()
    # Prose beside them, but no lines between: still a column of figures, not line numbers.
    rows = _prose_rows(100, 100, 4)
    years = [_right(str(n), 90, 100 + row * 12) for row, n in enumerate((5, 10, 15, 20))]
    assert line_numbers([*rows, *years]) == set()


def test_row_numbers_in_a_table_and_figures_in_sentences_stay() -> None:
    """Numbered every line (a step of one) only in the margin, left of all the page's text:
    a table's "No." column has its header over it and paragraphs start where it does."""
    rows = _prose_rows(100, 100, 10)
    numbered = [_right(str(n), 90, 100 + (n - 1) * 12) for n in range(1, 11)]
    assert len(line_numbers([*rows, *numbered])) == 10
    table = [*rows, *numbered, _word("No.", 80, 88), _word("Paragraph", 80, 60)]
    assert line_numbers(table) == set()
    sentence = _prose_rows(100, 100, 20)
    figures = [_word(str(n), sentence[9].x1 + 2.5, 100 + (n - 1) * 12) for n in (10, 15, 20)]
    assert line_numbers([*sentence, *figures]) == set()


def test_figures_ending_the_lines_of_a_justified_column_stay() -> None:
    """Reference numerals two apart ending justified lines (level at the column's right edge),
    the next column's text a gutter to their right: the column's other lines cross their strip."""
    rows = _prose_rows(100, 100, 12)
    right = max(word.x1 for word in rows) + 20
    numerals = [_right(str(n), right, 100 + row * 12) for row, n in ((1, 102), (4, 104), (7, 106), (10, 108))]
    for number in numerals:
        rows = [w for w in rows if not (abs(w.top - number.top) < 1 and w.x1 > number.x0 - 3)]
    rows += [_right("pad", right, 100 + row * 12) for row in range(12) if row not in (1, 4, 7, 10)]
    beyond = _prose_rows(right + 25, 100, 12)
    assert line_numbers([*rows, *numerals, *beyond]) == set()


def test_steps_gives_the_columns_step() -> None:
    numbers = [_right(str(n), 80, 100 + (n - 1) * 12) for n in (5, 10, 15, 20)]
    assert _steps([0, 1, 2, 3], numbers) == 5
    skewed = [_right(str(n), 80, 100 + row * 12) for row, n in enumerate((5, 10, 20))]
    assert _steps([0, 1, 2], skewed) == 0


def test_a_single_figure_over_a_right_aligned_column_is_taken_with_it() -> None:
    """"5" over "10" to "30" set flush right, its glyph's box ending two points short of
    theirs: one column with them, not a "5" left in the text."""
    words = _prose_rows(100, 100, 30)
    numbers = [_right(str(n), 80, 100 + (n - 1) * 12) for n in (10, 15, 20, 25, 30)]
    five = _right("5", 78, 100 + 4 * 12)
    found = line_numbers([*words, *numbers, five])
    assert found == set(range(len(words), len(words) + 6))


def test_a_tables_figures_under_another_pages_gutter_stay() -> None:
    """A page's figures a row apart where another page has its line numbers ("10", "25",
    "40": no lines between them) are a table's; a last page's short column at the numbers'
    pitch ("5", "10" five lines apart) is taken."""
    page = _prose_rows(100, 100, 25)
    numbers = [_right(str(n), 80, 100 + (n - 1) * 12) for n in (5, 10, 15, 20, 25)]
    table = [_word(text, x, 100 + row * 12) for row in range(3)
             for text, x in (("Widgets", 150), ("units", 300))]
    figures = [_right(str(n), 80, 100 + row * 12) for row, n in enumerate((10, 25, 40))]
    last = _prose_rows(100, 100, 10)
    short = [_right(str(n), 80, 100 + (n - 1) * 12) for n in (5, 10)]
    found = pages_line_numbers([[*page, *numbers], [*table, *figures], [*last, *short]])
    assert found == [set(range(len(page), len(page) + 5)), set(), set(range(len(last), len(last) + 2))]
