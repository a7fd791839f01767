"""Celery tasks, the worker and the broker transport.  The Celery app is built by importing
``tasks.celery`` (which ``celery -A tasks ...`` does), never by importing this package: the
transport in ``tasks.broker`` stays usable by any Celery app."""
