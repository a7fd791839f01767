"""Celery application and tasks (``celery -A tasks worker``)."""

from tasks.celery_app import app

__all__ = ["app"]
