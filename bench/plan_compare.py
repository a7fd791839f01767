"""Do two versions of ``indexing/search.py`` give PostgreSQL's planner the same statements?

    git show 998e9f6:indexing/search.py > /tmp/search_before.py
    .venv/bin/python -m bench.plan_compare /tmp/search_before.py --size 200000

For each main variant (bm25 and hybrid under both fusions, each per chunk and collapsed, with
``--rounds``; dense; the filtered ones; the BM25 path statement) both versions' statements are
planned on one database as the service gets them: prepared by psycopg with the bind values
search sends, then ``EXPLAIN (VERBOSE, FORMAT JSON) EXECUTE`` under ``plan_cache_mode =
force_generic_plan`` (unfiltered searches run that generic plan).  ``EXPLAIN (GENERIC_PLAN)``
cannot plan them: some parameters' types (``:k * 4``) come only from the values sent.  ``$n``
is printed back as its bind name, so that a reordering of parameters is not a difference.
Three levels are compared per variant: the plan tree (node types, relations, aliases, index
names, CTE and subplan names, join types and order), the planner's estimates (costs, rows,
widths), and every expression as EXPLAIN VERBOSE prints it; the first difference is printed,
and the exit status is 1 when a plan tree differs.  A difference of estimates or expressions
alone means the planner saw other SQL but chose the same plan.  Uses the corpora that
``python -m bench.search`` builds (an empty tenant when there is none: the plans of empty
tables).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import psycopg.sql
from sqlalchemy import text
from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg

from app.config import to_libpq_url
from bench.database import add_home_argument, search_corpus
from bench.search_compare import _load
from indexing import search as current
from indexing.store import vector_literal

# What makes a plan's shape; everything else EXPLAIN prints is an estimate or an expression.
SHAPE_KEYS = ("Node Type", "Parent Relationship", "Subplan Name", "CTE Name", "Relation Name", "Schema",
              "Alias", "Index Name", "Join Type", "Strategy", "Partial Mode", "Scan Direction",
              "Operation", "Inner Unique", "Parallel Aware", "Async Capable", "Function Name")
ESTIMATE_KEYS = ("Startup Cost", "Total Cost", "Plan Rows", "Plan Width")

_DIALECT = PGDialect_psycopg()

# name -> (mode, collapse, filtered, fusion); mode None: the BM25 path statement.
VARIANTS: dict[str, tuple[str | None, bool, bool, str]] = {
    "bm25-chunks": ("bm25", False, False, "rrf"),
    "bm25-collapse": ("bm25", True, False, "rrf"),
    "bm25-collapse-filtered": ("bm25", True, True, "rrf"),
    "hybrid-rrf-chunks": ("hybrid", False, False, "rrf"),
    "hybrid-rrf-collapse": ("hybrid", True, False, "rrf"),
    "hybrid-weighted-chunks": ("hybrid", False, False, "weighted"),
    "hybrid-weighted-collapse": ("hybrid", True, False, "weighted"),
    "hybrid-weighted-collapse-filtered": ("hybrid", True, True, "weighted"),
    "dense-chunks": ("dense", False, False, "rrf"),
    "dense-collapse": ("dense", True, False, "rrf"),
    "dense-collapse-filtered": ("dense", True, True, "rrf"),
    "bm25_path-collapse": (None, True, False, "rrf"),
}


def _statement(module: Any, variant: tuple[str | None, bool, bool, str], rounds: int) -> str:
    mode, collapse, filtered, fusion = variant
    if mode is None:
        return str(module._path_statement(rounds, collapse).text)
    return str(module.build_sql(mode, collapse, filtered, fusion, rounds))


def generic_plan(url: str, sql: str, binds: dict[str, object]) -> dict[str, Any]:
    """The generic plan of ``sql`` (binds ``:name``) as the service gets it: prepared by
    psycopg with the types of ``binds``' values, then EXPLAIN EXECUTE under
    force_generic_plan; its ``$n`` printed back as ``:name``.  A connection of its own, so
    that its one prepared statement is this one."""
    query = str(text(sql).compile(dialect=_DIALECT))  # pyformat, as SQLAlchemy hands it to psycopg
    names = list(dict.fromkeys(re.findall(r"%\((\w+)\)s", query)))  # psycopg's $1, $2, ... in order
    with psycopg.connect(url) as raw, raw.cursor() as cur:
        cur.execute("SET plan_cache_mode = force_generic_plan")
        cur.execute(query, {name: binds[name] for name in names}, prepare=True)
        cur.fetchall()
        cur.execute("SELECT name FROM pg_prepared_statements WHERE NOT from_sql")
        (statement,) = (row[0] for row in cur.fetchall())
        cur.execute(psycopg.sql.SQL("EXPLAIN (VERBOSE, FORMAT JSON) EXECUTE {}({})").format(
            psycopg.sql.Identifier(statement),
            psycopg.sql.SQL(", ").join(psycopg.sql.Literal(binds[name]) for name in names)))
        result = cur.fetchone()
        assert result is not None
        raw.rollback()
    plan = result[0] if isinstance(result[0], list) else json.loads(result[0])
    named = re.sub(r"\$(\d+)\b", lambda m: ":" + names[int(m.group(1)) - 1], json.dumps(plan[0]["Plan"]))
    return dict(json.loads(named))


def _binds(module: Any, tenant: str, variant: tuple[str | None, bool, bool, str],
           rounds: int) -> dict[str, object]:
    collapse = variant[1]
    binds: dict[str, object] = module.bind_parameters(tenant, ["t1", "t20", "t300"], 10, collapse,
                                                      module.SearchParams(bm25_rounds=rounds))
    rng = np.random.default_rng(7)
    vector = rng.standard_normal(384).astype(np.float32)
    binds["qvec"] = vector_literal(vector / np.linalg.norm(vector))
    # Non-null filter values, so that every filter parameter is sent with its type.
    binds.update({"f_docs": ["d1"], "f_job": "00000000-0000-0000-0000-000000000000",
                  "f_meta": '{"lang": "en"}', "f_mimes": ["text/plain"],
                  "f_after": "2000-01-01T00:00:00+00:00", "f_before": "2999-01-01T00:00:00+00:00"})
    return binds


def _nodes(node: dict[str, Any], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    where = f"{path}/{node['Node Type']}" + (f"[{node['Subplan Name']}]" if "Subplan Name" in node else "")
    yield where, node
    for child in node.get("Plans", []):
        yield from _nodes(child, where)


def _level(node: dict[str, Any], keep: Callable[[str], bool]) -> list[tuple[str, dict[str, Any]]]:
    return [(where, {k: v for k, v in n.items() if k != "Plans" and keep(k)}) for where, n in _nodes(node)]


def first_difference(old: dict[str, Any], new: dict[str, Any], keep: Callable[[str], bool]) -> str | None:
    """Where two plans first differ in the keys ``keep`` selects (also in their tree's shape)."""
    a, b = _level(old, keep), _level(new, keep)
    for (where_a, node_a), (where_b, node_b) in zip(a, b, strict=False):
        if where_a != where_b:
            return f"node {where_a} against {where_b}"
        for key in sorted(set(node_a) | set(node_b)):
            if node_a.get(key) != node_b.get(key):
                return f"{where_a}: {key}: {node_a.get(key)!r} against {node_b.get(key)!r}"
    return None if len(a) == len(b) else f"{len(a)} nodes against {len(b)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline", help="path to another version of indexing/search.py")
    parser.add_argument("--size", type=int, default=200_000, help="which bench.search corpus")
    parser.add_argument("--rounds", type=int, default=2)
    add_home_argument(parser)
    args = parser.parse_args()

    engine, tenant, have = search_corpus(Path(args.home), args.size)
    baseline = _load(args.baseline)
    url = to_libpq_url(engine.url.render_as_string(hide_password=False))
    with engine.connect() as conn:
        server = conn.exec_driver_sql("SHOW server_version").scalar_one()
    print(f"PostgreSQL {server}, {have:,} chunks in the tenant, rounds {args.rounds}")
    print(f"{'variant':34} {'plan tree':10} {'estimates':10} expressions")
    differing = 0
    for name, variant in VARIANTS.items():
        old, new = (generic_plan(url, _statement(module, variant, args.rounds),
                                 _binds(module, tenant, variant, args.rounds))
                    for module in (baseline, current))
        checks = [first_difference(old, new, lambda k: k in SHAPE_KEYS),
                  first_difference(old, new, lambda k: k in SHAPE_KEYS + ESTIMATE_KEYS),
                  first_difference(old, new, lambda k: True)]
        differing += checks[0] is not None
        print(f"{name:34} " + " ".join(f"{'same' if c is None else 'DIFFERS':10}" for c in checks).rstrip())
        for check in checks:
            if check is not None:
                print(f"    first difference: {check[:400]}")
                break
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
