"""What keeps the search path's throughput under concurrent requests (issue 33 item 3,
bench/search_throughput.py): a process keeps the connections it opens, and an API process's
embedder calls run one thread each."""

from __future__ import annotations

from sqlalchemy import text

from app.config import Config
from app.infra.db import POOL_SIZE, get_engine
from app.web_server import served_config


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


def test_an_api_process_embeds_with_one_thread_per_call_unless_told() -> None:
    assert Config.from_env({}).embedding.torch_threads == 0  # the library's choice elsewhere
    assert served_config(Config.from_env({})).embedding.torch_threads == 1
    assert served_config(Config.from_env({"PAGEMILL_TORCH_THREADS": "2"})).embedding.torch_threads == 2
