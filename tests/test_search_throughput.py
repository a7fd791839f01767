"""What keeps the search path's throughput under concurrent requests (issue 33 item 3,
bench/search_throughput.py): a process keeps the connections it opens and checks only those
that sat in its pool, a query is embedded
before its search takes a connection (and still by the embedder the tenant is pinned to when
the search reads), and an API process's embedder calls run one thread each."""

from __future__ import annotations

import time

import numpy as np
import pytest
from sqlalchemy import text

from app.config import Config
from app.infra import db
from app.infra.db import POOL_SIZE, get_engine
from app.services import search_request
from app.services.search_request import SearchRequest, serve_search
from app.web_server import served_config
from indexing.embedding import DIMENSIONS


def _backend_pids(engine, n: int) -> set[int]:
    """The server processes of ``n`` connections checked out at once (then all given back)."""
    connections = [engine.connect() for _ in range(n)]
    try:
        return {conn.execute(text("SELECT pg_backend_pid()")).scalar_one() for conn in connections}
    finally:
        for conn in connections:
            conn.close()


def test_a_process_keeps_every_connection_it_opens_up_to_its_pool(database_url: str) -> None:
    # An engine of its own (another URL string), so no other test's connections are counted.
    engine = get_engine(f"{database_url}{'&' if '?' in database_url else '?'}application_name=pool-test")
    try:
        wanted = POOL_SIZE - 2  # more at once than the five the pool used to keep
        first = _backend_pids(engine, wanted)
        assert len(first) == wanted
        # Given back and taken again: the same connections, none closed and opened anew.
        assert _backend_pids(engine, wanted) == first
        assert engine.pool.checkedin() == wanted
    finally:
        engine.dispose()


@pytest.fixture
def own_engine(database_url: str):
    engine = get_engine(f"{database_url}{'&' if '?' in database_url else '?'}application_name=ping-test")
    yield engine
    engine.dispose()


def test_a_connection_is_checked_only_after_it_sat_in_the_pool(
        own_engine, engine, monkeypatch: pytest.MonkeyPatch) -> None:
    pings: list[object] = []
    real_ping = own_engine.dialect.do_ping
    monkeypatch.setattr(own_engine.dialect, "do_ping", lambda c: pings.append(c) or real_ping(c))
    monkeypatch.setattr(db, "PING_AFTER_IDLE_SECONDS", 0.3)
    with own_engine.connect() as conn:
        pid = conn.execute(text("SELECT pg_backend_pid()")).scalar_one()
    for _ in range(3):  # given back a moment ago: handed out as it is
        with own_engine.connect() as conn:
            assert conn.execute(text("SELECT pg_backend_pid()")).scalar_one() == pid
    assert pings == []
    time.sleep(0.4)
    with own_engine.connect() as conn:  # sat in the pool: checked first
        assert conn.execute(text("SELECT pg_backend_pid()")).scalar_one() == pid
    assert len(pings) == 1


def test_a_connection_whose_server_went_away_while_it_sat_in_the_pool_is_replaced(
        own_engine, engine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(db, "PING_AFTER_IDLE_SECONDS", 0.3)
    with own_engine.connect() as conn:
        pid = conn.execute(text("SELECT pg_backend_pid()")).scalar_one()
    with engine.connect() as other:  # as a restart of the server would end it
        assert other.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid}).scalar_one()
    time.sleep(0.4)
    with own_engine.connect() as conn:
        assert conn.execute(text("SELECT pg_backend_pid()")).scalar_one() != pid


def _unit(seed: int) -> np.ndarray:
    vector = np.random.default_rng(seed).normal(size=DIMENSIONS).astype(np.float32)
    return vector / np.linalg.norm(vector)


# Each embedder's "vector" of any query: which one made it shows in the dense ranking below.
_VECTORS = {"torch": _unit(1), "onnx-int8": _unit(2)}


def _index(engine, tenant: str, external_id: str, vector: np.ndarray) -> None:
    from indexing.chunking import Chunk
    from indexing.ranking import DEFAULTS
    from indexing.store import IndexedDocument, replace_document

    doc = IndexedDocument(tenant, external_id, None, None, external_id, "text/plain", None, "{}")
    with engine.begin() as conn:
        replace_document(conn, doc, [Chunk(f"notes on {external_id}", (), None, None, 3)], vector[None, :],
                         k1=DEFAULTS.k1, b=DEFAULTS.b, embedder="torch")


@pytest.fixture
def embedded(runtime, engine, tenant, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str | None, int]]:
    """Two documents of the tenant (pinned to torch), each at one embedder's vector; every
    query embedding made by the search service, as (embedder, connections then checked out)."""
    _index(engine, tenant, "by-torch", _VECTORS["torch"])
    _index(engine, tenant, "by-onnx-int8", _VECTORS["onnx-int8"])
    calls: list[tuple[str | None, int]] = []

    def embed(texts, embedder=None, strict=False):  # the model's part is not what is tested
        calls.append((embedder, runtime.engine.pool.checkedout()))
        return np.stack([_VECTORS[embedder or "torch"] for _ in texts])

    monkeypatch.setattr(search_request, "embed", embed)
    return calls


def _top(runtime, tenant: str) -> str:
    hits = serve_search(runtime, tenant, SearchRequest("notes", mode="dense", k=2)).value
    return hits[0].text.removeprefix("notes on ")


def test_a_query_is_embedded_before_its_search_takes_a_connection(runtime, tenant, embedded) -> None:
    assert _top(runtime, tenant) == "by-torch"
    # The first search of a tenant learns its pin in its transaction and embeds there.
    assert embedded == [("torch", 1)]
    embedded.clear()
    assert _top(runtime, tenant) == "by-torch"
    # The next one embeds first, holding no connection, and only once.
    assert embedded == [("torch", 0)]


def test_a_tenant_moved_to_another_embedder_meanwhile_is_searched_with_its_new_one(
        runtime, engine, tenant, embedded) -> None:
    assert _top(runtime, tenant) == "by-torch"
    with engine.begin() as conn:  # as `pagemill reembed` moves the pin, after the vectors
        conn.execute(text("UPDATE tenants SET embedder = 'onnx-int8' WHERE id = CAST(:t AS uuid)"),
                     {"t": tenant})
    embedded.clear()
    # Embedded early by the embedder last seen, then again in the transaction by the one the
    # search reads: the query is ranked by its new vector, never by the stale one.
    assert _top(runtime, tenant) == "by-onnx-int8"
    assert [name for name, _ in embedded] == ["torch", "onnx-int8"]
    embedded.clear()
    assert _top(runtime, tenant) == "by-onnx-int8"
    assert embedded == [("onnx-int8", 0)]


def test_an_api_process_embeds_with_one_thread_per_call_unless_told() -> None:
    assert Config.from_env({}).embedding.torch_threads == 0  # the library's choice elsewhere
    assert served_config(Config.from_env({})).embedding.torch_threads == 1
    assert served_config(Config.from_env({"PAGEMILL_TORCH_THREADS": "2"})).embedding.torch_threads == 2
