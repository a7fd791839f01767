"""One configuration object, read from the environment.

Nothing here touches the network or the database: resolving the embedded
server's URL is the job of :mod:`app.infra.embedded`, called explicitly by the
processes that need a database.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

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
from indexing.ranking import DEFAULTS as RANKING
from indexing.ranking import SearchParams

# The project speaks psycopg 3 everywhere; SQLAlchemy 2.1 maps a bare
# ``postgresql://`` to it too, but saying so in every URL avoids surprises.
SQLALCHEMY_DRIVER = "postgresql+psycopg"


def _env_embedder(env: dict[str, str], default: str) -> str:
    name = env.get("PAGEMILL_EMBEDDER") or default
    if name not in EMBEDDERS:
        raise ValueError(f"PAGEMILL_EMBEDDER must be one of {', '.join(EMBEDDERS)}, got {name!r}")
    return name


def _env_int(environ: dict[str, str], name: str, default: int) -> int:
    raw = environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ValueError(f"{name} must be an integer, got {raw!r}") from exc


def _env_float(environ: dict[str, str], name: str, default: float) -> float:
    raw = environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return float(raw)
    except ValueError as exc:
        raise ValueError(f"{name} must be a number, got {raw!r}") from exc


def _env_seconds(environ: dict[str, str], name: str, default: tuple[float, ...]) -> tuple[float, ...]:
    """A comma-separated list of non-negative numbers of seconds, at least one."""
    raw = environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        values = tuple(float(part) for part in raw.split(","))
    except ValueError as exc:
        raise ValueError(f"{name} must be comma-separated numbers of seconds, got {raw!r}") from exc
    if any(value < 0 for value in values):
        raise ValueError(f"{name} cannot hold negative delays, got {raw!r}")
    return values


def _env_flag(environ: dict[str, str], name: str, default: bool) -> bool:
    """Unset or empty: the default; otherwise on unless 0, false, no or off."""
    raw = environ.get(name)
    if raw is None or raw == "":
        return default
    return raw.strip().lower() not in ("0", "false", "no", "off")


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


@dataclass(frozen=True)
class Config:
    """Settings of one pagemill process.

    ``database_url`` is ``None`` when the embedded server is to be used; call
    :func:`app.infra.embedded.resolve_database_url` to obtain a usable URL.
    """

    home: Path
    database_url: str | None
    broker_url: str | None
    storage_url: str
    s3_endpoint_url: str | None = None
    s3_region: str | None = None
    batch_size: int = 50
    max_documents_per_job: int = 500
    max_file_bytes: int = 50 * 1024 * 1024
    max_request_bytes: int = 200 * 1024 * 1024
    # JSON request bodies (and multipart ``options``) nested deeper than this are a 400,
    # refused before parsing: Python's parser recurses once per level.
    max_json_depth: int = 64
    # Event streams (GET /v1/jobs/<id>/events) open at once in one API process; the next is a
    # 503 with Retry-After.  A stream costs a thread and a socket, no database connection.
    max_event_streams: int = 500
    # `pagemill serve`: gunicorn worker processes and threads per process.  A thread serves one
    # request at a time, an event stream holds one for as long as its client listens: serve
    # keeps WEB_RESERVED_THREADS of them for other requests (streams are capped below that).
    web_workers: int = 1
    # Batch tasks of one API key (of one tenant, for jobs from the CLI) running at once across
    # every worker (app/domain/admission.py); heavy ones (remote OCR) at most KEY_CONCURRENCY_HEAVY of
    # them.  A key's own limit (`pagemill keys create --concurrency N`) replaces the first.
    key_concurrency: int = 4
    # Seconds a task of the database broker stays leased to a worker that stopped renewing it
    # (it died) before another worker gets it; None: the transport's own (tasks/broker/, 60).
    broker_visibility_timeout: float | None = None
    key_concurrency_heavy: int = 1
    web_threads: int = 64
    # Requests a minute per API key, across every API process (app/domain/rate_limits.py); 0: no
    # limit.  A key's own limit (``pagemill keys create --rate-limit N``) replaces it.  The
    # burst (requests at once after a quiet minute) is by default a minute's worth: what the
    # RateLimit-Policy field advertises (q=600;w=60) is then what a client can actually spend,
    # and a burst adds at most what a fixed window's boundary already allows (2q - 1 in any
    # window).  A smaller burst smooths load further.
    rate_limit_per_minute: int = 600
    rate_limit_burst: int | None = None
    # Seconds of recordings one API key may have transcribed a UTC day (app/domain/transcription_quota.py);
    # 0: no limit, the default, so that upgrading refuses nothing.  A key's own limit (``pagemill
    # keys create --transcription-limit N``) replaces it; jobs without a key are never limited.
    transcription_seconds_per_day: int = 0
    chunk_max_tokens: int = 256
    chunk_overlap_tokens: int = 32
    # "markdown": heading-aware, budget-bounded; "semantic": also splits where adjacent
    # sentences' embeddings stop being similar (costs one embedding per sentence).
    chunker: str = "markdown"
    # Texts per model call.  The pipeline's texts come sorted longest first, so small batches
    # pad little: 8 embedded 1.19-1.26x the texts/s of 32 here (docs/BENCHMARKS.md, issue 23).
    embedding_batch_size: int = 8
    # Which implementation embeds (indexing/embedding.py): "torch" (sentence-transformers,
    # the reference), "onnx" or "onnx-int8" (the same weights on ONNX Runtime).
    embedder: str = DEFAULT_EMBEDDER
    # Load embedders as processes start (app/services/embedder_warm_up.py, tasks/celery.py), not
    # at the first search or batch.
    preload_embedders: bool = True
    worker_concurrency: int = 1
    # Ranking: the defaults are indexing.ranking's (stated there once, with their reasons).
    bm25_k1: float = RANKING.k1
    bm25_b: float = RANKING.b
    rrf_k: int = RANKING.rrf_k
    hnsw_ef_search: int = RANKING.ef_search
    # Bulk loads (app/domain/bulk_loads.py): a job expected to add more than this share of the chunks
    # indexed, and at least this many, ingests with the HNSW graph dropped and rebuilt after.
    # 3 %: where a rebuild paid for itself at 200k chunks (docs/BENCHMARKS.md, issue 5); 0: off.
    hnsw_bulk_share: float = 0.03
    hnsw_bulk_min_chunks: int = 2000
    # maintenance_work_mem of the graph's rebuild: a graph larger than this builds on disk, slowly.
    hnsw_build_memory: str = "1GB"
    bm25_depth: int = RANKING.bm25_depth
    bm25_rounds: int = RANKING.bm25_rounds
    bm25_growth: int = RANKING.bm25_growth
    bm25_exact: bool = RANKING.bm25_exact
    fusion: str = RANKING.fusion
    alpha: float = RANKING.alpha
    default_tenant: str = "default"
    # Extraction: limits, OCR escalation and optional model directories (see README).
    max_pages: int = 2000
    max_image_pixels: int = 178_956_970
    extract_soft_timeout: float = 120.0
    extract_hard_timeout: float = 600.0
    extract_memory_limit: int = 6 * 1024**3
    extract_isolation: bool = True
    # Per document, over these it fails as too_large / timeout (docs/SECURITY.md): the
    # Markdown's length, its chunks, and the wall time of extraction + chunking + embedding.
    max_text_chars: int = 4_000_000
    max_chunks: int = 10_000
    document_time_budget: float = 900.0
    zip_max_bytes: int = ZipLimits.max_total_bytes
    zip_max_ratio: float = ZipLimits.max_ratio
    quality_threshold: float = 0.5
    ocr_engines: tuple[str, ...] = ("tesseract", "rapidocr", "easyocr", "mistral")
    ocr_dpi: int = 200
    ocr_languages: str = "eng"
    docling_artifacts_path: str | None = None
    easyocr_model_dir: str | None = None
    # Remote OCR provider (Mistral): sync OCR joins the escalation when a key is set; jobs
    # with options.provider = "mistral-batch" go through its batch API.
    mistral_api_key: str | None = field(default=None, repr=False)
    mistral_server_url: str | None = None
    mistral_model: str = "mistral-ocr-latest"
    # Audio and video (extractors/media.py, extractors/transcribers.py): the longest media
    # accepted, the pieces sent to a provider (seconds, bytes, overlap), the providers in the
    # order they are tried (only those with a key take part), how long a 429's Retry-After is
    # waited out before the next provider, and the time windows transcript chunks cover.
    media_max_seconds: float = 4 * 3600.0
    media_piece_seconds: float = 600.0
    media_piece_bytes: int = 24 * 1024 * 1024
    media_overlap_seconds: float = 1.5
    # The fewest bytes a second of media may take (a header claiming longer is refused; 0: off).
    media_min_bytes_per_second: float = MediaSettings.min_bytes_per_second
    media_window_seconds: float = 60.0
    media_window_overlap_seconds: float = 10.0
    # Wall time a recording may take, in place of the extraction timeout and the document
    # time budget (a 4-hour recording is minutes of provider time per piece, far past what a
    # PDF may take); a batch holding recordings runs on the pagemill.media queue, its task's
    # time limit raised by this much per recording (tasks/ingest.py).
    media_time_limit: float = 3 * 3600.0
    transcribers: tuple[str, ...] = ("groq", "openai")
    transcribe_retry_after_cap: float = 30.0
    transcribe_timeout: float = 300.0
    groq_api_key: str | None = field(default=None, repr=False)
    groq_base_url: str = DEFAULT_BASE_URLS["groq"]
    groq_transcribe_model: str = DEFAULT_MODELS["groq"]
    openai_api_key: str | None = field(default=None, repr=False)
    openai_base_url: str = DEFAULT_BASE_URLS["openai"]
    openai_transcribe_model: str = DEFAULT_MODELS["openai"]
    provider_poll_seconds: float = 30.0
    provider_window_seconds: float = 24 * 3600.0
    provider_submit_attempts: int = 5
    # Sync mode (POST /v1/parse).
    parse_max_bytes: int = 5 * 1024 * 1024
    parse_max_pages: int = 10
    parse_deadline_seconds: float = 10.0
    # URL documents (app/infra/url_fetch.py); http and loopback exist for tests only.
    url_allow_http: bool = False
    url_allow_loopback: bool = False
    url_connect_timeout: float = 5.0
    url_read_timeout: float = 30.0
    # Encrypts secret job options (password): comma-separated Fernet keys, the first encrypts
    # (app/domain/secret_options.py).  Unset: a key file in the home with the embedded database,
    # none with an external one.  Kept out of repr so a logged Config never shows it.
    secret_key: str | None = field(default=None, repr=False)
    # Webhooks (app/domain/webhooks.py): the delay before each attempt, in seconds (the Standard
    # Webhooks schedule: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h;
    # each retry jittered by 10 %), and each attempt's time limit.
    webhook_retry_schedule: tuple[float, ...] = (0, 5, 300, 1800, 7200, 18000, 36000, 50400,
                                                 72000, 86400)
    webhook_timeout: float = 15.0
    # The sender in each worker's main process (tasks/webhooks.py): attempts it makes at once,
    # at most how many of them (over every sender) one tenant's and one endpoint's deliveries
    # may hold, and how often it looks for due deliveries when idle.
    webhook_concurrency: int = 32
    webhook_tenant_concurrency: int = 16
    webhook_endpoint_concurrency: int = 16
    webhook_poll_seconds: float = 0.5
    # Prometheus (app/infra/metrics/): where this machine's processes keep their samples (None:
    # <home>/metrics), the bearer token /metrics then requires (None: no token), and how long a
    # scrape reuses the database-side gauges' last reading.
    metrics_dir: Path | None = None
    metrics_token: str | None = field(default=None, repr=False)
    metrics_cache_seconds: float = 5.0

    def search_params(self, **overrides: Any) -> SearchParams:
        """The ranking settings search runs with (the API, the CLI and the evaluation
        benchmark all start here); ``overrides`` are a request's own choices."""
        settings: dict[str, Any] = {
            "k1": self.bm25_k1, "b": self.bm25_b, "rrf_k": self.rrf_k,
            "ef_search": self.hnsw_ef_search, "fusion": self.fusion, "alpha": self.alpha,
            "bm25_depth": self.bm25_depth, "bm25_rounds": self.bm25_rounds, "bm25_growth": self.bm25_growth,
            "bm25_exact": self.bm25_exact}
        return SearchParams(**{**settings, **overrides})

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Config:
        env = dict(os.environ if environ is None else environ)
        home = Path(
            env.get("PAGEMILL_HOME") or platformdirs.user_data_dir("pagemill", appauthor=False)
        ).expanduser().resolve()
        database_url = env.get("DATABASE_URL") or None
        if database_url:
            database_url = to_sqlalchemy_url(database_url)
        broker_url = env.get("BROKER_URL") or None
        storage_url = env.get("STORAGE_URL") or f"file://{home / 'objects'}"
        # Every default is the field's own, stated once above.
        return cls(
            home=home,
            database_url=database_url,
            broker_url=broker_url,
            storage_url=storage_url,
            s3_endpoint_url=env.get("S3_ENDPOINT_URL") or None,
            s3_region=env.get("S3_REGION") or env.get("AWS_DEFAULT_REGION") or None,
            batch_size=_env_int(env, "PAGEMILL_BATCH_SIZE", cls.batch_size),
            max_documents_per_job=_env_int(env, "PAGEMILL_MAX_DOCUMENTS_PER_JOB", cls.max_documents_per_job),
            max_file_bytes=_env_int(env, "PAGEMILL_MAX_FILE_BYTES", cls.max_file_bytes),
            max_request_bytes=_env_int(env, "PAGEMILL_MAX_REQUEST_BYTES", cls.max_request_bytes),
            max_json_depth=_env_int(env, "PAGEMILL_MAX_JSON_DEPTH", cls.max_json_depth),
            max_event_streams=_env_int(env, "PAGEMILL_MAX_EVENT_STREAMS", cls.max_event_streams),
            web_workers=_env_int(env, "PAGEMILL_WEB_WORKERS", cls.web_workers),
            key_concurrency=_env_int(env, "PAGEMILL_KEY_CONCURRENCY", cls.key_concurrency),
            broker_visibility_timeout=_env_float(env, "PAGEMILL_BROKER_VISIBILITY_TIMEOUT", 0.0)
            or cls.broker_visibility_timeout,
            key_concurrency_heavy=_env_int(env, "PAGEMILL_KEY_CONCURRENCY_HEAVY",
                                           cls.key_concurrency_heavy),
            web_threads=_env_int(env, "PAGEMILL_WEB_THREADS", cls.web_threads),
            rate_limit_per_minute=_env_int(env, "PAGEMILL_RATE_LIMIT_PER_MINUTE",
                                           cls.rate_limit_per_minute),
            # Unset, empty or 0: the default (a minute's worth).
            rate_limit_burst=_env_int(env, "PAGEMILL_RATE_LIMIT_BURST", 0) or cls.rate_limit_burst,
            transcription_seconds_per_day=_env_int(env, "PAGEMILL_TRANSCRIPTION_SECONDS_PER_DAY",
                                                   cls.transcription_seconds_per_day),
            chunk_max_tokens=_env_int(env, "PAGEMILL_CHUNK_MAX_TOKENS", cls.chunk_max_tokens),
            chunk_overlap_tokens=_env_int(env, "PAGEMILL_CHUNK_OVERLAP_TOKENS", cls.chunk_overlap_tokens),
            chunker=env.get("PAGEMILL_CHUNKER") or cls.chunker,
            embedding_batch_size=_env_int(env, "PAGEMILL_EMBEDDING_BATCH_SIZE", cls.embedding_batch_size),
            embedder=_env_embedder(env, cls.embedder),
            worker_concurrency=_env_int(env, "PAGEMILL_WORKER_CONCURRENCY", cls.worker_concurrency),
            bm25_k1=_env_float(env, "PAGEMILL_BM25_K1", cls.bm25_k1),
            bm25_b=_env_float(env, "PAGEMILL_BM25_B", cls.bm25_b),
            rrf_k=_env_int(env, "PAGEMILL_RRF_K", cls.rrf_k),
            hnsw_ef_search=_env_int(env, "PAGEMILL_HNSW_EF_SEARCH", cls.hnsw_ef_search),
            hnsw_bulk_share=_env_float(env, "PAGEMILL_HNSW_BULK_SHARE", cls.hnsw_bulk_share),
            hnsw_bulk_min_chunks=_env_int(env, "PAGEMILL_HNSW_BULK_MIN_CHUNKS", cls.hnsw_bulk_min_chunks),
            hnsw_build_memory=env.get("PAGEMILL_HNSW_BUILD_MEMORY") or cls.hnsw_build_memory,
            bm25_depth=_env_int(env, "PAGEMILL_BM25_DEPTH", cls.bm25_depth),
            bm25_rounds=_env_int(env, "PAGEMILL_BM25_ROUNDS", cls.bm25_rounds),
            bm25_growth=_env_int(env, "PAGEMILL_BM25_GROWTH", cls.bm25_growth),
            bm25_exact=_env_flag(env, "PAGEMILL_BM25_EXACT", cls.bm25_exact),
            fusion=env.get("PAGEMILL_FUSION") or cls.fusion,
            alpha=_env_float(env, "PAGEMILL_ALPHA", cls.alpha),
            default_tenant=env.get("PAGEMILL_DEFAULT_TENANT") or cls.default_tenant,
            max_pages=_env_int(env, "PAGEMILL_MAX_PAGES", cls.max_pages),
            max_image_pixels=_env_int(env, "PAGEMILL_MAX_IMAGE_PIXELS", cls.max_image_pixels),
            extract_soft_timeout=_env_float(env, "PAGEMILL_EXTRACT_SOFT_TIMEOUT", cls.extract_soft_timeout),
            extract_hard_timeout=_env_float(env, "PAGEMILL_EXTRACT_HARD_TIMEOUT", cls.extract_hard_timeout),
            extract_memory_limit=_env_int(env, "PAGEMILL_EXTRACT_MEMORY_LIMIT", cls.extract_memory_limit),
            extract_isolation=_env_flag(env, "PAGEMILL_EXTRACT_ISOLATION", cls.extract_isolation),
            preload_embedders=_env_flag(env, "PAGEMILL_PRELOAD_EMBEDDERS", cls.preload_embedders),
            max_text_chars=_env_int(env, "PAGEMILL_MAX_TEXT_CHARS", cls.max_text_chars),
            max_chunks=_env_int(env, "PAGEMILL_MAX_CHUNKS", cls.max_chunks),
            document_time_budget=_env_float(env, "PAGEMILL_DOCUMENT_TIME_BUDGET",
                                            cls.document_time_budget),
            zip_max_bytes=_env_int(env, "PAGEMILL_ZIP_MAX_BYTES", cls.zip_max_bytes),
            zip_max_ratio=_env_float(env, "PAGEMILL_ZIP_MAX_RATIO", cls.zip_max_ratio),
            quality_threshold=_env_float(env, "PAGEMILL_QUALITY_THRESHOLD", cls.quality_threshold),
            ocr_engines=tuple(e.strip() for e in env.get(
                "PAGEMILL_OCR_ENGINES", ",".join(cls.ocr_engines)).split(",") if e.strip()),
            ocr_dpi=_env_int(env, "PAGEMILL_OCR_DPI", cls.ocr_dpi),
            ocr_languages=env.get("PAGEMILL_OCR_LANGUAGES") or cls.ocr_languages,
            docling_artifacts_path=env.get("DOCLING_ARTIFACTS_PATH") or None,
            easyocr_model_dir=env.get("EASYOCR_MODEL_DIR") or None,
            mistral_api_key=env.get("MISTRAL_API_KEY") or None,
            mistral_server_url=env.get("MISTRAL_SERVER_URL") or None,
            mistral_model=env.get("MISTRAL_OCR_MODEL") or cls.mistral_model,
            media_max_seconds=_env_float(env, "PAGEMILL_MEDIA_MAX_SECONDS", cls.media_max_seconds),
            media_piece_seconds=_env_float(env, "PAGEMILL_MEDIA_PIECE_SECONDS", cls.media_piece_seconds),
            media_piece_bytes=_env_int(env, "PAGEMILL_MEDIA_PIECE_BYTES", cls.media_piece_bytes),
            media_overlap_seconds=_env_float(env, "PAGEMILL_MEDIA_OVERLAP_SECONDS",
                                             cls.media_overlap_seconds),
            media_min_bytes_per_second=_env_float(env, "PAGEMILL_MEDIA_MIN_BYTES_PER_SECOND",
                                                  cls.media_min_bytes_per_second),
            media_window_seconds=_env_float(env, "PAGEMILL_MEDIA_WINDOW_SECONDS", cls.media_window_seconds),
            media_window_overlap_seconds=_env_float(env, "PAGEMILL_MEDIA_WINDOW_OVERLAP_SECONDS",
                                                    cls.media_window_overlap_seconds),
            media_time_limit=_env_float(env, "PAGEMILL_MEDIA_TIME_LIMIT", cls.media_time_limit),
            transcribers=tuple(name.strip() for name in env.get(
                "PAGEMILL_TRANSCRIBERS", ",".join(cls.transcribers)).split(",") if name.strip()),
            transcribe_retry_after_cap=_env_float(env, "PAGEMILL_TRANSCRIBE_RETRY_AFTER_CAP",
                                                  cls.transcribe_retry_after_cap),
            transcribe_timeout=_env_float(env, "PAGEMILL_TRANSCRIBE_TIMEOUT", cls.transcribe_timeout),
            groq_api_key=env.get("GROQ_API_KEY") or None,
            groq_base_url=env.get("GROQ_BASE_URL") or cls.groq_base_url,
            groq_transcribe_model=env.get("GROQ_TRANSCRIBE_MODEL") or cls.groq_transcribe_model,
            openai_api_key=env.get("OPENAI_API_KEY") or None,
            openai_base_url=env.get("OPENAI_BASE_URL") or cls.openai_base_url,
            openai_transcribe_model=env.get("OPENAI_TRANSCRIBE_MODEL") or cls.openai_transcribe_model,
            provider_poll_seconds=_env_float(env, "PAGEMILL_PROVIDER_POLL_SECONDS",
                                             cls.provider_poll_seconds),
            provider_window_seconds=_env_float(env, "PAGEMILL_PROVIDER_WINDOW_SECONDS",
                                               cls.provider_window_seconds),
            provider_submit_attempts=_env_int(env, "PAGEMILL_PROVIDER_SUBMIT_ATTEMPTS",
                                              cls.provider_submit_attempts),
            parse_max_bytes=_env_int(env, "PAGEMILL_PARSE_MAX_BYTES", cls.parse_max_bytes),
            parse_max_pages=_env_int(env, "PAGEMILL_PARSE_MAX_PAGES", cls.parse_max_pages),
            parse_deadline_seconds=_env_float(env, "PAGEMILL_PARSE_DEADLINE_SECONDS",
                                              cls.parse_deadline_seconds),
            url_allow_http=_env_flag(env, "PAGEMILL_URL_ALLOW_HTTP", cls.url_allow_http),
            url_allow_loopback=_env_flag(env, "PAGEMILL_URL_ALLOW_LOOPBACK", cls.url_allow_loopback),
            url_connect_timeout=_env_float(env, "PAGEMILL_URL_CONNECT_TIMEOUT", cls.url_connect_timeout),
            url_read_timeout=_env_float(env, "PAGEMILL_URL_READ_TIMEOUT", cls.url_read_timeout),
            secret_key=env.get("PAGEMILL_SECRET_KEY") or None,
            webhook_retry_schedule=_env_seconds(env, "PAGEMILL_WEBHOOK_RETRY_SCHEDULE",
                                                cls.webhook_retry_schedule),
            webhook_timeout=_env_float(env, "PAGEMILL_WEBHOOK_TIMEOUT", cls.webhook_timeout),
            webhook_concurrency=_env_int(env, "PAGEMILL_WEBHOOK_CONCURRENCY", cls.webhook_concurrency),
            webhook_tenant_concurrency=_env_int(env, "PAGEMILL_WEBHOOK_TENANT_CONCURRENCY",
                                                cls.webhook_tenant_concurrency),
            webhook_endpoint_concurrency=_env_int(env, "PAGEMILL_WEBHOOK_ENDPOINT_CONCURRENCY",
                                                  cls.webhook_endpoint_concurrency),
            webhook_poll_seconds=_env_float(env, "PAGEMILL_WEBHOOK_POLL_SECONDS",
                                            cls.webhook_poll_seconds),
            metrics_dir=Path(env["PAGEMILL_METRICS_DIR"]) if env.get("PAGEMILL_METRICS_DIR") else None,
            metrics_token=env.get("PAGEMILL_METRICS_TOKEN") or None,
            metrics_cache_seconds=_env_float(env, "PAGEMILL_METRICS_CACHE_SECONDS",
                                             cls.metrics_cache_seconds),
        )

    @property
    def uses_embedded_database(self) -> bool:
        return self.database_url is None

    @property
    def pgdata(self) -> Path:
        return self.home / "pgdata"

    @property
    def metrics_samples_dir(self) -> Path:
        return self.metrics_dir or self.home / "metrics"

    def broker_url_for(self, database_url: str) -> str:
        """The Celery broker URL: ``BROKER_URL``, or pagemill's durable transport on the database."""
        if self.broker_url:
            return self.broker_url
        return "pagemill+" + to_sqlalchemy_url(database_url)

    def extract_options(self, password: str | None = None,
                        cooling_until: dict[str, float] | None = None,
                        transcribe_at_most: float | None = None) -> ExtractOptions:
        """Options for one document's extraction; the soft deadline starts now.
        ``cooling_until``: transcription providers on cool-down (app/domain/provider_cooldowns.py);
        ``transcribe_at_most``: the seconds reserved for a recording (MediaSettings)."""
        return ExtractOptions(
            password=password, max_pages=self.max_pages, max_image_pixels=self.max_image_pixels,
            quality_threshold=self.quality_threshold, ocr_engines=self.ocr_engines,
            ocr_dpi=self.ocr_dpi, ocr_languages=self.ocr_languages,
            easyocr_model_dir=self.easyocr_model_dir,
            docling_artifacts_path=self.docling_artifacts_path,
            mistral=self.mistral_settings(),
            media=replace(self.media_settings(cooling_until), transcribe_at_most=transcribe_at_most),
            soft_deadline=time.monotonic() + self.extract_soft_timeout,
            zip_limits=ZipLimits(max_total_bytes=self.zip_max_bytes, max_ratio=self.zip_max_ratio),
        )

    def mistral_settings(self) -> MistralSettings:
        return MistralSettings(api_key=self.mistral_api_key, server_url=self.mistral_server_url,
                               model=self.mistral_model)

    def media_settings(self, cooling_until: dict[str, float] | None = None) -> MediaSettings:
        known = {
            "groq": TranscriberSettings("groq", self.groq_api_key, self.groq_base_url,
                                        self.groq_transcribe_model, self.transcribe_timeout),
            "openai": TranscriberSettings("openai", self.openai_api_key, self.openai_base_url,
                                          self.openai_transcribe_model, self.transcribe_timeout)}
        unknown = [name for name in self.transcribers if name not in known]
        if unknown:
            raise ValueError(f"PAGEMILL_TRANSCRIBERS names unknown providers {unknown}; "
                             f"known: {', '.join(known)}")
        return MediaSettings(
            max_seconds=self.media_max_seconds, piece_seconds=self.media_piece_seconds,
            piece_bytes=self.media_piece_bytes, overlap_seconds=self.media_overlap_seconds,
            min_bytes_per_second=self.media_min_bytes_per_second,
            transcription=TranscriptionSettings(tuple(known[name] for name in self.transcribers),
                                                retry_after_cap=self.transcribe_retry_after_cap,
                                                cooling_until=tuple(sorted((cooling_until or {}).items()))))

    def result_backend_for(self, database_url: str) -> str:
        return "db+" + to_sqlalchemy_url(database_url)
