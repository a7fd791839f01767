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

from sqlalchemy import Connection, text

KEY_SCHEME = "pm"


@dataclass(frozen=True)
class Principal:
    tenant_id: str
    tenant_name: str
    key_id: str | None
    # The key's own requests-a-minute limit; None: the configured one (app/rate_limits.py).
    rate_limit_per_minute: int | None = None


def ensure_tenant(conn: Connection, name: str) -> str:
    """The id of tenant ``name``, created if missing (idempotent under concurrency)."""
    row = conn.execute(text("""
        WITH ins AS (
            INSERT INTO tenants (name) VALUES (:name) ON CONFLICT (name) DO NOTHING RETURNING id
        )
        SELECT id FROM ins UNION ALL SELECT id FROM tenants WHERE name = :name LIMIT 1
    """), {"name": name}).scalar_one()
    return str(row)


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def create_key(conn: Connection, tenant_name: str, name: str | None = None,
               rate_limit_per_minute: int | None = None, concurrency: int | None = None,
               transcription_seconds_per_day: int | None = None) -> str:
    """Create a key for ``tenant_name`` (creating the tenant if needed); returns the full key.
    ``rate_limit_per_minute``: the key's own limit (0: none), else the configured one;
    ``concurrency``: its own limit of batches running at once (app/admission.py), else the
    configured one; ``transcription_seconds_per_day``: its own limit of seconds transcribed a
    UTC day (app/transcription_quota.py; 0: none), else the configured one.

    The key is shown once: it cannot be recovered from the database.
    """
    tenant_id = ensure_tenant(conn, tenant_name)
    prefix = secrets.token_hex(6)
    secret = secrets.token_urlsafe(32)
    conn.execute(text("""
        INSERT INTO api_keys (tenant_id, prefix, secret_sha256, name, rate_limit_per_minute,
                              concurrency, transcription_seconds_per_day)
        VALUES (:tenant, :prefix, :digest, :name, :rate_limit, :concurrency, :transcription)
    """), {"tenant": tenant_id, "prefix": prefix, "digest": _digest(secret), "name": name,
           "rate_limit": rate_limit_per_minute, "concurrency": concurrency,
           "transcription": transcription_seconds_per_day})
    return f"{KEY_SCHEME}_{prefix}_{secret}"


# The key a request names, if it is not revoked.  Read on every request, never cached, so a
# revocation is refused from the next request on.
FIND_LIVE_KEY = text("""
    SELECT k.id, k.secret_sha256, t.id AS tenant_id, t.name, k.rate_limit_per_minute,
           k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute' AS use_stale
    FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
    WHERE k.prefix = :prefix AND k.revoked_at IS NULL
""")

# At most one write a minute per key: "last used" is for finding idle keys, and a write (and a
# row lock) on every request would make busy keys contend with each other.  Issued only when
# FIND_LIVE_KEY says the time is stale; the condition is repeated for concurrent requests.
MARK_KEY_USED = text("""
    UPDATE api_keys SET last_used_at = now()
    WHERE id = :id AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
""")


def authenticate(conn: Connection, key: str) -> Principal | None:
    scheme, _, rest = key.partition("_")
    prefix, _, secret = rest.partition("_")
    if scheme != KEY_SCHEME or not prefix.isascii() or not prefix.isalnum() or not secret:
        return None
    row = conn.execute(FIND_LIVE_KEY, {"prefix": prefix}).one_or_none()
    if row is None or not hmac.compare_digest(row.secret_sha256, _digest(secret)):
        return None
    if row.use_stale:
        conn.execute(MARK_KEY_USED, {"id": row.id})
    return Principal(tenant_id=str(row.tenant_id), tenant_name=row.name, key_id=str(row.id),
                     rate_limit_per_minute=row.rate_limit_per_minute)


# Whether a key still stands: what a long-lived response (an event stream) checks as it goes.
KEY_IS_LIVE = text("""
    SELECT EXISTS (SELECT 1 FROM api_keys WHERE id = CAST(:id AS uuid) AND revoked_at IS NULL)
""")


def key_is_live(conn: Connection, key_id: str) -> bool:
    """False once the key ``key_id`` is revoked (or deleted)."""
    return bool(conn.execute(KEY_IS_LIVE, {"id": key_id}).scalar_one())


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


# Every key, or one tenant's, oldest first; the secret's digest is deliberately not selected.
LIST_KEYS = text("""
    SELECT k.id::text AS id, t.name AS tenant, k.name, k.prefix, k.created_at, k.last_used_at,
           k.revoked_at, k.rate_limit_per_minute, k.concurrency, k.transcription_seconds_per_day
    FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
    WHERE CAST(:tenant AS text) IS NULL OR t.name = :tenant
    ORDER BY k.created_at, k.id
""")

# Revoke one key, named by id or by prefix (the part of a key after ``pm_``, which is what a
# leaked key shows).  A second revocation keeps the first time.  Returns the row as it was
# before, so the caller can tell "revoked now" from "already revoked".
REVOKE_KEY = text("""
    WITH target AS (
        SELECT k.id, k.revoked_at AS revoked_before FROM api_keys k
        WHERE k.id = CAST(:id AS uuid) OR k.prefix = :prefix
        FOR UPDATE
    )
    UPDATE api_keys k SET revoked_at = coalesce(k.revoked_at, now())
    FROM target, tenants t
    WHERE k.id = target.id AND t.id = k.tenant_id
    RETURNING k.id::text AS id, t.name AS tenant, k.name, k.prefix, k.created_at,
              k.last_used_at, k.revoked_at, k.rate_limit_per_minute, k.concurrency,
              k.transcription_seconds_per_day, target.revoked_before
""")

# What a key-changing statement returns about the key (a KeyInfo's fields).
_KEY_FIELDS = """k.id::text AS id, t.name AS tenant, k.name, k.prefix, k.created_at,
              k.last_used_at, k.revoked_at, k.rate_limit_per_minute, k.concurrency,
              k.transcription_seconds_per_day"""

# Set one key's own rate limit (NULL: back to the configured one), by id or prefix; from the
# next request on, since every request reads it with the key (FIND_LIVE_KEY).
SET_KEY_RATE_LIMIT = text(f"""
    UPDATE api_keys k SET rate_limit_per_minute = :rate_limit
    FROM tenants t
    WHERE (k.id = CAST(:id AS uuid) OR k.prefix = :prefix) AND t.id = k.tenant_id
    RETURNING {_KEY_FIELDS}
""")

# Set one key's own concurrency (NULL: back to the configured one), by id or prefix; the next
# admission run (app/admission.py reads it there) applies it.
SET_KEY_CONCURRENCY = text(f"""
    UPDATE api_keys k SET concurrency = :concurrency
    FROM tenants t
    WHERE (k.id = CAST(:id AS uuid) OR k.prefix = :prefix) AND t.id = k.tenant_id
    RETURNING {_KEY_FIELDS}
""")


# Set one key's own limit of seconds transcribed a UTC day (NULL: back to the configured one), by
# id or prefix; the next recording's reservation (app/transcription_quota.py) reads it.
SET_KEY_TRANSCRIPTION_LIMIT = text(f"""
    UPDATE api_keys k SET transcription_seconds_per_day = :transcription
    FROM tenants t
    WHERE (k.id = CAST(:id AS uuid) OR k.prefix = :prefix) AND t.id = k.tenant_id
    RETURNING {_KEY_FIELDS}
""")


def list_keys(conn: Connection, tenant_name: str | None = None) -> list[KeyInfo]:
    """Keys of tenant ``tenant_name`` (all keys when None); an unknown tenant has none."""
    rows = conn.execute(LIST_KEYS, {"tenant": tenant_name}).mappings().all()
    return [KeyInfo(**row) for row in rows]


def _as_key_id(id_or_prefix: str) -> str | None:
    try:
        return str(uuid.UUID(id_or_prefix))
    except ValueError:
        return None


def revoke_key(conn: Connection, id_or_prefix: str) -> tuple[KeyInfo, bool] | None:
    """Revoke the key with this id or prefix: the key and whether it was revoked before this
    call, or None when there is no such key.  Takes effect at the next request."""
    row = conn.execute(REVOKE_KEY, {"id": _as_key_id(id_or_prefix),
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
    row = conn.execute(SET_KEY_RATE_LIMIT, {"id": _as_key_id(id_or_prefix), "prefix": id_or_prefix,
                                            "rate_limit": per_minute}).mappings().one_or_none()
    return KeyInfo(**row) if row is not None else None


def set_key_concurrency(conn: Connection, id_or_prefix: str, concurrency: int | None) -> KeyInfo | None:
    """Give the key with this id or prefix its own limit of batches running at once (None:
    the configured limit again); the key, or None when there is none."""
    if concurrency is not None and concurrency < 1:
        raise ValueError(f"a key's concurrency is at least 1, got {concurrency}")
    row = conn.execute(SET_KEY_CONCURRENCY, {"id": _as_key_id(id_or_prefix), "prefix": id_or_prefix,
                                             "concurrency": concurrency}).mappings().one_or_none()
    return KeyInfo(**row) if row is not None else None


def set_key_transcription_limit(conn: Connection, id_or_prefix: str,
                                seconds_per_day: int | None) -> KeyInfo | None:
    """Give the key with this id or prefix its own limit of seconds transcribed a UTC day (0:
    unlimited; None: the configured limit again); the key, or None when there is none."""
    if seconds_per_day is not None and seconds_per_day < 0:
        raise ValueError(f"a transcription limit cannot be negative, got {seconds_per_day}")
    row = conn.execute(SET_KEY_TRANSCRIPTION_LIMIT, {
        "id": _as_key_id(id_or_prefix), "prefix": id_or_prefix,
        "transcription": seconds_per_day}).mappings().one_or_none()
    return KeyInfo(**row) if row is not None else None
