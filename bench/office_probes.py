"""The office probes: documents of tests/office_probes.py (one construction each: turned column
headings, merged group headings, tables one under the other, wrapped rows, lists of figures,
body-size headings) typeset by LibreOffice (HTML pages printed by Chromium), untagged and
tagged, with their truth; and their scores.  Rules may be tuned on them.

    .venv/bin/python -m bench.office_probes            # build (cached) and print where
    .venv/bin/python -m bench.pdf_structure --probes   # score today's extractors and HEAD's
    .venv/bin/python -m bench.pdf_structure --probes --probe-seeds 101 --probe-count 2

The PDFs are not committed: they are built into ~/.cache/pagemill/office-probes/<generator
hash>-all, reused while the generator is unchanged.  By default each class is made at the
seeds the rules were tuned on (1 to its count); ``--probe-seeds FIRST --probe-count N``
(``build(first=, count=)``) makes every class at seeds FIRST..FIRST+N-1 instead, into a
folder of its own (``<hash>-seeds101x2``): the same generators at seeds nobody tuned on, to
measure how far the rules generalise.  Name a range either for tuning or for checking (its
per-document failures left unread) before looking at it.

A document passes when every table of its truth is one of the Markdown tables emitted, cell for
cell (``tables``), each paragraph of ``texts`` is a line of the Markdown, whole, its headings
are the Markdown headings emitted, in order, whatever their
level (``headings``), ranked as the true levels rank them where those are given (``levels``: a
deeper true level a deeper ``#``), each heading of ``follows`` read right before the text it
heads (the next line opens with the words given), its list items are among the Markdown
items (``items``, bulleted or numbered), each ``nested`` pair's second item indented under
its first, in one list (the pairs in order), and each run of its ``text`` is read whole in the
Markdown's paragraphs (outside headings, items and tables; nothing read into it).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from bench.typeset_cache import ROOT, Source, cache_folder, typeset

EXPORTS = ("plain", "tagged")
#: Seeds per class of a range asked for by its first seed (``build(first=)``, `--probe-seeds`).
RANGE_SEEDS = 2


def build(out: Path | None = None, first: int | None = None,
          count: int | None = None) -> list[tuple[str, dict[str, Any], dict[str, Path]]]:
    """Each probe document's class, truth and PDF per export, typeset unless cached: each class
    at seeds 1..its count, or with ``first`` at seeds first..first+count-1 (RANGE_SEEDS unless
    given)."""
    sys.path.insert(0, str(ROOT))
    from tests.office_decks import convert as convert_decks
    from tests.office_documents import convert
    from tests.office_probes import PROBES
    from tests.office_sheets import convert as convert_sheets
    from tests.web_pages import print_pdf

    if first is None:
        made = [(name, seed) for name, (n, _) in PROBES.items() for seed in range(1, n + 1)]
        key = "all"
    else:
        n = count or RANGE_SEEDS
        made = [(name, seed) for name in PROBES for seed in range(first, first + n)]
        key = f"seeds{first}x{n}"

    def source(index: int) -> Source:
        name, seed = made[index]
        suffix, data, truth = PROBES[name][1](seed)
        return Source(f"{name}-{seed:02d}", suffix, data, {"class": name, **truth})

    def export(tagged: bool) -> Any:
        def run(paths: list[Path], folder: Path) -> None:
            documents = [p for p in paths if p.suffix == ".docx"]
            sheets = [p for p in paths if p.suffix == ".xlsx"]
            if documents:
                convert(documents, folder, tagged=tagged)
            if sheets:
                convert_sheets(sheets, folder, tagged=tagged)
            decks = [p for p in paths if p.suffix == ".pptx"]
            if decks:
                convert_decks(decks, folder, tagged=tagged)
            pages = [p for p in paths if p.suffix == ".html"]
            if pages:
                print_pdf(pages, folder, tagged=tagged)
        return run

    folder = out or cache_folder("office-probes", "office_probes.py", key)
    names = [f"{name}-{seed:02d}" for name, seed in made]
    pairs = typeset(folder, names, {kind: export(kind == "tagged") for kind in EXPORTS}, source)
    return [(str(truth["class"]), truth, pdfs) for truth, pdfs in pairs]


def passes(markdown: str, truth: dict[str, Any]) -> bool:
    from bench.icdar_tables import markdown_tables

    tables = markdown_tables(markdown)
    if any(cells not in tables for cells in truth.get("tables", [])):
        return False
    lines = markdown.splitlines()
    if "headings" in truth:
        emitted = [line.lstrip("#").strip() for line in lines if line.startswith("#")]
        if [h.lower() for h in emitted] != [h.lower() for h in truth["headings"]]:
            return False
        depths = [len(line) - len(line.lstrip("#")) for line in lines if line.startswith("#")]
        if "levels" in truth and not _ranked_alike(depths, truth["levels"]):
            return False
    for heading, opening in truth.get("follows", {}).items():
        if not _followed_by(lines, heading, opening):
            return False
    whole = {" ".join(line.split()) for line in lines}
    if any(" ".join(text.split()) not in whole for text in truth.get("texts", [])):
        return False
    items = {line.strip()[2:] for line in lines if line.strip().startswith("- ")}
    items |= {line.strip() for line in lines if _ORDERED_ITEM.match(line.strip())}
    if any(item not in items for item in truth.get("items", [])):
        return False
    if not _nested(lines, truth.get("nested", [])):
        return False
    running = _running_text(lines)
    return all(_words(run) in running for run in truth.get("text", []))


# A Markdown ordered list item ("1. A device comprising: ..."), read whole with its number.
_ORDERED_ITEM = re.compile(r"^\d{1,3}[.)] ")


def _words(text: str) -> str:
    return " ".join(text.split())


def _running_text(lines: list[str]) -> str:
    """The Markdown's paragraphs in order as one run of words: no heading, list item or table
    row among them (a ``text`` run of the truth must be read there whole, nothing inserted)."""
    kept = [line for line in lines if line.strip() and not line.startswith("#")
            and not line.lstrip().startswith(("- ", "|")) and not _ORDERED_ITEM.match(line.lstrip())]
    return _words(" ".join(line.removeprefix("\\") for line in kept))


def _ranked_alike(emitted: list[int], true: list[int]) -> bool:
    """Whether the emitted heading levels rank the headings as the true ones do: each true level
    one emitted level, a deeper true level a deeper emitted one (``#`` for 1 and ``###`` for 2
    passes, 1 and 2 both as ``##`` does not)."""
    levels: dict[int, int] = {}
    for got, want in zip(emitted, true, strict=True):
        if levels.setdefault(want, got) != got:
            return False
    ranked = sorted(levels)
    return all(levels[a] < levels[b] for a, b in zip(ranked, ranked[1:], strict=False))


def _nested(lines: list[str], pairs: list[list[str]]) -> bool:
    """Whether each pair's list item ``child`` is nested under its item ``parent``, the pairs
    met in order: the parent's next line after the pair before, then the child's next after
    it, indented deeper, only list items between them (a page's end may leave a blank line
    inside a list)."""
    def item(line: str) -> str:
        text = line.strip()
        return text[2:] if text.startswith("- ") else text

    def indent(line: str) -> int:
        return len(line) - len(line.lstrip())

    at = 0
    for parent, child in pairs:
        above = next((k for k in range(at, len(lines)) if item(lines[k]) == parent), None)
        if above is None:
            return False
        below = next((k for k in range(above + 1, len(lines)) if item(lines[k]) == child), None)
        if below is None or indent(lines[below]) <= indent(lines[above]) \
                or any(lines[k].strip() and not _list_line(lines[k]) for k in range(above + 1, below)):
            return False
        at = above  # (the next pair may share this parent)
    return True


def _list_line(line: str) -> bool:
    text = line.strip()
    return text.startswith("- ") or bool(_ORDERED_ITEM.match(text))


def _followed_by(lines: list[str], heading: str, opening: str) -> bool:
    """Whether a heading line of ``heading`` is followed, after blank lines, by a line opening
    with ``opening`` (its text read after it, not another column's).  (A heading's text may
    recur, a "What happens next" in two sections: the truth keeps one opening for it.)"""
    def words(text: str) -> str:
        return " ".join(text.lower().split())

    for at, line in enumerate(lines):
        if line.startswith("#") and words(line.lstrip("#")) == words(heading):
            after = next((rest for rest in lines[at + 1:] if rest.strip()), "")
            if words(after).startswith(words(opening)):
                return True
    return False


def measure_probes(first: int | None = None, count: int | None = None) -> dict[str, Any]:
    """Per class and export: documents, and documents passed; the names of those failed (the
    seeds as :func:`build` takes them)."""
    from extractors.base import ExtractOptions
    from extractors.router import extract

    options = ExtractOptions(ocr_engines=())
    out: dict[str, Any] = {}
    for name, truth, pdfs in build(first=first, count=count):
        for kind in EXPORTS:
            markdown = extract(pdfs[kind].read_bytes(), filename="probe.pdf", options=options).markdown
            row = out.setdefault(f"{name} ({kind})", {"documents": 0, "passed": 0, "failed": []})
            row["documents"] += 1
            if passes(markdown, truth):
                row["passed"] += 1
            else:
                row["failed"].append(pdfs[kind].stem)
    return out


def print_probes(after: dict[str, Any], before: dict[str, Any] | None) -> None:
    print("Office probes (bench/office_probes.py): documents passed" + (", before / after" if before else ""))
    print("| class (export) | documents | passed |")
    print("|---|---:|---:|")
    for key, row in after.items():
        passed = f"{before[key]['passed']} / {row['passed']}" if before else str(row["passed"])
        print(f"| {key} | {row['documents']} | {passed} |")
    total = sum(row["documents"] for row in after.values())
    done = sum(row["passed"] for row in after.values())
    prior = f"{sum(row['passed'] for row in before.values())} / " if before else ""
    print(f"| **all** | {total} | {prior}{done} |")
    failed = [name for row in after.values() for name in row["failed"]]
    if failed:
        print(f"\nFailed (after): {', '.join(failed)}")


def main() -> None:
    pairs = build()
    print(f"{len(pairs)} documents in {next(iter(pairs[0][2].values())).parent.parent}")


if __name__ == "__main__":
    main()
