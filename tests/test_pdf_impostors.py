"""Lines real documents set like headings that are not sections (issue 32's heading
precision), one test per rule of extractors/pdf_headings.py, each on a small PDF drawn here
with a real heading or two beside the impostors (so a rule that drops both fails too).  The
classes of tests/pdf_cases.py (``captions_notes``, ``lead_ins``, ...) are where the rules were
tuned; these pin each rule down."""

from __future__ import annotations

import io

import pytest
from reportlab.pdfgen import canvas

from tests.pdf_cases import draw_paragraph
from tests.test_pdf_structure import HEIGHT, SENTENCES, WIDTH, Page, make_pdf, markdown_of, paragraph

TEXT = " ".join(SENTENCES[:3])
MORE = " ".join(SENTENCES[3:])


def headings_of(markdown: str) -> list[str]:
    return [line.lstrip("#").strip() for line in markdown.split("\n") if line.startswith("#")]


def blocks_of(markdown: str) -> list[str]:
    return [" ".join(block.split()) for block in markdown.split("\n\n") if block.strip()]


def test_captions_and_notes_are_not_headings():
    """A caption numbered "A4" or a "Graph" caption, and a "Source:" line, set bold at the
    body's size with text under them."""
    body1, after1 = paragraph(110, TEXT)
    body2, after2 = paragraph(after1 + 40, MORE)
    body3, after3 = paragraph(after2 + 40, TEXT)
    body4, _ = paragraph(after3 + 40, MORE)
    data = make_pdf([
        (72, 72, "Regional results", 16, "Helvetica-Bold"),
        *body1,
        (72, after1 + 16, "Table A4 Output by region and sector", 10, "Helvetica-Bold"),
        *body2,
        (72, after2 + 16, "Graph 3 - Output by quarter", 10, "Helvetica-Bold"),
        *body3,
        (72, after3 + 16, "Source: Office for National Statistics, Labour Force Survey", 10,
         "Helvetica-Bold"),
        *body4,
    ])
    assert headings_of(markdown_of(data)) == ["Regional results"]


def test_dates_letter_fields_quotes_key_figures_and_lower_case_lines_are_not_headings():
    top = 110.0
    lines: list[tuple] = [(72, 60, "Village Hall Annual Report", 22, "Helvetica-Bold")]
    impostors = [("12 May 2024", 13, "Helvetica"),
                 ("Re: Application for the new village hall", 10, "Helvetica-Bold"),
                 ("\u201cThe hall has never been busier\u201d", 14, "Helvetica-BoldOblique"),
                 ("3.6 GW", 28, "Helvetica-Bold"),
                 ("of new wind capacity", 13, "Helvetica"),
                 ("Outlook", 14, "Helvetica-Bold")]
    for text, size, font in impostors:
        lines.append((72, top, text, size, font))
        body, top = paragraph(top + size + 8, SENTENCES[len(lines) % 6])
        lines += body
        top += 14
    assert top < 740
    assert headings_of(markdown_of(make_pdf(lines))) == ["Village Hall Annual Report", "Outlook"]


def test_a_bold_lead_in_runs_into_its_paragraph():
    """A bold term with its text a tab to the right on the same baseline (the text's other
    lines hung at the tab), and a bold line that fills the measure and runs on into regular
    text: each one paragraph, no heading."""
    term_text, after1 = paragraph(110, TEXT, x=180, width_chars=60)
    lead = "Maintenance costs rose sharply across every building the association manages"
    rest, after2 = paragraph(after1 + 32, MORE)
    data = make_pdf([
        (72, 72, "Annual review", 16, "Helvetica-Bold"),
        (72, 110, "Objective", 10, "Helvetica-Bold"),
        *term_text,
        (72, after1 + 20, lead, 10, "Helvetica-Bold"),
        *rest,
        (72, after2 + 20, "Outlook", 14, "Helvetica-Bold"),
        *paragraph(after2 + 40, TEXT)[0],
    ])
    markdown = markdown_of(data)
    assert headings_of(markdown) == ["Annual review", "Outlook"]
    blocks = blocks_of(markdown)
    assert f"Objective {TEXT}" in blocks
    assert f"{lead} {MORE}" in blocks


def test_short_bold_lines_one_after_another_are_form_labels():
    body1, after1 = paragraph(110, TEXT)
    labels = ["Position held", "Start date", "Signature"]
    data = make_pdf([
        (72, 72, "Applicant details", 16, "Helvetica-Bold"),
        *body1,
        *[(72, after1 + 20 + 26 * i, label, 10, "Helvetica-Bold") for i, label in enumerate(labels)],
        (72, after1 + 110, "Declaration", 16, "Helvetica-Bold"),
        *paragraph(after1 + 134, MORE)[0],
    ])
    assert headings_of(markdown_of(data)) == ["Applicant details", "Declaration"]


def test_bold_numbered_items_are_a_list_not_sections():
    """Items numbered "1." one under the other, and items "(a)" whose explanation hangs under
    their text, among numbered sections whose text starts at the margin."""
    body1, after1 = paragraph(100, TEXT)
    items = ["Improve the survey of members", "Publish the accounts each quarter", "Review the lease"]
    top = after1 + 14
    lines: list[tuple] = [(72, 72, "1 Introduction", 16, "Helvetica-Bold"), *body1]
    for number, item in enumerate(items, start=1):
        lines.append((72, top, f"{number}. {item}", 10, "Helvetica-Bold"))
        top += 13
    body2, top = paragraph(top + 10, MORE)
    lines += [*body2, (72, top + 16, "2 Methods", 16, "Helvetica-Bold")]
    body3, top = paragraph(top + 40, TEXT)
    lines += body3
    for letter, item in zip("ab", ("Extend the opening hours", "Reduce the heating costs"), strict=True):
        lines += [(72, top + 10, f"({letter})", 10, "Helvetica-Bold"),
                  (92, top + 10, item, 10, "Helvetica-Bold")]
        hung, top = paragraph(top + 23, SENTENCES[4], x=92, width_chars=80)
        lines += hung
    body4, _ = paragraph(top + 12, MORE)
    markdown = markdown_of(make_pdf(lines + body4))
    assert headings_of(markdown) == ["1 Introduction", "2 Methods"]


def test_a_name_over_an_address_is_not_a_heading():
    """A letterhead: the organisation in large bold type, its address under it."""
    address = ["4 Mill Lane", "Easton EA4 9QP", "Tel 01234 567890"]
    body1, after1 = paragraph(170, TEXT)
    data = make_pdf([
        (380, 60, "Northfield Water plc", 14, "Helvetica-Bold"),
        *[(380, 80 + 11 * i, line, 9) for i, line in enumerate(address)],
        (72, 150, "Dear Ms Smith,", 10),
        *body1,
        (72, after1 + 16, "Our decision", 10, "Helvetica-Bold"),
        *paragraph(after1 + 32, MORE)[0],
    ])
    assert headings_of(markdown_of(data)) == ["Our decision"]


def test_a_title_over_its_release_dates_is_a_heading():
    """A statistical release's title over its dates and contact (a web page printed to PDF):
    short lines without a sentence's end, whose only figures are dates, are no address."""
    fields = ["Release date: 17 September 2022", "Next release: 6 September 2023", "Contact: statistics team"]
    body1, after1 = paragraph(150, TEXT)
    data = make_pdf([
        (72, 60, "Household Income, England: 2022", 24, "Helvetica-Bold"),
        *[(72, 90 + 14 * i, line, 9) for i, line in enumerate(fields)],
        *body1,
        (72, after1 + 16, "Tenure", 16, "Helvetica-Bold"),
        *paragraph(after1 + 36, MORE)[0],
    ])
    assert headings_of(markdown_of(data)) == ["Household Income, England: 2022", "Tenure"]


def test_a_line_over_a_bare_figure_is_a_label():
    """A chart's title over its axis title over the top of its scale, set larger than the body."""
    body1, after1 = paragraph(110, TEXT)
    body2, after2 = paragraph(after1 + 104, MORE)
    data = make_pdf([
        (72, 72, "Membership", 16, "Helvetica-Bold"),
        *body1,
        (72, after1 + 28, "Members by age group", 13, "Helvetica-Bold"),
        (72, after1 + 54, "Per cent", 13),
        (72, after1 + 80, "100", 10),
        *body2,
        (72, after2 + 20, "Outlook", 16, "Helvetica-Bold"),
        *paragraph(after2 + 44, TEXT)[0],
    ])
    assert headings_of(markdown_of(data)) == ["Membership", "Outlook"]


def test_a_cover_page_keeps_only_its_title():
    """A cover's subtitle and organisation are set large too; the sections after the cover
    keep their headings."""
    cover = [(72, 300, "Village Hall Strategy 2030", 28, "Helvetica-Bold"),
             (72, 350, "Our plan for the next five years", 16),
             (72, 390, "Riverside Community Association", 13)]
    body1, after1 = paragraph(100, TEXT)
    body2, _ = paragraph(after1 + 40, MORE)
    data = make_pdf(cover, [(72, 72, "Introduction", 16, "Helvetica-Bold"), *body1,
                            (72, after1 + 16, "Scope", 13, "Helvetica-Bold"), *body2])
    assert headings_of(markdown_of(data)) == ["Village Hall Strategy 2030", "Introduction", "Scope"]


def test_a_running_header_below_the_header_band_leaves_the_body():
    """A deep top margin puts the running header (the report's title, bold) below the band
    where headers are looked for: it is the first line of every page, at the same height."""
    header = (72, 100, "Riverside Annual Report 2024", 10, "Helvetica-Bold")
    pages = []
    for number in range(3):
        body1, after1 = paragraph(160, TEXT)
        body2, _ = paragraph(after1 + 40, MORE)
        pages.append([header, (72, 130, f"Section {number + 1}", 16, "Helvetica-Bold"), *body1,
                      (72, after1 + 16, f"Details {number + 1}", 13, "Helvetica-Bold"), *body2])
    markdown = markdown_of(make_pdf(*pages))
    assert "Riverside Annual Report 2024" not in markdown
    assert headings_of(markdown) == [f"{kind} {n}" for n in (1, 2, 3) for kind in ("Section", "Details")]


def test_an_item_number_is_not_the_first_word_of_a_title():
    """The lower-case rule looks past a section's or an item's number: "(a) Methods" may title
    a section; words that start lower case do not."""
    from extractors.pdf_headings import _titled

    assert _titled("(a) Methods") and _titled("b) Results of the survey") and _titled("eBay sellers")
    assert not _titled("of customers were satisfied") and not _titled("£ million")


def test_a_papers_front_matter_is_not_headings():
    """Under a paper's title: its authors in larger type and an affiliation in italic (both
    over short lines, not text), then the abstract; a bold "Keywords:" line after it."""
    abstract, after1 = paragraph(196, TEXT)
    body, _ = paragraph(after1 + 60, MORE)
    data = make_pdf([
        (72, 60, "Heating Village Halls with Heat Pumps", 18, "Helvetica-Bold"),
        (72, 90, "Jane Smith1, Ahmed Khan2 and Maria Lopez1", 12),
        (72, 110, "1 Department of Physics, University of Northfield", 10, "Helvetica-Oblique"),
        (72, 124, "2 School of Engineering, Easton College", 10, "Helvetica-Oblique"),
        (72, 140, "jane.smith@example.ac.uk", 9),
        (72, 172, "Abstract", 12, "Helvetica-Bold"),
        *abstract,
        (72, after1 + 12, "Keywords: heat pumps, village halls, energy", 10, "Helvetica-Bold"),
        (72, after1 + 36, "1 Introduction", 14, "Helvetica-Bold"),
        *body,
    ])
    assert headings_of(markdown_of(data)) == ["Heating Village Halls with Heat Pumps", "Abstract",
                                              "1 Introduction"]


@pytest.mark.parametrize("subject_first", [True, False])
def test_a_letters_subject_line_without_re_is_not_a_heading(subject_first: bool):
    """A letter's subject, bold and larger than the body, with no "Re:" before it, just above or
    just below the salutation; the letter's own heading, set the same, stays."""
    subject = (72, 0, "RENEWAL OF YOUR PREMISES LICENCE", 12, "Helvetica-Bold")
    salutation = (72, 0, "Dear Ms Khan,", 10)
    first, second = (subject, salutation) if subject_first else (salutation, subject)
    body1, after1 = paragraph(220, TEXT)
    data = make_pdf([
        (72, 72, "Ahmed Khan", 10),
        (72, 84, "4 Mill Lane", 10),
        (72, 96, "Easton EA4 9QP", 10),
        (72, 130, "12 May 2024", 10),
        (first[0], 166, *first[2:]),
        (second[0], 190, *second[2:]),
        *body1,
        (72, after1 + 16, "Our decision", 12, "Helvetica-Bold"),
        *paragraph(after1 + 36, MORE)[0],
    ])
    assert headings_of(markdown_of(data)) == ["Our decision"]


def _document_with_a_table(parts: list[tuple[str, str, float]]) -> bytes:
    """A page of `parts` drawn top down: ("heading", text, size) bold lines, ("text", text, 0)
    paragraphs, ("table", "", 0) a ruled table of figures directly under the line before it."""
    import random

    from tests.pdf_cases import _Sheet, numeric_table

    sheet = _Sheet(random.Random(1), 1, "Titled values")
    sheet.regular, sheet.bold, sheet.body = "Helvetica", "Helvetica-Bold", 10.0
    for kind, text, size in parts:
        if kind == "heading":
            sheet.y -= 6
            sheet.line(text, sheet.bold, size, after=0.3)
        elif kind == "text":
            sheet.y = draw_paragraph(sheet.canvas, text, sheet.left, sheet.y, sheet.right - sheet.left,
                                     sheet.regular, sheet.body)
        else:
            sheet.table(numeric_table(random.Random(2), 4, 4), ruled=True)
    return sheet.finish().pdf


def test_a_title_over_a_table_in_a_style_no_section_uses_is_not_a_heading():
    """Sections in 16-point bold over their text; a 12-point bold title directly over a table,
    a style no heading of text is set in: the table's title."""
    data = _document_with_a_table([("heading", "Membership", 16), ("text", TEXT, 0),
                                   ("heading", "Members by age group", 12), ("table", "", 0),
                                   ("text", MORE, 0), ("heading", "Outlook", 16), ("text", TEXT, 0)])
    assert headings_of(markdown_of(data)) == ["Membership", "Outlook"]


def test_a_title_naming_its_unit_over_a_table_is_not_a_heading():
    """Set like the sections (13-point bold), a line directly over a table is a section that
    opens with its table, unless it names a unit or a year: then it titles the table."""
    data = _document_with_a_table([("heading", "Spending", 13), ("text", TEXT, 0),
                                   ("heading", "Spending by service area (£m)", 13), ("table", "", 0),
                                   ("text", MORE, 0), ("heading", "Results", 13), ("table", "", 0),
                                   ("text", TEXT, 0)])
    assert headings_of(markdown_of(data)) == ["Spending", "Results"]


def _boxed_page(before: list[tuple], label: str, box_top: float, inside: str,
                after: list[tuple]) -> bytes:
    """A page of text lines (`before`, then `after` placed by the caller) with a callout box
    between: a bar down its left side from just above its bold `label` along its text."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    page = Page(pdf)
    page.text(84, box_top + 6, label, 10, "Helvetica-Bold")
    body, bottom = paragraph(box_top + 22, inside, x=84, width_chars=84)
    pdf.rect(72, HEIGHT - bottom - 6, 4, bottom + 6 - box_top, stroke=0, fill=1)
    for line in [*before, *body, *after]:
        page.text(*line)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _box_bottom(box_top: float, inside: str) -> float:
    return paragraph(box_top + 22, inside, x=84, width_chars=84)[1]


def test_a_label_opening_a_box_is_not_a_heading():
    """A callout: a bar down its left side from just above its bold label ("Note") along the
    text under it.  A bold line of the same size outside any box, spaced as a heading, stays a
    heading."""
    body1, after1 = paragraph(90, TEXT)
    body2, after2 = paragraph(after1 + 32, MORE)
    box_top = after2 + 14
    data = _boxed_page([(72, 60, "Regional results", 16, "Helvetica-Bold"), *body1,
                        (72, after1 + 16, "Method", 10, "Helvetica-Bold"), *body2],
                       "Note", box_top, TEXT, paragraph(_box_bottom(box_top, TEXT) + 20, MORE)[0])
    assert headings_of(markdown_of(data)) == ["Regional results", "Method"]


def test_a_heading_over_a_box_heads_it():
    """A bold body-size heading directly over a callout box: the box's label under it is no
    second short line set alike (a form's "Signature" then "Date"), nor a short line of a
    block: the heading stays."""
    body1, after1 = paragraph(90, TEXT)
    box_top = after1 + 34
    body3, after3 = paragraph(_box_bottom(box_top, MORE) + 20, TEXT)
    data = _boxed_page([(72, 60, "Regional results", 16, "Helvetica-Bold"), *body1,
                        (72, after1 + 18, "Trends since 2019", 10, "Helvetica-Bold")],
                       "Warning", box_top, MORE,
                       [*body3, (72, after3 + 18, "Method", 10, "Helvetica-Bold"),
                        *paragraph(after3 + 34, MORE)[0]])
    assert headings_of(markdown_of(data)) == ["Regional results", "Trends since 2019", "Method"]


def _panel_broken_at_the_column_foot(goes_on: bool) -> bytes:
    """Two columns: sections under bold 11-point headings in the first, which ends with a
    shaded panel holding only its bold label ("Case study"); the second column opens with a
    panel of that width holding the case's text (the box broken at the first column's foot),
    or, without ``goes_on``, with plain text."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    page = Page(pdf)

    def panel(x: float, top: float, bottom: float) -> None:
        pdf.setFillGray(0.92)
        pdf.rect(x, HEIGHT - bottom, 250, bottom - top, stroke=0, fill=1)
        pdf.setFillGray(0)

    page.text(40, 60, "Annual review", 18, "Helvetica-Bold")
    y = 100.0
    for heading, text in (("Cash flow", TEXT), ("Outlook", MORE)):
        page.text(40, y, heading, 11, "Helvetica-Bold")
        body, y = paragraph(y + 18, text, x=40, width_chars=48)
        for line in body:
            page.text(*line)
        y += 14
    panel(36, y - 4, y + 16)
    page.text(44, y, "Case study", 11, "Helvetica-Bold")
    body, after = paragraph(104, MORE, x=314, width_chars=48)
    if goes_on:
        panel(306, 96, after + 4)
    for line in body + paragraph(after + 16, TEXT, x=314, width_chars=48)[0]:
        page.text(*line)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


@pytest.mark.parametrize("goes_on", [True, False])
def test_a_label_alone_in_a_panel_at_a_columns_foot_opens_the_panel_going_on_in_the_next(goes_on: bool):
    """A panel at the first column's foot holding only its label goes on at the head of the
    second column (a panel of its width there, nothing above it): the label is the box's, not
    a section's heading.  Without the panel over the second column's text, the label on its
    shaded band stays a heading (a band ending with its heading)."""
    headings = headings_of(markdown_of(_panel_broken_at_the_column_foot(goes_on)))
    assert headings == ["Annual review", "Cash flow", "Outlook"] + ([] if goes_on else ["Case study"])


def test_a_body_size_heading_over_a_list_heads_it_when_spaced_as_the_headings_are():
    """Sections whose headings sit closer to their text than to the text above (space
    before, little after), and a bold body-size heading spaced so over a bulleted list: it
    heads the list.  A bold body-size line with the paragraphs' spacing over a list is its
    label, as before (tuned on tests/web_pages.py's pages: an h4 over a list)."""
    lines: list[tuple] = []
    top = 60.0
    for index, title in enumerate(("Overview", "Method", "Results", "Outlook")):
        lines.append((72, top, title, 14, "Helvetica-Bold"))
        body, top = paragraph(top + 22, " ".join(SENTENCES[index:index + 2]))
        lines += body
        top += 24  # (space before a heading: twice the space after it)

    def bullets(top: float, items: list[str]) -> float:
        for item in items:
            lines.extend([(72, top, "•", 10), (86, top, item, 10)])
            top += 14
        return top

    lines.append((72, top, "Caveats", 10, "Helvetica-Bold"))
    top = bullets(top + 16, ["Figures for the last quarter are provisional", "Totals may not add up"])
    body, top = paragraph(top + 8, SENTENCES[4])
    lines += body
    lines.append((72, top + 8, "Main changes", 10, "Helvetica-Bold"))
    bullets(top + 8 + 20, ["New regional breakdown", "Revised population estimates"])
    headings = headings_of(markdown_of(make_pdf(lines)))
    assert headings == ["Overview", "Method", "Results", "Outlook", "Caveats"], headings


def _report_pages(count: int, extra: dict[int, list[tuple]]) -> list[list[tuple]]:
    """``count`` pages, each a 16-point section heading over two paragraphs with a 13-point
    sub-heading between (the real headings), plus the lines ``extra`` gives for a page."""
    pages = []
    for number in range(count):
        body1, after1 = paragraph(130 + 20 * number, TEXT)
        body2, _ = paragraph(after1 + 40, MORE)
        section, detail = REAL[2 * number:2 * number + 2]
        pages.append([(72, 100 + 20 * number, section, 16, "Helvetica-Bold"), *body1,
                      (72, after1 + 16, detail, 13, "Helvetica-Bold"), *body2, *extra.get(number, [])])
    return pages


# (Set at other heights on each page: a heading at one height on every page would recur.)
REAL = ["Membership", "New members", "Finances", "Spending", "Buildings", "Repairs"]


def test_a_running_footer_holding_the_page_number_on_facing_pages_leaves_the_body():
    """Facing pages: the running footer (bold, set larger than the body) has its page number
    a line of its own at the outer edge on odd pages and the number first on the even page's
    line ("2  Riverside Annual Report 2024"): one footer, no heading on the even page."""
    title = "Riverside Annual Report 2024"
    bold = "Helvetica-Bold"
    pages = _report_pages(3, {0: [(320, 740, title, 12, bold), (530, 740, "1", 12, bold)],
                              1: [(72, 740, f"2     {title}", 12, bold)],
                              2: [(320, 740, title, 12, bold), (530, 740, "3", 12, bold)]})
    markdown = markdown_of(make_pdf(*pages))
    assert "Riverside" not in markdown
    assert headings_of(markdown) == REAL


def test_a_running_head_in_the_slot_of_the_facing_pages_head_leaves_the_body():
    """Facing pages with different running heads at one height and in one type: the chapter
    ("3. | GENERAL FINDINGS") on odd pages, the section ("Water quality | 3.1.") on even ones.
    The even page's head recurs nowhere, but stands where the others' does."""
    head = (72, 34, "3.  |  GENERAL FINDINGS", 12, "Helvetica-Bold")
    pages = _report_pages(3, {0: [head], 1: [(400, 34, "Water quality  |  3.1.", 12, "Helvetica-Bold")],
                              2: [head]})
    markdown = markdown_of(make_pdf(*pages))
    assert "Water quality" not in markdown and "GENERAL FINDINGS" not in markdown
    assert headings_of(markdown) == REAL


def test_capitals_in_small_print_are_not_set_apart_as_a_title():
    """A line of capitals set smaller than the body (a running head on one page of an
    excerpt, "2024 ANNUAL REPORT ON HOUSING ENFORCEMENT") is no title; capitals at the body's
    size may be one (a heading in a document typed in one font)."""
    body1, after1 = paragraph(130, TEXT)
    body2, _ = paragraph(after1 + 40, MORE)
    data = make_pdf([(100, 40, "2024 ANNUAL REPORT ON HOUSING ENFORCEMENT", 7),
                     (72, 100, "Performance", 16, "Helvetica-Bold"), *body1,
                     (72, after1 + 16, "Enforcement", 13, "Helvetica-Bold"), *body2])
    markdown = markdown_of(data)
    assert headings_of(markdown) == ["Performance", "Enforcement"]
    assert "2024 ANNUAL REPORT ON HOUSING ENFORCEMENT" in markdown


def test_a_turned_axis_title_opening_with_a_hash_is_no_heading():
    """A chart's axis title turned on its side ("# of Incidents") comes out as a paragraph
    after the page's body, escaped like any: Markdown reads no heading in it."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(WIDTH, HEIGHT))
    page = Page(pdf)
    page.text(72, 72, "Incidents by month", 16, "Helvetica-Bold")
    body, _ = paragraph(110, TEXT)
    for line in body:
        page.text(*line)
    pdf.saveState()
    pdf.translate(60, 400)
    pdf.rotate(90)
    pdf.setFont("Helvetica", 9)
    pdf.drawString(0, 0, "# of Incidents")
    pdf.restoreState()
    pdf.showPage()
    pdf.save()
    markdown = markdown_of(buffer.getvalue())
    assert headings_of(markdown) == ["Incidents by month"]
    assert "\\# of Incidents" in markdown


def test_a_line_ending_in_a_broken_word_is_no_title():
    """A column's last line that opens with a figure like a section number and ends in a word
    broken by a hyphen ("10.8 As a generally accepted under-") goes on in the next column: no
    heading, however it opens."""
    body1, after1 = paragraph(130, TEXT)
    body2, after2 = paragraph(after1 + 30, MORE)
    data = make_pdf([(72, 100, "Prevalence", 16, "Helvetica-Bold"), *body1,
                     (72, after1 + 12, "10.8 As a generally accepted under-", 10, "Helvetica"),
                     *body2,
                     (72, after2 + 16, "Methods", 13, "Helvetica-Bold"), *paragraph(after2 + 40, TEXT)[0]])
    assert headings_of(markdown_of(data)) == ["Prevalence", "Methods"]


def test_the_title_under_a_captions_bare_label_is_the_captions():
    """"Table ES-1" on a line of its own with the table's title under it, both bold: the title
    is the caption's, not a section's, even with no table found under it (its figures drawn as
    loose text, or beside a column of running text)."""
    body1, after1 = paragraph(130, TEXT)
    body2, after2 = paragraph(after1 + 56, MORE)
    data = make_pdf([(72, 100, "Exposure of wildlife", 16, "Helvetica-Bold"), *body1,
                     (72, after1 + 14, "Table ES-1", 10, "Helvetica-Bold"),
                     (72, after1 + 27, "Percent of Species Range Overlapping", 10, "Helvetica-Bold"),
                     *body2,
                     (72, after2 + 16, "Risk characterisation", 13, "Helvetica-Bold"),
                     *paragraph(after2 + 40, TEXT)[0]])
    assert headings_of(markdown_of(data)) == ["Exposure of wildlife", "Risk characterisation"]


def test_a_double_spaced_title_broken_inside_a_phrase_is_one_heading():
    """A title set double spaced (26 points top to top in 14-point type, wider than the
    pitch that joins a wrapped heading's lines) and centred, broken after "BASED" before "UPON", is one
    heading; a title over a subtitle set alike, broken between phrases, stays two."""
    body1, after1 = paragraph(150, TEXT)
    body2, _ = paragraph(after1 + 70, MORE)
    data = make_pdf([(90, 72, "CHAPTER 6 - AN OVERVIEW OF MARKET STRUCTURE BASED", 14, "Helvetica-Bold"),
                     (200, 98, "UPON EXISTING SOURCES", 14, "Helvetica-Bold"), *body1,
                     (220, after1 + 16, "Annual Review 2024", 14, "Helvetica-Bold"),
                     (250, after1 + 42, "Our Progress", 14, "Helvetica-Bold"), *body2])
    assert headings_of(markdown_of(data)) == [
        "CHAPTER 6 - AN OVERVIEW OF MARKET STRUCTURE BASED UPON EXISTING SOURCES",
        "Annual Review 2024", "Our Progress"]


def test_a_name_and_role_under_a_quotation_are_its_attribution():
    """A quotation set large (16 points over a 10-point body), then set tight under it a
    person's name and role at 12 points: larger than the body, yet no headings -- they close
    the quotation above them (an annual report's chairman's quote, unstructured's reliance.pdf).
    A 12-point bold heading set with space under a large lead paragraph stays a heading."""
    quote = ("Big achievements follow if you dream big. The story of our company is a proof "
             "of the power of dreams.")
    lines: list[tuple] = [(72, 60, "Annual Report 2024", 22, "Helvetica-Bold")]
    top = 100.0
    for text in ("Big achievements follow if you dream big. The story", "of our company is a proof of",
                 "the power of dreams."):
        lines.append((72, top, text, 16, "Times-Roman"))
        top += 19
    assert quote.startswith(lines[1][2])
    lines += [(72, top + 2, "Jane A. Smith", 12, "Helvetica-Bold"),
              (72, top + 16, "Chairman & Managing Director", 12)]
    body, after = paragraph(top + 44, TEXT)
    lines += body
    for text in ("Our company grew in every market this year, and the board",
                 "thanks every member of staff."):
        lines.append((72, after + 14, text, 16, "Times-Roman"))
        after += 19
    lines.append((72, after + 30, "Outlook", 12, "Helvetica-Bold"))
    lines += paragraph(after + 48, MORE)[0]
    assert headings_of(markdown_of(make_pdf(lines))) == ["Annual Report 2024", "Outlook"]


def test_a_bold_line_under_the_notes_at_a_page_foot_is_its_footer():
    """A one-page summary: notes in small print close its text, and under them a bold line
    at the body's size cites the publication ("Mineral Commodity Summaries, January 2011"):
    the page's footer, which no second page shows recurring -- no heading.  A bold heading
    over text below small print elsewhere on the page stays."""
    body1, after1 = paragraph(100, TEXT)
    notes1, after_notes1 = paragraph(after1 + 6, MORE, size=7, leading=8.5)
    body2, after2 = paragraph(after_notes1 + 34, TEXT)
    notes2, after_notes2 = paragraph(after2 + 20, MORE, size=7, leading=8.5)
    data = make_pdf([(72, 60, "Abrasives (manufactured)", 14, "Helvetica-Bold"), *body1, *notes1,
                     (72, after_notes1 + 16, "World resources", 10, "Helvetica-Bold"), *body2, *notes2,
                     (150, after_notes2 + 30, "Geological Survey, Mineral Commodity Summaries, January 2011",
                      10, "Helvetica-Bold")])
    markdown = markdown_of(data)
    assert headings_of(markdown) == ["Abrasives (manufactured)", "World resources"]
    assert "Mineral Commodity Summaries" in markdown


def test_a_pull_quotes_last_line_alone_is_not_a_heading():
    """A pull quote broken over a page: its last line, set large and italic at the head of
    the next page, closes a quotation it does not open (capitalised or not)."""
    pages: list[list[tuple]] = []
    for heading, tail in (("Our strategy", "Our people across every region\u201d"),
                          ("Outlook", "and in the places we serve\u201d")):
        page: list[tuple] = [(72, 60, heading, 18, "Helvetica-Bold")]
        body, top = paragraph(100, TEXT)
        pages.append(page + body + [(72, top + 20, "\u201cWe invested in the network and", 16,
                                     "Helvetica-Oblique")])
        body, _ = paragraph(100, MORE)
        pages.append([(72, 60, tail, 16, "Helvetica-Oblique"), *body])
    assert headings_of(markdown_of(make_pdf(*pages))) == ["Our strategy", "Outlook"]


def test_headings_quoting_a_title_or_ending_in_inches_are_headings():
    """A heading may close a quotation it opens in another language's marks (Polish „...”,
    Swedish ”...”) or in mixed ones (“..."), and a straight double quote after a figure is an
    inch mark: none of them is a pull quote's last line."""
    headings = ["Analiza \u201ePana Tadeusza\u201d", "Vad betyder \u201dfrihet\u201d", 'Monitors up to 32"',
                'The \u201cFuture"']
    page: list[tuple] = []
    top = 60
    for heading in headings:
        body, after = paragraph(top + 40, TEXT)
        page += [(72, top, heading, 16, "Helvetica-Bold"), *body]
        top = after + 40
    assert headings_of(markdown_of(make_pdf(page))) == headings


def test_a_row_of_key_figures_opening_with_a_number_is_no_numbered_title():
    """Three key figures across the page, the first a bare number ("32   No. 1   £1.2bn"): a
    number a quad before its title is one line, but a row of pieces far apart is no title."""
    lines: list[tuple] = [(72, 60, "At a glance", 22, "Helvetica-Bold")]
    body, top = paragraph(100, TEXT)
    lines += body
    for x, figure, label in ((72, "32", "countries"), (250, "No. 1", "in water quality"),
                             (420, "£1.2bn", "invested in our network")):
        lines += [(x, top + 20, figure, 22, "Helvetica-Bold"), (x, top + 50, label, 9, "Helvetica")]
    lines.append((72, top + 90, "Where we operate", 16, "Helvetica-Bold"))
    body, _ = paragraph(top + 120, MORE)
    lines += body
    assert headings_of(markdown_of(make_pdf(lines))) == ["At a glance", "Where we operate"]
