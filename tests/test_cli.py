"""The command line's shape: every command is listed, and listing them imports none of the
heavy machinery (torch, Celery, docling, PDFium, SQLAlchemy, ...), so ``pagemill --help`` stays
fast (0.1 s here; it was 0.65 s when every command module imported its dependencies).  What each
command does is tested where its area is (ingest/search in test_pipeline, parse in
test_isolation, doctor in test_extraction, dead-letters in test_broker, migrate in
test_config)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT

_PROBE = """
import json, sys
from click.testing import CliRunner
from app.cli import COMMANDS, main
result = CliRunner().invoke(main, ["--help"])
heavy = sorted(m for m in ("torch", "celery", "docling", "sentence_transformers", "unstructured",
                           "pypdfium2", "sqlalchemy", "numpy", "flask", "jinja2") if m in sys.modules)
print(json.dumps({"code": result.exit_code, "output": result.output, "commands": sorted(COMMANDS),
                  "heavy": heavy}))
"""


@pytest.mark.system
def test_help_lists_every_command_without_importing_the_heavy_machinery() -> None:
    out = subprocess.run([sys.executable, "-c", _PROBE], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, check=True)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["code"] == 0
    for command in report["commands"]:
        assert f"  {command} " in report["output"], command
    assert report["heavy"] == []


@pytest.mark.system
def test_an_unknown_command_is_a_usage_error() -> None:
    out = subprocess.run([sys.executable, "-m", "app.cli", "frobnicate"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 2 and "No such command 'frobnicate'" in out.stderr
