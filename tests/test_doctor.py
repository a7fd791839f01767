"""``pagemill doctor`` keeps passwords out of what it prints (URLs quoted by its own checks and
by drivers' error messages alike), and says when a broker's client library is missing rather
than calling the server unreachable.  The full command, database and all, is run in
tests/test_cli_jobs.py; here the checks concerned run alone, without a database."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from app.cli import doctor as doctor_module
from app.cli.context import CliContext
from app.cli.doctor import Check, doctor, redact_urls
from app.config import Config

S3_SECRET = "s3cretKey"
BROKER_SECRET = "hunter22"
DATABASE_SECRET = "db-pass"


@pytest.mark.parametrize("text, shown", [
    ('Could not connect to the endpoint URL: "http://AKIA:s3cretKey@127.0.0.1:1/bucket/k"',
     'Could not connect to the endpoint URL: "http://AKIA:***@127.0.0.1:1/bucket/k"'),
    ("redis://:hunter22@cache:6379/0", "redis://:***@cache:6379/0"),
    ("postgresql+psycopg://app:p@ss@db:5432/x?sslmode=require",  # a raw "@" in the password
     "postgresql+psycopg://app:***@db:5432/x?sslmode=require"),
    ("amqp://guest:guest@rabbit// and sqs://key:secret@", "amqp://guest:***@rabbit// and sqs://key:***@"),
    ("amqp://guest:**@rabbit//", "amqp://guest:***@rabbit//"),  # kombu's own redaction
    ("https://user@host/x", "https://user@host/x"),  # no password: nothing to hide
    ("s3://bucket/prefix and file:///tmp/x", "s3://bucket/prefix and file:///tmp/x"),
])
def test_every_url_s_password_is_redacted(text: str, shown: str) -> None:
    assert redact_urls(text) == shown


def test_a_configured_password_is_redacted_wherever_it_appears() -> None:
    # A message quoting the password alone (or decoded from %-escapes) has no URL to match.
    assert redact_urls("auth failed for p@ss/word and p%40ss", ["p@ss/word"]) == \
        "auth failed for *** and p%40ss"


def _run(config: Config, *args: str) -> str:
    cli = CliContext()
    cli.__dict__["config"] = config  # what the cached property would read from the environment
    result = CliRunner().invoke(doctor, list(args), obj=cli)
    assert result.exit_code == 1, result.output  # the broker and storage checks fail
    return result.output


@pytest.fixture
def leaky_config(tmp_path, monkeypatch) -> Config:
    # S3 at an endpoint that refuses connections, with credentials in its URL; boto3 gets
    # keys of its own so that it gets as far as connecting (and quoting the endpoint).
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIATEST")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "not-the-secret-tested-here")
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")
    monkeypatch.setenv("AWS_RETRY_MODE", "standard")
    env = {"PAGEMILL_HOME": str(tmp_path), "STORAGE_URL": "s3://bucket/prefix",
           "S3_ENDPOINT_URL": f"http://minio:{S3_SECRET}@127.0.0.1:1",
           "S3_REGION": "us-east-1",
           "DATABASE_URL": f"postgresql://app:{DATABASE_SECRET}@127.0.0.1:1/pagemill",
           "BROKER_URL": f"redis://:{BROKER_SECRET}@127.0.0.1:1/0"}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    config = Config.from_env(env)

    def checks(config: Config, deep: bool):
        yield doctor_module._broker_check(config, None)
        yield doctor_module._storage_check(config)
        # What a check quoting DATABASE_URL whole would print.
        yield Check("database", False, True, f"{config.database.url} is unreachable")

    monkeypatch.setattr(doctor_module, "_checks", checks)
    return config


@pytest.mark.parametrize("as_json", [False, True])
def test_doctor_prints_no_password_of_any_url(leaky_config: Config, as_json: bool) -> None:
    output = _run(leaky_config, *(["--json"] if as_json else []))
    for secret in (S3_SECRET, BROKER_SECRET, DATABASE_SECRET):
        assert secret not in output
    if as_json:
        found = {c["check"]: c for c in json.loads(output)}
        assert "minio:***@127.0.0.1:1" in found["storage"]["detail"]  # boto3 quoted the endpoint
        assert "app:***@127.0.0.1:1" in found["database"]["detail"]
    else:
        assert "minio:***@127.0.0.1:1" in output


def test_a_missing_redis_client_is_not_an_unreachable_server(leaky_config: Config, config: Config,
                                                               monkeypatch) -> None:
    import app.services.readiness as readiness

    real = readiness.find_spec
    monkeypatch.setattr(readiness, "find_spec", lambda name: None if name == "redis" else real(name))
    check = doctor_module._broker_check(leaky_config, None)
    assert not check.ok and check.required
    assert "the redis Python package is not installed: pip install redis" in check.detail
    assert "unreachable" not in check.detail and BROKER_SECRET not in check.detail
    # /readyz says the same, not that the broker is down (on a database that answers).

    from app.api import create_app

    api = create_app(config.with_overrides(broker={"url": leaky_config.broker.url}))
    answer = api.test_client().get("/readyz")
    assert answer.status_code == 503
    broker = answer.get_json()["error"]["details"]["broker"]
    assert "pip install redis" in broker and "unreachable" not in broker and BROKER_SECRET not in broker


def test_a_library_a_transport_fails_to_import_is_named(leaky_config: Config, monkeypatch) -> None:
    import app.services.readiness

    def connect(url: str, timeout: float) -> None:
        raise ModuleNotFoundError("No module named 'librabbitmq'", name="librabbitmq")

    monkeypatch.setattr(app.services.readiness, "connect_broker", connect)
    config = leaky_config.with_overrides(broker={"url": "librabbitmq://guest:guest@127.0.0.1:1//"})
    check = doctor_module._broker_check(config, None)
    assert "the librabbitmq Python package is not installed: pip install librabbitmq" in check.detail
    assert "unreachable" not in check.detail


def test_doctor_reports_the_mcp_endpoint_and_whether_stdio_has_its_key_not_the_key(tmp_path) -> None:
    without = doctor_module._mcp_check(Config.from_env({"PAGEMILL_HOME": str(tmp_path)}))
    assert without.ok and not without.required
    assert "/mcp" in without.detail and "needs PAGEMILL_API_KEY" in without.detail
    with_key = doctor_module._mcp_check(Config.from_env({"PAGEMILL_HOME": str(tmp_path),
                                                         "PAGEMILL_API_KEY": "pm_abc_secretvalue"}))
    assert "has PAGEMILL_API_KEY" in with_key.detail and "secretvalue" not in with_key.detail
