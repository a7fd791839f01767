"""Heading rules found on real PDFs: the hand-labelled set of bench/data/heading_labels.json
(``python -m bench.pdf_structure --labelled``), one small PDF drawn here per rule, each failing
without its rule.  Which labelled file showed the need is said per test."""

from __future__ import annotations

from reportlab.pdfbase.pdfmetrics import stringWidth

from tests.test_pdf_impostors import headings_of
from tests.test_pdf_structure import SENTENCES, make_pdf, markdown_of, paragraph

TEXT = " ".join(SENTENCES[:3])
MORE = " ".join(SENTENCES[3:])


def test_a_contents_page_with_its_page_numbers_first_gives_no_numbered_section():
    # reliance.pdf: a designed contents page, the page number before each entry's title (here
    # with a line of description under each, as magazines and reports set them); then the
    # report's pages.
    contents: list[tuple] = [(72, 60, "Table of Contents", 18, "Helvetica-Bold")]
    top = 100.0
    for page, entry, blurb in [("2", "Reliance at a Glance", SENTENCES[0]),
                               ("44", "Financial Performance", SENTENCES[1]),
                               ("218", "Report on Corporate Governance", SENTENCES[2])]:
        described, top = paragraph(top + 18, blurb + " " + SENTENCES[3], size=9)
        contents += [(72, top - 18 - 12 * len(described), f"{page} {entry}", 11), *described]
        top += 24
    body1, after1 = paragraph(100, TEXT, size=9)
    body2, _ = paragraph(after1 + 40, MORE, size=9)
    report = [(72, 60, "Reliance at a Glance", 18, "Helvetica-Bold"), *body1,
              (72, after1 + 16, "Financial Performance", 13, "Helvetica-Bold"), *body2]
    headings = headings_of(markdown_of(make_pdf(contents, report)))
    assert "Reliance at a Glance" in headings and "Financial Performance" in headings
    assert not [h for h in headings if h[:1].isdigit()], headings


def test_an_appendix_letter_a_quad_before_its_title_numbers_it_and_its_wrapped_title_hangs():
    # multi-column.pdf (an ACL paper): "A   Distant Supervision"; "B   Alternative Similarity
    # Functions &" over "Triplet Loss", the second line under the title, not the letter.
    size = 12.0
    first = "Alternative similarity functions and the triplet"
    body1, after1 = paragraph(96, TEXT, size=10.5)
    body2, _ = paragraph(after1 + 56, MORE, size=10.5)
    right = 72 + max(stringWidth(line[2], "Helvetica", 10.5) for line in body1 + body2)
    title_x = right - stringWidth(first, "Helvetica-Bold", size)  # the first line fills the measure
    bold = "Helvetica-Bold"
    lines = [(72, 72, "A", size, bold), (title_x, 72, "Distant supervision", size, bold), *body1,
             (72, after1 + 16, "B", size, bold), (title_x, after1 + 16, first, size, bold),
             (title_x, after1 + 31, "loss", size, bold), *body2]
    headings = headings_of(markdown_of(make_pdf(lines)))
    assert headings == ["A Distant supervision", f"B {first} loss"]


def test_a_numbered_section_larger_than_the_body_keeps_its_text_indented_to_its_title():
    # interface-config-guide-p93.pdf (a DITA manual): the section number in the margin, the
    # title and the section's text at one indent.  Bold items at the body's size with their
    # explanation hung under them stay items (tests/pdf_cases.py's bold_numbered_items).
    lines: list[tuple] = []
    top = 72.0
    for number, title in [("6.4", "Internal cross-connect"), ("6.5", "External cross-connect")]:
        body, after = paragraph(top + 24, TEXT, x=110, width_chars=80)
        lines += [(56, top, number, 14, "Helvetica-Bold"), (110, top, title, 14, "Helvetica-Bold"), *body]
        top = after + 30
    assert headings_of(markdown_of(make_pdf(lines))) == ["6.4 Internal cross-connect",
                                                         "6.5 External cross-connect"]


def test_a_document_code_in_capitals_is_no_heading():
    # interface-config-guide-p93.pdf: its footer's document number, capitals and figures at
    # the body's size, on a page of its own.
    body1, after1 = paragraph(96, TEXT)
    body2, after2 = paragraph(after1 + 30, MORE)
    lines = [(72, 72, "GENERAL PROVISIONS", 10), *body1, (72, after1 + 12, "DUTIES OF THE TREASURER", 10),
             *body2, (72, after2 + 40, "3HE 19220 AAAB TQZZA 01", 9)]
    assert headings_of(markdown_of(make_pdf(lines))) == ["GENERAL PROVISIONS", "DUTIES OF THE TREASURER"]


def test_a_title_wrapped_onto_a_line_of_another_weight_is_one_heading_but_a_subtitle_is_not():
    # layout-parser-paper-fast.pdf: the paper's title, its first line opening with the tool's
    # name in a typewriter face, the rest bold, centred over two lines.
    name, rest = "LayoutParser", ": A Unified Toolkit for Deep"
    width = stringWidth(name, "Courier", 14) + stringWidth(rest, "Helvetica-Bold", 14)
    second = "Learning Based Document Image Analysis"
    x = 306 - width / 2
    body1, after1 = paragraph(150, TEXT)
    body2, _ = paragraph(after1 + 60, MORE)
    after_name = x + stringWidth(name, "Courier", 14)
    lines = [(x, 72, name, 14, "Courier"), (after_name, 72, rest, 14, "Helvetica-Bold"),
             (306 - stringWidth(second, "Helvetica-Bold", 14) / 2, 89, second, 14, "Helvetica-Bold"), *body1,
             # A section's title over a subtitle set in one other weight: two lines apart.
             (72, after1 + 16, "Annual review of the programme", 14, "Helvetica-Bold"),
             (72, after1 + 33, "Findings of the second year", 14, "Helvetica"), *body2]
    headings = headings_of(markdown_of(make_pdf(lines)))
    assert f"{name}{rest} {second}" in headings
    assert "Annual review of the programme Findings of the second year" not in headings


def _headings_around_a_key_figure(first: tuple, figure: list[tuple]) -> list[str]:
    """The headings of a page: ``first`` (a line), text, a key figure's lines (x, offset below
    the text, text, size, font), more text."""
    body1, after1 = paragraph(100, TEXT)
    body2, _ = paragraph(after1 + 110, MORE)
    placed = [(x, after1 + offset, text, size, font) for x, offset, text, size, font in figure]
    return headings_of(markdown_of(make_pdf([first, *body1, *placed, *body2])))


def test_a_page_title_in_lower_case_display_type_over_running_text_is_a_heading():
    # chevron-page.pdf: a report page titled "eastern mediterranean" in 20-point bold lower
    # case.  Lower-case lines in display type further down (what a key figure counts) stay text.
    headings = _headings_around_a_key_figure((200, 60, "eastern mediterranean", 20, "Helvetica-Bold"),
                                             [(72, 20, "3.6 GW", 40, "Helvetica-Bold"),
                                              (72, 66, "of new wind capacity", 20, "Helvetica-Bold")])
    assert headings == ["eastern mediterranean"]


def test_a_key_figures_label_over_the_figure_and_its_unit_is_no_heading():
    # reliance.pdf: "BY REVENUE" in bold capitals over "₹7,92,756 crore"; here "£7,927 bn".
    headings = _headings_around_a_key_figure((72, 72, "Our year in figures", 16, "Helvetica-Bold"),
                                             [(72, 20, "TOTAL REVENUE", 12, "Helvetica-Bold"),
                                              (72, 38, "£7,927 bn", 26, "Helvetica")])
    assert headings == ["Our year in figures"]


def test_a_heading_over_a_bullet_drawn_apart_from_its_item_is_no_label_of_a_figure():
    # The ICDAR 2013 set's us-022 (an annual report): a part title over a section title over a
    # list whose bullets are drawn apart from their items' text, each bullet a block of its
    # own level with its item's first line; a lone mark was read as a bare figure under a
    # chart's label (and on a first page as an affiliation under an author), and both titles
    # lost their headings.  A mark standing alone under a line ("Back cover" over "®",
    # docling's redp5110) still makes it a label.
    bold = "Helvetica-Bold"
    item, after = paragraph(148, TEXT, x=110, size=10)
    more, after2 = paragraph(after + 30, MORE, x=110, size=10)
    lines = [(72, 60, "Performance Data", 24, bold), (72, 100, "Law Enforcement Investigation", 14, bold),
             (72, 148, "\u00bb", 10), *item, (72, after + 30, "\u00bb", 10), *more]
    back = [(72, 72, "Back cover", 14, bold), (72, 110, "\u00ae", 10),
            (72, 150, "Row and column access control", 20, bold), *paragraph(190, TEXT, size=10)[0]]
    headings = headings_of(markdown_of(make_pdf(lines, back)))
    assert headings == ["Performance Data", "Law Enforcement Investigation", "Row and column access control"]


def test_a_title_wrapped_after_an_abbreviations_dots_is_one_heading():
    # The ICDAR 2013 set's us-020 (a statistics report): "Nonresponse bias in the U.S." over
    # "PIRLS sample"; the dots of "U.S." read as a sentence's end and the title as two.
    bold = "Helvetica-Bold"
    body, _ = paragraph(120, TEXT, size=10)
    lines = [(72, 72, "Nonresponse bias in the U.S.", 16, bold), (72, 92, "PIRLS sample", 16, bold), *body]
    headings = headings_of(markdown_of(make_pdf(lines)))
    assert headings == ["Nonresponse bias in the U.S. PIRLS sample"]


def test_a_lettered_caption_of_a_summary_or_an_appendix_is_no_heading():
    # The ICDAR 2013 set's us-038 (an executive summary): "Table ES-1" set bold on its own
    # line over its table's title; likewise "Table A-1." in an appendix, "Exhibit B.4".
    bold = "Helvetica-Bold"
    body1, after1 = paragraph(110, TEXT, size=10)
    body2, after2 = paragraph(after1 + 40, MORE, size=10)
    body3, after3 = paragraph(after2 + 40, TEXT, size=10)
    body4, _ = paragraph(after3 + 40, MORE, size=10)
    lines = [(72, 72, "Exposure of wildlife to mercury", 14, bold), *body1,
             (72, after1 + 16, "Table ES-1", 12, bold), *body2,
             (72, after2 + 16, "Table A-1.", 12, bold), *body3,
             (72, after3 + 16, "Exhibit B.4", 12, bold), *body4]
    headings = headings_of(markdown_of(make_pdf(lines)))
    assert headings == ["Exposure of wildlife to mercury"]


def test_a_short_line_in_the_style_of_a_long_paragraph_is_no_heading():
    # reliance.pdf: a lead paragraph set larger than the body, and a short line of its own in
    # that style ("For societal well-being"): a style that sets running text is a body's.
    lead1, after1 = paragraph(110, TEXT + " " + SENTENCES[3], size=12, leading=15, width_chars=75)
    lead2, after2 = paragraph(after1 + 40, MORE, size=12, leading=15, width_chars=75)
    body1, after3 = paragraph(after2 + 46, TEXT + " " + MORE)
    body2, _ = paragraph(after3 + 12, MORE + " " + TEXT)
    lines = [(72, 60, "Annual Review", 20, "Helvetica-Bold"), *lead1,
             (72, after1 + 12, "For the village and its people", 12), *lead2,
             (72, after2 + 20, "Background", 14, "Helvetica-Bold"), *body1, *body2]
    assert headings_of(markdown_of(make_pdf(lines))) == ["Annual Review", "Background"]


def test_a_title_over_a_charts_labels_and_no_text_heads_no_section():
    # reliance.pdf's contents page (a group name over its entries) and pdf-bad-color-space.pdf
    # (a display word over sub-titles): a heading followed to its page's end by blocks none of
    # which is text; here a chart's title over its labels, spaced apart as a chart sets them.
    body, after = paragraph(96, TEXT)
    chart: list[tuple] = [(72, after + 30, "Exports by product group", 13, "Helvetica-Bold")]
    # (A legend's keys down one side, an axis title under the plot.)
    for row, label in enumerate(["Machinery and transport", "Chemicals", "Mineral fuels"]):
        chart.append((360, after + 80 + 36 * row, label, 8))
    chart.append((150, after + 230, "Share of all exports", 8))
    page2, _ = paragraph(96, MORE)
    first = [(72, 60, "Trade Report", 20, "Helvetica-Bold"), *body, *chart]
    headings = headings_of(markdown_of(make_pdf(first, [(72, 60, "Outlook", 16, "Helvetica-Bold"), *page2])))
    assert headings == ["Trade Report", "Outlook"]


def test_a_title_over_its_release_dates_and_a_heading_over_a_code_listing_head_their_sections():
    # tests/web_pages.py's statistics and API pages (the regression set of the rule above): the
    # document's title over its front matter, short lines all; a section's title over a code
    # sample in a typewriter face, no sentence in it.
    body, after = paragraph(192, TEXT)
    # (Each line a block of its own, as the pages space them.)
    code = [(80, after + 40 + 24 * row, line, 9, "Courier")
            for row, line in enumerate(["from service import Client", "client = Client(region)",
                                        "client.fetch(page=1)"])]
    lines = [(72, 60, "Labour Market Overview, England: 2023", 20, "Helvetica-Bold"),
             (72, 92, "Release date: 1 June 2023", 8), (72, 116, "Next release: 21 June 2024", 8),
             (72, 140, "Contact: statistics team", 8), (72, 170, "Summary", 14, "Helvetica-Bold"), *body,
             (72, after + 14, "Data access", 14, "Helvetica-Bold"), *code]
    title = "Labour Market Overview, England: 2023"
    assert headings_of(markdown_of(make_pdf(lines))) == [title, "Summary", "Data access"]
