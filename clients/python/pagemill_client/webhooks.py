"""Verifying pagemill's webhooks on the receiving side (Standard Webhooks, v1 symmetric).

pagemill signs ``{webhook-id}.{webhook-timestamp}.{body}`` with HMAC-SHA256 under the
endpoint's secret (``whsec_`` + base64 of the key) and sends ``webhook-signature: v1,<base64>``,
one signature per live secret (two during a rotation's 24 h overlap).  Written with the
standard library's ``hmac`` rather than taken from the ``standardwebhooks`` package: it is
these few lines, the client stays at one dependency (httpx), and the tests check it against
pagemill's real deliveries.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

SECRET_PREFIX = "whsec_"
# How far a delivery's timestamp may be from the receiver's clock (the spec's 5 minutes):
# a captured request cannot be replayed later.
DEFAULT_TOLERANCE_SECONDS = 300


class WebhookVerificationError(Exception):
    """The request is not a genuine, fresh delivery: refuse it (answer 400)."""


def _key(secret: str) -> bytes:
    raw = secret[len(SECRET_PREFIX):] if secret.startswith(SECRET_PREFIX) else secret
    try:
        return base64.b64decode(raw, validate=True)
    except binascii.Error as exc:
        raise ValueError("not a webhook secret (whsec_ and base64)") from exc


def _header(headers: Mapping[str, str], name: str) -> str:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    raise WebhookVerificationError(f"missing {name} header")


class WebhookVerifier:
    """``WebhookVerifier("whsec_...").verify(body, headers)``: the event as a dict, or
    :class:`WebhookVerificationError`.  Give several secrets to accept any of them (yours
    during a rotation).  ``body`` must be the raw bytes received, not re-encoded JSON."""

    def __init__(self, secrets: str | Sequence[str], tolerance: float = DEFAULT_TOLERANCE_SECONDS) -> None:
        self._keys = [_key(s) for s in ([secrets] if isinstance(secrets, str) else secrets)]
        if not self._keys:
            raise ValueError("no secret given")
        self.tolerance = tolerance

    def verify(self, body: bytes | str, headers: Mapping[str, str],
               now: float | None = None) -> dict[str, Any]:
        payload = body.encode() if isinstance(body, str) else bytes(body)
        message_id = _header(headers, "webhook-id")
        stamp = _header(headers, "webhook-timestamp")
        signatures = _header(headers, "webhook-signature")
        try:
            sent_at = int(stamp)
        except ValueError:
            raise WebhookVerificationError("invalid webhook-timestamp") from None
        if abs((time.time() if now is None else now) - sent_at) > self.tolerance:
            raise WebhookVerificationError("webhook-timestamp outside the tolerance")
        signed = f"{message_id}.{sent_at}.".encode() + payload
        expected = [base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()) for key in self._keys]
        for candidate in signatures.split():
            version, _, value = candidate.partition(",")
            if version != "v1":
                continue
            if any(hmac.compare_digest(value.encode(), mine) for mine in expected):
                event: dict[str, Any] = json.loads(payload)
                return event
        raise WebhookVerificationError("no matching signature")


def verify_webhook(secret: str | Sequence[str], body: bytes | str, headers: Mapping[str, str],
                   tolerance: float = DEFAULT_TOLERANCE_SECONDS) -> dict[str, Any]:
    """One-shot :meth:`WebhookVerifier.verify`."""
    return WebhookVerifier(secret, tolerance).verify(body, headers)
