"""Rules found by the office probes at seeds nobody tuned on (`--probe-seeds 101`): pages drawn
as the failing probes were typeset, each rule's case."""

from __future__ import annotations

from typing import Any

from reportlab.pdfbase.pdfmetrics import stringWidth

from tests.pdf_output import drawn_pdf, headings_of, markdown_of, wrapped_lines
from tests.test_pdf_heading_faces import TEXT, _report

REGIONS = ["East", "Valley", "Rural", "Metro", "West", "North"]
FIGURES = [["22.7", "12.8", "81.0"], ["18.38%", "57.53%", "89.84%"], ["71,427", "52,564", "49,078"],
           ["63.0", "67.0", "24.6"], ["82,848", "37,751", "19,449"], ["74.8", "43.1", "39.8"]]


def _right_set_headings(canvas: Any) -> None:
    # Calc's sheet: headings set right over figures set right, the long middle heading reaching
    # to two word spaces of its neighbour (a cell gap is three quarters of an em).
    middle = 270.0 + 7.5 + stringWidth("Persons employed", "Helvetica-Bold", 11)
    ends = [270.0, middle, middle + 119.0]
    canvas.setFont("Helvetica-Bold", 11)
    canvas.drawString(55.0, 700.0, "Region")
    for end, heading in zip(ends, ["Dwellings", "Persons employed", "Households"], strict=True):
        canvas.drawString(end - stringWidth(heading, "Helvetica-Bold", 11), 700.0, heading)
    canvas.setFont("Helvetica", 11)
    y = 685.0
    for region, figures in zip(REGIONS, FIGURES, strict=True):
        canvas.drawString(55.0, y, region)
        for end, figure in zip(ends, figures, strict=True):
            canvas.drawString(end - stringWidth(figure, "Helvetica", 11), y, figure)
        y -= 15.0


def test_right_set_headings_a_word_space_apart_head_their_own_columns() -> None:
    markdown = markdown_of(drawn_pdf(_right_set_headings))
    assert "| Region | Dwellings | Persons employed | Households |" in markdown


def test_lone_words_in_the_face_of_one_heading_are_headings_too() -> None:
    # accent_headings at seed 101: one section title of three words and three of one word,
    # all in a sans face at the serif body's size over running text.
    headings = ["Recommendations", "Background", "Finance", "Progress this quarter"]
    assert headings_of(drawn_pdf(_report, headings)) == headings


def test_one_lone_word_in_the_face_of_one_heading_stays_text() -> None:
    # (One word and one heading: the word may be a label as likely as a heading.)
    assert headings_of(drawn_pdf(_report, ["Consultation", "Programme of works"])) == ["Programme of works"]


def _long_title_in_a_column(canvas: Any) -> None:
    # page_foot_headings at seed 102: a title of fourteen short words at 14 points wrapped over
    # four lines in the left column of two (Word), its text under it.
    canvas.setFont("Helvetica-Bold", 14)
    y = 700.0
    for line in ["How the council will", "meet its commitments", "on climate and the", "natural environment"]:
        canvas.drawString(90.0, y, line)
        y -= 18.5
    canvas.setFont("Times-Roman", 11)
    y -= 8.0
    for line in wrapped_lines(TEXT, 210.0, "Times-Roman", 11):
        canvas.drawString(90.0, y, line)
        y -= 14.5


def test_a_long_title_of_short_words_wraps_over_four_lines_in_a_narrow_column() -> None:
    assert headings_of(drawn_pdf(_long_title_in_a_column)) == [
        "How the council will meet its commitments on climate and the natural environment"]


SCHEMES = [
    ("Drainage improvements on 18 estates, 2017 flooding addressed with new soakaways.", "867", "June"),
    ("New cycle lane along the ring road, 15.5 km with signals at 15 junctions and new crossings.", "589",
     "April"),
    ("Traffic calming outside 8 schools, 20 mph zones and raised tables at each entrance.", "532", "January"),
    ("Repairs to the sea wall at the harbour, 2019 damage made good, 1750 metres of new coping.", "833",
     "September"),
    ("Cleaning of gullies and drains along the coast road after the winter storms of 2020.", "612", "June"),
    ("Inspection of the two footbridges over the river, 2022 survey repeated.", "635", "April")]


def _rest_under_a_repeated_header(canvas: Any) -> None:
    # page_rows at seed 102 (Word): a works programme's next page, the header repeated over
    # the rest of a row the page broke ("made good, ... coping."), set a row's pitch under it,
    # then the next rows, each scheme wrapped in its cell.
    canvas.setFont("Times-Roman", 11)
    y = 760.0
    canvas.drawString(90.0, y, "Scheme")
    canvas.drawString(349.0, y, "Cost (£k)")
    canvas.drawString(421.0, y, "Start")
    y -= 24.7
    for line in wrapped_lines(SCHEMES[3][0], 240.0, "Times-Roman", 11)[1:]:
        canvas.drawString(90.0, y, line)
        y -= 14.4
    y -= 10.3
    for scheme, cost, start in SCHEMES[4:] + SCHEMES[:3]:
        canvas.drawString(349.0, y, cost)
        canvas.drawString(421.0, y, start)
        for line in wrapped_lines(scheme, 240.0, "Times-Roman", 11):
            canvas.drawString(90.0, y, line)
            y -= 14.4
        y -= 10.3


def test_the_rest_of_a_broken_row_under_a_repeated_header_is_a_row_of_its_own() -> None:
    # (Its own row, the stitch puts it back into the row the page before ends with; joined
    # to the header, the header is not seen repeated and the parts stay apart.)
    markdown = markdown_of(drawn_pdf(_rest_under_a_repeated_header))
    assert "| Scheme | Cost (£k) | Start |" in markdown
    assert "| made good, 1750 metres of new coping. |  |  |" in markdown


def _sheet_over_two_pages(canvas: Any, spilled: int = 2, section: bool = False, notes: bool = False,
                          cut_title: bool = False) -> None:
    # sheet_banded at seed 101 (Calc): six columns wider than the page, the last two printed
    # on the next page at the same rows' heights.  At seeds 301-302 the last one alone
    # (``spilled``), which the table finder reads no table from; a section row holding no
    # figures (sheet_sections), notes under the table in its first column (sheet_notes), or
    # the sheet's title merged across its columns and centred, its end cut at the next page's
    # left edge (``cut_title``).
    def rows(x: float, ends: list[float], columns: list[list[str]]) -> None:
        y = 700.0
        for r in range(len(columns[0])):
            # (The header and a section's label bold, as the sheets set them.)
            canvas.setFont("Helvetica-Bold" if r == 0 or (section and r == 3) else "Helvetica", 10)
            if x:
                canvas.drawString(x, y, columns[0][r])
            for end, column in zip(ends, columns[1:] if x else columns, strict=True):
                if column[r]:
                    canvas.drawRightString(end, y, column[r])
            y -= 15.0
        canvas.setFont("Helvetica", 10)
        for line in ["Notes:", "1. Figures for the latest year are provisional."] if x and notes else []:
            y -= 15.0
            canvas.drawString(x, y, line)

    regions = ["Region", "West", "Rural", "Capital" if section else "East", "Central", "South", "Valley"]
    figures = [[name, *("" if section and i == 2
                        else f"{(7 * i + 3 * c) % 90 + 10},{(13 * i + c) % 900 + 100}" for i in range(6))]
               for c, name in enumerate(["Births", "Households", "Median pay", "Pupils", "Net migration"])]
    title = "Regional summary of births, households and pay" if cut_title else "Regional summary"
    canvas.setFont("Helvetica-Bold", 13)
    canvas.drawString(300.0 if cut_title else 55.0, 730.0, title)
    rows(55.0, [250.0, 370.0, 490.0] if spilled == 2 else [190.0, 290.0, 390.0, 490.0],
         [regions, *figures[:5 - spilled]])
    canvas.showPage()
    if cut_title:
        canvas.setFont("Helvetica-Bold", 13)
        canvas.drawString(300.0 - 595.0, 730.0, title)
    rows(0.0, [150.0, 270.0][:spilled], figures[5 - spilled:])


def test_a_sheet_printed_over_two_pages_side_by_side_is_one_table() -> None:
    markdown = markdown_of(drawn_pdf(_sheet_over_two_pages))
    assert "| Region | Births | Households | Median pay | Pupils | Net migration |" in markdown
    assert sum(line.startswith("| --- ") for line in markdown.splitlines()) == 1


def test_a_sheets_last_column_alone_on_the_next_page_goes_on_its_table() -> None:
    # (One column the table finder reads as lines: its words go into the rows they stand on,
    # a section row without figures empty; notes under the table and the cut end of a title
    # centred over the sheet do not keep it apart.)
    for options in ({"section": True}, {"notes": True}, {"cut_title": True}):
        markdown = markdown_of(drawn_pdf(_sheet_over_two_pages, 1, **options))
        assert "| Region | Births | Households | Median pay | Pupils | Net migration |" in markdown, options
        assert sum(line.startswith("| --- ") for line in markdown.splitlines()) == 1, options
        assert "| West | 10,100 | 13,101 | 16,102 | 19,103 | 22,104 |" in markdown, options
        assert ("| Capital |  |  |  |  |  |" in markdown) == bool(options.get("section")), options
        assert ("1. Figures for the latest year are provisional." in markdown) == bool(options.get("notes"))


CALLOUT = "Join us for the annual summer fete on the village green this Saturday from noon"


def _callout_in_a_column(canvas: Any, font: str) -> None:
    # A column of three: a paragraph, a callout of fifteen short words at 12 points wrapped over
    # four lines in the body's face (or its italic), spaced off the text round it, more text.
    y = 790.0
    for at in range(3):
        canvas.setFont("Helvetica", 9)
        for line in wrapped_lines(TEXT, 150.0, "Helvetica", 9):
            canvas.drawString(210.0, y, line)
            y -= 11.0
        if at == 0:
            canvas.setFont(font, 12)
            y -= 10.0
            for line in wrapped_lines(CALLOUT, 150.0, font, 12):
                canvas.drawString(210.0, y, line)
                y -= 15.0
            y -= 6.0
        y -= 6.0


def test_a_callout_set_large_in_the_bodys_face_is_no_title_over_four_lines() -> None:
    for font in ("Helvetica", "Helvetica-Oblique"):
        markdown = markdown_of(drawn_pdf(_callout_in_a_column, font))
        assert CALLOUT in markdown.split("\n\n"), font
        assert not headings_of(drawn_pdf(_callout_in_a_column, font)), font
