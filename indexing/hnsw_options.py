"""The HNSW graph's build options and pgvector's bounds on them: what the configuration reads
(app/config.py) and every build of the graph uses (indexing/vector_index.py).  Kept apart from
the statements so that reading the configuration loads no database driver."""

from __future__ import annotations

from dataclasses import dataclass

#: pgvector's bounds on the build options (it refuses a graph built outside them).
M_RANGE = (2, 100)
EF_CONSTRUCTION_RANGE = (4, 1000)


@dataclass(frozen=True)
class GraphOptions:
    """How the graph is built.  16 and 64 are pgvector's defaults and what migration 0027 builds:
    at 200k chunks they give recall@10 0.95-0.97 at ef_search 100.  At 1M chunks no ef_search
    reliably reaches 0.95 over a graph built with ef_construction 64 (0.94-0.957 at 800-1,000);
    ef_construction 128 reaches 0.970 at ef_search 500, in the same bytes, for a build 1.8x as
    long and a dense search ~3x as slow (docs/BENCHMARKS.md, "Dense recall at 1M")."""

    m: int = 16
    ef_construction: int = 64

    def __post_init__(self) -> None:
        if not (M_RANGE[0] <= self.m <= M_RANGE[1]):
            raise ValueError(f"HNSW m must be {M_RANGE[0]} to {M_RANGE[1]}, not {self.m}")
        low, high = EF_CONSTRUCTION_RANGE
        if not (low <= self.ef_construction <= high) or self.ef_construction < 2 * self.m:
            raise ValueError(f"HNSW ef_construction must be {low} to {high} and at least twice m, "
                             f"not {self.ef_construction}")


#: What migration 0027 builds and every build uses unless configured otherwise.
DEFAULT_GRAPH = GraphOptions()
