"""``GET /v1/documents``: the caller's indexed documents by id, a keyset page at a time, with
prefix and type filters; another tenant's documents never appear."""

from __future__ import annotations

import numpy as np
from sqlalchemy import text

from tests.conftest import bearer


def _tenant_of(conn, key: str) -> str:
    return str(conn.execute(text("SELECT tenant_id::text FROM api_keys WHERE prefix = :p"),
                            {"p": key.split("_")[1]}).scalar_one())


def _index(conn, tenant: str, external_id: str, mime_type: str = "text/plain") -> None:
    from indexing.chunking import Chunk
    from indexing.ranking import DEFAULTS
    from indexing.store import IndexedDocument, replace_document

    vector = np.ones((1, 384), dtype=np.float32) / np.sqrt(384)
    doc = IndexedDocument(tenant, external_id, None, None, f"hash-{external_id}", mime_type,
                          f"Title of {external_id}", '{"team": "fish"}')
    replace_document(conn, doc, [Chunk(f"notes about {external_id}", (), None, None, 3)], vector,
                     k1=DEFAULTS.k1, b=DEFAULTS.b, embedder="torch")


def test_the_index_pages_by_document_id(client, engine, key: str) -> None:
    from app.domain.auth import create_key

    with engine.begin() as conn:
        tenant = _tenant_of(conn, key)
        for name in ("reports/b.pdf", "reports/a.pdf", "notes/x.txt", "notes/y.txt", "z.txt"):
            _index(conn, tenant, name, "application/pdf" if name.endswith(".pdf") else "text/plain")
        other = create_key(conn, "listing-other-tenant")
        _index(conn, _tenant_of(conn, other), "reports/secret.pdf", "application/pdf")

    def page(**query: object) -> dict:
        answer = client.get("/v1/documents", query_string=query, headers=bearer(key))
        assert answer.status_code == 200, answer.get_json()
        return answer.get_json()

    first = page(limit=2)
    assert [d["document_id"] for d in first["documents"]] == ["notes/x.txt", "notes/y.txt"]
    assert first["next_after"] == "notes/y.txt"
    second = page(limit=2, after=first["next_after"])
    assert [d["document_id"] for d in second["documents"]] == ["reports/a.pdf", "reports/b.pdf"]
    last = page(limit=2, after=second["next_after"])
    assert [d["document_id"] for d in last["documents"]] == ["z.txt"] and last["next_after"] is None
    entry = first["documents"][0]
    assert (entry["title"], entry["mime_type"], entry["chunk_count"], entry["metadata"]) == (
        "Title of notes/x.txt", "text/plain", 1, {"team": "fish"})
    # Filters: an id prefix (a folder), a type; never the other tenant's documents.
    assert [d["document_id"] for d in page(prefix="reports/")["documents"]] == [
        "reports/a.pdf", "reports/b.pdf"]
    assert [d["document_id"] for d in page(mime_type="text/plain")["documents"]] == [
        "notes/x.txt", "notes/y.txt", "z.txt"]
    assert page(prefix="reports/s")["documents"] == []
    # A prefix is matched as text, not as a pattern.
    assert page(prefix="%")["documents"] == [] and page(prefix="_")["documents"] == []


def test_a_bad_page_is_a_400(client, key: str) -> None:
    for query in ({"limit": 0}, {"limit": 501}, {"limit": "many"}):
        answer = client.get("/v1/documents", query_string=query, headers=bearer(key))
        assert answer.status_code == 400 and answer.get_json()["error"]["code"] == "validation_error"
    assert client.get("/v1/documents").status_code == 401


def _document_with_markdown(engine, tenant: str, markdown: str) -> str:
    """A job's one document, completed with ``markdown`` (written as a worker would leave it)."""
    from app.domain.jobs import NewDocument, create_job

    with engine.begin() as conn:
        job_id, _ = create_job(conn, tenant, [NewDocument("long.md", "upload", None, "text/markdown",
                                                          len(markdown), "0" * 64)], batch_size=1)
        return str(conn.execute(text("UPDATE documents SET status = 'completed', markdown = :m "
                                     "WHERE job_id = CAST(:j AS uuid) RETURNING id"),
                                {"m": markdown, "j": job_id}).scalar_one())


def test_a_window_of_the_markdown_is_read_in_the_database(client, engine, key: str) -> None:
    from app.domain.auth import create_key

    markdown = "# Café\n\n" + "".join(f"Line {n} — ünïcode 🐟.\n" for n in range(500))
    with engine.begin() as conn:
        tenant = _tenant_of(conn, key)
    document = _document_with_markdown(engine, tenant, markdown)

    def window(**query: object) -> dict:
        answer = client.get(f"/v1/documents/{document}/markdown", query_string=query, headers=bearer(key))
        assert answer.status_code == 200, answer.get_json()
        return answer.get_json()

    first = window(max_chars=100)
    # Offsets count characters, as Python slices do (é, — and the fish are one each).
    assert first["markdown"] == markdown[:100] and first["next_offset"] == 100
    assert (first["total_chars"], first["document_id"], first["status"], first["indexed"]) == (
        len(markdown), "long.md", "completed", False)
    pieces, offset = [], 0
    while offset is not None:
        page = window(offset=offset, max_chars=3000)
        pieces.append(page["markdown"])
        offset = page["next_offset"]
    assert "".join(pieces) == markdown
    past = window(offset=len(markdown) + 5)
    assert (past["markdown"], past["offset"], past["next_offset"]) == ("", len(markdown), None)
    for query in ({"max_chars": 0}, {"offset": -1}, {"max_chars": "all"}):
        bad = client.get(f"/v1/documents/{document}/markdown", query_string=query, headers=bearer(key))
        assert bad.status_code == 400, query
    with engine.begin() as conn:
        stranger = create_key(conn, "markdown-other-tenant")
    for who, uuid_ in ((stranger, document), (key, "not-a-uuid")):
        missing = client.get(f"/v1/documents/{uuid_}/markdown", headers=bearer(who))
        assert missing.status_code == 404 and missing.get_json()["error"]["code"] == "not_found"
