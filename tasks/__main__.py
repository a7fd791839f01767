"""``python -m tasks worker``: a worker without the CLI (see tasks/worker.py)."""

from tasks.worker import main

main()
