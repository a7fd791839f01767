"""What reports set apart like a heading and is not (office probes, headprec, 2026-12-06): a
warning's label ("IMPORTANT"), a chart's title over the chart, a one-cell
table's label set flush with its top edge, a form's fields under a section's heading (no
address under a name), a cover's title over its report number and authors, running headers
that change with the chapter, and a bold line ending the document ("Published March 2024").
Second round (headprec2): a bold line directly over a larger heading (a press release's "ENDS"),
a questionnaire's numbered questions over their answer boxes (an FAQ's over their answers stay),
and a bold line over "Key: value" fields (a release's status over its dates); an organisation's
name over contact lines long with figures (heading precision on the tuning files, 2026-12-06).
Each beside the real headings, which stay.  And where those rules must not reach (adversary3): a report's
questions over sub-headings, an FAQ's questions over short answers in words, a section's
heading over "Key: value" fields among headings set alike over text.  A form made only of numbered
instructions over lines to write on (no question mark) is no list of headings; a checklist's numbered
titles over its boxes and a report's numbered sections are (issue 32, evening), in lower case over
lines of their own ticked items too, on a page with no running text as well (issue 32, checklists);
and so are a manual's numbered steps over lists bulleted "●" or "✓", code or a menu's path, and a
policy's clauses each over a line for initials and then its text (review r2)."""

from __future__ import annotations

import io
import shutil
from typing import Any

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas as pdf_canvas

from tests.pdf_output import drawn_pdf, headings_of, markdown_of

TEXT = ("The council reviewed the programme of works for the year and agreed the priorities for each "
        "district in turn. Spending stayed within the budget set in March, with savings on materials "
        "offsetting higher labour costs. Residents were consulted on the new cycle routes.")
WIDTH, HEIGHT = A4


class _Page:
    """A page written top down: headings, bold lines and paragraphs of 10-point Times."""

    def __init__(self, canvas: Any, y: float = HEIGHT - 80) -> None:
        self.canvas, self.y = canvas, y

    def line(self, text: str, font: str = "Times-Bold", size: float = 10, after: float = 4) -> None:
        self.canvas.setFont(font, size)
        self.canvas.drawString(72, self.y, text)
        self.y -= size * 1.2 + after

    def paragraph(self, text: str = TEXT) -> None:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        lines: list[str] = []
        for word in text.split():
            if lines and stringWidth(f"{lines[-1]} {word}", "Times-Roman", 10) <= WIDTH - 144:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        for text_line in lines:
            self.line(text_line, "Times-Roman", after=0)
        self.y -= 6


def test_a_warnings_label_is_no_heading_a_bold_title_is() -> None:
    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Installation", "Helvetica-Bold", 14)
        page.paragraph()
        page.line("IMPORTANT")
        page.paragraph()
        page.line("Important dates")
        page.paragraph()
        page.line("Warning:")
        page.paragraph()

    assert headings_of(drawn_pdf(draw)) == ["Installation", "Important dates"]


def _chart() -> ImageReader:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (400, 180), "white")
    ImageDraw.Draw(image).rectangle((30, 40, 80, 170), fill=(31, 78, 121))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    buffer.seek(0)
    return ImageReader(buffer)


def test_a_title_set_over_a_picture_is_no_heading() -> None:
    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        for title, size in (("Trends", 14), ("Results", 14)):
            page.line(title, "Helvetica-Bold", size)
            page.paragraph()
            if title == "Trends":  # a chart's title at the body's size
                page.line("Hospital admissions by month, 2015 to 2023", "Times-Bold", 10)
            else:
                page.line("Housing in the towns", "Helvetica-Bold", 13)
            canvas.drawImage(_chart(), 72, page.y - 150, 300, 160)
            page.y -= 170
            page.paragraph()

    # (A heading set larger than the body may open its section with a figure.)
    assert headings_of(drawn_pdf(draw)) == ["Trends", "Results", "Housing in the towns"]


def test_a_label_flush_with_a_one_cell_tables_top_is_no_heading() -> None:
    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Overview", "Helvetica-Bold", 14)
        page.paragraph()
        # Word's one-cell table: the cell's top edge level with its label's glyphs' top.
        top = page.y + 10 * 0.75
        page.line("Example")
        page.paragraph()
        canvas.rect(70, page.y + 4, WIDTH - 140, top - page.y - 4)
        page.y -= 10
        page.line("Next steps", "Helvetica-Bold", 14)
        page.paragraph()

    assert headings_of(drawn_pdf(draw)) == ["Overview", "Next steps"]


def test_a_heading_over_a_forms_fields_stays_one() -> None:
    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Application details", "Helvetica-Bold", 14)
        for field in ("Applicant name: Sarah Jones", "Reference number: HB/2024/0173",
                      "Property address: 14 Mill Lane, Greenfield", "Case officer: John Porter"):
            page.line(field, "Times-Roman", after=2)
        page.line("Assessment", "Helvetica-Bold", 14)
        page.paragraph()

    assert headings_of(drawn_pdf(draw)) == ["Application details", "Assessment"]


def test_a_name_over_an_address_is_no_heading() -> None:
    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Greenfield District Council", "Helvetica-Bold", 14)
        for line in ("Town Hall", "4 Market Street", "Greenfield GF1 2AB"):
            page.line(line, "Times-Roman", after=0)
        page.y -= 24
        page.line("Dear Ms Khan,", "Times-Roman", after=12)
        page.paragraph()

    assert headings_of(drawn_pdf(draw)) == []


def test_a_name_over_contact_lines_long_with_figures_is_no_heading() -> None:
    """An imprint page's organisation over its street address on one line, telephone and fax on
    one (tests/office_probes.py contact_lines; an unstructured example's imprint page): the
    figures make the lines long, their words are still few; a heading over lines of the same
    length in words stays one."""
    def draw(canvas: Any, lines: tuple[str, ...]) -> None:
        page = _Page(canvas)
        page.line("Contact us", "Helvetica-Bold", 14)
        page.paragraph()
        page.line("Harbour Health Council")
        for line in lines:
            page.line(line, "Times-Roman", after=0)
        page.y -= 24
        page.line("Acknowledgements", "Helvetica-Bold", 14)
        page.paragraph()

    contacts = ("Level 14, 477 Pitt Street, Sydney NSW 2000", "Telephone 02 8063 4100 Facsimile 02 8063 4101",
                "ABN 91 130 793 725")
    assert headings_of(drawn_pdf(draw, contacts)) == ["Contact us", "Acknowledgements"]
    wordy = ("Level fourteen of the Pitt Street tower in Sydney",
             "Telephone us or write to us by fax 02 8063", "Registered in New South Wales since 2006")
    assert headings_of(drawn_pdf(draw, wordy)) == ["Contact us", "Harbour Health Council", "Acknowledgements"]
    # Amounts and dates are no address's figures: key figures under "Highlights", a timetable's
    # stages under "Timetable" (their words few without their figures) stay under a heading.
    figures = ("Revenue \u00a312.4 million, up 5.2% on 2023 (\u00a311.8 million)",
               "Operating profit \u00a33.1 million, up 2.4% on 2023 (\u00a33.0 million)")
    headed = ["Contact us", "Harbour Health Council", "Acknowledgements"]
    assert headings_of(drawn_pdf(draw, figures)) == headed
    dates = ("Stage 1 consultation 3 March 2025 to 14 April 2025 (6 weeks)",
             "Stage 2 hearings 2 June 2025 to 20 June 2025 (3 weeks)")
    assert headings_of(drawn_pdf(draw, dates)) == headed


def test_a_papers_title_over_its_authors_and_affiliations_stays_a_heading() -> None:
    """Affiliation marks are lone digits ("Wei2", "1 School of ..."), not an address's figures:
    a paper's title over its short author and affiliation lines is no name over an address
    (tests/pdf_cases.py paper_front_matter, seeds 204 and 205, lost their titles so)."""
    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Value Direction Partner for Rate Carbon", "Helvetica-Bold", 16)
        for line in ("Chen Wei2 and Tom O'Neill1", "1 School of Figure, University of Northfield",
                     "2 School of Product, Easton College"):
            page.line(line, "Times-Roman", after=0)
        page.y -= 24
        page.line("Abstract", "Helvetica-Bold", 12)
        page.paragraph()

    assert headings_of(drawn_pdf(draw)) == ["Value Direction Partner for Rate Carbon", "Abstract"]


def test_a_covers_title_over_its_report_number_and_authors_stays_one() -> None:
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, pagesize=A4, invariant=1)
    page = _Page(canvas)
    page.line("Greenfield District Council", "Helvetica-Bold", 16, after=20)
    page.line("Review of the bus network", "Helvetica", 26, after=12)
    for line in ("Report No. 2023/85", "M. Okafor, R. Patel", "March 2024", "Prepared for the Board"):
        page.line(line, "Times-Roman", 10, after=10)
    canvas.showPage()
    page = _Page(canvas)
    for title in ("Summary", "Introduction"):
        page.line(title, "Helvetica-Bold", 14)
        page.paragraph()
        page.paragraph()
    canvas.showPage()
    canvas.save()
    assert headings_of(buffer.getvalue()) == ["Review of the bus network", "Summary", "Introduction"]


def test_a_bold_line_ending_the_document_is_no_heading() -> None:
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, pagesize=A4, invariant=1)
    page = _Page(canvas)
    for title in ("Summary", "Conclusions"):
        page.line(title, "Helvetica-Bold", 14)
        page.paragraph()
    canvas.showPage()
    page = _Page(canvas)  # a back cover: the licence, then the date of publication in bold
    page.line("© Greenfield District Council 2024", "Times-Roman", 10, after=12)
    page.paragraph("This publication is licensed under the terms of the Open Government Licence v3.0.")
    page.line("Published March 2024")
    canvas.showPage()
    canvas.save()
    assert headings_of(buffer.getvalue()) == ["Summary", "Conclusions"]


def _chapters(headers: list[str]) -> bytes:
    """One page per header: the header in the top margin (bold), a page number at the foot, a
    chapter's heading on the first page of each header and text."""
    buffer = io.BytesIO()
    canvas = pdf_canvas.Canvas(buffer, pagesize=A4, invariant=1)
    for number, header in enumerate(headers, start=1):
        canvas.setFont("Helvetica-Bold", 10)
        canvas.drawString(72, HEIGHT - 40, header)
        canvas.setFont("Helvetica", 10)
        canvas.drawString(WIDTH / 2, 30, str(number))
        page = _Page(canvas)
        if number == 1 or headers[number - 2] != header:
            page.line(header.split(" | ")[-1], "Helvetica-Bold", 14)
        for _ in range(6):
            page.paragraph()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_running_headers_that_change_with_the_chapter_are_no_headings() -> None:
    # (Each header on two pages of ten: too few to recur alone.)
    chapters = ["Housing", "Transport", "Health", "Schools", "Parks"]
    headers = [f"Annual report | {name}" for name in chapters for _ in range(2)]
    assert headings_of(_chapters(headers)) == chapters


def test_a_bold_line_directly_over_a_larger_heading_is_no_heading() -> None:
    # (A press release's "ENDS" over its notes to editors: a section's heading heads no larger one.)
    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("New cycle routes to open", "Helvetica-Bold", 16)
        page.paragraph()
        page.line("ENDS", after=8)
        page.line("Notes to editors", "Helvetica-Bold", 13)
        page.paragraph()
        page.line("Background")
        page.paragraph()

    assert headings_of(drawn_pdf(draw)) == ["New cycle routes to open", "Notes to editors", "Background"]


def _questions(answers: list[list[str]], closing: str | None = None) -> bytes:
    """A title, a section's heading and numbered bold questions, each over ``answers``; then
    ``closing``, a paragraph, if given."""
    questions = ["1. How many people live at this address?", "2. Do you own or rent your home?",
                 "3. How often do you use the bus?", "4. Which services did you use last year"]

    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Residents' survey", "Helvetica-Bold", 16)
        page.paragraph("Please answer every question. Tick one box for each question unless told otherwise.")
        page.line("Section A: About your household", "Helvetica-Bold", 13)
        for question, lines in zip(questions, answers, strict=True):
            page.line(question, after=2)
            for line in lines:
                if len(line.split()) > 10:
                    page.paragraph(line)
                else:
                    page.line(line, "Times-Roman", after=2)
            page.y -= 8
        if closing:
            page.paragraph(closing)

    return drawn_pdf(draw)


def test_a_questionnaires_questions_over_their_answer_boxes_are_no_headings() -> None:
    boxes = [["[ ] One      [ ] Two      [ ] Three or more"],
             ["[ ] Own outright      [ ] Own with a mortgage      [ ] Rent"],
             ["[ ] Every day      [ ] Every week      [ ] Never", "If never, go to question 4"],
             ["Please write in: ______________________"]]
    assert headings_of(_questions(boxes)) == ["Residents' survey", "Section A: About your household"]


def test_a_questionnaires_last_item_put_as_an_instruction_over_its_box_is_no_heading() -> None:
    # (The last item has no question mark, and the form's closing words under its line to write
    # on are running text: its answer comes first.)
    boxes = [["[ ] One      [ ] Two      [ ] Three or more"],
             ["[ ] Own outright      [ ] Own with a mortgage      [ ] Rent"],
             ["[ ] Every day      [ ] Every week      [ ] Never"],
             ["Please write in: ______________________"]]
    closing = "Thank you for taking part. Please return the form in the envelope provided."
    assert headings_of(_questions(boxes, closing)) == ["Residents' survey", "Section A: About your household"]


_INSTRUCTIONS = ("1. Enter your full name as on your passport", "2. Give the date of arrival in the country",
                 "3. State the address where you will stay", "4. List the countries you visited last year")


def test_a_forms_numbered_instructions_over_their_lines_to_write_on_are_no_headings() -> None:
    # (No question mark anywhere: each item an instruction over a line to write on.)
    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Arrival form", "Helvetica-Bold", 16)
        page.paragraph("Complete every item in capital letters. Use black ink and write inside the boxes.")
        page.line("Part A: Your details", "Helvetica-Bold", 13)
        for number, item in enumerate(_INSTRUCTIONS):
            page.line(item, after=4)
            page.line("Please write in: ______________________" if number % 2 else "_" * 60,
                      "Times-Roman", after=10)

    assert headings_of(drawn_pdf(draw)) == ["Arrival form", "Part A: Your details"]


def test_a_checklists_numbered_titles_and_a_reports_sections_stay_headings() -> None:
    # (A checklist's numbered titles over its boxes are no instructions; a report's numbered
    # sections head their text, its one request for views over a line to write on beside them.)
    def checklist(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Moving home checklist", "Helvetica-Bold", 16)
        page.paragraph("Work through each part in turn and tick each box when the task is done.")
        for title, ticks in (("1. Before you start", ("[ ] Read the guidance notes", "[ ] Find your lease")),
                             ("2. On moving day", ("[ ] Take meter readings", "[ ] Hand back every key")),
                             ("3. After the move", ("[ ] Tell the council", "[ ] Register with a doctor"))):
            page.line(title, after=4)
            for tick in ticks:
                page.line(tick, "Times-Roman", after=2)
            page.y -= 8

    def report(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Review of the bus network", "Helvetica-Bold", 16)
        for title in ("1. Introduction", "2. Scope of the review", "3. Findings"):
            page.line(title, "Helvetica-Bold", 12, after=4)
            page.paragraph()
        page.line("4. Give your views on the proposals", "Helvetica-Bold", 12, after=4)
        page.line("Please write in: ______________________", "Times-Roman", after=8)

    assert headings_of(drawn_pdf(checklist)) == ["Moving home checklist", "1. Before you start",
                                                 "2. On moving day", "3. After the move"]
    assert headings_of(drawn_pdf(report)) == ["Review of the bus network", "1. Introduction",
                                              "2. Scope of the review", "3. Findings",
                                              "4. Give your views on the proposals"]


_CHECKS = (("1. Fire exits and escape routes", ("Exit signs lit", "Doors open freely", "Routes kept clear")),
           ("2. Electrical safety in the office", ("Sockets not overloaded", "Cables in good repair")),
           ("3. First aid and accident reporting", ("Kit fully stocked", "Accident book on the desk")))


def _safety_checklist(canvas: Any, box: str, intro: bool, titles: tuple[str, ...] = ()) -> None:
    """A checklist's title, an introduction if ``intro``, then each of ``_CHECKS``' numbered
    titles (or ``titles``) over its items, each item a box to tick: a "☐" glyph or a square
    drawn (``box`` "glyph" or "drawn")."""
    font = _dejavu()
    page = _Page(canvas)
    page.line("Workplace safety checklist", "Helvetica-Bold", 16)
    if intro:
        page.paragraph("Walk round the building once a month and tick each item that is in order.")
    for (title, items), other in zip(_CHECKS, titles or [t for t, _ in _CHECKS], strict=True):
        page.line(other or title, after=4)
        for item in items:
            if box == "glyph":
                page.line(f"\u2610 {item}", font, after=2)
            else:
                canvas.rect(72, page.y - 1, 8, 8)
                canvas.setFont("Times-Roman", 10)
                canvas.drawString(86, page.y, item)
                page.y -= 14
        page.y -= 8


@pytest.mark.parametrize("intro", [True, False])
@pytest.mark.parametrize("box", ["glyph", "drawn"])
def test_a_checklists_numbered_titles_over_ticked_items_stay_headings(box: str, intro: bool) -> None:
    # (A few words in lower case, no question and no instruction's verb, each over lines of its
    # own items: no form's instruction over its answer's boxes; and, with no running text on
    # the page, no cover's lines under its title.)
    titles = [title for title, _ in _CHECKS]
    assert headings_of(drawn_pdf(_safety_checklist, box, intro)) == ["Workplace safety checklist", *titles]


@pytest.mark.parametrize("intro", [True, False])
def test_a_checklists_ticked_items_are_list_items_one_a_line(intro: bool) -> None:
    # (A box to tick opens each item as a bullet does: the items under a title are a list, not
    # one paragraph run together, "Exit signs lit Doors open freely Routes kept clear".)
    lines = markdown_of(drawn_pdf(_safety_checklist, "glyph", intro)).splitlines()
    for _, items in _CHECKS:
        for item in items:
            assert f"- {item}" in lines


def test_a_forms_options_in_a_row_stay_one_line() -> None:
    # (A box before each of a question's options set in a row, "☐ Yes ☐ No": no list item.)
    font = _dejavu()

    def form(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Residents' survey", "Helvetica-Bold", 16)
        page.line("1. Do you own a car?", "Helvetica-Bold", 10, after=4)
        page.line("\u2610 Yes \u2610 No", font, after=8)

    assert "\u2610 Yes \u2610 No" in markdown_of(drawn_pdf(form)).splitlines()


def test_a_forms_numbered_instructions_over_ticked_options_are_no_headings() -> None:
    # (Each opens with an instruction's verb, "Tick", over its options' boxes, one a line.)
    titles = ("1. Tick every exit you checked", "2. Tick every socket you tested",
              "3. Tick each kit you opened")
    assert headings_of(drawn_pdf(_safety_checklist, "glyph", True, titles)) == ["Workplace safety checklist"]


_STEPS = ("4.1 Gather the tools you will need", "4.2 Install the pump on a level surface",
          "4.3 Connect the hoses to the outlet")


def _dejavu() -> str:
    """DejaVu Sans registered with reportlab: it has the geometric shapes ("●", "■") that
    Google Docs bullets its lists with, which reportlab's standard fonts lack."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if "DejaVuSans" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont("DejaVuSans", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
    return "DejaVuSans"


@pytest.mark.parametrize("under", [("\u25cf  Spanner and screwdriver", "\u25cf  Spirit level"),
                                   ("\u25a0  Spanner and screwdriver", "\u25a0  Spirit level"),
                                   ("\u2713 Spanner and screwdriver", "\u2713 Spirit level"),
                                   ("class Pump:", "    def __init__(self):", "pump.start()"),
                                   ("Go to Settings > Pumps", "Tap Add pump")])
def test_a_manuals_numbered_steps_over_bullets_or_code_stay_headings(under: tuple[str, ...]) -> None:
    # (Worded as instructions, each over a short list bulleted with a black circle or square or
    # a tick, over code with a name's "__" and a call's "()", or over a phone's menu path: no
    # answer's box or line to write on, which a form's instruction has.)
    font = _dejavu()

    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("4 Installing the pump", "Helvetica-Bold", 14)
        page.paragraph()
        for step in _STEPS:
            page.line(step, after=4)
            for line in under:
                page.line(line, font, after=2)
            page.y -= 8

    assert headings_of(drawn_pdf(draw)) == ["4 Installing the pump", *_STEPS]


_CLAUSES = ("3.1 Staff must record every visitor in the log", "3.2 Visitors must wear a badge at all times",
            "3.3 Contractors must sign in at the front desk")


def test_a_policys_clauses_over_a_line_for_initials_then_their_text_stay_headings() -> None:
    # (Each clause's text follows the line for the reader's initials; a form's closing words
    # follow only its last item's line to write on, and its items stay items.)
    def policy(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Visitor policy", "Helvetica-Bold", 16)
        page.paragraph()
        for clause in _CLAUSES:
            page.line(clause, after=4)
            page.line("Initials: __________", "Times-Roman", after=8)
            page.paragraph()

    def form(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Arrival form", "Helvetica-Bold", 16)
        page.paragraph("Complete every item in capital letters. Use black ink and write inside the boxes.")
        for item in _INSTRUCTIONS:
            page.line(item, after=4)
            page.line("_" * 60, "Times-Roman", after=10)
        page.paragraph()

    assert headings_of(drawn_pdf(policy)) == ["Visitor policy", *_CLAUSES]
    assert headings_of(drawn_pdf(form)) == ["Arrival form"]


def test_numbered_sections_over_running_text_beside_a_questionnaire_stay_headings() -> None:
    # (Numbered sections set like the questions, their text under them: no items.)
    boxes = [["[ ] One      [ ] Two      [ ] Three or more"],
             ["[ ] Own outright      [ ] Own with a mortgage      [ ] Rent"]]

    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Residents' survey", "Helvetica-Bold", 16)
        for section in ("1. Introduction", "2. Methods"):
            page.line(section, after=2)
            page.paragraph()
        for question, lines in zip(("3. How many people live at this address?",
                                    "4. Do you own or rent your home?"), boxes, strict=True):
            page.line(question, after=2)
            page.line(lines[0], "Times-Roman", after=2)
            page.y -= 8
        page.paragraph("Thank you for taking part. Please return the form in the envelope provided.")

    assert headings_of(drawn_pdf(draw)) == ["Residents' survey", "1. Introduction", "2. Methods"]


def test_an_faqs_numbered_questions_over_their_answers_stay_headings() -> None:
    answers = [[TEXT], [TEXT], [TEXT], [TEXT]]
    assert headings_of(_questions(answers)) == [
        "Residents' survey", "Section A: About your household", "1. How many people live at this address?",
        "2. Do you own or rent your home?", "3. How often do you use the bus?",
        "4. Which services did you use last year"]


def test_a_reports_questions_over_sub_headings_stay_headings() -> None:
    # (The question's text is under its sub-headings: its section is answered.)
    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Review of the bus network", "Helvetica-Bold", 18)
        page.paragraph()
        page.line("What did we find?")
        for sub in ("Housing", "Transport"):
            page.line(sub, "Times-Italic")
            page.paragraph()
        page.line("What happens next?")
        page.paragraph()

    assert headings_of(drawn_pdf(draw)) == ["Review of the bus network", "What did we find?", "Housing",
                                            "Transport", "What happens next?"]


@pytest.mark.parametrize("numbered", [False, True])
def test_an_faqs_questions_over_short_answers_in_words_stay_headings(numbered: bool) -> None:
    faq = [("When is the office open?", "Monday to Friday, 9am to 5pm"),
           ("Where can I park?", "In the car park behind the town hall"),
           ("Can I pay online?", "Yes, on the council's website."),
           ("How much does a permit cost?", "£25 a year for each vehicle")]

    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Frequently asked questions", "Helvetica-Bold", 16)
        page.paragraph()
        for number, (question, answer) in enumerate(faq, start=1):
            page.line(f"{number}. {question}" if numbered else question, after=3)
            page.line(answer, "Times-Roman", after=10)

    questions = [f"{n}. {q}" if numbered else q for n, (q, _) in enumerate(faq, start=1)]
    assert headings_of(drawn_pdf(draw)) == ["Frequently asked questions", *questions]


def test_a_sections_heading_over_key_value_fields_stays_one() -> None:
    # (Set as "Background" over its text: the document's section heading, its fields its text.)
    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Planning committee report", "Helvetica-Bold", 16)
        page.line("Background")
        page.paragraph()
        page.line("Meeting details")
        for field in ("Date: 12 May 2024", "Venue: Council Chamber, Town Hall",
                      "Chair: Councillor Jane Smith"):
            page.line(field, "Times-Roman", after=0)
        page.y -= 8
        page.line("Recommendation")
        page.paragraph()

    assert headings_of(drawn_pdf(draw)) == ["Planning committee report", "Background", "Meeting details",
                                            "Recommendation"]


def test_a_bold_line_over_key_value_fields_is_no_heading() -> None:
    # (A statistical release's status over its dates: the fields are short lines however long
    # their values.)
    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Labour market statistics: March 2024", "Helvetica-Bold", 16)
        page.line("Official statistics", after=6)
        for field in ("Release date: 12 March 2024", "Next release: 11 June 2024",
                      "Geographical coverage: England and Wales"):
            page.line(field, "Times-Roman", after=0)
        page.y -= 12
        page.line("Main points", "Helvetica-Bold", 14)
        page.paragraph()

    assert headings_of(drawn_pdf(draw)) == ["Labour market statistics: March 2024", "Main points"]


def test_a_bold_heading_over_a_run_in_lead_stays_one() -> None:
    # (One "Name: ..." line is a run-in lead opening the section's text, not a form's fields.)
    def draw(canvas: Any) -> None:
        page = _Page(canvas)
        page.line("Review statement", "Helvetica-Bold", 14)
        page.paragraph()
        page.line("Reviewer credentials", after=2)
        page.line("Jane Smith: Experience and background in the field of life cycle assessment include",
                  "Times-Roman", after=2)
        page.line("- Life cycle assessment course and exam as part of her engineering studies",
                  "Times-Roman", after=2)
        page.line("- More than a hundred critical reviews of life cycle studies since 2005",
                  "Times-Roman", after=2)

    assert headings_of(drawn_pdf(draw)) == ["Review statement", "Reviewer credentials"]


@pytest.mark.system
def test_libreoffice_probes_of_heading_precision(tmp_path) -> None:
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is not installed: .ci/setup installs it as root")
    from tests.office_documents import convert
    from tests.office_probes import PROBES

    made = [("caps_labels", 1), ("captions", 5), ("callout_boxes", 4), ("form_fields", 1),
            ("cover_page", 3), ("running_headers", 3), ("press_release", 4), ("questionnaire", 2),
            ("questionnaire", 3), ("release_front_matter", 4)]
    sources, truths = [], []
    for name, seed in made:
        _, data, truth = PROBES[name][1](seed)
        sources.append(tmp_path / f"{name}-{seed}.docx")
        sources[-1].write_bytes(data)
        truths.append(truth["headings"])
    for pdf, truth in zip(convert(sources, tmp_path / "plain"), truths, strict=True):
        assert headings_of(pdf.read_bytes()) == truth, pdf.name
