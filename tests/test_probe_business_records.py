"""The business-record probe classes (tests/probe_invoice.py, tests/probe_minutes.py): a seed
makes the same document and truth each time (the cache and the scores depend on it), seeds
vary the document, and the truth holds together (the totals add up, each heading's level and
opening text given)."""

from __future__ import annotations

import re

import pytest

from tests.office_probes import PROBES
from tests.probe_invoice import invoice
from tests.probe_minutes import meeting_minutes


@pytest.mark.parametrize("name", ["invoice", "meeting_minutes"])
def test_a_seed_makes_the_same_truth_and_seeds_differ(name: str) -> None:
    count, maker = PROBES[name]
    truths = [maker(seed)[2] for seed in range(1, count + 1)]
    assert [maker(seed)[2] for seed in range(1, count + 1)] == truths
    assert len({repr(truth) for truth in truths}) == count


def _amount(text: str) -> float:
    return float(re.sub(r"[^\d.]", "", text))


def test_an_invoices_totals_add_up_and_are_read_where_they_are_set() -> None:
    kinds = set()
    for seed in range(1, PROBES["invoice"][0] + 1):
        suffix, data, truth = invoice(seed)
        kinds.add(suffix)
        assert truth["headings"] and len(truth["headings"]) == 1
        items = truth["tables"][0]
        if truth["headings"][0] == "Statement of account":
            continue
        totals = [row[-2:] for row in items if row[0] == ""] or \
            [text.split(": ") for text in truth["texts"] if text.startswith(("Subtotal", "VAT", "Total"))]
        subtotal, vat, total = (_amount(amount) for _, amount in totals)
        body = [row for row in items[1:] if row[0]]
        assert subtotal == pytest.approx(sum(_amount(row[-1]) for row in body), abs=0.01)
        assert total == pytest.approx(subtotal + vat, abs=0.01)
        assert any(text.startswith("Invoice number: INV-") for text in truth["texts"])
    assert kinds == {"docx", "html"}


def test_minutes_give_each_headings_level_and_opening_text() -> None:
    for seed in range(1, PROBES["meeting_minutes"][0] + 1):
        suffix, data, truth = meeting_minutes(seed)
        assert suffix == "docx" and data[:2] == b"PK"
        assert len(truth["levels"]) == len(truth["headings"]) and truth["levels"][0] == 1
        assert set(truth["follows"]) == set(truth["headings"][1:])
        assert truth["tables"][0][0][:4] == ["No.", "Action", "Owner", "Due date"]
