"""Usage per API key per day (GET /v1/usage, app/domain/usage.py) against the real database: the
statement over rows written as a worker leaves them, the endpoint's validation and tenant
isolation, and the numbers after a real worker has processed a couple of small documents."""

from __future__ import annotations

import io
import uuid
from datetime import UTC, date, datetime, timedelta

import pytest
from flask.testing import FlaskClient
from sqlalchemy import Engine, TextClause, text

from app.domain.auth import create_key
from app.domain.usage import usage_by_key_and_day
from tests.conftest import ROOT, bearer, wait_for

DAY = date(2031, 3, 14)


def _key_row(engine: Engine, key: str) -> tuple[str, str, str]:
    """(key id, tenant id, tenant name) of a full key."""
    with engine.connect() as conn:
        row = conn.execute(text("SELECT k.id::text, t.id::text, t.name FROM api_keys k "
                                "JOIN tenants t ON t.id = k.tenant_id WHERE k.prefix = :p"),
                           {"p": key.split("_")[1]}).one()
    return row[0], row[1], row[2]


def _job(engine: Engine, tenant_id: str, key_id: str | None, documents: list[dict]) -> str:
    """A job with terminal documents written directly, as the pipeline leaves them."""
    job_id = str(uuid.uuid4())
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO jobs (id, tenant_id, total_documents, batch_size, api_key_id) "
                          "VALUES (:id, :t, :n, 50, :k)"),
                     {"id": job_id, "t": tenant_id, "n": len(documents), "k": key_id})
        for n, doc in enumerate(documents):
            conn.execute(text("""
                INSERT INTO documents (id, tenant_id, job_id, external_id, batch_no, source, status,
                                       page_count, size_bytes, finished_at, parent_id)
                VALUES (:id, :t, :job, :ext, 0, :source, :status, :pages, :bytes, :finished, :parent)
            """), {"id": doc.get("id", str(uuid.uuid4())), "t": tenant_id, "job": job_id,
                   "ext": f"d{n}", "source": "attachment" if doc.get("parent") else "upload",
                   "status": doc["status"], "pages": doc.get("pages"), "bytes": doc.get("bytes"),
                   "finished": doc.get("finished"), "parent": doc.get("parent")})
    return job_id


def _at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=UTC)


@pytest.fixture
def metered(engine: Engine, key: str) -> dict[str, str]:
    """Two keys of one tenant with documents over three days, and a job without a key."""
    key_id, tenant_id, tenant_name = _key_row(engine, key)
    with engine.begin() as conn:
        second = create_key(conn, tenant_name, "second")
    second_id = _key_row(engine, second)[0]
    mail = str(uuid.uuid4())
    _job(engine, tenant_id, key_id, [
        {"status": "completed", "pages": 3, "bytes": 1000, "finished": _at(DAY, 0, 0)},
        {"status": "failed", "pages": None, "bytes": 500, "finished": _at(DAY, 23, 59)},
        {"status": "cancelled", "pages": None, "bytes": 7, "finished": _at(DAY, 12)},   # not processed
        {"status": "pending", "pages": None, "bytes": 9},                                # not terminal
        {"id": mail, "status": "completed", "pages": 1, "bytes": 2000, "finished": _at(DAY, 9)},
    ])
    # An attachment of that mail: a document processed, whose bytes are inside the mail's.
    with engine.begin() as conn:
        job_of_mail = conn.execute(text("SELECT job_id FROM documents WHERE id = :m"),
                                   {"m": mail}).scalar_one()
        conn.execute(text("""
            INSERT INTO documents (tenant_id, job_id, external_id, batch_no, source, status, page_count,
                                   size_bytes, finished_at, parent_id)
            VALUES (:t, :j, 'mail/att', 0, 'attachment', 'completed', 2, 300, :f, :m)
        """), {"t": tenant_id, "j": job_of_mail, "f": _at(DAY, 9, 1), "m": mail})
    _job(engine, tenant_id, second_id, [
        {"status": "completed", "pages": 10, "bytes": 40, "finished": _at(DAY, 5)},
        {"status": "completed", "pages": 1, "bytes": 2, "finished": _at(DAY + timedelta(days=1), 0, 0)},
        {"status": "completed", "pages": 1, "bytes": 2, "finished": _at(DAY - timedelta(days=1), 23, 59)},
    ])
    _job(engine, tenant_id, None, [{"status": "completed", "pages": 4, "bytes": 4, "finished": _at(DAY, 6)}])
    return {"key": key, "key_id": key_id, "second": second, "second_id": second_id, "tenant_id": tenant_id}


def test_usage_statement_groups_by_day_and_key(engine: Engine, metered: dict[str, str]) -> None:
    with engine.connect() as conn:
        rows = usage_by_key_and_day(conn, metered["tenant_id"], DAY, DAY)
    by_key = {row.api_key_id: row for row in rows}
    assert {row.day for row in rows} == {DAY} and len(rows) == 3
    first = by_key[metered["key_id"]]
    # Completed: the first, the mail and its attachment; one failed; cancelled and pending are not.
    assert (first.documents_completed, first.documents_failed) == (3, 1)
    assert first.pages == 3 + 1 + 2
    assert first.bytes == 1000 + 500 + 2000  # the attachment's 300 are inside the mail's 2000
    second = by_key[metered["second_id"]]
    assert (second.documents_completed, second.pages, second.bytes, second.key_name) == (1, 10, 40, "second")
    keyless = by_key[None]
    assert (keyless.documents_completed, keyless.pages, keyless.key_prefix) == (1, 4, None)
    # Days are UTC days, both ends included: the rows just either side of DAY are their days'.
    with engine.connect() as conn:
        wide = usage_by_key_and_day(conn, metered["tenant_id"], DAY - timedelta(days=1),
                                    DAY + timedelta(days=1))
    assert [(row.day, row.api_key_id) for row in wide if row.api_key_id == metered["second_id"]] == [
        (DAY - timedelta(days=1), metered["second_id"]), (DAY, metered["second_id"]),
        (DAY + timedelta(days=1), metered["second_id"])]
    assert [row.day for row in wide] == sorted(row.day for row in wide)


def test_usage_statement_reads_the_usage_index(engine: Engine, metered: dict[str, str]) -> None:
    with engine.connect() as conn:
        # Statistics that know this tenant's documents: with none yet (a freshly filled shared
        # test database), both indexes on tenant_id cost the same and the planner's pick between
        # them is arbitrary.
        conn.execute(text("ANALYZE documents"))
        conn.execute(text("SET LOCAL enable_seqscan = off"))
        plan = "\n".join(conn.execute(text("EXPLAIN " + str(_usage_sql())), {
            "tenant": metered["tenant_id"], "start": _at(DAY, 0),
            "end": _at(DAY + timedelta(days=1), 0)}).scalars())
    assert "documents_usage" in plan, plan


def _usage_sql() -> TextClause:
    from app.domain.statements.usage import USAGE_BY_KEY_AND_DAY

    return USAGE_BY_KEY_AND_DAY


def test_get_usage(client: FlaskClient, metered: dict[str, str]) -> None:
    response = client.get(f"/v1/usage?from={DAY}&to={DAY + timedelta(days=1)}",
                          headers=bearer(metered["second"]))  # any key of the tenant sees it all
    assert response.status_code == 200, response.data[:500]
    body = response.get_json()
    assert body["from"] == str(DAY) and body["to"] == str(DAY + timedelta(days=1))
    rows = [(r["day"], r["api_key_id"], r["documents_completed"], r["documents_failed"], r["pages"],
             r["bytes"]) for r in body["usage"]]
    assert (str(DAY), metered["key_id"], 3, 1, 6, 3500) in rows
    assert (str(DAY), metered["second_id"], 1, 0, 10, 40) in rows
    assert (str(DAY), None, 1, 0, 4, 4) in rows
    assert (str(DAY + timedelta(days=1)), metered["second_id"], 1, 0, 1, 2) in rows and len(rows) == 4
    assert body["totals"] == {"documents_completed": 6, "documents_failed": 1, "pages": 21, "bytes": 3546,
                              "transcription_seconds": 0.0}
    assert response.headers["RateLimit-Policy"] == '"default";q=600;w=60'


def test_usage_is_the_callers_tenants_only(client: FlaskClient, engine: Engine,
                                           metered: dict[str, str]) -> None:
    with engine.begin() as conn:
        stranger = create_key(conn, f"stranger-{uuid.uuid4().hex[:8]}")
    body = client.get(f"/v1/usage?from={DAY}&to={DAY}", headers=bearer(stranger)).get_json()
    assert body["usage"] == [] and body["totals"]["documents_completed"] == 0


@pytest.mark.parametrize("query, field", [
    ("", "from"),
    ("from=2031-03-14", "to"),
    ("from=2031-3-14x&to=2031-03-14", "from"),
    ("from=14/03/2031&to=2031-03-14", "from"),
    ("from=2031-03-15&to=2031-03-14", "to"),                 # ends before it starts
    ("from=2030-03-13&to=2031-03-14", "to"),                 # 367 days, both counted
    ("from=2031-03-14&to=9999-12-31", "to"),
    ("from=2031-02-30&to=2031-03-14", "from"),
])
def test_bad_ranges_are_400(client: FlaskClient, key: str, query: str, field: str) -> None:
    response = client.get(f"/v1/usage?{query}", headers=bearer(key))
    assert response.status_code == 400, response.data[:300]
    error = response.get_json()["error"]
    assert error["code"] == "validation_error" and field in error["details"], error


def test_366_days_are_one_range(client: FlaskClient, key: str) -> None:
    for query in ("from=2032-01-01&to=2032-12-31", "from=2030-03-14&to=2031-03-14"):
        response = client.get(f"/v1/usage?{query}", headers=bearer(key))
        assert response.status_code == 200 and response.get_json()["usage"] == []


def test_usage_needs_a_key(client: FlaskClient) -> None:
    assert client.get(f"/v1/usage?from={DAY}&to={DAY}").status_code == 401


# --- after a real worker ----------------------------------------------------------------------


def test_usage_after_ingesting_small_documents(client: FlaskClient, key: str, engine: Engine,
                                               worker: object) -> None:
    """Two small documents and a broken one through the real pipeline: the usage the key sees."""
    pdf = (ROOT / "samples" / "maintenance-report.pdf").read_bytes()
    markdown = b"# Usage\n\nA small Markdown document for metering.\n"
    broken = b"%PDF-1.4 broken"
    response = client.post("/v1/jobs", data={"files": [(io.BytesIO(pdf), "report.pdf"),
                                                       (io.BytesIO(markdown), "notes.md"),
                                                       (io.BytesIO(broken), "broken.pdf")]},
                           headers=bearer(key), content_type="multipart/form-data")
    assert response.status_code == 202, response.data[:500]
    job_id = response.get_json()["id"]

    def processed() -> bool:
        # The documents' own outcomes are what usage reads (the job's status follows them).
        with engine.connect() as conn:
            return not conn.execute(text("SELECT count(*) FROM documents WHERE job_id = :j AND "
                                         "status NOT IN ('completed', 'failed')"),
                                    {"j": job_id}).scalar_one()

    wait_for(processed, timeout=180, interval=0.5, what="the job's documents")
    key_id = _key_row(engine, key)[0]
    with engine.connect() as conn:
        pages, finished_day = conn.execute(text(
            "SELECT sum(page_count), min((finished_at AT TIME ZONE 'UTC')::date) FROM documents "
            "WHERE job_id = :j"), {"j": job_id}).one()
        recorded = conn.execute(text("SELECT api_key_id::text FROM jobs WHERE id = :j"),
                                {"j": job_id}).scalar_one()
    assert recorded == key_id
    around = f"from={finished_day - timedelta(days=1)}&to={finished_day + timedelta(days=1)}"
    body = client.get(f"/v1/usage?{around}", headers=bearer(key)).get_json()
    assert [(r["api_key_id"], r["documents_completed"], r["documents_failed"], r["bytes"])
            for r in body["usage"]] == [(key_id, 2, 1, len(pdf) + len(markdown) + len(broken))]
    assert body["usage"][0]["pages"] == (pages or 0) and body["usage"][0]["pages"] >= 1


# --- the migration ----------------------------------------------------------------------------


def test_migration_0015_goes_up_and_down(scratch_database: str) -> None:
    from app.infra.db import downgrade_schema, get_engine, upgrade_schema

    def schema() -> tuple[bool, set[str], bool]:
        with get_engine(scratch_database).connect() as conn:
            table = conn.execute(text("SELECT relpersistence FROM pg_class "
                                      "WHERE relname = 'rate_limit_arrivals'")).scalar_one_or_none()
            columns = set(conn.execute(text(
                "SELECT table_name || '.' || column_name FROM information_schema.columns WHERE "
                "(table_name, column_name) IN (('jobs', 'api_key_id'), "
                "('api_keys', 'rate_limit_per_minute'))")).scalars())
            index = conn.execute(text("SELECT 1 FROM pg_indexes WHERE indexname = 'documents_usage'")).first()
        return table == "u", columns, index is not None  # "u": UNLOGGED

    upgrade_schema(scratch_database, "0015")
    assert schema() == (True, {"jobs.api_key_id", "api_keys.rate_limit_per_minute"}, True)
    downgrade_schema(scratch_database, "0014")
    assert schema() == (False, set(), False)
    upgrade_schema(scratch_database, "0015")
    assert schema()[0]
