"""Configuration and the database requirement (pgvector)."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from app.config import Config
from tests.conftest import ROOT


def test_defaults_use_the_embedded_server_and_local_storage(tmp_path):
    config = Config.from_env({"PAGEMILL_HOME": str(tmp_path)})
    assert config.uses_embedded_database
    assert config.storage_url == f"file://{tmp_path / 'objects'}"
    assert config.broker_url_for("postgresql://u@h/db") == "pagemill+postgresql+psycopg://u@h/db"


def test_an_empty_environment_gives_every_field_its_own_default(tmp_path):
    """Each default is stated once, on the field: from_env reads the field's default when a
    variable is unset, so the two cannot drift apart."""
    config = Config.from_env({"PAGEMILL_HOME": str(tmp_path)})
    assert config == Config(home=config.home, database_url=None, broker_url=None,
                            storage_url=config.storage_url)


def test_flags_are_on_unless_said_off():
    assert Config.from_env({"PAGEMILL_EXTRACT_ISOLATION": "off"}).extract_isolation is False
    assert Config.from_env({"PAGEMILL_EXTRACT_ISOLATION": ""}).extract_isolation is True
    assert Config.from_env({"PAGEMILL_URL_ALLOW_HTTP": "1"}).url_allow_http is True
    assert Config.from_env({}).url_allow_http is False


def test_database_url_is_normalised_to_psycopg3():
    config = Config.from_env({"DATABASE_URL": "postgres://u:p@db:5432/x"})
    assert config.database_url == "postgresql+psycopg://u:p@db:5432/x"


def test_search_runs_with_the_configured_ranking_and_the_request_overrides_it():
    config = Config.from_env({"PAGEMILL_BM25_DEPTH": "40", "PAGEMILL_BM25_ROUNDS": "4",
                              "PAGEMILL_BM25_GROWTH": "4", "PAGEMILL_BM25_EXACT": "0",
                              "PAGEMILL_ALPHA": "0.3"})
    params = config.search_params()
    assert (params.bm25_depth, params.bm25_rounds, params.bm25_growth, params.bm25_exact,
            params.alpha) == (40, 4, 4, False, 0.3)
    assert config.search_params(bm25_exact=True, alpha=0.9).bm25_exact is True
    assert config.search_params(alpha=0.9).alpha == 0.9


def test_ranking_defaults_are_stated_once_in_indexing_ranking():
    from indexing.ranking import DEFAULTS, SearchParams

    # Config's ranking fields default to SearchParams' own, so a search built from an empty
    # environment runs with exactly the defaults search itself would take.
    assert Config.from_env({}).search_params() == SearchParams() == DEFAULTS
    assert (DEFAULTS.fusion, DEFAULTS.k1, DEFAULTS.b) == ("weighted", 0.9, 0.4)
    config = Config.from_env({"PAGEMILL_BM25_K1": "1.2", "PAGEMILL_BM25_B": "0.75",
                              "PAGEMILL_FUSION": "rrf"})
    assert (config.search_params().k1, config.search_params().b, config.search_params().fusion) == (
        1.2, 0.75, "rrf")


@pytest.mark.system
def test_configuration_imports_no_search_machinery():
    """Config is read by every process, the CLI's --help included: it must not pull in numpy,
    SQLAlchemy, torch or the search statement's renderer."""
    probe = ("import sys, app.config; print(sorted(m for m in ('numpy', 'sqlalchemy', 'torch', "
             "'jinja2', 'indexing.search', 'indexing.embedding') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_bad_numbers_are_reported_by_name():
    with pytest.raises(ValueError, match="PAGEMILL_BATCH_SIZE"):
        Config.from_env({"PAGEMILL_BATCH_SIZE": "many"})


def _port_open(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


@pytest.mark.system
@pytest.mark.skipif(not _port_open(5432), reason="no PostgreSQL on 127.0.0.1:5432")
def test_a_server_without_pgvector_is_refused_with_a_fix(tmp_path):
    import psycopg

    url = "postgresql://postgres@127.0.0.1:5432/postgres"
    with psycopg.connect(url) as conn:
        has_vector = conn.execute(
            "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone()
    if has_vector:
        pytest.skip("this server has pgvector")
    env = {"PATH": "/usr/bin:/bin", "DATABASE_URL": url, "PAGEMILL_HOME": str(tmp_path)}
    result = subprocess.run([sys.executable, "-m", "app.cli", "migrate"], env=env, cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert "pgvector" in result.stderr and "unset DATABASE_URL" in result.stderr


def test_embedded_server_is_tuned_for_its_machine(database_url):
    import os

    import psycopg

    from app.config import to_libpq_url
    from app.infra.embedded import server_settings

    wanted = server_settings(24 * 2**30)
    assert wanted["shared_buffers"] == "4096MB" and wanted["effective_cache_size"] == "12288MB"
    assert server_settings(2 * 2**30)["shared_buffers"] == "512MB"
    if os.environ.get("TEST_DATABASE_URL"):
        return  # someone else's server: pagemill leaves its settings alone
    with psycopg.connect(to_libpq_url(database_url)) as conn:
        shared = conn.execute("SELECT setting::bigint * 8192 / 1048576 FROM pg_settings "
                              "WHERE name = 'shared_buffers'").fetchone()[0]
    assert f"{shared}MB" == server_settings()["shared_buffers"]
