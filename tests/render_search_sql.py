"""Render the search statement's main variants into tests/search_sql/, the reviewed references.

    .venv/bin/python -m tests.render_search_sql

Run it after changing anything under indexing/sql/ (or how indexing/search.py renders it):
tests/test_search_sql.py fails while a reference differs from what the templates render, so
that a ranking change is reviewed as a diff of the SQL that PostgreSQL runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from indexing.ranking import DEFAULTS, Normalisation
from indexing.search import Fusion, Mode, build_path_sql, build_sql

REFERENCES = Path(__file__).resolve().parent / "search_sql"
COMMAND = ".venv/bin/python -m tests.render_search_sql"


@dataclass(frozen=True)
class Variant:
    mode: Mode
    collapse: bool
    rounds: int = DEFAULTS.bm25_rounds
    filtered: bool = False
    fusion: Fusion = "weighted"
    path_only: bool = False
    norm: Normalisation = DEFAULTS.normalisation

    @property
    def name(self) -> str:
        if self.path_only:
            return f"bm25_path-{'collapse' if self.collapse else 'chunks'}-r{self.rounds}.sql"
        parts = [self.mode]
        if self.mode == "hybrid":
            parts.append(self.fusion)
            if self.fusion == "weighted" and self.norm != DEFAULTS.normalisation:
                parts.append(self.norm)
        parts.append("collapse" if self.collapse else "chunks")
        if self.mode != "dense":
            parts.append(f"r{self.rounds}")
        if self.filtered:
            parts.append("filtered")
        return "-".join(parts) + ".sql"

    def render(self) -> str:
        if self.path_only:
            sql, what = build_path_sql(self.rounds, self.collapse), "bm25_path.sql"
        else:
            sql = build_sql(self.mode, self.collapse, self.filtered, self.fusion, self.rounds, self.norm)
            what = "search.sql"
        settings = (f"rounds={self.rounds} collapse={self.collapse}" if self.path_only else
                    f"mode={self.mode} collapse={self.collapse} filtered={self.filtered} "
                    f"fusion={self.fusion}"
                    + (f" norm={self.norm}" if self.mode == "hybrid" and self.fusion == "weighted" else "")
                    + f" rounds={self.rounds}")
        return (f"-- indexing/sql/{what} rendered with {settings}.\n"
                f"-- Generated: regenerate with `{COMMAND}` after changing indexing/sql/.\n" + sql)


VARIANTS = (
    *(Variant("bm25", collapse, rounds) for collapse in (True, False) for rounds in (1, 2, 3)),
    *(Variant("hybrid", collapse) for collapse in (True, False)),
    Variant("hybrid", True, fusion="rrf"),
    Variant("hybrid", True, norm="minmax"),
    *(Variant("dense", collapse) for collapse in (True, False)),
    Variant("bm25", True, filtered=True),
    Variant("hybrid", True, filtered=True),
    Variant("dense", True, filtered=True),
    Variant("bm25", True, path_only=True),
)


def main() -> None:
    REFERENCES.mkdir(exist_ok=True)
    wanted = {v.name for v in VARIANTS}
    for stale in REFERENCES.glob("*.sql"):
        if stale.name not in wanted:
            stale.unlink()
    for variant in VARIANTS:
        (REFERENCES / variant.name).write_text(variant.render())
    print(f"{len(VARIANTS)} statements rendered into {REFERENCES}")


if __name__ == "__main__":
    main()
