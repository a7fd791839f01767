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
import hashlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_COUNT = 24
DEFAULT_SEED = 1
EXPORTS = ("plain", "tagged")


@dataclass(frozen=True)
class WebSample:
    """One page of the corpus: its truth and its two PDF prints."""

    truth: object  # tests.web_pages.WebPage (tests/ is imported lazily)
    plain: Path  # untagged (--disable-pdf-tagging), no outline: the heuristics alone
    tagged: Path  # tagged (Chromium's default) with an outline (--generate-pdf-document-outline)


def _folder(count: int, seed: int) -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    source = (ROOT / "tests" / "web_pages.py").read_bytes()
    digest = hashlib.sha256(source).hexdigest()[:10]
    return Path(base) / "pagemill" / "web-corpus" / f"{digest}-{seed}-{count}"


def build(count: int = DEFAULT_COUNT, seed: int = DEFAULT_SEED, out: Path | None = None) -> list[WebSample]:
    """The corpus' pages from `seed` on, generated and printed unless `out` (by default the
    cache) holds them already."""
    sys.path.insert(0, str(ROOT))
    from tests.web_pages import WebPage, generate_page, print_pdf

    folder = out or _folder(count, seed)
    folder.mkdir(parents=True, exist_ok=True)
    names = [f"web-{seed + i:04d}" for i in range(count)]
    if not all((folder / kind / f"{n}.pdf").exists() for kind in EXPORTS for n in names) \
            or not all((folder / f"{n}.json").exists() for n in names):
        sources = []
        for index in range(count):
            page = generate_page(seed + index)
            path = folder / f"{page.name}.html"
            path.write_text(page.html)
            (folder / f"{page.name}.json").write_text(json.dumps(page.truth(), indent=1))
            sources.append(path)
        print_pdf(sources, folder / "plain")
        print_pdf(sources, folder / "tagged", tagged=True, outline=True)
    return [WebSample(WebPage.from_truth(json.loads((folder / f"{n}.json").read_text())),
                      *(folder / kind / f"{n}.pdf" for kind in EXPORTS)) for n in names]


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
