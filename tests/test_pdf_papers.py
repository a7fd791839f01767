"""Research papers in two columns (office probe academic_paper, 2026-12-07): a bibliography's
entries set with a hanging indent are one paragraph each, the next entry's "[2]" opening its own;
a results table between booktabs' rules (over the header, under it, under the last row) keeps
to them, beside the other column's prose and over the two columns under a table across the
page, and two such tables of one width one over the other are read once each (across the
page, or in one column beside the other column's prose), and one across a two-column page is
cut from the columns' prose over and under it at its outer rules; a line of
small type in one column, its centre near a heading's in the other, is not
pulled apart into that heading's row; a title block's centred lines that do not fill the page
(the affiliations, the e-mail addresses) are a paragraph each, a centred paragraph wrapped at
its measure stays one; and the title block's centred lines, crossing the gutter above a first
page's short columns, do not hide the gutter; notes keyed to a booktabs table under its last
rule stay the table's when it is read again in its frame; a last page whose second column holds
the last few references beside a full first one takes the gutter the other pages prove."""

from __future__ import annotations

from typing import Any

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont

from tests.pdf_output import drawn_pdf, headings_of, markdown_of, markdown_table, wrapped_lines

WIDTH, HEIGHT = A4
LEFT, GUTTER, COLUMN = 54.0, 20.0, 233.0  # two columns: 54-287 and 307-540
RIGHT = LEFT + 2 * COLUMN + GUTTER
PROSE = ("Documents published as PDF keep their text but lose most of their logical structure. "
         "Earlier systems relied on hand-written rules over the positions of words and ruling lines. "
         "We train the model on pages whose structure is known from the source files that produced them. "
         "Results are averaged over five runs with different random seeds, and we report the deviation.")
REFERENCES = ["[1] J. Smith and A. Khan. Table structure recognition with graph networks. In Proceedings "
              "of the International Conference on Document Analysis and Recognition, pages 112-119, 2019.",
              "[2] L. Wei, S. Jones, and T. Brown. Reading order in multi-column documents. Pattern "
              "Recognition, 98:107-121, 2021.",
              "[3] P. Patel. A rule-based approach to table detection in PDF files. In Proceedings of the "
              "ACM Symposium on Document Engineering, pages 45-48, 2015."]
CELLS = [["Method", "TabBank", "DocSet"], ["CRF [5]", "75.9 ± 0.7", "81.4 ± 0.9"],
         ["BiLSTM-CRF [2]", "88.1 ± 0.1", "72.2 ± 1.2"], ["LayoutLM [4]", "80.0 ± 0.1", "87.5 ± 0.7"],
         ["Ours", "86.6 ± 1.3", "75.3 ± 1.3"]]


def _justified(canvas: Any, x: float, y: float, text: str, width: float, font: str, size: float) -> None:
    """A line set full to ``width``, its spaces stretched (a justified paragraph's line)."""
    words = text.split()
    spare = width - stringWidth(text, font, size)
    body = canvas.beginText(x, y)
    body.setFont(font, size)
    body.setWordSpace(spare / (len(words) - 1) if len(words) > 1 else 0)
    body.textOut(text)
    canvas.drawText(body)


def _column_text(canvas: Any, x: float, y: float, text: str, lines: int = 99, size: float = 9.5,
                 width: float = COLUMN) -> float:
    """A justified paragraph in a column from ``y`` down (its last line ragged), at most ``lines``
    lines; the y under it."""
    wrapped = wrapped_lines(text, width, "Times-Roman", size)[:lines]
    for k, line in enumerate(wrapped):
        if k < len(wrapped) - 1:
            _justified(canvas, x, y, line, width, "Times-Roman", size)
        else:
            canvas.setFont("Times-Roman", size)
            canvas.drawString(x, y, line)
        y -= size * 1.2
    return y - 4


def _entries(canvas: Any, x: float, y: float, entries: list[str], width: float, hang: float = 14.0,
             space: float = 2.8) -> None:
    """Bibliography entries in 8.5-point type, each first line full, its others indented by
    ``hang``, ``space`` points between entries."""
    for entry in entries:
        first, *rest = wrapped_lines(entry, width, "Times-Roman", 8.5)
        rest = wrapped_lines(" ".join(rest), width - hang, "Times-Roman", 8.5) if rest else []
        _justified(canvas, x, y, first, width, "Times-Roman", 8.5)
        for k, line in enumerate(rest):
            y -= 10.2
            if k < len(rest) - 1:
                _justified(canvas, x + hang, y, line, width - hang, "Times-Roman", 8.5)
            else:
                canvas.setFont("Times-Roman", 8.5)
                canvas.drawString(x + hang, y, line)
        y -= 10.2 + space


def test_a_bibliography_entry_hung_under_its_number_is_one_paragraph() -> None:
    def draw(canvas: Any) -> None:
        canvas.setFont("Times-Bold", 12)
        canvas.drawString(72, 760, "References")
        _entries(canvas, 72, 740, REFERENCES, 300)

    lines = markdown_of(drawn_pdf(draw)).splitlines()
    assert all(entry in lines for entry in REFERENCES), lines


def test_a_bibliography_entry_ending_short_does_not_run_into_the_next() -> None:
    def draw(canvas: Any) -> None:
        canvas.setFont("Times-Bold", 12)
        canvas.drawString(72, 760, "References")
        _entries(canvas, 72, 740, REFERENCES, 300, hang=0, space=0)

    lines = markdown_of(drawn_pdf(draw)).splitlines()
    assert REFERENCES[0] in lines and REFERENCES[1] in lines, lines


def _booktabs(canvas: Any, x: float, top: float, widths: list[float], cells: list[list[str]],
              unruled: int = 0) -> float:
    """A table in 9-point type between booktabs' rules: over the header, under it and under the
    last row, spanning all but the first ``unruled`` columns (its labels'); the y under it."""
    width = sum(widths)
    start = x + sum(widths[:unruled])
    y = top
    canvas.setLineWidth(0.8)
    canvas.line(start, y, x + width, y)
    for r, row in enumerate(cells):
        y -= 11
        at = x
        for c, text in enumerate(row):
            canvas.setFont("Times-Roman", 9)
            canvas.drawString(at + 3, y, text)
            at += widths[c]
        if r == 0:
            y -= 4
            canvas.setLineWidth(0.4)
            canvas.line(start, y, x + width, y)
    y -= 4
    canvas.setLineWidth(0.8)
    canvas.line(start, y, x + width, y)
    return y


def test_a_booktabs_table_keeps_to_its_column_beside_the_other_columns_prose() -> None:
    def draw(canvas: Any) -> None:
        y = _column_text(canvas, LEFT, 760, PROSE)
        canvas.setFont("Times-Roman", 9)
        canvas.drawString(LEFT, y, "Table 1: F1 on the test sets.")
        _booktabs(canvas, LEFT + 10, y - 6, [90, 65, 65], CELLS)
        _column_text(canvas, LEFT + COLUMN + GUTTER, 760, " ".join([PROSE] * 2))

    markdown = markdown_of(drawn_pdf(draw))
    assert markdown_table(CELLS) in markdown, markdown


def test_a_booktabs_table_across_the_page_ends_at_its_bottom_rule() -> None:
    wide = [[*row, row[1]] for row in CELLS]
    wide[0][-1] = "SciPages"

    def draw(canvas: Any) -> None:
        y = _booktabs(canvas, 120, 760, [110, 80, 80, 80], wide) - 20
        _column_text(canvas, LEFT, y, " ".join([PROSE] * 2), size=10.5)
        _entries(canvas, LEFT + COLUMN + GUTTER, y, REFERENCES * 2, COLUMN)

    markdown = markdown_of(drawn_pdf(draw))
    assert markdown_table(wide) in markdown, markdown


@pytest.mark.parametrize("stub", ["Method", ""])
@pytest.mark.parametrize("place", ["column", "page", "across", "ragged"])
def test_a_booktabs_tables_row_labels_left_of_its_rules_stay_in_the_table(place: str, stub: str) -> None:
    # (Its rules span the figure columns only: the labels left of them, level with its rows,
    # are its first column, with the stub's heading or none; not the other column's prose,
    # justified or ragged, beside it.)
    cells = [[stub, *CELLS[0][1:]], *CELLS[1:]]
    if place == "across":
        cells = [[*row, row[1]] for row in cells]
        cells[0][-1] = "SciPages"

    def draw(canvas: Any) -> None:
        if place == "column":
            y = _column_text(canvas, LEFT, 760, PROSE)
            _booktabs(canvas, LEFT + 10, y - 6, [90, 65, 65], cells, unruled=1)
            _column_text(canvas, LEFT + COLUMN + GUTTER, 760, " ".join([PROSE] * 2))
        elif place == "ragged":
            right = LEFT + COLUMN + GUTTER
            y = _column_text(canvas, right, 760, PROSE)
            _booktabs(canvas, right + 10, y - 6, [90, 65, 65], cells, unruled=1)
            canvas.setFont("Times-Roman", 9.5)
            for k, line in enumerate(wrapped_lines(" ".join([PROSE] * 2), COLUMN - 30, "Times-Roman", 9.5)):
                canvas.drawString(LEFT, 760 - 11.4 * k, line)
        elif place == "page":
            y = _column_text(canvas, 72, 760, PROSE, width=450)
            _booktabs(canvas, 100, y - 10, [120, 80, 80], cells, unruled=1)
        else:
            y = _booktabs(canvas, 120, 760, [110, 80, 80, 80], cells, unruled=1) - 20
            _column_text(canvas, LEFT, y, " ".join([PROSE] * 2), size=10.5)
            _entries(canvas, LEFT + COLUMN + GUTTER, y, REFERENCES * 2, COLUMN)

    markdown = markdown_of(drawn_pdf(draw))
    assert markdown_table(cells) in markdown, markdown


LINE = "networks. In Proceedings of the International Conference on"
FONTS = "/usr/share/fonts/truetype"


def test_a_small_line_beside_a_heading_in_the_other_column_stays_whole() -> None:
    # (The line's words, set in its text face and a formula's, have boxes a fraction of a
    # point apart: some of them fell within the heading's row, the rest made a row of their own.)
    pdfmetrics.registerFont(TTFont("PaperSerif", f"{FONTS}/liberation/LiberationSerif-Regular.ttf"))
    pdfmetrics.registerFont(TTFont("PaperMath", f"{FONTS}/dejavu/DejaVuMathTeXGyre.ttf"))

    def draw(canvas: Any) -> None:
        canvas.setFont("PaperSerif", 10)
        for k in range(6):
            canvas.drawString(72, 700 - 12 * k, "The encoder reads each line with its font size and weight.")
            canvas.drawString(320, 700 - 12 * k, "Results are averaged over five runs with different seeds.")
        canvas.setFont("Helvetica-Bold", 11)
        canvas.drawString(72, 600, "4.2 Results")
        text = canvas.beginText(320, 596.45)  # (a baseline 3.55 points under the heading's)
        for k, word in enumerate(LINE.split()):
            text.setFont("PaperSerif" if k % 2 else "PaperMath", 8.5)
            text.textOut(word + " ")
        canvas.drawText(text)
        canvas.setFont("PaperSerif", 10)
        for k in range(1, 6):
            canvas.drawString(72, 600 - 14 * k, "Errors concentrate on tables without ruling lines here.")
            canvas.drawString(320, 596.45 - 11 * k, "Documents published as PDF keep their text but lose it.")

    markdown = markdown_of(drawn_pdf(draw))
    assert LINE in markdown.splitlines(), markdown
    assert "4.2 Results" in headings_of(drawn_pdf(draw))


AFFILIATIONS = ["Department of Computer Science, University of Northfield, Northfield, UK",
                "Institute for Data Systems, Eastbridge University, Eastbridge, Canada",
                "jsmith@northfield.ac.uk, akhan@eastbridge.ca, lwei@northfield.ac.uk"]


def _centred(canvas: Any, y: float, text: str, font: str = "Times-Roman", size: float = 9.5) -> None:
    canvas.setFont(font, size)
    canvas.drawCentredString((LEFT + RIGHT) / 2, y, text)


def _first_page(canvas: Any, blocks: bool = False) -> None:
    """A paper's first page: the title, authors, affiliations and e-mail addresses centred over
    two short columns (or three authors side by side, each over an affiliation and address,
    centred in a third of the page each), the right one's heading set a little higher than the
    left one's."""
    _centred(canvas, 790, "Reading Order Recovery for Multi-Column Documents", "Times-Bold", 15)
    if blocks:
        third = (RIGHT - LEFT) / 3
        authors = (("Jane Smith", "University of Northfield"), ("Amir Khan", "Eastbridge University"),
                   ("Li Wei", "Harbour Labs"))
        for b, (name, place) in enumerate(authors):
            for k, (text, size) in enumerate(((name, 11), (place, 9.5), ("Northfield, UK", 9.5),
                                              (f"{name.split()[0].lower()}@example.org", 9.5))):
                canvas.setFont("Times-Roman", size)
                canvas.drawCentredString(LEFT + third * (b + 0.5), 770 - 11.4 * k, text)
    else:
        _centred(canvas, 770, "Jane Smith, Amir Khan and Li Wei", size=11)
        for k, line in enumerate(AFFILIATIONS):
            _centred(canvas, 756 - 11.4 * k, line)
    _centred(canvas, 712, "Abstract", "Times-Bold", 11)
    canvas.setFont("Times-Bold", 11)
    canvas.drawString(LEFT, 690, "1 Introduction")
    canvas.drawString(LEFT + COLUMN + GUTTER, 694, "3 Method")
    _column_text(canvas, LEFT, 676, PROSE, lines=6)
    canvas.setFont("Times-Bold", 11)
    canvas.drawString(LEFT, 600, "2 Related Work")
    _column_text(canvas, LEFT, 586, PROSE, lines=6)
    _column_text(canvas, LEFT + COLUMN + GUTTER, 680, " ".join([PROSE] * 3), lines=14)


def test_a_title_blocks_centred_lines_short_of_the_page_are_a_paragraph_each() -> None:
    lines = markdown_of(drawn_pdf(_first_page)).splitlines()
    assert all(line in lines for line in AFFILIATIONS), lines


def centred_over_prose(quote: list[str]) -> bytes:
    """A page of ``quote``'s lines centred in 9.5-point Times over a paragraph at the margins."""
    def draw(canvas: Any) -> None:
        for k, line in enumerate(quote):
            canvas.setFont("Times-Roman", 9.5)
            canvas.drawCentredString(WIDTH / 2, 760 - 11.4 * k, line)
        _column_text(canvas, 72, 700, " ".join([PROSE] * 2), width=WIDTH - 144)

    return drawn_pdf(draw)


def test_a_centred_paragraph_wrapped_at_its_measure_stays_one() -> None:
    quote = wrapped_lines(PROSE, 300, "Times-Roman", 9.5)[:3]
    assert " ".join(quote) in markdown_of(centred_over_prose(quote)).splitlines()


@pytest.mark.parametrize("blocks", [False, True])
def test_a_title_blocks_centred_lines_over_short_columns_leave_the_gutter_seen(blocks: bool) -> None:
    assert headings_of(drawn_pdf(_first_page, blocks)) == [
        "Reading Order Recovery for Multi-Column Documents", "Abstract", "1 Introduction", "2 Related Work",
        "3 Method"]


def test_two_booktabs_tables_of_one_width_one_over_the_other_are_read_once_each() -> None:
    # (Their six rules are of one extent: the frame holds both and the paragraph between; the
    # lower table, with words above its first row in the frame, is read again there.)
    second = [CELLS[0], *([row[0], row[2], row[1]] for row in CELLS[1:])]

    def draw(canvas: Any) -> None:
        y = _booktabs(canvas, 120, 760, [110, 90, 90], CELLS) - 24
        canvas.setFont("Times-Roman", 10)
        canvas.drawString(120, y, "The second table gives the same results in the other order.")
        _booktabs(canvas, 120, y - 24, [110, 90, 90], second)

    markdown = markdown_of(drawn_pdf(draw))
    assert [markdown.count(markdown_table(cells)) for cells in (CELLS, second)] == [1, 1], markdown


def test_a_total_row_under_the_last_rule_stays_in_the_table() -> None:
    # (A sheet's rules over the header, under it and over the total, none under the total: one
    # row under the frame's last rule goes on the table; two or more are lines read into it.)
    cells = [["Region", "2022", "2023"], ["North", "6,410", "6,696"], ["South", "2,425", "2,826"],
             ["East", "1,087", "1,003"], ["Total", "9,922", "10,525"]]

    def draw(canvas: Any) -> None:
        _column_text(canvas, 72, 780, PROSE, width=WIDTH - 144)
        y = 720
        canvas.setLineWidth(0.8)
        canvas.line(72, y, 372, y)
        for r, row in enumerate(cells):
            if r == len(cells) - 1:
                y -= 4
                canvas.line(72, y, 372, y)
            y -= 12
            for c, text in enumerate(row):
                canvas.setFont("Helvetica", 9)
                canvas.drawString(75 + 100 * c, y, text)
            if r == 0:
                y -= 4
                canvas.line(72, y, 372, y)
        _column_text(canvas, 72, y - 30, PROSE, width=WIDTH - 144)

    markdown = markdown_of(drawn_pdf(draw))
    assert markdown_table(cells) in markdown, markdown


def test_notes_under_a_booktabs_table_loose_for_its_header_stay_in_the_table() -> None:
    # (A report's table: group labels over short rules under the frame's top rule, more header
    # lines than a header is read with, so the table found leaves the group labels out and is
    # read again in its frame; the notes keyed to it under the last rule went out with the
    # reading, and beside them, in the body's size, the page's running head read as a heading.)
    columns = [75, 160, 200, 260, 340, 380, 440]
    header = [["", "", "", "Weight", "", "", "Weight"], ["", "", "", "Relative", "", "", "Relative"],
              ["", "", "", "to Controls", "", "", "to Controls"],
              ["Concentration", "", "Body", "(%)", "", "Body", "(%)"],
              ["(ppm)", "No.", "Weight (g)", "", "No.", "Weight (g)", ""]]
    rows = [["0", "39", "5.8", "", "10", "8.8", ""], ["250", "30", "5.9", "102", "10", "9.0", "102"],
            ["500", "33", "6.0", "103", "10", "8.6", "98"],
            ["1,000", "31", "5.3**", "91", "10", "7.5**", "85"]]
    notes = [("*", "Significantly different (P<0.05) from the control group by Dunnett's test"),
             ("**", "P<0.01"), ("a", "Weights are given as group means."),
             ("b", "Number of animals weighed on postnatal day 1"),
             ("c", "Number of animals weighed on postnatal day 7")]

    def draw(canvas: Any) -> None:
        canvas.setFont("Times-Roman", 11)
        canvas.drawString(72, 750, "42")
        canvas.drawRightString(540, 750, "Styrene Trimer, Report 573")
        canvas.drawString(72, 712, "TABLE 6 Mean Body Weights of Pups in the Feed Study")
        canvas.setLineWidth(0.8)
        canvas.line(72, 700, 540, 700)
        canvas.setFont("Times-Roman", 9)
        canvas.drawCentredString(230, 690, "Postnatal Day 1")
        canvas.drawCentredString(410, 690, "Postnatal Day 7")
        canvas.setLineWidth(0.4)
        canvas.line(150, 686, 310, 686)
        canvas.line(330, 686, 490, 686)
        y = 686
        for line in [*header, ["Male"], *rows]:
            y -= 16 if line == ["Male"] else 10
            for x, text in zip(columns, line, strict=False):
                canvas.drawString(x, y, text)
            if line is header[-1]:
                canvas.setLineWidth(0.8)
                canvas.line(72, y - 4, 540, y - 4)
        y -= 5
        canvas.line(72, y, 540, y)
        canvas.setFont("Times-Roman", 8)
        for k, (mark, note) in enumerate(notes):
            canvas.drawString(72, y - 10 - 9 * k, mark)
            canvas.drawString(84, y - 10 - 9 * k, note)

    pdf = drawn_pdf(draw)
    rows_read = [line for line in markdown_of(pdf).splitlines() if line.startswith("|")]
    assert any(notes[3][1] in row for row in rows_read), rows_read
    assert headings_of(pdf) == []


def test_a_frame_holding_a_table_found_whole_is_not_read_again_for_another() -> None:
    # Rules of one width set through a page of several tables (a statistical report's) make
    # one frame over them all: the table under the first, with the first's words above it,
    # looked loose in it, and reading the whole frame again joined the tables or read one twice.
    from dataclasses import dataclass

    from extractors.pdf_table_frames import RuleFrame, within_frames
    from extractors.pdf_words import Word

    @dataclass(frozen=True)
    class Box:
        x0: float
        top: float
        x1: float
        bottom: float

    frame = RuleFrame(45, 100, 580, 530)
    whole, under = Box(45, 104, 557, 254), Box(45, 333, 577, 526)
    words = [Word("Total", 50, 120, 80, 130, 9, False), Word("2024", 300, 340, 330, 350, 9, False)]
    calls: list[int] = []

    def find(inside: list[Word]) -> list[Box]:
        calls.append(len(inside))
        return [Box(45, 104, 577, 526)]

    assert within_frames([whole, under], words, [frame], find) == [whole, under]
    assert calls == []
    # (Alone in its frame, the table loose for its header left out is read again.)
    assert within_frames([under], words, [frame], find) == [Box(45, 104, 577, 526)]


@pytest.mark.parametrize("beside", [600, 780])
def test_two_booktabs_tables_of_one_width_in_one_column_are_read_each_in_its_rules(beside: float) -> None:
    # (Their six rules make one frame. With the other column's prose beside the second only
    # (600), the first is found whole and the frame is its: the second, beside the prose, was
    # lost, and the rules under the first now frame it. With the prose beside both (780), the
    # second, reaching into the prose, is read again in the frame, where the first, which
    # alignment did not find, was read too and dropped.)
    second = [CELLS[0], *([row[0], row[2], row[1]] for row in CELLS[1:])]

    def draw(canvas: Any) -> None:
        y = _column_text(canvas, LEFT, 780, PROSE)
        canvas.setFont("Times-Roman", 9)
        canvas.drawString(LEFT, y, "Table 1: F1 on the test sets.")
        y = _booktabs(canvas, LEFT + 10, y - 6, [90, 65, 65], CELLS) - 16
        y = _column_text(canvas, LEFT, y, PROSE)
        canvas.setFont("Times-Roman", 9)
        canvas.drawString(LEFT, y, "Table 2: F1 on the test sets, in the other order.")
        y = _booktabs(canvas, LEFT + 10, y - 6, [90, 65, 65], second) - 16
        _column_text(canvas, LEFT, y, PROSE)
        _column_text(canvas, LEFT + COLUMN + GUTTER, beside, " ".join([PROSE] * 4))

    markdown = markdown_of(drawn_pdf(draw))
    assert [markdown.count(markdown_table(cells)) for cells in (CELLS, second)] == [1, 1], markdown


@pytest.mark.parametrize(("over", "under"), [(10, 20), (40, 14), (10, 14)])
def test_a_booktabs_table_across_two_columns_is_cut_from_the_prose_over_and_under_it(over: float,
                                                                                       under: float) -> None:
    # (A table set across a two-column page, narrower than the page and centred on the gutter,
    # its caption's lines over it: the columns' lines over the caption (``over`` points above
    # it) and under the last rule (``under`` points) are each two runs, and ran into one
    # candidate with the table; read across the gutter it was no table, or split into each
    # column's halves. The rules crossing the gutter say where the table starts and ends.)
    wide = [[*row, row[1]] for row in CELLS]
    wide[0][-1] = "SciPages"

    def draw(canvas: Any) -> None:
        _column_text(canvas, LEFT, 780, " ".join([PROSE] * 2))
        y = _column_text(canvas, LEFT + COLUMN + GUTTER, 780, " ".join([PROSE] * 2)) - over
        _centred(canvas, y, "TABLE I", size=9)
        _centred(canvas, y - 11, "F1 (%) on the test sets", size=9)
        y = _booktabs(canvas, 150, y - 18, [90, 65, 65, 65], wide) - under
        _column_text(canvas, LEFT, y, " ".join([PROSE] * 2))
        _column_text(canvas, LEFT + COLUMN + GUTTER, y, " ".join([PROSE] * 2))

    markdown = markdown_of(drawn_pdf(draw))
    assert markdown_table(wide) in markdown, markdown
    assert all(line in markdown.splitlines() for line in ("TABLE I", "F1 (%) on the test sets")), markdown


def _last_references_beside_a_full_column(canvas: Any) -> None:
    """Two pages: the first in two full columns; on the second the last two references at the
    head of the second column beside a full first column of prose."""
    for column in (0, 1):
        y = 790.0
        for turn in range(4):
            y = _column_text(canvas, LEFT + column * (COLUMN + GUTTER), y, PROSE[turn * 20:] + " " + PROSE)
    canvas.showPage()
    y = 790.0
    for turn in range(4):
        y = _column_text(canvas, LEFT, y, PROSE[turn * 30:] + " " + PROSE)
    _entries(canvas, LEFT + COLUMN + GUTTER, 790.0, REFERENCES[1:], COLUMN)


def test_a_page_of_a_few_lines_beside_a_full_column_takes_the_gutter_of_the_other_pages() -> None:
    """The second page's second column holds too little to prove its gutter, but the first page
    proves it and no line of the second crosses it: the references are read whole after the
    first column, not a line of each column in turn."""
    lines = markdown_of(drawn_pdf(_last_references_beside_a_full_column)).splitlines()
    assert all(entry in lines for entry in REFERENCES[1:]), lines
