"""The statements of app/domain/auth.py: tenants and API keys (only a SHA-256 of a key's secret is
stored, and no statement selects it except the one that checks a key)."""

from __future__ import annotations

from sqlalchemy import text

#: The id of tenant :name, inserted if missing.  ON CONFLICT DO NOTHING returns no row for an
#: existing name, so the SELECT after UNION ALL finds it: idempotent under concurrency.
ENSURE_TENANT = text("""
        WITH ins AS (
            INSERT INTO tenants (name) VALUES (:name) ON CONFLICT (name) DO NOTHING RETURNING id
        )
        SELECT id FROM ins UNION ALL SELECT id FROM tenants WHERE name = :name LIMIT 1
    """)


#: A new key of tenant :tenant: only the SHA-256 of its secret (:digest) is stored, and its
#: own limits (NULL: the configured ones).
INSERT_KEY = text("""
        INSERT INTO api_keys (tenant_id, prefix, secret_sha256, name, rate_limit_per_minute,
                              concurrency, transcription_seconds_per_day)
        VALUES (:tenant, :prefix, :digest, :name, :rate_limit, :concurrency, :transcription)
    """)


#: The key a request names, if it is not revoked.  Read on every request, never cached, so a
#: revocation is refused from the next request on.
FIND_LIVE_KEY = text("""
    SELECT k.id, k.secret_sha256, t.id AS tenant_id, t.name, k.rate_limit_per_minute,
           k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute' AS use_stale
    FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
    WHERE k.prefix = :prefix AND k.revoked_at IS NULL
""")


#: At most one write a minute per key: "last used" is for finding idle keys, and a write (and a
#: row lock) on every request would make busy keys contend with each other.  Issued only when
#: FIND_LIVE_KEY says the time is stale; the condition is repeated for concurrent requests.
MARK_KEY_USED = text("""
    UPDATE api_keys SET last_used_at = now()
    WHERE id = :id AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
""")


#: Whether a key still stands: what a long-lived response (an event stream) checks as it goes.
KEY_IS_LIVE = text("""
    SELECT EXISTS (SELECT 1 FROM api_keys WHERE id = CAST(:id AS uuid) AND revoked_at IS NULL)
""")


#: Every key, or one tenant's, oldest first; the secret's digest is deliberately not selected.
LIST_KEYS = text("""
    SELECT k.id::text AS id, t.name AS tenant, k.name, k.prefix, k.created_at, k.last_used_at,
           k.revoked_at, k.rate_limit_per_minute, k.concurrency, k.transcription_seconds_per_day
    FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
    WHERE CAST(:tenant AS text) IS NULL OR t.name = :tenant
    ORDER BY k.created_at, k.id
""")


#: Revoke one key, named by id or by prefix (the part of a key after ``pm_``, which is what a
#: leaked key shows).  A second revocation keeps the first time.  Returns the row as it was
#: before, so the caller can tell "revoked now" from "already revoked".
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


#: Set one key's own rate limit (NULL: back to the configured one), by id or prefix; from the
#: next request on, since every request reads it with the key (FIND_LIVE_KEY).
SET_KEY_RATE_LIMIT = text(f"""
    UPDATE api_keys k SET rate_limit_per_minute = :rate_limit
    FROM tenants t
    WHERE (k.id = CAST(:id AS uuid) OR k.prefix = :prefix) AND t.id = k.tenant_id
    RETURNING {_KEY_FIELDS}
""")


#: Set one key's own concurrency (NULL: back to the configured one), by id or prefix; the next
#: admission run (app/domain/admission.py reads it there) applies it.
SET_KEY_CONCURRENCY = text(f"""
    UPDATE api_keys k SET concurrency = :concurrency
    FROM tenants t
    WHERE (k.id = CAST(:id AS uuid) OR k.prefix = :prefix) AND t.id = k.tenant_id
    RETURNING {_KEY_FIELDS}
""")


#: Set one key's own limit of seconds transcribed a UTC day (NULL: back to the configured one), by
#: id or prefix; the next recording's reservation (app/domain/transcription_quota.py) reads it.
SET_KEY_TRANSCRIPTION_LIMIT = text(f"""
    UPDATE api_keys k SET transcription_seconds_per_day = :transcription
    FROM tenants t
    WHERE (k.id = CAST(:id AS uuid) OR k.prefix = :prefix) AND t.id = k.tenant_id
    RETURNING {_KEY_FIELDS}
""")
