"""Structure of born-digital PDFs in pagemill's Markdown: headings, paragraphs, lists, tables,
running headers/footers, body text and speed, today's code side by side with the last commit's.

    .venv/bin/python -m bench.pdf_structure                 # 20 new generated reports
    .venv/bin/python -m bench.pdf_structure -n 40 --seed 7 --json
    .venv/bin/python -m bench.pdf_structure --no-before     # only the working tree's extractors
    .venv/bin/python -m bench.pdf_structure --office        # (d) alone: 24 office documents, seed 1
    .venv/bin/python -m bench.pdf_structure --office --no-before --exports plain,marked,tagged
    .venv/bin/python -m bench.pdf_structure --no-before --repeat 0   # (a) and (b), no speed rounds

Parts, each measured on the working tree's `extractors` ("after") and, in a child
interpreter, on `git archive HEAD extractors` ("before": the text layer only, one Markdown line
per PDF text line):

(a) generated reports (`tests/pdf_reports.py`, known structure), from the Markdown of
    `extractors.router.extract(pdf, filename="r.pdf")`:
    - heading P/R/F1: Markdown heading lines (`#`..`######`) against the real headings, matched
      by text after normalisation (lower case, whitespace collapsed, Markdown emphasis and a
      section number, leading such as `2.1` or trailing, removed on both sides), each used once;
      level accuracy = matched headings whose `#` count equals the true level;
    - table P/R/F1: cells of Markdown pipe tables (separator rows dropped) against the true
      cells; each true table is paired with the generated table sharing most cells (each used
      once), true positives are the shared cells (multisets), precision counts every emitted
      table cell, recall every non-empty true cell (the rest of a spanning cell is no cell to
      find); "rows exact" = true rows that appear as an emitted
      row with the same cells in the same order;
    - paragraphs as one block: true paragraphs equal (after normalisation, hyphenation at line
      ends joined) to one Markdown block (the text between blank lines, line breaks as spaces);
      reported also for the paragraphs of the two-column page alone;
    - list items as one line: true items equal to one Markdown line once a list marker
      (`- `, `* `, `• `, `3. `, `3) `) is removed; "as Markdown items" also needs the line to
      start with `- `, `* ` or `N. `;
    - header/footer removed: 1 - (running header/footer occurrences found in the body) /
      (pages x 2); a header is found as a substring of the normalised Markdown, a "Page N of M"
      footer likewise, a bare "N" footer as a line that is only that number;
    - bag-of-words recall/precision of the body (`bench.fidelity.bag_of_words`, the measure of
      `bench/extract.py`) against headings + paragraphs + list items + table cells.
(b) docling's test PDFs (`../shared/corpus/docling/pdf/sources`, ground truth Markdown in
    `groundtruth/`): per file, heading recall (ground-truth heading lines found among ours, the
    same normalisation) and table cell recall (multiset of non-empty ground-truth pipe-table
    cells found among our pipe-table cells), and bag-of-words recall/precision per file with
    the default options: the mean is the "born-digital PDF" row of `bench/extract.py` (0.976).
    A ground-truth table that is a table of contents (at least 3 rows, 60 % of first cells
    ending in dot leaders: docling writes `redp5110_sampled`'s contents as a table) is left out
    of the table cells and scored as "contents entries as list items" instead: its entries,
    without leaders and page numbers, found among our Markdown list items.
(c) pages/s of the fast track (`extract` with `ocr_engines=()`, best of 3) on the born-digital
    PDFs `bench/extract.py` times (docling's 11 + unstructured's multi-column, 52 pages) and on
    the generated reports; plus PDFium's bare `get_text_bounded` on the same files as a floor.
    Timing rounds alternate between before and after (the machine is shared, its load moves),
    the best round of each side is kept, and the median after/before ratio of rounds is printed.
(d) with `--office` (and nothing else): the office corpus (`bench/office_corpus.py`: Word
    documents typeset by LibreOffice with the decoys real documents have; the untagged exports
    without outline, or with `--exports plain,marked,tagged` also the untagged exports with
    bookmarks and the tagged ones), the development set rules are tuned
    on: heading P/R/F1 and level accuracy and table cells as in (a), per document the heading
    counts and P/R/F1; table of contents entries found as Markdown list items, emitted as
    headings (more often than the real heading of the same text) or as table cells; the wholly
    bold lines and captions made to look like headings that came out as headings.
(e) with `--cases [names]`: the failure classes of `tests/pdf_cases.py` (rotated tables, ...),
    each scored as (a) does (headings, tables, paragraphs as one block), before and after.
(f) with `--labelled`: headings of real PDFs against hand labels, `bench/labelled_headings.py`,
    each label set on its own (../shared/corpus/unstructured; the ICDAR 2013 government
    statistics PDFs): per file and summed, precision, recall and F1, the check files (set aside
    before any measurement) apart.
(f') with `--labelled-tables`: tables of the same PDFs against hand labels,
    `bench/labelled_tables.py`: per file and summed, tables labelled, found, false, row and column
    counts agreeing and ICDAR-2013 adjacency F1, the check files apart.
(g) with `--web`: the web-page corpus (`bench/web_corpus.py`: HTML pages of `tests/web_pages.py`
    printed by headless Chromium, untagged without outline or with `--exports plain,tagged` also
    tagged with an outline), scored
    as (d), plus each page's table F1.
(h) with `--probes`: the office probes (`bench/office_probes.py`: documents of
    `tests/office_probes.py`, one construction each, typeset by LibreOffice untagged and tagged):
    per class and export, documents whose tables, headings and list items all come out right;
    with `--probe-seeds FIRST [--probe-count N]` every class at seeds FIRST..FIRST+N-1 (N
    by default two) instead of the seeds tuned on, cached apart.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
DOCLING_PDF = CORPUS / "docling" / "pdf"

# ---------------------------------------------------------------- Markdown reading


_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_LIST_MARKER = re.compile(r"^\s*(?:[-*+•▪◦]|\d{1,3}[.)])\s+")
_MD_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}\.)\s+")
# A section's number, or its label with a number ("chapter 1.", "appendix b": numbering as
# "2.1" is, which ground truths keep or drop alike).
_SECTION_NUMBER = re.compile(r"^(?:\d{1,3}(?:\.\d{1,3})*\.?|[A-Z]\.|"
                             r"(?:chapter|appendix|part|section)\s+(?:\d{1,3}|[a-z]|[ivxlc]{1,6})[.:]?)\s+")
_SEPARATOR_CELL = re.compile(r"^:?-+:?$")
_EMPHASIS = re.compile(r"(\*\*|__|\*|`)")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>])")
_LINE_END_HYPHEN = re.compile(r"(\w)[-\u00ad\ufffe\x02]\s*\n\s*(\w)")


def normalise(text: str) -> str:
    """Text for comparison: NFKC, Markdown emphasis and escapes gone, hyphenation at line ends
    joined, soft hyphens dropped, whitespace collapsed, lower case."""
    text = unicodedata.normalize("NFKC", text)
    text = _LINE_END_HYPHEN.sub(r"\1\2", text)
    text = _ESCAPE.sub(r"\1", _EMPHASIS.sub("", text))
    text = text.replace("\u00ad", "").replace("\ufffe", "").replace("\x02", "")
    return " ".join(text.split()).lower()


_TRAILING_NUMBER = re.compile(r"\s+\d{1,3}$")


def heading_key(text: str) -> str:
    """A heading's text without its section number, leading (`2.1`) or trailing (docling's
    ground truth writes some section markers after the title: `들어가며 1`)."""
    return _TRAILING_NUMBER.sub("", _SECTION_NUMBER.sub("", normalise(text))).strip()


@dataclass
class MarkdownShape:
    headings: list[tuple[str, int]] = field(default_factory=list)  # (text, level)
    blocks: list[str] = field(default_factory=list)  # normalised
    lines: list[str] = field(default_factory=list)  # raw, stripped
    tables: list[list[list[str]]] = field(default_factory=list)


def _table_row(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", inner)]


def read_markdown(markdown: str) -> MarkdownShape:
    shape = MarkdownShape()
    block: list[str] = []
    table: list[list[str]] = []
    for raw in [*markdown.splitlines(), ""]:
        line = raw.strip()
        if line.startswith("|"):
            row = _table_row(line)
            if not all(_SEPARATOR_CELL.match(c) for c in row if c) or not any(row):
                table.append(row)
        elif table:
            shape.tables.append(table)
            table = []
        if line:
            shape.lines.append(line)
            match = _HEADING.match(line)
            if match:
                shape.headings.append((match.group(2), len(match.group(1))))
            block.append(raw)
        elif block:
            shape.blocks.append(normalise("\n".join(block)))
            block = []
    return shape


def _overlap(a: Iterable[str], b: Iterable[str]) -> int:
    return sum((Counter(a) & Counter(b)).values())


def _prf(tp: int, predicted: int, truth: int) -> dict[str, float]:
    p = tp / predicted if predicted else (1.0 if not truth else 0.0)
    r = tp / truth if truth else 1.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0}


def _share(counts: Counter[str], num: str, den: str) -> float:
    return counts[num] / counts[den] if counts[den] else 0.0


def _structure_scores(counts: Counter[str]) -> dict[str, float]:
    """Heading and table scores from a tally's counts, as every set reports them."""
    headings = _prf(counts["heading_tp"], counts["heading_pred"], counts["heading_truth"])
    tables = _prf(counts["table_cell_tp"], counts["table_cell_pred"], counts["table_cell_truth"])
    return {
        "heading_precision": headings["precision"], "heading_recall": headings["recall"],
        "heading_f1": headings["f1"],
        "heading_level_accuracy": _share(counts, "heading_level_ok", "heading_tp"),
        "heading_level_accuracy_shifted": _share(counts, "heading_level_shifted_ok", "heading_tp"),
        "table_cell_precision": tables["precision"], "table_cell_recall": tables["recall"],
        "table_f1": tables["f1"], "tables_found": _share(counts, "table_found", "table_truth"),
        "table_rows_exact": _share(counts, "table_row_exact", "table_rows"),
    }


# ---------------------------------------------------------------- (a) generated reports


@dataclass
class Tally:
    """Counts summed over reports; ratios are taken at the end (micro averages)."""

    counts: Counter[str] = field(default_factory=Counter)
    failures: dict[str, list[str]] = field(default_factory=dict)

    def add(self, key: str, value: int = 1) -> None:
        self.counts[key] += value

    def fail(self, kind: str, example: str, keep: int = 6) -> None:
        examples = self.failures.setdefault(kind, [])
        if len(examples) < keep:
            examples.append(example[:240])


def _score_headings(report: Any, shape: MarkdownShape, tally: Tally) -> None:
    truth = {heading_key(h.text): h for h in report.headings}
    emitted = [(heading_key(text), level, text) for text, level in shape.headings]
    unmatched = dict(Counter(heading_key(h.text) for h in report.headings))
    pairs: list[tuple[int, int]] = []  # (emitted level, true level) of matched headings
    for key, level, text in emitted:
        if unmatched.get(key, 0) > 0:
            unmatched[key] -= 1
            tally.add("heading_tp")
            tally.add("heading_level_ok", int(truth[key].level == level))
            pairs.append((level, truth[key].level))
            if truth[key].level != level:
                example = f"seed {report.seed}: {'#' * level} {text} (true level {truth[key].level})"
                tally.fail("heading level", example)
        else:
            tally.fail("heading not real", f"seed {report.seed}: {'#' * level} {text}")
    for key, left in unmatched.items():
        for _ in range(left):
            tally.fail("heading missed", f"seed {report.seed}: {truth[key].text} (level {truth[key].level})")
    # Levels up to one shift for the whole report (a stage that keeps `#` for the title).
    shifts = Counter(level - true for level, true in pairs)
    tally.add("heading_level_shifted_ok", shifts.most_common(1)[0][1] if shifts else 0)
    tally.add("heading_pred", len(emitted))
    tally.add("heading_truth", len(report.headings))


def _score_tables(report: Any, shape: MarkdownShape, tally: Tally) -> None:
    emitted = [[normalise(c) for row in t for c in row if c.strip()] for t in shape.tables]
    emitted_rows = Counter(tuple(normalise(c) for c in row) for t in shape.tables for row in t)
    free = list(range(len(emitted)))
    for table in report.tables:
        # An empty true cell (the rest of a spanning header cell, a blank stub) is no cell to
        # find: counted, it would lower recall whatever was emitted.
        cells = [normalise(c) for row in table.cells for c in row if c.strip()]
        best = max(free, key=lambda i: _overlap(cells, emitted[i]), default=None)
        shared = _overlap(cells, emitted[best]) if best is not None else 0
        if best is not None and shared:
            free.remove(best)
        tally.add("table_cell_tp", shared)
        tally.add("table_cell_truth", len(cells))
        tally.add("table_truth")
        tally.add("table_found", int(shared >= len(cells) / 2))
        kind = "ruled" if table.ruled else "unruled"
        if shared < len(cells) / 2:
            tally.fail(f"{kind} table missed", f"seed {report.seed}: header {table.cells[0]}")
        for row in table.cells:
            key = tuple(normalise(c) for c in row)
            hit = emitted_rows[key] > 0
            tally.add("table_row_exact", int(hit))
            tally.add("table_rows")
            if not hit and shared >= len(cells) / 2:
                tally.fail(f"{kind} table row wrong", f"seed {report.seed}: {row}")
    tally.add("table_cell_pred", sum(len(t) for t in emitted))


def _score_text(report: Any, shape: MarkdownShape, markdown: str, tally: Tally) -> None:
    from bench.fidelity import bag_of_words

    blocks = Counter(shape.blocks)
    joined = "\n".join(shape.blocks)
    for paragraph in report.paragraphs:
        key = normalise(paragraph.text)
        one = blocks[key] > 0
        tally.add("paragraph_one_block", int(one))
        tally.add("paragraphs")
        if paragraph.in_columns:
            tally.add("paragraph_one_block_columns", int(one))
            tally.add("paragraphs_columns")
        if not one:
            where = "merged with a neighbour" if key in joined else "split or altered"
            tally.fail(f"paragraph {where}", f"seed {report.seed}: {paragraph.text[:90]}")
    lines = Counter(normalise(_LIST_MARKER.sub("", line)) for line in shape.lines)
    marked = [line for line in shape.lines if _MD_LIST_ITEM.match(line)]
    items = Counter(normalise(_MD_LIST_ITEM.sub("", line)) for line in marked)
    for item in report.list_items:
        key = normalise(item.text)
        tally.add("list_one_line", int(lines[key] > 0))
        tally.add("list_markdown_item", int(items[key] > 0))
        tally.add("list_items")
        if lines[key] == 0:
            tally.fail("list item not one line", f"seed {report.seed}: {item.marker} {item.text[:90]}")
    # A heading line made from the PDF's title metadata is not the running header.
    body_lines = [line for line in shape.lines if not _HEADING.match(line)]
    flat = normalise("\n".join(body_lines))
    bare = Counter(normalise(line) for line in body_lines)
    found = min(flat.count(normalise(report.header)), report.page_count)
    for footer in set(report.footers):
        if footer.isdigit():
            found += min(bare[footer], 1)
        else:
            found += min(flat.count(normalise(footer)), 1)
    if found:
        tally.fail("running header/footer kept", f"seed {report.seed}: {found} of {2 * report.page_count}")
    tally.add("running_found", found)
    tally.add("running_expected", 2 * report.page_count)
    recall, precision = bag_of_words(markdown, " ".join(report.body_words()))
    tally.add("bow_recall_milli", round(recall * 1000))
    tally.add("bow_precision_milli", round(precision * 1000))
    tally.add("reports")


def _routed_markdown(report: Any) -> str:
    from extractors.router import extract

    return extract(report.pdf, filename="r.pdf").markdown


def measure_reports(
    count: int, seed: int, markdown_of: Callable[[Any], str] = _routed_markdown
) -> dict[str, Any]:
    """The measures of (a) over `count` reports from `seed` on; `markdown_of` reads one report
    (the router by default; the tests pass the report's expected Markdown to check the scorer)."""
    from tests.pdf_reports import generate_report

    tally = Tally()
    pages = 0
    for index in range(count):
        report = generate_report(seed + index)
        markdown = markdown_of(report)
        shape = read_markdown(markdown)
        _score_headings(report, shape, tally)
        _score_tables(report, shape, tally)
        _score_text(report, shape, markdown, tally)
        pages += report.page_count
    c = tally.counts

    def share(num: str, den: str) -> float:
        return _share(c, num, den)

    return {
        "reports": count, "seed": seed, "pages": pages, **_structure_scores(c),
        "paragraph_one_block": share("paragraph_one_block", "paragraphs"),
        "paragraph_one_block_columns": share("paragraph_one_block_columns", "paragraphs_columns"),
        "list_item_one_line": share("list_one_line", "list_items"),
        "list_item_markdown": share("list_markdown_item", "list_items"),
        "running_removed": 1 - share("running_found", "running_expected"),
        "bow_recall": c["bow_recall_milli"] / 1000 / count,
        "bow_precision": c["bow_precision_milli"] / 1000 / count,
        "failures": tally.failures,
    }


# ---------------------------------------------------------------- (b) docling's PDFs


def _docling_pairs() -> list[tuple[Path, Path]]:
    sources = sorted((DOCLING_PDF / "sources").glob("*.pdf"))
    return [(s, DOCLING_PDF / "groundtruth" / f"{s.stem}.md") for s in sources
            if (DOCLING_PDF / "groundtruth" / f"{s.stem}.md").exists()]


def measure_docling() -> list[dict[str, Any]]:
    from bench.fidelity import bag_of_words
    from extractors import ExtractionError
    from extractors.router import extract

    rows = []
    for source, truth_path in _docling_pairs():
        truth_md = truth_path.read_text()
        try:
            markdown = extract(source.read_bytes(), filename=source.name).markdown
        except ExtractionError:
            markdown = ""
        ours, truth = read_markdown(markdown), read_markdown(truth_md)
        truth_headings = [heading_key(t) for t, _ in truth.headings]
        our_headings = [heading_key(t) for t, _ in ours.headings]
        # A ground-truth "table" that is a table of contents (docling writes redp5110's as one)
        # is scored as contents: its entries should come out as list items, not table cells.
        contents = [t for t in truth.tables if _contents_table(t)]
        entries = [_entry_key(row[0]) for t in contents for row in t if row and row[0].strip()]
        items = Counter(_entry_key(_MD_LIST_ITEM.sub("", line)) for line in ours.lines
                        if _MD_LIST_ITEM.match(line))
        truth_cells = [normalise(c) for t in truth.tables if t not in contents for row in t for c in row
                       if c.strip()]
        our_cells = [normalise(c) for t in ours.tables for row in t for c in row if c.strip()]
        recall, precision = bag_of_words(markdown, truth_md)
        found = _overlap(truth_headings, our_headings)
        shared = _overlap(truth_cells, our_cells)
        rows.append({
            "file": source.name,
            "truth_headings": len(truth_headings), "our_headings": len(our_headings),
            "heading_recall": found / len(truth_headings) if truth_headings else None,
            "heading_precision": found / len(our_headings) if our_headings else None,
            "truth_table_cells": len(truth_cells), "our_table_cells": len(our_cells),
            "table_cell_recall": shared / len(truth_cells) if truth_cells else None,
            "contents_entries": len(entries),
            "contents_as_item": _overlap(entries, items.elements()) / len(entries) if entries else None,
            "bow_recall": recall, "bow_precision": precision,
            "missed_headings": list((Counter(truth_headings) - Counter(our_headings)).elements())[:5],
            "extra_headings": list((Counter(our_headings) - Counter(truth_headings)).elements())[:5],
        })
    return rows


def _contents_table(rows: list[list[str]]) -> bool:
    """A pipe table whose first cells mostly end in dot leaders: a table of contents."""
    leaders = sum(1 for row in rows if row and re.search(r"(\s?\.){3,}\s*$", row[0].strip()))
    return len(rows) >= 3 and leaders >= 0.6 * len(rows)


# ---------------------------------------------------------------- (d) the office corpus


_LEADERS_AND_PAGE = re.compile(r"(\s?[.·…_]){3,}\s*[\divxlc]*$|\s+[ivxlc]{1,6}$|\s+\d{1,3}$")


def _entry_key(text: str) -> str:
    """A contents line's key: its heading's key, without dot leaders and page number."""
    return heading_key(_LEADERS_AND_PAGE.sub("", normalise(text)))


def _score_contents(document: Any, shape: MarkdownShape, tally: Tally) -> None:
    """A table of contents read as one: its entries as Markdown list items, none as a heading
    (beyond the real heading of the same text) or a table cell; the bold lines and captions
    set to look like headings not as headings."""
    entries = [_entry_key(text) for text in document.contents]
    truth = Counter(_entry_key(h.text) for h in document.headings)
    emitted = Counter(_entry_key(text) for text, _ in shape.headings)
    items = Counter(_entry_key(_MD_LIST_ITEM.sub("", line)) for line in shape.lines
                    if _MD_LIST_ITEM.match(line))
    # Cells keep their section numbers: a one-word entry ("3.2 Budget") is not a header cell.
    cells = Counter(normalise(c) for t in shape.tables for row in t for c in row)
    for key, numbered in zip(entries, (normalise(t) for t in document.contents), strict=True):
        tally.add("contents_entries")
        tally.add("contents_as_item", int(items[key] > 0))
        as_heading = emitted[key] > truth[key]
        tally.add("contents_as_heading", int(as_heading))
        tally.add("contents_in_table", int(cells[numbered] > 0))
        if as_heading:
            tally.fail("contents entry as heading", f"{document.name}: {key}")
    for decoy in document.decoys:
        hit = emitted[heading_key(decoy)] > 0
        tally.add("decoys")
        tally.add("decoy_as_heading", int(hit))
        if hit:
            tally.fail("bold line or caption as heading", f"{document.name}: {decoy}")


def _office_list_items(docx: Path) -> list[str]:
    """The texts of a corpus document's list paragraphs (Word's "List Bullet" and "List
    Number" styles), read from the DOCX the corpus keeps beside its PDFs."""
    from docx import Document

    return [p.text for p in Document(str(docx)).paragraphs
            if p.style is not None and (p.style.name or "").startswith("List") and p.text.strip()]


def _score_list_items(truth: list[str], shape: MarkdownShape, tally: Tally, name: str) -> None:
    """Each list paragraph as one Markdown list item (its marker aside)."""
    items = Counter(normalise(_MD_LIST_ITEM.sub("", line)) for line in shape.lines
                    if _MD_LIST_ITEM.match(line))
    for text in truth:
        found = items[normalise(text)] > 0
        tally.add("list_items")
        tally.add("list_markdown_item", int(found))
        if not found:
            tally.fail("list item not a Markdown item", f"{name}: {text[:90]}")


def _shape_of(pdf: Path) -> MarkdownShape:
    """The structure of the Markdown pagemill makes of `pdf` (none when extraction fails)."""
    from extractors import ExtractionError
    from extractors.router import extract

    try:
        markdown = extract(pdf.read_bytes(), filename=pdf.name).markdown
    except ExtractionError:
        markdown = ""
    return read_markdown(markdown)


def measure_office(count: int, seed: int, export: str = "plain") -> dict[str, Any]:
    """Headings, tables and the table of contents on bench/office_corpus.py's documents (the
    `export`: "plain" untagged without outline, "marked" untagged with an outline, "tagged"),
    summed over documents, with per-document heading counts."""
    from bench.office_corpus import build

    samples = build(count, seed)
    return _measure_documents(
        [(s.truth, getattr(s, export), _office_list_items(s.plain.parent.parent / f"{s.truth.name}.docx"))  # type: ignore[attr-defined]
         for s in samples], count, seed, export)


def _measure_documents(samples: list[tuple[Any, Path, list[str]]], count: int, seed: int,
                       export: str) -> dict[str, Any]:
    """Headings, tables, the contents, the decoys and the list items of documents given as
    (truth, PDF, list item texts), summed, with per-document heading counts and table F1: the
    office corpus' and the web-page corpus' measures."""
    tally = Tally()
    rows = []
    for document, pdf, list_items in samples:
        shape = _shape_of(pdf)
        before = tally.counts.copy()
        _score_headings(document, shape, tally)
        _score_tables(document, shape, tally)
        _score_contents(document, shape, tally)
        _score_list_items(list_items, shape, tally, document.name)
        got = {k: tally.counts[k] - before[k]
               for k in ("heading_tp", "table_cell_tp", "table_cell_pred", "table_cell_truth")}
        tp = got["heading_tp"]
        rows.append({"file": document.name, "truth_headings": len(document.headings),
                     "our_headings": len(shape.headings), "heading_tp": tp,
                     "tables": len(document.tables), "emitted_tables": len(shape.tables),
                     "table_f1": _prf(got["table_cell_tp"], got["table_cell_pred"],
                                      got["table_cell_truth"])["f1"],
                     **{f"heading_{k}": v
                        for k, v in _prf(tp, len(shape.headings), len(document.headings)).items()}})
    c = tally.counts

    def share(num: str, den: str) -> float:
        return _share(c, num, den)

    return {
        "documents": count, "seed": seed, "export": export, **_structure_scores(c),
        "contents_as_item": share("contents_as_item", "contents_entries"),
        "contents_as_heading": share("contents_as_heading", "contents_entries"),
        "contents_in_table": share("contents_in_table", "contents_entries"),
        "decoy_as_heading": share("decoy_as_heading", "decoys"),
        "list_item_markdown": share("list_markdown_item", "list_items"),
        "files": rows, "failures": tally.failures,
    }


def measure_sheets(count: int, seed: int, export: str = "plain") -> dict[str, Any]:
    """Headings (each sheet's title) and tables on bench/sheet_corpus.py's workbooks (the
    `export`: "plain" untagged, "tagged"), summed over workbooks, with per-workbook table
    scores."""
    from bench.sheet_corpus import build

    tally = Tally()
    rows = []
    for sample in build(count, seed):
        book: Any = sample.truth
        shape = _shape_of(getattr(sample, export))
        before = tally.counts.copy()
        _score_headings(book, shape, tally)
        _score_tables(book, shape, tally)
        keys = ("table_cell_tp", "table_cell_pred", "table_cell_truth", "table_found", "table_truth")
        got = {k: tally.counts[k] - before[k] for k in keys}
        rows.append({"file": book.name, "look": book.look, "tables": got["table_truth"],
                     "tables_found": got["table_found"], "emitted_tables": len(shape.tables),
                     **{f"table_{k}": v for k, v in _prf(got["table_cell_tp"], got["table_cell_pred"],
                                                         got["table_cell_truth"]).items()}})
    return {"documents": count, "seed": seed, "export": export, **_structure_scores(tally.counts),
            "files": rows, "failures": tally.failures}


def measure_web(count: int, seed: int, export: str = "plain") -> dict[str, Any]:
    """The office corpus' measures on bench/web_corpus.py's pages (the `export`: "plain"
    untagged without outline, "tagged" with an outline)."""
    from bench.web_corpus import build

    return _measure_documents([(s.truth, getattr(s, export), s.truth.list_items)  # type: ignore[attr-defined]
                               for s in build(count, seed)], count, seed, export)


# ---------------------------------------------------------------- (e) failure classes


def measure_cases(names: Iterable[str], count: int, seed: int,
                  markdown_of: Callable[[Any], str] = _routed_markdown) -> dict[str, Any]:
    """Per failure class of `tests/pdf_cases.py`, `count` documents from `seed` on, scored as
    the reports are: heading and table scores, and the reading order of the text (true
    paragraphs equal to one Markdown block; true table rows emitted whole and in order)."""
    from tests.pdf_cases import make_case

    out: dict[str, Any] = {}
    for name in names:
        tally = Tally()
        for index in range(count):
            report = make_case(name, seed + index)
            markdown = markdown_of(report)
            shape = read_markdown(markdown)
            _score_headings(report, shape, tally)
            _score_tables(report, shape, tally)
            blocks = Counter(shape.blocks)
            for paragraph in report.paragraphs:
                one = blocks[normalise(paragraph.text)] > 0
                tally.add("paragraph_one_block", int(one))
                tally.add("paragraphs")
                if not one:
                    tally.fail("paragraph not one block", f"seed {report.seed}: {paragraph.text[:90]}")
        c = tally.counts
        out[name] = {"documents": count, "seed": seed, **_structure_scores(c),
                     "paragraph_one_block": _share(c, "paragraph_one_block", "paragraphs"),
                     "failures": tally.failures}
    return out


def cases(names: tuple[str, ...], count: int, seed: int, before: bool, as_json: bool) -> None:
    """The failure classes alone, today's extractors and (with `before`, in a child) those of
    `--before REV`, on the working tree's generator: each cell "before / after"."""
    from tests.pdf_cases import CASES

    chosen = names or tuple(CASES)
    result = measure_cases(chosen, count, seed)
    earlier = None
    if before:
        with BeforeTree() as tree:
            earlier = tree.measure(count, seed, 0, (f"cases:{','.join(chosen)}",))["cases"]
    if as_json:
        print(json.dumps({"before": earlier, "after": result}, indent=2))
        return
    keys = ("heading_f1", "heading_level_accuracy", "table_f1", "tables_found", "table_rows_exact",
            "paragraph_one_block")
    sides = " before / after" if earlier else ""
    print(f"| class (n={count}, seed {seed}){sides} | " + " | ".join(keys) + " |")
    print("|---|" + "---:|" * len(keys))
    for name, scores in result.items():
        cells = [_fmt(scores[k]) if earlier is None else f"{_fmt(earlier[name][k])} / {_fmt(scores[k])}"
                 for k in keys]
        print(f"| {name} | " + " | ".join(cells) + " |")
    for name, scores in result.items():
        for kind, examples in scores["failures"].items():
            print(f"  {name}: {kind}")
            for example in examples:
                print(f"    {example}")


# ---------------------------------------------------------------- (c) speed


def _timed_files() -> list[Path]:
    files = [s for s, _ in _docling_pairs()]
    return files + sorted((CORPUS / "unstructured" / "pdf").glob("multi-column*.pdf"))


def _best_rate(documents: list[bytes], run: Callable[[bytes], int], repeat: int) -> tuple[float, int]:
    best, pages = float("inf"), 0
    for _ in range(repeat):
        started = time.perf_counter()
        pages = sum(run(d) for d in documents)
        best = min(best, time.perf_counter() - started)
    return pages / best, pages


def measure_speed(report_count: int, seed: int, repeat: int) -> dict[str, Any]:
    import pypdfium2 as pdfium

    from extractors.base import ExtractOptions
    from extractors.router import extract
    from tests.pdf_reports import generate_report

    fast = replace(ExtractOptions(), ocr_engines=())

    def fast_track(data: bytes) -> int:
        return extract(data, filename="d.pdf", options=fast).page_count or 1

    def bare_text(data: bytes) -> int:
        pdf = pdfium.PdfDocument(data)
        try:
            for page in pdf:
                page.get_textpage().get_text_bounded()
            return len(pdf)
        finally:
            pdf.close()

    corpus = [p.read_bytes() for p in _timed_files()]
    reports = [generate_report(seed + i).pdf for i in range(report_count)]
    # Warm-up, untimed: imports, language profiles, word lists and whatever else loads lazily.
    for data in [*corpus, reports[0]]:
        fast_track(data)
    out: dict[str, Any] = {}
    for name, documents in (("corpus", corpus), ("reports", reports)):
        rate, pages = _best_rate(documents, fast_track, repeat)
        bare, _ = _best_rate(documents, bare_text, repeat)
        out[name] = {"pages": pages, "fast_track_pages_per_s": rate, "pdfium_text_pages_per_s": bare}
    return out


def measure(
    count: int, seed: int, repeat: int, parts: tuple[str, ...] = ("quality", "speed")
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "quality" in parts:
        out["reports"] = measure_reports(count, seed)
        out["docling"] = measure_docling()
    if "speed" in parts:
        out["speed"] = measure_speed(count, seed, repeat)
    for export in ("plain", "marked", "tagged"):
        if f"office-{export}" in parts:
            out[f"office-{export}"] = measure_office(count, seed, export)
    if "office" in parts:
        out["office"] = measure_office(count, seed)
    for export in ("plain", "tagged"):
        if f"web-{export}" in parts:
            out[f"web-{export}"] = measure_web(count, seed, export)
    for export in ("plain", "tagged"):
        if f"sheets-{export}" in parts:
            out[f"sheets-{export}"] = measure_sheets(count, seed, export)
    if "labelled" in parts:
        from bench.labelled_headings import measure_labelled

        out["labelled"] = measure_labelled()
    if "labelled-tables" in parts:
        from bench.labelled_tables import measure_labelled_tables

        out["labelled-tables"] = measure_labelled_tables()
    if "probes" in parts:
        from bench.office_probes import measure_probes

        # (count and seed are the probes' seed range when given: 0, 0 is the tuned seeds)
        out["probes"] = measure_probes(seed or None, count or None)
    names = [part.split(":", 1)[1] for part in parts if part.startswith("cases:")]
    if names:
        out["cases"] = measure_cases(names[0].split(","), count, seed)
    return out


# ---------------------------------------------------------------- before: the last commit's extractors


class BeforeTree:
    """`git archive REV extractors` (HEAD unless `--before REV`) in a temporary directory,
    measured in child interpreters."""

    rev = "HEAD"

    def __enter__(self) -> BeforeTree:
        self._tmp = tempfile.TemporaryDirectory(prefix="pagemill-before-")
        self.tree = self._tmp.name
        archive = subprocess.run(["git", "archive", self.rev, "extractors"], cwd=ROOT,
                                 capture_output=True, check=True).stdout
        archive_path = Path(self.tree) / "extractors.tar"
        archive_path.write_bytes(archive)
        with tarfile.open(archive_path) as tar:
            tar.extractall(self.tree, filter="data")
        return self

    def __exit__(self, *exc: object) -> None:
        self._tmp.cleanup()

    def measure(self, count: int, seed: int, repeat: int, parts: tuple[str, ...]) -> dict[str, Any]:
        return _measure_in_child(self.tree, count, seed, repeat, parts)


def _measure_in_child(tree: str, count: int, seed: int, repeat: int,
                      parts: tuple[str, ...]) -> dict[str, Any]:
    """:func:`measure` in a fresh interpreter with the extractors of ``tree`` (ROOT: today's).
    `extractors` is imported at once: the corpus builders put ROOT first on sys.path (to import
    tests/), and an import after that took the working tree's extractors, so that --office and
    --sheets measured today's code on both sides."""
    code = (f"import sys, json; sys.path[:0] = [{tree!r}, {str(ROOT)!r}]\n"
            "import extractors, extractors.router\n"
            "from bench.pdf_structure import measure\n"
            f"print(json.dumps(measure({count}, {seed}, {repeat}, {parts!r})))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tree, capture_output=True, text=True,
                          env={**os.environ, "OMP_THREAD_LIMIT": "1"}, timeout=3600)
    if proc.returncode != 0:
        raise RuntimeError(f"run with {tree}'s extractors failed: {proc.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def _best_speed(runs: list[dict[str, Any]]) -> dict[str, Any]:
    best: dict[str, Any] = {}
    for name in runs[0]:
        best[name] = {key: max(run[name][key] for run in runs) for key in runs[0][name]}
    return best


def measure_side_by_side(count: int, seed: int, repeat: int, before: bool) -> dict[str, Any]:
    """Quality once per side; speed in `repeat` rounds alternating before and after, so both
    sides see the same load on a shared machine; the best round of each side is kept (no
    speed at all with `repeat` 0)."""
    if not before:
        parts = ("quality", "speed") if repeat else ("quality",)
        return {"before": None, "after": measure(count, seed, repeat, parts)}
    with BeforeTree() as tree:
        old = tree.measure(count, seed, repeat, ("quality",))
        new = measure(count, seed, repeat, ("quality",))
        if not repeat:
            return {"before": old, "after": new}
        old_runs, new_runs = [], []
        # Both sides' rounds in fresh children: timed in this process after its quality pass,
        # today's side ran 18-24 % slower than the same code timed per file (2026-12-05).
        for _ in range(repeat):
            old_runs.append(tree.measure(count, seed, 1, ("speed",))["speed"])
            new_runs.append(_measure_in_child(str(ROOT), count, seed, 1, ("speed",))["speed"])
    old["speed"], new["speed"] = _best_speed(old_runs), _best_speed(new_runs)
    ratios = [n["corpus"]["fast_track_pages_per_s"] / o["corpus"]["fast_track_pages_per_s"]
              for o, n in zip(old_runs, new_runs, strict=True)]
    new["speed"]["corpus_fast_track_ratio_to_before"] = statistics.median(ratios)
    return {"before": old, "after": new}


# ---------------------------------------------------------------- printing

_REPORT_ROWS = (
    ("heading F1", "heading_f1"), ("heading precision", "heading_precision"),
    ("heading recall", "heading_recall"), ("heading level accuracy (of matched)", "heading_level_accuracy"),
    ("  same, up to one shift per report", "heading_level_accuracy_shifted"),
    ("table cell F1", "table_f1"), ("table cell precision", "table_cell_precision"),
    ("table cell recall", "table_cell_recall"), ("tables found (>= half their cells)", "tables_found"),
    ("table rows exact", "table_rows_exact"),
    ("paragraphs as one block", "paragraph_one_block"),
    ("  of which on the two-column page", "paragraph_one_block_columns"),
    ("list items as one line", "list_item_one_line"), ("list items as Markdown items", "list_item_markdown"),
    ("running header/footer removed", "running_removed"),
    ("body bag-of-words recall", "bow_recall"), ("body bag-of-words precision", "bow_precision"),
)


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def print_tables(after: dict[str, Any], before: dict[str, Any] | None) -> None:
    sides = [("before", before), ("after", after)] if before else [("after", after)]
    r = after["reports"]
    last = r["seed"] + r["reports"] - 1
    print(f"Generated reports: {r['reports']} (seeds {r['seed']}..{last}), {r['pages']} pages")
    print("| measure | " + " | ".join(n for n, _ in sides) + " |")
    print("|---|" + "---:|" * len(sides))
    for label, key in _REPORT_ROWS:
        print(f"| {label} | " + " | ".join(_fmt(s["reports"][key]) for _, s in sides) + " |")
    print()
    print("docling/pdf, each cell " + " / ".join(n for n, _ in sides))
    print("| file | headings (truth) | heading recall | heading precision | table cells (truth) "
          "| table cell recall | contents entries as list items | BoW recall | BoW precision |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for index, row in enumerate(after["docling"]):
        per = [s["docling"][index] for _, s in sides]

        def cell(key: str, per: list[dict[str, Any]] = per) -> str:
            return " / ".join(_fmt(p[key]) for p in per)

        print(f"| {row['file']} | {row['truth_headings']} | {cell('heading_recall')} "
              f"| {cell('heading_precision')} | {row['truth_table_cells']} | {cell('table_cell_recall')} "
              f"| {cell('contents_as_item')} | {cell('bow_recall')} | {cell('bow_precision')} |")
    recalls = " / ".join(f"{statistics.mean(p['bow_recall'] for p in s['docling']):.3f}" for _, s in sides)
    precisions = " / ".join(
        f"{statistics.mean(p['bow_precision'] for p in s['docling']):.3f}" for _, s in sides
    )
    print(f"| mean (bench/extract.py's born-digital PDF row) | | | | | | | {recalls} | {precisions} |")
    print()
    if "speed" not in after:
        after["speed"] = {}
    print("| pages/s (best of runs) | pages | " + " | ".join(n for n, _ in sides) + " |")
    print("|---|---:|" + "---:|" * len(sides))
    for name in ("corpus", "reports") if after["speed"] else ():
        speed = after["speed"][name]
        label = "born-digital corpus PDFs" if name == "corpus" else "generated reports"
        print(f"| fast track, {label} | {speed['pages']} | "
              + " | ".join(f"{s['speed'][name]['fast_track_pages_per_s']:.1f}" for _, s in sides) + " |")
        print(f"| PDFium get_text_bounded alone, {label} | {speed['pages']} | "
              + " | ".join(f"{s['speed'][name]['pdfium_text_pages_per_s']:.1f}" for _, s in sides) + " |")
    print()
    print("docling/pdf headings (after), first missed | first emitted but not in the ground truth:")
    for row in after["docling"]:
        if row["missed_headings"] or row["extra_headings"]:
            print(f"- {row['file']}: {row['missed_headings']} | {row['extra_headings']}")
    ratio = after["speed"].get("corpus_fast_track_ratio_to_before")
    if ratio is not None:
        print(f"fast track after/before on the corpus PDFs, median of alternating rounds: {ratio:.2f}")
    failures = after["reports"]["failures"]
    if failures:
        print()
        print("Structure failures (after), first examples:")
        for kind, examples in failures.items():
            print(f"- {kind}:")
            for example in examples:
                print(f"    {example}")


_OFFICE_ROWS = (
    ("heading F1", "heading_f1"), ("heading precision", "heading_precision"),
    ("heading recall", "heading_recall"), ("heading level accuracy (of matched)", "heading_level_accuracy"),
    ("  same, up to one shift per document", "heading_level_accuracy_shifted"),
    ("table cell F1", "table_f1"), ("tables found (>= half their cells)", "tables_found"),
    ("table rows exact", "table_rows_exact"),
    ("contents entries as list items", "contents_as_item"),
    ("contents entries as headings", "contents_as_heading"),
    ("contents entries in tables", "contents_in_table"),
    ("bold lines and captions as headings", "decoy_as_heading"),
    ("list items as Markdown items", "list_item_markdown"),
)


_EXPORTS = {"plain": "untagged, no outline", "marked": "untagged, with bookmarks", "tagged": "tagged"}


def print_office(after: dict[str, Any], before: dict[str, Any] | None, export: str = "plain",
                 corpus: str = "Office corpus (bench/office_corpus.py, LibreOffice") -> None:
    sides = [("before", before), ("after", after)] if before else [("after", after)]
    o = after["office"]
    last = o["seed"] + o["documents"] - 1
    print(f"{corpus}, {_EXPORTS[export]}): {o['documents']} documents (seeds {o['seed']}..{last})")
    print("| measure | " + " | ".join(n for n, _ in sides) + " |")
    print("|---|" + "---:|" * len(sides))
    for label, key in _OFFICE_ROWS:
        print(f"| {label} | " + " | ".join(_fmt(s["office"][key]) for _, s in sides) + " |")
    print()
    print("| document | headings (truth) | emitted | P | R | F1 |")
    print("|---|---:|---:|---:|---:|---:|")
    for index, row in enumerate(o["files"]):
        per = [s["office"]["files"][index] for _, s in sides]
        emitted = " / ".join(str(p["our_headings"]) for p in per)
        print(f"| {row['file']} | {row['truth_headings']} | {emitted}"
              + " | " + " | ".join(" / ".join(_fmt(p[f"heading_{k}"]) for p in per)
                                   for k in ("precision", "recall", "f1")) + " |")
    if o["failures"]:
        print()
        print("Failures (after), first examples:")
        for kind, examples in o["failures"].items():
            print(f"- {kind}:")
            for example in examples:
                print(f"    {example}")


def office(count: int, seed: int, before: bool, as_json: bool, exports: tuple[str, ...] = ("plain",)) -> None:
    """The office corpus alone, today's extractors and (in a child) the last commit's; one
    table per export ("plain": untagged without outline, the heuristics alone; "marked":
    untagged with bookmarks; "tagged")."""
    from bench.office_corpus import build

    build(count, seed)  # converted once, before either side reads it
    for export in exports:
        part = "office" if export == "plain" else f"office-{export}"
        result: dict[str, Any] = {"before": None, "after": measure(count, seed, 0, (part,))}
        if before:
            with BeforeTree() as tree:
                result["before"] = tree.measure(count, seed, 0, (part,))
        if as_json:
            print(json.dumps(result, indent=2))
            continue
        for side in ("before", "after"):
            if result[side] is not None:
                result[side] = {"office": result[side][part]}
        print_office(result["after"], result["before"], export)
        print()


def web(count: int, seed: int, before: bool, as_json: bool, exports: tuple[str, ...]) -> None:
    """The web-page corpus alone, today's extractors and (in a child) those of `--before REV`;
    one table per export, in the office corpus' rows, plus each page's table F1."""
    from bench.web_corpus import build

    build(count, seed)  # printed once, before either side reads it
    for export in exports:
        part = f"web-{export}"
        result: dict[str, Any] = {"before": None, "after": measure(count, seed, 0, (part,))[part]}
        if before:
            with BeforeTree() as tree:
                result["before"] = tree.measure(count, seed, 0, (part,))[part]
        if as_json:
            print(json.dumps(result, indent=2))
            continue
        sides = {side: {"office": result[side]} if result[side] is not None else None
                 for side in ("before", "after")}
        print_office(sides["after"], sides["before"], export,  # type: ignore[arg-type]
                     corpus="Web-page corpus (bench/web_corpus.py, headless Chromium")
        print()
        print("| page | tables | emitted | table F1 |")
        print("|---|---:|---:|---:|")
        for index, row in enumerate(result["after"]["files"]):
            per = [s for s in (result["before"], result["after"]) if s is not None]
            print(f"| {row['file']} | {row['tables']} | "
                  + " / ".join(str(p["files"][index]["emitted_tables"]) for p in per) + " | "
                  + " / ".join(_fmt(p["files"][index]["table_f1"]) for p in per) + " |")
        print()


_SHEET_ROWS = (("heading precision", "heading_precision"), ("heading recall", "heading_recall"),
               ("heading F1", "heading_f1"), ("table cell precision", "table_cell_precision"),
               ("table cell recall", "table_cell_recall"), ("table F1", "table_f1"),
               ("tables found", "tables_found"), ("rows exact", "table_rows_exact"))


def sheets(count: int, seed: int, before: bool, as_json: bool, exports: tuple[str, ...]) -> None:
    """The spreadsheet corpus alone, today's extractors and (in a child) the last commit's; one
    table per export."""
    from bench.sheet_corpus import build

    build(count, seed)  # converted once, before either side reads it
    for export in exports:
        part = f"sheets-{export}"
        after = measure(count, seed, 0, (part,))[part]
        prior = None
        if before:
            with BeforeTree() as tree:
                prior = tree.measure(count, seed, 0, (part,))[part]
        if as_json:
            print(json.dumps({"before": prior, "after": after}, indent=2))
            continue
        sides = [("before", prior), ("after", after)] if prior else [("after", after)]
        print(f"Spreadsheet corpus (bench/sheet_corpus.py, LibreOffice Calc, {export}): {count} workbooks "
              f"(seeds {seed}..{seed + count - 1})")
        print("| measure | " + " | ".join(n for n, _ in sides) + " |")
        print("|---|" + "---:|" * len(sides))
        for label, key in _SHEET_ROWS:
            print(f"| {label} | " + " | ".join(_fmt(s[key]) for _, s in sides) + " |")
        print()
        print("| workbook | rules | two levels | tables (found) | emitted | table F1 |")
        print("|---|---|---|---:|---:|---:|")
        for index, row in enumerate(after["files"]):
            per = [s["files"][index] for _, s in sides]
            print(f"| {row['file']} | {row['look']['rules']} | {row['look']['two_levels']} | "
                  + " / ".join(f"{p['tables']} ({p['tables_found']})" for p in per) + " | "
                  + " / ".join(str(p["emitted_tables"]) for p in per) + " | "
                  + " / ".join(_fmt(p["table_f1"]) for p in per) + " |")
        if after["failures"]:
            print("\nFailures (after), first examples:")
            for kind, examples in after["failures"].items():
                print(f"- {kind}:")
                for example in examples:
                    print(f"    {example}")
        print()


def labelled(before: bool, as_json: bool) -> None:
    """The hand-labelled headings alone, today's extractors and (in a child) those of `--before REV`."""
    from bench.labelled_headings import print_labelled

    _labelled_part("labelled", print_labelled, before, as_json)


def labelled_tables(before: bool, as_json: bool) -> None:
    """The hand-labelled tables alone, today's extractors and (in a child) those of `--before REV`."""
    from bench.labelled_tables import print_labelled_tables

    _labelled_part("labelled-tables", print_labelled_tables, before, as_json)


def probes(before: bool, as_json: bool, first: int = 0, count: int = 0) -> None:
    """The office probes alone, today's extractors and (in a child) those of `--before REV`;
    with ``first`` every class at seeds first..first+count-1 (`--probe-seeds`)."""
    from bench.office_probes import build, print_probes

    if first:
        build(first=first, count=count or None)  # typeset once, before either side reads it
    _labelled_part("probes", print_probes, before, as_json, count if first else 0, first)


def _labelled_part(part: str, show: Callable[[Any, Any], None], before: bool, as_json: bool,
                   count: int = 0, seed: int = 0) -> None:
    """One part of `measure` alone, after and (with ``before``) before, as JSON or by ``show``."""
    after = measure(count, seed, 0, (part,))[part]
    prior = None
    if before:
        with BeforeTree() as tree:
            prior = tree.measure(count, seed, 0, (part,))[part]
    if as_json:
        print(json.dumps({"before": prior, "after": after}, indent=2, ensure_ascii=False))
    else:
        show(after, prior)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--reports", type=int, default=None,
                        help="generated reports (default 20), or office documents with --office (default 24)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the first report (default: a new one each run, printed)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="timing runs, the best is kept (default 3; 0 skips the speed part)")
    parser.add_argument("--no-before", action="store_true", help="skip the last commit's extractors")
    parser.add_argument("--before", default="HEAD", metavar="REV",
                        help="the commit whose extractors are 'before' (default HEAD)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.add_argument("--office", action="store_true",
                        help="only the office corpus (bench/office_corpus.py; -n 24 and --seed 1 by default)")
    parser.add_argument("--exports", default="plain",
                        help="with --office or --web: comma-separated exports to score, of plain "
                             "(untagged, no outline), marked (untagged with bookmarks), tagged "
                             "(default plain)")
    parser.add_argument("--sheets", action="store_true",
                        help="only the spreadsheet corpus (bench/sheet_corpus.py; -n 24 and --seed 1 by "
                             "default; --exports plain,tagged)")
    parser.add_argument("--web", action="store_true",
                        help="only the web-page corpus (bench/web_corpus.py, headless Chromium; -n 24 and "
                             "--seed 1 by default; --exports plain,tagged)")
    parser.add_argument("--cases", nargs="?", const="", default=None,
                        help="only the failure classes of tests/pdf_cases.py (comma-separated names, "
                             "default all; -n 5 and --seed 1 by default)")
    parser.add_argument("--labelled", action="store_true",
                        help="only the hand-labelled headings of real PDFs (bench/data/heading_labels*.json)")
    parser.add_argument("--labelled-tables", action="store_true",
                        help="only the hand-labelled tables of real PDFs (bench/data/table_labels.json)")
    parser.add_argument("--probes", action="store_true",
                        help="only the office probes (bench/office_probes.py: one construction per "
                             "document, typeset by LibreOffice)")
    parser.add_argument("--probe-seeds", type=int, default=0, metavar="FIRST",
                        help="with --probes: every class at seeds FIRST..FIRST+N-1 (N from "
                             "--probe-count), in a cache folder of its own, instead of the tuned "
                             "seeds 1..count")
    parser.add_argument("--probe-count", type=int, default=0, metavar="N",
                        help="with --probe-seeds: seeds per class (default: "
                             "bench/office_probes.py's RANGE_SEEDS, 2)")
    args = parser.parse_args()
    BeforeTree.rev = args.before
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    sys.path.insert(0, str(ROOT))
    # Each run measures different reports unless told otherwise; the seed printed reproduces it.
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    if args.cases is not None:
        names = tuple(n for n in args.cases.split(",") if n)
        first = args.seed if args.seed is not None else 1
        cases(names, args.reports or 5, first, not args.no_before, args.json)
        return
    if args.labelled:
        labelled(not args.no_before, args.json)
        return
    if args.labelled_tables:
        labelled_tables(not args.no_before, args.json)
        return
    if args.probes:
        probes(not args.no_before, args.json, args.probe_seeds, args.probe_count)
        return
    if args.sheets:
        sheets(args.reports or 24, args.seed if args.seed is not None else 1, not args.no_before, args.json,
               tuple(args.exports.split(",")))
        return
    if args.web:
        web(args.reports or 24, args.seed if args.seed is not None else 1, not args.no_before, args.json,
            tuple(args.exports.split(",")))
        return
    if args.office:
        office(args.reports or 24, args.seed if args.seed is not None else 1, not args.no_before, args.json,
               tuple(args.exports.split(",")))
        return
    result = measure_side_by_side(args.reports or 20, seed, args.repeat, before=not args.no_before)
    result["load_average"] = os.getloadavg()
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_tables(result["after"], result["before"])
        print(f"\nload average at the end (2 cores, shared): {result['load_average'][0]:.1f}")


if __name__ == "__main__":
    main()
