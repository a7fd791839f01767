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
    # The Python client is installed without pagemill (pip install ./clients/python): it
    # speaks to the API over HTTP only.
    "clients/python/pagemill_client": ("app", "tasks", "extractors", "indexing", "celeryconfig"),
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
# runtime's publisher (app/domain/publisher.py), which tasks/ implements.
APP_MODULES_THAT_MANAGE_WORKERS = {"app/cli/worker.py", "app/cli/ingest.py", "app/cli/broker.py",
                                   "app/cli/doctor.py", "app/api/metrics.py"}


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


# -- SQL is kept one way: named statements in app/domain/statements/<area>.py -------------
# Modules of app/ whose SQL has not moved to app/domain/statements/ yet (issue 36): shrink,
# never grow.
SQL_NOT_YET_IN_STATEMENTS: set[str] = set()


def _is_literal_text_call(node: ast.AST) -> bool:
    """``text(...)`` (or ``sa.text(...)``) on a literal or f-string: SQL written in place."""
    return (isinstance(node, ast.Call) and bool(node.args)
            and isinstance(node.func, ast.Name | ast.Attribute)
            and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr) == "text"
            and isinstance(node.args[0], ast.Constant | ast.JoinedStr))


def _literal_text_calls(path: Path) -> list[int]:
    """Lines of ``text(...)`` calls on a literal or f-string: SQL written in place."""
    return [node.lineno for node in ast.walk(ast.parse(path.read_text(), filename=str(path)))
            if _is_literal_text_call(node)]


def _sql_in_place() -> list[str]:
    out = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        name = str(path.relative_to(ROOT))
        if name.startswith("app/domain/statements/") or name in SQL_NOT_YET_IN_STATEMENTS:
            continue
        out += [f"{name}:{line} writes SQL in place" for line in _literal_text_calls(path)]
    return out


def test_app_keeps_sql_only_in_statement_modules() -> None:
    """Outside app/domain/statements/, app/ executes statements by name (``sql.NAME``), never
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
    for path in sorted((ROOT / "app" / "domain" / "statements").glob("*.py")):
        out += _undocumented_statements(path)
    assert out == []


def _sql_in_function_bodies(path: Path) -> list[str]:
    """``text(...)`` on a literal or f-string inside a function: SQL that has no name."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inner = ast.Module(body=node.body, type_ignores=[])
            out += [f"{path.relative_to(ROOT)}:{n.lineno} writes SQL in {node.name}()"
                    for n in ast.walk(inner) if _is_literal_text_call(n)]
    return out


def _unexplained_statements(path: Path) -> list[str]:
    """Module-level ``NAME = text("...")`` without a ``#:`` comment on the line above."""
    lines = path.read_text().splitlines()
    written_in_place = set(_literal_text_calls(path))
    return [f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node.targets[0])} has no #: comment"
            for node in ast.parse("\n".join(lines), filename=str(path)).body
            if isinstance(node, ast.Assign) and node.lineno in written_in_place
            and not lines[node.lineno - 2].lstrip().startswith("#:")]


def test_tasks_and_indexing_run_named_statements_only() -> None:
    """tasks/ and indexing/ keep their SQL as named module-level statements, each saying what
    it does (indexing's search statement is rendered from indexing/sql/); none in a function."""
    out = []
    for folder in ("tasks", "indexing"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            out += _sql_in_function_bodies(path) + _unexplained_statements(path)
    assert out == []


def test_the_allow_list_names_only_modules_with_sql_in_place() -> None:
    """A module that no longer writes SQL in place leaves SQL_NOT_YET_IN_STATEMENTS."""
    stale = {name for name in SQL_NOT_YET_IN_STATEMENTS if not _literal_text_calls(ROOT / name)}
    assert stale == set()


def test_job_rows_do_not_load_the_extractors() -> None:
    """Workers' bookkeeping, the reconciler and the read views import app.domain.jobs; sniffing
    a document (app/services/staging.py) needs the routing table and every engine behind it, the
    rows do not: app.domain.jobs imports only the extractors' MIME names."""
    modules = [m for _, m in _imports(ROOT / "app" / "domain" / "jobs.py") if m.split(".")[0] == "extractors"]
    assert modules == ["extractors.mime"]
    mime = [m for _, m in _imports(ROOT / "extractors" / "mime.py") if m.split(".")[0] == "extractors"]
    assert mime == []


# -- app/ in layers: config <- infra <- domain <- runtime <- services <- api, cli, mcp --------
# A layer imports only the layers before it (config imports none): infrastructure knows nothing
# of jobs, the rows and their SQL know no workflow, the workflow steps no request or command.
# The runtime (app/runtime.py, what a process works with: engine, storage, publisher) is built
# by the entry points and handed to the steps, so it sits between the domain and the services.
LAYER_OF_PREFIX = {"app.config": "config", "app.infra": "infra", "app.domain": "domain",
                   "app.services": "services", "app.runtime": "runtime", "app.api": "entry",
                   "app.cli": "entry", "app.mcp": "entry", "app.web_server": "entry",
                   "app.gunicorn_conf": "entry"}
LAYERS = ("config", "infra", "domain", "runtime", "services", "entry")
APP_TOP_LEVEL = {"__init__.py", "config.py", "runtime.py", "web_server.py", "gunicorn_conf.py"}


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _app_imports(path: Path, root: Path, modules: set[str]) -> list[tuple[int, str]]:
    """The app modules ``path`` imports, anywhere in it (functions, ``if TYPE_CHECKING:``),
    relative imports resolved, ``from package import module`` naming the module."""
    name = _module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            for alias in node.names:
                found.append((node.lineno, f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules
                              else base))
    return [(line, module) for line, module in found if module in modules]


def _app_graph(root: Path) -> dict[str, list[tuple[int, str]]]:
    paths = {_module_name(path, root): path for path in sorted((root / "app").rglob("*.py"))}
    return {name: _app_imports(path, root, set(paths)) for name, path in paths.items()}


def _layer(module: str) -> str | None:
    return next((layer for prefix, layer in LAYER_OF_PREFIX.items()
                 if module == prefix or module.startswith(prefix + ".")), None)


def _layer_violations(root: Path) -> list[str]:
    out = []
    for module, imported in _app_graph(root).items():
        layer = _layer(module)
        if layer is None:
            continue
        for line, target in imported:
            wanted = _layer(target)
            below = wanted is not None and LAYERS.index(wanted) < LAYERS.index(layer)
            if wanted is not None and wanted != layer and not below or layer == "config" and wanted:
                out.append(f"{module}:{line} ({layer}) imports {target} ({wanted})")
    return out


def _cycles(root: Path) -> list[list[str]]:
    """Every import cycle among app modules, each once (Tarjan's strongly connected components
    of more than one module, or a module importing itself)."""
    graph = {module: sorted({target for _, target in imported})
             for module, imported in _app_graph(root).items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in graph[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while not component or component[-1] != module:
                component.append(stack.pop())
            if len(component) > 1 or module in graph[module]:
                out.append(sorted(component))

    for module in graph:
        if module not in index:
            visit(module)
    return out


def test_app_layers_import_only_the_layers_below() -> None:
    assert _layer_violations(ROOT) == []


def test_every_app_module_is_in_a_layer() -> None:
    """A new module goes into infra/, domain/, services/ (or api/, cli/), not loose in app/."""
    loose = {path.name for path in (ROOT / "app").glob("*.py")} - APP_TOP_LEVEL
    packages = {path.name for path in (ROOT / "app").iterdir() if (path / "__init__.py").exists()}
    assert (loose, packages) == (set(), {"api", "cli", "domain", "infra", "mcp", "services"})


def test_app_has_no_import_cycles() -> None:
    assert _cycles(ROOT) == []


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, source in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(source)
    return tmp_path


def test_the_layer_check_sees_an_upward_import_in_a_function_or_type_checking(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "app/__init__.py": "", "app/config.py": "", "app/runtime.py": "",
        "app/infra/__init__.py": "", "app/domain/__init__.py": "", "app/services/__init__.py": "",
        "app/infra/db.py": "from typing import TYPE_CHECKING\n"
                           "if TYPE_CHECKING:\n    from app.domain import jobs\n",
        "app/domain/jobs.py": "from app.infra import db\nfrom app.config import X\n"
                              "def f():\n    from ..services.submit import g\n",
        "app/services/submit.py": "from app.domain.jobs import f\nfrom app import runtime\n",
    })
    assert _layer_violations(root) == [
        "app.domain.jobs:4 (domain) imports app.services.submit (services)",
        "app.infra.db:3 (infra) imports app.domain.jobs (domain)",
    ]


def test_the_cycle_check_sees_cycles_through_functions_and_type_checking(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "app/__init__.py": "", "app/a.py": "from app import b\n",
        "app/b.py": "def f():\n    from app.c import x\n",
        "app/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import app.a\n",
        "app/d.py": "import app.a\n",
    })
    assert _cycles(root) == [["app.a", "app.b", "app.c"]]
