"""A table's columns as its body rows set them, and lines read with them: how the top of the
next page is read when a table goes on there without its header.

A page finder (:mod:`extractors.pdf_tables`) reads columns from the page alone.  Under a
header it can tell a narrow gutter from a word space (a label over each side); on the next
page, without the header, nothing confirms that gutter and two columns read as one ("14/10/2023
INV-93833": right-aligned dates against left-aligned references 2 pt apart), so the part has
another column count and is not stitched.  The table the previous page ends with knows its
columns: where each one's cells stand (the extent of their words), the edge they are aligned
on (left, right or centre, when every cell keeps it) and what they hold (figures, dates or
text).  Lines at the top of the next page that fit those columns -- every word inside one
column, every cell on its column's alignment, figures and dates where the body has them, two
columns filled or more -- are that table's rows, read in its columns.  A different table at
the top of the page fails it: its columns stand elsewhere or hold other kinds, or its first
row is a header (words where the body holds figures).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractors.pdf_table_model import DATE, NUMERIC, FoundTable
from extractors.pdf_words import Word

# Edges this close (points) are the same alignment: a column keeps one edge within it over
# its body, and a row on the next page puts its cell within it.
ALIGNED = 2.0
# A word may stand this far (in its font size) outside its column's extent seen so far (a
# longer text than any above it, in a left-aligned column) while it stays clear of the next.
OVERHANG_EM = 6.0
# The share of a column's filled body cells of one kind (figures, dates) that makes it a
# column of that kind, and the least body rows whose words give the columns.
KIND_SHARE = 0.6
MIN_ROWS = 3
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Column:
    """One column of a table's body: the extent of its cells' words, the edges every cell
    keeps (left, right, centre) and the kind its cells hold ("figure", "date" or "text")."""

    left: float
    right: float
    edges: tuple[tuple[str, float], ...]
    kind: str


def kind_of(text: str) -> str:
    """A cell's kind: "figure", "date", "text", or "" when empty."""
    text = _SPACE.sub(" ", text.strip())
    if not text:
        return ""
    if DATE.match(text):
        return "date"
    return "figure" if NUMERIC.match(text) else "text"


def body_columns(table: FoundTable, words: list[Word]) -> list[Column] | None:
    """``table``'s columns from its body rows' words (``words``: the page's), or None when
    fewer than MIN_ROWS lines of the body can be matched to its rows cell by cell."""
    width = max((len(row) for row in table.cells), default=0)
    body = table.cells[max(1, table.header_rows):]
    if width < 2 or len(body) < MIN_ROWS:
        return None
    # (By the row's first word: a row's first line may hold only the first words of a wrapped
    # cell, so no line need read as its row whole.)
    by_first: dict[str, list[list[str]]] = {}
    for row in body:
        if len(row) == width and (text := _row_text(row)):
            by_first.setdefault(text.split()[0], []).append(row)
    spans: list[list[tuple[float, float]]] = [[] for _ in range(width)]
    matched = 0
    for line in baseline_rows(words_inside(words, table)):
        placed = next((found for row in by_first.get(line[0].text, [])
                       if (found := _placed(line, row)) is not None), None)
        if placed is None:
            continue
        matched += 1
        for column, (x0, x1) in placed.items():
            spans[column].append((x0, x1))
    if matched < MIN_ROWS or any(not column for column in spans):
        return None
    kinds = [_column_kind([row[c] for row in body if c < len(row)]) for c in range(width)]
    return [Column(min(x0 for x0, _ in s), max(x1 for _, x1 in s), _edges(s), kind)
            for s, kind in zip(spans, kinds, strict=True)]


def fit_row(line: list[Word], columns: list[Column]) -> list[str] | None:
    """``line``'s cells in ``columns``, or None when a word stands in no column (or between
    two), a cell leaves its column's alignment or kind, or fewer than two columns are filled."""
    cells: list[list[Word]] = [[] for _ in columns]
    for word in sorted(line, key=lambda w: w.x0):
        index = _column_of(word, columns)
        if index is None or any(cells[c] for c in range(index + 1, len(columns))):
            return None
        cells[index].append(word)
    if sum(1 for cell in cells if cell) < 2:
        return None
    texts = []
    for cell, column in zip(cells, columns, strict=True):
        text = " ".join(w.text for w in cell)
        if cell and not (_aligned(cell, column) and _kind_fits(text, column)):
            return None
        texts.append(text)
    return texts


def wrapped_column(line: list[Word], columns: list[Column]) -> int | None:
    """The text column that holds every word of ``line`` on its alignment (the next line of a
    wrapped cell), or None."""
    placed = {_column_of(word, columns) for word in line}
    column = placed.pop() if len(placed) == 1 else None
    if column is None:
        return None
    ordered = sorted(line, key=lambda w: w.x0)
    return column if columns[column].kind == "text" and _aligned(ordered, columns[column]) else None


def baseline_rows(words: list[Word]) -> list[list[Word]]:
    """Words on one baseline, each row left to right, top down."""
    rows: list[list[Word]] = []
    for word in sorted(words, key=lambda w: (w.top + w.bottom) / 2):
        centre = (word.top + word.bottom) / 2
        if rows and abs(centre - _centre(rows[-1])) <= 0.4 * (word.bottom - word.top):
            rows[-1].append(word)
        else:
            rows.append([word])
    return [sorted(row, key=lambda w: w.x0) for row in rows]


def _centre(row: list[Word]) -> float:
    return sum((w.top + w.bottom) / 2 for w in row) / len(row)


def words_inside(words: list[Word], table: FoundTable) -> list[Word]:
    """The words whose middle is inside ``table``'s box."""
    return [w for w in words if table.x0 - 1 <= (w.x0 + w.x1) / 2 <= table.x1 + 1
            and table.top - 1 <= (w.top + w.bottom) / 2 <= table.bottom + 1]


def _row_text(row: list[str]) -> str:
    return " ".join(_SPACE.sub(" ", cell.strip()) for cell in row if cell.strip())


def _placed(line: list[Word], row: list[str]) -> dict[int, tuple[float, float]] | None:
    """Where each filled cell of ``row`` stands on ``line`` (its words in the row's order): the
    row's line, or its first line when cells wrap, holding each filled cell's first words (as
    many as it has, the rest on the lines under it)."""
    placed: dict[int, tuple[float, float]] = {}
    at = 0
    for column, cell in enumerate(row):
        tokens = cell.split()
        if not tokens:
            continue
        taken = 0
        while taken < len(tokens) and at + taken < len(line) and line[at + taken].text == tokens[taken]:
            taken += 1
        if not taken:
            return None
        placed[column] = (line[at].x0, line[at + taken - 1].x1)
        at += taken
    return placed if at == len(line) else None


def _edges(spans: list[tuple[float, float]]) -> tuple[tuple[str, float], ...]:
    """The edges every span keeps within ALIGNED, each with its median position."""
    edges = []
    for name, values in (("left", [x0 for x0, _ in spans]), ("right", [x1 for _, x1 in spans]),
                         ("centre", [(x0 + x1) / 2 for x0, x1 in spans])):
        if max(values) - min(values) <= ALIGNED:
            edges.append((name, sorted(values)[len(values) // 2]))
    return tuple(edges)


def _column_kind(cells: list[str]) -> str:
    kinds = [kind_of(cell) for cell in cells]
    filled = [k for k in kinds if k]
    for kind in ("figure", "date"):
        if filled and kinds.count(kind) >= KIND_SHARE * len(filled):
            return kind
    return "text"


def _column_of(word: Word, columns: list[Column]) -> int | None:
    """The column whose extent holds the word's centre, else the one it overhangs (to the
    right of a left-aligned column, to the left of a right-aligned one) short of the next."""
    centre = (word.x0 + word.x1) / 2
    for index, column in enumerate(columns):
        if column.left <= centre <= column.right:
            return index
    reach = OVERHANG_EM * word.size
    for index, column in enumerate(columns):
        names = {name for name, _ in column.edges}
        after = columns[index + 1].left if index + 1 < len(columns) else float("inf")
        before = columns[index - 1].right if index > 0 else float("-inf")
        if ("right" not in names and column.right < word.x0 and word.x1 < after
                and word.x1 <= column.right + reach):
            return index
        if ("left" not in names and before < word.x0 and word.x1 < column.left
                and word.x0 >= column.left - reach):
            return index
    return None


def _aligned(cell: list[Word], column: Column) -> bool:
    if not column.edges:
        return True
    x0, x1 = cell[0].x0, cell[-1].x1
    at = {"left": x0, "right": x1, "centre": (x0 + x1) / 2}
    return any(abs(at[name] - position) <= ALIGNED for name, position in column.edges)


def _kind_fits(text: str, column: Column) -> bool:
    """A figure or date column holds its kind (or nothing); a text column anything."""
    return column.kind == "text" or kind_of(text) == column.kind
