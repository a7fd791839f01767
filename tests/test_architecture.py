"""Data flows one way: API/CLI -> queue -> tasks -> extractors -> indexing -> database.  The
leaves know nothing of the rooms above them; these tests read every import statement
(function-level ones included) so a shortcut fails here, not in review."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# package -> module prefixes it must never import
FORBIDDEN = {
    "extractors": ("app", "tasks", "indexing", "flask", "celery", "kombu"),
    "indexing": ("app", "tasks", "extractors", "flask", "celery", "kombu"),
    "tasks": ("app.api", "app.cli", "flask"),
}


def _imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def _violations(package: str) -> list[str]:
    banned = FORBIDDEN[package]
    out = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for line, module in _imports(path):
            if any(module == b or module.startswith(b + ".") for b in banned):
                out.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    return out


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_flow_one_way(package: str) -> None:
    assert _violations(package) == []


def test_the_check_sees_function_level_imports(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("def f():\n    from app.api import create_app\n    import celery.app\n")
    assert [m for _, m in _imports(source)] == ["app.api", "celery.app"]


def test_the_broker_transport_imports_nothing_of_pagemill_outside_itself() -> None:
    """``tasks.broker`` is a kombu transport any Celery app can use: it imports no part of
    ``app``, no Flask, no Celery, and of ``tasks`` only itself."""
    out = []
    for path in sorted((ROOT / "tasks" / "broker").rglob("*.py")):
        for line, module in _imports(path):
            top = module.split(".")[0]
            outside = top == "tasks" and not (module == "tasks.broker" or module.startswith("tasks.broker."))
            if top in {"app", "flask", "celery", "extractors", "indexing"} or outside:
                out.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert out == []


# The modules of app/ that manage workers and the broker (start, stop, list them, read their
# queues); everywhere else app/ is below tasks/: a job is written and dispatched through the
# runtime's publisher (app/publisher.py), which tasks/ implements.
APP_MODULES_THAT_MANAGE_WORKERS = {"app/cli/worker.py", "app/cli/ingest.py", "app/cli/broker.py",
                                   "app/cli/doctor.py", "app/api/meta.py", "app/api/metrics.py"}


def test_app_imports_tasks_only_where_it_manages_workers() -> None:
    out = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        name = str(path.relative_to(ROOT))
        if name in APP_MODULES_THAT_MANAGE_WORKERS:
            continue
        for line, module in _imports(path):
            if module == "tasks" or module.startswith("tasks."):
                out.append(f"{name}:{line} imports {module}")
    assert out == []


# -- SQL is kept one way: named statements in app/statements/<area>.py ---------------------
# Modules of app/ whose SQL has not moved to app/statements/ yet (issue 36): shrink, never grow.
SQL_NOT_YET_IN_STATEMENTS: set[str] = set()


def _literal_text_calls(path: Path) -> list[int]:
    """Lines of ``text(...)`` calls on a literal or f-string: SQL written in place."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if (isinstance(node, ast.Call) and node.args
                and isinstance(node.func, ast.Name | ast.Attribute)
                and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr) == "text"
                and isinstance(node.args[0], ast.Constant | ast.JoinedStr)):
            lines.append(node.lineno)
    return lines


def _sql_in_place() -> list[str]:
    out = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        name = str(path.relative_to(ROOT))
        if name.startswith("app/statements/") or name in SQL_NOT_YET_IN_STATEMENTS:
            continue
        out += [f"{name}:{line} writes SQL in place" for line in _literal_text_calls(path)]
    return out


def test_app_keeps_sql_only_in_statement_modules() -> None:
    """Outside app/statements/, app/ executes statements by name (``sql.NAME``), never
    ``text("...")``: in a function body or at module level."""
    assert _sql_in_place() == []


def test_the_sql_check_sees_text_calls_in_functions_and_f_strings(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text('import sqlalchemy as sa\nfrom sqlalchemy import text\nQ = text("SELECT 1")\n'
                      'def f(conn, t):\n    conn.execute(sa.text(f"SELECT {t}"))\n'
                      '    conn.execute(text(t))\n    p.read_text()\n')
    assert _literal_text_calls(source) == [3, 5]


def _undocumented_statements(path: Path) -> list[str]:
    """Module-level statement constants (``NAME = text(...)``, or a function returning a
    statement) without a ``#:`` comment on the line above (a function: a docstring)."""
    source = path.read_text()
    lines = source.splitlines()
    out = []
    for node in ast.parse(source, filename=str(path)).body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Call):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            above = lines[node.lineno - 2].lstrip() if node.lineno > 1 else ""
            if not above.startswith("#:"):
                out.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(target)} has no #: comment")
        elif isinstance(node, ast.FunctionDef) and not ast.get_docstring(node):
            out.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}() has no docstring")
    return out


def test_every_statement_says_what_it_does() -> None:
    out = []
    for path in sorted((ROOT / "app" / "statements").glob("*.py")):
        out += _undocumented_statements(path)
    assert out == []


def test_the_allow_list_names_only_modules_with_sql_in_place() -> None:
    """A module that no longer writes SQL in place leaves SQL_NOT_YET_IN_STATEMENTS."""
    stale = {name for name in SQL_NOT_YET_IN_STATEMENTS if not _literal_text_calls(ROOT / name)}
    assert stale == set()


def test_job_rows_do_not_load_the_extractors() -> None:
    """Workers' bookkeeping, the reconciler and the read views import app.jobs; sniffing a
    document (app/staging.py) needs the routing table and every engine behind it, the rows do
    not: app.jobs imports only the extractors' MIME names."""
    modules = [m for _, m in _imports(ROOT / "app" / "jobs.py") if m.split(".")[0] == "extractors"]
    assert modules == ["extractors.mime"]
    mime = [m for _, m in _imports(ROOT / "extractors" / "mime.py") if m.split(".")[0] == "extractors"]
    assert mime == []
