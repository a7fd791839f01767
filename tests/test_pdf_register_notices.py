"""Official-register notices (office probe register_notice, issue 32): narrow justified columns a
fifth of an inch apart, so a line of long words stretches its spaces as wide as the gutter.
The gutter is told by both of its sides being flush (every full line of the left column ends
at one x, every line of the right one starts at one x); the rows are grouped and the tables
found column by column; a justified column's line ending short ends its paragraph (the
notice's department, agency and docket lines), but for a word alone that the next would not
fit beside; a notice's head block under the last notice's columns starts the next band; a
long bold title in title case is a heading; a run-in label alone on its line does not make
the "I." section under it a form's field; titles, "I." sections and "A." sub-sections set
alike nest by their numbering."""

from __future__ import annotations

from typing import Any

from reportlab.pdfbase.pdfmetrics import stringWidth

from extractors.pdf_justified_gutters import justified_gutters
from extractors.pdf_structure import _reading_order, build_lines
from extractors.pdf_tables import find_tables
from extractors.pdf_words import PageLayout, Word, read_layouts
from tests.pdf_output import drawn_pdf, markdown_of

SIZE = 9.0
ROMAN, BOLD, BOLD_ITALIC = "Times-Roman", "Times-Bold", "Times-BoldItalic"
LEFT, GUTTER, WIDTH = 43.0, 14.0, 160.0
PROSE = ("The agency has reviewed the information collection and finds that it is consistent with "
         "the applicable requirements. Interested persons are invited to submit written comments on "
         "the collection within the comment period. The estimated burden includes the time for "
         "reviewing instructions, gathering the data needed and completing the form.")


def _column_x(column: int, width: float = WIDTH) -> float:
    return LEFT + column * (width + GUTTER)


def _lines(runs: list[tuple[str, str]], width: float) -> list[list[tuple[str, str]]]:
    """Words (each with its font) broken into lines of at most ``width`` points."""
    out: list[list[tuple[str, str]]] = [[]]
    used = 0.0
    for text, font in runs:
        for word in text.split():
            wide = stringWidth(word, font, SIZE)
            space = stringWidth(" ", font, SIZE)
            if out[-1] and used + space + wide > width:
                out.append([])
                used = 0.0
            used += (space if out[-1] else 0.0) + wide
            out[-1].append((word, font))
    return out


def _paragraph(canvas: Any, column: int, y: float, runs: list[tuple[str, str]], justified: bool = True,
               width: float = WIDTH) -> float:
    """A paragraph in a column from ``y`` (the first baseline less the leading) down, its lines
    justified but the last; the baseline it ends at."""
    x0 = _column_x(column, width)
    lines = _lines(runs, width)
    for at, line in enumerate(lines):
        y -= SIZE * 1.2
        widths = [stringWidth(word, font, SIZE) for word, font in line]
        last = at == len(lines) - 1
        if justified and not last and len(line) > 1:
            gap = (width - sum(widths)) / (len(line) - 1)
        else:
            gap = stringWidth(" ", ROMAN, SIZE)
        x = x0
        for (word, font), wide in zip(line, widths, strict=True):
            canvas.setFont(font, SIZE)
            canvas.drawString(x, y, word)
            x += wide + gap
    return y


def _prose(canvas: Any, column: int, y: float, count: int = 2, width: float = WIDTH) -> float:
    for _ in range(count):
        y = _paragraph(canvas, column, y, [(PROSE, ROMAN)], width=width)
    return y


def _word(text: str, x0: float, top: float, bold: bool = False, tall: float = 9.0) -> Word:
    return Word(text, x0, top, x0 + 4.5 * len(text), top + tall, SIZE, bold)


def _justified_rows(count: int, gap: float) -> list[Word]:
    """Two columns of justified rows: the left one's lines end at 200, the right one's start
    ``gap`` points after it, their spaces stretched wider than the gutter."""
    words: list[Word] = []
    for row in range(count):
        texts = ("alpha", "beta", "gamma", "delta", "epsilon"[: 3 + row % 4])
        words += _justified_line(texts, (43.0, 200.0, 200.0 + gap, 369.0), 100.0 + 12 * row)
    return words


def _justified_line(texts: tuple[str, ...], edges: tuple[float, ...], top: float) -> list[Word]:
    """Each column's line (between each pair of ``edges``) of ``texts`` set justified, the words
    of every column shifted by one more, so that no two columns' spaces line up."""
    words: list[Word] = []
    for column in range(len(edges) // 2):
        x0, x1 = edges[2 * column], edges[2 * column + 1]
        line = [text for text in texts[column:] + texts[:column] if text]
        widths = [4.5 * len(text) for text in line]
        gap = (x1 - x0 - sum(widths)) / (len(line) - 1)
        x = x0
        for text, wide in zip(line, widths, strict=True):
            words.append(Word(text, x, top, x + wide, top + 9, SIZE, False))
            x += wide + gap
    return words


def test_a_gutter_between_justified_columns_is_found_from_their_flush_edges() -> None:
    words = _justified_rows(8, 12.0)
    rows: dict[float, list[Word]] = {}
    for word in words:
        rows.setdefault(word.top, []).append(word)
    found = justified_gutters([sorted(row, key=lambda w: w.x0) for row in rows.values()])
    assert len(found) == 1 and abs(found[0][0] - 200.0) < 0.1 and abs(found[0][1] - 212.0) < 0.1
    # Ragged on the left: no edge there, no gutter.
    ragged = [w if w.x1 < 199 or w.x0 > 201 else _word(w.text, w.x0 - 3 * (int(w.top) // 12 % 4), w.top)
              for w in words]
    rows = {}
    for word in ragged:
        rows.setdefault(word.top, []).append(word)
    assert justified_gutters([sorted(row, key=lambda w: w.x0) for row in rows.values()]) == []


def test_a_tables_figures_set_right_beside_figures_set_left_make_no_gutter() -> None:
    """Both sides of the gap between two columns of figures are flush too: no prose there."""
    rows = []
    for row in range(8):
        top = 100.0 + 12 * row
        figures = [f"{(row * 37 + k * 11) % 97:,}" for k in range(6)]
        left = [_word(text, 0, top) for text in figures[:3]]
        x1, placed = 200.0, []
        for word in reversed(left):  # (set right, a quad apart)
            placed.insert(0, _word(word.text, x1 - (word.x1 - word.x0), top))
            x1 = placed[0].x0 - 9.0
        x0 = 212.0
        for text in figures[3:]:
            placed.append(_word(text, x0, top))
            x0 = placed[-1].x1 + 9.0
        rows.append(placed)
    assert justified_gutters(rows) == []


def test_two_justified_columns_lines_on_one_baseline_are_cut_at_their_gutter() -> None:
    """The gutter no wider than the stretched spaces: without it a row read as one line."""
    lines = build_lines(_justified_rows(8, 12.0), 1)
    assert [line.text for line in lines[:2]] == ["alpha beta gamma delta eps", "beta gamma delta eps alpha"]


# Three rows of a LibreOffice register page (Liberation Serif, 9 points, three columns): the
# title's last line and "AGENCY:" in the first column (Bold's boxes reach three points higher
# than Regular's), two lines of the second column, a section's heading in the third.
_AGENCY_ROWS = [
    ("Rock", 43.3, 113.2, 63.3, 125.0, True), ("Field", 65.5, 113.2, 85.0, 125.0, True),
    ("Office", 87.2, 113.2, 110.7, 125.0, True), ("AGENCY:", 43.3, 127.1, 85.3, 138.9, True),
    ("Bureau", 91.4, 130.3, 117.4, 138.9, False), ("of", 123.5, 129.9, 131.0, 138.9, False),
    ("Land", 137.1, 130.0, 155.6, 138.9, False), ("Management", 161.8, 130.3, 208.6, 138.9, False),
    ("The", 232.3, 112.1, 246.3, 121.0, False), ("agency", 251.0, 112.4, 276.4, 121.0, False),
    ("has", 281.1, 112.1, 293.1, 121.0, False), ("reviewed", 297.9, 112.1, 330.8, 121.0, False),
    ("the", 335.5, 112.1, 346.5, 121.0, False), ("draft", 351.3, 112.0, 368.2, 121.0, False),
    ("plan", 373.0, 112.1, 388.4, 121.0, False), ("and", 223.3, 124.0, 236.3, 132.9, False),
    ("finds", 243.0, 123.9, 261.0, 132.9, False), ("that", 267.6, 124.0, 281.1, 132.9, False),
    ("it", 287.8, 124.2, 292.8, 132.9, False), ("is", 299.5, 124.2, 305.5, 132.9, False),
    ("consistent", 312.1, 124.2, 348.0, 132.9, False), ("with", 354.7, 124.0, 370.7, 132.9, False),
    ("the", 377.4, 124.0, 388.3, 132.9, False), ("regulations.", 403.3, 114.1, 445.5, 123.0, False),
    ("I.", 403.3, 129.1, 409.1, 140.9, True), ("Statutory", 411.3, 129.1, 447.8, 140.9, True),
    ("Authority", 450.0, 129.1, 488.0, 140.9, True),
]


def test_a_bold_labels_taller_box_joins_its_own_columns_row() -> None:
    """"AGENCY:"'s box, bold, reaches three points higher than its line's words: by its centre
    it went into the second column's row above it, its text a row of its own."""
    words = [Word(text, x0, top, x1, bottom, SIZE, bold) for text, x0, top, x1, bottom, bold in _AGENCY_ROWS]
    for row in range(8):  # (the columns' justified lines above: their edges flush)
        words += _justified_line(("the", "agency", "has", "reviewed", "it"[: 1 + row % 2], "and"[row % 3:]),
                                 (43.3, 208.7, 223.3, 388.4, 403.3, 568.8), 10.0 + 12 * row)
    texts = [line.text for line in build_lines(words, 1)]
    assert "AGENCY: Bureau of Land Management" in texts


def test_a_justified_columns_full_line_of_two_words_is_kept_whole() -> None:
    """"ENVIRONMENTAL    PROTECTION" spread over a narrow column is one line, not two."""
    words = _justified_rows(8, 12.0)
    top = 100.0 + 12 * 8
    first = _word("ENVIRONMENTAL", 43.0, top)
    second = _word("PROTECTION", 0, top)
    words += [first, _word("PROTECTION", 200.0 - (second.x1 - second.x0), top)]
    assert "ENVIRONMENTAL PROTECTION" in [line.text for line in build_lines(words, 1)]


# A LibreOffice register page's first two columns (Liberation Serif, 9 points): a labelled
# paragraph, "SUPPLEMENTARY INFORMATION:" and a section's first lines in the first, beside a
# notice's signature, filing and billing lines and the next notice's head in the second.
_SIGNATURE_ROWS = [
    ('FOR', 43.3, 363.2, 62.4, 375.0, True, 9), ('FURTHER', 80.1, 363.2, 124.1, 375.0, True, 9),
    ('INFORMATION', 141.8, 363.2, 208.8, 375.0, True, 9), ('CONTACT:', 43.3, 375.1, 91.3, 386.9, True, 9),
    ('Carlos', 95.8, 378.0, 119.3, 386.9, False, 9), ('Ruiz,', 123.8, 378.2, 143.1, 386.9, False, 9),
    ('Bureau', 147.6, 378.3, 173.5, 386.9, False, 9), ('of', 178.1, 377.9, 185.6, 386.9, False, 9),
    ('Land', 190.0, 378.0, 208.5, 386.9, False, 9), ('Management,', 43.3, 390.2, 92.4, 398.8, False, 9),
    ('telephone', 100.7, 389.9, 135.7, 398.8, False, 9), ('(202)', 144.0, 389.9, 163.5, 398.8, False, 9),
    ('555-0197;', 171.8, 390.1, 208.7, 398.8, False, 9), ('email', 43.3, 401.8, 63.3, 410.7, False, 9),
    ('info@blm.gov.', 65.4, 401.7, 120.3, 410.7, False, 9),
    ('SUPPLEMENTARY', 43.3, 412.8, 124.2, 424.6, True, 9),
    ('INFORMATION:', 126.4, 412.8, 196.4, 424.6, True, 9), ('I.', 43.3, 430.7, 49.1, 442.5, True, 9),
    ('Statutory', 51.3, 430.7, 87.8, 442.5, True, 9), ('Authority', 90.0, 430.7, 128.0, 442.5, True, 9),
    ('Interested', 52.3, 447.5, 87.7, 456.4, False, 9), ('persons', 92.9, 447.8, 120.3, 456.4, False, 9),
    ('are', 125.5, 447.8, 136.5, 456.4, False, 9), ('invited', 141.7, 447.5, 166.6, 456.4, False, 9),
    ('to', 171.8, 447.8, 178.8, 456.4, False, 9), ('submit', 184.0, 447.5, 208.5, 456.4, False, 9),
    ('written', 43.3, 459.6, 68.8, 468.3, False, 9), ('comments', 71.1, 459.7, 108.0, 468.3, False, 9),
    ('on', 110.4, 459.7, 119.4, 468.3, False, 9), ('the', 121.7, 459.4, 132.7, 468.3, False, 9),
    ('draft', 135.0, 459.3, 151.9, 468.3, False, 9), ('plan', 154.3, 459.4, 169.8, 468.3, False, 9),
    ('within', 172.1, 459.4, 195.1, 468.3, False, 9), ('the', 197.5, 459.4, 208.4, 468.3, False, 9),
    ('form.', 223.3, 358.0, 243.0, 367.0, False, 9), ('Issued', 232.3, 370.0, 255.3, 378.9, False, 9),
    ('in', 261.8, 370.2, 268.8, 378.9, False, 9), ('Silver', 275.2, 370.0, 296.7, 378.9, False, 9),
    ('Spring,', 303.2, 370.2, 329.4, 378.9, False, 9), ('Maryland,', 335.9, 370.0, 373.1, 378.9, False, 9),
    ('on', 379.6, 370.3, 388.6, 378.9, False, 9), ('February', 223.3, 381.9, 255.8, 390.8, False, 9),
    ('10,', 258.0, 382.1, 269.2, 390.8, False, 9), ('2026.', 271.5, 382.1, 291.7, 390.8, False, 9),
    ('Robert', 341.0, 393.8, 365.5, 402.7, False, 9), ('Chen,', 367.7, 393.8, 388.9, 402.7, False, 9),
    ('Manager,', 223.3, 406.0, 257.5, 414.6, False, 9), ('Airports', 259.8, 405.9, 289.7, 414.6, False, 9),
    ('Division.', 291.9, 405.9, 325.2, 414.6, False, 9), ('[FR', 223.3, 420.3, 235.7, 428.3, False, 8),
    ('Doc.', 237.7, 420.6, 253.1, 428.3, False, 8), ('2026-08174', 255.1, 420.6, 293.7, 428.3, False, 8),
    ('Filed', 295.7, 420.3, 312.2, 428.3, False, 8), ('3-8-26;', 314.2, 420.6, 337.7, 428.3, False, 8),
    ('8:45', 339.7, 420.6, 354.0, 428.3, False, 8), ('am]', 356.0, 420.3, 368.3, 428.3, False, 8),
    ('BILLING', 223.3, 434.2, 255.3, 441.9, False, 8), ('CODE', 257.3, 434.2, 278.9, 441.9, False, 8),
    ('4331-27-P', 280.9, 434.2, 314.8, 441.9, False, 8),
    ('ENVIRONMENTAL', 223.3, 444.9, 301.2, 453.6, False, 9),
    ('PROTECTION', 332.8, 444.9, 388.8, 453.6, False, 9), ('AGENCY', 223.3, 456.8, 260.8, 465.5, False, 9),
    ('[Docket', 223.3, 468.5, 252.3, 477.4, False, 9), ('No.', 254.5, 468.8, 267.7, 477.4, False, 9),
    ('EPA-HQ-OAR-2026-9158]', 269.9, 468.5, 369.9, 477.4, False, 9),

]


def test_two_justified_columns_short_lines_side_by_side_are_no_table() -> None:
    """Read across, the two columns' lines made a table of two columns: the page's text set in
    justified columns, each column's tables are looked for apart."""
    words = [Word(text, x0, top, x1, bottom, size, bold)
             for text, x0, top, x1, bottom, bold, size in _SIGNATURE_ROWS]
    for row in range(8):  # (the columns' justified lines above: their edges flush)
        words += _justified_line(("the", "agency", "has", "reviewed", "it"[: 1 + row % 2], "and"[row % 3:]),
                                 (43.3, 208.8, 223.3, 388.4), 200.0 + 12 * row)
    assert find_tables(PageLayout(1, 612, 792, words=words)) == []


def _head_lines(canvas: Any) -> None:
    y = 800.0
    for text in ("DEPARTMENT OF THE INTERIOR", "Bureau of Land Management", "[Docket No. BLM-2026-2301]"):
        y -= SIZE * 1.2
        canvas.setFont(ROMAN, SIZE)
        canvas.drawString(_column_x(0), y, text)
    y = _prose(canvas, 0, y - 4, 3)
    _prose(canvas, 1, 800.0, 4)


def test_a_justified_columns_short_lines_are_paragraphs_of_their_own() -> None:
    paragraphs = markdown_of(drawn_pdf(_head_lines)).split("\n\n")
    assert paragraphs[:3] == ["DEPARTMENT OF THE INTERIOR", "Bureau of Land Management",
                              "[Docket No. BLM-2026-2301]"]


RAGGED = ("The review covered the budget and the staff plan. Network delivery confirmed the risk "
          "response within the supply chain and the account. Investment advice for the sales. "
          "Account usage tracked the basis of performance through the year and the plan.")


def _ragged(canvas: Any, column: int, y: float) -> float:
    """A paragraph set ragged in a column: its lines end where their words do."""
    for line in _lines([(RAGGED, ROMAN)], WIDTH):
        y -= SIZE * 1.2
        canvas.setFont(ROMAN, SIZE)
        canvas.drawString(_column_x(column), y, " ".join(word for word, _ in line))
    return y


def _ragged_beside_justified(canvas: Any) -> None:
    _prose(canvas, 0, 800.0, 4)
    y = 800.0
    for _ in range(3):
        y = _ragged(canvas, 1, y) - 4


def _ragged_among_justified(canvas: Any) -> None:
    y = _prose(canvas, 0, 800.0, 2)
    y = _ragged(canvas, 0, y - 4)
    _prose(canvas, 0, y - 4, 2)
    _prose(canvas, 1, 800.0, 5)


def test_a_ragged_paragraph_beside_or_among_justified_ones_keeps_its_lines() -> None:
    """A line of a ragged paragraph ends a sentence short of the edge ("... for the sales."):
    no paragraph's end there, in a column of its own beside justified ones or between
    justified paragraphs."""
    whole = " ".join(RAGGED.split())
    for draw in (_ragged_beside_justified, _ragged_among_justified):
        assert whole in markdown_of(drawn_pdf(draw)).split("\n\n"), draw.__name__


def _crowded_label(canvas: Any) -> None:
    width = 130.0  # ("SUPPLEMENTARY INFORMATION:" does not fit: its first word stands alone)
    y = _prose(canvas, 0, 800.0, 2, width)
    y = _paragraph(canvas, 0, y - 3, [("SUPPLEMENTARY INFORMATION:", BOLD),
                                      ("The agency publishes this notice under its regulations.", ROMAN)],
                   width=width)
    _prose(canvas, 0, y - 3, 2, width)
    _prose(canvas, 1, 800.0, 5, width)


def test_a_label_word_crowded_onto_its_own_line_goes_on_with_its_paragraph() -> None:
    """In a narrow column "SUPPLEMENTARY" stands alone, "INFORMATION:" would not fit beside it."""
    assert any(paragraph.startswith("SUPPLEMENTARY INFORMATION: The agency publishes this notice")
               for paragraph in markdown_of(drawn_pdf(_crowded_label)).split("\n\n"))


def _next_notice(canvas: Any, agency: str = "National Oceanic and Atmospheric") -> None:
    y0 = 800.0
    left = _prose(canvas, 0, y0, 3)
    _prose(canvas, 1, y0, 2)
    y = left
    for text in ("DEPARTMENT OF COMMERCE", agency, "[Docket No. NOAA-2026-4077]"):
        y -= SIZE * 1.2
        canvas.setFont(ROMAN, SIZE)
        canvas.drawString(_column_x(0), y, text)
    y -= SIZE * 1.2 + 6
    canvas.setFont(BOLD, SIZE + 2)
    canvas.drawString(_column_x(0), y, "Request for Nominations to the Science Advisory Committee")
    for column in (0, 1):
        _prose(canvas, column, y - 4, 2)


def test_a_notices_head_block_under_the_last_notices_columns_starts_the_next_band() -> None:
    """The head's lines stand in the first column's place, the second column ended above them:
    read after that column, just before the title, not between the two columns."""
    paragraphs = markdown_of(drawn_pdf(_next_notice)).split("\n\n")
    at = paragraphs.index("DEPARTMENT OF COMMERCE")
    assert paragraphs[at + 3].startswith("# Request for Nominations")
    # (after both columns' five paragraphs, the first column's last whole: its last line, "the
    # form.", was read as a band's first line and made a sixth, test_pdf_register_leftovers)
    assert paragraphs.index("DEPARTMENT OF COMMERCE") == 5


def _cover(canvas: Any) -> None:
    """A cover's masthead in the first column, a label in the second, a web address under the
    masthead, then the title across."""
    canvas.setFont(ROMAN, SIZE)
    for at, text in enumerate(("Published 2 April 2020", "Research Service", "Director Jane Smith")):
        canvas.drawString(_column_x(0), 800 - 12 * at, text)
    canvas.setFont(BOLD, SIZE + 3)
    canvas.drawString(_column_x(1), 800, "Issues and Points")
    canvas.setFont(ROMAN, SIZE)
    canvas.drawString(_column_x(0), 764, "www.example.org")
    canvas.setFont(BOLD, SIZE + 6)
    canvas.drawString(_column_x(0), 740, "Insurance Terms and the Pandemic: Issues")
    _prose(canvas, 0, 700.0, 3)
    _prose(canvas, 1, 700.0, 3)


def test_a_covers_line_under_its_masthead_starts_no_band() -> None:
    """Above the title only a few lines in each column: no notice's columns ended there, and
    the address is read under the masthead, before the label beside it."""
    paragraphs = markdown_of(drawn_pdf(_cover)).split("\n\n")
    at = next(i for i, p in enumerate(paragraphs) if "www.example.org" in p)
    assert at < next(i for i, p in enumerate(paragraphs) if "Issues and Points" in p)


def _titled_notice(canvas: Any, title: str, sections: list[str], label: bool = False) -> None:
    y = _paragraph(canvas, 0, 800.0, [(title, BOLD)], justified=False)
    y = _prose(canvas, 0, y - 3, 1)
    if label:
        y = _paragraph(canvas, 0, y - 3, [("SUPPLEMENTARY INFORMATION:", BOLD)])
    for section in sections:
        font = BOLD_ITALIC if section.startswith(("A.", "B.")) else BOLD
        y = _paragraph(canvas, 0, y - 6, [(section, font)], justified=False)
        y = _prose(canvas, 0, y - 2, 1)
    _prose(canvas, 1, 800.0, 6)


def test_a_long_bold_title_in_title_case_is_a_heading() -> None:
    title = "Notice of Intent To Rule on Request To Release Airport Property at Greenfield Airport"
    markdown = markdown_of(drawn_pdf(_titled_notice, title, ["I. Background", "II. Discussion"]))
    assert f"# {title}" in markdown.replace("##", "#")


def test_a_label_alone_over_a_roman_section_leaves_it_a_heading() -> None:
    """"SUPPLEMENTARY INFORMATION:" bold on its line right over "I. Background": no form's
    fields set alike one after the other."""
    markdown = markdown_of(drawn_pdf(_titled_notice, "Public Meeting of the Advisory Panel",
                                     ["I. Background", "II. Discussion"], label=True))
    assert "I. Background" in [line.lstrip("# ") for line in markdown.splitlines() if line.startswith("#")]


def test_titles_roman_sections_and_lettered_ones_set_alike_nest_by_their_numbering() -> None:
    def pages(canvas: Any) -> None:
        _titled_notice(canvas, "Public Meeting of the Advisory Panel",
                       ["I. Background", "A. Proposed Action", "B. Costs", "II. Discussion"])
        canvas.showPage()
        _titled_notice(canvas, "Request for Nominations", ["I. Background", "A. Schedule", "II. Discussion"])

    levels = {line.lstrip("# "): len(line) - len(line.lstrip("#"))
              for line in markdown_of(drawn_pdf(pages)).splitlines() if line.startswith("#")}
    assert levels["Public Meeting of the Advisory Panel"] < levels["I. Background"] < levels["A. Schedule"]
    assert levels["Request for Nominations"] == levels["Public Meeting of the Advisory Panel"]


def _figures_across(canvas: Any) -> None:
    _prose(canvas, 0, 800.0, 3)
    _prose(canvas, 1, 800.0, 3)
    canvas.setFont(ROMAN, SIZE)
    header = ("Model", "NQ", "TriviaQA", "WQ", "TREC", "SQuAD")
    for column, text in enumerate(header):
        canvas.drawRightString(_column_x(0) + 60 + 55 * column, 560.0, text)
    for row in range(8):
        figures = (f"{(row * 7 + column * 13) % 60 + 20.5:.1f}" for column in range(5))
        cells = (f"Retriever {row + 1}", *figures)
        for column, text in enumerate(cells):
            canvas.drawRightString(_column_x(0) + 60 + 55 * column, 545.0 - 12 * row, text)


def test_a_table_of_figures_across_justified_columns_stays_whole() -> None:
    layout = read_layouts(drawn_pdf(_figures_across))[0]
    assert [len(table.cells[0]) for table in find_tables(layout)] == [6]


def _titles_beside_a_subheading(canvas: Any) -> None:
    """Three columns: a notice's title wrapped over lines of its own in the first and in the
    third, and between them a section's italic subheading level with the titles' last lines."""
    top = 640.0
    for column in (0, 1, 2):
        _prose(canvas, column, top + 110.0, 1)
    canvas.setFont(BOLD, SIZE + 2)
    for column, title in ((0, ("Notice of Availability of the", "Draft Resource", "Management Plan for the",
                                "Red Rock Field Office")),
                          (2, ("Public Meeting of the", "Coastal Fisheries Advisory", "Panel"))):
        for at, text in enumerate(title):
            canvas.drawString(_column_x(column), top - 13.0 * at, text)
    canvas.setFont("Times-Italic", SIZE)
    canvas.drawString(_column_x(1), top - 26.0, "A. Comments Received")
    for column, y in ((0, top - 46.0), (1, top - 30.0), (2, top - 32.0)):
        _prose(canvas, column, y, 2)


def test_a_subheading_level_with_titles_wrapped_in_the_other_columns_is_no_table_row() -> None:
    """The titles' lines beside the subheading are short, but each a line of a title of three
    lines or more: running text of its column, no cell of a row the table finder left out."""
    headings = [line for line in markdown_of(drawn_pdf(_titles_beside_a_subheading)).splitlines()
                if line.startswith("#")]
    assert [h.lstrip("# ") for h in headings] == [
        "Notice of Availability of the Draft Resource Management Plan for the Red Rock Field Office",
        "A. Comments Received", "Public Meeting of the Coastal Fisheries Advisory Panel"]


def test_a_notices_head_line_over_the_gutter_keeps_its_docket_line_in_the_head() -> None:
    """The agency's name crosses the gutter and stops far short of the text's right edge: the
    docket number under it is the head's next line in its column, not read with the line across
    as its wrapped end (register_notice-05: the head was then read into the paragraph above)."""
    # (The agency's name on one line, reaching over the gutter.)
    [layout] = read_layouts(drawn_pdf(_next_notice, "National Oceanic and Atmospheric Administration"))
    runs = _reading_order(build_lines(layout.words, 1), [])
    [docket] = [run for run in runs if any(item.line is not None and item.line.text.startswith("[Docket")
                                           for item in run)]
    assert not any(item.line is not None and item.line.text.startswith("National") for item in docket)
