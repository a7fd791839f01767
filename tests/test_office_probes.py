"""The office probes' generator and scorer (bench/office_probes.py): every class makes its
documents with a truth, and the scorer passes a document only when its tables, headings and
list items are all in the Markdown."""

from __future__ import annotations

import pytest

from bench.office_probes import passes
from tests.office_probes import PROBES


@pytest.mark.parametrize("name", sorted(PROBES))
def test_every_probe_class_makes_documents_with_a_truth(name: str) -> None:
    count, maker = PROBES[name]
    for seed in (1, count):
        suffix, data, truth = maker(seed)
        assert (suffix in ("docx", "xlsx", "pptx") and data[:2] == b"PK") \
            or (suffix == "html" and b"</body>" in data)
        # (A letter's truth is that it has no headings: an empty list, but a truth.)
        assert truth.get("tables") or "headings" in truth


TRUTH = {"tables": [[["Region", "2022"], ["North", "1.5"]]], "headings": ["Report", "Background"],
         "items": ["Figure 1: Births 3"]}
MARKDOWN = ("# Report\n\n## Background\n\n- Figure 1: Births 3\n\n"
            "| Region | 2022 |\n| --- | --- |\n| North | 1.5 |\n")


def test_a_document_passes_only_with_all_its_tables_headings_and_items() -> None:
    assert passes(MARKDOWN, TRUTH)
    assert not passes(MARKDOWN.replace("| 1.5 |", "| 1.6 |"), TRUTH)
    assert not passes(MARKDOWN.replace("## Background", "Background"), TRUTH)
    assert not passes(MARKDOWN.replace("- Figure 1", "Figure 1"), TRUTH)
    assert passes(MARKDOWN.replace("## Background", "### Background"), TRUTH)  # levels aside


def test_levels_and_follows_when_the_truth_gives_them() -> None:
    """``levels``: the emitted levels rank the headings as the true ones do (any shift);
    ``follows``: each heading is read right before the text it heads."""
    truth = {"headings": ["Report", "Background", "Scope"], "levels": [1, 2, 2],
             "follows": {"Background": "The council reviewed", "Scope": "Spending stayed"}}
    markdown = "# Report\n\n## Background\n\nThe council reviewed it.\n\n## Scope\n\nSpending stayed low.\n"
    assert passes(markdown, truth)
    assert passes(markdown.replace("## ", "### ").replace("# Report", "## Report"), truth)
    assert not passes(markdown.replace("## Scope", "### Scope"), truth)  # 2 and 2 ranked apart
    assert not passes(markdown.replace("# Report", "### Report"), truth)  # 1 under 2
    swapped = "# Report\n\n## Background\n\nSpending stayed low.\n\n## Scope\n\nThe council reviewed it.\n"
    assert not passes(swapped, truth)  # each heading's text read after another


def test_text_runs_and_numbered_items_when_the_truth_gives_them() -> None:
    """``text``: runs of paragraphs read whole, in order, outside headings, items and tables (a
    line number read into them, a paragraph made an item, breaks them); ``items`` may be
    numbered items, read with their numbers ("1. A device comprising: ...")."""
    truth = {"headings": ["CLAIMS"], "items": ["1. A device comprising: a housing."],
             "text": ["[0001] The housing holds the sensor. [0002] The sensor reads."]}
    markdown = ("[0001] The housing holds\nthe sensor.\n\n[0002] The sensor reads.\n\n# CLAIMS\n\n"
                "1. A device comprising: a housing.\n")
    assert passes(markdown, truth)
    assert not passes(markdown.replace("holds\nthe", "holds 5 the"), truth)
    assert not passes(markdown.replace("[0002]", "- [0002]"), truth)
    assert not passes(markdown.replace("1. A device", "A device"), truth)
