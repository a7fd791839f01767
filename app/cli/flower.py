"""``pagemill flower``: Flower (Celery's monitoring UI, which can also revoke tasks and shut
workers down) only with authentication, and bound to loopback unless told otherwise.

``celery -A tasks flower`` alone serves that UI to anyone who can reach the port, on every
interface.  This command refuses to start unless Flower's own settings ask for authentication,
then becomes ``celery -A tasks flower`` (exec: Flower is the process the platform supervises).
"""

from __future__ import annotations

import os
import sys

import click

DEFAULT_ADDRESS = "127.0.0.1"
DEFAULT_PORT = "5555"
# Flower reads every option from FLOWER_<NAME> (flower/command.py apply_env_options).
OAUTH_SETTINGS = ("FLOWER_AUTH", "FLOWER_AUTH_PROVIDER", "FLOWER_OAUTH2_KEY",
                  "FLOWER_OAUTH2_SECRET", "FLOWER_OAUTH2_REDIRECT_URI")


def authentication_problem(env: dict[str, str]) -> str | None:
    """Why ``env`` does not make Flower authenticate its users, or None if it does."""
    basic = env.get("FLOWER_BASIC_AUTH", "").strip()
    if basic:
        for pair in basic.split(","):
            user, _, password = pair.partition(":")
            if not user.strip() or not password:
                return ("FLOWER_BASIC_AUTH must be user:password pairs separated by commas "
                        "(a user without a password is not authentication)")
        return None
    if any(env.get(name) for name in OAUTH_SETTINGS):
        missing = [name for name in OAUTH_SETTINGS if not env.get(name)]
        if missing:
            return f"OAuth for Flower needs every one of {', '.join(OAUTH_SETTINGS)}; missing: " \
                   f"{', '.join(missing)}"
        return None
    return ("Flower would accept anyone: set FLOWER_BASIC_AUTH=user:password (or OAuth: "
            f"{', '.join(OAUTH_SETTINGS)}); its UI can revoke tasks and shut workers down")


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("flower_args", nargs=-1, type=click.UNPROCESSED)
def flower(flower_args: tuple[str, ...]) -> None:
    """Run Flower with authentication required (FLOWER_BASIC_AUTH, or Flower's OAuth
    settings), on FLOWER_ADDRESS (default 127.0.0.1) and FLOWER_PORT (default 5555).
    Other arguments go to Flower."""
    problem = authentication_problem(dict(os.environ))
    if problem:
        raise click.ClickException(f"refusing to start Flower: {problem}")
    env = dict(os.environ)
    # Loopback unless the platform says which address to serve on (FLOWER_ADDRESS=0.0.0.0
    # behind its router); an explicit --address among flower_args wins over both.
    env.setdefault("FLOWER_ADDRESS", DEFAULT_ADDRESS)
    env.setdefault("FLOWER_PORT", DEFAULT_PORT)
    argv = [sys.executable, "-m", "celery", "-A", "tasks", "flower", *flower_args]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, argv, env)
