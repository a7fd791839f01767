"""Tenants and API keys.

A key reads ``pm_<prefix>_<secret>``.  The prefix finds the row; only a SHA-256 of the
secret is stored (the secret is 256 random bits, so a slow hash adds nothing), and the
comparison is constant-time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from sqlalchemy import Connection, text

KEY_SCHEME = "pm"


@dataclass(frozen=True)
class Principal:
    tenant_id: str
    tenant_name: str
    key_id: str | None


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


def create_key(conn: Connection, tenant_name: str, name: str | None = None) -> str:
    """Create a key for ``tenant_name`` (creating the tenant if needed); returns the full key.

    The key is shown once: it cannot be recovered from the database.
    """
    tenant_id = ensure_tenant(conn, tenant_name)
    prefix = secrets.token_hex(6)
    secret = secrets.token_urlsafe(32)
    conn.execute(text("""
        INSERT INTO api_keys (tenant_id, prefix, secret_sha256, name)
        VALUES (:tenant, :prefix, :digest, :name)
    """), {"tenant": tenant_id, "prefix": prefix, "digest": _digest(secret), "name": name})
    return f"{KEY_SCHEME}_{prefix}_{secret}"


def authenticate(conn: Connection, key: str) -> Principal | None:
    scheme, _, rest = key.partition("_")
    prefix, _, secret = rest.partition("_")
    if scheme != KEY_SCHEME or not prefix.isascii() or not prefix.isalnum() or not secret:
        return None
    row = conn.execute(text("""
        SELECT k.id, k.secret_sha256, t.id AS tenant_id, t.name
        FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
        WHERE k.prefix = :prefix AND k.revoked_at IS NULL
    """), {"prefix": prefix}).one_or_none()
    if row is None or not hmac.compare_digest(row.secret_sha256, _digest(secret)):
        return None
    return Principal(tenant_id=str(row.tenant_id), tenant_name=row.name, key_id=str(row.id))
