"""The spreadsheet development set (tests/office_sheets.py): its truth is what LibreOffice Calc
prints, so a score against it measures the reader, not the generator."""

from __future__ import annotations

import datetime as dt
import shutil

import pypdfium2
import pytest

from tests.office_sheets import display, generate_workbook


def test_display_follows_calcs_number_formats():
    assert display(1234567, "#,##0") == "1,234,567"
    assert display(-1234, "#,##0;(#,##0)") == "(1,234)"
    assert display(-1234.5, "#,##0.00") == "-1,234.50"
    assert display(0.123, "0.0%") == "12.3%"
    assert display(-0.0, "0.0%") == "0.0%"
    assert display(1500, "£#,##0") == "£1,500"
    assert display(dt.date(2023, 1, 3), "dd/mm/yyyy") == "03/01/2023"
    assert display("INV-12345", "@") == "INV-12345"


@pytest.mark.system  # a workbook with wrapped rows asks fc-match for its font's file
def test_the_same_seed_gives_the_same_workbook_truth():
    assert generate_workbook(7).truth() == generate_workbook(7).truth()
    assert generate_workbook(7).truth() != generate_workbook(8).truth()


@pytest.mark.system
def test_every_true_cell_and_title_is_printed_by_calc(tmp_path):
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is not installed: .ci/setup installs it as root")
    from tests.office_sheets import convert

    books = [generate_workbook(seed) for seed in (1, 2, 5, 13)]
    sources = []
    for book in books:
        path = tmp_path / f"{book.name}.xlsx"
        path.write_bytes(book.xlsx)
        sources.append(path)
    for book, pdf in zip(books, convert(sources, tmp_path / "pdf"), strict=True):
        document = pypdfium2.PdfDocument(pdf)
        words = {w for page in document for w in page.get_textpage().get_text_range().split()}
        cells = [c for table in book.tables for row in table.cells for c in row if c]
        missing = [c for c in cells if not set(c.split()) <= words]
        assert not missing, (book.name, missing[:5])
        assert all(set(h.text.split()) <= words for h in book.headings), book.name
        # Fitted to the page's width: every table's columns on one page.
        assert len(document) <= sum(1 + len(t.cells) // 40 for t in book.tables) + len(book.headings)
