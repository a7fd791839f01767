"""pagemill's Python client: ``Client`` (sync) and ``AsyncClient`` (asyncio) over httpx, typed
models of every request and answer, retries that are safe to make, a job's event stream that
survives reconnections, ``wait()`` with progress, file and folder uploads, and a webhook
verifier.  Retrievers for LangChain and LlamaIndex: ``pagemill_client.langchain``,
``pagemill_client.llama_index`` (extras ``langchain``, ``llamaindex``).  Reference:
docs/CLIENT.md in pagemill's repository."""

from pagemill_client._async import AsyncClient
from pagemill_client._core import (
    NO_RETRIES,
    ApiError,
    JobFailed,
    PagemillError,
    RetryPolicy,
    WaitTimeout,
)
from pagemill_client._settings import VERSION as __version__
from pagemill_client._sync import Client
from pagemill_client.models import (
    TERMINAL_JOB_STATES,
    Box,
    Chunk,
    ChunkWindow,
    Document,
    DocumentDetail,
    IndexedDocument,
    IndexedDocumentPage,
    Job,
    JobEvent,
    JobOptions,
    MarkdownWindow,
    Ranking,
    SearchFilters,
    SearchHit,
    SearchResults,
    TextDocument,
)
from pagemill_client.webhooks import WebhookVerificationError, WebhookVerifier, verify_webhook

__all__ = [
    "NO_RETRIES", "TERMINAL_JOB_STATES", "ApiError", "AsyncClient", "Box", "Chunk", "ChunkWindow",
    "Client", "Document", "DocumentDetail", "IndexedDocument", "IndexedDocumentPage", "Job",
    "JobEvent", "JobFailed", "JobOptions", "MarkdownWindow", "PagemillError", "Ranking",
    "RetryPolicy", "SearchFilters", "SearchHit", "SearchResults", "TextDocument",
    "WaitTimeout", "WebhookVerificationError", "WebhookVerifier", "__version__", "verify_webhook",
]
