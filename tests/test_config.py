"""Configuration and the database requirement (pgvector)."""

from __future__ import annotations

import itertools
import re
import socket
import subprocess
import sys
from dataclasses import fields, replace

import pytest

from app.config import Config, ExtractionConfig, LoggingConfig
from extractors.base import ExtractOptions
from extractors.media import MediaSettings
from extractors.mistral import MistralSettings
from extractors.transcribers import TranscriberSettings, TranscriptionSettings
from extractors.zip_limits import ZipLimits
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
    assert config == Config(home=config.home)


def test_flags_are_on_unless_said_off():
    assert Config.from_env({"PAGEMILL_EXTRACT_ISOLATION": "off"}).extraction.isolation is False
    assert Config.from_env({"PAGEMILL_EXTRACT_ISOLATION": ""}).extraction.isolation is True
    assert Config.from_env({"PAGEMILL_URL_ALLOW_HTTP": "1"}).urls.allow_http is True
    assert Config.from_env({}).urls.allow_http is False


def test_database_url_is_normalised_to_psycopg3():
    config = Config.from_env({"DATABASE_URL": "postgres://u:p@db:5432/x"})
    assert config.database.url == "postgresql+psycopg://u:p@db:5432/x"


def test_search_replica_urls_are_split_between_urls_and_normalised():
    """A comma also separates the hosts of one libpq URL: a list is cut only before a scheme."""
    config = Config.from_env({"PAGEMILL_SEARCH_DATABASE_URLS":
                              "postgres://u@r1:5432/x, postgresql://u@r2:5432,r3:5432/x?target_session_attrs=any"})
    assert config.database.search_urls == (
        "postgresql+psycopg://u@r1:5432/x",
        "postgresql+psycopg://u@r2:5432,r3:5432/x?target_session_attrs=any")
    assert Config.from_env({"PAGEMILL_SEARCH_DATABASE_URLS": " "}).database.search_urls == ()
    assert Config.from_env({}).database.search_urls == ()


def test_search_runs_with_the_configured_ranking_and_the_request_overrides_it():
    config = Config.from_env({"PAGEMILL_BM25_DEPTH": "40", "PAGEMILL_BM25_ROUNDS": "4",
                              "PAGEMILL_BM25_EXACT": "0", "PAGEMILL_ALPHA": "0.3"})
    params = config.search_params()
    assert (params.bm25_depth, params.bm25_rounds, params.bm25_exact, params.alpha) == (40, 4, False, 0.3)
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


def _readme_settings_table() -> list[str]:
    lines = (ROOT / "README.md").read_text().splitlines()
    start = lines.index("| variable | default | meaning |")
    return list(itertools.takewhile(lambda line: line.startswith("|"), lines[start + 2:]))


def test_the_readme_table_names_every_variable_from_env_reads_and_no_other():
    rows = _readme_settings_table()
    mentioned = set(re.findall(r"PAGEMILL_[A-Z0-9_]+", "\n".join(rows)))
    first_column = {name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", row.split("|")[1])}
    read = set(Config.variables())
    assert mentioned - read == set(), "named in the README's table, read by no setting"
    assert {name for name in read if name.startswith("PAGEMILL_")} - mentioned == set(), \
        "read by from_env, missing from the README's table"
    assert first_column == read


def test_every_variable_is_read_by_one_setting_only():
    names = Config.variables()
    assert len(names) == len(set(names))


def test_the_extractors_option_types_and_the_configuration_share_their_defaults():
    """The option types of extractors/ and indexing/ state their defaults; the configuration's
    groups take theirs from them (extractors cannot import app), so an empty environment
    extracts, splits media and ranks exactly as those types do by default."""
    config = Config.from_env({})
    options = ExtractOptions()
    shared = {f.name for f in fields(ExtractionConfig)} & {f.name for f in fields(ExtractOptions)}
    assert shared >= {"max_pages", "max_image_pixels", "quality_threshold", "ocr_engines", "ocr_dpi",
                      "ocr_languages", "easyocr_model_dir", "docling_artifacts_path"}
    assert {name: getattr(config.extraction, name) for name in shared} == {
        name: getattr(options, name) for name in shared}
    media = MediaSettings()
    assert {name: getattr(config.media, name) for name in (
        "max_seconds", "piece_seconds", "piece_bytes", "overlap_seconds", "min_bytes_per_second")} == {
        name: getattr(media, name) for name in (
            "max_seconds", "piece_seconds", "piece_bytes", "overlap_seconds", "min_bytes_per_second")}
    assert (config.extraction.zip_max_bytes, config.extraction.zip_max_ratio) == (
        ZipLimits().max_total_bytes, ZipLimits().max_ratio)
    built = config.extract_options()
    assert built.zip_limits == ZipLimits()
    assert built.mistral is not None and built.mistral.model == MistralSettings(api_key=None).model
    assert built.media is not None and replace(built.media, transcription=media.transcription) == media
    assert built.media.transcription.retry_after_cap == TranscriptionSettings().retry_after_cap
    assert {p.timeout for p in built.media.transcription.providers} == {TranscriberSettings("x").timeout}


def test_overrides_change_the_named_settings_only():
    config = Config.from_env({"PAGEMILL_BATCH_SIZE": "7"})
    changed = config.with_overrides(webhooks={"timeout": 5.0}, urls={"allow_loopback": True})
    assert (changed.webhooks.timeout, changed.urls.allow_loopback) == (5.0, True)
    assert changed.jobs.batch_size == 7 and changed.webhooks.concurrency == config.webhooks.concurrency
    assert config.webhooks.timeout == 15.0  # the original is left as it was
    with pytest.raises(TypeError):
        config.with_overrides(webhook={"timeout": 5.0})
    with pytest.raises(TypeError):
        config.with_overrides(webhooks={"time_out": 5.0})


def test_a_group_reads_alone_what_the_whole_configuration_reads():
    env = {"PAGEMILL_LOG_LEVEL": "debug", "PAGEMILL_LOG_FORMAT": "json"}
    assert LoggingConfig.from_env(env) == Config.from_env(env).logging == LoggingConfig("debug", "json")
    assert LoggingConfig.from_env({}).level == "WARNING"


def test_secrets_stay_out_of_the_configurations_repr():
    config = Config.from_env({"PAGEMILL_SECRET_KEY": "k-1", "MISTRAL_API_KEY": "k-2", "GROQ_API_KEY": "k-3",
                              "OPENAI_API_KEY": "k-4", "PAGEMILL_METRICS_TOKEN": "k-5"})
    assert (config.secrets.key, config.ocr_provider.api_key) == ("k-1", "k-2")
    assert not re.search(r"k-\d", repr(config))


def test_bad_numbers_are_reported_by_name():
    with pytest.raises(ValueError, match="PAGEMILL_BATCH_SIZE"):
        Config.from_env({"PAGEMILL_BATCH_SIZE": "many"})
    # pgvector's own bound: above it every dense search would fail, so the process refuses
    # to start instead.
    with pytest.raises(ValueError, match="PAGEMILL_HNSW_EF_SEARCH must be from 1 to 1000, got 1200"):
        Config.from_env({"PAGEMILL_HNSW_EF_SEARCH": "1200"})
    assert Config.from_env({"PAGEMILL_HNSW_EF_SEARCH": "1000"}).search.ef_search == 1000
    # The graph's build options: pgvector's bounds, and ef_construction at least twice m.
    with pytest.raises(ValueError, match="PAGEMILL_HNSW_EF_CONSTRUCTION must be from 4 to 1000"):
        Config.from_env({"PAGEMILL_HNSW_EF_CONSTRUCTION": "2000"})
    config = Config.from_env({"PAGEMILL_HNSW_EF_CONSTRUCTION": "128"})
    assert (config.graph_options().m, config.graph_options().ef_construction) == (16, 128)
    with pytest.raises(ValueError, match="at least twice m"):
        Config.from_env({"PAGEMILL_HNSW_M": "48"}).graph_options()


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
