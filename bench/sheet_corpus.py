"""The spreadsheet development corpus: workbooks of tests/office_sheets.py typeset to PDF by
LibreOffice Calc, untagged and tagged, with their ground truth -- the "Excel exports" users
send.  Rules of the PDF structure stage may be tuned on it (it is ours); ICDAR-2013 and
docling's PDFs stay regression sets nobody tunes on.

    .venv/bin/python -m bench.sheet_corpus                   # 24 workbooks from seed 1
    .venv/bin/python -m bench.sheet_corpus -n 30 --seed 101 --out /tmp/sheets

The PDFs are not committed: they are built into a cache directory (default
~/.cache/pagemill/sheet-corpus/<generator hash>-<seed>-<count>, reused while the generator is
unchanged).  Each workbook leaves `NAME.xlsx`, `NAME.json` (the truth), `plain/NAME.pdf` and
`tagged/NAME.pdf`.  bench/pdf_structure.py --sheets scores the structure stage on it.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from bench.typeset_cache import ROOT, Source, cache_folder, typeset

DEFAULT_COUNT = 24
DEFAULT_SEED = 1


@dataclass(frozen=True)
class SheetSample:
    """One workbook of the corpus: its truth and its two PDF exports."""

    truth: object  # tests.office_sheets.SheetWorkbook (tests/ is imported lazily)
    plain: Path
    tagged: Path


def build(count: int = DEFAULT_COUNT, seed: int = DEFAULT_SEED, out: Path | None = None) -> list[SheetSample]:
    """The corpus' workbooks from `seed` on, generated and converted unless `out` (by default
    the cache) holds them already."""
    sys.path.insert(0, str(ROOT))
    from tests.office_sheets import SheetWorkbook, convert, generate_workbook

    def source(index: int) -> Source:
        book = generate_workbook(seed + index)
        return Source(book.name, "xlsx", book.xlsx, book.truth())

    folder = out or cache_folder("sheet-corpus", "office_sheets.py", f"{seed}-{count}")
    names = [f"sheet-{seed + i:04d}" for i in range(count)]
    items = typeset(folder, names, {"plain": convert, "tagged": partial(convert, tagged=True)}, source)
    return [SheetSample(SheetWorkbook.from_truth(truth), pdfs["plain"], pdfs["tagged"])
            for truth, pdfs in items]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--count", type=int, default=DEFAULT_COUNT)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", type=Path, default=None, help="folder for the corpus (default: a cache)")
    args = parser.parse_args()
    samples = build(args.count, args.seed, args.out)
    print(f"{len(samples)} workbooks in {samples[0].plain.parent.parent}")


if __name__ == "__main__":
    main()
