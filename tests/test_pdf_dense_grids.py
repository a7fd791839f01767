"""Dense grids (issue 32): a route's timetable or an election's votes by ward, 10 to 16 narrow
columns in small type, as spreadsheets, word processors and browsers set them.  Each test
draws such a page and states the table read from it."""

from __future__ import annotations

from typing import Any

from reportlab.lib.pagesizes import A4

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
    names are the header's first row, each in its first stop's slot, and "Journey", set on the
    header's foot beside the stops, spans both rows (its text in the first)."""
    markdown = markdown_of(drawn_pdf(_sheet_timetable, True))
    table = "\n".join([_row(["Journey", *ZONES[1:]]), _row(["---"] * len(STOPS)), _row(["", *STOPS[1:]]),
                       *(_row(j) for j in JOURNEYS)])
    assert table in markdown, markdown
