"""Misreads found on the tuning probes 401-402 (a patent's claims, two tables a caption apart),
drawn here: a narrow column's justified claims whose stretched spaces line up from line to line
are no table, even where one word's box stands a few tenths past its advance; a paragraph's
last line, its number alone ("106."), is no item number hung before the next column's line
level with it; and a table over a caption and the next table keeps the columns its own rows
show, not those both tables share."""

from __future__ import annotations

from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from extractors.pdf_structure import build_lines
from extractors.pdf_tables import find_tables
from extractors.pdf_words import read_layouts
from tests.pdf_output import drawn_pdf, markdown_of, markdown_table

_FONT, _SIZE = "Times-Roman", 10.0


_SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"

# The claims as the probe sets them in DejaVu Serif 10 (baseline, then each word and its x):
# the full lines justified, their spaces 8 points wide, lined up from claim to claim -- and
# the box of "of" reaching past its "f", the space after it 0.6 point narrower.
_CLAIMS = [
    (576.7, [("2.", 318.7), ("The", 336.3), ("leak", 363.3), ("detection", 392.5), ("system", 448.1),
             ("of", 491.4), ("claim", 509.2), ("1,", 544.7)]),
    (563.3, [("wherein", 318.7), ("the", 368.4), ("pressure", 393.3), ("sensor", 446.3),
             ("comprises", 488.1), ("a", 548.3)]),
    (550.0, [("metal", 318.7), ("alloy.", 350.4)]),
    (531.6, [("3.", 318.7), ("The", 336.3), ("leak", 363.3), ("detection", 392.5), ("system", 448.1),
             ("of", 491.4), ("claim", 509.2), ("2,", 544.7)]),
    (518.3, [("wherein", 318.7), ("the", 368.2), ("controller", 393.0), ("comprises", 451.3),
             ("a", 511.3), ("metal", 525.6)]),
    (504.9, [("alloy.", 318.7)]),
    (486.6, [("4.", 318.7), ("The", 336.3), ("leak", 363.3), ("detection", 392.5), ("system", 448.1),
             ("of", 491.4), ("claim", 509.2), ("2,", 544.7)]),
    (473.2, [("wherein", 318.7), ("the", 363.1), ("controller", 382.6), ("is", 435.7),
             ("removable.", 447.2)]),
]


def _claims(canvas: Any) -> None:
    pdfmetrics.registerFont(TTFont("ClaimsSerif", _SERIF))
    canvas.setFont("ClaimsSerif", 10)
    for y, words in _CLAIMS:
        for text, x in words:
            canvas.drawString(x, y, text)


def test_justified_claims_whose_spaces_line_up_are_no_table() -> None:
    assert [t for layout in read_layouts(drawn_pdf(_claims)) for t in find_tables(layout)] == []


_LEFT = ["formed of a rigid polymer, although a metal", "may be used. When the controller is",
         "configured to determine the threshold, it", "may actuate the shut-off valve. The housing",
         "defines an interior space that receives the", "pressure sensor and the controller"]
_RIGHT = ["1. A leak detection system comprising: a", "housing; a pressure sensor disposed within",
          "the housing; and a controller coupled to", "the pressure sensor.", "",
          "2. The leak detection system of claim 1,", "wherein the pressure sensor comprises a",
          "metal alloy.", "", "3. The leak detection system of claim 2,",
          "wherein the controller is removable."]


def _description_beside_claims(canvas: Any) -> None:
    """Two columns: the description's paragraph ending in a line of its own, "106.", a point
    and a half under the claims' line "3. The leak ..." in the next column (their pitches
    differ: the two columns' lines are level here and there)."""
    canvas.setFont(_FONT, _SIZE)
    y = 700.0
    for line in _RIGHT:
        if line:
            canvas.drawString(320.0, y, line)
            y -= 12.0
        else:
            y -= 6.0
    claim_3 = 700.0 - 12.0 * 7 - 6.0 * 2
    y = claim_3 - 1.5 + 13.4 * len(_LEFT)
    for line in [*_LEFT, "106."]:
        canvas.drawString(58.0, y, line)
        y -= 13.4
    canvas.drawString(76.0, y - 2.0, "In other embodiments, the shut-off valve is")
    canvas.drawString(58.0, y - 15.4, "located outside the housing.")


def test_a_number_ending_a_paragraph_is_no_item_number_of_the_next_columns_line() -> None:
    [layout] = read_layouts(drawn_pdf(_description_beside_claims))
    texts = [line.text for line in build_lines(layout.words, layout.number)]
    assert "106." in texts
    assert "3. The leak detection system of claim 2," in texts


_FIRST = [["Region", "Q1 2020", "Q2 2021", "FY 2022", "Q2 2023", "Q1 2024"],
          ["Metro", "94,360", "67,567", "7,388", "75,427", "67,706"],
          ["Valley", "70.70%", "82.82%", "49.36%", "74.73%", "7.23%"],
          ["West", "66,666", "15,779", "52,319", "23,077", "52,469"],
          ["East", "93,914", "35,679", "65,637", "1,776", "39,732"]]
_SECOND = [["District", "Q1 2020", "Q2 2021", "Q2 2022"],
           ["East", "29.8", "73.4", "88.5"],
           ["South", "80.7", "33.6", "37.4"],
           ["Valley", "55.15%", "74.63%", "59.35%"],
           ["West", "767", "69,272", "97,849"]]


def _two_tables(canvas: Any) -> None:
    """Two unruled tables a caption apart in DejaVu Serif 11, as the probe sets them: the
    second's "Q1 2020" column stands over the first's gap between "Q1 2020" and "Q2 2021"."""
    pdfmetrics.registerFont(TTFont("TablesSerif", _SERIF))
    canvas.setFont("TablesSerif", 11)
    canvas.drawString(90.0, 700.0, "The tables below give the figures for the year.")
    y = 675.0
    for row in _FIRST:
        for x, text in zip((90.0, 162.0, 234.0, 306.0, 378.0, 450.0), row, strict=True):
            canvas.drawString(x, y, text)
        y -= 24.6
    canvas.drawString(90.0, y, "Table 2: Figures by area")
    y -= 24.6
    for row in _SECOND:
        for x, text in zip((90.0, 198.0, 306.0, 414.0), row, strict=True):
            canvas.drawString(x, y, text)
        y -= 24.6


def test_a_table_over_a_caption_and_the_next_table_keeps_its_own_columns() -> None:
    markdown = markdown_of(drawn_pdf(_two_tables))
    assert markdown_table(_FIRST) in markdown
    assert markdown_table(_SECOND) in markdown
