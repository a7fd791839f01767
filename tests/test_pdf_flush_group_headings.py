"""Group headings set flush left over their sub-columns, as Word and LibreOffice set a merged
header cell by default ("Population" over "2022" and "2023"): each heads the columns from its
own on, even where it happens to stand centred over a run that starts a column further left."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from reportlab.lib.pagesizes import A4

from tests.pdf_output import drawn_pdf, markdown_of

GROUPS = ("Population", "Health")
SUBS = ("2022", "2023")
ROWS = [["North", "77,013", "80,191", "41.4", "68,205"],
        ["South", "58.9", "65,540", "93,273", "51.5"],
        ["Central", "36,138", "30.4", "8,970", "52.5"],
        ["West", "13,811", "86,553", "1.3", "1.7"]]
TRUTH = ["| Region | Population |  | Health |  |",
         "| --- | --- | --- | --- | --- |",
         "|  | 2022 | 2023 | 2022 | 2023 |",
         "| North | 77,013 | 80,191 | 41.4 | 68,205 |"]


def _flush_left_table(canvas: Any) -> None:
    """A bare table, every cell's text flush left in its cell (headings and figures), the
    group headings over their two sub-columns each: "Health" starts over its "2022" and
    stands centred over the columns from the first group's "2023" to its own "2023"."""
    width, height = A4
    canvas.setFont("Helvetica", 10)
    canvas.drawString(90, height - 72, "The table below sets out the figures for each region.")
    lefts = [90.0, 176.0, 263.0, 349.0, 436.0]
    top = height - 110
    canvas.drawString(lefts[0], top, "Region")
    canvas.drawString(lefts[1], top, GROUPS[0])
    canvas.drawString(lefts[3], top, GROUPS[1])
    for c in range(1, 5):
        canvas.drawString(lefts[c], top - 25, SUBS[(c - 1) % 2])
    for r, row in enumerate(ROWS):
        for c, text in enumerate(row):
            canvas.drawString(lefts[c], top - 50 - 24 * r, text)
    canvas.drawString(90, top - 160, "Source: regional accounts.")


def test_flush_left_group_headings_head_the_columns_they_start_over() -> None:
    assert "\n".join(TRUTH) in markdown_of(drawn_pdf(_flush_left_table))


@pytest.mark.system
def test_libreoffice_merged_header_cells_without_a_grid(tmp_path) -> None:
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is not installed: .ci/setup installs it as root")
    from docx import Document

    from tests.office_documents import convert

    document = Document()
    document.add_paragraph("The table below sets out the figures for each region.")
    table = document.add_table(rows=2 + len(ROWS), cols=5)  # no style: no borders
    table.cell(0, 0).merge(table.cell(1, 0)).text = "Region"
    for g, name in enumerate(GROUPS):
        table.cell(0, 1 + 2 * g).merge(table.cell(0, 2 + 2 * g)).text = name
        for k, sub in enumerate(SUBS):
            table.cell(1, 1 + 2 * g + k).text = sub
    for r, row in enumerate(ROWS):
        for c, text in enumerate(row):
            table.cell(2 + r, c).text = text
    document.add_paragraph("Source: regional accounts.")
    source = tmp_path / "groups.docx"
    document.save(str(source))
    [pdf] = convert([source], tmp_path / "plain")
    assert "\n".join(TRUTH) in markdown_of(pdf.read_bytes())
