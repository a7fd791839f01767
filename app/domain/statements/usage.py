"""The statements of app/domain/usage.py: usage per API key per UTC day."""

from __future__ import annotations

from sqlalchemy import text

#: One tenant's usage from :start (inclusive) to :end (exclusive), both UTC midnights, by UTC
#: day and key, in one statement.  The index documents_usage (migration 0015) holds exactly the
#: rows the documents' part reads, in (tenant, finished_at) order, with the columns it sums;
#: each document's job is a primary key lookup for its key.  The transcription meter's rows
#: (migration 0025) are read by its unique index, (tenant, day, key), and joined on (day, key),
#: a missing key read as the nil UUID as there (a FULL JOIN needs an equality): a day and key
#: with seconds transcribed but no document finished has a row too.  Ordered by day, then key,
#: so the answer is stable.
USAGE_BY_KEY_AND_DAY = text("""
    WITH processed AS (
        SELECT (d.finished_at AT TIME ZONE 'UTC')::date AS day, j.api_key_id,
               count(*) FILTER (WHERE d.status = 'completed') AS documents_completed,
               count(*) FILTER (WHERE d.status = 'failed') AS documents_failed,
               coalesce(sum(d.page_count), 0) AS pages,
               coalesce(sum(d.size_bytes) FILTER (WHERE d.parent_id IS NULL), 0) AS bytes
        FROM documents d
        JOIN jobs j ON j.id = d.job_id
        WHERE d.tenant_id = CAST(:tenant AS uuid) AND d.status IN ('completed', 'failed')
          AND d.finished_at >= :start AND d.finished_at < :end
        GROUP BY 1, j.api_key_id
    ), transcribed AS (
        SELECT day, api_key_id, seconds FROM transcription_usage
        WHERE tenant_id = CAST(:tenant AS uuid)
          AND day >= (CAST(:start AS timestamptz) AT TIME ZONE 'UTC')::date
          AND day < (CAST(:end AS timestamptz) AT TIME ZONE 'UTC')::date
    )
    SELECT coalesce(p.day, t.day) AS day, coalesce(p.api_key_id, t.api_key_id)::text AS api_key_id,
           k.prefix AS key_prefix, k.name AS key_name,
           coalesce(p.documents_completed, 0) AS documents_completed,
           coalesce(p.documents_failed, 0) AS documents_failed,
           coalesce(p.pages, 0) AS pages, coalesce(p.bytes, 0) AS bytes,
           round(coalesce(t.seconds, 0)::numeric, 3)::float8 AS transcription_seconds
    FROM processed p
    FULL JOIN transcribed t ON t.day = p.day
     AND coalesce(t.api_key_id, '00000000-0000-0000-0000-000000000000'::uuid)
       = coalesce(p.api_key_id, '00000000-0000-0000-0000-000000000000'::uuid)
    LEFT JOIN api_keys k ON k.id = coalesce(p.api_key_id, t.api_key_id)
    ORDER BY 1, k.prefix NULLS LAST, 2
""")
