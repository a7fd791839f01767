"""The hand-labelled table set's scorer (bench/labelled_tables.py) and its labels."""

from __future__ import annotations

from bench.labelled_tables import _labels, cell_key, score_file


def _label(page: int, grid: list[list[str]]) -> dict:
    return {"page": page, "rows": len(grid), "cols": max(len(r) for r in grid), "header_rows": 1,
            "grid": grid}


def test_a_label_is_found_by_half_its_cells_and_other_tables_are_false_unless_ambiguous() -> None:
    label = _label(2, [["Name", "Count"], ["alpha", "−1"], ["beta", "2"], ["gamma", "3"]])
    found = [
        (2, [["Name", "Count"], ["alpha", "-1"], ["beta", "2"], ["gamma", "3"]]),  # exact
        (2, [["Some prose that", "runs on"], ["in two", "columns"]]),  # false
        (3, [["Site", "cancer.org.au"], ["Other", "x.org"]]),  # two cells of the ambiguous block
        (2, [["", ""]]),  # no text: ignored
    ]
    ambiguous = [{"page": 3, "cells": ["Site", "cancer.org.au", "Third", "y.org"]}]
    row = score_file(found, [label], ambiguous)
    assert (row["labelled"], row["found"], row["false"], row["emitted"]) == (1, 1, 1, 2)
    assert (row["rows_ok"], row["cols_ok"]) == (1, 1)
    # Adjacency: the label's 4 + 6 relations found; the false table's 4 found and wrong.
    assert (row["adj_correct"], row["adj_annotated"], row["adj_found"]) == (10, 10, 14)


def test_a_label_on_another_page_or_under_half_found_is_missed_and_prefix_cells_match() -> None:
    label = _label(1, [["Question", "Passage"], ["Who?", "Title: A long passage…"]])
    # On page 2: not a candidate for the page-1 label, so missed; its cells are the label's, so
    # the table is not false either (a piece of a table on a neighbouring page).
    row = score_file([(2, [["Question", "Passage"]])], [label], [])
    assert (row["found"], row["false"]) == (0, 0)
    long = [["Question", "Passage"], ["Who?", "Title: A long passage that goes on"]]
    row = score_file([(1, long)], [label], [])
    assert (row["found"], row["rows_ok"], row["adj_correct"], row["adj_found"]) == (1, 1, 4, 4)
    assert cell_key("REALM Wiki (Guu et al., 2020)") == cell_key("REALMWiki (Guu et al., 2020)")


def test_labels_are_consistent_and_the_check_files_are_labelled_files() -> None:
    data = _labels()
    assert set(data["check"]) <= set(data["files"])
    for entry in data["files"].values():
        for table in entry["tables"]:
            assert table["rows"] == len(table["grid"])
            assert table["cols"] == max(len(row) for row in table["grid"])
