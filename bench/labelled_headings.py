"""Headings of real PDFs against hand labels, one label file per set (`LABEL_SETS`:
`bench/data/heading_labels.json`, unstructured's example PDFs; `heading_labels_icdar.json`, the
ICDAR 2013 government statistics PDFs): per file and summed, heading precision, recall and F1,
with `bench.pdf_structure`'s heading match. Each set is scored and reported on its own, so a
new set leaves the scores of the others as they were.

`python -m bench.pdf_structure --labelled [--before REV] [--json]` runs it, today's extractors
and (in a child) those of REV. Each label file's note says how it was made and which conventions
it follows; its files under "check" were set aside before any measurement, so their total is
reported apart from the files rules may be tuned on.

Matching: each emitted Markdown heading's key (`heading_key`: lower case, emphasis gone, a
section number or chapter label tolerated) takes one label of that key if one is left (a true
positive), else one of the file's "either" lines (ambiguous: counted neither way), else it is
a false positive; labels left over are missed. Level accuracy counts matched headings whose `#`
count equals the label's level.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from bench.pdf_structure import ROOT, _fmt, _prf, _shape_of, heading_key

LABELS = Path(__file__).resolve().parent / "data" / "heading_labels.json"
LABELS_ICDAR = LABELS.with_name("heading_labels_icdar.json")
# Set name -> label file, in the order they are reported.
LABEL_SETS: dict[str, Path] = {"unstructured": LABELS, "icdar2013": LABELS_ICDAR}


def _labels(path: Path = LABELS) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def score_file(emitted: list[tuple[str, int]], headings: list[tuple[str, int]],
               either: list[str]) -> dict[str, Any]:
    """One file's counts: `emitted` are (text, level) as pagemill wrote them, `headings` the
    labels, `either` the ambiguous lines."""
    left: dict[str, list[tuple[str, int]]] = {}
    for text, level in headings:
        left.setdefault(heading_key(text), []).append((text, level))
    spare = Counter(heading_key(text) for text in either)
    tp = level_ok = ambiguous = 0
    extra: list[str] = []
    for text, level in emitted:
        key = heading_key(text)
        if left.get(key):
            tp += 1
            level_ok += int(left[key].pop(0)[1] == level)
        elif spare[key] > 0:
            spare[key] -= 1
            ambiguous += 1
        else:
            extra.append(f"{'#' * level} {text}")
    missed = [text for labels in left.values() for text, _ in labels]
    return {"truth": len(headings), "emitted": len(emitted) - ambiguous, "ambiguous": ambiguous,
            "tp": tp, "level_ok": level_ok, "extra": extra, "missed": missed}


def _totals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    tp, emitted, truth = (sum(r[k] for r in rows) for k in ("tp", "emitted", "truth"))
    level_ok = sum(r["level_ok"] for r in rows)
    return {"files": len(rows), "truth": truth, "emitted": emitted, "tp": tp,
            **_prf(tp, emitted, truth), "level_accuracy": level_ok / tp if tp else None}


def measure_labelled() -> dict[str, Any]:
    """Each label set (`LABEL_SETS`) scored on its own, by name."""
    return {name: measure_label_set(path) for name, path in LABEL_SETS.items()}


def measure_label_set(path: Path) -> dict[str, Any]:
    """Per labelled file and summed: over the files rules may be tuned on, the check files, all."""
    labels = _labels(path)
    root = (ROOT / labels["root"]).resolve()
    rows = []
    for name, entry in labels["files"].items():
        shape = _shape_of(root / name)
        row = score_file(shape.headings, [(t, lv) for t, lv in entry["headings"]], entry["either"])
        row.update(_prf(row["tp"], row["emitted"], row["truth"]))
        rows.append({"file": name, "check": name in labels["check"], **row})
    return {"rows": rows, "tuning": _totals([r for r in rows if not r["check"]]),
            "check": _totals([r for r in rows if r["check"]]), "all": _totals(rows)}


def print_labelled(after: dict[str, Any], before: dict[str, Any] | None) -> None:
    """Every label set's table, one after the other."""
    for index, (name, path) in enumerate(LABEL_SETS.items()):
        if index:
            print()
        print_label_set(path, after[name], before[name] if before else None)


def print_label_set(path: Path, after: dict[str, Any], before: dict[str, Any] | None) -> None:
    sides = [before, after] if before else [after]
    names = " before / after" if before else ""
    print(f"Hand-labelled headings ({path.relative_to(ROOT)}), each cell{names or ' after'}")
    print("| file | set | labels | emitted | matched | precision | recall | F1 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for index, row in enumerate(after["rows"]):
        per = [s["rows"][index] for s in sides]

        def cell(key: str, per: list[dict[str, Any]] = per) -> str:
            return " / ".join(str(p[key]) if isinstance(p[key], int) else _fmt(p[key]) for p in per)

        kind = "check" if row["check"] else "tuning"
        print(f"| {row['file']} | {kind} | {row['truth']} | {cell('emitted')} "
              f"| {cell('tp')} | {cell('precision')} | {cell('recall')} | {cell('f1')} |")
    parts = (("tuning", "files tuned on"), ("check", "check files (not tuned on)"), ("all", "all"))
    for part, label in parts:
        per = [s[part] for s in sides]
        print(f"| **{label}** ({after[part]['files']}) | | {after[part]['truth']} | "
              + " / ".join(str(p["emitted"]) for p in per) + " | "
              + " / ".join(str(p["tp"]) for p in per) + " | "
              + " | ".join(" / ".join(_fmt(p[k]) for p in per) for k in ("precision", "recall", "f1")) + " |")
    print("\nlevel accuracy of matched headings (all files): "
          + " / ".join(_fmt(s["all"]["level_accuracy"]) for s in sides))
    # The check files' lines are left out: what is not read is not tuned on (`--json` has them).
    print("\nAfter, per file tuned on: emitted but not labelled | labelled but not emitted")
    for row in after["rows"]:
        if not row["check"] and (row["extra"] or row["missed"]):
            print(f"- {row['file']}: {row['extra']} | {row['missed']}")
