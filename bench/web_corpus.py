"""The web-page development corpus: pages of tests/web_pages.py printed to PDF by headless
Chromium, untagged and tagged (with an outline), with their ground
truth -- the "web page saved as PDF" users send.  Rules of the PDF structure stage may be tuned
on seeds 1-24 (ours); seeds 101-124 are held back, looked at once; ICDAR-2013 and docling's PDFs
stay regression sets nobody tunes on.

    .venv/bin/python -m bench.web_corpus                   # 24 pages from seed 1
    .venv/bin/python -m bench.web_corpus -n 24 --seed 101 --out /tmp/web

The PDFs are not committed: they are built into a cache directory (default
~/.cache/pagemill/web-corpus/<generator hash>-<seed>-<count>, reused while the generator is
unchanged).  Each page leaves `NAME.html`, `NAME.json` (the truth), `plain/NAME.pdf` and
`tagged/NAME.pdf`.  There is no untagged print with an outline: Chromium 156 builds its outline
from the tags, and with --disable-pdf-tagging writes none.  bench/pdf_structure.py --web scores the structure
stage on it.
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
class WebSample:
    """One page of the corpus: its truth and its two PDF prints."""

    truth: object  # tests.web_pages.WebPage (tests/ is imported lazily)
    plain: Path  # untagged (--disable-pdf-tagging), no outline: the heuristics alone
    tagged: Path  # tagged (Chromium's default) with an outline (--generate-pdf-document-outline)


def build(count: int = DEFAULT_COUNT, seed: int = DEFAULT_SEED, out: Path | None = None) -> list[WebSample]:
    """The corpus' pages from `seed` on, generated and printed unless `out` (by default the
    cache) holds them already."""
    sys.path.insert(0, str(ROOT))
    from tests.web_pages import WebPage, generate_page, print_pdf

    def source(index: int) -> Source:
        page = generate_page(seed + index)
        return Source(page.name, "html", page.html.encode(), page.truth())

    folder = out or cache_folder("web-corpus", "web_pages.py", f"{seed}-{count}")
    names = [f"web-{seed + i:04d}" for i in range(count)]
    items = typeset(folder, names, {"plain": print_pdf,
                                    "tagged": partial(print_pdf, tagged=True, outline=True)}, source)
    return [WebSample(WebPage.from_truth(truth), pdfs["plain"], pdfs["tagged"]) for truth, pdfs in items]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--count", type=int, default=DEFAULT_COUNT)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", type=Path, default=None, help="folder for the corpus (default: a cache)")
    args = parser.parse_args()
    samples = build(args.count, args.seed, args.out)
    print(f"{len(samples)} pages in {samples[0].plain.parent.parent}")


if __name__ == "__main__":
    main()
