"""Office documents built around one construction each, typeset by LibreOffice: things real
Word and Excel exports carry that the larger corpora (tests/office_documents.py,
tests/office_sheets.py) do not, each a failure the structure stage had (issue 32, 2026-12-06).
bench/office_probes.py typesets them (untagged and tagged) and bench/pdf_structure.py --probes
scores them; rules may be tuned on them.

Classes (`PROBES`: name -> (count, maker)); a maker returns one document's source and truth:

- ``turned_headers``: a Word table whose column headings are set on their side (cell text
  direction btLr or tbRl), a grid or none, short or wrapping names;
- ``turned_headers_calc``: the same in a spreadsheet (cell text rotated 90 degrees);
- ``group_headings``: a Word table without a grid whose group headings are merged cells over
  two or three sub-columns, set flush left as Word sets them;
- ``consecutive_tables``: two Word tables without a grid one under the other, with an empty
  paragraph, the second's caption, a source note or a sentence between them;
- ``wrapped_rows``: a Word table whose description column wraps over several lines in every
  row, the last row's too;
- ``figure_lists``: a "List of figures" or "List of tables" page, with dot leaders or a page
  column alone;
- ``heading_faces``: headings at the body's size set apart only by typeface, capitals, colour
  or weight (Word's lower heading styles).

The truth (``truth``): ``tables`` (cells, header row first, a spanning cell's text in its first
slot), ``headings`` (texts in order, as drawn), ``items`` (list items' texts).
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable

from docx import Document
from docx.enum.text import WD_ALIGN_PARAGRAPH, WD_TAB_ALIGNMENT, WD_TAB_LEADER
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Inches, Pt, RGBColor

Truth = dict[str, list]
Maker = Callable[[int], tuple[str, bytes, Truth]]

_REGIONS = ("North", "South", "East", "West", "Metro", "Coast", "Valley", "Central", "Rural")
_MEASURES = ("Net migration", "Persons employed", "Median pay", "Births", "Households", "Dwellings",
             "Deaths", "Pupils")
_GROUPS = ("Population", "Employment", "Income", "Housing", "Health")
_SENTENCES = ("The council reviewed the programme of works for the year and agreed the priorities for "
              "each district in turn.", "Spending stayed within the budget set in March, with savings on "
              "materials offsetting higher labour costs.", "Residents were consulted on the new cycle "
              "routes through a series of public meetings in the autumn.")
_DESCRIPTIONS = ("Resurfacing of the main road through the village centre and the approach roads.",
                 "Inspection of the two footbridges over the river.",
                 "Replacement of the old street lamps with new low-energy units across the estate.",
                 "Cleaning of gullies and drains along the coast road after the winter storms.",
                 "New cycle lane along the ring road, with signals at junctions and new crossings.")
_TOPICS = ("Population by region", "Employment rate by age", "Median income by household type",
           "Housing completions", "Hospital admissions by month", "School pupils by year group",
           "Road traffic by vehicle type")


def _figures(rng: random.Random, count: int) -> list[str]:
    fmt = rng.choice(("{:,.0f}", "{:.1f}", "{:.2f}%"))
    return [fmt.format(rng.uniform(1, 99999) / (1 if fmt == "{:,.0f}" else 1000)) for _ in range(count)]


def _docx(document: object) -> bytes:
    buffer = io.BytesIO()
    document.save(buffer)  # type: ignore[attr-defined]
    return buffer.getvalue()


def _fill(table: object, cells: list[list[str]]) -> None:
    for r, row in enumerate(cells):
        for c, text in enumerate(row):
            if text:
                table.cell(r, c).text = text  # type: ignore[attr-defined]


def turned_headers(seed: int) -> tuple[str, bytes, Truth]:
    rng = random.Random(seed)
    columns = rng.randint(4, 6)
    wrap = seed % 4 >= 2  # names long enough to wrap onto a second turned line
    names = rng.sample(_MEASURES, columns - 1)
    header = ["Region", *(f"{name} {2019 + i}" if not wrap else f"{name} in the year {2019 + i}"
                          for i, name in enumerate(names))]
    cells = [header, *([region, *_figures(rng, columns - 1)]
                       for region in rng.sample(_REGIONS, rng.randint(4, 6)))]
    document = Document()
    document.add_heading("Regional figures", 1)
    document.add_paragraph("The table below gives the figures by region for the last year.")
    table = document.add_table(rows=len(cells), cols=columns)
    if seed % 2:
        table.style = "Table Grid"
    _fill(table, cells)
    direction = "btLr" if seed % 3 else "tbRl"
    for c in range(1, columns):
        turn = OxmlElement("w:textDirection")
        turn.set(qn("w:val"), direction)
        table.cell(0, c)._tc.get_or_add_tcPr().append(turn)
    height = OxmlElement("w:trHeight")
    height.set(qn("w:val"), str(int((1.1 if wrap else 1.4) * 1440)))
    table.rows[0]._tr.get_or_add_trPr().append(height)
    document.add_paragraph("Figures are provisional and may be revised.")
    return "docx", _docx(document), {"tables": [cells]}


def turned_headers_calc(seed: int) -> tuple[str, bytes, Truth]:
    import openpyxl
    from openpyxl.styles import Alignment, Border, Font, Side
    from openpyxl.utils import get_column_letter

    rng = random.Random(seed)
    columns = rng.randint(5, 7)
    header = ["Region", *(f"{name} {2018 + i}" for i, name in enumerate(rng.sample(_MEASURES, columns - 1)))]
    cells = [header, *([region, *_figures(rng, columns - 1)]
                       for region in rng.sample(_REGIONS, rng.randint(5, 8)))]
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"] = "Regional indicators"
    sheet["A1"].font = Font(bold=True, size=14)
    thin = Side(style="thin")
    for r, row in enumerate(cells):
        for c, text in enumerate(row):
            cell = sheet.cell(row=3 + r, column=1 + c, value=text)
            if r == 0:
                cell.font = Font(bold=True)
                if c:
                    cell.alignment = Alignment(textRotation=90, vertical="bottom")
            if seed % 2:
                cell.border = Border(left=thin, right=thin, top=thin, bottom=thin)
    sheet.row_dimensions[3].height = 160
    sheet.column_dimensions["A"].width = 14
    for c in range(2, columns + 1):
        sheet.column_dimensions[get_column_letter(c)].width = 9
    buffer = io.BytesIO()
    book.save(buffer)
    return "xlsx", buffer.getvalue(), {"tables": [cells]}


def group_headings(seed: int) -> tuple[str, bytes, Truth]:
    rng = random.Random(seed)
    groups = rng.sample(_GROUPS, 2)
    subs = rng.choice((["2022", "2023"], ["Men", "Women"], ["Number", "Share %"], ["2022", "2023", "Change"]))
    columns = 1 + len(groups) * len(subs)
    top = ["Region", *(text for group in groups for text in [group] + [""] * (len(subs) - 1))]
    second = ["", *(subs * len(groups))]
    body = [[region, *_figures(rng, columns - 1)] for region in rng.sample(_REGIONS, rng.randint(4, 6))]
    document = Document()
    document.add_heading("Regional statistics", 1)
    document.add_paragraph("The table below sets out the figures for each region.")
    table = document.add_table(rows=2 + len(body), cols=columns)
    if seed % 4 == 0:
        table.style = "Table Grid"
    table.cell(0, 0).merge(table.cell(1, 0)).text = "Region"
    for g, group in enumerate(groups):
        table.cell(0, 1 + g * len(subs)).merge(table.cell(0, (g + 1) * len(subs))).text = group
        for k, sub in enumerate(subs):
            table.cell(1, 1 + g * len(subs) + k).text = sub
    for r, row in enumerate(body):
        for c, text in enumerate(row):
            table.cell(2 + r, c).text = text
    document.add_paragraph("Source: regional accounts.")
    return "docx", _docx(document), {"tables": [[top, second, *body]]}


def consecutive_tables(seed: int) -> tuple[str, bytes, Truth]:
    rng = random.Random(seed)
    document = Document()
    document.add_heading("Two tables", 1)
    document.add_paragraph("The tables below give the figures for the year.")
    kind = seed % 4
    tables = []
    for number in range(2):
        columns = rng.randint(3, 6)
        first = rng.choice(("Region", "Area", "District"))
        rows = rng.sample(_REGIONS, rng.randint(3, 5))
        cells = [[first, *(f"{rng.choice(('Q1', 'Q2', 'FY'))} {2020 + i}" for i in range(columns - 1))],
                 *([region, *_figures(rng, columns - 1)] for region in rows)]
        if number:
            between = ("", f"Table {number + 1}: Figures by area", "Source: regional accounts, 2024.",
                       "The second table gives the same figures by quarter.")[kind]
            document.add_paragraph(between)
        table = document.add_table(rows=len(cells), cols=columns)
        _fill(table, cells)
        tables.append(cells)
    document.add_paragraph("Figures are provisional.")
    return "docx", _docx(document), {"tables": tables}


def wrapped_rows(seed: int) -> tuple[str, bytes, Truth]:
    rng = random.Random(seed)
    cells = [["Scheme", "Description", "Cost (£k)", "Start"]]
    for i, text in enumerate(rng.sample(_DESCRIPTIONS, 4)):
        cells.append([f"S{i + 1:02d}", text, f"{rng.randint(10, 999):,}",
                      rng.choice(("April", "June", "September", "January"))])
    document = Document()
    document.add_heading("Works programme", 1)
    document.add_paragraph("The works planned for the year are set out below.")
    table = document.add_table(rows=len(cells), cols=4)
    if seed % 2:
        table.style = "Table Grid"
    _fill(table, cells)
    document.add_paragraph("All costs are estimates.")
    return "docx", _docx(document), {"tables": [cells]}


def figure_lists(seed: int) -> tuple[str, bytes, Truth]:
    rng = random.Random(seed)
    label = "Figure" if seed % 2 else "Table"
    title = f"List of {label.lower()}s"
    entries = [(f"{label} {i + 1}: {topic}", 3 + 2 * i) for i, topic in enumerate(rng.sample(_TOPICS, 5))]
    document = Document()
    document.add_heading("Annual statistics report", 0)
    document.add_heading(title, 1)
    for text, page in entries:
        paragraph = document.add_paragraph(f"{text}\t{page}")
        paragraph.paragraph_format.tab_stops.add_tab_stop(
            Inches(6), WD_TAB_ALIGNMENT.RIGHT, WD_TAB_LEADER.DOTS if seed <= 2 else WD_TAB_LEADER.SPACES)
    document.add_page_break()
    document.add_heading("Introduction", 1)
    document.add_paragraph(" ".join(_SENTENCES))
    return "docx", _docx(document), {"headings": ["Annual statistics report", title, "Introduction"],
                                     "items": [f"{text} {page}" for text, page in entries]}


# (family, size, bold, italic, capitals, colour, shading) of Heading 1 over an 11-point serif body.
_LOOKS = (("Liberation Sans", 11, True, False, True, None, None),
          ("Liberation Sans", 11, False, False, True, None, None),
          ("DejaVu Sans", 11, False, False, False, (0x1F, 0x4E, 0x79), None),
          ("Liberation Serif", 13, False, False, False, (0xC0, 0x00, 0x00), None),
          ("Liberation Serif", 11, True, False, False, None, None),
          ("Liberation Sans", 12, True, False, False, (0xFF, 0xFF, 0xFF), "1F4E79"),
          ("Liberation Serif", 12.5, False, True, False, None, None))


def heading_faces(seed: int) -> tuple[str, bytes, Truth]:
    family, size, bold, italic, capitals, colour, shading = _LOOKS[(seed - 1) % len(_LOOKS)]
    rng = random.Random(seed)
    document = Document()
    body = document.styles["Normal"]
    body.font.name, body.font.size = "Liberation Serif", Pt(11)
    heading = document.styles["Heading 1"]
    heading.font.name, heading.font.size = family, Pt(size)
    heading.font.bold, heading.font.italic = bold, italic
    heading.font.all_caps = capitals
    heading.font.color.rgb = RGBColor(*colour) if colour else RGBColor(0, 0, 0)
    if shading:
        fill = OxmlElement("w:shd")
        fill.set(qn("w:val"), "clear")
        fill.set(qn("w:fill"), shading)
        heading.element.get_or_add_pPr().append(fill)
    titles = ["Background", "Programme of works", "Budget and spending", "Consultation", "Next steps"]
    for title in titles:
        document.add_heading(title, 1)
        for _ in range(2):
            paragraph = document.add_paragraph(" ".join(rng.sample(_SENTENCES, 3)))
            paragraph.alignment = WD_ALIGN_PARAGRAPH.LEFT
    return "docx", _docx(document), {"headings": [t.upper() if capitals else t for t in titles]}


PROBES: dict[str, tuple[int, Maker]] = {
    "turned_headers": (8, turned_headers),
    "turned_headers_calc": (6, turned_headers_calc),
    "group_headings": (8, group_headings),
    "consecutive_tables": (8, consecutive_tables),
    "wrapped_rows": (6, wrapped_rows),
    "figure_lists": (4, figure_lists),
    "heading_faces": (7, heading_faces),
}
