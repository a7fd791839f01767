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
import hashlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_COUNT = 24
DEFAULT_SEED = 1


@dataclass(frozen=True)
class SheetSample:
    """One workbook of the corpus: its truth and its two PDF exports."""

    truth: object  # tests.office_sheets.SheetWorkbook (tests/ is imported lazily)
    plain: Path
    tagged: Path


def _folder(count: int, seed: int) -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    source = (ROOT / "tests" / "office_sheets.py").read_bytes()
    digest = hashlib.sha256(source).hexdigest()[:10]
    return Path(base) / "pagemill" / "sheet-corpus" / f"{digest}-{seed}-{count}"


def build(count: int = DEFAULT_COUNT, seed: int = DEFAULT_SEED, out: Path | None = None) -> list[SheetSample]:
    """The corpus' workbooks from `seed` on, generated and converted unless `out` (by default
    the cache) holds them already."""
    sys.path.insert(0, str(ROOT))
    from tests.office_sheets import SheetWorkbook, convert, generate_workbook

    folder = out or _folder(count, seed)
    folder.mkdir(parents=True, exist_ok=True)
    names = [f"sheet-{seed + i:04d}" for i in range(count)]
    if not all((folder / kind / f"{n}.pdf").exists() for kind in ("plain", "tagged") for n in names) \
            or not all((folder / f"{n}.json").exists() for n in names):
        sources = []
        for index in range(count):
            book = generate_workbook(seed + index)
            path = folder / f"{book.name}.xlsx"
            path.write_bytes(book.xlsx)
            (folder / f"{book.name}.json").write_text(json.dumps(book.truth(), indent=1))
            sources.append(path)
        convert(sources, folder / "plain")
        convert(sources, folder / "tagged", tagged=True)
    return [SheetSample(SheetWorkbook.from_truth(json.loads((folder / f"{n}.json").read_text())),
                        folder / "plain" / f"{n}.pdf", folder / "tagged" / f"{n}.pdf") for n in names]


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
