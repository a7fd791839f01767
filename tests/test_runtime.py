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
