"""Dense grids (issue 32): a route's timetable or an election's votes by ward, 10 to 16 narrow
columns in small type, as spreadsheets, word processors and browsers set them.  Each test
draws such a page and states the table read from it."""

from __future__ import annotations

from typing import Any

import pytest
from reportlab.lib.pagesizes import A4

from extractors.pdf_tags import read_page_tags
from tests.pdf_output import drawn_pdf, markdown_of

# A timetable: a journey per row, a stop per column, "–" where the journey does not stop; a
# zone over its stops.  Some journeys stop everywhere: their rows hold times alone.
STOPS = ["Journey", "Central", "Market Sq", "Harbour", "St Marys", "Hospital", "Park", "Univ.", "Mill Ln"]
ZONES = ["", "Zone 1", "", "", "", "Zone 2", "", "", ""]
JOURNEYS = [["2101", "07:09", "–", "07:21", "–", "07:28", "–", "07:37", "07:39"],
            ["X2102", "07:17", "07:20", "07:22", "07:27", "07:31", "07:35", "–", "07:42"],
            ["2103", "07:40a", "07:42", "07:46", "07:51", "07:53", "–", "07:59", "08:04"],
            ["2104", "07:53", "07:58", "08:00", "08:04", "08:10", "08:14", "08:17", "08:20a"],
            ["2105", "08:08", "08:10", "08:16", "08:18", "–", "08:24", "–", "08:32"],
            ["X2106", "08:22", "08:27", "08:32", "08:36", "08:39", "08:45", "08:47", "08:49"],
            ["2107", "08:32", "08:35", "08:37", "08:42", "08:46", "08:50", "–", "08:58"],
            ["2108", "08:44", "08:47", "–", "08:56", "08:58", "–", "09:07", "09:10"]]


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _sheet_timetable(canvas: Any, zones: bool) -> None:
    """The timetable as a spreadsheet prints it: rows as tall as two lines of its 7 pt type
    (a blank line under each), the stops' names set right over times set right, "Journey"
    on the header's foot, each zone's name centred across its stops' cells a row above."""
    width, height = A4
    canvas.setFont("Helvetica-Bold", 12)
    canvas.drawString(55, height - 80, "Route 21 southbound: Monday to Friday")
    pitch, cell = 18.0, 41.0
    rights = [0.0, *(144.4 + cell * k for k in range(len(STOPS) - 1))]
    y = height - 124
    canvas.setFont("Helvetica-Bold", 7)
    if zones:
        for first, last in ((1, 4), (5, 8)):
            middle = (rights[first] - cell + rights[last]) / 2
            canvas.drawCentredString(middle, y, ZONES[first])
        y -= pitch
    canvas.drawString(55, y, STOPS[0])
    for c in range(1, len(STOPS)):
        canvas.drawRightString(rights[c], y, STOPS[c])
    canvas.setFont("Helvetica", 7)
    for journey in JOURNEYS:
        y -= pitch
        canvas.drawString(55, y, journey[0])
        for c in range(1, len(STOPS)):
            canvas.drawRightString(rights[c], y, journey[c])
    canvas.drawString(55, y - 2 * pitch, "a Runs on school days only.")


def test_a_journey_of_times_alone_is_a_row_of_the_timetable() -> None:
    """A journey stopping everywhere has no figure but its number ("X2106  08:22  08:27 ..."),
    set a blank line under the row above: its times of day are values, and it is no header
    of a second table there."""
    markdown = markdown_of(drawn_pdf(_sheet_timetable, False))
    table = "\n".join([_row(STOPS), _row(["---"] * len(STOPS)), *(_row(j) for j in JOURNEYS)])
    assert table in markdown, markdown


def test_a_zone_row_over_the_stops_heads_the_timetable() -> None:
    """The zones' names ("Zone 1", "Zone 2": half their words figures) a row over the stops'
    names are the header's first row, each in its first stop's slot.  ("Journey", set on the
    header's foot beside the stops, stays there: nothing on the page says its cell spans both
    rows.)"""
    markdown = markdown_of(drawn_pdf(_sheet_timetable, True))
    table = "\n".join([_row(ZONES), _row(["---"] * len(STOPS)), _row(STOPS), *(_row(j) for j in JOURNEYS)])
    assert table in markdown, markdown


# A browser's print of two timetables of one route, each under a heading of its own (issue 32,
# dense_grid): the stops' names set right over their columns and so close that "Journey" and
# the first names make one run, a zone's name centred over its stops a line above them.
WEEKDAYS = JOURNEYS
SATURDAYS = [["7771", "08:22", "08:24", "08:26", "08:30", "08:33", "08:36", "08:41", "08:43"],
             ["7772", "09:07", "09:13", "09:15", "09:21", "09:25", "09:30", "09:32", "09:34"],
             ["7773", "10:25", "10:28", "10:34", "10:38", "10:44", "10:48", "10:52", "10:55"],
             ["7774", "11:04", "11:07", "11:13", "11:15", "11:17", "11:19", "11:23", "11:25"],
             ["7775", "12:12", "12:17", "12:20", "12:24", "12:29", "12:31", "12:36", "12:41"]]


def _printed_timetables(canvas: Any) -> None:
    width, height = A4
    size, pitch = 6.75, 9.0
    rights = [0.0, 92.3, 129.0, 162.0, 195.0, 228.0, 261.0, 294.0, 327.0]
    y = height - 50
    canvas.setFont("Helvetica-Bold", 12)
    canvas.drawString(36, y, "Route 77 eastbound")
    for heading, note, journeys in (("Monday to Friday", "Not on public holidays.", WEEKDAYS),
                                    ("Saturday", "Also on Good Friday.", SATURDAYS)):
        y -= 26
        canvas.setFont("Helvetica-Bold", 9)
        canvas.drawString(36, y, heading)
        y -= 16
        canvas.setFont("Helvetica", size)
        canvas.drawString(36, y, note)
        y -= pitch
        canvas.setFont("Helvetica-Bold", size)
        for (first, last), zone in (((1, 3), "Zone 1"), ((4, 8), "Zone 2")):
            left = rights[first - 1] + 4 if first > 1 else 66.75  # (the first stop's cell)
            canvas.drawCentredString((left + rights[last]) / 2, y, zone)
        y -= pitch
        canvas.drawString(38.2, y + 0.4 * pitch, STOPS[0])  # (centred down the header's two rows)
        for c in range(1, len(STOPS)):
            canvas.drawRightString(rights[c], y, STOPS[c])
        canvas.setFont("Helvetica", size)
        for journey in journeys:
            y -= pitch
            canvas.drawString(38.2, y, journey[0])
            for c in range(1, len(STOPS)):
                canvas.drawRightString(rights[c], y, journey[c])
    canvas.drawString(36, y - 2 * pitch, "a Runs on school days only.")


def _grouped(journeys: list[list[str]]) -> str:
    zones = ["Journey", "Zone 1", "", "", "Zone 2", "", "", "", ""]
    rows = [zones, ["---"] * len(STOPS), ["", *STOPS[1:]], *journeys]
    return "\n".join(_row(cells) for cells in rows)


def test_two_timetables_under_headings_of_their_own_are_two_tables() -> None:
    """"Saturday" in a heading's type, and its note, between the weekdays' last journey and
    the next zone row, part two tables: the heading is text, each table has its zones."""
    markdown = markdown_of(drawn_pdf(_printed_timetables))
    assert _grouped(WEEKDAYS) in markdown, markdown
    assert "\n## Saturday\n" in markdown or "\nSaturday\n" in markdown, markdown
    assert "| Saturday" not in markdown, markdown


def test_a_zone_over_journeys_of_one_width_leaves_their_column_out() -> None:
    """Journeys "7771" ... "7775" all start and end together, so their column's alignment is
    not seen from them; "Journey" over them, starting where they do and ending elsewhere, sets
    it flush left, and "Zone 1", centred over the first three stops, spans those alone."""
    markdown = markdown_of(drawn_pdf(_printed_timetables))
    assert _grouped(SATURDAYS) in markdown, markdown


# An election's votes by ward as a word processor sets them (issue 32, dense_grid): the
# candidates' names turned on their side at the feet of cells as tall as the longest name,
# standing left of their figures (set right), a party's name centred over its candidates
# (a merged cell) a row above them, "Ward" and "Turnout %" set down the header beside them.
PARTY_ROW = ["Ward", "Labour", "", "", "Independent", "", "", "Liberal Democrat", "", "Turnout %"]
NAMES = ["", "A. Evans", "J. Lewis", "P. Okafor", "J. Garcia", "K. Patel", "C. Ahmed", "M. Wright",
         "K. Walsh", ""]
WARDS = [["Harbour", "14 642", "968", "19 487", "496", "772", "295", "552", "717", "62.5"],
         ["Tanners Green", "18 642", "15 000", "10 678", "937", "15 760", "763", "16 665", "10 258", "55.4"],
         ["Abbey", "22 460", "11 228", "235", "18 862", "7 465", "812", "290", "101", "40.9"],
         ["Fairview", "11 913", "808", "–", "23 941", "4 227", "6 060", "19 355", "–", "67.5"],
         ["Kingsway", "11 318", "805", "–", "14 741", "86", "923", "7 430", "–", "53.3"],
         ["Castle", "4 219", "538", "11 215", "469", "183", "4 355", "20 850", "765", "64.9"],
         ["Old Town", "14 611", "–", "–", "678", "13 901", "194", "–", "23 756", "25.1"],
         ["Moor Park", "719", "17 053", "12 048", "421", "462", "–", "728", "101", "40.3"]]


def _document_votes(canvas: Any, tall: bool = False) -> None:
    width, height = A4
    size, cell = 7.5, 48.75
    lefts = [50.5, *(117.0 + cell * k for k in range(8)), 510.0]  # each cell's left edge
    rights = [0.0, *(left + cell - 5.2 for left in lefts[1:9]), 550.5]  # figures set right
    canvas.setFont("Helvetica", 9)
    canvas.drawString(50.5, height - 60, "The figures below are as published; see the notes under the table.")
    y = height - 80
    canvas.setFont("Helvetica-Bold", size)
    for first, last in ((1, 3), (4, 6), (7, 8)):
        canvas.drawCentredString((lefts[first] + lefts[last] + cell) / 2, y, PARTY_ROW[first])
    # The names' cells: as tall as the longest name, each name at the foot ("Ward" and
    # "Turnout %" at the top), or (``tall``) a row set taller, "Ward" and "Turnout %" at its foot.
    foot = y - (80 if tall else 52)
    if tall:
        canvas.drawString(lefts[0], foot, "Ward")
        canvas.drawRightString(rights[9], foot, "Turnout %")
    else:
        canvas.drawString(lefts[0], y, "Ward")
        canvas.drawRightString(rights[9], y, "Turnout")
        canvas.drawRightString(rights[9], y - 9, "%")
    for c in range(1, 9):
        canvas.saveState()
        canvas.translate(lefts[c] + 13, foot)
        canvas.rotate(90)
        canvas.drawString(0, 0, NAMES[c])
        canvas.restoreState()
    canvas.setFont("Helvetica", size)
    y = foot - (12 if tall else 20)
    for row in WARDS:
        canvas.drawString(lefts[0], y, row[0])
        for c in range(1, 10):
            canvas.drawRightString(rights[c], y, row[c])
        y -= 8.7


def test_turned_names_at_the_feet_of_tall_cells_go_under_their_parties() -> None:
    """The blank over the shorter turned names and under them is no break between the party
    row and the votes; each name heads the column of figures right of it, and each party
    goes to the first column of the candidates it is centred over."""
    markdown = markdown_of(drawn_pdf(_document_votes))
    table = "\n".join([_row(PARTY_ROW), _row(["---"] * len(NAMES)), _row(NAMES), *(_row(r) for r in WARDS)])
    assert table in markdown, markdown
    assert "\nLabour\n" not in markdown, markdown


def test_turned_names_at_the_foot_of_a_row_taller_than_they_go_under_their_parties() -> None:
    """However far the names' foot stands under the party row, the parties centred over them
    head the table: the blank is the row's own, not a break between a line of labels and a
    table under it."""
    markdown = markdown_of(drawn_pdf(_document_votes, tall=True))
    table = "\n".join([_row(PARTY_ROW), _row(["---"] * len(NAMES)), _row(NAMES), *(_row(r) for r in WARDS)])
    assert table in markdown, markdown


# The same votes printed by a browser and tagged (issue 32, dense_grid): the tree leaves out the
# names' row, which draws nothing as tagged (names set sideways), while "Ward" and "Turnout %"
# span down into it.
TAGGED_TOP = ["Ward", "Labour", "", "Green", "", "Turnout %"]
TAGGED_NAMES = ["", "B. Nowak", "B. Okafor", "J. Byrne", "D. Price", ""]
TAGGED_WARDS = [["Grange", "243", "85", "6 469", "19 613", "23.5"],
                ["Longford", "447", "512", "131", "950", "46.3"],
                ["Priory", "232", "16 976", "13 859", "15 595", "47.3"]]
TAGGED_LEFTS = [40.0, 100.0, 150.0, 200.0, 250.0, 300.0]


def test_a_row_the_tree_leaves_out_under_cells_spanning_into_it_is_put_back() -> None:
    from tests.tagged_pdf import Node, Run, tagged_pdf

    def cell(kind: str, left: float, top: float, text: str, **spans: int) -> Node:
        return Node(kind, [Node("P", [Run(0, left, top, text, size=7)])], dict(spans))

    head = Node("TR", [cell("TH", 40, 100, "Ward", RowSpan=2), cell("TH", 100, 80, "Labour", ColSpan=2),
                       cell("TH", 200, 80, "Green", ColSpan=2), cell("TH", 300, 100, "Turnout %", RowSpan=2)])
    body = [Node("TR", [cell("TD", left, 130 + 10 * r, text)
                        for left, text in zip(TAGGED_LEFTS, row, strict=True)])
            for r, row in enumerate(TAGGED_WARDS)]
    data = tagged_pdf([Node("P", [Run(0, 40, 50, "Votes cast by ward.")]), Node("Table", [head, *body])])
    from extractors.pdf_text import open_pdf

    with open_pdf(data) as pdf:
        page = pdf[0]
        [table] = read_page_tags(page, page.get_textpage(), 1).tables
    assert (table.row_count, table.column_count) == (2 + len(TAGGED_WARDS), 6)
    places = {cell.text: (cell.row, cell.column) for cell in table.cells}
    assert places["Grange"] == (2, 0) and places["23.5"] == (2, 5) and places["Turnout %"] == (0, 5)


def test_names_set_sideways_go_to_the_row_the_tree_left_out() -> None:
    """Over the restored row (it draws nothing), the names turned over the columns are its
    cells, not the party row's empty slots beside each party."""
    from extractors.pdf_evidence import tagged_tables
    from extractors.pdf_tags import PageTags, TaggedCell, TaggedTable
    from extractors.pdf_words import Word

    words, cells = [], []

    def add(row: int, column: int, text: str, top: float, rows: int = 1, columns: int = 1) -> None:
        left = TAGGED_LEFTS[column]
        word = Word(text, left, top, left + 4.0 * len(text), top + 6, 7, row < 2, line=int(top))
        words.append(word)
        cells.append(TaggedCell(row, column, rows, columns, row < 2, text,
                                ((word.x0 - 1, word.top - 1, word.x1 + 1, word.bottom + 1),)))

    for column, text in enumerate(TAGGED_TOP):
        if text:
            spans = (2, 1) if column in (0, 5) else (1, 2)
            add(0, column, text, 100.0 if column in (0, 5) else 80.0, *spans)
    for r, row in enumerate(TAGGED_WARDS, 2):
        for column, text in enumerate(row):
            add(r, column, text, 110.0 + 10 * r)
    turned = [Word(name, TAGGED_LEFTS[c] + 5, 90.0, TAGGED_LEFTS[c] + 12, 125.0, 7, True, line=90)
              for c, name in enumerate(TAGGED_NAMES) if name]
    tags = PageTags(1, True, tables=[TaggedTable(tuple(cells), 2 + len(TAGGED_WARDS), 6)])
    [table] = tagged_tables(tags, words, [], turned)
    assert table.cells == [TAGGED_TOP, TAGGED_NAMES, *TAGGED_WARDS]


def _staff_by_office(canvas: Any) -> None:
    """A table of words (no figures) whose groups of rows are headed by labels set larger than
    its rows ("Southern office" in 10 pt bold over 8 pt rows)."""
    width, height = A4
    canvas.setFont("Helvetica", 10)
    canvas.drawString(72, height - 60, "Our staff are listed below by office.")
    y = height - 90
    canvas.setFont("Helvetica-Bold", 8)
    for x, text in ((72, "Name"), (200, "Role"), (330, "Team")):
        canvas.drawString(x, y, text)
    for office in ("Northern office", "Southern office"):
        y -= 16
        canvas.setFont("Helvetica-Bold", 10)
        canvas.drawString(72, y, office)
        canvas.setFont("Helvetica", 8)
        for row in STAFF:
            y -= 11
            for x, text in zip((72, 200, 330), row, strict=True):
                canvas.drawString(x, y, text)


STAFF = [("Ann Lee", "Manager", "Finance"), ("Bo Chan", "Clerk", "Payroll"), ("Cy Dunn", "Officer", "Audit")]


def test_a_larger_group_label_over_rows_of_words_is_no_heading_between_tables() -> None:
    """The label and the rows under it, in the rows' weight, go on with the table: only a row
    of headings set in bold under a heading starts the next table."""
    markdown = markdown_of(drawn_pdf(_staff_by_office))
    assert "| Southern office |  |  |\n| Ann Lee | Manager | Finance |" in markdown, markdown


def test_a_larger_stub_heading_on_the_header_baseline_stays_on_its_line() -> None:
    """"Region" in larger type on the sub-headings' baseline has a higher middle than they
    have, but its foot is theirs: it is set on the line, not centred down the header's two
    lines, and stays in the lower header row."""
    from extractors.pdf_tables import find_tables
    from extractors.pdf_words import PageLayout, Word

    def word(text: str, x: float, bottom: float, size: float) -> Word:
        return Word(text, x, bottom - size, x + 0.5 * size * len(text), bottom, size, False)

    words = [word("2023", 230, 100, 8), word("2024", 330, 100, 8),
             word("Region", 40, 112, 12), *(word(t, x, 112, 8) for t, x in
                                             (("Men", 200), ("Women", 250), ("Men", 300), ("Women", 350)))]
    for r, region in enumerate(("North", "South", "East", "West")):
        bottom = 126 + 12 * r
        words.append(word(region, 40, bottom, 8))
        words += [word(str(100 + 7 * r + c), x, bottom, 8) for c, x in enumerate((208, 262, 308, 362))]
    [found] = find_tables(PageLayout(1, 600, 800, words=words))
    assert found.cells[1][0] == "Region", found.cells


# Times of day as column headings in ordinary documents: a room's bookings by hour under a usage
# table, shifts' start times under their names.
USAGE = [["Room", "Bookings", "Hours", "Revenue", "Share"],
         ["Hall A", "42", "120", "3,400", "31%"], ["Hall B", "35", "98", "2,950", "27%"],
         ["Studio", "28", "77", "2,100", "19%"], ["Annex", "22", "61", "1,820", "17%"]]
BY_HOUR = [["Room", "08:00", "09:00", "10:00", "11:00"],
           ["Hall A", "Yoga", "Yoga", "Choir", "Free"], ["Hall B", "Art", "Art", "Free", "Chess"],
           ["Studio", "Dance", "Drama", "Drama", "Free"], ["Annex", "Free", "Sewing", "Free", "Free"]]


def _two_tables(canvas: Any, title: str, tables: tuple[list[list[str]], list[list[str]]],
                gap: float, size: float, pitch: float) -> None:
    """A title over two tables of five columns, the second ``gap`` points under the first's
    last row, each headed by a bold row."""
    width, height = A4
    canvas.setFont("Helvetica-Bold", 14)
    canvas.drawString(60, height - 60, title)
    y = height - 100
    for table, space in ((tables[0], 0.0), (tables[1], gap)):
        y -= space
        for r, row in enumerate(table):
            canvas.setFont("Helvetica-Bold" if r == 0 else "Helvetica", size)
            for x, text in zip((60, 200, 280, 360, 440), row, strict=True):
                canvas.drawString(x, y, text)
            y -= pitch


def _usage_and_bookings(canvas: Any) -> None:
    """Two tables one under the other, a blank line between: the second's headings are hours."""
    _two_tables(canvas, "Usage report", (USAGE, BY_HOUR), 20.0, 9, 14)


def test_a_row_of_hours_under_a_table_of_figures_heads_the_next_table() -> None:
    """"Room  08:00  09:00 ..." a blank line under the usage table's last row of figures is
    the next table's header: its times are no journey's (the row above holds none)."""
    markdown = markdown_of(drawn_pdf(_usage_and_bookings))
    from tests.pdf_output import markdown_table

    assert markdown_table(USAGE) + "\n\n" + markdown_table(BY_HOUR) in markdown, markdown


SHIFTS = [["Ward", "Early", "Late", "Night"], ["", "06:00", "14:00", "22:00"],
          ["Ash", "12", "10", "6"], ["Beech", "9", "8", "4"], ["Cedar", "14", "12", "7"],
          ["Elm", "7", "6", "3"]]


def _staffing(canvas: Any) -> None:
    width, height = A4
    canvas.setFont("Helvetica-Bold", 14)
    canvas.drawString(60, height - 60, "Staffing levels")
    y = height - 100
    for r, row in enumerate(SHIFTS):
        canvas.setFont("Helvetica-Bold" if r < 2 else "Helvetica", 10)
        canvas.drawString(60, y, row[0])
        for x, text in zip((220, 300, 380), row[1:], strict=True):
            canvas.drawRightString(x, y, text)
        y -= 13 if r == 0 else 15


def test_start_times_under_shift_names_stay_in_the_header() -> None:
    """"06:00  14:00  22:00" under "Early  Late  Night", over rows of staff counts with no time
    among them, are the headings' second line, not the first row of data."""
    markdown = markdown_of(drawn_pdf(_staffing))
    heads = [["Ward", "Early 06:00", "Late 14:00", "Night 22:00"]]
    from tests.pdf_output import markdown_table

    assert markdown_table(heads + SHIFTS[2:]) in markdown, markdown


SITES = [["Site", "Opens", "Closes", "Staff", "Desks"], ["Central", "08:00", "18:00", "12", "40"],
         ["North", "09:00", "17:00", "6", "20"], ["South", "09:00", "17:30", "5", "18"]]
BUSY = [["Site", "08:00", "10:00", "12:00", "14:00"], ["Central", "Quiet", "Busy", "Busy", "Quiet"],
        ["North", "Closed", "Quiet", "Busy", "Quiet"], ["South", "Closed", "Busy", "Quiet", "Quiet"]]


def _sites_and_busy_hours(canvas: Any) -> None:
    """Sites' hours and staff, then a blank line and how busy each is by the hour."""
    _two_tables(canvas, "Opening hours", (SITES, BUSY), 21.0, 10, 15)


def test_a_row_of_hours_under_times_beside_figures_heads_the_next_table() -> None:
    """The row above holds times of day ("08:00  18:00") beside figures (staff, desks): no
    timetable's journey, so the hours a blank line under it head the next table."""
    from tests.pdf_output import markdown_table

    markdown = markdown_of(drawn_pdf(_sites_and_busy_hours))
    assert markdown_table(SITES) + "\n\n" + markdown_table(BUSY) in markdown, markdown


# An election's votes by ward as a word processor sets them in cells too narrow for a figure
# of five digits (issue 32, dense_grid): "23 612" wraps at its space, "23" over "612" set right
# in its cell, while the cells that fit ("753", "–", the turnout) stay on the row's first line.
# The rows are as tight as the type: the wrapped line stands as far under the row as the next
# row does under it.
SPLIT_HEAD = ["Ward", "Ref", "Ind", "Grn", "Con", "Lab", "Share"]  # (parties, as narrow as their cells)
SPLIT_WARDS = [["Harbour", "23 612", "16 148", "753", "6 615", "–", "61.0"],
               ["Jubilee", "170", "730", "19 814", "406", "275", "27.4"],
               ["Tanners Green", "850", "8 316", "21", "4 653", "359", "29.2"],
               ["Castle", "2", "14", "10", "18", "495", "45.3"]]


def _narrow_votes(canvas: Any, wards: list[list[str]], last: list[str] | None = None) -> None:
    """The wards in cells 29 points wide, each figure set right; a figure wider than its cell
    broken at its space, its last group a line under the rest.  ``last``: the last column's
    heading as its lines, centred in its cell (else "Share" on the header's line)."""
    width, height = A4
    size, leading, cell = 7.5, 8.8, 29.25
    rights = [0.0, *(141.0 + cell * k for k in range(len(SPLIT_HEAD) - 1))]
    canvas.setFont("Helvetica", 9)
    canvas.drawString(50.5, height - 60, "The figures below are as published; see the notes under the table.")
    y = height - 90
    canvas.setFont("Helvetica-Bold", size)
    canvas.drawString(50.5, y, SPLIT_HEAD[0])
    for c in range(1, len(SPLIT_HEAD) - 1):
        canvas.drawRightString(rights[c], y, SPLIT_HEAD[c])
    for line in last or [SPLIT_HEAD[-1]]:
        if last:  # (centred in the cell's 18.6 points inside its margins)
            canvas.drawCentredString(rights[-1] - 9.3, y, line)
        else:
            canvas.drawRightString(rights[-1], y, line)
        y -= leading
    y += leading
    canvas.line(45.0, y - 3, rights[-1] + 3, y - 3)
    canvas.setFont("Helvetica", size)
    y -= leading + 2
    for row in wards:
        canvas.drawString(50.5, y, row[0])
        lines = 1
        for c in range(1, len(row)):
            head, _, tail = row[c].rpartition(" ") if len(row[c]) > 4 else ("", "", row[c])
            if head:
                canvas.drawRightString(rights[c], y, head)
                canvas.drawRightString(rights[c], y - leading, tail)
                lines = 2
            else:
                canvas.drawRightString(rights[c], y, tail)
        y -= lines * leading
    canvas.setFont("Helvetica", size)
    canvas.drawString(50.5, y - leading, "Turnout is the share of the electorate that voted.")


def test_figures_wrapped_at_their_space_in_narrow_cells_stay_in_their_row() -> None:
    """"612" under "23" (and "148" under "16" beside it) with no ward's name beside them is the
    rest of the figures above, not a row of its own; a row whose figures all fit ("Castle")
    takes no line under it."""
    from tests.pdf_output import markdown_table

    markdown = markdown_of(drawn_pdf(_narrow_votes, SPLIT_WARDS))
    assert markdown_table([SPLIT_HEAD, *SPLIT_WARDS]) in markdown, markdown


LABELLED_TWICE = [["Harbour", "23", "16", "75", "6", "12", "61.0"],
                  ["", "612", "148", "753", "615", "120", "38.2"],
                  ["Jubilee", "170", "730", "19", "406", "275", "27.4"],
                  ["", "214", "318", "814", "305", "192", "23.0"]]


def test_a_row_without_a_label_filling_every_column_stays_a_row() -> None:
    """Under each ward a second row of its own, its label left empty (a ward's two counts):
    it fills every column the row above fills, as a line of a wrapped cell's rest never does
    (a figure that fits stays on its row's first line), so it is no wrapped line."""
    from tests.pdf_output import markdown_table

    markdown = markdown_of(drawn_pdf(_narrow_votes, LABELLED_TWICE))
    assert markdown_table([SPLIT_HEAD, *LABELLED_TWICE]) in markdown, markdown


def test_a_heading_broken_over_three_lines_of_a_narrow_cell_is_one_word_again() -> None:
    """"Turnout %" in a cell three letters wide: Word breaks "Turnout" where each line is
    full, "Tur" over "nou" over "t %", the lines as wide as each other; the heading is
    "Turnout %", not "Tur nou t %" ("t" alone would be a unit, tonnes, were the word above
    not broken twice)."""
    from tests.pdf_output import markdown_table

    markdown = markdown_of(drawn_pdf(_narrow_votes, SPLIT_WARDS, ["Tur", "nou", "t %"]))
    assert markdown_table([[*SPLIT_HEAD[:-1], "Turnout %"], *SPLIT_WARDS]) in markdown, markdown



def test_a_heading_of_words_stacked_in_a_narrow_cell_keeps_its_spaces() -> None:
    """"Dose" over "mcg" over "daily" in the same cell, each line as full as "Tur" over "nou":
    the cell's geometry reads them as one word broken twice too, but "mcg" is a unit, a word
    of its own (SHORT_WORDS), no broken word's middle: "Dose mcg daily", not "Dosemcgdaily"."""
    from tests.pdf_output import markdown_table

    markdown = markdown_of(drawn_pdf(_narrow_votes, SPLIT_WARDS, ["Dose", "mcg", "daily"]))
    assert markdown_table([[*SPLIT_HEAD[:-1], "Dose mcg daily"], *SPLIT_WARDS]) in markdown, markdown

# Review of the rules above (issue 32): an ordinary table in columns far apart, each region's
# label on its first branch's row alone, a cell left blank where a branch has no staff.  Set as
# tight as the type, a branch's line under its region's first one looks like figures' rests.
BRANCHES = [["Region", "Branch", "Staff", "Sales"], ["North", "101", "12", "450"], ["", "102", "", "310"],
            ["", "103", "9", "275"], ["South", "201", "15", "520"], ["", "202", "", "140"],
            ["East", "301", "7", "380"]]


def _branches(canvas: Any) -> None:
    width, height = A4
    canvas.setFont("Helvetica", 10)
    canvas.drawString(72, height - 72, "Staff and sales by region and branch, 2024.")
    y = height - 100
    for k, row in enumerate(BRANCHES):
        canvas.setFont("Helvetica-Bold" if k == 0 else "Helvetica", 9)
        canvas.drawString(72, y, row[0])
        for x, text in zip((220, 290, 360), row[1:], strict=True):
            if text:
                canvas.drawRightString(x, y, text)
        y -= 11.0
    canvas.setFont("Helvetica", 10)
    canvas.drawString(72, y - 14, "Blank cells: branch not staffed at the count date.")


def test_a_row_without_a_label_in_columns_far_apart_is_no_figures_rest() -> None:
    """"102" and "310" under "101" and "450", "Staff" left blank: columns 70 points apart hold
    "101 102" with room to spare, so no cell wrapped it; the line is a branch's row."""
    from tests.pdf_output import markdown_table

    markdown = markdown_of(drawn_pdf(_branches))
    assert markdown_table(BRANCHES) in markdown, markdown


def _stacked_heads(canvas: Any, third: str) -> None:
    """A laboratory's summary, the third column's heading set by hand over three lines of a
    wide cell ("Std" over "dev" over ``third``), centred."""
    width, height = A4
    canvas.setFont("Helvetica", 10)
    canvas.drawString(72, height - 72, "Summary statistics for the samples measured in the laboratory.")
    y = height - 100
    canvas.setFont("Helvetica-Bold", 8)
    canvas.drawString(72, y, "Sample")
    canvas.drawCentredString(230, y, "Mean")
    for k, text in enumerate(("Std", "dev", third)):
        canvas.drawCentredString(290, y - 9 * k, text)
    canvas.drawCentredString(350, y, "Count")
    y -= 31
    canvas.setFont("Helvetica", 8)
    for row in STACKED_ROWS:
        canvas.drawString(72, y, row[0])
        for x, text in zip((230, 290, 350), row[1:], strict=True):
            canvas.drawCentredString(x, y, text)
        y -= 11
    canvas.drawString(72, y - 10, "Values are the means of three readings.")


STACKED_ROWS = [["Alpha", "12.4", "0.31", "14"], ["Beta", "11.9", "0.28", "12"],
                ["Gamma", "13.1", "0.40", "15"], ["Delta", "12.7", "0.22", "11"]]


@pytest.mark.parametrize("third", ["of mean", "(mm)"])
def test_short_words_stacked_in_a_wide_heading_are_no_word_broken_twice(third: str) -> None:
    """"Std" over "dev" over "of mean": a line wider than "dev" and its next letter under it
    shows a cell with room for that letter, so "dev" was not broken there; and "dev" goes on
    as words ("(mm)"), not as a broken word's end: "Std dev of mean", "Std dev (mm)"."""
    from tests.pdf_output import markdown_table

    markdown = markdown_of(drawn_pdf(_stacked_heads, third))
    head = ["Sample", "Mean", f"Std dev {third}", "Count"]
    assert markdown_table([head, *STACKED_ROWS]) in markdown, markdown
