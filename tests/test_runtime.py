"""A process's runtime is built from the configuration it is given and passed on: an API made
with ``create_app(config)`` writes and dispatches its jobs with that configuration, whatever
the environment says (app/runtime.py, app/services/dispatch.py, tasks/publisher.py)."""

from __future__ import annotations

import os

from sqlalchemy import text

from app.api import create_app
from app.config import Config
from app.domain.auth import create_key
from app.infra.db import get_engine
from tests.conftest import bearer, private_database_url


def _messages_for(url: str, job_id: str) -> int:
    with get_engine(url).connect() as conn:
        return conn.execute(text("SELECT count(*) FROM broker_messages WHERE payload LIKE :job"),
                            {"job": f"%{job_id}%"}).scalar_one()


def test_an_app_writes_and_dispatches_with_its_own_configuration(database_url, test_env):
    with private_database_url(database_url) as private:
        # The environment names the shared test database; the app is given another one.
        assert os.environ["DATABASE_URL"] == database_url != private
        config = Config.from_env({**test_env, "DATABASE_URL": private})
        with get_engine(private).begin() as conn:
            key = create_key(conn, "own-configuration")
        client = create_app(config).test_client()
        response = client.post("/v1/jobs", json={"documents": [{"id": "a", "text": "Words."}]},
                               headers=bearer(key))
        assert response.status_code == 202, response.get_json()
        job_id = response.get_json()["id"]
        with get_engine(private).connect() as conn:
            published = conn.execute(text("SELECT published_at IS NOT NULL FROM batches "
                                          "WHERE job_id = :j"), {"j": job_id}).scalar_one()
        assert published
        # Its batch went to the broker of the database it was written to, not the environment's.
        assert _messages_for(private, job_id) == 1
        assert _messages_for(database_url, job_id) == 0


def test_the_celery_publisher_sends_each_request_of_the_workflow_as_its_task(database_url, test_env):
    """What the workflow asks for (app/domain/publisher.py) reaches the runtime's broker as
    the task that does it, with its arguments."""
    from app.runtime import Runtime

    with private_database_url(database_url) as private:
        runtime = Runtime(Config.from_env({**test_env, "DATABASE_URL": private}))
        runtime.publisher.build_vector_index()
        runtime.publisher.resume_provider_batch("batch-to-submit", submitting=True)
        runtime.publisher.resume_provider_batch("batch-to-check", submitting=False)
        with get_engine(private).connect() as conn:
            payloads = conn.execute(text("SELECT payload FROM broker_messages ORDER BY id")).scalars().all()
    assert len(payloads) == 3
    for payload, task, argument in zip(payloads, ("pagemill.build_vector_index", "pagemill.provider_submit",
                                                  "pagemill.provider_check"),
                                       ("", "batch-to-submit", "batch-to-check"), strict=True):
        assert f'"task": "{task}"' in payload and argument in payload
