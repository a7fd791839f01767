"""What a patent sets that other documents rarely do, read as the offices mean it (office probe
patent_spec, 2026-12-06): a front page's fields after their INID codes ("(54)", "(72)
Inventors:", "(21) Appl. No.:") are paragraphs, not a list nor headings, a value wrapped under
itself or a tab after its label stays with it, and the fields' column is read before the
abstract's; a reference numeral wrapped to a line's start ("... the valve" over "108. The
controller") stays in its sentence; a claim whose number is set in a first-line indent keeps
its lines; a centred title wrapped over two lines and a centred section title under it are
headings; a paragraph's number at a column's head, recurring there on every page, is no
running header."""

from __future__ import annotations

from typing import Any

from reportlab.lib.pagesizes import A4

from extractors.pdf_structure import build_lines
from extractors.pdf_words import Word
from tests.pdf_output import drawn_pdf, headings_of, markdown_of, wrapped_lines

WIDTH, HEIGHT = A4
PROSE = ("The housing supports the sensor and the controller in the embodiment shown, and the valve "
         "closes when the pressure in the line drops below the threshold set by the operator.")


def _text(canvas: Any, x: float, y: float, text: str, size: float = 10, bold: bool = False) -> None:
    canvas.setFont("Times-Bold" if bold else "Times-Roman", size)
    canvas.drawString(x, y, text)


def _justified(canvas: Any, x: float, y: float, line: str, width: float) -> None:
    """A line set justified over ``width`` points: its spaces stretched."""
    canvas.setFont("Times-Roman", 10)
    words = line.split()
    gap = (width - sum(canvas.stringWidth(word, "Times-Roman", 10) for word in words)) / (len(words) - 1)
    for word in words:
        canvas.drawString(x, y, word)
        x += canvas.stringWidth(word, "Times-Roman", 10) + gap


def _fields(canvas: Any, codes: list[str]) -> None:
    """A front page's fields after their codes, values hanging under the label a tab on, the
    left column ragged; the abstract justified in the right column."""
    y = HEIGHT - 100
    values = {"(54)": ("", "HINGE ASSEMBLY FOR A FOLDING", "DISPLAY DEVICE"),
              "(72)": ("", "Inventors: Anna Müller, Munich (DE); Laura", "Rossi, Milan (IT)"),
              "(21)": ("Appl. No.:", "17/123,456", ""), "(22)": ("Filed:", "Mar. 3, 2022", ""),
              "(51)": ("Int. Cl.", "G06F 16/00 (2019.01)", ""), "(1)": ("", "Remove the cover.", ""),
              "(2)": ("", "Fit the filter.", ""), "(3)": ("", "Close the cover.", "")}
    for code in codes:
        label, value, more = values[code]
        _text(canvas, 60, y, code)
        if label:
            _text(canvas, 90, y, label)
        if code == "(72)":  # the label set plain, the names bold
            _text(canvas, 90, y, "Inventors:")
            _text(canvas, 90 + canvas.stringWidth("Inventors: ", "Times-Roman", 10), y, value[11:], bold=True)
        else:
            _text(canvas, 150 if label else 90, y, value, bold=code == "(54)")
        if more:
            y -= 12
            _text(canvas, 150 if label else 90, y, more, bold=code in ("(54)", "(72)"))
        y -= 16
    y = HEIGHT - 100
    for line in wrapped_lines(f"{PROSE} {PROSE}", 230, "Times-Roman", 10)[:-1]:  # every line full
        _justified(canvas, 310, y, line, 230)
        y -= 12


def test_inid_fields_are_paragraphs_read_column_by_column() -> None:
    markdown = markdown_of(drawn_pdf(_fields, ["(54)", "(72)", "(21)", "(22)", "(51)"]))
    assert headings_of(drawn_pdf(_fields, ["(54)", "(72)", "(21)", "(22)", "(51)"])) == []
    assert not [line for line in markdown.splitlines() if line.startswith(("- ", "#"))]
    paragraphs = [" ".join(p.split()) for p in markdown.split("\n\n")]
    assert paragraphs[:2] == ["(54) HINGE ASSEMBLY FOR A FOLDING DISPLAY DEVICE",
                              "(72) Inventors: Anna Müller, Munich (DE); Laura Rossi, Milan (IT)"]
    assert "(21) Appl. No.: 17/123,456" in paragraphs
    assert paragraphs.index("(51) Int. Cl.") < len(paragraphs) - 1  # the abstract's column after
    assert paragraphs[-1].startswith("The housing supports")


def test_a_list_counted_in_parentheses_stays_a_list() -> None:
    markdown = markdown_of(drawn_pdf(_fields, ["(1)", "(2)", "(3)"]))
    assert "- (1) Remove the cover." in markdown.splitlines()


def _numeral_page(canvas: Any, marker: str) -> None:
    """A justified paragraph whose third line opens with ``marker`` (a reference numeral
    ending its sentence, or an item's number after a list's first item)."""
    lines = wrapped_lines(f"{PROSE} {PROSE}", 300, "Times-Roman", 10)
    y = HEIGHT - 100
    if marker == "2.":
        _text(canvas, 72, y, "1. Switch off the supply at the mains and wait for the pump to stop.")
        y -= 12
    lines[2] = f"{marker} {lines[2]}"
    for line in lines[:-1]:
        _justified(canvas, 72, y, line, 320)
        y -= 12
    _text(canvas, 72, y, lines[-1])
    _text(canvas, 72, y - 20, "The end of the section.")


def test_a_reference_numeral_at_a_lines_start_stays_in_its_sentence() -> None:
    markdown = markdown_of(drawn_pdf(_numeral_page, "108."))
    assert "108." in markdown.split("\n\n")[0]
    assert not [line for line in markdown.splitlines() if line.startswith(("108.", "- "))]


def _claim(canvas: Any) -> None:
    """A dependent claim numbered in a first-line indent, wrapping to the margin; then another."""
    y = HEIGHT - 100
    for number, text in ((2, "The hinge assembly of claim 1, wherein the torsion spring is formed of a "
                             "polymer and the cam plate is formed of a metal alloy."),
                         (3, "The hinge assembly of claim 2, wherein the stop pin is removable.")):
        lines = wrapped_lines(f"{number}. {text}", 280, "Times-Roman", 10)
        _text(canvas, 86, y, lines[0])
        for line in wrapped_lines(" ".join(lines[1:]), 294, "Times-Roman", 10):
            y -= 12
            _text(canvas, 72, y, line)
        y -= 18


def test_a_claim_numbered_in_a_first_line_indent_keeps_its_lines() -> None:
    lines = markdown_of(drawn_pdf(_claim)).splitlines()
    assert lines[0].startswith("2. The hinge assembly of claim 1, wherein")
    assert lines[0].endswith("metal alloy.")
    assert lines[1] == "3. The hinge assembly of claim 2, wherein the stop pin is removable."


def _description(canvas: Any, title: tuple[str, ...]) -> None:
    """A centred bold title (wrapped over its lines), a centred section title, paragraphs, in a
    column 300 points wide."""
    middle = 300
    y = HEIGHT - 100
    canvas.setFont("Times-Bold", 10)
    for text in title:
        canvas.drawCentredString(middle, y, text)
        y -= 12
    canvas.drawCentredString(middle, y - 14, "CROSS-REFERENCE TO RELATED APPLICATIONS")
    y -= 40
    for line in wrapped_lines(f"{PROSE} {PROSE} {PROSE}", 300, "Times-Roman", 10)[:-1]:
        _justified(canvas, 150, y, line, 300)
        y -= 12


def test_a_wrapped_centred_title_and_the_section_under_it_are_headings() -> None:
    """The title's first line fills the column: its second, centred under it, is no paragraph's
    first line indented after a full one."""
    assert headings_of(drawn_pdf(_description, ("VALVE ACTUATOR HAVING A MANUAL OVERRIDE AND A",
                                                "LOCKING LEVER"))) == [
        "VALVE ACTUATOR HAVING A MANUAL OVERRIDE AND A LOCKING LEVER",
        "CROSS-REFERENCE TO RELATED APPLICATIONS"]


def test_a_short_centred_title_over_a_centred_section_title_are_no_form_labels() -> None:
    """Two short bold lines one over the other are labels in a form ("Signature", "Date"), not
    when centred over the text."""
    assert headings_of(drawn_pdf(_description, ("BATTERY PACK WITH A COOLING PLATE",))) == [
        "BATTERY PACK WITH A COOLING PLATE", "CROSS-REFERENCE TO RELATED APPLICATIONS"]


def _paragraph_numbers(canvas: Any) -> None:
    """Two pages, each opening with a numbered paragraph, its number a tab before its text."""
    for page in (1, 2):
        y = HEIGHT - 60
        for k in range(3):
            number = f"[{(page - 1) * 3 + k + 1:04d}]"
            text = PROSE if page == 1 else PROSE.replace("housing", "bracket").replace("sensor", "spring")
            lines = wrapped_lines(text, WIDTH - 190, "Times-Roman", 10)
            _text(canvas, 72, y, number, bold=True)
            _text(canvas, 118, y, lines[0])
            for line in lines[1:]:
                y -= 12
                _text(canvas, 72, y, line)
            y -= 20
        canvas.showPage()


def test_a_paragraph_number_at_the_head_of_pages_is_no_running_header() -> None:
    markdown = markdown_of(drawn_pdf(_paragraph_numbers))
    for number in range(1, 7):
        assert f"[{number:04d}] The {'housing' if number < 4 else 'bracket'} supports" in markdown


def _application_page(canvas: Any, label: str) -> None:
    """An application's first description page in two justified columns: the left column's
    sections under centred regular-weight titles of one word in capitals ("BACKGROUND",
    "SUMMARY"), or ``label`` flush left; the right column's baselines a quarter of a line
    lower (its paragraphs spaced otherwise), each line justified, a paragraph's "[0006]" a tab
    before its text on the row just over "BACKGROUND"."""
    left, right, measure = 72.0, 310.0, 220.0
    y = HEIGHT - 100
    for title in ("BACKGROUND", "SUMMARY"):
        canvas.setFont("Times-Roman", 10)
        if label:
            canvas.drawString(left, y, label if title == "BACKGROUND" else title)
        else:
            canvas.drawCentredString(left + measure / 2, y, title)
        y -= 20
        lines = wrapped_lines(f"{PROSE} {PROSE}", measure, "Times-Roman", 10)
        for line in lines[:-1]:
            _justified(canvas, left, y, line, measure)
            y -= 13.3
        _text(canvas, left, y, lines[-1])
        y -= 30
    y = HEIGHT - 96
    _text(canvas, right, y, "[0006]", bold=True)
    _justified(canvas, right + 72, y, "In some embodiments, the", measure - 72)
    y -= 13.3
    text = f"{PROSE} although a metal may be used. {PROSE}"
    for line in wrapped_lines(text, measure, "Times-Roman", 10)[:-1]:
        _justified(canvas, right, y, line, measure)
        y -= 13.3


def test_centred_capital_words_over_an_applications_sections_are_headings() -> None:
    """"BACKGROUND" and "SUMMARY" in the body's face, centred in their column, are titles (the
    other column's paragraph's first line beside, broken at a tab, is no table row with them); "WARNING"
    flush left over its paragraph is a label, and the other column's justified lines stay
    whole beside lines whose baselines are a few points off theirs."""
    data = drawn_pdf(_application_page, "")
    assert headings_of(data) == ["BACKGROUND", "SUMMARY"]
    paragraphs = [" ".join(p.split()) for p in markdown_of(data).split("\n\n")]
    assert any(p.startswith("[0006] In some embodiments, the The housing supports")
               and "although a metal may be used." in p for p in paragraphs)
    assert "WARNING" not in headings_of(drawn_pdf(_application_page, "WARNING"))


def _front_band(canvas: Any, size: float) -> None:
    """An application's front band over its fields (_fields): the office and "(10) Pub.
    No.:" with its number a tab on, bold and larger than the body (``size``), the first
    inventor's name and "et al." under the office's name."""
    _text(canvas, 60, HEIGHT - 30, "(19) United States", 13, bold=True)
    _text(canvas, 60, HEIGHT - 48, "(12) Patent Application Publication", 14, bold=True)
    _text(canvas, 60, HEIGHT - 66, "Smith et al.", 12, bold=True)
    _text(canvas, 310, HEIGHT - 42, "(10) Pub. No.:", size)
    _text(canvas, 420, HEIGHT - 42, "US 2022/0142241 A1", 12, bold=True)
    _text(canvas, 310, HEIGHT - 58, "(43) Pub. Date:", size)
    _text(canvas, 420, HEIGHT - 58, "Aug. 25, 2022", 12, bold=True)
    _fields(canvas, ["(54)", "(72)", "(21)", "(22)", "(51)"])


def test_a_front_bands_first_inventor_and_a_fields_value_are_no_headings() -> None:
    """"Smith et al." names a work, not a section; "US 2022/0142241 A1" a tab after "(10) Pub.
    No.:" is that field's value, however bold and large."""
    assert headings_of(drawn_pdf(_front_band, 10)) == []


def test_a_justified_lines_short_words_join_it_beside_a_column_a_few_points_higher() -> None:
    """The other column's baselines three points lower: its full words come into the first
    column's row, its short words ("a", "may": no ascender, their boxes' centres lower still)
    into that row too, not a row of their own each (tight glyph boxes, as PDFium reads an
    embedded face)."""
    def word(text: str, x0: float, top: float, bottom: float) -> Word:
        return Word(text, x0, top, x0 + 5.5 * len(text), bottom, 10.0, False)

    left = [word("[0001]", 57.7, 123.0, 132.4), word("Technical", 129.7, 123.0, 132.7),
            word("Field", 180.0, 123.0, 132.4)]
    right, x = [], 318.7
    for text in ("although", "a", "metal", "may", "be", "used."):
        descends = text in ("although", "may")
        right.append(word(text, x, 128.3 if text in ("a", "may") else 126.0, 135.8 if descends else 135.4))
        x = right[-1].x1 + 8.0
    lines = build_lines([*left, *right], 1)
    assert [line.text for line in lines] == ["[0001]", "Technical Field", "although a metal may be used."]
    # A chart's legend far right of a value label that came into an axis label's row is no
    # word of that row (nor a title numbered "47").
    chart = [Word("50", 79.0, 200.0, 90.0, 212.4, 12.0, False),
             Word("47", 335.0, 205.3, 346.0, 216.6, 12.0, False),
             Word("Forecast", 430.0, 206.7, 478.0, 219.1, 12.0, False)]
    assert [line.text for line in build_lines(chart, 1)] == ["50", "47", "Forecast"]
