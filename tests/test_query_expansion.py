"""Query expansion from the first results (indexing/feedback.py, RM3): the expanded query's
weights, and a search that finds, through the words its best documents share, a document that
does not contain the query's word -- off unless asked for, and then exactly as before."""

from __future__ import annotations

import pytest

from indexing.feedback import expand
from indexing.search import SearchParams, search
from tests.test_bm25 import _index


@pytest.mark.unit
def test_the_expanded_query_mixes_the_query_with_what_its_documents_share() -> None:
    # One feedback document: its model is regrow 2/3, zebrafish 1/3 (softmax of one score: 1).
    terms, weights = expand(["zebrafish", "zebrafish", "tail"], [("regrow regrow zebrafish", 2.0)],
                            terms=2, weight=0.2)
    mixed = dict(zip(terms, weights, strict=True))
    # The query's part weighs 0.8 by its counts; the model's two strongest terms 0.2 by theirs.
    assert mixed == pytest.approx({"zebrafish": 0.8 * 2 / 3 + 0.2 / 3, "tail": 0.8 / 3,
                                   "regrow": 0.2 * 2 / 3})
    # A better-scoring document counts for more; only the strongest `terms` are taken.
    terms, weights = expand(["fish"], [("alpha alpha", 5.0), ("beta", 1.0)], terms=1, weight=0.5)
    assert dict(zip(terms, weights, strict=True)) == pytest.approx({"fish": 0.5, "alpha": 0.5})


@pytest.mark.unit
def test_without_feedback_the_query_stays_as_it_was() -> None:
    assert expand(["a", "b", "a"], [], terms=10, weight=0.2) == (["a", "b"], [2.0, 1.0])
    assert expand(["a"], [("a b c", 1.0)], terms=10, weight=0.0) == (["a"], [1.0])


def test_expansion_finds_a_document_worded_differently(engine, tenant) -> None:
    _index(engine, tenant, "a", "zebrafish regenerate their fins after amputation injury")
    _index(engine, tenant, "b", "zebrafish fins regenerate quickly after amputation")
    _index(engine, tenant, "c", "salamanders regenerate limbs after amputation injury")
    _index(engine, tenant, "d", "tax returns are due in april")
    with engine.begin() as conn:
        plain = search(conn, tenant, "zebrafish", k=5, mode="bm25")
        off = search(conn, tenant, "zebrafish", k=5, mode="bm25", params=SearchParams(expansion=False))
        expanded = search(conn, tenant, "zebrafish", k=5, mode="bm25",
                          params=SearchParams(expansion=True, expansion_documents=2))
    assert [h.document_id for h in plain] == [h.document_id for h in off]
    assert {h.document_id for h in plain} == {"a", "b"}
    # Through 'regenerate' and 'amputation', which both zebrafish documents share.
    ids = [h.document_id for h in expanded]
    assert set(ids[:2]) == {"a", "b"} and ids[2] == "c" and "d" not in ids
    # Snippets still mark the user's words.
    assert "**zebrafish**" in (expanded[0].snippet or "").lower()
