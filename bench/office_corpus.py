"""The office development corpus: Word documents of tests/office_documents.py typeset to PDF by
LibreOffice, untagged and tagged, with their ground truth.  Rules of the PDF structure stage are
tuned on this set (and on tests/pdf_reports.py's); ICDAR-2013 and docling's PDFs stay regression
sets nobody tunes on.

    .venv/bin/python -m bench.office_corpus                   # 24 documents from seed 1
    .venv/bin/python -m bench.office_corpus -n 30 --seed 5 --out /tmp/office

The PDFs are not committed: they are built into a cache directory (default
~/.cache/pagemill/office-corpus/<generator hash>-<seed>-<count>, reused while the generator is
unchanged).  Each document leaves `NAME.docx`, `NAME.json` (the truth), `plain/NAME.pdf` and
`tagged/NAME.pdf` and `marked/NAME.pdf` (untagged, with bookmarks).  The documents are the
hard ones (decoys real documents have, see tests/office_documents.py) unless --easy.
bench/pdf_structure.py --office scores the structure stage on it.
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
class OfficeSample:
    """One document of the corpus: its truth and its three PDF exports."""

    truth: object  # tests.office_documents.OfficeDocument (tests/ is imported lazily)
    plain: Path  # untagged, no outline: the heuristics alone
    tagged: Path  # tagged, with an outline
    marked: Path  # untagged with an outline (bookmarks)


def build(count: int = DEFAULT_COUNT, seed: int = DEFAULT_SEED,
          out: Path | None = None, hard: bool = True) -> list[OfficeSample]:
    """The corpus' documents from `seed` on, generated and converted unless `out` holds them
    already (from the same generator source); `hard`: with the decoys real documents have
    (tests/office_documents.py), as the corpus is by default since issue 32."""
    sys.path.insert(0, str(ROOT))
    from tests.office_documents import OfficeDocument, convert, generate_document

    def source(index: int) -> Source:
        document = generate_document(seed + index, hard=hard)
        return Source(document.name, "docx", document.docx, document.truth())

    folder = out or cache_folder("office-corpus", "office_documents.py",
                                 f"{seed}-{count}{'-hard' if hard else ''}")
    names = [f"office-{seed + i:04d}" for i in range(count)]
    exports = {"plain": convert, "tagged": partial(convert, tagged=True),
               "marked": partial(convert, bookmarks=True)}
    return [OfficeSample(OfficeDocument.from_truth(truth), pdfs["plain"], pdfs["tagged"], pdfs["marked"])
            for truth, pdfs in typeset(folder, names, exports, source)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--count", type=int, default=DEFAULT_COUNT)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", type=Path, default=None, help="folder for the corpus (default: a cache)")
    parser.add_argument("--easy", action="store_true", help="without the hard documents' decoys")
    args = parser.parse_args()
    samples = build(args.count, args.seed, args.out, hard=not args.easy)
    print(f"{len(samples)} documents in {samples[0].plain.parent.parent}")


if __name__ == "__main__":
    main()
