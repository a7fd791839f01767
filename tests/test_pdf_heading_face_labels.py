"""Lines at the body's size that only their typeface sets apart (a sans line in a serif
document) are headings when the face is the headings' own (see test_pdf_heading_faces), not
when it is a face of the text or of labels: a chart's title and labels, a form's field names, a
caption and its credit, a newsletter's second body face, a name set in sans inside a sentence."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas as pdf_canvas

from tests.pdf_output import drawn_pdf, markdown_of

TEXT = ["Public libraries lend more than books: they run classes, host clubs and give people a",
        "warm place to read, and the council has kept every branch open through the winter",
        "months despite the rising cost of heating the older buildings in the town centre."]
_, HEIGHT = A4

Page = Callable[[pdf_canvas.Canvas], None]


def _lines(canvas: pdf_canvas.Canvas, y: float, lines: list[str], font: str = "Times-Roman") -> float:
    canvas.setFont(font, 10)
    for line in lines:
        canvas.drawString(72, y, line)
        y -= 13
    return y



def _chart_labels(canvas: pdf_canvas.Canvas) -> None:
    y = _lines(canvas, HEIGHT - 72, TEXT)
    y = _lines(canvas, y - 14, ["Visits by Branch and Season"], "Helvetica")
    for i, label in enumerate(["Central Library", "North Branch", "Mobile Service"]):
        canvas.rect(200, y - 20 - i * 18, 60 + 40 * i, 12, fill=1)
        canvas.setFont("Helvetica", 10)
        canvas.drawString(100, y - 18 - i * 18, label)
    _lines(canvas, y - 80, TEXT)


def _form_fields(canvas: pdf_canvas.Canvas) -> None:
    y = _lines(canvas, HEIGHT - 72, ["Please complete every part of this form and return it to the office."])
    for label in ["Full Name", "Date of Birth", "Home Address", "Emergency Contact"]:
        y = _lines(canvas, y - 14, [label], "Helvetica")
        canvas.line(72, y - 6, 400, y - 6)
        y -= 14
    _lines(canvas, y - 10, TEXT)


def _caption_and_credit(canvas: pdf_canvas.Canvas) -> None:
    y = _lines(canvas, HEIGHT - 72, TEXT)
    canvas.rect(72, y - 140, 200, 120)
    y = _lines(canvas, y - 155, ["Reading Room at the Central Library"], "Helvetica-Oblique")
    y = _lines(canvas, y - 10, ["Photograph by Anna Lindqvist"], "Helvetica")
    _lines(canvas, y - 10, TEXT)


def _two_body_faces(canvas: pdf_canvas.Canvas) -> None:
    canvas.setFont("Times-Bold", 16)
    canvas.drawString(72, HEIGHT - 72, "Club Newsletter")
    y = HEIGHT - 100
    for _ in range(3):
        y = _lines(canvas, y, TEXT) - 8
        y = _lines(canvas, y, ["Members Are Invited to the Summer Picnic"]) - 8
        y = _lines(canvas, y, TEXT, "Helvetica") - 8
        y = _lines(canvas, y, ["Bring Your Own Chairs and Blankets"], "Helvetica") - 8


def _name_in_a_sentence(canvas: pdf_canvas.Canvas) -> None:
    y = _lines(canvas, HEIGHT - 72, TEXT) - 8
    y = _lines(canvas, y, ["Staff now answer questions through the new online service, called"])
    canvas.setFont("Helvetica", 10)
    name = "Ask Your Librarian Anything Online"
    canvas.drawString(72, y, name)
    canvas.setFont("Times-Roman", 10)
    canvas.drawString(72 + canvas.stringWidth(name + " ", "Helvetica", 10), y, "which")
    y = _lines(canvas, y - 13, ["opened in March and has answered over four thousand questions since then."])
    _lines(canvas, y - 20, TEXT)


def _pull_quote(canvas: pdf_canvas.Canvas) -> None:
    y = _lines(canvas, HEIGHT - 72, TEXT) - 10
    canvas.setFont("Helvetica", 10)
    canvas.drawString(110, y, "Our Readers Come First Every Day")
    _lines(canvas, y - 23, TEXT)


@pytest.mark.parametrize("draw", [_chart_labels, _form_fields, _caption_and_credit, _two_body_faces,
                                  _name_in_a_sentence, _pull_quote])
def test_lines_in_a_face_of_labels_or_of_text_are_no_headings(draw: Page) -> None:
    markdown = markdown_of(drawn_pdf(draw))
    headings = [line for line in markdown.splitlines() if line.startswith("#")]
    assert headings in ([], ["# Club Newsletter"]), markdown


def test_a_heading_in_another_face_centred_over_the_text_is_one() -> None:
    def centred(canvas: pdf_canvas.Canvas) -> None:
        y = _lines(canvas, HEIGHT - 72, TEXT) - 10
        canvas.setFont("Helvetica", 10)
        canvas.drawCentredString(240, y, "Our Readers Come First")  # over the text's measure
        _lines(canvas, y - 13, TEXT)

    markdown = markdown_of(drawn_pdf(centred))
    assert "# Our Readers Come First\n" in markdown, markdown
