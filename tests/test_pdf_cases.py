"""The failure-class generator (tests/pdf_cases.py) and its scoring: each class's own expected
Markdown scores perfectly (the truth and the scorer agree), and the structure stage holds the
classes it has been taught."""

from __future__ import annotations

import pytest

from bench.pdf_structure import measure_cases
from tests.pdf_cases import CASES


@pytest.mark.parametrize("name", sorted(CASES))
def test_expected_markdown_scores_perfectly(name: str) -> None:
    scores = measure_cases([name], 2, 1, markdown_of=lambda report: report.expected_markdown)[name]
    assert scores["heading_f1"] == 1.0
    assert scores["table_rows_exact"] == 1.0
    assert scores["paragraph_one_block"] == 1.0


def test_sideways_and_turned_page_tables_are_read_upright() -> None:
    scores = measure_cases(["rotated_table"], 3, 1)["rotated_table"]
    assert scores["heading_f1"] == 1.0
    assert scores["table_rows_exact"] == 1.0


def test_tables_continued_on_the_next_page_are_one_table() -> None:
    scores = measure_cases(["page_crossing_table"], 4, 1)["page_crossing_table"]
    assert scores["table_f1"] == 1.0
    assert scores["table_rows_exact"] == 1.0
