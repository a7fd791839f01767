"""Tenants and API keys.

A key reads ``pm_<prefix>_<secret>``.  The prefix finds the row; only a SHA-256 of the
secret is stored (the secret is 256 random bits, so a slow hash adds nothing), and the
comparison is constant-time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection

from app.domain.statements import auth as sql

KEY_SCHEME = "pm"


@dataclass(frozen=True)
class Principal:
    tenant_id: str
    tenant_name: str
    key_id: str | None
    # The key's own requests-a-minute limit; None: the configured one (app/domain/rate_limits.py).
    rate_limit_per_minute: int | None = None


def ensure_tenant(conn: Connection, name: str) -> str:
    """The id of tenant ``name``, created if missing (idempotent under concurrency)."""
    row = conn.execute(sql.ENSURE_TENANT, {"name": name}).scalar_one()
    return str(row)


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def create_key(conn: Connection, tenant_name: str, name: str | None = None,
               rate_limit_per_minute: int | None = None, concurrency: int | None = None,
               transcription_seconds_per_day: int | None = None) -> str:
    """Create a key for ``tenant_name`` (creating the tenant if needed); returns the full key.
    ``rate_limit_per_minute``: the key's own limit (0: none), else the configured one;
    ``concurrency``: its own limit of batches running at once (app/domain/admission.py), else the
    configured one; ``transcription_seconds_per_day``: its own limit of seconds transcribed a
    UTC day (app/domain/transcription_quota.py; 0: none), else the configured one.

    The key is shown once: it cannot be recovered from the database.
    """
    tenant_id = ensure_tenant(conn, tenant_name)
    prefix = secrets.token_hex(6)
    secret = secrets.token_urlsafe(32)
    conn.execute(sql.INSERT_KEY, {
        "tenant": tenant_id, "prefix": prefix, "digest": _digest(secret), "name": name,
        "rate_limit": rate_limit_per_minute, "concurrency": concurrency,
        "transcription": transcription_seconds_per_day})
    return f"{KEY_SCHEME}_{prefix}_{secret}"


def authenticate(conn: Connection, key: str) -> Principal | None:
    scheme, _, rest = key.partition("_")
    prefix, _, secret = rest.partition("_")
    if scheme != KEY_SCHEME or not prefix.isascii() or not prefix.isalnum() or not secret:
        return None
    row = conn.execute(sql.FIND_LIVE_KEY, {"prefix": prefix}).one_or_none()
    if row is None or not hmac.compare_digest(row.secret_sha256, _digest(secret)):
        return None
    if row.use_stale:
        conn.execute(sql.MARK_KEY_USED, {"id": row.id})
    return Principal(tenant_id=str(row.tenant_id), tenant_name=row.name, key_id=str(row.id),
                     rate_limit_per_minute=row.rate_limit_per_minute)


def key_is_live(conn: Connection, key_id: str) -> bool:
    """False once the key ``key_id`` is revoked (or deleted)."""
    return bool(conn.execute(sql.KEY_IS_LIVE, {"id": key_id}).scalar_one())


@dataclass(frozen=True)
class KeyInfo:
    """What may be shown about a key: everything but its secret and the secret's digest."""

    id: str
    tenant: str
    name: str | None
    prefix: str
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None
    # Requests a minute; None: the configured limit (PAGEMILL_RATE_LIMIT_PER_MINUTE).
    rate_limit_per_minute: int | None
    # Batches running at once; None: the configured limit (PAGEMILL_KEY_CONCURRENCY).
    concurrency: int | None
    # Seconds transcribed a UTC day (0: unlimited); None: the configured limit
    # (PAGEMILL_TRANSCRIPTION_SECONDS_PER_DAY).
    transcription_seconds_per_day: int | None


def list_keys(conn: Connection, tenant_name: str | None = None) -> list[KeyInfo]:
    """Keys of tenant ``tenant_name`` (all keys when None); an unknown tenant has none."""
    rows = conn.execute(sql.LIST_KEYS, {"tenant": tenant_name}).mappings().all()
    return [KeyInfo(**row) for row in rows]


def _as_key_id(id_or_prefix: str) -> str | None:
    try:
        return str(uuid.UUID(id_or_prefix))
    except ValueError:
        return None


def revoke_key(conn: Connection, id_or_prefix: str) -> tuple[KeyInfo, bool] | None:
    """Revoke the key with this id or prefix: the key and whether it was revoked before this
    call, or None when there is no such key.  Takes effect at the next request."""
    row = conn.execute(sql.REVOKE_KEY, {"id": _as_key_id(id_or_prefix),
                                    "prefix": id_or_prefix}).mappings().one_or_none()
    if row is None:
        return None
    fields = dict(row)
    revoked_before = fields.pop("revoked_before")
    return KeyInfo(**fields), revoked_before is not None


def set_key_rate_limit(conn: Connection, id_or_prefix: str, per_minute: int | None) -> KeyInfo | None:
    """Give the key with this id or prefix its own limit of ``per_minute`` requests a minute
    (0: unlimited; None: the configured limit again); the key, or None when there is none."""
    if per_minute is not None and per_minute < 0:
        raise ValueError(f"a rate limit cannot be negative, got {per_minute}")
    row = conn.execute(sql.SET_KEY_RATE_LIMIT, {"id": _as_key_id(id_or_prefix), "prefix": id_or_prefix,
                                            "rate_limit": per_minute}).mappings().one_or_none()
    return KeyInfo(**row) if row is not None else None


def set_key_concurrency(conn: Connection, id_or_prefix: str, concurrency: int | None) -> KeyInfo | None:
    """Give the key with this id or prefix its own limit of batches running at once (None:
    the configured limit again); the key, or None when there is none."""
    if concurrency is not None and concurrency < 1:
        raise ValueError(f"a key's concurrency is at least 1, got {concurrency}")
    row = conn.execute(sql.SET_KEY_CONCURRENCY, {"id": _as_key_id(id_or_prefix), "prefix": id_or_prefix,
                                             "concurrency": concurrency}).mappings().one_or_none()
    return KeyInfo(**row) if row is not None else None


def set_key_transcription_limit(conn: Connection, id_or_prefix: str,
                                seconds_per_day: int | None) -> KeyInfo | None:
    """Give the key with this id or prefix its own limit of seconds transcribed a UTC day (0:
    unlimited; None: the configured limit again); the key, or None when there is none."""
    if seconds_per_day is not None and seconds_per_day < 0:
        raise ValueError(f"a transcription limit cannot be negative, got {seconds_per_day}")
    row = conn.execute(sql.SET_KEY_TRANSCRIPTION_LIMIT, {
        "id": _as_key_id(id_or_prefix), "prefix": id_or_prefix,
        "transcription": seconds_per_day}).mappings().one_or_none()
    return KeyInfo(**row) if row is not None else None
