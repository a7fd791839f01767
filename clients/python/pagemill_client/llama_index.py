"""``PagemillRetriever`` for LlamaIndex (``pip install 'pagemill-client[llamaindex]'``).

    from pagemill_client import Client
    from pagemill_client.llama_index import PagemillRetriever

    retriever = PagemillRetriever(Client("http://127.0.0.1:8000", api_key="pm_..."), k=5)
    nodes = retriever.retrieve("how are retries made safe")

Each ``NodeWithScore`` holds a ``TextNode`` (id ``<document_uuid>:<chunk_id>``, the chunk's
text, its document as the SOURCE relationship) scored with pagemill's score, in pagemill's
order; ``node.metadata`` has the same keys as the LangChain retriever's, and the positions
and ranking details among them are excluded from what LlamaIndex shows an LLM or embeds.

llama-index-core reads NLTK data and tiktoken encodings from copies inside its own wheel
(``llama_index/core/_static``), so importing this and retrieving download nothing.
"""

from __future__ import annotations

from typing import Any

from llama_index.core.callbacks import CallbackManager
from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeRelationship, NodeWithScore, QueryBundle, RelatedNodeInfo, TextNode

from pagemill_client._async import AsyncClient
from pagemill_client._hits import LAYOUT_AND_SCORE_KEYS, hit_id, hit_metadata
from pagemill_client._sync import Client
from pagemill_client.models import SearchResults


class PagemillRetriever(BaseRetriever):
    """pagemill's search as a LlamaIndex retriever: ``retrieve`` through ``client`` (default:
    a ``Client`` from ``PAGEMILL_URL`` and ``PAGEMILL_API_KEY``), ``aretrieve`` through
    ``async_client`` when given (else the sync client)."""

    def __init__(self, client: Client | None = None, *, async_client: AsyncClient | None = None,
                 k: int = 10, mode: str = "hybrid", collapse: bool = True,
                 filters: dict[str, Any] | None = None, search_options: dict[str, Any] | None = None,
                 callback_manager: CallbackManager | None = None, verbose: bool = False) -> None:
        super().__init__(callback_manager=callback_manager, verbose=verbose)
        self.client = client or Client()
        self.async_client = async_client
        self.search_arguments: dict[str, Any] = {"k": k, "mode": mode, "collapse": collapse,
                                                 "filters": filters, **(search_options or {})}

    @staticmethod
    def _nodes(results: SearchResults) -> list[NodeWithScore]:
        nodes = []
        for rank, hit in enumerate(results.results, 1):
            node = TextNode(id_=hit_id(hit), text=hit.text, metadata=hit_metadata(hit, rank),
                            excluded_llm_metadata_keys=list(LAYOUT_AND_SCORE_KEYS),
                            excluded_embed_metadata_keys=list(LAYOUT_AND_SCORE_KEYS))
            node.relationships[NodeRelationship.SOURCE] = RelatedNodeInfo(
                node_id=hit.document_uuid or hit.document_id, metadata={"document_id": hit.document_id})
            nodes.append(NodeWithScore(node=node, score=hit.score))
        return nodes

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return self._nodes(self.client.search(query_bundle.query_str, **self.search_arguments))

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        if self.async_client is None:
            return self._retrieve(query_bundle)
        return self._nodes(await self.async_client.search(query_bundle.query_str, **self.search_arguments))
