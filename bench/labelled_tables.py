"""Tables of real PDFs against hand labels (`bench/data/table_labels.json`): per file and summed,
tables labelled, found, false, row/column count agreement and ICDAR-2013 adjacency F1.

`python -m bench.pdf_structure --labelled-tables [--before REV] [--json]` runs it, today's
extractors and (in a child) those of REV. The labels' note says how they were made and which
conventions they follow; the files under "check" were set aside before any measurement, so their
total is reported apart from the files rules may be tuned on.

Matching, by cell texts (`cell_key`: NFKC, lower case, letters and digits only, so that a
minus drawn as a rule or a line-end hyphen does not decide; a label cell ending in '…' is a
prefix of the long cell it stands for):
- a label is *found* when one pagemill table on the label's page(s) holds at least half of the
  label's non-empty cells (the best such table is its match; one table may match two labels,
  a stitched table for instance);
- a pagemill table is *false* unless it holds at least half of a label's listed cells, or at
  least half of its own non-empty cells belong to one label (a table found in two pieces);
  one on an ambiguous block's page holding two or more of its listed cells counts neither way
  (a block is listed by a few of its cells, and may come out in pieces); tables without text
  are ignored;
- rows/columns agree when the matched table has the label's number of rows (columns);
- adjacency: `bench.icdar_tables.relations` of each label's grid against those of its matched
  table (cells renamed to the label's prefix where one applies), summed; a false table's
  relations count as found and wrong, as the competition's measure counts them.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

from bench.icdar_tables import Score, relations
from bench.pdf_structure import ROOT, _fmt

LABELS = Path(__file__).resolve().parent / "data" / "table_labels.json"
_NOT_WORD = re.compile(r"[\W_]+")
_ELLIPSIS = "…"

Grid = list[list[str]]


def cell_key(text: str) -> str:
    return _NOT_WORD.sub("", unicodedata.normalize("NFKC", text).lower())


def _labels() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(LABELS.read_text())
    return data


def _label_keys(grid: Grid) -> tuple[list[str], list[str]]:
    """The label's exact cell keys and its prefix keys (cells ending in '…')."""
    exact = [cell_key(c) for row in grid for c in row if c.strip() and not c.rstrip().endswith(_ELLIPSIS)]
    prefixes = [cell_key(c) for row in grid for c in row if c.rstrip().endswith(_ELLIPSIS)]
    return [k for k in exact if k], [k for k in prefixes if k]


def _rename(key: str, prefixes: list[str]) -> str:
    """A found cell's key as the label names it: the prefix it starts with, if any."""
    return next((p for p in prefixes if key.startswith(p)), key)


def _shared(label: Grid, table: Grid) -> int:
    """How many of the label's non-empty cells the table holds (each table cell used once)."""
    exact, prefixes = _label_keys(label)
    keys = Counter(_rename(cell_key(c), prefixes) for row in table for c in row if cell_key(c))
    return sum((Counter(exact + prefixes) & keys).values())


def _table_cells(table: Grid) -> list[str]:
    return [cell_key(c) for row in table for c in row if cell_key(c)]


def _covered(table: Grid, labels: list[Grid]) -> bool:
    """Whether the table holds at least half of one label's cells, or at least half of its own
    non-empty cells belong to one label."""
    cells = _table_cells(table)
    for grid in labels:
        exact, prefixes = _label_keys(grid)
        if 2 * _shared(grid, table) >= len(exact) + len(prefixes):
            return True
    for grid in labels:
        exact, prefixes = _label_keys(grid)
        keys = Counter(_rename(k, prefixes) for k in cells)
        if 2 * sum((keys & Counter(exact + prefixes)).values()) >= len(cells):
            return True
    return False


def _renamed_grid(table: Grid, label: Grid) -> Grid:
    _, prefixes = _label_keys(label)
    return [[_rename(cell_key(c), prefixes) for c in row] for row in table]


def _keyed(grid: Grid) -> Grid:
    return [[cell_key(c) for c in row] for row in grid]


def score_file(found: list[tuple[int | None, Grid]], labels: list[dict[str, Any]],
               ambiguous: list[dict[str, Any]]) -> dict[str, Any]:
    """One file's counts: `found` are pagemill's tables as (page, cells), `labels` the labelled
    tables, `ambiguous` the blocks either reading fits."""
    tables = [(page, grid) for page, grid in found if _table_cells(grid)]
    matched: set[int] = set()
    adjacency = Score()
    rows_ok = cols_ok = hits = 0
    missed: list[str] = []
    for label in labels:
        pages = set(label.get("pages") or [label["page"]])
        grid: Grid = label["grid"]
        needed = len(_label_keys(grid)[0]) + len(_label_keys(grid)[1])
        candidates = [i for i, (page, _) in enumerate(tables) if page is None or page in pages]
        best = max(candidates, key=lambda i: _shared(grid, tables[i][1]), default=None)
        shared = _shared(grid, tables[best][1]) if best is not None else 0
        truth = relations(_keyed(grid))
        if best is None or 2 * shared < needed:
            missed.append(f"p{label['page']} {label['rows']}x{label['cols']}: {grid[0][:4]}")
            adjacency.add(Score(0, 0, sum(truth.values())))
            continue
        hits += 1
        matched.add(best)
        table = tables[best][1]
        rows_ok += int(len(table) == label["rows"])
        cols_ok += int(max(len(r) for r in table) == label["cols"])
        mine = relations(_renamed_grid(table, grid))
        adjacency.add(Score(sum((mine & truth).values()), sum(mine.values()), sum(truth.values())))
    grids = [label["grid"] for label in labels]
    false: list[str] = []
    ambiguous_tables = 0
    for index, (page, table) in enumerate(tables):
        if index in matched or _covered(table, grids):
            continue
        if any(page in (None, b["page"]) and _shared([b["cells"]], table) >= 2 for b in ambiguous):
            ambiguous_tables += 1
            continue
        false.append(f"p{page} {len(table)}x{max(len(r) for r in table)}: {[c[:30] for c in table[0][:4]]}")
        adjacency.add(Score(0, sum(relations(_keyed(table)).values()), 0))
    return {"labelled": len(labels), "emitted": len(tables) - ambiguous_tables, "found": hits,
            "false": len(false), "rows_ok": rows_ok, "cols_ok": cols_ok, "adj_correct": adjacency.correct,
            "adj_found": adjacency.found, "adj_annotated": adjacency.annotated,
            "missed_tables": missed, "false_tables": false}


def _totals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    keys = ("labelled", "emitted", "found", "false", "rows_ok", "cols_ok", "adj_correct", "adj_found",
            "adj_annotated")
    total: dict[str, Any] = {"files": len(rows), **{k: sum(r[k] for r in rows) for k in keys}}
    total["adjacency_f1"] = _adjacency_f1(total)
    return total


def _adjacency_f1(counts: dict[str, Any]) -> float | None:
    """None where there is nothing to score (no labelled table, no table emitted)."""
    if not counts["adj_found"] and not counts["adj_annotated"]:
        return None
    return Score(counts["adj_correct"], counts["adj_found"], counts["adj_annotated"]).f1


def _tables_of(pdf: Path, password: str | None) -> list[tuple[int | None, Grid]]:
    """pagemill's tables of `pdf` as (page, cells) (none when extraction fails)."""
    from extractors import ExtractionError
    from extractors.base import ExtractOptions
    from extractors.router import extract

    try:
        result = extract(pdf.read_bytes(), filename=pdf.name, options=ExtractOptions(password=password))
    except ExtractionError:
        return []
    return [(table.page, table.cells) for table in result.tables]


def measure_labelled_tables() -> dict[str, Any]:
    """Per labelled file and summed: over the files rules may be tuned on, the check files, all."""
    labels = _labels()
    root = (ROOT / labels["root"]).resolve()
    rows = []
    for name, entry in labels["files"].items():
        found = _tables_of(root / name, entry.get("password"))
        row = score_file(found, entry["tables"], entry["ambiguous"])
        row["adjacency_f1"] = _adjacency_f1(row)
        rows.append({"file": name, "check": name in labels["check"], **row})
    return {"rows": rows, "tuning": _totals([r for r in rows if not r["check"]]),
            "check": _totals([r for r in rows if r["check"]]), "all": _totals(rows)}


def print_labelled_tables(after: dict[str, Any], before: dict[str, Any] | None) -> None:
    sides = [before, after] if before else [after]
    names = " before / after" if before else ""
    print(f"Hand-labelled tables ({LABELS.relative_to(ROOT)}), each cell{names or ' after'}")
    print("| file | set | labelled | emitted | found | false | rows agree | cols agree | adjacency F1 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")

    def cells(per: list[dict[str, Any]]) -> str:
        return " | ".join(" / ".join(str(p[k]) for p in per)
                          for k in ("emitted", "found", "false", "rows_ok", "cols_ok")) + " | " \
            + " / ".join(_fmt(p["adjacency_f1"]) for p in per)

    for index, row in enumerate(after["rows"]):
        per = [s["rows"][index] for s in sides]
        kind = "check" if row["check"] else "tuning"
        print(f"| {row['file']} | {kind} | {row['labelled']} | {cells(per)} |")
    parts = (("tuning", "files tuned on"), ("check", "check files (not tuned on)"), ("all", "all"))
    for part, label in parts:
        per = [s[part] for s in sides]
        print(f"| **{label}** ({after[part]['files']}) | | {after[part]['labelled']} | {cells(per)} |")
    # The check files' lines are left out: what is not read is not tuned on (`--json` has them).
    print("\nAfter, per file tuned on: labels missed | false tables")
    for row in after["rows"]:
        if not row["check"] and (row["missed_tables"] or row["false_tables"]):
            print(f"- {row['file']}: {row['missed_tables']} | {row['false_tables']}")
