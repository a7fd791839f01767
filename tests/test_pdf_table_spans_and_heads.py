"""Rules found by the office probes at seeds 301-302 (issue 32): a total row's label merged
over two unruled columns keeps them apart for the other rows (body_spans), and a long table's
header row repeated over the rest of a row broken over the page is the table's, not a running
header (page_rows).  Pages drawn as the failing probes were typeset."""

from __future__ import annotations

import io
from typing import Any

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from extractors.pdf_text import read_text_layer
from tests.pdf_output import drawn_pdf, markdown_of, markdown_table

# ------------------------------------------------------------ a label spanning two columns

SPANS = [["Area", "Type", "2020", "2021", "2022"],
         ["North", "Rural", "50,370", "77,515", "33,957"],
         ["Valley", "Urban", "65.72%", "2.87%", "21.97%"],
         ["Total housing", "", "50,080", "5,379", "92,634"],
         ["South", "Rural", "29.0", "70.4", "82.8"],
         ["Coast", "Rural", "28.95%", "13.94%", "6.18%"],
         ["Total employment", "", "19.6", "29.0", "24.1"]]


def _spanning_totals(canvas: Any) -> None:
    # body_spans at seed 302 (Word, no grid): each group's total labelled across the area and
    # type columns, the longer label reaching well into the type column (the probe's type at
    # its measures: "Total" 28 points wide).
    canvas.setFont("Times-Bold", 18)
    canvas.drawString(90.0, 720.0, "Figures by area")
    canvas.setFont("Times-Roman", 13)
    canvas.drawString(90.0, 700.0, "The table below gives the figures by area and type.")
    y = 670.0
    for row in SPANS:
        for x, text in zip((90.0, 176.5, 262.9, 349.3, 435.7), row, strict=True):
            if text:
                canvas.drawString(x, y, text)
        y -= 24.6
    canvas.drawString(90.0, y - 4.0, "Figures are provisional.")


def test_a_total_label_over_two_unruled_columns_keeps_them_apart() -> None:
    # (Crossed by one line in seven, the gap between the area and type columns was no gap:
    # "Area Type" and "North Rural" one cell each.)
    assert markdown_table(SPANS) in markdown_of(drawn_pdf(_spanning_totals))


# ------------------------------------------------------------ a header row repeated over a row's rest

FONT, SIZE, LEFT, COST, START = "Times-Roman", 11.0, 90.0, 349.0, 421.0
WORKS = [("Inspection of the two footbridges over the", "river, with new test points at each end."),
         ("Replacement of the old street lamps with", "low-energy units across the whole estate."),
         ("Cleaning of gullies and drains along the", "coast road after the winter storms."),
         ("New cycle lane along the ring road with", "signals at the junctions and new crossings.")]
MONTHS = ("April", "June", "September", "January")
BROKEN = ("Resurfacing of the main road through the", "village centre, begun in {begun} and finished",
          "in {done} ahead of plan.")


def _works_over_pages(pages: int = 4) -> tuple[bytes, list[list[str]]]:
    """page_rows at seed 302 (Word, no grid): a works table over ``pages`` pages, each page's
    last row broken after two lines of its label, the header row repeated at the top of the
    next page over the label's last line (set a padded row's pitch under it), then whole rows;
    a running header ("Works programme 2025" and the page's number) over every page, in a
    smaller type in the margin.  The PDF and the table's cells."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, invariant=1)
    cells = [["Scheme", "Cost (£k)", "Start"]]
    for page in range(pages):
        canvas.setFont(FONT, 9.0)
        canvas.drawString(LEFT, A4[1] - 40.0, "Works programme 2025")
        canvas.drawRightString(A4[0] - 90.0, A4[1] - 40.0, f"Page {page + 1}")
        canvas.setFont(FONT, SIZE)
        if page == 0:
            canvas.drawString(LEFT, A4[1] - 126.0, "The works planned for the year are set out below.")
        y = A4[1] - (160.0 if page == 0 else 84.0)
        for x, text in zip((LEFT, COST, START), cells[0], strict=True):
            canvas.drawString(x, y, text)
        y -= 27.0
        if page:
            canvas.drawString(LEFT, y, BROKEN[2].format(done=2015 + page))
            y -= 24.7
        for i in range(12 if page == 0 else 14):
            labels, cost, start = WORKS[(page + i) % 4], f"{(page * 131 + i * 37) % 900 + 10:,}", \
                MONTHS[(page + i) % 4]
            canvas.drawString(COST, y, cost)
            canvas.drawString(START, y, start)
            for text in labels:
                canvas.drawString(LEFT, y, text)
                y -= 14.4
            y -= 10.3
            cells.append([" ".join(labels), cost, start])
        if page + 1 < pages:
            canvas.drawString(COST, y, "555")
            canvas.drawString(START, y, "May")
            for text in BROKEN[:2]:
                canvas.drawString(LEFT, y, text.format(begun=2015 + page))
                y -= 14.4
            cells.append([" ".join(BROKEN).format(begun=2015 + page, done=2016 + page), "555", "May"])
        else:
            canvas.drawString(LEFT, y - 10.0, "All costs are estimates.")
        canvas.showPage()
    canvas.save()
    return buffer.getvalue(), cells


def test_a_header_row_repeated_over_the_rest_of_a_row_is_no_running_header() -> None:
    # (Left out of each page's table by the rest of the row under it, it recurs at the head of
    # every page as a running header does: a page where one of its cells was read apart from
    # the others lost that cell.)
    data, cells = _works_over_pages()
    layer = read_text_layer(data)
    for page in layer.pages[1:]:
        assert not {"Scheme", "Cost (£k)", "Start"} & set(page.running), page.running
        assert "Works programme 2025" in page.running
    markdown = "\n\n".join(page.markdown for page in layer.pages)
    assert markdown_table(cells) in markdown
    assert "Scheme" not in markdown.replace("| Scheme |", "", 1)


def _accounts_over_pages(pages: int = 3, title: bool = True) -> bytes:
    """A council's accounts over ``pages`` pages in 9-point type, the labels at the left margin
    and the figures set right, the last column at the right margin, two blank lines between
    groups of five rows; a running header in the table's type over each page, "Annual report
    2024" at the left margin (unless not ``title``) and the page's number at the right one, 34
    points over the text."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, invariant=1)
    width, height = A4
    for page in range(pages):
        canvas.setFont("Helvetica", 9)
        if title:
            canvas.drawString(72, height - 40, "Annual report 2024")
        canvas.drawRightString(width - 72, height - 40, f"Page {page + 1}")
        y = height - 74
        if page == 0:
            canvas.drawString(72, y, "The accounts of the council are set out in the table below.")
            y -= 17.25
        canvas.setFont("Helvetica-Bold", 9)
        for text, x in (("2023", width - 162), ("2024", width - 72)):
            canvas.drawRightString(x, y, text)
        canvas.drawString(72, y, "Account")
        y -= 14.4
        canvas.setFont("Helvetica", 9)
        for i in range(24):
            k = page * 24 + i
            if i and i % 5 == 0:
                y -= 22.5
            canvas.drawString(72, y, f"Account line {k + 1}")
            canvas.drawRightString(width - 162, y, f"{(k * 37) % 900 + 100:,}")
            canvas.drawRightString(width - 72, y, f"{(k * 53) % 900 + 100:,}")
            y -= 11.25
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_a_running_header_in_the_tables_type_and_columns_stays_a_running_header() -> None:
    # (Its two pieces stand at the table's first and last columns, in its type, a padded
    # row's pitch over the text: only a table's header cells, as some other page's table
    # heads, make it the table's header row repeated.)
    layer = read_text_layer(_accounts_over_pages())
    assert "Page 1" in layer.pages[0].running, layer.pages[0].running
    assert "Page 1" not in layer.pages[0].markdown, layer.pages[0].markdown


def test_a_page_number_alone_over_the_last_column_stays_a_running_header() -> None:
    # (A lone line over a table's inner column may be the rest of a row broken over the page,
    # given back when the same words top another page; a page's number differs page by page.)
    layer = read_text_layer(_accounts_over_pages(title=False))
    for number, page in enumerate(layer.pages[:2], start=1):
        assert f"Page {number}" in page.running, page.running
        assert f"Page {number}" not in page.markdown, page.markdown
