"""``python -m app.cli``: the ``pagemill`` command."""

from app.cli import main

main()
