"""Spreadsheets with known structure, for LibreOffice Calc to typeset as PDF: the development
set of "Excel exports" (issue 32).  Each workbook is what a statistics office or a finance team
prints from a spreadsheet: a title in the first cell, sometimes a line of units under it, one
or two tables a sheet with their header rows (sometimes two levels, a merged cell over the
columns it spans), text columns whose values hold spaces, numbers in the formats such sheets
use (thousands separators, negatives in brackets, percentages, currency, dates), a bold total
row, a source note -- and the looks that make them hard to read back: header labels
left-aligned (a text cell's default) over right-aligned numbers, no rules at all or only a
line under the header, printed gridlines, shaded header rows, wrapped text cells, running
headers and footers, and tables long enough to continue on the next page with or without the
header repeated (print titles).

The ground truth is the workbook itself: its cells as Calc displays them (the formats used
here are ones whose display this module computes exactly), its title as the one heading of
each sheet.  bench/sheet_corpus.py converts and caches, bench/pdf_structure.py --sheets
scores.  Tuning on this set is allowed (it is ours); say so in docs/BENCHMARKS.md.
"""

from __future__ import annotations

import datetime as dt
import functools
import io
import random
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from tests.office_documents import OfficeHeading, OfficeTable, libreoffice_pdf

_PLACES = ("North East", "North West", "Yorkshire and the Humber", "East Midlands", "West Midlands",
           "East of England", "London", "South East", "South West", "Scotland", "Wales",
           "Northern Ireland", "Isle of Man", "Channel Islands", "Greater Manchester",
           "West Yorkshire", "Tyne and Wear", "Merseyside", "South Yorkshire", "Cornwall and Scilly")
_ITEMS = ("Staff costs", "Premises", "Transport", "Supplies and services", "Third party payments",
          "Capital financing", "Income from fees", "Grants received", "Depreciation",
          "Interest payable", "Pension costs", "IT licences", "Training", "Legal fees",
          "Insurance", "Utilities", "Repairs and maintenance", "Consultancy", "Travel", "Printing")
_CODES = ("A1", "B2", "C3", "D4", "E5", "F6", "G7", "H8", "J9", "K10")
_NOTES = ("Source: departmental returns.", "Figures may not sum due to rounding.",
          "Note: 2023 figures are provisional.", "Source: annual survey of providers.")
_SUBJECTS = ("Capital spending by region", "Revenue budget by service", "Staff in post by grade",
             "Households in temporary accommodation", "Road traffic by vehicle type",
             "Planning applications decided", "Waste collected by stream", "School places by phase")
_DESCRIPTIONS = ("Resurfacing of the principal road network including footways",
                 "Replacement of street lighting columns with LED units",
                 "Flood defence works along the lower river corridor",
                 "Refurbishment of the central library and archive store",
                 "New vehicles for the refuse and recycling fleet",
                 "Extension of the park and ride site to 600 spaces")
_UNITS = ("Figures in £000", "Cash terms", "Financial years ending 31 March", "Provisional")
_STUBS = ("Region", "Area", "Service", "Item", "Category")
_FONTS = ("Liberation Sans", "DejaVu Sans", "Liberation Serif", "Liberation Sans Narrow")

#: Number formats and how Calc displays a value in each (checked against Calc's PDFs by
#: tests/test_office_sheets.py).
_FORMATS = ("#,##0", "#,##0;(#,##0)", "#,##0.00", "0.0%", "£#,##0", "0", "dd/mm/yyyy")


def display(value: object, number_format: str) -> str:
    """A cell's text as Calc prints it in `number_format` (those of _FORMATS, or General for
    text)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dt.date):
        return value.strftime("%d/%m/%Y")
    assert isinstance(value, (int, float))
    value = value + 0  # -0.0 prints as 0
    if isinstance(value, float) and value == 0:
        value = 0.0
    if number_format == "#,##0":
        return f"{round(value):,}" if round(value) >= 0 else f"-{abs(round(value)):,}"
    if number_format == "#,##0;(#,##0)":
        return f"{round(value):,}" if round(value) >= 0 else f"({abs(round(value)):,})"
    if number_format == "#,##0.00":
        return f"{value:,.2f}"
    if number_format == "0.0%":
        return f"{value * 100:.1f}%"
    if number_format == "£#,##0":
        return f"£{round(value):,}" if round(value) >= 0 else f"-£{abs(round(value)):,}"
    return str(round(value))


@dataclass
class SheetWorkbook:
    """One workbook: its bytes and, per sheet, the title and the tables as printed."""

    seed: int
    name: str
    xlsx: bytes
    headings: list[OfficeHeading] = field(default_factory=list)
    tables: list[OfficeTable] = field(default_factory=list)
    look: dict[str, object] = field(default_factory=dict)

    def truth(self) -> dict[str, object]:
        return {"seed": self.seed, "name": self.name, "look": self.look,
                "headings": [[h.text, h.level] for h in self.headings],
                "tables": [{"cells": t.cells, "ruled": t.ruled} for t in self.tables]}

    @classmethod
    def from_truth(cls, data: dict[str, object]) -> SheetWorkbook:
        book = cls(seed=int(data["seed"]), name=str(data["name"]), xlsx=b"")  # type: ignore[call-overload]
        book.headings = [OfficeHeading(str(t), int(level)) for t, level in data["headings"]]  # type: ignore[attr-defined]
        book.tables = [OfficeTable(t["cells"], bool(t["ruled"])) for t in data["tables"]]  # type: ignore[attr-defined]
        book.look = dict(data["look"])  # type: ignore[call-overload]
        return book


@dataclass(frozen=True)
class _Look:
    font: str
    size: float
    header_bold: bool
    header_align: str  # "general" (text left, a text cell's default), "center" or "right"
    rules: str  # "none", "header" (a line under the header), "grid" (every cell), "gridlines" (printed)
    shaded: bool  # the header row filled (dark with white text, or light grey)
    dark: bool
    two_levels: bool
    wrapped: bool  # a description column whose cells wrap over lines
    running: bool  # a running header and footer
    print_titles: bool  # the header rows repeated on every page
    landscape: bool
    units_line: bool


def _pick_look(rng: random.Random) -> _Look:
    return _Look(font=rng.choice(_FONTS), size=rng.choice((9.0, 10.0, 10.0, 11.0)),
                 header_bold=rng.random() < 0.8,
                 header_align=rng.choice(("general", "general", "center", "right")),
                 rules=rng.choice(("none", "none", "header", "grid", "gridlines")),
                 shaded=rng.random() < 0.3, dark=rng.random() < 0.5, two_levels=rng.random() < 0.4,
                 wrapped=rng.random() < 0.25, running=rng.random() < 0.4,
                 print_titles=rng.random() < 0.5, landscape=rng.random() < 0.15,
                 units_line=rng.random() < 0.4)


def _columns(rng: random.Random, look: _Look) -> tuple[list[str], list[str], list[str | None]]:
    """The data columns: (labels, number formats, group of each column or None)."""
    kind = rng.choice(("years", "measures", "mixed"))
    if kind == "years":
        first = rng.randint(2015, 2020)
        count = rng.randint(3, 6)
        labels = [str(first + i) for i in range(count)]
        fmt = rng.choice(_FORMATS[:5])
        formats = [fmt] * count
        if rng.random() < 0.5:
            labels.append(rng.choice(("Change", "% change", "Share")))
            formats.append("0.0%")
    elif kind == "measures":
        labels = rng.sample(["Budget", "Actual", "Variance", "Forecast", "Outturn", "Staff",
                             "Cases", "Income", "Spend", "Target"], rng.randint(3, 5))
        formats = [rng.choice(_FORMATS[:6]) for _ in labels]
    else:
        labels = ["Date", "Reference", "Amount", "Paid"]
        formats = ["dd/mm/yyyy", "@", rng.choice(("#,##0.00", "£#,##0")), "0.0%"]
    groups: list[str | None] = [None] * len(labels)
    if look.two_levels and len(labels) >= 4:
        span = rng.randint(2, min(4, len(labels) - 1))
        start = rng.randint(0, len(labels) - span)
        name = rng.choice(("Spending (£000)", "Outturn", "Number of cases", "Per cent", "Staff (FTE)"))
        groups[start:start + span] = [name] * span
    return labels, formats, groups


def _value(rng: random.Random, number_format: str) -> object:
    if number_format == "dd/mm/yyyy":
        return dt.date(2023, 1, 1) + dt.timedelta(days=rng.randint(0, 364))
    if number_format == "@":
        return f"INV-{rng.randint(10000, 99999)}"
    if number_format == "0.0%":
        return round(rng.uniform(-0.2, 0.6), 3)
    if number_format == "#,##0.00":
        return round(rng.uniform(-2000, 90000), 2)
    if number_format == "#,##0;(#,##0)":
        return rng.randint(-90000, 900000)
    if number_format == "0":
        return rng.randint(0, 999)
    return rng.randint(0, 2_000_000)


class _Styles:
    """The cell styles of one workbook's look (openpyxl's objects, imported lazily)."""

    def __init__(self, look: _Look) -> None:
        from openpyxl.styles import Alignment, Border, Font, PatternFill, Side

        self.look = look
        thin = Side(style="thin", color="000000")
        self.body = Font(name=look.font, size=look.size)
        self.bold = Font(name=look.font, size=look.size, bold=True)
        self.header = Font(name=look.font, size=look.size, bold=look.header_bold,
                           color="FFFFFF" if look.shaded and look.dark else None)
        self.note = Font(name=look.font, size=max(7.0, look.size - 1), italic=True)
        self.box = Border(left=thin, right=thin, top=thin, bottom=thin)
        self.under = Border(bottom=thin)
        self.over = Border(top=thin)
        self.fill = PatternFill("solid", fgColor="1F3864" if look.dark else "D9D9D9") if look.shaded else None
        self.alignment = Alignment
        self.font = Font

    def header_cell(self, cell: object, last_row: bool, centred: bool) -> None:
        look = self.look
        cell.font = self.header  # type: ignore[attr-defined]
        horizontal = "center" if centred else (None if look.header_align == "general" else look.header_align)
        cell.alignment = self.alignment(horizontal=horizontal)  # type: ignore[attr-defined]
        if self.fill is not None:
            cell.fill = self.fill  # type: ignore[attr-defined]
        if look.rules == "grid":
            cell.border = self.box  # type: ignore[attr-defined]
        elif look.rules == "header" and last_row:
            cell.border = self.under  # type: ignore[attr-defined]

    def body_cell(self, cell: object, first_column: bool, bold: bool = False) -> None:
        look = self.look
        cell.font = self.bold if bold else self.body  # type: ignore[attr-defined]
        if look.wrapped:
            cell.alignment = self.alignment(wrap_text=first_column, vertical="top")  # type: ignore[attr-defined]
        if look.rules == "grid":
            cell.border = self.box  # type: ignore[attr-defined]
        elif bold:
            cell.border = self.over  # type: ignore[attr-defined]


def _write_header(sheet: object, row: int, stub: str, labels: list[str], groups: list[str | None],
                  styles: _Styles, rng: random.Random) -> tuple[list[list[str]], int]:
    """The header rows from `row` on (a row of merged group cells first when there are
    groups): their cells as printed, and the last header row."""
    columns = 1 + len(labels)
    header: list[list[str]] = []
    if any(groups):
        top = [""] * columns
        styles.header_cell(sheet.cell(row=row, column=1), False, False)  # type: ignore[attr-defined]
        col = 1
        while col < columns:
            group = groups[col - 1]
            end = col
            while group is not None and end + 1 < columns and groups[end] == group:
                end += 1
            for c in range(col, end + 1):
                styles.header_cell(sheet.cell(row=row, column=c + 1), False, False)  # type: ignore[attr-defined]
            if group is not None:
                anchor = sheet.cell(row=row, column=col + 1, value=group)  # type: ignore[attr-defined]
                styles.header_cell(anchor, False, rng.random() < 0.5)
                sheet.merge_cells(start_row=row, start_column=col + 1, end_row=row, end_column=end + 1)  # type: ignore[attr-defined]
                top[col] = group
            col = end + 1
        header.append(top)
        row += 1
    header.append([stub, *labels])
    for c, label in enumerate(header[-1], 1):
        styles.header_cell(sheet.cell(row=row, column=c, value=label), True, False)  # type: ignore[attr-defined]
    return header, row


#: Width in points of the wrapped column (28 characters wide) a line of its text may fill, unscaled:
#: read off Calc's PDFs (a 193.6 pt line fits, a 199.4 pt one wraps, in Serif and Sans Narrow alike).
_WRAP_POINTS = 196.0


@functools.cache
def _font(font: str) -> object:
    """`font` at 100 pt from the file fontconfig picks for it, as Calc does."""
    from PIL import ImageFont

    path = subprocess.run(["fc-match", "-f", "%{file}", font], check=True, capture_output=True,
                          text=True).stdout
    return ImageFont.truetype(path, 100)


def _text_width(text: str, font: str, size: float) -> float:
    """`text`'s width in points in `font` at `size`."""
    return float(_font(font).getlength(text)) * size / 100  # type: ignore[attr-defined]


def _fit_row(sheet: object, row: int, text: str, look: _Look) -> None:
    """The height of a row whose first cell wraps `text`, as Excel stores it once it has fitted
    the row to its content: without a stored height Calc keeps the default one-line height and
    prints the wrapped lines over the rows below (text no real export has)."""
    lines, line = 1, ""
    for word in text.split():
        longer = f"{line} {word}" if line else word
        if line and _text_width(longer, look.font, look.size) > _WRAP_POINTS:
            lines, line = lines + 1, word
        else:
            line = longer
    sheet.row_dimensions[row].height = round(lines * look.size * 1.2 + 2.5, 1)  # type: ignore[attr-defined]


def _write_body(sheet: object, row: int, names: list[str], formats: list[str], styles: _Styles,
                rng: random.Random) -> tuple[list[list[str]], int]:
    """A row per name after `row`, values drawn in each column's format (now and then one
    left empty), and sometimes a bold total row: the rows as printed, and the last row."""
    body: list[list[str]] = []
    sums: list[float] = [0.0] * len(formats)
    for name in names:
        row += 1
        values: list[object] = [name] + [_value(rng, f) for f in formats]
        if rng.random() < 0.08:  # a value not available
            values[rng.randrange(1, len(values))] = ""
        printed = []
        for c, (value, fmt) in enumerate(zip(values, ["@", *formats], strict=True), 1):
            cell = sheet.cell(row=row, column=c, value=value if value != "" else None)  # type: ignore[attr-defined]
            styles.body_cell(cell, c == 1)
            if fmt != "@":
                cell.number_format = fmt
            if c > 1 and isinstance(value, (int, float)):
                sums[c - 2] += value
            printed.append(display(value, fmt) if value != "" else "")
        if styles.look.wrapped:
            _fit_row(sheet, row, name, styles.look)
        body.append(printed)
    if rng.random() < 0.5 and all(f not in ("dd/mm/yyyy", "@", "0.0%") for f in formats):
        row += 1
        totals = ["Total"]
        styles.body_cell(sheet.cell(row=row, column=1, value="Total"), True, bold=True)  # type: ignore[attr-defined]
        for c, (total, fmt) in enumerate(zip(sums, formats, strict=True), 2):
            value = round(total, 2) if fmt == "#,##0.00" else round(total)
            cell = sheet.cell(row=row, column=c, value=value)  # type: ignore[attr-defined]
            cell.number_format = fmt
            styles.body_cell(cell, False, bold=True)
            totals.append(display(value, fmt))
        body.append(totals)
    return body, row


def _write_sheet(sheet: object, rng: random.Random, look: _Look, book: SheetWorkbook, title: str,
                 tables: int) -> None:
    """One sheet: its title (and units line), `tables` tables with notes, and its page setup."""
    from openpyxl.utils import get_column_letter

    styles = _Styles(look)
    cell = sheet.cell(row=1, column=1, value=title)  # type: ignore[attr-defined]
    cell.font = styles.font(name=look.font, size=rng.choice((12.0, 14.0, 16.0)), bold=True)
    book.headings.append(OfficeHeading(title, 1))
    row = 2
    if look.units_line:
        units = rng.choice(_UNITS)
        sheet.cell(row=row, column=1, value=units).font = styles.body  # type: ignore[attr-defined]
        row += 1
    row += 1
    widths: dict[int, float] = {}
    for index in range(tables):
        labels, formats, groups = _columns(rng, look)
        stub = "Description" if look.wrapped else rng.choice(_STUBS)
        names = list(_DESCRIPTIONS if look.wrapped else rng.choice((_PLACES, _ITEMS)))
        count = rng.choice((rng.randint(6, 16), rng.randint(6, 16), rng.randint(40, 90)))
        picked = [names[i % len(names)] + ("" if i < len(names) else f" {i // len(names) + 1}")
                  for i in rng.sample(range(max(count, len(names))), count)]
        first = row
        header, row = _write_header(sheet, row, stub, labels, groups, styles, rng)
        body, row = _write_body(sheet, row, picked, formats, styles, rng)
        book.tables.append(OfficeTable([*header, *body], look.rules in ("grid", "gridlines")))
        for c in range(1, len(labels) + 2):
            longest = max(len(r[c - 1]) for r in [header[-1], *body])
            width = 28.0 if c == 1 and look.wrapped else min(40.0, longest * 1.15 + 2)
            widths[c] = max(widths.get(c, 0.0), width)
        if look.print_titles and index == 0:
            sheet.print_title_rows = f"{first}:{row - len(body)}"  # type: ignore[attr-defined]
        row += 2
        if rng.random() < 0.6:
            sheet.cell(row=row, column=1, value=rng.choice(_NOTES)).font = styles.note  # type: ignore[attr-defined]
            row += 2
    for c, width in widths.items():
        sheet.column_dimensions[get_column_letter(c)].width = width  # type: ignore[attr-defined]
    if look.rules == "gridlines":
        sheet.print_options.gridLines = True  # type: ignore[attr-defined]
    if look.landscape:
        sheet.page_setup.orientation = "landscape"  # type: ignore[attr-defined]
    sheet.page_setup.paperSize = 9  # type: ignore[attr-defined]  # A4
    # Fitted to the page's width (as anyone printing a wide sheet sets it), as long as it
    # needs: a table cut into vertical strips on separate pages is not one to read back.
    sheet.sheet_properties.pageSetUpPr.fitToPage = True  # type: ignore[attr-defined]
    sheet.page_setup.fitToWidth = 1  # type: ignore[attr-defined]
    sheet.page_setup.fitToHeight = 0  # type: ignore[attr-defined]
    if look.running:
        sheet.oddHeader.center.text = "&A"  # type: ignore[attr-defined]
        sheet.oddFooter.center.text = "Page &P of &N"  # type: ignore[attr-defined]


def generate_workbook(seed: int) -> SheetWorkbook:
    """Workbook `seed`: one to three sheets, each a title and one or two tables."""
    import openpyxl

    rng = random.Random(seed)
    look = _pick_look(rng)
    book = SheetWorkbook(seed=seed, name=f"sheet-{seed:04d}", xlsx=b"",
                         look={k: v for k, v in look.__dict__.items()})
    workbook = openpyxl.Workbook()
    subjects = rng.sample(_SUBJECTS, rng.choice((1, 1, 2, 3)))
    for i, subject in enumerate(subjects):
        ws = workbook.active if i == 0 else workbook.create_sheet()
        ws.title = f"Table {i + 1}"
        year = rng.randint(2019, 2024)
        title = rng.choice((f"{subject}, {year}", f"Table {i + 1}: {subject}", subject))
        _write_sheet(ws, rng, look, book, title, rng.choice((1, 1, 1, 2)))
    buffer = io.BytesIO()
    workbook.save(buffer)
    book.xlsx = buffer.getvalue()
    return book


def convert(paths: list[Path], outdir: Path, tagged: bool = False, timeout: float = 600) -> list[Path]:
    """Each XLSX in `paths` as PDF in `outdir` (same stem), in one LibreOffice Calc run with a
    private profile, tagged or not."""
    options = {"UseTaggedPDF": tagged, "ExportBookmarks": tagged}
    return libreoffice_pdf(paths, outdir, "calc_pdf_Export", options, timeout)
