"""The cache the typeset development corpora share (bench/office_corpus.py, sheet_corpus.py,
web_corpus.py): each generated source written beside its truth, typeset once per export, and
reused while the generator's source is unchanged.

A corpus lives in ~/.cache/pagemill/<corpus>/<generator hash>-<key> (or a folder given), one
`NAME.<suffix>` source and `NAME.json` truth per item and `<export>/NAME.pdf` per export.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Source:
    """One generated item: its name, its source file's suffix and bytes, and its truth."""

    name: str
    suffix: str
    data: bytes
    truth: dict[str, object]


#: Typesets the sources into a folder (one export: LibreOffice with its options, Chromium ...).
Typesetter = Callable[[list[Path], Path], object]


def cache_folder(corpus: str, generator: str, key: str) -> Path:
    """The cache folder of a corpus built by ``tests/<generator>`` as it is now."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    digest = hashlib.sha256((ROOT / "tests" / generator).read_bytes()).hexdigest()[:10]
    return Path(base) / "pagemill" / corpus / f"{digest}-{key}"


def typeset(folder: Path, names: list[str], exports: Mapping[str, Typesetter],
            source: Callable[[int], Source]) -> list[tuple[dict[str, object], dict[str, Path]]]:
    """Each named item's truth and its PDF per export; the items (``source(i)`` for the i-th
    name) are generated and typeset unless the folder holds every PDF and truth already."""
    folder.mkdir(parents=True, exist_ok=True)
    if not all((folder / kind / f"{n}.pdf").exists() for kind in exports for n in names) \
            or not all((folder / f"{n}.json").exists() for n in names):
        paths = []
        for index in range(len(names)):
            item = source(index)
            path = folder / f"{item.name}.{item.suffix}"
            path.write_bytes(item.data)
            (folder / f"{item.name}.json").write_text(json.dumps(item.truth, indent=1))
            paths.append(path)
        for kind, typesetter in exports.items():
            typesetter(paths, folder / kind)
    return [(json.loads((folder / f"{n}.json").read_text()),
             {kind: folder / kind / f"{n}.pdf" for kind in exports}) for n in names]
