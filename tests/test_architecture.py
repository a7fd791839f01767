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
