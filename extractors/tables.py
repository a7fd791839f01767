"""Tables as cells and as Markdown, whichever engine found them."""

from __future__ import annotations

from extractors.base import Table


def cells_to_markdown(cells: list[list[str]]) -> str:
    """A pipe table, the one renderer of every engine's tables: the first row as header, a
    separator, one line per further row, short rows padded; a cell's whitespace (line breaks
    included) collapses to single spaces and its pipes are escaped."""
    if not cells:
        return ""
    width = max(len(row) for row in cells)

    def line(row: list[str]) -> str:
        padded = [" ".join((cell or "").split()).replace("|", "\\|") for cell in row]
        padded += [""] * (width - len(padded))
        return "| " + " | ".join(padded) + " |"

    header, *body = cells
    return "\n".join([line(header), "| " + " | ".join(["---"] * width) + " |", *map(line, body)])


def html_table(html: str, page: int | None = None) -> Table | None:
    """Cells of the first ``<table>`` in ``html`` (spanning cells repeated across their span)."""
    import lxml.html

    try:
        root = lxml.html.fromstring(html)
    except (ValueError, lxml.etree.ParserError):
        return None
    table = root if root.tag == "table" else root.find(".//table")
    if table is None:
        return None
    cells: list[list[str]] = []
    for row in table.iter("tr"):
        values: list[str] = []
        for cell in row:
            if cell.tag not in ("td", "th"):
                continue
            text = " ".join(cell.text_content().split())
            span = int(cell.get("colspan") or 1) if (cell.get("colspan") or "1").isdigit() else 1
            values.extend([text] * max(1, min(span, 100)))
        if values:
            cells.append(values)
    if not cells:
        return None
    return Table(cells=cells, markdown=cells_to_markdown(cells), page=page)
