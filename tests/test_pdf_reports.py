"""The generated reports that measure PDF structure (tests/pdf_reports.py), and one end-to-end
structure check through the router against floors (bench/pdf_structure.py's measures)."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from bench.pdf_structure import measure_reports, normalise
from tests.pdf_reports import GeneratedReport, generate_report


def _page_texts(data: bytes) -> list[str]:
    pdf = pdfium.PdfDocument(data)
    try:
        return [normalise(page.get_textpage().get_text_bounded()) for page in pdf]
    finally:
        pdf.close()


def test_a_seed_is_one_report_and_seeds_differ() -> None:
    first, again, other = generate_report(11), generate_report(11), generate_report(12)
    assert first.pdf == again.pdf
    assert (first.headings, first.paragraphs, first.list_items, first.tables, first.footers) == (
        again.headings, again.paragraphs, again.list_items, again.tables, again.footers)
    assert first.pdf != other.pdf
    assert [h.text for h in first.headings] != [h.text for h in other.headings]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_ground_truth_is_what_the_text_layer_holds(seed: int) -> None:
    report = generate_report(seed)
    pages = _page_texts(report.pdf)
    text = " ".join(pages)
    assert len(pages) == report.page_count >= 3
    for heading in report.headings:
        assert normalise(heading.text) in text, heading
    for paragraph in report.paragraphs:
        assert normalise(paragraph.text) in text, paragraph.text[:60]
    for item in report.list_items:
        assert normalise(item.text) in text, item.text[:60]
    for table in report.tables:
        for row in table.cells:
            assert normalise(" ".join(row)) in text, row
    for number, page in enumerate(pages, start=1):
        assert normalise(report.header) in page
        assert normalise(report.footers[number - 1]) in page


def test_every_report_has_the_structure_it_promises() -> None:
    report = generate_report(5)
    assert {h.level for h in report.headings} == {1, 2, 3}
    assert any(not h.numbered for h in report.headings)
    assert {t.ruled for t in report.tables} == {True, False}
    assert any(p.in_columns for p in report.paragraphs)
    assert any(p.justified for p in report.paragraphs) and any(not p.justified for p in report.paragraphs)
    assert {i.marker == "•" for i in report.list_items} == {True, False}
    assert any(len(i.text.split()) >= 14 for i in report.list_items)  # wraps to two lines


def test_the_scorer_gives_full_marks_to_the_expected_markdown_only() -> None:
    perfect = measure_reports(count=3, seed=20, markdown_of=lambda report: report.expected_markdown)
    for key in ("heading_f1", "heading_level_accuracy", "table_f1", "table_rows_exact", "paragraph_one_block",
                "paragraph_one_block_columns", "list_item_one_line", "list_item_markdown", "running_removed"):
        assert perfect[key] == 1.0, (key, perfect["failures"])

    def flattened(report: GeneratedReport) -> str:
        """The expected text with its structure lost and the running lines kept, as a bare text layer."""
        lines = report.expected_markdown.splitlines()
        body = "\n".join(line.lstrip("#- ").replace("|", " ") for line in lines)
        return f"{report.header}\n{body}\n{report.footers[0]}\n"

    flat = measure_reports(count=3, seed=20, markdown_of=flattened)
    assert flat["heading_f1"] == flat["table_f1"] == 0.0
    assert flat["running_removed"] < 1.0
    assert flat["bow_recall"] == 1.0


# FLOORS — TIGHTEN THESE as the structure stage improves.  Set below what the code measured on
# these two reports (seeds 100 and 101) on 2026-12-01: heading F1 1.000, paragraphs as one block
# 0.930 (0.833 on the two-column page), running header/footer removed 1.000; the text layer alone
# scored 0.000 on all three.  Issue 18's targets are 0.9 for each (docs/BENCHMARKS.md, issue 18).
HEADING_F1_FLOOR = 0.9
# Numbered headings take their level from numbering depth below the level their outermost
# sections are set at (1.000 on these reports since that rule; 0.0 when "1." was always "##").
HEADING_LEVEL_FLOOR = 0.9
PARAGRAPH_ONE_BLOCK_FLOOR = 0.8
RUNNING_REMOVED_FLOOR = 0.9
TABLE_F1_FLOOR = 0.85  # measured 0.918


def test_structure_of_two_generated_reports_end_to_end() -> None:
    scores = measure_reports(count=2, seed=100)
    assert scores["heading_f1"] >= HEADING_F1_FLOOR, scores["failures"]
    assert scores["heading_level_accuracy"] >= HEADING_LEVEL_FLOOR, scores["failures"]
    assert scores["table_f1"] >= TABLE_F1_FLOOR, scores["failures"]
    assert scores["paragraph_one_block"] >= PARAGRAPH_ONE_BLOCK_FLOOR, scores["failures"]
    assert scores["running_removed"] >= RUNNING_REMOVED_FLOOR, scores["failures"]
    assert scores["bow_recall"] >= 0.99
