"""``PagemillRetriever`` for LangChain (``pip install 'pagemill-client[langchain]'``).

    from pagemill_client import Client
    from pagemill_client.langchain import PagemillRetriever

    retriever = PagemillRetriever(client=Client("http://127.0.0.1:8000", api_key="pm_..."), k=5)
    docs = retriever.invoke("how are retries made safe")

Each ``Document`` is one hit: ``page_content`` the chunk's text, ``id``
``<document_uuid>:<chunk_id>``, ``metadata`` the document's id and uuid, title, heading path,
pages, boxes, the snippet and the scores (``hit_metadata``), in pagemill's order.
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field

from pagemill_client._async import AsyncClient
from pagemill_client._hits import hit_id, hit_metadata
from pagemill_client._sync import Client
from pagemill_client.models import SearchResults


class PagemillRetriever(BaseRetriever):
    """pagemill's search as a LangChain retriever.  ``client`` (default: a ``Client`` from
    ``PAGEMILL_URL`` and ``PAGEMILL_API_KEY``) answers ``invoke``; ``async_client``, if given,
    answers ``ainvoke`` (else LangChain runs the sync call in a thread)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    client: Client = Field(default_factory=Client)
    async_client: AsyncClient | None = None
    k: int = 10
    mode: str = "hybrid"
    collapse: bool = True
    filters: dict[str, Any] | None = None
    # Further arguments of Client.search (fusion, alpha, ef_search, bm25_exact, after_job).
    search_options: dict[str, Any] = Field(default_factory=dict)

    def _arguments(self) -> dict[str, Any]:
        return {"k": self.k, "mode": self.mode, "collapse": self.collapse, "filters": self.filters,
                **self.search_options}

    @staticmethod
    def _documents(results: SearchResults) -> list[Document]:
        return [Document(id=hit_id(hit), page_content=hit.text, metadata=hit_metadata(hit, rank))
                for rank, hit in enumerate(results.results, 1)]

    def _get_relevant_documents(self, query: str, *,
                                run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        return self._documents(self.client.search(query, **self._arguments()))

    async def _aget_relevant_documents(self, query: str, *,
                                       run_manager: AsyncCallbackManagerForRetrieverRun) -> list[Document]:
        if self.async_client is None:
            return await super()._aget_relevant_documents(query, run_manager=run_manager)
        return self._documents(await self.async_client.search(query, **self._arguments()))
