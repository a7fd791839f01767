"""An invoice's or a letter's head: an address beside a block of "Label: value" lines is two
blocks read one after the other, no table (extractors/pdf_table_checks.py
address_beside_fields); a title set large over a letterhead whose name opens its address is
the page's title, not the organisation's name (extractors/pdf_headings.py
_title_over_letterhead)."""

from __future__ import annotations

from tests.pdf_output import drawn_pdf, headings_of, markdown_of

LETTERHEAD = [("Northgate Facilities Ltd", "Helvetica-Bold"), ("Unit 4, Riverside Park", "Helvetica"),
              ("Leeds LS10 1AB", "Helvetica")]
ADDRESS = ["Bill to", "Finance Department", "St Anne's Primary School", "Church Lane", "Norwich NR2 4QP"]
FIELDS = ["Invoice number: INV-25-3201", "Invoice date: 19 May 2024", "Due date: 28 June 2024",
          "Customer ref: PO 4821"]
ITEMS = [("Description", "Quantity", "Amount"), ("Design and layout of annual report", "16", "880.00"),
         ("A4 copier paper, box of 5 reams", "12", "263.40"),
         ("Replacement door closer, fitted", "3", "187.50")]
CLOSING = ("Please pay by bank transfer within thirty days of the date of this invoice, quoting the "
           "invoice number as the reference.")


def _invoice(canvas: object, items: bool = True) -> None:
    c: object = canvas
    c.setFont("Helvetica", 20)  # type: ignore[attr-defined]
    c.drawString(72, 770, "Invoice")  # type: ignore[attr-defined]
    y = 740.0
    for text, font in LETTERHEAD:
        c.setFont(font, 10)  # type: ignore[attr-defined]
        c.drawString(72, y, text)  # type: ignore[attr-defined]
        y -= 12
    y -= 18
    for i, text in enumerate(ADDRESS):  # the address at the left, the fields at the right
        c.setFont("Helvetica", 10)  # type: ignore[attr-defined]
        c.drawString(72, y - 12 * i, text)  # type: ignore[attr-defined]
    for i, text in enumerate(FIELDS):
        c.drawString(330, y - 12 * i, text)  # type: ignore[attr-defined]
    y -= 12 * len(ADDRESS) + 20
    if items:
        for row in ITEMS:
            c.drawString(72, y, row[0])  # type: ignore[attr-defined]
            c.drawRightString(400, y, row[1])  # type: ignore[attr-defined]
            c.drawRightString(520, y, row[2])  # type: ignore[attr-defined]
            y -= 14
        y -= 12
    first, rest = CLOSING[:CLOSING.index(" invoice number")], CLOSING[CLOSING.index(" invoice number") + 1:]
    c.drawString(72, y, first)  # type: ignore[attr-defined]
    c.drawString(72, y - 12, rest)  # type: ignore[attr-defined]


def test_an_address_beside_fields_is_no_table() -> None:
    markdown = markdown_of(drawn_pdf(_invoice, items=False))
    assert "|" not in markdown
    lines = markdown.splitlines()
    assert all(field in " ".join(lines) for field in FIELDS)
    assert not any("Church Lane" in line and "Invoice" in line for line in lines)


def test_an_address_beside_fields_over_a_table_is_not_its_rows() -> None:
    markdown = markdown_of(drawn_pdf(_invoice))
    table = [line for line in markdown.splitlines() if line.startswith("|")]
    assert table[0].split("|")[1].strip() == "Description"
    assert not any("Bill to" in line or "Invoice number" in line for line in table)


def test_a_title_over_a_letterhead_is_the_title() -> None:
    assert headings_of(drawn_pdf(_invoice)) == ["Invoice"]


def _address_beside_fields_page(canvas: object) -> None:
    c: object = canvas
    c.setFont("Helvetica", 10)  # type: ignore[attr-defined]
    first, rest = CLOSING[:CLOSING.index(" invoice number")], CLOSING[CLOSING.index(" invoice number") + 1:]
    for y in (770, 650):
        c.drawString(72, y, first)  # type: ignore[attr-defined]
        c.drawString(72, y - 12, rest)  # type: ignore[attr-defined]
    for i, text in enumerate(ADDRESS):
        c.drawString(72, 730 - 12 * i, text)  # type: ignore[attr-defined]
    for i, text in enumerate(FIELDS):
        c.drawString(330, 730 - 12 * i, text)  # type: ignore[attr-defined]


def test_an_address_beside_fields_is_read_before_them_not_line_by_line() -> None:
    lines = markdown_of(drawn_pdf(_address_beside_fields_page)).splitlines()
    assert "Bill to Finance Department St Anne's Primary School Church Lane Norwich NR2 4QP" in lines
    assert lines.index("Bill to Finance Department St Anne's Primary School Church Lane Norwich NR2 4QP") \
        < lines.index(FIELDS[0])
    assert all(field in lines for field in FIELDS)
