"""Word headings typed as a section number, a tab and the title (bold, a point over the body),
each over a paragraph of two lines or so: headings over running text, not the rows of a
two-column table of numbers and titles (office probe hanging_numbers-04, the plain export)."""

from __future__ import annotations

from tests.test_pdf_structure import make_pdf, markdown_of

SECTIONS = (("1", "Introduction", ("The figures in this release are based on the annual survey of "
                                   "households, which asks about", "income, housing and employment.")),
            ("1.1", "Purpose of this report", ("The number of applications rose for the third year running, "
                                               "most of them from first-time buyers in", "the towns.")),
            ("1.2", "Scope", ("The council reviewed the programme of works for the year and agreed the "
                              "priorities for each", "district in turn.")),
            ("2", "Method", ("The number of applications rose for the third year running, most of them from "
                             "first-time buyers in", "the towns.")),
            ("2.1", "Data sources", ("Response rates fell slightly compared with the previous year but "
                                     "remain high enough for reliable", "estimates at district level.")),
            ("3", "Findings", ("The council reviewed the programme of works for the year and agreed the "
                               "priorities for each", "district in turn.")))


def _report(bold: bool) -> bytes:
    lines: list[tuple] = [(72, 60, "Evaluation of the pilot scheme", 24, "Helvetica-Bold")]
    top = 110.0
    for number, title, text in SECTIONS:
        font = "Helvetica-Bold" if bold else "Helvetica"
        lines += [(72, top, number, 11, font), (115, top, title, 11, font)]
        lines += [(72, top + 19 + 13.2 * k, line, 10) for k, line in enumerate(text)]
        top += 19 + 13.2 * len(text) + 10
    return make_pdf(lines)


def test_typed_section_numbers_over_paragraphs_are_headings_not_a_table():
    markdown = markdown_of(_report(bold=True))
    assert "|" not in markdown
    headings = [line.lstrip("#").strip() for line in markdown.splitlines() if line.startswith("#")]
    assert headings == ["Evaluation of the pilot scheme", *(f"{n} {t}" for n, t, _ in SECTIONS)]
    assert "The council reviewed the programme of works for the year and agreed the priorities for each " \
           "district in turn." in markdown


def test_a_tables_numbered_group_rows_over_rows_of_cells_stay_rows():
    """A bold numbered group row ("1  Employment") over rows of cells is the table's, not a
    heading: what stands under it is no running text in one piece."""
    lines: list[tuple] = [(72, 60, "Workforce by sector", 18, "Helvetica-Bold"),
                          (72, 100, "Sector", 10, "Helvetica-Bold"), (300, 100, "2023", 10, "Helvetica-Bold"),
                          (400, 100, "2024", 10, "Helvetica-Bold")]
    top = 116.0
    for number, group, rows in (("1", "Employment", ("Employees", "Self-employed")),
                                ("2", "Training", ("Apprentices", "Graduates"))):
        lines += [(72, top, number, 10, "Helvetica-Bold"), (100, top, group, 10, "Helvetica-Bold")]
        top += 14
        for k, row in enumerate(rows):
            lines += [(100, top, row, 10), (300, top, f"{120 + k * 7}", 10), (400, top, f"{131 + k * 5}", 10)]
            top += 14
    markdown = markdown_of(make_pdf(lines))
    assert "| 1 | Employment |  |  |" in markdown and "| 2 | Training |  |  |" in markdown
    assert not [line for line in markdown.splitlines() if line.startswith("#")]
