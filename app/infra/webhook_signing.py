"""Standard Webhooks signatures (spec v1, symmetric): secrets and the ``webhook-signature`` header.

A secret is ``whsec_`` and the base64 of 32 random bytes; a signature is
``v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`` under the secret's
bytes.  During a rotation's overlap the header carries one signature per secret, space
separated, and a receiver accepts the request if any one verifies.

Written out rather than taken from the ``standardwebhooks`` package: it is these few lines,
and the tests verify pagemill's signatures with that package, an implementation of its own.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Sequence

SECRET_PREFIX = "whsec_"
SECRET_BYTES = 32


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode("ascii")


def _key(secret: str) -> bytes:
    raw = secret[len(SECRET_PREFIX):] if secret.startswith(SECRET_PREFIX) else secret
    return base64.b64decode(raw)


def sign(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """One ``v1,`` signature of ``body`` sent as ``message_id`` at ``timestamp`` (Unix seconds)."""
    signed = message_id.encode() + b"." + str(timestamp).encode() + b"." + body
    digest = hmac.new(_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def signature_header(secrets_: Sequence[str], message_id: str, timestamp: int, body: bytes) -> str:
    """The ``webhook-signature`` value: a signature per secret, the current one first."""
    return " ".join(sign(secret, message_id, timestamp, body) for secret in secrets_)
