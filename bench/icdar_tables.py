"""Table-structure F1 on the ICDAR 2013 table competition (67 born-digital PDFs): pagemill's
table finder side by side with pdfplumber's (lines and text strategies) and camelot's (stream
and lattice, when it is installed), in one run.

The measure is the competition's (Göbel et al. 2013): every table becomes a set of adjacency
relations between neighbouring non-empty cells (a cell and the next non-empty cell to its right
in its row, and below it in its column), each relation written as (text, text, direction) with
whitespace removed; precision = correct / found, recall = correct / annotated, counts summed
over all documents (micro average).  A spanning cell is represented as every finder emits it:
its text in its first (top-left) grid slot and "" in the others, on both sides of the
comparison.  Where a document has two annotations (``eu-009a``/``eu-009b``, ...) the better
scoring one counts, as in the competition.

    .venv/bin/python -m bench.icdar_tables                 # every engine, side by side
    .venv/bin/python -m bench.icdar_tables --engines finder --json out.json
    .venv/bin/python -m bench.icdar_tables --engines pagemill   # Markdown of extract()

Engines: ``pagemill`` (``extractors.router.extract`` → the pipe tables of its Markdown),
``finder`` (``extractors.pdf_tables.find_tables`` over ``read_layouts`` when the reader exists,
else over page layouts built from pdfplumber's words and edges), ``pdfplumber-lines``,
``pdfplumber-text``, ``camelot-stream``, ``camelot-lattice``.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
import time
import unicodedata
import warnings
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATASET = ROOT.parent / "shared" / "corpus" / "icdar2013-tables-via-tabula-java"

Grid = list[list[str]]
Relation = tuple[str, str, str]

ENGINES = ("pagemill", "finder", "pdfplumber-lines", "pdfplumber-text", "camelot-stream",
           "camelot-lattice")


# ---------------------------------------------------------------- ground truth and measure

def documents(dataset: Path = DATASET) -> list[tuple[str, Path, list[Path]]]:
    """(name, pdf, its -str.xml annotations) for every PDF of the dataset."""
    found = []
    for pdf in sorted(dataset.glob("competition-dataset-*/*.pdf")):
        variants = [pdf.with_name(pdf.stem + "-str.xml")]
        if pdf.stem.endswith("a"):
            other = pdf.with_name(pdf.stem[:-1] + "b-str.xml")
            if other.exists():
                variants.append(other)
        found.append((pdf.stem, pdf, [v for v in variants if v.exists()]))
    return found


def annotated_grids(path: Path) -> list[Grid]:
    """Every table region of a -str.xml file as a grid (a spanning cell's text in its first slot)."""
    grids = []
    for region in ET.parse(path).getroot().iter("region"):
        cells = []
        for cell in region.iter("cell"):
            content = cell.findtext("content") or ""
            cells.append((int(cell.get("start-row", 0)), int(cell.get("start-col", 0)), content))
        if not cells:
            continue
        rows = 1 + max(c[0] for c in cells)
        cols = 1 + max(c[1] for c in cells)
        grid = [[""] * cols for _ in range(rows)]
        for row, col, content in cells:
            grid[row][col] = content
        grids.append(grid)
    return grids


_DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-",
                         "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


def normalised(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(_DASHES)
    return re.sub(r"\s+", "", text).lower()


def relations(grid: Grid) -> Counter[Relation]:
    """The adjacency relations of one table: each non-empty cell with the next non-empty cell to
    its right and the next one below."""
    cells = [[normalised(text) for text in row] for row in grid]
    found: Counter[Relation] = Counter()
    for r, row in enumerate(cells):
        for c, text in enumerate(row):
            if not text:
                continue
            right = next((t for t in row[c + 1:] if t), None)
            if right is not None:
                found[(text, right, "h")] += 1
            below = next((other[c] for other in cells[r + 1:] if c < len(other) and other[c]), None)
            if below is not None:
                found[(text, below, "v")] += 1
    return found


def all_relations(grids: list[Grid]) -> Counter[Relation]:
    total: Counter[Relation] = Counter()
    for grid in grids:
        total.update(relations(grid))
    return total


@dataclass
class Score:
    correct: int = 0
    found: int = 0
    annotated: int = 0

    @property
    def precision(self) -> float:
        return self.correct / self.found if self.found else 0.0

    @property
    def recall(self) -> float:
        return self.correct / self.annotated if self.annotated else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def add(self, other: Score) -> None:
        self.correct += other.correct
        self.found += other.found
        self.annotated += other.annotated


def score(found: list[Grid], variants: list[list[Grid]]) -> tuple[Score, int]:
    """The score against the better annotation, and which one it was."""
    mine = all_relations(found)
    best: tuple[Score, int] | None = None
    for index, annotated in enumerate(variants):
        truth = all_relations(annotated)
        s = Score(sum((mine & truth).values()), sum(mine.values()), sum(truth.values()))
        if best is None or s.f1 > best[0].f1:
            best = (s, index)
    assert best is not None
    return best


# ---------------------------------------------------------------- engines

def markdown_tables(markdown: str) -> list[Grid]:
    """The pipe tables of a Markdown text (header row, separator, rows; ``\\|`` is a pipe)."""
    grids: list[Grid] = []
    current: Grid = []
    for line in markdown.splitlines() + [""]:
        stripped = line.strip()
        if stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:
            cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", stripped[1:-1])]
            if all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
                continue  # the separator row
            current.append(cells)
        elif current:
            grids.append(current)
            current = []
    return grids


def _pagemill(pdf: Path) -> list[Grid]:
    from extractors.router import extract
    return markdown_tables(extract(pdf.read_bytes(), filename=pdf.name).markdown)


def plumber_layouts(pdf: Path) -> list[Any]:
    """Dev adapter: PageLayouts from pdfplumber's words and edges (top-left origin, as ours)."""
    import pdfplumber

    from extractors.pdf_words import PageLayout, Ruling, Word

    layouts = []
    with pdfplumber.open(pdf) as doc:
        for number, page in enumerate(doc.pages, 1):
            words = [Word(text=w["text"], x0=w["x0"], top=w["top"], x1=w["x1"], bottom=w["bottom"],
                          size=float(w.get("size") or (w["bottom"] - w["top"])),
                          bold="bold" in str(w.get("fontname", "")).lower(), font=str(w.get("fontname", "")))
                     for w in page.extract_words(extra_attrs=["size", "fontname"], keep_blank_chars=False)]
            rulings = [Ruling(e["x0"], e["top"], e["x1"], e["bottom"]) for e in page.edges
                       if e.get("orientation") in ("h", "v")]
            layouts.append(PageLayout(number=number, width=float(page.width), height=float(page.height),
                                      words=words, rulings=rulings))
    return layouts


def layouts_of(pdf: Path, adapter: str) -> list[Any]:
    if adapter == "pdfium":
        from extractors import pdf_words
        return pdf_words.read_layouts(pdf.read_bytes())  # type: ignore[attr-defined]
    return plumber_layouts(pdf)


def reader_available() -> bool:
    from extractors import pdf_words
    return hasattr(pdf_words, "read_layouts")


def _finder(pdf: Path, adapter: str) -> list[Grid]:
    from extractors.pdf_tables import find_tables
    return [t.cells for layout in layouts_of(pdf, adapter) for t in find_tables(layout)]


def _plumber(pdf: Path, strategy: str) -> list[Grid]:
    import pdfplumber
    settings = {} if strategy == "lines" else {"vertical_strategy": "text", "horizontal_strategy": "text"}
    grids = []
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages:
            for table in page.extract_tables(settings):
                grids.append([[cell or "" for cell in row] for row in table])
    return grids


def _camelot(pdf: Path, flavor: str) -> list[Grid]:
    import camelot
    with warnings.catch_warnings():  # "No tables found in table area" for every empty guess
        warnings.simplefilter("ignore")
        tables = camelot.read_pdf(str(pdf), flavor=flavor, pages="all")
    return [[[str(v) for v in row] for row in t.df.values.tolist()] for t in tables]


def engine_function(name: str, adapter: str) -> Callable[[Path], list[Grid]]:
    if name == "pagemill":
        return _pagemill
    if name == "finder":
        return lambda pdf: _finder(pdf, adapter)
    if name.startswith("pdfplumber-"):
        return lambda pdf: _plumber(pdf, name.split("-", 1)[1])
    return lambda pdf: _camelot(pdf, name.split("-", 1)[1])


def available(name: str) -> str | None:
    """None when the engine can run here, else why not."""
    try:
        if name.startswith("camelot"):
            import camelot  # noqa: F401
        if name.startswith("pdfplumber"):  # the finder needs it only with --adapter pdfplumber
            import pdfplumber  # noqa: F401
    except Exception as exc:  # an engine that does not import is reported, not fatal
        return f"{type(exc).__name__}: {exc}"
    return None


# ---------------------------------------------------------------- the run

@dataclass
class EngineResult:
    name: str
    total: Score = field(default_factory=Score)
    documents: dict[str, dict[str, Any]] = field(default_factory=dict)
    seconds: float = 0.0
    skipped: str | None = None


def run(engines: list[str], adapter: str, only: list[str] | None = None) -> list[EngineResult]:
    docs = [d for d in documents() if not only or d[0] in only]
    truths = {name: [annotated_grids(v) for v in variants] for name, _, variants in docs}
    results = []
    for name in engines:
        result = EngineResult(name)
        results.append(result)
        result.skipped = available(name)
        if result.skipped:
            continue
        extract = engine_function(name, adapter)
        start = time.perf_counter()
        for doc, pdf, _variants in docs:
            error = None
            try:
                stdout, sys.stdout = sys.stdout, io.StringIO()  # camelot prints warnings
                try:
                    found = extract(pdf)
                finally:
                    sys.stdout = stdout
            except Exception as exc:  # one document's failure is reported, the run goes on
                found, error = [], f"{type(exc).__name__}: {exc}"
            s, variant = score(found, truths[doc])
            result.total.add(s)
            result.documents[doc] = {"precision": round(s.precision, 3), "recall": round(s.recall, 3),
                                     "f1": round(s.f1, 3), "correct": s.correct, "found": s.found,
                                     "annotated": s.annotated, "tables": len(found),
                                     "variant": variant, "error": error}
        result.seconds = time.perf_counter() - start
    return results


def report(results: list[EngineResult], failure_f1: float) -> str:
    lines = [f"{'engine':<18} {'P':>6} {'R':>6} {'F1':>6} {'found':>7} {'annot.':>7} {'secs':>6}"]
    for r in results:
        if r.skipped:
            lines.append(f"{r.name:<18} skipped: {r.skipped}")
            continue
        t = r.total
        lines.append(f"{r.name:<18} {t.precision:6.3f} {t.recall:6.3f} {t.f1:6.3f} {t.found:7d} "
                     f"{t.annotated:7d} {r.seconds:6.1f}")
    for r in results:
        if r.skipped:
            continue
        failures = [(d, v) for d, v in r.documents.items() if v["f1"] < failure_f1]
        lines.append(f"\n{r.name}: {len(failures)} documents with F1 < {failure_f1}")
        for doc, v in failures:
            lines.append(f"  {doc:<8} P {v['precision']:.2f} R {v['recall']:.2f} F1 {v['f1']:.2f} "
                         f"tables {v['tables']}" + (f"  {v['error']}" if v["error"] else ""))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engines", default=",".join(ENGINES),
                        help="comma-separated, from: " + ", ".join(ENGINES))
    parser.add_argument("--adapter", choices=("auto", "pdfium", "pdfplumber"), default="auto",
                        help="page layouts for the finder engine (auto: pdfium when read_layouts exists)")
    parser.add_argument("--docs", default="", help="comma-separated document names (default: all 67)")
    parser.add_argument("--failure-f1", type=float, default=0.6, help="list documents scoring below this")
    parser.add_argument("--json", metavar="PATH", help="write every number to PATH ('-' for stdout)")
    args = parser.parse_args(argv)
    adapter = args.adapter
    if adapter == "auto":
        adapter = "pdfium" if reader_available() else "pdfplumber"
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    unknown = set(engines) - set(ENGINES)
    if unknown:
        parser.error(f"unknown engines: {', '.join(sorted(unknown))}")
    results = run(engines, adapter, [d for d in args.docs.split(",") if d] or None)
    print(f"ICDAR 2013 table structure, adjacency relations, micro average (finder layouts: {adapter})")
    print(report(results, args.failure_f1))
    if args.json:
        payload = {"adapter": adapter, "engines": {
            r.name: {"skipped": r.skipped, "precision": r.total.precision, "recall": r.total.recall,
                     "f1": r.total.f1, "correct": r.total.correct, "found": r.total.found,
                     "annotated": r.total.annotated, "seconds": r.seconds, "documents": r.documents}
            for r in results}}
        text = json.dumps(payload, indent=2)
        if args.json == "-":
            print(text)
        else:
            Path(args.json).write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
