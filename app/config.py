"""One configuration object, read from the environment, in groups: one per subsystem.

Each group is a frozen dataclass whose fields say, once, their default and the variable they
are read from (``setting(variable, default, reader)``); ``Config.from_env`` reads every group by
that table, and a group alone can be read the same way (``LoggingConfig.from_env()``: what the
entry points do before anything else).  Where an option type of a lower layer (extractors'
``ExtractOptions``, ``MediaSettings``, ``ZipLimits``, ``MistralSettings``, the transcribers',
indexing's ``SearchParams``) already states a default, the field takes that one: those layers
cannot import ``app``, so the default lives with them and is reused here.

Nothing here touches the network or the database: resolving the embedded server's URL is the
job of :mod:`app.infra.embedded`, called explicitly by the processes that need a database.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import Field, asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, ClassVar, Self, TypeVar

import platformdirs

from extractors.base import ExtractOptions
from extractors.media import MediaSettings
from extractors.mistral import MistralSettings
from extractors.transcribers import (
    DEFAULT_BASE_URLS,
    DEFAULT_MODELS,
    TranscriberSettings,
    TranscriptionSettings,
)
from extractors.zip_limits import ZipLimits
from indexing.embedders import DEFAULT_EMBEDDER, EMBEDDERS
from indexing.hnsw_options import EF_CONSTRUCTION_RANGE, M_RANGE, GraphOptions
from indexing.ranking import DEFAULTS as RANKING
from indexing.ranking import FUSIONS, NORMALISATIONS, SearchParams

# The project speaks psycopg 3 everywhere; SQLAlchemy 2.1 maps a bare
# ``postgresql://`` to it too, but saying so in every URL avoids surprises.
SQLALCHEMY_DRIVER = "postgresql+psycopg"

T = TypeVar("T")
# How one variable becomes a value: (environment, variable, the field's default) -> value.
Reader = Callable[[Mapping[str, str], str, T], T]


# -- readers: how a variable's text becomes a value ------------------------------------------

def read_text(env: Mapping[str, str], name: str, default: str) -> str:
    """Unset or empty: the default."""
    return env.get(name) or default


def read_optional(env: Mapping[str, str], name: str, default: str | None) -> str | None:
    """Unset or empty: the default (mostly None: not configured)."""
    return env.get(name) or default


def read_int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ValueError(f"{name} must be an integer, got {raw!r}") from exc


def read_float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return float(raw)
    except ValueError as exc:
        raise ValueError(f"{name} must be a number, got {raw!r}") from exc


def read_int_unless_zero(env: Mapping[str, str], name: str, default: int | None) -> int | None:
    """Unset, empty or 0: the default (a limit whose default is computed elsewhere)."""
    return read_int(env, name, 0) or default


def read_float_unless_zero(env: Mapping[str, str], name: str, default: float | None) -> float | None:
    """Unset, empty or 0: the default."""
    return read_float(env, name, 0.0) or default


def read_flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    """Unset or empty: the default; otherwise on unless 0, false, no or off."""
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    return raw.strip().lower() not in ("0", "false", "no", "off")


def read_names(env: Mapping[str, str], name: str, default: tuple[str, ...]) -> tuple[str, ...]:
    """Comma-separated names; unset: the default, set but empty: none."""
    raw = env.get(name)
    if raw is None:
        return default
    return tuple(part.strip() for part in raw.split(",") if part.strip())


def read_seconds(env: Mapping[str, str], name: str, default: tuple[float, ...]) -> tuple[float, ...]:
    """A comma-separated list of non-negative numbers of seconds, at least one."""
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        values = tuple(float(part) for part in raw.split(","))
    except ValueError as exc:
        raise ValueError(f"{name} must be comma-separated numbers of seconds, got {raw!r}") from exc
    if any(value < 0 for value in values):
        raise ValueError(f"{name} cannot hold negative delays, got {raw!r}")
    return values


def read_path(env: Mapping[str, str], name: str, default: Path | None) -> Path | None:
    raw = env.get(name)
    return Path(raw) if raw else default


def one_of(choices: tuple[str, ...]) -> Reader[str]:
    """A reader of one of ``choices``; unset or empty: the default."""
    def read(env: Mapping[str, str], name: str, default: str) -> str:
        chosen = env.get(name) or default
        if chosen not in choices:
            raise ValueError(f"{name} must be one of {', '.join(choices)}, got {chosen!r}")
        return chosen

    return read


def int_between(low: int, high: int) -> Reader[int]:
    """A reader of an integer from ``low`` to ``high``; unset or empty: the default."""
    def read(env: Mapping[str, str], name: str, default: int) -> int:
        value = read_int(env, name, default)
        if not low <= value <= high:
            raise ValueError(f"{name} must be from {low} to {high}, got {value}")
        return value

    return read


def read_embedder(env: Mapping[str, str], name: str, default: str) -> str:
    chosen = env.get(name) or default
    if chosen not in EMBEDDERS:
        raise ValueError(f"{name} must be one of {', '.join(EMBEDDERS)}, got {chosen!r}")
    return chosen


def read_database_url(env: Mapping[str, str], name: str, default: str | None) -> str | None:
    raw = env.get(name)
    return to_sqlalchemy_url(raw) if raw else default


# Where a URL of a list begins: a comma is also the separator of libpq's multi-host URLs
# (postgresql://h1:5432,h2:5432/db), so a list is split only before a scheme.
_NEXT_URL = re.compile(r",\s*(?=postgres(?:ql)?(?:\+\w+)?://)")


def read_database_urls(env: Mapping[str, str], name: str, default: tuple[str, ...]) -> tuple[str, ...]:
    """Comma-separated database URLs, each normalised to the project's driver; unset or
    empty: the default (none)."""
    raw = (env.get(name) or "").strip()
    if not raw:
        return default
    return tuple(to_sqlalchemy_url(part.strip()) for part in _NEXT_URL.split(raw) if part.strip())


def read_region(env: Mapping[str, str], name: str, default: str | None) -> str | None:
    """``S3_REGION``, else boto3's own ``AWS_DEFAULT_REGION``."""
    return env.get(name) or env.get("AWS_DEFAULT_REGION") or default


def to_sqlalchemy_url(url: str) -> str:
    """Normalise a libpq-style URL to the project's SQLAlchemy driver."""
    for prefix in ("postgresql+psycopg2://", "postgresql+psycopg://", "postgresql://", "postgres://"):
        if url.startswith(prefix):
            return SQLALCHEMY_DRIVER + "://" + url[len(prefix) :]
    return url


def to_libpq_url(url: str) -> str:
    """The plain ``postgresql://`` form that psycopg.connect accepts."""
    scheme, sep, rest = url.partition("://")
    if sep and scheme.startswith("postgresql"):
        return "postgresql://" + rest
    return url


# -- the table's parts -----------------------------------------------------------------------

VARIABLE = "variable"
READER = "reader"


def setting(variable: str, default: T, reader: Reader[T], *, secret: bool = False) -> T:
    """A field of a group: its default, the variable it is read from and how.  ``secret``
    keeps it out of ``repr``, so that a logged configuration never shows it."""
    result: T = field(default=default, repr=not secret, metadata={VARIABLE: variable, READER: reader})
    return result


class Group:
    """A group of settings read from the environment by its fields' table (see ``setting``)."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Self:
        env = os.environ if environ is None else environ
        return replace(cls(), **{f.name: f.metadata[READER](env, f.metadata[VARIABLE], f.default)
                                 for f in fields(cls)})

    @classmethod
    def variables(cls) -> list[str]:
        return [f.metadata[VARIABLE] for f in fields(cls)]


G = TypeVar("G", bound=Group)


# -- the groups, one per subsystem (docs/ARCHITECTURE.md) -------------------------------------

@dataclass(frozen=True)
class DatabaseConfig(Group):
    """The one PostgreSQL (app/infra/db.py) and its search replicas; ``url`` is ``None`` when the
    embedded server is to be used: :func:`app.infra.embedded.resolve_database_url` gives a usable
    URL then."""

    url: str | None = setting("DATABASE_URL", None, read_database_url)
    # PostgreSQL streaming replicas of that database that serve search reads (the search
    # statement only; writes and job state stay on the primary), chosen in turn
    # (app/domain/search_reads.py); none: the primary serves every search.
    search_urls: tuple[str, ...] = setting("PAGEMILL_SEARCH_DATABASE_URLS", (), read_database_urls)
    # A replica that has not yet replayed WAL the primary had written this many seconds ago is
    # left out (the primary's WAL position is sampled against the time, so an idle primary
    # never makes a replica look behind).
    search_replica_max_lag: float = setting("PAGEMILL_SEARCH_REPLICA_MAX_LAG_SECONDS", 5.0, read_float)
    # A search asked to see a finished job (``after_job``) waits at most this long for a
    # replica to replay the job's commit, then the primary serves it.
    search_replica_wait: float = setting("PAGEMILL_SEARCH_REPLICA_WAIT_SECONDS", 1.0, read_float)
    # A replica found down (it refused or dropped the connection) or lagging is left out this
    # long before it is tried again.
    search_replica_retry: float = setting("PAGEMILL_SEARCH_REPLICA_RETRY_SECONDS", 5.0, read_float)


@dataclass(frozen=True)
class BrokerConfig(Group):
    """Celery's broker (tasks/broker/): ``url`` None is pagemill's transport on the database."""

    url: str | None = setting("BROKER_URL", None, read_optional)
    # Seconds a task of the database broker stays leased to a worker that stopped renewing it
    # (it died) before another worker gets it; None (or 0): the transport's own (tasks/broker/, 60).
    visibility_timeout: float | None = setting("PAGEMILL_BROKER_VISIBILITY_TIMEOUT", None,
                                               read_float_unless_zero)


@dataclass(frozen=True)
class StorageConfig(Group):
    """Where documents' bytes are kept (app/infra/storage.py); ``url`` None: the home's
    ``objects`` directory (``Config.storage_url``)."""

    url: str | None = setting("STORAGE_URL", None, read_optional)
    endpoint_url: str | None = setting("S3_ENDPOINT_URL", None, read_optional)
    region: str | None = setting("S3_REGION", None, read_region)


@dataclass(frozen=True)
class ApiConfig(Group):
    """The API processes (app/api/, `pagemill serve`)."""

    # `pagemill serve`: gunicorn worker processes and threads per process.  A thread serves one
    # request at a time, an event stream holds one for as long as its client listens: serve
    # keeps WEB_RESERVED_THREADS of them for other requests (streams are capped below that).
    workers: int = setting("PAGEMILL_WEB_WORKERS", 1, read_int)
    threads: int = setting("PAGEMILL_WEB_THREADS", 64, read_int)
    # Event streams (GET /v1/jobs/<id>/events) open at once in one API process; the next is a
    # 503 with Retry-After.  A stream costs a thread and a socket, no database connection.
    max_event_streams: int = setting("PAGEMILL_MAX_EVENT_STREAMS", 500, read_int)
    # A stream with nothing new sends a keep-alive comment (and re-reads its job) this often:
    # below the idle timeout of every proxy in front of the API, and how soon a stream whose
    # client went away is noticed (at its next write) and gives its slot back.
    event_keepalive_seconds: float = setting("PAGEMILL_EVENT_KEEPALIVE_SECONDS", 15.0, read_float)
    max_request_bytes: int = setting("PAGEMILL_MAX_REQUEST_BYTES", 200 * 1024 * 1024, read_int)
    # JSON request bodies (and multipart ``options``) nested deeper than this are a 400,
    # refused before parsing: Python's parser recurses once per level.
    max_json_depth: int = setting("PAGEMILL_MAX_JSON_DEPTH", 64, read_int)
    # `pagemill mcp` (the MCP server on stdio, app/mcp/): the API key its tools call the API
    # with, as a desktop agent's configuration passes it.  Over HTTP each request's bearer is used.
    mcp_api_key: str | None = setting("PAGEMILL_API_KEY", None, read_optional, secret=True)


@dataclass(frozen=True)
class JobsConfig(Group):
    """Submitting work (app/services/submission.py): a job's documents and batches."""

    batch_size: int = setting("PAGEMILL_BATCH_SIZE", 50, read_int)
    max_documents_per_job: int = setting("PAGEMILL_MAX_DOCUMENTS_PER_JOB", 500, read_int)
    # One document's bytes: an upload, a presigned upload, a fetched URL.
    max_file_bytes: int = setting("PAGEMILL_MAX_FILE_BYTES", 50 * 1024 * 1024, read_int)
    # The tenant of work done without an API key (the CLI's).
    default_tenant: str = setting("PAGEMILL_DEFAULT_TENANT", "default", read_text)


@dataclass(frozen=True)
class LimitsConfig(Group):
    """What one API key may use when it has no limit of its own (`pagemill keys create
    --rate-limit N --concurrency N --transcription-limit N` replace these)."""

    # Requests a minute per API key, across every API process (app/domain/rate_limits.py); 0: no
    # limit.  The burst (requests at once after a quiet minute) is by default (None, or 0 in the
    # environment) a minute's worth: what the RateLimit-Policy field advertises (q=600;w=60) is
    # then what a client can actually spend, and a burst adds at most what a fixed window's
    # boundary already allows (2q - 1 in any window).  A smaller burst smooths load further.
    rate_limit_per_minute: int = setting("PAGEMILL_RATE_LIMIT_PER_MINUTE", 600, read_int)
    rate_limit_burst: int | None = setting("PAGEMILL_RATE_LIMIT_BURST", None, read_int_unless_zero)
    # Batch tasks of one API key (of one tenant, for jobs from the CLI) running at once across
    # every worker (app/domain/admission.py); heavy ones (remote OCR, media) at most
    # concurrency_heavy of them.
    concurrency: int = setting("PAGEMILL_KEY_CONCURRENCY", 4, read_int)
    concurrency_heavy: int = setting("PAGEMILL_KEY_CONCURRENCY_HEAVY", 1, read_int)
    # Seconds of recordings one API key may have transcribed a UTC day
    # (app/domain/transcription_quota.py); 0: no limit, the default, so that upgrading refuses
    # nothing.  Jobs without a key are never limited.
    transcription_seconds_per_day: int = setting("PAGEMILL_TRANSCRIPTION_SECONDS_PER_DAY", 0, read_int)


@dataclass(frozen=True)
class ParseConfig(Group):
    """Sync mode (POST /v1/parse)."""

    max_bytes: int = setting("PAGEMILL_PARSE_MAX_BYTES", 5 * 1024 * 1024, read_int)
    max_pages: int = setting("PAGEMILL_PARSE_MAX_PAGES", 10, read_int)
    deadline_seconds: float = setting("PAGEMILL_PARSE_DEADLINE_SECONDS", 10.0, read_float)


@dataclass(frozen=True)
class ProcessingConfig(Group):
    """The workers (tasks/): how many, and what one document may cost them."""

    concurrency: int = setting("PAGEMILL_WORKER_CONCURRENCY", 1, read_int)
    # Per document, over these it fails as too_large / timeout (docs/SECURITY.md): the
    # Markdown's length, its chunks, and the wall time of extraction + chunking + embedding.
    max_text_chars: int = setting("PAGEMILL_MAX_TEXT_CHARS", 4_000_000, read_int)
    max_chunks: int = setting("PAGEMILL_MAX_CHUNKS", 10_000, read_int)
    document_time_budget: float = setting("PAGEMILL_DOCUMENT_TIME_BUDGET", 900.0, read_float)
    # BM25 postings written since a tenant's last merge (indexing/bm25_merge.py): past this
    # many, the worker that committed them merges them into the blocks, off the request path.
    # A merge costs a few seconds whatever its size (re-cutting the common terms' champions:
    # 3-4 s at 200k chunks), so 20,000 cost 165 ms a document and 100,000 62 ms
    # (bench/bm25_merge.py, 2026-12-05); searches read the unmerged postings of their terms
    # in full, which at 200,000 is ~1 % of a 200k-chunk corpus's.
    bm25_merge_at: int = setting("PAGEMILL_BM25_MERGE_AT", 200_000, read_int)


@dataclass(frozen=True)
class ExtractionConfig(Group):
    """Extraction (extractors/): limits, OCR escalation, optional model directories and the
    parser process.  The defaults of what ``ExtractOptions`` and ``ZipLimits`` also carry are
    theirs."""

    max_pages: int = setting("PAGEMILL_MAX_PAGES", ExtractOptions.max_pages, read_int)
    max_image_pixels: int = setting("PAGEMILL_MAX_IMAGE_PIXELS", ExtractOptions.max_image_pixels, read_int)
    quality_threshold: float = setting("PAGEMILL_QUALITY_THRESHOLD", ExtractOptions.quality_threshold,
                                       read_float)
    ocr_engines: tuple[str, ...] = setting("PAGEMILL_OCR_ENGINES", ExtractOptions.ocr_engines, read_names)
    ocr_dpi: int = setting("PAGEMILL_OCR_DPI", ExtractOptions.ocr_dpi, read_int)
    ocr_languages: str = setting("PAGEMILL_OCR_LANGUAGES", ExtractOptions.ocr_languages, read_text)
    docling_artifacts_path: str | None = setting("DOCLING_ARTIFACTS_PATH",
                                                 ExtractOptions.docling_artifacts_path, read_optional)
    easyocr_model_dir: str | None = setting("EASYOCR_MODEL_DIR", ExtractOptions.easyocr_model_dir,
                                            read_optional)
    zip_max_bytes: int = setting("PAGEMILL_ZIP_MAX_BYTES", ZipLimits.max_total_bytes, read_int)
    zip_max_ratio: float = setting("PAGEMILL_ZIP_MAX_RATIO", ZipLimits.max_ratio, read_float)
    # Soft: OCR escalation stops, what was read is kept; hard: the parser process is killed.
    soft_timeout: float = setting("PAGEMILL_EXTRACT_SOFT_TIMEOUT", 120.0, read_float)
    hard_timeout: float = setting("PAGEMILL_EXTRACT_HARD_TIMEOUT", 600.0, read_float)
    memory_limit: int = setting("PAGEMILL_EXTRACT_MEMORY_LIMIT", 6 * 1024**3, read_int)
    isolation: bool = setting("PAGEMILL_EXTRACT_ISOLATION", True, read_flag)


@dataclass(frozen=True)
class OcrProviderConfig(Group):
    """The remote OCR provider (Mistral): sync OCR joins the escalation when a key is set; jobs
    with options.provider = "mistral-batch" go through its batch API (tasks/provider.py)."""

    api_key: str | None = setting("MISTRAL_API_KEY", None, read_optional, secret=True)
    server_url: str | None = setting("MISTRAL_SERVER_URL", None, read_optional)
    model: str = setting("MISTRAL_OCR_MODEL", MistralSettings.model, read_text)
    poll_seconds: float = setting("PAGEMILL_PROVIDER_POLL_SECONDS", 30.0, read_float)
    window_seconds: float = setting("PAGEMILL_PROVIDER_WINDOW_SECONDS", 24 * 3600.0, read_float)
    submit_attempts: int = setting("PAGEMILL_PROVIDER_SUBMIT_ATTEMPTS", 5, read_int)


@dataclass(frozen=True)
class MediaConfig(Group):
    """Audio and video (extractors/media.py): the longest media accepted, the pieces sent to a
    provider (seconds, bytes, overlap), the time windows transcript chunks cover, and the wall
    time a recording may take.  The defaults ``MediaSettings`` also carries are its own."""

    max_seconds: float = setting("PAGEMILL_MEDIA_MAX_SECONDS", MediaSettings.max_seconds, read_float)
    piece_seconds: float = setting("PAGEMILL_MEDIA_PIECE_SECONDS", MediaSettings.piece_seconds, read_float)
    piece_bytes: int = setting("PAGEMILL_MEDIA_PIECE_BYTES", MediaSettings.piece_bytes, read_int)
    overlap_seconds: float = setting("PAGEMILL_MEDIA_OVERLAP_SECONDS", MediaSettings.overlap_seconds,
                                     read_float)
    # The fewest bytes a second of media may take (a header claiming longer is refused; 0: off).
    min_bytes_per_second: float = setting("PAGEMILL_MEDIA_MIN_BYTES_PER_SECOND",
                                          MediaSettings.min_bytes_per_second, read_float)
    window_seconds: float = setting("PAGEMILL_MEDIA_WINDOW_SECONDS", 60.0, read_float)
    window_overlap_seconds: float = setting("PAGEMILL_MEDIA_WINDOW_OVERLAP_SECONDS", 10.0, read_float)
    # Wall time a recording may take, in place of the extraction timeout and the document
    # time budget (a 4-hour recording is minutes of provider time per piece, far past what a
    # PDF may take); a batch holding recordings runs on the pagemill.media queue, its task's
    # time limit raised by this much per recording (tasks/publisher.py).
    time_limit: float = setting("PAGEMILL_MEDIA_TIME_LIMIT", 3 * 3600.0, read_float)


@dataclass(frozen=True)
class TranscriptionConfig(Group):
    """The transcription providers (extractors/transcribers.py) in the order they are tried
    (only those with a key take part), how long a 429's Retry-After is waited out before the
    next provider, each call's time limit, and each provider's key, URL and model."""

    transcribers: tuple[str, ...] = setting("PAGEMILL_TRANSCRIBERS", ("groq", "openai"), read_names)
    retry_after_cap: float = setting("PAGEMILL_TRANSCRIBE_RETRY_AFTER_CAP",
                                     TranscriptionSettings.retry_after_cap, read_float)
    timeout: float = setting("PAGEMILL_TRANSCRIBE_TIMEOUT", TranscriberSettings.timeout, read_float)
    groq_api_key: str | None = setting("GROQ_API_KEY", None, read_optional, secret=True)
    groq_base_url: str = setting("GROQ_BASE_URL", DEFAULT_BASE_URLS["groq"], read_text)
    groq_model: str = setting("GROQ_TRANSCRIBE_MODEL", DEFAULT_MODELS["groq"], read_text)
    openai_api_key: str | None = setting("OPENAI_API_KEY", None, read_optional, secret=True)
    openai_base_url: str = setting("OPENAI_BASE_URL", DEFAULT_BASE_URLS["openai"], read_text)
    openai_model: str = setting("OPENAI_TRANSCRIBE_MODEL", DEFAULT_MODELS["openai"], read_text)


@dataclass(frozen=True)
class ChunkingConfig(Group):
    """Chunking (indexing/chunking.py)."""

    max_tokens: int = setting("PAGEMILL_CHUNK_MAX_TOKENS", 256, read_int)
    overlap_tokens: int = setting("PAGEMILL_CHUNK_OVERLAP_TOKENS", 32, read_int)
    # "markdown": heading-aware, budget-bounded; "semantic": also splits where adjacent
    # sentences' embeddings stop being similar (costs one embedding per sentence).
    chunker: str = setting("PAGEMILL_CHUNKER", "markdown", read_text)


@dataclass(frozen=True)
class EmbeddingConfig(Group):
    """Embedding (indexing/embedding.py)."""

    # Which implementation embeds: "torch" (sentence-transformers, the reference), "onnx" or
    # "onnx-int8" (the same weights on ONNX Runtime).
    embedder: str = setting("PAGEMILL_EMBEDDER", DEFAULT_EMBEDDER, read_embedder)
    # Texts per model call.  The pipeline's texts come sorted longest first, so small batches
    # pad little: 8 embedded 1.19-1.26x the texts/s of 32 here (docs/BENCHMARKS.md, issue 23).
    batch_size: int = setting("PAGEMILL_EMBEDDING_BATCH_SIZE", 8, read_int)
    # Load embedders as processes start (app/services/embedder_warm_up.py, tasks/celery.py), not
    # at the first search or batch.
    preload: bool = setting("PAGEMILL_PRELOAD_EMBEDDERS", True, read_flag)
    # Threads of one process's model calls; 0: the library's own choice (every core).  Processes
    # on one machine do not know of each other: `pagemill worker` gives each pool process
    # cores / processes when this is 0 (tasks/worker.py), an API process 1 (app/web_server.py).
    torch_threads: int = setting("PAGEMILL_TORCH_THREADS", 0, read_int)


@dataclass(frozen=True)
class SearchConfig(Group):
    """Ranking: the fields are ``SearchParams``' own, with its defaults (indexing/ranking.py
    states them once, with their reasons)."""

    k1: float = setting("PAGEMILL_BM25_K1", RANKING.k1, read_float)
    b: float = setting("PAGEMILL_BM25_B", RANKING.b, read_float)
    rrf_k: int = setting("PAGEMILL_RRF_K", RANKING.rrf_k, read_int)
    # pgvector refuses hnsw.ef_search above 1,000: set higher, every dense search would fail.
    ef_search: int = setting("PAGEMILL_HNSW_EF_SEARCH", RANKING.ef_search, int_between(1, 1000))
    candidates: int = setting("PAGEMILL_SEARCH_CANDIDATES", RANKING.candidates, read_int)
    bm25_depth: int = setting("PAGEMILL_BM25_DEPTH", RANKING.bm25_depth, read_int)
    bm25_rounds: int = setting("PAGEMILL_BM25_ROUNDS", RANKING.bm25_rounds, read_int)
    bm25_exact: bool = setting("PAGEMILL_BM25_EXACT", RANKING.bm25_exact, read_flag)
    fusion: str = setting("PAGEMILL_FUSION", str(RANKING.fusion), one_of(FUSIONS))
    alpha: float = setting("PAGEMILL_ALPHA", RANKING.alpha, read_float)
    normalisation: str = setting("PAGEMILL_FUSION_NORMALISATION", str(RANKING.normalisation),
                                 one_of(NORMALISATIONS))
    reranker: str | None = setting("PAGEMILL_RERANKER", RANKING.reranker, read_optional)
    rerank_depth: int = setting("PAGEMILL_RERANK_DEPTH", RANKING.rerank_depth, read_int)
    expansion: bool = setting("PAGEMILL_QUERY_EXPANSION", RANKING.expansion, read_flag)


@dataclass(frozen=True)
class BulkLoadsConfig(Group):
    """Bulk loads (app/domain/bulk_loads.py): a job expected to add more than this share of the
    chunks indexed, and at least this many, ingests with the HNSW graph dropped and rebuilt
    after.  3 %: where a rebuild paid for itself at 200k chunks (docs/BENCHMARKS.md, issue 5);
    0: off."""

    share: float = setting("PAGEMILL_HNSW_BULK_SHARE", 0.03, read_float)
    min_chunks: int = setting("PAGEMILL_HNSW_BULK_MIN_CHUNKS", 2000, read_int)
    # maintenance_work_mem of the graph's rebuild: a graph larger than this builds on disk, slowly.
    build_memory: str = setting("PAGEMILL_HNSW_BUILD_MEMORY", "1GB", read_text)


@dataclass(frozen=True)
class VectorIndexConfig(Group):
    """The HNSW graph's build options (indexing/hnsw_options.py states the defaults once, with
    their reasons): every build uses them; `pagemill hnsw rebuild` gives them to a live graph
    built with others."""

    m: int = setting("PAGEMILL_HNSW_M", GraphOptions.m, int_between(*M_RANGE))
    ef_construction: int = setting("PAGEMILL_HNSW_EF_CONSTRUCTION", GraphOptions.ef_construction,
                                   int_between(*EF_CONSTRUCTION_RANGE))


@dataclass(frozen=True)
class UrlFetchConfig(Group):
    """URL documents (app/infra/url_fetch.py); http and loopback exist for tests only."""

    allow_http: bool = setting("PAGEMILL_URL_ALLOW_HTTP", False, read_flag)
    allow_loopback: bool = setting("PAGEMILL_URL_ALLOW_LOOPBACK", False, read_flag)
    connect_timeout: float = setting("PAGEMILL_URL_CONNECT_TIMEOUT", 5.0, read_float)
    read_timeout: float = setting("PAGEMILL_URL_READ_TIMEOUT", 30.0, read_float)


@dataclass(frozen=True)
class SecretsConfig(Group):
    """Encrypts secret job options (password): comma-separated Fernet keys, the first encrypts
    (app/domain/secret_options.py).  Unset: a key file in the home with the embedded database,
    none with an external one."""

    key: str | None = setting("PAGEMILL_SECRET_KEY", None, read_optional, secret=True)


@dataclass(frozen=True)
class WebhooksConfig(Group):
    """Webhooks (app/domain/webhooks.py, tasks/webhooks.py)."""

    # The delay before each attempt, in seconds (the Standard Webhooks schedule: immediately,
    # 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h; each retry jittered by 10 %), and
    # each attempt's time limit.
    retry_schedule: tuple[float, ...] = setting(
        "PAGEMILL_WEBHOOK_RETRY_SCHEDULE", (0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400),
        read_seconds)
    timeout: float = setting("PAGEMILL_WEBHOOK_TIMEOUT", 15.0, read_float)
    # The sender in each worker's main process: attempts it makes at once, at most how many of
    # them (over every sender) one tenant's and one endpoint's deliveries may hold, and how
    # often it looks for due deliveries when idle.
    concurrency: int = setting("PAGEMILL_WEBHOOK_CONCURRENCY", 32, read_int)
    tenant_concurrency: int = setting("PAGEMILL_WEBHOOK_TENANT_CONCURRENCY", 16, read_int)
    endpoint_concurrency: int = setting("PAGEMILL_WEBHOOK_ENDPOINT_CONCURRENCY", 16, read_int)
    poll_seconds: float = setting("PAGEMILL_WEBHOOK_POLL_SECONDS", 0.5, read_float)


@dataclass(frozen=True)
class MetricsConfig(Group):
    """Prometheus (app/infra/metrics/): where this machine's processes keep their samples
    (None: <home>/metrics, ``Config.metrics_samples_dir``), the bearer token /metrics then
    requires (None: no token), and how long a scrape reuses the database gauges' last reading."""

    dir: Path | None = setting("PAGEMILL_METRICS_DIR", None, read_path)
    token: str | None = setting("PAGEMILL_METRICS_TOKEN", None, read_optional, secret=True)
    cache_seconds: float = setting("PAGEMILL_METRICS_CACHE_SECONDS", 5.0, read_float)


@dataclass(frozen=True)
class LoggingConfig(Group):
    """Every process's log records (app/infra/logs.py); read alone, before anything else, by the
    entry points (the API server, the CLI, a worker)."""

    level: str = setting("PAGEMILL_LOG_LEVEL", "WARNING", read_text)
    # "json" or "text"; None: text on a terminal, JSON otherwise.
    format: str | None = setting("PAGEMILL_LOG_FORMAT", None, read_optional)


@dataclass(frozen=True)
class TracingConfig(Group):
    """OpenTelemetry traces (app/infra/traces.py), off unless an OTLP endpoint is configured with
    the standard variables.  Only what decides *whether* to trace is read here; the exporter
    reads the rest of its ``OTEL_*`` variables itself (headers, timeouts, the service name,
    the sampler), as every OpenTelemetry SDK does."""

    endpoint: str | None = setting("OTEL_EXPORTER_OTLP_ENDPOINT", None, read_optional)
    traces_endpoint: str | None = setting("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", None, read_optional)
    # "none" turns traces off with an endpoint set; "otlp" (the default) is the only exporter
    # pagemill ships.
    exporter: str = setting("OTEL_TRACES_EXPORTER", "otlp", read_text)
    disabled: bool = setting("OTEL_SDK_DISABLED", False, read_flag)

    @property
    def enabled(self) -> bool:
        return bool(self.endpoint or self.traces_endpoint) and not self.disabled \
            and self.exporter.strip().lower() != "none"


GROUP = "group"


def group(kind: type[G]) -> G:
    """A group field of ``Config``: its defaults unless given."""
    result: G = field(default_factory=kind, metadata={GROUP: kind})
    return result


def home_from_env(env: Mapping[str, str]) -> Path:
    return Path(env.get("PAGEMILL_HOME") or platformdirs.user_data_dir("pagemill", appauthor=False)
                ).expanduser().resolve()


@dataclass(frozen=True)
class Config:
    """Settings of one pagemill process: its home (``PAGEMILL_HOME``: the embedded server, local
    objects, samples, keys) and a group of settings per subsystem.  ``Config(home=...)`` is a
    configuration with every default; ``with_overrides`` changes some settings of some groups."""

    home: Path
    database: DatabaseConfig = group(DatabaseConfig)
    broker: BrokerConfig = group(BrokerConfig)
    storage: StorageConfig = group(StorageConfig)
    api: ApiConfig = group(ApiConfig)
    jobs: JobsConfig = group(JobsConfig)
    limits: LimitsConfig = group(LimitsConfig)
    parse: ParseConfig = group(ParseConfig)
    processing: ProcessingConfig = group(ProcessingConfig)
    extraction: ExtractionConfig = group(ExtractionConfig)
    ocr_provider: OcrProviderConfig = group(OcrProviderConfig)
    media: MediaConfig = group(MediaConfig)
    transcription: TranscriptionConfig = group(TranscriptionConfig)
    chunking: ChunkingConfig = group(ChunkingConfig)
    embedding: EmbeddingConfig = group(EmbeddingConfig)
    search: SearchConfig = group(SearchConfig)
    bulk_loads: BulkLoadsConfig = group(BulkLoadsConfig)
    vector_index: VectorIndexConfig = group(VectorIndexConfig)
    urls: UrlFetchConfig = group(UrlFetchConfig)
    secrets: SecretsConfig = group(SecretsConfig)
    webhooks: WebhooksConfig = group(WebhooksConfig)
    metrics: MetricsConfig = group(MetricsConfig)
    logging: LoggingConfig = group(LoggingConfig)
    tracing: TracingConfig = group(TracingConfig)

    @classmethod
    def groups(cls) -> dict[str, type[Group]]:
        """Each group's field name and type, in order."""
        return {f.name: f.metadata[GROUP] for f in fields(cls) if GROUP in f.metadata}

    @classmethod
    def variables(cls) -> list[str]:
        """Every variable ``from_env`` reads (``AWS_DEFAULT_REGION`` aside: S3_REGION's fallback)."""
        return ["PAGEMILL_HOME", *(name for kind in cls.groups().values() for name in kind.variables())]

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Config:
        env = dict(os.environ if environ is None else environ)
        read: dict[str, Any] = {name: kind.from_env(env) for name, kind in cls.groups().items()}
        return replace(cls(home=home_from_env(env)), **read)

    def with_overrides(self, **changes: Mapping[str, Any]) -> Config:
        """This configuration with some settings of some groups changed:
        ``config.with_overrides(webhooks={"timeout": 5.0}, urls={"allow_loopback": False})``
        (an unknown group or setting is a TypeError)."""
        groups = self.groups()
        unknown = set(changes) - set(groups)
        if unknown:
            raise TypeError(f"no such group of settings: {', '.join(sorted(unknown))}")
        changed: dict[str, Any] = {name: replace(getattr(self, name), **values)
                                   for name, values in changes.items()}
        return replace(self, **changed)

    def search_params(self, **overrides: Any) -> SearchParams:
        """The ranking settings search runs with (the API, the CLI and the evaluation
        benchmark all start here); ``overrides`` are a request's own choices."""
        return SearchParams(**{**asdict(self.search), **overrides})

    @property
    def uses_embedded_database(self) -> bool:
        return self.database.url is None

    @property
    def pgdata(self) -> Path:
        return self.home / "pgdata"

    @property
    def storage_url(self) -> str:
        """``STORAGE_URL``, else the home's ``objects`` directory."""
        return self.storage.url or f"file://{self.home / 'objects'}"

    @property
    def metrics_samples_dir(self) -> Path:
        return self.metrics.dir or self.home / "metrics"

    def broker_url_for(self, database_url: str) -> str:
        """The Celery broker URL: ``BROKER_URL``, or pagemill's durable transport on the database."""
        if self.broker.url:
            return self.broker.url
        return "pagemill+" + to_sqlalchemy_url(database_url)

    def extract_options(self, password: str | None = None,
                        cooling_until: dict[str, float] | None = None,
                        transcribe_at_most: float | None = None) -> ExtractOptions:
        """Options for one document's extraction; the soft deadline starts now.
        ``cooling_until``: transcription providers on cool-down (app/domain/provider_cooldowns.py);
        ``transcribe_at_most``: the seconds reserved for a recording (MediaSettings)."""
        extraction = self.extraction
        return ExtractOptions(
            password=password, max_pages=extraction.max_pages, max_image_pixels=extraction.max_image_pixels,
            quality_threshold=extraction.quality_threshold, ocr_engines=extraction.ocr_engines,
            ocr_dpi=extraction.ocr_dpi, ocr_languages=extraction.ocr_languages,
            easyocr_model_dir=extraction.easyocr_model_dir,
            docling_artifacts_path=extraction.docling_artifacts_path,
            mistral=self.mistral_settings(),
            media=replace(self.media_settings(cooling_until), transcribe_at_most=transcribe_at_most),
            soft_deadline=time.monotonic() + extraction.soft_timeout,
            zip_limits=ZipLimits(max_total_bytes=extraction.zip_max_bytes,
                                 max_ratio=extraction.zip_max_ratio),
        )

    def graph_options(self) -> GraphOptions:
        """The HNSW graph's build options (ValueError: ef_construction under twice m)."""
        return GraphOptions(m=self.vector_index.m, ef_construction=self.vector_index.ef_construction)

    def mistral_settings(self) -> MistralSettings:
        provider = self.ocr_provider
        return MistralSettings(api_key=provider.api_key, server_url=provider.server_url, model=provider.model)

    def media_settings(self, cooling_until: dict[str, float] | None = None) -> MediaSettings:
        media, t = self.media, self.transcription
        known = {
            "groq": TranscriberSettings("groq", t.groq_api_key, t.groq_base_url, t.groq_model, t.timeout),
            "openai": TranscriberSettings("openai", t.openai_api_key, t.openai_base_url, t.openai_model,
                                          t.timeout)}
        unknown = [name for name in t.transcribers if name not in known]
        if unknown:
            raise ValueError(f"PAGEMILL_TRANSCRIBERS names unknown providers {unknown}; "
                             f"known: {', '.join(known)}")
        return MediaSettings(
            max_seconds=media.max_seconds, piece_seconds=media.piece_seconds,
            piece_bytes=media.piece_bytes, overlap_seconds=media.overlap_seconds,
            min_bytes_per_second=media.min_bytes_per_second,
            transcription=TranscriptionSettings(tuple(known[name] for name in t.transcribers),
                                                retry_after_cap=t.retry_after_cap,
                                                cooling_until=tuple(sorted((cooling_until or {}).items()))))

    def result_backend_for(self, database_url: str) -> str:
        return "db+" + to_sqlalchemy_url(database_url)
