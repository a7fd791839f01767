"""Static Celery settings.  Broker and result-backend URLs are derived from pagemill's
configuration when Celery first needs them (see tasks/celery.py)."""

from kombu import Queue

task_serializer = "json"
result_serializer = "json"
accept_content = ["json"]
timezone = "UTC"
enable_utc = True

# A task is acknowledged after it ran, and re-queued if its worker dies, so that a crash
# re-runs the batch; the database decides what of it is already done.
task_acks_late = True
task_reject_on_worker_lost = True
worker_prefetch_multiplier = 1
task_track_started = True

# A batch of 50 documents with OCR can take minutes; a runaway one is stopped.
task_soft_time_limit = 1800
task_time_limit = 1900

result_expires = 7 * 24 * 3600
broker_connection_retry_on_startup = True
worker_hijack_root_logger = False
worker_redirect_stdouts = False

task_default_queue = "pagemill"
# Audio and video batches go to pagemill.media, under their own time limit (tasks/ingest.py).
# A worker started without -Q takes both queues; `pagemill worker --queues pagemill.media`
# (or `celery -A tasks worker -Q pagemill.media`) keeps long recordings off the others.
task_queues = (Queue(task_default_queue, routing_key=task_default_queue),
               Queue("pagemill.media", routing_key="pagemill.media"))

# The reconciler re-publishes jobs whose publish failed and settles jobs whose chord
# callback was lost (run `celery -A tasks beat`, or `pagemill worker --beat`).
# Webhooks are sent by each worker's main process, not by tasks (tasks/webhooks.py).
beat_schedule = {
    "reconcile-jobs": {"task": "pagemill.reconcile_jobs", "schedule": 30.0},
}
