"""The statements of app/domain/webhooks.py: endpoints, their deliveries and attempts, and the
breaker; events themselves are written by triggers (migration 0016), never here."""

from __future__ import annotations

from sqlalchemy import text

#: The tenant row lock orders concurrent creations of a tenant's endpoints, so that the count
#: that follows holds (NO KEY: rows inserted for the tenant elsewhere, which only share its
#: key, do not wait for it).
LOCK_TENANT_FOR_ENDPOINTS = text("SELECT 1 FROM tenants WHERE id = :tenant FOR NO KEY UPDATE")


#: How many endpoints tenant :tenant has (at most MAX_ENDPOINTS_PER_TENANT).
COUNT_ENDPOINTS = text("SELECT count(*) FROM webhook_endpoints WHERE tenant_id = :tenant")


# What an endpoint statement returns (an Endpoint's fields): the previous secret's expiry only
# while it still signs.
_ENDPOINT_FIELDS = """
    id, url, events, description, created_at, updated_at, disabled_at, disabled_reason,
    CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END
        AS previous_secret_expires_at
"""


#: A new endpoint of tenant :tenant; :secret is its signing secret, already encrypted.
INSERT_ENDPOINT = text(f"""
        INSERT INTO webhook_endpoints (tenant_id, url, events, description, secret)
        VALUES (:tenant, :url, CAST(:events AS text[]), :description, :secret)
        RETURNING {_ENDPOINT_FIELDS}
    """)


#: A page of tenant :tenant's endpoints, newest first.
LIST_ENDPOINTS = text(f"""
        SELECT {_ENDPOINT_FIELDS} FROM webhook_endpoints WHERE tenant_id = :tenant
        ORDER BY created_at DESC, id LIMIT :limit OFFSET :offset
    """)


#: Endpoint :id, if it is tenant :tenant's.
GET_ENDPOINT = text(f"""
        SELECT {_ENDPOINT_FIELDS} FROM webhook_endpoints
        WHERE id = CAST(:id AS uuid) AND tenant_id = :tenant
    """)


#: Remove endpoint :id of tenant :tenant; its deliveries and attempts go with it (cascade).
DELETE_ENDPOINT = text("""
        DELETE FROM webhook_endpoints WHERE id = CAST(:id AS uuid) AND tenant_id = :tenant
    """)


#: Make :secret endpoint :id's signing secret; the current one becomes the previous, and keeps
#: signing for :hours (a second rotation within that time ends the oldest's).
ROTATE_SECRET = text(f"""
        UPDATE webhook_endpoints
        SET previous_secret = secret, secret = :secret, updated_at = now(),
            previous_secret_expires_at = now() + make_interval(hours => :hours)
        WHERE id = CAST(:id AS uuid) AND tenant_id = :tenant
        RETURNING {_ENDPOINT_FIELDS}
    """)


#: A page of endpoint :endpoint's deliveries (tenant :tenant's; :status NULL: any status), newest
#: event first; next_attempt_at only while a delivery is pending.
LIST_DELIVERIES = text("""
        SELECT d.id, d.event_id, o.topic AS type, d.status, d.attempts AS attempt_count,
               CASE WHEN d.status = 'pending' THEN d.next_attempt_at END AS next_attempt_at,
               d.last_status_code, d.last_error, d.created_at, d.delivered_at
        FROM webhook_deliveries d
        JOIN webhook_endpoints e ON e.id = d.endpoint_id
        JOIN outbox o ON o.id = d.event_id
        WHERE e.id = CAST(:endpoint AS uuid) AND e.tenant_id = :tenant
          AND (CAST(:status AS text) IS NULL OR d.status = :status)
        ORDER BY d.event_id DESC
        LIMIT :limit OFFSET :offset
    """)


#: Every attempt of deliveries :ids, oldest first per delivery.
ATTEMPTS_OF_DELIVERIES = text("""
            SELECT delivery_id, attempted_at, status_code, error, duration_ms FROM webhook_attempts
            WHERE delivery_id = ANY(CAST(:ids AS bigint[])) ORDER BY delivery_id, id
        """)


#: Make event :event's delivery to endpoint :endpoint due now with a fresh schedule, creating
#: it if the endpoint never had it; no row when the endpoint or the event is not tenant :tenant's,
#: or the endpoint is disabled.
REDELIVER = text("""
        INSERT INTO webhook_deliveries AS d (endpoint_id, event_id)
        SELECT e.id, o.id FROM webhook_endpoints e JOIN outbox o ON o.tenant_id = e.tenant_id
        WHERE e.id = CAST(:endpoint AS uuid) AND e.tenant_id = :tenant AND o.id = :event
          AND e.disabled_at IS NULL
        ON CONFLICT (endpoint_id, event_id) DO UPDATE SET
            status = 'pending', attempts = 0, next_attempt_at = now(), updated_at = now(),
            leased_until = NULL
        RETURNING d.id
    """)


#: Take up to :limit due deliveries, counting the attempt and leasing each for :lease seconds.
#: Each due delivery is ranked within its tenant and its endpoint, each rank counting the
#: attempts in flight there (a live leased_until, whichever sender holds it); the lowest tenant
#: ranks go first, so tenants take turns, and no tenant or endpoint passes its share
#: (:tenant_share, :endpoint_share; :tripped_share once :threshold attempts in a row failed).
#: Paused and disabled endpoints are skipped; SKIP LOCKED lets senders claim side by side.
CLAIM_DUE = text("""
        WITH in_flight AS (
            SELECT d.endpoint_id, e.tenant_id
            FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
            WHERE d.leased_until > now()
        ), tenant_load AS (
            SELECT tenant_id, count(*) AS n FROM in_flight GROUP BY tenant_id
        ), endpoint_load AS (
            SELECT endpoint_id, count(*) AS n FROM in_flight GROUP BY endpoint_id
        ), candidates AS (
            -- Each live endpoint's earliest due deliveries, no more than it may send at once (an
            -- index probe per endpoint): a backlog of thousands is never sorted at each claim.
            SELECT c.id, c.next_attempt_at, e.id AS endpoint_id, e.tenant_id, e.consecutive_failures
            FROM webhook_endpoints e
            CROSS JOIN LATERAL (
                SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
                WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= now()
                ORDER BY d.next_attempt_at, d.id
                LIMIT :endpoint_share
            ) c
            WHERE e.disabled_at IS NULL AND (e.paused_until IS NULL OR e.paused_until <= now())
        ), ranked AS (
            SELECT c.id, c.next_attempt_at, c.consecutive_failures,
                   coalesce(t.n, 0) + row_number() OVER (
                       PARTITION BY c.tenant_id ORDER BY c.next_attempt_at, c.id) AS tenant_rank,
                   coalesce(p.n, 0) + row_number() OVER (
                       PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at, c.id) AS endpoint_rank
            FROM candidates c
            LEFT JOIN tenant_load t ON t.tenant_id = c.tenant_id
            LEFT JOIN endpoint_load p ON p.endpoint_id = c.endpoint_id
        ), chosen AS (
            SELECT id, tenant_rank, next_attempt_at FROM ranked
            WHERE tenant_rank <= :tenant_share
              AND endpoint_rank <= CASE WHEN consecutive_failures >= :threshold
                                        THEN :tripped_share ELSE :endpoint_share END
        ), due AS (
            SELECT d.id FROM webhook_deliveries d JOIN chosen c ON c.id = d.id
            WHERE d.status = 'pending' AND d.next_attempt_at <= now()
            ORDER BY c.tenant_rank, c.next_attempt_at
            LIMIT :limit
            FOR UPDATE OF d SKIP LOCKED
        )
        UPDATE webhook_deliveries d
        SET attempts = d.attempts + 1, updated_at = now(),
            next_attempt_at = now() + make_interval(secs => :lease),
            leased_until = now() + make_interval(secs => :lease)
        FROM due, webhook_endpoints e, outbox o
        WHERE d.id = due.id AND e.id = d.endpoint_id AND o.id = d.event_id
        RETURNING d.id, d.attempts, d.event_id, e.id AS endpoint_id, e.tenant_id, e.url, e.secret,
                  CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END
                      AS previous_secret,
                  o.topic, o.created_at, o.payload
    """)


#: Which of endpoints :ids still exist and are enabled.
LIVE_ENDPOINTS = text("""
        SELECT id FROM webhook_endpoints
        WHERE id = ANY(CAST(:ids AS uuid[])) AND disabled_at IS NULL
    """)


#: Endpoint :id's failures in a row, locked in the order a deletion takes its locks (endpoint,
#: then deliveries), so recording and deleting never deadlock.  KEY SHARE: recorders of one
#: endpoint do not wait for one another; a deletion waits.  No row: the endpoint is gone.
LOCK_ENDPOINT_FOR_OUTCOME = text("""
        SELECT consecutive_failures FROM webhook_endpoints WHERE id = CAST(:id AS uuid) FOR KEY SHARE
    """)


#: Store attempt :attempts of delivery :id (while the delivery exists) and settle the delivery
#: to :status, only if it is still in this attempt's hands: a redelivery requested meanwhile
#: wins.  Returns how many deliveries were settled and attempts stored (0 or 1 each).
RECORD_ATTEMPT = text("""
        WITH settled AS (
            UPDATE webhook_deliveries
            SET status = CASE WHEN status = 'disabled' THEN status ELSE :status END,
                last_status_code = :code, last_error = :error, updated_at = now(),
                leased_until = NULL,
                next_attempt_at = CASE WHEN :status = 'pending'
                                       THEN now() + make_interval(secs => :delay)
                                       ELSE next_attempt_at END,
                delivered_at = CASE WHEN :status = 'delivered' THEN now() END
            WHERE id = :id AND attempts = :attempts
            RETURNING id
        ), attempt AS (
            INSERT INTO webhook_attempts (delivery_id, status_code, error, duration_ms)
            SELECT id, :code, :error, :ms FROM webhook_deliveries WHERE id = :id
            RETURNING delivery_id
        )
        SELECT (SELECT count(*) FROM settled), (SELECT count(*) FROM attempt)
    """)


#: The webhook.exhausted event of a delivery that gave up: into the outbox of tenant :tenant,
#: with the endpoint, the event, the attempts and the last answer, and a link to the deliveries.
INSERT_EXHAUSTED_EVENT = text("""
            INSERT INTO outbox (tenant_id, topic, payload)
            VALUES (:tenant, :topic, jsonb_build_object(
                'endpoint_id', CAST(:endpoint AS text), 'event_id', CAST(:event AS text),
                'attempts', CAST(:attempts AS integer), 'last_status_code', CAST(:code AS integer),
                'last_error', CAST(:error AS text),
                'links', jsonb_build_object(
                    'deliveries', '/v1/webhooks/' || CAST(:endpoint AS text) || '/deliveries')))
        """)


#: Attempt :attempts of delivery :id was never made: no longer in flight, due again at once.
RELEASE_LEASE = text("""
        UPDATE webhook_deliveries
        SET leased_until = NULL, attempts = attempts - 1, next_attempt_at = now(), updated_at = now()
        WHERE id = :id AND attempts = :attempts
    """)


#: An HTTP answer from endpoint :id closes its breaker.
CLOSE_BREAKER = text("""
                UPDATE webhook_endpoints SET consecutive_failures = 0, paused_until = NULL
                WHERE id = CAST(:id AS uuid)
            """)


#: One more attempt in a row without an answer from endpoint :id; paused for :pause seconds
#: (NULL: the pause it has stays).
COUNT_FAILURE = text("""
        UPDATE webhook_endpoints
        SET consecutive_failures = consecutive_failures + 1,
            paused_until = CASE WHEN CAST(:pause AS double precision) IS NULL THEN paused_until
                                ELSE now() + make_interval(secs => :pause) END
        WHERE id = CAST(:id AS uuid)
    """)


#: Disable endpoint :id for :reason (the first reason stays).
DISABLE_ENDPOINT = text("""
        UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = :reason, updated_at = now()
        WHERE id = CAST(:id AS uuid) AND disabled_at IS NULL
    """)


#: The pending deliveries of a disabled endpoint :id will not be attempted.
DISABLE_PENDING_DELIVERIES = text("""
        UPDATE webhook_deliveries SET status = 'disabled', updated_at = now()
        WHERE endpoint_id = CAST(:id AS uuid) AND status = 'pending'
    """)
