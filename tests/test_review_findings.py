"""Pages that the merged 2a79b8b reads worse than 01ad735 (review of issue 32's listing rules)."""

from __future__ import annotations

import io

from reportlab.pdfgen import canvas as pdf_canvas

from extractors.pdf_text import read_text_layer


def _statement(gap: float) -> bytes:
    """Items indented under the margin, their total in 10.5-point bold at the margin ``gap``
    points under the last item's baseline."""
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica-Bold", 14)
    canvas.drawString(56, 760, "Statement of expenses")
    canvas.setFont("Helvetica-Bold", 9)
    canvas.drawRightString(400, 730, "2025")
    canvas.drawRightString(480, 730, "2024")
    canvas.setFont("Helvetica", 9)
    items = [("Salaries and wages", "412,300", "398,120"), ("Rent", "84,000", "84,000"),
             ("Utilities", "12,450", "11,980"), ("Travel", "9,870", "14,230"),
             ("Insurance", "6,300", "6,100"), ("Professional fees", "21,500", "19,400")]
    y = 716.0
    for label, this, last in items:
        canvas.drawString(70, y, label)
        canvas.drawRightString(400, y, this)
        canvas.drawRightString(480, y, last)
        y -= 12
    y -= gap - 12
    canvas.setFont("Helvetica-Bold", 10.5)
    canvas.drawString(56, y, "Total expenses")
    canvas.drawRightString(400, y, "546,420")
    canvas.drawRightString(480, y, "533,830")
    canvas.setFont("Helvetica", 9)
    canvas.drawString(56, y - 40, "The notes on pages 4 to 9 form part of these statements.")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_a_total_row_in_larger_type_at_the_margin_under_indented_items_stays_a_row() -> None:
    # _margin_line takes it for a browser's running footer: another type, a blank of two
    # lines over it, starting left of every item.  Its figures end under the figures above.
    markdown = read_text_layer(_statement(33.0)).pages[0].markdown
    assert "| Total expenses | 546,420 | 533,830 |" in markdown


def _two_tables(pitch: float, blank: float) -> bytes:
    """A paragraph at 12 points' pitch, a table whose rows stand ``pitch`` apart (one line
    each), and ``blank`` points under its last row another table of other columns."""
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica", 10)
    para = ["Our branches keep the hours below from Monday to Friday; on public holidays they stay",
            "closed. Each branch has a contact who answers questions about accounts, loans and the",
            "services we offer to firms, and who can book a meeting at the branch or by telephone.",
            "Please call ahead before visiting a branch outside the hours shown in this leaflet, as",
            "staff may be out visiting customers at their premises during the afternoon."]
    y = 760.0
    for text in para:
        canvas.drawString(56, y, text)
        y -= 12
    y -= 18
    for row in [("Branch", "Opens", "Closes"), ("Fresno", "08:00", "17:00"), ("Oakland", "09:00", "18:00"),
                ("Irvine", "07:30", "16:30"), ("San Jose", "08:30", "17:30")]:
        for x, text in zip((56, 200, 300), row, strict=True):
            canvas.drawString(x, y, text)
        y -= pitch
    y -= blank - pitch
    for row in [("Contact", "Phone", "Room", "Email"), ("Ann Lee", "555-0101", "12", "ann@example.com"),
                ("Bo Chen", "555-0102", "14", "bo@example.com"),
                ("Cy Diaz", "555-0103", "9", "cy@example.com"),
                ("Di Evans", "555-0104", "21", "di@example.com")]:
        for x, text in zip((56, 150, 260, 330), row, strict=True):
            canvas.drawString(x, y, text)
        y -= 13
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_a_double_spaced_table_and_the_table_a_few_lines_under_it_stay_two_tables() -> None:
    # _row_set_tall lets the second table's first row join the first table's block: its rows
    # stand 24 points apart, so a 60-point blank is under MAX_LINE_GAP of their pitch, though
    # no row of it holds a wrapped cell's lines.
    markdown = read_text_layer(_two_tables(24.0, 60.0)).pages[0].markdown
    assert "| Branch | Opens | Closes |" in markdown
    assert "| Contact | Phone | Room | Email |" in markdown
