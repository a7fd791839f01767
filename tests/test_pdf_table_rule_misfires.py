"""Ordinary pages the new table rules must leave alone: a listing over two full pages is rows
going on, and two sections' tables headed alike are two tables, not a sheet's columns printed
side by side; a heading over its unit "s" (seconds)
keeps its space, not read as a plural broken in its cell."""

from __future__ import annotations

from typing import Any

from tests.pdf_output import drawn_pdf, markdown_of

CUSTOMERS = ["Acme Ltd", "Brown & Co", "Carter plc", "Dunn Foods"]


def _listing(canvas: Any, repeated: bool) -> None:
    # An order listing printed from a sheet over two full pages, the order numbers first: with
    # the header row repeated on each page (print titles), or the rows going on at the header's
    # height without it; either way the pages' rows stand at the same heights.
    n = 0
    for page in range(2):
        y = 790.0
        if repeated or page == 0:
            canvas.setFont("Helvetica-Bold", 9)
            for x, heading in [(40, "Order"), (100, "Customer"), (300, "Qty")]:
                canvas.drawString(x, y, heading)
            canvas.drawRightString(420, y, "Amount")
            canvas.drawRightString(520, y, "Paid")
            y -= 14
        canvas.setFont("Helvetica", 9)
        for _ in range(45 if repeated or page == 0 else 46):
            n += 1
            canvas.drawString(40, y, str(10000 + n))
            canvas.drawString(100, y, CUSTOMERS[n % 4])
            canvas.drawString(300, y, str(n * 7 % 50 + 1))
            canvas.drawRightString(420, y, f"{n * 131 % 9000 + 100:,}.00")
            canvas.drawRightString(520, y, ["Yes", "No"][n % 2])
            y -= 14
        if page == 0:
            canvas.showPage()


def test_a_listing_over_two_full_pages_under_a_repeated_header_is_rows_going_on() -> None:
    markdown = markdown_of(drawn_pdf(_listing, True))
    assert "| Order | Customer | Qty | Amount | Paid |\n" in markdown
    assert "| Paid | Order |" not in markdown
    assert "| 10046 | Carter plc | 23 | 6,126.00 | Yes |" in markdown


def test_a_listing_going_on_at_the_headers_height_is_rows_going_on() -> None:
    markdown = markdown_of(drawn_pdf(_listing, False))
    assert "| Order | Customer | Qty | Amount | Paid |\n" in markdown
    assert "| 10001 | Brown & Co | 8 | 231.00 | No |\n" in markdown
    assert "| 10046 | Carter plc | 23 | 6,126.00 | Yes |" in markdown


def _catalogue(canvas: Any) -> None:
    # Two sections of a catalogue, each a page's table headed "Code" over its own codes, no
    # titles: the pages' rows at the same heights.
    n = 0
    sections = [("Product", "Price", ["Copier paper", "Toner", "Binder"]),
                ("Service", "Rate", ["Delivery", "Installation", "Repair"])]
    for page, (item, price, names) in enumerate(sections):
        y = 790.0
        canvas.setFont("Helvetica-Bold", 9)
        canvas.drawString(40, y, "Code")
        canvas.drawString(100, y, item)
        canvas.drawRightString(420, y, price)
        canvas.setFont("Helvetica", 9)
        for _ in range(45):
            n += 1
            y -= 14
            canvas.drawString(40, y, str(4000 + 3 * n))
            canvas.drawString(100, y, names[n % 3])
            canvas.drawRightString(420, y, f"{n * 37 % 400 + 5}.99")
        if page == 0:
            canvas.showPage()


def test_two_pages_tables_headed_alike_over_other_rows_stay_two_tables() -> None:
    markdown = markdown_of(drawn_pdf(_catalogue))
    assert "| Code | Product | Price |\n" in markdown
    assert "| Code | Service | Rate |\n" in markdown


def _headings_over_units(canvas: Any, headings: list[tuple[str, str]]) -> None:
    # A test report's table: headings set right over figures set right, each unit on the line
    # under its heading.
    ends = [260.0, 340.0, 420.0]
    canvas.setFont("Helvetica-Bold", 10)
    canvas.drawString(60, 715, "Test")
    for end, (heading, unit) in zip(ends, headings, strict=True):
        canvas.drawRightString(end, 715, heading)
        if unit:
            canvas.drawRightString(end, 703, unit)
    canvas.setFont("Helvetica", 10)
    y = 688.0
    for i in range(6):
        canvas.drawString(60, y, f"Specimen {chr(65 + i)}")
        for end, value in zip(ends, [f"{12.5 + i:.1f}", f"{0.4 + i / 10:.2f}", str(22 + i * 3)], strict=True):
            canvas.drawRightString(end, y, value)
        y -= 14


def test_a_time_over_its_unit_in_seconds_keeps_its_space() -> None:
    markdown = markdown_of(drawn_pdf(_headings_over_units, [("Time", "s"), ("Strain", ""), ("Cycles", "")]))
    assert "| Test | Time s | Strain | Cycles |" in markdown


def test_an_s_on_a_line_of_units_keeps_its_space() -> None:
    markdown = markdown_of(drawn_pdf(_headings_over_units, [("Rise", "s"), ("Load", "kN"), ("Cycles", "")]))
    assert "| Test | Rise s | Load kN | Cycles |" in markdown


FIELDS = [("Invoice no.", "INV-2041"), ("Date", "12/03/2024"), ("Due", "11/04/2024"), ("Account", "C-778"),
          ("Order ref.", "PO 5531"), ("Terms", "30 days"), ("Contact", "J. Smith")]


def _invoice(canvas: Any) -> None:
    # An invoice's fields, a label and its value each, set right over its items (the left
    # side held the logo), at the items' pitch: more lines over the figures than a header has.
    canvas.setFont("Helvetica-Bold", 16)
    canvas.drawString(60, 790, "Acme Supplies Ltd")
    canvas.setFont("Helvetica", 10)
    y = 760.0
    for label, value in FIELDS:
        canvas.drawString(330, y, label)
        canvas.drawString(420, y, value)
        y -= 13
    canvas.setFont("Helvetica-Bold", 10)
    canvas.drawString(60, y, "Description")
    for end, heading in [(360, "Qty"), (440, "Unit price"), (520, "Total")]:
        canvas.drawRightString(end, y, heading)
    canvas.setFont("Helvetica", 10)
    for i, item in enumerate(["Copier paper A4", "Toner cartridge", "Stapler", "Ring binders", "Desk lamp"]):
        y -= 14
        canvas.drawString(60, y, item)
        price = 4.5 + 3 * i
        for end, text in [(360, str(i + 2)), (440, f"{price:.2f}"), (520, f"{(i + 2) * price:.2f}")]:
            canvas.drawRightString(end, y, text)


def test_an_invoices_fields_over_its_items_are_no_header_of_ten_lines() -> None:
    # (The header's six lines took the lower fields already; the fields over them, a label and
    # its value alike line after line, are no group labels to take up to ten.)
    markdown = markdown_of(drawn_pdf(_invoice))
    tables = [line for line in markdown.splitlines() if line.startswith("|")]
    assert not any("INV-2041" in line or "Invoice no." in line for line in tables), markdown
