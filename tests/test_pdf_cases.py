"""The failure-class generator (tests/pdf_cases.py) and its scoring: each class's own expected
Markdown scores perfectly (the truth and the scorer agree), and the structure stage holds the
classes it has been taught."""

from __future__ import annotations

import pytest

from bench.pdf_structure import measure_cases
from tests.pdf_cases import CASES, make_case


@pytest.mark.parametrize("name", sorted(CASES))
def test_expected_markdown_scores_perfectly(name: str) -> None:
    scores = measure_cases([name], 2, 1, markdown_of=lambda report: report.expected_markdown)[name]
    assert scores["heading_f1"] == 1.0
    if any(make_case(name, seed).tables for seed in (1, 2)):  # (rtl_text has none)
        assert scores["table_rows_exact"] == 1.0
    assert scores["paragraph_one_block"] == 1.0


def test_sideways_and_turned_page_tables_are_read_upright() -> None:
    scores = measure_cases(["rotated_table"], 3, 1)["rotated_table"]
    assert scores["heading_f1"] == 1.0
    assert scores["table_rows_exact"] == 1.0
    assert scores["paragraph_one_block"] == 1.0  # the /Rotate page's lines read whole


def test_right_to_left_pages_are_read_in_logical_order() -> None:
    text = measure_cases(["rtl_text"], 3, 1)["rtl_text"]
    assert text["heading_f1"] == 1.0 and text["paragraph_one_block"] == 1.0
    table = measure_cases(["rtl_table"], 3, 1)["rtl_table"]
    assert table["heading_f1"] == 1.0 and table["table_rows_exact"] == 1.0


def test_sideways_table_without_line_breaks_between_its_rows() -> None:
    # Seed 101's sideways table: PDFium puts no line break between its rows, so the region's
    # lines are counted from the words' positions (one line by PDFium's count: no region).
    scores = measure_cases(["rotated_table"], 1, 101)["rotated_table"]
    assert scores["tables_found"] == 1.0 and scores["table_rows_exact"] == 1.0


def test_tables_continued_on_the_next_page_are_one_table() -> None:
    scores = measure_cases(["page_crossing_table"], 4, 1)["page_crossing_table"]
    assert scores["table_f1"] == 1.0
    assert scores["table_rows_exact"] == 1.0


def test_a_ledger_continued_without_its_header_is_one_table() -> None:
    # The gutter between its dates and references only the first page's header shows.
    scores = measure_cases(["ledger_continued"], 4, 1)["ledger_continued"]
    assert scores["table_f1"] == 1.0
    assert scores["tables_found"] == 1.0 and scores["table_rows_exact"] == 1.0


def test_harder_borderless_tables_are_read_cell_for_cell() -> None:
    # Multi-level headers, cells with spaces and dense listings (tests/test_pdf_tables_unruled.py
    # tests each rule on its own).
    names = ["two_level_header", "three_level_header", "spaced_cells", "dense_listing"]
    for name, scores in measure_cases(names, 3, 1).items():
        assert scores["table_f1"] == 1.0, name
        assert scores["table_rows_exact"] == 1.0, name
