"""Word (python-docx) parts the generated documents share: saving a document to bytes, a
cell's fill, a table without borders, a table's columns set to fixed widths."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Inches


def docx_bytes(document: object) -> bytes:
    buffer = io.BytesIO()
    document.save(buffer)  # type: ignore[attr-defined]
    return buffer.getvalue()


def shade(cell: object, fill: str) -> None:
    shading = OxmlElement("w:shd")
    shading.set(qn("w:val"), "clear")
    shading.set(qn("w:fill"), fill)
    cell._tc.get_or_add_tcPr().append(shading)  # type: ignore[attr-defined]


def no_borders(table: Any) -> None:
    borders = OxmlElement("w:tblBorders")
    for side in ("top", "left", "bottom", "right", "insideH", "insideV"):
        edge = OxmlElement(f"w:{side}")
        edge.set(qn("w:val"), "nil")
        borders.append(edge)
    table._tbl.tblPr.append(borders)


def fixed_widths(table: Any, widths: Sequence[float]) -> None:
    """Sets a Word table's columns to ``widths`` (inches), not fitted to their text."""
    table.autofit = False
    for column, width in zip(table._tbl.tblGrid.findall(qn("w:gridCol")), widths, strict=True):
        column.set(qn("w:w"), str(int(width * 1440)))
    for c, width in enumerate(widths):
        for row in table.rows:
            row.cells[c].width = Inches(width)
