"""Lists of figures and tables are contents: "Figure 3: Hospital admissions ..... 7" entries
under a "List of figures" title, or under any title when every entry opens with a caption's
label and number, are a list (the title kept as a heading), not captions each followed by a
stray page number."""

from __future__ import annotations

import io

import pytest
from reportlab.pdfgen import canvas

from extractors import extract
from extractors.base import ExtractOptions

WIDTH, HEIGHT = 612.0, 792.0
OPTIONS = ExtractOptions(ocr_engines=())
ENTRIES = [("Figure 1: Employment rate by age", 3), ("Figure 2: Hospital admissions by month", 5),
           ("Figure 3: School pupils by year group", 7), ("Figure 4: Road traffic by vehicle type", 9),
           ("Figure 5: Housing completions", 11)]


def _figure_list(title: str, leaders: bool) -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    pdf.setFont("Helvetica-Bold", 16)
    pdf.drawString(72, HEIGHT - 90, "Annual statistics report")
    pdf.setFont("Helvetica-Bold", 13)
    pdf.drawString(72, HEIGHT - 130, title)
    y = HEIGHT - 160
    pdf.setFont("Helvetica", 11)
    for text, page in ENTRIES:
        pdf.drawString(72, y, text)
        if leaders:
            start = 72 + pdf.stringWidth(text, "Helvetica", 11) + 6
            pdf.drawString(start, y, "." * int((WIDTH - 100 - start) / pdf.stringWidth(".", "Helvetica", 11)))
        pdf.drawRightString(WIDTH - 72, y, str(page))
        y -= 20
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


@pytest.mark.parametrize("leaders", [True, False], ids=["dot-leaders", "page-column"])
@pytest.mark.parametrize("title", ["List of figures", "Illustrations"])
def test_a_list_of_figures_is_a_list_of_entries(title: str, leaders: bool) -> None:
    markdown = extract(_figure_list(title, leaders), filename="figures.pdf", options=OPTIONS).markdown
    items = [line for line in markdown.splitlines() if line.startswith("- ")]
    assert items == [f"- {text} {page}" for text, page in ENTRIES], markdown
    assert f"## {title}" in markdown or f"# {title}" in markdown
    assert "|" not in markdown
