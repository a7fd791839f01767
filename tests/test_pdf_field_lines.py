"""Field lines (extractors/pdf_field_lines.py): a label ending in a colon and its value, one
field a line, read one a line, not run into one paragraph as an address's short lines are: a
meeting's attendance under bold labels, an invoice's totals set flush right."""

from __future__ import annotations

from reportlab.pdfbase.pdfmetrics import stringWidth

from tests.pdf_output import drawn_pdf, markdown_of, wrapped_lines

PROSE = ("The committee met in the council chamber to consider the reports listed on the agenda, "
         "and the chair opened the meeting by welcoming the members and the officers present.")
ATTENDANCE = [("Present:", "Mr N Hughes (Chair), Mrs E Kowalski, Ms P Adeyemi, Cllr A Khan, Cllr M O'Neill, "
               "Mr T Fox"), ("Apologies:", "Mr T Wright, Cllr R Patel"),
              ("In attendance:", "J Porter (Clerk), M Clarke (Minute taker)")]
TOTALS = ["Subtotal: 3,218.36", "VAT at 20%: 643.67", "Total due: 3,862.03"]


def _prose(canvas: object, y: float) -> float:
    for line in wrapped_lines(PROSE, 450, "Helvetica", 10):
        canvas.setFont("Helvetica", 10)  # type: ignore[attr-defined]
        canvas.drawString(72, y, line)  # type: ignore[attr-defined]
        y -= 12
    return y - 8


def _attendance(canvas: object) -> None:
    y = _prose(canvas, 760)
    for label, value in ATTENDANCE:  # the first field's line fills the measure
        canvas.setFont("Helvetica-Bold", 10)  # type: ignore[attr-defined]
        canvas.drawString(72, y, label)  # type: ignore[attr-defined]
        canvas.setFont("Helvetica", 10)  # type: ignore[attr-defined]
        canvas.drawString(72 + stringWidth(label + " ", "Helvetica-Bold", 10), y, value)  # type: ignore[attr-defined]
        y -= 13
    _prose(canvas, y - 8)


def _totals(canvas: object) -> None:
    y = _prose(canvas, 760)
    for text in TOTALS:
        canvas.setFont("Helvetica", 10)  # type: ignore[attr-defined]
        canvas.drawRightString(522, y, text)  # type: ignore[attr-defined]
        y -= 12
    _prose(canvas, y - 8)


def test_bold_labelled_fields_are_read_one_a_line() -> None:
    lines = markdown_of(drawn_pdf(_attendance)).splitlines()
    for label, value in ATTENDANCE:
        assert f"{label} {value}" in lines


def test_totals_set_flush_right_are_read_one_a_line() -> None:
    lines = markdown_of(drawn_pdf(_totals)).splitlines()
    assert all(text in lines for text in TOTALS)


def test_an_address_and_a_wrapped_paragraph_still_run_on() -> None:
    """Lines without labels (an address) and a paragraph whose wrapped line opens with a
    label-like word ("Note: ...") past a full line are one paragraph each, as before."""
    def page(canvas: object) -> None:
        y = 760
        for text in ("Brook House, 9 Mill Road", "Cambridge CB1 2AD"):
            canvas.setFont("Helvetica", 10)  # type: ignore[attr-defined]
            canvas.drawString(72, y, text)  # type: ignore[attr-defined]
            y -= 12
        y -= 10
        text = PROSE + " Members agreed the following point as a rule for the year ahead"
        for line in wrapped_lines(text, 450, "Helvetica", 10) + ["Note: the rule applies to all meetings."]:
            canvas.setFont("Helvetica", 10)  # type: ignore[attr-defined]
            canvas.drawString(72, y, line)  # type: ignore[attr-defined]
            y -= 12
    markdown = markdown_of(drawn_pdf(page))
    assert "Brook House, 9 Mill Road Cambridge CB1 2AD" in markdown
    assert "for the year ahead Note: the rule applies" in markdown


def test_fields_in_a_column_of_their_own_are_read_one_a_line() -> None:
    """Fields set in a narrow column beside another (a billing page's grid): each line fills
    that column's measure, none broken short, and no label is bold; each is still a line."""
    fields = ["Invoice number: INV-25-3201", "Invoice date: 19 May 2024", "Due date: 28 June 2024",
              "Customer ref: PO 4821"]

    def page(canvas: object) -> None:
        canvas.setFont("Helvetica", 10)  # type: ignore[attr-defined]
        for i, line in enumerate(wrapped_lines(PROSE + " " + PROSE, 220, "Helvetica", 10)):
            canvas.drawString(72, 730 - 12 * i, line)  # type: ignore[attr-defined]
        for i, text in enumerate(fields):
            canvas.drawString(330, 730 - 12 * i, text)  # type: ignore[attr-defined]
    lines = markdown_of(drawn_pdf(page)).splitlines()
    assert all(text in lines for text in fields)
