"""Ordinary pages the rules for register notices and papers must leave alone: a form whose
labels are set right against left-set values (both sides flush, three words and more, but no
justified columns: the rows start ragged), a paragraph opening with a citation that wraps
before another ("[3] proposed ..." over "[4] extended it ..."), a bold letterhead line
in title case, an address between commas, and a bold sentence in title case at the body's
size ("All Members Must Register Before ...": its verb is no clause's, as a title's is)."""

from __future__ import annotations

from typing import Any

from reportlab.pdfbase.pdfmetrics import stringWidth

from tests.pdf_output import drawn_pdf, headings_of, markdown_of, wrapped_lines

LABELS = ["Name of the applicant", "Address of the applicant", "Date of the birth", "Place of the birth",
          "Name of the employer", "Address of the employer", "Name of the referee"]
VALUES = ["John Andrew Smith", "Twelve High Street London", "First of May", "Leeds West Yorkshire",
          "Acme Widget Company", "Four Market Square Leeds", "Peter Andrew Brown"]


def _form(canvas: Any) -> None:
    canvas.setFont("Times-Roman", 10)
    y = 700.0
    for label, value in zip(LABELS, VALUES, strict=True):
        canvas.drawString(220.0 - stringWidth(label, "Times-Roman", 10), y, label)
        canvas.drawString(232.0, y, value)
        y -= 18.0


def test_a_form_with_labels_set_right_is_no_pair_of_justified_columns() -> None:
    markdown = markdown_of(drawn_pdf(_form))
    assert "| Name of the applicant | John Andrew Smith |" in markdown


def _citing_paragraph(canvas: Any) -> None:
    canvas.setFont("Times-Roman", 10)
    y = 700.0
    for line in ["[3] proposed a method for the recognition of tables in scanned pages and",
                 "showed that it works well on historical records of the parish, while",
                 "[4] extended it to forms and invoices and reported good results on the",
                 "new data set, which is larger than any used before."]:
        canvas.drawString(72.0, y, line)
        y -= 12.0


def test_a_paragraph_opening_with_a_citation_is_not_cut_at_the_next() -> None:
    markdown = markdown_of(drawn_pdf(_citing_paragraph))
    assert "parish, while [4] extended" in markdown


def _letterhead(canvas: Any) -> None:
    canvas.setFont("Times-Bold", 10)
    canvas.drawString(72.0, 760.0, "The Royal Society of Chemistry, Thomas Graham House, Science Park, "
                                   "Milton Road, Cambridge")
    canvas.setFont("Times-Roman", 10)
    y = 736.0
    for line in ["The committee reviewed the annual figures and found that the results were broadly in line",
                 "with expectations. Revenue rose sharply, while costs in the southern region fell."]:
        canvas.drawString(72.0, y, line)
        y -= 12.0


def test_a_bold_address_in_title_case_is_no_heading() -> None:
    markdown = markdown_of(drawn_pdf(_letterhead))
    assert "# The Royal Society" not in markdown


def _bold_sentence(canvas: Any, line: str) -> None:
    canvas.setFont("Times-Bold", 14)
    canvas.drawString(72.0, 780.0, "Annual Report")
    canvas.setFont("Times-Roman", 10)
    y = 756.0
    for text in ["The committee reviewed the annual figures and found that the results were broadly in line",
                 "with expectations. Revenue rose sharply, while costs in the southern region fell."]:
        canvas.drawString(72.0, y, text)
        y -= 12.0
    canvas.setFont("Times-Bold", 10)
    canvas.drawString(72.0, y - 10.0, line)
    y -= 26.0
    canvas.setFont("Times-Roman", 10)
    for text in ["The meeting will be held in the main hall of the society's house in the town centre, and",
                 "members are asked to bring their membership cards with them on the day."]:
        canvas.drawString(72.0, y, text)
        y -= 12.0


def test_a_bold_sentence_in_title_case_is_no_heading() -> None:
    assert headings_of(drawn_pdf(_bold_sentence, "All Members Must Register Before the Annual Meeting")) \
        == ["Annual Report"]


def test_a_bold_title_with_its_verb_in_a_clause_is_a_heading() -> None:
    title = "What Members Should Know Before the Annual Meeting"
    assert headings_of(drawn_pdf(_bold_sentence, title)) == ["Annual Report", title]


NEWS = ("The parish council met on Tuesday and agreed the budget for the coming year, with money set aside "
        "for the playground and the path by the river. Residents are welcome to read the minutes online.")
NEWS_HEADINGS = ["Village Fete Results", "New Library Will Open in March Next Year", "Road Closures"]
STATEMENT = "All Members Must Register Before the Annual Meeting"


def _newsletter(canvas: Any, headings: list[str], statement: str = "") -> None:
    """A newsletter's bold headlines at the body's size, 12 points over and 3 under; a bold
    ``statement`` at the body's size after the first story, spaced as its lines are."""
    def story(y: float) -> float:
        canvas.setFont("Helvetica", 10)
        for text in wrapped_lines(NEWS, 450.0, "Helvetica", 10):
            canvas.drawString(60.0, y, text)
            y -= 12.5
        return y

    canvas.setFont("Helvetica-Bold", 20)
    canvas.drawString(60.0, 790.0, "Parish Newsletter")
    y = 770.0
    for at, heading in enumerate(["", *headings]):
        if heading:
            y -= 12.0
            canvas.setFont("Helvetica-Bold", 10)
            canvas.drawString(60.0, y, heading)
            y -= 15.0
        y = story(y)
        if at == 1 and statement:
            canvas.setFont("Helvetica-Bold", 10)
            canvas.drawString(60.0, y, statement)
            y = story(y - 12.5)


def test_a_headline_shaped_as_a_sentence_in_the_face_of_the_documents_headings_is_a_heading() -> None:
    # (Its verb "Will" reads it as a sentence; but two headings are set in its face, size and
    # weight over running text, and it is spaced as they are.)
    assert headings_of(drawn_pdf(_newsletter, NEWS_HEADINGS)) == ["Parish Newsletter", *NEWS_HEADINGS]
    numbered = ["1. Who Can Apply", "2. Applicants Must Provide Proof of Identity", "3. How to Submit It"]
    assert headings_of(drawn_pdf(_newsletter, numbered)) == ["Parish Newsletter", *numbered]


def test_a_bold_sentence_spaced_as_text_among_headings_in_its_face_is_no_heading() -> None:
    headings = ["Village Fete Results", "Road Closures", "Contact Details"]
    assert headings_of(drawn_pdf(_newsletter, headings, STATEMENT)) == ["Parish Newsletter", *headings]


def test_a_bold_sentence_in_sentence_case_spaced_as_a_headline_is_no_heading() -> None:
    headings = ["Village Fete Results", "All members must register before the annual meeting",
                "Road Closures"]
    assert headings_of(drawn_pdf(_newsletter, headings)) == ["Parish Newsletter", headings[0], headings[2]]
